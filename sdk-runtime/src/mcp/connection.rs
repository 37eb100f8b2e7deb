//! One MCP server the host uses, kept connected: connected and listed with timeouts, watched,
//! reconnected with exponential backoff and jitter, restarted (and, for a stdio server whose
//! program changed, reloaded) without a gap, disabled after too many failures in a row. Its
//! calls, and the notifications and questions the server sends while they run.
#![allow(deprecated)] // rmcp marks the logging, sampling and roots APIs as superseded; MCP still has them.

use super::config::{McpProtocol, McpServerEntry, McpTransport};
use super::session_client::SessionClient;
use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientCapabilities, ClientConfig, ClientRequest,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Implementation, InputResponses,
    ListRootsResult, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken, ProtocolVersion,
    Request, RequestId, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, Peer, RoleClient};
use rustc_hash::FxHashMap;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use toolhook::{
    Elicitation, InputKind, Interaction, LogLevel, Progress, RootsRequest, SamplingRequest, SharedEntries,
    ToolExecutionResult, ToolSpec,
};

/// The most rounds of questions one call may take.
const MAX_ROUNDS: usize = 10;

/// How long calls in flight on a replaced connection may take to finish before it is closed.
const DRAIN: Duration = Duration::from_secs(30);

/// A connection that lasted this long resets the count of failures in a row.
const STABLE: Duration = Duration::from_secs(60);

/// Where a server stands.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpServerStatus {
    /// Starting or connecting for the first time.
    Connecting,
    /// Connected; its tools are listed.
    Connected {
        /// The protocol version agreed.
        protocol_version: String,
        /// How many tools it lists.
        tools: usize,
    },
    /// Lost or never reached; tried again after the wait. Its last known tools stay listed and
    /// fail fast meanwhile.
    Reconnecting {
        /// Why it is down.
        error: String,
        /// Failures in a row.
        failures: u32,
    },
    /// Failed too many times in a row (or switched off); its tools are withdrawn until
    /// [`McpToolProvider::restart`](super::McpToolProvider::restart).
    Disabled {
        /// Why.
        reason: String,
    },
    /// Closed by the host.
    Stopped,
}

/// What the provider and the calls read: replaced whole, so a call sees one state or the next,
/// never half of each.
#[derive(Clone)]
pub(crate) struct Live {
    pub(crate) status: McpServerStatus,
    pub(crate) tools: Arc<Vec<ToolSpec>>,
    pub(crate) peer: Option<Peer<RoleClient>>,
    pub(crate) generation: u64,
    /// The `_meta` of a call whose caller hears log messages (on 2026-07-28: the log level).
    call_meta: Option<rmcp::model::RequestMetaObject>,
    /// `server_name`, `protocol_version` and `session_id` (`null` without a session) of this
    /// connection, shared by every result of its calls.
    origin: SharedEntries,
    /// The HTTP client that learns the session id, and its count of session changes `origin`
    /// was made at.
    session: Option<(SessionClient, u64)>,
}

/// What the supervisor is asked to do.
#[derive(Debug)]
enum Command {
    /// The server said its tools changed.
    Relist,
    /// Start a new connection (a new process) and swap to it.
    Restart,
    /// A call or the change subscription found this connection (of this generation) broken.
    Lost(u64),
}

/// A call in flight: whom to tell about its progress, whom to ask its questions.
///
/// It is entered before its request is sent, since the server may ask a question or send a
/// notice as soon as it has the request; its progress token, chosen by rmcp as the request goes
/// out, follows just after (`None` until then).
struct InFlight {
    generation: u64,
    token: Option<ProgressToken>,
    caller: Option<Arc<dyn Interaction>>,
    /// The highest progress told to the caller. rmcp hands each notification to its own task, so
    /// reports can arrive out of order: a value that does not increase is a late one and dropped,
    /// and the lock, held while the caller is told, keeps what it hears in order.
    /// `None` without a caller (nobody to tell).
    progress: Option<LastProgress>,
}

/// The highest progress told to a caller, locked while telling it.
type LastProgress = Arc<tokio::sync::Mutex<f64>>;

/// Who hears a call's progress, and what it heard last.
type Listener = (Arc<dyn Interaction>, LastProgress);

/// A call that got its answer. rmcp hands each notification to its own task, so a progress
/// report or a log message the server sent before its answer can be handled after it: the last
/// [`RECENT_CALLS`] finished calls still take such notices for [`LATE_NOTICES`].
struct Finished {
    call: InFlight,
    at: Instant,
}

/// How long a finished call still takes the notifications sent before its answer.
const LATE_NOTICES: Duration = Duration::from_secs(2);

/// How many finished calls are remembered for late notices.
const RECENT_CALLS: usize = 32;

/// How long a progress report waits for a call that does not know its progress token yet.
const TOKEN_WAIT: Duration = Duration::from_secs(1);

/// A call in flight does not know its progress token yet: a report may be its.
struct Unnamed;

/// Makes the specs of a server's tools (the provider's rules).
pub(crate) type SpecMaker = dyn Fn(&str, &rmcp::model::Tool) -> Option<ToolSpec> + Send + Sync;

pub(crate) struct Connection {
    pub(crate) name: String,
    entry: McpServerEntry,
    live: RwLock<Arc<Live>>,
    commands: mpsc::Sender<Command>,
    /// Closes the server for good; everything the supervisor waits on gives way to it.
    stopping: CancellationToken,
    /// The calls in flight, by a number of this connection's (the request id is rmcp's, known
    /// only once the request has gone).
    calls: Mutex<FxHashMap<u64, InFlight>>,
    /// The next call's number.
    call_numbers: AtomicU64,
    /// Woken when a call in flight learns its progress token.
    tokens: tokio::sync::Notify,
    /// The last finished calls, oldest first (at most [`RECENT_CALLS`]).
    recent: Mutex<std::collections::VecDeque<Finished>>,
    /// Boxes of finished calls, each reused by the next call (at most [`SPARE_CALL_BOXES`]).
    spare: Mutex<Vec<CallBox>>,
    host: Option<Arc<dyn Interaction>>,
    make_spec: Arc<SpecMaker>,
    /// Tells the provider (and through it the registry) that the tools changed.
    changed: Arc<dyn Fn() + Send + Sync>,
    generations: AtomicU64,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection").field("name", &self.name).field("status", &self.live().status).finish()
    }
}

