//! A [`ToolRegistry`] as an MCP server: `tools/list` is the registry's listing in the MCP
//! dialect, `tools/call` goes through [`ToolRegistry::invoke`], and the tool's context reaches the
//! client (progress, logs, cancellation, questions). rmcp does the protocol; this is the bridge.
#![allow(deprecated)] // rmcp marks the logging APIs as superseded; MCP still has them.

use super::call::{McpCall, Rounds};
use super::config::McpToolRules;
use super::content::to_call_result;
use super::request_state::RequestStates;
use super::{CONTEXT_META_KEY, RULES_META_KEY};
use crate::access::AccessFacts;
use crate::context_parts::ContextView;
use crate::deferred::{DeferredTools, TOOL_SEARCH};
use crate::registry::ToolRegistry;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, ClientCapabilities, GetPromptRequestParams, GetPromptResponse,
    Implementation, InputRequests, InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, LoggingLevel, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, RequestId, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;
use tokio::sync::Notify;
use toolhook::{
    Capabilities, Dialect, InputKind, LogLevel, ToolAvailabilityContext, ToolExecutionContext, ToolInvocation, ToolSpec,
};

/// Serves a [`ToolRegistry`] to MCP clients: every tool of every provider, with the same
/// definitions, access rules and results a model gets.
///
/// Cheap to clone. Build it once and serve it over [stdio](Self::serve_stdio), [Streamable
/// HTTP](Self::serve_http), or any rmcp transport ([`serve`](Self::serve)); one server speaks
/// MCP 2025-11-25 (sessions, `initialize`) and 2026-07-28 (stateless, `server/discover`) at
/// once, newest first.
///
/// ```no_run
/// # async fn host() -> Result<(), Box<dyn std::error::Error>> {
/// use toolhook_runtime::mcp::{McpHttpConfig, McpServer};
/// use toolhook_runtime::{PluginToolProvider, ToolRegistry};
///
/// let registry = ToolRegistry::default();
/// registry.register_provider(PluginToolProvider::from_declared());
/// let server = McpServer::builder(&registry).name("my-bot").build()?;
/// let http = server.serve_http(McpHttpConfig::new("127.0.0.1:8080".parse()?)).await?;
/// println!("serving http://{}/mcp", http.local_addr());
/// tokio::signal::ctrl_c().await?;
/// http.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    session: Arc<Session>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.shared.info.name)
            .field("registry", &self.shared.registry)
            .finish_non_exhaustive()
    }
}

/// Why an [`McpServer`] could not be built or served.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpServerError {
    /// The request-state key is shorter than 32 bytes.
    #[error("the request-state key must be at least 32 bytes: {0}")]
    RequestStateKey(String),
    /// The address could not be bound, or the connection failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The MCP session could not start (the client did not initialise, the transport closed).
    #[error("the MCP session could not start: {0}")]
    Session(String),
}

/// Builds an [`McpServer`].
#[must_use]
pub struct McpServerBuilder {
    registry: ToolRegistry,
    context: ToolExecutionContext,
    deferred: Option<DeferredTools>,
    name: String,
    version: String,
    instructions: Option<String>,
    request_state_key: Option<Vec<u8>>,
    request_state_ttl: Duration,
    caller_context: bool,
}

impl std::fmt::Debug for McpServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServerBuilder").field("name", &self.name).finish_non_exhaustive()
    }
}

impl McpServerBuilder {
    /// The context every listing and call is made in (default: an empty one: a `user` on no
    /// platform, so tools limited to platforms, scopes or higher ranks are not offered); a call
    /// that brings its own runs in that one instead when [`caller_context`](Self::caller_context)
    /// is set. Its
    /// session id is the discovery state's key when [`deferred`](Self::deferred) is set.
    pub fn context(mut self, context: ToolExecutionContext) -> Self {
        self.context = context;
        self
    }

    /// Lists deferred tools as a model sees them: only once `tool_search` found them (the
    /// discovery state of the built-in provider; see
    /// [`BuiltinToolProvider::deferred`](crate::BuiltinToolProvider::deferred)). Without it every
    /// available tool is listed.
    pub fn deferred(mut self, deferred: &DeferredTools) -> Self {
        self.deferred = Some(deferred.clone());
        self
    }

