//! What a model sees after its tool calls: the tool message and one follow-up message per media
//! item, and the history of a whole batch.

use base64::Engine as _;
use base64::engine::{GeneralPurpose, GeneralPurposeConfig};
use serde_json::Value;
use toolhook::__private::{is_truthy, py_str};
use toolhook::{ContentType, Locale, ToolContentItem, ToolExecutionResult};

/// A result split into the tool message and its media messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResultHistory {
    /// The text of the tool message (history content plus a `<tool_result_media_list>` block).
    pub tool_message: String,
    /// One entry per media item, in item order.
    pub media: Vec<ToolResultMedia>,
}

/// One media item of a result, as a follow-up message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResultMedia {
    /// `tool_result:{call id}:{item number}`.
    pub message_id: String,
    /// The model API's call id, as given.
    pub tool_call_id: String,
    /// The item's number in the result's content items, from 1.
    pub item_index: usize,
    /// `<tool_result_media … />` with the item's attributes.
    pub header_text: String,
    /// What a text-only model sees of the item.
    pub visible_text: String,
    /// The decoded image, for images (and binary data with an `image/` MIME type).
    pub image: Option<Vec<u8>>,
}

/// Splits a result into the tool message and one message per media item.
///
/// ```
/// use toolhook::{Locale, ToolContentItem, ToolExecutionResult};
/// use toolhook_runtime::split_tool_result;
///
/// let mut result = ToolExecutionResult::success("draw", "Here it is.");
/// result.content_items_mut().push(ToolContentItem::image("iVBORw0KGgo=", "image/png"));
/// let history = split_tool_result("call_1", "draw", &result, Locale::En);
/// assert_eq!(
///     history.tool_message,
///     "Here it is.\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:call_1:1\" type=\"image\" mime=\"image/png\" />\n</tool_result_media_list>"
/// );
/// assert_eq!(history.media[0].image.as_ref().map(Vec::len), Some(8));
/// ```
pub fn split_tool_result(
    call_id: &str,
    tool_name: &str,
    result: &ToolExecutionResult,
    locale: Locale,
) -> ToolResultHistory {
    let id = [call_id.trim(), tool_name.trim()].into_iter().find(|s| !s.is_empty()).unwrap_or("tool");
    let mut lines = Vec::new();
    let mut media = Vec::new();
    for (i, item) in result.content_items().iter().enumerate() {
        if !is_media(item) {
            continue;
        }
        let index = i + 1;
        let message_id = format!("tool_result:{id}:{index}");
        let attrs = media_attrs(&message_id, item);
        lines.push(format!("  <media {attrs} />"));
        let image = decode_image(item);
        // What the model reads as text: the id and the parts as they are (only the attributes of
        // the header and the list are escaped).
        let mut visible = format!("<tool_result_media msg_id=\"{message_id}\" />\n{}", visible_parts(item));
        if image.is_some() {
            visible.push_str(locale.pick("\n[image]", "\n[图片]"));
        }
        media.push(ToolResultMedia {
            message_id,
            tool_call_id: call_id.to_owned(),
            item_index: index,
            header_text: format!("<tool_result_media {attrs} />"),
            visible_text: visible,
            image,
        });
    }
    let history = result.history_content(locale);
    let history = history.trim();
    let mut tool_message = if lines.is_empty() {
        history.to_owned()
    } else {
        let block = format!("<tool_result_media_list>\n{}\n</tool_result_media_list>", lines.join("\n"));
        if history.is_empty() { block } else { format!("{history}\n\n{block}") }
    };
    if tool_message.is_empty() {
        tool_message = match (result.success, locale) {
            (true, Locale::En) => "Tool executed successfully.".to_owned(),
            (true, Locale::ZhHans) => "工具执行成功。".to_owned(),
            (false, Locale::En) => format!("Tool {tool_name} failed."),
            (false, Locale::ZhHans) => format!("工具 {tool_name} 执行失败。"),
        };
    }
    ToolResultHistory { tool_message, media }
}

fn is_media(item: &ToolContentItem) -> bool {
    item.content_type.is_media()
        && [&item.data, &item.uri, &item.name, &item.description, &item.mime_type].iter().any(|s| !s.trim().is_empty())
}

