//! Hook and plugin rules checked one at a time, with expectations taken from the written rules:
//! `#[hook_handler]` declarations, typed payloads, `HookArgs` / `HookOutcome` / `HookContext`,
//! dispatcher results, plugin collection, source rank and the plugin lifecycle.

use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use toolhook::hooks::{ErrorPolicy, HookAction, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook::{DeclaredHookHandler, PluginContext, hook_handler, plugin, serde};
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};
use toolhook_runtime::{
    HostClassification, PluginHost, PluginHostBuilder, PluginSet, PluginState, Source, ToolRegistry,
};

const PACKAGE: &str = env!("CARGO_PKG_NAME");

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Events the test plugins append to.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap().push(e.into());
}

fn events_of(prefix: &str) -> Vec<String> {
    EVENTS.lock().unwrap().iter().filter(|e| e.starts_with(prefix)).cloned().collect()
}

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("an object")
}

fn declared(name: &str) -> DeclaredHookHandler {
    DeclaredHookHandler::all()
        .into_iter()
        .find(|h| h.name() == name && h.plugin_id() == PACKAGE)
        .unwrap_or_else(|| panic!("no free hook handler named {name}"))
}

fn dispatcher_with(specs: Vec<HookSpec>) -> HookDispatcher {
    let registry = HookSpecRegistry::new();
    for spec in specs {
        registry.register(spec).unwrap();
    }
    HookDispatcher::builder().specs(registry).build()
}

/// A dispatcher holding the free handlers `names` as the package's default plugin.
fn with_free_handlers(specs: Vec<HookSpec>, names: &[&str]) -> HookDispatcher {
    let d = dispatcher_with(specs);
    let entries = names.iter().map(|n| HookHandlerEntry::from_declared(declared(n), None)).collect();
    d.register_plugin(PACKAGE, Source::ThirdParty, entries).unwrap();
    d
}

// ---- free handlers --------------------------------------------------------------------------------

#[hook_handler("derived.plain", custom = true)]
async fn undocumented(_args: HookArgs) {}

#[hook_handler("derived.watch", custom = true, mode = "observe")]
async fn plain_watcher(_args: HookArgs) {}

#[hook_handler("derived.slow", custom = true, timeout_ms = 0)]
async fn zero_timeout(_args: HookArgs) {
    tokio::time::sleep(Duration::from_secs(1)).await;
}

