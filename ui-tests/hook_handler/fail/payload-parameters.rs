use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookContext};

#[hook_handler("chat.receive.before_process")]
async fn no_payload() {}

#[hook_handler("chat.receive.before_process")]
async fn only_context(_ctx: &HookContext) {}

#[hook_handler("chat.receive.before_process")]
async fn two_payloads(_args: HookArgs, _more: HookArgs) {}

#[hook_handler("chat.receive.before_process")]
async fn two_contexts(_args: HookArgs, _a: &HookContext, _b: HookContext) {}

#[hook_handler("chat.receive.before_process")]
async fn mutable(_args: &mut HookArgs) {}

#[hook_handler("chat.receive.before_process")]
async fn opaque(_args: impl Clone) {}

fn main() {}