type Client = RunningService<RoleClient, Bridge>;

impl Connection {
    /// A connection, its supervisor started on the current tokio runtime.
    pub(crate) fn start(
        name: String,
        entry: McpServerEntry,
        host: Option<Arc<dyn Interaction>>,
        make_spec: Arc<SpecMaker>,
        changed: Arc<dyn Fn() + Send + Sync>,
    ) -> Arc<Self> {
        let (commands, receiver) = mpsc::channel(8);
        let status = if entry.enabled {
            McpServerStatus::Connecting
        } else {
            McpServerStatus::Disabled { reason: "switched off in the configuration".into() }
        };
        let origin = SharedEntries::new("server_name", name.as_str());
        let live = Live {
            status,
            tools: Arc::new(Vec::new()),
            peer: None,
            generation: 0,
            call_meta: None,
            origin,
            session: None,
        };
        let connection = Arc::new(Connection {
            name,
            entry,
            live: RwLock::new(Arc::new(live)),
            commands,
            stopping: CancellationToken::new(),
            calls: Mutex::new(FxHashMap::default()),
            call_numbers: AtomicU64::new(0),
            tokens: tokio::sync::Notify::new(),
            recent: Mutex::new(std::collections::VecDeque::with_capacity(RECENT_CALLS)),
            spare: Mutex::new(Vec::new()),
            host,
            make_spec,
            changed,
            generations: AtomicU64::new(0),
        });
        if connection.entry.enabled {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(Arc::clone(&connection).supervise(receiver));
                    if connection.entry.watch {
                        runtime.spawn(watch_program(Arc::downgrade(&connection)));
                    }
                }
                Err(_) => connection.set(|live| {
                    live.status = McpServerStatus::Disabled { reason: "MCP servers need a tokio runtime".into() };
                }),
            }
        }
        connection
    }

    /// Whether its calls carry the caller's chat context ([`McpServerEntry::forward_context`]).
    pub(crate) fn forwards_context(&self) -> bool {
        self.entry.forward_context
    }

    pub(crate) fn live(&self) -> Arc<Live> {
        self.live.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set(&self, change: impl FnOnce(&mut Live)) {
        let mut guard = self.live.write().unwrap_or_else(|p| p.into_inner());
        let mut live = (**guard).clone();
        change(&mut live);
        *guard = Arc::new(live);
    }

    /// Asks the supervisor to restart the server or list its tools again; `false` when it is
    /// stopped or too busy to take the request.
    pub(crate) fn request(&self, command: &'static str) -> bool {
        let command = if command == "restart" { Command::Restart } else { Command::Relist };
        !self.stopping.is_cancelled() && self.commands.try_send(command).is_ok()
    }

    /// Closes the server for good, without waiting.
    pub(crate) fn close(&self) {
        self.stopping.cancel();
    }

    /// Tells the supervisor that the connection of `generation` broke.
    fn lost(&self, generation: u64) {
        let _ = self.commands.try_send(Command::Lost(generation));
    }

    /// Closes the server (a child gets its stdin closed, then a signal) and waits, 15 s at most.
    pub(crate) async fn stop(&self) {
        self.close();
        let until = Instant::now() + Duration::from_secs(15);
        while Instant::now() < until
            && !matches!(self.live().status, McpServerStatus::Stopped)
            && !self.commands.is_closed()
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn calls(&self) -> std::sync::MutexGuard<'_, FxHashMap<u64, InFlight>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }

    // ---- the supervisor ------------------------------------------------------------------------

    async fn supervise(self: Arc<Self>, mut commands: mpsc::Receiver<Command>) {
        let mut failures = 0u32;
        let mut current: Option<(Client, Instant)> = None;
        loop {
            if current.is_none() {
                let opened = tokio::select! {
                    opened = self.open() => opened,
                    () = self.stopping.cancelled() => return self.stopped(),
                };
                match opened {
                    Ok((client, session, tools)) => {
                        self.publish(&client, session, tools);
                        current = Some((client, Instant::now()));
                    }
                    Err(error) => {
                        failures += 1;
                        if failures > self.entry.max_restarts {
                            if !self.disabled(failures, &error, &mut commands).await {
                                return self.stopped();
                            }
                            failures = 0;
                            continue;
                        }
                        let wait = backoff(failures);
                        tracing::warn!(server = %self.name, %error, failures, retry_in_ms = wait.as_millis() as u64, "MCP server unreachable");
                        self.set(|live| live.status = McpServerStatus::Reconnecting { error, failures });
                        if !self.wait(wait, &mut commands, &mut failures).await {
                            return self.stopped();
                        }
                        continue;
                    }
                }
            }
            let Some((client, since)) = current.take() else { continue };
            let peer = client.peer().clone();
            let token = client.cancellation_token();
            let generation = self.live().generation;
            let mut closed = Box::pin(client.waiting());
            let error = loop {
                tokio::select! {
                    quit = &mut closed => break match quit {
                        Ok(reason) => format!("the connection closed ({reason:?})"),
                        Err(error) => format!("the connection failed: {error}"),
                    },
                    () = self.stopping.cancelled() => {
                        token.cancel();
                        let _ = tokio::time::timeout(Duration::from_secs(10), &mut closed).await;
                        return self.stopped();
                    }
                    command = commands.recv() => match command {
                        Some(Command::Relist) => {
                            tokio::select! {
                                () = self.relist(&peer) => {}
                                () = self.stopping.cancelled() => {}
                            }
                        }
                        Some(Command::Lost(lost)) if lost == generation => {
                            token.cancel();
                            let _ = tokio::time::timeout(Duration::from_secs(5), &mut closed).await;
                            break "the server stopped answering".to_owned();
                        }
                        Some(Command::Lost(_)) => {}
                        Some(Command::Restart) => {
                            // The new one first: calls keep going to the old one until it is ready.
                            let opened = tokio::select! {
                                opened = self.open() => opened,
                                () = self.stopping.cancelled() => continue,
                            };
                            match opened {
                                Ok((fresh, session, tools)) => {
                                    self.publish(&fresh, session, tools);
                                    tracing::info!(server = %self.name, "MCP server restarted");
                                    tokio::select! {
                                        () = self.drain(generation) => {}
                                        () = self.stopping.cancelled() => {}
                                    }
                                    token.cancel();
                                    let _ = tokio::time::timeout(Duration::from_secs(10), &mut closed).await;
                                    failures = 0;
                                    current = Some((fresh, Instant::now()));
                                    break String::new();
                                }
                                Err(error) => {
                                    tracing::error!(server = %self.name, %error, "MCP server restart failed; the running one stays");
                                }
                            }
                        }
                        // The connection holds the sender: the channel closes with it.
                        None => return self.stopped(),
                    },
                }
            };
            if current.is_some() {
                continue; // restarted
            }
            if since.elapsed() >= STABLE {
                failures = 0;
            }
            failures += 1;
            tracing::warn!(server = %self.name, %error, "MCP server lost; reconnecting");
            // Its tools stay listed and fail fast until it is back.
            self.set(|live| {
                live.status = McpServerStatus::Reconnecting { error, failures };
                live.peer = None;
            });
            if failures > self.entry.max_restarts {
                if !self.disabled(failures, "it kept stopping", &mut commands).await {
                    return self.stopped();
                }
                failures = 0;
            } else if !self.wait(backoff(failures), &mut commands, &mut failures).await {
                return self.stopped();
            }
        }
    }

    /// Waits before trying again, or until the host asks for a restart (`failures` start over);
    /// `false` when the host stops the server meanwhile.
    async fn wait(&self, wait: Duration, commands: &mut mpsc::Receiver<Command>, failures: &mut u32) -> bool {
        let until = crate::guard::deadline_after(tokio::time::Instant::now(), wait);
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(until) => return true,
                () = self.stopping.cancelled() => return false,
                command = commands.recv() => match command {
                    None => return false,
                    Some(Command::Restart) => {
                        *failures = 0;
                        return true;
                    }
                    Some(Command::Relist | Command::Lost(_)) => {}
                },
            }
        }
    }

    /// Lists the server's tools again, after it said they changed.
    async fn relist(&self, peer: &Peer<RoleClient>) {
        match tokio::time::timeout(self.entry.connect_timeout, peer.list_all_tools()).await {
            Ok(Ok(tools)) => {
                let specs = self.specs(&tools);
                self.set(|live| {
                    if let McpServerStatus::Connected { tools, .. } = &mut live.status {
                        *tools = specs.len();
                    }
                    live.tools = Arc::new(specs);
                });
                (self.changed)();
            }
            Ok(Err(error)) => {
                tracing::warn!(server = %self.name, %error, "MCP server's tools could not be listed again")
            }
            Err(_) => tracing::warn!(server = %self.name, "MCP server's tools could not be listed again in time"),
        }
    }

    /// Disables the server after too many failures and waits for the host: `true` when it asks
    /// for a restart, `false` when it stops the server.
    async fn disabled(&self, failures: u32, error: &str, commands: &mut mpsc::Receiver<Command>) -> bool {
        let reason = format!("{failures} failures in a row, the last: {error}");
        tracing::error!(server = %self.name, %reason, "MCP server disabled; restart it to try again");
        self.set(|live| {
            live.status = McpServerStatus::Disabled { reason };
            live.peer = None;
        });
        (self.changed)();
        loop {
            tokio::select! {
                () = self.stopping.cancelled() => return false,
                command = commands.recv() => match command {
                    Some(Command::Restart) => return true,
                    None => return false,
                    Some(Command::Relist | Command::Lost(_)) => {}
                },
            }
        }
    }

    fn stopped(&self) {
        self.set(|live| {
            live.status = McpServerStatus::Stopped;
            live.peer = None;
            live.tools = Arc::new(Vec::new());
        });
        (self.changed)();
    }

    /// Waits until no call of an earlier generation is in flight (at most [`DRAIN`]).
    async fn drain(&self, generation: u64) {
        let until = Instant::now() + DRAIN;
        while Instant::now() < until && self.calls().values().any(|c| c.generation <= generation) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Makes it the current connection, with its tools.
    fn publish(self: &Arc<Self>, client: &Client, http: Option<SessionClient>, tools: Vec<ToolSpec>) {
        let generation = self.generations.fetch_add(1, Ordering::Relaxed) + 1;
        let protocol_version =
            client.peer().peer_info().map(|info| info.protocol_version.to_string()).unwrap_or_default();
        let (id, changes) = http.as_ref().map_or((None, 0), SessionClient::session);
        let origin = self.origin(&protocol_version, id);
        let session = http.map(|http| (http, changes));
        let count = tools.len();
        let peer = client.peer();
        let stateless = peer.peer_info().is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28);
        // On 2026-07-28 a call asks for log messages itself; info and above, as the older era's
        // servers send until told otherwise.
        let call_meta = stateless.then(|| {
            let mut meta = rmcp::model::RequestMetaObject::new();
            meta.set_log_level(rmcp::model::LoggingLevel::Info);
            meta
        });
        self.set(|live| {
            live.status = McpServerStatus::Connected { protocol_version, tools: count };
            live.tools = Arc::new(tools);
            live.peer = Some(peer.clone());
            live.generation = generation;
            live.call_meta = call_meta;
            live.origin = origin;
            live.session = session;
        });
        (self.changed)();
        let announces = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.tools.as_ref().is_some_and(|t| t.list_changed == Some(true)));
        if stateless && announces {
            tokio::spawn(listen_for_changes(Arc::downgrade(self), peer.clone(), generation));
        }
        if let Some(every) = self.entry.ping_interval {
            let within = self.entry.connect_timeout.min(Duration::from_secs(10));
            tokio::spawn(keep_alive(Arc::downgrade(self), peer.clone(), generation, every, within, stateless));
        }
    }

    /// The entries every result of this connection shares.
    fn origin(&self, protocol_version: &str, session: Option<String>) -> SharedEntries {
        SharedEntries::from_entries([
            ("server_name", Value::from(self.name.as_str())),
            ("protocol_version", Value::from(protocol_version)),
            ("session_id", session.map_or(Value::Null, Value::from)),
        ])
    }

    /// `live`'s shared result entries, made again when the session changed since (rmcp starts
    /// a new session by itself when the server forgot the old one).
    fn current_origin(&self, live: &Live) -> SharedEntries {
        let Some((http, made_at)) = &live.session else { return live.origin.clone() };
        if http.changes() == *made_at {
            return live.origin.clone();
        }
        let (id, changes) = http.session();
        let protocol_version = live.origin.get("protocol_version").and_then(Value::as_str).unwrap_or_default();
        let origin = self.origin(protocol_version, id);
        let generation = live.generation;
        self.set(|live| {
            if live.generation == generation {
                live.origin = origin.clone();
                if let Some((_, made_at)) = &mut live.session {
                    *made_at = changes;
                }
            }
        });
        origin
    }

    /// Connects and lists, within the connect timeout.
    /// Connects and lists, within the connect timeout: the client, the HTTP client that learns
    /// the session id (Streamable HTTP), and the tools.
    async fn open(self: &Arc<Self>) -> Result<(Client, Option<SessionClient>, Vec<ToolSpec>), String> {
        let attempt = async {
            let (client, session) = self.connect().await?;
            client.peer().set_response_cache_config(rmcp::ClientCacheConfig::disabled()).await;
            let tools = client.peer().list_all_tools().await.map_err(|e| format!("listing its tools failed: {e}"))?;
            Ok::<_, String>((client, session, tools))
        };
        match tokio::time::timeout(self.entry.connect_timeout, attempt).await {
            Ok(Ok((client, session, tools))) => {
                let specs = self.specs(&tools);
                Ok((client, session, specs))
            }
            Ok(Err(error)) => Err(error),
            Err(_) => Err(format!("no answer within {} s", self.entry.connect_timeout.as_secs_f32())),
        }
    }

    fn specs(&self, tools: &[rmcp::model::Tool]) -> Vec<ToolSpec> {
        tools.iter().filter_map(|tool| (self.make_spec)(&self.name, tool)).collect()
    }

    /// A started client, and for Streamable HTTP the HTTP client that learns the session id.
    async fn connect(self: &Arc<Self>) -> Result<(Client, Option<SessionClient>), String> {
        let bridge = Bridge { connection: Arc::downgrade(self) };
        let lifecycle = match self.entry.protocol {
            McpProtocol::Auto => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
            McpProtocol::Stateless => {
                ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] }
            }
            _ => ClientLifecycleMode::Initialize,
        };
        match &self.entry.transport {
            McpTransport::Stdio { command, args, env, cwd } => {
                let mut process = tokio::process::Command::new(command);
                process.args(args).envs(env).kill_on_drop(true);
                if let Some(cwd) = cwd {
                    process.current_dir(cwd);
                }
                let (transport, stderr) = rmcp::transport::TokioChildProcess::builder(process)
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .map_err(|e| format!("cannot start {command}: {e}"))?;
                if let Some(stderr) = stderr {
                    tokio::spawn(forward_stderr(self.name.clone(), stderr));
                }
                let client = bridge.serve_with_lifecycle(transport, lifecycle).await.map_err(|e| e.to_string())?;
                Ok((client, None))
            }
            McpTransport::Http { url, headers } => {
                let http = SessionClient::new()?;
                let transport = http_transport(http.clone(), url, headers)?;
                let client = bridge.serve_with_lifecycle(transport, lifecycle).await.map_err(|e| e.to_string())?;
                Ok((client, Some(http)))
            }
        }
    }

    // ---- calls ---------------------------------------------------------------------------------

    /// Calls a tool of this server; `Err` is a transport failure (the caller words it). The tool
    /// name comes back with the outcome.
    ///
    /// A call's future holds rmcp's request futures, kilobytes in all: it runs in a box kept for
    /// the next call, because a fresh allocation of that size costs the system allocator more
    /// than everything else the call does on this side of the wire. What this returns is only a
    /// handle on that box, so the future that awaits it (the provider's, boxed on every call)
    /// stays small.
    pub(crate) fn call(
        self: &Arc<Self>,
        tool: String,
        arguments: Map<String, Value>,
        text: Option<String>,
        caller: Option<Arc<dyn Interaction>>,
        context: Option<Value>,
    ) -> Call<'_> {
        let this = Arc::clone(self);
        let call = async move {
            // The name lives in the params (each request sends a copy) and comes back from them.
            let mut params = CallToolRequestParams::new(tool).with_arguments(arguments);
            if let Some(context) = context {
                let meta = params.meta.get_or_insert_with(rmcp::model::RequestMetaObject::new);
                meta.0.0.insert(super::CONTEXT_META_KEY.to_owned(), context);
            }
            let outcome = this.call_in_box(&mut params, text, caller).await;
            (params.name.into_owned(), outcome)
        };
        let spare = self.spare.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let boxed = match spare {
            Some(mut boxed) => {
                boxed.set(call);
                boxed
            }
            None => CallBox::new(call),
        };
        Call { connection: self, boxed: Some(boxed) }
    }

    /// Sends `params` (again with the answers, each time the server asks for input) until the
    /// server answers; the result's tool name is left to the caller. `text`, the JSON text the
    /// arguments were parsed from, gives them again for a retry, so that the arguments can go
    /// out without a copy kept; without it, each request sends a copy.
    async fn call_in_box(
        &self,
        params: &mut CallToolRequestParams,
        text: Option<String>,
        caller: Option<Arc<dyn Interaction>>,
    ) -> Result<ToolExecutionResult, CallError> {
        let live = self.live();
        let Some(peer) = live.peer.clone() else { return Err(CallError::NotConnected) };
        if caller.is_some()
            && let Some(call_meta) = &live.call_meta
        {
            // Log messages are asked for only when someone is there to read them.
            params.meta.get_or_insert_with(rmcp::model::RequestMetaObject::new).0.0.extend(call_meta.0.0.clone());
        }
        for _ in 0..MAX_ROUNDS {
            let sent = match text {
                Some(_) => {
                    let arguments = params.arguments.take();
                    let mut sent = params.clone();
                    sent.arguments = arguments;
                    sent
                }
                None => params.clone(),
            };
            let request = ClientRequest::CallToolRequest(Request::new(sent));
            let lost = |error| {
                let error = CallError::from_service(error);
                if matches!(error, CallError::Lost) {
                    self.lost(live.generation);
                }
                error
            };
            let entry = InFlight {
                generation: live.generation,
                token: None,
                caller: caller.clone(),
                progress: caller.is_some().then(|| Arc::new(tokio::sync::Mutex::new(f64::NEG_INFINITY))),
            };
            let number = self.call_numbers.fetch_add(1, Ordering::Relaxed);
            self.calls().insert(number, entry);
            let mut pending = Pending { connection: self, peer: &peer, number: Some(number), id: None };
            let handle =
                peer.send_request_with_option(request, PeerRequestOptions::no_options()).await.map_err(lost)?;
            pending.id = Some(handle.id);
            if let Some(call) = self.calls().get_mut(&number) {
                call.token = Some(handle.progress_token);
            }
            self.tokens.notify_waiters();
            // The response channel itself: the request has no timeout of rmcp's (the registry
            // times the call) and no subscription, which is all `await_response` adds, and its
            // future is kilobytes that every call's boxed future would carry.
            let answer = handle.rx.await.unwrap_or(Err(rmcp::ServiceError::TransportClosed));
            pending.finish();
            match answer.map_err(lost)? {
                ServerResult::CallToolResult(result) => {
                    return Ok(super::content::from_call_result(result, self.current_origin(&live)));
                }
                ServerResult::InputRequiredResult(asked) => {
                    let answers =
                        self.answer_round(asked.input_requests.unwrap_or_default(), caller.as_deref()).await?;
                    params.input_responses = Some(answers);
                    params.request_state = asked.request_state;
                    if let Some(text) = &text {
                        params.arguments = serde_json::from_str(text).ok();
                    }
                }
                _ => return Err(CallError::Transport("the server answered tools/call with something else".into())),
            }
        }
        Err(CallError::Transport(format!("the server asked for input more than {MAX_ROUNDS} times")))
    }

    /// Answers one round of a call's questions: through the caller, else through the host.
    async fn answer_round(
        &self,
        requests: rmcp::model::InputRequests,
        caller: Option<&dyn Interaction>,
    ) -> Result<InputResponses, CallError> {
        let mut answers = InputResponses::new();
        for (key, request) in requests {
            let wire = serde_json::to_value(&request).unwrap_or_default();
            let method = wire.get("method").and_then(Value::as_str).unwrap_or_default();
            let params = wire.get("params").cloned().unwrap_or(json!({}));
            let answer = self.answer(method, &params, caller).await.map_err(|kind| {
                CallError::Transport(format!("the server asked for {kind}, which this host cannot answer"))
            })?;
            answers.insert(key, answer);
        }
        Ok(answers)
    }

    /// Answers a question: through the caller when it can answer this kind, else through the
    /// host; `Err` names what nobody could answer (an elicitation is declined instead).
    async fn answer(
        &self,
        method: &str,
        params: &Value,
        caller: Option<&dyn Interaction>,
    ) -> Result<Value, &'static str> {
        let kind = match method {
            "elicitation/create" => InputKind::Elicitation,
            "sampling/createMessage" => InputKind::Sampling,
            "roots/list" => InputKind::Roots,
            _ => return Err("an unknown kind of input"),
        };
        let can = |i: &dyn Interaction| {
            let c = i.capabilities();
            match kind {
                InputKind::Elicitation => c.elicitation,
                InputKind::Sampling => c.sampling,
                _ => c.roots,
            }
        };
        let asker = caller.filter(|i| can(*i)).or_else(|| self.host.as_deref().filter(|i| can(*i)));
        let Some(asker) = asker else {
            return if kind == InputKind::Elicitation {
                Ok(json!({"action": "decline"}))
            } else {
                Err(kind_name(kind))
            };
        };
        let failed = |_| kind_name(kind);
        match kind {
            InputKind::Elicitation => {
                let message = params.get("message").and_then(Value::as_str).unwrap_or_default();
                let schema = params.get("requestedSchema").cloned().unwrap_or(json!({"type": "object"}));
                match asker.elicit(Elicitation::new(message, schema)).await {
                    Ok(reply) => Ok(serde_json::to_value(&reply).unwrap_or_default()),
                    Err(_) => Ok(json!({"action": "decline"})),
                }
            }
            InputKind::Sampling => {
                let request = sampling_request(params);
                let reply = asker.sample(request).await.map_err(failed)?;
                Ok(
                    json!({"role": "assistant", "content": reply.content, "model": reply.model, "stopReason": reply.stop_reason}),
                )
            }
            _ => {
                let roots = asker.list_roots(RootsRequest::new()).await.map_err(failed)?;
                let roots: Vec<Value> = roots.iter().map(|r| json!({"uri": r.uri, "name": r.name})).collect();
                Ok(json!({"roots": roots}))
            }
        }
    }

    /// The last finished calls.
    fn recent(&self) -> std::sync::MutexGuard<'_, std::collections::VecDeque<Finished>> {
        self.recent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The caller of the only call under way (with `recent`, or just finished), if there is one:
    /// for what a 2025-11-25 server sends outside a round (it does not say which call it is about).
    fn only_caller(&self, recent: bool) -> Option<Arc<dyn Interaction>> {
        let calls = self.calls();
        let finished = recent.then(|| self.recent());
        let now = Instant::now();
        let late = finished.iter().flat_map(|f| f.iter()).filter(|f| now.duration_since(f.at) < LATE_NOTICES);
        let mut callers = calls.values().chain(late.map(|f| &f.call));
        match (callers.next(), callers.next()) {
            (Some(only), None) => only.caller.clone(),
            _ => None,
        }
    }

    /// The caller and progress of the call a progress token belongs to: under way, or finished
    /// within [`LATE_NOTICES`]. A report can overtake the token's entry (it is known only once
    /// the request has gone): while a call still waits for its token, the report waits for it,
    /// at most [`TOKEN_WAIT`].
    async fn progress_of(&self, token: &ProgressToken) -> Option<Listener> {
        let until = tokio::time::Instant::now() + TOKEN_WAIT;
        loop {
            let told = self.tokens.notified();
            tokio::pin!(told);
            told.as_mut().enable();
            match self.find_progress(token) {
                Ok(found) => return found,
                Err(Unnamed) => {
                    if tokio::time::timeout_at(until, told).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    /// [`Connection::progress_of`] now: `Err` while the token may belong to a call that does
    /// not know its own yet.
    fn find_progress(&self, token: &ProgressToken) -> Result<Option<Listener>, Unnamed> {
        let of = |c: &InFlight| Some((c.caller.clone()?, c.progress.clone()?));
        let calls = self.calls();
        if let Some(call) = calls.values().find(|c| c.token.as_ref() == Some(token)) {
            return Ok(of(call));
        }
        let unnamed = calls.values().any(|c| c.token.is_none());
        drop(calls);
        let now = Instant::now();
        let recent = self.recent();
        let found = recent
            .iter()
            .rev()
            .find(|f| f.call.token.as_ref() == Some(token) && now.duration_since(f.at) < LATE_NOTICES);
        match found {
            Some(f) => Ok(of(&f.call)),
            None if unnamed => Err(Unnamed),
            None => Ok(None),
        }
    }

    /// A call got its answer: it joins the recent ones (the oldest of which goes).
    fn finished(&self, number: u64) {
        let Some(call) = self.calls().remove(&number) else { return };
        let mut recent = self.recent();
        if recent.len() == RECENT_CALLS {
            recent.pop_front();
        }
        recent.push_back(Finished { call, at: Instant::now() });
    }
}

fn kind_name(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Elicitation => "an answer from the user",
        InputKind::Sampling => "an answer from a model",
        _ => "the client's roots",
    }
}

fn sampling_request(params: &Value) -> SamplingRequest {
    let max_tokens = params.get("maxTokens").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).unwrap_or(256);
    let mut request = SamplingRequest::new(max_tokens);
    for message in params.get("messages").and_then(Value::as_array).into_iter().flatten() {
        let text = message.pointer("/content/text").and_then(Value::as_str).unwrap_or_default();
        request = match message.get("role").and_then(Value::as_str) {
            Some("assistant") => request.assistant(text),
            _ => request.user(text),
        };
    }
    if let Some(prompt) = params.get("systemPrompt").and_then(Value::as_str) {
        request = request.system_prompt(prompt);
    }
    if let Some(temperature) = params.get("temperature").and_then(Value::as_f64) {
        request = request.temperature(temperature);
    }
    request
}

/// Why a call did not get a result.
#[derive(Debug)]
pub(crate) enum CallError {
    /// The server is down (reconnecting); nothing was sent.
    NotConnected,
    /// The connection broke while the call was on its way (the server crashed or exited).
    Lost,
    /// The server answered with a JSON-RPC error (its message).
    Refused(String),
    /// Anything else that went wrong on the way.
    Transport(String),
}

impl CallError {
    fn from_service(error: rmcp::ServiceError) -> Self {
        match error {
            rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_) => CallError::Lost,
            rmcp::ServiceError::McpError(error) => CallError::Refused(error.message.into_owned()),
            other => CallError::Transport(other.to_string()),
        }
    }
}

