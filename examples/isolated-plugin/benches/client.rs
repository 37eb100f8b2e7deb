//! A tool call through `McpToolProvider` to a toolhook MCP server over stdio, against the same
//! call through rmcp's plain client, in the same run. Every server is this package's plugin in its
//! own process, all running for the whole run, on MCP 2026-07-28.
//!
//! Two baselines: rmcp's client as it comes (it declares no capabilities), and the same client
//! declaring what the provider declares (elicitation, sampling, roots), which every request's
//! `_meta` then carries: the same bytes on the wire as the provider's call.
//!
//! Before divan's figures, an interleaved run prints the ratios that decide. It runs in epochs,
//! each with fresh server processes started in a rotating order, because which process started
//! first (and so where the scheduler put it) moved a side's time by several percent for a whole
//! run. Four sides share the process: two providers and two wire-identical rmcp clients. Each
//! round times one call through each, in every order in turn, so that a machine getting busier
//! or quieter moves all sides alike and each side follows each other side as often. The figure
//! is the median per-round ratio of the providers' time to the clients'; the second client's
//! ratio to the first and the second provider's to the first (the same code on both sides) are
//! printed beside it, as the resolution of the measurement.
//!
//! The sides are two of each kind because the mix itself moved the figure: with one provider
//! beside two rmcp clients, rmcp's code ran in two calls of three and found the caches warmer,
//! which read as 1.07–1.11× where the symmetric mix reads 1.065×.
//!
//! The provider is called in two ways, the epochs taking turns so that both meet the same
//! machine, and each gets its figure:
//! - **called directly** (`McpToolProvider::invoke`, as any `ToolProvider` is called): the client
//!   against rmcp's client, the figure the ≤ 1.05× goal is set for;
//! - **through a registry** (`ToolRegistry::invoke`, as a host calls it): the same, plus the
//!   registry's own part (its routes, argument checks and timeout guard), which is the same for
//!   every provider and which the `invoke` bench of `toolhook-runtime` measures against a
//!   hand-written call.
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
use toolhook_runtime::mcp::{McpProtocol, McpServerEntry, McpServersConfig, McpToolProvider};
use toolhook_runtime::{ToolProvider, ToolRegistry};

const PLUGIN: &str = env!("CARGO_BIN_EXE_toolhook-example-isolated");

type Plain = RunningService<RoleClient, ClientConfig>;

/// One thread: the figure is the work of a call, not thread wake-ups.
struct Setup {
    rt: tokio::runtime::Runtime,
    plain: Plain,
    same_capabilities: Plain,
    registry: ToolRegistry,
    direct: McpToolProvider,
}

async fn plain_client(capabilities: Value) -> Plain {
    let mut command = tokio::process::Command::new(PLUGIN);
    command.stderr(std::process::Stdio::null());
    let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
    let handler = ClientConfig::new(capabilities, Implementation::new("plain", "1.0.0"));
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    handler.serve_with_lifecycle(TokioChildProcess::new(command).unwrap(), lifecycle).await.unwrap()
}

/// An `McpToolProvider` running the plugin, connected.
async fn provider() -> McpToolProvider {
    let entry = McpServerEntry::stdio(PLUGIN).protocol(McpProtocol::Stateless);
    let mcp = McpToolProvider::new(&McpServersConfig::new().server("plugin", entry));
    mcp.wait_connected(Duration::from_secs(30)).await;
    mcp
}

/// A registry whose one provider is an `McpToolProvider` running the plugin.
async fn provider_registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(provider().await);
    registry
}

/// The capabilities the provider declares, for the wire-identical rmcp client.
fn same_capabilities() -> Value {
    json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}, "experimental": {"toolhook/rules": {}}})
}

static SETUP: LazyLock<Setup> = LazyLock::new(|| {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (plain, same_capabilities, registry, direct) = rt.block_on(async {
        let plain = plain_client(json!({})).await;
        let same_capabilities = plain_client(same_capabilities()).await;
        (plain, same_capabilities, provider_registry().await, provider().await)
    });
    Setup { rt, plain, same_capabilities, registry, direct }
});

