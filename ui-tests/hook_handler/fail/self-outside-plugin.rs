use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

struct Filter;

impl Filter {
    #[hook_handler("chat.receive.before_process")]
    async fn filter(&self, _args: HookArgs) {}
}

fn main() {}
