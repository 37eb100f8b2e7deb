#![allow(deprecated)]

use toolhook::action;

#[action]
async fn poke(times: u32, target: Option<&str>, #[param(enum = ["a"])] mode: Option<String>) {
    let _ = (times, target, mode);
}

fn main() {}
