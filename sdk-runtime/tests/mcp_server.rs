//! A registry served over MCP, seen from rmcp's client and from raw HTTP: the listing is the
//! registry's MCP dialect, every kind of content arrives, failures are `isError`, progress and
//! logs reach the client, cancellation reaches the tool, list changes reach clients of both
//! protocol eras, bad requests (and unknown resources, prompts and cursors) are refused while the
//! server keeps serving, and a session its client ends answers as the official SDKs' servers do.
#![allow(deprecated)] // rmcp marks the logging APIs as superseded; MCP still has them.

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ContentBlock, ElicitRequestParams, ElicitResult,
    ElicitationAction, GetPromptRequestParams, Implementation, LoggingMessageNotificationParam, PaginatedRequestParams,
    ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolhook::{
    Dialect, Elicitation, Json, LogLevel, Progress, ToolContentItem, ToolExecutionContext, ToolExecutionResult,
    ToolOutput, ToolSpec, schemars, serde, tool,
};
use toolhook_runtime::mcp::{McpHttpConfig, McpHttpServer, McpServer};
use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, PluginToolProvider, ToolRegistry};

// ---- the tools served ------------------------------------------------------------------------------

/// Look up the weather.
#[tool(core_tool = true)]
fn mcp_weather(
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
) -> String {
    format!("{city}: sunny for {} day(s)", days.unwrap_or(1))
}

/// Every kind of content.
#[tool(core_tool = true)]
fn mcp_media() -> ToolOutput {
    ToolOutput::text("Here you are:")
        .with_item(ToolContentItem::image("aW1hZ2U=", "image/png"))
        .with_item(ToolContentItem::audio("YXVkaW8=", "audio/wav"))
        .with_item(ToolContentItem::resource("test://notes", "some notes"))
        .with_item(ToolContentItem { mime_type: "application/pdf".into(), ..ToolContentItem::binary("cGRm", "") })
        .with_item(
            ToolContentItem::resource_link("https://example.com/report", "report").with_description("The report"),
        )
}

/// A forecast as data.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Forecast {
    /// The city.
    city: String,
    /// Degrees Celsius.
    celsius: f64,
}

/// A forecast as structured content.
#[tool(core_tool = true)]
fn mcp_forecast(city: String) -> Json<Forecast> {
    Json(Forecast { city, celsius: 21.5 })
}

/// Reports progress and logs.
#[tool(core_tool = true)]
async fn mcp_progress(ctx: &ToolExecutionContext) -> &'static str {
    for step in 1..=3 {
        ctx.report_progress(Progress::new(f64::from(step)).total(3.0).message(format!("step {step}"))).await;
        ctx.log(LogLevel::Info, json!({"step": step})).await;
        ctx.log(LogLevel::Debug, "a detail the client did not ask for").await;
    }
    "done"
}

static CANCELLED: AtomicUsize = AtomicUsize::new(0);

/// The tests that count cancellations take turns.
static CANCELLING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct CountDrop;
impl Drop for CountDrop {
    fn drop(&mut self) {
        CANCELLED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Waits until cancelled.
#[tool(core_tool = true)]
async fn mcp_forever(ctx: &ToolExecutionContext) -> &'static str {
    let _dropped = CountDrop;
    ctx.cancelled().await;
    "cancelled"
}

/// Asks the user for a colour.
#[tool(core_tool = true)]
async fn mcp_ask(ctx: &ToolExecutionContext) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]});
    let reply =
        ctx.elicit(Elicitation::new("Favourite colour?", schema).key("colour")).await.map_err(|e| e.to_string())?;
    Ok(format!("you like {}", reply.accepted().and_then(|c| c["colour"].as_str()).unwrap_or("nothing")))
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn http(registry: &ToolRegistry, config: impl FnOnce(McpHttpConfig) -> McpHttpConfig) -> McpHttpServer {
    let server = McpServer::builder(registry).build().unwrap();
    server.serve_http(config(McpHttpConfig::new("127.0.0.1:0".parse().unwrap()))).await.unwrap()
}

fn url(server: &McpHttpServer) -> String {
    format!("http://{}/mcp", server.local_addr())
}

// ---- the client ------------------------------------------------------------------------------------

/// Progress updates heard: how far, and the message.
type Heard = Arc<Mutex<Vec<(f64, Option<String>)>>>;

/// A client that answers questions and records what it is told.
#[derive(Clone, Default)]
struct Client {
    progress: Heard,
    logs: Arc<Mutex<Vec<Value>>>,
    list_changed: Arc<AtomicUsize>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = serde_json::from_value(json!({})).ok();
        ClientConfig::new(capabilities, Implementation::new("toolhook-test", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"colour": "teal"})))
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _context: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push((params.progress, params.message));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.logs.lock().unwrap().push(params.data);
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
    }
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

