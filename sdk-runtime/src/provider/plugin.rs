//! Tools of compiled-in plugins: every `#[tool]` and `#[action]`, collected from
//! `inventory`.

use crate::context_parts::ContextParts;
use crate::guard::panic_error;
use crate::plugins::{PluginSet, PluginState, Unavailable};
use crate::provider::blocking::{BlockingCalls, BlockingLimits, StuckCall};
use crate::provider::{Called, DirectCall, RegistryLink, ToolProvider};
use crate::registry::not_found;
use crate::source::Source;
use crate::strict_arguments::{DialectForms, undo_strict_forms};
use rustc_hash::FxHashMap as HashMap;
use serde_json::{Map, Value};
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock, Weak};
use tokio::sync::Semaphore;
use toolhook::__private::{AsyncInvoker, Invoker, ReadyInvoker, ToolKind, ToolRegistration};
use toolhook::{
    BoxFuture, Locale, SharedEntries, ToolArguments, ToolAvailabilityContext, ToolError, ToolExecutionContext,
    ToolExecutionResult, ToolInvocation, ToolSpec, Visibility,
};

/// Serves the tools of compiled-in plugins: `provider_name = "plugin_runtime"`,
/// `provider_type = "plugin"`.
///
/// Lists the tools of plugins that are loading or loaded, ordered by source rank (built-in first),
/// then plugin id, then tool name; calls run against the plugin's shared instance, only once its
/// `on_load` succeeded.
#[derive(Clone)]
pub struct PluginToolProvider {
    table: Arc<PluginTable>,
}

impl std::fmt::Debug for PluginToolProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plugins = self.table.read();
        f.debug_struct("PluginToolProvider")
            .field("plugins", &plugins.iter().map(|p| &p.id).collect::<Vec<_>>())
            .finish()
    }
}

/// The plugins a [`PluginToolProvider`] serves, shared with the plugin host that changes their
/// states.
#[derive(Default)]
pub(crate) struct PluginTable {
    plugins: RwLock<Vec<PluginTools>>,
    /// Bumped by every [`update`](Self::update), before the registry is told: a direct call
    /// made from an older table is not used (see [`DirectPluginTool`]).
    version: AtomicU64,
    /// Tools declared in the program but not served, and why (set by the plugin host).
    unavailable: RwLock<HashMap<String, Unavailable>>,
    link: OnceLock<RegistryLink>,
    pub(crate) blocking: Arc<BlockingCalls>,
}

pub(crate) struct PluginTools {
    pub(crate) id: String,
    /// `plugin_id: id`, shared by every result of the plugin's tools.
    origin: SharedEntries,
    pub(crate) source: Source,
    pub(crate) state: PluginState,
    pub(crate) instance: Option<Arc<dyn Any + Send + Sync>>,
    /// Sorted by name; each spec already carries `metadata.plugin_id` and `metadata.visibility`.
    pub(crate) tools: Vec<PluginTool>,
    index: HashMap<String, usize>,
    /// Blocking slots of the whole plugin (created at its first sync call).
    blocking: OnceLock<Arc<Semaphore>>,
}

pub(crate) struct PluginTool {
    pub(crate) registration: &'static ToolRegistration,
    pub(crate) spec: ToolSpec,
    /// The host's switch for this component.
    pub(crate) enabled: bool,
    /// Blocking slots of this tool (created at its first sync call).
    pub(crate) blocking: OnceLock<Arc<Semaphore>>,
    /// What a dialect can make a model send for it (worked out at its first call).
    forms: OnceLock<DialectForms>,
}

impl PluginTool {
    pub(crate) fn new(registration: &'static ToolRegistration, spec: ToolSpec) -> Self {
        PluginTool { registration, spec, enabled: true, blocking: OnceLock::new(), forms: OnceLock::new() }
    }

    fn forms(&self) -> DialectForms {
        *self.forms.get_or_init(|| DialectForms::of(self.spec.parameters_schema()))
    }
}

impl PluginTools {
    pub(crate) fn new(id: String, source: Source, state: PluginState, tools: Vec<PluginTool>) -> Self {
        let index = tools.iter().enumerate().map(|(i, t)| (t.spec.name().to_owned(), i)).collect();
        let origin = SharedEntries::kept("plugin_id", &id);
        PluginTools { id, origin, source, state, instance: None, tools, index, blocking: OnceLock::new() }
    }
}

