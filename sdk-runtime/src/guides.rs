//! Guides: how-to pages, each with examples that compile as tests.

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
#[doc = include_str!("../docs/serve-over-mcp.md")]
pub mod serve_over_mcp {}
