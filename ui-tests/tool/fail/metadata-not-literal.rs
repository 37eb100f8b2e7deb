use toolhook::tool;

const LIMIT: u32 = 5;

#[tool(metadata(owner = "alice", limit = LIMIT, owner = "bob"))]
fn lookup(q: String) -> String {
    q
}

fn main() {}