/// What a sync tool call needs to take its blocking slots.
pub(crate) struct BlockingSlots {
    pub(crate) calls: Arc<BlockingCalls>,
    pub(crate) tool: Arc<Semaphore>,
    pub(crate) plugin: Arc<Semaphore>,
    pub(crate) plugin_id: String,
}

impl PluginTable {
    pub(crate) fn new(limits: BlockingLimits) -> Self {
        PluginTable { blocking: Arc::new(BlockingCalls::new(limits)), ..Default::default() }
    }

    /// Records why these tools are not served (`None`: they are again).
    pub(crate) fn set_unavailable<'a>(&self, tools: impl IntoIterator<Item = &'a str>, reason: Option<&Unavailable>) {
        let mut unavailable = self.unavailable.write().unwrap_or_else(|p| p.into_inner());
        for tool in tools {
            match reason {
                Some(reason) => unavailable.insert(tool.to_owned(), reason.clone()),
                None => unavailable.remove(tool),
            };
        }
    }

    pub(crate) fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<PluginTools>> {
        self.plugins.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Changes the table and tells the registry.
    pub(crate) fn update<R>(&self, change: impl FnOnce(&mut Vec<PluginTools>) -> R) -> R {
        let out = {
            let mut plugins = self.plugins.write().unwrap_or_else(|p| p.into_inner());
            let out = change(&mut plugins);
            plugins.sort_by(|a, b| (a.source, &a.id).cmp(&(b.source, &b.id)));
            self.version.fetch_add(1, Ordering::AcqRel);
            out
        };
        if let Some(link) = self.link.get() {
            link.notify();
        }
        out
    }
}

impl PluginToolProvider {
    pub(crate) fn with_table(table: Arc<PluginTable>) -> Self {
        PluginToolProvider { table }
    }

    /// Calls of sync tools still running after their caller stopped waiting (timed out or went
    /// away), longest first. Each keeps a blocking thread and its tool's and plugin's slots (see
    /// [`BlockingLimits`]) until the fn returns.
    pub fn stuck_calls(&self) -> Vec<StuckCall> {
        self.table.blocking.stuck()
    }

    /// A provider over every `#[tool]` and `#[action]` linked into the program whose plugin needs
    /// no lifecycle: the free functions of each package's default plugin, all loaded at once.
    /// Plugins with instances, config and lifecycle are served through a
    /// [`PluginHost`](crate::PluginHost).
    pub fn from_declared() -> Self {
        let set = PluginSet::collect();
        let table = Arc::new(PluginTable::new(BlockingLimits::default()));
        table.update(|plugins| {
            for plugin in set.plugins().filter(|p| p.is_default_plugin() && p.problems().is_empty()) {
                plugins.push(PluginTools::new(
                    plugin.id().to_owned(),
                    Source::ThirdParty,
                    PluginState::Loaded,
                    plugin.tool_entries(),
                ));
            }
        });
        PluginToolProvider { table }
    }
}

impl ToolProvider for PluginToolProvider {
    fn provider_name(&self) -> &str {
        "plugin_runtime"
    }

