//! Every `hooks.*` case of `tests/vectors/host_cases.json`, one test each, and of
//! `tests/derived/host_cases.json` (further cases, each worked out from the rule its `note`
//! quotes), driven from the JSON: specs and scripted handlers as the vocabulary describes them,
//! on tokio's paused clock.

use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolhook::Locale;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{
    BreakerStatus, HookDispatchResult, HookDispatcher, HookHandlerEntry, HookHandlerManifest, HookSpec,
    HookSpecRegistry, build_object_schema,
};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/host_cases.json");
const DERIVED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/derived/host_cases.json");

fn cases_of(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    file["cases"].as_array().expect("cases").clone()
}

fn cases() -> Vec<Value> {
    cases_of(VECTORS)
}

fn case(name: &str) -> Value {
    cases().into_iter().chain(cases_of(DERIVED)).find(|c| c["case"] == name).unwrap_or_else(|| panic!("no case {name}"))
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

// ---- scripted handlers --------------------------------------------------------------------------

/// What a scripted handler does on a call (the vocabulary's `behaviour`).
#[derive(Clone, Debug)]
enum Behaviour {
    Unit,
    Returns { abort: bool, modify: Option<Value>, custom_result: Option<Value> },
    Fails(String),
    Sleeps(u64),
    Panics(String),
    PanicsWithNonStringPayload,
    Sequence(Vec<Behaviour>),
}

impl Behaviour {
    fn parse(value: &Value) -> Behaviour {
        match value {
            Value::Null => Behaviour::Unit,
            Value::String(s) if s == "unit" => Behaviour::Unit,
            Value::Object(map) => {
                let (key, arg) = map.iter().next().expect("a behaviour");
                match key.as_str() {
                    "returns" => Behaviour::Returns {
                        abort: arg.get("action").and_then(Value::as_str) == Some("abort"),
                        modify: arg.get("modify").cloned(),
                        custom_result: arg.get("custom_result").cloned(),
                    },
                    "fails" => Behaviour::Fails(arg.as_str().unwrap().to_owned()),
                    "sleeps_ms" => Behaviour::Sleeps(arg.as_u64().unwrap()),
                    "panics" => Behaviour::Panics(arg.as_str().unwrap().to_owned()),
                    "panics_with_non_string_payload" => Behaviour::PanicsWithNonStringPayload,
                    "sequence" => Behaviour::Sequence(arg.as_array().unwrap().iter().map(Behaviour::parse).collect()),
                    other => panic!("unknown behaviour {other}"),
                }
            }
            other => panic!("unknown behaviour {other}"),
        }
    }
}

/// What the scripted handlers did, in order.
#[derive(Default)]
struct Record {
    /// Full names, at the start of each call.
    calls: Vec<String>,
    /// Full name and the payload it received.
    received: Vec<(String, Value)>,
    /// Full name and its time budget.
    timeouts: Vec<(String, u128)>,
    /// Full names of calls whose future was dropped before it finished.
    dropped: Vec<String>,
    /// Full names of observer calls that finished.
    observers_finished: Vec<String>,
}

type Shared<T> = Arc<Mutex<T>>;

#[derive(Clone, Default)]
struct Script {
    record: Shared<Record>,
    behaviours: Shared<HashMap<String, Behaviour>>,
    call_counts: Shared<HashMap<String, usize>>,
}

/// Marks a call's future dropped unless it finished.
struct DropWatch {
    record: Shared<Record>,
    full_name: String,
    observer: bool,
    finished: bool,
}

impl Drop for DropWatch {
    fn drop(&mut self) {
        let mut record = self.record.lock().unwrap();
        if self.finished {
            if self.observer {
                record.observers_finished.push(self.full_name.clone());
            }
        } else {
            record.dropped.push(self.full_name.clone());
        }
    }
}

impl Script {
    /// The behaviour of this call: a sequence steps on per call, then stays on unit.
    fn next_behaviour(&self, full_name: &str) -> Behaviour {
        let behaviour = self.behaviours.lock().unwrap().get(full_name).cloned().unwrap_or(Behaviour::Unit);
        match behaviour {
            Behaviour::Sequence(steps) => {
                let mut counts = self.call_counts.lock().unwrap();
                let n = counts.entry(full_name.to_owned()).or_default();
                let step = steps.get(*n).cloned().unwrap_or(Behaviour::Unit);
                *n += 1;
                step
            }
            other => other,
        }
    }

    fn start(&self, ctx: &HookContext, received: Value) -> (Behaviour, DropWatch) {
        let full = ctx.full_name().to_owned();
        {
            let mut record = self.record.lock().unwrap();
            record.calls.push(full.clone());
            record.received.push((full.clone(), received));
            record.timeouts.push((full.clone(), ctx.timeout().as_millis()));
        }
        let watch = DropWatch {
            record: Arc::clone(&self.record),
            full_name: full.clone(),
            observer: ctx.mode() == HookMode::Observe,
            finished: false,
        };
        (self.next_behaviour(&full), watch)
    }
}

/// Runs a behaviour; `echo` is the payload the handler received, `to_payload` builds a modified one.
async fn perform<P>(
    behaviour: Behaviour,
    mut watch: DropWatch,
    echo: P,
    to_payload: impl Fn(&Value) -> P,
) -> Result<HookOutcome<P>, String> {
    let outcome = match behaviour {
        Behaviour::Unit | Behaviour::Sequence(_) => Ok(HookOutcome::proceed()),
        Behaviour::Sleeps(ms) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(HookOutcome::proceed())
        }
        Behaviour::Fails(message) => Err(message),
        Behaviour::Panics(payload) => std::panic::panic_any(payload),
        Behaviour::PanicsWithNonStringPayload => std::panic::panic_any(42u8),
        Behaviour::Returns { abort, modify, custom_result } => {
            let modified = modify.map(|m| if m == "echo" { echo } else { to_payload(&m) });
            let mut outcome = match (abort, modified) {
                (false, None) => HookOutcome::proceed(),
                (false, Some(p)) => HookOutcome::modify(p),
                (true, None) => HookOutcome::abort(),
                (true, Some(p)) => HookOutcome::abort_with(p),
            };
            if let Some(custom) = custom_result {
                outcome = outcome.with_custom_result(custom);
            }
            Ok(outcome)
        }
    };
    watch.finished = true;
    outcome
}

