use toolhook::tool;

#[tool]
fn lookup(#[param(descripton = "typo", rename = "")] q: String, #[param(default)] n: u8) -> String {
    format!("{q}{n}")
}

fn main() {}
