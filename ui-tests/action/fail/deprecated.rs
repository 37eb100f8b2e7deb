#![deny(deprecated)]

use toolhook::action;

/// Poke someone.
#[action(activation_type = "keyword", activation_keywords = ["poke"])]
async fn poke(target: Option<String>) -> String {
    target.unwrap_or_default()
}

fn main() {}
