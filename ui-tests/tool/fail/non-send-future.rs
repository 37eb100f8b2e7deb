use std::rc::Rc;
use toolhook::tool;

#[tool]
async fn lookup(q: String) -> String {
    let shared = Rc::new(q);
    std::future::ready(()).await;
    (*shared).clone()
}

fn main() {}
