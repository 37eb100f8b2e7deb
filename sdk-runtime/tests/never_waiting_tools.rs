//! `async fn` tools whose body never waits (no `.await` in it) run to their end in place, without
//! a boxed future: they answer as any other tool, time out when they block their thread past
//! their limit, fail with their panic, and fail loudly (never hang) when a macro hides an await.

use std::time::Duration;
use toolhook::{ToolInvocation, tool};
use toolhook_runtime::{PluginToolProvider, RegistryConfig, ToolRegistry};

/// Double a number.
#[tool(core_tool = true)]
async fn double(
    /// The number.
    n: i64,
) -> String {
    (2 * n).to_string()
}

/// Add up after blocking for a while.
#[tool(core_tool = true, timeout_ms = 20)]
async fn blocking_sum(
    /// The numbers.
    numbers: Vec<i64>,
) -> String {
    std::thread::sleep(Duration::from_millis(80));
    numbers.iter().sum::<i64>().to_string()
}

/// Block for a long while.
#[tool(core_tool = true)]
async fn long_block(
    /// Milliseconds.
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    "done".to_owned()
}

/// Always panic.
#[tool(core_tool = true)]
async fn explodes() -> String {
    panic!("boom")
}

mod hidden {
    // A macro that takes the name of a standard one and awaits: `#[tool]` cannot see the await.
    macro_rules! format {
        ($e:expr) => {
            $e.await
        };
    }

    /// Wait for ever behind a macro.
    #[toolhook::tool(core_tool = true)]
    pub(crate) async fn hidden_wait() -> String {
        format!(std::future::pending::<String>())
    }
}

fn registry(config: RegistryConfig) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

#[tokio::test]
async fn a_tool_that_never_waits_answers_as_any_other() {
    let registry = registry(RegistryConfig::default());
    for _ in 0..3 {
        let result = registry.invoke(ToolInvocation::new("double", r#"{"n": 21}"#), None).await;
        assert_eq!(result.content, "42", "{result:?}");
        assert!(result.success);
    }
    let bad = registry.invoke(ToolInvocation::new("double", r#"{"n": "x"}"#), None).await;
    assert_eq!(bad.error_message, r#"Tool double failed: InvalidArguments: n: expected integer, got string "x""#);
}

#[tokio::test]
async fn a_tool_that_never_waits_and_blocks_past_a_short_limit_times_out() {
    let registry = registry(RegistryConfig::default());
    let result = registry.invoke(ToolInvocation::new("blocking_sum", r#"{"numbers": [1, 2]}"#), None).await;
    assert_eq!(result.error_message, "Tool blocking_sum failed: Timeout: no result within 20 ms");
}

#[tokio::test]
async fn a_tool_that_never_waits_and_blocks_past_a_long_limit_times_out() {
    // Long enough to be timed on the coarse clock at any kernel tick of 10 ms or less; blocked
    // past it by more than two ticks.
    let registry = registry(RegistryConfig::default().default_timeout(Some(Duration::from_millis(700))));
    let result = registry.invoke(ToolInvocation::new("long_block", r#"{"ms": 760}"#), None).await;
    assert_eq!(result.error_message, "Tool long_block failed: Timeout: no result within 700 ms");
    let quick = registry.invoke(ToolInvocation::new("long_block", r#"{"ms": 5}"#), None).await;
    assert_eq!(quick.content, "done");
}

#[tokio::test]
async fn a_tool_that_panics_without_waiting_fails_with_its_panic() {
    let registry = registry(RegistryConfig::default());
    let result = registry.invoke(ToolInvocation::new("explodes", "{}"), None).await;
    assert_eq!(result.error_message, "Tool explodes failed: Panic: boom");
    // The registry keeps serving.
    assert_eq!(registry.invoke(ToolInvocation::new("double", r#"{"n": 1}"#), None).await.content, "2");
}

#[tokio::test]
async fn a_macro_that_hides_an_await_fails_the_call_loudly() {
    let _ = hidden::hidden_wait;
    let registry = registry(RegistryConfig::default());
    let result = registry.invoke(ToolInvocation::new("hidden_wait", "{}"), None).await;
    assert!(!result.success);
    assert!(result.error_message.starts_with("Tool hidden_wait failed: Internal: the tool waited"), "{result:?}");
}
