use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", name = "  ")]
async fn blank_name(_args: HookArgs) {}

fn main() {}
