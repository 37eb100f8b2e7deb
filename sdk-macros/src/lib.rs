//! Attribute macros of [toolhook](https://docs.rs/toolhook). Depend on `toolhook`, which
//! re-exports them; the generated code names everything through `::toolhook::__private`, so a
//! plugin crate needs no direct `serde`, `schemars` or `inventory` dependency.
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod action;
mod attr;
mod command;
mod docs;
mod hook_handler;
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

/// Makes an LLM tool of a fn. See the `toolhook` crate docs.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    tool::expand(attr.into(), item.into()).into()
}

/// Subscribes an async fn to a named hook point. See `toolhook::hooks`.
#[proc_macro_attribute]
pub fn hook_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    hook_handler::expand(attr.into(), item.into()).into()
}

/// Removed in toolhook 2: always a compile error naming the `#[hook_handler(...)]` that replaces it.
#[proc_macro_attribute]
pub fn workflow_step(attr: TokenStream, item: TokenStream) -> TokenStream {
    workflow_step::expand(attr.into(), item.into()).into()
}

/// The deprecated legacy form of a tool (SDK 1.x actions): still works, registers a tool exactly as
/// `ToolSpec::from_action` builds it, and warns. Declare new tools with `#[tool]`.
#[proc_macro_attribute]
pub fn action(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.clone().into()) {
        return item;
    }
    action::expand(attr.into(), item.into()).into()
}

/// Exposes a `#[tool]` as a chat command; consumed by `#[tool]`, so it must be placed below it.
#[proc_macro_attribute]
pub fn command(attr: TokenStream, item: TokenStream) -> TokenStream {
    if attr::is_consumed(&attr.into()) {
        return item;
    }
    command::misplaced(item.into()).into()
}

/// Makes a plugin of an impl block: its `#[tool]`, `#[hook_handler]` and `#[action]` methods run
/// against one shared instance, with optional `on_load`, `on_unload` and `on_config_update`.
#[proc_macro_attribute]
pub fn plugin(attr: TokenStream, item: TokenStream) -> TokenStream {
    plugin::expand(attr.into(), item.into()).into()
}
