//! A second, independent pass over the built-in hook catalogue and `#[hook_handler]`: each of the
//! 22 catalogue hooks observed through a dispatcher (modes, abort policy and abort requests,
//! mutation, default timeouts, required and optional properties, property and item types), the
//! property texts of both locales, the typed payloads (round trips that keep the host's keys,
//! decode failures, optional fields), how every handler signature maps to an outcome, the
//! defaults a declared handler registers (description, name, order, timeout, metadata order), and
//! the worked example of routing replies by thinking level.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use toolhook::Locale;
use toolhook::hooks::payload::*;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
use toolhook::{DeclaredHookHandler, hook_handler};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatchResult, HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

#[path = "common/catalogue_table.rs"]
mod catalogue_table;
use catalogue_table::{CATALOGUE, PROPERTY_TEXTS, Property};

const PACKAGE: &str = env!("CARGO_PKG_NAME");

/// (hook, default timeout ms, allow_abort, allow_kwargs_mutation, payload in schema order)
type Hook = (&'static str, u64, bool, bool, &'static [Property]);
/// (property, hooks it applies to (empty = all), English text, zh-Hans text)
type Text = (&'static str, &'static [&'static str], &'static str, &'static str);

// ---- helpers -------------------------------------------------------------------------------------

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

fn kwargs_of(result: &HookDispatchResult) -> Value {
    Value::from(result.kwargs.clone().into_inner())
}

fn catalogue_dispatcher(locale: Locale) -> HookDispatcher {
    HookDispatcher::builder().specs(HookSpecRegistry::with_builtin_catalogue_in(locale)).locale(locale).build()
}

fn hook(name: &str) -> &'static Hook {
    CATALOGUE.iter().find(|h| h.0 == name).unwrap_or_else(|| panic!("{name} is not in the table"))
}

/// A sample value of a catalogue JSON type.
fn sample(ty: &str) -> Value {
    match ty {
        "string" => json!("some text"),
        "integer" => json!(3),
        "boolean" => json!(true),
        "object" => json!({"k": "v", "host_nested": {"deep": [1, 2]}}),
        "array" => json!([1, "x", {"y": null}, [true]]),
        "array<string>" => json!(["a", "b"]),
        "array<integer>" => json!([4, 2]),
        "array<object>" => json!([{"k": 1}, {}]),
        other => panic!("no sample for {other}"),
    }
}

/// Kwargs of a catalogue hook: every required property and, if asked, every optional one.
fn sample_kwargs(hook_name: &str, optional: bool) -> Map<String, Value> {
    hook(hook_name).4.iter().filter(|p| optional || !p.2).map(|p| (p.0.to_owned(), sample(p.1))).collect()
}

/// A blocking handler `h` that replaces the kwargs with `candidate`.
fn replacing(hook_name: &str, candidate: Map<String, Value>) -> HookHandlerEntry {
    HookHandlerEntry::new("h", hook_name, move |_: HookArgs, _: HookContext| {
        let candidate = HookArgs::from(candidate.clone());
        async move { HookOutcome::modify(candidate) }
    })
}

/// Fires `hook_name` with `input` on a catalogue dispatcher where `p.v.h` replaces the kwargs with
/// `candidate`; returns the errors and the final kwargs.
async fn modify_with(
    hook_name: &str,
    input: &Map<String, Value>,
    candidate: Map<String, Value>,
) -> (Vec<String>, Value) {
    let d = catalogue_dispatcher(Locale::En);
    d.register_plugin("p.v", Source::ThirdParty, vec![replacing(hook_name, candidate)]).unwrap();
    let result = d.invoke(hook_name, HookArgs::from(input.clone())).await.unwrap();
    (result.errors.clone(), kwargs_of(&result))
}

fn rejected(hook_name: &str, path_and_reason: &str) -> Vec<String> {
    vec![format!("Hook {hook_name} rejected modified_kwargs from p.v.h: {path_and_reason}")]
}

fn declared(name: &str) -> DeclaredHookHandler {
    DeclaredHookHandler::all()
        .into_iter()
        .find(|h| h.name() == name && h.plugin_id() == PACKAGE)
        .unwrap_or_else(|| panic!("no declared hook handler named {name}"))
}

/// A dispatcher with the catalogue, the custom hooks of this file and the declared `names` as the
/// package's default plugin.
fn with_declared(locale: Locale, names: &[&str]) -> HookDispatcher {
    let specs = HookSpecRegistry::with_builtin_catalogue_in(locale);
    for custom in ["sp.order", "sp.named", "sp.meta", "sp.failing"] {
        specs.register(HookSpec::new(custom)).unwrap();
    }
    let d = HookDispatcher::builder().specs(specs).locale(locale).build();
    let entries = names.iter().map(|n| HookHandlerEntry::from_declared(declared(n), None)).collect();
    d.register_plugin(PACKAGE, Source::ThirdParty, entries).unwrap();
    d
}

fn full(name: &str) -> String {
    format!("{PACKAGE}.{name}")
}

/// One typed catalogue payload, erased: its hook, a handler `h` that returns `modify(p)` with the
/// payload it decoded, and serde's own reason for refusing some kwargs.
struct Typed {
    hook: &'static str,
    echo: fn() -> HookHandlerEntry,
    serde_reason: fn(Value) -> Option<String>,
}

fn decode_reason<P: DeserializeOwned>(value: Value) -> Option<String> {
    serde_json::from_value::<P>(value).err().map(|e| e.to_string())
}

fn echo_entry<P>(hook_name: &'static str) -> HookHandlerEntry
where
    P: Serialize + DeserializeOwned + Send + 'static,
{
    HookHandlerEntry::typed("h", hook_name, |p: P, _: HookContext| async move { HookOutcome::modify(p) })
}

macro_rules! typed {
    ($($t:ident),* $(,)?) => {
        vec![$(Typed { hook: $t::HOOK, echo: || echo_entry::<$t>($t::HOOK), serde_reason: decode_reason::<$t> }),*]
    };
}

fn typed_payloads() -> Vec<Typed> {
    typed![
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

// ---- declared handlers ---------------------------------------------------------------------------

/// The doc comment, which an explicit description replaces.
#[hook_handler("chat.receive.before_process", description = "From the attribute.")]
async fn described_twice(_args: HookArgs) {}

/// Also documented.
#[hook_handler("chat.receive.after_process", description = "")]
async fn described_empty(_args: HookArgs) {}

static TRAIL_SEEN_BY_OBSERVER: Mutex<Option<Value>> = Mutex::new(None);

fn push_trail(args: &mut HookArgs, who: &str) {
    let mut trail = args.get("trail").and_then(Value::as_array).cloned().unwrap_or_default();
    trail.push(json!(who));
    args.insert("trail", trail);
}

#[hook_handler("sp.order", custom = true, order = "late")]
async fn a_late(mut args: HookArgs) -> HookOutcome {
    push_trail(&mut args, "a_late");
    HookOutcome::modify(args)
}

#[hook_handler("sp.order", custom = true)]
async fn b_default(mut args: HookArgs) -> HookOutcome {
    push_trail(&mut args, "b_default");
    HookOutcome::modify(args)
}

#[hook_handler("sp.order", custom = true, order = "early")]
async fn c_early(mut args: HookArgs) -> HookOutcome {
    push_trail(&mut args, "c_early");
    HookOutcome::modify(args)
}

#[hook_handler("sp.order", custom = true, mode = "observe", order = "early")]
async fn a_observer(args: &HookArgs) {
    *TRAIL_SEEN_BY_OBSERVER.lock().unwrap() = args.get("trail").cloned();
}

static NAMED_CONTEXT: Mutex<Option<(String, String, String)>> = Mutex::new(None);

#[hook_handler("sp.named", custom = true, name = "renamed", mode = "observe")]
async fn original_fn_name(_args: HookArgs, ctx: &HookContext) {
    *NAMED_CONTEXT.lock().unwrap() =
        Some((ctx.handler_name().to_owned(), ctx.full_name().to_owned(), ctx.mode().as_str().to_owned()));
}

#[hook_handler("sp.named", custom = true)]
async fn r#match(_args: HookArgs) {}

#[hook_handler(
    "sp.meta",
    custom = true,
    metadata(zulu = "末尾", alpha = 0, mike = -0.5, bravo = false, yankee = 9007199254740993)
)]
async fn with_metadata(_args: HookArgs) {}

/// Reports the time budget it was given.
fn budget<P>(ctx: &HookContext) -> HookOutcome<P> {
    HookOutcome::proceed().with_custom_result(ctx.timeout().as_millis() as u64)
}

#[hook_handler("chat.command.before_execute")]
async fn budget_zero_hook(_p: ChatCommandBeforeExecute, ctx: &HookContext) -> HookOutcome<ChatCommandBeforeExecute> {
    budget(ctx)
}

#[hook_handler("expression.learn.before_upsert")]
async fn budget_5000_hook(
    _p: &ExpressionLearnBeforeUpsert,
    ctx: HookContext,
) -> HookOutcome<ExpressionLearnBeforeUpsert> {
    budget(&ctx)
}

#[hook_handler("maisaka.reply.before_post_process")]
async fn budget_6000_hook(_args: HookArgs, ctx: &HookContext) -> HookOutcome {
    budget(ctx)
}

#[hook_handler("maisaka.reply.before_post_process", timeout_ms = 4294967295)]
async fn budget_own(_args: HookArgs, ctx: &HookContext) -> HookOutcome {
    budget(ctx)
}

#[hook_handler("emoji.register.after_build_description")]
async fn sleeps_past_5000(_args: HookArgs) {
    tokio::time::sleep(Duration::from_secs(30)).await;
}

#[hook_handler("maisaka.planner.after_response")]
async fn sleeps_past_6000(_args: HookArgs) {
    tokio::time::sleep(Duration::from_secs(30)).await;
}

static UPSERT_STYLES: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[hook_handler("expression.learn.before_upsert")]
async fn typed_unit(p: ExpressionLearnBeforeUpsert) {
    UPSERT_STYLES.lock().unwrap().push(p.style);
}

#[derive(Debug)]
struct NotSent(String);

impl fmt::Display for NotSent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " \n not sent by {}\t ", self.0)
    }
}

