//! `tool_search` stays cheap whatever the model sends: the query is bounded in length and in
//! terms, and a refused query says what to send instead.

use toolhook::{Locale, ToolExecutionContext, ToolInvocation, ToolSpec, Visibility};
use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, RegistryConfig, ToolRegistry};

fn registry(locale: Locale) -> ToolRegistry {
    let mut builtin = BuiltinToolProvider::new();
    for i in 0..1_000 {
        let spec = ToolSpec::builder(format!("deferred_tool_{i}"))
            .brief_description(format!("Does thing number {i} with web pages"))
            .visibility(Visibility::Deferred)
            .build()
            .unwrap();
        builtin = builtin.with_tool(
            BuiltinTool::new(
                spec,
                |call, _| async move { Ok(toolhook::ToolExecutionResult::success(call.tool_name, "")) },
            )
            .visibility(Visibility::Deferred),
        );
    }
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(builtin);
    registry
}

async fn search(registry: &ToolRegistry, query: &str) -> toolhook::ToolExecutionResult {
    let args = toolhook::serde_json::json!({"query": query, "limit": 3});
    registry.invoke(ToolInvocation::new("tool_search", args), Some(&ToolExecutionContext::for_session("s"))).await
}

#[tokio::test]
async fn an_overlong_query_is_refused_with_a_hint() {
    let registry = registry(Locale::En);
    let result = search(&registry, &"web ".repeat(131_072)).await;
    assert!(!result.success);
    assert_eq!(
        result.error_message,
        "tool_search query is too long (524287 characters); search with a tool name, a prefix or a few keywords, at most 256 characters."
    );
    let zh = registry_zh_error().await;
    assert_eq!(zh, "tool_search 的查询过长（300 个字符），请用工具名、前缀或几个关键词搜索，不超过 256 个字符。");
}

async fn registry_zh_error() -> String {
    search(&registry(Locale::ZhHans), &"x".repeat(300)).await.error_message
}

#[tokio::test]
async fn a_query_of_repeated_terms_is_scored_once_per_distinct_term() {
    let registry = registry(Locale::En);
    // 249 characters, two distinct terms: accepted, and scored as two terms.
    let query = "web pages ".repeat(25);
    let query = query.trim();
    assert!(query.chars().count() <= 256);
    let result = search(&registry, query).await;
    assert!(result.success, "{result:?}");
    let matched = result.structured_content.unwrap()["matched_tool_names"].clone();
    assert_eq!(matched.as_array().unwrap().len(), 3);
    // Whitespace runs count as one character, as the query is read.
    let spaced = format!("web{}pages", " ".repeat(10_000));
    assert!(search(&registry, &spaced).await.success);
}

#[test]
fn discovery_state_is_kept_for_a_bounded_number_of_sessions() {
    let deferred = toolhook_runtime::DeferredTools::with_session_capacity(100);
    for i in 0..10_000 {
        deferred.discover(&format!("session-{i}"), ["web_fetch"]);
    }
    let kept = (0..10_000).filter(|i| !deferred.discovered(&format!("session-{i}")).is_empty()).count();
    assert!(kept <= 200, "{kept} sessions kept");
    assert!(deferred.discovered("session-9999").contains("web_fetch"), "the newest session is kept");
}
