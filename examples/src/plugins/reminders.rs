//! A plugin with typed config, lifecycle and state shared by its tools, two of which double as
//! chat commands.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use toolhook::{ConfigScope, PluginContext, ToolExecutionContext, command, plugin, schemars, serde, tool};

/// Settings of the reminders plugin, with their defaults.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct RemindersConfig {
    /// How many reminders one user may keep.
    pub max_per_user: usize,
    /// What a new reminder is confirmed with.
    pub confirmation: String,
}

impl Default for RemindersConfig {
    fn default() -> Self {
        RemindersConfig { max_per_user: 3, confirmation: "Noted".into() }
    }
}

/// Reminders, kept per user for as long as the host runs.
#[derive(Debug, Default)]
pub struct Reminders {
    ctx: OnceLock<PluginContext>,
    by_user: Mutex<HashMap<String, Vec<String>>>,
}

/// Remembers things for users.
#[plugin(id = "examples.reminders", name = "Reminders", version = "1.0.0", config = RemindersConfig)]
impl Reminders {
    async fn on_load(&self, ctx: &PluginContext) -> Result<(), String> {
        let config = ctx.config::<RemindersConfig>().ok_or("the reminders config is missing")?;
        if config.max_per_user == 0 {
            return Err("max_per_user must be at least 1".into());
        }
        let _ = self.ctx.set(ctx.clone());
        Ok(())
    }

    async fn on_unload(&self) {
        self.by_user.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// The host has already validated the new document and handed it to the context; a lower
    /// `max_per_user` drops each user's oldest reminders beyond it.
    async fn on_config_update(&self, scope: ConfigScope, _config: &toolhook::serde_json::Value, _version: &str) {
        if scope != ConfigScope::Own {
            return;
        }
        let max = self.config().max_per_user;
        for list in self.by_user.lock().unwrap_or_else(|p| p.into_inner()).values_mut() {
            let excess = list.len().saturating_sub(max);
            list.drain(..excess);
        }
    }

    fn config(&self) -> RemindersConfig {
        self.ctx.get().and_then(|ctx| ctx.config::<RemindersConfig>()).map(|c| (*c).clone()).unwrap_or_default()
    }

    /// Remember something for the user who asks.
    #[tool(core_tool = true)]
    #[command(alias = ["remind"], pattern = "remember <text:rest>", examples = ["remember buy milk"])]
    async fn remember(
        &self,
        ctx: &ToolExecutionContext,
        /// What to remember.
        #[param(rename = "text")]
        what: String,
    ) -> Result<String, String> {
        let config = self.config();
        let mut by_user = self.by_user.lock().unwrap_or_else(|p| p.into_inner());
        let list = by_user.entry(ctx.user_id.clone()).or_default();
        if list.len() >= config.max_per_user {
            return Err(format!("you already have {} reminders", list.len()));
        }
        list.push(what.clone());
        Ok(format!("{}: {what}", config.confirmation))
    }

    /// List what the user asked to remember.
    #[tool(core_tool = true)]
    #[command]
    async fn reminders(&self, ctx: &ToolExecutionContext) -> String {
        let by_user = self.by_user.lock().unwrap_or_else(|p| p.into_inner());
        match by_user.get(&ctx.user_id) {
            Some(list) if !list.is_empty() => list.iter().map(|r| format!("- {r}")).collect::<Vec<_>>().join("\n"),
            _ => "Nothing to remember.".into(),
        }
    }
}
