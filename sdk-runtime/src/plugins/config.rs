//! Plugin config documents: where the host keeps them, and how a stored document
//! becomes the plugin's validated config.

use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use toolhook::__private::{ConfigDeclaration, Instance};
use toolhook::Locale;

/// A boxed error a [`ConfigSource`] returns.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Where a host keeps plugin config documents, one JSON object per plugin id, in whatever storage
/// it likes. Called on the host's lifecycle path, so it should be quick.
pub trait ConfigSource: Send + Sync + 'static {
    /// The stored document; `None` when nothing is stored.
    fn load(&self, plugin_id: &str) -> Result<Option<Value>, BoxError>;
    /// Stores a document.
    fn store(&self, plugin_id: &str, document: &Value) -> Result<(), BoxError>;
}

/// A [`ConfigSource`] in memory (tests, and hosts that persist elsewhere).
///
/// ```
/// use toolhook_runtime::{ConfigSource, MemoryConfigSource};
///
/// let source = MemoryConfigSource::new();
/// source.store("acme.weather", &serde_json::json!({"plugin": {"config_version": "1.0.0"}})).unwrap();
/// assert!(source.load("acme.weather").unwrap().is_some());
/// assert!(source.load("other").unwrap().is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemoryConfigSource {
    documents: Arc<Mutex<HashMap<String, Value>>>,
}

impl MemoryConfigSource {
    /// An empty source.
    pub fn new() -> Self {
        Self::default()
    }

    /// A source holding one document.
    pub fn with(self, plugin_id: impl Into<String>, document: Value) -> Self {
        self.documents.lock().unwrap_or_else(|p| p.into_inner()).insert(plugin_id.into(), document);
        self
    }
}

impl ConfigSource for MemoryConfigSource {
    fn load(&self, plugin_id: &str) -> Result<Option<Value>, BoxError> {
        Ok(self.documents.lock().unwrap_or_else(|p| p.into_inner()).get(plugin_id).cloned())
    }

    fn store(&self, plugin_id: &str, document: &Value) -> Result<(), BoxError> {
        self.documents.lock().unwrap_or_else(|p| p.into_inner()).insert(plugin_id.to_owned(), document.clone());
        Ok(())
    }
}

/// Why a config document is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The document is not a JSON object, or its `plugin` member is not one.
    #[error("a plugin config document must be a JSON object, with `plugin` (when present) an object")]
    MissingSection,
    /// `plugin.config_version` is not a string, or blank.
    #[error("`plugin.config_version` must be a version string such as \"1.0.0\"")]
    MissingVersion,
    /// A value does not fit the config type.
    #[error("invalid plugin config at {path}: {reason}")]
    Invalid {
        /// The JSON path of the bad value.
        path: String,
        /// serde's message.
        reason: String,
    },
}

impl ConfigError {
    /// The text in a locale (English is also the `Display` form).
    pub fn message(&self, locale: Locale) -> String {
        match (self, locale) {
            (_, Locale::En) => self.to_string(),
            (ConfigError::MissingSection, Locale::ZhHans) => {
                "插件配置文件缺少 [plugin] 配置节，且必须提供 plugin.config_version 版本号".to_owned()
            }
            (ConfigError::MissingVersion, Locale::ZhHans) => {
                "插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置".to_owned()
            }
            (ConfigError::Invalid { path, reason }, Locale::ZhHans) => format!("插件配置无效：{path}: {reason}"),
        }
    }
}

/// A normalised config document.
#[derive(Clone, Debug)]
pub struct NormalisedConfig {
    /// `{"plugin": {"config_version", "enabled"}, <the config's fields>}`.
    pub document: Value,
    /// Whether normalising filled or changed anything (the host then stores it).
    pub changed: bool,
    /// `plugin.enabled`.
    pub enabled: bool,
    /// The stored `plugin.config_version`.
    pub version: String,
    pub(crate) typed: Option<Instance>,
}

/// The defaults document: `C::default()` plus the `plugin` section.
pub(crate) fn defaults(declaration: Option<&ConfigDeclaration>) -> Result<Value, ConfigError> {
    let version = declaration.map_or("1.0.0", |d| d.version);
    let mut document = Map::new();
    let mut plugin = Map::new();
    plugin.insert("config_version".into(), Value::from(version));
    plugin.insert("enabled".into(), Value::Bool(true));
    document.insert("plugin".into(), Value::Object(plugin));
    if let Some(declaration) = declaration {
        let fields = (declaration.defaults)().map_err(|reason| ConfigError::Invalid { path: ".".into(), reason })?;
        if let Value::Object(fields) = fields {
            document.extend(fields.into_iter().filter(|(k, _)| k != "plugin"));
        }
    }
    Ok(Value::Object(document))
}

/// Fills missing keys of `target` from `defaults`, recursively (objects key by key; arrays and
/// scalars are values). Returns whether anything was filled.
fn fill(target: &mut Map<String, Value>, defaults: &Map<String, Value>) -> bool {
    let mut filled = false;
    for (key, default) in defaults {
        match (target.get_mut(key), default) {
            (None, _) => {
                target.insert(key.clone(), default.clone());
                filled = true;
            }
            (Some(Value::Object(inner)), Value::Object(default_inner)) => filled |= fill(inner, default_inner),
            _ => {}
        }
    }
    filled
}

