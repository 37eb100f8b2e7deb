//! Drives calls through an MCP endpoint (see `examples/deploy/`) and counts what was lost.
//!
//! ```text
//! mcp-load --url URL [--calls N] [--concurrency C] [--legacy] [--clients K]
//! mcp-load --url URL --confirm-demo
//! ```
//!
//! The first form makes N `add` calls, C at a time, as MCP 2026-07-28 (stateless) or, with
//! `--legacy`, as K 2025-11-25 sessions; it prints calls/s and the calls that failed. The second
//! calls `confirm`, which asks a question (MCP 2026-07-28 input-required): it prints which
//! upstream answered each round (nginx's `X-Upstream` header) and what the call returned.

use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

struct Options {
    url: String,
    calls: u64,
    concurrency: u64,
    legacy: bool,
    clients: u64,
    confirm_demo: bool,
}

fn options() -> Result<Options, String> {
    let mut options =
        Options { url: String::new(), calls: 10_000, concurrency: 32, legacy: false, clients: 8, confirm_demo: false };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<u64>().ok()).ok_or(format!("{arg} needs a number"));
        match arg.as_str() {
            "--url" => options.url = args.next().ok_or("--url needs a URL")?,
            "--calls" => options.calls = number()?,
            "--concurrency" => options.concurrency = number()?.max(1),
            "--clients" => options.clients = number()?.max(1),
            "--legacy" => options.legacy = true,
            "--confirm-demo" => options.confirm_demo = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.url.is_empty() {
        return Err("--url is required".into());
    }
    Ok(options)
}

fn add(a: u64) -> CallToolRequestParams {
    let arguments: Map<String, Value> = json!({"a": a, "b": 1}).as_object().cloned().unwrap_or_default();
    CallToolRequestParams::new("add").with_arguments(arguments)
}

/// Makes the calls; returns (ok, lost, seconds).
async fn load(options: &Options) -> Result<(u64, u64, f64), String> {
    let next = Arc::new(AtomicU64::new(0));
    let (ok, lost) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let started = Instant::now();
    let sessions = if options.legacy { options.clients } else { 1 };
    let per_session = (options.concurrency / sessions).max(1);
    let mut workers = Vec::new();
    for _ in 0..sessions {
        let transport = StreamableHttpClientTransport::from_uri(options.url.clone());
        let lifecycle = if options.legacy {
            ClientLifecycleMode::Initialize
        } else {
            ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] }
        };
        let client = ().serve_with_lifecycle(transport, lifecycle).await.map_err(|e| format!("connect: {e}"))?;
        let client = Arc::new(client);
        for _ in 0..per_session {
            let (client, next, ok, lost, total) =
                (client.clone(), next.clone(), ok.clone(), lost.clone(), options.calls);
            workers.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        return;
                    }
                    let call = tokio::time::timeout(Duration::from_secs(30), client.peer().call_tool(add(i)));
                    match call.await {
                        Ok(Ok(result)) if result.is_error != Some(true) => ok.fetch_add(1, Ordering::Relaxed),
                        Ok(Ok(result)) => {
                            eprintln!("call {i} failed: {:?}", result.content);
                            lost.fetch_add(1, Ordering::Relaxed)
                        }
                        Ok(Err(error)) => {
                            eprintln!("call {i} lost: {error}");
                            lost.fetch_add(1, Ordering::Relaxed)
                        }
                        Err(_) => {
                            eprintln!("call {i} lost: no answer in 30 s");
                            lost.fetch_add(1, Ordering::Relaxed)
                        }
                    };
                }
            }));
        }
    }
    for worker in workers {
        let _ = worker.await;
    }
    Ok((ok.load(Ordering::Relaxed), lost.load(Ordering::Relaxed), started.elapsed().as_secs_f64()))
}

/// One round of the `confirm` call over raw HTTP: the upstream and the JSON-RPC result.
async fn round(http: &reqwest::Client, url: &str, id: u64, params: Value) -> Result<(String, Value), String> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    let response = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "confirm")
        .body(body.to_string())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let upstream = response.headers().get("x-upstream").and_then(|v| v.to_str().ok()).unwrap_or("?").to_owned();
    let text = response.text().await.map_err(|e| e.to_string())?;
    // A JSON body, or an SSE stream whose last `data:` line is the response.
    let json = text.lines().rev().find_map(|l| l.strip_prefix("data:")).unwrap_or(&text).trim().to_owned();
    let message: Value = serde_json::from_str(&json).map_err(|e| format!("{e}: {text}"))?;
    Ok((upstream, message["result"].clone()))
}

async fn confirm_demo(url: &str) -> Result<(), String> {
    let http = reqwest::Client::new();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    });
    for attempt in 1..=10u64 {
        let params = json!({"name": "confirm", "arguments": {"what": "the migration"}, "_meta": meta});
        let (first, asked) = round(&http, url, attempt * 2, params).await?;
        if asked["resultType"] != "input_required" {
            return Err(format!("the first round did not ask: {asked}"));
        }
        let params = json!({
            "name": "confirm", "arguments": {"what": "the migration"}, "_meta": meta,
            "inputResponses": {"ok": {"action": "accept", "content": {"ok": true}}},
            "requestState": asked["requestState"],
        });
        let (second, done) = round(&http, url, attempt * 2 + 1, params).await?;
        if first != second {
            println!("round 1 (asked) answered by {first}");
            println!("round 2 (answered) answered by {second}: {}", done["content"][0]["text"]);
            return Ok(());
        }
    }
    Err("every attempt landed both rounds on one upstream".into())
}

fn main() -> std::process::ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!(
                "{message}\nusage: mcp-load --url URL [--calls N] [--concurrency C] [--legacy] [--clients K] | --confirm-demo"
            );
            return std::process::ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let outcome = runtime.block_on(async {
        if options.confirm_demo {
            return confirm_demo(&options.url).await;
        }
        let (ok, lost, seconds) = load(&options).await?;
        let era = if options.legacy { "2025-11-25 sessions" } else { "2026-07-28 stateless" };
        println!(
            "{era}: {} calls in {seconds:.2} s = {:.0} calls/s; ok {ok}, lost {lost}",
            ok + lost,
            (ok + lost) as f64 / seconds
        );
        if lost > 0 { Err(format!("{lost} calls lost")) } else { Ok(()) }
    });
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mcp-load: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}
