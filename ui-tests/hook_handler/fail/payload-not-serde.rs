use toolhook::hook_handler;

struct Plain {
    text: String,
}

#[hook_handler("chat.receive.before_process")]
async fn by_value(_payload: Plain) {}

#[hook_handler("chat.receive.before_process")]
async fn by_ref(_payload: &Plain) {}

fn main() {}
