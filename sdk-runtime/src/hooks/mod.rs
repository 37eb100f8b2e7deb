//! Hook specs, the built-in catalogue, the dispatcher and its circuit breaker.
//!
//! A host fires a named hook with a JSON object of arguments. Blocking handlers run one after
//! another on the caller's task and may replace the arguments or abort; observe handlers then run
//! concurrently with the final arguments and only read. Handlers come from `#[hook_handler]`
//! ([`HookHandlerEntry::from_declared`]), from closures ([`HookHandlerEntry::new`]) or from
//! manifests ([`HookHandlerEntry::from_manifest`]), one batch per plugin.
//!
//! ```
//! use toolhook::hooks::{HookArgs, HookContext, HookOutcome, payload::ChatReceiveBeforeProcess};
//! use toolhook::{DeclaredHookHandler, hook_handler};
//! use toolhook_runtime::Source;
//! use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry};
//!
//! /// Marks every incoming message as seen (typed payload: `modify` overlays the message).
//! #[hook_handler("chat.receive.before_process", order = "early")]
//! async fn mark_seen(mut payload: ChatReceiveBeforeProcess) -> HookOutcome<ChatReceiveBeforeProcess> {
//!     payload.message.insert("seen".into(), true.into());
//!     HookOutcome::modify(payload)
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! // The built-in catalogue's 22 hooks, English texts, 60 s default timeout.
//! let dispatcher = HookDispatcher::new();
//!
//! // The free fns of this crate form its default plugin.
//! let declared = DeclaredHookHandler::all().into_iter().find(|h| h.name() == "mark_seen").unwrap();
//! let plugin_id = declared.plugin_id();
//! dispatcher.register_plugin(plugin_id, Source::Builtin, vec![HookHandlerEntry::from_declared(declared, None)])?;
//!
//! // A host-side observer: it sees the final arguments, after every blocking handler.
//! let (seen_tx, mut seen_rx) = tokio::sync::mpsc::unbounded_channel();
//! let observer = HookHandlerEntry::new("log", "chat.receive.before_process", move |args: HookArgs, _ctx: HookContext| {
//!     let seen_tx = seen_tx.clone();
//!     async move {
//!         let _ = seen_tx.send(args);
//!     }
//! })
//! .mode(toolhook::hooks::HookMode::Observe);
//! dispatcher.register_plugin("host.audit", Source::Builtin, vec![observer])?;
//!
//! let kwargs = serde_json::json!({"message": {"text": "hi"}, "extra": 1});
//! let result = dispatcher.invoke_with("chat.receive.before_process", &kwargs).await?;
//! assert!(!result.aborted && result.errors.is_empty());
//! assert_eq!(result.kwargs.to_string(), r#"{"message":{"text":"hi","seen":true},"extra":1}"#);
//!
//! dispatcher.wait_observers().await;
//! assert_eq!(seen_rx.recv().await.unwrap(), result.kwargs);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
//!
//! # Choices
//!
//! - A dispatcher built without [`specs`](HookDispatcherBuilder::specs) knows the built-in
//!   catalogue, its property descriptions in the dispatcher's locale.
//! - [`HookContext::timeout`](toolhook::hooks::HookContext::timeout) tells a handler its time
//!   budget.
//! - An observer whose closure returns changes or an abort (possible only with closures; the
//!   attribute forbids it) has them ignored with a warning.
//! - [`set_plugin_loaded`](HookDispatcher::set_plugin_loaded) may come before the plugin's batch;
//!   [`unregister_plugin`](HookDispatcher::unregister_plugin) forgets the flag. The breaker keeps
//!   a plugin's state across re-registration.
//! - `invoke_with` of a value that is not an object: `Hook arguments must be a JSON object, got
//!   {type}` / `Hook 参数必须是字典，实际为 {type}`.

mod breaker;
pub(crate) mod catalogue;
mod dispatcher;
mod entry;
mod error;
mod names;
mod observers;
mod recent;
mod spec;
mod validate;

pub use breaker::{BreakerConfig, BreakerState, BreakerStatus};
pub use dispatcher::{HookDispatchResult, HookDispatcher, HookDispatcherBuilder};
pub use entry::{HookHandlerEntry, HookHandlerManifest};
pub use error::{HookError, HookErrorKind};
pub use observers::ObserverOverflow;
pub use spec::{HookSpec, HookSpecError, HookSpecRegistry, build_object_schema};
