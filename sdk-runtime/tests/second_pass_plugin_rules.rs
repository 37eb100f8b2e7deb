//! Second pass over the plugin rules: declaring plugins, the default plugin, collecting, source
//! rank, lifecycle states and methods, Bot/Model config updates, and what the plugin tools
//! provider lists and answers in each plugin state.
#![allow(missing_debug_implementations)]
#![allow(deprecated)]

use serde_json::{Value, json};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::Notify;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{
    ConfigScope, DeclaredTool, Locale, PluginContext, Services, ToolInvocation, action, hook_handler, plugin, schemars,
    serde, tool,
};
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::{
    BoxError, ConfigSource, DuplicatePolicy, HostClassification, MemoryConfigSource, PluginHost, PluginHostBuilder,
    PluginSet, PluginState, PluginToolProvider, PluginToolsSpec, RegistryConfig, Source, ToolProvider, ToolRegistry,
    manifest,
};

// ---- helpers ---------------------------------------------------------------------------------------

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
    let (taken, kept) = events.drain(..).partition(|e| e.starts_with(prefix));
    *events = kept;
    taken
}

/// Whether an event starting with `prefix` was recorded (without taking it).
fn has_event(prefix: &str) -> bool {
    EVENTS.lock().unwrap_or_else(|p| p.into_inner()).iter().any(|e| e.starts_with(prefix))
}

/// Waits (yielding) until `done` holds, failing the test after five seconds.
async fn wait_until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !done().await {
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

fn builder(ids: &[&str], registry: &ToolRegistry, dispatcher: &HookDispatcher) -> PluginHostBuilder {
    PluginHost::builder().plugins(PluginSet::collect().only(ids)).registry(registry).dispatcher(dispatcher)
}

async fn listed(registry: &ToolRegistry) -> Vec<String> {
    registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect()
}

async fn call(registry: &ToolRegistry, name: &str) -> toolhook::ToolExecutionResult {
    registry.invoke(ToolInvocation::new(name, "{}"), None).await
}

/// Dispatches `chat.receive.before_process`; the `marked_by` values and the errors.
async fn dispatch(dispatcher: &HookDispatcher) -> (Option<Value>, Vec<String>) {
    let result = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    (result.kwargs.get("marked_by").cloned(), result.errors.clone())
}

fn mark(mut args: HookArgs, by: &str) -> HookOutcome<HookArgs> {
    args.insert("marked_by", by);
    HookOutcome::modify(args)
}

/// The config of the configured test plugins.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct SqConfig {
    /// A mode.
    pub mode: String,
}

impl Default for SqConfig {
    fn default() -> Self {
        SqConfig { mode: "default".into() }
    }
}

/// A config source that keeps nothing and counts what it is handed.
#[derive(Clone, Default)]
struct Counting {
    stores: Arc<AtomicUsize>,
}

impl ConfigSource for Counting {
    fn load(&self, _plugin_id: &str) -> Result<Option<Value>, BoxError> {
        Ok(None)
    }

    fn store(&self, _plugin_id: &str, _document: &Value) -> Result<(), BoxError> {
        self.stores.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

// ==== the package's default plugin: every free component of this file ==============================

/// A free tool.
#[tool]
fn sq_free_tool() -> &'static str {
    "free"
}

/// A free legacy action.
#[action(activation_type = "never")]
fn sq_free_action() -> &'static str {
    "acted"
}

#[hook_handler("chat.receive.before_process")]
async fn sq_free_hook(args: HookArgs) -> HookOutcome<HookArgs> {
    mark(args, env!("CARGO_PKG_NAME"))
}

/// A tool served under hand-picked plugin states.
#[tool(core_tool = true)]
fn sq_state_tool() -> &'static str {
    "state tool ran"
}

/// Listing order a.
#[tool]
fn sq_list_a() {}

/// Listing order b.
#[tool]
fn sq_list_b() {}

/// Listing order c.
#[tool]
fn sq_list_c() {}

// Free `#[tool]`, `#[action]` and `#[hook_handler]` functions belong to the package's default
// plugin: "id = name = the package name (`CARGO_PKG_NAME`), version = the package version".
#[test]
fn the_default_plugin_is_the_package_and_holds_exactly_the_free_components() {
    let package = env!("CARGO_PKG_NAME");
    let set = PluginSet::collect();
    let default = set.get(package).expect("the default plugin is collected under the package name");
    assert!(default.is_default_plugin());
    assert_eq!((default.id(), default.name(), default.version()), (package, package, env!("CARGO_PKG_VERSION")));
    let tools: Vec<&str> = default.tools().iter().map(|t| t.name()).collect();
    assert_eq!(
        tools,
        ["sq_free_action", "sq_free_tool", "sq_list_a", "sq_list_b", "sq_list_c", "sq_state_tool"],
        "free tools and actions, sorted by name, and no method of a #[plugin] impl"
    );
    let handlers: Vec<(&str, String)> = default.hook_handlers().iter().map(|h| (h.name(), h.full_name())).collect();
    assert_eq!(handlers, [("sq_free_hook", "toolhook-runtime.sq_free_hook".to_owned())]);
    assert!(default.problems().is_empty(), "{:?}", default.problems());
    // No #[plugin] of this file holds a free fn.
    assert!(
        set.plugins()
            .filter(|p| !p.is_default_plugin())
            .all(|p| p.tools().iter().all(|t| !t.name().starts_with("sq_free")))
    );
}

// "no instance, no config, no lifecycle (it is `Loaded` as soon as it is registered)"; its
// components run under the package's id.
#[tokio::test]
async fn the_default_plugins_tool_and_handler_serve_under_the_package_id() {
    let _serial = SERIAL.lock().await;
    let package = env!("CARGO_PKG_NAME");
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&[package], &registry, &dispatcher).build();
    let report = host.load_all().await;
    assert_eq!(report.outcome(package).map(|o| o.state), Some(PluginState::Loaded), "{report:?}");
    let spec = registry.get_tool_spec("sq_free_tool", None).await.expect("listed");
    assert_eq!(spec.metadata()["plugin_id"], package);
    let result = call(&registry, "sq_free_tool").await;
    assert_eq!((result.content.as_str(), &result.metadata["plugin_id"]), ("free", &json!(package)));
    let action = call(&registry, "sq_free_action").await;
    assert_eq!(action.content, "acted", "{}", action.error_message);
    assert_eq!(dispatch(&dispatcher).await, (Some(json!(package)), vec![]));
    host.shutdown().await;
}

