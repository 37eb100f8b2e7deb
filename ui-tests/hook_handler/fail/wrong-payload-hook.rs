use toolhook::hook_handler;
use toolhook::hooks::payload::{ChatReceiveBeforeProcess, SendServiceBeforeSend};
use toolhook::hooks::{self, HookOutcome};

// The payload struct of another hook, named by a literal...
#[hook_handler("chat.receive.before_process")]
async fn by_literal(payload: SendServiceBeforeSend) -> HookOutcome<SendServiceBeforeSend> {
    HookOutcome::modify(payload)
}

// ... or by a constant.
#[hook_handler(hooks::SEND_SERVICE_BEFORE_SEND)]
async fn by_constant(payload: ChatReceiveBeforeProcess) {
    let _ = payload;
}

// Its own hook compiles.
#[hook_handler(hooks::SEND_SERVICE_BEFORE_SEND)]
async fn right(payload: SendServiceBeforeSend) {
    let _ = payload;
}

fn main() {}
