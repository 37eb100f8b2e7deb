use toolhook::hook_handler;
use toolhook::hooks::{self, HookArgs};

// `send_service.after_send` fires after the message went out: nothing to abort.
#[hook_handler("send_service.after_send", error_policy = "abort")]
async fn by_literal(_args: HookArgs) {}

#[hook_handler(hooks::SEND_SERVICE_AFTER_SEND, error_policy = "abort")]
async fn by_constant(_args: HookArgs) {}

fn main() {}
