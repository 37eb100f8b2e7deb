//! Attribute macros of [toolhook](https://docs.rs/toolhook). Depend on `toolhook`, which
//! re-exports them; the generated code names everything through `::toolhook::__private`.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Placeholder.
#[proc_macro_attribute]
pub fn tool(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}
