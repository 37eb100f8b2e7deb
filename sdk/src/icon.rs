//! An icon a host may show next to a tool.

/// An icon for a tool, as MCP describes one.
///
/// ```
/// use toolhook::ToolIcon;
///
/// let icon = ToolIcon::new("https://example.com/w.png").mime_type("image/png");
/// assert_eq!(icon.mime_type, "image/png");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolIcon {
    /// Where the icon is (a URL or a `data:` URL).
    pub src: String,
    /// Its MIME type, or `""`.
    pub mime_type: String,
    /// Sizes such as `48x48`, or none.
    pub sizes: Vec<String>,
}

impl ToolIcon {
    /// An icon at `src`.
    pub fn new(src: impl Into<String>) -> Self {
        ToolIcon { src: src.into(), ..Default::default() }
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = mime_type.into();
        self
    }

    /// Adds a size.
    pub fn size(mut self, size: impl Into<String>) -> Self {
        self.sizes.push(size.into());
        self
    }
}
