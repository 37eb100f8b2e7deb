use toolhook::hook_handler;

struct Plain {
    text: String,
}

#[hook_handler("a.b")]
async fn by_value(_payload: Plain) {}

#[hook_handler("a.b")]
async fn by_ref(_payload: &Plain) {}

fn main() {}
