use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("a.b", name = "  ")]
async fn blank_name(_args: HookArgs) {}

fn main() {}
