use toolhook::tool;

#[tool]
fn sum(first: i32, _: ...) -> i32 {
    first
}

fn main() {}
