//! A second, independent pass over the hook rules: spec normalisation of odd JSON inputs and the
//! spec registry, handler ordering ties, the merge order of a blocking handler's outcome (custom
//! result, failure and error policy, modification, abort) when several of them meet in one
//! dispatch, validation of modified kwargs (precedence, nested paths, typed overlays, nulls, zh-Hans
//! reasons), timeouts of blocking and observe handlers, and the circuit breaker's thresholds,
//! probes, cooldown cap and level reset on tokio's paused clock.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::{Instant, advance, sleep};
use toolhook::Locale;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{
    BreakerConfig, BreakerState, BreakerStatus, HookDispatchResult, HookDispatcher, HookHandlerEntry, HookSpec,
    HookSpecRegistry,
};

// ---- helpers ------------------------------------------------------------------------------------

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

fn registry(specs: Vec<HookSpec>) -> HookSpecRegistry {
    let registry = HookSpecRegistry::new();
    for spec in specs {
        registry.register(spec).unwrap();
    }
    registry
}

fn dispatcher(specs: Vec<HookSpec>) -> HookDispatcher {
    HookDispatcher::builder().specs(registry(specs)).build()
}

fn spec_json(value: Value) -> HookSpec {
    serde_json::from_value(value).expect("a hook spec")
}

fn schema_spec(name: &str, schema: Value) -> HookSpec {
    HookSpec { parameters_schema: schema, ..HookSpec::new(name) }
}

/// A blocking handler that returns `outcome` on every call.
fn returning(name: &str, hook: &str, outcome: HookOutcome) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| std::future::ready(outcome.clone()))
}

fn modifying(name: &str, hook: &str, kwargs: Value) -> HookHandlerEntry {
    returning(name, hook, HookOutcome::modify(args(kwargs)))
}

/// What handlers saw: their full name and the kwargs they were given.
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

fn seen() -> Seen {
    Arc::new(Mutex::new(Vec::new()))
}

fn names(seen: &Seen) -> Vec<String> {
    seen.lock().unwrap().iter().map(|(name, _)| name.clone()).collect()
}

/// A handler that records its full name and kwargs and continues.
fn recorder(name: &str, hook: &str, seen: &Seen) -> HookHandlerEntry {
    let log = Arc::clone(seen);
    HookHandlerEntry::new(name, hook, move |a: HookArgs, ctx: HookContext| {
        log.lock().unwrap().push((ctx.full_name().to_owned(), Value::from(a.into_inner())));
        async {}
    })
}

/// A handler that sleeps `ms` (unit result), counting starts and finishes.
fn sleeper(
    name: &str,
    hook: &str,
    ms: u64,
    started: &Arc<AtomicUsize>,
    finished: &Arc<AtomicUsize>,
) -> HookHandlerEntry {
    let (started, finished) = (Arc::clone(started), Arc::clone(finished));
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| {
        let (started, finished) = (Arc::clone(&started), Arc::clone(&finished));
        async move {
            started.fetch_add(1, Ordering::SeqCst);
            sleep(Duration::from_millis(ms)).await;
            finished.fetch_add(1, Ordering::SeqCst);
        }
    })
}

fn counters() -> (Arc<AtomicUsize>, Arc<AtomicUsize>) {
    (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)))
}

#[derive(Debug, Serialize, Deserialize)]
struct Text {
    text: String,
}

const FAST: u8 = 0;
const SLOW: u8 = 1;
const PANIC: u8 = 2;
const FAIL: u8 = 3;

/// A handler with a 50 ms timeout whose behaviour is switched between calls: return at once,
/// sleep 1 s (a timeout), panic with `"kaput"`, or return `Err("no")`.
#[derive(Clone, Default)]
struct Behaviour {
    mode: Arc<AtomicU8>,
    calls: Arc<AtomicUsize>,
}

impl Behaviour {
    fn new(mode: u8) -> Self {
        let this = Behaviour::default();
        this.set(mode);
        this
    }

    fn set(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    fn entry(&self, name: &str, hook: &str) -> HookHandlerEntry {
        let this = self.clone();
        HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| {
            let this = this.clone();
            async move {
                this.calls.fetch_add(1, Ordering::SeqCst);
                match this.mode.load(Ordering::SeqCst) {
                    SLOW => {
                        sleep(Duration::from_secs(1)).await;
                        Ok(())
                    }
                    PANIC => panic!("kaput"),
                    FAIL => Err("no".to_owned()),
                    _ => Ok(()),
                }
            }
        })
        .timeout(Duration::from_millis(50))
    }
}

fn status_of(d: &HookDispatcher) -> (BreakerState, Duration, u32) {
    let statuses: Vec<BreakerStatus> = d.breaker_statuses();
    assert_eq!(statuses.len(), 1, "{statuses:?}");
    (statuses[0].state, statuses[0].remaining, statuses[0].level)
}

async fn fire(d: &HookDispatcher, hook: &str) -> HookDispatchResult {
    d.invoke(hook, args(json!({"text": "hi"}))).await.unwrap()
}

// ---- hook specs ---------------------------------------------------------------------------------

// "`default_timeout_ms` deserialises from any JSON integer (an `i64` or `u64`); a negative value
// becomes 0."
#[test]
fn a_default_timeout_from_json_turns_negatives_into_zero_and_keeps_any_u64() {
    let cases = [(json!(-5), 0), (json!(i64::MIN), 0), (json!(0), 0), (json!(7), 7), (json!(u64::MAX), u64::MAX)];
    for (raw, expected) in cases {
        let spec = spec_json(json!({"name": "t.timeout", "default_timeout_ms": raw}));
        let stored = HookSpecRegistry::new().register(spec).unwrap();
        assert_eq!(stored.default_timeout_ms, expected, "{raw}");
    }
}

// "a negative value becomes 0"; "Handler `timeout_ms` if > 0, else the spec's `default_timeout_ms` if
// > 0, else the dispatcher default".
#[tokio::test(start_paused = true)]
async fn a_negative_spec_timeout_from_json_falls_back_to_the_dispatchers_default() {
    let specs = registry(vec![spec_json(json!({"name": "t.neg", "default_timeout_ms": -1}))]);
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_millis(120)).build();
    let (started, finished) = counters();
    d.register_plugin("p.s", Source::ThirdParty, vec![sleeper("h", "t.neg", 1_000, &started, &finished)]).unwrap();
    let start = Instant::now();
    let result = fire(&d, "t.neg").await;
    assert_eq!(result.errors, ["HookHandler p.s.h timed out after 120 ms"]);
    assert_eq!(start.elapsed(), Duration::from_millis(120));
    assert_eq!(finished.load(Ordering::SeqCst), 0);
}

