use toolhook::tool;

#[tool]
fn lookup(
    #[param(description = "The query.", default = "a", description = "Again.")] q: String,
    #[param(rename = "n", rename = "m")] count: u8,
) -> String {
    format!("{q}{count}")
}

fn main() {}
