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
/// The name and the arguments are fields; the rest (call id, session, stream, reasoning,
/// metadata) is read and written through methods, and kept in one box made only when one of
/// them is set, so that a call stays small: it moves through the registry, its provider and the
/// tool by value.
///
/// ```
/// use toolhook::ToolInvocation;
///
/// let call = ToolInvocation::new("weather", r#"{"city":"Paris"}"#).with_call_id("call_1");
/// assert_eq!(call.arguments.as_text(), r#"{"city":"Paris"}"#);
/// assert_eq!(call.call_id(), "call_1");
/// assert_eq!(call.session_id(), "");
/// ```
#[derive(Clone, Default)]
pub struct ToolInvocation {
    /// The tool's name as the model called it (the registry name).
    pub tool_name: String,
    /// The model's arguments, kept as received.
    pub arguments: ToolArguments,
    /// Everything else; `None` while all of it is empty.
    details: Option<Box<CallDetails>>,
}

/// The rarely set parts of a call.
#[derive(Clone, Default)]
struct CallDetails {
    call_id: String,
    session_id: String,
    stream_id: String,
    reasoning: String,
    metadata: Map<String, Value>,
}

/// What unset metadata reads as.
static NO_METADATA: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

impl ToolInvocation {
    /// A call of `tool_name` with JSON text or a value as arguments.
    pub fn new(tool_name: impl Into<String>, arguments: impl Into<ToolArguments>) -> Self {
        ToolInvocation { tool_name: tool_name.into(), arguments: arguments.into(), details: None }
    }

    fn text(&self, part: impl Fn(&CallDetails) -> &String) -> &str {
        self.details.as_deref().map_or("", |details| part(details))
    }

    fn details_mut(&mut self) -> &mut CallDetails {
        self.details.get_or_insert_default()
    }

    /// Sets one text part; an empty text on a call without details makes none.
    fn set_text(&mut self, text: String, part: impl Fn(&mut CallDetails) -> &mut String) {
        if !text.is_empty() || self.details.is_some() {
            *part(self.details_mut()) = text;
        }
    }

    /// The model API's id of this call (empty when not set).
    pub fn call_id(&self) -> &str {
        self.text(|d| &d.call_id)
    }

    /// The conversation (empty when not set).
    pub fn session_id(&self) -> &str {
        self.text(|d| &d.session_id)
    }

    /// The chat stream (empty when not set).
    pub fn stream_id(&self) -> &str {
        self.text(|d| &d.stream_id)
    }

    /// The model's reasoning for the call (empty when not set).
    pub fn reasoning(&self) -> &str {
        self.text(|d| &d.reasoning)
    }

    /// Anything else the caller passed along.
    #[inline]
    pub fn metadata(&self) -> &Map<String, Value> {
        self.details.as_deref().map_or(&NO_METADATA, |details| &details.metadata)
    }

    /// The metadata, to change it.
    ///
    /// ```
    /// use toolhook::ToolInvocation;
    ///
    /// let mut call = ToolInvocation::new("weather", "{}");
    /// call.metadata_mut().insert("trace".into(), 7.into());
    /// assert_eq!(call.metadata()["trace"], 7);
    /// ```
    pub fn metadata_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.details_mut().metadata
    }

    /// Sets the call id.
    pub fn set_call_id(&mut self, call_id: impl Into<String>) {
        self.set_text(call_id.into(), |d| &mut d.call_id);
    }

    /// Sets the session id.
    pub fn set_session_id(&mut self, session_id: impl Into<String>) {
        self.set_text(session_id.into(), |d| &mut d.session_id);
    }

    /// Sets the stream id.
    pub fn set_stream_id(&mut self, stream_id: impl Into<String>) {
        self.set_text(stream_id.into(), |d| &mut d.stream_id);
    }

    /// Sets the reasoning.
    pub fn set_reasoning(&mut self, reasoning: impl Into<String>) {
        self.set_text(reasoning.into(), |d| &mut d.reasoning);
    }

    /// Sets the call id.
    pub fn with_call_id(mut self, call_id: impl Into<String>) -> Self {
        self.set_call_id(call_id);
        self
    }

    /// Sets the session id.
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> Self {
        self.set_session_id(session_id);
        self
    }

    /// Sets the stream id.
    pub fn with_stream_id(mut self, stream_id: impl Into<String>) -> Self {
        self.set_stream_id(stream_id);
        self
    }

    /// Sets the reasoning.
    pub fn with_reasoning(mut self, reasoning: impl Into<String>) -> Self {
        self.set_reasoning(reasoning);
        self
    }

    /// Adds a metadata entry.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata_mut().insert(key.into(), value.into());
        self
    }
}

/// Calls are equal when their names, arguments and every other part are: a part that was set
/// empty equals one never set.
impl PartialEq for ToolInvocation {
    fn eq(&self, other: &Self) -> bool {
        self.tool_name == other.tool_name
            && self.arguments == other.arguments
            && self.call_id() == other.call_id()
            && self.session_id() == other.session_id()
            && self.stream_id() == other.stream_id()
            && self.reasoning() == other.reasoning()
            && self.metadata() == other.metadata()
    }
}

/// Every part, as if each were a field.
impl std::fmt::Debug for ToolInvocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolInvocation")
            .field("tool_name", &self.tool_name)
            .field("arguments", &self.arguments)
            .field("call_id", &self.call_id())
            .field("session_id", &self.session_id())
            .field("stream_id", &self.stream_id())
            .field("reasoning", &self.reasoning())
            .field("metadata", self.metadata())
            .finish()
    }
}

/// Written as an object with every part: `tool_name`, `arguments`, `call_id`, `session_id`,
/// `stream_id`, `reasoning`, `metadata`.
impl serde::Serialize for ToolInvocation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("ToolInvocation", 7)?;
        out.serialize_field("tool_name", &self.tool_name)?;
        out.serialize_field("arguments", &self.arguments)?;
        out.serialize_field("call_id", self.call_id())?;
        out.serialize_field("session_id", self.session_id())?;
        out.serialize_field("stream_id", self.stream_id())?;
        out.serialize_field("reasoning", self.reasoning())?;
        out.serialize_field("metadata", self.metadata())?;
        out.end()
    }
}