// The four spec errors in zh-Hans, byte for byte.
#[test]
fn spec_errors_have_their_chinese_texts() {
    let registry = HookSpecRegistry::new();
    let zh = |spec: HookSpec| registry.register(spec).unwrap_err().message(Locale::ZhHans);
    assert_eq!(zh(HookSpec::new(" \t\n")), "Hook 名称不能为空");
    assert_eq!(zh(schema_spec("z.a", json!([1]))), "Hook 参数模型必须是字典");
    assert_eq!(zh(schema_spec("z.b", json!({"type": "string"}))), "Hook 参数模型必须是 object 类型或属性映射");
    assert_eq!(zh(schema_spec("z.c", json!({"type": "string", "properties": {}}))), "Hook 参数模型必须是 object 类型");
    assert_eq!(registry.register(HookSpec::new("   ")).unwrap_err().message(Locale::En), "Hook name must not be empty");
    assert!(registry.list().is_empty());
}

// "`register(spec)` normalises and **overwrites** a spec of the same name, returning the stored copy": a
// spec that fails normalisation has no stored copy and replaces nothing.
#[test]
fn a_refused_spec_leaves_the_stored_one_in_place() {
    let registry = HookSpecRegistry::new();
    let kept = registry.register(HookSpec { default_timeout_ms: 10, ..HookSpec::new("k.hook") }).unwrap();
    assert!(registry.register(schema_spec(" k.hook ", json!({"type": "array"}))).is_err());
    assert_eq!(registry.get("k.hook"), Some(kept));
}