// ==== declaring: components sorted by name, other methods left alone ===============================

#[derive(Default)]
pub struct Sorted;

#[plugin(id = "sq.sorted")]
impl Sorted {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.sorted on_load");
    }

    /// Zeta.
    #[tool]
    async fn sq_zeta(&self) -> String {
        format!("zeta {}", self.label())
    }

    /// Alpha.
    #[tool]
    async fn sq_alpha(&self) -> &'static str {
        "alpha"
    }

    #[hook_handler("chat.receive.after_process")]
    async fn zz_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }

    /// Mid.
    #[tool]
    async fn sq_mid(&self) -> &'static str {
        "mid"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn aa_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.sorted")
    }

    fn label(&self) -> &'static str {
        "helper"
    }
}

// "builds a map sorted by plugin id, each plugin's components sorted by name (link order never
// matters)"; the provider lists "within a plugin, tools by name".
#[tokio::test]
async fn components_are_sorted_by_name_whatever_their_declaration_order() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["sq.sorted"]);
    let sorted = set.get("sq.sorted").unwrap();
    assert_eq!(sorted.tools().iter().map(|t| t.name()).collect::<Vec<_>>(), ["sq_alpha", "sq_mid", "sq_zeta"]);
    assert_eq!(sorted.hook_handlers().iter().map(|h| h.name()).collect::<Vec<_>>(), ["aa_hook", "zz_hook"]);
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.sorted"], &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(listed(&registry).await, ["sq_alpha", "sq_mid", "sq_zeta"]);
    host.shutdown().await;
    take_events("sq.sorted");
}

// "Methods named `on_load`, `on_unload`, `on_config_update` are the lifecycle. Other methods are
// left alone."
#[tokio::test]
async fn lifecycle_and_other_methods_are_not_components_and_stay_callable() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.sorted"], &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(take_events("sq.sorted"), ["sq.sorted on_load"]);
    for name in ["label", "on_load"] {
        assert_eq!(call(&registry, name).await.error_message, format!("Tool not found: {name}"));
    }
    assert_eq!(call(&registry, "sq_zeta").await.content, "zeta helper");
    host.shutdown().await;
}

#[derive(Default)]
pub struct Described;

/// The doc comment's text.
#[plugin(id = "sq.described", description = "The attribute's text.")]
impl Described {}

// "`description` | string literal | first paragraph of the impl block's doc comment, else `""`"
// (the default applies only when the key is absent).
#[test]
fn a_declared_description_wins_over_the_doc_comment() {
    let set = PluginSet::collect().only(["sq.described"]);
    assert_eq!(set.get("sq.described").unwrap().description(), "The attribute's text.");
}

// ==== collecting: problems fail the affected plugins ====================================================

#[derive(Default)]
pub struct Twins;

#[plugin(id = "sq.twins")]
impl Twins {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.twins on_load");
    }

    /// One.
    #[tool(name = "sq_twin")]
    async fn twin_one(&self) {}

    /// Two.
    #[tool(name = "sq_twin")]
    async fn twin_two(&self) {}

    /// Sibling.
    #[tool]
    async fn sq_twins_sibling(&self) {}
}

#[derive(Default)]
pub struct Mixed;

#[plugin(id = "sq.mixed")]
impl Mixed {
    /// The tool.
    #[tool(name = "sq_mixed")]
    async fn mixed_tool(&self) {}

    /// The action.
    #[action(name = "sq_mixed", activation_type = "never")]
    async fn mixed_action(&self) {}

    /// Sibling.
    #[tool]
    async fn sq_mixed_sibling(&self) {}
}

#[derive(Default)]
pub struct HooksTwice;

#[plugin(id = "sq.hooks-twice")]
impl HooksTwice {
    #[hook_handler("chat.receive.before_process", name = "same")]
    async fn same_one(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.hooks-twice")
    }

    #[hook_handler("chat.receive.after_process", name = "same")]
    async fn same_two(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }

    /// Sibling.
    #[tool]
    async fn sq_hooks_twice_sibling(&self) {}
}

// "two tools (or two actions, or a tool and an action) with the same name in one plugin: `duplicate
// tool {name} in plugin {id}`"; "two hook handlers with the same full name: `duplicate HookHandler
// {full}`". Each clash is reported, and only the clashing components are left out: the plugin
// loads with the rest.
#[tokio::test]
async fn clashing_components_are_reported_and_left_out_while_their_plugins_load() {
    let _serial = SERIAL.lock().await;
    take_events("sq.twins");
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = builder(&["sq.twins", "sq.mixed", "sq.hooks-twice"], &registry, &dispatcher).build();
    let report = host.load_all().await;
    for id in ["sq.twins", "sq.mixed", "sq.hooks-twice"] {
        assert_eq!(report.outcome(id).unwrap().state, PluginState::Loaded, "{id}");
    }
    let problems: Vec<(String, String)> =
        report.problems().iter().map(|p| (p.plugin_id.clone(), p.message.clone())).collect();
    for expected in [
        ("sq.twins", "duplicate tool sq_twin in plugin sq.twins"),
        ("sq.mixed", "duplicate tool sq_mixed in plugin sq.mixed"),
        ("sq.hooks-twice", "duplicate HookHandler sq.hooks-twice.same"),
    ] {
        assert!(problems.contains(&(expected.0.to_owned(), expected.1.to_owned())), "{expected:?} in {problems:?}");
    }
    assert_eq!(listed(&registry).await, ["sq_hooks_twice_sibling", "sq_mixed_sibling", "sq_twins_sibling"]);
    assert_eq!(take_events("sq.twins"), ["sq.twins on_load"]);
    let (marked_by, errors) = dispatch(&dispatcher).await;
    assert_eq!((marked_by, errors), (None, Vec::<String>::new()), "neither copy of the clashing handler runs");
    host.shutdown().await;
}

#[derive(Default)]
pub struct DupOne;

#[plugin(id = "sq.dup")]
impl DupOne {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.dup on_load one");
    }

    /// One.
    #[tool]
    async fn sq_dup_one(&self) {}
}

#[derive(Default)]
pub struct DupTwo;

#[plugin(id = "sq.dup")]
impl DupTwo {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.dup on_load two");
    }

    /// Two.
    #[tool]
    async fn sq_dup_two(&self) {}
}

