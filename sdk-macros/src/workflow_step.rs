//! `#[workflow_step]` (to be written).

use proc_macro2::TokenStream;

pub(crate) fn expand(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}
