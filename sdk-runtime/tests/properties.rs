//! Properties over what the outside world sends a host: argument documents (numbers of any
//! size), chat messages run as commands, and stored config documents. Whatever arrives, nothing
//! panics, every answer is bounded, and what is decoded is exactly what was sent.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolhook::{ToolExecutionContext, ToolInvocation, command, tool};
use toolhook_runtime::{CommandSet, PluginSet, PluginToolProvider, ToolRegistry, normalise};

/// Echo an exact integer.
#[tool]
fn exact(
    /// A number.
    n: i128,
) -> String {
    n.to_string()
}

/// Echo a u64, or say why not.
#[tool]
#[command]
fn count(
    /// A number.
    n: u64,
    /// A label.
    label: Option<String>,
) -> String {
    format!("{n} {}", label.unwrap_or_else(|| "-".into()))
}

/// Echo a note.
#[tool]
#[command(alias = ["n"])]
fn note(
    /// The text.
    text: String,
    #[param(default = false)]
    /// Whether it is urgent.
    urgent: bool,
) -> String {
    format!("{urgent} {text}")
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any i128, written as JSON text, arrives exactly.
    #[test]
    fn integers_of_any_size_arrive_exactly(n in any::<i128>()) {
        let result = block_on(registry().invoke(ToolInvocation::new("exact", format!(r#"{{"n": {n}}}"#)), None));
        prop_assert!(result.success, "{result:?}");
        prop_assert_eq!(result.content, n.to_string());
    }

    /// Any integer text for a u64 either arrives exactly or is refused quoting the text sent.
    #[test]
    fn integers_beyond_a_type_are_refused_quoting_what_was_sent(digits in "-?[1-9][0-9]{0,45}") {
        let result = block_on(registry().invoke(ToolInvocation::new("count", format!(r#"{{"n": {digits}}}"#)), None));
        match digits.parse::<u64>() {
            Ok(n) => prop_assert_eq!(result.content, format!("{n} -")),
            Err(_) => {
                prop_assert!(!result.success);
                prop_assert!(result.error_message.contains(&digits), "{}", result.error_message);
            }
        }
    }

    /// Whatever a chat message holds, running it as a command never panics, and an error reply
    /// is bounded by a few lines of usage, not by the message's length.
    #[test]
    fn any_message_gets_a_bounded_answer(
        word in prop_oneof![Just("count".to_owned()), Just("note".to_owned()), Just("n".to_owned()), Just("other".to_owned()), "[a-z\"]{0,6}"],
        rest in prop::collection::vec(prop_oneof![
            "[0-9]{1,40}", "\"[^\"]{0,20}\"?", "[a-zA-Z\\\\\" ]{0,30}", Just("true".to_owned()), "\\PC{0,20}"
        ], 0..8),
        padding in 0usize..20_000,
    ) {
        let registry = registry();
        let mut set = CommandSet::new(&registry);
        set.extend(PluginSet::collect().commands());
        let message = format!("{word} {} {}", rest.join(" "), "x".repeat(padding));
        let reply = block_on(set.run(&message, &ToolExecutionContext::default()));
        let error = match &reply {
            Some(toolhook_runtime::CommandReply::Invalid(_)) => true,
            Some(toolhook_runtime::CommandReply::Ran(result)) => !result.success,
            None => false,
        };
        if error {
            let text = reply.unwrap().text(toolhook::Locale::En);
            prop_assert!(text.len() <= 1_000, "{} bytes for a {}-byte message: {text}", text.len(), message.len());
        }
    }

    /// Any stored config document normalises or is refused; `plugin.enabled` is true only when
    /// the document says `true` or says nothing.
    #[test]
    fn any_config_document_normalises_or_is_refused(
        enabled in prop_oneof![
            Just(None), Just(Some(json!(true))), Just(Some(json!(false))), Just(Some(json!("false"))),
            Just(Some(json!("true"))), Just(Some(json!(0))), Just(Some(json!(1))), Just(Some(json!(null))),
            Just(Some(json!([]))),
        ],
        version in prop_oneof![Just(json!("1.0.0")), Just(json!("")), Just(json!(2)), Just(Value::Null)],
        extra in prop::collection::btree_map("[a-z]{1,6}", any::<i64>().prop_map(Value::from), 0..4),
    ) {
        let mut plugin = serde_json::Map::new();
        if !version.is_null() {
            plugin.insert("config_version".into(), version);
        }
        if let Some(enabled) = &enabled {
            plugin.insert("enabled".into(), enabled.clone());
        }
        let mut document: serde_json::Map<String, Value> = extra.into_iter().collect();
        document.insert("plugin".into(), Value::Object(plugin));
        match normalise(None, Some(&Value::Object(document))) {
            Ok(config) => {
                let says_true = matches!(enabled, None | Some(Value::Bool(true)));
                prop_assert_eq!(config.enabled, says_true);
                prop_assert!(matches!(enabled, None | Some(Value::Bool(_))));
            }
            Err(error) => prop_assert!(error.to_string().contains("plugin.enabled"), "{error}"),
        }
    }
}