fn non_empty(value: &str) -> Option<&str> {
    if value.is_empty() { None } else { Some(value) }
}

/// The typed payload of the cases: `{"typed": {"text": "string"}}`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct TextPayload {
    text: String,
}

fn entry(script: &Script, handler: &Value) -> HookHandlerEntry {
    let s = |key: &str| handler.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
    let full_name = format!("{}.{}", s("plugin"), s("name"));
    script.behaviours.lock().unwrap().insert(full_name, Behaviour::parse(&handler["behaviour"]));
    let manifest = HookHandlerManifest {
        name: s("name"),
        hook: s("hook"),
        mode: s("mode"),
        order: s("order"),
        timeout_ms: handler.get("timeout_ms").and_then(Value::as_i64).unwrap_or(0),
        error_policy: s("error_policy"),
    };
    let script = script.clone();
    let entry = match handler.get("payload") {
        None | Some(Value::String(_)) => HookHandlerEntry::from_manifest(manifest, move |args: HookArgs, ctx| {
            let (behaviour, watch) = script.start(&ctx, Value::from(args.clone()));
            perform(behaviour, watch, args, |m: &Value| HookArgs::try_from(m.clone()).expect("an object"))
        }),
        Some(payload) => {
            assert_eq!(payload, &json!({"typed": {"text": "string"}}), "the fixture knows this typed payload");
            let mut entry = HookHandlerEntry::typed(manifest.name, manifest.hook, move |p: TextPayload, ctx| {
                let (behaviour, watch) = script.start(&ctx, serde_json::to_value(&p).unwrap());
                perform(behaviour, watch, p, |m: &Value| serde_json::from_value(m.clone()).expect("a TextPayload"))
            });
            if let Some(mode) = non_empty(&manifest.mode) {
                entry = entry.mode(mode.parse::<HookMode>().unwrap());
            }
            if let Some(order) = non_empty(&manifest.order) {
                entry = entry.order(order.parse::<HookOrder>().unwrap());
            }
            if let Some(policy) = non_empty(&manifest.error_policy) {
                entry = entry.error_policy(policy.parse::<ErrorPolicy>().unwrap());
            }
            entry.timeout(Duration::from_millis(manifest.timeout_ms as u64))
        }
    };
    entry.enabled(handler.get("enabled").and_then(Value::as_bool).unwrap_or(true))
}

