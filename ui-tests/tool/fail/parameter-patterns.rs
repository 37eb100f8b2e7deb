use toolhook::tool;

#[tool]
fn lookup((a, b): (u8, u8), c: impl Into<String>) {
    let _ = (a, b, c.into());
}

fn main() {}