fn main() {
    // `TOOLHOOK_INTERLEAVED_ROUNDS=0` skips the interleaved run (to profile divan's benches alone).
    let rounds = std::env::var("TOOLHOOK_INTERLEAVED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(2000);
    if rounds > 0 {
        interleaved(EPOCHS, rounds);
    }
    LazyLock::force(&SETUP);
    divan::main();
}

/// Epochs of the interleaved run, each with fresh processes.
const EPOCHS: usize = 6;

/// Sides of the interleaved run: 0 and 3 the providers, 1 and 2 the rmcp clients.
const SIDES: usize = 4;

/// Every order of the four sides' calls, taken in turn by the rounds.
fn orders() -> Vec<[usize; SIDES]> {
    let mut orders = Vec::new();
    for first in 0..SIDES {
        for second in 0..SIDES {
            for third in 0..SIDES {
                let order = [first, second, third, 6 - first - second - third];
                let mut seen = [false; SIDES];
                if order.iter().all(|&side| side < SIDES && !std::mem::replace(&mut seen[side], true)) {
                    orders.push(order);
                }
            }
        }
    }
    orders
}

/// One side of the interleaved run.
enum Side {
    Registry(ToolRegistry),
    Direct(McpToolProvider),
    Rmcp(Plain),
}

impl Side {
    /// Times one call, in microseconds.
    fn call(&self, rt: &tokio::runtime::Runtime) -> f64 {
        let started = std::time::Instant::now();
        rt.block_on(async {
            match self {
                Side::Registry(registry) => {
                    let call = ToolInvocation::new("slow_echo", divan::black_box(ARGUMENTS));
                    let result = registry.invoke(divan::black_box(call), None).await;
                    assert_eq!(result.content, "hello");
                }
                Side::Direct(mcp) => {
                    let call = ToolInvocation::new("slow_echo", divan::black_box(ARGUMENTS));
                    let result = mcp.invoke(divan::black_box(call), None).await.expect("a result");
                    assert_eq!(result.content, "hello");
                }
                Side::Rmcp(client) => {
                    let call = CallToolRequestParams::new("slow_echo").with_arguments(arguments());
                    let result = client.peer().call_tool(divan::black_box(call)).await.unwrap();
                    assert_eq!(result.content[0].as_text().map(|t| t.text.as_str()), Some("hello"));
                }
            }
        });
        started.elapsed().as_secs_f64() * 1e6
    }

    async fn close(self) {
        match self {
            Side::Registry(registry) => drop(registry.close().await),
            Side::Direct(mcp) => drop(mcp.close().await),
            Side::Rmcp(client) => drop(client.cancel().await),
        }
    }
}

fn median(values: &[f64]) -> f64 {
    let mut values = values.to_vec();
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// One way of calling the provider, and what the interleaved run measured for it.
#[derive(Default)]
struct Mode {
    /// Per epoch: the median per-round ratio of the providers to rmcp.
    ours: Vec<f64>,
    /// Per epoch: the second rmcp client's median ratio to the first (same code on both sides).
    rmcp_aa: Vec<f64>,
    /// Per epoch: the second provider's median ratio to the first (same code on both sides).
    provider_aa: Vec<f64>,
    provider_times: Vec<f64>,
    rmcp_times: Vec<f64>,
}

impl Mode {
    fn report(&self, how: &str) {
        println!(
            "interleaved, {} epochs, the provider {how}: provider {:.1} µs, rmcp (same capabilities) {:.1} µs; \
             median of the epochs' median ratios: providers / rmcp {:.3}x; controls: rmcp / rmcp {:.3}x, \
             provider / provider {:.3}x",
            self.ours.len(),
            median(&self.provider_times),
            median(&self.rmcp_times),
            median(&self.ours),
            median(&self.rmcp_aa),
            median(&self.provider_aa)
        );
    }
}

/// Runs `epochs` epochs of `rounds` rounds for each way of calling the provider (see the crate
/// docs), the two ways taking turns epoch by epoch so that both meet the same machine, and
/// prints, per epoch and over all, the median per-round ratio of the providers to rmcp, and the
/// two same-code controls.
fn interleaved(epochs: usize, rounds: usize) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let orders = orders();
    let mut modes = [Mode::default(), Mode::default()];
    for epoch in 0..2 * epochs {
        let direct = epoch % 2 == 1;
        let mode = &mut modes[usize::from(direct)];
        let mut sides: [Option<Side>; SIDES] = [None, None, None, None];
        rt.block_on(async {
            for k in 0..SIDES {
                let side = (epoch / 2 + k) % SIDES;
                sides[side] = Some(match side {
                    0 | 3 if direct => Side::Direct(provider().await),
                    0 | 3 => Side::Registry(provider_registry().await),
                    _ => Side::Rmcp(plain_client(same_capabilities()).await),
                });
            }
        });
        let sides = sides.map(|s| s.expect("every side was started"));
        for round in 0..200 {
            sides[round % SIDES].call(&rt);
        }
        let (mut epoch_ours, mut epoch_rmcp_aa, mut epoch_provider_aa) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut took = [0.0; SIDES];
            for side in orders[round % orders.len()] {
                took[side] = sides[side].call(&rt);
            }
            epoch_ours.push((took[0] + took[3]) / (took[1] + took[2]));
            epoch_rmcp_aa.push(took[2] / took[1]);
            epoch_provider_aa.push(took[3] / took[0]);
            mode.provider_times.extend([took[0], took[3]]);
            mode.rmcp_times.extend([took[1], took[2]]);
        }
        let (o, r, p) = (median(&epoch_ours), median(&epoch_rmcp_aa), median(&epoch_provider_aa));
        let how = if direct { "called directly" } else { "through a registry" };
        println!(
            "epoch {epoch} ({how}): providers / rmcp {o:.3}x; controls: rmcp / rmcp {r:.3}x, provider / provider {p:.3}x"
        );
        mode.ours.push(o);
        mode.rmcp_aa.push(r);
        mode.provider_aa.push(p);
        rt.block_on(async {
            for side in sides {
                side.close().await;
            }
        });
    }
    modes[1].report("called directly (McpToolProvider::invoke)");
    modes[0].report("through a registry (ToolRegistry::invoke)");
}

