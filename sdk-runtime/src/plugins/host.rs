//! The plugin host: loads plugins in order, runs their lifecycle, hands them their
//! config, and keeps the registry and the hook dispatcher in step with their states.

use super::classification::HostClassification;
use super::config::{ConfigError, ConfigSource, merge_patch, normalise};
use super::load_report::{LoadOutcome, LoadReport};
use super::set::{CollectedPlugin, PluginProblem, PluginSet};
use super::state::PluginState;
use super::unavailable::Unavailable;
use crate::guard::{self, Guarded, panic_message};
use crate::hooks::{HookDispatcher, HookHandlerEntry};
use crate::provider::blocking::{BlockingLimits, StuckCall};
use crate::provider::plugin::{PluginTable, PluginToolProvider, PluginTools};
use crate::registry::ToolRegistry;
use crate::source::Source;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolhook::__private::Instance;
use toolhook::{ConfigScope, Locale, PluginContext, Services};

/// Why a config update was refused or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigUpdateError {
    /// No plugin with that id is loaded.
    #[error("plugin {0} is not loaded")]
    NotLoaded(String),
    /// The document is not a valid config.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `on_config_update` failed or panicked.
    #[error("on_config_update of plugin {plugin_id} failed: {message}")]
    Hook {
        /// The plugin.
        plugin_id: String,
        /// Its error text.
        message: String,
    },
}

struct Runtime {
    state: PluginState,
    reason: Option<String>,
    instance: Option<Instance>,
    context: Option<PluginContext>,
}

struct HostInner {
    set: PluginSet,
    registry: ToolRegistry,
    dispatcher: Option<HookDispatcher>,
    source: Option<Box<dyn ConfigSource>>,
    classification: HostClassification,
    services: Services,
    locale: Locale,
    lifecycle_timeout: Duration,
    table: Arc<PluginTable>,
    runtime: Mutex<HashMap<String, Runtime>>,
    load_order: Mutex<Vec<String>>,
    /// Problems found while loading (handlers left out, plugins failed), until `load_all` reports them.
    load_problems: Mutex<Vec<PluginProblem>>,
    /// Lifecycle calls of one plugin never overlap.
    lifecycle: tokio::sync::Mutex<()>,
}

/// Loads compiled-in plugins into a [`ToolRegistry`] and a [`HookDispatcher`] and runs their
/// lifecycle.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use toolhook_runtime::{PluginHost, PluginSet, PluginState, ToolRegistry};
/// use toolhook_runtime::hooks::HookDispatcher;
///
/// let registry = ToolRegistry::default();
/// let dispatcher = HookDispatcher::builder().validate_hooks(false).build();
/// let host = PluginHost::builder().plugins(PluginSet::collect()).registry(&registry).dispatcher(&dispatcher).build();
/// let report = host.load_all().await;
/// assert!(report.is_clean(), "{:?}", report.problems());
/// for outcome in &report {
///     assert_ne!(outcome.state, PluginState::Failed, "{outcome:?}");
/// }
/// host.shutdown().await;
/// # });
/// ```
#[derive(Clone)]
pub struct PluginHost {
    inner: Arc<HostInner>,
}

impl std::fmt::Debug for PluginHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginHost")
            .field("plugins", &self.inner.set.plugins().map(|p| p.id()).collect::<Vec<_>>())
            .finish()
    }
}

/// Builds a [`PluginHost`].
#[derive(Default)]
#[must_use]
pub struct PluginHostBuilder {
    set: Option<PluginSet>,
    registry: Option<ToolRegistry>,
    dispatcher: Option<HookDispatcher>,
    source: Option<Box<dyn ConfigSource>>,
    classification: HostClassification,
    services: Services,
    blocking: BlockingLimits,
    lifecycle_timeout: Option<Duration>,
}

impl std::fmt::Debug for PluginHostBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginHostBuilder").finish_non_exhaustive()
    }
}

