//! `#[plugin]` generates `plugin_context()` and `config()`: a plugin reaches its context and
//! typed config without storing them itself.

use serde_json::json;
use toolhook::{ConfigScope, ToolInvocation, plugin, schemars, serde, tool};
use toolhook_runtime::{MemoryConfigSource, PluginHost, PluginSet, ToolRegistry};

/// How to greet.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct GreeterConfig {
    /// The greeting.
    pub greeting: String,
}

impl Default for GreeterConfig {
    fn default() -> Self {
        GreeterConfig { greeting: "Hello".into() }
    }
}

/// Greets people.
#[derive(Debug, Default)]
pub struct Greeter;

#[plugin(id = "acme.greeter", config = GreeterConfig)]
impl Greeter {
    /// Greet someone.
    #[tool]
    async fn greet(
        &self,
        /// Whom to greet.
        name: String,
    ) -> String {
        format!("{}, {name} (from {})", self.config().greeting, self.plugin_context().plugin_id())
    }
}

#[tokio::test]
async fn plugin_methods_reach_their_context_and_current_config() {
    let registry = ToolRegistry::default();
    let source = MemoryConfigSource::new().with("acme.greeter", json!({"greeting": "Hi"}));
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["acme.greeter"]))
        .registry(&registry)
        .config_source(source)
        .build();
    assert!(host.load_all().await.is_clean());
    let greet = |name: &str| registry.invoke(ToolInvocation::new("greet", json!({"name": name})), None);
    assert_eq!(greet("Ann").await.content, "Hi, Ann (from acme.greeter)");
    host.update_config("acme.greeter", ConfigScope::Own, json!({"greeting": "Hey"}), "1.0.0").await.unwrap();
    assert_eq!(greet("Bo").await.content, "Hey, Bo (from acme.greeter)");
    host.shutdown().await;
    // Outside a host, the defaults.
    assert_eq!(Greeter.config().greeting, "Hello");
}
