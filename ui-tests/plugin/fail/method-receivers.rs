use toolhook::{action, plugin, tool};

#[derive(Default)]
struct A;

#[plugin(id = "acme.a")]
impl A {
    #[tool]
    async fn mutable(&mut self) {}

    #[tool]
    async fn owned(self) {}

    #[tool]
    async fn associated() {}

    #[tool]
    #[action]
    async fn both(&self) {}
}

fn main() {}