#[hook_handler("send_service.after_send", mode = "observe")]
async fn typed_ref_observer(ctx: &HookContext, p: &SendServiceAfterSend) -> Result<(), NotSent> {
    if p.sent { Ok(()) } else { Err(NotSent(ctx.full_name().to_owned())) }
}

#[hook_handler("send_service.after_send")]
async fn typed_ref_result(ctx: &HookContext, p: &SendServiceAfterSend) -> Result<(), NotSent> {
    if p.sent { Ok(()) } else { Err(NotSent(ctx.full_name().to_owned())) }
}

#[hook_handler("send_service.after_send", order = "late")]
async fn typed_modify_fixed(mut p: SendServiceAfterSend) -> HookOutcome<SendServiceAfterSend> {
    p.show_log = !p.show_log;
    HookOutcome::modify(p)
}

#[hook_handler("jargon.inference.before_finalize")]
async fn typed_result_outcome(
    mut p: JargonInferenceBeforeFinalize,
) -> Result<HookOutcome<JargonInferenceBeforeFinalize>, String> {
    if p.count < 0 {
        return Err(format!("  negative count {}  ", p.count));
    }
    p.meaning = p.meaning.to_uppercase();
    p.is_complete = true;
    Ok(HookOutcome::modify(p).with_custom_result(json!({"count": "checked"})))
}

#[hook_handler("maisaka.planner.after_response")]
async fn typed_abort_with_on_planner(mut p: MaisakaPlannerAfterResponse) -> HookOutcome<MaisakaPlannerAfterResponse> {
    p.total_tokens = p.prompt_tokens + p.completion_tokens;
    HookOutcome::abort_with(p)
}

#[hook_handler("maisaka.planner.after_response", order = "late")]
async fn runs_after_planner_abort(_args: HookArgs) -> HookOutcome {
    HookOutcome::proceed().with_custom_result("later handler ran")
}

#[hook_handler("expression.select.before_select")]
async fn typed_abort_allowed(p: ExpressionSelectBeforeSelect) -> HookOutcome<ExpressionSelectBeforeSelect> {
    if p.max_num == 0 { HookOutcome::abort() } else { HookOutcome::proceed() }
}

#[hook_handler("expression.select.before_select", order = "late")]
async fn never_after_abort(_args: HookArgs) -> HookOutcome {
    HookOutcome::proceed().with_custom_result("ran")
}

#[hook_handler("chat.command.before_execute")]
async fn args_result_outcome(mut args: HookArgs) -> Result<HookOutcome, String> {
    if args.get("command_name") == Some(&json!("boom")) {
        return Err("boom\n".to_owned());
    }
    args.remove("host_extra");
    args.insert("command_name", "renamed_command");
    Ok(HookOutcome::modify(args))
}

#[hook_handler("emoji.maisaka.before_select", error_policy = "abort")]
async fn fails_under_abort(_p: EmojiMaisakaBeforeSelect) -> Result<(), String> {
    Err("no emoji today".to_owned())
}

#[hook_handler("emoji.maisaka.before_select", order = "late")]
async fn after_failed_abort(_args: HookArgs) -> HookOutcome {
    HookOutcome::proceed().with_custom_result("ran")
}

#[hook_handler("chat.command.after_execute", error_policy = "log")]
async fn fails_under_log(_p: ChatCommandAfterExecute) -> Result<HookOutcome<ChatCommandAfterExecute>, String> {
    Err("log me".to_owned())
}

#[hook_handler("chat.command.after_execute", order = "late")]
async fn after_failed_log(_args: HookArgs) -> HookOutcome {
    HookOutcome::proceed().with_custom_result("ran")
}

#[hook_handler("chat.receive.before_process")]
async fn ctx_by_value(args: HookArgs, ctx: HookContext) -> HookOutcome {
    let seen = json!({
        "hook": ctx.hook_name(),
        "plugin": ctx.plugin_id(),
        "full": ctx.full_name(),
        "mode": ctx.mode().as_str(),
        "has_hook_name": args.contains_key("hook_name"),
    });
    HookOutcome::modify(args).with_custom_result(seen)
}

static OBSERVED_KWARGS: Mutex<Option<Value>> = Mutex::new(None);

#[hook_handler("chat.receive.before_process", mode = "observe", order = "early")]
async fn failing_observer(args: &HookArgs) -> Result<(), String> {
    *OBSERVED_KWARGS.lock().unwrap() = Some(Value::from(args.clone().into_inner()));
    Err("observer trouble".to_owned())
}

#[hook_handler("chat.receive.before_process", order = "late")]
async fn marks_message(mut p: ChatReceiveBeforeProcess) -> HookOutcome<ChatReceiveBeforeProcess> {
    p.message.insert("marked".to_owned(), json!(true));
    HookOutcome::modify(p)
}

static FAILING_CALLS: AtomicUsize = AtomicUsize::new(0);

#[hook_handler("sp.failing", custom = true)]
async fn blank_failure(_args: HookArgs) -> Result<HookOutcome, String> {
    FAILING_CALLS.fetch_add(1, Ordering::SeqCst);
    Err("  \n ".to_owned())
}

// The routing example: the planner is offered a thinking level, the replyer routes by it.

