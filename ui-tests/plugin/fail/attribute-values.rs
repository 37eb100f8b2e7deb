use toolhook::plugin;

#[derive(Default)]
struct A;

#[plugin(id = "Bad Id", version = "1.2", nmae = "A", config_subscriptions = ["bot", "chat"], config_version = "2")]
impl A {}

#[derive(Default)]
struct B;

#[plugin(name = "B")]
impl B {}

#[derive(Default)]
struct C;

#[plugin(id = "acme.c", id = "acme.d", name = "  ")]
impl C {}

fn main() {}
