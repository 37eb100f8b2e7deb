use toolhook::workflow_step;

#[workflow_step(stage = "pre_process", blocking = true, priority = 10)]
async fn filter(_args: toolhook::hooks::HookArgs) {}

fn main() {}
