use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("chat.receive.before_process")]
async fn generic<T: Default>(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process")]
async fn where_clause(_args: HookArgs)
where
    HookArgs: Clone,
{
}

fn main() {}
