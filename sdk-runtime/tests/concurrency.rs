//! Many concurrent calls while providers come and go: every call gets exactly its own tool's
//! result, or "not found" for a tool whose provider is gone; nothing is lost or mixed up.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
};
use toolhook_runtime::{ToolProvider, ToolRegistry};

/// Serves `{prefix}0..{prefix}{n}`; each call answers `{provider}:{tool}:{call id}` after a yield.
struct Numbered {
    name: String,
    prefix: String,
    count: usize,
}

impl ToolProvider for Numbered {
    fn provider_name(&self) -> &str {
        &self.name
    }
    fn provider_type(&self) -> &str {
        "test"
    }
    fn listing_depends_on(&self) -> toolhook_runtime::ContextParts {
        toolhook_runtime::ContextParts::NONE
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let specs =
            (0..self.count).map(|i| ToolSpec::builder(format!("{}{i}", self.prefix)).build().unwrap()).collect();
        Box::pin(std::future::ready(Ok(specs)))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            let content = format!("{}:{}:{}", self.name, call.tool_name, call.call_id());
            Ok(ToolExecutionResult::success(call.tool_name, content))
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_see_consistent_snapshots_while_providers_change() {
    let registry = ToolRegistry::default();
    registry.register_provider(Numbered { name: "stable".into(), prefix: "s".into(), count: 50 });
    let churned = Arc::new(AtomicUsize::new(0));

    let churn = {
        let registry = registry.clone();
        let churned = churned.clone();
        tokio::spawn(async move {
            for round in 0..200 {
                let name = format!("churn{}", round % 4);
                registry.register_provider(Numbered {
                    name: name.clone(),
                    prefix: format!("c{}_", round % 4),
                    count: 20,
                });
                tokio::task::yield_now().await;
                if round % 3 == 0 {
                    registry.unregister_provider(&name);
                }
                churned.fetch_add(1, Ordering::Relaxed);
            }
        })
    };

    let mut callers = Vec::new();
    for worker in 0..16 {
        let registry = registry.clone();
        callers.push(tokio::spawn(async move {
            let mut answered = 0;
            for i in 0..200 {
                let (tool, owner) = if i % 2 == 0 {
                    (format!("s{}", (worker * 7 + i) % 50), "stable".to_owned())
                } else {
                    let c = (worker + i) % 4;
                    (format!("c{c}_{}", i % 20), format!("churn{c}"))
                };
                let call_id = format!("w{worker}-{i}");
                let result =
                    registry.invoke(ToolInvocation::new(tool.clone(), "{}").with_call_id(call_id.clone()), None).await;
                assert_eq!(result.tool_name, tool);
                if result.success {
                    assert_eq!(result.content, format!("{owner}:{tool}:{call_id}"), "a call got another call's result");
                    answered += 1;
                } else {
                    assert!(owner != "stable", "a stable tool failed: {}", result.error_message);
                    assert_eq!(result.error_message, format!("Tool not found: {tool}"));
                }
            }
            answered
        }));
    }
    let mut answered = 0;
    for caller in callers {
        answered += caller.await.unwrap();
    }
    churn.await.unwrap();
    assert_eq!(churned.load(Ordering::Relaxed), 200);
    // Every stable call (half of all) was answered, and at least some churned ones.
    assert!(answered > 16 * 100, "{answered}");
}