fn source(handler: &Value) -> Source {
    match handler.get("source").and_then(Value::as_str) {
        Some("builtin") => Source::Builtin,
        _ => Source::ThirdParty,
    }
}

// ---- the fixture --------------------------------------------------------------------------------

struct Fixture {
    dispatcher: HookDispatcher,
    script: Script,
    logs: Shared<Vec<u8>>,
}

#[derive(Clone)]
struct LogWriter(Shared<Vec<u8>>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Fixture {
    fn new(setup: &Value) -> Fixture {
        let locale = match setup.get("locale").and_then(Value::as_str) {
            Some(tag) => tag.parse::<Locale>().unwrap(),
            None => Locale::En,
        };
        let specs = if setup.get("catalogue") == Some(&Value::Bool(true)) {
            HookSpecRegistry::with_builtin_catalogue_in(locale)
        } else {
            HookSpecRegistry::new()
        };
        for spec in setup.get("specs").and_then(Value::as_array).into_iter().flatten() {
            specs.register(serde_json::from_value::<HookSpec>(spec.clone()).unwrap()).unwrap();
        }
        let mut builder = HookDispatcher::builder()
            .specs(specs)
            .locale(locale)
            .validate_hooks(setup.get("validate_hooks").and_then(Value::as_bool).unwrap_or(true));
        if let Some(ms) = setup.get("default_timeout_ms").and_then(Value::as_u64) {
            builder = builder.default_timeout(Duration::from_millis(ms));
        }
        let fixture = Fixture { dispatcher: builder.build(), script: Script::default(), logs: Shared::default() };

        // Each plugin's handlers are one batch, in order of first appearance.
        let handlers: Vec<Value> = setup.get("handlers").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut plugins: Vec<String> = Vec::new();
        for handler in &handlers {
            let plugin = handler["plugin"].as_str().unwrap().to_owned();
            if !plugins.contains(&plugin) {
                plugins.push(plugin);
            }
        }
        for plugin in plugins {
            let batch: Vec<&Value> = handlers.iter().filter(|h| h["plugin"] == plugin.as_str()).collect();
            let entries = batch.iter().map(|h| entry(&fixture.script, h)).collect();
            fixture.dispatcher.register_plugin(&plugin, source(batch[0]), entries).expect("setup batch registers");
            if batch.iter().any(|h| h.get("plugin_state").is_some_and(|s| s != "loaded")) {
                fixture.dispatcher.set_plugin_loaded(&plugin, false);
            }
        }
        fixture
    }

    fn register(&self, batch: &Value) -> Result<(), String> {
        let plugin = batch["plugin"].as_str().unwrap();
        let handlers: Vec<Value> = batch["handlers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let mut h = h.clone();
                h["plugin"] = Value::from(plugin);
                h
            })
            .collect();
        let entries = handlers.iter().map(|h| entry(&self.script, h)).collect();
        self.dispatcher.register_plugin(plugin, source(batch), entries).map_err(|e| e.to_string())
    }

    fn mark(&self) -> usize {
        self.script.record.lock().unwrap().calls.len()
    }

    fn calls_since(&self, mark: usize) -> Vec<String> {
        self.script.record.lock().unwrap().calls[mark..].to_vec()
    }
}

fn status_json(status: &BreakerStatus) -> Value {
    json!({
        "plugin_id": status.plugin_id,
        "state": status.state.as_str(),
        "level": status.level,
        "probe_in_flight": status.probe_in_flight,
        "remaining_s": status.remaining.as_secs_f64(),
    })
}