/// A call's future in a reusable box.
type CallBox = tokio_util::sync::ReusableBoxFuture<'static, CallOutcome>;

/// A tool call's name and outcome.
type CallOutcome = (String, Result<ToolExecutionResult, CallError>);

/// A call under way ([`Connection::call`]): its box goes back to the connection's spares when
/// the call is done (a call dropped before then drops its box).
pub(crate) struct Call<'a> {
    connection: &'a Connection,
    boxed: Option<CallBox>,
}

impl Future for Call<'_> {
    type Output = CallOutcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<CallOutcome> {
        // `None` only once the call was done: polled again, it stays pending.
        let Some(boxed) = self.boxed.as_mut() else { return Poll::Pending };
        let outcome = std::task::ready!(boxed.poll(cx));
        if let Some(boxed) = self.boxed.take() {
            let mut spare = self.connection.spare.lock().unwrap_or_else(|p| p.into_inner());
            if spare.len() < SPARE_CALL_BOXES {
                spare.push(boxed);
            }
        }
        Poll::Ready(outcome)
    }
}

/// Call boxes a connection keeps for reuse: as many as calls usually run at once on one server.
const SPARE_CALL_BOXES: usize = 16;

/// A request on its way: its entry in the calls in flight, and a `notifications/cancelled` for
/// the server if the caller stops waiting once it was sent (a timeout, or the caller went away).
struct Pending<'a> {
    connection: &'a Connection,
    peer: &'a Peer<RoleClient>,
    /// The entry in the calls in flight, until the answer came.
    number: Option<u64>,
    /// The request's id, once it was sent.
    id: Option<RequestId>,
}

