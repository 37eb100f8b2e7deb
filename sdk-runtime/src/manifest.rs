//! A JSON manifest of every plugin and component, for hosts written in other
//! languages. Needs no instance and runs no lifecycle method.

use crate::command::CommandSpec;
use crate::plugins::{CollectedPlugin, HostClassification, PluginSet};
use serde_json::{Map, Value, json};
use toolhook::__private::ToolKind;
use toolhook::{Locale, ToolSpec};

/// The manifest of every collected plugin; deterministic (plugins by id, tools and handlers by
/// name, keys in a fixed order, both locales always present).
///
/// A plugin's `state_on_collect` is `"failed"` when it cannot load at all; its `problems` list
/// why, and also name each component left out (a duplicate tool name, a tool whose spec is
/// invalid, a command that does not fit its tool), which are absent from its `tools` and
/// `hook_handlers`: the plugin loads without them, so its state stays `"ok"`.
///
/// ```
/// use toolhook_runtime::{HostClassification, PluginSet, manifest};
///
/// let document = manifest::export(&PluginSet::collect(), &HostClassification::default());
/// assert_eq!(document["manifest_version"], 1);
/// assert!(document["plugins"].is_array());
/// ```
pub fn export(set: &PluginSet, classification: &HostClassification) -> Value {
    json!({
        "manifest_version": 1,
        "generator": format!("toolhook {}", env!("CARGO_PKG_VERSION")),
        "plugins": set.plugins().map(|p| plugin(p, classification)).collect::<Vec<_>>(),
    })
}

/// [`export`] as pretty-printed JSON.
pub fn to_string_pretty(set: &PluginSet, classification: &HostClassification) -> String {
    serde_json::to_string_pretty(&export(set, classification)).unwrap_or_default()
}

fn plugin(p: &CollectedPlugin, classification: &HostClassification) -> Value {
    let config = p.registration().and_then(|r| r.config).map(|c| {
        json!({
            "version": c.version,
            "subscriptions": c.subscriptions.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            "schema": p.config_schema(),
            "default": p.default_config().and_then(Result::ok),
        })
    });
    let mut out = Map::new();
    out.insert("id".into(), json!(p.id()));
    out.insert("name".into(), json!(p.name()));
    out.insert("version".into(), json!(p.version()));
    out.insert("description".into(), json!(p.description()));
    out.insert("source".into(), json!(classification.classify(p.id()).as_str()));
    out.insert("default_plugin".into(), json!(p.is_default_plugin()));
    out.insert("state_on_collect".into(), json!(if p.problems().is_empty() { "ok" } else { "failed" }));
    // Whole-plugin problems, then those of the components left out (the plugin loads without
    // them): a host reading the manifest learns of every one.
    let problems = p.problems().iter().cloned().chain(p.left_out().iter().map(|problem| problem.message.clone()));
    out.insert("problems".into(), json!(problems.collect::<Vec<_>>()));
    out.insert("config".into(), config.unwrap_or(Value::Null));
    out.insert(
        "tools".into(),
        Value::Array(p.tools().iter().map(|t| tool(t.spec(), t.kind(), p.commands())).collect()),
    );
    let handlers = p.hook_handlers().iter().map(|h| {
        json!({
            "name": h.name(),
            "full_name": h.full_name(),
            "hook": h.hook(),
            "mode": h.mode().as_str(),
            "order": h.order().as_str(),
            "timeout_ms": h.timeout().map_or(0, |t| t.as_millis() as u64),
            "error_policy": h.error_policy().as_str(),
            "description": h.description(),
            "metadata": h.metadata(),
            "payload_schema": h.payload_schema(),
        })
    });
    out.insert("hook_handlers".into(), Value::Array(handlers.collect()));
    Value::Object(out)
}

fn tool(spec: &ToolSpec, kind: ToolKind, commands: &[CommandSpec]) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), json!(if kind == ToolKind::LegacyAction { "legacy_action" } else { "tool" }));
    if let Value::Object(form) = serde_json::to_value(spec).unwrap_or(Value::Null) {
        out.extend(form);
    }
    out.insert("timeout_ms".into(), json!(spec.timeout().map(|t| t.as_millis() as u64)));
    let command = commands.iter().find(|c| c.name() == spec.name()).map(|c| {
        json!({
            "pattern": c.pattern_text(),
            "aliases": c.aliases(),
            "usage": c.usage_lines(),
            "examples": c.examples(),
            "help": {"en": c.help(Locale::En), "zh-Hans": c.help(Locale::ZhHans)},
        })
    });
    out.insert("command".into(), command.unwrap_or(Value::Null));
    Value::Object(out)
}
