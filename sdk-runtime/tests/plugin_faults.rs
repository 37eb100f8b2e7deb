//! What a plugin can do to its host, and how the host survives it: a lifecycle hook that never
//! returns, a load dropped half-way, sync tools that never finish, and a config that does not
//! say `true` or `false`.
#![allow(missing_debug_implementations)]

use serde_json::json;
use std::time::Duration;
use toolhook::{PluginContext, ToolInvocation, plugin, tool};
use toolhook_runtime::{
    BlockingLimits, MemoryConfigSource, PluginHost, PluginSet, PluginState, RegistryConfig, ToolRegistry,
};

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[derive(Default)]
pub struct Hangs;

/// Never finishes loading.
#[plugin(id = "acme.hangs")]
impl Hangs {
    async fn on_load(&self, _ctx: &PluginContext) {
        std::future::pending::<()>().await;
    }

    /// Probe.
    #[tool]
    async fn hang_probe(&self) -> String {
        "unreachable".into()
    }
}

#[derive(Default)]
pub struct NeverUnloads;

/// Never finishes unloading.
#[plugin(id = "acme.never_unloads")]
impl NeverUnloads {
    async fn on_unload(&self) {
        std::future::pending::<()>().await;
    }

    /// Probe.
    #[tool]
    async fn unload_probe(&self) -> String {
        "here".into()
    }
}

#[derive(Default)]
pub struct Blocking;

/// Sync tools that block their thread.
#[plugin(id = "acme.blocking")]
impl Blocking {
    /// Blocks its thread for `ms` milliseconds.
    #[tool]
    fn stall(
        &self,
        /// How long to stall, in milliseconds.
        ms: u64,
    ) -> String {
        std::thread::sleep(Duration::from_millis(ms));
        "stalled".into()
    }

    /// Answers at once.
    #[tool]
    fn quick(&self) -> String {
        "quick".into()
    }
}

#[derive(Default)]
pub struct Switchable;

/// Loads unless switched off.
#[plugin(id = "acme.switchable")]
impl Switchable {
    /// Probe.
    #[tool]
    async fn switch_probe(&self) -> String {
        "on".into()
    }
}

fn host_of(ids: &[&str], registry: &ToolRegistry, timeout: Duration) -> PluginHost {
    PluginHost::builder().plugins(PluginSet::collect().only(ids)).registry(registry).lifecycle_timeout(timeout).build()
}

#[tokio::test(start_paused = true)]
async fn an_on_load_that_never_returns_fails_the_plugin_and_withdraws_its_tools() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = host_of(&["acme.hangs"], &registry, Duration::from_secs(5));
    let outcomes = host.load_all().await;
    assert_eq!(outcomes.outcomes()[0].state, PluginState::Failed);
    assert_eq!(outcomes.outcomes()[0].reason.as_deref(), Some("on_load did not finish within 5000 ms"));
    assert!(!registry.has_tool("hang_probe", None).await);
    host.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_load_dropped_half_way_leaves_the_plugin_failed_not_loading() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = host_of(&["acme.hangs"], &registry, Duration::from_secs(3600));
    let dropped = tokio::time::timeout(Duration::from_millis(10), host.load_all()).await;
    assert!(dropped.is_err());
    assert_eq!(host.state("acme.hangs"), Some(PluginState::Failed));
    assert!(host.reason("acme.hangs").unwrap().contains("cancelled"));
    assert!(!registry.has_tool("hang_probe", None).await, "a failed plugin's tools are withdrawn");
    host.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn shutdown_completes_although_an_on_unload_never_returns() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = host_of(&["acme.never_unloads"], &registry, Duration::from_secs(2));
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    let started = tokio::time::Instant::now();
    host.shutdown().await;
    assert_eq!(started.elapsed(), Duration::from_secs(2));
    assert_eq!(host.state("acme.never_unloads"), Some(PluginState::Unloaded));
    assert!(!registry.has_tool("unload_probe", None).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_sync_tool_takes_only_its_own_slots_and_is_reported() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::new(RegistryConfig::default().default_timeout(Some(Duration::from_millis(50))));
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["acme.blocking"]))
        .registry(&registry)
        .blocking_limits(BlockingLimits::default().per_tool(2).per_plugin(4))
        .build();
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);

    let stalls: Vec<_> = (0..20)
        .map(|_| {
            let registry = registry.clone();
            tokio::spawn(async move { registry.invoke(ToolInvocation::new("stall", json!({"ms": 400})), None).await })
        })
        .collect();
    for stall in stalls {
        let result = stall.await.unwrap();
        assert_eq!(result.error_message, "Tool stall failed: Timeout: no result within 50 ms");
    }
    // Only two calls got a thread; the other eighteen waited for a slot and timed out there.
    let stuck = host.stuck_calls();
    assert_eq!(stuck.len(), 2, "{stuck:?}");
    assert!(stuck.iter().all(|c| c.plugin_id == "acme.blocking" && c.tool == "stall"));
    // Another tool of the same plugin still runs at once.
    let quick = registry.invoke(ToolInvocation::new("quick", "{}"), None).await;
    assert_eq!(quick.content, "quick");
    // Once the stuck calls return, nothing is reported any more.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(host.stuck_calls().is_empty(), "{:?}", host.stuck_calls());
    host.shutdown().await;
}

#[tokio::test]
async fn plugin_enabled_must_be_a_boolean() {
    let _serial = SERIAL.lock().await;
    for (stored, shown) in
        [(json!("false"), r#"string "false""#), (json!("no"), r#"string "no""#), (json!(0), "integer 0")]
    {
        let registry = ToolRegistry::default();
        let source = MemoryConfigSource::new()
            .with("acme.switchable", json!({"plugin": {"config_version": "1.0.0", "enabled": stored.clone()}}));
        let host = PluginHost::builder()
            .plugins(PluginSet::collect().only(["acme.switchable"]))
            .registry(&registry)
            .config_source(source.clone())
            .build();
        let report = host.load_all().await;
        let outcome = &report.outcomes()[0];
        assert_eq!(outcome.state, PluginState::Failed, "{stored} must not enable the plugin");
        assert_eq!(
            outcome.reason.as_deref(),
            Some(format!("invalid plugin config at plugin.enabled: expected a boolean, got {shown}").as_str())
        );
        assert!(!registry.has_tool("switch_probe", None).await);
        // The stored document is left as it was.
        use toolhook_runtime::ConfigSource;
        assert_eq!(source.load("acme.switchable").unwrap().unwrap()["plugin"]["enabled"], stored);
        host.shutdown().await;
    }
}
