use std::rc::Rc;
use toolhook::tool;

/// Look up.
#[tool]
async fn lookup(
    /// The query.
    q: String,
) -> String {
    let shared = Rc::new(q);
    std::future::ready(()).await;
    (*shared).clone()
}

fn main() {}
