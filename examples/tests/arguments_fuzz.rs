//! Random and mutated argument documents for every example tool: no panic escapes the registry,
//! every failure is a result, and every argument error names a JSON path (or is about the whole
//! document).

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolhook::{DeclaredTool, ToolInvocation};
use toolhook_runtime::{PluginToolProvider, RegistryConfig, ToolRegistry};

use toolhook_examples as _;

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new(RegistryConfig::default());
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "[a-z0-9 .:/_-]{0,12}".prop_map(Value::from),
        Just(Value::from("2")),
        Just(Value::from("true")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A plausible argument object for a tool: its parameter names with random values, plus noise.
fn arguments_for(names: Vec<String>) -> impl Strategy<Value = Value> {
    let n = names.len();
    (prop::collection::vec(any_json(), n), prop::collection::vec(any::<bool>(), n), any_json()).prop_map(
        move |(values, keep, noise)| {
            let mut map = Map::new();
            for ((name, value), keep) in names.iter().zip(values).zip(keep) {
                if keep {
                    map.insert(name.clone(), value);
                }
            }
            map.insert("unexpected".into(), noise);
            Value::Object(map)
        },
    )
}

fn tools() -> Vec<(String, Vec<String>)> {
    DeclaredTool::all()
        .into_iter()
        .filter(|t| t.plugin_id() == "toolhook-examples")
        .map(|t| {
            let spec = t.spec().unwrap();
            let names = spec.parameters_schema()["properties"].as_object().unwrap().keys().cloned().collect();
            (t.name().to_owned(), names)
        })
        .collect()
}

fn tool_and_arguments() -> impl Strategy<Value = (String, Vec<String>, Value)> {
    let tools = tools();
    (0..tools.len()).prop_flat_map(move |i| {
        let (tool, names) = tools[i].clone();
        arguments_for(names.clone()).prop_map(move |args| (tool.clone(), names.clone(), args))
    })
}

fn check(result: &toolhook::ToolExecutionResult, tool: &str, names: &[String]) {
    assert_eq!(result.tool_name, tool);
    let prefix = format!("Tool {tool} failed: InvalidArguments: ");
    if let Some(detail) = result.error_message.strip_prefix(&prefix) {
        let document_level =
            detail.starts_with("arguments are not valid JSON") || detail == "arguments must be a JSON object";
        let names_a_path = names.iter().any(|n| {
            detail.starts_with(&format!("{n}:"))
                || detail.starts_with(&format!("{n}["))
                || detail.starts_with(&format!("{n}."))
        });
        assert!(document_level || names_a_path, "{tool}: error without a path: {detail}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_argument_objects_never_escape_as_panics((tool, names, args) in tool_and_arguments()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let result = runtime.block_on(registry().invoke(ToolInvocation::new(tool.clone(), args), None));
        check(&result, &tool, &names);
    }

    #[test]
    fn mutated_argument_text_never_escapes_as_panics(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(), junk in "[\\[\\]{}\",:0-9a-z\\\\ ]{0,6}") {
        let tools = tools();
        let (tool, names) = tools[pick.index(tools.len())].clone();
        let valid = json!({"city": "Paris", "query": "q", "a": 1, "op": "add", "b": 2, "title": "t", "values": [1, 2], "user_id": "u", "key": "k", "url": "https://x"});
        let text = valid.to_string();
        let at = cut.index(text.len());
        let mutated = format!("{}{junk}{}", &text[..at], &text[(at + junk.len()).min(text.len())..]);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let result = runtime.block_on(registry().invoke(ToolInvocation::new(tool.clone(), mutated), None));
        check(&result, &tool, &names);
    }
}
