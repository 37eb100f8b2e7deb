//! A plugin with config, lifecycle, a tool, a command, a legacy action and hook handlers, in a
//! crate that depends on toolhook alone.
#![allow(deprecated)]

use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{ConfigScope, PluginContext, action, command, hook_handler, plugin, schemars, serde, tool};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Default)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
struct Config {
    api_key: String,
}

#[derive(Default)]
struct Weather;

/// Weather forecasts.
#[plugin(id = "acme.weather", name = "Weather", version = "1.2.0", config = Config, config_version = "2.0.0", config_subscriptions = ["bot", "model"])]
impl Weather {
    async fn on_load(&self, ctx: &PluginContext) -> Result<(), String> {
        ctx.config::<Config>().map(|_| ()).ok_or_else(|| "no config".to_owned())
    }

    async fn on_unload(&self) {}

    async fn on_config_update(&self, scope: ConfigScope, config: &toolhook::__private::serde_json::Value, version: &str) -> Result<(), std::io::Error> {
        let _ = (scope, config, version);
        Ok(())
    }

    /// Forecast.
    #[tool(core_tool = true)]
    #[command(alias = ["天气"])]
    async fn forecast(&self, city: String, days: Option<u8>) -> String {
        format!("{city} {days:?}")
    }

    /// Poke someone.
    #[action(activation_type = "keyword", activation_keywords = ["poke"])]
    async fn poke(&self, target: Option<String>) -> String {
        target.unwrap_or_default()
    }

    #[hook_handler("send_service.before_send", order = "late")]
    async fn tag(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }

    fn not_a_component(&self) -> u8 {
        1
    }
}

fn main() {
    let _ = Weather.not_a_component();
}
