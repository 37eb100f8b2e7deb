//! What a handler call comes to once its return type is erased: [`HandlerOutcome`] or
//! [`HookHandlerError`], and the traits that say which return types a handler may have.

use super::{HookAction, HookArgs, HookOutcome, PayloadError};
use serde::Serialize;
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt::Display;

/// How a handler's changed arguments apply to the hook's arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Modification {
    /// A [`HookArgs`] handler's arguments: they replace the current ones entirely.
    Replace(HookArgs),
    /// A typed handler's payload, serialised: its keys replace, the others are kept.
    Overlay(Map<String, Value>),
}

impl Modification {
    /// The arguments after applying this change to `current`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolhook::hooks::{HookArgs, Modification};
    ///
    /// let current = HookArgs::try_from(json!({"text": "a", "keep": 1})).unwrap();
    /// let overlay = Modification::Overlay(json!({"text": "X"}).as_object().unwrap().clone());
    /// assert_eq!(overlay.apply_to(&current).to_string(), r#"{"text":"X","keep":1}"#);
    ///
    /// let replace = Modification::Replace(HookArgs::try_from(json!({"only": "this"})).unwrap());
    /// assert_eq!(replace.apply_to(&current).to_string(), r#"{"only":"this"}"#);
    /// ```
    pub fn apply_to(self, current: &HookArgs) -> HookArgs {
        match self {
            Modification::Replace(args) => args,
            Modification::Overlay(fields) => {
                let mut merged = current.clone();
                merged.extend(fields);
                merged
            }
        }
    }
}

/// A blocking handler's outcome with its payload type erased: what the dispatcher merges.
///
/// The rare parts are boxed, so that the common outcome (continue, nothing changed) is 24 bytes
/// where it would be 160: it is moved several times on every handler call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandlerOutcome {
    /// Continue or abort.
    pub action: HookAction,
    /// Changed arguments, if any.
    pub modified: Option<Box<Modification>>,
    /// A value for the host's `custom_results`.
    pub custom_result: Option<Box<Value>>,
}

impl HandlerOutcome {
    /// Continue, nothing changed.
    pub fn proceed() -> Self {
        HandlerOutcome::default()
    }
}

/// Why a handler call produced no outcome.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HookHandlerError {
    /// The handler returned `Err(e)` (the text is `e`, trimmed) or its outcome could not be used.
    #[error("{0}")]
    Failed(String),
    /// The arguments do not fit a typed handler's payload; the handler was not called.
    #[error("{0}")]
    InvalidPayload(PayloadError),
    /// The handler's plugin has no running instance.
    #[error("plugin {0} is not loaded")]
    PluginNotLoaded(String),
}

impl From<PayloadError> for HookHandlerError {
    fn from(error: PayloadError) -> Self {
        HookHandlerError::InvalidPayload(error)
    }
}

mod sealed {
    #[allow(unreachable_pub)]
    pub trait Sealed {}
}

/// A return type a blocking handler may have: `()`, [`HookOutcome<P>`], `Result<(), E>` or
/// `Result<HookOutcome<P>, E>`, with `P: Serialize` and `E: Display`.
///
/// `Err(e)` is a handler failure with the text of `e`, trimmed; the handler's error policy decides
/// what it does to the hook.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a blocking hook result; return `()`, `HookOutcome<P>`, or `Result` of either",
    label = "not a blocking hook result",
    note = "in `HookOutcome<P>` the payload `P` must implement serde::Serialize; in `Result<_, E>` the error `E` must implement Display"
)]
pub trait BlockingHookResult: sealed::Sealed {
    /// The erased outcome, or the handler failure.
    fn into_handler_outcome(self) -> Result<HandlerOutcome, HookHandlerError>;
}

/// A return type an observe handler may have: `()` or `Result<(), E>` with `E: Display`. Observers
/// cannot change the arguments or abort; an `Err` is logged.
#[diagnostic::on_unimplemented(
    message = "observe handlers cannot modify the arguments or abort; return `()` or `Result<(), E>`",
    label = "not an observe handler result",
    note = "observe handlers run after the blocking ones, concurrently, and only read the arguments"
)]
pub trait ObserveHookResult: sealed::Sealed {
    /// `Ok(())`, or the handler failure.
    fn into_observe_result(self) -> Result<(), HookHandlerError>;
}

fn failure(error: impl Display) -> HookHandlerError {
    HookHandlerError::Failed(error.to_string().trim().to_owned())
}

