//! One tool call dispatched in process, without a transport: toolhook's registry against rmcp's
//! stored tool router (`ToolRouter::call`), and both against the call written by hand, in the
//! same run (compare the medians).
//!
//! Each starts from the argument text `{"city":"Paris","days":3}`. rmcp's router takes the
//! arguments as a parsed JSON object (its transport parses the whole request), so its figure
//! includes that parse; its request context is one captured from a real session, cloned per
//! call as rmcp's service does. Each sample times 100 calls.
//!
//! `cargo bench -p toolhook-runtime --features mcp --bench invoke_rmcp`

use divan::{Bencher, black_box};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResponse, JsonObject, ListToolsResult, PaginatedRequestParams, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use std::sync::{Arc, Mutex};
use toolhook::ToolInvocation;
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

fn main() {
    divan::main();
}

#[path = "common/weather.rs"]
mod weather;

use weather::{ARGS, Args, forecast, runtime};

async fn weather_route(Parameters(args): Parameters<Args>) -> String {
    forecast(&args.city, args.days)
}

/// An rmcp server whose tools live in a stored router; it keeps the request context of the
/// first call it serves, for the benchmark to call the router with.
#[derive(Clone)]
struct Routed {
    router: Arc<ToolRouter<Routed>>,
    captured: Arc<Mutex<Option<RequestContext<RoleServer>>>>,
}

impl Routed {
    fn new() -> Self {
        let schema = json!({"type": "object", "properties": {
            "city": {"type": "string", "description": "The city's name."},
            "days": {"type": "integer", "description": "How many days to forecast."}},
            "required": ["city", "days"]});
        let schema: JsonObject = schema.as_object().cloned().unwrap_or_default();
        let tool = Tool::new("weather", "Look up the weather forecast of a city.", schema);
        let router = ToolRouter::new().with_route(ToolRoute::new(tool, weather_route));
        Routed { router: Arc::new(router), captured: Arc::default() }
    }
}

impl ServerHandler for Routed {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.router.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.captured.lock().expect("not poisoned").get_or_insert_with(|| context.clone());
        self.router.call(ToolCallContext::new(self, request, context)).await
    }
}

fn request() -> CallToolRequestParams {
    let arguments: JsonObject = serde_json::from_str(black_box(ARGS)).expect("an object");
    CallToolRequestParams::new("weather").with_arguments(arguments)
}

#[divan::bench(sample_size = 100)]
fn hand_written(b: Bencher<'_, '_>) {
    weather::hand_written(b);
}

#[divan::bench(sample_size = 100)]
fn rmcp_stored_router(b: Bencher<'_, '_>) {
    let rt = runtime();
    let server = Routed::new();
    let context = rt.block_on(async {
        let (client_side, server_side) = tokio::io::duplex(64 * 1024);
        let serving = server.clone();
        tokio::spawn(async move {
            if let Ok(running) = serving.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        let client = ().serve(client_side).await.expect("a client");
        client.peer().call_tool(request()).await.expect("an answer");
        server.captured.lock().expect("not poisoned").clone().expect("a captured context")
    });
    b.bench_local(|| {
        rt.block_on(async { server.router.call(ToolCallContext::new(&server, request(), context.clone())).await })
    });
}

#[divan::bench(sample_size = 100)]
fn toolhook_registry(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    b.bench_local(|| rt.block_on(registry.invoke(ToolInvocation::new("weather", black_box(ARGS)), None)));
}
