use toolhook::tool;

#[tool(core_tool = "yes", description = 5, platforms = [1])]
fn lookup(q: String) -> String {
    q
}

fn main() {}
