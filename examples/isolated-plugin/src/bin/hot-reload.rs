//! A host that reloads the example plugin without stopping: calls keep running from four tasks
//! while a new build of the plugin lands on disk (the host notices and swaps processes) and
//! while the host asks for a restart. Every call gets its own answer; none is lost.
//!
//! ```text
//! cargo run -p toolhook-example-isolated --bin hot-reload
//! ```

#[path = "../locate.rs"]
mod locate;

use serde_json::json;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use toolhook::ToolInvocation;
use toolhook_runtime::ToolRegistry;
use toolhook_runtime::mcp::{McpServerEntry, McpServersConfig, McpToolProvider};

/// Calls `slow_echo` until told to stop; returns (calls, failed or wrong answers, processes seen).
async fn keep_calling(
    registry: ToolRegistry,
    worker: usize,
    stop: Arc<AtomicBool>,
) -> (usize, usize, BTreeSet<String>) {
    let (mut calls, mut wrong, mut processes) = (0, 0, BTreeSet::new());
    while !stop.load(Ordering::Relaxed) {
        let text = format!("task {worker}, call {calls}");
        let result =
            registry.invoke(ToolInvocation::new("slow_echo", json!({"text": text, "delay_ms": 25})), None).await;
        if !result.success || result.content != text {
            wrong += 1;
            eprintln!("{text}: {result:?}");
        }
        calls += 1;
        if calls % 20 == 0 {
            processes.insert(registry.invoke(ToolInvocation::new("process_id", json!({})), None).await.content);
        }
    }
    (calls, wrong, processes)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .init();
    let built = locate::plugin_executable()?;
    // The host runs the plugin from its install directory and watches it there.
    let dir = std::env::temp_dir().join(format!("toolhook-hot-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let installed = dir.join("plugin");
    std::fs::copy(&built, &installed).map_err(|e| e.to_string())?;

    let entry = McpServerEntry::stdio(installed.to_string_lossy()).watch(true);
    let mcp = McpToolProvider::new(&McpServersConfig::new().server("isolated", entry));
    let registry = ToolRegistry::default();
    registry.register_provider(mcp.clone());
    mcp.wait_connected(Duration::from_secs(30)).await;

    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = (0..4).map(|w| tokio::spawn(keep_calling(registry.clone(), w, stop.clone()))).collect();

    tokio::time::sleep(Duration::from_secs(2)).await;
    println!("installing a new build of the plugin (written aside, renamed into place)");
    let staged = dir.join("plugin.new");
    std::fs::copy(&built, &staged).map_err(|e| e.to_string())?;
    std::fs::rename(&staged, &installed).map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_secs(4)).await;
    println!("asking for a restart");
    mcp.restart("isolated");
    tokio::time::sleep(Duration::from_secs(2)).await;

    stop.store(true, Ordering::Relaxed);
    let (mut calls, mut wrong, mut processes) = (0, 0, BTreeSet::new());
    for task in tasks {
        let (c, w, p) = task.await.map_err(|e| e.to_string())?;
        calls += c;
        wrong += w;
        processes.extend(p);
    }
    println!("{calls} calls, {wrong} lost or wrong, served by {} processes in turn: {processes:?}", processes.len());
    registry.close().await.map_err(|e| e.to_string())?;
    std::fs::remove_dir_all(&dir).map_err(|e| e.to_string())?;
    if wrong == 0 { Ok(()) } else { Err(format!("{wrong} calls lost or wrong")) }
}
