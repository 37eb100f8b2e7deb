//! Guides: how-to pages, each with examples that compile as tests.

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
#[doc = include_str!("../docs/serve-over-mcp.md")]
pub mod serve_over_mcp {}

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
#[doc = include_str!("../docs/use-mcp-servers.md")]
pub mod use_mcp_servers {}

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
#[doc = include_str!("../docs/plugin-processes.md")]
pub mod plugin_processes {}
