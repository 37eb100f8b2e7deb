use toolhook::tool;

#[tool]
fn lookup(
    #[param(default = "x")] a: u32,
    #[param(default = 300)] b: u8,
    #[param(default = -1)] c: u64,
    #[param(default = 1.5)] d: i32,
    #[param(default = ["a", 1])] e: Vec<String>,
    #[param(default = "ab")] f: char,
) {
    let _ = (a, b, c, d, e, f);
}

fn main() {}
