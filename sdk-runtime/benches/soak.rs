//! Soak run (not part of CI): a host under every fault at once, for a while.
//!
//! 1,000 tools, calls from 100,000 distinct sessions, a provider whose listing never returns, a
//! provider whose listing fails every other time and that announces changes every 50 ms, and a
//! storm of hook events at a slow observer. Prints calls/s, latency percentiles (of a uniform
//! sample) and the longest call, peak RSS, the resident set at each quarter of the run (it levels
//! off when every cache and queue is bounded) and the observer runs dropped.
//!
//! `cargo bench -p toolhook-runtime --bench soak -- [seconds]` (default 20).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use toolhook::hooks::{HookArgs, HookContext, HookMode};
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
};
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};
use toolhook_runtime::{BuiltinToolProvider, ContextParts, RegistryLink, Source, ToolProvider, ToolRegistry};

struct Many(Vec<ToolSpec>);

impl ToolProvider for Many {
    fn provider_name(&self) -> &str {
        "many"
    }
    fn provider_type(&self) -> &str {
        "plugin"
    }
    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::NONE
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        // A provider that builds its specs on every listing.
        let specs = self.0.iter().map(ToolSpec::clone).collect();
        Box::pin(async move { Ok(specs) })
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(async move { Ok(ToolExecutionResult::success(call.tool_name, "ok")) })
    }
}

struct Hung;

impl ToolProvider for Hung {
    fn provider_name(&self) -> &str {
        "hung"
    }
    fn provider_type(&self) -> &str {
        "mcp"
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        Box::pin(std::future::pending())
    }
    fn invoke<'a>(
        &'a self,
        _: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::pending())
    }
}

struct Flapping {
    attempts: AtomicU64,
    link: std::sync::OnceLock<RegistryLink>,
}

impl ToolProvider for Flapping {
    fn provider_name(&self) -> &str {
        "flapping"
    }
    fn provider_type(&self) -> &str {
        "mcp"
    }
    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::NONE
    }
    fn attach(&self, link: RegistryLink) {
        let _ = self.link.set(link);
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let attempt = self.attempts.fetch_add(1, Ordering::Relaxed);
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            if attempt.is_multiple_of(2) {
                Err(ToolError::transport("connection reset"))
            } else {
                Ok(vec![ToolSpec::builder("flapping_tool").build().unwrap()])
            }
        })
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(async move { Ok(ToolExecutionResult::success(call.tool_name, "ok")) })
    }
}

