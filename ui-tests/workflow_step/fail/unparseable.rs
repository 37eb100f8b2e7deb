use toolhook::workflow_step;

#[workflow_step("pre_process")]
async fn positional() {}

#[workflow_step(stage = 5, name = "n")]
async fn numeric_stage() {}

fn main() {}