/// A metadata value shown as an attribute: objects and arrays count as blank, others as Python
/// prints them, falsy ones as blank.
fn meta_text(item: &ToolContentItem, key: &str) -> String {
    match item.metadata.get(key) {
        None | Some(Value::Object(_) | Value::Array(_)) => String::new(),
        Some(value) if is_truthy(value) => py_str(value),
        Some(_) => String::new(),
    }
}

fn media_parts(item: &ToolContentItem) -> [(&'static str, String); 5] {
    [
        ("type", item.content_type.as_str().to_owned()),
        ("mime", item.mime_type.trim().to_owned()),
        ("name", item.name.trim().to_owned()),
        ("context_key", meta_text(item, "context_key").trim().to_owned()),
        ("source_url", meta_text(item, "source_url").trim().to_owned()),
    ]
}

fn media_attrs(message_id: &str, item: &ToolContentItem) -> String {
    let mut attrs = vec![format!("msg_id=\"{}\"", escape(message_id.trim()))];
    for (key, value) in media_parts(item) {
        if !value.is_empty() {
            attrs.push(format!("{key}=\"{}\"", escape(&value)));
        }
    }
    attrs.join(" ")
}

fn visible_parts(item: &ToolContentItem) -> String {
    media_parts(item)
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(key, value)| match key {
            "context_key" | "source_url" => format!("{key}={value}"),
            _ => value,
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The image bytes of an image item (or binary data with an `image/` MIME type): its data, else a
/// `data:` URI; the part after the first comma of a `data:` URL; strict base64, else padded.
fn decode_image(item: &ToolContentItem) -> Option<Vec<u8>> {
    let is_image = item.content_type == ContentType::Image
        || (item.content_type == ContentType::Binary && item.mime_type.trim().starts_with("image/"));
    if !is_image {
        return None;
    }
    let source = if !item.data.trim().is_empty() {
        item.data.trim()
    } else if item.uri.trim().starts_with("data:") {
        item.uri.trim()
    } else {
        return None;
    };
    let payload = if source.starts_with("data:") { source.split_once(',').map_or("", |(_, p)| p) } else { source };
    // A data URL with nothing after its comma (or no comma) holds no image.
    if payload.is_empty() {
        return None;
    }
    MEDIA_BASE64.decode(payload).ok().or_else(|| {
        let padding = (4 - payload.len() % 4) % 4;
        MEDIA_BASE64.decode(format!("{payload}{}", "=".repeat(padding))).ok()
    })
}

/// Standard base64 with canonical padding, whose last symbol may have bits set past the data
/// (`QUJ=` is `AB`): hosts in other languages decode these, and an image should not be lost to
/// an encoder that leaves them.
const MEDIA_BASE64: GeneralPurpose =
    GeneralPurpose::new(&base64::alphabet::STANDARD, GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true));

/// One message of a batch's history.
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryMessage {
    /// The tool message of one call.
    Tool {
        /// The call it answers.
        call_id: String,
        /// Its text.
        content: String,
    },
    /// A media follow-up of the call before it.
    Media(ToolResultMedia),
    /// A message a result asked to append after the batch.
    Post(Value),
}

/// The history a host writes for a batch of calls (the tool calls of one model response), in call
/// order: each call's tool message followed by its media messages; after all of them, the
/// post-history messages of every result, in call order.
pub fn batch_history<'a>(
    calls: impl IntoIterator<Item = (&'a str, &'a ToolExecutionResult)>,
    locale: Locale,
) -> Vec<HistoryMessage> {
    let mut messages = Vec::new();
    let mut post = Vec::new();
    for (call_id, result) in calls {
        let split = split_tool_result(call_id, &result.tool_name, result, locale);
        messages.push(HistoryMessage::Tool { call_id: call_id.to_owned(), content: split.tool_message });
        messages.extend(split.media.into_iter().map(HistoryMessage::Media));
        post.extend(result.post_history_messages().iter().cloned().map(HistoryMessage::Post));
    }
    messages.extend(post);
    messages
}
