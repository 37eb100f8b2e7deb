use toolhook::{command, tool};

#[tool]
#[command(pattern = "forecast <city:text>")]
fn a(city: String) -> String {
    city
}

#[tool]
#[command(pattern = "b <city:integer> <town:text> [days:integer]")]
fn b(city: String, days: u8) -> String {
    format!("{city}{days}")
}

#[tool]
#[command(pattern = "c <note:rest> <city:text>", alias = [1], nmae = "x")]
fn c(city: String, note: String) -> String {
    format!("{city}{note}")
}

#[tool]
#[command]
#[command]
fn d() {}

fn main() {}
