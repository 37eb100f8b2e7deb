use toolhook::tool;

struct Opaque;

#[tool]
fn lookup(thing: Opaque, things: Vec<Opaque>) {
    let _ = (thing, things);
}

fn main() {}
