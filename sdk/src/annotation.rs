//! Hints about a tool or a content item, for hosts and MCP clients.

use serde_json::{Map, Value};

/// Hints about a tool's behaviour (MCP tool annotations) or a content item's audience.
///
/// Every field is optional; a default annotation says nothing.
///
/// ```
/// use toolhook::ToolAnnotation;
///
/// let hints = ToolAnnotation { read_only: Some(true), ..Default::default() };
/// assert!(!hints.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolAnnotation {
    /// Who the item is for (`user`, `assistant`).
    pub audience: Vec<String>,
    /// Relative importance, 0.0 to 1.0.
    pub priority: Option<f64>,
    /// A human-readable title.
    pub title: String,
    /// The tool does not change its environment.
    pub read_only: Option<bool>,
    /// The tool may destroy data.
    pub destructive: Option<bool>,
    /// Repeating a call with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// The tool talks to an open world (the web, other people).
    pub open_world: Option<bool>,
    /// Anything else.
    pub metadata: Map<String, Value>,
}

impl ToolAnnotation {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotation::default()
    }
}
