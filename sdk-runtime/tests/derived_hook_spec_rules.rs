//! Hook spec, catalogue, dispatcher, observer and circuit-breaker rules checked one at a time,
//! each expectation worked out from the written rule its comment quotes: normalisation of odd
//! spec inputs, every built-in catalogue hook with its flags, payload schema, property texts in
//! both locales and typed payload struct, the order in which modified kwargs are validated, what
//! shutdown and an abort keep from starting, observer concurrency and copies, and the breaker's
//! cooldown, probe and counting rules on tokio's paused clock.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::time::{Instant, advance, sleep};
use toolhook::Locale;
use toolhook::hooks::payload::*;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{
    BreakerState, HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry, build_object_schema,
};

#[path = "common/catalogue_table.rs"]
mod catalogue_table;
use catalogue_table::{CATALOGUE, PROPERTY_TEXTS};

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

fn registry_of(specs: Vec<HookSpec>) -> HookSpecRegistry {
    let registry = HookSpecRegistry::new();
    for spec in specs {
        registry.register(spec).unwrap();
    }
    registry
}

fn dispatcher(specs: Vec<HookSpec>) -> HookDispatcher {
    HookDispatcher::builder().specs(registry_of(specs)).build()
}

fn spec_json(value: Value) -> HookSpec {
    serde_json::from_value(value).expect("a hook spec")
}

/// Registers `schema` for `demo.v` and returns the English error of the registration, if any.
fn schema_error(schema: Value) -> Option<String> {
    HookSpecRegistry::new()
        .register(HookSpec { parameters_schema: schema, ..HookSpec::new("demo.v") })
        .err()
        .map(|e| e.to_string())
}

/// A blocking handler of `hook` that replaces the kwargs with `kwargs` on every call.
fn modifying(name: &str, hook: &str, kwargs: Value) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| {
        let replacement = args(kwargs.clone());
        async move { HookOutcome::modify(replacement) }
    })
}

/// A dispatcher whose hook `demo.v` has `schema`; plugin `p.v` has one modifying handler per
/// candidate, `h1`, `h2`, … in that order.
fn validating(schema: Value, candidates: &[Value]) -> HookDispatcher {
    let d = dispatcher(vec![HookSpec { parameters_schema: schema, ..HookSpec::new("demo.v") }]);
    let entries =
        candidates.iter().enumerate().map(|(i, c)| modifying(&format!("h{}", i + 1), "demo.v", c.clone())).collect();
    d.register_plugin("p.v", Source::ThirdParty, entries).unwrap();
    d
}

// ---- hook specs -------------------------------------------------------------------------------------

// "`name` trimmed ... `description` trimmed"; flags "all bools, default true"; schema "absent ⇒ `{}`";
// "`register(spec)` normalises ..., returning the stored copy; `get(name)` (name trimmed) ⇒ copy".
#[test]
fn registering_from_json_returns_the_trimmed_copy_that_get_gives() {
    let registry = HookSpecRegistry::new();
    let stored =
        registry.register(spec_json(json!({"name": "\t x.hook \n", "description": "\n fires here \t"}))).unwrap();
    assert_eq!(stored.name, "x.hook");
    assert_eq!(stored.description, "fires here");
    assert_eq!(stored.parameters_schema, json!({}));
    assert_eq!(stored.default_timeout_ms, 0);
    assert!(stored.allow_blocking && stored.allow_observe && stored.allow_abort && stored.allow_kwargs_mutation);
    assert_eq!(registry.get("\n x.hook\t"), Some(stored));
}

// "`HookSpecRegistry::new()` is empty".
#[test]
fn a_new_spec_registry_is_empty() {
    let registry = HookSpecRegistry::new();
    assert!(registry.list().is_empty());
    assert_eq!(registry.get("chat.receive.before_process"), None);
    assert!(!registry.unregister("chat.receive.before_process"));
}

// "`t` = its `type` (absent, null or `""` count as no type)"; "no `t`, not `p` ⇒ the whole value is a
// property map: `{"type":"object","properties":<value>}`".
#[test]
fn an_empty_or_null_type_without_properties_makes_the_whole_value_a_property_map() {
    let registry = HookSpecRegistry::new();
    let empty = registry.register(HookSpec { parameters_schema: json!({"type": ""}), ..HookSpec::new("a.empty") });
    assert_eq!(
        serde_json::to_string(&empty.unwrap().parameters_schema).unwrap(),
        r#"{"type":"object","properties":{"type":""}}"#
    );
    let null = registry.register(HookSpec {
        parameters_schema: json!({"a": {"type": "string"}, "type": null}),
        ..HookSpec::new("a.null")
    });
    assert_eq!(
        serde_json::to_string(&null.unwrap().parameters_schema).unwrap(),
        r#"{"type":"object","properties":{"a":{"type":"string"},"type":null}}"#
    );
}

// "`t` present and ≠ `"object"` and not `p` ⇒ error (object-or-map)"; "finally `type` ≠ `"object"` ⇒
// error (object-type)": a `type` that is not a string is present and is not `"object"`.
#[test]
fn a_type_that_is_not_the_string_object_is_refused() {
    let or_map = "Hook parameter schema must be of type object or a property map";
    let object_type = "Hook parameter schema must be of type object";
    assert_eq!(schema_error(json!({"type": 5})).as_deref(), Some(or_map));
    assert_eq!(schema_error(json!({"type": ["object"]})).as_deref(), Some(or_map));
    assert_eq!(schema_error(json!({"type": {"type": "string"}})).as_deref(), Some(or_map));
    assert_eq!(schema_error(json!({"type": "Object"})).as_deref(), Some(or_map));
    assert_eq!(schema_error(json!({"type": false, "properties": {}})).as_deref(), Some(object_type));
    assert_eq!(schema_error(json!({"type": "OBJECT", "properties": {"a": {}}})).as_deref(), Some(object_type));
}

