//! Hook points: what a `#[hook_handler]` receives and returns, the names of the built-in
//! catalogue's hooks and their typed payloads.
//!
//! A host fires a named hook with a JSON object of arguments; `#[hook_handler]` fns subscribe to
//! it. Blocking handlers run in order and may rewrite the arguments or abort; observe handlers run
//! afterwards, concurrently, and only read. Hosts run hooks with `toolhook-runtime`'s
//! `HookDispatcher`.
//!
//! ```
//! use toolhook::hook_handler;
//! use toolhook::hooks::{HookArgs, HookContext, HookOutcome, payload::SendServiceBeforeSend};
//!
//! /// Refuses to send empty messages.
//! #[hook_handler("chat.receive.before_process", order = "early", error_policy = "log")]
//! async fn drop_empty(args: HookArgs) -> HookOutcome {
//!     match args.get("message").and_then(|m| m.get("text")).and_then(|t| t.as_str()) {
//!         Some(text) if text.trim().is_empty() => HookOutcome::abort(),
//!         _ => HookOutcome::proceed(),
//!     }
//! }
//!
//! /// Typed payload: the arguments are decoded into the catalogue's struct, and `modify`
//! /// overlays its fields on them, keeping keys the struct does not model.
//! #[hook_handler("send_service.before_send", timeout_ms = 500)]
//! async fn never_log(mut payload: SendServiceBeforeSend) -> HookOutcome<SendServiceBeforeSend> {
//!     payload.show_log = false;
//!     HookOutcome::modify(payload)
//! }
//!
//! /// Observers read the final arguments; they cannot change them.
//! #[hook_handler("send_service.after_send", mode = "observe")]
//! async fn audit(args: &HookArgs, ctx: &HookContext) -> Result<(), std::fmt::Error> {
//!     println!("{} saw {} with {args}", ctx.full_name(), ctx.hook_name());
//!     Ok(())
//! }
//! ```
//!
//! # Attribute
//!
//! `#[hook_handler("hook.name", key = value, …)]` on an `async fn`: `name` (default: the fn's
//! name), `description` (default: the doc comment's first paragraph), `mode` (`"blocking"` |
//! `"observe"`), `order` (`"early"` | `"normal"` | `"late"`), `timeout_ms` (0 = the hook spec's
//! default), `error_policy` (`"abort"` | `"skip"` | `"log"`), `metadata(k = literal, …)`. Every
//! mistake is a compile error at the offending token.
//!
//! # Signatures
//!
//! One payload parameter: [`HookArgs`] (a copy of the arguments; `modify` replaces them) or any
//! `P: Serialize + DeserializeOwned + Send + 'static` (decoded from the arguments; `modify`
//! overlays), by value or by `&`. Optionally a [`HookContext`], by value or by `&`. Blocking handlers
//! return `()`, [`HookOutcome<P>`], `Result<(), E>` or `Result<HookOutcome<P>, E>` with
//! `E: Display` ([`BlockingHookResult`]); observe handlers return `()` or `Result<(), E>`
//! ([`ObserveHookResult`]). Free fns belong to the package's default plugin (id = the package
//! name); methods of a `#[plugin]` impl take `&self`.
//!
//! Whether `modify` replaces or overlays follows the outcome's payload type: `HookOutcome<HookArgs>`
//! replaces the arguments, any other `HookOutcome<P>` overlays `P`'s fields. Whether a parameter is
//! the raw arguments is read from its type's name (the last path segment `HookArgs`); any other
//! type is decoded with its own `Deserialize`.
//!
//! The payload schema a manifest shows for a typed handler comes from `schemars::JsonSchema` when
//! the payload type implements it (the catalogue's payloads do); a payload type without it still
//! works, its manifest entry just has no schema.

mod args;
mod chat_message;
mod context;
pub(crate) mod handler;
mod names;
mod options;
mod outcome;
pub mod payload;

pub use args::{HookArgError, HookArgs, PayloadError};
pub use chat_message::ChatMessage;
pub use context::HookContext;
#[doc(hidden)]
pub use context::{HookNames, SharedNames};
pub use handler::{BlockingHookResult, HandlerOutcome, HookHandlerError, Modification, ObserveHookResult};
pub use names::*;
pub use options::{ErrorPolicy, HookMode, HookOrder, ParseHookOptionError};
pub use outcome::{HookAction, HookOutcome};
