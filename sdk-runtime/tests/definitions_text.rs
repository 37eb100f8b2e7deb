//! The definitions' JSON text (`ToolRegistry::llm_definitions_json`,
//! `RoundTools::definitions_json`) is written without building the definitions where a dialect
//! takes the schema as it is, copying a `#[tool]`'s compile-time schema text: whatever the tools,
//! it is byte for byte the serialised definitions (`get_llm_definitions`,
//! `RoundTools::definitions`), in every dialect and locale.

use proptest::prelude::*;
use serde_json::{Map, Value};
use toolhook::{Dialect, Locale, ToolExecutionContext, ToolExecutionResult, ToolSpec, tool};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, DeferredTools, PluginToolProvider, RegistryConfig, ToolRegistry,
};

/// A point on a map.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Point {
    /// Degrees north.
    lat: f64,
    /// Degrees east.
    lon: f64,
}

/// How to travel.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Mode {
    /// On foot.
    Walk,
    /// By "train" \ rail.
    Train,
}

/// Plan a trip.
///
/// Finds a route between two points, with the "quotes", back\slashes, tabs	and ünïcode a
/// detailed description may hold.
#[tool(core_tool = true)]
fn plan_trip(
    /// Where from.
    from: Point,
    /// Where to.
    to: Point,
    /// How.
    mode: Option<Mode>,
    #[param(default = 2.5)]
    /// Slack, in hours.
    slack: f64,
) -> String {
    let _ = (from, to, mode, slack);
    "planned".into()
}

/// Count words.
#[tool]
fn count_words(
    /// The text.
    text: String,
    /// Words to skip.
    skip: Vec<String>,
) -> usize {
    text.split_whitespace().filter(|w| !skip.iter().any(|s| s == w)).count()
}

/// A tool without parameters.
#[tool]
fn ping() -> &'static str {
    "pong"
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

/// Asserts that the text equals the serialised definitions, for every dialect and locale.
fn assert_text_is_the_serialised_definitions(registry: &ToolRegistry) -> Result<(), TestCaseError> {
    block_on(async {
        for dialect in Dialect::ALL {
            for locale in [Locale::En, Locale::ZhHans] {
                let text = registry.llm_definitions_json_in(None, dialect, locale).await;
                let values = registry.get_llm_definitions_in(None, dialect, locale).await;
                prop_assert_eq!(&*text, serde_json::to_string(&values).unwrap(), "{} {:?}", dialect, locale);
            }
        }
        Ok(())
    })
}

#[test]
fn a_rounds_definitions_are_written_as_they_serialise() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let deferred = DeferredTools::new();
    let ctx = ToolExecutionContext::for_session("s1");
    block_on(async {
        // Before and after the session finds the deferred tools: one visible tool, then three.
        for (found, advertised) in [(false, 1), (true, 3)] {
            if found {
                deferred.discover("s1", ["count_words", "ping"]);
            }
            let round = deferred.prepare_round(&registry, &ctx).await;
            assert_eq!(round.advertised().len(), advertised);
            for dialect in Dialect::ALL {
                let text = round.definitions_json(dialect);
                assert_eq!(text, serde_json::to_string(&round.definitions(dialect)).unwrap(), "{dialect}");
            }
        }
    });
}

#[test]
fn declared_tools_are_written_as_their_definitions_serialise() {
    for detailed in [false, true] {
        let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(detailed));
        registry.register_provider(PluginToolProvider::from_declared());
        assert_eq!(block_on(registry.list_tools(None)).len(), 3);
        assert_text_is_the_serialised_definitions(&registry).unwrap();
    }
}

/// Any JSON value: the schema texts below are made of these.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        "[\"\\\\\u{0}-\u{1f}\u{7f}/é😀]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z\"\\\\é]{1,8}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// A parameters schema as `#[tool]` renders it at compile time: an object schema's compact text.
fn schema_text() -> impl Strategy<Value = &'static str> {
    prop::collection::vec(("[a-z_]{1,8}", json_value()), 0..4).prop_map(|properties| {
        let properties: Map<String, Value> = properties.into_iter().collect();
        let schema = serde_json::json!({"type": "object", "properties": properties});
        &*Box::leak(schema.to_string().into_boxed_str())
    })
}

fn leaked(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Compile-time schema texts, a Chinese one or none, and built schemas, with any names and
    /// descriptions: the text is the serialised definitions.
    #[test]
    fn any_tools_are_written_as_their_definitions_serialise(
        tools in prop::collection::vec((
            "[a-z][a-z0-9_]{0,12}",
            schema_text(),
            prop::option::of(schema_text()),
            json_value(),
            ["\\PC{0,20}", "[\"\\\\\n\t\u{1}é]{0,8}"],
            any::<bool>(),
        ), 1..5),
        detailed in any::<bool>(),
    ) {
        let mut provider = BuiltinToolProvider::new().without_tool_search();
        let mut names = std::collections::HashSet::new();
        for (i, (name, text, text_zh, built, [brief, detail], prerendered)) in tools.into_iter().enumerate() {
            let name = if names.insert(name.clone()) { name } else { format!("{name}_{i}") };
            let builder = ToolSpec::builder(&name).core_tool(true);
            let spec = if prerendered {
                builder.__prerendered(text, text_zh, [leaked(brief.clone()), leaked(brief)], [leaked(detail.clone()), leaked(detail)])
            } else {
                let schema = serde_json::json!({"type": "object", "properties": {"value": built}});
                builder.brief_description(brief).detailed_description(detail).parameters_verbatim(schema)
            };
            let spec = spec.build().unwrap();
            provider = provider.with_tool(BuiltinTool::new(spec, |call, _| async move {
                Ok(ToolExecutionResult::success(call.tool_name, ""))
            }));
        }
        let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(detailed));
        registry.register_provider(provider);
        assert_text_is_the_serialised_definitions(&registry)?;
    }
}
