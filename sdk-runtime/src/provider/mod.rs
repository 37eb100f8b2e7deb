//! Sources of tools: the [`ToolProvider`] trait and the providers shipped with the runtime.

pub(crate) mod blocking;
pub(crate) mod builtin;
pub(crate) mod plugin;

use crate::context_parts::ContextParts;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use toolhook::{
    BoxFuture, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec,
};

/// One source of tools: turns it into [`ToolSpec`]s and executes the calls routed to it.
///
/// Implement it for your own tool sources (an HTTP gateway, a scripting engine, MCP servers); the
/// [`ToolRegistry`](crate::ToolRegistry) merges every provider's tools under one name space.
///
/// Contract:
/// - [`list_tools`](Self::list_tools) returns the provider's tools for a context, in a stable
///   order. The registry caches each listing by the parts of the context the provider reads
///   ([`listing_depends_on`](Self::listing_depends_on)) until the provider says its tools changed,
///   and lists again only then; the context it passes carries only those parts. A listing may
///   take at most [`RegistryConfig::listing_timeout`](crate::RegistryConfig::listing_timeout); one
///   that fails is retried with backoff while the previous listing keeps serving.
/// - [`invoke`](Self::invoke) receives the provider's **original** tool name. A tool that ran and
///   failed is `Ok` with `success = false`; `Err` is for calls that could not be made. A timeout
///   or a dropped caller cancels the call by dropping the future.
/// - A provider whose tools change calls [`RegistryLink::notify`] with the link it was given in
///   [`attach`](Self::attach).
///
/// ```
/// use toolhook::{BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec};
/// use toolhook_runtime::{ContextParts, ToolProvider};
///
/// struct Clock;
///
/// impl ToolProvider for Clock {
///     fn provider_name(&self) -> &str { "clock" }
///     fn provider_type(&self) -> &str { "builtin" }
///     fn listing_depends_on(&self) -> ContextParts { ContextParts::NONE }
///     fn list_tools<'a>(&'a self, _: Option<&'a ToolAvailabilityContext>) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
///         Box::pin(async { Ok(vec![ToolSpec::builder("now").brief_description("The time").core_tool(true).build().unwrap()]) })
///     }
///     fn invoke<'a>(&'a self, call: ToolInvocation, _: Option<&'a ToolExecutionContext>) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
///         Box::pin(async move { Ok(ToolExecutionResult::success(call.tool_name, "12:00")) })
///     }
/// }
/// ```
pub trait ToolProvider: Send + Sync + 'static {
    /// The provider's unique key in a registry.
    fn provider_name(&self) -> &str;

    /// The kind of provider: `builtin`, `plugin`, `mcp`, or any other.
    fn provider_type(&self) -> &str;

    /// The tools this provider offers in a context (`None`: no context known).
    fn list_tools<'a>(
        &'a self,
        ctx: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>>;

    /// Runs one call; `call.tool_name` is the provider's own name for the tool.
    ///
    /// A provider that names where its results come from (as the plugin provider's
    /// `plugin_id` and the MCP provider's `server_name` do) makes that entry once, as a
    /// [`SharedEntries`](toolhook::SharedEntries), and [shares](toolhook::ResultMetadata::share) it
    /// with each result: no allocation per call.
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>>;

    /// The registry's call of a tool whose spec names the MCP server it comes from
    /// (`metadata.server_name`), for a provider of type `"mcp"`. Default: the server's name goes
    /// into the call's `metadata.mcp_server_name` (replacing whatever the caller put there), then
    /// [`invoke`](Self::invoke) runs it. A provider that routes by the name directly overrides
    /// this and spares every call a map insert.
    #[doc(hidden)]
    fn __invoke_on_server<'a>(
        &'a self,
        mut call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
        server: &'a str,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        call.metadata_mut().insert("mcp_server_name".to_owned(), serde_json::Value::from(server));
        self.invoke(call, ctx)
    }

    /// A ready-made way into one of the tools this provider listed, or `None` (the default):
    /// the registry then routes each call of the tool through [`invoke`](Self::invoke).
    ///
    /// The registry asks once per listing, at the tool's first call, and keeps the answer with the
    /// listing: the provider's tools changing (and the provider saying so) makes a new listing
    /// and asks again. So a direct call may skip whatever `invoke` looks up per call (which tool,
    /// whether its owner is ready) as long as a change of those is announced through
    /// [`RegistryLink::notify`]. The call it makes must be the one `invoke` would make.
    #[doc(hidden)]
    fn __direct_call(&self, spec: &ToolSpec) -> Option<Box<dyn DirectCall>> {
        let _ = spec;
        None
    }

    /// Whether the provider undoes what a strict definition makes a model send (a `null` for each
    /// optional parameter left unset, maps as key-value lists) in its calls' arguments itself.
    /// Default `false`: the registry undoes it before the call. The plugin provider does it after
    /// filling parameters from the context, so that a parameter sent as `null` and filled keeps
    /// its place among the arguments.
    #[doc(hidden)]
    fn __undoes_strict_forms(&self) -> bool {
        false
    }

    /// Releases connections at shutdown. Default: nothing to do.
    fn close<'a>(&'a self) -> BoxFuture<'a, Result<(), ToolError>> {
        Box::pin(async { Ok(()) })
    }

    /// The parts of the availability context [`list_tools`](Self::list_tools) reads. Default
    /// [`ContextParts::ALL`] ("it depends"): the registry then caches a listing per distinct
    /// context, session included, which is correct for any provider but lists again for every
    /// new session. Declare exactly what the listing reads: [`ContextParts::NONE`] for a provider
    /// that lists the same tools for everyone (access rules on the specs are applied by the
    /// registry, not by the listing), [`ContextParts::USER`] for per-user tools, and so on. The
    /// registry passes `list_tools` a context with only these parts filled in.
    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::ALL
    }

    /// Why a tool this provider declares is not offered — it failed to load, say — or `None`,
    /// in `locale` (the registry's). The registry quotes it in its `Tool not found` answer, so a
    /// tool that was declared but failed is never just missing. Default: `None`.
    fn unavailable_reason(&self, tool: &str, locale: Locale) -> Option<String> {
        let _ = (tool, locale);
        None
    }

    /// Called when the provider is registered with a registry: keep the link to tell the registry
    /// when the tool list changes, or to reach the registry (the built-in `tool_search` lists the
    /// deferred tools through it). Default: the list never changes.
    fn attach(&self, link: RegistryLink) {
        let _ = link;
    }
}

