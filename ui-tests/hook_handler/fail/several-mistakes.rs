use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

/// Every independent mistake of the attribute and the signature is reported at once.
#[hook_handler("chat.receive.before_process", mode = "OBSERVE", order = "first", timeout_ms = -1, nmae = "x", error_policy = "panic")]
fn everything<T>(_args: HookArgs, _more: HookArgs) {}

fn main() {}