fn texts(content: &[ContentBlock]) -> Vec<String> {
    content.iter().filter_map(|b| b.as_text()).map(|t| t.text.clone()).collect()
}

// ---- tests -----------------------------------------------------------------------------------------

#[tokio::test]
async fn the_listing_is_the_registrys_mcp_dialect_byte_for_byte() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let client = Client::default().serve(StreamableHttpClientTransport::from_uri(url(&server))).await.unwrap();
    let listed = client.list_all_tools().await.unwrap();
    let expected = registry.get_llm_definitions(None, Dialect::Mcp).await;
    assert_eq!(listed.len(), expected.len());
    for (tool, definition) in listed.iter().zip(&expected) {
        assert_eq!(serde_json::to_string(tool).unwrap(), definition.to_string());
    }
    let forecast = listed.iter().find(|t| t.name == "mcp_forecast").unwrap();
    assert!(forecast.output_schema.is_some(), "an output schema is listed");
    client.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn every_kind_of_content_and_failure_arrives() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let client = Client::default().serve(StreamableHttpClientTransport::from_uri(url(&server))).await.unwrap();

    let media = client.call_tool(call("mcp_media", json!({}))).await.unwrap();
    let wire = serde_json::to_value(&media.content).unwrap();
    assert_eq!(wire[0], json!({"type": "text", "text": "Here you are:"}));
    assert_eq!(wire[1], json!({"type": "image", "data": "aW1hZ2U=", "mimeType": "image/png"}));
    assert_eq!(wire[2], json!({"type": "audio", "data": "YXVkaW8=", "mimeType": "audio/wav"}));
    assert_eq!(
        wire[3],
        json!({"type": "resource", "resource": {"uri": "test://notes", "mimeType": "text/plain", "text": "some notes"}})
    );
    assert_eq!(
        wire[4],
        json!({"type": "resource", "resource": {"uri": "toolhook:binary", "mimeType": "application/pdf", "blob": "cGRm"}})
    );
    assert_eq!(
        wire[5],
        json!({"type": "resource_link", "uri": "https://example.com/report", "name": "report", "description": "The report"})
    );
    assert_eq!(media.is_error, Some(false));

    let forecast = client.call_tool(call("mcp_forecast", json!({"city": "Oslo"}))).await.unwrap();
    assert_eq!(forecast.structured_content, Some(json!({"city": "Oslo", "celsius": 21.5})));

    let bad = client.call_tool(call("mcp_weather", json!({"city": "Oslo", "days": "three"}))).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        texts(&bad.content),
        [r#"Tool mcp_weather failed: InvalidArguments: days: expected integer, got string "three""#]
    );

    let unknown = client.call_tool(call("no_such_tool", json!({}))).await.unwrap_err();
    assert!(unknown.to_string().contains("Unknown tool: no_such_tool"), "{unknown}");
    client.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn progress_and_logs_reach_the_client_at_the_level_it_asked_for() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let handler = Client::default();
    let client = handler.clone().serve(StreamableHttpClientTransport::from_uri(url(&server))).await.unwrap();
    let done = client.call_tool(call("mcp_progress", json!({}))).await.unwrap();
    assert_eq!(texts(&done.content), ["done"]);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let progress = handler.progress.lock().unwrap().clone();
    assert_eq!(progress, [(1.0, Some("step 1".into())), (2.0, Some("step 2".into())), (3.0, Some("step 3".into()))]);
    // Info and above until the client sets a level: the debug lines stay home.
    assert_eq!(*handler.logs.lock().unwrap(), [json!({"step": 1}), json!({"step": 2}), json!({"step": 3})]);
    client.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_that_stops_waiting_cancels_the_call_on_both_protocol_eras() {
    let _turn = CANCELLING.lock().await;
    let registry = registry();
    let server = http(&registry, |c| c).await;
    for lifecycle in [
        ClientLifecycleMode::Initialize,
        ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
    ] {
        let before = CANCELLED.load(Ordering::SeqCst);
        let transport = StreamableHttpClientTransport::from_uri(url(&server));
        let client = Client::default().serve_with_lifecycle(transport, lifecycle).await.unwrap();
        let waited =
            tokio::time::timeout(Duration::from_millis(200), client.call_tool(call("mcp_forever", json!({})))).await;
        assert!(waited.is_err());
        for _ in 0..50 {
            if CANCELLED.load(Ordering::SeqCst) > before {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(CANCELLED.load(Ordering::SeqCst), before + 1, "the tool's future was dropped");
        client.cancel().await.unwrap();
    }
    server.shutdown().await;
}

#[tokio::test]
async fn questions_are_asked_in_the_call_or_between_rounds() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    for lifecycle in [
        ClientLifecycleMode::Initialize,
        ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
    ] {
        let transport = StreamableHttpClientTransport::from_uri(url(&server));
        let client = Client::default().serve_with_lifecycle(transport, lifecycle).await.unwrap();
        let answered = client.call_tool(call("mcp_ask", json!({}))).await.unwrap();
        assert_eq!(texts(&answered.content), ["you like teal"]);
        client.cancel().await.unwrap();
    }
    server.shutdown().await;
}

/// The error code a request failed with.
fn code_of(error: rmcp::ServiceError) -> i32 {
    match error {
        rmcp::ServiceError::McpError(error) => error.code.0,
        other => panic!("not an MCP error: {other}"),
    }
}

/// A registry has no resources or prompts (the capabilities are declared for their empty lists):
/// reading one is "not found" in the request's era (2026-07-28 retired `-32002`), asking for one
/// is invalid params, and so is a cursor, since the tool list never hands one out.
#[tokio::test]
async fn unknown_resources_prompts_and_cursors_are_refused_in_each_eras_terms() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    for (lifecycle, not_found) in [
        (ClientLifecycleMode::Initialize, -32002),
        (ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] }, -32602),
    ] {
        let transport = StreamableHttpClientTransport::from_uri(url(&server));
        let client = Client::default().serve_with_lifecycle(transport, lifecycle).await.unwrap();
        let read = client.read_resource(ReadResourceRequestParams::new("file:///nowhere")).await;
        assert_eq!(code_of(read.unwrap_err()), not_found);
        let prompt = client.get_prompt(GetPromptRequestParams::new("nothing")).await;
        assert_eq!(code_of(prompt.unwrap_err()), -32602);
        let bogus = || Some(PaginatedRequestParams::default().with_cursor(Some("bogus".into())));
        assert_eq!(code_of(client.list_tools(bogus()).await.unwrap_err()), -32602);
        assert_eq!(code_of(client.list_prompts(bogus()).await.unwrap_err()), -32602);
        assert_eq!(code_of(client.list_resources(bogus()).await.unwrap_err()), -32602);
        assert_eq!(code_of(client.list_resource_templates(bogus()).await.unwrap_err()), -32602);
        assert!(client.list_all_tools().await.unwrap().len() > 1, "the whole list still answers");
        assert!(client.list_all_prompts().await.unwrap().is_empty());
        assert!(client.list_all_resources().await.unwrap().is_empty());
        assert!(client.list_all_resource_templates().await.unwrap().is_empty());
        client.cancel().await.unwrap();
    }
    server.shutdown().await;
}