// "two plugins with the same id …: every copy fails (`duplicate plugin id {id}`)"; "Problems do
// not stop collection; each makes the affected plugins `Failed`"; `load_all`: "Already `Failed`
// from collection ⇒ skip"; "other plugins load".
#[tokio::test]
async fn a_duplicate_plugin_id_is_failed_from_the_start_and_no_copy_runs() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.dup", "sq.sorted"], &registry, &dispatcher).build();
    assert_eq!(host.state("sq.dup"), Some(PluginState::Failed), "failed at collection, before load_all");
    let report = host.load_all().await;
    let outcome = report.outcome("sq.dup").unwrap();
    assert_eq!((outcome.state, outcome.reason.as_deref()), (PluginState::Failed, Some("duplicate plugin id sq.dup")));
    assert_eq!(report.outcome("sq.sorted").map(|o| o.state), Some(PluginState::Loaded));
    assert_eq!(listed(&registry).await, ["sq_alpha", "sq_mid", "sq_zeta"], "neither copy's tool is listed");
    assert!(take_events("sq.dup").is_empty(), "neither copy's on_load runs");
    host.shutdown().await;
    take_events("sq.sorted");
}

// ==== before load_all: Registered ===================================================================

// "`PluginHost::builder()….build()` registers the plugin tool provider"; the states table:
// "others | no | `Tool not found`" (here `Registered`).
#[tokio::test]
async fn a_built_host_serves_nothing_until_load_all() {
    let _serial = SERIAL.lock().await;
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.sorted"], &registry, &dispatcher).build();
    assert!(registry.provider_names().iter().any(|n| n == "plugin_runtime"), "{:?}", registry.provider_names());
    assert_eq!(host.state("sq.sorted"), Some(PluginState::Registered));
    assert!(listed(&registry).await.is_empty());
    assert_eq!(call(&registry, "sq_alpha").await.error_message, "Tool not found: sq_alpha");
    assert_eq!(dispatch(&dispatcher).await, (None, vec![]), "no handler registered yet");
    assert!(take_events("sq.sorted").is_empty());
    host.shutdown().await;
}

// ==== source rank and load order ======================================================================

macro_rules! ordered_plugin {
    ($ty:ident, $id:literal, $tool:ident) => {
        #[derive(Default)]
        pub struct $ty;

        #[plugin(id = $id)]
        impl $ty {
            async fn on_load(&self, _ctx: &PluginContext) {
                event(concat!("order load ", $id));
            }

            async fn on_unload(&self) {
                event(concat!("order unload ", $id));
            }

            /// Order probe.
            #[tool]
            async fn $tool(&self) -> &'static str {
                $id
            }
        }
    };
}

ordered_plugin!(OrderMCore, "sq.m-core", sq_t_4);
ordered_plugin!(OrderZCore, "sq.z-core", sq_t_3);
ordered_plugin!(OrderA2, "sq.a2", sq_t_2);
ordered_plugin!(OrderC3, "sq.c3", sq_t_1);

#[derive(Default)]
pub struct OrderB1;

#[plugin(id = "sq.b1")]
impl OrderB1 {
    async fn on_load(&self, _ctx: &PluginContext) -> Result<(), String> {
        event("order load sq.b1");
        Err("b1 refuses".into())
    }

    async fn on_unload(&self) {
        event("order unload sq.b1");
    }

    /// Order probe.
    #[tool]
    async fn sq_t_0(&self) {}
}

const ORDER_IDS: [&str; 5] = ["sq.c3", "sq.b1", "sq.a2", "sq.z-core", "sq.m-core"];

fn order_host(registry: &ToolRegistry) -> PluginHost {
    let classification = HostClassification::default().builtin_if(|id| id.ends_with("-core"));
    PluginHost::builder()
        .plugins(PluginSet::collect().only(ORDER_IDS))
        .registry(registry)
        .classification(classification)
        .build()
}

// `load_all()` — "plugins one at a time, ordered by source rank then id"; "A failing plugin never
// stops the others."
#[tokio::test]
async fn load_all_runs_on_load_builtin_first_then_by_id_past_a_failure() {
    let _serial = SERIAL.lock().await;
    take_events("order");
    let registry = ToolRegistry::default();
    let host = order_host(&registry);
    let report = host.load_all().await;
    assert_eq!(
        take_events("order load"),
        ["order load sq.m-core", "order load sq.z-core", "order load sq.a2", "order load sq.b1", "order load sq.c3"]
    );
    let states: Vec<(&str, PluginState)> =
        ORDER_IDS.iter().map(|id| (*id, report.outcome(id).unwrap().state)).collect();
    assert_eq!(
        states,
        [
            ("sq.c3", PluginState::Loaded),
            ("sq.b1", PluginState::Failed),
            ("sq.a2", PluginState::Loaded),
            ("sq.z-core", PluginState::Loaded),
            ("sq.m-core", PluginState::Loaded),
        ]
    );
    host.shutdown().await;
    take_events("order");
}

// "`PluginHost::shutdown()` unloads every `Loaded` plugin in reverse load order".
#[tokio::test]
async fn shutdown_unloads_the_loaded_plugins_in_reverse_rank_and_id_order() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = order_host(&registry);
    let _ = host.load_all().await;
    take_events("order");
    host.shutdown().await;
    assert_eq!(
        take_events("order"),
        ["order unload sq.c3", "order unload sq.a2", "order unload sq.z-core", "order unload sq.m-core"]
    );
    for id in ORDER_IDS {
        let expected = if id == "sq.b1" { PluginState::Failed } else { PluginState::Unloaded };
        assert_eq!(host.state(id), Some(expected), "{id}");
    }
}

// Listing: "Plugins in state `Loading` or `Loaded`, ordered by source rank (builtin first) then
// plugin id; within a plugin, tools by name"; `.builtin_if(predicate on the id)`.
#[tokio::test]
async fn plugin_tools_are_listed_builtin_first_then_by_plugin_id() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = order_host(&registry);
    let _ = host.load_all().await;
    assert_eq!(listed(&registry).await, ["sq_t_4", "sq_t_3", "sq_t_2", "sq_t_1"]);
    assert_eq!(
        ["sq.m-core", "sq.a2"].map(|id| host.source_of(id)),
        [Source::Builtin, Source::ThirdParty],
        "the host decides; the default is `ThirdParty`"
    );
    host.shutdown().await;
    take_events("order");
}

