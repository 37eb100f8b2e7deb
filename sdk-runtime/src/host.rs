//! [`Host`]: a whole bot host — registry, `tool_search`, hook dispatcher, plugins and (with the
//! `mcp` feature) MCP servers — wired and loaded by one builder.

use crate::command::{CommandReply, CommandSet};
use crate::deferred::{DeferredTools, RoundTools};
use crate::hooks::{HookDispatchResult, HookDispatcher, HookError, HookSpec, HookSpecRegistry};
use crate::plugins::{
    ConfigSource, HostClassification, LoadReport, PluginHost, PluginHostBuilder, PluginProblem, PluginSet,
};
use crate::provider::ToolProvider;
use crate::provider::builtin::BuiltinToolProvider;
use crate::registry::{RegistryConfig, ToolRegistry};
use crate::results::{HistoryMessage, batch_history};
use std::sync::Arc;
use std::time::Duration;
use toolhook::hooks::HookArgs;
use toolhook::{Locale, Services, ToolExecutionContext, ToolExecutionResult, ToolInvocation};

/// A bot host in one value: a [`ToolRegistry`] with the built-in `tool_search`, a
/// [`HookDispatcher`] knowing the built-in hook catalogue, every plugin linked into the program
/// loaded by a [`PluginHost`], their chat commands, and (with the `mcp` feature) the tools of MCP
/// servers.
///
/// [`Host::builder`] wires and loads everything and lists every problem it met; the handles
/// cover a chat loop: the tools to send each model round, calls run into history messages, hooks
/// fired, commands run, and shutdown.
///
/// ```
/// use toolhook::{Dialect, ToolExecutionContext, ToolInvocation, tool};
/// use toolhook_runtime::{HistoryMessage, Host};
///
/// /// Multiplies two numbers.
/// #[tool(core_tool = true)]
/// fn multiply(
///     /// The first number.
///     a: i64,
///     /// The second number.
///     b: i64,
/// ) -> String {
///     (a * b).to_string()
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let host = match Host::builder().build().await {
///     Ok(host) => host,
///     // Every problem at once; the host still runs without the faulty parts.
///     Err(error) => {
///         eprintln!("{error}");
///         error.into_host()
///     }
/// };
/// let ctx = ToolExecutionContext::for_session("chat-1");
///
/// // Each model round: the tools to offer, and a reminder of the deferred ones.
/// let round = host.round(&ctx).await;
/// let tools = round.definitions(Dialect::OpenAiChat);
/// assert!(tools.iter().any(|t| t["function"]["name"] == "multiply"));
///
/// // The model's calls, run and turned into history messages.
/// let call = ToolInvocation::new("multiply", r#"{"a": 2, "b": 3}"#);
/// let history = host.run_calls([("call_1", call)], &ctx).await;
/// assert_eq!(history, [HistoryMessage::Tool { call_id: "call_1".into(), content: "6".into() }]);
///
/// host.shutdown().await;
/// # });
/// ```
///
/// The pieces stay available ([`registry`](Self::registry), [`dispatcher`](Self::dispatcher),
/// [`plugins`](Self::plugins), [`deferred`](Self::deferred)), and a host that needs a different
/// wiring builds them itself: this type only puts them together.
#[derive(Clone, Debug)]
pub struct Host {
    registry: ToolRegistry,
    dispatcher: HookDispatcher,
    plugins: PluginHost,
    deferred: DeferredTools,
    commands: CommandSet,
    #[cfg(feature = "mcp")]
    mcp: Option<crate::mcp::McpToolProvider>,
}

/// Builds a [`Host`]; every setting is optional.
#[must_use]
pub struct HostBuilder {
    locale: Locale,
    registry: RegistryConfig,
    plugins: PluginHostBuilder,
    hooks: Vec<HookSpec>,
    validate_hooks: bool,
    providers: Vec<Arc<dyn ToolProvider>>,
    #[cfg(feature = "mcp")]
    mcp: Option<(crate::mcp::McpServersConfig, Duration)>,
}

impl std::fmt::Debug for HostBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostBuilder").field("locale", &self.locale).finish_non_exhaustive()
    }
}

impl Default for HostBuilder {
    fn default() -> Self {
        HostBuilder {
            locale: Locale::En,
            registry: RegistryConfig::default(),
            plugins: PluginHost::builder(),
            hooks: Vec::new(),
            validate_hooks: true,
            providers: Vec::new(),
            #[cfg(feature = "mcp")]
            mcp: None,
        }
    }
}

impl HostBuilder {
    /// The language of the registry's texts, `tool_search`, the hook catalogue and errors
    /// (default English). Overrides the locale of a [`registry_config`](Self::registry_config).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// The registry's settings (timeouts, duplicate policy, caches, …).
    pub fn registry_config(mut self, config: RegistryConfig) -> Self {
        self.registry = config;
        self
    }

