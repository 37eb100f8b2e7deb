use toolhook::{PluginContext, plugin};

#[derive(Default)]
struct A;

#[plugin(id = "acme.a")]
impl A {
    async fn on_load(&self) {}

    fn on_unload(&self) {}

    async fn on_config_update(&self, config: &toolhook::__private::serde_json::Value) {
        let _ = config;
    }

    async fn helper(&self, ctx: &PluginContext) {
        let _ = ctx;
    }
}

fn main() {}
