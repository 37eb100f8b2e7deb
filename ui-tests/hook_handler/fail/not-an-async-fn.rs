use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process")]
fn not_async(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process")]
struct NotAFn;

fn main() {}
