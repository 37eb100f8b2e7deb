use toolhook::hook_handler;
use toolhook::hooks::HookArgs;

const TEAM: &str = "core";

#[hook_handler("chat.receive.before_process", metadata(team = TEAM, tags = ["a"], ok = 1))]
async fn not_literals(_args: HookArgs) {}

#[hook_handler("chat.receive.before_process", metadata = "team")]
async fn not_a_list(_args: HookArgs) {}

fn main() {}
