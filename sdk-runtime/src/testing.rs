//! Helpers for plugin authors' tests: call a declared tool in one line.
//!
//! ```
//! use toolhook::tool;
//!
//! /// Shout.
//! #[tool]
//! fn shout(text: String) -> String {
//!     text.to_uppercase()
//! }
//!
//! #[tokio::test]
//! # async fn dummy() {}
//! async fn shouts() {
//!     let result = toolhook_runtime::testing::invoke("shout", r#"{"text": "hi"}"#).await;
//!     assert_eq!(result.content, "HI");
//! }
//! # tokio::runtime::Runtime::new().unwrap().block_on(shouts());
//! ```

use crate::{PluginToolProvider, RegistryConfig, ToolRegistry};
use std::sync::OnceLock;
use toolhook::{ToolArguments, ToolExecutionContext, ToolExecutionResult, ToolInvocation};

/// A registry over every free `#[tool]` fn linked into the test binary (built once).
pub fn registry() -> ToolRegistry {
    static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let registry = ToolRegistry::new(RegistryConfig::default());
            registry.register_provider(PluginToolProvider::from_declared());
            registry
        })
        .clone()
}

/// Calls a declared tool by name with JSON arguments (text or a `serde_json::Value`), without a
/// context, through a registry (so arguments are decoded and errors worded exactly as in a host).
pub async fn invoke(tool: &str, arguments: impl Into<ToolArguments>) -> ToolExecutionResult {
    registry().invoke(ToolInvocation::new(tool, arguments), None).await
}

/// Like [`invoke`], with an execution context.
pub async fn invoke_with(
    tool: &str,
    arguments: impl Into<ToolArguments>,
    ctx: &ToolExecutionContext,
) -> ToolExecutionResult {
    registry().invoke(ToolInvocation::new(tool, arguments), Some(ctx)).await
}

/// Fails the test with every problem found while collecting the plugins linked into it
/// (duplicate ids, duplicate component names, specs that cannot be composed, …).
///
/// ```
/// toolhook_runtime::testing::assert_plugins_valid();
/// ```
#[track_caller]
pub fn assert_plugins_valid() {
    let problems = crate::PluginSet::collect().problems();
    assert!(
        problems.is_empty(),
        "plugin problems:\n{}",
        problems.iter().map(|p| format!("- {}: {}", p.plugin_id, p.message)).collect::<Vec<_>>().join("\n")
    );
}
