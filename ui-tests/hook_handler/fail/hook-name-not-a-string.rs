use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler(toolhook::hooks::CHAT_RECEIVE_BEFORE_PROCESS)]
async fn a_constant(_args: HookArgs) {}

#[hook_handler(42, order = "early")]
async fn a_number(_args: HookArgs) {}

#[hook_handler("   ")]
async fn blank(_args: HookArgs) {}

fn main() {}