// Schema: "`t` present and ≠ `"object"` and not `p` ⇒ error"; "no `t`, not `p` ⇒ the whole value is a
// property map"; "no `t`, `p` ⇒ `type` set to `"object"`" (absent, null or `""` count as no type).
#[test]
fn schema_inputs_are_normalised_by_their_type_and_properties_keys() {
    let cases = [
        // type object without properties: kept as written, not wrapped.
        (json!({"type": "object"}), json!({"type": "object"})),
        (json!({"type": "object", "required": ["a"]}), json!({"type": "object", "required": ["a"]})),
        // no type, no properties: the whole value is a property map, even `required`.
        (json!({"required": ["a"]}), json!({"type": "object", "properties": {"required": ["a"]}})),
        // no type (null or empty) with properties: type set, other keys kept.
        (json!({"type": null, "properties": {"a": {}}}), json!({"type": "object", "properties": {"a": {}}})),
        (
            json!({"type": "", "properties": {"a": {}}, "required": ["a"]}),
            json!({"type": "object", "properties": {"a": {}}, "required": ["a"]}),
        ),
        (
            json!({"properties": {"a": {}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
        ),
    ];
    let registry = HookSpecRegistry::new();
    for (input, expected) in cases {
        let stored = registry.register(schema_spec("n.hook", input.clone())).unwrap();
        assert_eq!(stored.parameters_schema, expected, "{input}");
    }
}

// "`list()` ⇒ copies sorted by name"; re-registering overwrites; `unregister(name) -> bool`.
#[test]
fn the_registry_lists_by_name_in_byte_order_and_keeps_one_copy_per_name() {
    let registry = HookSpecRegistry::new();
    for name in ["b.hook", " a.hook.x", "B.hook", "a.hook "] {
        registry.register(HookSpec::new(name)).unwrap();
    }
    let again = registry.register(HookSpec { description: " second ".into(), ..HookSpec::new("a.hook") }).unwrap();
    assert_eq!(again.description, "second");
    let listed: Vec<String> = registry.list().into_iter().map(|s| s.name).collect();
    assert_eq!(listed, ["B.hook", "a.hook", "a.hook.x", "b.hook"]);
    assert_eq!(registry.get("a.hook"), Some(again));
    assert!(registry.unregister("b.hook"));
    assert!(!registry.unregister("b.hook"));
    assert_eq!(registry.list().len(), 3);
}

// "Spec = the registered one, or for an unknown name a synthetic spec (schema `{}`, default timeout = the
// dispatcher's, every allow flag true)": once the spec is unregistered, its flags, schema and timeout
// no longer apply.
#[tokio::test(start_paused = true)]
async fn an_unregistered_spec_leaves_its_hook_to_the_synthetic_spec() {
    let spec = HookSpec {
        default_timeout_ms: 100,
        allow_abort: false,
        allow_kwargs_mutation: false,
        parameters_schema: json!({"text": {"type": "string"}}),
        ..HookSpec::new("demo.gone")
    };
    let d = dispatcher(vec![spec]);
    let slow = HookHandlerEntry::new("h", "demo.gone", |_: HookArgs, _: HookContext| async {
        sleep(Duration::from_millis(150)).await;
        HookOutcome::abort_with(args(json!({"text": 5})))
    });
    d.register_plugin("p", Source::ThirdParty, vec![slow]).unwrap();
    let before = fire(&d, "demo.gone").await;
    assert_eq!(before.errors, ["HookHandler p.h timed out after 100 ms"]);
    assert!(!before.aborted);

    assert!(d.specs().unregister("demo.gone"));
    let after = fire(&d, "demo.gone").await;
    assert!(after.errors.is_empty(), "{:?}", after.errors);
    assert!(after.aborted);
    assert_eq!(after.stopped_by.as_deref(), Some("p.h"));
    assert_eq!(after.kwargs, args(json!({"text": 5})));
}

// ---- registration and dispatch flags -------------------------------------------------------------

// "`validate_hooks(false)` skips the first four checks"; at dispatch "blocking with `allow_blocking =
// false` ⇒ error `Hook {hook} does not allow blocking handlers; skipped {full}`, next"; observers still
// get the (unchanged) kwargs.
#[tokio::test]
async fn blocking_handlers_on_a_hook_without_blocking_are_each_skipped_with_an_error() {
    let specs = registry(vec![HookSpec { allow_blocking: false, ..HookSpec::new("demo.nb") }]);
    let d = HookDispatcher::builder().specs(specs).validate_hooks(false).build();
    let log = seen();
    d.register_plugin("p.a", Source::ThirdParty, vec![modifying("h", "demo.nb", json!({"text": "changed"}))]).unwrap();
    d.register_plugin("p.b", Source::ThirdParty, vec![recorder("h2", "demo.nb", &log).order(HookOrder::Late)]).unwrap();
    d.register_plugin("p.c", Source::ThirdParty, vec![recorder("o", "demo.nb", &log).mode(HookMode::Observe)]).unwrap();
    let result = d.invoke_and_wait("demo.nb", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.nb does not allow blocking handlers; skipped p.a.h",
            "Hook demo.nb does not allow blocking handlers; skipped p.b.h2",
        ]
    );
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert_eq!(*log.lock().unwrap(), [("p.c.o".to_owned(), json!({"text": "hi"}))]);
}

// "`allow_kwargs_mutation` is not checked here"; at dispatch "spec forbids mutation ⇒ error `Hook {hook}
// does not allow modifying kwargs; ignored modified_kwargs from {full}`", and the next handler sees the
// kwargs as they were.
#[tokio::test]
async fn a_modifying_handler_registers_on_a_fixed_hook_and_its_change_is_ignored() {
    let d = dispatcher(vec![HookSpec { allow_kwargs_mutation: false, ..HookSpec::new("demo.fixed") }]);
    let log = seen();
    let entries = vec![
        modifying("h", "demo.fixed", json!({"text": "changed"})).order(HookOrder::Early),
        recorder("next", "demo.fixed", &log),
    ];
    d.register_plugin("p.m", Source::ThirdParty, entries).unwrap();
    let result = fire(&d, "demo.fixed").await;
    assert_eq!(result.errors, ["Hook demo.fixed does not allow modifying kwargs; ignored modified_kwargs from p.m.h"]);
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert_eq!(*log.lock().unwrap(), [("p.m.next".to_owned(), json!({"text": "hi"}))]);
}

// ---- order --------------------------------------------------------------------------------------

// Targets "sorted ascending by (mode ...; order ...; source: builtin 0, third-party 1; plugin id; handler
// name), strings by byte order": the plugin id is compared on its own before the handler name (`p`
// before `p.a`, though the full name `p.a.b` < `p.zz`), upper case before lower case, `h10` before `h9`.
#[tokio::test]
async fn ties_are_broken_by_source_then_plugin_id_then_handler_name_in_byte_order() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    let entry = |name: &str| recorder(name, "demo.hook", &log);
    d.register_plugin("q", Source::ThirdParty, vec![entry("h9"), entry("a"), entry("h10"), entry("B")]).unwrap();
    d.register_plugin("p.a", Source::ThirdParty, vec![entry("b")]).unwrap();
    d.register_plugin("p", Source::ThirdParty, vec![entry("zz")]).unwrap();
    d.register_plugin("P", Source::ThirdParty, vec![entry("x")]).unwrap();
    d.register_plugin("zz", Source::Builtin, vec![entry("a")]).unwrap();
    fire(&d, "demo.hook").await;
    assert_eq!(names(&log), ["zz.a", "P.x", "p.zz", "p.a.b", "q.B", "q.a", "q.h10", "q.h9"]);
}

// ---- merging a blocking handler's outcome -------------------------------------------------------

// "1. `custom_result` present ⇒ appended"; "3. ... invalid ⇒ error ... and the kwargs stay as they
// were"; "4. `action = Abort`: allowed ⇒ `aborted = true`": the kwargs that stay are the previous
// handler's, not the input.
#[tokio::test]
async fn a_rejected_abort_with_keeps_the_previous_handlers_kwargs_and_still_aborts() {
    let d = dispatcher(vec![schema_spec("demo.v", json!({"text": {"type": "string"}}))]);
    let log = seen();
    let entries = vec![
        modifying("h1", "demo.v", json!({"text": "one"})).order(HookOrder::Early),
        returning("h2", "demo.v", HookOutcome::abort_with(args(json!({"text": 2}))).with_custom_result("why")),
        recorder("h3", "demo.v", &log).order(HookOrder::Late),
        recorder("o", "demo.v", &log).mode(HookMode::Observe),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let result = d.invoke_and_wait("demo.v", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.v rejected modified_kwargs from p.h2: text: expected string, got integer"]);
    assert_eq!(result.kwargs, args(json!({"text": "one"})));
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.h2"));
    assert_eq!(result.custom_results, [json!("why")]);
    assert!(log.lock().unwrap().is_empty());
}

// Step 3 "spec forbids mutation ⇒ error" and step 4 "allowed ⇒ `aborted = true`, `stopped_by = full`":
// the abort stands even though its modification was ignored.
#[tokio::test]
async fn a_forbidden_modification_is_ignored_but_an_allowed_abort_stops_the_hook() {
    let d = dispatcher(vec![HookSpec { allow_kwargs_mutation: false, ..HookSpec::new("demo.fixed") }]);
    let log = seen();
    let stopper = HookOutcome::abort_with(args(json!({"text": "changed"}))).with_custom_result(json!({"k": 1}));
    let entries =
        vec![returning("stop", "demo.fixed", stopper).order(HookOrder::Early), recorder("later", "demo.fixed", &log)];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let result = fire(&d, "demo.fixed").await;
    assert_eq!(result.errors, ["Hook demo.fixed does not allow modifying kwargs; ignored modified_kwargs from p.stop"]);
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.stop"));
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert_eq!(result.custom_results, [json!({"k": 1})]);
    assert!(log.lock().unwrap().is_empty());
}

// Step 4 "not allowed ⇒ error `Hook {hook} does not allow abort; ignored the abort request from {full}`"
// after step 3 merged the modification: the next handler sees the change.
#[tokio::test]
async fn a_forbidden_abort_keeps_the_merged_modification_and_the_chain_goes_on() {
    let d = dispatcher(vec![HookSpec { allow_abort: false, ..HookSpec::new("demo.na") }]);
    let log = seen();
    let entries = vec![
        returning("a", "demo.na", HookOutcome::abort_with(args(json!({"text": "changed"})))),
        recorder("b", "demo.na", &log),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let result = fire(&d, "demo.na").await;
    assert_eq!(result.errors, ["Hook demo.na does not allow abort; ignored the abort request from p.a"]);
    assert!(!result.aborted);
    assert_eq!(result.stopped_by, None);
    assert_eq!(result.kwargs, args(json!({"text": "changed"})));
    assert_eq!(*log.lock().unwrap(), [("p.b".to_owned(), json!({"text": "changed"}))]);
}

// "Failure ⇒ append ... (the timeout text as is)"; "`abort`: if the spec allows abort ⇒ `aborted = true`,
// `stopped_by = full`"; "If now aborted ⇒ stop: later blocking handlers and every observer never start".
#[tokio::test(start_paused = true)]
async fn a_timeout_under_the_abort_policy_aborts_with_the_bare_timeout_text() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    let (started, finished) = counters();
    let slow = sleeper("h", "demo.hook", 5_000, &started, &finished)
        .timeout(Duration::from_millis(1_500))
        .error_policy(ErrorPolicy::Abort);
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow]).unwrap();
    d.register_plugin(
        "p.z",
        Source::ThirdParty,
        vec![recorder("later", "demo.hook", &log), recorder("o", "demo.hook", &log).mode(HookMode::Observe)],
    )
    .unwrap();
    let start = Instant::now();
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_millis(1_500));
    assert_eq!(result.errors, ["HookHandler p.slow.h timed out after 1500 ms"]);
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.slow.h"));
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert!(log.lock().unwrap().is_empty());
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (1, 0));
}

