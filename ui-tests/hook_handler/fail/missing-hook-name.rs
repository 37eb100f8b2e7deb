use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler]
async fn no_arguments(_args: HookArgs) {}

#[hook_handler(mode = "observe")]
async fn key_first(_args: HookArgs) {}

fn main() {}
