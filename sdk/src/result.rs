//! The one result model of every tool call, and how a raw return value becomes one.

use crate::shared::py::{is_truthy, py_json, py_str};
use crate::{ContentType, Locale, ResultMetadata, ToolContentItem};
use serde_json::{Map, Value};

/// The outcome of one tool call, whatever the provider: a plugin tool, a built-in, an MCP server.
///
/// Tools that ran and failed are results with `success = false`; the registry turns every other
/// problem (unknown tool, bad arguments, panics, timeouts) into such a result too, so a host
/// handles exactly one type.
///
/// ```
/// use toolhook::{Locale, ToolExecutionResult};
///
/// let ok = ToolExecutionResult::success("weather", "  Sunny, 21 °C ");
/// assert_eq!(ok.history_content(Locale::En), "Sunny, 21 °C");
/// let failed = ToolExecutionResult::failure("weather", "city not found");
/// assert!(!failed.success);
/// ```
///
/// The fields are what nearly every result has; structured content, content items and
/// post-history messages are read and written through methods, and kept in one box made only
/// when one of them is set, so that a result stays small: it moves by value from the tool to
/// the host. Serialised, a result is one object with every part.
#[derive(Clone, Default)]
pub struct ToolExecutionResult {
    /// The name the tool was called by (the registry name).
    pub tool_name: String,
    /// Whether the tool did what was asked.
    pub success: bool,
    /// The text for the model.
    pub content: String,
    /// Why it failed (failures only).
    pub error_message: String,
    /// Anything else (`plugin_id`, `server_name`, …): a JSON object whose entry naming the
    /// result's origin is shared with the other results of that origin.
    pub metadata: ResultMetadata,
    /// Whether the host should end the model's turn after this call.
    pub stop_after_execution: bool,
    /// The rarely set parts; `None` while all of them are empty.
    pub(crate) extras: Option<Box<Extras>>,
}

/// The rarely set parts of a result.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Extras {
    structured_content: Option<Value>,
    content_items: Vec<ToolContentItem>,
    post_history_messages: Vec<Value>,
}

impl Extras {
    /// The parts in a box, or `None` when all are empty.
    fn boxed(
        structured_content: Option<Value>,
        content_items: Vec<ToolContentItem>,
        post_history_messages: Vec<Value>,
    ) -> Option<Box<Extras>> {
        let empty = structured_content.is_none() && content_items.is_empty() && post_history_messages.is_empty();
        (!empty).then(|| Box::new(Extras { structured_content, content_items, post_history_messages }))
    }
}

/// What unset parts read as.
static NO_EXTRAS: Extras =
    Extras { structured_content: None, content_items: Vec::new(), post_history_messages: Vec::new() };

impl ToolExecutionResult {
    /// The result with these rare parts (each may be empty).
    pub(crate) fn with_extras(
        mut self,
        structured_content: Option<Value>,
        content_items: Vec<ToolContentItem>,
        post_history_messages: Vec<Value>,
    ) -> Self {
        self.extras = Extras::boxed(structured_content, content_items, post_history_messages);
        self
    }

    fn extras(&self) -> &Extras {
        self.extras.as_deref().unwrap_or(&NO_EXTRAS)
    }

    fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_default()
    }

    /// Machine-readable output.
    pub fn structured_content(&self) -> Option<&Value> {
        self.extras().structured_content.as_ref()
    }

    /// The structured content, to set, change or take it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolhook::ToolExecutionResult;
    ///
    /// let mut r = ToolExecutionResult::success("weather", "Sunny");
    /// *r.structured_content_mut() = Some(json!({"high": 21}));
    /// assert_eq!(r.structured_content(), Some(&json!({"high": 21})));
    /// ```
    pub fn structured_content_mut(&mut self) -> &mut Option<Value> {
        &mut self.extras_mut().structured_content
    }

    /// The result with this structured content.
    pub fn with_structured_content(mut self, value: impl Into<Value>) -> Self {
        *self.structured_content_mut() = Some(value.into());
        self
    }

    /// Images, audio, resources.
    pub fn content_items(&self) -> &[ToolContentItem] {
        &self.extras().content_items
    }

    /// The content items, to add, change or remove some.
    pub fn content_items_mut(&mut self) -> &mut Vec<ToolContentItem> {
        &mut self.extras_mut().content_items
    }

    /// Messages a host appends to the history after the whole batch of calls.
    pub fn post_history_messages(&self) -> &[Value] {
        &self.extras().post_history_messages
    }

    /// The post-history messages, to add, change or remove some.
    pub fn post_history_messages_mut(&mut self) -> &mut Vec<Value> {
        &mut self.extras_mut().post_history_messages
    }
}

/// Results are equal when every part is: a part that was set empty equals one never set.
impl PartialEq for ToolExecutionResult {
    fn eq(&self, other: &Self) -> bool {
        self.tool_name == other.tool_name
            && self.success == other.success
            && self.content == other.content
            && self.error_message == other.error_message
            && self.metadata == other.metadata
            && self.stop_after_execution == other.stop_after_execution
            && self.extras() == other.extras()
    }
}

impl std::fmt::Debug for ToolExecutionResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let extras = self.extras();
        f.debug_struct("ToolExecutionResult")
            .field("tool_name", &self.tool_name)
            .field("success", &self.success)
            .field("content", &self.content)
            .field("error_message", &self.error_message)
            .field("structured_content", &extras.structured_content)
            .field("content_items", &extras.content_items)
            .field("post_history_messages", &extras.post_history_messages)
            .field("metadata", &self.metadata)
            .field("stop_after_execution", &self.stop_after_execution)
            .finish()
    }
}

/// One object with every part, in the order of [`Debug`](std::fmt::Debug).
impl serde::Serialize for ToolExecutionResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let extras = self.extras();
        let mut out = serializer.serialize_struct("ToolExecutionResult", 9)?;
        out.serialize_field("tool_name", &self.tool_name)?;
        out.serialize_field("success", &self.success)?;
        out.serialize_field("content", &self.content)?;
        out.serialize_field("error_message", &self.error_message)?;
        out.serialize_field("structured_content", &extras.structured_content)?;
        out.serialize_field("content_items", &extras.content_items)?;
        out.serialize_field("post_history_messages", &extras.post_history_messages)?;
        out.serialize_field("metadata", &self.metadata)?;
        out.serialize_field("stop_after_execution", &self.stop_after_execution)?;
        out.end()
    }
}

/// Reads the object [`Serialize`](serde::Serialize) writes; a missing part is empty.
impl<'de> serde::Deserialize<'de> for ToolExecutionResult {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// The serialised form: every part a field.
        #[derive(Default, serde::Deserialize)]
        #[serde(default, rename = "ToolExecutionResult")]
        struct Wire {
            tool_name: String,
            success: bool,
            content: String,
            error_message: String,
            structured_content: Option<Value>,
            content_items: Vec<ToolContentItem>,
            post_history_messages: Vec<Value>,
            metadata: ResultMetadata,
            stop_after_execution: bool,
        }
        let wire = Wire::deserialize(deserializer)?;
        Ok(ToolExecutionResult {
            tool_name: wire.tool_name,
            success: wire.success,
            content: wire.content,
            error_message: wire.error_message,
            metadata: wire.metadata,
            stop_after_execution: wire.stop_after_execution,
            extras: Extras::boxed(wire.structured_content, wire.content_items, wire.post_history_messages),
        })
    }
}

impl ToolExecutionResult {
    /// A successful result with this content.
    pub fn success(tool_name: impl Into<String>, content: impl Into<String>) -> Self {
        ToolExecutionResult {
            tool_name: tool_name.into(),
            success: true,
            content: content.into(),
            ..Default::default()
        }
    }

