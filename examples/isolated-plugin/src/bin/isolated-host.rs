//! A host that runs the example plugin in its own process, kills that process in the middle of
//! a call, and shows what happens: the call in flight fails with a clear error, the plugin's
//! tools fail fast while it is down, the host starts it again (with backoff), and calls work
//! again. The host itself never stops serving.
//!
//! ```text
//! cargo run -p toolhook-example-isolated --bin isolated-host
//! ```

#[path = "../locate.rs"]
mod locate;

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use toolhook::ToolInvocation;
use toolhook_runtime::ToolRegistry;
use toolhook_runtime::mcp::{McpServerEntry, McpServerStatus, McpServersConfig, McpToolProvider};

async fn call(registry: &ToolRegistry, tool: &str, arguments: Value) -> String {
    let result = registry.invoke(ToolInvocation::new(tool, arguments), None).await;
    if result.success { result.content } else { format!("error: {}", result.error_message) }
}

fn status(mcp: &McpToolProvider) -> McpServerStatus {
    mcp.servers().remove(0).1
}

#[tokio::main]
async fn main() -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .init();
    let plugin = locate::plugin_executable()?;
    let config = McpServersConfig::new().server("isolated", McpServerEntry::stdio(plugin.to_string_lossy()));
    let mcp = McpToolProvider::new(&config);
    let registry = ToolRegistry::default();
    registry.register_provider(mcp.clone());
    mcp.wait_connected(Duration::from_secs(30)).await;
    println!("plugin status: {:?}", status(&mcp));
    let pid = call(&registry, "process_id", json!({})).await;
    println!("the plugin runs as process {pid}");

    // A slow call is under way when the process is killed.
    let slow = tokio::spawn({
        let registry = registry.clone();
        async move { call(&registry, "slow_echo", json!({"text": "never arrives", "delay_ms": 5000})).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    println!("killing process {pid}");
    let killed = std::process::Command::new("kill").args(["-9", &pid]).status().map_err(|e| e.to_string())?;
    if !killed.success() {
        return Err(format!("could not kill {pid}"));
    }
    println!("the call in flight: {}", slow.await.map_err(|e| e.to_string())?);

    tokio::time::sleep(Duration::from_millis(100)).await;
    println!("plugin status: {:?}", status(&mcp));
    println!("a call meanwhile: {}", call(&registry, "slow_echo", json!({"text": "hello"})).await);

    let since = Instant::now();
    while !matches!(status(&mcp), McpServerStatus::Connected { .. }) && since.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("plugin status after {} ms: {:?}", since.elapsed().as_millis(), status(&mcp));
    println!("the plugin runs as process {}", call(&registry, "process_id", json!({})).await);
    println!("a call now: {}", call(&registry, "slow_echo", json!({"text": "hello again"})).await);
    registry.close().await.map_err(|e| e.to_string())
}
