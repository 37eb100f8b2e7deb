//! The demo's host: a registry with `tool_search`, a hook dispatcher, and every example plugin
//! loaded, as the demo binary and the tests build it.

use serde_json::json;
use toolhook::{Locale, ToolExecutionContext};
use toolhook_runtime::hooks::{HookDispatcher, HookSpecRegistry};
use toolhook_runtime::mcp::{McpServer, McpServerError};
use toolhook_runtime::{
    BuiltinToolProvider, DeferredTools, HostClassification, LoadReport, MemoryConfigSource, PluginHost, RegistryConfig,
    ToolRegistry,
};

/// Everything the demo host holds.
#[derive(Debug)]
pub struct DemoHost {
    /// The registry every tool is served from.
    pub registry: ToolRegistry,
    /// The discovery state of deferred tools.
    pub deferred: DeferredTools,
    /// The hook dispatcher the plugins' handlers joined.
    pub dispatcher: HookDispatcher,
    /// The plugin host.
    pub host: PluginHost,
    /// The chat the demo plays in.
    pub context: ToolExecutionContext,
    /// How each plugin loaded.
    pub outcomes: LoadReport,
}

impl DemoHost {
    /// Which example plugins count as built-in.
    pub fn classification() -> HostClassification {
        HostClassification::default().builtin(["examples.routing"])
    }

    /// Builds the host and loads every example plugin.
    pub async fn load(locale: Locale) -> DemoHost {
        let builtin = BuiltinToolProvider::new().locale(locale);
        let deferred = builtin.deferred().clone();
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        registry.register_provider(builtin);
        let dispatcher =
            HookDispatcher::builder().specs(HookSpecRegistry::with_builtin_catalogue_in(locale)).locale(locale).build();
        let configs = MemoryConfigSource::new()
            .with("examples.reminders", json!({"plugin": {"config_version": "1.0.0"}, "max_per_user": 2}));
        let host = PluginHost::builder()
            .registry(&registry)
            .dispatcher(&dispatcher)
            .config_source(configs)
            .classification(Self::classification())
            .build();
        let outcomes = host.load_all().await;
        let context = ToolExecutionContext {
            session_id: "demo-session".into(),
            stream_id: "demo-stream".into(),
            group_id: "group-7".into(),
            user_id: "user-42".into(),
            platform: "qq".into(),
            is_group_chat: Some(true),
            locale,
            ..Default::default()
        };
        DemoHost { registry, deferred, dispatcher, host, context, outcomes }
    }

    /// The MCP server of the demo: its registry, for a group chat on `qq`, deferred tools listed
    /// once `tool_search` found them.
    pub fn mcp_server(&self) -> Result<McpServer, McpServerError> {
        let context = ToolExecutionContext { session_id: "mcp".into(), ..self.context.clone() };
        McpServer::builder(&self.registry).name("toolhook-demo").context(context).deferred(&self.deferred).build()
    }
}
