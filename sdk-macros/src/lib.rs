//! Attribute macros of [toolhook](https://docs.rs/toolhook). Depend on `toolhook`, which
//! re-exports them; the generated code names everything through `::toolhook::__private`, so a
//! plugin crate needs no direct `serde`, `schemars` or `inventory` dependency.
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod attr;
mod docs;
mod hook_handler;
mod schema;
#[allow(unreachable_pub, dead_code)]
mod shared;
mod signature;
mod tool;
mod workflow_step;

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

/// Subscribes an async fn to a named hook point. See `toolhook::hooks`.
#[proc_macro_attribute]
pub fn hook_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    hook_handler::expand(attr.into(), item.into()).into()
}

/// Removed in toolhook 2: always a compile error naming the `#[hook_handler(...)]` that replaces it.
#[proc_macro_attribute]
pub fn workflow_step(attr: TokenStream, item: TokenStream) -> TokenStream {
    workflow_step::expand(attr.into(), item.into()).into()
}
