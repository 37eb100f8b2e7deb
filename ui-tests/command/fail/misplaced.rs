use toolhook::{command, tool};

/// Weather.
#[command]
#[tool]
fn weather(
    /// The city.
    city: String,
) -> String {
    city
}

#[command]
fn alone() {}

fn main() {}
