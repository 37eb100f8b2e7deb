//! The sentences a dispatch reports in `HookDispatchResult::errors`, checked word for word with
//! the rest of what the caller sees (`aborted`, `stopped_by`, `kwargs`): the zh-Hans texts of a
//! timeout, a rejected modification, a skipped blocking handler and an ignored modification; both
//! ignored requests of an outcome that modifies and aborts a hook that allows neither; and a
//! failing handler whose abort policy its hook does not allow.

use serde_json::{Value, json};
use std::time::Duration;
use toolhook::Locale;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookOrder, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatchResult, HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

const HOOK: &str = "demo.hook";
const PLUGIN: &str = "p";

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).unwrap()
}

/// The arguments every test fires the hook with.
fn input() -> Value {
    json!({"text": "hi"})
}

/// A dispatcher that knows only `spec`, with plugin [`PLUGIN`]'s `handlers` registered.
fn dispatcher(locale: Locale, validate_hooks: bool, spec: HookSpec, handlers: Vec<HookHandlerEntry>) -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    specs.register(spec).unwrap();
    let d = HookDispatcher::builder().specs(specs).locale(locale).validate_hooks(validate_hooks).build();
    d.register_plugin(PLUGIN, Source::ThirdParty, handlers).unwrap();
    d
}

fn zh(spec: HookSpec, handlers: Vec<HookHandlerEntry>) -> HookDispatcher {
    dispatcher(Locale::ZhHans, true, spec, handlers)
}

/// A blocking handler of [`HOOK`] that returns `outcome` on every call.
fn returning(name: &str, outcome: HookOutcome) -> HookHandlerEntry {
    HookHandlerEntry::new(name, HOOK, move |_: HookArgs, _: HookContext| std::future::ready(outcome.clone()))
}

/// A handler that replaces the arguments with `kwargs`.
fn modifying(name: &str, kwargs: Value) -> HookHandlerEntry {
    returning(name, HookOutcome::modify(args(kwargs)))
}

async fn fire(d: &HookDispatcher) -> HookDispatchResult {
    d.invoke(HOOK, args(input())).await.unwrap()
}

/// Asserts a dispatch that was not stopped, with these errors and final arguments.
fn assert_continued(result: &HookDispatchResult, errors: &[&str], kwargs: Value) {
    assert_eq!(result.errors, errors);
    assert!(!result.aborted);
    assert_eq!(result.stopped_by, None);
    assert_eq!(result.kwargs, args(kwargs));
}

// ---- zh-Hans ------------------------------------------------------------------------------------

#[tokio::test(start_paused = true)]
async fn a_timeout_is_reported_in_chinese() {
    let slow = HookHandlerEntry::new("slow", HOOK, |_: HookArgs, _: HookContext| {
        tokio::time::sleep(Duration::from_millis(1000))
    })
    .timeout(Duration::from_millis(50));
    let d = zh(HookSpec::new(HOOK), vec![slow]);
    assert_continued(&fire(&d).await, &["HookHandler p.slow 执行超时，已超过 50ms"], input());
}

#[tokio::test]
async fn a_modification_the_schema_rejects_is_dropped_with_a_chinese_reason() {
    let spec = HookSpec { parameters_schema: json!({"text": {"type": "string"}}), ..HookSpec::new(HOOK) };
    let d = zh(spec, vec![modifying("h", json!({"text": 5}))]);
    assert_continued(
        &fire(&d).await,
        &["Hook demo.hook 的参数校验失败，已丢弃 p.h 的 modified_kwargs：text: 应为 string，实际为 integer"],
        input(),
    );
}

#[tokio::test]
async fn a_blocking_handler_on_a_hook_without_blocking_is_skipped_in_chinese() {
    let spec = HookSpec { allow_blocking: false, ..HookSpec::new(HOOK) };
    let d = dispatcher(Locale::ZhHans, false, spec, vec![modifying("h", json!({"text": "changed"}))]);
    assert_continued(&fire(&d).await, &["Hook demo.hook 不允许 blocking 处理器，已跳过 p.h"], input());
}

#[tokio::test]
async fn a_modification_of_a_fixed_hook_is_ignored_in_chinese() {
    let spec = HookSpec { allow_kwargs_mutation: false, ..HookSpec::new(HOOK) };
    let d = zh(spec, vec![modifying("h", json!({"text": "changed"}))]);
    assert_continued(&fire(&d).await, &["Hook demo.hook 不允许修改 kwargs，已忽略 p.h 的 modified_kwargs"], input());
}

#[tokio::test]
async fn modifying_and_aborting_a_hook_that_allows_neither_reports_both_mutation_first() {
    let spec = HookSpec { allow_kwargs_mutation: false, allow_abort: false, ..HookSpec::new(HOOK) };
    let d = zh(spec, vec![returning("h", HookOutcome::abort_with(args(json!({"text": "changed"}))))]);
    assert_continued(
        &fire(&d).await,
        &[
            "Hook demo.hook 不允许修改 kwargs，已忽略 p.h 的 modified_kwargs",
            "Hook demo.hook 不允许 abort，已忽略 p.h 的 abort 请求",
        ],
        input(),
    );
}

// ---- error policies -----------------------------------------------------------------------------

#[tokio::test]
async fn an_abort_policy_the_hook_does_not_allow_records_the_failure_and_continues() {
    let spec = HookSpec { allow_abort: false, ..HookSpec::new(HOOK) };
    let failing = HookHandlerEntry::new("fail", HOOK, |_: HookArgs, _: HookContext| async { Err::<(), _>("boom") })
        .error_policy(ErrorPolicy::Abort);
    let next = modifying("next", json!({"text": "next ran"})).order(HookOrder::Late);
    let d = dispatcher(Locale::En, false, spec, vec![failing, next]);
    assert_continued(&fire(&d).await, &["HookHandler p.fail failed: boom"], json!({"text": "next ran"}));
}
