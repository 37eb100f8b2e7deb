//! [`HookOutcome`]: what a blocking handler asks the dispatcher to do.

use super::HookArgs;
use serde::Serialize;
use serde_json::Value;

/// Whether the hook goes on after a blocking handler.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HookAction {
    /// The next handler runs (the default).
    #[default]
    Continue,
    /// The hook stops here, when its spec allows abort: later blocking handlers and every observer
    /// never start.
    Abort,
}

/// What a blocking `#[hook_handler]` returns to change the hook: continue or abort, optionally with
/// changed arguments and a custom result for the host.
///
/// `P` is the handler's payload type. With [`HookArgs`] (the default), [`modify`](Self::modify)
/// **replaces** the arguments with the given object. With a typed payload (any serde type, such as
/// the catalogue's [`payload`](super::payload) structs), `modify(p)` **overlays** `p`'s fields on
/// the arguments: its keys replace, keys the type does not model are kept.
///
/// ```
/// use toolhook::hooks::{HookAction, HookArgs, HookOutcome};
///
/// let go_on: HookOutcome = HookOutcome::proceed();
/// assert_eq!(go_on.action(), HookAction::Continue);
///
/// let mut args = HookArgs::new();
/// args.insert("text", "HI");
/// let changed = HookOutcome::modify(args).with_custom_result(serde_json::json!({"note": "upper-cased"}));
/// assert_eq!(changed.modified().and_then(|a| a.get("text")), Some(&serde_json::json!("HI")));
/// assert_eq!(changed.custom_result(), Some(&serde_json::json!({"note": "upper-cased"})));
///
/// let stop: HookOutcome = HookOutcome::abort();
/// assert_eq!(stop.action(), HookAction::Abort);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a hook outcome does nothing unless the handler returns it"]
pub struct HookOutcome<P = HookArgs> {
    action: HookAction,
    modified: Option<P>,
    custom_result: Option<Result<Value, String>>,
}

impl<P> HookOutcome<P> {
    /// Continue with the arguments unchanged (returning `()` does the same).
    pub fn proceed() -> Self {
        HookOutcome { action: HookAction::Continue, modified: None, custom_result: None }
    }

    /// Continue with changed arguments: a [`HookArgs`] replaces them, a typed payload is overlaid.
    pub fn modify(payload: P) -> Self {
        HookOutcome { action: HookAction::Continue, modified: Some(payload), custom_result: None }
    }

    /// Stop the hook, arguments unchanged.
    pub fn abort() -> Self {
        HookOutcome { action: HookAction::Abort, modified: None, custom_result: None }
    }

    /// Stop the hook, keeping a change to the arguments (the caller sees the changed arguments).
    pub fn abort_with(payload: P) -> Self {
        HookOutcome { action: HookAction::Abort, modified: Some(payload), custom_result: None }
    }

    /// Attaches a value for the host, collected in the dispatch result's `custom_results`.
    ///
    /// A value that cannot be serialised makes the handler fail with the serialiser's reason.
    pub fn with_custom_result(mut self, value: impl Serialize) -> Self {
        self.custom_result = Some(serde_json::to_value(value).map_err(|e| e.to_string()));
        self
    }

    /// Continue or abort.
    pub fn action(&self) -> HookAction {
        self.action
    }

    /// The changed arguments, if any.
    pub fn modified(&self) -> Option<&P> {
        self.modified.as_ref()
    }

    /// The custom result, if one was attached and serialised.
    pub fn custom_result(&self) -> Option<&Value> {
        self.custom_result.as_ref().and_then(|r| r.as_ref().ok())
    }

    pub(crate) fn into_parts(self) -> (HookAction, Option<P>, Option<Result<Value, String>>) {
        (self.action, self.modified, self.custom_result)
    }
}

impl<P> Default for HookOutcome<P> {
    fn default() -> Self {
        HookOutcome::proceed()
    }
}