// "Schema: absent, null or `{}` ⇒ `{}`. Not a JSON object ⇒ error (not-a-map)".
#[test]
fn a_schema_that_is_not_an_object_is_refused_and_null_means_none() {
    let not_a_map = "Hook parameter schema must be a JSON object";
    for schema in [json!([]), json!([{"type": "object"}]), json!(0), json!(true), json!("")] {
        assert_eq!(schema_error(schema.clone()).as_deref(), Some(not_a_map), "{schema}");
    }
    let registry = HookSpecRegistry::new();
    let null = registry.register(HookSpec { parameters_schema: Value::Null, ..HookSpec::new("n.null") }).unwrap();
    assert_eq!(serde_json::to_string(&null.parameters_schema).unwrap(), "{}");
    let empty = registry.register(HookSpec { parameters_schema: json!({}), ..HookSpec::new("n.empty") }).unwrap();
    assert_eq!(serde_json::to_string(&empty.parameters_schema).unwrap(), "{}");
}

// "Normalisation (on every registration ...)": a stored spec registered again is already in object form
// (`t` = "object"), so nothing changes — a property map is wrapped once, not twice.
#[test]
fn registering_a_stored_spec_again_changes_nothing() {
    let registry = HookSpecRegistry::new();
    for schema in [json!({"x": {"type": "string"}}), json!({"properties": {"y": {}}, "required": ["y"]})] {
        let first = registry.register(HookSpec { parameters_schema: schema, ..HookSpec::new("r.hook") }).unwrap();
        let again = registry.register(first.clone()).unwrap();
        assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&first).unwrap());
        assert_eq!(registry.get("r.hook"), Some(first));
    }
    assert_eq!(registry.list().len(), 1);
}

// "`build_object_schema(properties, required)` gives `{"type":"object","properties":…}` plus `required` only
// when the trimmed, non-empty entries are non-empty": the properties as given, `required` last.
#[test]
fn build_object_schema_writes_type_then_properties_then_required() {
    let properties = json!({"b": {"type": "integer"}, "a": {}}).as_object().unwrap().clone();
    assert_eq!(
        serde_json::to_string(&build_object_schema(properties.clone(), ["\ta ", " ", "b"])).unwrap(),
        r#"{"type":"object","properties":{"b":{"type":"integer"},"a":{}},"required":["a","b"]}"#
    );
    assert_eq!(
        serde_json::to_string(&build_object_schema(properties, Vec::<String>::new())).unwrap(),
        r#"{"type":"object","properties":{"b":{"type":"integer"},"a":{}}}"#
    );
}

// ---- built-in catalogue ----------------------------------------------------------------------------

/// The text a catalogue property has in one hook: (En, zh-Hans); exactly one row must fit.
fn property_texts(hook: &str, property: &str) -> (&'static str, &'static str) {
    let rows: Vec<_> = PROPERTY_TEXTS
        .iter()
        .filter(|(name, hooks, _, _)| *name == property && (hooks.is_empty() || hooks.contains(&hook)))
        .collect();
    assert_eq!(rows.len(), 1, "texts of {property} in {hook}");
    (rows[0].2, rows[0].3)
}

/// The JSON schema of one payload property, as the table writes it.
fn property_schema(ty: &str, description: &str) -> Value {
    match ty.split_once('<') {
        Some((base, item)) => {
            json!({"type": base, "items": {"type": item.trim_end_matches('>')}, "description": description})
        }
        None => json!({"type": ty, "description": description}),
    }
}

/// Checks the 22 catalogue specs of `registry` against the table, property texts in `locale`.
fn check_catalogue(registry: &HookSpecRegistry, locale: Locale) {
    let names: Vec<String> = registry.list().into_iter().map(|s| s.name).collect();
    let mut expected_names: Vec<&str> = CATALOGUE.iter().map(|c| c.0).collect();
    expected_names.sort_unstable();
    assert_eq!(names, expected_names);
    for &(hook, timeout, abort, mutation, payload) in CATALOGUE {
        let spec = registry.get(hook).unwrap();
        assert_eq!(
            (
                spec.default_timeout_ms,
                spec.allow_blocking,
                spec.allow_observe,
                spec.allow_abort,
                spec.allow_kwargs_mutation
            ),
            (timeout, true, true, abort, mutation),
            "{hook}"
        );
        let schema = &spec.parameters_schema;
        assert_eq!(schema["type"], "object", "{hook}");
        let properties = schema["properties"].as_object().unwrap();
        let order: Vec<&str> = properties.keys().map(String::as_str).collect();
        let expected_order: Vec<&str> = payload.iter().map(|p| p.0).collect();
        assert_eq!(order, expected_order, "{hook}: properties in schema order");
        for &(property, ty, _) in payload {
            let (en, zh) = property_texts(hook, property);
            let text = if locale == Locale::En { en } else { zh };
            assert_eq!(properties[property], property_schema(ty, text), "{hook}.{property}");
        }
        let required: Vec<&str> = payload.iter().filter(|p| !p.2).map(|p| p.0).collect();
        assert_eq!(schema["required"], json!(required), "{hook}: required");
        let mut keys: Vec<&str> = schema.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["properties", "required", "type"], "{hook}");
    }
}

// "Built-in catalogue (22 hooks)": "All allow blocking and observe", the `t`, `abort`, `mut` and payload
// columns ("every field is required unless marked (opt). `array` without an item type has no `items`"),
// and "`with_builtin_catalogue()`: English" property descriptions.
#[test]
fn every_catalogue_hook_has_its_flags_timeout_payload_and_english_texts() {
    check_catalogue(&HookSpecRegistry::with_builtin_catalogue(), Locale::En);
    check_catalogue(&HookSpecRegistry::with_builtin_catalogue_in(Locale::En), Locale::En);
}

// "`with_builtin_catalogue_in(locale)` puts the locale's text into each property's `description`";
// The zh-Hans text is the Python SDK's host's, byte for byte.
#[test]
fn every_catalogue_property_has_its_chinese_text_in_the_chinese_catalogue() {
    check_catalogue(&HookSpecRegistry::with_builtin_catalogue_in(Locale::ZhHans), Locale::ZhHans);
}

