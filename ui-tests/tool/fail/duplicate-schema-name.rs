use toolhook::tool;

#[tool]
fn lookup(q: String, #[param(rename = "q")] query: String) {
    let _ = (q, query);
}

fn main() {}