#[tokio::test]
async fn clients_of_both_eras_hear_that_the_list_changed() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let handler = Client::default();
    let legacy = handler.clone().serve(StreamableHttpClientTransport::from_uri(url(&server))).await.unwrap();
    legacy.list_all_tools().await.unwrap();
    let modern = Client::default()
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_uri(url(&server)),
            ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
        )
        .await
        .unwrap();
    let filter = rmcp::model::SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = modern.listen(filter).await.unwrap();

    let spec = ToolSpec::builder("added_later").brief_description("Arrives late.").core_tool(true).build().unwrap();
    let tool = BuiltinTool::new(spec, |call, _| async move { Ok(ToolExecutionResult::success(call.tool_name, "hi")) });
    registry.register_provider(BuiltinToolProvider::new().without_tool_search().named("later").with_tool(tool));

    let heard = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(Some(notification)) = subscription.next().await
                && serde_json::to_string(&notification).unwrap().contains("tools/list_changed")
            {
                return;
            }
        }
    })
    .await;
    assert!(heard.is_ok(), "the 2026-07-28 subscription heard the change");
    for _ in 0..100 {
        if handler.list_changed.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(handler.list_changed.load(Ordering::SeqCst), 1, "the 2025-11-25 session heard it once");
    assert!(legacy.list_all_tools().await.unwrap().iter().any(|t| t.name == "added_later"));
    legacy.cancel().await.unwrap();
    modern.cancel().await.unwrap();
    server.shutdown().await;
}

