//! The tools of MCP servers in a registry, checked against the written rules for the MCP tool
//! provider, sentence by sentence, where no other test checks them: its name and type, the
//! servers in configuration order, listing that ignores the context, each MCP tool as a spec (raw
//! name, title, trimmed description or the fallback in both locales, annotation hints, the
//! server's read timeout), routing, the failure texts in both locales, the conversion of results,
//! and calls that are not checked against the input schema.
//!
//! The servers here are minimal MCP endpoints over Streamable HTTP that answer with JSON bodies
//! written out by hand, so every field a server sends is exactly what the test says; where the
//! content does not matter, toolhook's own MCP server is used instead.
#![cfg(feature = "mcp")]

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use toolhook::{
    ContentType, Locale, Phase, ToolAvailabilityContext, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec,
};
use toolhook_runtime::mcp::{
    McpHttpConfig, McpHttpServer, McpProtocol, McpServer, McpServerEntry, McpServerStatus, McpServersConfig,
    McpToolProvider,
};
use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, RegistryConfig, ToolProvider, ToolRegistry};

// ---- a hand-written MCP server -------------------------------------------------------------------

/// What the hand-written server answers a `tools/call` with.
enum Reply {
    /// The JSON-RPC result, as written.
    Result(Value),
    /// An HTTP error status instead of any JSON-RPC answer.
    Status(u16),
}

type Answer = Arc<dyn Fn(&str, &Value) -> Reply + Send + Sync>;

struct RawState {
    tools: Value,
    answer: Answer,
    /// Every `tools/call` received: the name and the arguments.
    calls: Mutex<Vec<(String, Value)>>,
}

/// A running hand-written server.
struct Raw {
    url: String,
    state: Arc<RawState>,
    task: tokio::task::JoinHandle<()>,
}

impl Raw {
    fn calls(&self) -> Vec<(String, Value)> {
        self.state.calls.lock().unwrap().clone()
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn json_response(status: u16, body: String) -> axum::response::Response {
    axum::response::Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .unwrap()
}

async fn raw_post(
    axum::extract::State(state): axum::extract::State<Arc<RawState>>,
    body: String,
) -> axum::response::Response {
    let Ok(message) = serde_json::from_str::<Value>(&body) else {
        return json_response(
            400,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse error"}}).to_string(),
        );
    };
    let Some(id) = message.get("id").cloned() else {
        // A notification (or a response to a request of ours, which this server never sends).
        return axum::response::Response::builder().status(202).body(axum::body::Body::empty()).unwrap();
    };
    let method = message["method"].as_str().unwrap_or_default();
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let result = match method {
        "initialize" => json!({
            "protocolVersion": params["protocolVersion"].as_str().unwrap_or("2025-11-25"),
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": "raw", "version": "1.0.0"},
        }),
        "ping" => json!({}),
        "tools/list" => json!({"tools": state.tools}),
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or_default().to_owned();
            let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
            state.calls.lock().unwrap().push((name.clone(), arguments.clone()));
            match (state.answer)(&name, &arguments) {
                Reply::Result(result) => result,
                Reply::Status(status) => return json_response(status, "{}".to_owned()),
            }
        }
        _ => {
            let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}});
            return json_response(200, error.to_string());
        }
    };
    json_response(200, json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string())
}

/// Serves `tools` as the server's listing; `answer` answers every call.
async fn raw_server(tools: Value, answer: impl Fn(&str, &Value) -> Reply + Send + Sync + 'static) -> Raw {
    let state = Arc::new(RawState { tools, answer: Arc::new(answer), calls: Mutex::new(Vec::new()) });
    let router = axum::Router::new()
        .route(
            "/mcp",
            axum::routing::post(raw_post)
                .get(|| async {
                    axum::response::Response::builder().status(405).body(axum::body::Body::empty()).unwrap()
                })
                .delete(|| async {
                    axum::response::Response::builder().status(200).body(axum::body::Body::empty()).unwrap()
                }),
        )
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Raw { url, state, task }
}

/// A server whose calls all succeed with the text `from {label}`.
async fn labelled(label: &'static str, tools: Value) -> Raw {
    raw_server(tools, move |_, _| {
        Reply::Result(json!({"content": [{"type": "text", "text": format!("from {label}")}]}))
    })
    .await
}

