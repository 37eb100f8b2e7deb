use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", timeout_ms = -5)]
async fn negative(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", timeout_ms = 4294967296)]
async fn too_large(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", timeout_ms = 1.5)]
async fn fractional(_args: HookArgs) {}

fn main() {}