    /// A failed result with this error message.
    pub fn failure(tool_name: impl Into<String>, error_message: impl Into<String>) -> Self {
        ToolExecutionResult {
            tool_name: tool_name.into(),
            success: false,
            error_message: error_message.into(),
            ..Default::default()
        }
    }

    /// Reads a JSON value as the Python SDK's host read a plugin's return value, in the default
    /// locale (which only affects the two default texts). See [`from_raw_in`](Self::from_raw_in).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolhook::ToolExecutionResult;
    ///
    /// let r = ToolExecutionResult::from_raw("t", json!({"success": false, "error": "bad", "message": "m"}));
    /// assert_eq!((r.success, r.content.as_str(), r.error_message.as_str()), (false, "m", "bad"));
    /// let r = ToolExecutionResult::from_raw("t", json!([true, "done"]));
    /// assert_eq!(r.content, "done");
    /// let r = ToolExecutionResult::from_raw("t", json!(1e16));
    /// assert_eq!(r.content, "1e+16");
    /// ```
    pub fn from_raw(tool_name: impl Into<String>, raw: Value) -> Self {
        Self::from_raw_in(tool_name, raw, Locale::default())
    }

    /// Reads a JSON value as the Python SDK's host read a plugin's return value:
    ///
    /// - an **object** gives `success` (its truthiness, absent = true), `content` (`content`, else
    ///   `message`), `error_message` (`error`, else `message`, else a default text), `content_items`,
    ///   `stop_after_execution` (which must be a bool if present), and is kept as structured content;
    /// - an **array starting with a bool** is `[success, message]`;
    /// - **anything else** is a success whose content is the value printed as Python prints it.
    pub fn from_raw_in(tool_name: impl Into<String>, raw: Value, locale: Locale) -> Self {
        let tool_name = tool_name.into();
        match raw {
            Value::Object(map) => from_object(tool_name, map, locale),
            Value::Array(items) if matches!(items.first(), Some(Value::Bool(_))) => {
                let success = items[0].as_bool().unwrap_or(false);
                let message = match items.get(1) {
                    None | Some(Value::Null) => String::new(),
                    Some(value) => py_str(value).trim().to_owned(),
                };
                let mut result = ToolExecutionResult { tool_name, success, ..Default::default() };
                if success {
                    result.content = message;
                } else {
                    result.error_message = message;
                }
                result.with_structured_content(Value::Array(items))
            }
            Value::Null => ToolExecutionResult { tool_name, success: true, ..Default::default() },
            other => ToolExecutionResult {
                tool_name,
                success: true,
                content: py_str(&other).trim().to_owned(),
                ..Default::default()
            }
            .with_structured_content(other),
        }
    }

    /// The text a model sees for this result in its history: the content; else a summary of the
    /// content items; else the structured content (as Python's `json.dumps` prints it); else the
    /// error message.
    ///
    /// ```
    /// use toolhook::{Locale, ToolContentItem, ToolExecutionResult};
    ///
    /// let mut r = ToolExecutionResult::success("draw", "");
    /// r.content_items_mut().push(ToolContentItem::image("AAAA", "image/png"));
    /// assert_eq!(r.history_content(Locale::En), "[image image/png]");
    /// assert_eq!(r.history_content(Locale::ZhHans), "[图片内容 image/png]");
    /// ```
    pub fn history_content(&self, locale: Locale) -> String {
        let content = self.content.trim();
        if !content.is_empty() {
            return content.to_owned();
        }
        if !self.content_items().is_empty() {
            let lines: Vec<String> = self.content_items().iter().map(|item| item_summary(item, locale)).collect();
            return lines.join("\n").trim().to_owned();
        }
        match self.structured_content() {
            Some(Value::String(text)) => text.trim().to_owned(),
            Some(value) => py_json(value),
            None => self.error_message.trim().to_owned(),
        }
    }
}

