use toolhook::{command, tool};

#[command]
#[tool]
fn weather(city: String) -> String {
    city
}

#[command]
fn alone() {}

fn main() {}
