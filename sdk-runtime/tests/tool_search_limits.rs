//! `tool_search` stays cheap whatever the model sends: the query is bounded in length and in
//! terms, and a refused query says what to send instead; within the bounds it scores as any
//! query does.

use toolhook::{Locale, ToolExecutionContext, ToolInvocation, ToolSpec, Visibility};
use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, RegistryConfig, ToolRegistry};

#[path = "common/logs.rs"]
mod logs;
use logs::logged;

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
async fn a_query_of_repeated_terms_is_searched_once_per_distinct_term() {
    let registry = registry(Locale::En);
    // 249 characters, two distinct terms: accepted, each term searched for once.
    let query = "web pages ".repeat(25);
    let query = query.trim();
    assert!(query.chars().count() <= 256);
    let result = search(&registry, query).await;
    assert!(result.success, "{result:?}");
    let matched = result.structured_content().cloned().unwrap()["matched_tool_names"].clone();
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

/// The names `tool_search` matched for `arguments`.
async fn matched(registry: &ToolRegistry, arguments: toolhook::serde_json::Value) -> Vec<String> {
    let call = ToolInvocation::new("tool_search", arguments);
    let result = registry.invoke(call, Some(&ToolExecutionContext::for_session("s"))).await;
    let names = result.structured_content().cloned().map(|s| s["matched_tool_names"].clone()).unwrap_or_default();
    toolhook::serde_json::from_value(names).unwrap_or_default()
}

#[tokio::test]
async fn a_long_description_is_searched_to_its_end() {
    let long = format!("{} needle", "word ".repeat(1_200));
    let spec = ToolSpec::builder("haystack").brief_description(long).visibility(Visibility::Deferred).build().unwrap();
    let tool =
        BuiltinTool::new(spec, |call, _| async move { Ok(toolhook::ToolExecutionResult::success(call.tool_name, "")) })
            .visibility(Visibility::Deferred);
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new().with_tool(tool));
    assert_eq!(matched(&registry, toolhook::serde_json::json!({"query": "needle"})).await, ["haystack"]);
}

#[tokio::test]
async fn a_limit_too_large_for_an_integer_still_means_every_match() {
    let registry = registry(Locale::En);
    let query = "thing number 7";
    let every = matched(&registry, toolhook::serde_json::json!({"query": query, "limit": 1_000_000})).await;
    assert!(every.len() > 5, "{} matches", every.len());
    for limit in ["99999999999999999999", " +99999999999999999999 "] {
        let args = toolhook::serde_json::json!({"query": query, "limit": limit});
        assert_eq!(matched(&registry, args).await, every, "limit {limit:?}");
    }
    let args = toolhook::serde_json::json!({"query": query, "limit": "-99999999999999999999"});
    assert_eq!(matched(&registry, args).await.len(), 1, "at least one");
    for not_a_number in ["1e3", "12abc", "", "+", "--5"] {
        let args = toolhook::serde_json::json!({"query": query, "limit": not_a_number});
        assert_eq!(matched(&registry, args).await.len(), 5, "{not_a_number:?} is the default");
    }
}

/// A deferred tool whose brief is `description`.
fn deferred(name: &str, description: String) -> BuiltinTool {
    let spec = ToolSpec::builder(name).brief_description(description).visibility(Visibility::Deferred).build().unwrap();
    BuiltinTool::new(spec, |call, _| async move { Ok(toolhook::ToolExecutionResult::success(call.tool_name, "")) })
        .visibility(Visibility::Deferred)
}

#[tokio::test]
async fn every_occurrence_of_a_repeated_term_scores() {
    // `kiwi` three times: 3 × 10 for `alpha_tool`'s description, more than the 25 of `mango`
    // in `mango_tool`'s name. Scored once per distinct term, `mango_tool` would come first.
    let provider = BuiltinToolProvider::new()
        .with_tool(deferred("mango_tool", "Ripe fruit.".to_owned()))
        .with_tool(deferred("alpha_tool", "About kiwi.".to_owned()));
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let query = toolhook::serde_json::json!({"query": "kiwi  KIWI kiwi mango"});
    assert_eq!(matched(&registry, query).await, ["alpha_tool", "mango_tool"]);
    let once = toolhook::serde_json::json!({"query": "kiwi mango"});
    assert_eq!(matched(&registry, once).await, ["mango_tool", "alpha_tool"]);
}

#[tokio::test]
async fn a_query_is_found_across_the_pieces_a_long_description_is_read_in() {
    // `b_tool` has the whole query, across the cut after the first 64 KiB; `a_tool` only its
    // words, far apart. The whole query scores more, so `b_tool` comes first.
    let filler = "w ".repeat(32_760);
    let straddling = format!("{filler}alpha beta{}", " w".repeat(40_000));
    let apart = format!("alpha {filler}{filler} beta");
    let provider =
        BuiltinToolProvider::new().with_tool(deferred("a_tool", apart)).with_tool(deferred("b_tool", straddling));
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    assert_eq!(matched(&registry, toolhook::serde_json::json!({"query": "alpha beta"})).await, ["b_tool", "a_tool"]);
}

/// A search through a huge description hands the thread back as it goes: the timeout ends it as
/// a call that waited, not as one that blocked its thread past the limit.
#[tokio::test]
async fn a_huge_description_does_not_hold_the_search_past_its_timeout() {
    let registry =
        ToolRegistry::new(RegistryConfig::default().default_timeout(Some(std::time::Duration::from_millis(50))));
    registry.register_provider(BuiltinToolProvider::new().with_tool(deferred("huge", "word ".repeat(8_000_000))));
    let query = "a b c d e f g h i j k l m n o p";
    let call = ToolInvocation::new("tool_search", toolhook::serde_json::json!({"query": query}));
    let ctx = ToolExecutionContext::for_session("s");
    let (result, log) = logged(registry.invoke(call, Some(&ctx))).await;
    assert_eq!(result.error_message, "Tool tool_search failed: Timeout: no result within 50 ms");
    assert!(!log.contains("blocked its executor thread"), "{log}");
}
