//! MCP servers' tools in a registry, through `McpToolProvider`, against toolhook's own MCP
//! server over Streamable HTTP (the stdio side is tested with a plugin process in
//! `examples/isolated-plugin`): tools listed as the server lists them, every kind of content and
//! failure, progress, logs and questions reaching the caller, timeouts cancelled at the server,
//! list changes reaching the registry, a server that goes away and comes back, and a hung server
//! that costs only its own tools.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use toolhook::{
    BoxFuture, Capabilities, ContentType, Dialect, Elicitation, ElicitationAction, ElicitationReply, Interaction,
    InteractionError, Json, Locale, LogLevel, Progress, ToolArguments, ToolContentItem, ToolExecutionContext,
    ToolExecutionResult, ToolInvocation, ToolOutput, ToolSpec, Visibility, schemars, serde, tool,
};
use toolhook_runtime::mcp::{
    McpHttpConfig, McpHttpServer, McpProtocol, McpServer, McpServerEntry, McpServerStatus, McpServersConfig,
    McpToolProvider, McpToolRules,
};

/// Both protocol eras: 2026-07-28 (stateless) and 2025-11-25 (sessions).
const ERAS: [McpProtocol; 2] = [McpProtocol::Stateless, McpProtocol::Initialize];
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, DuplicatePolicy, PluginToolProvider, RegistryConfig, ToolRegistry,
    split_tool_result,
};

// ---- the server's tools ----------------------------------------------------------------------------

/// Look up the weather.
#[tool(core_tool = true)]
fn remote_weather(
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
) -> String {
    format!("{city}: sunny for {} day(s)", days.unwrap_or(1))
}

/// Every kind of content.
#[tool(core_tool = true)]
fn remote_media() -> ToolOutput {
    ToolOutput::text("Here you are:")
        .with_item(ToolContentItem::image("aW1hZ2U=", "image/png"))
        .with_item(ToolContentItem::audio("YXVkaW8=", "audio/wav"))
        .with_item(ToolContentItem::resource("test://notes", "some notes"))
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
fn remote_forecast(
    /// The city.
    city: String,
) -> Json<Forecast> {
    Json(Forecast { city, celsius: 21.5 })
}

/// Always fails.
#[tool(core_tool = true)]
fn remote_fail() -> Result<String, String> {
    Err("the weather station is down".into())
}

/// Reports progress and logs.
#[tool(core_tool = true)]
async fn remote_progress(ctx: &ToolExecutionContext) -> &'static str {
    for step in 1..=3 {
        ctx.report_progress(Progress::new(f64::from(step)).total(3.0).message(format!("step {step}"))).await;
        ctx.log(LogLevel::Warning, json!({"step": step})).await;
    }
    "done"
}

static CANCELLED: AtomicUsize = AtomicUsize::new(0);

/// Waits until cancelled, and counts it.
#[tool(core_tool = true)]
async fn remote_forever(ctx: &ToolExecutionContext) -> &'static str {
    ctx.cancelled().await;
    CANCELLED.fetch_add(1, Ordering::SeqCst);
    "cancelled"
}

/// Waits a while.
#[tool(core_tool = true)]
async fn remote_slow(
    /// How long.
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("waited {ms} ms")
}

/// Asks the user for a colour.
#[tool(core_tool = true)]
async fn remote_ask(ctx: &ToolExecutionContext) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]});
    let reply =
        ctx.elicit(Elicitation::new("Favourite colour?", schema).key("colour")).await.map_err(|e| e.to_string())?;
    Ok(format!("you like {}", reply.accepted().and_then(|c| c["colour"].as_str()).unwrap_or("nothing")))
}

/// Asks the user for a colour for a thing: its argument must reach the server again with the answer.
#[tool(core_tool = true)]
async fn remote_ask_about(
    /// What the colour is for.
    thing: String,
    ctx: &ToolExecutionContext,
) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]});
    let reply = ctx.elicit(Elicitation::new("Which colour?", schema).key("colour")).await.map_err(|e| e.to_string())?;
    Ok(format!("{thing}: {}", reply.accepted().and_then(|c| c["colour"].as_str()).unwrap_or("nothing")))
}

