//! Deferred tools for the `tool_search` tests (included with `#[path]`, beside `stub.rs`, by
//! each test that needs them): specs of each visibility, the pool of the worked scoring examples,
//! and registries serving them behind the built-in provider.

use super::stub::Stub;
use toolhook::{Locale, ToolSpec, Visibility};
use toolhook_runtime::{BuiltinToolProvider, DeferredTools, RegistryConfig, ToolRegistry};

/// The hint a failed call of an undiscovered deferred tool ends with.
pub(crate) const HINT_EN: &str = "Use tool_search to look up this tool's parameters, then try again.";
/// `tool_search`'s answer when nothing matches.
pub(crate) const NO_MATCH_EN: &str =
    "No matching deferred tools found. Try a more complete tool name, a prefix or other keywords.";
/// [`NO_MATCH_EN`] in zh-Hans.
pub(crate) const NO_MATCH_ZH: &str = "未找到匹配的 deferred tools，请尝试更完整的工具名、前缀或其他关键词。";
/// `tool_search`'s answer to an empty query.
pub(crate) const EMPTY_QUERY_EN: &str = "tool_search needs a non-empty `query` string argument.";
/// [`EMPTY_QUERY_EN`] in zh-Hans.
pub(crate) const EMPTY_QUERY_ZH: &str = "tool_search 需要提供非空的 `query` 字符串参数。";

/// A visible tool.
pub(crate) fn visible(name: &str, description: &str) -> ToolSpec {
    ToolSpec::builder(name).description(description).visibility(Visibility::Visible).build().unwrap()
}

/// A deferred tool.
pub(crate) fn deferred(name: &str, description: &str) -> ToolSpec {
    ToolSpec::builder(name).description(description).visibility(Visibility::Deferred).build().unwrap()
}

/// The five deferred tools of the worked scoring examples, in this pool order.
pub(crate) fn example_pool() -> Vec<ToolSpec> {
    vec![
        deferred("web_search", "Search the web"),
        deferred("web_fetch", "Fetch a URL"),
        deferred("image_gen", "Generate images for the web"),
        deferred("search_memes", "Find memes"),
        deferred("view_forward_message", "查看合并转发消息的内容"),
    ]
}

/// A registry with the built-in provider (`tool_search`) first, then `specs` from a plugin-type
/// provider `pool`; also gives the discovery state `tool_search` shares.
pub(crate) fn deferred_registry(locale: Locale, specs: Vec<ToolSpec>) -> (ToolRegistry, DeferredTools) {
    let builtin = BuiltinToolProvider::new();
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(builtin);
    registry.register_provider(Stub::new("pool", "plugin", specs));
    (registry, discovery)
}

/// The example pool behind `tool_search`, with one visible `reply` before it.
pub(crate) fn example_registry(locale: Locale) -> (ToolRegistry, DeferredTools) {
    let mut specs = vec![visible("reply", "Reply to the user")];
    specs.extend(example_pool());
    deferred_registry(locale, specs)
}