impl PluginHostBuilder {
    /// The plugins (default: [`PluginSet::collect`]).
    pub fn plugins(mut self, set: PluginSet) -> Self {
        self.set = Some(set);
        self
    }

    /// The registry that serves their tools (default: a new one).
    pub fn registry(mut self, registry: &ToolRegistry) -> Self {
        self.registry = Some(registry.clone());
        self
    }

    /// The dispatcher their hook handlers join (default: none; handlers are not registered).
    pub fn dispatcher(mut self, dispatcher: &HookDispatcher) -> Self {
        self.dispatcher = Some(dispatcher.clone());
        self
    }

    /// Where config documents are kept (default: nowhere; every plugin starts from its defaults).
    pub fn config_source(mut self, source: impl ConfigSource) -> Self {
        self.source = Some(Box::new(source));
        self
    }

    /// Which plugins are built-in.
    pub fn classification(mut self, classification: HostClassification) -> Self {
        self.classification = classification;
        self
    }

    /// Shorthand: these plugin ids are built-in.
    pub fn builtin<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.classification = self.classification.builtin(ids);
        self
    }

    /// Services plugins reach through [`PluginContext::service`].
    pub fn services(mut self, services: Services) -> Self {
        self.services = services;
        self
    }

    /// How many calls of sync tools may hold blocking threads at once, per tool and per plugin
    /// (default 8 and 32). A timed-out sync call keeps its slot until it returns, so a stuck
    /// tool can only starve itself; [`PluginHost::stuck_calls`] lists such calls.
    pub fn blocking_limits(mut self, limits: BlockingLimits) -> Self {
        self.blocking = limits;
        self
    }

    /// The longest `on_load`, `on_unload` or `on_config_update` may take (default 30 s). A plugin
    /// whose `on_load` takes longer ends `Failed` with its tools and handlers withdrawn; an
    /// `on_unload` that takes longer is abandoned, so [`PluginHost::shutdown`] always completes.
    pub fn lifecycle_timeout(mut self, timeout: Duration) -> Self {
        self.lifecycle_timeout = Some(timeout);
        self
    }

    /// Builds the host and registers its tool provider with the registry.
    pub fn build(self) -> PluginHost {
        let registry = self.registry.unwrap_or_default();
        let table = Arc::new(PluginTable::new(self.blocking));
        registry.register_provider(PluginToolProvider::with_table(table.clone()));
        let set = self.set.unwrap_or_else(PluginSet::collect);
        for problem in set.problems() {
            problem.log();
        }
        let mut runtime = HashMap::new();
        for plugin in set.plugins() {
            for tool in plugin.tools() {
                table.set_unavailable([tool.name()], set.why_not_served(tool.name()).as_ref());
            }
            for problem in plugin.left_out() {
                if let Some(tool) = problem
                    .component
                    .as_deref()
                    .and_then(|c| c.strip_prefix("tool ").or_else(|| c.strip_prefix("action ")))
                {
                    table.set_unavailable([tool], Some(&Unavailable::as_reported(&problem.message)));
                }
            }
            let (state, reason) = if plugin.problems().is_empty() {
                (PluginState::Registered, None)
            } else {
                (PluginState::Failed, Some(plugin.problems().join("; ")))
            };
            runtime.insert(plugin.id().to_owned(), Runtime { state, reason, instance: None, context: None });
        }
        PluginHost {
            inner: Arc::new(HostInner {
                set,
                locale: registry.locale(),
                registry,
                dispatcher: self.dispatcher,
                source: self.source,
                classification: self.classification,
                services: self.services,
                lifecycle_timeout: self.lifecycle_timeout.unwrap_or(Duration::from_secs(30)),
                table,
                runtime: Mutex::new(runtime),
                load_order: Mutex::new(Vec::new()),
                load_problems: Mutex::new(Vec::new()),
                lifecycle: tokio::sync::Mutex::new(()),
            }),
        }
    }
}

impl PluginHost {
    /// Starts building a host.
    pub fn builder() -> PluginHostBuilder {
        PluginHostBuilder::default()
    }

