use std::collections::HashMap;
use toolhook::tool;

#[tool]
fn lookup(scores: HashMap<u32, String>) {
    let _ = scores;
}

fn main() {}
