//! Declare a tool, look at what a model sees of it, and call it like a host would.
//!
//! `cargo run -p toolhook-examples --example declare_a_tool`

use toolhook::{DeclaredTool, Dialect, Locale, tool};

/// Convert a temperature between Celsius and Fahrenheit.
///
/// Rounds to one decimal.
#[tool(core_tool = true)]
async fn convert_temperature(
    /// The temperature to convert.
    value: f64,
    /// The unit of `value`.
    #[param(enum = ["celsius", "fahrenheit"])]
    from: String,
) -> String {
    let (converted, unit) =
        if from == "celsius" { (value * 9.0 / 5.0 + 32.0, "°F") } else { ((value - 32.0) * 5.0 / 9.0, "°C") };
    format!("{:.1}{unit}", converted)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let spec = DeclaredTool::all().into_iter().find(|t| t.name() == "convert_temperature").unwrap().spec().unwrap();
    println!("{}\n", spec.detailed_description(Locale::En));
    println!("{}\n", spec.detailed_description(Locale::ZhHans));
    let definition = spec.llm_definition(Dialect::Anthropic, Locale::En).unwrap();
    println!("{}\n", serde_json::to_string_pretty(&definition).unwrap());
    for arguments in [
        r#"{"value": 21.5, "from": "celsius"}"#,
        r#"{"value": "70", "from": "fahrenheit"}"#,
        r#"{"value": 1, "from": "kelvin"}"#,
    ] {
        let result = toolhook_runtime::testing::invoke("convert_temperature", arguments).await;
        println!("{arguments} → {}", if result.success { result.content } else { result.error_message });
    }
}