    /// The server's name in `serverInfo` (default `toolhook`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The server's version in `serverInfo` (default this crate's).
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// Instructions for the client's model.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The key that signs the `requestState` of calls waiting for input (MCP 2026-07-28), at
    /// least 32 bytes. Give every instance behind a load balancer the same key, so any of them
    /// can continue a call another began. Default: a random key per process.
    pub fn request_state_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.request_state_key = Some(key.into());
        self
    }

    /// How long a call may wait for its input (default 10 minutes).
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.request_state_ttl = ttl;
        self
    }

    /// Makes each call that carries a chat context (a toolhook host's, sent by an
    /// [`McpServerEntry`](super::McpServerEntry) with
    /// [`forward_context`](super::McpServerEntry::forward_context)) run in that context instead of
    /// [`context`](Self::context): its context parameters are filled from it and its access rules
    /// checked against it. Default false. Set it only where every client is trusted to say who is
    /// calling (a plugin process, whose one client is the host that started it): the context
    /// claims a rank. A call whose context cannot be read is refused as invalid.
    pub fn caller_context(mut self, trusted: bool) -> Self {
        self.caller_context = trusted;
        self
    }

    /// The server.
    pub fn build(self) -> Result<McpServer, McpServerError> {
        let key = self.request_state_key.unwrap_or_else(random_key);
        let states = RequestStates::new(&key, self.request_state_ttl).map_err(McpServerError::RequestStateKey)?;
        let availability = ToolAvailabilityContext::from(&self.context);
        Ok(McpServer {
            shared: Arc::new(Shared {
                registry: self.registry,
                context: self.context,
                availability,
                deferred: self.deferred,
                info: Implementation::new(self.name, self.version),
                instructions: self.instructions,
                states,
                caller_context: self.caller_context,
                tools: RwLock::new(Arc::new(Vec::new())),
                peers: Mutex::new(Vec::new()),
                sinks: Mutex::new(HashMap::new()),
                watching: OnceLock::new(),
                refresh: Notify::new(),
                calls: InFlight::default(),
            }),
            session: Arc::new(Session::default()),
        })
    }
}

/// A random 32-byte key, from the process's hash seeds (themselves from the operating system).
fn random_key() -> Vec<u8> {
    use std::hash::{BuildHasher, Hasher};
    let state = std::collections::hash_map::RandomState::new();
    (0u64..4)
        .flat_map(|i| {
            let mut hasher = state.build_hasher();
            hasher.write_u64(i);
            hasher.write_u128(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos(),
            );
            hasher.finish().to_le_bytes()
        })
        .collect()
}

struct Shared {
    registry: ToolRegistry,
    context: ToolExecutionContext,
    /// Whether a call's own context (`_meta` [`CONTEXT_META_KEY`]) is taken.
    caller_context: bool,
    availability: ToolAvailabilityContext,
    deferred: Option<DeferredTools>,
    info: Implementation,
    instructions: Option<String>,
    states: RequestStates,
    /// The tools as last listed (for `get_tool`, and to tell whether a change changed anything).
    tools: RwLock<Arc<Vec<Tool>>>,
    /// Sessions of 2025-11-25 clients, told when the list changes.
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// `subscriptions/listen` streams of 2026-07-28 clients.
    sinks: Mutex<HashMap<RequestId, SubscriptionSink>>,
    watching: OnceLock<()>,
    /// Wakes the watcher (a `tool_search` discovered something).
    refresh: Notify,
    calls: InFlight,
}

/// Per session (a 2025-11-25 client; a 2026-07-28 request is its own).
#[derive(Default)]
struct Session {
    /// `logging/setLevel`; messages at `info` and above until the client says otherwise.
    log_level: Mutex<Option<LogLevel>>,
}

/// Calls in flight, so a shutdown can let them finish.
#[derive(Default)]
pub(crate) struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

struct Entered<'a>(&'a InFlight);