impl Pending<'_> {
    fn finish(&mut self) {
        if let Some(number) = self.number.take() {
            self.connection.finished(number);
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        let Some(number) = self.number.take() else { return };
        self.connection.calls().remove(&number);
        let Some(id) = self.id.take() else { return };
        let peer = self.peer.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let param = CancelledNotificationParam::new(Some(id), Some("the caller stopped waiting".into()));
                let _ = peer.notify_cancelled(param).await;
            });
        }
    }
}

/// On 2026-07-28 a server tells of changes on a subscription: its tool changes are listed again,
/// and a subscription that cannot be opened again means the server is gone. Ends with its
/// connection.
async fn listen_for_changes(connection: Weak<Connection>, peer: Peer<RoleClient>, generation: u64) {
    let filter = rmcp::model::SubscriptionFilter::builder().tools_list_changed().build();
    loop {
        let mut subscription = match peer.listen(filter.clone()).await {
            Ok(subscription) => subscription,
            Err(error) => {
                if let Some(connection) = connection.upgrade() {
                    if matches!(CallError::from_service(error), CallError::Lost) {
                        connection.lost(generation);
                    } else {
                        tracing::debug!(server = %connection.name, "MCP server refused a change subscription");
                    }
                }
                return;
            }
        };
        // A change between the last listing and this subscription would be missed: list once more.
        match connection.upgrade() {
            Some(connection) => connection.request("relist"),
            None => return,
        };
        while let Ok(Some(notification)) = subscription.next().await {
            if matches!(notification, rmcp::model::ServerNotification::ToolListChangedNotification(_)) {
                match connection.upgrade() {
                    Some(connection) => connection.request("relist"),
                    None => return,
                };
            }
        }
        // Ended: the connection was replaced, or the stream broke (listen again to find out).
        match connection.upgrade() {
            Some(connection) if connection.live().generation == generation && !peer.is_transport_closed() => {}
            _ => return,
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Checks every `every` that the connection of `generation` still answers (`ping`, or
/// `server/discover` on 2026-07-28, which has no `ping`); one that does not answer within
/// `within` is reported lost. Ends with its connection.
async fn keep_alive(
    connection: Weak<Connection>,
    peer: Peer<RoleClient>,
    generation: u64,
    every: Duration,
    within: Duration,
    stateless: bool,
) {
    loop {
        tokio::time::sleep(every).await;
        let current = connection.upgrade().is_some_and(|c| c.live().generation == generation);
        if !current || peer.is_transport_closed() {
            return;
        }
        let probe = async {
            if stateless {
                peer.discover(rmcp::model::RequestMetaObject::new()).await.map(drop)
            } else {
                peer.send_request(ClientRequest::PingRequest(rmcp::model::PingRequest::default())).await.map(drop)
            }
        };
        let failed = match tokio::time::timeout(within, probe).await {
            Ok(Ok(())) => None,
            // An error answer is an answer: the server is there.
            Ok(Err(rmcp::ServiceError::McpError(_))) => None,
            Ok(Err(error)) => Some(error.to_string()),
            Err(_) => Some(format!("no answer to a ping within {} s", within.as_secs_f32())),
        };
        if let Some(error) = failed {
            if let Some(connection) = connection.upgrade() {
                tracing::warn!(server = %connection.name, %error, "MCP server does not answer");
                connection.lost(generation);
            }
            return;
        }
    }
}

/// `initial × 2^(failures - 1)`, at most a minute, ±20 % jitter so restarted servers do not all
/// come back at once.
fn backoff(failures: u32) -> Duration {
    let base = Duration::from_secs(1).saturating_mul(1u32.checked_shl(failures.saturating_sub(1)).unwrap_or(u32::MAX));
    base.min(Duration::from_secs(60)).mul_f64(0.8 + 0.4 * fastrand::f64())
}

/// The Streamable HTTP transport to `url`, with the entry's headers (`Authorization: Bearer …`
/// goes through rmcp's auth header).
fn http_transport(
    http: SessionClient,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<rmcp::transport::StreamableHttpClientTransport<SessionClient>, String> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    if url.starts_with("https://") && !cfg!(feature = "mcp-tls") {
        return Err("https needs TLS: build toolhook-runtime with the mcp-tls feature".into());
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let mut custom = HashMap::new();
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("authorization")
            && let Some(token) = value.strip_prefix("Bearer ")
        {
            config = config.auth_header(token.trim().to_owned());
            continue;
        }
        let name = http::HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("header {name:?}: {e}"))?;
        let value = http::HeaderValue::from_str(value).map_err(|e| format!("header {name}: {e}"))?;
        custom.insert(name, value);
    }
    Ok(rmcp::transport::StreamableHttpClientTransport::with_client(http, config.custom_headers(custom)))
}

/// A child's stderr, line by line, into the host's log (lines cut at 2,000 bytes).
async fn forward_stderr(server: String, stderr: tokio::process::ChildStderr) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line = crate::routes::shown(&line);
        tracing::info!(server = %server, "{line}");
    }
}

/// Restarts a stdio server when its program changes on disk (checked every 2 s).
async fn watch_program(connection: Weak<Connection>) {
    let program = match connection.upgrade().map(|c| c.entry.transport.clone()) {
        Some(McpTransport::Stdio { command, .. }) => which(&command),
        _ => return,
    };
    let Some(program) = program else { return };
    let modified = |path: &std::path::Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let mut last = modified(&program);
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let Some(connection) = connection.upgrade() else { return };
        let now = modified(&program);
        if now.is_some() && now != last {
            tracing::info!(server = %connection.name, program = %program.display(), "program changed; reloading the MCP server");
            last = now;
            connection.request("restart");
        }
    }
}

