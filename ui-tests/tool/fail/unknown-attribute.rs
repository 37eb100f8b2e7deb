use toolhook::tool;

/// Several mistakes in one attribute are reported together.
#[tool(descripton = "typo", enabled = false, nmae = "x")]
fn lookup(q: String) -> String {
    q
}

fn main() {}
