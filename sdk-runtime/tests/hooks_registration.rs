//! Registering a plugin's handler batch: every check in both locales, the order of
//! the checks, atomicity.

use serde_json::json;
use toolhook::Locale;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookHandlerManifest, HookSpec, HookSpecRegistry};

fn dispatcher(locale: Locale, validate: bool) -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    for spec in [
        HookSpec::new("demo.hook"),
        HookSpec { allow_blocking: false, ..HookSpec::new("demo.observe_only") },
        HookSpec { allow_observe: false, ..HookSpec::new("demo.blocking_only") },
        HookSpec { allow_abort: false, ..HookSpec::new("demo.noabort") },
    ] {
        specs.register(spec).unwrap();
    }
    HookDispatcher::builder().specs(specs).locale(locale).validate_hooks(validate).build()
}

fn noop(name: &str, hook: &str) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, |_: HookArgs, _: HookContext| async {})
}

fn manifest(value: serde_json::Value) -> HookHandlerEntry {
    let manifest: HookHandlerManifest = serde_json::from_value(value).unwrap();
    HookHandlerEntry::from_manifest(manifest, |_: HookArgs, _: HookContext| async {})
}

fn error(d: &HookDispatcher, entries: Vec<HookHandlerEntry>) -> String {
    d.register_plugin("p.x", Source::ThirdParty, entries).unwrap_err().to_string()
}

fn every_mistake() -> Vec<(&'static str, &'static str, Vec<HookHandlerEntry>)> {
    vec![
        (
            "HookHandler p.x.h subscribes to unregistered hook: no.such.hook",
            "HookHandler p.x.h 声明了未注册的 Hook: no.such.hook",
            vec![noop("h", "no.such.hook")],
        ),
        (
            "HookHandler p.x.h cannot register as blocking: hook demo.observe_only does not allow blocking handlers",
            "HookHandler p.x.h 不能注册为 blocking：Hook demo.observe_only 不允许 blocking 处理器",
            vec![noop("h", "demo.observe_only")],
        ),
        (
            "HookHandler p.x.h cannot register as observe: hook demo.blocking_only does not allow observe handlers",
            "HookHandler p.x.h 不能注册为 observe：Hook demo.blocking_only 不允许 observe 处理器",
            vec![noop("h", "demo.blocking_only").mode(HookMode::Observe)],
        ),
        (
            "HookHandler p.x.h cannot use error_policy=abort: hook demo.noabort does not allow abort",
            "HookHandler p.x.h 不能使用 error_policy=abort：Hook demo.noabort 不允许 abort",
            vec![noop("h", "demo.noabort").error_policy(ErrorPolicy::Abort)],
        ),
        (
            "invalid HookHandler mode: sideways",
            "HookHandler 模式不合法: sideways",
            vec![manifest(json!({"name": "h", "hook": "demo.hook", "mode": "sideways"}))],
        ),
        (
            "invalid HookHandler order slot: first",
            "HookHandler 顺序槽位不合法: first",
            vec![manifest(json!({"name": "h", "hook": "demo.hook", "order": " First "}))],
        ),
        (
            "invalid HookHandler error policy: explode",
            "HookHandler 异常处理策略不合法: explode",
            vec![manifest(json!({"name": "h", "hook": "demo.hook", "error_policy": "explode"}))],
        ),
        ("HookHandler hook name must not be empty", "HookHandler 的 hook 名称不能为空", vec![noop("h", "  ")]),
        (
            "component timeout_ms cannot be negative: -5",
            "component timeout_ms cannot be negative: -5",
            vec![manifest(json!({"name": "h", "hook": "demo.hook", "timeout_ms": -5}))],
        ),
        (
            "duplicate HookHandler p.x.h",
            "HookHandler p.x.h 重复声明",
            vec![noop("h", "demo.hook"), noop(" h ", "demo.hook").mode(HookMode::Observe)],
        ),
    ]
}

#[test]
fn every_mistake_has_its_text_in_english() {
    for (en, _, entries) in every_mistake() {
        assert_eq!(error(&dispatcher(Locale::En, true), entries), en);
    }
}

#[test]
fn every_mistake_has_its_text_in_simplified_chinese() {
    for (_, zh, entries) in every_mistake() {
        assert_eq!(error(&dispatcher(Locale::ZhHans, true), entries), zh);
    }
}

