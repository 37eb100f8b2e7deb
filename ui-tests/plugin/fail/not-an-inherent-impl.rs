use toolhook::plugin;

#[derive(Default)]
struct A;

trait Named {
    fn name(&self) -> &'static str;
}

#[plugin(id = "acme.a")]
impl Named for A {
    fn name(&self) -> &'static str {
        "a"
    }
}

#[derive(Default)]
struct G<T>(T);

#[plugin(id = "acme.g")]
impl<T: Default + Send + Sync + 'static> G<T> {}

#[plugin(id = "acme.f")]
fn not_an_impl() {}

fn main() {}
