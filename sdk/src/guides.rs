//! Guides: how-to pages, each with examples that run as tests.

#[doc = include_str!("../docs/long-running-tools.md")]
pub mod long_running_tools {}

#[doc = include_str!("../docs/compatibility.md")]
pub mod compatibility {}

#[doc = include_str!("../docs/dialects.md")]
pub mod dialects {}
