//! Plugins: collection, lifecycle, config, hook handlers of plugins, and what calls see at each
//! state.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{ConfigScope, Locale, PluginContext, ToolInvocation, hook_handler, plugin, schemars, serde, tool};
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::{
    ConfigError, HostClassification, MemoryConfigSource, PluginHost, PluginSet, PluginState, RegistryConfig,
    ToolRegistry, normalise,
};

/// Events every test plugin appends to, per plugin id.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap().push(e.into());
}

fn events_of(prefix: &str) -> Vec<String> {
    EVENTS.lock().unwrap().iter().filter(|e| e.starts_with(prefix)).cloned().collect()
}

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn host(ids: &[&str], registry: &ToolRegistry, dispatcher: &HookDispatcher) -> PluginHost {
    PluginHost::builder().plugins(PluginSet::collect().only(ids)).registry(registry).dispatcher(dispatcher).build()
}

// ---- a plugin with config and lifecycle ---------------------------------------------------------

/// How the weather plugin behaves.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq, Default)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct WeatherConfig {
    /// The forecast service's key.
    pub api_key: String,
    /// Forecast behaviour.
    pub behaviour: Behaviour,
}

/// Forecast behaviour.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct Behaviour {
    /// `fast` or `slow`.
    pub mode: String,
    /// Days to forecast.
    pub days: u8,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour { mode: "fast".into(), days: 3 }
    }
}

#[derive(Default)]
pub struct Weather {
    loads: AtomicUsize,
}

/// Weather forecasts.
#[plugin(id = "acme.weather", name = "Weather", config = WeatherConfig, config_subscriptions = ["bot"])]
impl Weather {
    async fn on_load(&self, ctx: &PluginContext) -> Result<(), String> {
        self.loads.fetch_add(1, Ordering::SeqCst);
        let config = ctx.config::<WeatherConfig>().ok_or("no config")?;
        event(format!("acme.weather on_load mode={}", config.behaviour.mode));
        Ok(())
    }

    async fn on_unload(&self) -> Result<(), String> {
        event("acme.weather on_unload");
        Err("disk full".into())
    }

    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        event(format!("acme.weather on_config_update {scope} {} {version}", config["behaviour"]["mode"]));
    }

    /// Look up the forecast for a city.
    #[tool(core_tool = true)]
    async fn forecast(
        &self,
        /// The city.
        city: String,
    ) -> String {
        format!("{city}: sunny (loaded {} time(s))", self.loads.load(Ordering::SeqCst))
    }

    /// Current conditions.
    #[tool]
    fn now(&self) -> &'static str {
        "sunny"
    }

    #[hook_handler("send_service.before_send", order = "late")]
    async fn tag(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("tagged_by", "acme.weather");
        HookOutcome::modify(args)
    }
}

#[tokio::test]
async fn a_plugin_is_collected_with_its_components_sorted_by_name() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect();
    let plugin = set.get("acme.weather").unwrap();
    assert_eq!(plugin.name(), "Weather");
    assert_eq!(plugin.version(), env!("CARGO_PKG_VERSION"));
    assert_eq!(plugin.description(), "Weather forecasts.");
    assert!(!plugin.is_default_plugin());
    assert_eq!(plugin.tools().iter().map(|t| t.name()).collect::<Vec<_>>(), ["forecast", "now"]);
    assert_eq!(plugin.hook_handlers().iter().map(|h| h.full_name()).collect::<Vec<_>>(), ["acme.weather.tag"]);
    assert!(plugin.problems().is_empty(), "{:?}", plugin.problems());
}

