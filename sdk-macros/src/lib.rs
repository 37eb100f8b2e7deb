//! Attribute macros of [toolhook](https://docs.rs/toolhook). Depend on `toolhook`, which
//! re-exports them; the generated code names everything through `::toolhook::__private`, so a
//! plugin crate needs no direct `serde`, `schemars` or `inventory` dependency.
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod attr;
mod docs;
mod schema;
#[allow(unreachable_pub, dead_code)]
mod shared;
mod signature;
mod tool;

/// Whether a component is declared with `#[tool]` or the legacy `#[action]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Tool,
    Action,
}

/// Makes an LLM tool of a fn. See the `toolhook` crate docs.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}