#[hook_handler("derived.slow", custom = true, timeout_ms = 25)]
async fn own_timeout(_args: HookArgs) {
    tokio::time::sleep(Duration::from_secs(1)).await;
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde")]
struct Text {
    text: String,
}

static NEEDS_TEXT_CALLS: AtomicUsize = AtomicUsize::new(0);
/// Held by every test that runs `needs_text`: two that count its calls would otherwise see the
/// others' calls, the tests of a binary running at once.
static NEEDS_TEXT: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[hook_handler("derived.typed", custom = true)]
async fn needs_text(payload: Text) -> HookOutcome<Text> {
    NEEDS_TEXT_CALLS.fetch_add(1, Ordering::SeqCst);
    HookOutcome::modify(Text { text: payload.text.to_uppercase() })
}

#[hook_handler("derived.typed_abort", custom = true)]
async fn typed_stopper(payload: Text) -> HookOutcome<Text> {
    HookOutcome::abort_with(Text { text: format!("{}!", payload.text) })
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde")]
struct Inner {
    b: Vec<i64>,
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde")]
struct Outer {
    a: Inner,
}

#[hook_handler("derived.nested", custom = true)]
async fn nested_payload(_payload: Outer) {}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde", deny_unknown_fields)]
struct Strict {
    text: String,
}

#[hook_handler("derived.strict", custom = true)]
async fn strict_payload(_payload: Strict) {}

#[hook_handler("derived.custom", custom = true)]
async fn rejected_with_note(mut args: HookArgs) -> HookOutcome {
    args.insert("text", 5);
    HookOutcome::modify(args).with_custom_result(json!({"note": "kept"}))
}

#[hook_handler("derived.custom", custom = true, order = "late")]
async fn rejected_then_abort(mut args: HookArgs) -> HookOutcome {
    args.insert("text", 7);
    HookOutcome::abort_with(args)
}

#[hook_handler("derived.optional", custom = true)]
async fn nulls_optional(mut args: HookArgs) -> HookOutcome {
    args.insert("note", Value::Null);
    HookOutcome::modify(args)
}

#[hook_handler("derived.err", custom = true)]
async fn fails_with_padding(_args: HookArgs) -> Result<HookOutcome, String> {
    Err("  \n went wrong \t".to_owned())
}

static OBSERVED: AtomicUsize = AtomicUsize::new(0);

#[hook_handler("derived.observed", custom = true, mode = "observe")]
async fn slow_observer(_args: HookArgs) {
    tokio::time::sleep(Duration::from_millis(30)).await;
    OBSERVED.fetch_add(1, Ordering::SeqCst);
}

// ---- declarations -----------------------------------------------------------------------------------

// "`description` | string literal | first doc-comment paragraph, else `""`"
#[test]
fn an_undocumented_handler_without_description_has_an_empty_one() {
    assert_eq!(declared("undocumented").description(), "");
}

// "`mode` ... default `"blocking"`", "`order` ... default `"normal"`", "`error_policy` ... default `"skip"`":
// the defaults of order and policy do not depend on the mode.
#[test]
fn an_observe_handler_gets_the_default_order_policy_and_metadata() {
    let handler = declared("plain_watcher");
    assert_eq!(handler.mode(), HookMode::Observe);
    assert_eq!(handler.order(), HookOrder::Normal);
    assert_eq!(handler.error_policy(), ErrorPolicy::Skip);
    assert!(handler.metadata().is_empty());
    assert_eq!(handler.full_name(), format!("{PACKAGE}.plain_watcher"));
}

// "`timeout_ms` ... `0` | 0 = the hook spec's default"
#[tokio::test(start_paused = true)]
async fn a_declared_zero_timeout_means_the_specs_default() {
    let spec = HookSpec { default_timeout_ms: 40, ..HookSpec::new("derived.slow") };
    let d = with_free_handlers(vec![spec], &["zero_timeout"]);
    let result = d.invoke("derived.slow", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {PACKAGE}.zero_timeout timed out after 40 ms")]);
}

// "Handler `timeout_ms` if > 0, else the spec's `default_timeout_ms` if > 0"
#[tokio::test(start_paused = true)]
async fn a_declared_timeout_wins_over_the_specs_default() {
    let spec = HookSpec { default_timeout_ms: 40, ..HookSpec::new("derived.slow") };
    let d = with_free_handlers(vec![spec], &["own_timeout"]);
    let result = d.invoke("derived.slow", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {PACKAGE}.own_timeout timed out after 25 ms")]);
}

// ---- typed payloads -------------------------------------------------------------------------------------

// "an error at the document root has no path and reads `invalid payload: {reason}`" ... "handler not called"
#[tokio::test]
async fn a_root_decode_error_has_no_path_and_the_handler_is_not_called() {
    let _serial = NEEDS_TEXT.lock().await;
    let d = with_free_handlers(vec![HookSpec::new("derived.typed")], &["needs_text"]);
    let before = NEEDS_TEXT_CALLS.load(Ordering::SeqCst);
    let result = d.invoke("derived.typed", args(json!({"other": 1}))).await.unwrap();
    assert_eq!(
        result.errors,
        [format!("HookHandler {PACKAGE}.needs_text failed: invalid payload: missing field `text`")]
    );
    assert_eq!(result.kwargs, args(json!({"other": 1})));
    assert_eq!(NEEDS_TEXT_CALLS.load(Ordering::SeqCst), before);
}

// "failure ⇒ handler failure `invalid payload: {path}: {reason}` (path like `a.b[2]`, serde's reason ...)"
#[tokio::test]
async fn a_nested_decode_error_names_its_dotted_and_indexed_path() {
    let d = with_free_handlers(vec![HookSpec::new("derived.nested")], &["nested_payload"]);
    let result = d.invoke("derived.nested", args(json!({"a": {"b": [1, 2, "x"]}}))).await.unwrap();
    assert_eq!(
        result.errors,
        [format!(
            "HookHandler {PACKAGE}.nested_payload failed: invalid payload: a.b[2]: invalid type: string \"x\", expected i64"
        )]
    );
}

// "the kwargs are deserialised into `P` (unknown keys ignored unless `P` forbids them)"
#[tokio::test]
async fn unknown_keys_fail_a_payload_type_that_forbids_them() {
    let d = with_free_handlers(vec![HookSpec::new("derived.strict")], &["strict_payload"]);
    let ok = d.invoke("derived.strict", args(json!({"text": "a"}))).await.unwrap();
    assert!(ok.errors.is_empty(), "{:?}", ok.errors);
    let result = d.invoke("derived.strict", args(json!({"text": "a", "zzz": 1}))).await.unwrap();
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    let prefix = format!("HookHandler {PACKAGE}.strict_payload failed: invalid payload: ");
    assert!(result.errors[0].starts_with(&prefix), "{}", result.errors[0]);
    assert!(result.errors[0].contains("unknown field `zzz`"), "{}", result.errors[0]);
}

// "`abort_with(p)` (abort keeping the change ...)" and typed "`modify(p)` **overlays** `p`'s object on the kwargs"
#[tokio::test]
async fn a_typed_abort_with_overlays_its_payload_and_stops_the_hook() {
    let d = with_free_handlers(vec![HookSpec::new("derived.typed_abort")], &["typed_stopper"]);
    let result = d.invoke("derived.typed_abort", args(json!({"text": "hi", "keep": 1}))).await.unwrap();
    assert!(result.aborted);
    assert_eq!(result.stopped_by.as_deref(), Some(format!("{PACKAGE}.typed_stopper").as_str()));
    assert_eq!(result.kwargs, args(json!({"text": "hi!", "keep": 1})));
}

// "`Err(e)` ⇒ failure with `trim(e)`" and "append `HookHandler {full} failed: {message}`"
#[tokio::test]
async fn a_declared_handlers_err_is_trimmed_and_names_the_handler() {
    let d = with_free_handlers(vec![HookSpec::new("derived.err")], &["fails_with_padding"]);
    let result = d.invoke("derived.err", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {PACKAGE}.fails_with_padding failed: went wrong")]);
    assert!(!result.aborted, "error_policy defaults to skip");
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
}

// ---- merging ------------------------------------------------------------------------------------------------

fn text_schema_spec(name: &str) -> HookSpec {
    HookSpec {
        parameters_schema: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        ..HookSpec::new(name)
    }
}

// "Merging a blocking handler's outcome (in this order) 1. `custom_result` present ⇒ appended to
// `custom_results`" ... "invalid ⇒ error ... and the kwargs stay as they were"
#[tokio::test]
async fn a_custom_result_is_kept_when_the_modification_is_rejected() {
    let d = with_free_handlers(vec![text_schema_spec("derived.custom")], &["rejected_with_note"]);
    let result = d.invoke("derived.custom", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(result.custom_results, [json!({"note": "kept"})]);
    assert_eq!(
        result.errors,
        [format!(
            "Hook derived.custom rejected modified_kwargs from {PACKAGE}.rejected_with_note: text: expected string, got integer"
        )]
    );
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
}

// "4. `action = Abort`: allowed ⇒ `aborted = true`, `stopped_by = full`" applies after step 3 whatever
// became of the modification.
#[tokio::test]
async fn an_abort_stops_the_hook_even_when_its_modification_is_rejected() {
    let d = with_free_handlers(vec![text_schema_spec("derived.custom")], &["rejected_then_abort"]);
    let result = d.invoke("derived.custom", args(json!({"text": "hi"}))).await.unwrap();
    assert!(result.aborted);
    assert_eq!(result.stopped_by, Some(format!("{PACKAGE}.rejected_then_abort")));
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
}

// "a property not listed in `required` whose value is `null` passes"
#[tokio::test]
async fn a_null_optional_property_passes_validation() {
    let spec = HookSpec {
        parameters_schema: json!({
            "type": "object",
            "properties": {"text": {"type": "string"}, "note": {"type": "string"}},
            "required": ["text"]
        }),
        ..HookSpec::new("derived.optional")
    };
    let d = with_free_handlers(vec![spec], &["nulls_optional"]);
    let result = d.invoke("derived.optional", args(json!({"text": "hi"}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"text": "hi", "note": null})));
}

// ---- dispatcher API -----------------------------------------------------------------------------------------

// "`HookDispatchResult { hook_name (trimmed), ...`" and "Targets = enabled handlers whose hook equals the name"
#[tokio::test]
async fn a_padded_hook_name_is_trimmed_in_the_result_and_reaches_its_handlers() {
    let _serial = NEEDS_TEXT.lock().await;
    let d = with_free_handlers(vec![HookSpec::new("derived.typed")], &["needs_text"]);
    let result = d.invoke("  derived.typed \n", args(json!({"text": "a"}))).await.unwrap();
    assert_eq!(result.hook_name, "derived.typed");
    assert_eq!(result.kwargs, args(json!({"text": "A"})));
}

// "`wait_observers()` awaits all running and waiting observers"
#[tokio::test]
async fn wait_observers_awaits_the_observers_of_every_call() {
    let d = with_free_handlers(vec![HookSpec::new("derived.observed")], &["slow_observer"]);
    let before = OBSERVED.load(Ordering::SeqCst);
    d.invoke("derived.observed", HookArgs::new()).await.unwrap();
    d.invoke("derived.observed", HookArgs::new()).await.unwrap();
    d.wait_observers().await;
    assert_eq!(OBSERVED.load(Ordering::SeqCst) - before, 2);
}

// "`invoke_with(name, &impl Serialize)`" ... "`kwargs_as::<T>()`"
#[tokio::test]
async fn invoke_with_serialises_a_struct_and_kwargs_as_reads_the_final_kwargs() {
    let _serial = NEEDS_TEXT.lock().await;
    let d = with_free_handlers(vec![HookSpec::new("derived.typed")], &["needs_text"]);
    let result = d.invoke_with("derived.typed", &Text { text: "abc".into() }).await.unwrap();
    assert_eq!(result.kwargs_as::<Text>().unwrap().text, "ABC");
}

// "Shutdown requested ⇒ return it; no handler runs." (`invoke_and_wait` is `invoke` then a wait)
#[tokio::test]
async fn invoke_and_wait_after_shutdown_runs_nothing() {
    let _serial = NEEDS_TEXT.lock().await;
    let d = with_free_handlers(vec![HookSpec::new("derived.typed")], &["needs_text"]);
    d.shutdown().await;
    let before = NEEDS_TEXT_CALLS.load(Ordering::SeqCst);
    let result = d.invoke_and_wait("derived.typed", args(json!({"text": "a"}))).await.unwrap();
    assert_eq!(result.kwargs, args(json!({"text": "a"})));
    assert!(result.errors.is_empty() && !result.aborted);
    assert_eq!(NEEDS_TEXT_CALLS.load(Ordering::SeqCst), before);
}

// ---- author types -------------------------------------------------------------------------------------------

// "`HookArgs`: transparent newtype over a JSON object (`get`, `get_as::<T>`, `insert`, `remove`, `Deref`)"
#[test]
fn hook_args_is_a_transparent_json_object() {
    let mut a = args(json!({"text": "hi", "n": 3}));
    assert_eq!(serde_json::to_value(&a).unwrap(), json!({"text": "hi", "n": 3}));
    assert_eq!(a.get_as::<i64>("n").unwrap(), Some(3));
    assert_eq!(a.get("text"), Some(&json!("hi")));
    assert_eq!(a.remove("n"), Some(json!(3)));
    a.insert("k", true);
    assert_eq!(a.len(), 2, "Deref to the map");
    assert!(HookArgs::try_from(json!([1, 2])).is_err());
    let back: HookArgs = serde_json::from_value(json!({"x": 1})).unwrap();
    assert_eq!(back.get("x"), Some(&json!(1)));
}

// "`HookOutcome<P>` = `{ action: Continue | Abort, modified: Option<P>, custom_result: Option<Value> }` via
// `proceed()`, `modify(p)`, `abort()`, `abort_with(p)` ..., `.with_custom_result(impl Serialize)`"
#[test]
fn hook_outcome_constructors_set_action_and_modification() {
    let proceed: HookOutcome<i64> = HookOutcome::proceed();
    assert_eq!((proceed.action(), proceed.modified(), proceed.custom_result()), (HookAction::Continue, None, None));
    let modify = HookOutcome::modify(1);
    assert_eq!((modify.action(), modify.modified()), (HookAction::Continue, Some(&1)));
    let abort: HookOutcome<i64> = HookOutcome::abort();
    assert_eq!((abort.action(), abort.modified()), (HookAction::Abort, None));
    let abort_with = HookOutcome::abort_with(2).with_custom_result(json!({"why": "x"}));
    assert_eq!((abort_with.action(), abort_with.modified()), (HookAction::Abort, Some(&2)));
    assert_eq!(abort_with.custom_result(), Some(&json!({"why": "x"})));
}

// ---- plugins -------------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
pub struct CtxProbe;

#[plugin(id = "derived.ctx")]
impl CtxProbe {
    #[hook_handler("derived.ctx_hook", custom = true)]
    async fn zeta(&self, mut args: HookArgs, ctx: &HookContext) -> HookOutcome {
        args.insert(
            "seen",
            json!([ctx.hook_name(), ctx.plugin_id(), ctx.full_name(), ctx.mode() == HookMode::Blocking]),
        );
        HookOutcome::modify(args)
    }

    #[hook_handler("derived.ctx_hook", custom = true, order = "late")]
    async fn alpha(&self, args: HookArgs) {
        let _ = args;
    }
}

fn lenient_dispatcher() -> HookDispatcher {
    HookDispatcher::builder().validate_hooks(false).build()
}

/// A host of the plugins `ids`, serving into `registry` and `dispatcher`.
fn host_of(ids: &[&str], registry: &ToolRegistry, dispatcher: &HookDispatcher) -> PluginHostBuilder {
    PluginHost::builder().plugins(PluginSet::collect().only(ids)).registry(registry).dispatcher(dispatcher)
}

// "`PluginSet::collect()` ... each plugin's components sorted by name (link order never matters)"
#[test]
fn a_plugins_hook_handlers_are_sorted_by_name_not_written_order() {
    let set = PluginSet::collect();
    let plugin = set.get("derived.ctx").unwrap();
    let names: Vec<&str> = plugin.hook_handlers().iter().map(|h| h.name()).collect();
    assert_eq!(names, ["alpha", "zeta"]);
}

// "optionally one `HookContext` parameter (... carries `hook_name`, `plugin_id`, `full_name`, `mode`)" and
// "The hook name is never put into the kwargs"
#[tokio::test]
async fn a_method_handler_sees_its_names_in_the_context_not_in_the_kwargs() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["derived.ctx"], &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    let result = dispatcher.invoke(" derived.ctx_hook ", args(json!({"text": "hi"}))).await.unwrap();
    assert_eq!(
        serde_json::to_value(&result.kwargs).unwrap(),
        json!({"text": "hi", "seen": ["derived.ctx_hook", "derived.ctx", "derived.ctx.zeta", true]})
    );
    host.shutdown().await;
}

// "two plugins with the same id (two `#[plugin]`s, or a `#[plugin]` whose id equals a package's default
// plugin): every copy fails (`duplicate plugin id {id}`)"
#[derive(Default, Debug)]
pub struct ClashesWithDefault;

#[plugin(id = "toolhook-runtime")]
impl ClashesWithDefault {
    #[hook_handler("derived.clash", custom = true)]
    async fn clash(&self, _args: HookArgs) {}
}

#[test]
fn a_plugin_with_the_default_plugins_id_fails_every_copy() {
    let set = PluginSet::collect();
    let problems: Vec<(String, String)> =
        set.problems().into_iter().filter(|p| p.plugin_id == PACKAGE).map(|p| (p.plugin_id, p.message)).collect();
    assert!(!problems.is_empty(), "no problem reported for {PACKAGE}");
    assert!(problems.iter().all(|(_, m)| m == &format!("duplicate plugin id {PACKAGE}")), "{problems:?}");
    assert_eq!(set.get(PACKAGE).unwrap().problems(), [format!("duplicate plugin id {PACKAGE}")]);
}

// "`HostClassification::default()` (every plugin third-party), `.builtin(ids)` (these ids are builtin),
// `.builtin_if(predicate on the id)`, and `classify(id) -> Source`"
#[test]
fn host_classification_is_third_party_unless_named_or_matched() {
    assert_eq!(HostClassification::default().classify("acme.core"), Source::ThirdParty);
    let c = HostClassification::default().builtin(["acme.core"]).builtin_if(|id| id.starts_with("sys."));
    assert_eq!(c.classify("acme.core"), Source::Builtin);
    assert_eq!(c.classify("sys.anything"), Source::Builtin);
    assert_eq!(c.classify("acme.core2"), Source::ThirdParty);
}

#[derive(Default, Debug)]
pub struct RankBuiltin;

#[plugin(id = "aa.rank")]
impl RankBuiltin {
    #[hook_handler("derived.rank", custom = true)]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome {
        push_trail(&mut args, "aa.rank normal");
        HookOutcome::modify(args)
    }
}

#[derive(Default, Debug)]
pub struct RankEarly;

#[plugin(id = "zz.rank")]
impl RankEarly {
    #[hook_handler("derived.rank", custom = true, order = "early")]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome {
        push_trail(&mut args, "zz.rank early");
        HookOutcome::modify(args)
    }
}

#[derive(Default, Debug)]
pub struct RankNormal;

#[plugin(id = "mm.rank")]
impl RankNormal {
    #[hook_handler("derived.rank", custom = true)]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome {
        push_trail(&mut args, "mm.rank normal");
        HookOutcome::modify(args)
    }
}

fn push_trail(args: &mut HookArgs, who: &str) {
    let mut trail = args.get("trail").cloned().unwrap_or_else(|| json!([]));
    trail.as_array_mut().unwrap().push(json!(who));
    args.insert("trail", trail);
}

// "The rank orders hook handlers (after mode and order, before plugin id)"
#[tokio::test]
async fn source_rank_sorts_after_order_and_before_plugin_id() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["aa.rank", "mm.rank", "zz.rank"], &registry, &dispatcher)
        .classification(HostClassification::default().builtin_if(|id| id == "mm.rank"))
        .build();
    assert!(host.load_all().await.is_clean());
    let result = dispatcher.invoke("derived.rank", HookArgs::new()).await.unwrap();
    assert_eq!(result.kwargs.get("trail"), Some(&json!(["zz.rank early", "mm.rank normal", "aa.rank normal"])));
    host.shutdown().await;
}

