use toolhook::tool;

#[tool(name = "a", title = "x", name = "b")]
fn lookup(q: String) -> String {
    q
}

fn main() {}
