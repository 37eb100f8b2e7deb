//! Hook specs and their registry: what a hook is called with and what its handlers
//! may do.

use super::catalogue::{CATALOGUE, payload_schema};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use toolhook::Locale;

/// What a hook is: its name, the schema of its arguments, its default timeout, and what its
/// handlers may do.
///
/// Built in code or deserialised from JSON (every field but `name` optional; `default_timeout_ms`
/// accepts any JSON integer, a negative one meaning 0). A [`HookSpecRegistry`] normalises it on
/// registration.
///
/// ```
/// use serde_json::json;
/// use toolhook_runtime::hooks::{HookSpec, HookSpecRegistry};
///
/// let spec: HookSpec = serde_json::from_value(json!({
///     "name": " demo.hook ",
///     "parameters_schema": {"text": {"type": "string"}},
///     "default_timeout_ms": -5,
///     "allow_abort": false,
/// }))?;
/// let stored = HookSpecRegistry::new().register(spec)?;
/// assert_eq!(stored.name, "demo.hook");
/// assert_eq!(stored.parameters_schema, json!({"type": "object", "properties": {"text": {"type": "string"}}}));
/// assert_eq!(stored.default_timeout_ms, 0);
/// assert!(stored.allow_blocking && stored.allow_observe && !stored.allow_abort);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HookSpec {
    /// The hook's name, e.g. `chat.receive.before_process`.
    pub name: String,
    /// Where the hook fires (documentation).
    #[serde(default)]
    pub description: String,
    /// The JSON Schema of the arguments: an object schema, or `{}` for none. Blocking handlers'
    /// changed arguments are validated against it.
    #[serde(default = "empty_object")]
    pub parameters_schema: Value,
    /// The timeout of handlers that set none; 0 means the dispatcher's default.
    #[serde(default, deserialize_with = "timeout_from_any_integer")]
    pub default_timeout_ms: u64,
    /// Whether blocking handlers may subscribe.
    #[serde(default = "yes")]
    pub allow_blocking: bool,
    /// Whether observe handlers may subscribe.
    #[serde(default = "yes")]
    pub allow_observe: bool,
    /// Whether a handler may stop the hook.
    #[serde(default = "yes")]
    pub allow_abort: bool,
    /// Whether a handler may change the arguments.
    #[serde(default = "yes")]
    pub allow_kwargs_mutation: bool,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn yes() -> bool {
    true
}

/// Any JSON integer; a negative one becomes 0.
fn timeout_from_any_integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    struct Visitor;
    impl serde::de::Visitor<'_> for Visitor {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer number of milliseconds")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u64, E> {
            Ok(u64::try_from(v).unwrap_or(0))
        }
    }
    deserializer.deserialize_any(Visitor)
}

impl HookSpec {
    /// A spec with every permission and no schema.
    pub fn new(name: impl Into<String>) -> Self {
        HookSpec {
            name: name.into(),
            description: String::new(),
            parameters_schema: empty_object(),
            default_timeout_ms: 0,
            allow_blocking: true,
            allow_observe: true,
            allow_abort: true,
            allow_kwargs_mutation: true,
        }
    }

    /// The spec the dispatcher uses for a hook nobody registered: no schema, every permission.
    pub(crate) fn synthetic(name: &str) -> Self {
        HookSpec::new(name)
    }

    /// Trims the texts and brings the schema into object form.
    pub fn normalized(mut self) -> Result<Self, HookSpecError> {
        self.name = self.name.trim().to_owned();
        if self.name.is_empty() {
            return Err(HookSpecError::EmptyName);
        }
        self.description = self.description.trim().to_owned();
        self.parameters_schema = normalize_schema(self.parameters_schema)?;
        Ok(self)
    }

    /// Whether changed arguments are validated against the schema: it has `properties` or
    /// `required`.
    pub(crate) fn validates(&self) -> bool {
        self.parameters_schema.get("properties").is_some() || self.parameters_schema.get("required").is_some()
    }
}

fn normalize_schema(schema: Value) -> Result<Value, HookSpecError> {
    let mut map = match schema {
        Value::Null => return Ok(empty_object()),
        Value::Object(map) if map.is_empty() => return Ok(Value::Object(map)),
        Value::Object(map) => map,
        _ => return Err(HookSpecError::NotAMap),
    };
    let has_type = !matches!(map.get("type"), None | Some(Value::Null)) && map.get("type") != Some(&Value::from(""));
    let has_properties = map.contains_key("properties");
    match (has_type, has_properties) {
        (true, false) if map.get("type") != Some(&Value::from("object")) => return Err(HookSpecError::ObjectOrMap),
        (false, false) => {
            let mut wrapped = Map::new();
            wrapped.insert("type".to_owned(), Value::from("object"));
            wrapped.insert("properties".to_owned(), Value::Object(map));
            return Ok(Value::Object(wrapped));
        }
        (false, true) => {
            map.insert("type".to_owned(), Value::from("object"));
        }
        _ => {}
    }
    if map.get("type") != Some(&Value::from("object")) {
        return Err(HookSpecError::ObjectType);
    }
    Ok(Value::Object(map))
}

