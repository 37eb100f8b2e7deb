use toolhook::tool;

/// Keys written for one spelled differently are pointed to it.
#[tool(core = true, timeout = 500)]
fn lookup(
    /// What to look up.
    q: String,
) -> String {
    q
}

fn main() {}
