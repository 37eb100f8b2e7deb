//! What a provider or a model can do to a registry, and how the registry survives it: many
//! sessions, hung, slow and failing listings, panics while dropping, missing timers, blocking
//! handlers, deep values, and names no model API accepts.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
};
use toolhook_runtime::{
    BuiltinToolProvider, ContextParts, MAX_ARGUMENT_DEPTH, PluginToolProvider, RegistryConfig, ToolProvider,
    ToolRegistry,
};

#[path = "common/logs.rs"]
mod logs;
use logs::logged;

/// How a test provider lists.
#[derive(Clone)]
enum Listing {
    Now,
    Never,
    After(Duration),
    Fails,
}

/// How a test provider answers a call.
#[derive(Clone)]
enum Answer {
    Now,
    Never,
    NeverAndPanicOnDrop,
    Blocks(Duration),
}

struct Faulty {
    name: &'static str,
    tools: Vec<String>,
    listing: Listing,
    answer: Answer,
    parts: ContextParts,
    listings: Arc<AtomicUsize>,
}

impl Faulty {
    fn new(name: &'static str, tools: &[&str]) -> Self {
        Faulty {
            name,
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            listing: Listing::Now,
            answer: Answer::Now,
            parts: ContextParts::NONE,
            listings: Arc::default(),
        }
    }
    fn listing(mut self, listing: Listing) -> Self {
        self.listing = listing;
        self
    }
    fn answer(mut self, answer: Answer) -> Self {
        self.answer = answer;
        self
    }
    fn parts(mut self, parts: ContextParts) -> Self {
        self.parts = parts;
        self
    }
    fn counter(&self) -> Arc<AtomicUsize> {
        self.listings.clone()
    }
}

struct PanicsOnDrop;
impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("dropped while pending");
    }
}

impl ToolProvider for Faulty {
    fn provider_name(&self) -> &str {
        self.name
    }
    fn provider_type(&self) -> &str {
        "test"
    }
    fn listing_depends_on(&self) -> ContextParts {
        self.parts
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        self.listings.fetch_add(1, Ordering::SeqCst);
        let specs: Vec<ToolSpec> = self.tools.iter().map(|t| ToolSpec::builder(t.clone()).build().unwrap()).collect();
        let listing = self.listing.clone();
        Box::pin(async move {
            match listing {
                Listing::Now => Ok(specs),
                Listing::Never => std::future::pending().await,
                Listing::After(delay) => {
                    tokio::time::sleep(delay).await;
                    Ok(specs)
                }
                Listing::Fails => Err(ToolError::transport("connection refused")),
            }
        })
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        let answer = self.answer.clone();
        Box::pin(async move {
            match answer {
                Answer::Now => {}
                Answer::Never => std::future::pending().await,
                Answer::NeverAndPanicOnDrop => {
                    let _bomb = PanicsOnDrop;
                    std::future::pending::<()>().await;
                }
                Answer::Blocks(block) => std::thread::sleep(block),
            }
            Ok(ToolExecutionResult::success(call.tool_name, "ok"))
        })
    }
}

fn session(i: usize) -> ToolExecutionContext {
    ToolExecutionContext {
        session_id: format!("session-{i}"),
        user_id: format!("user-{i}"),
        group_id: format!("group-{}", i % 7),
        platform: "qq".into(),
        is_group_chat: Some(i.is_multiple_of(2)),
        ..Default::default()
    }
}