/// `plugin.enabled`: absent means `true`; anything but a JSON boolean is an error (a `"false"`
/// or a `0` must never switch a plugin on, nor be rewritten).
fn enabled_flag(value: Option<&Value>) -> Result<bool, ConfigError> {
    match value {
        None => Ok(true),
        Some(Value::Bool(enabled)) => Ok(*enabled),
        Some(other) => Err(ConfigError::Invalid {
            path: "plugin.enabled".into(),
            reason: format!("expected a boolean, got {}", toolhook::args::describe_value(other)),
        }),
    }
}

/// Normalises a stored document.
pub fn normalise(
    declaration: Option<&ConfigDeclaration>,
    stored: Option<&Value>,
) -> Result<NormalisedConfig, ConfigError> {
    let defaults_doc = defaults(declaration)?;
    let empty = stored.is_none_or(|d| d.as_object().is_some_and(Map::is_empty) || d.is_null());
    let document = if empty { defaults_doc.clone() } else { stored.cloned().unwrap_or(Value::Null) };
    let Some(declaration) = declaration else {
        // Without a config type any document is accepted; only plugin.enabled is read.
        let enabled = enabled_flag(document.get("plugin").and_then(|p| p.get("enabled")))?;
        let version = document
            .get("plugin")
            .and_then(|p| p.get("config_version"))
            .and_then(Value::as_str)
            .unwrap_or("1.0.0")
            .to_owned();
        return Ok(NormalisedConfig { document, changed: empty, enabled, version, typed: None });
    };
    let Value::Object(mut map) = document else { return Err(ConfigError::MissingSection) };
    // A document without a `plugin` object, or without a version in it, is of the version the
    // plugin declares: hosts that keep only the plugin's own fields need not write one.
    let plugin = match map.entry("plugin").or_insert_with(|| Value::Object(Map::new())) {
        Value::Object(plugin) => plugin,
        _ => return Err(ConfigError::MissingSection),
    };
    let version = match plugin.entry("config_version").or_insert_with(|| Value::from(declaration.version)) {
        Value::String(v) if !v.trim().is_empty() => v.clone(),
        _ => return Err(ConfigError::MissingVersion),
    };
    let original = map.clone();
    let filled = match &defaults_doc {
        Value::Object(defaults) => fill(&mut map, defaults),
        _ => false,
    };
    let mut plugin = match map.shift_remove("plugin") {
        Some(Value::Object(plugin)) => plugin,
        _ => Map::new(),
    };
    let enabled = enabled_flag(plugin.get("enabled"))?;
    plugin.insert("enabled".into(), Value::Bool(enabled));
    let (fields, typed) =
        (declaration.load)(&Value::Object(map)).map_err(|e| ConfigError::Invalid { path: e.path, reason: e.reason })?;
    let mut normalised = Map::new();
    normalised.insert("plugin".into(), Value::Object(plugin));
    if let Value::Object(fields) = fields {
        normalised.extend(fields.into_iter().filter(|(k, _)| k != "plugin"));
    }
    let normalised = Value::Object(normalised);
    let changed = empty || filled || normalised != Value::Object(original);
    Ok(NormalisedConfig { document: normalised, changed, enabled, version, typed: Some(typed) })
}

/// An update laid over the current document (JSON Merge Patch, RFC 7396): objects merge key by
/// key, a `null` removes a key (so it takes its default again), anything else replaces.
pub(crate) fn merge_patch(current: &Value, update: &Value) -> Value {
    match (current, update) {
        (Value::Object(current), Value::Object(update)) => {
            let mut out = current.clone();
            for (key, value) in update {
                if value.is_null() {
                    out.shift_remove(key);
                } else {
                    let merged = match out.get(key) {
                        Some(old) => merge_patch(old, value),
                        None => merge_patch(&Value::Null, value),
                    };
                    out.insert(key.clone(), merged);
                }
            }
            Value::Object(out)
        }
        (_, Value::Object(update)) => merge_patch(&Value::Object(Map::new()), &Value::Object(update.clone())),
        (_, update) => update.clone(),
    }
}

/// Overlays an old document's values onto new defaults, except `plugin.config_version` (for
/// migrations between config versions).
pub fn rebuild(old: &Value, defaults: &Value) -> Value {
    fn overlay(target: &mut Value, old: &Value, top: bool) {
        match (target, old) {
            (Value::Object(target), Value::Object(old)) => {
                for (key, value) in old {
                    match target.get_mut(key) {
                        Some(slot) if top && key == "plugin" => {
                            if let (Value::Object(slot), Value::Object(value)) = (slot, value) {
                                for (k, v) in value.iter().filter(|(k, _)| k.as_str() != "config_version") {
                                    slot.insert(k.clone(), v.clone());
                                }
                            }
                        }
                        Some(slot) => overlay(slot, value, false),
                        None => {
                            target.insert(key.clone(), value.clone());
                        }
                    }
                }
            }
            (target, old) => *target = old.clone(),
        }
    }
    let mut out = defaults.clone();
    overlay(&mut out, old, true);
    out
}
