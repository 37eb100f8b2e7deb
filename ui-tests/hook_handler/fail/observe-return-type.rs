use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookOutcome};

#[hook_handler("chat.receive.before_process", mode = "observe")]
async fn outcome(args: HookArgs) -> HookOutcome<HookArgs> {
    HookOutcome::modify(args)
}

#[hook_handler("chat.receive.before_process", mode = "observe")]
async fn result_of_outcome(args: HookArgs) -> Result<HookOutcome, String> {
    Ok(HookOutcome::modify(args))
}

#[hook_handler("chat.receive.before_process", mode = "observe")]
async fn option(_args: HookArgs) -> Option<()> {
    None
}

type Sneaky = HookOutcome;

/// An alias the tokens cannot judge: the trait bound catches it.
#[hook_handler("chat.receive.before_process", mode = "observe")]
async fn alias(_args: HookArgs) -> Sneaky {
    HookOutcome::abort()
}

#[hook_handler("chat.receive.before_process", mode = "observe")]
async fn boolean(_args: HookArgs) -> bool {
    true
}

fn main() {}