/// A hook spec that cannot be registered. `Display` is English; [`message`](Self::message) gives
/// either locale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HookSpecError {
    /// The name is empty after trimming.
    #[error("Hook name must not be empty")]
    EmptyName,
    /// The schema is neither null nor a JSON object.
    #[error("Hook parameter schema must be a JSON object")]
    NotAMap,
    /// The schema has a `type` other than `object` and no `properties`.
    #[error("Hook parameter schema must be of type object or a property map")]
    ObjectOrMap,
    /// The schema has `properties` and a `type` other than `object`.
    #[error("Hook parameter schema must be of type object")]
    ObjectType,
}

impl HookSpecError {
    /// The error text in `locale`.
    pub fn message(&self, locale: Locale) -> String {
        match self {
            HookSpecError::EmptyName => locale.pick("Hook name must not be empty", "Hook 名称不能为空"),
            HookSpecError::NotAMap => {
                locale.pick("Hook parameter schema must be a JSON object", "Hook 参数模型必须是字典")
            }
            HookSpecError::ObjectOrMap => locale.pick(
                "Hook parameter schema must be of type object or a property map",
                "Hook 参数模型必须是 object 类型或属性映射",
            ),
            HookSpecError::ObjectType => {
                locale.pick("Hook parameter schema must be of type object", "Hook 参数模型必须是 object 类型")
            }
        }
        .to_owned()
    }
}

/// `{"type":"object","properties":…}`, with `required` only when its trimmed, non-empty entries
/// are not empty.
///
/// ```
/// use serde_json::json;
/// use toolhook_runtime::hooks::build_object_schema;
///
/// let properties = json!({"text": {"type": "string"}}).as_object().unwrap().clone();
/// assert_eq!(
///     build_object_schema(properties.clone(), [" text ", ""]),
///     json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
/// );
/// assert_eq!(build_object_schema(properties, ["  "]), json!({"type": "object", "properties": {"text": {"type": "string"}}}));
/// ```
pub fn build_object_schema<S: AsRef<str>>(
    properties: Map<String, Value>,
    required: impl IntoIterator<Item = S>,
) -> Value {
    let required: Vec<Value> = required
        .into_iter()
        .map(|name| name.as_ref().trim().to_owned())
        .filter(|name| !name.is_empty())
        .map(Value::from)
        .collect();
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::from("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), Value::Array(required));
    }
    Value::Object(schema)
}

/// The hook specs a dispatcher knows, by name. Thread-safe: register specs while hooks fire.
///
/// ```
/// use toolhook_runtime::hooks::{HookSpec, HookSpecRegistry};
///
/// let catalogue = HookSpecRegistry::with_builtin_catalogue();
/// assert_eq!(catalogue.list().len(), 22);
/// let after_send = catalogue.get("send_service.after_send").unwrap();
/// assert_eq!(after_send.default_timeout_ms, 5000);
/// assert!(!after_send.allow_abort && !after_send.allow_kwargs_mutation);
///
/// let registry = HookSpecRegistry::new();
/// registry.register(HookSpec::new("b.hook"))?;
/// registry.register(HookSpec::new("a.hook"))?;
/// let names: Vec<String> = registry.list().into_iter().map(|s| s.name).collect();
/// assert_eq!(names, ["a.hook", "b.hook"]);
/// assert!(registry.unregister(" a.hook "));
/// assert!(registry.get("a.hook").is_none());
/// # Ok::<(), toolhook_runtime::hooks::HookSpecError>(())
/// ```
#[derive(Debug, Default)]
pub struct HookSpecRegistry {
    specs: RwLock<BTreeMap<String, Arc<HookSpec>>>,
    /// Bumped by every change, under the lock: what dispatchers prepared from an older
    /// generation is not used.
    generation: AtomicU64,
}