// "decode error ⇒ failure `invalid payload: …`", "handler not called"; the error policy applies to it
// like to any failure.
#[tokio::test]
async fn a_payload_that_does_not_decode_under_the_abort_policy_aborts_without_calling_the_handler() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let typed = HookHandlerEntry::typed("h", "demo.hook", move |_: Text, _: HookContext| {
        counter.fetch_add(1, Ordering::SeqCst);
        async { HookOutcome::<Text>::proceed() }
    })
    .error_policy(ErrorPolicy::Abort);
    let log = seen();
    d.register_plugin("p.t", Source::ThirdParty, vec![typed, recorder("later", "demo.hook", &log)]).unwrap();
    let result = d.invoke("demo.hook", args(json!({"text": 5}))).await.unwrap();
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    assert!(result.errors[0].starts_with("HookHandler p.t.h failed: invalid payload: text: "), "{:?}", result.errors);
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.t.h"));
    assert_eq!(result.kwargs, args(json!({"text": 5})));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(log.lock().unwrap().is_empty());
}

// "Plugin not `Loaded` ⇒ failure with message `plugin {id} is not loaded`": a failure like any other, so
// the abort policy stops the hook.
#[tokio::test]
async fn a_plugin_that_is_not_loaded_fails_under_its_abort_policy() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    let gone = recorder("h", "demo.hook", &log).error_policy(ErrorPolicy::Abort);
    d.register_plugin("p.gone", Source::ThirdParty, vec![gone]).unwrap();
    d.register_plugin("p.z", Source::ThirdParty, vec![recorder("later", "demo.hook", &log)]).unwrap();
    d.set_plugin_loaded("p.gone", false);
    let result = fire(&d, "demo.hook").await;
    assert_eq!(result.errors, ["HookHandler p.gone.h failed: plugin p.gone is not loaded"]);
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.gone.h"));
    assert!(log.lock().unwrap().is_empty());
    assert!(d.breaker_statuses().is_empty());
}

