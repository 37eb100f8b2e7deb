//! Hook handlers of the package's default plugin: a banned-word filter that aborts, a rewriter
//! that modifies the message, and a logger that observes processed messages.

use serde_json::json;
use toolhook::hook_handler;
use toolhook::hooks::HookOutcome;
use toolhook::hooks::payload::{ChatReceiveAfterProcess, ChatReceiveBeforeProcess};

/// Words that stop a message before the bot processes it.
pub const BANNED: &[&str] = &["spam", "scam"];

/// Drops messages that contain a banned word.
#[hook_handler("chat.receive.before_process", order = "early", error_policy = "abort")]
pub async fn banned_words(payload: ChatReceiveBeforeProcess) -> HookOutcome<ChatReceiveBeforeProcess> {
    let text = payload.message.get("text").and_then(|t| t.as_str()).unwrap_or_default().to_lowercase();
    match BANNED.iter().find(|word| text.contains(*word)) {
        Some(word) => HookOutcome::abort().with_custom_result(json!({"blocked_word": word})),
        None => HookOutcome::proceed(),
    }
}

/// Expands chat shorthand (`u` → `you`, `r` → `are`) so the model reads plain words.
#[hook_handler("chat.receive.before_process")]
pub async fn expand_shorthand(mut payload: ChatReceiveBeforeProcess) -> HookOutcome<ChatReceiveBeforeProcess> {
    let Some(text) = payload.message.get("text").and_then(|t| t.as_str()) else { return HookOutcome::proceed() };
    let expanded: Vec<&str> = text
        .split(' ')
        .map(|word| match word {
            "u" => "you",
            "r" => "are",
            other => other,
        })
        .collect();
    payload.message.insert("text".into(), expanded.join(" ").into());
    HookOutcome::modify(payload)
}

/// Logs every processed message.
#[hook_handler("chat.receive.after_process", mode = "observe")]
pub async fn log_message(payload: ChatReceiveAfterProcess) {
    let text = payload.message.get("text").and_then(|t| t.as_str()).unwrap_or_default();
    println!("  [observer log_message] processed: {text}");
}
