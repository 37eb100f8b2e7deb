//! Plugin-host rules no other test pins: what `on_unload` still sees of its own plugin, lifecycle
//! hooks that panic or fail, config sources that fail, `rebuild`, a Bot update across two
//! plugins, the manifest's entries for each kind of component, and the zh-Hans help texts.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{
    ConfigScope, Locale, PluginContext, Services, ToolExecutionContext, ToolInvocation, action, command, hook_handler,
    plugin, schemars, serde, tool,
};
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::{
    BoxError, CommandSet, CommandSpec, ConfigSource, HostClassification, PluginHost, PluginHostBuilder, PluginSet,
    PluginState, ToolRegistry, manifest, rebuild,
};

#[path = "common/logs.rs"]
mod logs;
use logs::logged;

// ---- helpers ---------------------------------------------------------------------------------------

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What the test plugins' lifecycle hooks did, oldest first.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap().push(e.into());
}

/// Removes and returns the events that start with `prefix`.
fn take_events(prefix: &str) -> Vec<String> {
    let mut events = EVENTS.lock().unwrap();
    let (taken, kept) = events.drain(..).partition(|e| e.starts_with(prefix));
    *events = kept;
    taken
}

/// A host of the plugins `ids`, loading into `registry` and `dispatcher`.
fn builder(ids: &[&str], registry: &ToolRegistry, dispatcher: &HookDispatcher) -> PluginHostBuilder {
    PluginHost::builder().plugins(PluginSet::collect().only(ids)).registry(registry).dispatcher(dispatcher)
}

/// The names of the tools the registry lists.
async fn listed(registry: &ToolRegistry) -> Vec<String> {
    registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect()
}

/// The plugin whose hook handler marked a `chat.receive.before_process` dispatch, if one did.
async fn marked_by(dispatcher: &HookDispatcher) -> Option<Value> {
    let result = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    result.kwargs.get("marked_by").cloned()
}

/// Whether one line of `log` contains every one of `parts`.
fn has_line(log: &str, parts: &[&str]) -> bool {
    log.lines().any(|line| parts.iter().all(|part| line.contains(part)))
}

/// The JSON object keys of `value`, in order.
fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

/// The command of the collected tool `name`.
fn command_of(name: &str) -> CommandSpec {
    PluginSet::collect().commands().into_iter().find(|c| c.name() == name).unwrap()
}

// ---- on_unload sees its plugin already withdrawn ------------------------------------------------------

/// The host's registry and dispatcher, handed to `rules.unload` as a service, and what its
/// `on_unload` saw through them: the tools listed, and which handler marked a dispatch.
struct UnloadProbe {
    registry: ToolRegistry,
    dispatcher: HookDispatcher,
    seen: Mutex<Option<(Vec<String>, Option<Value>)>>,
}

#[derive(Default)]
pub struct Unloads;

#[plugin(id = "rules.unload")]
impl Unloads {
    async fn on_unload(&self) {
        let probe = self.plugin_context().service::<UnloadProbe>().expect("the test provides the probe");
        let seen = (listed(&probe.registry).await, marked_by(&probe.dispatcher).await);
        *probe.seen.lock().unwrap() = Some(seen);
    }

    /// Probe.
    #[tool]
    async fn unload_probe(&self) {}

    #[hook_handler("chat.receive.before_process")]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("marked_by", "rules.unload");
        HookOutcome::modify(args)
    }
}

#[tokio::test]
async fn on_unload_runs_once_its_tools_are_unlisted_and_its_handlers_unregistered() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let probe =
        Arc::new(UnloadProbe { registry: registry.clone(), dispatcher: dispatcher.clone(), seen: Mutex::new(None) });
    let mut services = Services::new();
    services.insert(probe.clone());
    let host = builder(&["rules.unload"], &registry, &dispatcher).services(services).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(listed(&registry).await, ["unload_probe"]);
    assert_eq!(marked_by(&dispatcher).await, Some(json!("rules.unload")));
    host.unload("rules.unload").await;
    assert_eq!(*probe.seen.lock().unwrap(), Some((vec![], None)), "what on_unload saw");
    assert_eq!(host.state("rules.unload"), Some(PluginState::Unloaded));
}

// ---- lifecycle hooks that panic or fail ----------------------------------------------------------------

#[derive(Default)]
pub struct PanicsOnLoad;

#[plugin(id = "rules.load_panics")]
impl PanicsOnLoad {
    async fn on_load(&self, _ctx: &PluginContext) {
        panic!("no database");
    }

    async fn on_unload(&self) {
        event("rules.load_panics on_unload");
    }

    /// Probe.
    #[tool]
    async fn load_panic_probe(&self) {}

