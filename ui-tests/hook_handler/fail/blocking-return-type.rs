use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookOutcome};

#[hook_handler("chat.receive.before_process")]
async fn text(_args: HookArgs) -> String {
    String::new()
}

#[hook_handler("chat.receive.before_process")]
async fn option(_args: HookArgs) -> Option<HookOutcome> {
    None
}

struct NotDisplay;

#[hook_handler("chat.receive.before_process")]
async fn error_without_display(_args: HookArgs) -> Result<(), NotDisplay> {
    Ok(())
}

struct NotSerialize;

#[hook_handler("chat.receive.before_process")]
async fn outcome_without_serialize(_args: HookArgs) -> HookOutcome<NotSerialize> {
    HookOutcome::proceed()
}

#[hook_handler("chat.receive.before_process")]
async fn opaque(_args: HookArgs) -> impl Sized {}

fn main() {}
