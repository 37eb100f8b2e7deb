//! A visible search tool with a limit, and a deferred fetch tool the model finds through
//! `tool_search`.

use toolhook::{ToolOutput, tool};

/// Search the web.
#[tool(core_tool = true)]
pub async fn web_search(
    /// Search keywords.
    query: String,
    /// Maximum number of results to return.
    #[param(default = 3)]
    limit: u8,
) -> ToolOutput {
    let hits: Vec<String> =
        (1..=limit.min(5)).map(|i| format!("{i}. https://example.com/{}/{i}", query.replace(' ', "-"))).collect();
    ToolOutput::text(hits.join("\n")).with_structured(serde_json::json!({ "query": query, "count": hits.len() }))
}

/// Fetch a URL and return its text.
///
/// Only http and https URLs are fetched.
#[tool(visibility = "deferred")]
pub async fn web_fetch(
    /// The URL to fetch.
    url: String,
) -> Result<String, String> {
    match url.split_once("://") {
        Some(("http" | "https", rest)) => Ok(format!("<html><title>{rest}</title>Example page</html>")),
        _ => Err(format!("cannot fetch {url}: only http and https URLs are supported")),
    }
}
