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
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolExecutionResult {
    /// The name the tool was called by (the registry name).
    pub tool_name: String,
    /// Whether the tool did what was asked.
    pub success: bool,
    /// The text for the model.
    pub content: String,
    /// Why it failed (failures only).
    pub error_message: String,
    /// Machine-readable output.
    pub structured_content: Option<Value>,
    /// Images, audio, resources.
    pub content_items: Vec<ToolContentItem>,
    /// Messages a host appends to the history after the whole batch of calls.
    pub post_history_messages: Vec<Value>,
    /// Anything else (`plugin_id`, `server_name`, …): a JSON object whose entry naming the
    /// result's origin is shared with the other results of that origin.
    pub metadata: ResultMetadata,
    /// Whether the host should end the model's turn after this call.
    pub stop_after_execution: bool,
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
                result.structured_content = Some(Value::Array(items));
                result
            }
            Value::Null => ToolExecutionResult { tool_name, success: true, ..Default::default() },
            other => ToolExecutionResult {
                tool_name,
                success: true,
                content: py_str(&other).trim().to_owned(),
                structured_content: Some(other),
                ..Default::default()
            },
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
    /// r.content_items.push(ToolContentItem::image("AAAA", "image/png"));
    /// assert_eq!(r.history_content(Locale::En), "[image image/png]");
    /// assert_eq!(r.history_content(Locale::ZhHans), "[图片内容 image/png]");
    /// ```
    pub fn history_content(&self, locale: Locale) -> String {
        let content = self.content.trim();
        if !content.is_empty() {
            return content.to_owned();
        }
        if !self.content_items.is_empty() {
            let lines: Vec<String> = self.content_items.iter().map(|item| item_summary(item, locale)).collect();
            return lines.join("\n").trim().to_owned();
        }
        match &self.structured_content {
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
            structured_content: Some(Value::Object(map)),
            ..Default::default()
        };
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
        structured_content: Some(Value::Object(map)),
        content_items,
        stop_after_execution,
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
