use toolhook::workflow_step;

#[workflow_step(step_name = "greeter", step_description = "Greets.", blocking = false, priority = "high", retries = 3)]
async fn greet() {}

#[workflow_step(name = r"raw\name", description = "with \"quotes\"", observe = true, blocking = true)]
async fn quoted() {}

fn main() {}