    #[hook_handler("chat.receive.before_process")]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("marked_by", "rules.load_panics");
        HookOutcome::modify(args)
    }
}

#[tokio::test]
async fn a_panic_in_on_load_fails_the_plugin_and_withdraws_its_components() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["rules.load_panics"], &registry, &dispatcher).build();
    let report = host.load_all().await;
    let outcome = report.outcome("rules.load_panics").unwrap();
    assert_eq!((outcome.state, outcome.reason.as_deref()), (PluginState::Failed, Some("panic: no database")));
    assert!(listed(&registry).await.is_empty());
    assert_eq!(marked_by(&dispatcher).await, None, "its handler is unregistered");
    host.shutdown().await;
    assert!(take_events("rules.load_panics").is_empty(), "a plugin that never loaded is not unloaded");
}

#[derive(Default)]
pub struct UnloadPanics;

#[plugin(id = "rules.unload_panics")]
impl UnloadPanics {
    async fn on_unload(&self) {
        panic!("flush failed");
    }

    /// Probe.
    #[tool]
    async fn unload_panic_probe(&self) {}
}

#[derive(Default)]
pub struct UnloadErrs;

#[plugin(id = "rules.unload_errs")]
impl UnloadErrs {
    async fn on_unload(&self) -> Result<(), String> {
        Err("disk full".into())
    }

    /// Probe.
    #[tool]
    async fn unload_error_probe(&self) {}
}

#[tokio::test]
async fn an_on_unload_that_panics_or_fails_is_logged_and_its_plugin_ends_unloaded() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let ids = ["rules.unload_errs", "rules.unload_panics"];
    let host = builder(&ids, &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    let ((), log) = logged(host.shutdown()).await;
    assert!(
        has_line(&log, &["ERROR", "on_unload failed", "plugin=rules.unload_panics", "panic: flush failed"]),
        "{log}"
    );
    assert!(has_line(&log, &["ERROR", "on_unload failed", "plugin=rules.unload_errs", "disk full"]), "{log}");
    for id in ids {
        assert_eq!(host.state(id), Some(PluginState::Unloaded), "{id}");
    }
    assert!(listed(&registry).await.is_empty());
}

/// The config of the configured test plugins.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct Settings {
    /// `fast` or `slow`; `error` and `panic` make `rules.configured`'s `on_config_update` fail,
    /// and with `hang` it never returns.
    pub mode: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { mode: "fast".into() }
    }
}

/// Records a call of `on_config_update`.
fn config_update(plugin_id: &str, scope: ConfigScope, config: &Value, version: &str) {
    event(format!("{plugin_id} on_config_update {scope} {} {version}", config["mode"]));
}

#[derive(Default)]
pub struct Configured;

#[plugin(id = "rules.configured", config = Settings)]
impl Configured {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) -> Result<(), String> {
        config_update("rules.configured", scope, config, version);
        match config["mode"].as_str() {
            Some("error") => Err("refused".into()),
            Some("panic") => panic!("update crashed"),
            Some("hang") => std::future::pending().await,
            _ => Ok(()),
        }
    }

    /// The current mode.
    #[tool]
    async fn configured_mode(&self) -> String {
        self.config().mode.clone()
    }
}

/// A refused update is an error, the plugin stays loaded, and its config stays as it was: the
/// context reads the old config again and nothing is stored.
#[tokio::test]
async fn an_on_config_update_that_fails_or_panics_is_an_error_and_the_old_config_stays() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let source = FailingSource::default();
    let host = builder(&["rules.configured"], &registry, &dispatcher).config_source(source.clone()).build();
    assert!(host.load_all().await.is_clean());
    let ctx = host.context("rules.configured").unwrap();
    let before = ctx.config_value();
    let stored = source.stores.load(Ordering::SeqCst);
    let mode = || async {
        let call = registry.invoke(ToolInvocation::new("configured_mode", ""), None).await;
        assert!(call.success, "{}", call.error_message);
        call.content
    };
    for (mode_asked, message) in [("error", "refused"), ("panic", "panic: update crashed")] {
        let update = host.update_config("rules.configured", ConfigScope::Own, json!({"mode": mode_asked}), "1.0.0");
        let error = update.await.unwrap_err();
        assert_eq!(error.to_string(), format!("on_config_update of plugin rules.configured failed: {message}"));
        assert_eq!(host.state("rules.configured"), Some(PluginState::Loaded), "after {mode_asked}");
        assert_eq!(mode().await, "fast", "after {mode_asked}");
        assert_eq!(ctx.config_value(), before, "after {mode_asked}");
        assert_eq!(ctx.config::<Settings>().unwrap().mode, "fast");
        assert_eq!(source.stores.load(Ordering::SeqCst), stored, "nothing stored after {mode_asked}");
    }
    host.update_config("rules.configured", ConfigScope::Own, json!({"mode": "slow"}), "1.0.0").await.unwrap();
    assert_eq!(mode().await, "slow");
    assert_eq!(source.stores.load(Ordering::SeqCst), stored + 1, "an accepted update is stored");
    host.shutdown().await;
}

