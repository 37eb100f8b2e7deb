//! What providers list, and what `tool_search` searches, with and without a context.

use toolhook::{ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec, Visibility, tool};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, ChatScopeFilter, PluginToolProvider, ToolProvider, ToolRegistry,
};

/// Sends a reply the host decides on: hidden from models.
#[tool(visibility = "hidden")]
fn internal_reply(
    /// The text.
    text: String,
) -> String {
    text
}

/// Says hello.
#[tool(core_tool = true)]
fn hello() -> String {
    "hello".to_owned()
}

#[tokio::test]
async fn the_plugin_provider_does_not_list_hidden_tools() {
    let provider = PluginToolProvider::from_declared();
    let names: Vec<String> =
        provider.list_tools(None).await.unwrap().iter().map(|spec| spec.name().to_owned()).collect();
    assert!(names.contains(&"hello".to_owned()), "{names:?}");
    assert!(!names.contains(&"internal_reply".to_owned()), "{names:?}");
}

/// A registry whose built-in provider has a deferred tool for group chats only.
fn registry_with_a_group_tool() -> ToolRegistry {
    let spec = ToolSpec::builder("group_poll")
        .brief_description("Start a poll in the group")
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let poll = BuiltinTool::new(spec, |call, _| async move { Ok(ToolExecutionResult::success(call.tool_name, "")) })
        .visibility(Visibility::Deferred)
        .chat_scope(ChatScopeFilter::Group);
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new().with_tool(poll));
    registry
}

async fn matched(registry: &ToolRegistry, ctx: Option<&ToolExecutionContext>) -> serde_json::Value {
    let call = ToolInvocation::new("tool_search", r#"{"query": "poll"}"#);
    let result = registry.invoke(call, ctx).await;
    assert!(result.success, "{result:?}");
    result.structured_content.unwrap()["matched_tool_names"].clone()
}

#[tokio::test]
async fn tool_search_without_a_context_searches_every_deferred_tool() {
    let registry = registry_with_a_group_tool();
    // Without a context, a listing has no chat to filter by, and neither has the search.
    assert_eq!(matched(&registry, None).await, serde_json::json!(["group_poll"]));
    // In a private chat, the group tool is not in the pool.
    let private = ToolExecutionContext { is_group_chat: Some(false), ..ToolExecutionContext::for_session("s1") };
    assert_eq!(matched(&registry, Some(&private)).await, serde_json::json!([]));
}
