use toolhook::tool;

struct NotSerialize;

/// A.
#[tool]
fn a() -> NotSerialize {
    NotSerialize
}

struct NotDisplay;

/// B.
#[tool]
fn b() -> Result<String, NotDisplay> {
    Ok(String::new())
}

/// C.
#[tool]
fn c() -> impl std::fmt::Display {
    5
}

fn main() {}
