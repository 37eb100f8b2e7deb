//! What providers list (and in which locale), and what `tool_search` searches, with and without a
//! context.

use toolhook::{
    BoxFuture, Dialect, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec, Visibility, tool,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, ChatScopeFilter, ContextParts, PluginToolProvider, ToolProvider, ToolRegistry,
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
    result.structured_content().cloned().unwrap()["matched_tool_names"].clone()
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

/// A provider that records the locale of every context it is listed for, and writes its tool's
/// brief in it.
struct LocaleRecorder {
    seen: std::sync::Arc<std::sync::Mutex<Vec<Locale>>>,
    depends_on: ContextParts,
}

impl ToolProvider for LocaleRecorder {
    fn provider_name(&self) -> &str {
        "recorder"
    }

    fn provider_type(&self) -> &str {
        "test"
    }

    fn listing_depends_on(&self) -> ContextParts {
        self.depends_on
    }

    fn list_tools<'a>(
        &'a self,
        ctx: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let locale = ctx.map_or(Locale::En, |c| c.locale);
        self.seen.lock().unwrap().push(locale);
        let spec = ToolSpec::builder("noted").brief_description(format!("Noted in {locale}")).build().unwrap();
        Box::pin(std::future::ready(Ok(vec![spec])))
    }

    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, ""))))
    }
}

#[tokio::test]
async fn definitions_in_another_locale_list_providers_in_it() {
    // A provider whose listing reads the whole context, and one whose listing reads none of it
    // (cached in fewer places): each is listed once per locale, and neither locale's listing
    // stands in for the other's.
    for depends_on in [ContextParts::ALL, ContextParts::NONE] {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let registry = ToolRegistry::default();
        registry.register_provider(LocaleRecorder { seen: seen.clone(), depends_on });
        let ctx = ToolAvailabilityContext::default();
        let description = |definitions: Vec<serde_json::Value>| definitions[0]["function"]["description"].clone();
        let zh = registry.get_llm_definitions_in(Some(&ctx), Dialect::OpenAiChat, Locale::ZhHans).await;
        assert_eq!(description(zh), "Noted in zh-Hans", "{depends_on:?}");
        let en = registry.get_llm_definitions(Some(&ctx), Dialect::OpenAiChat).await;
        assert_eq!(description(en), "Noted in en", "{depends_on:?}");
        registry.llm_definitions_json_in(Some(&ctx), Dialect::OpenAiChat, Locale::ZhHans).await;
        assert_eq!(*seen.lock().unwrap(), [Locale::ZhHans, Locale::En], "{depends_on:?}");
    }
}