    fn provider_type(&self) -> &str {
        "plugin"
    }

    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::NONE
    }

    fn unavailable_reason(&self, tool: &str, locale: Locale) -> Option<String> {
        let unavailable = self.table.unavailable.read().unwrap_or_else(|p| p.into_inner());
        unavailable.get(tool).map(|why| why.in_locale(locale).to_owned())
    }

    fn attach(&self, link: RegistryLink) {
        // A provider registered with several registries notifies the first.
        let _ = self.table.link.set(link);
    }

    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let specs = self
            .table
            .read()
            .iter()
            .filter(|p| matches!(p.state, PluginState::Loading | PluginState::Loaded))
            .flat_map(|p| {
                p.tools
                    .iter()
                    .filter(|t| t.enabled && t.spec.visibility() != Visibility::Hidden)
                    .map(|t| t.spec.clone())
            })
            .collect();
        Box::pin(std::future::ready(Ok(specs)))
    }

    /// Context-named parameters are filled first (see [`prepare_arguments`]).
    fn __undoes_strict_forms(&self) -> bool {
        true
    }

    /// Async tools of loaded plugins; sync tools take their blocking slots per call, and a plugin
    /// that is not ready answers through `invoke`.
    fn __direct_call(&self, spec: &ToolSpec) -> Option<Box<dyn DirectCall>> {
        let plugin_id = spec.metadata().get("plugin_id").and_then(Value::as_str)?;
        let plugins = self.table.read();
        // Read under the lock, which every update holds while it bumps the version.
        let version = self.table.version.load(Ordering::Acquire);
        let plugin = plugins.iter().find(|p| p.id == plugin_id && p.state == PluginState::Loaded)?;
        let tool = &plugin.tools[*plugin.index.get(spec.name())?];
        let registration = tool.registration;
        let Invoker::Async(invoke) = registration.invoker else { return None };
        if !tool.enabled || (registration.is_method && plugin.instance.is_none()) {
            return None;
        }
        Some(Box::new(DirectPluginTool {
            provider: self.clone(),
            version,
            invoke,
            ready: registration.ready,
            registration,
            strict: tool.forms().any.then(|| spec.clone()),
            value_enums: tool.forms().value_enums,
            instance: plugin.instance.as_ref().map(Arc::downgrade),
            origin: plugin.origin.clone(),
            locale: self.table.link.get().map_or_else(Locale::default, RegistryLink::locale),
        }))
    }

    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        // Without a context, the texts are in the registry's locale.
        let locale =
            ctx.map_or_else(|| self.table.link.get().map_or_else(Locale::default, RegistryLink::locale), |c| c.locale);
        let limits = self.table.blocking.limits();
        let found = {
            let wanted_plugin = call.metadata().get("plugin_id").and_then(Value::as_str);
            let plugins = self.table.read();
            plugins
                .iter()
                .filter(|p| matches!(p.state, PluginState::Loading | PluginState::Loaded))
                .filter(|p| wanted_plugin.is_none_or(|id| id == p.id))
                .find_map(|p| {
                    let tool = &p.tools[*p.index.get(&call.tool_name)?];
                    if !tool.enabled {
                        return None;
                    }
                    let registration = tool.registration;
                    if p.state != PluginState::Loaded || (registration.is_method && p.instance.is_none()) {
                        return Some(Err(ToolError::plugin_not_loaded(&p.id)));
                    }
                    let slots = matches!(registration.invoker, Invoker::Sync(_)).then(|| BlockingSlots {
                        calls: self.table.blocking.clone(),
                        tool: tool.blocking.get_or_init(|| Arc::new(Semaphore::new(limits.tool_limit()))).clone(),
                        plugin: p.blocking.get_or_init(|| Arc::new(Semaphore::new(limits.plugin_limit()))).clone(),
                        plugin_id: p.id.clone(),
                    });
                    Some(Ok((
                        p.origin.clone(),
                        p.instance.clone(),
                        registration,
                        slots,
                        tool.spec.clone(),
                        tool.forms(),
                    )))
                })
        };
        let (origin, instance, registration, slots, spec, forms) = match found {
            Some(Ok(found)) => found,
            Some(Err(error)) => return Box::pin(std::future::ready(Err(error))),
            None => {
                let text = not_found(&call.tool_name, locale);
                return Box::pin(std::future::ready(Ok(ToolExecutionResult::failure(call.tool_name, text))));
            }
        };
        let mut call = call;
        prepare_arguments(&mut call, registration, ctx, forms.any.then_some(&spec), forms.value_enums);
        // Every result names the plugin that ran it, through the plugin's shared entry. An async
        // tool's own future is the call's: no wrapper, no second box.
        let origin = Some(origin);
        match registration.invoker {
            Invoker::Async(invoke) => invoke(instance, call, ctx, locale, origin),
            Invoker::Sync(_) => Box::pin(run_registration(registration, instance, call, ctx, locale, slots, origin)),
        }
    }
}

/// The direct call of one async tool of a loaded plugin: what [`PluginToolProvider::invoke`]
/// finds under the table's lock on every call, found once per listing.
///
/// It is used only while the table is as it was when the call was made: every change of a
/// plugin's state, instance or tools goes through [`PluginTable::update`], which bumps the
/// table's version before telling the registry, and a call that finds another version goes
/// through [`PluginToolProvider::invoke`], which looks at the table as it is. So no call that
/// starts after a plugin was unloaded reaches it, whichever listing it was routed with (a stale
/// one while a new one is fetched, or one of a registry the provider does not notify). The
/// plugin's instance is held weakly: a direct call kept in a cached listing does not keep an
/// unloaded plugin alive.
struct DirectPluginTool {
    provider: PluginToolProvider,
    /// The table's version when the call was made.
    version: u64,
    invoke: AsyncInvoker,
    /// For a tool whose body can never wait: the call run to its end in place.
    ready: Option<ReadyInvoker>,
    registration: &'static ToolRegistration,
    /// The tool's spec, when its arguments can hold a strict or Gemini definition's forms.
    strict: Option<ToolSpec>,
    /// Whether its schema has an enum of numbers or booleans (sent as strings for Gemini).
    value_enums: bool,
    /// The plugin's instance, for a method tool.
    instance: Option<Weak<dyn Any + Send + Sync>>,
    origin: SharedEntries,
    /// The registry's locale: the texts of calls that come without a context.
    locale: Locale,
}