// ---- helpers ---------------------------------------------------------------------------------------

/// The registry served over MCP: this test program's tools.
fn served() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn serve(registry: &ToolRegistry, bind: &str) -> McpHttpServer {
    let server = McpServer::builder(registry).build().unwrap();
    let config = McpHttpConfig::new(bind.parse().unwrap()).shutdown_grace(Duration::ZERO);
    server.serve_http(config).await.unwrap()
}

fn url(server: &McpHttpServer) -> String {
    format!("http://{}/mcp", server.local_addr())
}

/// A registry with the server's tools through an `McpToolProvider`, connected.
async fn using(
    entry: McpServerEntry,
    builder: impl FnOnce(&McpServersConfig) -> McpToolProvider,
) -> (ToolRegistry, McpToolProvider) {
    let config = McpServersConfig::default().server("remote", entry);
    let provider = builder(&config);
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    let status = provider.wait_connected(Duration::from_secs(20)).await;
    assert!(matches!(status[0].1, McpServerStatus::Connected { .. }), "{status:?}");
    (registry, provider)
}

async fn call(registry: &ToolRegistry, tool: &str, arguments: Value) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new(tool, arguments), None).await
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

/// A caller that records what it is told and answers questions.
#[derive(Default)]
struct Caller {
    progress: Mutex<Vec<(f64, Option<String>)>>,
    logs: Mutex<Vec<(LogLevel, Value)>>,
    colour: Option<&'static str>,
}

impl Interaction for Caller {
    fn report_progress(&self, progress: Progress) -> BoxFuture<'_, ()> {
        self.progress.lock().unwrap().push((progress.progress, progress.message));
        Box::pin(async {})
    }

    fn log(&self, level: LogLevel, _logger: Option<&str>, data: Value) -> BoxFuture<'_, ()> {
        self.logs.lock().unwrap().push((level, data));
        Box::pin(async {})
    }

    fn capabilities(&self) -> Capabilities {
        let mut capabilities = Capabilities::NONE;
        capabilities.elicitation = self.colour.is_some();
        capabilities
    }

    fn elicit(&self, _question: Elicitation) -> BoxFuture<'_, Result<ElicitationReply, InteractionError>> {
        let colour = self.colour.unwrap_or_default();
        let content = json!({"colour": colour}).as_object().cloned();
        Box::pin(async move { Ok(ElicitationReply::new(ElicitationAction::Accept, content)) })
    }
}

