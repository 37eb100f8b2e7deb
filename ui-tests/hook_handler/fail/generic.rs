use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

#[hook_handler("a.b")]
async fn generic<T: Default>(_args: HookArgs) {}

#[hook_handler("a.b")]
async fn where_clause(_args: HookArgs)
where
    HookArgs: Clone,
{
}

fn main() {}
