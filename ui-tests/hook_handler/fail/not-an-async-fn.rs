use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("a.b")]
fn not_async(_args: HookArgs) {}

#[hook_handler("a.b")]
struct NotAFn;

fn main() {}
