//! A model filling a strict definition sends every optional field as `null`, and one filling a
//! Gemini definition sends an enum's numbers as strings; the tool sees the same values as from
//! any other call, defaults included.

use serde_json::{Value, json};
use toolhook::{Dialect, Json, Locale, ToolInvocation, schemars, serde, tool};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

/// Where to meet.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Place {
    /// The place's name.
    name: String,
    /// Its floor, if any.
    floor: Option<i32>,
    /// How many seats; 2 unless said.
    #[serde(default = "two")]
    seats: u32,
}

fn two() -> u32 {
    2
}

/// How to meet.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", tag = "kind", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
enum Mode {
    /// In person, somewhere.
    InPerson {
        /// Where.
        place: Place,
    },
    /// On a call.
    Call {
        /// The link, if one is known already.
        link: Option<String>,
    },
}

/// What the tool saw.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Seen {
    /// The decoded arguments, as the tool saw them.
    debug: String,
}

/// Plans a meeting.
#[tool]
fn plan_meeting(
    /// Who meets.
    people: Vec<String>,
    /// How.
    mode: Mode,
    /// An agenda.
    agenda: Option<String>,
    /// Minutes.
    #[param(default = 30)]
    minutes: u32,
) -> Json<Seen> {
    Json(Seen { debug: format!("{people:?} {mode:?} {agenda:?} {minutes}") })
}

async fn seen(registry: &ToolRegistry, arguments: Value) -> Value {
    let result = registry.invoke(ToolInvocation::new("plan_meeting", arguments.to_string()), None).await;
    assert!(result.success, "{}", result.error_message);
    result.structured_content().cloned().unwrap()
}

#[tokio::test]
async fn nulls_for_optional_fields_decode_like_absent_ones() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    // The strict definition makes every optional field nullable and required.
    let spec = registry.get_tool_spec("plan_meeting", None).await.unwrap();
    let strict = spec.llm_definition(Dialect::OpenAiChatStrict, Locale::En).unwrap();
    let required = &strict["function"]["parameters"]["required"];
    assert_eq!(required, &json!(["people", "mode", "agenda", "minutes"]));

    let non_strict = json!({"people": ["ann"], "mode": {"kind": "in_person", "place": {"name": "Lab"}}});
    let strict_call = json!({"people": ["ann"], "agenda": null, "minutes": null,
        "mode": {"kind": "in_person", "place": {"name": "Lab", "floor": null, "seats": null}}});
    assert_eq!(seen(&registry, strict_call).await, seen(&registry, non_strict).await);

    let non_strict = json!({"people": [], "mode": {"kind": "call"}});
    let strict_call = json!({"people": [], "agenda": null, "minutes": null, "mode": {"kind": "call", "link": null}});
    let a = seen(&registry, strict_call).await;
    assert_eq!(a, seen(&registry, non_strict).await);
    assert_eq!(a["debug"], "[] Call { link: None } None 30");
}

/// Adds up scores.
#[tool]
fn tally(
    /// Each player's score.
    scores: std::collections::BTreeMap<String, u32>,
) -> String {
    format!("{scores:?}")
}

#[tokio::test]
async fn a_map_sent_as_key_value_pairs_decodes_like_the_map() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let spec = registry.get_tool_spec("tally", None).await.unwrap();
    let strict = spec.llm_definition(Dialect::OpenAiResponsesStrict, Locale::En).unwrap();
    assert_eq!(strict["parameters"]["properties"]["scores"]["type"], "array");
    let call = |arguments: Value| registry.invoke(ToolInvocation::new("tally", arguments.to_string()), None);
    let from_pairs = call(json!({"scores": [{"key": "ann", "value": 3}, {"key": "bo", "value": 5}]})).await;
    let from_map = call(json!({"scores": {"ann": 3, "bo": 5}})).await;
    assert_eq!(from_pairs.content, r#"{"ann": 3, "bo": 5}"#);
    assert_eq!(from_pairs.content, from_map.content);
}

/// One key and its value.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Pair {
    /// The key.
    key: String,
    /// Its value.
    value: String,
}

/// Labels an item.
#[tool]
fn label(
    /// What to label.
    item: String,
    /// The labels, in order.
    pairs: Vec<Pair>,
) -> String {
    let pairs: Vec<String> = pairs.iter().map(|pair| format!("{}={}", pair.key, pair.value)).collect();
    format!("{item}: {}", pairs.join(", "))
}

#[tokio::test]
async fn a_tool_without_optional_parameters_or_maps_gets_its_arguments_as_sent() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let call = |arguments: Value| registry.invoke(ToolInvocation::new("label", arguments.to_string()), None);
    // A list of key/value objects is a list here: no map to make of it.
    let listed = call(json!({"item": "box", "pairs": [{"key": "a", "value": "b"}]})).await;
    assert!(listed.success, "{}", listed.error_message);
    assert_eq!(listed.content, "box: a=b");
    // A `null` for a required parameter is not dropped: the model is told which one it is.
    let null = call(json!({"item": null, "pairs": []})).await;
    assert!(!null.success);
    assert!(null.error_message.contains("item"), "{}", null.error_message);
}

