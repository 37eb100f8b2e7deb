//! Content items of a tool result: text, images, audio, resources.

use crate::ToolAnnotation;
use serde_json::{Map, Value};
use std::fmt;

/// What a [`ToolContentItem`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentType {
    /// Plain text.
    Text,
    /// An image (`data` is base64 or a `data:` URL).
    Image,
    /// Audio.
    Audio,
    /// A link to a resource (`uri`, `name`).
    ResourceLink,
    /// An embedded resource (`uri`, `text`).
    Resource,
    /// Other binary data.
    Binary,
    /// Anything else.
    #[default]
    Unknown,
}

impl ContentType {
    /// The serde name, e.g. `"resource_link"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContentType::Text => "text",
            ContentType::Image => "image",
            ContentType::Audio => "audio",
            ContentType::ResourceLink => "resource_link",
            ContentType::Resource => "resource",
            ContentType::Binary => "binary",
            ContentType::Unknown => "unknown",
        }
    }

    /// The content type of a serde name; `Unknown` for any other text.
    pub fn from_name(name: &str) -> Self {
        match name {
            "text" => ContentType::Text,
            "image" => ContentType::Image,
            "audio" => ContentType::Audio,
            "resource_link" => ContentType::ResourceLink,
            "resource" => ContentType::Resource,
            "binary" => ContentType::Binary,
            _ => ContentType::Unknown,
        }
    }

    /// Whether the item is media (split into its own history message when it carries data).
    pub const fn is_media(self) -> bool {
        matches!(
            self,
            ContentType::Image
                | ContentType::Audio
                | ContentType::ResourceLink
                | ContentType::Resource
                | ContentType::Binary
        )
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One piece of a tool result beyond its text: an image, audio, a resource, binary data.
///
/// Serialises with exactly nine keys in this order: `content_type`, `text`, `data`, `mime_type`,
/// `uri`, `name`, `description`, `annotation` (`null` when absent), `metadata`.
///
/// ```
/// use toolhook::ToolContentItem;
///
/// let png = ToolContentItem::image("iVBORw0KGgo=", "image/png");
/// assert_eq!(
///     serde_json::to_string(&png).unwrap(),
///     r#"{"content_type":"image","text":"","data":"iVBORw0KGgo=","mime_type":"image/png","uri":"","name":"","description":"","annotation":null,"metadata":{}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolContentItem {
    /// What the item holds.
    pub content_type: ContentType,
    /// Text (for `text` and `resource` items).
    pub text: String,
    /// Base64 data or a `data:` URL.
    pub data: String,
    /// The MIME type.
    pub mime_type: String,
    /// Where the resource is.
    pub uri: String,
    /// A display name.
    pub name: String,
    /// A description.
    pub description: String,
    /// Hints about the item.
    pub annotation: Option<ToolAnnotation>,
    /// Anything else (`context_key` and `source_url` are shown in history).
    pub metadata: Map<String, Value>,
}

impl ToolContentItem {
    fn of(content_type: ContentType) -> Self {
        ToolContentItem { content_type, ..Default::default() }
    }

    /// A text item.
    pub fn text(text: impl Into<String>) -> Self {
        ToolContentItem { text: text.into(), ..Self::of(ContentType::Text) }
    }

    /// An image from base64 data (or a `data:` URL) and its MIME type.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ToolContentItem { data: data.into(), mime_type: mime_type.into(), ..Self::of(ContentType::Image) }
    }

    /// Audio from base64 data and its MIME type.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ToolContentItem { data: data.into(), mime_type: mime_type.into(), ..Self::of(ContentType::Audio) }
    }

    /// A link to a resource.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ToolContentItem { uri: uri.into(), name: name.into(), ..Self::of(ContentType::ResourceLink) }
    }

    /// An embedded text resource.
    pub fn resource(uri: impl Into<String>, text: impl Into<String>) -> Self {
        ToolContentItem { uri: uri.into(), text: text.into(), ..Self::of(ContentType::Resource) }
    }

    /// Binary data (base64) and its MIME type.
    pub fn binary(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ToolContentItem { data: data.into(), mime_type: mime_type.into(), ..Self::of(ContentType::Binary) }
    }

    /// An image from its raw bytes (encoded as base64 here) and its MIME type.
    ///
    /// ```
    /// use toolhook::ToolContentItem;
    ///
    /// let png = ToolContentItem::image_bytes(b"\x89PNG", "image/png");
    /// assert_eq!(png.data, "iVBORw==");
    /// ```
    pub fn image_bytes(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::image(encode(bytes.as_ref()), mime_type)
    }

    /// Audio from its raw bytes (encoded as base64 here) and its MIME type.
    pub fn audio_bytes(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::audio(encode(bytes.as_ref()), mime_type)
    }

    /// Binary data from its raw bytes (encoded as base64 here) and its MIME type.
    pub fn binary_bytes(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::binary(encode(bytes.as_ref()), mime_type)
    }

    /// Sets the name.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Sets the description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// Adds a metadata entry.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }
}

fn encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