#[tokio::test]
async fn a_loaded_plugin_serves_its_tools_and_hook_handlers_on_one_instance() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["acme.weather"], &registry, &dispatcher);
    let outcomes = host.load_all().await;
    assert_eq!(outcomes.outcomes()[0].state, PluginState::Loaded, "{outcomes:?}");
    let result = registry.invoke(ToolInvocation::new("forecast", r#"{"city":"Oslo"}"#), None).await;
    assert_eq!(result.content, "Oslo: sunny (loaded 1 time(s))");
    assert_eq!(result.metadata["plugin_id"], "acme.weather");
    // A sync tool's result (run on the blocking pool) names its plugin too.
    let now = registry.invoke(ToolInvocation::new("now", ""), None).await;
    assert_eq!((now.content.as_str(), &now.metadata["plugin_id"]), ("sunny", &json!("acme.weather")));
    assert_eq!(serde_json::to_value(&now.metadata).unwrap(), json!({"plugin_id": "acme.weather"}));
    let kwargs = json!({"message": {}, "typing": false, "set_reply": false, "storage_message": true, "show_log": true});
    let dispatched = dispatcher.invoke_with("send_service.before_send", &kwargs).await.unwrap();
    assert_eq!(dispatched.kwargs.get("tagged_by"), Some(&json!("acme.weather")), "{dispatched:?}");
    host.shutdown().await;
}

// ---- lifecycle order -----------------------------------------------------------------------------

static GATE: Notify = Notify::const_new();

#[derive(Default)]
pub struct Slow;

#[plugin(id = "acme.slow")]
impl Slow {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("acme.slow on_load start");
        GATE.notified().await;
        event("acme.slow on_load done");
    }

    /// Slow tool.
    #[tool]
    async fn slow_tool(&self) -> &'static str {
        "ran"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn slow_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

#[tokio::test]
async fn components_run_only_after_on_load_succeeded() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["acme.slow"], &registry, &dispatcher);
    let loading = tokio::spawn({
        let host = host.clone();
        async move { host.load_all().await }
    });
    while events_of("acme.slow on_load start").is_empty() {
        tokio::task::yield_now().await;
    }
    assert_eq!(host.state("acme.slow"), Some(PluginState::Loading));
    assert_eq!(registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect::<Vec<_>>(), ["slow_tool"]);
    let early = registry.invoke(ToolInvocation::new("slow_tool", ""), None).await;
    assert_eq!(early.error_message, "Tool slow_tool failed: PluginNotLoaded: plugin acme.slow is not loaded");
    let hooked = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert_eq!(hooked.errors, ["HookHandler acme.slow.slow_hook failed: plugin acme.slow is not loaded"]);
    GATE.notify_one();
    let outcomes = loading.await.unwrap();
    assert_eq!(outcomes.outcomes()[0].state, PluginState::Loaded);
    assert_eq!(registry.invoke(ToolInvocation::new("slow_tool", ""), None).await.content, "ran");
    let hooked = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert!(hooked.errors.is_empty(), "{hooked:?}");
}

#[tokio::test]
async fn a_tool_called_before_its_plugin_is_unloaded_is_not_reached_after() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["acme.weather"], &registry, &dispatcher);
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    let call = || registry.invoke(ToolInvocation::new("forecast", r#"{"city": "Oslo"}"#), None);
    for _ in 0..3 {
        let result = call().await;
        assert!(result.content.starts_with("Oslo: sunny"), "{result:?}");
        assert_eq!(result.metadata["plugin_id"], "acme.weather");
    }
    host.unload("acme.weather").await;
    assert_eq!(call().await.error_message, "Tool not found: forecast");
}

/// Set when the `acme.dropped` instance is dropped.
static DROPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[derive(Default)]
pub struct Dropped;

impl Drop for Dropped {
    fn drop(&mut self) {
        DROPPED.store(true, Ordering::SeqCst);
    }
}

/// A plugin that says when it is gone.
#[plugin(id = "acme.dropped")]
impl Dropped {
    /// Answer.
    #[tool(core_tool = true)]
    async fn still_here(&self) -> &'static str {
        "here"
    }
}

#[tokio::test]
async fn an_unloaded_plugin_is_let_go_although_its_tools_were_called() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["acme.dropped"], &registry, &dispatcher);
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    for _ in 0..3 {
        assert_eq!(registry.invoke(ToolInvocation::new("still_here", "{}"), None).await.content, "here");
    }
    host.unload("acme.dropped").await;
    assert!(DROPPED.load(Ordering::SeqCst), "the unloaded plugin's instance is still alive");
}

#[derive(Default)]
pub struct Broken;

#[plugin(id = "acme.broken")]
impl Broken {
    async fn on_load(&self, _ctx: &PluginContext) -> Result<(), String> {
        Err("no key".into())
    }

    async fn on_unload(&self) {
        event("acme.broken on_unload");
    }

    /// Broken forecast.
    #[tool]
    async fn broken_forecast(&self) {}
}

