use toolhook::tool;

#[tool]
fn lookup(
    #[param(enum = ["a", 2])] unit: String,
    #[param(enum = [true, false])] flag: bool,
    #[param(enum = ["x"])] items: Vec<String>,
    #[param(enum = [])] level: u8,
) {
    let _ = (unit, flag, items, level);
}

fn main() {}
