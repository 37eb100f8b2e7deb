//! The reminders example plugin as a host runs it: typed config from the host's store, state
//! shared by its tools, and a config update that takes effect at once.

use serde_json::json;
use toolhook::{ConfigScope, ToolExecutionContext, ToolInvocation};
use toolhook_examples as _;
use toolhook_runtime::{MemoryConfigSource, PluginHost, PluginSet, PluginState, ToolRegistry};

fn ctx() -> ToolExecutionContext {
    ToolExecutionContext { user_id: "user-1".into(), ..Default::default() }
}

async fn call(registry: &ToolRegistry, tool: &str, arguments: serde_json::Value) -> String {
    let result = registry.invoke(ToolInvocation::new(tool, arguments), Some(&ctx())).await;
    result.history_content(toolhook::Locale::En)
}

/// A host running only the reminders plugin, its stored config allowing `max_per_user`.
async fn host(max_per_user: usize) -> (PluginHost, ToolRegistry) {
    let registry = ToolRegistry::default();
    let source = MemoryConfigSource::new()
        .with("examples.reminders", json!({"plugin": {"config_version": "1.0.0"}, "max_per_user": max_per_user}));
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["examples.reminders"]))
        .registry(&registry)
        .config_source(source)
        .build();
    // Each test looks at the plugin's state itself: some configs are meant to fail.
    let _report = host.load_all().await;
    (host, registry)
}

#[tokio::test]
async fn lowering_max_per_user_drops_the_oldest_reminders() {
    let (host, registry) = host(3).await;
    assert_eq!(host.state("examples.reminders"), Some(PluginState::Loaded));

    for what in ["milk", "bread", "eggs"] {
        assert_eq!(call(&registry, "remember", json!({"text": what})).await, format!("Noted: {what}"));
    }
    assert!(call(&registry, "remember", json!({"text": "tea"})).await.contains("already have 3 reminders"));

    let lower = json!({"plugin": {"config_version": "1.0.0"}, "max_per_user": 1, "confirmation": "OK"});
    host.update_config("examples.reminders", ConfigScope::Own, lower, "1.0.0").await.unwrap();
    assert_eq!(call(&registry, "reminders", json!({})).await, "- eggs");
    assert!(call(&registry, "remember", json!({"text": "tea"})).await.contains("already have 1 reminders"));
}

#[tokio::test]
async fn a_config_that_fails_on_load_keeps_the_tools_out() {
    let (host, registry) = host(0).await;
    assert_eq!(host.state("examples.reminders"), Some(PluginState::Failed));
    assert_eq!(host.reason("examples.reminders").as_deref(), Some("max_per_user must be at least 1"));
    assert!(!registry.has_tool("remember", None).await);
}