/// An entry for a hand-written server (it speaks the 2025-11-25 era).
fn entry(raw: &Raw) -> McpServerEntry {
    McpServerEntry::http(raw.url.clone()).protocol(McpProtocol::Initialize)
}

/// A provider over `config`, once every server is connected.
async fn connected(config: &McpServersConfig) -> McpToolProvider {
    connected_with(McpToolProvider::new(config)).await
}

async fn connected_with(provider: McpToolProvider) -> McpToolProvider {
    let status = provider.wait_connected(Duration::from_secs(20)).await;
    for (name, status) in &status {
        assert!(matches!(status, McpServerStatus::Connected { .. }), "{name}: {status:?}");
    }
    provider
}

/// The provider's own listing (not the registry's).
async fn listed(provider: &McpToolProvider) -> Vec<ToolSpec> {
    ToolProvider::list_tools(provider, None).await.expect("the provider lists")
}

fn find<'a>(specs: &'a [ToolSpec], name: &str) -> &'a ToolSpec {
    specs.iter().find(|s| s.name() == name).unwrap_or_else(|| panic!("{name} is listed"))
}

fn context(locale: Locale) -> ToolExecutionContext {
    ToolExecutionContext { locale, ..ToolExecutionContext::default() }
}

/// Calls the provider directly, as the registry would with the original name.
async fn direct(
    provider: &McpToolProvider,
    call: ToolInvocation,
    locale: Locale,
) -> Result<ToolExecutionResult, toolhook::ToolError> {
    let ctx = context(locale);
    ToolProvider::invoke(provider, call, Some(&ctx)).await
}

/// A failure result the provider returned (not a `ToolError`).
async fn failure(provider: &McpToolProvider, call: ToolInvocation, locale: Locale) -> ToolExecutionResult {
    let result = direct(provider, call, locale).await.expect("a failure result, not a ToolError");
    assert!(!result.success, "{result:?}");
    result
}

/// Polls until `done` or 10 s passed.
async fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

fn tool(name: &str) -> Value {
    json!({"name": name, "description": format!("The {name} tool."), "inputSchema": {"type": "object"}})
}

// ---- the provider --------------------------------------------------------------------------------

/// "`provider_name = "mcp"`, `provider_type = "mcp"`".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_provider_is_named_and_typed_mcp() {
    let provider = McpToolProvider::new(&McpServersConfig::default());
    assert_eq!(ToolProvider::provider_name(&provider), "mcp");
    assert_eq!(ToolProvider::provider_type(&provider), "mcp");
}

/// "all servers in configuration order", and "raw `name` (the registry resolves clashes)": two
/// servers written `zulu` then `alpha` are listed in that order, a name both expose appears once
/// per server, and a name some model APIs refuse is listed as the server sent it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_are_listed_in_configuration_order_with_raw_names() {
    let zulu = labelled("zulu", json!([tool("files.read-v2"), tool("echo")])).await;
    let alpha = labelled("alpha", json!([tool("echo"), tool("alpha_only")])).await;
    let expected = [("files.read-v2", "zulu"), ("echo", "zulu"), ("echo", "alpha"), ("alpha_only", "alpha")];
    let pairs = |specs: Vec<ToolSpec>| -> Vec<(String, String)> {
        specs
            .iter()
            .map(|s| (s.name().to_owned(), s.metadata()["server_name"].as_str().unwrap_or_default().to_owned()))
            .collect()
    };
    let want: Vec<(String, String)> = expected.iter().map(|(n, s)| ((*n).to_owned(), (*s).to_owned())).collect();

    let built = McpServersConfig::default().server("zulu", entry(&zulu)).server("alpha", entry(&alpha));
    let provider = connected(&built).await;
    assert_eq!(pairs(listed(&provider).await), want, "built in code");
    ToolProvider::close(&provider).await.unwrap();

    let document = format!(
        r#"{{"mcpServers": {{"zulu": {{"type": "http", "url": "{}", "toolhook": {{"protocol": "2025-11-25"}}}},
            "alpha": {{"type": "http", "url": "{}", "toolhook": {{"protocol": "2025-11-25"}}}}}}}}"#,
        zulu.url, alpha.url
    );
    let read = McpServersConfig::from_json(&document).unwrap();
    let provider = connected(&read).await;
    assert_eq!(pairs(listed(&provider).await), want, "read from a document");
    ToolProvider::close(&provider).await.unwrap();
}

