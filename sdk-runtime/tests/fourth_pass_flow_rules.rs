//! A fourth pass over the written rules, aimed at the corners where several of them meet: what a
//! blocking handler's error policy does (and does not) turn into an abort, what an abort leaves in
//! the dispatch result, how kwargs rewritten by one handler reach the next ones and the observers,
//! handler timeouts against the spec's and the dispatcher's defaults, specs changed after
//! registration, manifest strings at dispatch, handlers of plugins that are not loaded or switched
//! off; the command tokeniser's escapes and unclosed quotes, plugin config loading, storing and
//! updating; deferred tools that leave the pool, the order
//! discoveries are advertised in, and history texts in zh-Hans. Every expected value follows the
//! rules' own words.
#![allow(missing_debug_implementations)]

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::{Instant, sleep};
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook::{
    ConfigScope, Locale, PluginContext, ToolContentItem, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolParamType, ToolParameterInfo, ToolSpec, hook_handler, plugin, schemars, tool,
};
use toolhook_runtime::hooks::{
    BreakerConfig, HookDispatcher, HookHandlerEntry, HookHandlerManifest, HookSpec, HookSpecRegistry,
};
use toolhook_runtime::{
    BoxError, CommandError, CommandSpec, ConfigError, ConfigSource, ConfigUpdateError, DeferredTools, PluginHost,
    PluginSet, PluginState, RegistryConfig, Source, ToolRegistry,
};

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

#[path = "common/deferred_pool.rs"]
#[allow(dead_code)]
mod deferred_pool;
use deferred_pool::{NO_MATCH_EN, deferred, example_pool, example_registry, visible};

// ==== hook helpers =================================================================================

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

fn schema_spec(name: &str, schema: Value) -> HookSpec {
    HookSpec { parameters_schema: schema, ..HookSpec::new(name) }
}

/// A blocking handler that returns `outcome` on every call.
fn returning(name: &str, hook: &str, outcome: HookOutcome) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| std::future::ready(outcome.clone()))
}

/// A blocking handler that fails with `Err(message)`.
fn failing(name: &str, hook: &str, message: &'static str) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| async move { Err::<(), _>(message) })
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

/// A handler that sleeps `ms` and then continues.
fn sleeper(name: &str, hook: &str, ms: u64) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| async move {
        sleep(Duration::from_millis(ms)).await;
    })
}

#[derive(Debug, Serialize, Deserialize)]
struct Text {
    text: String,
}

/// A payload with an optional field that is written out when it is `None` (no
/// `skip_serializing_if`).
#[derive(Debug, Serialize, Deserialize)]
struct Noted {
    text: String,
    note: Option<String>,
}

// ==== error policies: what is and is not a failure ===================================================