    /// The registry serving the plugins' tools.
    pub fn registry(&self) -> &ToolRegistry {
        &self.inner.registry
    }

    /// The collected plugins.
    pub fn plugins(&self) -> &PluginSet {
        &self.inner.set
    }

    /// A plugin's state.
    pub fn state(&self, plugin_id: &str) -> Option<PluginState> {
        self.runtime().get(plugin_id).map(|r| r.state)
    }

    /// Why a plugin failed or is disabled.
    pub fn reason(&self, plugin_id: &str) -> Option<String> {
        self.runtime().get(plugin_id).and_then(|r| r.reason.clone())
    }

    /// Calls of sync tools still running after their caller stopped waiting, longest first (see
    /// [`PluginHostBuilder::blocking_limits`]).
    pub fn stuck_calls(&self) -> Vec<StuckCall> {
        self.inner.table.blocking.stuck()
    }

    /// A loaded plugin's context.
    pub fn context(&self, plugin_id: &str) -> Option<PluginContext> {
        self.runtime().get(plugin_id).and_then(|r| r.context.clone())
    }

    fn runtime(&self) -> std::sync::MutexGuard<'_, HashMap<String, Runtime>> {
        self.inner.runtime.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_state(&self, plugin_id: &str, state: PluginState, reason: Option<String>) {
        if let Some(runtime) = self.runtime().get_mut(plugin_id) {
            runtime.state = state;
            runtime.reason = reason;
        }
        self.inner.table.update(|plugins| {
            if let Some(entry) = plugins.iter_mut().find(|p| p.id == plugin_id) {
                entry.state = state;
            }
        });
    }

    /// Loads every plugin, one at a time, built-in first, then by id. A failing plugin never
    /// stops the others, and a faulty component (a hook handler whose hook is not registered,
    /// say) is left out without failing its plugin.
    ///
    /// The report lists every problem — also logged through `tracing` — and must be looked at:
    /// [`LoadReport::into_result`] turns any problem into an error.
    pub async fn load_all(&self) -> LoadReport {
        let mut order: Vec<&CollectedPlugin> = self.inner.set.plugins().collect();
        order.sort_by_key(|p| (self.inner.classification.classify(p.id()), p.id().to_owned()));
        let mut outcomes = Vec::new();
        for plugin in order {
            let _guard = self.inner.lifecycle.lock().await;
            let skip = self.state(plugin.id()).is_none_or(|s| s != PluginState::Registered);
            if !skip {
                self.load(plugin).await;
            }
            outcomes.push(LoadOutcome {
                plugin_id: plugin.id().to_owned(),
                state: self.state(plugin.id()).unwrap_or(PluginState::Failed),
                reason: self.reason(plugin.id()),
            });
        }
        let mut problems = self.inner.set.problems();
        problems.append(&mut self.inner.load_problems.lock().unwrap_or_else(|p| p.into_inner()));
        LoadReport::new(outcomes, problems)
    }