/// Partial comparison of statuses: the keys shown; `remaining_s_about` within a second.
fn check_statuses(name: &str, expected: &Value, actual: &[BreakerStatus]) {
    let expected = expected.as_array().unwrap();
    let actual: Vec<Value> = actual.iter().map(status_json).collect();
    assert_eq!(expected.len(), actual.len(), "{name}: statuses {actual:?}");
    for (e, a) in expected.iter().zip(&actual) {
        for (key, value) in e.as_object().unwrap() {
            if key == "remaining_s_about" {
                let remaining = a["remaining_s"].as_f64().unwrap();
                assert!((remaining - value.as_f64().unwrap()).abs() <= 1.0, "{name}: remaining {remaining}");
            } else {
                assert_eq!(&a[key], value, "{name}: status {key} of {a}");
            }
        }
    }
}

fn check_result(name: &str, expected: &Value, actual: &HookDispatchResult) {
    let actual = serde_json::to_value(actual).unwrap();
    for (key, value) in expected.as_object().unwrap() {
        assert_eq!(text(&actual[key]), text(value), "{name}: result.{key} in {actual}");
    }
}

/// Checks what an `invoke` step expects; `record` is the step's slice of the record.
fn check_invoke(
    fixture: &Fixture,
    name: &str,
    expected: &Value,
    mark: usize,
    outcome: &Result<HookDispatchResult, String>,
    finished_at_return: &[String],
) {
    let record = fixture.script.record.lock().unwrap();
    for (key, value) in expected.as_object().unwrap() {
        match key.as_str() {
            "error" => assert_eq!(outcome.as_ref().err(), value.as_str().map(str::to_owned).as_ref(), "{name}"),
            "result" => check_result(name, value, outcome.as_ref().expect("invoke succeeds")),
            "calls" => {
                let calls: Vec<&String> = record.calls[mark..].iter().collect();
                assert_eq!(text(&json!(calls)), text(value), "{name}: calls");
            }
            "handler_called" => {
                assert_eq!(record.calls.len() > mark, value.as_bool().unwrap(), "{name}: {:?}", &record.calls[mark..]);
            }
            "received" | "observer_received" => {
                for (handler, payload) in value.as_object().unwrap() {
                    let got = record.received[mark..].iter().rev().find(|(h, _)| h == handler);
                    let got = got.unwrap_or_else(|| panic!("{name}: {handler} received nothing"));
                    assert_eq!(text(&got.1), text(payload), "{name}: received by {handler}");
                }
            }
            "timeouts_ms" => {
                for (handler, ms) in value.as_object().unwrap() {
                    let got = record.timeouts[mark..].iter().find(|(h, _)| h == handler).map(|(_, ms)| *ms);
                    assert_eq!(got, Some(u128::from(ms.as_u64().unwrap())), "{name}: timeout of {handler}");
                }
            }
            "errors_prefix" => {
                let errors = &outcome.as_ref().expect("invoke succeeds").errors;
                let prefixes = value.as_array().unwrap();
                assert_eq!(errors.len(), prefixes.len(), "{name}: {errors:?}");
                for (error, prefix) in errors.iter().zip(prefixes) {
                    assert!(error.starts_with(prefix.as_str().unwrap()), "{name}: {error:?} vs {prefix}");
                }
            }
            "handler_future_dropped" => {
                for handler in value.as_array().unwrap() {
                    assert!(record.dropped.iter().any(|d| d == handler), "{name}: {handler} not dropped");
                }
            }
            "observer_finished_before_invoke_returned" => {
                assert_eq!(!finished_at_return.is_empty(), value.as_bool().unwrap(), "{name}: {finished_at_return:?}");
            }
            "breaker_statuses" => check_statuses(name, value, &fixture.dispatcher.breaker_statuses()),
            "log_levels" => {
                let logs = String::from_utf8(fixture.logs.lock().unwrap().clone()).unwrap();
                for (handler, level) in value.as_object().unwrap() {
                    let lines: Vec<&str> = logs.lines().filter(|l| l.contains(handler.as_str())).collect();
                    assert!(!lines.is_empty(), "{name}: nothing logged for {handler}:\n{logs}");
                    let level = level.as_str().unwrap().to_uppercase();
                    for line in lines {
                        assert!(line.trim_start().starts_with(&level), "{name}: {handler} at {level}: {line}");
                    }
                }
            }
            other => panic!("{name}: unhandled expected key {other}"),
        }
    }
}