// "the hook's own `description` is one English sentence on where the hook fires; every payload property
// carries a `description` in the catalogue's locale": only the property texts follow the locale.
#[test]
fn hook_descriptions_are_one_english_sentence_in_every_locale() {
    let en = HookSpecRegistry::with_builtin_catalogue();
    let zh = HookSpecRegistry::with_builtin_catalogue_in(Locale::ZhHans);
    for &(hook, ..) in CATALOGUE {
        let description = en.get(hook).unwrap().description;
        assert!(description.ends_with('.') && description.trim() == description, "{hook}: {description:?}");
        assert!(description.len() > 1, "{hook}: {description:?}");
        assert!(description.chars().all(|c| c < '\u{2E80}'), "{hook}: {description:?}");
        assert_eq!(zh.get(hook).unwrap().description, description, "{hook}");
    }
}

// "Name constants live in `toolhook::hooks` (`CHAT_RECEIVE_BEFORE_PROCESS`, …)".
#[test]
fn the_name_constants_spell_the_catalogue_names() {
    use toolhook::hooks as h;
    let constants = [
        h::CHAT_RECEIVE_BEFORE_PROCESS,
        h::CHAT_RECEIVE_AFTER_PROCESS,
        h::CHAT_COMMAND_BEFORE_EXECUTE,
        h::CHAT_COMMAND_AFTER_EXECUTE,
        h::EMOJI_MAISAKA_BEFORE_SELECT,
        h::EMOJI_MAISAKA_AFTER_SELECT,
        h::EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION,
        h::JARGON_EXTRACT_BEFORE_PERSIST,
        h::JARGON_INFERENCE_BEFORE_FINALIZE,
        h::EXPRESSION_SELECT_BEFORE_SELECT,
        h::EXPRESSION_SELECT_AFTER_SELECTION,
        h::EXPRESSION_LEARN_AFTER_EXTRACT,
        h::EXPRESSION_LEARN_BEFORE_UPSERT,
        h::SEND_SERVICE_AFTER_BUILD_MESSAGE,
        h::SEND_SERVICE_BEFORE_SEND,
        h::SEND_SERVICE_AFTER_SEND,
        h::MAISAKA_PLANNER_BEFORE_REQUEST,
        h::MAISAKA_PLANNER_AFTER_RESPONSE,
        h::MAISAKA_REPLYER_BEFORE_REQUEST,
        h::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST,
        h::MAISAKA_REPLYER_AFTER_RESPONSE,
        h::MAISAKA_REPLY_BEFORE_POST_PROCESS,
    ];
    let names: Vec<&str> = CATALOGUE.iter().map(|c| c.0).collect();
    assert_eq!(constants.to_vec(), names);
}

/// A sample value of one payload property's JSON type.
fn sample_value(property: &str, ty: &str) -> Value {
    match ty {
        "string" => json!(format!("{property} text")),
        "integer" => json!(-7),
        "boolean" => json!(true),
        "object" => json!({"k": "v", "n": [1]}),
        "array" => json!([1, "x", {"y": null}]),
        "array<string>" => json!(["a", "b"]),
        "array<integer>" => json!([3, 1]),
        "array<object>" => json!([{"k": 1}, {}]),
        other => panic!("no sample for {other}"),
    }
}

/// Kwargs of `hook` with every required property and, when asked, every optional one, in schema order.
fn sample_kwargs(hook: &str, optional: bool) -> Map<String, Value> {
    let payload = CATALOGUE.iter().find(|c| c.0 == hook).unwrap().4;
    payload
        .iter()
        .filter(|p| optional || !p.2)
        .map(|&(name, ty, _)| (name.to_owned(), sample_value(name, ty)))
        .collect()
}