async fn post(url: &str, host: Option<&str>, body: String) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28");
    if let Ok(Value::Object(message)) = serde_json::from_str::<Value>(&body) {
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            request = request.header("mcp-method", method);
        }
        if let Some(name) = message.get("params").and_then(|p| p.get("name")).and_then(Value::as_str) {
            request = request.header("mcp-name", name);
        }
    }
    if let Some(host) = host {
        request = request.header("host", host);
    }
    let response = request.body(body).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap_or_default())
}

fn stateless_call(id: u64, tool: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}})
    .to_string()
}

#[tokio::test]
async fn bad_requests_are_refused_and_the_server_keeps_serving() {
    let registry = registry();
    let server = http(&registry, |c| c.max_body_bytes(64 * 1024)).await;
    let url = url(&server);
    let (status, _) = post(&url, Some("evil.example.com"), stateless_call(1, "mcp_weather")).await;
    assert_eq!(status, 403, "a foreign Host is refused (DNS rebinding)");
    let (status, _) =
        post(&url, None, format!("{{\"jsonrpc\":\"2.0\",\"padding\":\"{}\"}}", "x".repeat(100_000))).await;
    assert_eq!(status, 413, "an oversized body is refused");
    let (status, body) = post(&url, None, "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": ".to_owned()).await;
    assert!(status >= 400, "malformed JSON is refused: {status} {body}");
    // Still serving.
    let (status, body) = post(&url, None, stateless_call(2, "mcp_media")).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Here you are:"), "{body}");
    server.shutdown().await;
}

/// A 2025-11-25 client that ends its session with `DELETE` is answered `200 OK` (as the official
/// SDKs' servers answer; the official Python client logs any other success code as a failed
/// termination), and the session is gone.
#[tokio::test]
async fn a_session_the_client_ends_answers_ok_and_is_gone() {
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let url = url(&server);
    let client = reqwest::Client::new();
    let send = |body: Value, session: Option<&str>| {
        let mut request = client
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(session) = session {
            request = request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-11-25");
        }
        request.body(body.to_string()).send()
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"},
    }});
    let response = send(initialize, None).await.unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    drop(response.text().await);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(initialized, Some(&session)).await.unwrap().status(), 202);

    let ended = client
        .delete(&url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200, "a session ended by its client");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    assert_eq!(send(list, Some(&session)).await.unwrap().status(), 404, "the session is gone");
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_that_disconnects_mid_call_cancels_the_call() {
    let _turn = CANCELLING.lock().await;
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let before = CANCELLED.load(Ordering::SeqCst);
    let request = reqwest::Client::new()
        .post(url(&server))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "mcp_forever")
        .body(stateless_call(3, "mcp_forever"))
        .timeout(Duration::from_millis(200))
        .send();
    let gone = async { request.await?.text().await };
    assert!(gone.await.is_err(), "the call never answered");
    for _ in 0..50 {
        if CANCELLED.load(Ordering::SeqCst) > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(CANCELLED.load(Ordering::SeqCst) > before, "the tool's future was dropped when the client left");
    server.shutdown().await;
}

/// A host that restarts its server (a reload, a new config) binds the same address again as soon
/// as `shutdown` returns, whatever the grace period. A `shutdown` that could return before the
/// server's task had let go of its socket lost that race about once in a hundred rounds here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_address_is_free_once_shutdown_returns() {
    let registry = registry();
    let graces = std::iter::repeat_n(Duration::ZERO, 40).chain([Duration::from_millis(20), Duration::from_secs(5)]);
    for grace in graces {
        let server = http(&registry, |c| c.shutdown_grace(grace)).await;
        let address = server.local_addr();
        let (status, _) = post(&url(&server), None, stateless_call(1, "mcp_weather")).await;
        assert_eq!(status, 200);
        // A connection left open, which the server may wait for up to the grace period.
        let idle = tokio::net::TcpStream::connect(address).await.unwrap();
        server.shutdown().await;
        drop(idle);
        let again = McpServer::builder(&registry).build().unwrap();
        let restarted = again.serve_http(McpHttpConfig::new(address)).await;
        assert!(restarted.is_ok(), "grace {grace:?}: the address is still taken: {:?}", restarted.err());
        restarted.unwrap().shutdown().await;
    }
}

#[tokio::test]
async fn shutdown_lets_a_call_in_flight_finish() {
    /// Takes a moment.
    #[tool(core_tool = true)]
    async fn mcp_slow() -> &'static str {
        tokio::time::sleep(Duration::from_millis(300)).await;
        "finished"
    }
    let registry = registry();
    let server = http(&registry, |c| c).await;
    let url = url(&server);
    let call = tokio::spawn(async move { post(&url, None, stateless_call(4, "mcp_slow")).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.shutdown().await;
    let (status, body) = call.await.unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("finished"), "{body}");
}