fn from_object(tool_name: String, map: Map<String, Value>, locale: Locale) -> ToolExecutionResult {
    if let Some(flag) = map.get("stop_after_execution")
        && !flag.is_boolean()
    {
        return ToolExecutionResult {
            tool_name,
            success: false,
            error_message: locale
                .pick(
                    "The tool result field `stop_after_execution` must be a boolean.",
                    "插件工具返回字段 `stop_after_execution` 必须为布尔值。",
                )
                .to_owned(),
            ..Default::default()
        }
        .with_structured_content(map);
    }
    let success = map.get("success").is_none_or(is_truthy);
    let text_of = |value: Option<&Value>| match value {
        Some(value) if is_truthy(value) => py_str(value).trim().to_owned(),
        _ => String::new(),
    };
    let content = text_of(map.get("content").or_else(|| map.get("message")));
    let error_message = if success {
        String::new()
    } else {
        match map.get("error").or_else(|| map.get("message")) {
            Some(value) => text_of(Some(value)),
            None => locale.pick("Tool execution failed", "插件工具执行失败").to_owned(),
        }
    };
    let content_items = match map.get("content_items") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_object).map(raw_item).collect(),
        _ => Vec::new(),
    };
    let stop_after_execution = map.get("stop_after_execution").and_then(Value::as_bool).unwrap_or(false);
    ToolExecutionResult {
        tool_name,
        success,
        content,
        error_message,
        stop_after_execution,
        extras: Extras::boxed(Some(Value::Object(map)), content_items, Vec::new()),
        ..Default::default()
    }
}

fn raw_item(item: &Map<String, Value>) -> ToolContentItem {
    let first_truthy = |keys: &[&str]| keys.iter().filter_map(|key| item.get(*key)).find(|v| is_truthy(v));
    let text = |keys: &[&str]| first_truthy(keys).map(py_str).unwrap_or_default();
    let type_name = first_truthy(&["content_type", "type"]).map(py_str).unwrap_or_else(|| "unknown".to_owned());
    ToolContentItem {
        content_type: ContentType::from_name(type_name.trim()),
        text: text(&["text"]),
        data: text(&["data", "base64"]),
        mime_type: text(&["mime_type"]),
        uri: text(&["uri"]),
        name: text(&["name"]),
        description: text(&["description"]),
        annotation: None,
        metadata: item.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default(),
    }
}

/// The first non-empty of the given texts (untrimmed), else `fallback`.
fn first_non_empty<'a>(candidates: &[&'a str], fallback: &'a str) -> &'a str {
    candidates.iter().copied().find(|text| !text.is_empty()).unwrap_or(fallback)
}

fn item_summary(item: &ToolContentItem, locale: Locale) -> String {
    let mime = first_non_empty(&[&item.mime_type], "unknown");
    match item.content_type {
        ContentType::Text if !item.text.trim().is_empty() => item.text.trim().to_owned(),
        ContentType::Image => locale.pick(format!("[image {mime}]"), format!("[图片内容 {mime}]")),
        ContentType::Audio => locale.pick(format!("[audio {mime}]"), format!("[音频内容 {mime}]")),
        ContentType::ResourceLink => match locale {
            Locale::En => format!("[resource link] {}", first_non_empty(&[&item.name, &item.uri], "resource link")),
            Locale::ZhHans => format!("[资源链接] {}", first_non_empty(&[&item.name, &item.uri], "资源链接")),
        },
        ContentType::Resource if !item.text.trim().is_empty() => item.text.trim().to_owned(),
        ContentType::Resource => match locale {
            Locale::En => {
                format!("[embedded resource] {}", first_non_empty(&[&item.name, &item.uri], "embedded resource"))
            }
            Locale::ZhHans => format!("[嵌入资源] {}", first_non_empty(&[&item.name, &item.uri], "嵌入资源")),
        },
        ContentType::Binary => locale.pick(format!("[binary {mime}]"), format!("[二进制内容 {mime}]")),
        other => locale.pick(format!("[{other} content]"), format!("[{other} 内容]")),
    }
}