#[tokio::test]
async fn a_failed_on_load_takes_the_plugin_out_and_never_unloads_it() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let broken = host(&["acme.broken"], &registry, &dispatcher);
    let outcomes = broken.load_all().await;
    assert_eq!(outcomes.outcomes()[0].state, PluginState::Failed);
    assert_eq!(outcomes.outcomes()[0].reason.as_deref(), Some("no key"));
    assert!(registry.list_tools(None).await.is_empty());
    let result = registry.invoke(ToolInvocation::new("broken_forecast", ""), None).await;
    assert_eq!(result.error_message, "Tool not found: broken_forecast (plugin acme.broken failed to load: no key)");
    // A registry in zh-Hans says why in its own words around the plugin's.
    let zh = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    let host_zh = host(&["acme.broken"], &zh, &HookDispatcher::new());
    let _ = host_zh.load_all().await;
    let result = zh.invoke(ToolInvocation::new("broken_forecast", ""), None).await;
    assert_eq!(result.error_message, "未找到工具：broken_forecast（插件 acme.broken 加载失败：no key）");
    host_zh.shutdown().await;
    broken.shutdown().await;
    assert!(events_of("acme.broken on_unload").is_empty());
}

#[derive(Default)]
pub struct Lost;

#[plugin(id = "acme.lost")]
impl Lost {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("acme.lost on_load");
    }

    /// Lost tool.
    #[tool]
    async fn lost_tool(&self) {}

    #[hook_handler("no.such.hook", custom = true)]
    async fn lost_hook(&self, args: HookArgs) {
        let _ = args;
    }
}

#[tokio::test]
async fn a_rejected_handler_is_left_out_loudly_and_its_plugin_still_loads() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["acme.lost"], &registry, &dispatcher);
    let report = host.load_all().await;
    assert_eq!(report.outcomes()[0].state, PluginState::Loaded);
    let problem = &report.problems()[0];
    assert_eq!(problem.component.as_deref(), Some("hook handler lost_hook"));
    assert_eq!(problem.message, "HookHandler acme.lost.lost_hook subscribes to unregistered hook: no.such.hook");
    let error = report.into_result().unwrap_err().to_string();
    assert!(error.contains("plugin acme.lost, hook handler lost_hook (left out)"), "{error}");
    let names: Vec<String> = registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect();
    assert_eq!(names, ["lost_tool"], "its sibling tool is served");
    assert_eq!(events_of("acme.lost on_load").len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn unload_and_shutdown_run_on_unload_in_reverse_load_order() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let set = PluginSet::collect().only(["acme.weather", "zz.core", "aa.ext"]);
    let host =
        PluginHost::builder().plugins(set).registry(&registry).dispatcher(&dispatcher).builtin(["zz.core"]).build();
    let outcomes = host.load_all().await;
    let order: Vec<&str> = outcomes.outcomes().iter().map(|o| o.plugin_id.as_str()).collect();
    assert_eq!(order, ["zz.core", "aa.ext", "acme.weather"], "built-in first, then by id");
    let unloads = events_of("acme.weather on_unload").len();
    registry.close().await.unwrap();
    assert_eq!(events_of("acme.weather on_unload").len(), unloads, "closing the registry unloads nothing");
    let before = EVENTS.lock().unwrap().len();
    host.shutdown().await;
    let after: Vec<String> =
        EVENTS.lock().unwrap()[before..].iter().filter(|e| e.ends_with("on_unload")).cloned().collect();
    assert_eq!(after, ["acme.weather on_unload", "aa.ext on_unload", "zz.core on_unload"]);
    assert_eq!(host.state("acme.weather"), Some(PluginState::Unloaded), "an on_unload error is only logged");
    assert!(registry.list_tools(None).await.is_empty());
}

// ---- hook order by source rank ------------------------------------------------------------------

#[derive(Default)]
pub struct Core;

#[plugin(id = "zz.core")]
impl Core {
    async fn on_unload(&self) {
        event("zz.core on_unload");
    }

    #[hook_handler("chat.receive.before_process")]
    async fn stamp(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        let mut order = args.get("order").and_then(Value::as_str).unwrap_or("").to_owned();
        order.push_str("zz.core ");
        args.insert("order", order);
        HookOutcome::modify(args)
    }
}

#[derive(Default)]
pub struct Ext;

#[plugin(id = "aa.ext")]
impl Ext {
    async fn on_unload(&self) {
        event("aa.ext on_unload");
    }

    #[hook_handler("chat.receive.before_process")]
    async fn stamp(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        let mut order = args.get("order").and_then(Value::as_str).unwrap_or("").to_owned();
        order.push_str("aa.ext ");
        args.insert("order", order);
        HookOutcome::modify(args)
    }
}

