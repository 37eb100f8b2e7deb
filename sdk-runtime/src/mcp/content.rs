//! The one result model as MCP content: a [`ToolExecutionResult`] becomes a `CallToolResult`
//! (text, images, audio, embedded resources, resource links, structured content, `isError`).

use rmcp::model::{Annotations, CallToolResult, ContentBlock, EmbeddedResource, Resource, ResourceContents, Role};
use serde_json::Value;
use toolhook::{ContentType, ToolContentItem, ToolExecutionResult};

/// A result as MCP sends it. `structured` is whether the tool declares an output schema: only then
/// does its structured content go out as `structuredContent`.
pub(crate) fn to_call_result(result: &ToolExecutionResult, structured: bool) -> CallToolResult {
    let mut blocks = Vec::with_capacity(1 + result.content_items.len());
    let text =
        if result.success || result.error_message.trim().is_empty() { &result.content } else { &result.error_message };
    if !text.trim().is_empty() {
        blocks.push(ContentBlock::text(text.trim()));
    }
    blocks.extend(result.content_items.iter().filter_map(block));
    let structured = structured.then_some(()).and(result.structured_content.as_ref()).filter(|v| v.is_object());
    if blocks.is_empty()
        && let Some(value) = structured.or(result.structured_content.as_ref())
    {
        // Clients that do not read structured content still see it.
        blocks.push(ContentBlock::text(value.to_string()));
    }
    let mut out = if result.success { CallToolResult::success(blocks) } else { CallToolResult::error(blocks) };
    if result.success {
        out.structured_content = structured.cloned();
    }
    out
}

/// One content item as an MCP content block (`None` for an item with nothing to send).
fn block(item: &ToolContentItem) -> Option<ContentBlock> {
    let mime = (!item.mime_type.is_empty()).then(|| item.mime_type.clone());
    let block = match item.content_type {
        ContentType::Text | ContentType::Unknown if !item.text.is_empty() => ContentBlock::text(item.text.clone()),
        ContentType::Text | ContentType::Unknown => return None,
        ContentType::Image => ContentBlock::image(item.data.clone(), item.mime_type.clone()),
        ContentType::Audio => ContentBlock::audio(item.data.clone(), item.mime_type.clone()),
        ContentType::ResourceLink => {
            let name = if item.name.is_empty() { item.uri.clone() } else { item.name.clone() };
            let mut link = Resource::new(item.uri.clone(), name);
            if !item.description.is_empty() {
                link = link.with_description(item.description.clone());
            }
            if let Some(mime) = mime {
                link = link.with_mime_type(mime);
            }
            ContentBlock::resource_link(link)
        }
        ContentType::Resource | ContentType::Binary => {
            let uri = if item.uri.is_empty() { format!("toolhook:{}", item.content_type) } else { item.uri.clone() };
            let contents = if item.data.is_empty() {
                ResourceContents::text(item.text.clone(), uri)
            } else {
                ResourceContents::blob(item.data.clone(), uri)
            };
            let contents = match mime {
                Some(mime) => contents.with_mime_type(mime),
                None => contents,
            };
            ContentBlock::Resource(EmbeddedResource::new(contents))
        }
    };
    Some(with_annotations(block, item))
}

/// Audience and priority, when the item has them.
fn with_annotations(block: ContentBlock, item: &ToolContentItem) -> ContentBlock {
    let Some(annotation) = &item.annotation else { return block };
    let audience: Vec<Role> =
        annotation.audience.iter().filter_map(|who| serde_json::from_value(Value::from(who.as_str())).ok()).collect();
    if audience.is_empty() && annotation.priority.is_none() {
        return block;
    }
    let mut annotations = Annotations::default();
    if !audience.is_empty() {
        annotations = annotations.with_audience(audience);
    }
    if let Some(priority) = annotation.priority {
        annotations = annotations.with_priority(priority as f32);
    }
    match block {
        ContentBlock::Text(mut c) => {
            c.annotations = Some(annotations);
            ContentBlock::Text(c)
        }
        ContentBlock::Image(mut c) => {
            c.annotations = Some(annotations);
            ContentBlock::Image(c)
        }
        ContentBlock::Audio(mut c) => {
            c.annotations = Some(annotations);
            ContentBlock::Audio(c)
        }
        ContentBlock::Resource(mut c) => {
            c.annotations = Some(annotations);
            ContentBlock::Resource(c)
        }
        other => other,
    }
}
