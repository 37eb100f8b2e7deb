use toolhook::tool;

struct NotSerialize;

#[tool]
fn a() -> NotSerialize {
    NotSerialize
}

struct NotDisplay;

#[tool]
fn b() -> Result<String, NotDisplay> {
    Ok(String::new())
}

#[tool]
fn c() -> impl std::fmt::Display {
    5
}

fn main() {}