/// An update whose `on_config_update` times out is refused like one that fails; one whose caller
/// gives up waiting (the update's future is dropped) is undone too.
#[tokio::test]
async fn an_update_that_times_out_or_is_dropped_leaves_the_old_config() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let source = FailingSource::default();
    let host = builder(&["rules.configured"], &registry, &dispatcher)
        .config_source(source.clone())
        .lifecycle_timeout(std::time::Duration::from_millis(50))
        .build();
    assert!(host.load_all().await.is_clean());
    let ctx = host.context("rules.configured").unwrap();
    let stored = source.stores.load(Ordering::SeqCst);
    let hang = || host.update_config("rules.configured", ConfigScope::Own, json!({"mode": "hang"}), "1.0.0");
    let error = hang().await.unwrap_err();
    assert!(error.to_string().starts_with("on_config_update of plugin rules.configured failed"), "{error}");
    assert_eq!(ctx.config::<Settings>().unwrap().mode, "fast");
    let given_up = tokio::time::timeout(std::time::Duration::from_millis(5), hang()).await;
    assert!(given_up.is_err(), "the caller stopped waiting");
    assert_eq!(ctx.config::<Settings>().unwrap().mode, "fast", "a dropped update is undone");
    assert_eq!(source.stores.load(Ordering::SeqCst), stored, "nothing stored");
    host.shutdown().await;
}

// ---- config sources that fail -----------------------------------------------------------------------------

/// A config source that stores nothing, fails on purpose, and counts the documents it is handed.
#[derive(Clone, Default)]
struct FailingSource {
    load_error: Option<&'static str>,
    store_error: Option<&'static str>,
    stores: Arc<AtomicUsize>,
}

impl ConfigSource for FailingSource {
    fn load(&self, _plugin_id: &str) -> Result<Option<Value>, BoxError> {
        self.load_error.map_or(Ok(None), |error| Err(error.into()))
    }

    fn store(&self, _plugin_id: &str, _document: &Value) -> Result<(), BoxError> {
        self.stores.fetch_add(1, Ordering::SeqCst);
        self.store_error.map_or(Ok(()), |error| Err(error.into()))
    }
}

#[tokio::test]
async fn a_config_source_that_cannot_load_fails_the_plugin_with_its_error() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let source = FailingSource { load_error: Some("config store offline"), ..FailingSource::default() };
    let host = builder(&["rules.configured"], &registry, &dispatcher).config_source(source.clone()).build();
    let report = host.load_all().await;
    let outcome = report.outcome("rules.configured").unwrap();
    assert_eq!((outcome.state, outcome.reason.as_deref()), (PluginState::Failed, Some("config store offline")));
    assert!(listed(&registry).await.is_empty());
    assert_eq!(source.stores.load(Ordering::SeqCst), 0, "nothing is stored");
}

#[tokio::test]
async fn a_config_source_that_cannot_store_is_only_logged() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let source = FailingSource { store_error: Some("read-only store"), ..FailingSource::default() };
    let host = builder(&["rules.configured"], &registry, &dispatcher).config_source(source.clone()).build();
    let (report, log) = logged(host.load_all()).await;
    assert!(report.is_clean(), "{:?}", report.problems());
    assert_eq!(host.state("rules.configured"), Some(PluginState::Loaded));
    assert_eq!(source.stores.load(Ordering::SeqCst), 1, "the normalised defaults were handed over");
    assert!(has_line(&log, &["ERROR", "storing the normalised config failed", "read-only store"]), "{log}");
    let ctx = host.context("rules.configured").unwrap();
    assert_eq!(ctx.config_value(), json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "mode": "fast"}));

    let update = host.update_config("rules.configured", ConfigScope::Own, json!({"mode": "slow"}), "1.0.0");
    let (updated, log) = logged(update).await;
    updated.unwrap();
    assert_eq!(source.stores.load(Ordering::SeqCst), 2);
    assert!(has_line(&log, &["ERROR", "storing the updated config failed", "read-only store"]), "{log}");
    assert_eq!(ctx.config::<Settings>().unwrap().mode, "slow", "the update applies all the same");
    host.shutdown().await;
}

// ---- rebuild ----------------------------------------------------------------------------------------------

