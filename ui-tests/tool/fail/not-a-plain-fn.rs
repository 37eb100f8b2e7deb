use toolhook::tool;

#[tool]
const fn a() {}

#[tool]
unsafe fn b() {}

#[tool]
extern "C" fn c() {}

#[tool]
fn d<T>(x: T) {
    let _ = x;
}

#[tool]
struct NotAFn;

fn main() {}