#[derive(Default)]
pub struct RankZz;

#[plugin(id = "sq.rank-zz")]
impl RankZz {
    /// Contested.
    #[tool(name = "sq_contested")]
    async fn contested(&self) -> &'static str {
        "sq.rank-zz"
    }
}

#[derive(Default)]
pub struct RankAa;

#[plugin(id = "sq.rank-aa")]
impl RankAa {
    /// Contested.
    #[tool(name = "sq_contested")]
    async fn contested(&self) -> &'static str {
        "sq.rank-aa"
    }
}

fn rank_host(registry: &ToolRegistry) -> PluginHost {
    PluginHost::builder()
        .plugins(PluginSet::collect().only(["sq.rank-aa", "sq.rank-zz"]))
        .registry(registry)
        .builtin(["sq.rank-zz"])
        .build()
}

// "builtin plugins win contested tool names under `Skip`" (rank orders plugin tools "before
// plugin id").
#[tokio::test]
async fn a_builtin_plugin_keeps_a_contested_tool_name_under_skip() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = rank_host(&registry);
    assert!(host.load_all().await.is_clean());
    assert_eq!(listed(&registry).await, ["sq_contested"]);
    let result = call(&registry, "sq_contested").await;
    assert_eq!((result.content.as_str(), &result.metadata["plugin_id"]), ("sq.rank-zz", &json!("sq.rank-zz")));
    host.shutdown().await;
}

// "`Rename` gives `plugin_<plugin id>_<name>` to the loser" (every character outside
// `[A-Za-z0-9_-]` replaced by `_`).
#[tokio::test]
async fn under_rename_the_third_party_plugin_gets_the_prefixed_name() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::new(RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename));
    let host = rank_host(&registry);
    assert!(host.load_all().await.is_clean());
    assert_eq!(listed(&registry).await, ["sq_contested", "plugin_sq_rank-aa_sq_contested"]);
    let renamed = call(&registry, "plugin_sq_rank-aa_sq_contested").await;
    assert_eq!(
        (renamed.tool_name.as_str(), renamed.content.as_str()),
        ("plugin_sq_rank-aa_sq_contested", "sq.rank-aa")
    );
    host.shutdown().await;
}

// ==== what on_load sees ===============================================================================

/// What `sq.probe`'s `on_load` saw.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    state: Option<PluginState>,
    identity: String,
    mode: Option<String>,
    config: Value,
    listed: Vec<String>,
    own_call: String,
    hook_errors: Vec<String>,
}

/// Handed to `sq.probe` as a service.
struct LoadProbe {
    host: OnceLock<PluginHost>,
    registry: ToolRegistry,
    dispatcher: HookDispatcher,
    seen: Mutex<Option<Seen>>,
}

#[derive(Default)]
pub struct Probe {
    kept: OnceLock<PluginContext>,
}

#[plugin(id = "sq.probe", config = SqConfig)]
impl Probe {
    async fn on_load(&self, ctx: &PluginContext) -> Result<(), String> {
        let _ = self.kept.set(ctx.clone());
        let probe = ctx.service::<LoadProbe>().ok_or("no probe service")?;
        let limit = Duration::from_secs(3);
        let own_call = tokio::time::timeout(limit, call(&probe.registry, "sq_probe_tool")).await;
        let hooked = tokio::time::timeout(limit, dispatch(&probe.dispatcher)).await;
        let seen = Seen {
            state: probe.host.get().and_then(|h| h.state("sq.probe")),
            identity: format!("{}|{}|{}", ctx.plugin_id(), ctx.name(), ctx.version()),
            mode: ctx.config::<SqConfig>().map(|c| c.mode.clone()),
            config: ctx.config_value(),
            listed: tokio::time::timeout(limit, listed(&probe.registry)).await.unwrap_or_default(),
            own_call: own_call.map_or("timed out".into(), |r| r.error_message),
            hook_errors: hooked.map_or(vec!["timed out".into()], |(_, errors)| errors),
        };
        *probe.seen.lock().unwrap() = Some(seen);
        Ok(())
    }

    /// Reads the config through the context kept from `on_load`.
    #[tool]
    async fn sq_probe_tool(&self) -> String {
        self.kept.get().and_then(|c| c.config::<SqConfig>()).map(|c| c.mode.clone()).unwrap_or_default()
    }

    #[hook_handler("chat.receive.before_process")]
    async fn sq_probe_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.probe")
    }
}

async fn probe_host(stored: Value) -> (ToolRegistry, PluginHost, Arc<LoadProbe>) {
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let probe = Arc::new(LoadProbe {
        host: OnceLock::new(),
        registry: registry.clone(),
        dispatcher: dispatcher.clone(),
        seen: Mutex::new(None),
    });
    let mut services = Services::new();
    services.insert(probe.clone());
    let host = builder(&["sq.probe"], &registry, &dispatcher)
        .config_source(MemoryConfigSource::new().with("sq.probe", stored))
        .services(services)
        .build();
    let _ = probe.host.set(host.clone());
    let report = host.load_all().await;
    assert_eq!(report.outcome("sq.probe").map(|o| o.state), Some(PluginState::Loaded), "{report:?}");
    (registry, host, probe)
}

// Step 2 reads and normalises the stored config before step 5 calls `on_load(&ctx)`;
// `PluginContext`: "`plugin_id()`, `name()`, `version()`, `config::<C>()` (the current typed
// config …), `config_value()`, and host-provided services by type".
#[tokio::test]
async fn on_load_sees_its_identity_its_stored_config_and_the_hosts_services() {
    let _serial = SERIAL.lock().await;
    let (_registry, host, probe) = probe_host(json!({"plugin": {"config_version": "1.0.0"}, "mode": "stored"})).await;
    let seen = probe.seen.lock().unwrap().take().expect("on_load reached its service");
    assert_eq!(seen.identity, format!("sq.probe|sq.probe|{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(seen.mode.as_deref(), Some("stored"));
    assert_eq!(seen.config, json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "mode": "stored"}));
    host.shutdown().await;
}