#[tokio::test]
async fn built_in_plugins_run_first_within_a_hook_slot() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let set = PluginSet::collect().only(["zz.core", "aa.ext"]);
    let host =
        PluginHost::builder().plugins(set).registry(&registry).dispatcher(&dispatcher).builtin(["zz.core"]).build();
    assert!(host.load_all().await.is_clean());
    let result = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert_eq!(result.kwargs.get("order"), Some(&json!("zz.core aa.ext ")));
}

// ---- duplicates -----------------------------------------------------------------------------------

#[derive(Default)]
pub struct DupA;
#[plugin(id = "dup.id")]
impl DupA {
    /// Dup a.
    #[tool]
    async fn dup_a(&self) {}
}

#[derive(Default)]
pub struct DupB;
#[plugin(id = "dup.id")]
impl DupB {
    /// Dup b.
    #[tool]
    async fn dup_b(&self) {}
}

#[derive(Default)]
pub struct Twice;
#[plugin(id = "twice.tools")]
impl Twice {
    /// First.
    #[tool(name = "lookup")]
    async fn first(&self) {}
    /// Second.
    #[tool(name = "lookup")]
    async fn second(&self) {}
    /// A third copy, of the other kind: tools and actions share one name space.
    #[allow(deprecated)]
    #[action(name = "lookup", activation_type = "never")]
    async fn third(&self) {}
    /// Sibling.
    #[tool]
    async fn sibling(&self) {}

    #[hook_handler("chat.receive.before_process", name = "same")]
    async fn same_first(&self, _args: HookArgs) {}

    #[hook_handler("chat.receive.after_process", name = "same")]
    async fn same_second(&self, _args: HookArgs) {}

    #[hook_handler("chat.receive.after_process")]
    async fn other(&self, _args: HookArgs) {}
}

#[tokio::test]
async fn a_duplicate_plugin_id_fails_its_plugins_and_a_duplicate_tool_only_itself() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect();
    assert_eq!(set.get("dup.id").unwrap().problems(), ["duplicate plugin id dup.id"]);
    let twice = set.get("twice.tools").unwrap();
    assert!(twice.problems().is_empty());
    let left_out: Vec<(Option<&str>, &str)> =
        twice.left_out().iter().map(|p| (p.component.as_deref(), p.message.as_str())).collect();
    assert_eq!(
        left_out,
        [
            (Some("tool lookup"), "duplicate tool lookup in plugin twice.tools"),
            (Some("hook handler same"), "duplicate HookHandler twice.tools.same"),
        ]
    );
    // Neither copy of a duplicated handler is kept: which one counts cannot depend on link order.
    let handlers: Vec<&str> = twice.hook_handlers().iter().map(|h| h.name()).collect();
    assert_eq!(handlers, ["other"]);
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = host(&["dup.id", "twice.tools", "zz.core"], &registry, &dispatcher);
    let report = host.load_all().await;
    let states: Vec<(&str, PluginState)> = report.outcomes().iter().map(|o| (o.plugin_id.as_str(), o.state)).collect();
    assert_eq!(
        states,
        [("dup.id", PluginState::Failed), ("twice.tools", PluginState::Loaded), ("zz.core", PluginState::Loaded)]
    );
    assert_eq!(report.problems().len(), 3, "{:?}", report.problems());
    let sibling = registry.invoke(ToolInvocation::new("sibling", ""), None).await;
    assert!(sibling.success, "{}", sibling.error_message);
    let lookup = registry.invoke(ToolInvocation::new("lookup", ""), None).await;
    assert_eq!(lookup.error_message, "Tool not found: lookup (duplicate tool lookup in plugin twice.tools)");
    host.shutdown().await;
}

// ---- config -----------------------------------------------------------------------------------------

fn weather_config() -> &'static toolhook::__private::ConfigDeclaration {
    PluginSet::collect();
    toolhook::__private::inventory::iter::<toolhook::__private::PluginRegistration>
        .into_iter()
        .find(|r| r.id == "acme.weather")
        .and_then(|r| r.config)
        .unwrap()
}

#[test]
fn an_absent_document_becomes_the_defaults() {
    let n = normalise(Some(weather_config()), None).unwrap();
    assert!(n.changed && n.enabled);
    assert_eq!(
        n.document.to_string(),
        r#"{"plugin":{"config_version":"1.0.0","enabled":true},"api_key":"","behaviour":{"mode":"fast","days":3}}"#
    );
}

