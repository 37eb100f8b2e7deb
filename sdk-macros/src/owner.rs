//! Who owns a component's fn: a free fn (its package's default plugin) or a method of a
//! `#[plugin]` impl block.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

/// Who owns the fn: a free fn (the package's default plugin) or a `#[plugin]` method.
#[derive(Clone, Copy)]
pub(crate) enum Owner<'a> {
    Free,
    Method { self_ty: &'a Type, plugin_id: &'a str },
}

impl Owner<'_> {
    /// The plugin id as tokens: the `#[plugin]` id, or the package name for free fns.
    pub(crate) fn plugin_id_tokens(&self) -> TokenStream {
        match self {
            Owner::Free => quote!(::core::env!("CARGO_PKG_NAME")),
            Owner::Method { plugin_id, .. } => quote!(#plugin_id),
        }
    }
}
