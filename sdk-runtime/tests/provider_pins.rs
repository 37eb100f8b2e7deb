//! What a provider learns about a call: for MCP servers' tools, the server its tool was listed
//! from, never one the caller names; for every provider, the caller's context in the
//! registry's locale.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use toolhook::{
    BoxFuture, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec,
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
        self.received.lock().unwrap().push(call.metadata().clone());
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
async fn a_tool_listed_without_a_server_gets_the_callers_metadata_as_it_is() {
    let call = ToolInvocation::new("search", "{}").with_metadata("mcp_server_name", "mirror").with_metadata("trace", 7);
    let metadata = received_by(None, call).await;
    assert_eq!(metadata.get("mcp_server_name"), Some(&json!("mirror")));
    assert_eq!(metadata.get("trace"), Some(&json!(7)));
    let plain = received_by(None, ToolInvocation::new("search", "{}")).await;
    assert_eq!(plain.get("mcp_server_name"), None, "nothing is made up");
}

/// The locale and session of a context a provider received (`None`: no context).
type Received = Option<(Locale, String)>;

/// A provider that records the context of every call it receives.
struct Recorder {
    contexts: Arc<Mutex<Vec<Received>>>,
}

impl ToolProvider for Recorder {
    fn provider_name(&self) -> &str {
        "recorder"
    }
    fn provider_type(&self) -> &str {
        "builtin"
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let spec = ToolSpec::builder("note").description("Take a note.").core_tool(true).build().unwrap();
        Box::pin(std::future::ready(Ok(vec![spec])))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        self.contexts.lock().unwrap().push(ctx.map(|c| (c.locale, c.session_id.clone())));
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "noted"))))
    }
}

#[tokio::test]
async fn a_provider_gets_the_callers_context_in_the_registrys_locale() {
    let contexts = Arc::new(Mutex::new(Vec::new()));
    let registry = ToolRegistry::default();
    registry.register_provider(Recorder { contexts: contexts.clone() });
    assert_eq!(registry.locale(), Locale::En);
    let in_chinese = ToolExecutionContext { locale: Locale::ZhHans, session_id: "s1".into(), ..Default::default() };
    let in_english = ToolExecutionContext { locale: Locale::En, session_id: "s2".into(), ..Default::default() };
    for ctx in [Some(&in_chinese), Some(&in_english), None] {
        let result = registry.invoke(ToolInvocation::new("note", "{}"), ctx).await;
        assert!(result.success, "{}", result.error_message);
    }
    // A call the registry refuses never reaches the provider, whatever its context.
    let refused = registry.invoke(ToolInvocation::new("missing", "{}"), Some(&in_chinese)).await;
    assert!(!refused.success);
    let expected = [Some((Locale::En, "s1".to_owned())), Some((Locale::En, "s2".to_owned())), None];
    assert_eq!(*contexts.lock().unwrap(), expected);
}
