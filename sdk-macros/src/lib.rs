//! Attribute macros of [toolhook](https://docs.rs/toolhook). Depend on `toolhook`, which
//! re-exports them; the generated code names everything through `::toolhook::__private`, so a
//! plugin crate needs no direct `serde`, `schemars` or `inventory` dependency.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use proc_macro::TokenStream;

mod action;
mod analysis;
mod attr;
mod awaits;
mod catalogue;
mod command;
mod docs;
mod hook_handler;
mod owner;
mod plugin;
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

#[doc = include_str!("../docs/tool.md")]
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    tool::expand(attr.into(), item.into()).into()
}

#[doc = include_str!("../docs/hook_handler.md")]
#[proc_macro_attribute]
pub fn hook_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    hook_handler::expand(attr.into(), item.into()).into()
}

#[doc = include_str!("../docs/workflow_step.md")]
#[proc_macro_attribute]
pub fn workflow_step(attr: TokenStream, item: TokenStream) -> TokenStream {
    workflow_step::expand(attr.into(), item.into()).into()
}

#[doc = include_str!("../docs/action.md")]
#[proc_macro_attribute]
pub fn action(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    action::expand(attr.into(), item.into()).into()
}

#[doc = include_str!("../docs/command.md")]
#[proc_macro_attribute]
pub fn command(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.into()) {
        return item;
    }
    command::misplaced(item.into()).into()
}

#[doc = include_str!("../docs/plugin.md")]
#[proc_macro_attribute]
pub fn plugin(attr: TokenStream, item: TokenStream) -> TokenStream {
    plugin::expand(attr.into(), item.into()).into()
}