/// The hook name in UpperCamelCase, split at `.` and `_`.
fn upper_camel(hook: &str) -> String {
    hook.split(['.', '_'])
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

/// One typed payload: its `HOOK`, its type's name, and a decode-then-encode of kwargs as text.
struct PayloadType {
    hook: &'static str,
    type_name: &'static str,
    round_trip: fn(&Map<String, Value>) -> String,
}

fn round_trip<P: Serialize + DeserializeOwned>(kwargs: &Map<String, Value>) -> String {
    let payload: P = serde_json::from_value(Value::Object(kwargs.clone())).expect("the payload decodes");
    serde_json::to_string(&payload).unwrap()
}

macro_rules! payload_types {
    ($($ty:ident),* $(,)?) => {
        vec![$(PayloadType { hook: $ty::HOOK, type_name: std::any::type_name::<$ty>(), round_trip: round_trip::<$ty> }),*]
    };
}

fn payload_types() -> Vec<PayloadType> {
    payload_types![
        ChatReceiveBeforeProcess,
        ChatReceiveAfterProcess,
        ChatCommandBeforeExecute,
        ChatCommandAfterExecute,
        EmojiMaisakaBeforeSelect,
        EmojiMaisakaAfterSelect,
        EmojiRegisterAfterBuildDescription,
        JargonExtractBeforePersist,
        JargonInferenceBeforeFinalize,
        ExpressionSelectBeforeSelect,
        ExpressionSelectAfterSelection,
        ExpressionLearnAfterExtract,
        ExpressionLearnBeforeUpsert,
        SendServiceAfterBuildMessage,
        SendServiceBeforeSend,
        SendServiceAfterSend,
        MaisakaPlannerBeforeRequest,
        MaisakaPlannerAfterResponse,
        MaisakaReplyerBeforeRequest,
        MaisakaReplyerBeforeModelRequest,
        MaisakaReplyerAfterResponse,
        MaisakaReplyBeforePostProcess,
    ]
}

// "one struct per catalogue hook, named after the hook in UpperCamelCase (the name split at `.` and `_`).
// Each has `pub const HOOK: &str` (the hook name) and one public field per payload property, with the
// property's name, in schema order".
#[test]
fn each_typed_payload_is_named_after_its_hook_and_serialises_in_schema_order() {
    let types = payload_types();
    assert_eq!(types.iter().map(|t| t.hook).collect::<Vec<_>>(), CATALOGUE.iter().map(|c| c.0).collect::<Vec<_>>());
    for t in &types {
        assert!(t.type_name.ends_with(&format!("::{}", upper_camel(t.hook))), "{} for {}", t.type_name, t.hook);
        let full = sample_kwargs(t.hook, true);
        assert_eq!((t.round_trip)(&full), serde_json::to_string(&full).unwrap(), "{}", t.hook);
    }
}

// "an optional property → `Option<T>` (left out when serialising `None`, so an overlay never adds a key
// the host did not send)"; "They ... ignore unknown keys".
#[test]
fn typed_payloads_leave_out_absent_optionals_and_ignore_unknown_keys() {
    for t in payload_types() {
        let required = sample_kwargs(t.hook, false);
        let mut with_unknown = required.clone();
        with_unknown.insert("host_only_key".into(), json!({"anything": [1, 2]}));
        assert_eq!((t.round_trip)(&with_unknown), serde_json::to_string(&required).unwrap(), "{}", t.hook);
    }
}

// "`modify(p)` overlays it on the kwargs" ... "(left out when serialising `None`, so an overlay never adds
// a key the host did not send)"; "`message` is a serialised chat message; hosts may pass keys beyond the
// schema".
#[tokio::test]
async fn a_typed_overlay_on_a_catalogue_hook_adds_no_optional_key_and_keeps_the_hosts_keys() {
    let d = HookDispatcher::builder().specs(HookSpecRegistry::with_builtin_catalogue()).build();
    let quiet =
        HookHandlerEntry::typed("quiet", SendServiceBeforeSend::HOOK, |mut p: SendServiceBeforeSend, _| async move {
            p.show_log = false;
            HookOutcome::modify(p)
        });
    d.register_plugin("p.q", Source::ThirdParty, vec![quiet]).unwrap();
    let input = json!({
        "message": {"text": "hi", "platform": "qq"},
        "typing": false, "set_reply": true, "storage_message": true, "show_log": true, "host_key": [1]
    });
    let result = d.invoke(SendServiceBeforeSend::HOOK, args(input)).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(
        Value::from(result.kwargs.into_inner()),
        json!({
            "message": {"text": "hi", "platform": "qq"},
            "typing": false, "set_reply": true, "storage_message": true, "show_log": false, "host_key": [1]
        })
    );
}

// ---- registering handlers -------------------------------------------------------------------------------

// "`error_policy = abort` on `allow_abort = false` | `HookHandler {full} cannot use error_policy=abort: hook
// {hook} does not allow abort`" — the check names no mode, so an observer is refused too.
#[test]
fn an_observer_with_the_abort_policy_is_refused_on_a_hook_without_abort() {
    let d = dispatcher(vec![HookSpec { allow_abort: false, ..HookSpec::new("demo.noabort") }]);
    let entry = HookHandlerEntry::new("h", "demo.noabort", |_: HookArgs, _: HookContext| async {})
        .mode(HookMode::Observe)
        .error_policy(ErrorPolicy::Abort);
    assert_eq!(
        d.register_plugin("p.x", Source::ThirdParty, vec![entry]).unwrap_err().to_string(),
        "HookHandler p.x.h cannot use error_policy=abort: hook demo.noabort does not allow abort"
    );
}

// ---- dispatching ------------------------------------------------------------------------------------------

// "Targets = enabled handlers whose hook equals the name": names are compared exactly, so another
// spelling is an unknown hook without handlers, whose kwargs come back as given.
#[tokio::test]
async fn a_hook_name_in_another_case_reaches_no_handler() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let ran = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&ran);
    let entry = HookHandlerEntry::new("h", "demo.hook", move |_: HookArgs, _: HookContext| {
        counter.fetch_add(1, Ordering::SeqCst);
        async {}
    });
    d.register_plugin("p", Source::ThirdParty, vec![entry]).unwrap();
    let result = d.invoke(" Demo.Hook ", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.hook_name, "Demo.Hook");
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert!(result.errors.is_empty() && result.skipped.is_empty() && !result.aborted);
    assert_eq!(ran.load(Ordering::SeqCst), 0);
}

// "The blocking chain runs on the caller's task" — before and after a handler waits.
#[tokio::test]
async fn blocking_handlers_run_on_the_callers_task() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let entries = ["a", "b"]
        .iter()
        .map(|name| {
            let log = Arc::clone(&seen);
            HookHandlerEntry::new(*name, "demo.hook", move |_: HookArgs, _: HookContext| {
                let log = Arc::clone(&log);
                async move {
                    log.lock().unwrap().push(tokio::task::try_id());
                    sleep(Duration::from_millis(1)).await;
                    log.lock().unwrap().push(tokio::task::try_id());
                }
            })
        })
        .collect();
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let caller = tokio::spawn(async move {
        let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        tokio::task::id()
    })
    .await
    .unwrap();
    assert_eq!(*seen.lock().unwrap(), [Some(caller); 4]);
}

// "For each target (checking shutdown before each; if set, stop and return)": a shutdown requested while
// a blocking handler runs keeps the next handler and the observers from starting; what the handler
// merged stays.
#[tokio::test]
async fn a_shutdown_requested_during_a_dispatch_stops_before_the_next_handler() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let own: Arc<OnceLock<HookDispatcher>> = Arc::new(OnceLock::new());
    let ran = Arc::new(Mutex::new(Vec::<&str>::new()));
    let (cell, log) = (Arc::clone(&own), Arc::clone(&ran));
    let stopper = HookHandlerEntry::new("first", "demo.hook", move |_: HookArgs, _: HookContext| {
        let (cell, log) = (Arc::clone(&cell), Arc::clone(&log));
        async move {
            log.lock().unwrap().push("first");
            cell.get().unwrap().shutdown().await;
            HookOutcome::modify(args(json!({"text": "one"})))
        }
    })
    .order(HookOrder::Early);
    let log = Arc::clone(&ran);
    let second = HookHandlerEntry::new("second", "demo.hook", move |_: HookArgs, _: HookContext| {
        log.lock().unwrap().push("second");
        async {}
    });
    let log = Arc::clone(&ran);
    let observer = HookHandlerEntry::new("watch", "demo.hook", move |_: HookArgs, _: HookContext| {
        log.lock().unwrap().push("watch");
        async {}
    })
    .mode(HookMode::Observe);
    d.register_plugin("p", Source::ThirdParty, vec![stopper, second, observer]).unwrap();
    own.set(d.clone()).ok().unwrap();

    let result = tokio::time::timeout(Duration::from_secs(5), d.invoke("demo.hook", args(json!({"text": "hi"})))).await;
    let result = result.expect("the dispatch ends").unwrap();
    d.wait_observers().await;
    assert_eq!(*ran.lock().unwrap(), ["first"]);
    assert_eq!(result.kwargs, args(json!({"text": "one"})));
    assert!(result.errors.is_empty() && !result.aborted, "{result:?}");
}