/// "context ignored": the provider lists the same tools for no context and for any context.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listing_ignores_the_context() {
    let raw = labelled("raw", json!([tool("one"), tool("two")])).await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let names = |specs: Vec<ToolSpec>| specs.iter().map(|s| s.name().to_owned()).collect::<Vec<_>>();
    let none = names(ToolProvider::list_tools(&provider, None).await.unwrap());
    assert_eq!(none, ["one", "two"]);
    let contexts = [
        ToolAvailabilityContext::default(),
        ToolAvailabilityContext {
            session_id: "s1".into(),
            platform: "qq".into(),
            is_group_chat: Some(false),
            phase: Some(Phase::Timing),
            ..ToolAvailabilityContext::default()
        },
        ToolAvailabilityContext { is_group_chat: Some(true), phase: Some(Phase::Action), ..Default::default() },
    ];
    for ctx in &contexts {
        assert_eq!(names(ToolProvider::list_tools(&provider, Some(ctx)).await.unwrap()), none, "{ctx:?}");
    }
}

// ---- one spec per MCP tool -----------------------------------------------------------------------

/// "Spec per MCP tool: raw `name` …, `title`".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_tool_keeps_its_title() {
    let tools = json!([
        {"name": "reader", "title": "Read a file", "description": "Reads.", "inputSchema": {"type": "object"}},
        {"name": "untitled", "description": "No title.", "inputSchema": {"type": "object"}},
    ]);
    let raw = labelled("raw", tools).await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let specs = listed(&provider).await;
    assert_eq!(find(&specs, "reader").title(), "Read a file");
    assert_eq!(find(&specs, "untitled").title(), "");
}

/// "trimmed `description`": in both locales.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_description_is_trimmed() {
    let tools =
        json!([{"name": "padded", "description": " \n\t Reads a file.\n  ", "inputSchema": {"type": "object"}}]);
    let raw = labelled("raw", tools).await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let specs = listed(&provider).await;
    let spec = find(&specs, "padded");
    assert_eq!(spec.description(Locale::En), "Reads a file.");
    assert_eq!(spec.description(Locale::ZhHans), "Reads a file.");
}

/// "trimmed `description` or `MCP tool from {server}` / `来自 {server} 的 MCP 工具`": a tool with no
/// description, an empty one or a blank one gets the fallback naming its server, in each locale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_blank_description_falls_back_in_both_locales() {
    let tools = json!([
        {"name": "absent", "inputSchema": {"type": "object"}},
        {"name": "empty", "description": "", "inputSchema": {"type": "object"}},
        {"name": "blank", "description": " \n\t ", "inputSchema": {"type": "object"}},
    ]);
    let raw = labelled("raw", tools).await;
    let provider = connected(&McpServersConfig::default().server("天气 srv", entry(&raw))).await;
    let specs = listed(&provider).await;
    for name in ["absent", "empty", "blank"] {
        let spec = find(&specs, name);
        assert_eq!(spec.description(Locale::En), "MCP tool from 天气 srv", "{name}");
        assert_eq!(spec.description(Locale::ZhHans), "来自 天气 srv 的 MCP 工具", "{name}");
    }
}

/// "annotation hints mapped": MCP's `readOnlyHint`, `destructiveHint`, `idempotentHint`,
/// `openWorldHint` and annotation `title` become the spec's hints; hints the server does not set
/// stay unset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn annotation_hints_are_mapped() {
    let tools = json!([
        {"name": "hinted", "description": "Hinted.", "inputSchema": {"type": "object"},
         "annotations": {"title": "Careful reader", "readOnlyHint": true, "destructiveHint": false,
                         "idempotentHint": true, "openWorldHint": false}},
        {"name": "partly", "description": "Partly.", "inputSchema": {"type": "object"},
         "annotations": {"destructiveHint": true}},
    ]);
    let raw = labelled("raw", tools).await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let specs = listed(&provider).await;
    let hinted = find(&specs, "hinted").annotation();
    assert_eq!(hinted.title, "Careful reader");
    assert_eq!(
        (hinted.read_only, hinted.destructive, hinted.idempotent, hinted.open_world),
        (Some(true), Some(false), Some(true), Some(false))
    );
    let partly = find(&specs, "partly").annotation();
    assert_eq!(partly.title, "");
    assert_eq!(
        (partly.read_only, partly.destructive, partly.idempotent, partly.open_world),
        (None, Some(true), None, None)
    );
}

