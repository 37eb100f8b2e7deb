use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("a.b", mode = "OBSERVE", order = "first", error_policy = "Skip")]
async fn values(_args: HookArgs) {}

#[hook_handler("a.b", mode = "watch", order = " Late")]
async fn more_values(_args: HookArgs) {}

fn main() {}