/// The path a command runs: itself when it has a `/`, else the first match on `PATH`.
fn which(command: &str) -> Option<std::path::PathBuf> {
    if command.contains('/') {
        return Some(command.into());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(command)).find(|p| p.is_file())
}

/// What the server sees of the host: its questions, notifications and list changes, routed to
/// the call they belong to or to the host.
#[derive(Clone)]
pub(crate) struct Bridge {
    connection: Weak<Connection>,
}

impl Bridge {
    async fn answer(&self, method: &str, params: Value) -> Result<Value, ErrorData> {
        let Some(connection) = self.connection.upgrade() else {
            return Err(ErrorData::internal_error("the host is closing this connection", None));
        };
        let caller = connection.only_caller(false);
        // Whoever answers gets as long as a call may take.
        let answer = connection.answer(method, &params, caller.as_deref());
        match tokio::time::timeout(connection.entry.timeout, answer).await {
            Ok(answer) => answer.map_err(|what| {
                ErrorData::new(rmcp::model::ErrorCode::METHOD_NOT_FOUND, format!("this host cannot give {what}"), None)
            }),
            Err(_) => Err(ErrorData::internal_error("the host did not answer in time", None)),
        }
    }
}

fn parse<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(format!("an unreadable answer: {e}"), None))
}