// "1. `custom_result` present ⇒ appended to `custom_results`" comes before the mutation and abort checks,
// so custom results survive both being ignored, in dispatch order.
#[tokio::test]
async fn custom_results_are_kept_in_order_when_their_handlers_requests_are_ignored() {
    let spec = HookSpec { allow_kwargs_mutation: false, allow_abort: false, ..HookSpec::new("demo.strict") };
    let d = dispatcher(vec![spec]);
    let entries = vec![
        returning("a", "demo.strict", HookOutcome::proceed().with_custom_result(1)),
        returning("b", "demo.strict", HookOutcome::modify(args(json!({"text": "x"}))).with_custom_result(2)),
        returning("c", "demo.strict", HookOutcome::abort().with_custom_result(3)),
        returning("d", "demo.strict", HookOutcome::proceed()),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let result = fire(&d, "demo.strict").await;
    assert_eq!(result.custom_results, [json!(1), json!(2), json!(3)]);
    assert_eq!(
        result.errors,
        [
            "Hook demo.strict does not allow modifying kwargs; ignored modified_kwargs from p.b",
            "Hook demo.strict does not allow abort; ignored the abort request from p.c",
        ]
    );
    assert!(!result.aborted);
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
}

// Every kind of problem in one dispatch, reported in dispatch order: `Err(e)` ⇒ "failure with `trim(e)`"
// (ends only), a timeout "as is", "panic: {payload}", a rejected modification, an ignored abort; the
// `skip` and `log` policies both continue, and a later valid modification is merged.
#[tokio::test(start_paused = true)]
async fn failures_rejections_and_ignored_requests_are_reported_in_dispatch_order() {
    let spec = HookSpec {
        allow_abort: false,
        parameters_schema: json!({"text": {"type": "string"}}),
        ..HookSpec::new("demo.mix")
    };
    let d = dispatcher(vec![spec]);
    let log = seen();
    let (started, finished) = counters();
    let boom = true;
    let last_log = Arc::clone(&log);
    let entries = vec![
        HookHandlerEntry::new("a1", "demo.mix", |_: HookArgs, _: HookContext| async {
            Err::<(), _>("\n  first line\n  second line \t".to_owned())
        })
        .order(HookOrder::Early),
        sleeper("a2", "demo.mix", 1_000, &started, &finished)
            .order(HookOrder::Early)
            .timeout(Duration::from_millis(100))
            .error_policy(ErrorPolicy::Log),
        HookHandlerEntry::new("b1", "demo.mix", move |_: HookArgs, _: HookContext| async move {
            if boom {
                panic!("bad");
            }
        }),
        modifying("b2", "demo.mix", json!({"text": 5})),
        returning("c1", "demo.mix", HookOutcome::abort()).order(HookOrder::Late),
        HookHandlerEntry::new("c2", "demo.mix", move |a: HookArgs, _: HookContext| {
            last_log.lock().unwrap().push(("p.c2".to_owned(), Value::from(a.into_inner())));
            async { HookOutcome::modify(args(json!({"text": "last"}))) }
        })
        .order(HookOrder::Late),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let result = fire(&d, "demo.mix").await;
    assert_eq!(
        result.errors,
        [
            "HookHandler p.a1 failed: first line\n  second line",
            "HookHandler p.a2 timed out after 100 ms",
            "HookHandler p.b1 failed: panic: bad",
            "Hook demo.mix rejected modified_kwargs from p.b2: text: expected string, got integer",
            "Hook demo.mix does not allow abort; ignored the abort request from p.c1",
        ]
    );
    assert!(!result.aborted);
    assert_eq!(result.stopped_by, None);
    assert_eq!(result.kwargs, args(json!({"text": "last"})));
    assert_eq!(*log.lock().unwrap(), [("p.c2".to_owned(), json!({"text": "hi"}))]);
}

// zh-Hans: "`HookHandler {full} 执行失败: {message}` (without `: {message}` when it is empty ...)",
// `Err(e)` ⇒ "failure with `trim(e)`".
#[tokio::test]
async fn a_blank_error_message_leaves_the_chinese_failure_text_bare() {
    let specs = registry(vec![HookSpec::new("demo.hook")]);
    let d = HookDispatcher::builder().specs(specs).locale(Locale::ZhHans).build();
    let blank = HookHandlerEntry::new("h", "demo.hook", |_: HookArgs, _: HookContext| async {
        Err::<HookOutcome, _>(" \n\t ".to_owned())
    });
    let worded = HookHandlerEntry::new("w", "demo.hook", |_: HookArgs, _: HookContext| async {
        Err::<(), _>(" 出错了 ".to_owned())
    });
    d.register_plugin("p.e", Source::ThirdParty, vec![blank, worded]).unwrap();
    let result = fire(&d, "demo.hook").await;
    assert_eq!(result.errors, ["HookHandler p.e.h 执行失败", "HookHandler p.e.w 执行失败: 出错了"]);
}

// ---- validation of modified kwargs -----------------------------------------------------------------

/// `demo.v` with `schema`; plugin `p.v` has one modifying handler per candidate, `h1`, `h2`, … in order.
fn validating(locale: Locale, schema: Value, candidates: &[Value]) -> HookDispatcher {
    let specs = registry(vec![schema_spec("demo.v", schema)]);
    let d = HookDispatcher::builder().specs(specs).locale(locale).build();
    let entries =
        candidates.iter().enumerate().map(|(i, c)| modifying(&format!("h{}", i + 1), "demo.v", c.clone())).collect();
    d.register_plugin("p.v", Source::ThirdParty, entries).unwrap();
    d
}

fn rejected(reasons: &[&str]) -> Vec<String> {
    reasons
        .iter()
        .enumerate()
        .map(|(i, r)| format!("Hook demo.v rejected modified_kwargs from p.v.h{}: {r}", i + 1))
        .collect()
}

// "First violation wins, checked in this order: (a) ... required ...; (b) each property ...; (c) with
// `additionalProperties: false`, keys not declared are rejected".
#[tokio::test]
async fn required_comes_before_types_and_types_before_undeclared_keys() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": false
    });
    let candidates = [
        json!({"zz": 1, "b": "x"}),
        json!({"zz": 1, "b": "x", "a": "s"}),
        json!({"zz": 1, "b": 1, "a": "s"}),
        json!({"b": 1, "a": "s"}),
    ];
    let d = validating(Locale::En, schema, &candidates);
    let result = d.invoke("demo.v", args(json!({"a": "0"}))).await.unwrap();
    assert_eq!(
        result.errors,
        rejected(&["a: missing required field", "b: expected integer, got string", "zz: unexpected field"])
    );
    assert_eq!(result.kwargs, args(json!({"b": 1, "a": "s"})));
}

// "`items` (each element, path `key[i]`), and nested `properties` / `required` / `additionalProperties`
// (path `key.sub`)" — here under a schema registered as a bare property map.
#[tokio::test]
async fn nested_violations_name_a_dotted_and_indexed_path() {
    let schema = json!({
        "a": {
            "type": "object",
            "properties": {
                "b": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"c": {"type": "integer"}},
                        "required": ["c"],
                        "additionalProperties": false
                    }
                }
            }
        }
    });
    let candidates = [
        json!({"a": {"b": [{"c": 1}, {"c": 2}, {"c": "x"}]}}),
        json!({"a": {"b": [{"c": 1}, {}]}}),
        json!({"a": {"b": [{"c": 1, "d": 0}]}}),
        json!({"a": {"b": {"c": 1}}}),
        json!({"a": {"b": [{"c": 3}]}}),
    ];
    let d = validating(Locale::En, schema, &candidates);
    let result = d.invoke("demo.v", args(json!({}))).await.unwrap();
    assert_eq!(
        result.errors,
        rejected(&[
            "a.b[2].c: expected integer, got string",
            "a.b[1].c: missing required field",
            "a.b[0].d: unexpected field",
            "a.b: expected array, got object",
        ])
    );
    assert_eq!(result.kwargs, args(json!({"a": {"b": [{"c": 3}]}})));
}