// Steps 3–5: handlers registered, "State `Loading` (tools now listed)", then `on_load`; "no
// component runs before `on_load` has succeeded" (`PluginNotLoaded` / `plugin {id} is not loaded`).
#[tokio::test]
async fn on_load_runs_while_loading_with_its_tools_listed_but_not_callable() {
    let _serial = SERIAL.lock().await;
    let (registry, host, probe) = probe_host(json!({})).await;
    let seen = probe.seen.lock().unwrap().take().expect("on_load reached its service");
    assert_eq!(seen.state, Some(PluginState::Loading));
    assert_eq!(seen.listed, ["sq_probe_tool"]);
    assert_eq!(seen.own_call, "Tool sq_probe_tool failed: PluginNotLoaded: plugin sq.probe is not loaded");
    assert_eq!(seen.hook_errors, ["HookHandler sq.probe.sq_probe_hook failed: plugin sq.probe is not loaded"]);
    assert_eq!(call(&registry, "sq_probe_tool").await.content, "default", "runs once loaded");
    host.shutdown().await;
}

// "`PluginContext` is cheap to clone and may be kept: … `config::<C>()` (the current typed config
// …)": a context kept from `on_load` reads a later accepted config.
#[tokio::test]
async fn a_context_kept_from_on_load_reads_the_current_config() {
    let _serial = SERIAL.lock().await;
    let (registry, host, _probe) = probe_host(json!({})).await;
    assert_eq!(call(&registry, "sq_probe_tool").await.content, "default");
    let document = json!({"plugin": {"config_version": "1.0.0"}, "mode": "updated"});
    host.update_config("sq.probe", ConfigScope::Own, document, "1.0.0").await.unwrap();
    assert_eq!(call(&registry, "sq_probe_tool").await.content, "updated");
    host.shutdown().await;
}

// ==== one shared instance ===========================================================================

static SHARED_DEFAULTS: AtomicUsize = AtomicUsize::new(0);

pub struct Shared {
    ready: OnceLock<String>,
    calls: AtomicUsize,
}

impl Default for Shared {
    fn default() -> Self {
        SHARED_DEFAULTS.fetch_add(1, Ordering::SeqCst);
        Shared { ready: OnceLock::new(), calls: AtomicUsize::new(0) }
    }
}

#[plugin(id = "sq.shared")]
impl Shared {
    async fn on_load(&self, ctx: &PluginContext) {
        let _ = self.ready.set(format!("set up by {}", ctx.plugin_id()));
    }

    /// Counts its calls on the instance.
    #[tool]
    async fn sq_shared_tool(&self) -> String {
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        format!("{} call {n}", self.ready.get().map_or("nothing", String::as_str))
    }

    #[hook_handler("chat.receive.before_process")]
    async fn sq_shared_hook(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        let seen = format!(
            "{} after {}",
            self.ready.get().map_or("nothing", String::as_str),
            self.calls.load(Ordering::SeqCst)
        );
        args.insert("marked_by", seen);
        HookOutcome::modify(args)
    }
}

// "The host creates one instance with `T::default()` and shares it (`Arc<T>`)"; the manifest
// "needs no instance".
#[tokio::test]
async fn the_host_creates_one_instance_that_on_load_tools_and_handlers_share() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["sq.shared"]);
    let _ = manifest::export(&set, &HostClassification::default());
    assert_eq!(SHARED_DEFAULTS.load(Ordering::SeqCst), 0, "collecting and exporting create no instance");
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = PluginHost::builder().plugins(set).registry(&registry).dispatcher(&dispatcher).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(call(&registry, "sq_shared_tool").await.content, "set up by sq.shared call 1");
    assert_eq!(call(&registry, "sq_shared_tool").await.content, "set up by sq.shared call 2");
    assert_eq!(dispatch(&dispatcher).await, (Some(json!("set up by sq.shared after 2")), vec![]));
    assert_eq!(SHARED_DEFAULTS.load(Ordering::SeqCst), 1, "one instance");
    host.shutdown().await;
}

// ==== on_load fails ===================================================================================

/// An error type that is only `Display`.
#[derive(Debug)]
pub struct NoKey;

impl fmt::Display for NoKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no key")
    }
}

#[derive(Default)]
pub struct Fails;

#[plugin(id = "sq.fails")]
impl Fails {
    async fn on_load(&self, _ctx: &PluginContext) -> Result<(), NoKey> {
        event("sq.fails on_load");
        Err(NoKey)
    }

    async fn on_unload(&self) {
        event("sq.fails on_unload");
    }

    /// Never served.
    #[tool]
    async fn sq_fails_tool(&self) {}

    #[hook_handler("chat.receive.before_process")]
    async fn sq_fails_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.fails")
    }
}

// "return `()` or `Result<(), E>` with `E: Display`"; "`Err` or panic ⇒ `Failed`: handlers
// unregistered, tools no longer listed, `on_unload` not called"; "`on_load` returns `Err("no key")`
// ⇒ `Failed` with that reason".
#[tokio::test]
async fn an_on_load_error_fails_with_its_display_text_and_withdraws_everything() {
    let _serial = SERIAL.lock().await;
    take_events("sq.fails");
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.fails"], &registry, &dispatcher).build();
    let report = host.load_all().await;
    let outcome = report.outcome("sq.fails").unwrap();
    assert_eq!((outcome.state, outcome.reason.as_deref()), (PluginState::Failed, Some("no key")));
    assert_eq!(host.reason("sq.fails").as_deref(), Some("no key"));
    assert!(listed(&registry).await.is_empty());
    assert_eq!(dispatch(&dispatcher).await, (None, vec![]), "its handler is not registered: no run, no error");
    host.shutdown().await;
    assert_eq!(take_events("sq.fails"), ["sq.fails on_load"], "on_unload never called");
}

// ==== disabled ===========================================================================================

#[derive(Default)]
pub struct Off;

#[plugin(id = "sq.off", config = SqConfig)]
impl Off {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.off on_load");
    }

    async fn on_unload(&self) {
        event("sq.off on_unload");
    }

    /// Switched off.
    #[tool]
    async fn sq_off_tool(&self) {}

    #[hook_handler("chat.receive.before_process")]
    async fn sq_off_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.off")
    }
}

