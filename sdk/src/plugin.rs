//! What a `#[plugin]` sees of its host: its context (identity, typed config, services), config
//! update scopes, and the context of legacy actions.

use serde_json::{Map, Value};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

/// Which config document changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ConfigScope {
    /// The plugin's own config (`"self"`).
    #[serde(rename = "self")]
    Own,
    /// The bot's config (`"bot"`), for plugins subscribed to it.
    #[serde(rename = "bot")]
    Bot,
    /// The model config (`"model"`), for plugins subscribed to it.
    #[serde(rename = "model")]
    Model,
}

impl ConfigScope {
    /// `"self"`, `"bot"` or `"model"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ConfigScope::Own => "self",
            ConfigScope::Bot => "bot",
            ConfigScope::Model => "model",
        }
    }
}

impl fmt::Display for ConfigScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Services a host hands to its plugins, by type (a database pool, an HTTP client, …).
#[derive(Clone, Default)]
pub struct Services {
    by_type: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl fmt::Debug for Services {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Services").field("count", &self.by_type.len()).finish()
    }
}

impl Services {
    /// No services.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a service; a second one of the same type replaces the first.
    pub fn insert<T: Any + Send + Sync>(&mut self, service: Arc<T>) {
        self.by_type.insert(TypeId::of::<T>(), service);
    }

    /// The service of type `T`, if the host provided one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.by_type.get(&TypeId::of::<T>()).cloned().and_then(|s| s.downcast::<T>().ok())
    }
}

struct ConfigSnapshot {
    value: Value,
    typed: Option<Arc<dyn Any + Send + Sync>>,
}

struct ContextInner {
    plugin_id: String,
    name: String,
    version: String,
    config: RwLock<ConfigSnapshot>,
    services: Services,
}

/// A plugin's view of its host: identity, current config, services. Cheap to clone; keep it.
///
/// ```
/// use toolhook::PluginContext;
///
/// let ctx = PluginContext::new("acme.weather", "Weather", "1.2.0");
/// assert_eq!(ctx.plugin_id(), "acme.weather");
/// assert!(ctx.config::<String>().is_none());
/// ```
#[derive(Clone)]
pub struct PluginContext {
    inner: Arc<ContextInner>,
}

impl fmt::Debug for PluginContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PluginContext")
            .field("plugin_id", &self.inner.plugin_id)
            .field("name", &self.inner.name)
            .field("version", &self.inner.version)
            .finish()
    }
}

/// An instance's context, with a weak handle on the instance: an entry whose instance is gone
/// (its host dropped without unloading it) answers nothing and is swept at the next attach.
type Attached = (std::sync::Weak<dyn Any + Send + Sync>, PluginContext);

/// The contexts of loaded plugin instances, by the instance's address: what the methods
/// `#[plugin]` generates (`plugin_context()`, `config()`) read.
fn attached() -> &'static RwLock<HashMap<usize, Attached>> {
    static ATTACHED: std::sync::OnceLock<RwLock<HashMap<usize, Attached>>> = std::sync::OnceLock::new();
    ATTACHED.get_or_init(Default::default)
}

fn address(instance: &Arc<dyn Any + Send + Sync>) -> usize {
    Arc::as_ptr(instance).cast::<()>() as usize
}

/// Gives a plugin instance its context (the host does this before `on_load`).
#[doc(hidden)]
pub fn attach_context(instance: &Arc<dyn Any + Send + Sync>, context: PluginContext) {
    let mut attached = attached().write().unwrap_or_else(|p| p.into_inner());
    attached.retain(|_, (weak, _)| weak.strong_count() > 0);
    attached.insert(address(instance), (Arc::downgrade(instance), context));
}

/// Takes a plugin instance's context back (the host does this when it unloads or fails).
#[doc(hidden)]
pub fn detach_context(instance: &Arc<dyn Any + Send + Sync>) {
    attached().write().unwrap_or_else(|p| p.into_inner()).remove(&address(instance));
}