// ---- tests -----------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_are_listed_as_the_server_lists_them_with_the_hosts_rules() {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let entry = McpServerEntry::http(url(&server))
        .tool("remote_weather", McpToolRules::default().visibility(Visibility::Visible))
        .tool("remote_slow", McpToolRules::default().visibility(Visibility::Hidden));
    let (registry, _provider) = using(entry, McpToolProvider::new).await;

    let expected = remote.get_llm_definitions(None, Dialect::Mcp).await;
    let listed = registry.list_tools(None).await;
    assert_eq!(listed.len(), expected.len() - 1, "all but the hidden one");
    let hidden = call(&registry, "remote_slow", json!({"ms": 1})).await;
    assert_eq!(hidden.error_message, "Tool not found: remote_slow", "a hidden tool cannot be called");
    for definition in &expected {
        let name = definition["name"].as_str().unwrap();
        if name == "remote_slow" {
            continue;
        }
        let spec = listed.iter().find(|s| s.name() == name).unwrap_or_else(|| panic!("{name} is listed"));
        let ours = registry.definition(spec, Dialect::Mcp, Locale::En);
        for key in ["name", "description", "inputSchema", "outputSchema"] {
            assert_eq!(ours.get(key), definition.get(key), "{name}: {key} as the server sent it");
        }
        assert_eq!(spec.metadata().get("server_name"), Some(&json!("remote")));
        let visibility = match name {
            "remote_weather" => Visibility::Visible,
            _ => Visibility::Deferred,
        };
        assert_eq!(spec.visibility(), visibility, "{name}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_content_and_failure_comes_back() {
    for protocol in ERAS {
        every_kind_of_content_and_failure_comes_back_on(protocol).await;
    }
}

async fn every_kind_of_content_and_failure_comes_back_on(protocol: McpProtocol) {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let (registry, _provider) =
        using(McpServerEntry::http(url(&server)).protocol(protocol), McpToolProvider::new).await;

    let media = call(&registry, "remote_media", json!({})).await;
    assert!(media.success, "{media:?}");
    assert_eq!(media.content, "Here you are:");
    let kinds: Vec<ContentType> = media.content_items().iter().map(|i| i.content_type).collect();
    use ContentType::*;
    assert_eq!(kinds, [Text, Image, Audio, Resource, ResourceLink]);
    assert_eq!(
        (media.content_items()[1].data.as_str(), media.content_items()[1].mime_type.as_str()),
        ("aW1hZ2U=", "image/png")
    );
    assert_eq!(media.content_items()[2].data, "YXVkaW8=");
    assert_eq!(
        (media.content_items()[3].uri.as_str(), media.content_items()[3].text.as_str()),
        ("test://notes", "some notes")
    );
    assert_eq!(media.content_items()[4].description, "The report");
    // It goes into the history like a local tool's result: the image as a follow-up message.
    let history = split_tool_result("call_1", "remote_media", &media, Locale::En);
    assert_eq!(history.media.iter().filter_map(|m| m.image.as_deref()).collect::<Vec<_>>(), [b"image".as_slice()]);

    let forecast = call(&registry, "remote_forecast", json!({"city": "Oslo"})).await;
    assert_eq!(forecast.structured_content().cloned(), Some(json!({"city": "Oslo", "celsius": 21.5})));

    // Every result names the server, the protocol version agreed and the session it ran in
    // (only the 2025-11-25 era has sessions).
    let keys: Vec<&String> = forecast.metadata.keys().collect();
    assert_eq!(keys, ["server_name", "protocol_version", "session_id"], "{protocol:?}");
    assert_eq!(forecast.metadata["server_name"], "remote");
    let session = &forecast.metadata["session_id"];
    match protocol {
        McpProtocol::Stateless => {
            assert_eq!(forecast.metadata["protocol_version"], "2026-07-28");
            assert_eq!(*session, Value::Null);
        }
        _ => {
            assert_eq!(forecast.metadata["protocol_version"], "2025-11-25");
            assert!(session.as_str().is_some_and(|s| !s.is_empty()), "a session id: {session}");
        }
    }
    assert_eq!(media.metadata, forecast.metadata, "one connection, one session");

    let failed = call(&registry, "remote_fail", json!({})).await;
    assert!(!failed.success);
    assert!(failed.error_message.contains("the weather station is down"), "{}", failed.error_message);

    let bad = call(&registry, "remote_weather", json!({"city": "Oslo", "days": "three"})).await;
    assert!(!bad.success);
    assert!(bad.error_message.contains(r#"days: expected integer, got string "three""#), "{}", bad.error_message);

    let unknown = call(&registry, "remote_nothing", json!({})).await;
    assert_eq!(unknown.error_message, "Tool not found: remote_nothing");
    server.shutdown().await;
}

/// How many times a question is asked in a row.
const ASK_ROUNDS: usize = 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_logs_and_questions_reach_the_caller_else_the_host() {
    for protocol in ERAS {
        progress_logs_and_questions_reach_the_caller_else_the_host_on(protocol).await;
    }
}

async fn progress_logs_and_questions_reach_the_caller_else_the_host_on(protocol: McpProtocol) {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let host = Arc::new(Caller { colour: Some("grey"), ..Caller::default() });
    let shared: Arc<dyn Interaction> = host.clone();
    let entry = McpServerEntry::http(url(&server)).protocol(protocol);
    let (registry, _provider) = using(entry, |c| McpToolProvider::builder(c).interaction(shared).build()).await;

    let caller = Arc::new(Caller { colour: Some("teal"), ..Caller::default() });
    let ctx = ToolExecutionContext::for_session("s1").with_interaction(caller.clone());
    let done = registry.invoke(ToolInvocation::new("remote_progress", json!({})), Some(&ctx)).await;
    assert_eq!(done.content, "done");
    // rmcp may hand notifications over out of order: progress the caller hears only grows (a
    // late, lower value is dropped) and ends at the last step; every log message arrives.
    let last_step = Some((3.0, Some("step 3".to_owned())));
    assert!(eventually(|| caller.progress.lock().unwrap().last().cloned() == last_step).await);
    assert!(caller.progress.lock().unwrap().windows(2).all(|w| w[0].0 < w[1].0));
    assert!(eventually(|| caller.logs.lock().unwrap().len() == 3).await);
    assert!(caller.logs.lock().unwrap().contains(&(LogLevel::Warning, json!({"step": 1}))));

    // The server asks at once, so the question can come back before `send` has returned here:
    // the call must already be known to be in flight by then. Asked many times, to give a
    // wrong order many chances to show.
    for round in 0..ASK_ROUNDS {
        let asked = registry.invoke(ToolInvocation::new("remote_ask", json!({})), Some(&ctx)).await;
        assert_eq!(asked.content, "you like teal", "the caller answers ({protocol:?}, round {round})");
        let asked = call(&registry, "remote_ask", json!({})).await;
        assert_eq!(asked.content, "you like grey", "without a caller that can answer, the host does");
    }
    assert!(host.progress.lock().unwrap().is_empty(), "progress goes to its own call only");
    // The arguments go out again with the answer, whether they came as text or as a value.
    for arguments in [ToolArguments::from(r#"{"thing": "cars"}"#), ToolArguments::from(json!({"thing": "cars"}))] {
        let asked = registry.invoke(ToolInvocation::new("remote_ask_about", arguments), Some(&ctx)).await;
        assert_eq!(asked.content, "cars: teal", "{protocol:?}: {}", asked.error_message);
    }
    server.shutdown().await;

    let server = serve(&remote, "127.0.0.1:0").await;
    let (registry, _provider) =
        using(McpServerEntry::http(url(&server)).protocol(protocol), McpToolProvider::new).await;
    let declined = call(&registry, "remote_ask", json!({})).await;
    assert_eq!(declined.content, "you like nothing", "nobody to ask: declined");
    server.shutdown().await;
}

/// Two servers listing the same tools: the registry renames the second's, and each name reaches
/// the server it was listed from (a caller's own `mcp_server_name` cannot redirect a call).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_name_reaches_the_server_it_was_listed_from() {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let config = McpServersConfig::default()
        .server("alpha", McpServerEntry::http(url(&server)))
        .server("beta", McpServerEntry::http(url(&server)));
    let provider = McpToolProvider::new(&config);
    let registry = ToolRegistry::new(RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename));
    registry.register_provider(provider.clone());
    provider.wait_connected(Duration::from_secs(20)).await;
    let weather: Vec<ToolSpec> =
        registry.list_tools(None).await.into_iter().filter(|s| s.name().ends_with("remote_weather")).collect();
    assert_eq!(weather.len(), 2, "{:?}", weather.iter().map(ToolSpec::name).collect::<Vec<_>>());
    let mut servers = Vec::new();
    for spec in &weather {
        let listed_from = spec.metadata()["server_name"].clone();
        let forged = ToolInvocation::new(spec.name(), json!({"city": "Paris"}))
            .with_metadata("mcp_server_name", json!("somewhere-else"));
        let result = registry.invoke(forged, None).await;
        assert!(result.success, "{}: {}", spec.name(), result.error_message);
        assert_eq!(result.content, "Paris: sunny for 1 day(s)");
        assert_eq!(result.metadata["server_name"], listed_from, "{}", spec.name());
        servers.push(listed_from);
    }
    servers.sort_by_key(|s| s.to_string());
    assert_eq!(servers, [json!("alpha"), json!("beta")]);
    server.shutdown().await;
}

/// More calls at once than a connection keeps call boxes for, twice over: each gets its own
/// answer, on both protocol eras.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_calls_at_once_each_get_their_own_answer() {
    for protocol in ERAS {
        let remote = served();
        let server = serve(&remote, "127.0.0.1:0").await;
        let (registry, _provider) =
            using(McpServerEntry::http(url(&server)).protocol(protocol), McpToolProvider::new).await;
        for _ in 0..2 {
            let calls = (0..40u8).map(|days| {
                let registry = &registry;
                async move { (days, call(registry, "remote_weather", json!({"city": "Oslo", "days": days})).await) }
            });
            for (days, result) in futures_util::future::join_all(calls).await {
                assert_eq!(result.content, format!("Oslo: sunny for {days} day(s)"), "{protocol:?}: {result:?}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_times_out_is_cancelled_at_the_server() {
    for protocol in ERAS {
        a_call_that_times_out_is_cancelled_at_the_server_on(protocol).await;
    }
}

async fn a_call_that_times_out_is_cancelled_at_the_server_on(protocol: McpProtocol) {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let entry = McpServerEntry::http(url(&server)).timeout(Duration::from_millis(300)).protocol(protocol);
    let (registry, _provider) = using(entry, McpToolProvider::new).await;
    let before = CANCELLED.load(Ordering::SeqCst);
    let timed_out = call(&registry, "remote_forever", json!({})).await;
    assert!(!timed_out.success);
    assert!(timed_out.error_message.contains("Timeout: no result within 300 ms"), "{}", timed_out.error_message);
    assert!(eventually(|| CANCELLED.load(Ordering::SeqCst) > before).await, "the server's tool was cancelled");
    assert_eq!(call(&registry, "remote_weather", json!({"city": "Rome"})).await.content, "Rome: sunny for 1 day(s)");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_tool_list_reaches_the_registry() {
    for protocol in ERAS {
        a_changed_tool_list_reaches_the_registry_on(protocol).await;
    }
}

async fn a_changed_tool_list_reaches_the_registry_on(protocol: McpProtocol) {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let (registry, _provider) =
        using(McpServerEntry::http(url(&server)).protocol(protocol), McpToolProvider::new).await;
    let mut changes = registry.subscribe();
    assert!(registry.get_tool_spec("added_later", None).await.is_none());

    let spec = ToolSpec::builder("added_later").brief_description("Arrives late.").core_tool(true).build().unwrap();
    let tool = BuiltinTool::new(spec, |call, _| async move { Ok(ToolExecutionResult::success(call.tool_name, "hi")) });
    remote.register_provider(BuiltinToolProvider::new().without_tool_search().named("later").with_tool(tool));

    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        while changes.changed().await {
            if registry.get_tool_spec("added_later", None).await.is_some() {
                return;
            }
        }
    })
    .await;
    assert!(heard.is_ok(), "the registry heard of the new tool");
    assert_eq!(call(&registry, "added_later", json!({})).await.content, "hi");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_goes_away_mid_call_fails_clearly_and_is_reconnected() {
    for protocol in ERAS {
        a_server_that_goes_away_mid_call_fails_clearly_and_is_reconnected_on(protocol).await;
    }
}

async fn a_server_that_goes_away_mid_call_fails_clearly_and_is_reconnected_on(protocol: McpProtocol) {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let addr = server.local_addr().to_string();
    let entry = McpServerEntry::http(url(&server)).protocol(protocol).ping_interval(Some(Duration::from_millis(300)));
    let (registry, provider) = using(entry, McpToolProvider::new).await;

    let registry2 = registry.clone();
    let in_flight = tokio::spawn(async move { call(&registry2, "remote_slow", json!({"ms": 5_000})).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.shutdown().await;
    let lost = in_flight.await.unwrap();
    assert!(!lost.success);
    assert_eq!(
        lost.error_message,
        "MCP tool 'remote_slow' failed: MCP server 'remote' stopped before answering; try again shortly",
        "{protocol:?}"
    );

    assert!(eventually(|| matches!(provider.servers()[0].1, McpServerStatus::Reconnecting { .. })).await);
    let started = Instant::now();
    let down = call(&registry, "remote_weather", json!({"city": "Oslo"})).await;
    assert_eq!(down.error_message, "MCP server 'remote' is not connected");
    assert!(started.elapsed() < Duration::from_secs(1), "it fails at once");

    let server = serve(&remote, &addr).await;
    assert!(eventually(|| matches!(provider.servers()[0].1, McpServerStatus::Connected { .. })).await);
    assert_eq!(call(&registry, "remote_weather", json!({"city": "Oslo"})).await.content, "Oslo: sunny for 1 day(s)");
    server.shutdown().await;
}

/// A server that accepts connections and never says a word.
async fn hung_server() -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (url, task)
}

/// The 99th percentile of 400 calls of `tool`, 8 at a time.
async fn p99(registry: &ToolRegistry, tool: &str, arguments: Value) -> Duration {
    let mut took = Vec::new();
    for _ in 0..50 {
        let round = (0..8).map(|_| async {
            let started = Instant::now();
            let result = call(registry, tool, arguments.clone()).await;
            assert!(result.success, "{result:?}");
            started.elapsed()
        });
        took.extend(futures_util::future::join_all(round).await);
    }
    took.sort();
    took[took.len() * 99 / 100]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_server_costs_only_its_own_tools() {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let local = BuiltinTool::new(
        ToolSpec::builder("local_echo").brief_description("Echoes.").core_tool(true).build().unwrap(),
        |call, _| async move { Ok(ToolExecutionResult::success(call.tool_name, "echo")) },
    );
    let host = |config: &McpServersConfig| {
        let registry = ToolRegistry::default();
        registry.register_provider(BuiltinToolProvider::new().named("local").with_tool(local.clone()));
        let provider = McpToolProvider::new(config);
        registry.register_provider(provider.clone());
        (registry, provider)
    };
    let good = McpServerEntry::http(url(&server));
    let (baseline, provider) = host(&McpServersConfig::default().server("remote", good.clone()));
    provider.wait_connected(Duration::from_secs(20)).await;

    let (hung_url, hung) = hung_server().await;
    let config = McpServersConfig::default()
        .server("hung", McpServerEntry::http(hung_url).connect_timeout(Duration::from_secs(600)))
        .server("remote", good);
    let (with_hung, provider) = host(&config);
    let status = provider.wait_connected(Duration::from_secs(2)).await;
    assert_eq!(status[0].1, McpServerStatus::Connecting, "the hung server is still being waited for");
    assert!(matches!(status[1].1, McpServerStatus::Connected { .. }));

    // A call that hangs at the server too, on the good server: it costs nothing to the others.
    let hanging = with_hung.clone();
    let forever = tokio::spawn(async move { call(&hanging, "remote_forever", json!({})).await });

    for (tool, arguments) in [("local_echo", json!({})), ("remote_weather", json!({"city": "Oslo"}))] {
        let alone = p99(&baseline, tool, arguments.clone()).await;
        let next_to_hung = p99(&with_hung, tool, arguments).await;
        println!("{tool}: p99 {alone:?} alone, {next_to_hung:?} next to a hung server");
        // Waiting on the hung server would cost its connect timeout (10 minutes); noise costs
        // far less than this bound.
        assert!(next_to_hung < alone * 20 + Duration::from_millis(250), "{tool}: {next_to_hung:?} vs {alone:?}");
    }
    let listing = Instant::now();
    assert!(with_hung.list_tools(None).await.len() > 1);
    assert!(listing.elapsed() < Duration::from_secs(1), "listing does not wait for the hung server");
    forever.abort();
    // Removing the hung server does not wait for its connect timeout.
    let removed = tokio::time::timeout(Duration::from_secs(10), provider.remove_server("hung")).await;
    assert_eq!(removed, Ok(true));
    assert_eq!(provider.servers().len(), 1);
    hung.abort();
    server.shutdown().await;
}

/// A server that forgets the session (here: restarted on the same address) gets a new one; the
/// results name the session they ran in, not the one the connection started with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_name_the_session_after_the_server_assigned_a_new_one() {
    let remote = served();
    let server = serve(&remote, "127.0.0.1:0").await;
    let address = server.local_addr().to_string();
    let (registry, _provider) =
        using(McpServerEntry::http(url(&server)).protocol(McpProtocol::Initialize), McpToolProvider::new).await;
    let first = call(&registry, "remote_weather", json!({"city": "Oslo"})).await;
    assert!(first.success, "{}", first.error_message);
    let before = first.metadata["session_id"].clone();
    server.shutdown().await;
    let server = serve(&remote, &address).await;
    let mut after = Value::Null;
    for _ in 0..50 {
        let again = call(&registry, "remote_weather", json!({"city": "Oslo"})).await;
        if again.success {
            after = again.metadata["session_id"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(after.as_str().is_some_and(|s| !s.is_empty()), "a session id after the restart: {after}");
    assert_ne!(after, before, "the new session, not the first one");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_trusts_its_caller_hears_who_calls_when_the_host_forwards_it() {
    for protocol in ERAS {
        a_server_that_trusts_its_caller_hears_who_calls_on(protocol).await;
    }
}

async fn a_server_that_trusts_its_caller_hears_who_calls_on(protocol: McpProtocol) {
    let remote = ToolRegistry::default();
    let spec = ToolSpec::builder("whoami").brief_description("Says who calls.").core_tool(true).build().unwrap();
    let tool = BuiltinTool::new(spec, |call, ctx| async move {
        let ctx = ctx.unwrap_or_default();
        let text = format!("{} on {} as {} in {}", ctx.user_id, ctx.platform, ctx.permission, ctx.session_id);
        Ok(ToolExecutionResult::success(call.tool_name, text))
    });
    remote.register_provider(BuiltinToolProvider::new().without_tool_search().named("who").with_tool(tool));
    let http = || McpHttpConfig::new("127.0.0.1:0".parse().unwrap()).shutdown_grace(Duration::ZERO);
    let trusting = McpServer::builder(&remote).caller_context(true).build().unwrap().serve_http(http()).await.unwrap();
    let plain = McpServer::builder(&remote).build().unwrap().serve_http(http()).await.unwrap();
    let ctx = ToolExecutionContext {
        user_id: "u7".into(),
        platform: "qq".into(),
        permission: toolhook::PermissionLevel::BotAdmin,
        session_id: "s1".into(),
        ..ToolExecutionContext::default()
    };
    let whoami = |entry: McpServerEntry| {
        let ctx = ctx.clone();
        async move {
            let (registry, _provider) = using(entry.protocol(protocol), McpToolProvider::new).await;
            let heard = registry.invoke(ToolInvocation::new("whoami", json!({})), Some(&ctx)).await;
            registry.close().await.unwrap();
            heard.content
        }
    };
    // Forwarded to a server that trusts it: the call runs in the caller's context.
    assert_eq!(whoami(McpServerEntry::http(url(&trusting)).forward_context(true)).await, "u7 on qq as bot_admin in s1");
    // Not forwarded (the default), or forwarded to a server that does not trust its callers:
    // the server's own, empty context.
    assert_eq!(whoami(McpServerEntry::http(url(&trusting))).await, "on  as user in");
    assert_eq!(whoami(McpServerEntry::http(url(&plain)).forward_context(true)).await, "on  as user in");
    trusting.shutdown().await;
    plain.shutdown().await;
}