fn off_source(extra: Value) -> MemoryConfigSource {
    let mut document = json!({"plugin": {"config_version": "1.0.0", "enabled": false}});
    if let (Some(doc), Some(extra)) = (document.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    MemoryConfigSource::new().with("sq.off", document)
}

// "`plugin.enabled = false` ⇒ `Disabled`; nothing is registered"; `shutdown` "unloads every
// `Loaded` plugin": a disabled or failed plugin is not unloaded and keeps its state.
#[tokio::test]
async fn shutdown_leaves_disabled_and_failed_plugins_as_they_are() {
    let _serial = SERIAL.lock().await;
    take_events("sq.");
    take_events("order");
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host =
        builder(&["sq.off", "sq.fails", "sq.a2"], &registry, &dispatcher).config_source(off_source(json!({}))).build();
    let report = host.load_all().await;
    let states: Vec<PluginState> =
        ["sq.off", "sq.fails", "sq.a2"].iter().map(|id| report.outcome(id).unwrap().state).collect();
    assert_eq!(states, [PluginState::Disabled, PluginState::Failed, PluginState::Loaded]);
    assert_eq!(listed(&registry).await, ["sq_t_2"]);
    assert_eq!(dispatch(&dispatcher).await, (None, vec![]));
    host.shutdown().await;
    assert_eq!(take_events("order"), ["order load sq.a2", "order unload sq.a2"]);
    assert!(take_events("sq.off").is_empty(), "a disabled plugin is neither loaded nor unloaded");
    assert_eq!(take_events("sq.fails"), ["sq.fails on_load"]);
    assert_eq!(
        ["sq.off", "sq.fails", "sq.a2"].map(|id| host.state(id)),
        [Some(PluginState::Disabled), Some(PluginState::Failed), Some(PluginState::Unloaded)]
    );
}

// States table: "others | no | `Tool not found`"; "`Tool not found: {name}`" / "`未找到工具：{name}`".
#[tokio::test]
async fn a_disabled_plugins_tool_answers_the_plain_not_found_text() {
    let _serial = SERIAL.lock().await;
    for (locale, expected) in [(Locale::En, "Tool not found: sq_off_tool"), (Locale::ZhHans, "未找到工具：sq_off_tool")]
    {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        let host = PluginHost::builder()
            .plugins(PluginSet::collect().only(["sq.off"]))
            .registry(&registry)
            .config_source(off_source(json!({})))
            .build();
        assert_eq!(host.load_all().await.outcome("sq.off").map(|o| o.state), Some(PluginState::Disabled));
        assert_eq!(call(&registry, "sq_off_tool").await.error_message, expected);
        host.shutdown().await;
    }
}

// Step 2: "Read the stored config document and normalise it. Error ⇒ `Failed` (reason = the config
// error). `plugin.enabled = false` ⇒ `Disabled`" — normalising comes first.
#[tokio::test]
async fn an_invalid_config_fails_the_plugin_even_when_it_is_switched_off() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["sq.off"]))
        .registry(&registry)
        .config_source(off_source(json!({"mode": 5})))
        .build();
    let report = host.load_all().await;
    let outcome = report.outcome("sq.off").unwrap();
    assert_eq!(outcome.state, PluginState::Failed, "{:?}", outcome.reason);
    let reason = outcome.reason.as_deref().unwrap_or_default();
    assert!(reason.starts_with("invalid plugin config at mode: "), "{reason}");
    host.shutdown().await;
    assert!(take_events("sq.off").is_empty());
}

// ==== a rejected handler batch ===========================================================================

#[derive(Default)]
pub struct Rejected;

#[plugin(id = "sq.rejected")]
impl Rejected {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.rejected on_load");
    }

    /// Never served.
    #[tool]
    async fn sq_rejected_tool(&self) {}

    #[hook_handler("chat.receive.before_process")]
    async fn valid_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.rejected")
    }

    #[hook_handler("sq.no.such.hook", custom = true)]
    async fn lost_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

// ==== Loading, in zh-Hans ================================================================================

static GATE: Notify = Notify::const_new();

#[derive(Default)]
pub struct Gate;

#[plugin(id = "sq.gate")]
impl Gate {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.gate on_load start");
        GATE.notified().await;
    }

    /// Gated.
    #[tool]
    async fn sq_gate_tool(&self) -> &'static str {
        "gated"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn sq_gate_hook(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        mark(args, "sq.gate")
    }
}

// `Loading`: "`PluginNotLoaded` error" / "failure `plugin {id} is not loaded` / `插件 {id} 未加载`";
// "`工具 {name} 调用失败：PluginNotLoaded: 插件 {id} 未加载`"; "after `on_load` returns both run".
#[tokio::test]
async fn while_loading_a_tool_and_a_handler_answer_not_loaded_in_zh_hans() {
    let _serial = SERIAL.lock().await;
    take_events("sq.gate");
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    let dispatcher = HookDispatcher::builder().locale(Locale::ZhHans).build();
    let host = builder(&["sq.gate"], &registry, &dispatcher).build();
    let loading = tokio::spawn({
        let host = host.clone();
        async move { host.load_all().await }
    });
    wait_until("on_load to start", async || has_event("sq.gate on_load start")).await;
    assert_eq!(host.state("sq.gate"), Some(PluginState::Loading));
    assert_eq!(listed(&registry).await, ["sq_gate_tool"]);
    assert_eq!(
        call(&registry, "sq_gate_tool").await.error_message,
        "工具 sq_gate_tool 调用失败：PluginNotLoaded: 插件 sq.gate 未加载"
    );
    assert_eq!(
        dispatch(&dispatcher).await,
        (None, vec!["HookHandler sq.gate.sq_gate_hook 执行失败: 插件 sq.gate 未加载".to_owned()])
    );
    GATE.notify_one();
    assert_eq!(loading.await.unwrap().outcome("sq.gate").map(|o| o.state), Some(PluginState::Loaded));
    assert_eq!(call(&registry, "sq_gate_tool").await.content, "gated");
    assert_eq!(dispatch(&dispatcher).await, (Some(json!("sq.gate")), vec![]));
    host.shutdown().await;
    take_events("sq.gate");
}

// ==== unload with a call in flight ========================================================================

static IN_FLIGHT: Notify = Notify::const_new();

#[derive(Default)]
pub struct InFlight;

#[plugin(id = "sq.inflight")]
impl InFlight {
    async fn on_unload(&self) {
        event("sq.inflight on_unload");
    }

    /// Waits to be let go.
    #[tool]
    async fn sq_inflight_tool(&self) -> &'static str {
        event("sq.inflight call started");
        IN_FLIGHT.notified().await;
        "finished"
    }
}