const STRONG_MODEL: &str = "sp-strong-model";
const CAREFUL: &str = "Think this reply through carefully before answering.";

#[hook_handler("maisaka.planner.before_request")]
async fn offer_depth(mut request: MaisakaPlannerBeforeRequest) -> HookOutcome<MaisakaPlannerBeforeRequest> {
    for definition in &mut request.tool_definitions {
        if definition.pointer("/function/name") != Some(&json!("reply")) {
            continue;
        }
        if let Some(properties) =
            definition.pointer_mut("/function/parameters/properties").and_then(Value::as_object_mut)
        {
            properties.insert(
                "thinking_level".to_owned(),
                json!({
                    "type": "string",
                    "enum": ["normal", "deep"],
                    "description": "Pick `deep` for replies that need careful reasoning, else `normal`."
                }),
            );
        }
    }
    HookOutcome::modify(request)
}

#[hook_handler("maisaka.replyer.before_request")]
async fn route_depth(mut request: MaisakaReplyerBeforeRequest) -> HookOutcome<MaisakaReplyerBeforeRequest> {
    if request.reply_tool_args.get("thinking_level") != Some(&json!("deep")) {
        return HookOutcome::proceed();
    }
    request.model_name = STRONG_MODEL.to_owned();
    if !request.extra_prompt.is_empty() {
        request.extra_prompt.push('\n');
    }
    request.extra_prompt.push_str(CAREFUL);
    HookOutcome::modify(request)
}

// ---- catalogue: flags observed through a dispatcher ------------------------------------------------

// "All allow blocking and observe."
#[tokio::test]
async fn every_catalogue_hook_takes_and_runs_blocking_and_observe_handlers() {
    static OBSERVED: AtomicUsize = AtomicUsize::new(0);
    for &(name, ..) in CATALOGUE {
        let d = catalogue_dispatcher(Locale::En);
        let blocking = HookHandlerEntry::new("b", name, |_: HookArgs, _: HookContext| async {
            HookOutcome::<HookArgs>::proceed().with_custom_result("blocking ran")
        });
        let observer = HookHandlerEntry::new("o", name, |_: HookArgs, _: HookContext| async {
            OBSERVED.fetch_add(1, Ordering::SeqCst);
        })
        .mode(HookMode::Observe);
        d.register_plugin("p.m", Source::ThirdParty, vec![blocking, observer])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let before = OBSERVED.load(Ordering::SeqCst);
        let result = d.invoke_and_wait(name, HookArgs::from(sample_kwargs(name, true))).await.unwrap();
        assert_eq!(result.custom_results, [json!("blocking ran")], "{name}");
        assert!(result.errors.is_empty(), "{name}: {:?}", result.errors);
        assert_eq!(OBSERVED.load(Ordering::SeqCst), before + 1, "{name}: the observer ran");
    }
}

// "`error_policy = abort` on `allow_abort = false` | `HookHandler {full} cannot use error_policy=abort:
// hook {hook} does not allow abort`", with the catalogue's `abort` column.
#[test]
fn the_abort_policy_registers_exactly_on_the_catalogue_hooks_that_allow_abort() {
    for locale in [Locale::En, Locale::ZhHans] {
        for &(name, _, abort, ..) in CATALOGUE {
            let d = catalogue_dispatcher(locale);
            let entry = HookHandlerEntry::new("h", name, |_: HookArgs, _: HookContext| async {})
                .error_policy(ErrorPolicy::Abort);
            let outcome = d.register_plugin("p.x", Source::ThirdParty, vec![entry]).map_err(|e| e.to_string());
            let expected = if abort {
                Ok(())
            } else if locale == Locale::En {
                Err(format!("HookHandler p.x.h cannot use error_policy=abort: hook {name} does not allow abort"))
            } else {
                Err(format!("HookHandler p.x.h 不能使用 error_policy=abort：Hook {name} 不允许 abort"))
            };
            assert_eq!(outcome, expected, "{name} in {locale:?}");
        }
    }
}

// "`action = Abort`: allowed ⇒ `aborted = true`, `stopped_by = full` ...; not allowed ⇒ error `Hook {hook}
// does not allow abort; ignored the abort request from {full}`", per the catalogue's `abort` column.
#[tokio::test]
async fn an_abort_request_stops_exactly_the_catalogue_hooks_that_allow_abort() {
    for &(name, _, abort, ..) in CATALOGUE {
        let d = catalogue_dispatcher(Locale::En);
        let stopper = HookHandlerEntry::new("stop", name, |_: HookArgs, _: HookContext| async {
            HookOutcome::<HookArgs>::abort()
        });
        let later = HookHandlerEntry::new("later", name, |_: HookArgs, _: HookContext| async {
            HookOutcome::<HookArgs>::proceed().with_custom_result("later ran")
        })
        .order(HookOrder::Late);
        d.register_plugin("p.a", Source::ThirdParty, vec![stopper, later]).unwrap();
        let input = sample_kwargs(name, false);
        let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
        assert_eq!(kwargs_of(&result), Value::from(input), "{name}");
        if abort {
            assert!(result.aborted, "{name}");
            assert_eq!(result.stopped_by.as_deref(), Some("p.a.stop"), "{name}");
            assert!(result.errors.is_empty() && result.custom_results.is_empty(), "{name}: {result:?}");
        } else {
            assert!(!result.aborted && result.stopped_by.is_none(), "{name}");
            assert_eq!(
                result.errors,
                [format!("Hook {name} does not allow abort; ignored the abort request from p.a.stop")],
                "{name}"
            );
            assert_eq!(result.custom_results, [json!("later ran")], "{name}");
        }
    }
}

// "`modified` present: spec forbids mutation ⇒ error `Hook {hook} does not allow modifying kwargs; ignored
// modified_kwargs from {full}`"; only `send_service.after_send` has `mut` N.
#[tokio::test]
async fn a_modification_is_merged_on_every_catalogue_hook_but_send_service_after_send() {
    for &(name, _, _, mutation, _) in CATALOGUE {
        let input = sample_kwargs(name, true);
        let mut candidate = input.clone();
        candidate.insert("host_added".into(), json!("by a handler"));
        let (errors, kwargs) = modify_with(name, &input, candidate.clone()).await;
        if mutation {
            assert!(errors.is_empty(), "{name}: {errors:?}");
            assert_eq!(kwargs, Value::from(candidate), "{name}");
        } else {
            assert_eq!(
                errors,
                [format!("Hook {name} does not allow modifying kwargs; ignored modified_kwargs from p.v.h")]
            );
            assert_eq!(kwargs, Value::from(input), "{name}");
        }
    }
}

// "Handler `timeout_ms` if > 0, else the spec's `default_timeout_ms` if > 0, else the dispatcher default
// (60 000 ms)", with the catalogue's `t` column ("0 ⇒ dispatcher default, 60 000").
#[tokio::test]
async fn a_handler_without_its_own_timeout_gets_its_catalogue_hooks_budget() {
    for configured in [None, Some(Duration::from_millis(7_000))] {
        for &(name, t, ..) in CATALOGUE {
            let mut builder = HookDispatcher::builder().specs(HookSpecRegistry::with_builtin_catalogue());
            if let Some(timeout) = configured {
                builder = builder.default_timeout(timeout);
            }
            let d = builder.build();
            let entry =
                HookHandlerEntry::new(
                    "h",
                    name,
                    |_: HookArgs, ctx: HookContext| async move { budget::<HookArgs>(&ctx) },
                );
            d.register_plugin("p.t", Source::ThirdParty, vec![entry]).unwrap();
            let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
            let fallback = configured.map_or(60_000, |c| c.as_millis() as u64);
            let expected = if t > 0 { t } else { fallback };
            assert_eq!(result.custom_results, [json!(expected)], "{name} with {configured:?}");
        }
    }
}