// "2. Failure ⇒ append … Then the error policy: … `abort`: if the spec allows abort ⇒ `aborted =
// true`"; "3. `modified` present: spec forbids mutation ⇒ error …; … invalid ⇒ error … and the kwargs
// stay as they were". A refused or ignored modification is an error, not a failure of the handler, so
// its `abort` policy does not stop the hook.
#[tokio::test]
async fn an_abort_policy_does_not_turn_a_refused_modification_into_an_abort() {
    let d = dispatcher(vec![
        schema_spec("demo.v", json!({"text": {"type": "string"}})),
        HookSpec { allow_kwargs_mutation: false, ..HookSpec::new("demo.fixed") },
    ]);
    let log = seen();
    d.register_plugin(
        "p.v",
        Source::ThirdParty,
        vec![
            returning("h", "demo.v", HookOutcome::modify(args(json!({"text": 5})))).error_policy(ErrorPolicy::Abort),
            recorder("later", "demo.v", &log).order(HookOrder::Late),
        ],
    )
    .unwrap();
    d.register_plugin(
        "p.f",
        Source::ThirdParty,
        vec![
            returning("h", "demo.fixed", HookOutcome::modify(args(json!({"text": "x"}))))
                .error_policy(ErrorPolicy::Abort),
            recorder("later", "demo.fixed", &log).order(HookOrder::Late),
        ],
    )
    .unwrap();

    let rejected = d.invoke("demo.v", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(
        rejected.errors,
        ["Hook demo.v rejected modified_kwargs from p.v.h: text: expected string, got integer"]
    );
    assert!(!rejected.aborted);
    assert_eq!(rejected.stopped_by, None);

    let ignored = d.invoke("demo.fixed", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(ignored.errors, ["Hook demo.fixed does not allow modifying kwargs; ignored modified_kwargs from p.f.h"]);
    assert!(!ignored.aborted);
    assert_eq!(
        *log.lock().unwrap(),
        [("p.v.later".to_owned(), json!({"text": "hi"})), ("p.f.later".to_owned(), json!({"text": "hi"}))]
    );
}

// "blocking with `allow_blocking = false` ⇒ error `Hook {hook} does not allow blocking handlers;
// skipped {full}`, next": the handler is not run, so nothing fails and its `abort` policy has nothing
// to act on; the observers still start.
#[tokio::test]
async fn a_blocking_handler_skipped_by_its_hook_never_aborts_under_its_policy() {
    let specs = registry(vec![HookSpec { allow_blocking: false, ..HookSpec::new("demo.nb") }]);
    let d = HookDispatcher::builder().specs(specs).validate_hooks(false).build();
    let log = seen();
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![
            failing("h", "demo.nb", "never called").error_policy(ErrorPolicy::Abort),
            recorder("o", "demo.nb", &log).mode(HookMode::Observe),
        ],
    )
    .unwrap();
    let result = d.invoke_and_wait("demo.nb", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.nb does not allow blocking handlers; skipped p.h"]);
    assert!(!result.aborted);
    assert_eq!(result.stopped_by, None);
    assert_eq!(*log.lock().unwrap(), [("p.o".to_owned(), json!({"text": "hi"}))]);
}

// "4. Spec = the registered one" at every dispatch; "`abort`: if the spec allows abort ⇒ `aborted =
// true` …; else warn and continue"; "`action = Abort`: … not allowed ⇒ error". A spec overwritten after
// the handlers registered (the registration check passed then) rules the next dispatch.
#[tokio::test]
async fn a_spec_forbidding_abort_after_registration_turns_both_kinds_of_abort_into_going_on() {
    let d = dispatcher(vec![HookSpec::new("demo.swap")]);
    let log = seen();
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![
            failing("fail", "demo.swap", "no").order(HookOrder::Early).error_policy(ErrorPolicy::Abort),
            returning("stop", "demo.swap", HookOutcome::abort()),
            recorder("last", "demo.swap", &log).order(HookOrder::Late),
        ],
    )
    .unwrap();
    let before = d.invoke("demo.swap", args(json!({"text": "hi"}))).await.unwrap();
    assert!(before.aborted);
    assert_eq!(before.stopped_by.as_deref(), Some("p.fail"));
    assert_eq!(before.errors, ["HookHandler p.fail failed: no"]);

    d.specs().register(HookSpec { allow_abort: false, ..HookSpec::new("demo.swap") }).unwrap();
    let after = d.invoke("demo.swap", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(
        after.errors,
        ["HookHandler p.fail failed: no", "Hook demo.swap does not allow abort; ignored the abort request from p.stop"]
    );
    assert!(!after.aborted);
    assert_eq!(after.stopped_by, None);
    assert_eq!(names(&log), ["p.last"]);
}

// Steps 5–6 with one handler switched off: "disabled handlers never run", so a failing handler with
// the `abort` policy neither fails nor stops the hook while it is off; switched back on, it aborts
// and nothing after it starts.
#[tokio::test]
async fn a_disabled_handler_with_the_abort_policy_neither_fails_nor_stops_the_hook() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    d.register_plugin(
        "p.a",
        Source::ThirdParty,
        vec![failing("h", "demo.hook", "bad").error_policy(ErrorPolicy::Abort)],
    )
    .unwrap();
    d.register_plugin(
        "p.b",
        Source::ThirdParty,
        vec![recorder("later", "demo.hook", &log), recorder("o", "demo.hook", &log).mode(HookMode::Observe)],
    )
    .unwrap();
    assert!(d.set_enabled("p.a.h", false));
    let off = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert!(off.errors.is_empty() && off.skipped.is_empty(), "{off:?}");
    assert!(!off.aborted);
    assert_eq!(names(&log), ["p.b.later", "p.b.o"]);

    assert!(d.set_enabled("p.a.h", true));
    let on = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(on.errors, ["HookHandler p.a.h failed: bad"]);
    assert!(on.aborted);
    assert_eq!(on.stopped_by.as_deref(), Some("p.a.h"));
    assert_eq!(names(&log), ["p.b.later", "p.b.o"], "nothing ran after the abort");
}

// ==== abort: what the result reports ==================================================================

// "If now aborted ⇒ stop: later blocking handlers and every observer never start"; the result keeps
// what came before the abort: `skipped` ("lists handlers the breaker skipped"), the failures in
// `errors`, every `custom_result` in order, and the kwargs of the aborting `abort_with`.
#[tokio::test(start_paused = true)]
async fn an_abort_keeps_the_skips_failures_and_custom_results_gathered_before_it() {
    let specs = registry(vec![HookSpec::new("demo.hook")]);
    let d = HookDispatcher::builder().specs(specs).breaker(BreakerConfig::default().threshold(1)).build();
    let log = seen();
    d.register_plugin(
        "p.0",
        Source::ThirdParty,
        vec![sleeper("h", "demo.hook", 1_000).order(HookOrder::Early).timeout(Duration::from_millis(50))],
    )
    .unwrap();
    d.register_plugin("p.a", Source::ThirdParty, vec![failing("h", "demo.hook", "bad").order(HookOrder::Early)])
        .unwrap();
    d.register_plugin(
        "p.b",
        Source::ThirdParty,
        vec![returning("h", "demo.hook", HookOutcome::proceed().with_custom_result(1))],
    )
    .unwrap();
    d.register_plugin(
        "p.c",
        Source::ThirdParty,
        vec![returning(
            "h",
            "demo.hook",
            HookOutcome::abort_with(args(json!({"text": "stop"}))).with_custom_result("why"),
        )],
    )
    .unwrap();
    d.register_plugin(
        "p.d",
        Source::ThirdParty,
        vec![
            recorder("late", "demo.hook", &log).order(HookOrder::Late),
            recorder("o", "demo.hook", &log).mode(HookMode::Observe).order(HookOrder::Early),
        ],
    )
    .unwrap();

    let first = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(first.errors, ["HookHandler p.0.h timed out after 50 ms", "HookHandler p.a.h failed: bad"]);
    assert!(first.skipped.is_empty());

    let second = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(second.skipped, ["p.0.h"]);
    assert_eq!(second.errors, ["HookHandler p.a.h failed: bad"]);
    assert_eq!(second.custom_results, [json!(1), json!("why")]);
    assert!(second.aborted);
    assert_eq!(second.stopped_by.as_deref(), Some("p.c.h"));
    assert_eq!(second.kwargs, args(json!({"text": "stop"})));
    d.wait_observers().await;
    assert!(log.lock().unwrap().is_empty(), "{:?}", log.lock().unwrap());
}

// ==== rewritten kwargs: what later handlers and observers see ===========================================

// "`HookArgs`: … `modify(args)` replaces them entirely"; typed `modify(p)` "overlays `p`'s object on
// the kwargs: its keys replace, others are kept … use `HookArgs` to remove keys". A key one handler
// removed is not brought back by a later overlay, and observers see the final kwargs.
#[tokio::test]
async fn a_key_removed_through_hook_args_stays_removed_past_a_typed_overlay() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    let remover = HookHandlerEntry::new("remove", "demo.hook", |mut a: HookArgs, _: HookContext| async move {
        a.remove("secret");
        HookOutcome::modify(a)
    })
    .order(HookOrder::Early);
    let typed = HookHandlerEntry::typed("typed", "demo.hook", |p: Text, _: HookContext| async move {
        HookOutcome::modify(Text { text: p.text.to_uppercase() })
    });
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![
            remover,
            typed,
            recorder("late", "demo.hook", &log).order(HookOrder::Late),
            recorder("watch", "demo.hook", &log).mode(HookMode::Observe),
        ],
    )
    .unwrap();
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "a", "secret": "s", "keep": 1}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"text": "A", "keep": 1})));
    assert_eq!(
        *log.lock().unwrap(),
        [
            ("p.late".to_owned(), json!({"text": "A", "keep": 1})),
            ("p.watch".to_owned(), json!({"text": "A", "keep": 1}))
        ]
    );
}