    /// The plugins to load (default: every plugin linked into the program, [`PluginSet::collect`]).
    pub fn plugin_set(mut self, set: PluginSet) -> Self {
        self.plugins = self.plugins.plugins(set);
        self
    }

    /// Where plugins' config documents are kept (default: nowhere; every plugin starts from its
    /// defaults).
    pub fn config_source(mut self, source: impl ConfigSource) -> Self {
        self.plugins = self.plugins.config_source(source);
        self
    }

    /// Which plugins are built-in (loaded first; see [`HostClassification`]).
    pub fn classification(mut self, classification: HostClassification) -> Self {
        self.plugins = self.plugins.classification(classification);
        self
    }

    /// Services plugins reach through `PluginContext::service`.
    pub fn services(mut self, services: Services) -> Self {
        self.plugins = self.plugins.services(services);
        self
    }

    /// The longest a plugin's `on_load`, `on_unload` or `on_config_update` may take (default 30 s).
    pub fn lifecycle_timeout(mut self, timeout: Duration) -> Self {
        self.plugins = self.plugins.lifecycle_timeout(timeout);
        self
    }

    /// Declares a hook of the host's own, beside the built-in catalogue, so that handlers marked
    /// `#[hook_handler("…", custom = true)]` can subscribe to it.
    pub fn hook(mut self, spec: HookSpec) -> Self {
        self.hooks.push(spec);
        self
    }

    /// Whether a handler's hook must be declared (default `true`: a handler of an undeclared hook
    /// is left out and reported).
    pub fn validate_hooks(mut self, validate: bool) -> Self {
        self.validate_hooks = validate;
        self
    }

    /// Another tool provider, registered after the built-in one and the plugins'.
    pub fn provider(mut self, provider: impl ToolProvider) -> Self {
        self.providers.push(Arc::new(provider));
        self
    }

    /// MCP servers whose tools are served too. `build` waits for them up to `wait` (they keep
    /// connecting in the background after that) and reports every server that is not connected.
    #[cfg(feature = "mcp")]
    pub fn mcp_servers(mut self, config: &crate::mcp::McpServersConfig, wait: Duration) -> Self {
        self.mcp = Some((config.clone(), wait));
        self
    }

    /// Wires everything and loads every plugin (and connects to the MCP servers).
    ///
    /// The host always comes to life: what fails is left out and the rest serves. `Err` lists
    /// every problem — plugins that failed, components left out, hooks that could not be
    /// declared, MCP servers not connected — and [`HostError::into_host`] gives the host anyway.
    pub async fn build(self) -> Result<Host, HostError> {
        let locale = self.locale;
        let mut problems = Vec::new();
        let builtin = BuiltinToolProvider::new().locale(locale);
        let deferred = builtin.deferred().clone();
        let registry = ToolRegistry::new(self.registry.locale(locale));
        registry.register_provider(builtin);
        let specs = HookSpecRegistry::with_builtin_catalogue_in(locale);
        for spec in self.hooks {
            let name = spec.name.clone();
            if let Err(error) = specs.register(spec) {
                tracing::error!(hook = %name, %error, "the host's hook cannot be declared");
                problems.push(HostProblem::Hook { name, message: error.to_string() });
            }
        }
        let dispatcher =
            HookDispatcher::builder().specs(specs).locale(locale).validate_hooks(self.validate_hooks).build();
        let plugins = self.plugins.registry(&registry).dispatcher(&dispatcher).build();
        let report: LoadReport = plugins.load_all().await;
        problems.extend(report.problems().iter().cloned().map(HostProblem::Plugin));
        for provider in self.providers {
            registry.register_shared(provider);
        }
        let mut commands = CommandSet::new(&registry);
        commands.extend(plugins.plugins().commands());
        #[cfg(feature = "mcp")]
        let mcp = match self.mcp {
            Some((config, wait)) => {
                let provider = crate::mcp::McpToolProvider::builder(&config).locale(locale).build();
                registry.register_provider(provider.clone());
                for (name, status) in provider.wait_connected(wait).await {
                    if !matches!(status, crate::mcp::McpServerStatus::Connected { .. }) {
                        tracing::warn!(server = %name, ?status, "MCP server not connected");
                        problems.push(HostProblem::McpServer { name, status: format!("{status:?}") });
                    }
                }
                Some(provider)
            }
            None => None,
        };
        let host = Host {
            registry,
            dispatcher,
            plugins,
            deferred,
            commands,
            #[cfg(feature = "mcp")]
            mcp,
        };
        if problems.is_empty() { Ok(host) } else { Err(HostError { problems, host: Box::new(host) }) }
    }
}

impl Host {
    /// Starts building a host.
    pub fn builder() -> HostBuilder {
        HostBuilder::default()
    }

    /// The registry every tool is served from.
    pub fn registry(&self) -> &ToolRegistry {
        &self.registry
    }