// Typed `modify(p)` "overlays `p`'s object on the kwargs"; "build the candidate (replace or overlay) ...
// validate it": the host's other keys are part of the candidate. The input itself is never validated.
#[tokio::test]
async fn a_typed_overlay_is_validated_with_the_keys_it_kept() {
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": false});
    let d = dispatcher(vec![schema_spec("demo.v", schema)]);
    let typed = HookHandlerEntry::typed("h", "demo.v", |_: Text, _: HookContext| async {
        HookOutcome::modify(Text { text: "X".into() })
    });
    d.register_plugin("p.t", Source::ThirdParty, vec![typed]).unwrap();
    let result = d.invoke("demo.v", args(json!({"text": "a", "extra": 1}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.v rejected modified_kwargs from p.t.h: extra: unexpected field"]);
    assert_eq!(result.kwargs, args(json!({"text": "a", "extra": 1})));

    let result = d.invoke("demo.v", args(json!({"text": "a"}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"text": "X"})));
}

// "(b) ... except that a property not listed in `required` whose value is `null` passes (at every level)":
// an optional object that is null passes though its own schema requires keys, an optional enum that is
// null passes; a required property that is null must match its type.
#[tokio::test]
async fn null_passes_for_optional_properties_only() {
    let schema = json!({
        "type": "object",
        "properties": {
            "req": {"type": "string"},
            "opt": {"type": "string"},
            "choice": {"enum": ["a", "b"]},
            "cfg": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        },
        "required": ["req"]
    });
    let accepted = json!({"req": "r", "opt": null, "choice": null, "cfg": null});
    let candidates = [accepted.clone(), json!({"req": null}), json!({"req": "r", "choice": "c"})];
    let d = validating(Locale::En, schema, &candidates);
    let result = d.invoke("demo.v", args(json!({"req": "0"}))).await.unwrap();
    let expected: Vec<String> = [
        "Hook demo.v rejected modified_kwargs from p.v.h2: req: expected string, got null",
        "Hook demo.v rejected modified_kwargs from p.v.h3: choice: value is not one of the allowed values",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(result.errors, expected);
    assert_eq!(result.kwargs, args(accepted));
}

// The null pass is for "a property"; an array element is checked by `items` ("each element").
#[tokio::test]
async fn a_null_array_element_must_match_the_item_type() {
    let schema = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}});
    let d = validating(Locale::En, schema, &[json!({"tags": ["x", null]})]);
    let result = d.invoke("demo.v", args(json!({"tags": []}))).await.unwrap();
    assert_eq!(result.errors, rejected(&["tags[1]: expected string, got null"]));
    assert_eq!(result.kwargs, args(json!({"tags": []})));
}

// zh-Hans: `Hook {hook} 的参数校验失败，已丢弃 {full} 的 modified_kwargs：{path}: {reason}` with reasons
// `缺少必填字段`, `应为 {types}，实际为 {actual}` (joined by `或`), `不在允许的取值范围内`, `不允许的字段`.
#[tokio::test]
async fn every_chinese_reason_is_worded_byte_for_byte() {
    let schema = json!({
        "type": "object",
        "properties": {"r": {}, "v": {"type": ["string", "integer"]}, "e": {"enum": [1, 2]}},
        "required": ["r"],
        "additionalProperties": false
    });
    let candidates = [json!({}), json!({"r": 1, "v": true}), json!({"r": 1, "e": 3}), json!({"r": 1, "x": 0})];
    let d = validating(Locale::ZhHans, schema, &candidates);
    let result = d.invoke("demo.v", args(json!({"r": 0}))).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "Hook demo.v 的参数校验失败，已丢弃 p.v.h1 的 modified_kwargs：r: 缺少必填字段",
            "Hook demo.v 的参数校验失败，已丢弃 p.v.h2 的 modified_kwargs：v: 应为 string或integer，实际为 boolean",
            "Hook demo.v 的参数校验失败，已丢弃 p.v.h3 的 modified_kwargs：e: 不在允许的取值范围内",
            "Hook demo.v 的参数校验失败，已丢弃 p.v.h4 的 modified_kwargs：x: 不允许的字段",
        ]
    );
    assert_eq!(result.kwargs, args(json!({"r": 0})));
}

// "(c) with `additionalProperties: false`, keys not declared are rejected": only `false` rejects.
#[tokio::test]
async fn additional_properties_true_accepts_undeclared_keys_at_every_level() {
    let schema = json!({
        "type": "object",
        "properties": {"cfg": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": true}},
        "additionalProperties": true
    });
    let candidate = json!({"cfg": {"n": 1, "more": "x"}, "extra": [1]});
    let d = validating(Locale::En, schema, std::slice::from_ref(&candidate));
    let result = d.invoke("demo.v", args(json!({}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(candidate));
}

// ---- timeouts -------------------------------------------------------------------------------------

// "else the dispatcher default"; an unknown hook's synthetic spec has "default timeout = the
// dispatcher's" — the one the builder was given, not 60 s.
#[tokio::test(start_paused = true)]
async fn the_configured_dispatcher_default_times_out_unknown_hooks_and_specs_without_a_default() {
    let specs = registry(vec![HookSpec::new("demo.zero")]);
    let d = HookDispatcher::builder()
        .specs(specs)
        .default_timeout(Duration::from_millis(150))
        .validate_hooks(false)
        .build();
    let (started, finished) = counters();
    d.register_plugin("p.u", Source::ThirdParty, vec![sleeper("h", "no.such.hook", 1_000, &started, &finished)])
        .unwrap();
    d.register_plugin("p.z", Source::ThirdParty, vec![sleeper("h", "demo.zero", 1_000, &started, &finished)]).unwrap();
    for (hook, text) in [
        ("no.such.hook", "HookHandler p.u.h timed out after 150 ms"),
        ("demo.zero", "HookHandler p.z.h timed out after 150 ms"),
    ] {
        let start = Instant::now();
        let result = fire(&d, hook).await;
        assert_eq!(start.elapsed(), Duration::from_millis(150));
        assert_eq!(result.errors, [text]);
    }
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (2, 0));
}

// Observers run through the same steps: "Handler `timeout_ms` if > 0, else the spec's ... else the
// dispatcher default"; "Failures and timeouts are logged at warn and never reach the result".
#[tokio::test(start_paused = true)]
async fn an_observer_without_timeouts_is_dropped_at_the_configured_dispatcher_default() {
    let specs = registry(vec![HookSpec::new("demo.zero")]);
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_millis(200)).build();
    let (started, finished) = counters();
    let observer = sleeper("o", "demo.zero", 1_000, &started, &finished).mode(HookMode::Observe);
    d.register_plugin("p", Source::ThirdParty, vec![observer]).unwrap();
    let start = Instant::now();
    let result = fire(&d, "demo.zero").await;
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert!(result.errors.is_empty());
    d.wait_observers().await;
    assert_eq!(start.elapsed(), Duration::from_millis(200));
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (1, 0));
}

