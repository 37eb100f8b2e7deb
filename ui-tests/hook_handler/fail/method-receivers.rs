use toolhook::hooks::HookArgs;
use toolhook::plugin;

#[derive(Default)]
struct Filter;

#[plugin(id = "acme.filter")]
impl Filter {
    #[toolhook::hook_handler("chat.receive.before_process")]
    async fn mutable(&mut self, _args: HookArgs) {}

    #[toolhook::hook_handler("chat.receive.before_process")]
    async fn owned(self, _args: HookArgs) {}

    #[toolhook::hook_handler("chat.receive.before_process")]
    async fn associated(_args: HookArgs) {}

    #[toolhook::hook_handler]
    async fn no_hook(&self, _args: HookArgs) {}

    #[toolhook::hook_handler("chat.receive.before_process", mode = "observe", timeout_ms = "1")]
    async fn bad_attribute(&self, _args: HookArgs) {}
}

fn main() {}
