use toolhook::workflow_step;

#[allow(dead_code)]
enum Stage {
    PreProcess,
    PostProcess,
}

#[workflow_step(stage = Stage::PreProcess)]
async fn a() {}

#[workflow_step(stage = Stage::PostProcess, name = "tidy")]
async fn b() {}

#[workflow_step(stage = POST_PROCESS)]
async fn c() {}

#[workflow_step(stage = " Finalize ", blocking = false)]
async fn d() {}

#[workflow_step(stage = "process", observe = false, priority = 0)]
async fn e() {}

fn main() {}