// "Handler `timeout_ms` if > 0, else the spec's `default_timeout_ms`": an observer's own timeout may be
// longer than the spec's default.
#[tokio::test(start_paused = true)]
async fn an_observers_own_timeout_wins_over_the_specs_default() {
    let d = dispatcher(vec![HookSpec { default_timeout_ms: 100, ..HookSpec::new("demo.hook") }]);
    let (own_started, own_finished) = counters();
    let (spec_started, spec_finished) = counters();
    let entries = vec![
        sleeper("own", "demo.hook", 250, &own_started, &own_finished)
            .mode(HookMode::Observe)
            .timeout(Duration::from_millis(300)),
        sleeper("spec", "demo.hook", 250, &spec_started, &spec_finished).mode(HookMode::Observe),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let start = Instant::now();
    let result = d.invoke_and_wait("demo.hook", HookArgs::new()).await.unwrap();
    assert!(result.errors.is_empty());
    assert_eq!(start.elapsed(), Duration::from_millis(250));
    assert_eq!(own_finished.load(Ordering::SeqCst), 1);
    assert_eq!((spec_started.load(Ordering::SeqCst), spec_finished.load(Ordering::SeqCst)), (1, 0));
}

// ---- shutdown and names ------------------------------------------------------------------------------

// Steps "1. Trim the name; empty ⇒ `Err`" before "3. Shutdown requested ⇒ return it; no handler runs",
// and the returned result carries the trimmed name.
#[tokio::test]
async fn after_shutdown_an_empty_name_is_still_an_error_and_a_padded_one_comes_back_trimmed() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    d.register_plugin("p", Source::ThirdParty, vec![recorder("h", "demo.hook", &log)]).unwrap();
    d.shutdown().await;
    assert_eq!(d.invoke(" \t ", HookArgs::new()).await.unwrap_err().to_string(), "Hook name must not be empty");
    let result = d.invoke(" demo.hook\n", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.hook_name, "demo.hook");
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert!(result.errors.is_empty() && result.skipped.is_empty() && !result.aborted);
    assert!(log.lock().unwrap().is_empty());
}

// ---- circuit breaker ------------------------------------------------------------------------------

// "Closed: ... Failure ⇒ `consecutive += 1`; on reaching 3 ⇒ open. Success ⇒ `consecutive = 0`";
// "Success: the handler returned (`Ok` or `Err`: the plugin is alive)".
#[tokio::test(start_paused = true)]
async fn only_three_consecutive_counted_failures_open_the_breaker() {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let handler = Behaviour::new(SLOW);
    d.register_plugin("p.k", Source::ThirdParty, vec![handler.entry("h", "demo.b")]).unwrap();
    for mode in [SLOW, SLOW, FAST, SLOW, PANIC, FAIL, SLOW, SLOW] {
        handler.set(mode);
        let result = fire(&d, "demo.b").await;
        assert!(result.skipped.is_empty());
        assert!(d.breaker_statuses().is_empty(), "closed after mode {mode}");
    }
    handler.set(PANIC);
    let third = fire(&d, "demo.b").await;
    assert_eq!(third.errors, ["HookHandler p.k.h failed: panic: kaput"]);
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(60), 1));
    assert_eq!(fire(&d, "demo.b").await.skipped, ["p.k.h"]);
    assert_eq!(handler.calls(), 9);
}

// "on reaching 3 ⇒ open"; "Calls before the cooldown ends are denied"; a denied handler is "skipped,
// added to `skipped`, treated as continue, no error" — within the dispatch that opened it, whatever its
// error policy, and other plugins run on.
#[tokio::test(start_paused = true)]
async fn a_plugin_tripped_mid_dispatch_has_its_remaining_handlers_skipped() {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let handler = Behaviour::new(SLOW);
    let mut entries: Vec<HookHandlerEntry> = (1..=4).map(|i| handler.entry(&format!("h{i}"), "demo.b")).collect();
    entries.push(handler.entry("h5", "demo.b").error_policy(ErrorPolicy::Abort));
    d.register_plugin("p.s", Source::ThirdParty, entries).unwrap();
    d.register_plugin("p.t", Source::ThirdParty, vec![modifying("x", "demo.b", json!({"text": "after"}))]).unwrap();
    let start = Instant::now();
    let result = fire(&d, "demo.b").await;
    assert_eq!(start.elapsed(), Duration::from_millis(150));
    assert_eq!(
        result.errors,
        [
            "HookHandler p.s.h1 timed out after 50 ms",
            "HookHandler p.s.h2 timed out after 50 ms",
            "HookHandler p.s.h3 timed out after 50 ms",
        ]
    );
    assert_eq!(result.skipped, ["p.s.h4", "p.s.h5"]);
    assert!(!result.aborted);
    assert_eq!(result.kwargs, args(json!({"text": "after"})));
    assert_eq!(handler.calls(), 3);
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(60), 1));
}

// "Half-open: the first acquire after the cooldown ... is granted as the only probe"; "counted failure ⇒
// open again with the next cooldown"; "Probe success ⇒ closed": within one dispatch, the handler after
// a failed probe is skipped, the one after a successful probe runs.
#[tokio::test(start_paused = true)]
async fn the_handler_after_a_probe_is_skipped_or_run_by_the_probes_outcome() {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let (first, second) = (Behaviour::new(SLOW), Behaviour::new(SLOW));
    d.register_plugin("p.s", Source::ThirdParty, vec![first.entry("h1", "demo.b"), second.entry("h2", "demo.b")])
        .unwrap();
    let opening = [fire(&d, "demo.b").await, fire(&d, "demo.b").await];
    assert_eq!(opening[0].errors.len(), 2);
    assert_eq!(opening[1].errors, ["HookHandler p.s.h1 timed out after 50 ms"]);
    assert_eq!(opening[1].skipped, ["p.s.h2"]);
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(60), 1));

    advance(Duration::from_secs(60)).await;
    second.set(FAST);
    let failed_probe = fire(&d, "demo.b").await;
    assert_eq!(failed_probe.errors, ["HookHandler p.s.h1 timed out after 50 ms"]);
    assert_eq!(failed_probe.skipped, ["p.s.h2"]);
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(120), 2));

    advance(Duration::from_secs(120)).await;
    first.set(FAST);
    let probe = fire(&d, "demo.b").await;
    assert!(probe.errors.is_empty() && probe.skipped.is_empty(), "{probe:?}");
    assert!(d.breaker_statuses().is_empty());
    assert_eq!((first.calls(), second.calls()), (4, 2));
}