    async fn load(&self, plugin: &CollectedPlugin) {
        let id = plugin.id().to_owned();
        let source = self.inner.classification.classify(&id);
        // 2. Config.
        let stored = match &self.inner.source {
            Some(source) => match source.load(&id) {
                Ok(document) => document,
                Err(error) => return self.fail(&id, error.to_string()),
            },
            None => None,
        };
        let config = match normalise(plugin.config(), stored.as_ref()) {
            Ok(config) => config,
            Err(error) => return self.fail_in(&id, error.message(self.inner.locale), error.message(Locale::En)),
        };
        if config.changed
            && let Some(source) = &self.inner.source
            && let Err(error) = source.store(&id, &config.document)
        {
            tracing::error!(plugin = %id, %error, "storing the normalised config failed");
        }
        if !config.enabled {
            self.set_state(&id, PluginState::Disabled, Some("plugin.enabled = false".into()));
            return;
        }
        // 3. Hook handlers, one atomic batch, against the instance they will run on.
        let instance = plugin.registration().map(|r| (r.create)());
        if let Some(dispatcher) = &self.inner.dispatcher {
            dispatcher.set_plugin_loaded(&id, plugin.is_default_plugin());
            let mut entries: Vec<HookHandlerEntry> =
                plugin.hook_handlers().iter().map(|h| HookHandlerEntry::from_declared(*h, instance.clone())).collect();
            // A handler the dispatcher would refuse is left out; its siblings still register.
            entries.retain(|entry| match dispatcher.check_handler(&id, entry) {
                Ok(()) => true,
                Err(error) => {
                    let problem = PluginProblem::component(
                        &id,
                        format!("hook handler {}", entry.name),
                        error.message(self.inner.locale),
                    );
                    self.problem_logged_as(problem, &error.message(Locale::En));
                    false
                }
            });
            if !entries.is_empty()
                && let Err(error) = dispatcher.register_plugin(&id, source, entries)
            {
                return self.fail_in(&id, error.message(self.inner.locale), error.message(Locale::En));
            }
        }
        // 4. Loading: tools are listed, calls get PluginNotLoaded.
        let context = PluginContext::with_services(&id, plugin.name(), plugin.version(), self.inner.services.clone());
        context.set_config(config.document.clone(), config.typed.clone());
        if let Some(instance) = &instance {
            // What the generated `plugin_context()` and `config()` methods read, from `on_load` on.
            toolhook::__private::attach_context(instance, context.clone());
        }
        let mut tools = PluginTools::new(id.clone(), source, PluginState::Loading, plugin.tool_entries());
        tools.instance = instance.clone();
        self.inner.table.update(|plugins| {
            plugins.retain(|p| p.id != id);
            plugins.push(tools);
        });
        if let Some(runtime) = self.runtime().get_mut(&id) {
            runtime.state = PluginState::Loading;
            runtime.instance = instance.clone();
            runtime.context = Some(context.clone());
        }
        // 5. on_load. Should the caller drop this future meanwhile, the plugin ends `Failed`
        // rather than `Loading` forever.
        let loaded = {
            let mut cancelled = CancelGuard { host: self, id: &id, armed: true };
            let on_load = plugin.registration().and_then(|r| r.on_load);
            let loaded = match (on_load, instance) {
                (Some(on_load), Some(instance)) => self.guarded("on_load", move || on_load(instance, context)).await,
                _ => Ok(()),
            };
            cancelled.armed = false;
            loaded
        };
        match loaded {
            Ok(()) => {
                self.set_state(&id, PluginState::Loaded, None);
                let served = plugin.tools().iter().map(|t| t.name());
                self.inner.table.set_unavailable(served, None);
                if let Some(dispatcher) = &self.inner.dispatcher {
                    dispatcher.set_plugin_loaded(&id, true);
                }
                self.inner.load_order.lock().unwrap_or_else(|p| p.into_inner()).push(id);
            }
            Err(reason) => self.fail(&id, reason),
        }
    }

    /// Records a load problem worded in the host's locale, for the next [`LoadReport`], and
    /// logs it with its English words.
    fn problem_logged_as(&self, problem: PluginProblem, english: &str) {
        problem.log_as(english);
        self.inner.load_problems.lock().unwrap_or_else(|p| p.into_inner()).push(problem);
    }

    /// Marks a plugin failed and takes back everything it registered. `reason` is as the plugin
    /// or its loader said it, in no particular locale.
    fn fail(&self, id: &str, reason: String) {
        let english = reason.clone();
        self.fail_in(id, reason, english);
    }

