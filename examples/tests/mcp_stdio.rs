//! The demo served over MCP stdio, spawned as a desktop client would: it lists exactly what the
//! registry renders in the MCP dialect, answers calls, and tells the client when `tool_search`
//! makes a deferred tool available.
#![allow(deprecated)] // rmcp marks the logging APIs as superseded; MCP still has them.

use rmcp::model::CallToolRequestParams;
use rmcp::service::NotificationContext;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use toolhook::{Dialect, Locale, ToolExecutionContext};
use toolhook_examples::host::DemoHost;

#[derive(Clone, Default)]
struct Client {
    list_changed: Arc<AtomicUsize>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
    }
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_serves_its_tools_over_stdio() {
    // What the demo lists: its registry's advertised tools for its MCP context, in Dialect::Mcp.
    let demo = DemoHost::load(Locale::En).await;
    let ctx = ToolExecutionContext { session_id: "mcp".into(), ..demo.context.clone() };
    let round = demo.deferred.prepare_round(&demo.registry, &ctx).await;
    let expected: Vec<String> =
        round.advertised().iter().map(|s| demo.registry.definition(s, Dialect::Mcp, Locale::En).to_string()).collect();

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_demo"));
    command.arg("--mcp-stdio").stderr(std::process::Stdio::null());
    let handler = Client::default();
    let client = handler.clone().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();

    let listed: Vec<String> =
        client.list_all_tools().await.unwrap().iter().map(|t| serde_json::to_string(t).unwrap()).collect();
    assert_eq!(listed, expected);
    assert!(!listed.iter().any(|t| t.contains("\"web_fetch\"")), "a deferred tool is not listed before it is found");

    let bad = client.call_tool(call("weather", json!({"city": "Oslo", "days": "three"}))).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    let text = bad.content[0].as_text().unwrap().text.clone();
    assert_eq!(text, r#"Tool weather failed: InvalidArguments: days: expected integer, got string "three""#);

    let found = client.call_tool(call("tool_search", json!({"query": "fetch url"}))).await.unwrap();
    assert_eq!(found.is_error, Some(false));
    for _ in 0..100 {
        if handler.list_changed.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(handler.list_changed.load(Ordering::SeqCst), 1);
    let names: Vec<String> = client.list_all_tools().await.unwrap().iter().map(|t| t.name.to_string()).collect();
    assert!(names.contains(&"web_fetch".to_owned()), "{names:?}");
    client.cancel().await.unwrap();
}
