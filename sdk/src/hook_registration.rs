//! What `#[hook_handler]` registers through `inventory`, and the list of declared hook handlers.

use crate::BoxFuture;
use crate::hooks::{ErrorPolicy, HandlerOutcome, HookArgs, HookContext, HookHandlerError, HookMode, HookOrder};
use serde_json::{Map, Value};
use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

/// How the runtime calls a hook handler: the plugin instance (`None` for free fns), a copy of the
/// arguments, the call's context. Typed handlers decode their payload inside; observe handlers
/// always come back with [`HandlerOutcome::proceed`].
pub type HookHandlerFn = fn(
    Option<Arc<dyn Any + Send + Sync>>,
    HookArgs,
    HookContext,
) -> BoxFuture<'static, Result<HandlerOutcome, HookHandlerError>>;

/// Calls a blocking handler whose body can never wait (an `async fn` without `.await`) to its
/// end in place, in one poll: no future is boxed.
pub type ReadyHookHandlerFn =
    fn(Option<Arc<dyn Any + Send + Sync>>, HookArgs, HookContext) -> Result<HandlerOutcome, HookHandlerError>;

/// One declared hook handler, as `#[hook_handler]` submits it to `inventory`.
#[derive(Debug)]
pub struct HookHandlerRegistration {
    /// The hook it subscribes to (trimmed).
    pub hook: &'static str,
    /// The handler's name (`name = …`, else the fn's name).
    pub name: &'static str,
    /// The plugin it belongs to: a `#[plugin]` id, or the package name for free fns.
    pub plugin_id: &'static str,
    /// The declaring package's name (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// The declaring package's version.
    pub package_version: &'static str,
    /// Whether it is a method of a `#[plugin]` type (needs the plugin instance).
    pub is_method: bool,
    /// `description = …`, else the first paragraph of the doc comment, else `""`.
    pub description: &'static str,
    /// Blocking or observe.
    pub mode: HookMode,
    /// Slot within the mode.
    pub order: HookOrder,
    /// `timeout_ms = …`; 0 means the hook spec's default.
    pub timeout_ms: u64,
    /// What a failure does.
    pub error_policy: ErrorPolicy,
    /// `metadata(…)` as JSON object text, keys in written order.
    pub metadata: &'static str,
    /// The JSON Schema of a typed payload (when it implements `JsonSchema`); `None` for `HookArgs`.
    pub payload_schema: fn() -> Option<Value>,
    /// Calls the handler.
    pub handler: HookHandlerFn,
    /// For a blocking handler whose body can never wait: calls it to its end in place.
    pub ready: Option<ReadyHookHandlerFn>,
    /// Where it was declared (`file:line`), for diagnostics.
    pub location: &'static str,
}

inventory::collect!(HookHandlerRegistration);

/// A hook handler declared with `#[hook_handler]` somewhere in the program.
///
/// Hosts register them with `toolhook-runtime`'s dispatcher (the plugin host does it for them);
/// this is the plain list, for tests, manifests and the like.
///
/// ```
/// use toolhook::hooks::{HookArgs, HookMode, HookOrder};
/// use toolhook::{DeclaredHookHandler, hook_handler};
///
/// /// Counts incoming messages.
/// #[hook_handler("chat.receive.before_process", mode = "observe", order = "early", metadata(team = "core"))]
/// async fn count_messages(args: HookArgs) {
///     let _ = args;
/// }
///
/// let handler = DeclaredHookHandler::all().into_iter().find(|h| h.name() == "count_messages").unwrap();
/// assert_eq!(handler.hook(), "chat.receive.before_process");
/// assert_eq!(handler.mode(), HookMode::Observe);
/// assert_eq!(handler.order(), HookOrder::Early);
/// assert_eq!(handler.description(), "Counts incoming messages.");
/// assert_eq!(handler.metadata()["team"], "core");
/// assert_eq!(handler.full_name(), format!("{}.count_messages", handler.plugin_id()));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DeclaredHookHandler {
    registration: &'static HookHandlerRegistration,
}

impl DeclaredHookHandler {
    /// Every hook handler linked into the program, sorted by plugin id, then name.
    pub fn all() -> Vec<DeclaredHookHandler> {
        let mut all: Vec<DeclaredHookHandler> = inventory::iter::<HookHandlerRegistration>
            .into_iter()
            .map(|registration| DeclaredHookHandler { registration })
            .collect();
        all.sort_by_key(|h| (h.registration.plugin_id, h.registration.name));
        all
    }

    /// The hook it subscribes to.
    pub fn hook(&self) -> &'static str {
        self.registration.hook
    }

    /// The handler's name.
    pub fn name(&self) -> &'static str {
        self.registration.name
    }

    /// The plugin it belongs to.
    pub fn plugin_id(&self) -> &'static str {
        self.registration.plugin_id
    }

    /// `{plugin_id}.{name}`.
    pub fn full_name(&self) -> String {
        format!("{}.{}", self.registration.plugin_id, self.registration.name)
    }

    /// Whether it is a `#[plugin]` method, which needs the plugin instance to run.
    pub fn is_method(&self) -> bool {
        self.registration.is_method
    }

    /// Its description (documentation only).
    pub fn description(&self) -> &'static str {
        self.registration.description
    }

    /// Blocking or observe.
    pub fn mode(&self) -> HookMode {
        self.registration.mode
    }

    /// Slot within the mode.
    pub fn order(&self) -> HookOrder {
        self.registration.order
    }

    /// Its own timeout; `None` when it takes the hook spec's default.
    pub fn timeout(&self) -> Option<Duration> {
        (self.registration.timeout_ms > 0).then(|| Duration::from_millis(self.registration.timeout_ms))
    }

    /// What a failure does.
    pub fn error_policy(&self) -> ErrorPolicy {
        self.registration.error_policy
    }

    /// `metadata(…)`, keys in written order (empty when none).
    pub fn metadata(&self) -> Map<String, Value> {
        serde_json::from_str(self.registration.metadata).unwrap_or_default()
    }

    /// The JSON Schema of its typed payload; `None` for `HookArgs` handlers and payload types
    /// without `JsonSchema`.
    pub fn payload_schema(&self) -> Option<Value> {
        (self.registration.payload_schema)()
    }

    /// Calls the handler once (no timeout, no panic catching: the dispatcher adds those).
    pub fn call(
        &self,
        instance: Option<Arc<dyn Any + Send + Sync>>,
        args: HookArgs,
        ctx: HookContext,
    ) -> BoxFuture<'static, Result<HandlerOutcome, HookHandlerError>> {
        (self.registration.handler)(instance, args, ctx)
    }

    /// The registration itself.
    #[doc(hidden)]
    pub fn registration(&self) -> &'static HookHandlerRegistration {
        self.registration
    }
}

/// The JSON Schema of a typed payload, cleaned the way tool parameter schemas are (references
/// inlined, recursive definitions kept under `$defs`); schemars' own output when it cannot be.
pub(crate) fn schema_of<P: schemars::JsonSchema>() -> Value {
    let root = schemars::generate::SchemaSettings::draft2020_12().into_generator().root_schema_for::<P>().to_value();
    let mut defs = Map::new();
    match crate::rust_schema::clean_root(root.clone(), &mut defs) {
        Ok(mut schema) => {
            if !defs.is_empty()
                && let Value::Object(map) = &mut schema
            {
                map.insert("$defs".to_owned(), Value::Object(defs));
            }
            schema
        }
        Err(_) => root,
    }
}
