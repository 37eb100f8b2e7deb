#![allow(deprecated)]

use toolhook::action;

/// Echoes what the model asked for.
#[action]
async fn echo(text: Option<String>, action_data: Option<String>) {
    let _ = (text, action_data);
}

fn main() {}
