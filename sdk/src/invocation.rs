//! One call of a tool, as the model made it.

use serde_json::{Map, Value};
use std::borrow::Cow;

/// The arguments of a call: the JSON text the model API handed over, or a value.
///
/// Text is decoded straight into the tool's parameters without an intermediate `Value`.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolArguments {
    /// JSON text as received (may be empty, which means `{}`).
    Text(String),
    /// An already parsed value.
    Value(Value),
}

impl Default for ToolArguments {
    fn default() -> Self {
        ToolArguments::Text(String::new())
    }
}

impl ToolArguments {
    /// The arguments as JSON text (a value is rendered as compact JSON).
    pub fn as_text(&self) -> Cow<'_, str> {
        match self {
            ToolArguments::Text(text) => Cow::Borrowed(text),
            ToolArguments::Value(value) => Cow::Owned(value.to_string()),
        }
    }

    /// Parses the arguments into a value: empty text is `{}`.
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        match self {
            ToolArguments::Text(text) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
            ToolArguments::Text(text) => serde_json::from_str(text),
            ToolArguments::Value(value) => Ok(value.clone()),
        }
    }
}

impl From<String> for ToolArguments {
    fn from(text: String) -> Self {
        ToolArguments::Text(text)
    }
}

impl From<&str> for ToolArguments {
    fn from(text: &str) -> Self {
        ToolArguments::Text(text.to_owned())
    }
}

impl From<Value> for ToolArguments {
    fn from(value: Value) -> Self {
        ToolArguments::Value(value)
    }
}

impl serde::Serialize for ToolArguments {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolArguments::Text(text) => serializer.serialize_str(text),
            ToolArguments::Value(value) => value.serialize(serializer),
        }
    }
}

/// One tool call: the name the model used, its arguments, and where it comes from.
///
/// ```
/// use toolhook::ToolInvocation;
///
/// let call = ToolInvocation::new("weather", r#"{"city":"Paris"}"#).with_call_id("call_1");
/// assert_eq!(call.arguments.as_text(), r#"{"city":"Paris"}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ToolInvocation {
    /// The tool's name as the model called it (the registry name).
    pub tool_name: String,
    /// The model's arguments, kept as received.
    pub arguments: ToolArguments,
    /// The model API's id of this call.
    pub call_id: String,
    /// The conversation.
    pub session_id: String,
    /// The chat stream.
    pub stream_id: String,
    /// The model's reasoning for the call.
    pub reasoning: String,
    /// Anything else the caller wants to pass along.
    pub metadata: Map<String, Value>,
}

impl ToolInvocation {
    /// A call of `tool_name` with JSON text or a value as arguments.
    pub fn new(tool_name: impl Into<String>, arguments: impl Into<ToolArguments>) -> Self {
        ToolInvocation { tool_name: tool_name.into(), arguments: arguments.into(), ..Default::default() }
    }

    /// Sets the call id.
    pub fn with_call_id(mut self, call_id: impl Into<String>) -> Self {
        self.call_id = call_id.into();
        self
    }

    /// Sets the session id.
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> Self {
        self.session_id = session_id.into();
        self
    }

    /// Sets the stream id.
    pub fn with_stream_id(mut self, stream_id: impl Into<String>) -> Self {
        self.stream_id = stream_id.into();
        self
    }

    /// Sets the reasoning.
    pub fn with_reasoning(mut self, reasoning: impl Into<String>) -> Self {
        self.reasoning = reasoning.into();
        self
    }

    /// Adds a metadata entry.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }
}
