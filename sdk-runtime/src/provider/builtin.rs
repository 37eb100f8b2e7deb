//! Built-in tools of the host: `tool_search` and whatever the host adds.

use crate::context_parts::ContextParts;
use crate::deferred::DeferredTools;
use crate::provider::{RegistryLink, ToolProvider};
use crate::tool_search::{run_tool_search, tool_search_spec};
use std::future::Future;
use std::sync::{Arc, OnceLock};
use toolhook::{
    BoxFuture, Locale, Phase, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec, ToolSpecError, Visibility,
};

/// In which planner phase a built-in tool is offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PhaseFilter {
    /// The timing step only.
    Timing,
    /// The action step only (the default).
    #[default]
    Action,
    /// Both steps.
    Both,
}

impl PhaseFilter {
    fn admits(self, phase: Option<Phase>) -> bool {
        match (self, phase) {
            (_, None) | (PhaseFilter::Both, _) => true,
            (PhaseFilter::Timing, Some(p)) => p == Phase::Timing,
            (PhaseFilter::Action, Some(p)) => p == Phase::Action,
        }
    }
}

/// In which chats a built-in tool is offered (the Python SDK's rule, independent of the access
/// scopes of a spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ChatScopeFilter {
    /// Every chat (the default).
    #[default]
    All,
    /// Group chats only (`is_group_chat == Some(true)`).
    Group,
    /// Private chats only (`is_group_chat == Some(false)`).
    Private,
}

impl ChatScopeFilter {
    fn admits(self, is_group_chat: Option<bool>) -> bool {
        match self {
            ChatScopeFilter::All => true,
            ChatScopeFilter::Group => is_group_chat == Some(true),
            ChatScopeFilter::Private => is_group_chat == Some(false),
        }
    }
}

type SpecFn = dyn Fn(Option<&ToolAvailabilityContext>) -> Result<ToolSpec, ToolSpecError> + Send + Sync;
/// A handler as the provider calls it: the call, its context as given (`None` without one), and
/// the provider's locale for a call without a context.
type HandlerFn = dyn Fn(
        ToolInvocation,
        Option<ToolExecutionContext>,
        Locale,
    ) -> BoxFuture<'static, Result<ToolExecutionResult, ToolError>>
    + Send
    + Sync;

/// One built-in tool: a spec (possibly depending on the context), an async handler, and the
/// host's filters.
///
/// ```
/// use toolhook::{ToolExecutionResult, ToolSpec};
/// use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, PhaseFilter};
///
/// let wait = BuiltinTool::new(
///     ToolSpec::builder("wait").brief_description("Wait for the next message").build().unwrap(),
///     |call, _ctx| async move { Ok(ToolExecutionResult::success(call.tool_name, "waiting")) },
/// )
/// .phase(PhaseFilter::Both);
/// let provider = BuiltinToolProvider::new().with_tool(wait);
/// # let _ = provider;
/// ```
#[derive(Clone)]
pub struct BuiltinTool {
    name: String,
    spec: Arc<SpecFn>,
    handler: Arc<HandlerFn>,
    /// What the spec function reads of the context.
    spec_depends_on: ContextParts,
    phase: PhaseFilter,
    visibility: Visibility,
    chat_scope: ChatScopeFilter,
    enabled: bool,
}

impl std::fmt::Debug for BuiltinTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinTool")
            .field("name", &self.name)
            .field("phase", &self.phase)
            .field("visibility", &self.visibility)
            .field("chat_scope", &self.chat_scope)
            .field("enabled", &self.enabled)
            .finish()
    }
}

