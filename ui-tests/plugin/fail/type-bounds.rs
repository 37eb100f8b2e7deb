use toolhook::{plugin, tool};

struct NoDefault;

#[plugin(id = "acme.no_default")]
impl NoDefault {
    /// Ping.
    #[tool]
    async fn ping(&self) {}
}

#[derive(Default)]
struct NotAConfig;

#[derive(Default)]
struct WithConfig;

#[plugin(id = "acme.with_config", config = NotAConfig)]
impl WithConfig {}

fn main() {}