// ---- catalogue: payload schemas observed through validation ------------------------------------------

// "every field is required unless marked (opt)"; "(a) each name in top-level `required` ... must be
// present" (`missing required field`); "a property not listed in `required` whose value is `null`
// passes" — so a required one that is null fails its type.
#[tokio::test]
async fn dropping_or_nulling_a_required_catalogue_property_is_rejected() {
    for &(name, _, _, mutation, payload) in CATALOGUE {
        if !mutation {
            continue;
        }
        let input = sample_kwargs(name, true);
        for &(property, ty, optional) in payload {
            if optional {
                continue;
            }
            let mut dropped = input.clone();
            dropped.shift_remove(property);
            let (errors, kwargs) = modify_with(name, &input, dropped).await;
            assert_eq!(errors, rejected(name, &format!("{property}: missing required field")), "{name}.{property}");
            assert_eq!(kwargs, Value::from(input.clone()), "{name}.{property}");

            let mut nulled = input.clone();
            nulled.insert(property.into(), Value::Null);
            let base = ty.split('<').next().unwrap();
            let (errors, _) = modify_with(name, &input, nulled).await;
            assert_eq!(errors, rejected(name, &format!("{property}: expected {base}, got null")), "{name}.{property}");
        }
    }
}

// "(opt)" properties are not required, and "a property not listed in `required` whose value is `null`
// passes"; present, they must still match their type.
#[tokio::test]
async fn optional_catalogue_properties_may_be_dropped_or_null_but_not_mistyped() {
    let mut seen = 0;
    for &(name, _, _, mutation, payload) in CATALOGUE {
        if !mutation {
            continue;
        }
        let input = sample_kwargs(name, true);
        for &(property, ty, optional) in payload.iter().filter(|p| p.2) {
            assert!(optional);
            seen += 1;
            let mut dropped = input.clone();
            dropped.shift_remove(property);
            let (errors, kwargs) = modify_with(name, &input, dropped.clone()).await;
            assert!(errors.is_empty(), "{name}.{property}: {errors:?}");
            assert_eq!(kwargs, Value::from(dropped), "{name}.{property}");

            let mut nulled = input.clone();
            nulled.insert(property.into(), Value::Null);
            let (errors, kwargs) = modify_with(name, &input, nulled.clone()).await;
            assert!(errors.is_empty(), "{name}.{property}: {errors:?}");
            assert_eq!(kwargs, Value::from(nulled), "{name}.{property}");

            let mut mistyped = input.clone();
            let (wrong, actual) = if ty == "string" { (json!(1), "integer") } else { (json!("x"), "string") };
            mistyped.insert(property.into(), wrong);
            let (errors, _) = modify_with(name, &input, mistyped).await;
            assert_eq!(
                errors,
                rejected(name, &format!("{property}: expected {ty}, got {actual}")),
                "{name}.{property}"
            );
        }
    }
    // response, abort_message ×2, selected_emoji, selected_emoji_hash, target_message ×2, reply_reason ×2,
    // reply_message_id (before_send), retry, retry_reason, matched_regex×3 (after_send is fixed).
    assert_eq!(seen, 15);
}

/// A value of another JSON type than `ty`, and the name of its type.
fn mistyped(ty: &str) -> (Value, &'static str) {
    match ty {
        "string" => (json!(5), "integer"),
        "integer" => (json!("7"), "string"),
        "boolean" => (json!(1), "integer"),
        "object" => (json!([]), "array"),
        _ => (json!({"k": 1}), "object"),
    }
}

// The payload column's JSON types; "A property schema is checked for `type`" with "Actual type names:
// `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`", reason `expected {types}, got
// {actual}`.
#[tokio::test]
async fn every_catalogue_property_rejects_a_value_of_another_json_type() {
    for &(name, _, _, mutation, payload) in CATALOGUE {
        if !mutation {
            continue;
        }
        let input = sample_kwargs(name, true);
        for &(property, ty, _) in payload {
            let (wrong, actual) = mistyped(ty);
            let mut candidate = input.clone();
            candidate.insert(property.into(), wrong);
            let base = ty.split('<').next().unwrap();
            let (errors, _) = modify_with(name, &input, candidate).await;
            assert_eq!(
                errors,
                rejected(name, &format!("{property}: expected {base}, got {actual}")),
                "{name}.{property}"
            );
        }
    }
}

// "`integer` accepts any number without fractional part": a catalogue integer given `2.0` passes,
// `2.5` is `expected integer, got number`.
#[tokio::test]
async fn catalogue_integers_accept_whole_numbers_written_as_floats_only() {
    let name = "maisaka.planner.after_response";
    let input = sample_kwargs(name, true);
    let mut whole = input.clone();
    whole.insert("total_tokens".into(), json!(2.0));
    let (errors, kwargs) = modify_with(name, &input, whole.clone()).await;
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(kwargs, Value::from(whole));
    let mut fractional = input.clone();
    fractional.insert("total_tokens".into(), json!(2.5));
    let (errors, _) = modify_with(name, &input, fractional).await;
    assert_eq!(errors, rejected(name, "total_tokens: expected integer, got number"));
}

// "`array<T>`" properties check "`items` (each element, path `key[i]`)"; "`array` without an item type
// has no `items`", so any element passes.
#[tokio::test]
async fn catalogue_arrays_check_their_item_type_only_where_they_have_one() {
    let mut typed_arrays = 0;
    for &(name, _, _, mutation, payload) in CATALOGUE {
        if !mutation {
            continue;
        }
        let input = sample_kwargs(name, true);
        for &(property, ty, _) in payload.iter().filter(|p| p.1.starts_with("array")) {
            let mut candidate = input.clone();
            let expected = match ty {
                "array<string>" => {
                    candidate.insert(property.into(), json!(["ok", 1]));
                    Some(format!("{property}[1]: expected string, got integer"))
                }
                "array<integer>" => {
                    candidate.insert(property.into(), json!([1, 2.5]));
                    Some(format!("{property}[1]: expected integer, got number"))
                }
                "array<object>" => {
                    candidate.insert(property.into(), json!([{}, []]));
                    Some(format!("{property}[1]: expected object, got array"))
                }
                "array" => {
                    candidate.insert(property.into(), json!([1, "two", null, [3], {"four": 4}, 5.5]));
                    None
                }
                other => panic!("{other}"),
            };
            let (errors, kwargs) = modify_with(name, &input, candidate.clone()).await;
            match expected {
                Some(reason) => {
                    typed_arrays += 1;
                    assert_eq!(errors, rejected(name, &reason), "{name}.{property}");
                }
                None => {
                    assert!(errors.is_empty(), "{name}.{property}: {errors:?}");
                    assert_eq!(kwargs, Value::from(candidate), "{name}.{property}");
                }
            }
        }
    }
    // context_texts ×2, entries, raw_content_list, selected_expressions, selected_expression_ids (selection),
    // expressions, jargon_entries.
    assert_eq!(typed_arrays, 8);
}

// ---- catalogue: schemas and their texts ----------------------------------------------------------------

/// The text a property has in `hook_name`, in `locale`.
fn text_of(hook_name: &str, property: &str, locale: Locale) -> &'static str {
    let rows: Vec<&Text> =
        PROPERTY_TEXTS.iter().filter(|t| t.0 == property && (t.1.is_empty() || t.1.contains(&hook_name))).collect();
    assert_eq!(rows.len(), 1, "one text row for {hook_name}.{property}");
    if locale == Locale::En { rows[0].2 } else { rows[0].3 }
}