// "abort: if the spec allows abort ⇒ `aborted = true`, `stopped_by = full`"; "If now aborted ⇒ stop:
// later blocking handlers and every observer never start" — also when a failure aborted.
#[tokio::test]
async fn a_failure_under_the_abort_policy_keeps_every_observer_from_starting() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let watched = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&watched);
    let failing =
        HookHandlerEntry::new("fails", "demo.hook", |_: HookArgs, _: HookContext| async { Err::<(), _>("down") })
            .order(HookOrder::Late)
            .error_policy(ErrorPolicy::Abort);
    let observer = HookHandlerEntry::new("watch", "demo.hook", move |_: HookArgs, _: HookContext| {
        counter.fetch_add(1, Ordering::SeqCst);
        async {}
    })
    .mode(HookMode::Observe)
    .order(HookOrder::Early);
    d.register_plugin("p.a", Source::ThirdParty, vec![failing, observer]).unwrap();
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    d.wait_observers().await;
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.a.fails"));
    assert_eq!(result.errors, ["HookHandler p.a.fails failed: down"]);
    assert_eq!(watched.load(Ordering::SeqCst), 0);
}

// ---- validation of modified kwargs ----------------------------------------------------------------------

// "if the spec's schema has `properties` or `required`, validate it": a schema with neither validates
// nothing, `additionalProperties: false` included.
#[tokio::test]
async fn a_schema_without_properties_or_required_validates_nothing() {
    let d = validating(json!({"type": "object", "additionalProperties": false}), &[json!({"anything": [1, null]})]);
    assert_eq!(
        d.specs().get("demo.v").unwrap().parameters_schema,
        json!({"type": "object", "additionalProperties": false})
    );
    let result = d.invoke("demo.v", args(json!({"n": 1}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"anything": [1, null]})));
}

