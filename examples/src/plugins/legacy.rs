//! A legacy (SDK 1.x) action next to its modern `#[tool]` rewrite.
//!
//! `#[action]` still works and registers a tool exactly as the Python SDK's host converted actions,
//! but warns at compile time. The rewrite says the same with typed parameters.

#![allow(deprecated)]

use toolhook::{LegacyActionContext, action, tool};

/// Poke a user in the chat.
#[action(
    name = "poke_legacy",
    activation_type = "keyword",
    activation_keywords = ["poke", "戳"],
    action_require = ["Use only when the user asks for it"],
    associated_types = ["text"]
)]
pub async fn poke_legacy(
    /// The user to poke.
    target: Option<String>,
    /// How many times.
    times: Option<String>,
    ctx: &LegacyActionContext,
) -> String {
    let times: u8 = times.and_then(|t| t.trim().parse().ok()).unwrap_or(1);
    format!("poked {} x{times} in {}", target.unwrap_or_default(), ctx.stream_id)
}

/// Poke a user in the chat.
///
/// Use only when the user asks for it.
#[tool]
pub async fn poke(
    /// The user to poke.
    target: String,
    /// How many times.
    #[param(default = 1)]
    times: u8,
) -> String {
    format!("poked {target} x{times}")
}