// The payload column ("Payload fields in schema order with JSON type; every field is required unless
// marked (opt). `array` without an item type has no `items`") and "every payload property carries a
// `description` in the catalogue's locale"; zh-Hans "byte for byte".
#[test]
fn each_catalogue_schema_holds_exactly_its_properties_with_types_and_the_locales_texts() {
    for locale in [Locale::En, Locale::ZhHans] {
        let registry = HookSpecRegistry::with_builtin_catalogue_in(locale);
        assert_eq!(registry.list().len(), 22);
        for &(name, _, _, _, payload) in CATALOGUE {
            let schema = registry.get(name).unwrap().parameters_schema;
            let mut properties = Map::new();
            for &(property, ty, _) in payload {
                let description = text_of(name, property, locale);
                let value = match ty.split_once('<') {
                    Some((base, item)) => json!({
                        "type": base, "items": {"type": item.trim_end_matches('>')}, "description": description
                    }),
                    None => json!({"type": ty, "description": description}),
                };
                properties.insert(property.to_owned(), value);
            }
            let required: Vec<&str> = payload.iter().filter(|p| !p.2).map(|p| p.0).collect();
            let expected = json!({"type": "object", "properties": properties, "required": required});
            assert_eq!(schema, expected, "{name} in {locale:?}");
            let order: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
            assert_eq!(order, payload.iter().map(|p| p.0).collect::<Vec<_>>(), "{name}: schema order");
        }
    }
}

// The rows of the property table that name their hooks: one property, a different text per hook — in
// zh-Hans `items` even differs where the English text is the same.
#[test]
fn properties_shared_by_several_hooks_carry_each_hooks_own_chinese_text() {
    let zh = HookSpecRegistry::with_builtin_catalogue_in(Locale::ZhHans);
    let text = |hook_name: &str, property: &str| {
        zh.get(hook_name).unwrap().parameters_schema["properties"][property]["description"].as_str().unwrap().to_owned()
    };
    assert_eq!(
        text("maisaka.planner.before_request", "items"),
        "即将发给模型的 Context Item 列表；不包含 replay payload。"
    );
    assert_eq!(
        text("maisaka.replyer.before_model_request", "items"),
        "即将发给模型的 Context Items；不包含 replay payload。"
    );
    assert_eq!(text("chat.receive.after_process", "message"), "已完成 `process()` 的序列化 SessionMessage。");
    assert_eq!(text("send_service.after_send", "message"), "本次发送消息的序列化 SessionMessage。");
    assert_eq!(text("send_service.before_send", "reply_message_id"), "被引用消息 ID。");
    assert_eq!(text("maisaka.replyer.after_response", "reply_message_id"), "被回复消息 ID；无目标消息时为空字符串。");
    assert_eq!(text("maisaka.reply.before_post_process", "reply_message_id"), "被回复消息 ID。");
    assert_eq!(
        text("maisaka.replyer.after_response", "response"),
        "replyer 可见正文的兼容只读投影；改写时仅替换正文 Item。"
    );
    assert_eq!(text("chat.command.after_execute", "command_name"), "命令名称。");
    assert_eq!(text("chat.command.before_execute", "command_name"), "命中的命令名称。");
    assert_eq!(
        text("maisaka.replyer.before_request", "task_name"),
        "本次 replyer 请求使用的模型任务名；Hook 可改写该值。"
    );
    assert_eq!(
        text("maisaka.replyer.before_model_request", "requested_model_name"),
        "before_request Hook 请求指定的具体模型名；留空表示按任务策略选择。"
    );
    assert_eq!(text("expression.select.after_selection", "selected_expression_ids"), "当前已选中的表达方式 ID 列表。");
    assert_eq!(
        text("maisaka.replyer.before_request", "selected_expression_ids"),
        "本次 replyer 选中的表达方式编号列表。"
    );
    // `emoji` and `selected_emoji` share their Chinese text but not their English one.
    assert_eq!(
        text("emoji.register.after_build_description", "emoji"),
        text("emoji.maisaka.after_select", "selected_emoji")
    );
    let en = HookSpecRegistry::with_builtin_catalogue();
    assert_eq!(
        en.get("emoji.register.after_build_description").unwrap().parameters_schema["properties"]["emoji"]["description"],
        "The emoji, serialised (mainly file_hash, description, emotions)."
    );
}

// "`with_builtin_catalogue_in(locale)` puts the locale's text into each property's `description`" — and
// nothing else changes: "the hook's own `description` is one English sentence", flags and timeouts are the
// catalogue's.
#[test]
fn the_chinese_catalogue_differs_from_the_english_one_only_in_property_descriptions() {
    let en = HookSpecRegistry::with_builtin_catalogue();
    let zh = HookSpecRegistry::with_builtin_catalogue_in(Locale::ZhHans);
    for (e, z) in en.list().into_iter().zip(zh.list()) {
        assert_eq!(e.name, z.name);
        let (mut es, mut zs) = (e.parameters_schema.clone(), z.parameters_schema.clone());
        for schema in [&mut es, &mut zs] {
            for property in schema["properties"].as_object_mut().unwrap().values_mut() {
                property.as_object_mut().unwrap().remove("description");
            }
        }
        assert_eq!(es, zs, "{}", e.name);
        for (property, value) in e.parameters_schema["properties"].as_object().unwrap() {
            assert_ne!(
                value["description"], z.parameters_schema["properties"][property]["description"],
                "{}.{property}",
                e.name
            );
        }
        let flags = |s: &HookSpec| {
            (
                s.description.clone(),
                s.default_timeout_ms,
                s.allow_blocking,
                s.allow_observe,
                s.allow_abort,
                s.allow_kwargs_mutation,
            )
        };
        assert_eq!(flags(&e), flags(&z), "{}", e.name);
    }
}

// ---- typed payloads on every catalogue hook ---------------------------------------------------------------

// "Typed `P`: ... `modify(p)` overlays `p`'s object on the kwargs: its keys replace, others are kept";
// payloads "ignore unknown keys"; "`message` is a serialised chat message; hosts may pass keys beyond the
// schema".
#[tokio::test]
async fn an_unchanged_typed_payload_hands_every_hook_its_kwargs_back_with_the_hosts_keys() {
    let types = typed_payloads();
    assert_eq!(types.iter().map(|t| t.hook).collect::<Vec<_>>(), CATALOGUE.iter().map(|h| h.0).collect::<Vec<_>>());
    for t in types {
        if !hook(t.hook).3 {
            continue;
        }
        for optional in [true, false] {
            let d = catalogue_dispatcher(Locale::En);
            d.register_plugin("p.t", Source::ThirdParty, vec![(t.echo)()]).unwrap();
            let mut input = sample_kwargs(t.hook, optional);
            input.insert("host_only".into(), json!({"kept": [1, "two"]}));
            let result = d.invoke(t.hook, HookArgs::from(input.clone())).await.unwrap();
            assert!(result.errors.is_empty(), "{}: {:?}", t.hook, result.errors);
            assert_eq!(kwargs_of(&result), Value::from(input), "{} (optionals: {optional})", t.hook);
        }
    }
}

// "failure ⇒ handler failure `invalid payload: {path}: {reason}` (path like `a.b[2]`, serde's reason ...),
// handler not called"; failures read `HookHandler {full} failed: {message}`.
#[tokio::test]
async fn a_mistyped_property_fails_every_typed_payload_with_its_path_and_serdes_reason() {
    for t in typed_payloads() {
        let (property, ty, _) = hook(t.hook).4[0];
        let mut input = sample_kwargs(t.hook, true);
        input.insert(property.into(), mistyped(ty).0);
        let reason = (t.serde_reason)(Value::from(input.clone())).expect("serde refuses it");
        let d = catalogue_dispatcher(Locale::En);
        d.register_plugin("p.t", Source::ThirdParty, vec![(t.echo)()]).unwrap();
        let result = d.invoke(t.hook, HookArgs::from(input.clone())).await.unwrap();
        assert_eq!(
            result.errors,
            [format!("HookHandler p.t.h failed: invalid payload: {property}: {reason}")],
            "{}",
            t.hook
        );
        assert_eq!(kwargs_of(&result), Value::from(input), "{}", t.hook);
    }
}