#[test]
fn manifest_strings_are_trimmed_and_lower_cased_and_empty_means_the_default() {
    let d = dispatcher(Locale::En, true);
    let entries = vec![
        manifest(
            json!({"name": "a", "hook": " demo.hook ", "mode": " OBSERVE ", "order": "Early", "error_policy": "LOG"}),
        ),
        manifest(
            json!({"name": "b", "hook": "demo.hook", "mode": "", "order": "", "error_policy": "", "timeout_ms": 0}),
        ),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
}

#[test]
fn entries_are_checked_in_order_and_each_entry_values_first() {
    let d = dispatcher(Locale::En, true);
    let entries = vec![noop("a", "no.such.hook"), manifest(json!({"name": "b", "hook": "demo.hook", "mode": "x"}))];
    assert_eq!(error(&d, entries), "HookHandler p.x.a subscribes to unregistered hook: no.such.hook");
    let entries = vec![manifest(json!({"name": "a", "hook": "no.such.hook", "mode": "x"}))];
    assert_eq!(error(&d, entries), "invalid HookHandler mode: x");
    let entries = vec![noop("a", "demo.hook"), noop("a", "no.such.hook")];
    assert_eq!(error(&d, entries), "duplicate HookHandler p.x.a");
}

#[test]
fn without_validation_only_the_values_and_duplicates_are_checked() {
    let d = dispatcher(Locale::En, false);
    let entries = vec![
        noop("unknown", "no.such.hook"),
        noop("blocking", "demo.observe_only"),
        noop("observe", "demo.blocking_only").mode(HookMode::Observe),
        noop("abort", "demo.noabort").error_policy(ErrorPolicy::Abort),
    ];
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    assert_eq!(error(&d, vec![noop("h", "")]), "HookHandler hook name must not be empty");
}

#[tokio::test]
async fn a_rejected_batch_keeps_the_plugins_previous_handlers() {
    let d = dispatcher(Locale::En, true);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let first = HookHandlerEntry::new("old", "demo.hook", move |_: HookArgs, ctx: HookContext| {
        let _ = tx.send(ctx.full_name().to_owned());
        async {}
    });
    d.register_plugin("p", Source::ThirdParty, vec![first]).unwrap();
    assert!(d.register_plugin("p", Source::ThirdParty, vec![noop("new", "demo.hook"), noop("bad", "nope")]).is_err());
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(rx.try_recv().as_deref(), Ok("p.old"));
}

#[tokio::test]
async fn registering_again_replaces_the_plugins_handlers() {
    let d = dispatcher(Locale::En, true);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let entry = |name: &str| {
        let tx = tx.clone();
        HookHandlerEntry::new(name, "demo.hook", move |_: HookArgs, ctx: HookContext| {
            let _ = tx.send(ctx.full_name().to_owned());
            async {}
        })
    };
    d.register_plugin("p", Source::ThirdParty, vec![entry("old")]).unwrap();
    d.register_plugin("p", Source::ThirdParty, vec![entry("new")]).unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(rx.try_recv().as_deref(), Ok("p.new"));
    assert!(rx.try_recv().is_err());
}

#[tokio::test]
async fn builtin_plugins_run_first_within_a_slot() {
    let d = dispatcher(Locale::En, true);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let entry = |name: &str| {
        let tx = tx.clone();
        HookHandlerEntry::new(name, "demo.hook", move |_: HookArgs, ctx: HookContext| {
            let _ = tx.send(ctx.full_name().to_owned());
            async {}
        })
    };
    d.register_plugin("aa.ext", Source::ThirdParty, vec![entry("h")]).unwrap();
    d.register_plugin("zz.core", Source::Builtin, vec![entry("h")]).unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(rx.try_recv().as_deref(), Ok("zz.core.h"));
    assert_eq!(rx.try_recv().as_deref(), Ok("aa.ext.h"));
}

#[test]
fn the_default_dispatcher_knows_the_catalogue() {
    let d = HookDispatcher::new();
    assert_eq!(d.specs().list().len(), 22);
    d.register_plugin("p", Source::ThirdParty, vec![noop("h", toolhook::hooks::SEND_SERVICE_AFTER_SEND)]).unwrap();
    let error = d
        .register_plugin(
            "p",
            Source::ThirdParty,
            vec![noop("h", toolhook::hooks::SEND_SERVICE_AFTER_SEND).error_policy(ErrorPolicy::Abort)],
        )
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "HookHandler p.h cannot use error_policy=abort: hook send_service.after_send does not allow abort"
    );
}