// "`load_all()` — plugins one at a time, ordered by source rank then id"
#[tokio::test]
async fn load_all_follows_a_predicate_classification() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["aa.rank", "mm.rank", "zz.rank"], &registry, &dispatcher)
        .classification(HostClassification::default().builtin_if(|id| id.starts_with("zz.")))
        .build();
    let report = host.load_all().await;
    let order: Vec<&str> = report.outcomes().iter().map(|o| o.plugin_id.as_str()).collect();
    assert_eq!(order, ["zz.rank", "aa.rank", "mm.rank"]);
    assert_eq!(host.source_of("zz.rank"), Source::Builtin);
    assert_eq!(host.source_of("aa.rank"), Source::ThirdParty);
    host.shutdown().await;
}

static KEYLESS_HANDLER_CALLS: AtomicUsize = AtomicUsize::new(0);

#[derive(Default, Debug)]
pub struct Keyless;

#[plugin(id = "derived.keyless")]
impl Keyless {
    async fn on_load(&self, _ctx: &PluginContext) -> Result<(), String> {
        event("derived.keyless on_load");
        Err("no key".into())
    }

    async fn on_unload(&self) {
        event("derived.keyless on_unload");
    }

    #[hook_handler("derived.keyless_hook", custom = true)]
    async fn listen(&self, _args: HookArgs) {
        KEYLESS_HANDLER_CALLS.fetch_add(1, Ordering::SeqCst);
    }
}