// "path like `a.b[2]`": an element of a typed catalogue array names its index.
#[tokio::test]
async fn a_mistyped_array_element_of_a_typed_payload_names_its_index() {
    let name = EmojiMaisakaBeforeSelect::HOOK;
    let mut input = sample_kwargs(name, false);
    input.insert("context_texts".into(), json!(["fine", "also fine", 7]));
    let reason = decode_reason::<EmojiMaisakaBeforeSelect>(Value::from(input.clone())).unwrap();
    let d = catalogue_dispatcher(Locale::En);
    d.register_plugin("p.t", Source::ThirdParty, vec![echo_entry::<EmojiMaisakaBeforeSelect>(name)]).unwrap();
    let result = d.invoke(name, HookArgs::from(input)).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler p.t.h failed: invalid payload: context_texts[2]: {reason}")]);
}

// "an error at the document root has no path and reads `invalid payload: {reason}`": a required
// property the host left out.
#[tokio::test]
async fn a_missing_required_property_fails_a_typed_payload_without_a_path() {
    let name = SendServiceAfterSend::HOOK;
    let mut input = sample_kwargs(name, true);
    input.shift_remove("sent");
    let reason = decode_reason::<SendServiceAfterSend>(Value::from(input.clone())).unwrap();
    let d = catalogue_dispatcher(Locale::En);
    d.register_plugin("p.t", Source::ThirdParty, vec![echo_entry::<SendServiceAfterSend>(name)]).unwrap();
    let result = d.invoke(name, HookArgs::from(input)).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler p.t.h failed: invalid payload: {reason}")]);
}

// "an optional property → `Option<T>` (left out when serialising `None`, so an overlay never adds a key the
// host did not send)" and the overlay keeps the others — so `None` cannot remove the host's key ("use
// `HookArgs` to remove keys"); a `null` the host sent decodes as `None` and stays.
#[tokio::test]
async fn setting_an_optional_typed_field_to_none_keeps_the_hosts_value() {
    let name = MaisakaReplyerAfterResponse::HOOK;
    let entry = HookHandlerEntry::typed("h", name, |mut p: MaisakaReplyerAfterResponse, _: HookContext| async move {
        assert_eq!(p.retry, Some(true));
        assert_eq!(p.matched_regex, None);
        p.retry = None;
        p.retry_reason = Some("too long".to_owned());
        HookOutcome::modify(p)
    });
    let d = catalogue_dispatcher(Locale::En);
    d.register_plugin("p.t", Source::ThirdParty, vec![entry]).unwrap();
    let mut input = sample_kwargs(name, false);
    input.insert("retry".into(), json!(true));
    input.insert("matched_regex".into(), Value::Null);
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let mut expected = input;
    expected.insert("retry_reason".into(), json!("too long"));
    assert_eq!(kwargs_of(&result), Value::from(expected));
}

// ---- `#[hook_handler]`: what a declaration registers ----------------------------------------------------

// "`description` | string literal | first doc-comment paragraph, else `""`": the default only applies
// when the key is absent.
#[test]
fn an_explicit_description_replaces_the_doc_comment_even_when_empty() {
    assert_eq!(declared("described_twice").description(), "From the attribute.");
    assert_eq!(declared("described_empty").description(), "");
}

// "`name` | ... | the fn's name | component name; full name = `{plugin_id}.{name}`"; the context
// "carries `hook_name`, `plugin_id`, `full_name`, `mode`".
#[tokio::test]
async fn a_declared_name_replaces_the_fn_name_everywhere() {
    assert!(DeclaredHookHandler::all().iter().all(|h| h.name() != "original_fn_name"));
    let handler = declared("renamed");
    assert_eq!(handler.full_name(), full("renamed"));
    assert_eq!(declared("match").full_name(), full("match"));
    let d = with_declared(Locale::En, &["renamed"]);
    d.invoke_and_wait("sp.named", HookArgs::new()).await.unwrap();
    assert_eq!(
        NAMED_CONTEXT.lock().unwrap().clone(),
        Some(("renamed".to_owned(), full("renamed"), "observe".to_owned()))
    );
}

// "`metadata(k = lit, …)` | string, integer, float or bool literals, in written order".
#[test]
fn metadata_keeps_its_written_order_and_literal_kinds() {
    assert_eq!(
        serde_json::to_string(&declared("with_metadata").metadata()).unwrap(),
        r#"{"zulu":"末尾","alpha":0,"mike":-0.5,"bravo":false,"yankee":9007199254740993}"#
    );
}

// "`order` ... default `"normal"`"; targets sorted by "(mode: blocking 0, observe 1; order: early 0,
// normal 1, late 2; ...; handler name)"; "All observers sort after all blocking handlers, so they see the
// final kwargs".
#[tokio::test]
async fn declared_handlers_without_an_order_run_between_early_and_late_ones() {
    let d = with_declared(Locale::En, &["a_late", "b_default", "c_early", "a_observer"]);
    let result = d.invoke_and_wait("sp.order", HookArgs::new()).await.unwrap();
    let trail = json!(["c_early", "b_default", "a_late"]);
    assert_eq!(kwargs_of(&result), json!({"trail": trail}));
    assert_eq!(TRAIL_SEEN_BY_OBSERVER.lock().unwrap().clone(), Some(trail));
}

// "`timeout_ms` ... default `0` | 0 = the hook spec's default"; catalogue `t` 0 ⇒ "dispatcher default, 60 000".
#[tokio::test]
async fn declared_handlers_without_timeout_ms_get_the_catalogue_timeouts() {
    let d = with_declared(Locale::En, &["budget_zero_hook", "budget_5000_hook", "budget_6000_hook", "budget_own"]);
    let cases = [
        ("chat.command.before_execute", vec![json!(60_000)]),
        ("expression.learn.before_upsert", vec![json!(5_000)]),
        ("maisaka.reply.before_post_process", vec![json!(6_000), json!(4_294_967_295u64)]),
    ];
    for (name, expected) in cases {
        let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
        assert!(result.errors.is_empty(), "{name}: {:?}", result.errors);
        let mut got = result.custom_results.clone();
        got.sort_by_key(|v| v.as_u64());
        assert_eq!(got, expected, "{name}");
    }
}

// "Expiry drops the handler's future ... and records `HookHandler {full} timed out after {n} ms`", `n`
// being the catalogue default for a handler that declares none.
#[tokio::test(start_paused = true)]
async fn declared_handlers_without_timeout_ms_time_out_at_the_catalogue_default() {
    let d = with_declared(Locale::En, &["sleeps_past_5000", "sleeps_past_6000"]);
    for (name, handler, ms) in [
        ("emoji.register.after_build_description", "sleeps_past_5000", 5_000),
        ("maisaka.planner.after_response", "sleeps_past_6000", 6_000),
    ] {
        let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
        assert_eq!(result.errors, [format!("HookHandler {} timed out after {ms} ms", full(handler))]);
    }
}

// ---- `#[hook_handler]`: each signature and its outcome ------------------------------------------------------