impl ClientHandler for Bridge {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            // `toolhook/rules`: this host checks the rules a plugin process lists with its tools.
            serde_json::from_value(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {},
                "experimental": {super::RULES_META_KEY: {}}}))
                .unwrap_or_default();
        // `initialize` belongs to 2025-11-25 and earlier: it never offers 2026-07-28, which is
        // reached through `server/discover`.
        ClientConfig::new(capabilities, Implementation::new("toolhook", env!("CARGO_PKG_VERSION")))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let params = serde_json::to_value(request).unwrap_or_default();
        parse(self.answer("elicitation/create", params).await?)
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = serde_json::to_value(params).unwrap_or_default();
        parse(self.answer("sampling/createMessage", params).await?)
    }

    async fn list_roots(&self, _context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        parse(self.answer("roots/list", json!({})).await?)
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _context: NotificationContext<RoleClient>) {
        let Some(connection) = self.connection.upgrade() else { return };
        if let Some((caller, last)) = connection.progress_of(&params.progress_token).await {
            let mut last = last.lock().await;
            if params.progress <= *last {
                return;
            }
            *last = params.progress;
            let mut progress = Progress::new(params.progress);
            progress.total = params.total;
            progress.message = params.message;
            caller.report_progress(progress).await;
        }
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let Some(connection) = self.connection.upgrade() else { return };
        let level: LogLevel =
            serde_json::to_value(params.level).ok().and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default();
        match connection.only_caller(true) {
            Some(caller) => caller.log(level, params.logger.as_deref(), params.data).await,
            None => tracing::debug!(server = %connection.name, %level, data = %params.data, "MCP server log message"),
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(connection) = self.connection.upgrade() {
            connection.request("relist");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A caller that takes progress (and nothing else).
    struct Listening;

    impl Interaction for Listening {}

    /// A connection that never connects (switched off): its calls table is driven by hand.
    fn switched_off() -> Arc<Connection> {
        let mut entry = McpServerEntry::stdio("unused");
        entry.enabled = false;
        Connection::start("s".into(), entry, None, Arc::new(|_: &str, _: &rmcp::model::Tool| None), Arc::new(|| {}))
    }

    /// Enters a call in flight that does not know its progress token yet; returns its number.
    fn enter(connection: &Connection) -> u64 {
        let number = connection.call_numbers.fetch_add(1, Ordering::Relaxed);
        let call = InFlight {
            generation: 0,
            token: None,
            caller: Some(Arc::new(Listening)),
            progress: Some(Arc::new(tokio::sync::Mutex::new(f64::NEG_INFINITY))),
        };
        connection.calls().insert(number, call);
        number
    }

    fn name(connection: &Connection, number: u64, token: &ProgressToken) {
        if let Some(call) = connection.calls().get_mut(&number) {
            call.token = Some(token.clone());
        }
        connection.tokens.notify_waiters();
    }

    #[tokio::test(start_paused = true)]
    async fn a_report_that_overtakes_its_calls_token_waits_for_it() {
        let connection = switched_off();
        let token = ProgressToken(rmcp::model::NumberOrString::Number(7));
        let number = enter(&connection);
        let waiting = tokio::spawn({
            let connection = Arc::clone(&connection);
            let token = token.clone();
            async move { connection.progress_of(&token).await.is_some() }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiting.is_finished(), "the report waits while a call does not know its token");
        name(&connection, number, &token);
        assert!(waiting.await.unwrap(), "once named, the call takes the report");
    }

    #[tokio::test(start_paused = true)]
    async fn a_report_for_no_call_is_dropped_at_once_or_after_the_bounded_wait() {
        let connection = switched_off();
        let stray = ProgressToken(rmcp::model::NumberOrString::Number(99));
        // Every call knows its token: a stray report is dropped without waiting.
        let number = enter(&connection);
        name(&connection, number, &ProgressToken(rmcp::model::NumberOrString::Number(1)));
        let started = tokio::time::Instant::now();
        assert!(connection.progress_of(&stray).await.is_none());
        assert_eq!(started.elapsed(), Duration::ZERO);
        // A call that never learns its token holds a stray report for TOKEN_WAIT, no longer.
        enter(&connection);
        assert!(connection.progress_of(&stray).await.is_none());
        assert_eq!(started.elapsed(), TOKEN_WAIT);
    }
}