// Typed `modify(p)` "overlays `p`'s object on the kwargs: its keys replace": a payload type that
// writes `None` as `null` puts that `null` into the kwargs, even for a key the caller did not send.
#[tokio::test]
async fn a_typed_overlay_writes_a_none_field_that_serialises_as_null() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    let typed = HookHandlerEntry::typed("typed", "demo.hook", |p: Noted, _: HookContext| async move {
        HookOutcome::modify(Noted { text: format!("{}!", p.text), note: None })
    });
    d.register_plugin("p", Source::ThirdParty, vec![typed, recorder("late", "demo.hook", &log).order(HookOrder::Late)])
        .unwrap();
    let result = d.invoke("demo.hook", args(json!({"text": "a", "keep": 1}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"text": "a!", "keep": 1, "note": null})));
    assert_eq!(*log.lock().unwrap(), [("p.late".to_owned(), json!({"text": "a!", "keep": 1, "note": null}))]);
}

// Targets "sorted ascending by (mode: blocking 0, observe 1; order: early 0, normal 1, late 2; source:
// builtin 0, third-party 1; plugin id; handler name)"; observers beyond `max_concurrent_observers` wait
// "for a permit (first come, first served)": with one permit the observers start in that order, a
// builtin plugin's observer after a third-party early one and before a third-party one of its own
// slot, all of them after a late blocking handler.
#[tokio::test]
async fn observers_start_in_mode_order_source_id_and_name_order_behind_every_blocking_handler() {
    let specs = registry(vec![HookSpec::new("demo.hook")]);
    let d = HookDispatcher::builder().specs(specs).max_concurrent_observers(1).build();
    let log = seen();
    let observer = |name: &str| recorder(name, "demo.hook", &log).mode(HookMode::Observe);
    d.register_plugin(
        "aa",
        Source::ThirdParty,
        vec![
            observer("o").order(HookOrder::Early),
            recorder("b", "demo.hook", &log).order(HookOrder::Late),
            observer("a"),
            observer("B"),
        ],
    )
    .unwrap();
    d.register_plugin("zz", Source::Builtin, vec![observer("o"), observer("x").order(HookOrder::Late)]).unwrap();
    d.register_plugin("ab", Source::ThirdParty, vec![observer("a")]).unwrap();
    d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(names(&log), ["aa.b", "aa.o", "zz.o", "aa.B", "aa.a", "ab.a", "zz.x"]);
}

// ==== handlers of plugins that are not loaded ==========================================================

// Running one handler: "Plugin not `Loaded` ⇒ failure with message `plugin {id} is not loaded`";
// observers run "through" the same steps, and their "Failures … are logged at warn and never reach the
// result": the blocking handler's failure is reported, the observer's is not, and another plugin's
// observer runs.
#[tokio::test]
async fn an_observer_of_a_plugin_that_is_not_loaded_fails_outside_the_result() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log = seen();
    d.register_plugin(
        "p.o",
        Source::ThirdParty,
        vec![recorder("b", "demo.hook", &log), recorder("o", "demo.hook", &log).mode(HookMode::Observe)],
    )
    .unwrap();
    d.register_plugin("p.x", Source::ThirdParty, vec![recorder("o", "demo.hook", &log).mode(HookMode::Observe)])
        .unwrap();
    d.set_plugin_loaded("p.o", false);
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    d.wait_observers().await;
    assert_eq!(result.errors, ["HookHandler p.o.b failed: plugin p.o is not loaded"]);
    assert!(!result.aborted);
    assert_eq!(names(&log), ["p.x.o"]);
}

