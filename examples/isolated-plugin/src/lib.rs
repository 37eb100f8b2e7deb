//! A plugin that runs in its own process: an ordinary plugin crate (its tools are plain
//! `#[tool]` fns) whose `main` serves them over MCP stdio (`src/main.rs`, one line). A host runs
//! it through `toolhook_runtime::mcp::McpToolProvider`: a crash or a hang here cannot take the
//! host down, and the host can restart or reload it while its other tools keep working.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use toolhook::{Progress, ToolExecutionContext, tool};

/// Echo a text, after `delay_ms` milliseconds.
#[tool(core_tool = true)]
pub async fn slow_echo(
    ctx: &ToolExecutionContext,
    /// What to echo.
    text: String,
    /// How long to take.
    #[param(default = 0)]
    delay_ms: u64,
) -> String {
    if delay_ms > 0 {
        ctx.report_progress(Progress::new(0.0).total(1.0).message("waiting")).await;
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
    }
    text
}

/// The process serving this plugin (changes when the host restarts it).
#[tool(core_tool = true)]
pub fn process_id() -> String {
    std::process::id().to_string()
}

/// Crash the plugin's process after `delay_ms` milliseconds (to show what a host does then).
#[tool(core_tool = true)]
pub async fn crash(
    /// How long to wait first.
    #[param(default = 0)]
    delay_ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(delay_ms)).await;
    std::process::exit(3)
}

static CANCELLED: AtomicU64 = AtomicU64::new(0);

/// Wait until cancelled (to show that a call the host gives up on is cancelled here).
#[tool(core_tool = true)]
pub async fn wait_forever(ctx: &ToolExecutionContext) -> String {
    ctx.cancelled().await;
    CANCELLED.fetch_add(1, Ordering::Relaxed);
    "cancelled".to_owned()
}

/// How many calls of `wait_forever` this process saw cancelled.
#[tool(core_tool = true)]
pub fn cancelled_calls() -> u64 {
    CANCELLED.load(Ordering::Relaxed)
}

/// Say who is calling: the host's chat context, which reaches this process when the host's
/// entry forwards it (`McpServerEntry::forward_context`).
#[tool(core_tool = true)]
pub fn whoami(
    /// The calling user (filled from the host's context).
    user_id: String,
    /// Their platform (filled from the host's context).
    platform: String,
) -> String {
    format!("{user_id} on {platform}")
}

/// Kick a member out of the group (for group admins on QQ; a plugin process lists it with these
/// rules, and its host enforces them).
#[tool(permission = "group_admin", platforms = ["qq"], scopes = ["group"])]
pub fn kick(
    /// Who to kick.
    member: String,
) -> String {
    format!("kicked {member}")
}

/// Fail with a message.
#[tool(core_tool = true)]
pub fn refuse(
    /// Why.
    reason: String,
) -> Result<String, String> {
    Err(reason)
}