impl DirectCall for DirectPluginTool {
    fn call<'a>(&'a self, mut call: ToolInvocation, ctx: Option<&'a ToolExecutionContext>) -> Called<'a> {
        let instance = self.instance.as_ref().and_then(Weak::upgrade);
        let current = self.provider.table.version.load(Ordering::Acquire) == self.version;
        if !current || instance.is_none() && self.instance.is_some() {
            return Called::Running(self.provider.invoke(call, ctx));
        }
        let locale = ctx.map_or(self.locale, |c| c.locale);
        prepare_arguments(&mut call, self.registration, ctx, self.strict.as_ref(), self.value_enums);
        let origin = Some(self.origin.clone());
        match self.ready {
            Some(ready) => Called::Done(ready(instance, call, ctx, locale, origin)),
            None => Called::Running((self.invoke)(instance, call, ctx, locale, origin)),
        }
    }
}

/// One plugin of [`PluginToolProvider::with_plugins`].
#[doc(hidden)]
#[derive(Debug)]
pub struct PluginToolsSpec {
    /// Plugin id.
    pub id: String,
    /// Source rank.
    pub source: Source,
    /// Lifecycle state.
    pub state: PluginState,
    /// Its tools: declared tools served under this plugin.
    pub tools: Vec<toolhook::DeclaredTool>,
}

impl PluginToolProvider {
    /// A provider over hand-picked declared tools grouped into plugins with given states (test
    /// fixtures and hosts that assemble plugins themselves).
    #[doc(hidden)]
    pub fn with_plugins(plugins: Vec<PluginToolsSpec>) -> Result<Self, toolhook::ToolSpecError> {
        let table = Arc::new(PluginTable::new(BlockingLimits::default()));
        let mut built = Vec::new();
        for plugin in plugins {
            let mut tools = Vec::new();
            for tool in plugin.tools {
                let spec = tool.spec()?;
                let spec = spec.__with_metadata([
                    ("plugin_id".to_owned(), Value::from(plugin.id.clone())),
                    ("visibility".to_owned(), Value::from(spec.visibility().as_str())),
                ]);
                tools.push(PluginTool::new(tool.registration(), spec));
            }
            tools.sort_by(|a, b| a.spec.name().cmp(b.spec.name()));
            built.push(PluginTools::new(plugin.id, plugin.source, plugin.state, tools));
        }
        table.update(|plugins| plugins.extend(built));
        Ok(PluginToolProvider { table })
    }
}

/// Calls a registered tool: async tools are awaited, sync tools run on the blocking pool within
/// their tool's and plugin's limits.
pub(crate) async fn run_registration(
    registration: &'static ToolRegistration,
    instance: Option<Arc<dyn Any + Send + Sync>>,
    call: ToolInvocation,
    ctx: Option<&ToolExecutionContext>,
    locale: Locale,
    slots: Option<BlockingSlots>,
    origin: Option<SharedEntries>,
) -> Result<ToolExecutionResult, ToolError> {
    match registration.invoker {
        Invoker::Async(invoke) => invoke(instance, call, ctx, locale, origin).await,
        Invoker::Sync(invoke) => {
            let ctx = ctx.cloned();
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                return Err(ToolError::new(
                    "Runtime",
                    "sync tools run on tokio's blocking pool; run the host on tokio",
                ));
            };
            // Waiting for a slot is cancelled with the call; a call that got one keeps it (and its
            // thread) until the fn returns, even after its caller stopped waiting.
            let (permits, tracked) = match &slots {
                Some(slots) => {
                    let Some(permits) = BlockingCalls::slots(&slots.tool, &slots.plugin).await else {
                        return Err(ToolError::new("Unavailable", "the tool's blocking slots are closed"));
                    };
                    let (caller, thread) = slots.calls.track(&slots.plugin_id, &call.tool_name);
                    (Some(permits), Some((caller, thread)))
                }
                None => (None, None),
            };
            let (_caller, thread) = tracked.unzip();
            let job = runtime.spawn_blocking(move || {
                let _permits = permits;
                let _thread = thread;
                invoke(instance, call, ctx, locale, origin)
            });
            match job.await {
                Ok(result) => result,
                Err(join) if join.is_panic() => Err(panic_error(join.into_panic())),
                Err(join) => Err(ToolError::new("Cancelled", join.to_string())),
            }
        }
    }
}