impl BuiltinTool {
    /// A built-in tool with a fixed spec. Its handler is given the call's context, or, for a
    /// call without one, an empty context in the provider's locale.
    pub fn new<F, Fut>(spec: ToolSpec, handler: F) -> Self
    where
        F: Fn(ToolInvocation, Option<ToolExecutionContext>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, ToolError>> + Send + 'static,
    {
        let name = spec.name().to_owned();
        Self::with_spec_fn(name, ContextParts::NONE, move |_| Ok(spec.clone()), handler)
    }

    /// A built-in tool whose spec depends on the availability context: `spec` is called when
    /// the provider is listed for a context, and `depends_on` says which parts of the context it
    /// reads (the listing is cached by them, and `spec` sees only them).
    ///
    /// ```
    /// use toolhook::{ToolExecutionResult, ToolSpec};
    /// use toolhook_runtime::{BuiltinTool, ContextParts};
    ///
    /// let reply = BuiltinTool::with_spec_fn(
    ///     "reply",
    ///     ContextParts::PLATFORM,
    ///     |ctx| {
    ///         let platform = ctx.map_or("chat", |c| c.platform.as_str());
    ///         ToolSpec::builder("reply").brief_description(format!("Reply on {platform}")).build()
    ///     },
    ///     |call, _ctx| async move { Ok(ToolExecutionResult::success(call.tool_name, "sent")) },
    /// );
    /// # let _ = reply;
    /// ```
    pub fn with_spec_fn<S, F, Fut>(name: impl Into<String>, depends_on: ContextParts, spec: S, handler: F) -> Self
    where
        S: Fn(Option<&ToolAvailabilityContext>) -> Result<ToolSpec, ToolSpecError> + Send + Sync + 'static,
        F: Fn(ToolInvocation, Option<ToolExecutionContext>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, ToolError>> + Send + 'static,
    {
        // A host's handler always gets a context: without one, a default one in the provider's locale.
        let handler = move |call, ctx: Option<ToolExecutionContext>, locale| {
            let ctx = ctx.unwrap_or_else(|| ToolExecutionContext { locale, ..Default::default() });
            Box::pin(handler(call, Some(ctx))) as BoxFuture<'static, _>
        };
        Self::from_parts(name.into(), depends_on, Arc::new(spec), Arc::new(handler))
    }

    fn from_parts(name: String, depends_on: ContextParts, spec: Arc<SpecFn>, handler: Arc<HandlerFn>) -> Self {
        BuiltinTool {
            name,
            spec,
            handler,
            spec_depends_on: depends_on,
            phase: PhaseFilter::default(),
            visibility: Visibility::Visible,
            chat_scope: ChatScopeFilter::default(),
            enabled: true,
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The planner phases it is offered in (default: action).
    pub fn phase(mut self, phase: PhaseFilter) -> Self {
        self.phase = phase;
        self
    }

    /// Visible (the default), deferred or hidden.
    pub fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = visibility;
        self
    }

    /// The chats it is offered in (default: all).
    pub fn chat_scope(mut self, scope: ChatScopeFilter) -> Self {
        self.chat_scope = scope;
        self
    }

    /// The host's config gate (default: enabled).
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    fn listed(&self, ctx: Option<&ToolAvailabilityContext>) -> bool {
        if !self.enabled || self.visibility == Visibility::Hidden {
            return false;
        }
        match ctx {
            None => true,
            Some(ctx) => self.phase.admits(ctx.phase) && self.chat_scope.admits(ctx.is_group_chat),
        }
    }
}

/// The host's own tools: `provider_type = "builtin"`, by default named `toolhook_builtin`, with
/// [`tool_search`](crate::DeferredTools) included.
#[derive(Clone)]
pub struct BuiltinToolProvider {
    name: String,
    locale: Locale,
    tools: Vec<BuiltinTool>,
    deferred: DeferredTools,
    link: Arc<OnceLock<RegistryLink>>,
}

impl std::fmt::Debug for BuiltinToolProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinToolProvider").field("name", &self.name).field("tools", &self.tools).finish()
    }
}

impl Default for BuiltinToolProvider {
    fn default() -> Self {
        Self::new()
    }
}

impl BuiltinToolProvider {
    /// A provider with `tool_search` and a fresh discovery state.
    pub fn new() -> Self {
        Self::with_deferred(DeferredTools::new())
    }

