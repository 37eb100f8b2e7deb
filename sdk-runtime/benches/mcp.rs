//! An MCP tool call's round trip through toolhook's server, against the same tool on a plain
//! rmcp server, in the same run: over a byte stream (what stdio is) and over Streamable HTTP on
//! loopback. rmcp's client makes every call.
//!
//! `cargo bench -p toolhook-runtime --features mcp --bench mcp`

use divan::Bencher;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use toolhook::tool;
use toolhook_runtime::mcp::{McpHttpConfig, McpServer};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

fn main() {
    divan::main();
}

/// Add two numbers.
#[tool(core_tool = true)]
async fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// The same tool on rmcp alone: a hand-written handler.
#[derive(Clone)]
struct Plain;

impl ServerHandler for Plain {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer", "description": "The first number."}, "b": {"type": "integer", "description": "The second number."}}, "required": ["a", "b"]});
        let schema: Map<String, Value> = schema.as_object().cloned().unwrap_or_default();
        Ok(ListToolsResult::with_all_items(vec![Tool::new("add", "Add two numbers.", schema)]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        #[derive(serde::Deserialize)]
        struct Args {
            a: i64,
            b: i64,
        }
        let args: Args = serde_json::from_value(Value::Object(request.arguments.unwrap_or_default()))
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text((args.a + args.b).to_string())]).into())
    }
}

fn toolhook_server() -> McpServer {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    McpServer::builder(&registry).build().expect("a server")
}

fn call() -> CallToolRequestParams {
    let arguments: Map<String, Value> = json!({"a": 2, "b": 3}).as_object().cloned().unwrap_or_default();
    CallToolRequestParams::new("add").with_arguments(arguments)
}

fn runtime() -> tokio::runtime::Runtime {
    // One thread: client and server take turns, so the figure is their work, not thread wake-ups.
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// A client over an in-memory byte stream (what stdio carries) to `server`.
fn over_stream<S: ServerHandler>(rt: &tokio::runtime::Runtime, server: S) -> RunningService<RoleClient, ()> {
    rt.block_on(async {
        let (client_side, server_side) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_side).await.expect("a client")
    })
}

/// A client over Streamable HTTP on loopback to a server made by `serve`.
fn over_http(rt: &tokio::runtime::Runtime, url: String) -> RunningService<RoleClient, ()> {
    rt.block_on(async { ().serve(StreamableHttpClientTransport::from_uri(url)).await.expect("a client") })
}

fn bench_calls(b: Bencher<'_, '_>, rt: &tokio::runtime::Runtime, client: RunningService<RoleClient, ()>) {
    b.bench_local(|| rt.block_on(async { client.peer().call_tool(divan::black_box(call())).await.unwrap() }));
}

#[divan::bench]
fn stream_rmcp_baseline(b: Bencher<'_, '_>) {
    let rt = runtime();
    let client = over_stream(&rt, Plain);
    bench_calls(b, &rt, client);
}

#[divan::bench]
fn stream_toolhook(b: Bencher<'_, '_>) {
    let rt = runtime();
    let client = over_stream(&rt, toolhook_server());
    bench_calls(b, &rt, client);
}

#[divan::bench]
fn http_rmcp_baseline(b: Bencher<'_, '_>) {
    let rt = runtime();
    let url = rt.block_on(async {
        let service = StreamableHttpService::new(
            || Ok(Plain),
            Arc::new(rmcp::transport::streamable_http_server::session::local::LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, axum::Router::new().route_service("/mcp", service)).await });
        format!("http://{address}/mcp")
    });
    let client = over_http(&rt, url);
    bench_calls(b, &rt, client);
}

#[divan::bench]
fn http_toolhook(b: Bencher<'_, '_>) {
    let rt = runtime();
    let http = rt.block_on(toolhook_server().serve_http(McpHttpConfig::new("127.0.0.1:0".parse().unwrap()))).unwrap();
    let client = over_http(&rt, format!("http://{}/mcp", http.local_addr()));
    bench_calls(b, &rt, client);
    std::mem::forget(http);
}
