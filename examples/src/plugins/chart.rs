//! A tool that returns an image as media; hosts split it into its own history message.

use toolhook::{ToolContentItem, ToolOutput, tool};

/// Render a bar chart of values as a PNG image.
#[tool(core_tool = true)]
pub fn render_chart(
    /// Chart title.
    title: String,
    /// The values to plot.
    values: Vec<f64>,
) -> ToolOutput {
    ToolOutput::text(format!("Rendered \"{title}\" with {} bars.", values.len())).with_item(
        ToolContentItem::image(crate::TINY_PNG_BASE64, "image/png")
            .with_name(format!("{title}.png"))
            .with_metadata("context_key", "chart"),
    )
}