#[test]
fn rebuild_lays_old_values_over_new_defaults_but_keeps_the_new_config_version() {
    let defaults = json!({
        "plugin": {"config_version": "2.0.0", "enabled": true},
        "mode": "fast",
        "limits": {"days": 3, "hours": 12},
    });
    let old = json!({
        "plugin": {"config_version": "1.0.0", "enabled": false},
        "mode": "slow",
        "limits": {"days": 5},
        "retired": 1,
    });
    assert_eq!(
        rebuild(&old, &defaults).to_string(),
        r#"{"plugin":{"config_version":"2.0.0","enabled":false},"mode":"slow","limits":{"days":5,"hours":12},"retired":1}"#
    );
}

// ---- a Bot update across plugins ----------------------------------------------------------------------

#[derive(Default)]
pub struct BotSubscriber;

#[plugin(id = "rules.bot_subscriber", config = Settings, config_subscriptions = ["bot"])]
impl BotSubscriber {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        config_update("rules.bot_subscriber", scope, config, version);
    }
}

#[tokio::test]
async fn a_bot_update_reaches_only_the_plugin_subscribed_to_bot() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let ids = ["rules.bot_subscriber", "rules.configured"];
    let host = builder(&ids, &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    take_events("rules.");
    for id in ids {
        host.update_config(id, ConfigScope::Bot, json!({"mode": "bot"}), "7").await.unwrap();
    }
    assert_eq!(take_events("rules."), [r#"rules.bot_subscriber on_config_update bot "bot" 7"#]);
    host.shutdown().await;
}

// ---- the manifest and help texts ---------------------------------------------------------------------

#[derive(Default)]
pub struct Described;

/// One component of each kind.
#[plugin(id = "rules.manifest")]
impl Described {
    /// Look something up.
    #[tool]
    #[command(alias = ["lk", "查"], pattern = "lookup <query:rest>", examples = ["lookup rust", "查 rust"])]
    async fn lookup(
        &self,
        /// What to look up.
        query: String,
    ) -> String {
        query
    }

    /// Nudge someone.
    #[allow(deprecated)]
    #[action(activation_type = "never")]
    async fn nudge(&self, target: Option<String>) -> String {
        target.unwrap_or_default()
    }

    #[hook_handler("send_service.before_send")]
    async fn stamp(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

#[test]
fn the_manifest_writes_tools_actions_and_handlers_with_their_keys_in_order() {
    let manifest = manifest::export(&PluginSet::collect().only(["rules.manifest"]), &HostClassification::default());
    let plugin = &manifest["plugins"][0];
    assert_eq!(plugin["id"], "rules.manifest");
    let tools = plugin["tools"].as_array().unwrap();
    let [lookup, nudge] = [&tools[0], &tools[1]];
    assert_eq!((&lookup["name"], &lookup["kind"]), (&json!("lookup"), &json!("tool")));
    assert_eq!((&nudge["name"], &nudge["kind"]), (&json!("nudge"), &json!("legacy_action")));
    let tool_keys = [
        "kind",
        "name",
        "title",
        "description",
        "detailed_description",
        "parameters_schema",
        "output_schema",
        "provider_name",
        "provider_type",
        "enabled",
        "visibility",
        "platforms",
        "permission",
        "scopes",
        "icons",
        "annotation",
        "metadata",
        "timeout_ms",
        "command",
    ];
    assert_eq!(keys(lookup), tool_keys);
    assert_eq!(keys(nudge), tool_keys);
    assert_eq!(nudge["command"], Value::Null);
    let help = &lookup["command"]["help"];
    assert_eq!(keys(help), ["en", "zh-Hans"]);
    let command = command_of("lookup");
    assert_eq!(
        (&help["en"], &help["zh-Hans"]),
        (&json!(command.help(Locale::En)), &json!(command.help(Locale::ZhHans)))
    );
    let handler = &plugin["hook_handlers"][0];
    assert_eq!(handler["full_name"], "rules.manifest.stamp");
    assert_eq!(
        keys(handler),
        [
            "name",
            "full_name",
            "hook",
            "mode",
            "order",
            "timeout_ms",
            "error_policy",
            "description",
            "metadata",
            "payload_schema"
        ]
    );
}

#[test]
fn zh_hans_help_joins_aliases_with_the_list_comma_and_lists_examples() {
    assert_eq!(
        command_of("lookup").help(Locale::ZhHans),
        "lookup <query:rest>\n  Look something up.\n  参数：\n    query：string（必填）What to look up.\n  别名：lk、查\n  示例：\n    lookup rust\n    查 rust"
    );
}

#[tokio::test]
async fn an_empty_command_set_says_so_in_english() {
    let empty = CommandSet::new(&ToolRegistry::default());
    assert_eq!(empty.help(&ToolExecutionContext::default(), Locale::En).await, "No commands available.");
}
