use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", mode = "observe", error_policy = "abort")]
async fn watcher(_args: HookArgs) {}

fn main() {}
