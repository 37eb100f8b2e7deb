//! A tool only bot administrators see and may call.

use toolhook::{ToolExecutionContext, tool};

/// Ban a user from the chat.
#[tool(core_tool = true, permission = "bot_admin", scopes = ["group"])]
pub async fn ban_user(
    ctx: &ToolExecutionContext,
    /// The user to ban.
    user_id: String,
    /// Why, shown to the user.
    reason: Option<String>,
) -> String {
    format!("{user_id} banned from {} ({})", ctx.group_id, reason.as_deref().unwrap_or("no reason given"))
}
