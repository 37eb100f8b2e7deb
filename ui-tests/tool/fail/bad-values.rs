use toolhook::tool;

#[tool(visibility = "Visible", permission = "admin", scopes = ["group", "dm"])]
fn lookup(q: String) -> String {
    q
}

fn main() {}
