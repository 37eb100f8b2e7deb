//! Placeholder.
#![deny(missing_docs)]

mod hooks;
