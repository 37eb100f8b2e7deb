//! A tool with a bug: it panics. The registry turns the panic into a failed result and keeps
//! serving.

use toolhook::tool;

/// Look up a cached value.
#[tool(core_tool = true)]
pub fn cache_lookup(
    /// The cache key.
    key: String,
) -> String {
    if key.is_empty() || key.len() > 3 {
        panic!("cache index out of bounds for key {key:?}");
    }
    format!("cached value for {key}")
}
