//! What `#[plugin]`, `#[action]` and `#[command]` register through `inventory`.

use crate::BoxFuture;
use crate::plugin::{ConfigScope, PluginContext};
use serde_json::Value;
use std::any::Any;
use std::fmt::Display;
use std::sync::Arc;

/// A plugin instance, shared by all its components.
pub type Instance = Arc<dyn Any + Send + Sync>;

/// What a lifecycle method's future gives: `Err` carries the error's text.
pub type LifecycleFuture = BoxFuture<'static, Result<(), String>>;

/// `on_load`: the instance and the plugin's context.
pub type OnLoad = fn(Instance, PluginContext) -> LifecycleFuture;
/// `on_unload`: the instance.
pub type OnUnload = fn(Instance) -> LifecycleFuture;
/// `on_config_update`: the instance, the scope, the document and its version.
pub type OnConfigUpdate = fn(Instance, ConfigScope, Value, String) -> LifecycleFuture;

/// A `#[plugin]` impl block.
#[derive(Debug)]
pub struct PluginRegistration {
    /// `id = …`.
    pub id: &'static str,
    /// `name = …`, else the id.
    pub name: &'static str,
    /// `version = …`, else the package version.
    pub version: &'static str,
    /// `description = …`, else the impl block's first doc paragraph.
    pub description: &'static str,
    /// The declaring package.
    pub package: &'static str,
    /// The plugin type, for diagnostics.
    pub type_name: &'static str,
    /// `T::default()`.
    pub create: fn() -> Instance,
    /// `on_load`, if declared.
    pub on_load: Option<OnLoad>,
    /// `on_unload`, if declared.
    pub on_unload: Option<OnUnload>,
    /// `on_config_update`, if declared.
    pub on_config_update: Option<OnConfigUpdate>,
    /// `config = …`, if declared.
    pub config: Option<&'static ConfigDeclaration>,
    /// Where it was declared.
    pub location: &'static str,
}

inventory::collect!(PluginRegistration);

/// Why a config value does not fit the plugin's config type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigValueError {
    /// The JSON path of the bad value (`behaviour.mode`); `.` at the root.
    pub path: String,
    /// serde's message.
    pub reason: String,
}

/// A plugin's declared config type.
#[derive(Debug)]
pub struct ConfigDeclaration {
    /// `config_version = …` (default `1.0.0`).
    pub version: &'static str,
    /// `config_subscriptions = [...]`.
    pub subscriptions: &'static [ConfigScope],
    /// The JSON Schema of the config type.
    pub schema: fn() -> Value,
    /// `C::default()` serialised.
    pub defaults: fn() -> Result<Value, String>,
    /// Deserialises a document (without its `plugin` section) into `C` and serialises it back.
    pub load: fn(&Value) -> Result<(Value, Instance), ConfigValueError>,
}

/// A `#[command]` under a `#[tool]`.
#[derive(Debug)]
pub struct CommandRegistration {
    /// The tool (and command) name.
    pub tool: &'static str,
    /// The tool's plugin.
    pub plugin_id: &'static str,
    /// `alias = [...]`.
    pub aliases: &'static [&'static str],
    /// `pattern = …`, else generated from the tool's parameters.
    pub pattern: Option<&'static str>,
    /// `usage = [...]`.
    pub usage: &'static [&'static str],
    /// `examples = [...]`.
    pub examples: &'static [&'static str],
    /// Where it was declared.
    pub location: &'static str,
}

inventory::collect!(CommandRegistration);

/// What a lifecycle method may return: `()` or `Result<(), E: Display>`.
#[diagnostic::on_unimplemented(
    message = "a plugin lifecycle method returns `()` or `Result<(), E: Display>`, not `{Self}`",
    label = "not a lifecycle result"
)]
pub trait LifecycleResult {
    /// `Err` carries the error's text.
    fn into_lifecycle(self) -> Result<(), String>;
}

impl LifecycleResult for () {
    fn into_lifecycle(self) -> Result<(), String> {
        Ok(())
    }
}

impl<E: Display> LifecycleResult for Result<(), E> {
    fn into_lifecycle(self) -> Result<(), String> {
        self.map_err(|e| e.to_string().trim().to_owned())
    }
}

/// Bounds a plugin type must meet so the host can create and share it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` must implement Default so the host can create the plugin",
    label = "needs `Default + Send + Sync + 'static`"
)]
pub trait PluginType: Default + Send + Sync + 'static {}

impl<T: Default + Send + Sync + 'static> PluginType for T {}

/// Bounds a plugin config type must meet.
#[diagnostic::on_unimplemented(
    message = "`{Self}` must implement Serialize, DeserializeOwned, JsonSchema and Default to be a plugin config",
    label = "not a plugin config type"
)]
pub trait PluginConfigType:
    serde::Serialize + serde::de::DeserializeOwned + schemars::JsonSchema + Default + Send + Sync + 'static
{
}

#[diagnostic::do_not_recommend]
impl<T: serde::Serialize + serde::de::DeserializeOwned + schemars::JsonSchema + Default + Send + Sync + 'static>
    PluginConfigType for T
{
}

/// Creates a plugin instance.
pub fn create_plugin<T: PluginType>() -> Instance {
    Arc::new(T::default())
}

/// The instance as its plugin type.
pub fn downcast_plugin<T: Any + Send + Sync>(instance: Instance) -> Result<Arc<T>, String> {
    instance.downcast::<T>().map_err(|_| format!("the plugin instance is not a {}", std::any::type_name::<T>()))
}

/// The JSON Schema of a config type.
pub fn config_schema<C: PluginConfigType>() -> Value {
    schemars::SchemaGenerator::default().into_root_schema_for::<C>().to_value()
}

/// `C::default()` serialised.
pub fn config_defaults<C: PluginConfigType>() -> Result<Value, String> {
    serde_json::to_value(C::default()).map_err(|e| e.to_string())
}

/// A document (without its `plugin` section) read into `C` and written back.
pub fn config_load<C: PluginConfigType>(document: &Value) -> Result<(Value, Instance), ConfigValueError> {
    let config: C = serde_path_to_error::deserialize(document)
        .map_err(|e| ConfigValueError { path: e.path().to_string(), reason: e.into_inner().to_string() })?;
    let value =
        serde_json::to_value(&config).map_err(|e| ConfigValueError { path: ".".into(), reason: e.to_string() })?;
    Ok((value, Arc::new(config)))
}

/// The context of a legacy action call, from its argument object.
pub fn legacy_context(
    call: &crate::ToolInvocation,
    _ctx: Option<&crate::ToolExecutionContext>,
) -> crate::LegacyActionContext {
    crate::LegacyActionContext::from_arguments(&call.arguments.to_value().unwrap_or(Value::Null))
}

/// Named by every `#[action]` expansion so that each use warns; the crate root re-exports it
/// (hidden), the path the warning shows. (The note is compiler output, not a doc link.)
#[allow(rustdoc::broken_intra_doc_links)]
#[deprecated(note = "#[action] is deprecated: it is registered as a tool; declare it with #[tool] instead")]
pub const fn legacy_action() {}
