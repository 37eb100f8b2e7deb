#![allow(deprecated)]

use toolhook::action;

#[action(activation_type = "sometimes", chat_mode = "Focus", activation_probability = 2.0, action_parameters = "x", name = "")]
async fn poke(target: Option<String>) {
    let _ = target;
}

fn main() {}
