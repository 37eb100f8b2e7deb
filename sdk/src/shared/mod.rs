//! The rules shared, as source, by `toolhook` (at run time) and `toolhook-macros` (at compile time).
//!
//! `toolhook-macros/src/shared` is a symlink to this directory, the way serde shares its attribute
//! internals between `serde_derive` and `serde_derive_internals`: one source, compiled into both
//! crates. The macro renders the schema and both locales' parameter docs of a `#[tool]` with exactly
//! the code that [`ToolSpec::builder`](crate::ToolSpec::builder) runs, so the two can never disagree.
//!
//! Everything here depends on `serde`, `serde_json` and `thiserror` only, and names nothing outside
//! this directory except through `super::`.

pub(crate) mod access;
pub(crate) mod action;
pub(crate) mod docs;
pub(crate) mod error;
pub(crate) mod locale;
pub(crate) mod nullable;
pub(crate) mod param;
pub(crate) mod py;
pub(crate) mod schema;
pub(crate) mod visibility;
