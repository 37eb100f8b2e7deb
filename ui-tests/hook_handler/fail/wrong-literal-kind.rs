use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", name = 5, description = true, mode = observe, order = 1)]
async fn not_strings(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", timeout_ms = "50")]
async fn timeout_string(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", timeout_ms = true)]
async fn timeout_bool(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", error_policy)]
async fn flag(_args: HookArgs) {}

fn main() {}
