//! Log lines stay English under zh-Hans (a hook handler's failure, an observer's invalid payload,
//! a plugin's left-out handler), and the registry's argument limits at small settings: a short
//! text is too large or too deep exactly as the rules count.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext};
use toolhook::{Locale, ToolArguments, ToolInvocation, hook_handler, plugin, tool};
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};
use toolhook_runtime::{PluginHost, PluginSet, PluginToolProvider, RegistryConfig, Source, ToolRegistry};

// ---- helpers --------------------------------------------------------------------------------------

#[path = "common/logs.rs"]
mod logs;
use logs::{has_cjk, logged_at};

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

// ==== log lines are English under zh-Hans ============================================================

// The rules: "zh-Hans texts are the reference's, byte for byte. Log lines are English". The whole
// line is English, the failure's own words too (a plugin not loaded, an invalid payload, a missing
// timer), while the dispatch result keeps the dispatcher's locale.
#[tokio::test]
async fn a_zh_hans_dispatcher_logs_a_not_loaded_handlers_failure_in_english() {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec::new("rv.hook")).unwrap();
    let d = HookDispatcher::builder().specs(specs).locale(Locale::ZhHans).build();
    d.register_plugin(
        "rvp",
        Source::ThirdParty,
        vec![
            HookHandlerEntry::new("h", "rv.hook", |_: HookArgs, _: HookContext| async { Ok::<(), String>(()) })
                .error_policy(ErrorPolicy::Log),
        ],
    )
    .unwrap();
    d.set_plugin_loaded("rvp", false);
    let (dispatched, log) =
        logged_at(tracing::Level::WARN, async { d.invoke("rv.hook", args(json!({}))).await.unwrap() }).await;
    // The result's text is the dispatcher's locale, as it should be.
    assert_eq!(dispatched.errors, ["HookHandler rvp.h 执行失败: 插件 rvp 未加载"]);
    assert!(log.contains("HookHandler rvp.h failed"), "{log}");
    assert!(!has_cjk(&log), "a Chinese text in an English log line: {log}");
}

#[derive(serde::Serialize, serde::Deserialize)]
struct RvText {
    text: String,
}

// The same for a typed handler whose payload does not decode, here as an observer (whose failures
// are only logged, `observe` → warn): the line reads `HookHandler rvq.o failed: 载荷无效: …`.
#[tokio::test]
async fn a_zh_hans_dispatcher_logs_an_observers_invalid_payload_in_english() {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec::new("rv.typed")).unwrap();
    let d = HookDispatcher::builder().specs(specs).locale(Locale::ZhHans).build();
    d.register_plugin(
        "rvq",
        Source::ThirdParty,
        vec![
            HookHandlerEntry::typed("o", "rv.typed", |_: RvText, _: HookContext| async {})
                .mode(toolhook::hooks::HookMode::Observe),
        ],
    )
    .unwrap();
    let ((), log) = logged_at(tracing::Level::WARN, async {
        d.invoke("rv.typed", args(json!({"text": 5}))).await.unwrap();
        d.wait_observers().await;
    })
    .await;
    assert!(log.contains("HookHandler rvq.o failed"), "{log}");
    assert!(!has_cjk(&log), "a Chinese text in an English log line: {log}");
}

/// A plugin whose hook handler names a hook nobody declared.
#[derive(Default, Debug)]
pub struct RvRefused;

#[plugin(id = "rv.refused")]
impl RvRefused {
    #[hook_handler("rv.nobody_declared_this", custom = true)]
    async fn stray(&self, _args: HookArgs) {}
}

// The same rule for the plugin host: a hook handler the dispatcher refuses is left out and logged
// ("component left out; the rest of the plugin loads"), with the refusal rendered in the host's
// locale, so a zh-Hans host's warn line carries `HookHandler rv.refused.stray 声明了未注册的 Hook: …`.
// (`fail` logs "failed to load: {zh-Hans reason}" the same way: config errors, a refused batch.)
#[tokio::test]
async fn a_zh_hans_plugin_host_logs_a_left_out_hook_handler_in_english() {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    let dispatcher = HookDispatcher::builder().locale(Locale::ZhHans).build();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["rv.refused"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .build();
    let (report, log) = logged_at(tracing::Level::WARN, host.load_all()).await;
    assert_eq!(report.problems().len(), 1, "{:?}", report.problems());
    // The report's text is the host's locale, as it should be.
    assert!(has_cjk(&report.problems()[0].message), "{:?}", report.problems());
    assert!(log.contains("component left out"), "{log}");
    assert!(!has_cjk(&log), "a Chinese text in an English log line: {log}");
    host.shutdown().await;
}

// ==== argument limits at small settings =====================================================================

/// Echoes its argument.
#[tool]
fn rv_any(
    /// Anything.
    a: Option<Value>,
) -> String {
    format!("{a:?}")
}

async fn limited(bytes: usize, depth: usize, arguments: impl Into<ToolArguments>) -> Result<String, String> {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(bytes).max_argument_depth(depth));
    registry.register_provider(PluginToolProvider::from_declared());
    let result = registry.invoke(ToolInvocation::new("rv_any", arguments), None).await;
    if result.success { Ok(result.content) } else { Err(result.error_message) }
}

// The rules: "size is the byte length of the arguments text; depth counts nested arrays
// and objects, the top-level object being 1", at limits of 0, 1 and 2 and texts as short as the
// limits, where the quick check decides. Passes: the quick check answers as the full check does.
#[tokio::test]
async fn short_texts_at_small_limits_are_too_large_or_too_deep_as_the_rules_say() {
    let too_deep =
        |n: usize| Err(format!("Tool rv_any failed: InvalidArguments: arguments are nested deeper than {n} levels"));
    let too_large =
        |n: usize| Err(format!("Tool rv_any failed: InvalidArguments: arguments are larger than {n} bytes"));
    assert_eq!(limited(1024, 0, "{}").await, too_deep(0));
    assert_eq!(limited(1024, 1, "{}").await, Ok("None".to_owned()));
    assert_eq!(limited(1024, 1, r#"{"a":{}}"#).await, too_deep(1));
    assert_eq!(limited(1024, 2, r#"{"a":{}}"#).await, Ok("Some(Object {})".to_owned()));
    assert_eq!(limited(1024, 2, r#"{"a":[[]]}"#).await, too_deep(2));
    assert_eq!(limited(0, 64, "{}").await, too_large(0));
    assert_eq!(limited(1, 64, "{}").await, too_large(1));
    assert_eq!(limited(2, 64, "{}").await, Ok("None".to_owned()));
    // Empty text is `{}`: nothing to be too large or too deep.
    assert_eq!(limited(0, 0, "").await, Ok("None".to_owned()));
    // Size is checked before depth.
    assert_eq!(limited(1, 0, "{}").await, too_large(1));
    // A value counts as its compact JSON.
    assert_eq!(limited(1, 64, json!({})).await, too_large(1));
    assert_eq!(limited(64, 0, json!({})).await, too_deep(0));
}