/// One stop of a route.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Stop {
    /// The stop's name.
    name: String,
    /// Minutes spent there; 5 unless said.
    #[serde(default = "five")]
    minutes: u32,
}

fn five() -> u32 {
    5
}

/// Plans a route.
#[tool]
fn plan_route(
    /// Where it starts.
    start: Stop,
    /// The stops after it, in order.
    stops: Vec<Stop>,
) -> String {
    let stops: Vec<String> =
        std::iter::once(&start).chain(&stops).map(|stop| format!("{} {}", stop.name, stop.minutes)).collect();
    stops.join(", ")
}

#[tokio::test]
async fn an_optional_field_found_only_deep_in_the_schema_still_has_its_null_dropped() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    // Every parameter is required: the only optional field is inside the objects, one of them
    // a list's items.
    let spec = registry.get_tool_spec("plan_route", None).await.unwrap();
    assert_eq!(spec.parameters_schema()["required"], json!(["start", "stops"]));
    let call = |arguments: Value| registry.invoke(ToolInvocation::new("plan_route", arguments.to_string()), None);
    for _ in 0..2 {
        let sent = json!({"start": {"name": "S", "minutes": 1},
            "stops": [{"name": "A", "minutes": null}, {"name": "B", "minutes": 9}]});
        let result = call(sent).await;
        assert!(result.success, "{}", result.error_message);
        assert_eq!(result.content, "S 1, A 5, B 9");
    }
}

/// Looks up a note in a chat.
#[tool]
async fn find_note(
    call: &ToolInvocation,
    /// What to look for.
    q: String,
    /// The chat; the caller's when not given.
    chat_id: Option<String>,
    /// The user; the caller's when not given.
    user_id: Option<String>,
    /// A tag to narrow the search.
    tag: Option<String>,
) -> Value {
    let _ = (q, chat_id, user_id, tag);
    call.arguments.to_value().unwrap()
}

#[tokio::test]
async fn a_context_parameter_sent_as_null_is_filled_where_it_stands() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let ctx =
        toolhook::ToolExecutionContext { user_id: "u1".into(), ..toolhook::ToolExecutionContext::for_session("s1") };
    let call = |arguments: Value| registry.invoke(ToolInvocation::new("find_note", arguments.to_string()), Some(&ctx));
    // What a strict definition makes a model send: every parameter, `null` for those left unset.
    let strict = call(json!({"user_id": null, "q": "milk", "tag": null, "chat_id": null})).await;
    assert!(strict.success, "{}", strict.error_message);
    assert_eq!(
        serde_json::to_string(strict.structured_content().unwrap()).unwrap(),
        r#"{"user_id":"u1","q":"milk","chat_id":"s1"}"#,
        "filled where they stand; the unset tag left out"
    );
    // A call that leaves them out gets them appended.
    let plain = call(json!({"q": "milk"})).await;
    assert_eq!(
        serde_json::to_string(plain.structured_content().unwrap()).unwrap(),
        r#"{"q":"milk","chat_id":"s1","user_id":"u1"}"#
    );
}

/// Gemini sends an enum's numbers as strings; every provider's tool gets the numbers, also one
/// that reads its arguments as they come (a host's built-in, a remote MCP server's).
#[tokio::test]
async fn an_enums_number_sent_as_a_string_for_gemini_reaches_any_tool_as_the_number() {
    use toolhook::{ToolExecutionResult, ToolSpec};
    use toolhook_runtime::{BuiltinTool, BuiltinToolProvider};
    let spec = ToolSpec::builder("set_level")
        .description("Set the level.")
        .parameters_raw(json!({"type": "object", "properties": {
            "level": {"type": "integer", "enum": [1, 2, 3], "description": "The level."},
            "label": {"type": "string", "description": "A label."},
        }, "required": ["level"]}))
        .core_tool(true)
        .build()
        .unwrap();
    let gemini = spec.llm_definition(Dialect::Gemini, Locale::En).unwrap();
    assert_eq!(gemini["parameters"]["properties"]["level"]["enum"], json!(["1", "2", "3"]));
    let tool = BuiltinTool::new(spec, |call, _| async move {
        let arguments: Value = match call.arguments {
            toolhook::ToolArguments::Text(text) => serde_json::from_str(&text).unwrap(),
            toolhook::ToolArguments::Value(value) => value,
        };
        Ok(ToolExecutionResult::success(call.tool_name, arguments.to_string()))
    });
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new().without_tool_search().with_tool(tool));
    let heard = |arguments: Value| {
        let registry = registry.clone();
        async move { registry.invoke(ToolInvocation::new("set_level", arguments.to_string()), None).await.content }
    };
    assert_eq!(heard(json!({"level": "2", "label": "3"})).await, r#"{"level":2,"label":"3"}"#);
    // Sent as the number, or as a string no value spells, it arrives as sent.
    assert_eq!(heard(json!({"level": 3})).await, r#"{"level":3}"#);
    assert_eq!(heard(json!({"level": "9"})).await, r#"{"level":"9"}"#);
}
