use toolhook::workflow_step;

#[workflow_step(observe = true, priority = -1)]
async fn watch(_args: toolhook::hooks::HookArgs) {}

fn main() {}
