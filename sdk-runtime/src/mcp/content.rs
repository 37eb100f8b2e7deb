//! The one result model as MCP content and back: a [`ToolExecutionResult`] becomes a
//! `CallToolResult` (text, images, audio, embedded resources, resource links, structured content,
//! `isError`) for the server, and a remote server's `CallToolResult` becomes a result for the
//! client provider.

use rmcp::model::{Annotations, CallToolResult, ContentBlock, EmbeddedResource, Resource, ResourceContents, Role};
use serde_json::Value;
use toolhook::{ContentType, SharedEntries, ToolAnnotation, ToolContentItem, ToolExecutionResult};

/// A result as MCP sends it. `structured` is whether the tool declares an output schema: only then
/// does its structured content go out as `structuredContent`.
pub(crate) fn to_call_result(result: &ToolExecutionResult, structured: bool) -> CallToolResult {
    let mut blocks = Vec::with_capacity(1 + result.content_items().len());
    let text =
        if result.success || result.error_message.trim().is_empty() { &result.content } else { &result.error_message };
    if !text.trim().is_empty() {
        blocks.push(ContentBlock::text(text.trim()));
    }
    blocks.extend(result.content_items().iter().filter_map(block));
    let structured = structured.then_some(()).and(result.structured_content()).filter(|v| v.is_object());
    if blocks.is_empty()
        && let Some(value) = structured.or(result.structured_content())
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

/// A remote server's result in the one result model: the non-empty text blocks, trimmed and
/// joined by lines, are the content (the error message when it is an error); every block is
/// also a content item; structured content is kept as sent; the metadata is the server's shared
/// entry. The tool name is left empty for the caller, who owns it.
pub(crate) fn from_call_result(result: CallToolResult, origin: SharedEntries) -> ToolExecutionResult {
    let mut text = String::new();
    for block in &result.content {
        if let Some(block) = block.as_text().map(|t| t.text.trim()).filter(|t| !t.is_empty()) {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(block);
        }
    }
    let failed = result.is_error == Some(true);
    let mut out = if failed {
        ToolExecutionResult::failure(String::new(), text)
    } else {
        ToolExecutionResult::success(String::new(), text)
    };
    // Only a result with items or structured content gets the box they are kept in.
    let items: Vec<ToolContentItem> = result.content.into_iter().map(item).collect();
    if !items.is_empty() {
        *out.content_items_mut() = items;
    }
    if result.structured_content.is_some() {
        *out.structured_content_mut() = result.structured_content;
    }
    out.metadata.share(origin);
    out
}

/// A kind of content this version does not know, kept as its JSON text.
fn unknown(content: &impl serde::Serialize) -> ToolContentItem {
    ToolContentItem::text(serde_json::to_string(content).unwrap_or_default())
}

/// One MCP content block as a content item (its texts moved, not copied).
fn item(block: ContentBlock) -> ToolContentItem {
    let (mut item, annotations) = match block {
        ContentBlock::Text(text) => (ToolContentItem::text(text.text), text.annotations),
        ContentBlock::Image(image) => (ToolContentItem::image(image.data, image.mime_type), image.annotations),
        ContentBlock::Audio(audio) => (ToolContentItem::audio(audio.data, audio.mime_type), audio.annotations),
        ContentBlock::ResourceLink(link) => {
            let mut item = ToolContentItem::resource_link(link.uri, link.name);
            item.description = link.description.unwrap_or_default();
            item.mime_type = link.mime_type.unwrap_or_default();
            (item, link.annotations)
        }
        ContentBlock::Resource(embedded) => {
            let item = match embedded.resource {
                ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
                    let mut item = ToolContentItem::resource(uri, text);
                    item.mime_type = mime_type.unwrap_or_default();
                    item
                }
                ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
                    let mut item = ToolContentItem::resource(uri, String::new());
                    item.data = blob;
                    item.mime_type = mime_type.unwrap_or_default();
                    item
                }
                other => unknown(&other),
            };
            (item, embedded.annotations)
        }
        other => (unknown(&other), None),
    };
    // Audience and priority, as the server annotated them.
    if let Some(annotations) = annotations {
        let audience = annotations.audience.iter().flatten().map(|role| match role {
            Role::User => "user".to_owned(),
            Role::Assistant => "assistant".to_owned(),
        });
        item.annotation = Some(ToolAnnotation {
            audience: audience.collect(),
            // As written on the wire (0.7, not the f32's 0.699999988…).
            priority: annotations.priority.and_then(|p| p.to_string().parse().ok()),
            ..ToolAnnotation::default()
        });
    }
    item
}