    /// A provider with `tool_search` working on the given discovery state (share it with the host,
    /// which prepares each round with it).
    pub fn with_deferred(deferred: DeferredTools) -> Self {
        let link = Arc::new(OnceLock::new());
        let search = tool_search(deferred.clone(), Arc::clone(&link));
        BuiltinToolProvider { name: "toolhook_builtin".into(), locale: Locale::En, tools: vec![search], deferred, link }
    }

    /// Removes `tool_search`.
    pub fn without_tool_search(mut self) -> Self {
        self.tools.retain(|t| t.name != crate::deferred::TOOL_SEARCH);
        self
    }

    /// Adds a tool (after the existing ones; listing keeps insertion order).
    pub fn with_tool(mut self, tool: BuiltinTool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Renames the provider (default `toolhook_builtin`).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The locale of texts produced when a call comes without a context (default English).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// The discovery state `tool_search` updates.
    pub fn deferred(&self) -> &DeferredTools {
        &self.deferred
    }
}

impl ToolProvider for BuiltinToolProvider {
    fn provider_name(&self) -> &str {
        &self.name
    }

    fn provider_type(&self) -> &str {
        "builtin"
    }

    fn attach(&self, link: RegistryLink) {
        let _ = self.link.set(link);
    }

    /// The phase and chat filters, and whatever the tools' spec functions read.
    fn listing_depends_on(&self) -> ContextParts {
        self.tools.iter().fold(ContextParts::PHASE | ContextParts::CHAT_SCOPE, |parts, t| parts | t.spec_depends_on)
    }

    fn list_tools<'a>(
        &'a self,
        ctx: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let mut specs = Vec::with_capacity(self.tools.len());
        for tool in self.tools.iter().filter(|t| t.listed(ctx)) {
            match (tool.spec)(ctx) {
                Ok(spec) => specs.push(spec.__with_visibility(tool.visibility).__with_provider(&self.name, "builtin")),
                Err(error) => tracing::warn!(tool = %tool.name, %error, "built-in tool spec failed; not listed"),
            }
        }
        Box::pin(std::future::ready(Ok(specs)))
    }

    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        let locale = ctx.map_or(self.locale, |c| c.locale);
        match self.tools.iter().find(|t| t.name == call.tool_name) {
            Some(tool) => (tool.handler)(call, ctx.cloned(), locale),
            None => {
                let message = match locale {
                    Locale::En => format!("Builtin tool handler not found: {}", call.tool_name),
                    Locale::ZhHans => format!("未找到内置工具处理器：{}", call.tool_name),
                };
                Box::pin(std::future::ready(Ok(ToolExecutionResult::failure(call.tool_name, message))))
            }
        }
    }
}

/// `tool_search` as a built-in tool: it searches through the registry its provider is linked to.
/// It is given the call's context as it came (`None` without one: its pool is then every
/// deferred tool, as a listing without a context is).
fn tool_search(deferred: DeferredTools, link: Arc<OnceLock<RegistryLink>>) -> BuiltinTool {
    let spec = tool_search_spec();
    let name = spec.name().to_owned();
    let handler: Arc<HandlerFn> = Arc::new(move |call, ctx, locale| {
        let deferred = deferred.clone();
        let registry = link.get().and_then(RegistryLink::registry);
        Box::pin(async move {
            let Some(registry) = registry else {
                return Err(ToolError::new("Unavailable", "tool_search is not registered with a registry"));
            };
            Ok(run_tool_search(&deferred, &registry, call, ctx, locale).await)
        })
    });
    BuiltinTool::from_parts(name, ContextParts::NONE, Arc::new(move |_| Ok(spec.clone())), handler)
        .phase(PhaseFilter::Action)
}
