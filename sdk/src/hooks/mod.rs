//! Hook points: what a `#[hook_handler]` receives and returns, the names of the built-in
//! catalogue's hooks and their typed payloads.
//!
//! A host fires a named hook with a JSON object of arguments; `#[hook_handler]` fns subscribe to
//! it. Blocking handlers run in order and may rewrite the arguments or abort; observe handlers run
//! afterwards, concurrently, and only read.

mod names;
pub mod payload;

pub use names::*;