// "blocking | `()` | continue, kwargs unchanged", with a typed payload taken by value.
#[tokio::test]
async fn a_typed_handler_returning_unit_continues_with_the_kwargs_unchanged() {
    let d = with_declared(Locale::En, &["typed_unit"]);
    let name = "expression.learn.before_upsert";
    let input = json!({"session_id": "s", "situation": "greeting", "style": "sp-unique-style", "host": 1});
    let result = d.invoke(name, args(input.clone())).await.unwrap();
    assert!(result.errors.is_empty() && !result.aborted, "{result:?}");
    assert_eq!(kwargs_of(&result), input);
    assert!(UPSERT_STYLES.lock().unwrap().contains(&"sp-unique-style".to_owned()));
}

// "`Result<(), E>` ... with `E: Display` | `Err(e)` = handler failure", the message being "`trim(e)`" in
// "`HookHandler {full} failed: {message}`"; a payload taken "by shared reference" and a `&HookContext`.
#[tokio::test]
async fn a_typed_reference_handler_returning_err_fails_with_its_trimmed_display() {
    let d = with_declared(Locale::En, &["typed_ref_result"]);
    let name = "send_service.after_send";
    let mut input = sample_kwargs(name, false);
    input.insert("sent".into(), json!(false));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    let me = full("typed_ref_result");
    assert_eq!(result.errors, [format!("HookHandler {me} failed: not sent by {me}")]);
    assert!(!result.aborted);
    input.insert("sent".into(), json!(true));
    let result = d.invoke(name, HookArgs::from(input)).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
}

// zh-Hans: "`HookHandler {full} 执行失败: {message}`".
#[tokio::test]
async fn a_declared_handlers_failure_reads_in_chinese_under_the_chinese_locale() {
    let d = with_declared(Locale::ZhHans, &["typed_ref_result"]);
    let name = "send_service.after_send";
    let mut input = sample_kwargs(name, false);
    input.insert("sent".into(), json!(false));
    let result = d.invoke(name, HookArgs::from(input)).await.unwrap();
    let me = full("typed_ref_result");
    assert_eq!(result.errors, [format!("HookHandler {me} 执行失败: not sent by {me}")]);
}

// "observe | `()`, `Result<(), E>` | result ignored; `Err` is logged"; "Failures and timeouts are logged at
// warn and never reach the result"; observers see the final kwargs.
#[tokio::test]
async fn an_observers_err_never_reaches_the_result_and_it_sees_the_final_kwargs() {
    let d = with_declared(Locale::En, &["failing_observer", "marks_message"]);
    let input = json!({"message": {"text": "hi", "host": "qq"}, "extra": 1});
    let result = d.invoke_and_wait("chat.receive.before_process", args(input)).await.unwrap();
    let expected = json!({"message": {"text": "hi", "host": "qq", "marked": true}, "extra": 1});
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(kwargs_of(&result), expected);
    assert_eq!(OBSERVED_KWARGS.lock().unwrap().clone(), Some(expected));
}

