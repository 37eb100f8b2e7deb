//! Whether the body of an `async fn` tool or blocking hook handler can wait: one that cannot
//! finishes on its first poll, so the runtime can run it to its end in place, without putting
//! its future in a box.
//!
//! A body can wait only at an `.await`. Macros can expand to one, so the answer is "never waits"
//! only when there is no `await` token anywhere in the body (in macro arguments too) and every
//! macro it invokes is one of the standard library's that never expand to an `.await`. Anything
//! else, a nested `async` block or closure included, counts as "may wait": the answer may be
//! wrong only in the safe direction. So does any attribute macro left on the fn, which is
//! expanded after `#[tool]` (or `#[hook_handler]`) and may rewrite the body.

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The standard library's macros that never expand to an `.await` of their own.
const NEVER_AWAIT: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "cfg",
    "column",
    "concat",
    "dbg",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "env",
    "eprint",
    "eprintln",
    "file",
    "format",
    "format_args",
    "line",
    "matches",
    "module_path",
    "option_env",
    "panic",
    "print",
    "println",
    "stringify",
    "todo",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
];

/// The attributes that leave a fn's body as it is written. Any other attribute still on the fn
/// (an attribute macro, or a `cfg_attr` that may become one) is expanded after `#[tool]` and may
/// wrap the body in code that waits (`#[tracing::instrument]` does).
const INERT: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "cfg",
    "inline",
    "cold",
    "must_use",
    "deprecated",
    "track_caller",
];

/// Whether every attribute left on the fn leaves its body as written: one-segment names of
/// [`INERT`], and tool attributes (`rustfmt::skip`, `clippy::…`).
pub(crate) fn inert(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().all(|attr| {
        let segments: Vec<String> = attr.path().segments.iter().map(|s| s.ident.to_string()).collect();
        match segments.as_slice() {
            [name] => INERT.contains(&name.as_str()),
            [tool, _] => ["rustfmt", "clippy"].contains(&tool.as_str()),
            _ => false,
        }
    })
}

/// Whether the body of an `async fn` can never wait (see the module docs).
pub(crate) fn never_waits(body: &syn::Block) -> bool {
    let mut finder = Finder { may_wait: false };
    finder.visit_block(body);
    !finder.may_wait
}

struct Finder {
    may_wait: bool,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_await(&mut self, _: &'ast syn::ExprAwait) {
        self.may_wait = true;
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if !is_std_never_await(&mac.path) || has_await(&mac.tokens) {
            self.may_wait = true;
        }
    }
}

/// `name!`, `std::name!`, `core::name!`, `alloc::name!` (with or without a leading `::`) for a
/// name in [`NEVER_AWAIT`].
fn is_std_never_await(path: &syn::Path) -> bool {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let name = match segments.as_slice() {
        [name] if path.leading_colon.is_none() => name,
        [krate, name] if ["std", "core", "alloc"].contains(&krate.as_str()) => name,
        _ => return false,
    };
    NEVER_AWAIT.contains(&name.as_str())
}

/// Whether `await` is one of the tokens, at any depth.
fn has_await(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|token| match token {
        TokenTree::Ident(ident) => ident == "await",
        TokenTree::Group(group) => has_await(&group.stream()),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(tokens: proc_macro2::TokenStream) -> bool {
        never_waits(&syn::parse2(tokens).expect("a block"))
    }

    #[test]
    fn a_body_without_await_or_foreign_macros_never_waits() {
        assert!(body(quote::quote!({ format!("{city}: sunny") })));
        assert!(body(quote::quote!({
            let x = std::format!("{}", 1);
            assert!(!x.is_empty());
            let v = vec![1, 2];
            let f = async { 1 };
            drop(f);
            v.len()
        })));
    }

    #[test]
    fn only_inert_attributes_leave_the_body_as_written() {
        let attrs = |tokens: proc_macro2::TokenStream| {
            syn::parse2::<syn::ItemFn>(quote::quote!(#tokens async fn f() {})).expect("a fn").attrs
        };
        assert!(inert(&attrs(quote::quote!(#[doc = "x"] #[allow(dead_code)] #[inline] #[rustfmt::skip]))));
        assert!(!inert(&attrs(quote::quote!(#[tracing::instrument]))));
        assert!(!inert(&attrs(quote::quote!(#[instrument]))));
        assert!(!inert(&attrs(quote::quote!(#[cfg_attr(test, instrument)]))));
    }

    #[test]
    fn any_await_or_unknown_macro_may_wait() {
        assert!(!body(quote::quote!({ fetch().await })));
        assert!(!body(quote::quote!({
            let f = async { fetch().await };
            1
        })));
        assert!(!body(quote::quote!({ format!("{}", fetch().await) })));
        assert!(!body(quote::quote!({ tokio::join!(a(), b()) })));
        assert!(!body(quote::quote!({ select!(x) })));
        assert!(!body(quote::quote!({
            tracing::info!("hi");
            1
        })));
        assert!(!body(quote::quote!({ ::format!("{}", 1) })));
        assert!(!body(quote::quote!({ mine::format!("{}", 1) })));
    }
}