// "Open: cooldown = min(60 × 2^level, 300) s, then `level += 1`", with a `BreakerConfig` of threshold 1,
// a 10 s cooldown and a 15 s cap: 10 s, then min(20, 15), then min(40, 15).
#[tokio::test(start_paused = true)]
async fn a_configured_breaker_opens_at_its_threshold_and_caps_its_cooldown() {
    let config =
        BreakerConfig::default().threshold(1).cooldown(Duration::from_secs(10)).max_cooldown(Duration::from_secs(15));
    let d = HookDispatcher::builder().specs(registry(vec![HookSpec::new("demo.b")])).breaker(config).build();
    let handler = Behaviour::new(SLOW);
    d.register_plugin("p.k", Source::ThirdParty, vec![handler.entry("h", "demo.b")]).unwrap();
    fire(&d, "demo.b").await;
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(10), 1));
    for level in [2, 3] {
        advance(Duration::from_secs(if level == 2 { 10 } else { 15 })).await;
        let probe = fire(&d, "demo.b").await;
        assert_eq!(probe.errors, ["HookHandler p.k.h timed out after 50 ms"]);
        assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(15), level));
    }
    advance(Duration::from_millis(14_999)).await;
    assert_eq!(fire(&d, "demo.b").await.skipped, ["p.k.h"]);
    advance(Duration::from_millis(1)).await;
    handler.set(FAST);
    let probe = fire(&d, "demo.b").await;
    assert!(probe.errors.is_empty() && probe.skipped.is_empty());
    assert!(d.breaker_statuses().is_empty());
    assert_eq!(handler.calls(), 4);
}

/// Opens `p.k`'s breaker with three panics, lets 60 s pass and closes it with a successful probe.
async fn recovered() -> (HookDispatcher, Behaviour) {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let handler = Behaviour::new(PANIC);
    d.register_plugin("p.k", Source::ThirdParty, vec![handler.entry("h", "demo.b")]).unwrap();
    for _ in 0..3 {
        assert_eq!(fire(&d, "demo.b").await.errors, ["HookHandler p.k.h failed: panic: kaput"]);
    }
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(60), 1));
    advance(Duration::from_secs(60)).await;
    handler.set(FAST);
    assert!(fire(&d, "demo.b").await.errors.is_empty());
    assert!(d.breaker_statuses().is_empty());
    (d, handler)
}

// "Probe success ⇒ closed"; "Closed: ... on reaching 3 ⇒ open": counting starts over after the
// recovery, and reopening within 600 s keeps the level (cooldown 120 s).
#[tokio::test(start_paused = true)]
async fn after_a_recovery_three_new_failures_reopen_at_the_next_level() {
    let (d, handler) = recovered().await;
    handler.set(PANIC);
    for _ in 0..2 {
        fire(&d, "demo.b").await;
        assert!(d.breaker_statuses().is_empty());
    }
    fire(&d, "demo.b").await;
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(120), 2));
}

// "On any recorded success or failure, if a recovery happened ≥ 600 s ago, `level` resets to 0": at
// exactly 600 s the level resets, so the next opening has the first cooldown again.
#[tokio::test(start_paused = true)]
async fn failures_exactly_600_seconds_after_a_recovery_reset_the_level() {
    let (d, handler) = recovered().await;
    advance(Duration::from_secs(600)).await;
    handler.set(PANIC);
    for _ in 0..3 {
        fire(&d, "demo.b").await;
    }
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(60), 1));
}

// "if a recovery happened ≥ 600 s ago, `level` resets to 0": a millisecond short of 600 s it does not.
#[tokio::test(start_paused = true)]
async fn failures_just_under_600_seconds_after_a_recovery_keep_the_level() {
    let (d, handler) = recovered().await;
    advance(Duration::from_millis(599_999)).await;
    handler.set(PANIC);
    for _ in 0..3 {
        fire(&d, "demo.b").await;
    }
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(120), 2));
}

// "counted failure ⇒ open again with the next cooldown" — a panicking probe, like a timed-out one.
#[tokio::test(start_paused = true)]
async fn a_probe_that_panics_reopens_with_the_next_cooldown() {
    let d = dispatcher(vec![HookSpec::new("demo.b")]);
    let handler = Behaviour::new(PANIC);
    d.register_plugin("p.k", Source::ThirdParty, vec![handler.entry("h", "demo.b")]).unwrap();
    for _ in 0..3 {
        fire(&d, "demo.b").await;
    }
    advance(Duration::from_secs(59)).await;
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(1), 1));
    advance(Duration::from_secs(1)).await;
    assert_eq!(status_of(&d).0, BreakerState::HalfOpen);
    let probe = fire(&d, "demo.b").await;
    assert_eq!(probe.errors, ["HookHandler p.k.h failed: panic: kaput"]);
    assert_eq!(status_of(&d), (BreakerState::Open, Duration::from_secs(120), 2));
    assert_eq!(handler.calls(), 4);
}

// "One per dispatcher, keyed by plugin id, for all hooks"; observers run "through" the steps of running
// one handler, breaker permit included: an open plugin's observer on another hook does not run, another
// plugin's does.
#[tokio::test(start_paused = true)]
async fn observers_of_a_tripped_plugin_do_not_run_on_any_hook() {
    let d = dispatcher(vec![HookSpec::new("demo.b"), HookSpec::new("demo.o")]);
    let handler = Behaviour::new(SLOW);
    let log = seen();
    d.register_plugin(
        "p.s",
        Source::ThirdParty,
        vec![handler.entry("h", "demo.b"), recorder("watch", "demo.o", &log).mode(HookMode::Observe)],
    )
    .unwrap();
    d.register_plugin("p.t", Source::ThirdParty, vec![recorder("watch", "demo.o", &log).mode(HookMode::Observe)])
        .unwrap();
    for _ in 0..3 {
        fire(&d, "demo.b").await;
    }
    assert_eq!(status_of(&d).0, BreakerState::Open);
    let result = d.invoke_and_wait("demo.o", args(json!({"text": "hi"}))).await.unwrap();
    d.wait_observers().await;
    assert!(result.errors.is_empty());
    assert_eq!(names(&log), ["p.t.watch"]);
}
