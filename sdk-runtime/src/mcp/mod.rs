//! MCP, the Model Context Protocol, both ways (feature `mcp`): serve a registry's tools to any MCP
//! client, use any MCP server's tools in a registry, and run plugins in their own process.
//!
//! # Serving
//!
//! [`McpServer`] turns a [`ToolRegistry`](crate::ToolRegistry) into an MCP server, on the official
//! Rust SDK (`rmcp`): over [stdio](McpServer::serve_stdio) or [Streamable
//! HTTP](McpServer::serve_http), speaking MCP 2025-11-25 (sessions, `initialize`) and 2026-07-28
//! (stateless, `server/discover`, input-required results) on the same endpoint.
//!
//! - `tools/list` is the registry's listing in [`Dialect::Mcp`](toolhook::Dialect::Mcp), for
//!   one context the host chooses ([`McpServerBuilder::context`]): access rules and hidden tools
//!   apply as for a model, and deferred tools too when the host hands over its discovery state
//!   ([`McpServerBuilder::deferred`]). Tool names are the registry's, which every MCP client
//!   accepts. When the list changes (a provider comes or goes, a plugin loads, `tool_search`
//!   finds something), clients are sent `notifications/tools/list_changed`.
//! - `tools/call` goes through [`ToolRegistry::invoke`](crate::ToolRegistry::invoke): the same
//!   argument decoding, timeouts and access rules. The one result model maps to MCP content:
//!   text, images, audio, embedded resources and resource links; `structuredContent` for tools
//!   that declare an output schema; `isError: true` for every failed result, argument errors
//!   included (with the JSON path in the text). An unknown tool is a JSON-RPC error.
//! - The tool's [`ToolExecutionContext`](toolhook::ToolExecutionContext) reaches the client:
//!   progress becomes `notifications/progress` (with the caller's progress token), log messages
//!   `notifications/message` (at the level the client set), a `notifications/cancelled` cancels
//!   the call, and questions ([`elicit`](toolhook::ToolExecutionContext::elicit),
//!   [`sample`](toolhook::ToolExecutionContext::sample),
//!   [`list_roots`](toolhook::ToolExecutionContext::list_roots)) go to the client when it
//!   declared it can answer them: as requests on 2025-11-25, as an input-required result on
//!   2026-07-28 (the tool is then run again with the answers; see the [long-running tools
//!   guide](toolhook::guides::long_running_tools)). A tool that asks what the client cannot answer and fails is answered
//!   with the JSON-RPC error for a missing client capability (`-32021`).
//!
//! How to serve a registry, and what the defaults are: the [Serve your tools over
//! MCP](crate::guides::serve_over_mcp) guide.
//!
//! Prompts and resources are not served: the server declares them with empty lists so that
//! clients which list them get an answer. Reading a resource is "not found" (`-32002` on
//! 2025-11-25; `-32602` on 2026-07-28, which retired `-32002`), getting a prompt is invalid params
//! (`-32602`), and so is a cursor on any list (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list`): each comes whole, so none is ever handed out.
//! A session the client ends with an HTTP `DELETE` is answered `200 OK`.
//!
//! # Using MCP servers
//!
//! [`McpToolProvider`] puts the tools of MCP servers — run as child processes (stdio) or reached
//! over Streamable HTTP, declared in the `mcpServers` document other MCP clients use
//! ([`McpServersConfig`]) — into a registry as one provider. Each server is kept connected in the
//! background: listing never waits on a server, a lost one is reconnected with backoff and its
//! tools fail fast meanwhile, a call that times out is cancelled at the server, and the server's
//! progress, logs and questions reach the caller. The [Use tools from MCP
//! servers](crate::guides::use_mcp_servers) guide has the settings and the guarantees.
//!
//! # Plugins in their own process
//!
//! A plugin crate built as an executable whose `main` calls [`serve_plugin_process`] serves its
//! own tools over stdio; the host runs it through [`McpToolProvider`], which restarts it when it
//! crashes and reloads it, without a gap, on request or when its binary changes. See [Run plugins
//! in their own process](crate::guides::plugin_processes).

mod call;
mod client;
mod config;
mod connection;
mod content;
mod plugin_process;
mod questions;
mod request_state;
mod server;
mod session_client;
mod sessions;
mod transport;

/// The `_meta` key of a call's chat context, sent with
/// [`McpServerEntry::forward_context`] and read with [`McpServerBuilder::caller_context`].
pub(crate) const CONTEXT_META_KEY: &str = "toolhook/context";

/// The `_meta` key of a listed tool's own rules (visibility, permission, platforms, scopes),
/// which a plugin process sends and a host applies under its own.
pub(crate) const RULES_META_KEY: &str = "toolhook/rules";

pub use client::{McpToolProvider, McpToolProviderBuilder};
pub use config::{McpConfigError, McpProtocol, McpServerEntry, McpServersConfig, McpToolRules, McpTransport};
pub use connection::McpServerStatus;
pub use plugin_process::serve_plugin_process;
pub use server::{McpServer, McpServerBuilder, McpServerError};
pub use transport::{McpHttpConfig, McpHttpServer};