// "if the spec's schema has `properties` or `required`, validate it"; "(a) each name in top-level
// `required`, in order, must be present" — with no `properties` at all.
#[tokio::test]
async fn a_schema_with_only_required_still_validates() {
    let d = validating(json!({"type": "object", "required": ["a"]}), &[json!({"b": 1})]);
    let result = d.invoke("demo.v", args(json!({"a": 0}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.v rejected modified_kwargs from p.v.h1: a: missing required field"]);
    assert_eq!(result.kwargs, args(json!({"a": 0})));
}

// "(a) each name in top-level `required`, in order, must be present" — the first listed name that is
// missing is reported, whatever the property order.
#[tokio::test]
async fn required_names_are_checked_in_their_listed_order() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["b", "a"]
    });
    let d = validating(schema, &[json!({}), json!({"b": "x"})]);
    let result = d.invoke("demo.v", args(json!({"a": "0", "b": "0"}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.v rejected modified_kwargs from p.v.h1: b: missing required field",
            "Hook demo.v rejected modified_kwargs from p.v.h2: a: missing required field",
        ]
    );
}

// "(b) each property of the schema, in schema order, that is present must match its property schema" —
// schema order, not the candidate's key order.
#[tokio::test]
async fn properties_are_checked_in_schema_order_not_candidate_order() {
    let schema = json!({"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "string"}}});
    let d = validating(schema, &[json!({"a": 1, "z": 1})]);
    let result = d.invoke("demo.v", args(json!({}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.v rejected modified_kwargs from p.v.h1: z: expected string, got integer"]);
}

// "(c) with `additionalProperties: false`, keys not declared are rejected, in the candidate's key order".
#[tokio::test]
async fn undeclared_keys_are_reported_in_the_candidates_key_order() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false});
    let d = validating(schema, &[json!({"n": 1, "zz": 1, "aa": 1})]);
    let result = d.invoke("demo.v", args(json!({"n": 0}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.v rejected modified_kwargs from p.v.h1: zz: unexpected field"]);
    assert_eq!(result.kwargs, args(json!({"n": 0})));
}

// "A property schema is checked for `type` ..., `enum`, `items` ..., and nested `properties` / `required` /
// `additionalProperties` ...; other keywords are ignored" — a property schema of `{}` checks nothing.
#[tokio::test]
async fn keywords_other_than_the_checked_ones_are_ignored() {
    let schema = json!({
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 5, "pattern": "^x$", "format": "email", "const": "y"},
            "n": {"type": "integer", "maximum": 1, "minimum": 0, "multipleOf": 7, "not": {}},
            "a": {"type": "array", "maxItems": 0, "uniqueItems": true},
            "any": {}
        },
        "required": ["s"],
        "minProperties": 10
    });
    let candidate = json!({"s": "a", "n": 10, "a": [1, 1], "any": {"deep": [null, 1.5]}});
    let d = validating(schema, std::slice::from_ref(&candidate));
    let result = d.invoke("demo.v", args(json!({"s": "x"}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(candidate));
}

// "except that a property not listed in `required` whose value is `null` passes (at every level)": a
// nested property that its object's `required` lists gets no such pass (path `key.sub`).
#[tokio::test]
async fn a_required_nested_property_that_is_null_fails_its_type() {
    let schema = json!({
        "type": "object",
        "properties": {
            "cfg": {"type": "object", "properties": {"depth": {"type": "integer"}, "note": {"type": "string"}}, "required": ["depth"]}
        }
    });
    let d = validating(schema, &[json!({"cfg": {"depth": null}}), json!({"cfg": {"depth": 1, "note": null}})]);
    let result = d.invoke("demo.v", args(json!({}))).await.unwrap();
    assert_eq!(
        result.errors,
        ["Hook demo.v rejected modified_kwargs from p.v.h1: cfg.depth: expected integer, got null"]
    );
    assert_eq!(result.kwargs, args(json!({"cfg": {"depth": 1, "note": null}})));
}

// "`type` (a name or a list of names ...)"; "`expected {types}, got {actual}` (types joined by ` or `)";
// "`enum`" ⇒ "`value is not one of the allowed values`" — enums hold any JSON values.
#[tokio::test]
async fn type_lists_join_every_name_and_enums_hold_any_json_value() {
    let schema = json!({
        "type": "object",
        "properties": {"either": {"type": ["string", "integer", "null"]}, "level": {"enum": [1, 2, "x", {"k": true}]}}
    });
    let d = validating(
        schema,
        &[
            json!({"either": true}),
            json!({"level": 3}),
            json!({"level": {"k": false}}),
            json!({"either": 7, "level": {"k": true}}),
        ],
    );
    let result = d.invoke("demo.v", args(json!({}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.v rejected modified_kwargs from p.v.h1: either: expected string or integer or null, got boolean",
            "Hook demo.v rejected modified_kwargs from p.v.h2: level: value is not one of the allowed values",
            "Hook demo.v rejected modified_kwargs from p.v.h3: level: value is not one of the allowed values",
        ]
    );
    assert_eq!(result.kwargs, args(json!({"either": 7, "level": {"k": true}})));
}

// "`items` (each element, path `key[i]`)": items of items give one index per level.
#[tokio::test]
async fn items_of_items_get_one_index_per_level() {
    let schema = json!({
        "type": "object",
        "properties": {"grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}
    });
    let d = validating(schema, &[json!({"grid": [[1], [2, "x"]]}), json!({"grid": [[1], 2]})]);
    let result = d.invoke("demo.v", args(json!({"grid": []}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.v rejected modified_kwargs from p.v.h1: grid[1][1]: expected integer, got string",
            "Hook demo.v rejected modified_kwargs from p.v.h2: grid[1]: expected array, got integer",
        ]
    );
    assert_eq!(result.kwargs, args(json!({"grid": []})));
}

// "`integer` accepts any number without fractional part": also integers beyond `i64` and large floats.
#[tokio::test]
async fn integer_accepts_every_number_without_a_fractional_part() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let accepted = [json!({"n": u64::MAX}), json!({"n": i64::MIN}), json!({"n": 1e300}), json!({"n": -4.0})];
    for candidate in accepted {
        let d = validating(schema.clone(), std::slice::from_ref(&candidate));
        let result = d.invoke("demo.v", args(json!({"n": 0}))).await.unwrap();
        assert!(result.errors.is_empty(), "{candidate}: {:?}", result.errors);
        assert_eq!(result.kwargs, args(candidate));
    }
    let d = validating(schema, &[json!({"n": 0.5}), json!({"n": -1e-9})]);
    let result = d.invoke("demo.v", args(json!({"n": 0}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.v rejected modified_kwargs from p.v.h1: n: expected integer, got number",
            "Hook demo.v rejected modified_kwargs from p.v.h2: n: expected integer, got number",
        ]
    );
}

// "Actual type names: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`"; "`expected
// {types}, got {actual}` (types joined by ` or `)".
#[tokio::test]
async fn a_type_mismatch_names_the_actual_json_type() {
    let schema = json!({"type": "object", "properties": {"v": {"type": ["integer", "string"]}}, "required": ["v"]});
    let candidates =
        [json!({"v": 2.5}), json!({"v": {"a": 1}}), json!({"v": [1]}), json!({"v": false}), json!({"v": null})];
    let d = validating(schema, &candidates);
    let result = d.invoke("demo.v", args(json!({"v": 0}))).await.unwrap();
    let expected: Vec<String> = ["number", "object", "array", "boolean", "null"]
        .iter()
        .enumerate()
        .map(|(i, actual)| {
            format!(
                "Hook demo.v rejected modified_kwargs from p.v.h{}: v: expected integer or string, got {actual}",
                i + 1
            )
        })
        .collect();
    assert_eq!(result.errors, expected);
    assert_eq!(result.kwargs, args(json!({"v": 0})));
}

// ---- observers ----------------------------------------------------------------------------------------------

/// An observer of `demo.hook` that sleeps `ms`, counting starts and finishes.
fn sleeping_observer(name: &str, ms: u64, started: &Arc<AtomicUsize>, finished: &Arc<AtomicUsize>) -> HookHandlerEntry {
    let (started, finished) = (Arc::clone(started), Arc::clone(finished));
    HookHandlerEntry::new(name, "demo.hook", move |_: HookArgs, _: HookContext| {
        let (started, finished) = (Arc::clone(&started), Arc::clone(&finished));
        async move {
            started.fetch_add(1, Ordering::SeqCst);
            sleep(Duration::from_millis(ms)).await;
            finished.fetch_add(1, Ordering::SeqCst);
        }
    })
    .mode(HookMode::Observe)
}

// "**observe** handlers run afterwards, concurrently, read-only"; "At most `max_concurrent_observers`
// (default 64) run at once": three slow observers take as long as one.
#[tokio::test(start_paused = true)]
async fn observers_run_concurrently() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let (started, finished) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let observers = ["o1", "o2", "o3"].iter().map(|n| sleeping_observer(n, 100, &started, &finished)).collect();
    d.register_plugin("p", Source::ThirdParty, observers).unwrap();
    let start = Instant::now();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    d.wait_observers().await;
    assert_eq!(finished.load(Ordering::SeqCst), 3);
    assert_eq!(start.elapsed(), Duration::from_millis(100));
}

// "observe: ... spawn it with a copy of the current kwargs"; "observers cannot modify": what one observer
// does to its arguments, another observer and the result never see.
#[tokio::test(start_paused = true)]
async fn each_observer_gets_its_own_copy_of_the_final_kwargs() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let seen = Arc::new(Mutex::new(Vec::<(String, Value)>::new()));
    let final_text = modifying("final", "demo.hook", json!({"text": "final"}));
    let log = Arc::clone(&seen);
    let meddler = HookHandlerEntry::new("a_meddler", "demo.hook", move |mut a: HookArgs, _: HookContext| {
        let log = Arc::clone(&log);
        async move {
            a.insert("text", "changed");
            a.insert("mine", true);
            log.lock().unwrap().push(("a_meddler".into(), Value::from(a.into_inner())));
        }
    })
    .mode(HookMode::Observe)
    .order(HookOrder::Early);
    let log = Arc::clone(&seen);
    let reader = HookHandlerEntry::new("b_reader", "demo.hook", move |a: HookArgs, _: HookContext| {
        let log = Arc::clone(&log);
        async move {
            sleep(Duration::from_millis(10)).await;
            log.lock().unwrap().push(("b_reader".into(), Value::from(a.into_inner())));
        }
    })
    .mode(HookMode::Observe)
    .order(HookOrder::Late);
    d.register_plugin("p", Source::ThirdParty, vec![final_text, meddler, reader]).unwrap();
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.kwargs, args(json!({"text": "final"})));
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            ("a_meddler".to_owned(), json!({"text": "changed", "mine": true})),
            ("b_reader".to_owned(), json!({"text": "final"})),
        ]
    );
}

// Observers run "through" the steps of running one handler, whose timeout is "Handler `timeout_ms` if > 0,
// else the spec's `default_timeout_ms` if > 0"; "Expiry drops the handler's future".
#[tokio::test(start_paused = true)]
async fn an_observer_without_its_own_timeout_is_dropped_at_the_specs_default() {
    let d = dispatcher(vec![HookSpec { default_timeout_ms: 100, ..HookSpec::new("demo.hook") }]);
    let (started, finished) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    d.register_plugin("p", Source::ThirdParty, vec![sleeping_observer("slow", 1_000, &started, &finished)]).unwrap();
    let start = Instant::now();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    d.wait_observers().await;
    assert!(result.errors.is_empty());
    assert_eq!(start.elapsed(), Duration::from_millis(100));
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (1, 0));
}

// "an observer beyond that waits for a permit (first come, first served)"; targets are "sorted
// ascending by (mode ...; order: early 0, normal 1, late 2; ...)": with one permit, one event's observers
// start one at a time in dispatch order.
#[tokio::test(start_paused = true)]
async fn observers_waiting_for_a_permit_start_in_dispatch_order() {
    let d = HookDispatcher::builder()
        .specs(registry_of(vec![HookSpec::new("demo.hook")]))
        .max_concurrent_observers(1)
        .build();
    let order = Arc::new(Mutex::new(Vec::<(String, Duration)>::new()));
    let start = Instant::now();
    let observer = |name: &str, slot: HookOrder| {
        let order = Arc::clone(&order);
        HookHandlerEntry::new(name, "demo.hook", move |_: HookArgs, ctx: HookContext| {
            let order = Arc::clone(&order);
            async move {
                order.lock().unwrap().push((ctx.full_name().to_string(), start.elapsed()));
                sleep(Duration::from_millis(10)).await;
            }
        })
        .mode(HookMode::Observe)
        .order(slot)
    };
    let entries =
        vec![observer("c", HookOrder::Early), observer("a", HookOrder::Late), observer("b", HookOrder::Normal)];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    d.wait_observers().await;
    let ms = Duration::from_millis;
    assert_eq!(
        *order.lock().unwrap(),
        [("p.c".to_owned(), ms(0)), ("p.b".to_owned(), ms(10)), ("p.a".to_owned(), ms(20))]
    );
}

// "an observer beyond that waits for a permit"; "`shutdown()` stops dispatching, aborts and awaits
// observers": an observer still waiting for its permit never starts.
#[tokio::test(start_paused = true)]
async fn shutdown_drops_observers_still_waiting_for_a_permit() {
    let d = HookDispatcher::builder()
        .specs(registry_of(vec![HookSpec::new("demo.hook")]))
        .max_concurrent_observers(1)
        .build();
    let (started, finished) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let observers = ["o1", "o2"].iter().map(|n| sleeping_observer(n, 1_000, &started, &finished)).collect();
    d.register_plugin("p", Source::ThirdParty, observers).unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert_eq!(started.load(Ordering::SeqCst), 1, "one permit");
    let start = Instant::now();
    d.shutdown().await;
    d.wait_observers().await;
    advance(Duration::from_secs(5)).await;
    assert_eq!(start.elapsed(), Duration::from_secs(5));
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (1, 0));
}

// ---- circuit breaker ------------------------------------------------------------------------------------------

/// A handler of `demo.b` with a 50 ms timeout that sleeps as long as `sleep_ms` says.
#[derive(Clone, Default)]
struct Controlled {
    sleep_ms: Arc<AtomicU64>,
    calls: Arc<AtomicUsize>,
}

impl Controlled {
    fn entry(&self) -> HookHandlerEntry {
        let this = self.clone();
        HookHandlerEntry::new("h", "demo.b", move |_: HookArgs, _: HookContext| {
            let this = this.clone();
            async move {
                this.calls.fetch_add(1, Ordering::SeqCst);
                let ms = this.sleep_ms.load(Ordering::SeqCst);
                if ms > 0 {
                    sleep(Duration::from_millis(ms)).await;
                }
            }
        })
        .timeout(Duration::from_millis(50))
    }

    fn set_sleep(&self, ms: u64) {
        self.sleep_ms.store(ms, Ordering::SeqCst);
    }
}

/// A dispatcher with plugin `p.s`'s controlled handler, its breaker opened by three timeouts.
async fn tripped() -> (HookDispatcher, Controlled) {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let handler = Controlled::default();
    d.register_plugin("p.s", Source::ThirdParty, vec![handler.entry()]).unwrap();
    handler.set_sleep(1_000);
    for _ in 0..3 {
        let result = d.invoke("demo.b", HookArgs::new()).await.unwrap();
        assert_eq!(result.errors, ["HookHandler p.s.h timed out after 50 ms"]);
    }
    (d, handler)
}

// "Half-open: the first acquire after the cooldown flips to half-open and is granted as the only probe;
// others are denied while it runs. Probe success ⇒ closed"; a denied handler is "skipped, added to
// `skipped`, treated as continue, no error"; statuses report `probe_in_flight`.
#[tokio::test(start_paused = true)]
async fn while_the_probe_runs_other_calls_of_the_plugin_are_skipped() {
    let (d, handler) = tripped().await;
    advance(Duration::from_secs(60)).await;
    handler.set_sleep(30);
    let probing = d.clone();
    let probe = tokio::spawn(async move { probing.invoke("demo.b", args(json!({"n": 1}))).await.unwrap() });
    for _ in 0..10 {
        if handler.calls.load(Ordering::SeqCst) == 4 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4, "the probe started");
    let status = d.breaker_statuses();
    assert_eq!(status.len(), 1);
    assert_eq!((status[0].state, status[0].probe_in_flight), (BreakerState::HalfOpen, true));

    let denied = d.invoke("demo.b", args(json!({"n": 2}))).await.unwrap();
    assert_eq!(denied.skipped, ["p.s.h"]);
    assert!(denied.errors.is_empty() && !denied.aborted);
    assert_eq!(denied.kwargs, args(json!({"n": 2})));

    let probed = probe.await.unwrap();
    assert!(probed.errors.is_empty() && probed.skipped.is_empty(), "{probed:?}");
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4);
    assert!(d.breaker_statuses().is_empty());
}

// "Open: cooldown = min(60 × 2^level, 300) s"; "Calls before the cooldown ends are denied";
// `breaker_statuses()` gives `remaining`; "an open state whose cooldown passed reports `half_open`".
#[tokio::test(start_paused = true)]
async fn the_cooldown_counts_down_and_every_call_before_its_end_is_skipped() {
    let (d, handler) = tripped().await;
    let status = d.breaker_statuses();
    assert_eq!(
        (status[0].state, status[0].remaining, status[0].level),
        (BreakerState::Open, Duration::from_secs(60), 1)
    );
    advance(Duration::from_secs(20)).await;
    assert_eq!(d.breaker_statuses()[0].remaining, Duration::from_secs(40));
    advance(Duration::from_millis(39_999)).await;
    handler.set_sleep(0);
    let denied = d.invoke("demo.b", HookArgs::new()).await.unwrap();
    assert_eq!(denied.skipped, ["p.s.h"]);
    let status = d.breaker_statuses();
    assert_eq!((status[0].state, status[0].remaining), (BreakerState::Open, Duration::from_millis(1)));
    advance(Duration::from_millis(1)).await;
    assert_eq!(d.breaker_statuses()[0].state, BreakerState::HalfOpen);
    let probe = d.invoke("demo.b", HookArgs::new()).await.unwrap();
    assert!(probe.skipped.is_empty() && probe.errors.is_empty());
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4);
    assert!(d.breaker_statuses().is_empty());
}