fn spec_json(spec: &HookSpec) -> Value {
    serde_json::to_value(spec).unwrap()
}

fn check_spec(name: &str, expected: &Value, spec: &HookSpec) {
    let actual = spec_json(spec);
    for (key, value) in expected.as_object().unwrap() {
        // Key order inside schemas is not significant here (the case says so).
        assert_eq!(&actual[key], value, "{name}: spec {} {key}", spec.name);
    }
}

/// Runs one step (an object with one action key, optionally `then`) and checks its expectations.
async fn step(fixture: &Fixture, name: &str, action: &Value, expected: &Value) {
    let action = action.as_object().unwrap();
    let then_wait = action.get("then").and_then(Value::as_str) == Some("wait_observers");
    let (verb, arg) = action.iter().find(|(k, _)| k.as_str() != "then").expect("an action");
    let dispatcher = &fixture.dispatcher;
    let expected_map = expected.as_object().cloned().unwrap_or_default();
    match verb.as_str() {
        "invoke" => {
            let mark = fixture.mark();
            let kwargs = HookArgs::try_from(arg["kwargs"].clone()).unwrap();
            let outcome = dispatcher.invoke(arg["hook"].as_str().unwrap(), kwargs).await.map_err(|e| e.to_string());
            let finished_at_return = fixture.script.record.lock().unwrap().observers_finished.clone();
            if then_wait {
                dispatcher.wait_observers().await;
            }
            check_invoke(fixture, name, expected, mark, &outcome, &finished_at_return);
        }
        "invoke_repeated" => {
            let mut results = Vec::new();
            let mut calls = Vec::new();
            for _ in 0..arg["times"].as_u64().unwrap() {
                let mark = fixture.mark();
                let kwargs = HookArgs::try_from(arg["kwargs"].clone()).unwrap();
                results.push(dispatcher.invoke(arg["hook"].as_str().unwrap(), kwargs).await.unwrap());
                calls.push(fixture.calls_since(mark));
            }
            for (key, value) in &expected_map {
                match key.as_str() {
                    "results" => {
                        let expected = value.as_array().unwrap();
                        assert_eq!(expected.len(), results.len(), "{name}");
                        for (i, (e, a)) in expected.iter().zip(&results).enumerate() {
                            check_result(&format!("{name} #{}", i + 1), e, a);
                        }
                    }
                    "statuses_after" => check_statuses(name, value, &dispatcher.breaker_statuses()),
                    key if key.starts_with("calls_in_") => {
                        let n: usize = key["calls_in_".len()..].trim_end_matches(char::is_alphabetic).parse().unwrap();
                        assert_eq!(text(&json!(calls[n - 1])), text(value), "{name}: {key}");
                    }
                    other => panic!("{name}: unhandled expected key {other}"),
                }
            }
        }
        "register" => {
            let outcome = fixture.register(arg);
            if let Some(error) = expected_map.get("error") {
                assert_eq!(outcome.err().as_deref(), error.as_str(), "{name}");
            }
        }
        "register_each" => {
            let errors: Vec<Value> = arg
                .as_array()
                .unwrap()
                .iter()
                .map(|b| fixture.register(b).err().map_or(Value::Null, Value::from))
                .collect();
            assert_eq!(text(&json!(errors)), text(&expected["errors"]), "{name}");
        }
        "set_enabled" => {
            let handler = ["full_name", "handler", "name"].iter().find_map(|k| arg.get(*k)).and_then(Value::as_str);
            assert!(dispatcher.set_enabled(handler.unwrap(), arg["enabled"].as_bool().unwrap()), "{name}");
        }
        "set_behaviour" => {
            let handler = ["full_name", "handler", "name"].iter().find_map(|k| arg.get(*k)).and_then(Value::as_str);
            let behaviour = Behaviour::parse(&arg["behaviour"]);
            fixture.script.behaviours.lock().unwrap().insert(handler.unwrap().to_owned(), behaviour);
            fixture.script.call_counts.lock().unwrap().clear();
        }
        "shutdown" => dispatcher.shutdown().await,
        "advance_clock_s" => tokio::time::advance(Duration::from_secs_f64(arg.as_f64().unwrap())).await,
        "breaker_statuses" => {
            if let Some(statuses) = expected_map.get("statuses") {
                check_statuses(name, statuses, &dispatcher.breaker_statuses());
            }
        }
        "register_spec" | "register_specs" => {
            let specs: Vec<Value> = match arg {
                Value::Array(list) => list.clone(),
                one => vec![one.clone()],
            };
            let outcomes: Vec<Result<HookSpec, String>> = specs
                .iter()
                .map(|s| {
                    let spec = serde_json::from_value::<HookSpec>(s.clone()).map_err(|e| e.to_string())?;
                    dispatcher.specs().register(spec).map_err(|e| e.message(dispatcher.locale()))
                })
                .collect();
            for (key, value) in &expected_map {
                match key.as_str() {
                    "stored" => {
                        for (e, a) in value.as_array().unwrap().iter().zip(&outcomes) {
                            check_spec(name, e, a.as_ref().expect("registered"));
                        }
                    }
                    "error" | "errors" => {
                        let errors: Vec<Value> = outcomes
                            .iter()
                            .map(|o| o.as_ref().err().map_or(Value::Null, |e| Value::from(e.as_str())))
                            .collect();
                        let expected_errors = if key == "error" { json!([value]) } else { value.clone() };
                        assert_eq!(text(&json!(errors)), text(&expected_errors), "{name}");
                    }
                    "list_order" => {
                        let names: Vec<String> = dispatcher.specs().list().into_iter().map(|s| s.name).collect();
                        assert_eq!(text(&json!(names)), text(value), "{name}");
                    }
                    "note" => {}
                    other => panic!("{name}: unhandled expected key {other}"),
                }
            }
        }
        "get_spec" | "get_specs" => {
            let names: Vec<&str> = match arg {
                Value::Array(list) => list.iter().map(|n| n.as_str().unwrap()).collect(),
                one => vec![one.as_str().unwrap()],
            };
            for (key, value) in &expected_map {
                match key.as_str() {
                    "specs" | "spec" => {
                        let expected: Vec<Value> = match value {
                            Value::Array(list) => list.clone(),
                            one => vec![one.clone()],
                        };
                        assert_eq!(expected.len(), names.len(), "{name}");
                        for (e, spec_name) in expected.iter().zip(&names) {
                            match dispatcher.specs().get(spec_name) {
                                Some(spec) => check_spec(name, e, &spec),
                                None => assert!(e.is_null(), "{name}: no spec {spec_name}"),
                            }
                        }
                    }
                    "total_specs" => {
                        assert_eq!(dispatcher.specs().list().len() as u64, value.as_u64().unwrap(), "{name}")
                    }
                    key if key.starts_with("required_of_") || key.starts_with("optional_of_") => {
                        let (kind, hook) = key.split_once("_of_").unwrap();
                        let schema = dispatcher.specs().get(hook).unwrap().parameters_schema;
                        let required: Vec<Value> = schema["required"].as_array().cloned().unwrap_or_default();
                        let listed: Vec<Value> = if kind == "required" {
                            required
                        } else {
                            schema["properties"]
                                .as_object()
                                .unwrap()
                                .keys()
                                .map(|k| Value::from(k.as_str()))
                                .filter(|k| !required.contains(k))
                                .collect()
                        };
                        assert_eq!(text(&json!(listed)), text(value), "{name}: {key}");
                    }
                    other => panic!("{name}: unhandled expected key {other}"),
                }
            }
        }
        "unregister_spec" => {
            let removed = dispatcher.specs().unregister(arg.as_str().unwrap());
            if let Some(value) = expected_map.get("removed") {
                assert_eq!(Some(removed), value.as_bool(), "{name}");
            }
        }
        "build_object_schema" => {
            let properties: Map<String, Value> = arg["properties"].as_object().cloned().unwrap_or_default();
            let required: Vec<String> = arg
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str().map(str::to_owned))
                .collect();
            let schema = build_object_schema(properties, required);
            if let Some(value) = expected_map.get("schema") {
                assert_eq!(text(&schema), text(value), "{name}");
            }
        }
        other => panic!("{name}: unknown action {other}"),
    }
}

