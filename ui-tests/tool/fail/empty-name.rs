use toolhook::tool;

#[tool(name = "  ")]
fn lookup(q: String) -> String {
    q
}

#[tool(name = " padded")]
fn other(q: String) -> String {
    q
}

fn main() {}
