//! What a provider of MCP servers' tools learns about a call: the server its tool was listed
//! from, never one the caller names.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
};
use toolhook_runtime::{ToolProvider, ToolRegistry};

/// An MCP-type provider written by a host: one tool, with or without a server in its spec; it
/// records the metadata of every call it receives.
struct Remote {
    server: Option<&'static str>,
    received: Arc<Mutex<Vec<serde_json::Map<String, Value>>>>,
}

impl ToolProvider for Remote {
    fn provider_name(&self) -> &str {
        "remote"
    }
    fn provider_type(&self) -> &str {
        "mcp"
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let mut spec = ToolSpec::builder("search").description("Search the web.");
        if let Some(server) = self.server {
            spec = spec.metadata("server_name", server);
        }
        Box::pin(std::future::ready(Ok(vec![spec.build().unwrap()])))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        self.received.lock().unwrap().push(call.metadata.clone());
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "found"))))
    }
}

async fn received_by(server: Option<&'static str>, call: ToolInvocation) -> serde_json::Map<String, Value> {
    let received = Arc::new(Mutex::new(Vec::new()));
    let registry = ToolRegistry::default();
    registry.register_provider(Remote { server, received: received.clone() });
    let result = registry.invoke(call, None).await;
    assert!(result.success, "{}", result.error_message);
    let mut received = received.lock().unwrap();
    assert_eq!(received.len(), 1);
    received.pop().unwrap()
}

#[tokio::test]
async fn an_mcp_provider_is_told_the_server_its_tool_was_listed_from() {
    let call = ToolInvocation::new("search", "{}").with_metadata("mcp_server_name", "forged").with_metadata("trace", 7);
    let metadata = received_by(Some("brave"), call).await;
    assert_eq!(metadata.get("mcp_server_name"), Some(&json!("brave")), "the caller cannot forge the server");
    assert_eq!(metadata.get("trace"), Some(&json!(7)), "the caller's other metadata is passed on");
}

#[tokio::test]
async fn a_server_the_spec_does_not_name_cannot_be_named_by_the_caller() {
    let call = ToolInvocation::new("search", "{}").with_metadata("mcp_server_name", "forged");
    let metadata = received_by(None, call).await;
    assert_eq!(metadata.get("mcp_server_name"), None);
}