/// "`timeout()` = the server's read timeout (default 300 s)".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tools_timeout_is_its_servers_read_timeout_300_s_by_default() {
    let plain = labelled("plain", json!([tool("slow_by_default")])).await;
    let quick = labelled("quick", json!([tool("quick_one")])).await;
    let config = McpServersConfig::default()
        .server("plain", entry(&plain))
        .server("quick", entry(&quick).timeout(Duration::from_secs(7)));
    let provider = connected(&config).await;
    let specs = listed(&provider).await;
    assert_eq!(find(&specs, "slow_by_default").timeout(), Some(Duration::from_secs(300)));
    assert_eq!(find(&specs, "quick_one").timeout(), Some(Duration::from_secs(7)));
}

// ---- routing and failures ------------------------------------------------------------------------

/// "Routing: by `invocation.metadata.mcp_server_name` …, else the first server exposing the name":
/// called directly, without a server, a name two servers expose goes to the one configured first
/// (`zulu`, although `alpha` sorts first); with a server, to that server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_without_a_server_goes_to_the_first_server_exposing_the_name() {
    let zulu = labelled("zulu", json!([tool("zulu_only"), tool("echo")])).await;
    let alpha = labelled("alpha", json!([tool("echo")])).await;
    let config = McpServersConfig::default().server("zulu", entry(&zulu)).server("alpha", entry(&alpha));
    let provider = connected(&config).await;

    let first = direct(&provider, ToolInvocation::new("echo", json!({})), Locale::En).await.unwrap();
    assert_eq!((first.success, first.content.as_str()), (true, "from zulu"), "{first:?}");
    assert_eq!(first.metadata["server_name"], "zulu");

    let pinned = ToolInvocation::new("echo", json!({})).with_metadata("mcp_server_name", "alpha");
    let second = direct(&provider, pinned, Locale::En).await.unwrap();
    assert_eq!((second.success, second.content.as_str()), (true, "from alpha"), "{second:?}");
    assert_eq!(second.metadata["server_name"], "alpha");
    assert_eq!(alpha.calls().len(), 1);
    assert_eq!(zulu.calls().len(), 1);
}

/// "tool unknown `MCP tool '{t}' not found` / `MCP 工具 '{t}' 未找到`", a failure result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_tool_is_a_failure_in_both_locales() {
    let raw = labelled("raw", json!([tool("known")])).await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    for (locale, text) in [(Locale::En, "MCP tool 'nope' not found"), (Locale::ZhHans, "MCP 工具 'nope' 未找到")] {
        let result = failure(&provider, ToolInvocation::new("nope", json!({})), locale).await;
        assert_eq!(result.error_message, text, "{locale:?}");
        assert_eq!(result.tool_name, "nope");
    }
    assert!(raw.calls().is_empty(), "nothing reached the server");
}

/// "server lacks it `MCP server '{s}' does not provide tool '{t}'` / `MCP 服务器 '{s}' 未提供工具
/// '{t}'`": a call pinned to a server that does not list the name, which another server does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_lacking_the_tool_is_a_failure_in_both_locales() {
    let first = labelled("first", json!([tool("first_only")])).await;
    let second = labelled("second", json!([tool("second_only")])).await;
    let config = McpServersConfig::default().server("first", entry(&first)).server("second", entry(&second));
    let provider = connected(&config).await;
    for (locale, text) in [
        (Locale::En, "MCP server 'first' does not provide tool 'second_only'"),
        (Locale::ZhHans, "MCP 服务器 'first' 未提供工具 'second_only'"),
    ] {
        let call = ToolInvocation::new("second_only", json!({})).with_metadata("mcp_server_name", "first");
        let result = failure(&provider, call, locale).await;
        assert_eq!(result.error_message, text, "{locale:?}");
    }
    assert!(first.calls().is_empty() && second.calls().is_empty(), "nothing reached a server");
}

