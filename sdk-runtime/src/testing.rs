//! Helpers for plugin authors' tests: call a declared tool — a free `#[tool]` or a `#[plugin]`
//! method — in one line. Tests need tokio with its `macros` and `rt` features (for
//! `#[tokio::test]`) as a dev-dependency.
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

use crate::{LoadReport, PluginHost, PluginSet, RegistryConfig, ToolRegistry};
use tokio::sync::OnceCell;
use toolhook::{ToolArguments, ToolExecutionContext, ToolExecutionResult, ToolInvocation};

/// The test binary's plugins, loaded once.
struct Loaded {
    registry: ToolRegistry,
    report: LoadReport,
    set: PluginSet,
    /// Kept so the plugins stay loaded.
    _host: PluginHost,
}

async fn loaded() -> &'static Loaded {
    static LOADED: OnceCell<Loaded> = OnceCell::const_new();
    LOADED
        .get_or_init(|| async {
            let registry = ToolRegistry::new(RegistryConfig::default());
            let set = PluginSet::collect();
            let host = PluginHost::builder().plugins(set.clone()).registry(&registry).build();
            let report = host.load_all().await;
            Loaded { registry, report, set, _host: host }
        })
        .await
}

/// A registry serving every plugin linked into the test binary — each `#[plugin]` (loaded, its
/// `on_load` run) and each package's free `#[tool]`s — loaded once per test binary, on the
/// first call. Plugins start from their config's defaults.
pub async fn registry() -> ToolRegistry {
    loaded().await.registry.clone()
}

/// Calls a declared tool by name with JSON arguments (text or a `serde_json::Value`), without a
/// context, through a registry (so arguments are decoded and errors worded exactly as in a host).
/// `#[plugin]` methods are reached too (see [`registry`]).
///
/// When the tool is not found, the failed result's `error_message` says why: the names that are
/// declared, the problems met while loading, and — when no linked crate declares the name — the
/// `use my_plugin_crate as _;` line that links a library's components into the test.
pub async fn invoke(tool: &str, arguments: impl Into<ToolArguments>) -> ToolExecutionResult {
    let loaded = loaded().await;
    let result = loaded.registry.invoke(ToolInvocation::new(tool, arguments), None).await;
    explain_miss(tool, result, loaded)
}

/// Like [`invoke`], with an execution context.
pub async fn invoke_with(
    tool: &str,
    arguments: impl Into<ToolArguments>,
    ctx: &ToolExecutionContext,
) -> ToolExecutionResult {
    let loaded = loaded().await;
    let result = loaded.registry.invoke(ToolInvocation::new(tool, arguments), Some(ctx)).await;
    explain_miss(tool, result, loaded)
}

/// Adds to a `Tool not found` answer what a test author needs to fix it.
fn explain_miss(tool: &str, mut result: ToolExecutionResult, loaded: &Loaded) -> ToolExecutionResult {
    if result.success || !result.error_message.starts_with("Tool not found") {
        return result;
    }
    let mut declared: Vec<&str> = loaded.set.plugins().flat_map(|p| p.tools().iter().map(|t| t.name())).collect();
    declared.sort_unstable();
    let mut why = String::new();
    if declared.is_empty() {
        why.push_str("\nNo tool is declared in this test binary.");
    } else {
        why.push_str(&format!("\nDeclared tools: {}.", declared.join(", ")));
    }
    if !loaded.report.problems().is_empty() {
        why.push_str("\nProblems while loading:");
        for problem in loaded.report.problems() {
            why.push_str(&format!("\n- {problem}"));
        }
    }
    let is_declared = declared.contains(&tool)
        || loaded
            .report
            .problems()
            .iter()
            .any(|p| p.component.as_deref().is_some_and(|c| c.ends_with(&format!(" {tool}"))));
    if !is_declared {
        why.push_str(&format!(
            "\nIf `{tool}` is declared in your plugin's library crate, link that crate's components into \
             the test: add `use my_plugin_crate as _;` (with the crate's name) to the test file."
        ));
    }
    result.error_message.push_str(&why);
    result
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