// "`unload(id)` — state `Unloading`: tools stop being listed and handlers are unregistered first
// (in-flight calls finish), then `on_unload()`; … state `Unloaded`."
#[tokio::test]
async fn a_call_in_flight_when_its_plugin_unloads_finishes() {
    let _serial = SERIAL.lock().await;
    take_events("sq.inflight");
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = builder(&["sq.inflight"], &registry, &dispatcher).build();
    assert!(host.load_all().await.is_clean());
    let in_flight = tokio::spawn({
        let registry = registry.clone();
        async move { call(&registry, "sq_inflight_tool").await }
    });
    wait_until("the call to start", async || has_event("sq.inflight call started")).await;
    let unloading = tokio::spawn({
        let host = host.clone();
        async move { host.unload("sq.inflight").await }
    });
    wait_until("the tool to be unlisted", async || !registry.has_tool("sq_inflight_tool", None).await).await;
    IN_FLIGHT.notify_one();
    let result = in_flight.await.unwrap();
    assert_eq!((result.success, result.content.as_str()), (true, "finished"), "{}", result.error_message);
    tokio::time::timeout(Duration::from_secs(5), unloading).await.expect("unload finishes").unwrap();
    assert_eq!(host.state("sq.inflight"), Some(PluginState::Unloaded));
    assert_eq!(take_events("sq.inflight"), ["sq.inflight call started", "sq.inflight on_unload"]);
}

// ==== Bot and Model config updates ========================================================================

#[derive(Default)]
pub struct Subscriber;

#[plugin(id = "sq.subs", config = SqConfig, config_subscriptions = ["bot", "model"])]
impl Subscriber {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) -> Result<(), String> {
        event(format!("sq.subs {scope} {version} {config}"));
        match config.get("act").and_then(Value::as_str) {
            Some("error") => Err("refused by sq.subs".into()),
            Some("panic") => panic!("sq.subs crashed"),
            _ => Ok(()),
        }
    }

    /// The own config's mode.
    #[tool]
    async fn sq_subs_mode(&self) -> String {
        self.config().mode.clone()
    }
}

async fn subs_host(source: Counting) -> (ToolRegistry, PluginHost) {
    let registry = ToolRegistry::default();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["sq.subs"]))
        .registry(&registry)
        .config_source(source)
        .build();
    assert!(host.load_all().await.is_clean());
    take_events("sq.subs");
    (registry, host)
}

// "`ConfigScope::Bot` / `ConfigScope::Model` ("bot", "model"): only for plugins subscribed to that
// scope; the document is passed as given"; the host stores documents only after normalising and
// "after an accepted `update_config(Own)`".
#[tokio::test]
async fn bot_and_model_documents_reach_a_subscriber_as_given_and_leave_its_own_config() {
    let _serial = SERIAL.lock().await;
    let source = Counting::default();
    let (registry, host) = subs_host(source.clone()).await;
    let ctx = host.context("sq.subs").unwrap();
    let own = ctx.config_value();
    let stores = source.stores.load(Ordering::SeqCst);
    host.update_config("sq.subs", ConfigScope::Bot, json!({"mode": "from-bot", "plugin": 7}), "b-1").await.unwrap();
    host.update_config("sq.subs", ConfigScope::Model, json!(["x", 1, null]), "m-1").await.unwrap();
    host.update_config("sq.subs", ConfigScope::Bot, json!("just text"), "").await.unwrap();
    assert_eq!(
        take_events("sq.subs"),
        [
            r#"sq.subs bot b-1 {"mode":"from-bot","plugin":7}"#,
            r#"sq.subs model m-1 ["x",1,null]"#,
            r#"sq.subs bot  "just text""#
        ]
    );
    assert_eq!(ctx.config_value(), own, "the plugin's own config is untouched");
    assert_eq!(call(&registry, "sq_subs_mode").await.content, "default");
    assert_eq!(source.stores.load(Ordering::SeqCst), stores, "nothing is stored");
    host.shutdown().await;
}