/// The arguments every call starts from: the JSON text a model API hands over, which each side
/// parses (rmcp's client into the map it sends, the provider as the registry passes it on).
const ARGUMENTS: &str = r#"{"text": "hello", "delay_ms": 0}"#;

/// The arguments as rmcp's client takes them.
fn arguments() -> Map<String, Value> {
    serde_json::from_str(divan::black_box(ARGUMENTS)).expect("a JSON object")
}

fn bench_plain(b: Bencher<'_, '_>, client: &Plain) {
    b.bench_local(|| {
        SETUP.rt.block_on(async {
            let call = CallToolRequestParams::new("slow_echo").with_arguments(arguments());
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
            let result = registry
                .invoke(divan::black_box(ToolInvocation::new("slow_echo", divan::black_box(ARGUMENTS))), None)
                .await;
            assert_eq!(result.content, "hello");
        })
    });
}

#[divan::bench(sample_count = 5000)]
fn toolhook_provider_direct(b: Bencher<'_, '_>) {
    let Setup { rt, direct, .. } = &*SETUP;
    b.bench_local(|| {
        rt.block_on(async {
            let call = ToolInvocation::new("slow_echo", divan::black_box(ARGUMENTS));
            let result = direct.invoke(divan::black_box(call), None).await.expect("a result");
            assert_eq!(result.content, "hello");
        })
    });
}