#[test]
fn a_host_ui_gets_the_config_schema_version_and_defaults_of_a_collected_plugin() {
    let set = PluginSet::collect();
    let weather = set.get("acme.weather").unwrap();
    let schema = weather.config_schema().unwrap();
    assert_eq!(schema["title"], "WeatherConfig");
    assert_eq!(schema["properties"]["api_key"]["description"], "The forecast service's key.");
    let behaviour = &schema["$defs"]["Behaviour"]["properties"];
    assert_eq!(behaviour["days"]["type"], "integer");
    assert_eq!(behaviour["mode"]["description"], "`fast` or `slow`.");
    assert_eq!(weather.config_version(), Some("1.0.0"));
    let defaults = weather.default_config().unwrap().unwrap();
    assert_eq!(defaults, normalise(Some(weather_config()), None).unwrap().document);
    assert_eq!(defaults["behaviour"]["days"], 3);

    let default_plugin = set.plugins().find(|p| p.is_default_plugin()).unwrap();
    assert!(default_plugin.config_schema().is_none());
    assert!(default_plugin.config_version().is_none() && default_plugin.default_config().is_none());
}

#[test]
fn missing_keys_are_filled_and_unknown_ones_dropped() {
    let stored = json!({"plugin": {"config_version": "1.0.0"}, "behaviour": {"mode": "slow"}, "zzz": 1});
    let n = normalise(Some(weather_config()), Some(&stored)).unwrap();
    assert!(n.changed);
    assert_eq!(
        n.document.to_string(),
        r#"{"plugin":{"config_version":"1.0.0","enabled":true},"api_key":"","behaviour":{"mode":"slow","days":3}}"#
    );
    let again = normalise(Some(weather_config()), Some(&n.document)).unwrap();
    assert!(!again.changed, "a normalised document is stable");
}

#[test]
fn a_document_without_a_plugin_section_is_of_the_declared_version() {
    let n = normalise(Some(weather_config()), Some(&json!({"behaviour": {"days": 4}}))).unwrap();
    assert_eq!((n.version.as_str(), n.enabled), ("1.0.0", true));
    assert_eq!(n.document["behaviour"], json!({"mode": "fast", "days": 4}));
    assert_eq!(n.document["plugin"], json!({"config_version": "1.0.0", "enabled": true}));
}

#[test]
fn config_errors_name_what_is_wrong_in_both_locales() {
    let decl = Some(weather_config());
    let e = normalise(decl, Some(&json!(["not", "an", "object"]))).unwrap_err();
    assert_eq!(e, ConfigError::MissingSection);
    assert_eq!(e.message(Locale::ZhHans), "插件配置文件缺少 [plugin] 配置节，且必须提供 plugin.config_version 版本号");
    let e = normalise(decl, Some(&json!({"plugin": {"config_version": "  "}}))).unwrap_err();
    assert_eq!(
        e.message(Locale::ZhHans),
        "插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置"
    );
    assert_eq!(e.message(Locale::En), "`plugin.config_version` must be a version string such as \"1.0.0\"");
    let e =
        normalise(decl, Some(&json!({"plugin": {"config_version": "1.0.0"}, "behaviour": {"days": 300}}))).unwrap_err();
    assert_eq!(
        e.message(Locale::En),
        "invalid plugin config at behaviour.days: invalid value: integer `300`, expected u8"
    );
    assert_eq!(e.message(Locale::ZhHans), "插件配置无效：behaviour.days: invalid value: integer `300`, expected u8");
}

#[tokio::test]
async fn a_disabled_plugin_registers_nothing() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let source = MemoryConfigSource::new()
        .with("acme.weather", json!({"plugin": {"config_version": "1.0.0", "enabled": false}}));
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["acme.weather"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .config_source(source)
        .build();
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Disabled);
    assert!(registry.list_tools(None).await.is_empty());
}