// "A returned error or panic is logged and returned to the host; the plugin stays `Loaded`."
#[tokio::test]
async fn a_failing_bot_or_model_update_is_returned_and_the_plugin_stays_loaded() {
    let _serial = SERIAL.lock().await;
    let (registry, host) = subs_host(Counting::default()).await;
    let error = host.update_config("sq.subs", ConfigScope::Bot, json!({"act": "error"}), "1").await.unwrap_err();
    assert!(error.to_string().contains("refused by sq.subs"), "{error}");
    assert_eq!(host.state("sq.subs"), Some(PluginState::Loaded));
    let panicked = host.update_config("sq.subs", ConfigScope::Model, json!({"act": "panic"}), "2").await;
    assert!(panicked.is_err(), "{panicked:?}");
    assert_eq!(host.state("sq.subs"), Some(PluginState::Loaded));
    assert_eq!(take_events("sq.subs").len(), 2);
    assert_eq!(call(&registry, "sq_subs_mode").await.content, "default", "its tools still run");
    host.update_config("sq.subs", ConfigScope::Bot, json!({"act": "none"}), "3").await.unwrap();
    assert_eq!(take_events("sq.subs"), [r#"sq.subs bot 3 {"act":"none"}"#], "later updates still arrive");
    host.shutdown().await;
}

// ==== the plugin tools provider, per state ===================================================================

const ALL_STATES: [PluginState; 7] = [
    PluginState::Registered,
    PluginState::Disabled,
    PluginState::Failed,
    PluginState::Loading,
    PluginState::Loaded,
    PluginState::Unloading,
    PluginState::Unloaded,
];

fn declared(names: &[&str]) -> Vec<DeclaredTool> {
    let all = DeclaredTool::all();
    names.iter().map(|n| *all.iter().find(|t| t.name() == *n).unwrap()).collect()
}

fn state_provider(state: PluginState) -> PluginToolProvider {
    PluginToolProvider::with_plugins(vec![PluginToolsSpec {
        id: "sq.state".into(),
        source: Source::ThirdParty,
        state,
        tools: declared(&["sq_state_tool"]),
    }])
    .unwrap()
}

// States table: "`Loading` | yes", "`Loaded` | yes", "others | no"; the provider lists "Plugins in
// state `Loading` or `Loaded`".
#[tokio::test]
async fn the_provider_lists_a_plugins_tools_only_while_loading_or_loaded() {
    for state in ALL_STATES {
        let provider = state_provider(state);
        let names: Vec<String> = provider.list_tools(None).await.unwrap().iter().map(|t| t.name().to_owned()).collect();
        let expected: &[&str] =
            if matches!(state, PluginState::Loading | PluginState::Loaded) { &["sq_state_tool"] } else { &[] };
        assert_eq!(names, expected, "{state:?}");
        let registry = ToolRegistry::default();
        registry.register_provider(provider);
        assert_eq!(listed(&registry).await, expected, "{state:?}");
    }
}

// States table, "tool call": `Loading` ⇒ `PluginNotLoaded` error, `Loaded` ⇒ runs, others ⇒
// `Tool not found`; texts in both locales.
#[tokio::test]
async fn a_call_answers_per_plugin_state_in_both_locales() {
    for locale in [Locale::En, Locale::ZhHans] {
        for state in ALL_STATES {
            let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
            registry.register_provider(state_provider(state));
            let result = call(&registry, "sq_state_tool").await;
            let answer = if result.success { result.content.clone() } else { result.error_message.clone() };
            let expected = match (state, locale) {
                (PluginState::Loaded, _) => "state tool ran",
                (PluginState::Loading, Locale::ZhHans) => {
                    "工具 sq_state_tool 调用失败：PluginNotLoaded: 插件 sq.state 未加载"
                }
                (PluginState::Loading, _) => {
                    "Tool sq_state_tool failed: PluginNotLoaded: plugin sq.state is not loaded"
                }
                (_, Locale::ZhHans) => "未找到工具：sq_state_tool",
                _ => "Tool not found: sq_state_tool",
            };
            assert_eq!(answer, expected, "{state:?} {locale:?}");
            assert_eq!(result.tool_name, "sq_state_tool");
        }
    }
}

// "Plugin not yet `Loaded` ⇒ `Err(ToolError::plugin_not_loaded(id))`"; `ToolError`: "`type_name`
// (… `PluginNotLoaded` …) and `message`".
#[tokio::test]
async fn the_provider_itself_answers_a_loading_plugins_call_with_a_plugin_not_loaded_error() {
    let provider = state_provider(PluginState::Loading);
    let error = provider.invoke(ToolInvocation::new("sq_state_tool", "{}"), None).await.unwrap_err();
    assert_eq!(error.type_name(), "PluginNotLoaded");
    assert_eq!(error.message(Locale::En), "plugin sq.state is not loaded");
    assert_eq!(error.message(Locale::ZhHans), "插件 sq.state 未加载");
}

// "Name gone meanwhile ⇒ the not-found failure" (a result, not an error).
#[tokio::test]
async fn the_provider_itself_answers_an_unknown_name_with_the_not_found_failure() {
    let provider = state_provider(PluginState::Unloaded);
    let result = provider.invoke(ToolInvocation::new("sq_state_tool", "{}"), None).await.expect("a failure result");
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: sq_state_tool"));
    let loaded = state_provider(PluginState::Loaded);
    let result = loaded.invoke(ToolInvocation::new("sq_nowhere", "{}"), None).await.expect("a failure result");
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: sq_nowhere"));
}

// "`provider_name = "plugin_runtime"`, `provider_type = "plugin"`"; "Specs carry
// `metadata.plugin_id` and `metadata.visibility`"; "ordered by source rank (builtin first) then
// plugin id; within a plugin, tools by name".
#[tokio::test]
async fn the_provider_names_itself_and_lists_builtin_plugins_first_with_their_ids() {
    let provider = PluginToolProvider::with_plugins(vec![
        PluginToolsSpec {
            id: "sq.p-a".into(),
            source: Source::ThirdParty,
            state: PluginState::Loaded,
            tools: declared(&["sq_list_b", "sq_state_tool"]),
        },
        PluginToolsSpec {
            id: "sq.p-z".into(),
            source: Source::Builtin,
            state: PluginState::Loaded,
            tools: declared(&["sq_list_c", "sq_list_a"]),
        },
    ])
    .unwrap();
    assert_eq!((provider.provider_name(), provider.provider_type()), ("plugin_runtime", "plugin"));
    let specs = provider.list_tools(None).await.unwrap();
    let seen: Vec<(&str, &Value, &Value)> =
        specs.iter().map(|s| (s.name(), &s.metadata()["plugin_id"], &s.metadata()["visibility"])).collect();
    assert_eq!(
        seen,
        [
            ("sq_list_a", &json!("sq.p-z"), &json!("deferred")),
            ("sq_list_c", &json!("sq.p-z"), &json!("deferred")),
            ("sq_list_b", &json!("sq.p-a"), &json!("deferred")),
            ("sq_state_tool", &json!("sq.p-a"), &json!("visible")),
        ]
    );
}

// ==== lifecycle calls never overlap ===========================================================================

static SLOW_GATE: Notify = Notify::const_new();

#[derive(Default)]
pub struct SlowSubscriber;

#[plugin(id = "sq.slow-subs", config = SqConfig, config_subscriptions = ["bot"])]
impl SlowSubscriber {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("sq.slow-subs on_load start");
        SLOW_GATE.notified().await;
        event("sq.slow-subs on_load done");
    }

    async fn on_config_update(&self, scope: ConfigScope, _config: &Value, _version: &str) {
        event(format!("sq.slow-subs on_config_update {scope}"));
    }
}

// "Lifecycle calls of one plugin never overlap.": a Bot update sent while `on_load` runs does not
// reach `on_config_update` before `on_load` has returned.
#[tokio::test]
async fn a_bot_update_never_runs_while_on_load_does() {
    let _serial = SERIAL.lock().await;
    take_events("sq.slow-subs");
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["sq.slow-subs"])).registry(&registry).build();
    let loading = tokio::spawn({
        let host = host.clone();
        async move { host.load_all().await }
    });
    wait_until("on_load to start", async || has_event("sq.slow-subs on_load start")).await;
    let update = tokio::spawn({
        let host = host.clone();
        async move { host.update_config("sq.slow-subs", ConfigScope::Bot, json!({"x": 1}), "1").await }
    });
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert!(!has_event("sq.slow-subs on_config_update"), "on_config_update ran while on_load did");
    SLOW_GATE.notify_one();
    assert_eq!(loading.await.unwrap().outcome("sq.slow-subs").map(|o| o.state), Some(PluginState::Loaded));
    let _ = update.await.unwrap();
    let events = take_events("sq.slow-subs");
    assert_eq!(events[..2], ["sq.slow-subs on_load start", "sq.slow-subs on_load done"], "{events:?}");
    host.shutdown().await;
}
