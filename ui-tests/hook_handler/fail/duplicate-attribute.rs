use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process", mode = "observe", order = "late", mode = "blocking", metadata(k = 1, k = 2))]
async fn twice(_args: HookArgs) {}

fn main() {}