async fn run(name: &str) {
    let case = case(name);
    assert!(case["feature"].as_str().unwrap().starts_with("hooks."), "{name} is a hooks case");
    let fixture = Fixture::new(&case["setup"]);
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_ansi(false)
        .without_time()
        .with_writer({
            let logs = LogWriter(Arc::clone(&fixture.logs));
            move || logs.clone()
        })
        .finish();
    let _logging = tracing::subscriber::set_default(subscriber);
    let action = &case["action"];
    match action.get("steps") {
        Some(steps) => {
            let expected = case["expected"]["steps"].as_array().expect("expected.steps");
            let steps = steps.as_array().unwrap();
            assert_eq!(steps.len(), expected.len(), "{name}");
            for (i, (action, expected)) in steps.iter().zip(expected).enumerate() {
                step(&fixture, &format!("{name} step {}", i + 1), action, expected).await;
            }
        }
        None => step(&fixture, name, action, &case["expected"]).await,
    }
}

macro_rules! cases {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[tokio::test(start_paused = true)]
            async fn $test() {
                run($name).await;
            }
        )*

        #[test]
        fn every_hooks_case_of_the_file_has_a_test() {
            let tested = [$($name),*];
            for case in cases() {
                let feature = case["feature"].as_str().unwrap();
                let name = case["case"].as_str().unwrap();
                if feature.starts_with("hooks.") {
                    assert!(tested.contains(&name), "no test for {name}");
                }
            }
        }
    };
}