    /// [`fail`](Self::fail) for a reason worded in the host's locale: logged in `english`.
    fn fail_in(&self, id: &str, reason: String, english: String) {
        let problem = PluginProblem::plugin(id, format!("failed to load: {reason}"));
        self.problem_logged_as(problem, &format!("failed to load: {english}"));
        if let Some(instance) = self.runtime().get(id).and_then(|r| r.instance.clone()) {
            toolhook::__private::detach_context(&instance);
        }
        if let Some(plugin) = self.inner.set.get(id) {
            let why = Unavailable::failed_to_load(id, &reason);
            self.inner.table.set_unavailable(plugin.tools().iter().map(|t| t.name()), Some(&why));
        }
        if let Some(dispatcher) = &self.inner.dispatcher {
            dispatcher.unregister_plugin(id);
        }
        self.inner.table.update(|plugins| plugins.retain(|p| p.id != id));
        if let Some(runtime) = self.runtime().get_mut(id) {
            runtime.state = PluginState::Failed;
            runtime.reason = Some(reason);
            runtime.instance = None;
            runtime.context = None;
        }
    }

    /// Unloads a plugin: its tools stop being listed and its handlers are unregistered first
    /// (calls in flight finish), then `on_unload` runs (an error or panic is logged).
    pub async fn unload(&self, plugin_id: &str) {
        let _guard = self.inner.lifecycle.lock().await;
        self.unload_locked(plugin_id).await;
    }

    async fn unload_locked(&self, plugin_id: &str) {
        if self.state(plugin_id) != Some(PluginState::Loaded) {
            return;
        }
        self.set_state(plugin_id, PluginState::Unloading, None);
        if let Some(dispatcher) = &self.inner.dispatcher {
            dispatcher.unregister_plugin(plugin_id);
        }
        let instance = self.runtime().get(plugin_id).and_then(|r| r.instance.clone());
        let on_unload = self.inner.set.get(plugin_id).and_then(|p| p.registration()).and_then(|r| r.on_unload);
        if let (Some(on_unload), Some(instance)) = (on_unload, instance)
            && let Err(error) = self.guarded("on_unload", move || on_unload(instance)).await
        {
            tracing::error!(plugin = %plugin_id, %error, "on_unload failed");
        }
        self.inner.table.update(|plugins| plugins.retain(|p| p.id != plugin_id));
        if let Some(runtime) = self.runtime().get_mut(plugin_id) {
            runtime.state = PluginState::Unloaded;
            if let Some(instance) = runtime.instance.take() {
                toolhook::__private::detach_context(&instance);
            }
        }
        self.inner.load_order.lock().unwrap_or_else(|p| p.into_inner()).retain(|id| id != plugin_id);
    }

    /// Unloads every loaded plugin in reverse load order, running each one's `on_unload`. This is
    /// where hosts stop plugins; [`ToolRegistry::close`] does not.
    pub async fn shutdown(&self) {
        let _guard = self.inner.lifecycle.lock().await;
        let order: Vec<String> = self.inner.load_order.lock().unwrap_or_else(|p| p.into_inner()).clone();
        for id in order.iter().rev() {
            self.unload_locked(id).await;
        }
    }