    /// The hook dispatcher the plugins' handlers joined.
    pub fn dispatcher(&self) -> &HookDispatcher {
        &self.dispatcher
    }

    /// The plugin host: states, config updates, reload.
    pub fn plugins(&self) -> &PluginHost {
        &self.plugins
    }

    /// Which deferred tools each session has found with `tool_search`.
    pub fn deferred(&self) -> &DeferredTools {
        &self.deferred
    }

    /// The chat commands of the loaded plugins.
    pub fn commands(&self) -> &CommandSet {
        &self.commands
    }

    /// The MCP servers' provider, when the host has any.
    #[cfg(feature = "mcp")]
    pub fn mcp(&self) -> Option<&crate::mcp::McpToolProvider> {
        self.mcp.as_ref()
    }

    /// The tools of one model round in a context: the visible tools and the deferred ones this
    /// session has found, as [`definitions`](RoundTools::definitions) for a model API, and a
    /// [`reminder`](RoundTools::reminder) naming the deferred tools still to be found with
    /// `tool_search`. Call it before each model request.
    pub async fn round(&self, ctx: &ToolExecutionContext) -> RoundTools {
        self.deferred.prepare_round(&self.registry, ctx).await
    }

    /// Runs one call the model made. A failed call of a deferred tool the session has not found
    /// yet gets a hint to look it up with `tool_search`.
    pub async fn invoke(&self, call: ToolInvocation, ctx: &ToolExecutionContext) -> ToolExecutionResult {
        self.deferred.invoke(&self.registry, call, ctx).await
    }

    /// Runs the calls of one model turn one after another, in the order the model made them (a
    /// call sees what the calls before it did: a note an earlier call saved, the tools a
    /// `tool_search` earlier in the turn found), and gives the messages to append to the chat
    /// history, in the same order: each call's tool message, the media it returned as follow-up
    /// messages, then the messages tools asked to post after the batch.
    ///
    /// A turn takes as long as its calls together, each within its own timeout. A host that
    /// wants independent calls to overlap can [`invoke`](Self::invoke) them itself and pass the
    /// results to [`batch_history`].
    pub async fn run_calls<'a>(
        &self,
        calls: impl IntoIterator<Item = (&'a str, ToolInvocation)>,
        ctx: &ToolExecutionContext,
    ) -> Vec<HistoryMessage> {
        let mut results: Vec<(&str, ToolExecutionResult)> = Vec::new();
        for (id, call) in calls {
            results.push((id, self.invoke(call, ctx).await));
        }
        batch_history(results.iter().map(|(id, result)| (*id, result)), self.registry.locale())
    }

    /// Fires a hook: blocking handlers run in order and may change the arguments or abort,
    /// observe handlers run afterwards in the background.
    pub async fn fire(&self, hook: &str, kwargs: HookArgs) -> Result<HookDispatchResult, HookError> {
        self.dispatcher.invoke(hook, kwargs).await
    }

    /// Runs a chat message (without the host's command prefix) as a command: `None` when it names
    /// none.
    pub async fn command(&self, text: &str, ctx: &ToolExecutionContext) -> Option<CommandReply> {
        self.commands.run(text, ctx).await
    }

    /// Stops everything: plugins unload in reverse load order, observers finish, providers (MCP
    /// servers included) close.
    pub async fn shutdown(&self) {
        self.plugins.shutdown().await;
        self.dispatcher.shutdown().await;
        if let Err(error) = self.registry.close().await {
            tracing::warn!(%error, "closing the registry's providers");
        }
    }
}

/// One problem [`HostBuilder::build`] met.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostProblem {
    /// A plugin failed, or one of its components was left out.
    Plugin(PluginProblem),
    /// A hook the host declared was refused (a duplicate or invalid spec).
    Hook {
        /// The hook's name.
        name: String,
        /// Why.
        message: String,
    },
    /// An MCP server is not connected (yet): still connecting, reconnecting or disabled.
    McpServer {
        /// The server's name in the configuration.
        name: String,
        /// Where it stands.
        status: String,
    },
}

impl std::fmt::Display for HostProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostProblem::Plugin(problem) => problem.fmt(f),
            HostProblem::Hook { name, message } => write!(f, "hook {name}: {message}"),
            HostProblem::McpServer { name, status } => write!(f, "MCP server {name}: {status}"),
        }
    }
}

/// [`HostBuilder::build`] met problems: every one of them (one per line when displayed), and the
/// host, which serves everything that did load.
#[derive(Debug)]
pub struct HostError {
    problems: Vec<HostProblem>,
    host: Box<Host>,
}

impl HostError {
    /// Every problem.
    pub fn problems(&self) -> &[HostProblem] {
        &self.problems
    }

    /// The host anyway: what failed is left out, the rest serves.
    pub fn into_host(self) -> Host {
        *self.host
    }
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.problems.len();
        write!(f, "{count} problem{} while starting the host:", if count == 1 { "" } else { "s" })?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HostError {}
