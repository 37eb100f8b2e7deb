use toolhook::tool;

#[tool]
fn lookup(#[param(default = 5)] limit: Option<u32>) {
    let _ = limit;
}

fn main() {}