    /// Hands a plugin a new config document. An `Own` document is an update laid over the current
    /// one (JSON Merge Patch: fields it does not name keep their values, a `null` resets one to
    /// its default, and it needs no `plugin` section), then normalised (an error is returned and
    /// the old config kept) and passed to `on_config_update`, during which the plugin's context
    /// already reads the new config. When `on_config_update` fails (or panics, or times out) the
    /// error is returned, the plugin stays loaded and its context reads the old config again;
    /// otherwise the new config is stored in the config source. `Bot` and `Model` documents go as
    /// given, only to subscribed plugins.
    pub async fn update_config(
        &self,
        plugin_id: &str,
        scope: ConfigScope,
        document: Value,
        version: &str,
    ) -> Result<(), ConfigUpdateError> {
        let _guard = self.inner.lifecycle.lock().await;
        if self.state(plugin_id) != Some(PluginState::Loaded) {
            return Err(ConfigUpdateError::NotLoaded(plugin_id.to_owned()));
        }
        let plugin = self.inner.set.get(plugin_id).ok_or_else(|| ConfigUpdateError::NotLoaded(plugin_id.to_owned()))?;
        let registration = plugin.registration();
        let context = self.context(plugin_id);
        // For an `Own` update: the normalised document to store once the plugin accepts it, and
        // the config it replaced, put back unless it does (also when this future is dropped).
        let mut stored = None;
        let mut undo = Undo(None);
        let document = match scope {
            ConfigScope::Own => {
                // The update is laid over the current document: what it does not name stays.
                let current = context.as_ref().map(|c| c.config_value()).unwrap_or_default();
                let config = normalise(plugin.config(), Some(&merge_patch(&current, &document)))?;
                if let Some(context) = &context {
                    let (value, typed) = context.set_config(config.document.clone(), config.typed.clone());
                    undo.0 = Some((context.clone(), value, typed));
                }
                stored = Some(config.document.clone());
                config.document
            }
            ConfigScope::Bot | ConfigScope::Model => {
                let subscribed = plugin.config().is_some_and(|c| c.subscriptions.contains(&scope));
                if !subscribed {
                    return Ok(());
                }
                document
            }
        };
        let instance = self.runtime().get(plugin_id).and_then(|r| r.instance.clone());
        let hook = registration.and_then(|r| r.on_config_update);
        if let (Some(hook), Some(instance)) = (hook, instance) {
            let version = version.to_owned();
            if let Err(message) =
                self.guarded("on_config_update", move || hook(instance, scope, document, version)).await
            {
                tracing::error!(plugin = %plugin_id, %message, "on_config_update failed; the config stays as it was");
                return Err(ConfigUpdateError::Hook { plugin_id: plugin_id.to_owned(), message });
            }
        }
        undo.0 = None;
        if let (Some(source), Some(stored)) = (&self.inner.source, &stored)
            && let Err(error) = source.store(plugin_id, stored)
        {
            tracing::error!(plugin = %plugin_id, %error, "storing the updated config failed");
        }
        Ok(())
    }

    /// The source rank of a plugin.
    pub fn source_of(&self, plugin_id: &str) -> Source {
        self.inner.classification.classify(plugin_id)
    }
}

/// A plugin's config before an update it has not accepted yet: put back when dropped armed (the
/// plugin refused the update, or the update was dropped while the plugin looked at it).
struct Undo(Option<(PluginContext, Value, Option<TypedConfig>)>);

/// A plugin's typed config, as its context holds it.
type TypedConfig = Arc<dyn std::any::Any + Send + Sync>;

impl Drop for Undo {
    fn drop(&mut self) {
        if let Some((context, value, typed)) = self.0.take() {
            context.set_config(value, typed);
        }
    }
}

/// Marks a plugin `Failed` (tools and handlers withdrawn) when its load is dropped half-way.
struct CancelGuard<'a> {
    host: &'a PluginHost,
    id: &'a str,
    armed: bool,
}

impl Drop for CancelGuard<'_> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.host.fail(self.id, "loading was cancelled: the load_all future was dropped during on_load".to_owned());
    }
}

impl PluginHost {
    /// Runs a lifecycle call under the lifecycle timeout, catching panics (also while creating
    /// the future and while dropping it).
    async fn guarded(
        &self,
        what: &str,
        call: impl FnOnce() -> toolhook::BoxFuture<'static, Result<(), String>>,
    ) -> Result<(), String> {
        let panicked = |message: Option<String>| format!("panic: {}", message.unwrap_or_default());
        let future = guard::create(call).map_err(|p| panicked(panic_message(&*p)))?;
        let limit = self.inner.lifecycle_timeout;
        match guard::run(future, Some(limit), guard::Stamp::precise()).await {
            Guarded::Finished(result) => result,
            Guarded::Panicked(message) => Err(panicked(message)),
            Guarded::TimedOut(_) => Err(format!("{what} did not finish within {} ms", limit.as_millis())),
            Guarded::NoTimer(missing) => Err(missing.into_tool_error().message(Locale::En).to_owned()),
        }
    }
}
