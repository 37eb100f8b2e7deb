//! Load a plugin with typed config and lifecycle, update its config, call its tools, shut down.
//!
//! `cargo run -p toolhook-examples --example plugin_with_config`

use serde_json::json;
use toolhook::{ConfigScope, ToolExecutionContext, ToolInvocation};
use toolhook_runtime::{MemoryConfigSource, PluginHost, PluginSet, ToolRegistry};

// The reminders plugin lives in this package's library.
use toolhook_examples as _;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = ToolRegistry::default();
    let configs = MemoryConfigSource::new().with("examples.reminders", json!({"plugin": {"config_version": "1.0.0"}}));
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["examples.reminders"]))
        .registry(&registry)
        .config_source(configs.clone())
        .build();
    for outcome in host.load_all().await {
        println!("{} is {}", outcome.plugin_id, outcome.state);
    }
    println!("stored config: {}", host.context("examples.reminders").unwrap().config_value());

    let ctx = ToolExecutionContext { user_id: "ada".into(), ..Default::default() };
    for text in ["water the plants", "call Grace", "book the venue", "one too many"] {
        let result = registry.invoke(ToolInvocation::new("remember", json!({ "text": text })), Some(&ctx)).await;
        println!("remember {text:?} → {}", if result.success { &result.content } else { &result.error_message });
    }

    let update = json!({"plugin": {"config_version": "1.0.0"}, "max_per_user": 10, "confirmation": "Got it"});
    host.update_config("examples.reminders", ConfigScope::Own, update, "1.0.0").await.unwrap();
    let result = registry.invoke(ToolInvocation::new("remember", json!({"text": "one too many"})), Some(&ctx)).await;
    println!("after raising the limit → {}", result.content);
    let bad = json!({"plugin": {"config_version": "1.0.0"}, "max_per_user": "lots"});
    let refused = host.update_config("examples.reminders", ConfigScope::Own, bad, "1.0.0").await.unwrap_err();
    println!("a bad config is refused: {refused}");

    println!("{}", registry.invoke(ToolInvocation::new("reminders", "{}"), Some(&ctx)).await.content);
    host.shutdown().await;
    println!("after shutdown: {:?}", host.state("examples.reminders"));
}
