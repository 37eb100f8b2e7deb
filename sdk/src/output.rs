//! What a `#[tool]` fn may return, and how each return form becomes a result.

use crate::{Locale, ToolContentItem, ToolExecutionResult};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::Display;

/// A tool's output with everything a result can carry: text, content items (images, audio, …),
/// structured content, messages for the history after the batch, and whether the model's turn
/// should stop.
///
/// ```
/// use toolhook::{Locale, ToolContentItem, ToolOutput};
/// use toolhook::IntoToolResult;
///
/// let out = ToolOutput::text("Here is the chart.")
///     .with_item(ToolContentItem::image("iVBORw0KGgo=", "image/png"))
///     .stop_after_execution(true);
/// let result = out.into_tool_result(Locale::En);
/// assert!(result.success && result.stop_after_execution);
/// assert_eq!(result.content_items().len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[must_use]
pub struct ToolOutput {
    success: bool,
    content: String,
    error_message: String,
    structured_content: Option<Value>,
    content_items: Vec<ToolContentItem>,
    post_history_messages: Vec<Value>,
    metadata: Map<String, Value>,
    stop_after_execution: bool,
}

impl ToolOutput {
    /// A successful output with this text.
    pub fn text(content: impl Into<String>) -> Self {
        ToolOutput { success: true, content: content.into(), ..Default::default() }
    }

    /// A successful output with structured content and no text.
    pub fn structured(value: impl Into<Value>) -> Self {
        ToolOutput { success: true, structured_content: Some(value.into()), ..Default::default() }
    }

    /// A failed output with this error message.
    pub fn failure(error_message: impl Into<String>) -> Self {
        ToolOutput { success: false, error_message: error_message.into(), ..Default::default() }
    }

    /// Adds a content item.
    pub fn with_item(mut self, item: ToolContentItem) -> Self {
        self.content_items.push(item);
        self
    }

    /// Adds content items.
    pub fn with_items(mut self, items: impl IntoIterator<Item = ToolContentItem>) -> Self {
        self.content_items.extend(items);
        self
    }

    /// Sets the structured content.
    pub fn with_structured(mut self, value: impl Into<Value>) -> Self {
        self.structured_content = Some(value.into());
        self
    }

    /// Adds a message the host appends to the history after the whole batch of calls.
    pub fn with_post_history(mut self, message: Value) -> Self {
        self.post_history_messages.push(message);
        self
    }

    /// Asks the host to end the model's turn after this call.
    pub fn stop_after_execution(mut self, stop: bool) -> Self {
        self.stop_after_execution = stop;
        self
    }

    /// Adds a metadata entry.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }
}

/// Wraps a tool's return value as structured content and declares its schema as the tool's output
/// schema (`T` must serialise to a JSON object).
///
/// ```
/// use toolhook::{IntoToolResult, Json, Locale};
///
/// #[derive(toolhook::serde::Serialize)]
/// #[serde(crate = "toolhook::serde")]
/// struct Forecast { high: i32 }
///
/// let result = Json(Forecast { high: 21 }).into_tool_result(Locale::En);
/// assert_eq!(result.structured_content(), Some(&serde_json::json!({"high": 21})));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

/// Serialises any `T: Serialize` as structured content (what `#[tool]` does with return types it
/// does not otherwise know; a `T` that is not `Serialize` cannot be returned).
#[doc(hidden)]
#[derive(Debug)]
pub struct Structured<T>(pub T);

/// A value a tool may return: converts it into a [`ToolExecutionResult`].
///
/// Implemented for `()`, `String`, `&str`, `Cow<'static, str>`, `Box<str>`,
/// `serde_json::Value` (read as the Python SDK's host read raw returns), [`Json<T>`], [`ToolOutput`],
/// [`ToolExecutionResult`], `(bool, S: Display)`, `Option<T>` and `Result<T, E: Display>`;
/// `#[tool]` serialises any other `T: Serialize` as structured content.
#[diagnostic::on_unimplemented(
    message = "this return type cannot become a tool result",
    label = "cannot be returned from a tool",
    note = "return (), String, &str, Cow<'static, str>, Box<str>, serde_json::Value, Json<T>, ToolOutput, ToolExecutionResult, (bool, impl Display), Option<T>, Result<T, E: Display>, or any other T: serde::Serialize"
)]
pub trait IntoToolResult {
    /// The result, with `tool_name` left empty (the provider fills it in). `locale` picks the
    /// language of texts toolhook adds.
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult;
}

fn success(content: &str) -> ToolExecutionResult {
    ToolExecutionResult { success: true, content: content.trim().to_owned(), ..Default::default() }
}

impl IntoToolResult for () {
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        ToolExecutionResult { success: true, ..Default::default() }
    }
}

impl IntoToolResult for String {
    #[inline]
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        // Only the two ends can need trimming.
        if !self.starts_with(char::is_whitespace) && !self.ends_with(char::is_whitespace) {
            ToolExecutionResult { success: true, content: self, ..Default::default() }
        } else {
            success(&self)
        }
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        success(self)
    }
}

impl IntoToolResult for Cow<'static, str> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        self.into_owned().into_tool_result(locale)
    }
}

impl IntoToolResult for Box<str> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        String::from(self).into_tool_result(locale)
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        ToolExecutionResult::from_raw_in("", self, locale)
    }
}

impl IntoToolResult for ToolOutput {
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        ToolExecutionResult {
            tool_name: String::new(),
            success: self.success,
            content: self.content.trim().to_owned(),
            error_message: self.error_message.trim().to_owned(),
            metadata: self.metadata.into(),
            stop_after_execution: self.stop_after_execution,
            ..Default::default()
        }
        .with_extras(self.structured_content, self.content_items, self.post_history_messages)
    }
}

impl IntoToolResult for ToolExecutionResult {
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<S: Display> IntoToolResult for (bool, S) {
    fn into_tool_result(self, _: Locale) -> ToolExecutionResult {
        let message = self.1.to_string().trim().to_owned();
        if self.0 {
            ToolExecutionResult { success: true, content: message, ..Default::default() }
        } else {
            ToolExecutionResult { success: false, error_message: message, ..Default::default() }
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: IntoToolResult> IntoToolResult for Option<T> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        match self {
            Some(value) => value.into_tool_result(locale),
            None => ().into_tool_result(locale),
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        match self {
            Ok(value) => value.into_tool_result(locale),
            Err(error) => ToolExecutionResult {
                success: false,
                error_message: error.to_string().trim().to_owned(),
                ..Default::default()
            },
        }
    }
}

fn structured<T: serde::Serialize>(value: &T, locale: Locale) -> ToolExecutionResult {
    match serde_json::to_value(value) {
        Ok(value) => ToolExecutionResult { success: true, ..Default::default() }.with_structured_content(value),
        Err(error) => ToolExecutionResult {
            success: false,
            error_message: match locale {
                Locale::En => format!("failed to serialise the tool output: {error}"),
                Locale::ZhHans => format!("工具输出序列化失败：{error}"),
            },
            ..Default::default()
        },
    }
}

#[diagnostic::do_not_recommend]
impl<T: serde::Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        structured(&self.0, locale)
    }
}

#[diagnostic::do_not_recommend]
impl<T: serde::Serialize> IntoToolResult for Structured<T> {
    fn into_tool_result(self, locale: Locale) -> ToolExecutionResult {
        structured(&self.0, locale)
    }
}