#[tokio::test]
async fn listings_are_shared_across_sessions_users_and_groups() {
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new());
    let names: Vec<String> = (0..200).map(|i| format!("tool_{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let plugin = Faulty::new("many", &refs);
    let listed = plugin.counter();
    registry.register_provider(plugin);

    for i in 0..2_000 {
        let result = registry.invoke(ToolInvocation::new("tool_7", "{}"), Some(&session(i))).await;
        assert!(result.success, "{result:?}");
    }
    // A provider that lists the same for everyone is listed once, whatever the number of
    // sessions; the built-in provider's listing depends on the chat kind only.
    assert_eq!(listed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_provider_that_lists_per_session_is_cached_within_a_bound() {
    let registry = ToolRegistry::new(RegistryConfig::default().listing_cache_capacity(16));
    let per_session = Faulty::new("per-session", &["mine"]).parts(ContextParts::SESSION);
    let listed = per_session.counter();
    registry.register_provider(per_session);

    for i in 0..500 {
        assert!(registry.invoke(ToolInvocation::new("mine", "{}"), Some(&session(i))).await.success);
    }
    assert_eq!(listed.load(Ordering::SeqCst), 500);
    // The newest session is served from the cache ...
    assert!(registry.invoke(ToolInvocation::new("mine", "{}"), Some(&session(499))).await.success);
    assert_eq!(listed.load(Ordering::SeqCst), 500);
    // ... and most earlier ones were evicted: the cache holds about 16 contexts, not 500.
    for i in 0..100 {
        assert!(registry.invoke(ToolInvocation::new("mine", "{}"), Some(&session(i))).await.success);
    }
    let relisted = listed.load(Ordering::SeqCst) - 500;
    assert!(relisted >= 60, "only {relisted} of 100 old sessions were listed again");
}

#[tokio::test(start_paused = true)]
async fn a_hung_listing_never_stops_the_other_providers() {
    let registry = ToolRegistry::new(RegistryConfig::default().listing_timeout(Duration::from_millis(200)));
    registry.register_provider(Faulty::new("hung", &["hung_tool"]).listing(Listing::Never));
    registry.register_provider(Faulty::new("fine", &["fine_tool"]));

    let started = tokio::time::Instant::now();
    let names: Vec<String> = registry.list_tools(None).await.iter().map(|s| s.name().to_owned()).collect();
    assert_eq!(names, ["fine_tool"]);
    assert!(started.elapsed() <= Duration::from_millis(250), "the first listing waited {:?}", started.elapsed());

    // Once the hung listing has timed out, nobody waits for it again.
    let started = tokio::time::Instant::now();
    for _ in 0..10 {
        assert!(registry.invoke(ToolInvocation::new("fine_tool", "{}"), None).await.success);
        assert_eq!(registry.list_tools(None).await.len(), 1);
    }
    assert_eq!(started.elapsed(), Duration::ZERO);
    let missing = registry.invoke(ToolInvocation::new("hung_tool", "{}"), None).await;
    assert_eq!(missing.error_message, "Tool not found: hung_tool");
}

#[tokio::test(start_paused = true)]
async fn a_hung_provider_that_lists_per_session_gathers_no_backlog() {
    let registry = ToolRegistry::default();
    registry.register_provider(Faulty::new("fine", &["fine_tool"]));
    let hung = Faulty::new("hung", &["hung_tool"]).listing(Listing::Never).parts(ContextParts::SESSION);
    let attempts = hung.counter();
    registry.register_provider(hung);
    let started = tokio::time::Instant::now();
    for i in 0..1_000 {
        assert!(registry.invoke(ToolInvocation::new("fine_tool", "{}"), Some(&session(i))).await.success);
    }
    assert_eq!(started.elapsed(), Duration::ZERO);
    // A few listings are on their way at once, not one per session.
    assert_eq!(attempts.load(Ordering::SeqCst), 8);
    // Once they timed out, the provider is left alone for its backoff, whatever the session.
    tokio::time::sleep(Duration::from_secs(10)).await;
    for i in 1_000..2_000 {
        assert!(registry.invoke(ToolInvocation::new("fine_tool", "{}"), Some(&session(i))).await.success);
    }
    assert_eq!(attempts.load(Ordering::SeqCst), 8);
}

#[tokio::test(start_paused = true)]
async fn a_slow_listing_does_not_hold_a_call_of_another_providers_tool() {
    let registry = ToolRegistry::default();
    let fast = Faulty::new("fast", &["fast_tool"]).answer(Answer::Never);
    registry.register_provider(fast);
    // Listed once up front, as a host does when it prepares the first round.
    registry.list_tools(None).await;
    registry.register_provider(Faulty::new("slow", &["slow_tool"]).listing(Listing::After(Duration::from_secs(2))));

    let started = tokio::time::Instant::now();
    let call = registry.invoke(ToolInvocation::new("fast_tool", "{}"), None).await;
    // fast_tool never answers: the call is bounded by the registry's 60 s default, and it did
    // not wait the 2 s of the other provider's listing before it even started.
    assert!(call.error_message.starts_with("Tool fast_tool failed: Timeout"), "{call:?}");
    assert_eq!(started.elapsed(), Duration::from_secs(60));
}

#[tokio::test(start_paused = true)]
async fn the_tool_timeout_covers_finding_the_tool() {
    let config = RegistryConfig::default().default_timeout(Some(Duration::from_millis(50)));
    let registry = ToolRegistry::new(config);
    registry.register_provider(Faulty::new("slow", &["slow_tool"]).listing(Listing::After(Duration::from_secs(2))));

    let started = tokio::time::Instant::now();
    let call = registry.invoke(ToolInvocation::new("slow_tool", "{}"), None).await;
    assert_eq!(call.error_message, "Tool not found: slow_tool");
    assert_eq!(started.elapsed(), Duration::from_millis(50));
}

#[tokio::test(start_paused = true)]
async fn a_failed_listing_is_retried_with_backoff_not_on_every_call() {
    let config = RegistryConfig::default().listing_backoff(Duration::from_secs(1), Duration::from_secs(8));
    let registry = ToolRegistry::new(config);
    let failing = Faulty::new("failing", &["broken"]).listing(Listing::Fails);
    let attempts = failing.counter();
    registry.register_provider(failing);
    registry.register_provider(Faulty::new("fine", &["fine_tool"]));

    for _ in 0..100 {
        assert!(registry.invoke(ToolInvocation::new("fine_tool", "{}"), None).await.success);
    }
    assert_eq!(attempts.load(Ordering::SeqCst), 1);

    // Retries at 1 s, then 2 s, then 4 s after each failure.
    for (advance, expected) in [(1000, 2), (1000, 2), (1000, 3), (4000, 4)] {
        tokio::time::advance(Duration::from_millis(advance)).await;
        assert!(registry.invoke(ToolInvocation::new("fine_tool", "{}"), None).await.success);
        assert_eq!(attempts.load(Ordering::SeqCst), expected, "after another {advance} ms");
    }
}

#[tokio::test(start_paused = true)]
async fn a_provider_that_recovers_is_served_again() {
    struct Flaky(Arc<AtomicUsize>);
    impl ToolProvider for Flaky {
        fn provider_name(&self) -> &str {
            "flaky"
        }
        fn provider_type(&self) -> &str {
            "test"
        }
        fn listing_depends_on(&self) -> ContextParts {
            ContextParts::NONE
        }
        fn list_tools<'a>(
            &'a self,
            _: Option<&'a ToolAvailabilityContext>,
        ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
            let attempt = self.0.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move {
                if attempt == 0 {
                    Err(ToolError::transport("down"))
                } else {
                    Ok(vec![ToolSpec::builder("back").build().unwrap()])
                }
            })
        }
        fn invoke<'a>(
            &'a self,
            call: ToolInvocation,
            _: Option<&'a ToolExecutionContext>,
        ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
            Box::pin(async move { Ok(ToolExecutionResult::success(call.tool_name, "ok")) })
        }
    }
    let registry = ToolRegistry::default();
    registry.register_provider(Flaky(Arc::default()));
    assert!(registry.list_tools(None).await.is_empty());
    tokio::time::advance(Duration::from_secs(1)).await;
    assert!(registry.invoke(ToolInvocation::new("back", "{}"), None).await.success);
}