impl InFlight {
    fn enter(&self) -> Entered<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        Entered(self)
    }

    /// Waits until no call is in flight, or the grace period is over.
    pub(crate) async fn wait_idle(&self, grace: Duration) {
        let idle = async {
            loop {
                let notified = self.idle.notified();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        };
        if tokio::time::timeout(grace, idle).await.is_err() {
            tracing::warn!(
                calls = self.count.load(Ordering::SeqCst),
                "MCP calls still running at the end of the shutdown grace period; they are cancelled"
            );
        }
    }
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl McpServer {
    /// Starts building a server over a registry.
    pub fn builder(registry: &ToolRegistry) -> McpServerBuilder {
        McpServerBuilder {
            registry: registry.clone(),
            context: ToolExecutionContext::default(),
            deferred: None,
            name: "toolhook".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            instructions: None,
            request_state_key: None,
            request_state_ttl: Duration::from_secs(600),
            caller_context: false,
        }
    }

    /// The registry it serves.
    pub fn registry(&self) -> &ToolRegistry {
        &self.shared.registry
    }

    /// A handler for a new session: shares everything but the session's log level.
    pub(crate) fn for_session(&self) -> Self {
        McpServer { shared: self.shared.clone(), session: Arc::new(Session::default()) }
    }

    pub(crate) fn in_flight(&self) -> &InFlight {
        &self.shared.calls
    }

    /// Whether this request is one whose access rules nobody else checks: the registry leaves
    /// them to its client (a plugin process), and this client did not say it checks them (a
    /// client other than a toolhook host, or an older one). The server checks them itself then.
    fn rules_unchecked_for(&self, context: &RequestContext<RoleServer>) -> bool {
        !self.shared.registry.checks_access() && !client_checks_rules(context)
    }

    /// The tools as MCP lists them: the registry's definitions in [`Dialect::Mcp`].
    pub async fn tools(&self) -> Vec<Tool> {
        let tools = self.rendered(&self.specs().await);
        *write(&self.shared.tools) = Arc::new(tools.clone());
        tools
    }

    /// The specs of the tools this server lists.
    async fn specs(&self) -> Vec<ToolSpec> {
        let shared = &self.shared;
        match &shared.deferred {
            Some(deferred) => deferred.prepare_round(&shared.registry, &shared.context).await.advertised().to_vec(),
            None => shared.registry.list_tools(Some(&shared.availability)).await,
        }
    }

    /// The specs whose own access rules admit a caller in `ctx`, for a request whose rules are
    /// left unchecked otherwise ([`rules_unchecked_for`](Self::rules_unchecked_for)).
    async fn specs_admitting(&self, ctx: &ToolExecutionContext) -> Vec<ToolSpec> {
        let caller = AccessFacts::of(Some(ContextView::from(ctx)), true);
        let mut specs = self.specs().await;
        specs.retain(|spec| caller.permits(spec).is_ok());
        specs
    }

    /// Specs as MCP tools.
    fn rendered(&self, specs: &[ToolSpec]) -> Vec<Tool> {
        let shared = &self.shared;
        let locale = shared.registry.locale();
        // A registry that leaves access to its client (a plugin process) tells it each tool's rules.
        let rules_to_client = !shared.registry.checks_access();
        specs
            .iter()
            .filter_map(|spec| {
                let definition = shared.registry.definition(spec, Dialect::Mcp, locale);
                let mut tool: Tool = serde_json::from_value(definition)
                    .inspect_err(|e| tracing::warn!(tool = spec.name(), %e, "tool not listed over MCP"))
                    .ok()?;
                if rules_to_client {
                    let rules = McpToolRules::of_spec(spec).to_meta();
                    tool.meta.get_or_insert_default().insert(RULES_META_KEY.to_owned(), rules);
                }
                Some(tool)
            })
            .collect()
    }

    /// Starts the task that tells clients when the tool list changes (once per server).
    fn watch_changes(&self) {
        let shared = &self.shared;
        if shared.watching.set(()).is_err() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let weak = Arc::downgrade(shared);
        let mut changes = shared.registry.subscribe();
        runtime.spawn(async move {
            loop {
                let refresh = match weak.upgrade() {
                    Some(shared) => async move { shared.refresh.notified().await },
                    None => return,
                };
                tokio::select! {
                    alive = changes.changed() => if !alive { return },
                    () = refresh => {}
                }
                let Some(shared) = weak.upgrade() else { return };
                let server = McpServer { shared, session: Arc::new(Session::default()) };
                let before = read(&server.shared.tools).clone();
                if server.tools().await != *before {
                    server.tell_list_changed().await;
                }
            }
        });
    }

    async fn tell_list_changed(&self) {
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = lock(&self.shared.peers);
            peers.retain(|p| !p.is_transport_closed());
            peers.clone()
        };
        for peer in peers {
            let _ = peer.notify_tool_list_changed().await;
        }
        let sinks: Vec<SubscriptionSink> = lock(&self.shared.sinks).values().cloned().collect();
        for sink in sinks {
            let _ = sink.notify_tool_list_changed().await;
        }
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

fn capabilities_of(client: Option<ClientCapabilities>) -> Capabilities {
    let client = client.unwrap_or_default();
    let mut can = Capabilities::NONE;
    can.elicitation = client.elicitation.is_some();
    can.sampling = client.sampling.is_some();
    can.roots = client.roots.is_some();
    can
}

fn level_of(level: LoggingLevel) -> Option<LogLevel> {
    serde_json::to_value(level).ok().and_then(|v| serde_json::from_value(v).ok())
}

/// Every list this server answers comes whole, so no cursor was ever handed out: any cursor is
/// invalid params.
fn no_cursor(request: Option<PaginatedRequestParams>) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor) {
        Some(cursor) => Err(ErrorData::invalid_params(format!("Invalid cursor: {cursor}"), None)),
        None => Ok(()),
    }
}