#[tokio::test]
async fn config_updates_are_validated_stored_and_announced() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let source = MemoryConfigSource::new();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["acme.weather"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .config_source(source.clone())
        .build();
    assert!(host.load_all().await.is_clean());
    use toolhook_runtime::ConfigSource as _;
    assert!(source.load("acme.weather").unwrap().is_some(), "the normalised defaults are stored");
    let before = events_of("acme.weather on_config_update").len();
    let bad = json!({"plugin": {"config_version": "1.0.0"}, "behaviour": {"days": "many"}});
    assert!(host.update_config("acme.weather", ConfigScope::Own, bad, "1.0.0").await.is_err());
    assert_eq!(events_of("acme.weather on_config_update").len(), before, "not called for a refused document");
    let ctx = host.context("acme.weather").unwrap();
    assert_eq!(ctx.config::<WeatherConfig>().unwrap().behaviour.mode, "fast", "old config kept");
    let good = json!({"plugin": {"config_version": "1.1.0"}, "behaviour": {"mode": "slow"}});
    host.update_config("acme.weather", ConfigScope::Own, good, "1.1.0").await.unwrap();
    assert_eq!(ctx.config::<WeatherConfig>().unwrap().behaviour.mode, "slow");
    let updates = events_of("acme.weather on_config_update");
    assert_eq!(updates.last().unwrap(), "acme.weather on_config_update self \"slow\" 1.1.0");
    // An update names only what changes: the rest stays, a null resets a field to its default.
    let days = json!({"behaviour": {"days": 5}});
    host.update_config("acme.weather", ConfigScope::Own, days, "1.1.0").await.unwrap();
    let config = ctx.config::<WeatherConfig>().unwrap();
    assert_eq!((config.behaviour.mode.as_str(), config.behaviour.days), ("slow", 5));
    host.update_config("acme.weather", ConfigScope::Own, json!({"behaviour": {"mode": null}}), "1.1.0").await.unwrap();
    let config = ctx.config::<WeatherConfig>().unwrap();
    assert_eq!((config.behaviour.mode.as_str(), config.behaviour.days), ("fast", 5));
    host.update_config("acme.weather", ConfigScope::Bot, json!({"behaviour": {"mode": "bot"}}), "2").await.unwrap();
    assert_eq!(
        events_of("acme.weather on_config_update").last().unwrap(),
        "acme.weather on_config_update bot \"bot\" 2"
    );
    host.update_config("acme.weather", ConfigScope::Model, json!({}), "3").await.unwrap();
    assert_eq!(events_of("acme.weather on_config_update").len(), updates.len() + 3, "not subscribed to model");
}

// ---- free fns: the package's default plugin ------------------------------------------------------

/// Check that the bot is alive.
#[tool]
fn ping() -> &'static str {
    "pong"
}

#[tokio::test]
async fn free_fns_form_the_packages_default_plugin_loaded_at_once() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect();
    let default = set.get(env!("CARGO_PKG_NAME")).unwrap();
    assert!(default.is_default_plugin());
    assert_eq!(default.version(), env!("CARGO_PKG_VERSION"));
    let registry = ToolRegistry::new(RegistryConfig::default());
    let dispatcher = HookDispatcher::new();
    let host = host(&[env!("CARGO_PKG_NAME")], &registry, &dispatcher);
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    assert_eq!(registry.invoke(ToolInvocation::new("ping", ""), None).await.content, "pong");
}

#[test]
fn manifests_are_deterministic() {
    let classification = HostClassification::default().builtin(["zz.core"]);
    let a = toolhook_runtime::manifest::to_string_pretty(&PluginSet::collect(), &classification);
    let b = toolhook_runtime::manifest::to_string_pretty(&PluginSet::collect(), &classification);
    assert_eq!(a, b);
    let manifest: Value = serde_json::from_str(&a).unwrap();
    let weather = manifest["plugins"].as_array().unwrap().iter().find(|p| p["id"] == "acme.weather").unwrap();
    let keys: Vec<&String> = weather.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "version",
            "description",
            "source",
            "default_plugin",
            "state_on_collect",
            "problems",
            "config",
            "tools",
            "hook_handlers"
        ]
    );
    assert_eq!(weather["tools"][0]["kind"], "tool");
    assert_eq!(weather["config"]["default"]["behaviour"]["days"], 3);
    assert_eq!(weather["hook_handlers"][0]["full_name"], "acme.weather.tag");
    let _ = Arc::new(());
}

#[test]
fn declared_tools_are_listed_by_name_whatever_their_plugin() {
    let names: Vec<&str> = toolhook::DeclaredTool::all().iter().map(|t| t.name()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    // The tools come from several plugins, whose ids sort in another order than their names.
    let plugins: std::collections::BTreeSet<&str> =
        toolhook::DeclaredTool::all().iter().map(|t| t.plugin_id()).collect();
    assert!(plugins.len() > 1, "{plugins:?}");
}