// ==== timeouts =================================================================================================

// "Handler `timeout_ms` if > 0, else the spec's `default_timeout_ms` if > 0, else the dispatcher
// default": a handler's own timeout may be longer than the dispatcher's default; the blocking chain runs
// one handler after another, so the dispatch lasts the sum.
#[tokio::test(start_paused = true)]
async fn a_blocking_handlers_own_timeout_may_exceed_the_dispatchers_default() {
    let specs = registry(vec![HookSpec::new("demo.hook")]);
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_millis(100)).build();
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![sleeper("a", "demo.hook", 200).timeout(Duration::from_millis(300)), sleeper("b", "demo.hook", 200)],
    )
    .unwrap();
    let start = Instant::now();
    let result = d.invoke("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.b timed out after 100 ms"]);
    assert_eq!(start.elapsed(), Duration::from_millis(300));
}

// "`timeout_ms` … `0` = the hook spec's default"; "Handler `timeout_ms` if > 0, else the spec's
// `default_timeout_ms` if > 0, else the dispatcher default": a zero timeout given to an entry (or in a
// manifest) is no timeout of its own.
#[tokio::test(start_paused = true)]
async fn a_zero_handler_timeout_falls_back_to_the_spec_then_the_dispatcher() {
    let specs =
        registry(vec![HookSpec { default_timeout_ms: 80, ..HookSpec::new("demo.spec") }, HookSpec::new("demo.bare")]);
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_millis(120)).build();
    let manifest: HookHandlerManifest =
        serde_json::from_value(json!({"name": "m", "hook": "demo.spec", "timeout_ms": 0})).unwrap();
    let from_manifest = HookHandlerEntry::from_manifest(manifest, |_: HookArgs, _: HookContext| async {
        sleep(Duration::from_secs(1)).await;
    });
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![
            sleeper("e", "demo.spec", 1_000).timeout(Duration::ZERO),
            from_manifest,
            sleeper("z", "demo.bare", 1_000).timeout(Duration::ZERO),
        ],
    )
    .unwrap();
    let start = Instant::now();
    let spec = d.invoke("demo.spec", HookArgs::new()).await.unwrap();
    assert_eq!(spec.errors, ["HookHandler p.e timed out after 80 ms", "HookHandler p.m timed out after 80 ms"]);
    assert_eq!(start.elapsed(), Duration::from_millis(160));
    let bare = d.invoke("demo.bare", HookArgs::new()).await.unwrap();
    assert_eq!(bare.errors, ["HookHandler p.z timed out after 120 ms"]);
}

// "Spec = the registered one" at dispatch, and its `default_timeout_ms` decides when the handler has
// none: a default given to the spec after registration applies to the next dispatch.
#[tokio::test(start_paused = true)]
async fn a_default_timeout_given_to_the_spec_later_rules_the_next_dispatch() {
    let specs = registry(vec![HookSpec::new("demo.hook")]);
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_millis(200)).build();
    d.register_plugin("p", Source::ThirdParty, vec![sleeper("h", "demo.hook", 1_000)]).unwrap();
    let start = Instant::now();
    assert_eq!(
        d.invoke("demo.hook", HookArgs::new()).await.unwrap().errors,
        ["HookHandler p.h timed out after 200 ms"]
    );
    assert_eq!(start.elapsed(), Duration::from_millis(200));

    d.specs().register(HookSpec { default_timeout_ms: 70, ..HookSpec::new("demo.hook") }).unwrap();
    let start = Instant::now();
    assert_eq!(d.invoke("demo.hook", HookArgs::new()).await.unwrap().errors, ["HookHandler p.h timed out after 70 ms"]);
    assert_eq!(start.elapsed(), Duration::from_millis(70));
}

// ==== manifest strings at dispatch ===================================================================

