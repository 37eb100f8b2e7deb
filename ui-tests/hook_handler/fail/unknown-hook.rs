use toolhook::hook_handler;
use toolhook::hooks::{self, HookArgs};

// A misspelt catalogue hook: the closest name is suggested.
#[hook_handler("chat.recieve.before_process")]
async fn misspelt(_args: HookArgs) {}

// A hook the host declares itself needs `custom = true`.
#[hook_handler("acme.reminder.due")]
async fn undeclared(_args: HookArgs) {}

// A constant is checked too.
const MY_HOOK: &str = "acme.reminder.due";

#[hook_handler(MY_HOOK)]
async fn by_constant(_args: HookArgs) {}

// The catalogue's constants and `custom = true` hooks compile.
#[hook_handler(hooks::CHAT_RECEIVE_BEFORE_PROCESS)]
async fn catalogue_constant(_args: HookArgs) {}

#[hook_handler(MY_HOOK, custom = true)]
async fn custom_constant(_args: HookArgs) {}

#[hook_handler("acme.reminder.due", custom = true)]
async fn custom_literal(_args: HookArgs) {}

// `custom` takes a boolean.
#[hook_handler("acme.reminder.due", custom = "yes")]
async fn custom_not_bool(_args: HookArgs) {}

fn main() {}
