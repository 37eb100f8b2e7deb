//! A legacy action kept on purpose: `#[allow(deprecated)]` on the fn silences the warning, even
//! where deprecation is denied crate-wide.
#![deny(deprecated)]

use toolhook::action;

/// Poke someone.
#[allow(deprecated)]
#[action(activation_type = "keyword", activation_keywords = ["poke"])]
async fn poke(target: Option<String>) -> String {
    target.unwrap_or_default()
}

fn main() {
    let _ = poke;
}