// "Entries come … from strings (manifests, other languages), which are trimmed and lower-cased first
// (empty ⇒ default)": ` OBSERVE ` makes an observer (it sorts after every blocking handler and, the
// hook being aborted, never starts), ` LATE ` a late handler, ` Abort ` the abort policy, `Early` an
// early one and empty strings a blocking, normal, `skip` handler.
#[tokio::test]
async fn manifest_strings_act_as_their_normalised_settings_at_dispatch() {
    let d = dispatcher(vec![HookSpec::new("demo.hook")]);
    let log: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    let entry = |fields: Value, answer: Result<Option<&'static str>, &'static str>| {
        let manifest: HookHandlerManifest = serde_json::from_value(fields).unwrap();
        let log = Arc::clone(&log);
        HookHandlerEntry::from_manifest(manifest, move |_: HookArgs, ctx: HookContext| {
            log.lock().unwrap().push(ctx.full_name().to_owned());
            async move {
                match answer {
                    Ok(Some(text)) => Ok(HookOutcome::modify(args(json!({ "text": text })))),
                    Ok(None) => Ok(HookOutcome::proceed()),
                    Err(message) => Err(message),
                }
            }
        })
    };
    let entries = vec![
        entry(json!({"name": "m1", "hook": "demo.hook", "mode": " OBSERVE "}), Ok(Some("observer"))),
        entry(json!({"name": "m2", "hook": "demo.hook", "order": " LATE ", "error_policy": " Abort "}), Err("down")),
        entry(json!({"name": "m3", "hook": "demo.hook", "order": "Early"}), Ok(None)),
        entry(json!({"name": "m4", "hook": "demo.hook", "mode": "", "order": "", "error_policy": ""}), Ok(Some("m4"))),
    ];
    d.register_plugin("p.m", Source::ThirdParty, entries).unwrap();
    let result = d.invoke_and_wait("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
    d.wait_observers().await;
    assert_eq!(*log.lock().unwrap(), ["p.m.m3", "p.m.m4", "p.m.m2"]);
    assert_eq!(result.errors, ["HookHandler p.m.m2 failed: down"]);
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some("p.m.m2"));
    assert_eq!(result.kwargs, args(json!({"text": "m4"})));
}

// ==== commands: tokenising =======================================================================================

fn param(name: &str, ty: ToolParamType) -> ToolParameterInfo {
    ToolParameterInfo::new(name, ty).description(format!("The {name}."))
}

fn tool_spec(name: &str, parameters: Vec<ToolParameterInfo>) -> ToolSpec {
    ToolSpec::builder(name).brief_description("A command.").parameters(parameters).build().unwrap()
}

/// `weather <city:text> [days:integer]`.
fn weather() -> CommandSpec {
    CommandSpec::from_tool(&tool_spec(
        "weather",
        vec![param("city", ToolParamType::String), param("days", ToolParamType::Integer).required(false)],
    ))
}

fn parsed(command: &CommandSpec, text: &str) -> Value {
    Value::Object(command.parse(text).unwrap().unwrap())
}