/// A line of `/proc/self/status` in MiB (`VmHWM:` the peak resident set, `VmRSS:` the current).
fn status_mib(key: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

fn peak_rss_mib() -> f64 {
    status_mib("VmHWM:")
}

/// The most latencies a worker keeps: a long run must not grow the soak's own memory, which
/// the RSS figures would count as the host's.
const KEPT_LATENCIES: usize = 1 << 16;

/// A uniform sample of a worker's latencies in bounded memory: every `stride`-th is kept, and
/// when the sample is full every other one is dropped and the stride doubles.
struct Sample {
    kept: Vec<Duration>,
    stride: u64,
    seen: u64,
    /// The longest of all, kept or not.
    longest: Duration,
}

impl Sample {
    fn new() -> Self {
        Sample { kept: Vec::with_capacity(KEPT_LATENCIES), stride: 1, seen: 0, longest: Duration::ZERO }
    }

    fn record(&mut self, latency: Duration) {
        self.longest = self.longest.max(latency);
        self.seen += 1;
        if !self.seen.is_multiple_of(self.stride) {
            return;
        }
        if self.kept.len() == KEPT_LATENCIES {
            let mut index = 0;
            self.kept.retain(|_| {
                index += 1;
                index % 2 == 0
            });
            self.stride *= 2;
        }
        self.kept.push(latency);
    }
}

fn main() {
    let seconds: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async move {
        let rss_start = peak_rss_mib();
        let registry = ToolRegistry::default();
        registry.register_provider(BuiltinToolProvider::new());
        let specs = (0..1_000).map(|i| ToolSpec::builder(format!("tool_{i}")).core_tool(true).build().unwrap());
        registry.register_provider(Many(specs.collect()));
        registry.register_provider(Hung);
        let flapping = Arc::new(Flapping { attempts: AtomicU64::new(0), link: Default::default() });
        registry.register_shared(flapping.clone());

        let specs = HookSpecRegistry::new();
        specs.register(HookSpec::new("soak.event")).unwrap();
        let dispatcher = HookDispatcher::builder().specs(specs).build();
        let slow = HookHandlerEntry::new("slow", "soak.event", |_: HookArgs, _: HookContext| async {
            tokio::time::sleep(Duration::from_millis(50)).await;
        })
        .mode(HookMode::Observe);
        dispatcher.register_plugin("soak", Source::ThirdParty, vec![slow]).unwrap();

        let deadline = Instant::now() + Duration::from_secs(seconds);
        let calls = Arc::new(AtomicU64::new(0));
        let failed = Arc::new(AtomicU64::new(0));
        let mut workers = Vec::new();
        for worker in 0..4u64 {
            let registry = registry.clone();
            let (calls, failed) = (calls.clone(), failed.clone());
            workers.push(tokio::spawn(async move {
                let mut latencies = Sample::new();
                let mut i = worker;
                while Instant::now() < deadline {
                    let ctx = ToolExecutionContext {
                        session_id: format!("session-{}", i % 100_000),
                        user_id: format!("user-{}", i % 10_000),
                        is_group_chat: Some(i.is_multiple_of(3)),
                        platform: "qq".into(),
                        ..Default::default()
                    };
                    let tool = if i % 10 == 0 { "flapping_tool".to_owned() } else { format!("tool_{}", i % 1_000) };
                    let started = Instant::now();
                    let result = registry.invoke(ToolInvocation::new(tool, r#"{"q": 1}"#), Some(&ctx)).await;
                    latencies.record(started.elapsed());
                    calls.fetch_add(1, Ordering::Relaxed);
                    if !result.success {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                    i += 4;
                    // A host's tasks await I/O between calls; this one would otherwise never yield.
                    if i % 256 == worker {
                        tokio::task::yield_now().await;
                    }
                }
                (latencies.kept, latencies.longest)
            }));
        }
        let storm = {
            let dispatcher = dispatcher.clone();
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < deadline {
                    let mut args = HookArgs::new();
                    args.insert("n", n);
                    args.insert("payload", "x".repeat(1024));
                    let _ = dispatcher.invoke("soak.event", args).await;
                    n += 1;
                    if n.is_multiple_of(100) {
                        tokio::task::yield_now().await;
                    }
                }
                n
            })
        };
        // Also reads the resident set at each quarter of the run: a host whose caches and
        // queues are bounded levels off.
        let announcer = {
            let flapping = flapping.clone();
            let started = Instant::now();
            tokio::spawn(async move {
                let mut quarters = Vec::new();
                while Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    if let Some(link) = flapping.link.get() {
                        link.notify();
                    }
                    if started.elapsed() >= Duration::from_secs(seconds) * (quarters.len() as u32 + 1) / 4 {
                        quarters.push(status_mib("VmRSS:"));
                    }
                }
                quarters
            })
        };
        let (mut latencies, mut longest) = (Vec::new(), Duration::ZERO);
        for worker in workers {
            let (kept, worker_longest) = worker.await.unwrap();
            latencies.extend(kept);
            longest = longest.max(worker_longest);
        }
        let events = storm.await.unwrap();
        let quarters = announcer.await.unwrap();
        latencies.sort();
        let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
        let total = calls.load(Ordering::Relaxed);
        println!("soak: {seconds} s, 1,000 tools, 100,000 sessions, a hung and a flapping provider, an observer storm");
        println!("calls: {total} ({:.0}/s), failed: {}", total as f64 / seconds as f64, failed.load(Ordering::Relaxed));
        println!("latency p50 {:?}, p99 {:?}, max {:?}", pct(0.50), pct(0.99), longest);
        println!("hook events: {events}, observer runs dropped: {}", dispatcher.dropped_observer_runs());
        println!("flapping provider listed {} times", flapping.attempts.load(Ordering::Relaxed));
        println!("peak RSS: {:.1} MiB (at start {rss_start:.1} MiB)", peak_rss_mib());
        let quarters: Vec<String> = quarters.iter().map(|mib| format!("{mib:.1}")).collect();
        println!("RSS at each quarter of the run: {} MiB", quarters.join(", "));
        dispatcher.shutdown().await;
    });
}