/// The context attached to the instance at `this`, if it is loaded.
#[doc(hidden)]
pub fn context_at<T>(this: &T) -> Option<PluginContext> {
    let address = std::ptr::from_ref(this).cast::<()>() as usize;
    let attached = attached().read().unwrap_or_else(|p| p.into_inner());
    attached.get(&address).filter(|(weak, _)| weak.strong_count() > 0).map(|(_, context)| context.clone())
}

impl PluginContext {
    /// A context without config or services (hosts build richer ones; tests use this).
    pub fn new(plugin_id: impl Into<String>, name: impl Into<String>, version: impl Into<String>) -> Self {
        Self::with_services(plugin_id, name, version, Services::new())
    }

    /// A context with services.
    pub fn with_services(
        plugin_id: impl Into<String>,
        name: impl Into<String>,
        version: impl Into<String>,
        services: Services,
    ) -> Self {
        PluginContext {
            inner: Arc::new(ContextInner {
                plugin_id: plugin_id.into(),
                name: name.into(),
                version: version.into(),
                config: RwLock::new(ConfigSnapshot { value: Value::Object(Map::new()), typed: None }),
                services,
            }),
        }
    }

    /// The plugin's id.
    pub fn plugin_id(&self) -> &str {
        &self.inner.plugin_id
    }

    /// The plugin's display name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The plugin's version.
    pub fn version(&self) -> &str {
        &self.inner.version
    }

    /// The current typed config (a snapshot: later updates do not change it), when the plugin
    /// declares `config = C`.
    pub fn config<C: Any + Send + Sync>(&self) -> Option<Arc<C>> {
        let snapshot = self.inner.config.read().unwrap_or_else(|p| p.into_inner());
        snapshot.typed.clone().and_then(|c| c.downcast::<C>().ok())
    }

    /// The current normalised config document (with its `plugin` section).
    pub fn config_value(&self) -> Value {
        self.inner.config.read().unwrap_or_else(|p| p.into_inner()).value.clone()
    }

    /// A service the host provided, by type.
    pub fn service<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.inner.services.get::<T>()
    }

    /// Replaces the config snapshot, giving back the document and typed config it replaces
    /// (the host does this, and puts the old one back when the plugin refuses an update).
    pub fn set_config(
        &self,
        value: Value,
        typed: Option<Arc<dyn Any + Send + Sync>>,
    ) -> (Value, Option<Arc<dyn Any + Send + Sync>>) {
        let mut config = self.inner.config.write().unwrap_or_else(|p| p.into_inner());
        let previous = std::mem::replace(&mut *config, ConfigSnapshot { value, typed });
        (previous.value, previous.typed)
    }
}

/// What a legacy action received besides its parameters, as the Python SDK's host passed it.
///
/// A `#[action]` fn may take a `&LegacyActionContext` parameter.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct LegacyActionContext {
    /// The chat stream (the context's `stream_id`, else its `session_id`).
    pub stream_id: String,
    /// Same as `stream_id`, under its other name in the Python SDK.
    pub chat_id: String,
    /// The model's reasoning for the call.
    pub reasoning: String,
    /// A copy of the model's original arguments.
    pub action_data: Value,
    /// The group, in group chats.
    pub group_id: String,
    /// The user.
    pub user_id: String,
    /// The chat platform.
    pub platform: String,
}

impl LegacyActionContext {
    /// Reads the legacy argument object of the Python SDK's host.
    pub fn from_arguments(arguments: &Value) -> Self {
        let text = |key: &str| arguments.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        LegacyActionContext {
            stream_id: text("stream_id"),
            chat_id: text("chat_id"),
            reasoning: text("reasoning"),
            action_data: arguments.get("action_data").cloned().unwrap_or(Value::Object(Map::new())),
            group_id: text("group_id"),
            user_id: text("user_id"),
            platform: text("platform"),
        }
    }
}
