//! Placeholder: the runtime crate's table of contents is written with the registry.
#![deny(missing_docs)]

pub mod hooks;
mod source;

pub use source::Source;