/// Replace for [`HookArgs`], overlay for any other payload type.
fn modification<P: Serialize + 'static>(payload: P) -> Result<Modification, HookHandlerError> {
    let mut slot = Some(payload);
    if let Some(args) = (&mut slot as &mut dyn Any).downcast_mut::<Option<HookArgs>>().and_then(Option::take) {
        return Ok(Modification::Replace(args));
    }
    match serde_json::to_value(&slot) {
        Ok(Value::Object(fields)) => Ok(Modification::Overlay(fields)),
        Ok(other) => Err(HookHandlerError::Failed(format!(
            "the modified payload must serialise to a JSON object, not {}",
            json_type(&other)
        ))),
        Err(e) => Err(HookHandlerError::Failed(format!("the modified payload could not be serialised: {e}"))),
    }
}

/// The JSON type name of a value (`integer` for numbers without a fractional part).
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl sealed::Sealed for () {}
impl BlockingHookResult for () {
    fn into_handler_outcome(self) -> Result<HandlerOutcome, HookHandlerError> {
        Ok(HandlerOutcome::proceed())
    }
}
impl ObserveHookResult for () {
    fn into_observe_result(self) -> Result<(), HookHandlerError> {
        Ok(())
    }
}

impl<P: Serialize + 'static> sealed::Sealed for HookOutcome<P> {}
impl<P: Serialize + 'static> BlockingHookResult for HookOutcome<P> {
    fn into_handler_outcome(self) -> Result<HandlerOutcome, HookHandlerError> {
        let (action, modified, custom_result) = self.into_parts();
        let custom_result = match custom_result {
            None => None,
            Some(Ok(value)) => Some(Box::new(value)),
            Some(Err(reason)) => {
                return Err(HookHandlerError::Failed(format!("the custom result could not be serialised: {reason}")));
            }
        };
        let modified = modified.map(modification).transpose()?.map(Box::new);
        Ok(HandlerOutcome { action, modified, custom_result })
    }
}

impl<T: sealed::Sealed, E: Display> sealed::Sealed for Result<T, E> {}
impl<E: Display> BlockingHookResult for Result<(), E> {
    fn into_handler_outcome(self) -> Result<HandlerOutcome, HookHandlerError> {
        self.map(|()| HandlerOutcome::proceed()).map_err(failure)
    }
}
impl<P: Serialize + 'static, E: Display> BlockingHookResult for Result<HookOutcome<P>, E> {
    fn into_handler_outcome(self) -> Result<HandlerOutcome, HookHandlerError> {
        self.map_err(failure)?.into_handler_outcome()
    }
}
impl<E: Display> ObserveHookResult for Result<(), E> {
    fn into_observe_result(self) -> Result<(), HookHandlerError> {
        self.map_err(failure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Text {
        text: String,
    }

    #[test]
    fn hook_args_replace_and_typed_payloads_overlay() {
        let outcome = HookOutcome::modify(HookArgs::new()).into_handler_outcome().unwrap();
        assert_eq!(outcome.modified.as_deref(), Some(&Modification::Replace(HookArgs::new())));
        let outcome = HookOutcome::modify(Text { text: "X".into() }).into_handler_outcome().unwrap();
        let overlay = Modification::Overlay(json!({"text": "X"}).as_object().unwrap().clone());
        assert_eq!(outcome.modified.as_deref(), Some(&overlay));
    }

    #[test]
    fn a_payload_that_is_not_an_object_fails_the_handler() {
        let error = HookOutcome::modify(5).into_handler_outcome().unwrap_err();
        assert_eq!(error.to_string(), "the modified payload must serialise to a JSON object, not integer");
    }

    #[test]
    fn errors_are_trimmed_failures() {
        let error = Err::<(), _>("  handler exploded \n").into_handler_outcome().unwrap_err();
        assert_eq!(error, HookHandlerError::Failed("handler exploded".into()));
        let error = Err::<HookOutcome, _>("x").into_handler_outcome().unwrap_err();
        assert_eq!(error, HookHandlerError::Failed("x".into()));
        assert_eq!(Err::<(), _>(" y ").into_observe_result(), Err(HookHandlerError::Failed("y".into())));
    }

    #[test]
    fn abort_keeps_the_change_and_the_custom_result() {
        let outcome = HookOutcome::abort_with(Text { text: "changed".into() })
            .with_custom_result("why")
            .into_handler_outcome()
            .unwrap();
        assert_eq!(outcome.action, HookAction::Abort);
        assert_eq!(outcome.custom_result.as_deref(), Some(&json!("why")));
        assert!(outcome.modified.is_some());
    }

    #[test]
    fn a_custom_result_that_cannot_serialise_fails_the_handler() {
        let mut bad = std::collections::HashMap::new();
        bad.insert(vec![1u8], 1);
        let error = HookOutcome::<HookArgs>::proceed().with_custom_result(bad).into_handler_outcome().unwrap_err();
        assert!(error.to_string().starts_with("the custom result could not be serialised: "), "{error}");
    }
}
