//! Example plugins a plugin author would copy from, and the tools the demo host serves.
//!
//! Every tool here is a free `#[tool]` fn, so it belongs to this package's default plugin
//! (`toolhook-examples`).

pub mod host;
pub mod plugins;

/// A 1×1 PNG, what the chart tool returns as media.
pub const TINY_PNG_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