/// Whether a request speaks 2026-07-28 or later (stateless, questions as input-required
/// results), not 2025-11-25.
fn stateless_era(context: &RequestContext<RoleServer>) -> bool {
    context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
}

/// Whether the client declared that it checks the rules a plugin process lists (the
/// experimental capability [`RULES_META_KEY`], which `McpToolProvider` declares).
fn client_checks_rules(context: &RequestContext<RoleServer>) -> bool {
    context.client_capabilities().and_then(|c| c.experimental).is_some_and(|e| e.contains_key(RULES_META_KEY))
}

/// `-32021`: the tool needs a capability the client did not declare.
fn missing_capability(kind: InputKind) -> ErrorData {
    let required: ClientCapabilities =
        serde_json::from_value(serde_json::json!({ kind.as_str(): {} })).unwrap_or_default();
    ErrorData::missing_required_client_capability(required)
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_logging()
            .enable_prompts()
            .enable_resources()
            .build();
        let mut config = ServerConfig::new(capabilities).with_server_info(self.shared.info.clone());
        if let Some(instructions) = &self.shared.instructions {
            config = config.with_instructions(instructions.clone());
        }
        config
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        read(&self.shared.tools).iter().find(|t| t.name == name).cloned()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        no_cursor(request)?;
        self.watch_changes();
        // Every client of this server sees the same list (one host-chosen context), but for the
        // rules a plugin process leaves to a host that said it checks them.
        let tools = if self.rules_unchecked_for(&context) {
            self.rendered(&self.specs_admitting(&self.shared.context).await)
        } else {
            self.tools().await
        };
        Ok(ListToolsResult::with_all_items(tools).with_ttl_ms(0).with_cache_scope(CacheScope::Public))
    }

    /// The declared prompts capability has no prompts behind it: the list is empty (see
    /// [`read_resource`](Self::read_resource)).
    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        no_cursor(request)?;
        Ok(ListPromptsResult::default())
    }

    /// Empty (see [`read_resource`](Self::read_resource)).
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        no_cursor(request)?;
        Ok(ListResourcesResult::default())
    }

    /// Empty (see [`read_resource`](Self::read_resource)).
    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        no_cursor(request)?;
        Ok(ListResourceTemplatesResult::default())
    }

    /// The declared resources capability has no resources behind it (its lists answer empty, as
    /// clients that cache them expect): every URI is not found, with the code of the request's
    /// era (2026-07-28 retired 2025-11-25's `-32002` for invalid params).
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let message = format!("Resource not found: {}", request.uri);
        let data = Some(serde_json::json!({ "uri": request.uri }));
        Err(if stateless_era(&context) {
            ErrorData::invalid_params(message, data)
        } else {
            ErrorData::resource_not_found(message, data)
        })
    }

    /// Nor are there prompts: every name is invalid.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Err(ErrorData::invalid_params(format!("Unknown prompt: {}", request.name), None))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *lock(&self.session.log_level) = level_of(request.level);
        Ok(())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        lock(&self.shared.peers).push(context.peer);
        self.watch_changes();
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build().intersection(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.watch_changes();
        let id = context.sink().id().clone();
        lock(&self.shared.sinks).insert(id.clone(), context.sink().clone());
        context.cancelled().await;
        lock(&self.shared.sinks).remove(&id);
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        let name = request.name.to_string();
        let rounds = stateless_era(&context);
        let capabilities = capabilities_of(context.client_capabilities());
        let token = context.meta.get_progress_token();
        let (peer, cancel) = (context.peer.clone(), context.ct.clone());
        let mut arguments = request.arguments.unwrap_or_default();
        // Only a call that may stop for input needs its arguments again (to bind its state).
        let mut bound = None;
        let call = Arc::new(if rounds {
            let mut given = match &request.request_state {
                Some(state) => shared.states.open(state, &name, &arguments)?,
                None => Map::new(),
            };
            given.extend(request.input_responses.unwrap_or_default());
            bound = Some(arguments.clone());
            let level = context.meta.log_level().and_then(level_of);
            McpCall::in_rounds(peer, token, cancel, capabilities, level, Rounds::new(given))
        } else {
            let level = *lock(&self.session.log_level);
            McpCall::in_call(peer, token, cancel, capabilities, level.or(Some(LogLevel::Info)))
        });
        let forwarded = match context.meta.get(CONTEXT_META_KEY).filter(|_| shared.caller_context) {
            Some(sent) => Some(serde_json::from_value::<ToolExecutionContext>(sent.clone()).map_err(|e| {
                ErrorData::invalid_params(format!("_meta.{CONTEXT_META_KEY} is not a chat context: {e}"), None)
            })?),
            None => None,
        };
        let ctx = forwarded.unwrap_or_else(|| shared.context.clone()).with_interaction(call.clone());
        if self.rules_unchecked_for(&context) && !self.specs_admitting(&ctx).await.iter().any(|s| s.name() == name) {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", crate::routes::shown(&name)), None));
        }
        let invocation = ToolInvocation::new(name.clone(), Value::Object(std::mem::take(&mut arguments)))
            .with_call_id(context.id.to_string())
            .with_session_id(ctx.session_id.clone());
        let _in_flight = shared.calls.enter();
        let mut spec = None;
        let finished = tokio::select! {
            biased;
            result = shared.registry.invoke_found(invocation, Some(&ctx), Some(&mut spec)) => Some(result),
            () = call.input_needed() => None,
            () = context.ct.cancelled() => {
                let text = format!("Tool {name} failed: Cancelled: the client cancelled the call");
                return Ok(to_call_result(&toolhook::ToolExecutionResult::failure(name, text), false).into());
            }
        };
        let Some(result) = finished else {
            let (pending, used) = call.take_rounds().map(Rounds::into_parts).unwrap_or_default();
            let state = shared.states.seal(&name, &bound.unwrap_or_default(), used)?;
            let requests: InputRequests = serde_json::from_value(Value::Object(pending))
                .map_err(|e| ErrorData::internal_error(format!("cannot ask for input: {e}"), None))?;
            return Ok(InputRequiredResult::new(Some(requests), Some(state)).into());
        };
        let Some(spec) = spec else {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", crate::routes::shown(&name)), None));
        };
        if !result.success
            && let Some(kind) = call.missing_capability()
        {
            return Err(missing_capability(kind));
        }
        if name == TOOL_SEARCH
            && result
                .structured_content()
                .and_then(|s| s.get("newly_discovered_tool_names"))
                .is_some_and(|n| n.as_array().is_some_and(|n| !n.is_empty()))
        {
            shared.refresh.notify_one();
        }
        Ok(to_call_result(&result, spec.output_schema().is_some()).into())
    }
}
