use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

/// Several mistakes in one attribute are reported together.
#[hook_handler("chat.receive.before_process", moed = "observe", timeout = 50, priority = 1, errorpolicy = "log")]
async fn typos(_args: HookArgs) {}

fn main() {}