async fn toolhook_server(remote: &ToolRegistry, bind: &str) -> McpHttpServer {
    let server = McpServer::builder(remote).build().unwrap();
    let config = McpHttpConfig::new(bind.parse().unwrap()).shutdown_grace(Duration::ZERO);
    server.serve_http(config).await.unwrap()
}

/// A registry served over MCP with one tool, `lookup`, that answers after `ms` milliseconds of
/// its argument `ms` (0 when absent).
fn remote_registry() -> ToolRegistry {
    let remote = ToolRegistry::default();
    let spec = ToolSpec::builder("lookup")
        .brief_description("Looks something up.")
        .parameters_raw(json!({"type": "object", "properties": {"ms": {"type": "integer"}}}))
        .core_tool(true)
        .build()
        .unwrap();
    let tool = BuiltinTool::new(spec, |call, _| async move {
        let ms = call.arguments.to_value().ok().and_then(|v| v["ms"].as_u64()).unwrap_or(0);
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(ToolExecutionResult::success(call.tool_name, "found"))
    });
    remote.register_provider(BuiltinToolProvider::new().without_tool_search().named("remote").with_tool(tool));
    remote
}

/// "server disconnected `MCP server '{s}' is not connected` / `MCP 服务器 '{s}' 未连接`": a server
/// that went away keeps its tools listed, and a call of one fails at once with the text of the
/// locale, through the registry and called directly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnected_server_is_named_in_both_locales() {
    let remote = remote_registry();
    let server = toolhook_server(&remote, "127.0.0.1:0").await;
    let entry = McpServerEntry::http(format!("http://{}/mcp", server.local_addr()))
        .ping_interval(Some(Duration::from_millis(200)));
    let provider = connected(&McpServersConfig::default().server("远端", entry)).await;
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(provider.clone());
    assert!(registry.invoke(ToolInvocation::new("lookup", json!({})), None).await.success);

    server.shutdown().await;
    assert!(eventually(|| matches!(provider.servers()[0].1, McpServerStatus::Reconnecting { .. })).await);
    let through_registry =
        registry.invoke(ToolInvocation::new("lookup", json!({})), Some(&context(Locale::ZhHans))).await;
    assert_eq!(through_registry.error_message, "MCP 服务器 '远端' 未连接");
    assert_eq!(through_registry.tool_name, "lookup");
    for (locale, text) in
        [(Locale::En, "MCP server '远端' is not connected"), (Locale::ZhHans, "MCP 服务器 '远端' 未连接")]
    {
        let result = failure(&provider, ToolInvocation::new("lookup", json!({})), locale).await;
        assert_eq!(result.error_message, text, "{locale:?}");
    }
    ToolProvider::close(&provider).await.unwrap();
}