#[tokio::test(start_paused = true)]
async fn a_future_that_panics_when_dropped_after_a_timeout_is_a_timeout() {
    let config = RegistryConfig::default().default_timeout(Some(Duration::from_millis(50)));
    let registry = ToolRegistry::new(config);
    registry.register_provider(Faulty::new("bomb", &["bomb"]).answer(Answer::NeverAndPanicOnDrop));
    let result = registry.invoke(ToolInvocation::new("bomb", "{}"), None).await;
    assert_eq!(result.error_message, "Tool bomb failed: Timeout: no result within 50 ms");
    // The registry keeps serving.
    let again = registry.invoke(ToolInvocation::new("bomb", "{}"), None).await;
    assert_eq!(again.error_message, "Tool bomb failed: Timeout: no result within 50 ms");
}

#[test]
fn a_host_on_another_executor_gets_an_answer_not_a_panic() {
    let registry = ToolRegistry::default();
    registry.register_provider(Faulty::new("ready", &["ready"]));
    registry.register_provider(Faulty::new("waits", &["waits"]).answer(Answer::Never));
    // A call that needs no waiting works anywhere.
    let ready = futures_executor::block_on(registry.invoke(ToolInvocation::new("ready", "{}"), None));
    assert!(ready.success, "{ready:?}");
    // A call that has to wait under a timeout needs tokio's timer, and says so.
    let waits = futures_executor::block_on(registry.invoke(ToolInvocation::new("waits", "{}"), None));
    assert!(waits.error_message.starts_with("Tool waits failed: Runtime: "), "{waits:?}");
    assert!(waits.error_message.contains("tokio"), "{waits:?}");
}

#[test]
fn a_runtime_without_timers_gets_an_answer_not_a_panic() {
    let registry = ToolRegistry::default();
    registry.register_provider(Faulty::new("waits", &["waits"]).answer(Answer::Never));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let result = runtime.block_on(registry.invoke(ToolInvocation::new("waits", "{}"), None));
    assert!(result.error_message.starts_with("Tool waits failed: Runtime: "), "{result:?}");
    assert!(result.error_message.contains("enable_time"), "{result:?}");
}

