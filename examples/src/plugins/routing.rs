//! The model-routing scenario: the planner may ask for a deeper reply, and the
//! replyer then uses a stronger model (named in the plugin's config).

use std::sync::OnceLock;
use toolhook::hooks::payload::MaisakaReplyerBeforeRequest;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{PluginContext, hook_handler, plugin, schemars, serde};

/// Which model deep replies use.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct RoutingConfig {
    /// The model for replies that need careful reasoning.
    pub deep_model: String,
}

impl Default for RoutingConfig {
    fn default() -> Self {
        RoutingConfig { deep_model: "strong-reasoner-1".into() }
    }
}

/// Routes replies by thinking level.
#[derive(Debug, Default)]
pub struct Routing {
    ctx: OnceLock<PluginContext>,
}

/// Lets the planner choose how hard the replyer works.
#[plugin(id = "examples.routing", config = RoutingConfig)]
impl Routing {
    async fn on_load(&self, ctx: &PluginContext) {
        let _ = self.ctx.set(ctx.clone());
    }

    /// Adds an optional `thinking_level` to the `reply` tool the planner model sees.
    #[hook_handler("maisaka.planner.before_request")]
    async fn offer_thinking_level(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        let Some(definitions) = args.get("tool_definitions").and_then(|d| d.as_array()).cloned() else {
            return HookOutcome::proceed();
        };
        let definitions: Vec<serde_json::Value> = definitions
            .into_iter()
            .map(|mut definition| {
                if definition["function"]["name"] == "reply"
                    && let Some(properties) = definition["function"]["parameters"]["properties"].as_object_mut()
                {
                    properties.insert(
                        "thinking_level".into(),
                        serde_json::json!({
                            "type": "string",
                            "enum": ["normal", "deep"],
                            "description": "Pick deep for replies that need careful reasoning.",
                        }),
                    );
                }
                definition
            })
            .collect();
        args.insert("tool_definitions", definitions);
        HookOutcome::modify(args)
    }

    /// Sends `deep` replies to the stronger model, with an instruction to reason carefully.
    #[hook_handler("maisaka.replyer.before_request")]
    async fn route_deep_replies(
        &self,
        mut request: MaisakaReplyerBeforeRequest,
    ) -> Result<HookOutcome<MaisakaReplyerBeforeRequest>, String> {
        if request.reply_tool_args.get("thinking_level").and_then(|l| l.as_str()) != Some("deep") {
            return Ok(HookOutcome::proceed());
        }
        let ctx = self.ctx.get().ok_or("the routing plugin is not loaded")?;
        let config = ctx.config::<RoutingConfig>().ok_or("the routing config is missing")?;
        request.model_name = config.deep_model.clone();
        if !request.extra_prompt.is_empty() {
            request.extra_prompt.push('\n');
        }
        request.extra_prompt.push_str("Reason carefully, step by step, before answering.");
        Ok(HookOutcome::modify(request))
    }
}
