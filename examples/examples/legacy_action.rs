//! A legacy `#[action]` and its `#[tool]` rewrite, side by side: what the model sees of each.
//!
//! `cargo run -p toolhook-examples --example legacy_action`

use toolhook::{DeclaredTool, Locale, ToolKind};

use toolhook_examples as _;

fn main() {
    for name in ["poke_legacy", "poke"] {
        let tool = DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap();
        let spec = tool.spec().unwrap();
        let kind = if tool.kind() == ToolKind::LegacyAction { "legacy #[action]" } else { "#[tool]" };
        println!("== {name} ({kind})");
        println!("{}\n", spec.detailed_description(Locale::En));
        println!("{}\n", serde_json::to_string_pretty(spec.parameters_schema()).unwrap());
    }
}
