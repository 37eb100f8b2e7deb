use toolhook::tool;

#[tool(platforms = ["qq", " "], timeout_ms = 0)]
fn lookup(q: String) -> String {
    q
}

#[tool(timeout_ms = "5s")]
fn other(q: String) -> String {
    q
}

fn main() {}