// "`"…"` is one token (`\"` and `\\` escapes inside)": `\\` is a backslash, so the quote right after it
// closes the token.
#[test]
fn an_escaped_backslash_before_a_quote_leaves_that_quote_closing() {
    let weather = weather();
    assert_eq!(parsed(&weather, r#"weather "a\\""#), json!({"city": "a\\"}));
    assert_eq!(parsed(&weather, r#"weather "a\\" 3"#), json!({"city": "a\\", "days": 3}));
    assert_eq!(parsed(&weather, r#"weather "\\\"" 4"#), json!({"city": "\\\"", "days": 4}));
}

// "`\"` … escapes inside"; "an unclosed quote is an error": a quote escaped as `\"` does not close the
// token, so a message ending there leaves the quote open.
#[test]
fn an_escaped_quote_at_the_end_leaves_the_quote_open() {
    let weather = weather();
    let usage = "weather <city:text> [days:integer]";
    for text in [r#"weather "a\""#, r#"weather "a\" 3"#] {
        let error = weather.parse(text).expect_err(text);
        assert!(matches!(error, CommandError::Quote { .. }), "{text}: {error:?}");
        assert_eq!(error.to_string(), format!("Unclosed quotation mark. Usage: {usage}"));
        assert_eq!(error.message(Locale::ZhHans), format!("引号未闭合。用法：{usage}"));
    }
}

// Step "1. Tokenise: … an unclosed quote is an error" comes before "3. … `rest` takes the remaining
// raw text": the whole message is tokenised, so an open quote inside what would be the rest is still
// the quote error.
#[test]
fn an_unclosed_quote_in_the_rest_of_the_line_is_still_an_error() {
    let memo = CommandSpec::from_tool(&tool_spec(
        "memo",
        vec![param("title", ToolParamType::String), param("body", ToolParamType::String).required(false)],
    ))
    .pattern("memo <title:text> [body:rest]")
    .unwrap();
    assert_eq!(parsed(&memo, r#"memo t say "hi" now"#), json!({"title": "t", "body": r#"say "hi" now"#}));
    let error = memo.parse(r#"memo t say "hi"#).expect_err("open quote");
    assert!(matches!(error, CommandError::Quote { .. }), "{error:?}");
    assert_eq!(error.to_string(), "Unclosed quotation mark. Usage: memo <title:text> [body:rest]");
}

// Tokenising resolves the escapes of a quoted token first; then "array | `list` | split on `,`, items
// trimmed, empty items dropped": an escaped quote stays inside its item.
#[test]
fn a_quoted_list_token_is_unescaped_before_it_is_split() {
    let tag = CommandSpec::from_tool(&tool_spec(
        "tag",
        vec![param("names", ToolParamType::Array).items_schema(json!({"type": "string"}))],
    ));
    assert_eq!(tag.pattern_text(), "tag <names:list>");
    assert_eq!(parsed(&tag, r#"tag "a\"b, ,c\\ ""#), json!({"names": ["a\"b", "c\\"]}));
}

// ==== plugins: config, refused batches ==================================================================

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What the test plugins did, oldest first.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap_or_else(|p| p.into_inner()).push(e.into());
}

/// Removes and returns the events that start with `prefix`.
fn take_events(prefix: &str) -> Vec<String> {
    let mut events = EVENTS.lock().unwrap_or_else(|p| p.into_inner());
    let (taken, kept): (Vec<String>, Vec<String>) = events.drain(..).partition(|e| e.starts_with(prefix));
    *events = kept;
    taken
}

async fn listed(registry: &ToolRegistry) -> Vec<String> {
    registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect()
}

/// Nested part of [`FpConfig`].
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(default)]
#[schemars(crate = "toolhook::schemars")]
pub struct FpBehaviour {
    /// `fast` or `slow`.
    pub mode: String,
    /// Days.
    pub days: u32,
}

impl Default for FpBehaviour {
    fn default() -> Self {
        FpBehaviour { mode: "fast".into(), days: 3 }
    }
}

/// The config of `fp.config`.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(default)]
#[schemars(crate = "toolhook::schemars")]
pub struct FpConfig {
    /// Behaviour.
    pub behaviour: FpBehaviour,
    /// A label.
    pub label: String,
}

impl Default for FpConfig {
    fn default() -> Self {
        FpConfig { behaviour: FpBehaviour::default(), label: "x".into() }
    }
}

#[derive(Default)]
pub struct FpConfigured;

/// Configurable.
#[plugin(id = "fp.config", config = FpConfig)]
impl FpConfigured {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("fp.config on_load");
    }

    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        event(format!("fp.config update {scope} {version} {config}"));
    }

    /// Shows the label.
    #[tool]
    async fn fp_config_label(&self) -> &'static str {
        "label"
    }
}

/// A config source holding one document and counting the documents it is handed.
#[derive(Clone, Default)]
struct Recording {
    document: Arc<Mutex<Option<Value>>>,
    stores: Arc<AtomicUsize>,
}

impl Recording {
    fn holding(document: Value) -> Self {
        let source = Recording::default();
        *source.document.lock().unwrap() = Some(document);
        source
    }

    fn stored(&self) -> Option<Value> {
        self.document.lock().unwrap().clone()
    }

    fn stores(&self) -> usize {
        self.stores.load(Ordering::SeqCst)
    }
}

impl ConfigSource for Recording {
    fn load(&self, _plugin_id: &str) -> Result<Option<Value>, BoxError> {
        Ok(self.document.lock().unwrap().clone())
    }

    fn store(&self, _plugin_id: &str, document: &Value) -> Result<(), BoxError> {
        *self.document.lock().unwrap() = Some(document.clone());
        self.stores.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

fn config_host(registry: &ToolRegistry, source: Recording) -> PluginHost {
    PluginHost::builder()
        .plugins(PluginSet::collect().only(["fp.config"]))
        .registry(registry)
        .dispatcher(&HookDispatcher::new())
        .config_source(source)
        .build()
}

/// Loads `fp.config` from `stored` with a registry in `locale`: its state, reason and listed tools.
async fn load_config(locale: Locale, stored: Value) -> (PluginState, Option<String>, Vec<String>) {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    let host = config_host(&registry, Recording::holding(stored));
    let report = host.load_all().await;
    let outcome = report.outcome("fp.config").unwrap().clone();
    let tools = listed(&registry).await;
    host.shutdown().await;
    take_events("fp.config");
    (outcome.state, outcome.reason, tools)
}

const MISSING_VERSION_ZH: &str = "插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置";

// "`plugin.config_version` absent, not a string, or blank ⇒ error *missing version*" (zh-Hans text),
// and the plugin fails to load without listing its tools or running `on_load`.
#[tokio::test]
async fn a_mistyped_or_blank_config_version_fails_the_plugin() {
    let _serial = SERIAL.lock().await;
    take_events("fp.config");
    for stored in [json!({"plugin": {"config_version": 2}}), json!({"plugin": {"config_version": " \t "}})] {
        let (state, reason, tools) = load_config(Locale::ZhHans, stored.clone()).await;
        assert_eq!(state, PluginState::Failed, "{stored}");
        assert_eq!(reason.as_deref(), Some(MISSING_VERSION_ZH), "{stored}");
        assert!(tools.is_empty(), "{stored}");
    }
    assert!(take_events("fp.config on_load").is_empty());
}

// "The host stores the normalised document when normalisation reports `changed`"; "`changed` =
// anything was filled or the round trip altered the document": a complete document is not stored
// again; a document missing keys (here `plugin.enabled` and a nested field) or carrying an unknown one
// is stored normalised.
#[tokio::test]
async fn only_a_document_that_normalising_changed_is_stored_back() {
    let _serial = SERIAL.lock().await;
    let complete = json!({
        "plugin": {"config_version": "1.0.0", "enabled": true},
        "behaviour": {"mode": "slow", "days": 2},
        "label": "y"
    });
    let cases = [
        (complete.clone(), None),
        (
            json!({"plugin": {"config_version": "1.0.0"}, "behaviour": {"mode": "slow"}, "label": "y"}),
            Some(json!({
                "plugin": {"config_version": "1.0.0", "enabled": true},
                "behaviour": {"mode": "slow", "days": 3},
                "label": "y"
            })),
        ),
        (
            json!({
                "plugin": {"config_version": "1.0.0", "enabled": true},
                "behaviour": {"mode": "slow", "days": 2},
                "label": "y",
                "zzz": 1
            }),
            Some(complete.clone()),
        ),
    ];
    for (stored, expected) in cases {
        let registry = ToolRegistry::default();
        let source = Recording::holding(stored.clone());
        let host = config_host(&registry, source.clone());
        assert!(host.load_all().await.is_clean(), "{stored}");
        assert_eq!(host.state("fp.config"), Some(PluginState::Loaded));
        match expected {
            None => {
                assert_eq!(source.stores(), 0, "{stored}");
                assert_eq!(host.context("fp.config").unwrap().config_value(), stored);
            }
            Some(normalised) => {
                assert_eq!(source.stores(), 1, "{stored}");
                assert_eq!(source.stored(), Some(normalised.clone()), "{stored}");
                assert_eq!(host.context("fp.config").unwrap().config_value(), normalised);
            }
        }
        host.shutdown().await;
    }
    take_events("fp.config");
}

// "`ConfigScope::Own` ("self"): normalise. Error ⇒ returned to the host; old config kept;
// `on_config_update` not called", with "`plugin.config_version` … blank ⇒ error *missing version*".
#[tokio::test]
async fn an_own_update_with_a_blank_version_is_refused_and_reaches_no_plugin_code() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = config_host(&registry, Recording::default());
    assert!(host.load_all().await.is_clean());
    take_events("fp.config");
    let document = json!({"plugin": {"config_version": "  "}, "label": "z"});
    let error = host.update_config("fp.config", ConfigScope::Own, document, "2.0.0").await.unwrap_err();
    assert!(matches!(error, ConfigUpdateError::Config(ConfigError::MissingVersion)), "{error:?}");
    assert!(take_events("fp.config").is_empty());
    assert_eq!(host.context("fp.config").unwrap().config_value()["label"], "x");
    host.shutdown().await;
}

#[derive(Default)]
pub struct FpRejected;

#[plugin(id = "fp.rejected")]
impl FpRejected {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("fp.rejected on_load");
    }

    /// Never served.
    #[tool]
    async fn fp_rejected_tool(&self) -> &'static str {
        "served"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn valid_hook(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("marked_by", "fp.rejected");
        HookOutcome::modify(args)
    }

    #[hook_handler("fp.no.such.hook", custom = true)]
    async fn lost_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

#[derive(Default)]
pub struct FpCycle;

#[plugin(id = "fp.cycle")]
impl FpCycle {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("fp.cycle on_load");
    }

    async fn on_unload(&self) {
        event("fp.cycle on_unload");
    }

    /// Cycles.
    #[tool]
    async fn fp_cycle_tool(&self) -> &'static str {
        "cycled"
    }

    #[hook_handler("chat.receive.before_process", error_policy = "abort")]
    async fn cycle_hook(&self, mut args: HookArgs) -> Result<HookOutcome<HookArgs>, String> {
        args.insert("marked_by", "fp.cycle");
        Ok(HookOutcome::modify(args))
    }
}

// States: "`Loaded` → `Unloading` → `Unloaded`"; for "others": "tools listed: no | tool call: `Tool
// not found` | hook handler dispatched: not registered" — so after `unload` the handler neither runs
// nor fails (no `plugin … is not loaded` error, no abort under its `abort` policy).
#[tokio::test]
async fn an_unloaded_plugins_handler_is_gone_rather_than_not_loaded() {
    let _serial = SERIAL.lock().await;
    take_events("fp.cycle");
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["fp.cycle"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .build();
    assert!(host.load_all().await.is_clean());
    let loaded = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert_eq!(loaded.kwargs.get("marked_by"), Some(&json!("fp.cycle")));

    host.unload("fp.cycle").await;
    assert_eq!(host.state("fp.cycle"), Some(PluginState::Unloaded));
    let unloaded = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert!(unloaded.errors.is_empty(), "{:?}", unloaded.errors);
    assert!(!unloaded.aborted);
    assert_eq!(unloaded.kwargs.get("marked_by"), None);
    assert!(listed(&registry).await.is_empty());
    let call = registry.invoke(ToolInvocation::new("fp_cycle_tool", "{}"), None).await;
    assert_eq!(call.error_message, "Tool not found: fp_cycle_tool");
    assert_eq!(take_events("fp.cycle"), ["fp.cycle on_load", "fp.cycle on_unload"]);

    host.shutdown().await;
    assert_eq!(host.state("fp.cycle"), Some(PluginState::Unloaded));
    assert!(take_events("fp.cycle").is_empty(), "shutdown unloads only `Loaded` plugins");
}

// ==== deferred tools across rounds ==========================================================================

fn session(id: &str) -> ToolExecutionContext {
    ToolExecutionContext::for_session(id)
}

async fn search(registry: &ToolRegistry, session_id: &str, arguments: Value) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new("tool_search", arguments), Some(&session(session_id))).await
}

fn spec_names(specs: &[ToolSpec]) -> Vec<String> {
    specs.iter().map(|s| s.name().to_owned()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

// "3. The session's discovered set is intersected with the pool's names (a tool that left the pool is
// forgotten)": once a round was prepared without it, a tool that comes back must be found again, and
// `tool_search` then calls it newly discovered.
#[tokio::test]
async fn a_discovered_tool_that_left_the_pool_must_be_found_again() {
    let (registry, discovery) = example_registry(Locale::En);
    let found = search(&registry, "s1", json!({"query": "fetch url"})).await;
    assert!(found.content.ends_with("- web_fetch (newly discovered)"), "{}", found.content);
    let found = search(&registry, "s1", json!({"query": "memes"})).await;
    assert!(found.content.ends_with("- search_memes (newly discovered)"), "{}", found.content);

    let without: Vec<ToolSpec> = example_pool().into_iter().filter(|s| s.name() != "web_fetch").collect();
    let mut specs = vec![visible("reply", "Reply to the user")];
    specs.extend(without);
    registry.register_provider(Stub::new("pool", "plugin", specs));
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(spec_names(round.advertised()), ["tool_search", "reply", "search_memes"]);
    assert_eq!(sorted(discovery.discovered("s1").into_iter().collect()), ["search_memes"]);

    let mut specs = vec![visible("reply", "Reply to the user")];
    specs.extend(example_pool());
    registry.register_provider(Stub::new("pool", "plugin", specs));
    let back = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(spec_names(back.advertised()), ["tool_search", "reply", "search_memes"]);
    assert!(back.reminder().unwrap().contains("\n2. web_fetch: Fetch a URL\n"), "{:?}", back.reminder());
    let again = search(&registry, "s1", json!({"query": "fetch url"})).await;
    assert_eq!(
        again.content,
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_fetch (newly discovered)"
    );
}

// "4. Advertised list = visible specs (in order) followed by discovered pool specs (in pool order)":
// tools found in later rounds join in pool order, not in the order they were found.
#[tokio::test]
async fn discoveries_are_advertised_in_pool_order_not_in_the_order_found() {
    let (registry, discovery) = example_registry(Locale::En);
    search(&registry, "s1", json!({"query": "合并转发"})).await;
    let first = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(spec_names(first.advertised()), ["tool_search", "reply", "view_forward_message"]);
    search(&registry, "s1", json!({"query": "memes"})).await;
    search(&registry, "s1", json!({"query": "fetch url"})).await;
    let second = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(
        spec_names(second.advertised()),
        ["tool_search", "reply", "web_fetch", "search_memes", "view_forward_message"]
    );
    assert_eq!(
        second.reminder(),
        Some(
            "<system-reminder>\nThe following tools are not exposed to you directly, but you can discover them with the tool_search tool and use them in later rounds:\n1. web_search: Search the web\n2. image_gen: Generate images for the web\n\nCall tool_search first if you need one of them. tool_search only discovers tools; it does not run them.\n</system-reminder>"
        )
    );
}

// "3. Pool = the `Deferred` tools listed for the call's availability context": the visible `reply`
// ("Reply to the user") is never matched by its name or description, and matching nothing discovers
// nothing.
#[tokio::test]
async fn visible_tools_are_not_searched() {
    let (registry, discovery) = example_registry(Locale::En);
    for query in ["reply", "user", "reply to"] {
        let result = search(&registry, "v1", json!({ "query": query })).await;
        assert_eq!((result.success, result.content.as_str()), (true, NO_MATCH_EN), "{query}");
    }
    assert!(discovery.discovered("v1").is_empty());
}

// ==== history texts in zh-Hans ============================================================================

const HINT_ZH: &str = "请通过 tool_search 查看具体的工具参数后再重试。";

// Calling an undiscovered deferred tool: with empty `error_message` and `content`, "else it becomes
// `error_message`"; then `history_content`: "… `error_message` trimmed" — the zh-Hans hint is the
// history text of such a failure.
#[tokio::test]
async fn the_zh_hint_alone_is_the_history_of_a_failure_without_texts() {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(Stub::answering(
        "pool",
        "plugin",
        [deferred("web_fetch", "Fetch a URL")],
        |call| async move { Ok(ToolExecutionResult::failure(call.tool_name, "")) },
    ));
    let result = DeferredTools::new().invoke(&registry, ToolInvocation::new("web_fetch", "{}"), &session("s1")).await;
    assert!(!result.success);
    assert_eq!((result.error_message.as_str(), result.content.as_str()), (HINT_ZH, ""));
    assert_eq!(result.history_content(Locale::ZhHans), HINT_ZH);
}

// `history_content(locale)`: "First that applies: `content` trimmed if not blank; the item summaries
// … if there are items (so any item beats structured content); structured content …; `error_message`
// trimmed" — for a failed result as for any other.
#[test]
fn a_failed_results_history_prefers_content_then_items_over_structure_and_error() {
    let mut result = ToolExecutionResult::failure("t", "  出错了  ").with_structured_content(json!({"a": 1}));
    result.content = " \n 部分结果 \t".into();
    result.content_items_mut().push(ToolContentItem::image("", ""));
    assert_eq!(result.history_content(Locale::ZhHans), "部分结果");

    result.content = " \u{3000} ".into();
    assert_eq!(result.history_content(Locale::ZhHans), "[图片内容 unknown]");
    assert_eq!(result.history_content(Locale::En), "[image unknown]");

    result.content_items_mut().clear();
    assert_eq!(result.history_content(Locale::ZhHans), r#"{"a": 1}"#);
    *result.structured_content_mut() = None;
    assert_eq!(result.history_content(Locale::ZhHans), "出错了");
}
