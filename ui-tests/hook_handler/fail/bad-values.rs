use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", mode = "OBSERVE", order = "first", error_policy = "Skip")]
async fn values(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", mode = "watch", order = " Late")]
async fn more_values(_args: HookArgs) {}

fn main() {}