/// One tool's call, made ready by its provider (see [`ToolProvider::__direct_call`]).
#[doc(hidden)]
pub trait DirectCall: Send + Sync + 'static {
    /// Runs one call of the tool; as [`ToolProvider::invoke`] would for it.
    fn call<'a>(&'a self, call: ToolInvocation, ctx: Option<&'a ToolExecutionContext>) -> Called<'a>;
}

/// What a [`DirectCall`] gives back.
#[doc(hidden)]
#[allow(missing_debug_implementations)]
pub enum Called<'a> {
    /// The call ran to its end in place: a tool that never waits.
    Done(Result<ToolExecutionResult, ToolError>),
    /// The call's future, to be awaited.
    Running(BoxFuture<'a, Result<ToolExecutionResult, ToolError>>),
}

/// A provider's link to the registry it is registered with.
#[derive(Clone)]
pub struct RegistryLink {
    epoch: Arc<AtomicU64>,
    /// The registry's side ([`ToolRegistry`](crate::ToolRegistry) turns it back into a handle).
    pub(crate) registry: Weak<dyn LinkedRegistry>,
    locale: Locale,
}

/// What a link reaches of its registry, seen from the providers' side.
pub(crate) trait LinkedRegistry: std::any::Any + Send + Sync {
    /// The tool list changed: drop cached routes, tell the watchers.
    fn changed(&self);
}

impl std::fmt::Debug for RegistryLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryLink").field("epoch", &self.epoch).field("locale", &self.locale).finish_non_exhaustive()
    }
}

impl RegistryLink {
    pub(crate) fn new(epoch: Arc<AtomicU64>, registry: Weak<dyn LinkedRegistry>, locale: Locale) -> Self {
        RegistryLink { epoch, registry, locale }
    }

    /// The registry's locale ([`RegistryConfig::locale`](crate::RegistryConfig::locale)): the
    /// one a provider writes its texts in for a call that comes without a context (a call with
    /// one has it in the context's `locale`, which the registry sets).
    pub fn locale(&self) -> Locale {
        self.locale
    }

    /// The provider's tools (or their specs) changed: cached listings are dropped, and the
    /// registry's watchers are told.
    pub fn notify(&self) {
        self.epoch.fetch_add(1, Ordering::Release);
        if let Some(registry) = self.registry.upgrade() {
            registry.changed();
        }
    }
}
