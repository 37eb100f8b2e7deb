//! Where an [`McpServer`] is served: stdio, Streamable HTTP (axum, rmcp's service), or any
//! transport rmcp takes.

use super::server::{McpServer, McpServerError};
use super::sessions::TaggedSessions;
use rmcp::ServiceExt;
use rmcp::service::{RoleServer, RunningService};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{IntoTransport, StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How an [`McpServer`] serves Streamable HTTP.
///
/// The defaults suit a server on the local machine: bound to loopback, accepting only loopback
/// `Host` and `Origin` headers (DNS-rebinding protection), with sessions for 2025-11-25 clients.
/// A server reached through another name (behind a proxy, on a network) must list that name in
/// [`allowed_hosts`](Self::allowed_hosts).
///
/// ```
/// use std::time::Duration;
/// use toolhook_runtime::mcp::McpHttpConfig;
///
/// let config = McpHttpConfig::new("0.0.0.0:8080".parse().unwrap())
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .stateless(true)
///     .shutdown_grace(Duration::from_secs(10));
/// assert_eq!(config.path(), "/mcp");
/// ```
#[derive(Clone, Debug)]
pub struct McpHttpConfig {
    bind: SocketAddr,
    path: String,
    stateless: bool,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    max_body_bytes: usize,
    keep_alive: Option<Duration>,
    shutdown_grace: Duration,
    session_tag: Option<String>,
}

impl McpHttpConfig {
    /// Serves at `http://{bind}/mcp`.
    pub fn new(bind: SocketAddr) -> Self {
        McpHttpConfig {
            bind,
            path: "/mcp".to_owned(),
            stateless: false,
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into(), "[::1]".into()],
            allowed_origins: vec![
                "http://localhost:*".into(),
                "http://127.0.0.1:*".into(),
                "http://[::1]:*".into(),
                "https://localhost:*".into(),
                "https://127.0.0.1:*".into(),
                "https://[::1]:*".into(),
            ],
            max_body_bytes: 4 * 1024 * 1024,
            keep_alive: Some(Duration::from_secs(15)),
            shutdown_grace: Duration::from_secs(30),
            session_tag: None,
        }
    }

    /// The path (default `/mcp`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Serves at another path.
    #[must_use]
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// No sessions: every request stands alone, so any instance behind a load balancer can
    /// answer it (2025-11-25 clients then get no server-initiated requests, so a tool that asks
    /// them a question is answered with the missing-capability error, `-32021`, and no
    /// notifications outside a call; 2026-07-28 clients are always served this way, and are
    /// asked with input-required results). Default: sessions for 2025-11-25 clients.
    #[must_use]
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// The `Host` names (`name` or `name:port`) accepted, replacing the loopback default.
    #[must_use]
    pub fn allowed_hosts<S: Into<String>>(mut self, hosts: impl IntoIterator<Item = S>) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// The `Origin`s (`scheme://host[:port|:*]`) accepted, replacing the loopback default. A
    /// request without an `Origin` (not from a browser) is always accepted.
    #[must_use]
    pub fn allowed_origins<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> Self {
        self.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// The largest request body accepted (default 4 MiB; larger ones get HTTP 413).
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// How often an idle SSE stream is pinged (default 15 s; `None`: never).
    #[must_use]
    pub fn keep_alive(mut self, every: Option<Duration>) -> Self {
        self.keep_alive = every;
        self
    }

    /// How long a shutdown waits for calls in flight to finish (default 30 s).
    #[must_use]
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Session ids start with `{tag}.`, so a load balancer in front of several instances can
    /// send the requests of a session to the instance that holds it: route on the prefix of the
    /// `Mcp-Session-Id` header (the first request of a session has none; any instance takes it).
    /// Give each instance its own tag.
    #[must_use]
    pub fn session_tag(mut self, tag: impl Into<String>) -> Self {
        self.session_tag = Some(tag.into());
        self
    }

    fn rmcp_config(&self, cancel: &CancellationToken) -> StreamableHttpServerConfig {
        StreamableHttpServerConfig::default()
            .with_allowed_hosts(self.allowed_hosts.clone())
            .with_allowed_origins(self.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(self.max_body_bytes)
            .with_sse_keep_alive(self.keep_alive)
            .with_legacy_session_mode(!self.stateless)
            .with_json_response(self.stateless)
            .with_cancellation_token(cancel.child_token())
    }
}

/// How long [`McpHttpServer::shutdown`] waits for the server's task to end once it is aborted.
const ABORT_WAIT: Duration = Duration::from_secs(2);

/// A Streamable HTTP server running; [`shutdown`](Self::shutdown) stops it.
#[derive(Debug)]
pub struct McpHttpServer {
    local_addr: SocketAddr,
    cancel: CancellationToken,
    stop: CancellationToken,
    grace: Duration,
    server: McpServer,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl McpHttpServer {
    /// The address it listens on (with the port the system chose for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stops accepting connections, lets calls in flight finish (up to the grace period), then
    /// closes every session and stream and waits up to the grace period again for the
    /// connections to close; any still open then are dropped. When it returns, the server has
    /// let go of its address: a new server can bind it at once.
    pub async fn shutdown(self) {
        self.stop.cancel();
        self.server.in_flight().wait_idle(self.grace).await;
        self.cancel.cancel();
        let mut task = self.task;
        match tokio::time::timeout(self.grace, &mut task).await {
            Ok(Ok(Err(error))) => tracing::warn!(%error, "MCP HTTP server stopped with an error"),
            Ok(_) => {}
            Err(_) => {
                if !self.grace.is_zero() {
                    tracing::warn!("MCP HTTP server did not stop within the grace period; its connections are dropped");
                }
                // Dropping the server's future closes its socket: an aborted task is dropped at
                // its next poll, so this wait is short, but it is bounded all the same.
                task.abort();
                if tokio::time::timeout(ABORT_WAIT, task).await.is_err() {
                    tracing::warn!("MCP HTTP server's task did not end; its address may stay taken for a while");
                }
            }
        }
    }
}

/// A session ended by the client (`DELETE` with its session id) answers `200 OK`, as the
/// official SDKs' servers do, not rmcp's `202 Accepted`: the official Python client takes
/// anything but 200, 204 or 405 for a failed termination, and logs it as one.
async fn session_ended_ok(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}

impl McpServer {
    /// Serves the server over a transport rmcp takes (a byte stream pair, a child's pipes, …),
    /// until the client goes away. The first message decides the protocol era.
    pub async fn serve<T, E, A>(self, transport: T) -> Result<RunningService<RoleServer, McpServer>, McpServerError>
    where
        T: IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        ServiceExt::serve(self, transport).await.map_err(|e| McpServerError::Session(e.to_string()))
    }

    /// Serves the server on this process's stdin and stdout until the client closes them. Log
    /// nothing to stdout meanwhile: it carries the protocol.
    ///
    /// A client that closes its end before it has started a session (one that sent nothing, or
    /// only `server/discover` or pings) ends this with `Ok`: nothing was left to serve.
    pub async fn serve_stdio(self) -> Result<(), McpServerError> {
        let running = match ServiceExt::serve(self, rmcp::transport::stdio()).await {
            Ok(running) => running,
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(error) => return Err(McpServerError::Session(error.to_string())),
        };
        running.waiting().await.map_err(|e| McpServerError::Session(e.to_string()))?;
        Ok(())
    }

    /// The Streamable HTTP endpoint as an axum router (mount it in your own app); its path is
    /// the config's. Cancel `cancel` to close every session and stream. A session its client
    /// ends (`DELETE`) is answered `200 OK`.
    pub fn http_router(&self, config: &McpHttpConfig, cancel: &CancellationToken) -> axum::Router {
        let rmcp_config = config.rmcp_config(cancel);
        let server = self.clone();
        let factory = move || Ok(server.for_session());
        let router = if config.stateless {
            let service = StreamableHttpService::new(factory, Arc::new(NeverSessionManager::default()), rmcp_config);
            axum::Router::new().route_service(&config.path, service)
        } else if let Some(tag) = &config.session_tag {
            let service = StreamableHttpService::new(factory, Arc::new(TaggedSessions::new(tag)), rmcp_config);
            axum::Router::new().route_service(&config.path, service)
        } else {
            let service = StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), rmcp_config);
            axum::Router::new().route_service(&config.path, service)
        };
        router.layer(axum::middleware::from_fn(session_ended_ok))
    }

    /// Binds the config's address and serves Streamable HTTP at its path, on a task.
    pub async fn serve_http(&self, config: McpHttpConfig) -> Result<McpHttpServer, McpServerError> {
        let listener = tokio::net::TcpListener::bind(config.bind).await?;
        let local_addr = listener.local_addr()?;
        let cancel = CancellationToken::new();
        let stop = CancellationToken::new();
        let router = self.http_router(&config, &cancel);
        let stopped = stop.clone();
        let task = tokio::spawn(async move {
            axum::serve(listener, router).with_graceful_shutdown(async move { stopped.cancelled().await }).await
        });
        tracing::info!(address = %local_addr, path = config.path(), "serving MCP over Streamable HTTP");
        Ok(McpHttpServer { local_addr, cancel, stop, grace: config.shutdown_grace, server: self.clone(), task })
    }
}