cases! {
    breaker_neutral_probe_released => "breaker-neutral-probe-released",
    breaker_opens_and_skips => "breaker-opens-and-skips",
    catalogue_part_1 => "catalogue-part-1",
    hook_abort_keeps_modification => "hook-abort-keeps-modification",
    hook_abort_not_allowed_zh => "hook-abort-not-allowed-zh",
    hook_blocking_not_allowed_at_dispatch => "hook-blocking-not-allowed-at-dispatch",
    hook_chain_replaces_kwargs => "hook-chain-replaces-kwargs",
    hook_disabled_and_timeout_resolution => "hook-disabled-and-timeout-resolution",
    hook_empty_name => "hook-empty-name",
    hook_error_policies => "hook-error-policies",
    hook_observer_sees_final_kwargs => "hook-observer-sees-final-kwargs",
    hook_order => "hook-order",
    hook_panic_counts_for_breaker => "hook-panic-counts-for-breaker",
    hook_plugin_not_loaded_zh => "hook-plugin-not-loaded-zh",
    hook_registration_atomic => "hook-registration-atomic",
    hook_registration_errors_zh_1 => "hook-registration-errors-zh-1",
    hook_return_shapes => "hook-return-shapes",
    hook_schema_validation => "hook-schema-validation",
    hook_shutdown_no_calls => "hook-shutdown-no-calls",
    hook_spec_normalisation => "hook-spec-normalisation",
    hook_timeout_cancels => "hook-timeout-cancels",
    hook_typed_payload_overlay => "hook-typed-payload-overlay",
    hook_unknown_synthetic_spec => "hook-unknown-synthetic-spec",
    hook_unregistered_hook_rejected_zh => "hook-unregistered-hook-rejected-zh",
}

#[tokio::test(start_paused = true)]
async fn every_derived_hooks_case_holds() {
    let derived: Vec<Value> =
        cases_of(DERIVED).into_iter().filter(|c| c["feature"].as_str().unwrap().starts_with("hooks.")).collect();
    assert!(!derived.is_empty());
    for case in derived {
        run(case["case"].as_str().unwrap()).await;
    }
}
