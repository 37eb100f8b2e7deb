//! Why a call could not be made: what a provider returns instead of a result.

use crate::Locale;
use std::borrow::Cow;
use std::fmt;

/// A call that could not be made (as opposed to a tool that ran and failed, which is a
/// [`ToolExecutionResult`](crate::ToolExecutionResult) with `success = false`).
///
/// `type_name` is a stable identifier, the counterpart of the Python SDK's exception class name:
/// `InvalidArguments`, `PluginNotLoaded`, `Transport`, `Panic`, `Timeout`, or a provider's own. The
/// registry turns it into a failed result reading `Tool {name} failed: {type}: {message}`.
///
/// ```
/// use toolhook::{Locale, ToolError};
///
/// let e = ToolError::plugin_not_loaded("acme.tools");
/// assert_eq!(e.type_name(), "PluginNotLoaded");
/// assert_eq!(e.message(Locale::En), "plugin acme.tools is not loaded");
/// assert_eq!(e.message(Locale::ZhHans), "插件 acme.tools 未加载");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    type_name: Cow<'static, str>,
    message: [String; 2],
}

impl ToolError {
    /// An error with one message for every locale.
    pub fn new(type_name: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        let message = message.into();
        ToolError { type_name: type_name.into(), message: [message.clone(), message] }
    }

    /// An error whose message differs per locale.
    pub fn localized(
        type_name: impl Into<Cow<'static, str>>,
        en: impl Into<String>,
        zh_hans: impl Into<String>,
    ) -> Self {
        ToolError { type_name: type_name.into(), message: [en.into(), zh_hans.into()] }
    }

    /// `InvalidArguments`: the arguments could not be decoded; one detail for every locale.
    ///
    /// ```
    /// use toolhook::{Locale, ToolError};
    ///
    /// let e = ToolError::invalid_arguments("days: must be at most 14");
    /// assert_eq!(e.to_string(), "InvalidArguments: days: must be at most 14");
    /// assert_eq!(e.message(Locale::ZhHans), "days: must be at most 14");
    /// ```
    pub fn invalid_arguments(detail: impl Into<String>) -> Self {
        Self::new("InvalidArguments", detail)
    }

    /// `InvalidArguments` with a detail per locale.
    pub fn invalid_arguments_localized(en: impl Into<String>, zh_hans: impl Into<String>) -> Self {
        Self::localized("InvalidArguments", en, zh_hans)
    }

    /// `PluginNotLoaded`: the tool's plugin has not finished `on_load`.
    pub fn plugin_not_loaded(plugin_id: &str) -> Self {
        Self::localized(
            "PluginNotLoaded",
            format!("plugin {plugin_id} is not loaded"),
            format!("插件 {plugin_id} 未加载"),
        )
    }

    /// `Transport`: the provider could not reach the tool.
    pub fn transport(message: impl Into<String>) -> Self {
        Self::new("Transport", message)
    }

    /// `Panic`: the provider's code panicked; `message` is the payload text, if any.
    pub fn panic(message: impl Into<String>) -> Self {
        Self::new("Panic", message)
    }

    /// The stable identifier of the error kind.
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// The message in a locale (may be empty).
    pub fn message(&self, locale: Locale) -> &str {
        &self.message[locale.index()]
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.message(Locale::En).trim();
        if message.is_empty() { f.write_str(&self.type_name) } else { write!(f, "{}: {message}", self.type_name) }
    }
}

impl std::error::Error for ToolError {}