/// "transport error `MCP tool '{t}' failed: {error}` / `MCP 工具 '{t}' 执行失败: {error}`": a server
/// that answers a call with an HTTP error instead of a JSON-RPC answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transport_error_names_the_tool_in_both_locales() {
    let mut wrong = Vec::new();
    for (locale, prefix) in [(Locale::En, "MCP tool 'flaky' failed: "), (Locale::ZhHans, "MCP 工具 'flaky' 执行失败: ")]
    {
        let raw = raw_server(json!([tool("flaky")]), |_, _| Reply::Status(500)).await;
        let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
        let result = failure(&provider, ToolInvocation::new("flaky", json!({})), locale).await;
        assert_eq!(raw.calls().len(), 1, "the call reached the server");
        if !(result.error_message.starts_with(prefix) && result.error_message.len() > prefix.len()) {
            wrong.push((locale, result.error_message));
        }
        ToolProvider::close(&provider).await.unwrap();
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The failure texts the rules give for a call that could not be completed: a server that goes
/// away while a call is under way is either "disconnected" (`MCP server '{s}' is not connected`)
/// or a "transport error" (`MCP tool '{t}' failed: {error}`), in the locale of the call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_lost_mid_call_fails_with_a_text_of_the_rules() {
    let mut wrong = Vec::new();
    for (locale, not_connected, failed) in [
        (Locale::En, "MCP server 'remote' is not connected", "MCP tool 'lookup' failed: "),
        (Locale::ZhHans, "MCP 服务器 'remote' 未连接", "MCP 工具 'lookup' 执行失败: "),
    ] {
        let remote = remote_registry();
        let server = toolhook_server(&remote, "127.0.0.1:0").await;
        let entry = McpServerEntry::http(format!("http://{}/mcp", server.local_addr()));
        let provider = connected(&McpServersConfig::default().server("remote", entry)).await;
        let caller = provider.clone();
        let in_flight = tokio::spawn(async move {
            let ctx = context(locale);
            ToolProvider::invoke(&caller, ToolInvocation::new("lookup", json!({"ms": 5_000})), Some(&ctx)).await
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.shutdown().await;
        let lost = in_flight.await.unwrap().expect("a failure result, not a ToolError");
        assert!(!lost.success);
        if !(lost.error_message == not_connected || lost.error_message.starts_with(failed)) {
            wrong.push((locale, lost.error_message));
        }
        ToolProvider::close(&provider).await.unwrap();
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

// ---- results -------------------------------------------------------------------------------------

/// "Result: non-empty trimmed text blocks joined by `\n` ⇒ `content` …; every block ⇒ a content
/// item": blank text blocks add nothing to `content` but are items too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_blocks_are_trimmed_and_joined_and_every_block_is_an_item() {
    let raw = raw_server(json!([tool("blocks")]), |_, _| {
        Reply::Result(json!({"content": [
            {"type": "text", "text": "  first line  "},
            {"type": "text", "text": " \n "},
            {"type": "image", "data": "aW1hZ2U=", "mimeType": "image/png"},
            {"type": "text", "text": ""},
            {"type": "text", "text": "\tsecond line\n"},
        ]}))
    })
    .await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    let result = registry.invoke(ToolInvocation::new("blocks", json!({})), None).await;
    assert!(result.success, "{result:?}");
    assert_eq!(result.content, "first line\nsecond line");
    assert_eq!(result.error_message, "");
    let kinds: Vec<ContentType> = result.content_items().iter().map(|i| i.content_type).collect();
    use ContentType::*;
    assert_eq!(kinds, [Text, Text, Image, Text, Text]);
}

/// "non-empty trimmed text blocks joined by `\n` ⇒ `content` (⇒ `error_message` on `isError`)".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_result_puts_its_joined_text_in_the_error_message() {
    let raw = raw_server(json!([tool("refuses")]), |_, _| {
        Reply::Result(json!({"isError": true, "content": [
            {"type": "text", "text": "  the station is down "},
            {"type": "text", "text": "   "},
            {"type": "text", "text": "try later\n"},
        ]}))
    })
    .await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    let result = registry.invoke(ToolInvocation::new("refuses", json!({})), None).await;
    assert!(!result.success, "{result:?}");
    assert_eq!(result.error_message, "the station is down\ntry later");
    assert_eq!(result.metadata["server_name"], "raw");
}

/// "No argument validation": arguments that break the tool's input schema reach the server as
/// they were given, and its answer comes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_are_not_checked_against_the_input_schema() {
    let tools = json!([{"name": "count", "description": "Counts.", "inputSchema": {
        "type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"],
        "additionalProperties": false}}]);
    let raw = raw_server(tools, |_, arguments| {
        Reply::Result(json!({"content": [{"type": "text", "text": format!("got {arguments}")}]}))
    })
    .await;
    let provider = connected(&McpServersConfig::default().server("raw", entry(&raw))).await;
    let arguments = json!({"n": "seven", "extra": [1, 2]});
    let result = direct(&provider, ToolInvocation::new("count", arguments.clone()), Locale::En).await.unwrap();
    assert!(result.success, "{result:?}");
    assert_eq!(result.content, format!("got {arguments}"));
    let missing = direct(&provider, ToolInvocation::new("count", json!({})), Locale::En).await.unwrap();
    assert!(missing.success, "a missing required argument is the server's business: {missing:?}");
    assert_eq!(raw.calls(), [("count".to_owned(), arguments), ("count".to_owned(), json!({}))]);
}