// "1. Plugin not `Loaded` ⇒ failure with message `plugin {id} is not loaded`; the breaker is not
// consulted" — before "2. Breaker permit": an open breaker neither skips it nor gives its probe away.
#[tokio::test(start_paused = true)]
async fn a_plugin_that_is_not_loaded_fails_before_the_breaker_is_asked() {
    let (d, handler) = tripped().await;
    d.set_plugin_loaded("p.s", false);
    let result = d.invoke("demo.b", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.s.h failed: plugin p.s is not loaded"]);
    assert!(result.skipped.is_empty());
    let status = d.breaker_statuses();
    assert_eq!((status[0].state, status[0].level), (BreakerState::Open, 1));

    advance(Duration::from_secs(60)).await;
    let result = d.invoke("demo.b", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.s.h failed: plugin p.s is not loaded"]);
    let status = d.breaker_statuses();
    assert_eq!((status[0].state, status[0].probe_in_flight, status[0].level), (BreakerState::HalfOpen, false, 1));

    d.set_plugin_loaded("p.s", true);
    handler.set_sleep(0);
    let probe = d.invoke("demo.b", HookArgs::new()).await.unwrap();
    assert!(probe.errors.is_empty() && probe.skipped.is_empty());
    assert!(d.breaker_statuses().is_empty());
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4);
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Text {
    text: String,
}

// "Counted failure: timeout or panic. Success: the handler returned (`Ok` or `Err` ...). Neutral: the
// handler was not called (payload decode error)"; "Closed: ... Failure ⇒ `consecutive += 1`; on reaching 3 ⇒
// open. Success ⇒ `consecutive = 0`" — a neutral outcome neither counts nor resets.
#[tokio::test(start_paused = true)]
async fn neutral_outcomes_neither_count_nor_reset_and_panics_count_like_timeouts() {
    let d = dispatcher(vec![HookSpec::new("demo.t")]);
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let entry = HookHandlerEntry::typed("h", "demo.t", move |p: Text, _: HookContext| {
        counter.fetch_add(1, Ordering::SeqCst);
        async move {
            match p.text.as_str() {
                "slow" => sleep(Duration::from_secs(1)).await,
                "boom" => panic!("boom"),
                "err" => return Err("refused".to_owned()),
                _ => {}
            }
            Ok(HookOutcome::<Text>::proceed())
        }
    })
    .timeout(Duration::from_millis(50));
    d.register_plugin("p.t", Source::ThirdParty, vec![entry]).unwrap();
    let fire = |text: Value| {
        let d = d.clone();
        async move { d.invoke("demo.t", args(json!({"text": text}))).await.unwrap() }
    };

    for text in [json!("slow"), json!("boom"), json!(5), json!("err"), json!("slow"), json!("slow"), json!(5)] {
        let result = fire(text.clone()).await;
        assert_eq!((result.errors.len(), result.skipped.len()), (1, 0), "{text}: {result:?}");
        assert!(d.breaker_statuses().is_empty(), "still closed after {text}");
    }
    let third = fire(json!("slow")).await;
    assert_eq!(third.errors, ["HookHandler p.t.h timed out after 50 ms"]);
    let status = d.breaker_statuses();
    assert_eq!((status[0].plugin_id.as_str(), status[0].state, status[0].level), ("p.t", BreakerState::Open, 1));
    let skipped = fire(json!("fine")).await;
    assert_eq!(skipped.skipped, ["p.t.h"]);
    assert_eq!(calls.load(Ordering::SeqCst), 6, "decode errors never called the handler");
}