/// The arguments a plugin tool receives: declared context-named parameters the
/// model left empty are filled from the context; legacy actions get the Python SDK's full object.
/// Then what a strict or Gemini definition made the model send is undone, guided by `strict`'s
/// schema (the registry leaves that to this provider; `value_enums`: the schema has an enum of
/// numbers or booleans): a parameter sent as `null` is filled where it stands.
/// Most tools need none of it, and pass through without a call.
#[inline]
pub(crate) fn prepare_arguments(
    call: &mut ToolInvocation,
    registration: &ToolRegistration,
    ctx: Option<&ToolExecutionContext>,
    strict: Option<&ToolSpec>,
    value_enums: bool,
) {
    let legacy = registration.kind == ToolKind::LegacyAction;
    if !registration.context_params.is_empty() || legacy {
        fill_from_context(call, registration, ctx, legacy);
    }
    if let Some(spec) = strict {
        undo_strict_forms(&mut call.arguments, spec.parameters_schema(), value_enums);
    }
}

/// [`prepare_arguments`] of a tool that has context-named parameters or is a legacy action.
fn fill_from_context(
    call: &mut ToolInvocation,
    registration: &ToolRegistration,
    ctx: Option<&ToolExecutionContext>,
    legacy: bool,
) {
    let Ok(Value::Object(mut args)) =
        call.arguments.to_value().map(|v| if v.is_null() { Value::Object(Map::new()) } else { v })
    else {
        // Not an object: decoding reports it.
        return;
    };
    let empty = ToolExecutionContext::default();
    let c = ctx.unwrap_or(&empty);
    let sid = c.stream_or_session();
    let facts = [
        ("stream_id", sid),
        ("chat_id", sid),
        ("group_id", c.group_id.as_str()),
        ("user_id", c.user_id.as_str()),
        ("platform", c.platform.as_str()),
    ];
    let original = legacy.then(|| Value::Object(args.clone()));
    for (key, value) in facts {
        if !(legacy || registration.context_params.contains(&key)) || value.is_empty() {
            continue;
        }
        let missing = match args.get(key) {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(_) => false,
        };
        if missing {
            args.insert(key.to_owned(), Value::from(value));
        }
    }
    if let Some(original) = original {
        args.insert("stream_id".into(), Value::from(sid));
        args.insert("chat_id".into(), Value::from(sid));
        args.insert("reasoning".into(), Value::from(ctx.map(|c| c.reasoning.as_str()).unwrap_or(call.reasoning())));
        args.insert("action_data".into(), original);
    }
    call.arguments = ToolArguments::Value(Value::Object(args));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolRegistry;

    /// Say hi.
    #[toolhook::tool(core_tool = true)]
    async fn direct_probe() -> String {
        "hi".to_owned()
    }

    fn provider() -> PluginToolProvider {
        let tool = toolhook::DeclaredTool::all().into_iter().find(|t| t.name() == "direct_probe").unwrap();
        let plugin = PluginToolsSpec {
            id: "acme.direct".into(),
            source: Source::ThirdParty,
            state: PluginState::Loaded,
            tools: vec![tool],
        };
        PluginToolProvider::with_plugins(vec![plugin]).unwrap()
    }

    async fn call(registry: &ToolRegistry) -> ToolExecutionResult {
        registry.invoke(ToolInvocation::new("direct_probe", "{}"), None).await
    }

    #[tokio::test]
    async fn a_direct_call_made_before_the_table_changed_is_not_used_after() {
        let provider = provider();
        // A second registry is never told of the table's changes (a provider notifies the first
        // registry it is attached to): its listing, and the direct call made from it, stay.
        let (first, second) = (ToolRegistry::default(), ToolRegistry::default());
        first.register_provider(provider.clone());
        second.register_provider(provider.clone());
        for registry in [&first, &second] {
            assert_eq!(call(registry).await.content, "hi");
        }
        provider.table.update(|plugins| plugins.clear());
        for registry in [&first, &second] {
            let result = call(registry).await;
            assert_eq!(result.error_message, "Tool not found: direct_probe", "{result:?}");
        }
    }
}