// "`Err` or panic ⇒ `Failed`: handlers unregistered, tools no longer listed, `on_unload` not called" and
// "others | no | `Tool not found` | not registered"
#[tokio::test]
async fn a_failed_on_load_unregisters_its_handlers_so_the_hook_runs_without_them() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["derived.keyless"], &registry, &dispatcher).build();
    let report = host.load_all().await;
    let outcome = report.outcome("derived.keyless").unwrap();
    assert_eq!((outcome.state, outcome.reason.as_deref()), (PluginState::Failed, Some("no key")));
    let result = dispatcher.invoke("derived.keyless_hook", args(json!({"text": "hi"}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, args(json!({"text": "hi"})));
    assert_eq!(KEYLESS_HANDLER_CALLS.load(Ordering::SeqCst), 0);
    host.shutdown().await;
}

// "`PluginHost::shutdown()` unloads every `Loaded` plugin" — a `Failed` one is not unloaded.
#[tokio::test]
async fn shutdown_leaves_a_failed_plugin_failed_without_on_unload() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["derived.keyless", "aa.rank"], &registry, &dispatcher).build();
    let _report = host.load_all().await;
    host.shutdown().await;
    assert_eq!(host.state("derived.keyless"), Some(PluginState::Failed));
    assert_eq!(host.state("aa.rank"), Some(PluginState::Unloaded));
    assert!(events_of("derived.keyless on_unload").is_empty());
}

// "`unload(id)` — state `Unloading`: ... handlers are unregistered first ...; state `Unloaded`"
#[tokio::test]
async fn after_unload_the_hook_runs_without_the_plugins_handler() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = lenient_dispatcher();
    let host = host_of(&["aa.rank", "zz.rank"], &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    host.unload("zz.rank").await;
    assert_eq!(host.state("zz.rank"), Some(PluginState::Unloaded));
    assert_eq!(host.state("aa.rank"), Some(PluginState::Loaded));
    let result = dispatcher.invoke("derived.rank", HookArgs::new()).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs.get("trail"), Some(&json!(["aa.rank normal"])));
    host.shutdown().await;
}