#[tokio::test]
async fn a_handler_that_blocks_before_its_first_await_is_timed_out() {
    let config = RegistryConfig::default().default_timeout(Some(Duration::from_millis(20)));
    let registry = ToolRegistry::new(config);
    let blocking = Faulty::new("blocking", &["blocks"]).answer(Answer::Blocks(Duration::from_millis(80)));
    registry.register_provider(blocking);
    let result = registry.invoke(ToolInvocation::new("blocks", "{}"), None).await;
    assert_eq!(result.error_message, "Tool blocks failed: Timeout: no result within 20 ms");
}

#[tokio::test]
async fn a_deep_host_built_value_is_refused_without_recursion() {
    let registry = ToolRegistry::default();
    registry.register_provider(Faulty::new("p", &["t"]));
    let mut value = serde_json::Value::Object(Default::default());
    for _ in 0..100_000 {
        let mut outer = serde_json::Map::new();
        outer.insert("a".into(), value);
        value = serde_json::Value::Object(outer);
    }
    let call = ToolInvocation::new("t", value);
    // Run on a thread with a small stack, as tokio's workers have.
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(registry.invoke(call, None))
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(result.error_message, "Tool t failed: InvalidArguments: arguments are nested deeper than 64 levels");
}

/// Tell how deeply `v` nests (arrays in arrays).
#[toolhook::tool]
fn t(
    /// Nested arrays.
    v: serde_json::Value,
) -> String {
    let mut depth = 0;
    let mut at = &v;
    while let Some(first) = at.as_array().and_then(|items| items.first()) {
        depth += 1;
        at = first;
    }
    depth.to_string()
}

#[tokio::test]
async fn a_depth_limit_past_what_json_text_can_nest_counts_as_that_limit() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_depth(400));
    registry.register_provider(PluginToolProvider::from_declared());
    let nested = |depth: usize| format!(r#"{{"v":{}1{}}}"#, "[".repeat(depth - 1), "]".repeat(depth - 1));
    // The deepest text the limit allows is decoded into the tool's parameter.
    let deepest = registry.invoke(ToolInvocation::new("t", nested(MAX_ARGUMENT_DEPTH)), None).await;
    assert_eq!(deepest.content, (MAX_ARGUMENT_DEPTH - 1).to_string(), "{deepest:?}");
    // Deeper text is refused by the depth rule, not as text the parser gave up on.
    let expected =
        format!("Tool t failed: InvalidArguments: arguments are nested deeper than {MAX_ARGUMENT_DEPTH} levels");
    for depth in [MAX_ARGUMENT_DEPTH + 1, 200] {
        let result = registry.invoke(ToolInvocation::new("t", nested(depth)), None).await;
        assert_eq!(result.error_message, expected, "depth {depth}");
    }
}

#[tokio::test]
async fn arguments_over_the_limit_are_refused_and_logged() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(16));
    registry.register_provider(Faulty::new("p", &["t"]));
    let call = ToolInvocation::new("t", r#"{"text": "far more than sixteen bytes"}"#);
    let (result, logs) = logged(registry.invoke(call, None)).await;
    assert_eq!(result.error_message, "Tool t failed: InvalidArguments: arguments are larger than 16 bytes");
    assert!(logs.contains("ERROR") && logs.contains("arguments are larger than 16 bytes"), "{logs}");
}

#[tokio::test]
async fn names_no_model_api_accepts_are_listed_under_valid_ones() {
    let long = "x".repeat(200);
    let registry = ToolRegistry::default();
    registry.register_provider(Faulty::new("odd", &["web search", "multi\nline", long.as_str(), "web_search"]));
    let names: Vec<String> = registry.list_tools(None).await.iter().map(|s| s.name().to_owned()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    for name in &names {
        assert!(name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
    }
    // The names that were fine keep them; the others are sanitised, hashed when taken or long.
    assert_eq!(names[1], "multi_line");
    assert_eq!(names[3], "web_search");
    assert!(names[0].starts_with("web_search_"), "{names:?}");
    assert!(names[2].starts_with(&"x".repeat(51)), "{names:?}");
    let spec = registry.get_tool_spec("multi_line", None).await.unwrap();
    assert_eq!(spec.metadata()["registry_original_name"], "multi\nline");
    let result = registry.invoke(ToolInvocation::new("multi_line", "{}"), None).await;
    assert!(result.success);
}

#[tokio::test]
async fn an_unknown_name_is_echoed_cut_short() {
    let registry = ToolRegistry::default();
    let name = "n".repeat(1_000_000);
    let result = registry.invoke(ToolInvocation::new(name, "{}"), None).await;
    assert!(result.error_message.len() < 300, "{} bytes", result.error_message.len());
    assert!(result.error_message.starts_with("Tool not found: nnnn"));
    assert!(result.error_message.ends_with('…'));
}
