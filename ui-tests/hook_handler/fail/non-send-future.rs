use std::rc::Rc;
use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

async fn pause() {}

#[hook_handler("chat.receive.before_process")]
async fn holds_an_rc(args: HookArgs) {
    let shared = Rc::new(args);
    pause().await;
    drop(shared);
}

fn main() {}