impl HookSpecRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        HookSpecRegistry::default()
    }

    /// The 22 hooks of the built-in catalogue, property descriptions in English.
    pub fn with_builtin_catalogue() -> Self {
        HookSpecRegistry::with_builtin_catalogue_in(Locale::En)
    }

    /// The built-in catalogue with property descriptions in `locale`.
    pub fn with_builtin_catalogue_in(locale: Locale) -> Self {
        let specs = CATALOGUE
            .iter()
            .map(|hook| {
                let spec = HookSpec {
                    name: hook.name.to_owned(),
                    description: hook.description.to_owned(),
                    parameters_schema: payload_schema(hook, locale),
                    default_timeout_ms: hook.default_timeout_ms,
                    allow_blocking: true,
                    allow_observe: true,
                    allow_abort: hook.allow_abort,
                    allow_kwargs_mutation: hook.allow_kwargs_mutation,
                };
                (spec.name.clone(), Arc::new(spec))
            })
            .collect();
        HookSpecRegistry { specs: RwLock::new(specs), generation: AtomicU64::new(0) }
    }

    /// Normalises `spec` and stores it, replacing a spec of the same name; returns the stored copy.
    pub fn register(&self, spec: HookSpec) -> Result<HookSpec, HookSpecError> {
        let spec = spec.normalized()?;
        let mut specs = self.specs.write().unwrap_or_else(|e| e.into_inner());
        specs.insert(spec.name.clone(), Arc::new(spec.clone()));
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(spec)
    }

    /// A copy of the spec named `name` (trimmed).
    pub fn get(&self, name: &str) -> Option<HookSpec> {
        self.get_shared(name).map(|spec| (*spec).clone())
    }

    /// Removes the spec named `name` (trimmed); whether there was one.
    pub fn unregister(&self, name: &str) -> bool {
        let mut specs = self.specs.write().unwrap_or_else(|e| e.into_inner());
        let removed = specs.remove(name.trim()).is_some();
        self.generation.fetch_add(1, Ordering::AcqRel);
        removed
    }

    /// The count of changes so far.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Copies of every spec, sorted by name.
    pub fn list(&self) -> Vec<HookSpec> {
        self.specs.read().unwrap_or_else(|e| e.into_inner()).values().map(|spec| (**spec).clone()).collect()
    }

    pub(crate) fn get_shared(&self, name: &str) -> Option<Arc<HookSpec>> {
        self.specs.read().unwrap_or_else(|e| e.into_inner()).get(name.trim()).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema_of(schema: Value) -> Result<Value, HookSpecError> {
        HookSpec { parameters_schema: schema, ..HookSpec::new("x") }.normalized().map(|s| s.parameters_schema)
    }

    #[test]
    fn absent_null_and_empty_schemas_mean_no_schema() {
        assert_eq!(schema_of(Value::Null), Ok(json!({})));
        assert_eq!(schema_of(json!({})), Ok(json!({})));
        let spec: HookSpec = serde_json::from_value(json!({"name": "x"})).unwrap();
        assert_eq!(spec.parameters_schema, json!({}));
    }

    #[test]
    fn a_property_map_is_wrapped_and_a_missing_type_added() {
        assert_eq!(
            schema_of(json!({"x": {"type": "string"}})),
            Ok(json!({"type": "object", "properties": {"x": {"type": "string"}}}))
        );
        assert_eq!(schema_of(json!({"properties": {"y": {}}})), Ok(json!({"properties": {"y": {}}, "type": "object"})));
        assert_eq!(
            schema_of(json!({"type": "", "properties": {"y": {}}})),
            Ok(json!({"type": "object", "properties": {"y": {}}}))
        );
    }

    #[test]
    fn schemas_that_are_not_objects_are_rejected_with_the_three_errors() {
        assert_eq!(schema_of(json!({"type": "array"})), Err(HookSpecError::ObjectOrMap));
        assert_eq!(schema_of(json!({"type": "array", "properties": {}})), Err(HookSpecError::ObjectType));
        assert_eq!(schema_of(json!("s")), Err(HookSpecError::NotAMap));
        assert_eq!(HookSpecError::ObjectOrMap.message(Locale::ZhHans), "Hook 参数模型必须是 object 类型或属性映射");
        assert_eq!(HookSpecError::NotAMap.message(Locale::ZhHans), "Hook 参数模型必须是字典");
    }

    #[test]
    fn blank_names_are_rejected() {
        assert_eq!(HookSpec::new("  ").normalized(), Err(HookSpecError::EmptyName));
        assert_eq!(HookSpecError::EmptyName.message(Locale::ZhHans), "Hook 名称不能为空");
    }

    #[test]
    fn timeouts_read_any_integer() {
        let spec: HookSpec = serde_json::from_value(json!({"name": "x", "default_timeout_ms": -5})).unwrap();
        assert_eq!(spec.default_timeout_ms, 0);
        let spec: HookSpec = serde_json::from_value(json!({"name": "x", "default_timeout_ms": 2000})).unwrap();
        assert_eq!(spec.default_timeout_ms, 2000);
        assert!(serde_json::from_value::<HookSpec>(json!({"name": "x", "default_timeout_ms": 1.5})).is_err());
    }

    #[test]
    fn registering_again_overwrites() {
        let registry = HookSpecRegistry::new();
        registry.register(HookSpec::new("a")).unwrap();
        registry.register(HookSpec { allow_abort: false, ..HookSpec::new(" a ") }).unwrap();
        assert_eq!(registry.list().len(), 1);
        assert!(!registry.get("a").unwrap().allow_abort);
    }

    #[test]
    fn the_catalogue_speaks_the_given_locale() {
        let zh = HookSpecRegistry::with_builtin_catalogue_in(Locale::ZhHans);
        let spec = zh.get("chat.receive.before_process").unwrap();
        assert_eq!(
            spec.parameters_schema["properties"]["message"]["description"],
            "当前入站消息的序列化 SessionMessage。"
        );
        assert_eq!(spec.description, "Fires when a chat message arrives, before the host processes it.");
        let en = HookSpecRegistry::with_builtin_catalogue();
        let spec = en.get("chat.command.after_execute").unwrap();
        assert_eq!(
            spec.parameters_schema["required"],
            json!([
                "message",
                "command_name",
                "plugin_id",
                "matched_groups",
                "success",
                "intercept_message_level",
                "continue_process"
            ])
        );
    }
}