// A typed observer with `Result<(), E>`: its `Err` is not a result error either.
#[tokio::test]
async fn a_typed_reference_observer_returning_err_leaves_the_result_clean() {
    let d = with_declared(Locale::En, &["typed_ref_observer"]);
    let name = "send_service.after_send";
    let mut input = sample_kwargs(name, false);
    input.insert("sent".into(), json!(false));
    let result = d.invoke_and_wait(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(result.errors.is_empty() && !result.aborted, "{result:?}");
    assert_eq!(kwargs_of(&result), Value::from(input));
}

// "`Result<HookOutcome<P>, E>`": `Ok(modify(p))` overlays `p` (host keys kept) and its custom result is
// kept; `Err(e)` is a failure with `trim(e)` and nothing of the handler is merged.
#[tokio::test]
async fn a_typed_result_outcome_overlays_on_ok_and_fails_on_err() {
    let d = with_declared(Locale::En, &["typed_result_outcome"]);
    let name = "jargon.inference.before_finalize";
    let mut input = sample_kwargs(name, false);
    input.insert("meaning".into(), json!("shorthand"));
    input.insert("is_complete".into(), json!(false));
    input.insert("host_only".into(), json!([1]));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let mut expected = input.clone();
    expected.insert("meaning".into(), json!("SHORTHAND"));
    expected.insert("is_complete".into(), json!(true));
    assert_eq!(kwargs_of(&result), Value::from(expected));
    assert_eq!(result.custom_results, [json!({"count": "checked"})]);

    input.insert("count".into(), json!(-2));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {} failed: negative count -2", full("typed_result_outcome"))]);
    assert!(result.custom_results.is_empty());
    assert_eq!(kwargs_of(&result), Value::from(input));
}

// `Result<HookOutcome, E>` with `HookArgs`: "`modify(args)` replaces them entirely", so a removed key is
// gone; `Err` fails with the trimmed text.
#[tokio::test]
async fn a_hook_args_result_outcome_replaces_on_ok_and_fails_on_err() {
    let d = with_declared(Locale::En, &["args_result_outcome"]);
    let name = "chat.command.before_execute";
    let mut input = sample_kwargs(name, false);
    input.insert("host_extra".into(), json!("drop me"));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let mut expected = input.clone();
    expected.shift_remove("host_extra");
    expected.insert("command_name".into(), json!("renamed_command"));
    assert_eq!(kwargs_of(&result), Value::from(expected));

    input.insert("command_name".into(), json!("boom"));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {} failed: boom", full("args_result_outcome"))]);
    assert_eq!(kwargs_of(&result), Value::from(input));
}

// "`abort_with(p)` (abort keeping the change ...)" on a hook whose `abort` is N: "not allowed ⇒ error `Hook
// {hook} does not allow abort; ignored the abort request from {full}`" and "a modification merged in step 3
// is kept"; the chain goes on.
#[tokio::test]
async fn a_typed_abort_with_on_a_hook_without_abort_keeps_its_overlay_and_goes_on() {
    let d = with_declared(Locale::En, &["typed_abort_with_on_planner", "runs_after_planner_abort"]);
    let name = "maisaka.planner.after_response";
    let mut input = sample_kwargs(name, false);
    input.insert("prompt_tokens".into(), json!(10));
    input.insert("completion_tokens".into(), json!(5));
    input.insert("total_tokens".into(), json!(0));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(!result.aborted && result.stopped_by.is_none());
    assert_eq!(
        result.errors,
        [format!(
            "Hook {name} does not allow abort; ignored the abort request from {}",
            full("typed_abort_with_on_planner")
        )]
    );
    input.insert("total_tokens".into(), json!(15));
    assert_eq!(kwargs_of(&result), Value::from(input));
    assert_eq!(result.custom_results, [json!("later handler ran")]);
}

// A typed `abort()` on a hook that allows abort: "`aborted = true`, `stopped_by = full`"; "later blocking
// handlers ... never start"; `proceed()` continues.
#[tokio::test]
async fn a_typed_abort_stops_a_hook_that_allows_abort() {
    let d = with_declared(Locale::En, &["typed_abort_allowed", "never_after_abort"]);
    let name = "expression.select.before_select";
    let mut input = sample_kwargs(name, false);
    input.insert("max_num".into(), json!(0));
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert!(result.aborted);
    assert_eq!(result.stopped_by, Some(full("typed_abort_allowed")));
    assert!(result.custom_results.is_empty() && result.errors.is_empty());
    assert_eq!(kwargs_of(&result), Value::from(input.clone()));
    input.insert("max_num".into(), json!(2));
    let result = d.invoke(name, HookArgs::from(input)).await.unwrap();
    assert!(!result.aborted);
    assert_eq!(result.custom_results, [json!("ran")]);
}

// A typed `modify` on `send_service.after_send` (`mut` N): "error `Hook {hook} does not allow modifying
// kwargs; ignored modified_kwargs from {full}`".
#[tokio::test]
async fn a_typed_modification_of_send_service_after_send_is_ignored() {
    let d = with_declared(Locale::En, &["typed_modify_fixed"]);
    let name = "send_service.after_send";
    let input = sample_kwargs(name, true);
    let result = d.invoke(name, HookArgs::from(input.clone())).await.unwrap();
    assert_eq!(
        result.errors,
        [format!(
            "Hook {name} does not allow modifying kwargs; ignored modified_kwargs from {}",
            full("typed_modify_fixed")
        )]
    );
    assert_eq!(kwargs_of(&result), Value::from(input));
}

// zh-Hans: "`Hook {hook} 不允许 abort，已忽略 {full} 的 abort 请求`" and "`Hook {hook} 不允许修改 kwargs，已忽略
// {full} 的 modified_kwargs`" for typed handlers on the catalogue hooks that forbid them.
#[tokio::test]
async fn ignored_typed_requests_on_catalogue_hooks_are_reported_in_chinese() {
    let d = with_declared(Locale::ZhHans, &["typed_abort_with_on_planner", "typed_modify_fixed"]);
    let name = "maisaka.planner.after_response";
    let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
    assert_eq!(
        result.errors,
        [format!("Hook {name} 不允许 abort，已忽略 {} 的 abort 请求", full("typed_abort_with_on_planner"))]
    );
    let name = "send_service.after_send";
    let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
    assert_eq!(
        result.errors,
        [format!("Hook {name} 不允许修改 kwargs，已忽略 {} 的 modified_kwargs", full("typed_modify_fixed"))]
    );
}

// `error_policy = "abort"` on a hook that allows it: "`aborted = true`, `stopped_by = full`"; `"log"`
// continues ("they differ only in level" from skip).
#[tokio::test]
async fn declared_error_policies_abort_or_continue_after_a_failure() {
    let d =
        with_declared(Locale::En, &["fails_under_abort", "after_failed_abort", "fails_under_log", "after_failed_log"]);
    let name = "emoji.maisaka.before_select";
    let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
    assert!(result.aborted);
    assert_eq!(result.stopped_by, Some(full("fails_under_abort")));
    assert_eq!(result.errors, [format!("HookHandler {} failed: no emoji today", full("fails_under_abort"))]);
    assert!(result.custom_results.is_empty());

    let name = "chat.command.after_execute";
    let result = d.invoke(name, HookArgs::from(sample_kwargs(name, false))).await.unwrap();
    assert!(!result.aborted);
    assert_eq!(result.errors, [format!("HookHandler {} failed: log me", full("fails_under_log"))]);
    assert_eq!(result.custom_results, [json!("ran")]);
}

// "(without `: {message}` when it is empty)": an `Err` that trims to nothing.
#[tokio::test]
async fn an_err_of_only_whitespace_leaves_the_failure_text_bare() {
    let d = with_declared(Locale::En, &["blank_failure"]);
    let result = d.invoke("sp.failing", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, [format!("HookHandler {} failed", full("blank_failure"))]);
    assert!(FAILING_CALLS.load(Ordering::SeqCst) >= 1);
}

// "The hook name is never put into the kwargs ...; use `HookContext`"; a `HookContext` "by value" carries
// `hook_name`, `plugin_id`, `full_name`, `mode`; echoing the kwargs gives them back exactly.
#[tokio::test]
async fn a_context_by_value_names_the_handler_and_an_echo_returns_the_kwargs_exactly() {
    let d = with_declared(Locale::En, &["ctx_by_value"]);
    let input = json!({"message": {"text": "hi"}, "z_host": 1, "a_host": 2});
    let result = d.invoke("  chat.receive.before_process ", args(input.clone())).await.unwrap();
    assert_eq!(serde_json::to_string(&kwargs_of(&result)).unwrap(), serde_json::to_string(&input).unwrap());
    assert_eq!(
        result.custom_results,
        [json!({
            "hook": "chat.receive.before_process",
            "plugin": PACKAGE,
            "full": full("ctx_by_value"),
            "mode": "blocking",
            "has_hook_name": false
        })]
    );
}

// ---- the worked example: routing replies by thinking level ---------------------------------------------------

fn tool(name: &str, parameters: Value) -> Value {
    json!({"type": "function", "function": {"name": name, "description": format!("{name} tool"), "parameters": parameters}})
}

fn replyer_request(reply_tool_args: Value, extra_prompt: &str) -> Value {
    let mut kwargs = sample_kwargs("maisaka.replyer.before_request", false);
    kwargs.insert("model_name".into(), json!(""));
    kwargs.insert("extra_prompt".into(), json!(extra_prompt));
    kwargs.insert("reply_tool_args".into(), reply_tool_args);
    kwargs.insert("host_trace".into(), json!("t-1"));
    Value::from(kwargs)
}

// "adds to its `function.parameters.properties` a property `thinking_level`: a string with `enum`
// `["normal", "deep"]` ... The property is not required; other definitions are left alone"; "Both
// modifications pass the catalogue schemas".
#[tokio::test]
async fn the_planner_handler_offers_thinking_level_on_reply_only_and_not_as_required() {
    let d = with_declared(Locale::En, &["offer_depth"]);
    let reply_parameters = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    let wait_parameters = json!({"type": "object", "properties": {"seconds": {"type": "integer"}}});
    let mut kwargs = sample_kwargs("maisaka.planner.before_request", false);
    kwargs.insert(
        "tool_definitions".into(),
        json!([tool("wait", wait_parameters.clone()), tool("reply", reply_parameters)]),
    );
    kwargs.insert("host_trace".into(), json!("t-1"));
    let result = d.invoke("maisaka.planner.before_request", HookArgs::from(kwargs.clone())).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let out = kwargs_of(&result);
    let definitions = out["tool_definitions"].as_array().unwrap();
    assert_eq!(definitions[0], tool("wait", wait_parameters));
    let reply = &definitions[1]["function"]["parameters"];
    assert_eq!(reply["required"], json!(["text"]));
    assert_eq!(reply["properties"]["text"], json!({"type": "string"}));
    let level = &reply["properties"]["thinking_level"];
    assert_eq!((&level["type"], &level["enum"]), (&json!("string"), &json!(["normal", "deep"])));
    assert!(level["description"].as_str().unwrap().contains("deep"));
    assert_eq!(out["host_trace"], "t-1");
    assert_eq!(out["items"], kwargs["items"]);
}

// "For `deep` it sets `model_name` to a stronger model ... and appends to `extra_prompt` an instruction
// ... (after a line feed when `extra_prompt` is not empty), returning `modify`; for anything else (absent,
// `normal`) it returns `()` and the request is unchanged."
#[tokio::test]
async fn the_replyer_handler_routes_deep_replies_and_leaves_the_rest_unchanged() {
    let d = with_declared(Locale::En, &["route_depth"]);
    let name = "maisaka.replyer.before_request";
    for (extra, expected_extra) in [("", CAREFUL.to_owned()), ("Be brief.", format!("Be brief.\n{CAREFUL}"))] {
        let input = replyer_request(json!({"thinking_level": "deep", "tone": "warm"}), extra);
        let result = d.invoke(name, args(input.clone())).await.unwrap();
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        let mut expected = input;
        expected["model_name"] = json!(STRONG_MODEL);
        expected["extra_prompt"] = json!(expected_extra);
        assert_eq!(kwargs_of(&result), expected);
    }
    for tool_args in [json!({"thinking_level": "normal"}), json!({}), json!({"thinking_level": "DEEP"})] {
        let input = replyer_request(tool_args, "Be brief.");
        let result = d.invoke(name, args(input.clone())).await.unwrap();
        assert!(result.errors.is_empty() && result.custom_results.is_empty(), "{result:?}");
        assert_eq!(kwargs_of(&result), input);
    }
}
