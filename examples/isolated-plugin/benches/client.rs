//! A tool call through `McpToolProvider` (a registry's `invoke`) to a toolhook MCP server over
//! stdio, against the same call through rmcp's plain client, in the same run. Every server is
//! this package's plugin in its own process, all running for the whole run, on MCP 2026-07-28.
//!
//! Two baselines: rmcp's client as it comes (it declares no capabilities), and the same client
//! declaring what the provider declares (elicitation, sampling, roots), which every request's
//! `_meta` then carries: the same bytes on the wire as the provider's call.
//!
//! Before divan's figures, an interleaved run prints the ratio that decides: each round times one
//! call through the provider and one through the wire-identical rmcp client, in alternating
//! order, so that a machine getting busier or quieter during the run moves both sides alike.
//!
//! `cargo bench -p toolhook-example-isolated --bench client` (`TOOLHOOK_INTERLEAVED_ROUNDS=0`
//! skips the interleaved run, to profile divan's benches alone).

use divan::Bencher;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;
use std::time::Duration;
use toolhook::ToolInvocation;
use toolhook_runtime::ToolRegistry;
use toolhook_runtime::mcp::{McpProtocol, McpServerEntry, McpServersConfig, McpToolProvider};

const PLUGIN: &str = env!("CARGO_BIN_EXE_toolhook-example-isolated");

type Plain = RunningService<RoleClient, ClientConfig>;

/// One thread: the figure is the work of a call, not thread wake-ups.
struct Setup {
    rt: tokio::runtime::Runtime,
    plain: Plain,
    same_capabilities: Plain,
    registry: ToolRegistry,
}

async fn plain_client(capabilities: Value) -> Plain {
    let mut command = tokio::process::Command::new(PLUGIN);
    command.stderr(std::process::Stdio::null());
    let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
    let handler = ClientConfig::new(capabilities, Implementation::new("plain", "1.0.0"));
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    handler.serve_with_lifecycle(TokioChildProcess::new(command).unwrap(), lifecycle).await.unwrap()
}

static SETUP: LazyLock<Setup> = LazyLock::new(|| {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (plain, same_capabilities, registry) = rt.block_on(async {
        let plain = plain_client(json!({})).await;
        let same = plain_client(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}})).await;
        let entry = McpServerEntry::stdio(PLUGIN).protocol(McpProtocol::Stateless);
        let mcp = McpToolProvider::new(&McpServersConfig::new().server("plugin", entry));
        let registry = ToolRegistry::default();
        registry.register_provider(mcp.clone());
        mcp.wait_connected(Duration::from_secs(30)).await;
        (plain, same, registry)
    });
    Setup { rt, plain, same_capabilities, registry }
});

fn main() {
    LazyLock::force(&SETUP);
    // `TOOLHOOK_INTERLEAVED_ROUNDS=0` skips the interleaved run (to profile divan's benches alone).
    let rounds = std::env::var("TOOLHOOK_INTERLEAVED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3000);
    if rounds > 0 {
        interleaved(rounds);
    }
    divan::main();
}

/// Times `rounds` pairs of calls (provider, wire-identical rmcp client), alternating which goes
/// first, and prints each side's median and the median of the per-round ratios.
fn interleaved(rounds: usize) {
    let Setup { rt, same_capabilities, registry, .. } = &*SETUP;
    let provider = || {
        let started = std::time::Instant::now();
        rt.block_on(async {
            let result = registry.invoke(divan::black_box(ToolInvocation::new("slow_echo", arguments())), None).await;
            assert_eq!(result.content, "hello");
        });
        started.elapsed().as_secs_f64()
    };
    let baseline = || {
        let started = std::time::Instant::now();
        rt.block_on(async {
            let arguments: Map<String, Value> = arguments().as_object().cloned().unwrap_or_default();
            let call = CallToolRequestParams::new("slow_echo").with_arguments(arguments);
            let result = same_capabilities.peer().call_tool(divan::black_box(call)).await.unwrap();
            assert_eq!(result.content[0].as_text().map(|t| t.text.as_str()), Some("hello"));
        });
        started.elapsed().as_secs_f64()
    };
    for _ in 0..200 {
        provider();
        baseline();
    }
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = provider();
            (a, baseline())
        } else {
            let b = baseline();
            (provider(), b)
        };
        ours.push(a);
        theirs.push(b);
        ratios.push(a / b);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "interleaved, {rounds} rounds: provider {:.1} µs, rmcp (same capabilities) {:.1} µs, median ratio {:.3}x",
        median(&mut ours) * 1e6,
        median(&mut theirs) * 1e6,
        median(&mut ratios)
    );
}

fn arguments() -> Value {
    json!({"text": "hello", "delay_ms": 0})
}

fn bench_plain(b: Bencher<'_, '_>, client: &Plain) {
    b.bench_local(|| {
        SETUP.rt.block_on(async {
            let arguments: Map<String, Value> = arguments().as_object().cloned().unwrap_or_default();
            let call = CallToolRequestParams::new("slow_echo").with_arguments(arguments);
            let result = client.peer().call_tool(divan::black_box(call)).await.unwrap();
            assert_eq!(result.content[0].as_text().map(|t| t.text.as_str()), Some("hello"));
        })
    });
}

#[divan::bench(sample_count = 5000)]
fn rmcp_plain_client(b: Bencher<'_, '_>) {
    bench_plain(b, &SETUP.plain);
}

#[divan::bench(sample_count = 5000)]
fn rmcp_same_capabilities(b: Bencher<'_, '_>) {
    bench_plain(b, &SETUP.same_capabilities);
}

#[divan::bench(sample_count = 5000)]
fn toolhook_provider(b: Bencher<'_, '_>) {
    let Setup { rt, registry, .. } = &*SETUP;
    b.bench_local(|| {
        rt.block_on(async {
            let result = registry.invoke(divan::black_box(ToolInvocation::new("slow_echo", arguments())), None).await;
            assert_eq!(result.content, "hello");
        })
    });
}
