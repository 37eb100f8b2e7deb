use toolhook::workflow_step;

#[workflow_step(stage = "review", name = "check", priority = 3)]
async fn review() {}

#[workflow_step(stage = Stage::Cleanup)]
async fn cleanup() {}

fn main() {}
