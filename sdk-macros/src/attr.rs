//! The attribute grammar shared by every macro: `key = literal`, flags, `key(…)` lists, with every
//! mistake of one attribute collected and reported together.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitStr, Token};

/// Collects errors so that all mistakes of an attribute are reported at once.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(existing) => existing.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn error(&mut self, span: impl Spanned, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span.span(), message));
    }

    pub(crate) fn error_at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.0.map(|e| e.to_compile_error()).unwrap_or_default()
    }

    pub(crate) fn extend(&mut self, other: Errors) {
        if let Some(error) = other.0 {
            self.push(error);
        }
    }
}

/// One `key = value`, `key` or `key(…)` entry of an attribute.
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) key_span: Span,
    pub(crate) value: EntryValue,
}

pub(crate) enum EntryValue {
    /// `key`
    Flag,
    /// `key = expr`
    Expr(Expr),
    /// `key(…)`
    List(TokenStream, Span),
}

impl Entry {
    pub(crate) fn span(&self) -> Span {
        match &self.value {
            EntryValue::Flag => self.key_span,
            EntryValue::Expr(expr) => expr.span(),
            EntryValue::List(_, span) => *span,
        }
    }
}

/// Parses `a = 1, b, c(…)` into entries. Keys may be keywords (`enum`).
pub(crate) fn parse_entries(tokens: TokenStream) -> syn::Result<Vec<Entry>> {
    struct Entries(Vec<Entry>);
    impl Parse for Entries {
        fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
            let mut entries = Vec::new();
            while !input.is_empty() {
                entries.push(parse_entry(input)?);
                if input.is_empty() {
                    break;
                }
                input.parse::<Token![,]>()?;
            }
            Ok(Entries(entries))
        }
    }
    syn::parse2::<Entries>(tokens).map(|e| e.0)
}

/// One `key`, `key = expr` or `key(…)`.
pub(crate) fn parse_entry(input: ParseStream<'_>) -> syn::Result<Entry> {
    use syn::ext::IdentExt;
    let key: syn::Ident = input
        .call(syn::Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), "expected `key = value`, a flag, or `key(…)`"))?;
    let key_span = key.span();
    let key = key.to_string().trim_start_matches("r#").to_owned();
    let value = if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        EntryValue::Expr(input.parse()?)
    } else if input.peek(syn::token::Paren) {
        let content;
        let paren = syn::parenthesized!(content in input);
        EntryValue::List(content.parse()?, paren.span.join())
    } else {
        EntryValue::Flag
    };
    Ok(Entry { key, key_span, value })
}

/// Reports unknown and repeated keys; returns the entries whose key is allowed and first.
pub(crate) fn check_keys(entries: Vec<Entry>, allowed: &[&str], errors: &mut Errors) -> Vec<Entry> {
    check_keys_with(entries, allowed, errors, |_| None)
}

/// Like [`check_keys`], with an extra hint for some unknown keys.
pub(crate) fn check_keys_with(
    entries: Vec<Entry>,
    allowed: &[&str],
    errors: &mut Errors,
    hint: impl Fn(&str) -> Option<String>,
) -> Vec<Entry> {
    let mut seen: Vec<String> = Vec::new();
    let mut kept = Vec::new();
    for entry in entries {
        if !allowed.contains(&entry.key.as_str()) {
            let list = allowed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            let mut message = format!("unknown attribute `{}`; expected one of: {list}", entry.key);
            if let Some(extra) = hint(&entry.key) {
                message.push_str(&format!("; {extra}"));
            } else if let Some(near) = did_you_mean(&entry.key, allowed) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            errors.error_at(entry.key_span, message);
            continue;
        }
        if seen.contains(&entry.key) {
            errors.error_at(entry.key_span, format!("duplicate attribute `{}`", entry.key));
            continue;
        }
        seen.push(entry.key.clone());
        kept.push(entry);
    }
    kept
}

/// Keys written for an allowed one that edit distance does not find: `core` for `core_tool`.
const ALIASES: &[(&str, &str)] =
    &[("core", "core_tool"), ("timeout", "timeout_ms"), ("desc", "description"), ("priority", "order")];

/// The allowed key `key` is a known alias of, else the allowed key within edit distance 2 of it.
pub(crate) fn did_you_mean<'a>(key: &str, allowed: &[&'a str]) -> Option<&'a str> {
    if let Some(target) = ALIASES.iter().find(|(alias, _)| *alias == key).map(|(_, target)| *target)
        && let Some(allowed) = allowed.iter().find(|candidate| **candidate == target)
    {
        return Some(allowed);
    }
    allowed
        .iter()
        .map(|candidate| (levenshtein(key, candidate), *candidate))
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Edit distance by characters.
pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (row[j + 1] + 1).min(row[j] + 1).min(prev + usize::from(ca != *cb));
            prev = current;
        }
    }
    row[b.len()]
}

/// The literal of `expr`, looking through parentheses, groups and a leading minus.
pub(crate) fn literal(expr: &Expr) -> Option<(Lit, bool)> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => Some((lit.clone(), false)),
        Expr::Group(group) => literal(&group.expr),
        Expr::Paren(paren) => literal(&paren.expr),
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)) => {
            literal(&unary.expr).map(|(lit, negative)| (lit, !negative))
        }
        _ => None,
    }
}

pub(crate) fn expect_str(entry: &Entry, errors: &mut Errors) -> Option<LitStr> {
    if let EntryValue::Expr(expr) = &entry.value
        && let Some((Lit::Str(s), false)) = literal(expr)
    {
        return Some(s);
    }
    errors.error_at(entry.span(), format!("expected a string literal for `{}`", entry.key));
    None
}

pub(crate) fn expect_bool(entry: &Entry, errors: &mut Errors) -> Option<bool> {
    match &entry.value {
        EntryValue::Flag => return Some(true),
        EntryValue::Expr(expr) => {
            if let Some((Lit::Bool(b), false)) = literal(expr) {
                return Some(b.value);
            }
        }
        EntryValue::List(..) => {}
    }
    errors.error_at(entry.span(), format!("expected a boolean literal for `{}`", entry.key));
    None
}

/// A string literal or an array of string literals.
pub(crate) fn expect_strs(entry: &Entry, errors: &mut Errors, allow_single: bool) -> Option<Vec<LitStr>> {
    let EntryValue::Expr(expr) = &entry.value else {
        errors.error_at(entry.span(), format!("expected an array of string literals for `{}`", entry.key));
        return None;
    };
    match expr {
        Expr::Array(array) => {
            let mut out = Vec::new();
            let mut ok = true;
            for elem in &array.elems {
                match literal(elem) {
                    Some((Lit::Str(s), false)) => out.push(s),
                    _ => {
                        errors.error(elem, format!("expected a string literal in `{}`", entry.key));
                        ok = false;
                    }
                }
            }
            ok.then_some(out)
        }
        other => match literal(other) {
            Some((Lit::Str(s), false)) if allow_single => Some(vec![s]),
            _ => {
                errors.error(other, format!("expected an array of string literals for `{}`", entry.key));
                None
            }
        },
    }
}

/// Metadata entries `metadata(k = lit, …)` as JSON values, in written order.
pub(crate) fn parse_metadata(entry: &Entry, errors: &mut Errors) -> Vec<(String, serde_json::Value, Span)> {
    let EntryValue::List(tokens, _) = &entry.value else {
        errors.error_at(entry.span(), "expected `metadata(key = value, …)`");
        return Vec::new();
    };
    let entries = match parse_entries(tokens.clone()) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(e);
            return Vec::new();
        }
    };
    let mut out: Vec<(String, serde_json::Value, Span)> = Vec::new();
    for item in entries {
        let value = match &item.value {
            EntryValue::Expr(expr) => literal(expr).and_then(|(lit, negative)| lit_to_json(&lit, negative)),
            _ => None,
        };
        match value {
            Some(value) => {
                if out.iter().any(|(k, _, _)| *k == item.key) {
                    errors.error_at(item.key_span, format!("duplicate attribute `{}`", item.key));
                } else {
                    out.push((item.key.clone(), value, item.key_span));
                }
            }
            None => errors.error_at(
                item.span(),
                format!("expected a string, integer, float or bool literal for metadata key `{}`", item.key),
            ),
        }
    }
    out
}

/// A string, integer, float or bool literal as JSON.
pub(crate) fn lit_to_json(lit: &Lit, negative: bool) -> Option<serde_json::Value> {
    match lit {
        Lit::Str(s) if !negative => Some(serde_json::Value::from(s.value())),
        Lit::Bool(b) if !negative => Some(serde_json::Value::Bool(b.value)),
        Lit::Int(i) => {
            let text = if negative { format!("-{}", i.base10_digits()) } else { i.base10_digits().to_owned() };
            if let Ok(v) = text.parse::<i64>() {
                Some(serde_json::Value::from(v))
            } else {
                text.parse::<u64>().ok().map(serde_json::Value::from)
            }
        }
        Lit::Float(f) => {
            let v: f64 = f.base10_parse().ok()?;
            Some(serde_json::Value::from(if negative { -v } else { v }))
        }
        _ => None,
    }
}

/// Tokens as a person would write them, for error messages: `"x"`, `-1`, `Vec<String>`.
pub(crate) fn shown(tokens: &impl ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == ' ' {
            let prev = if i > 0 { chars[i - 1] } else { ' ' };
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            let tight_after = matches!(prev, '<' | '&' | '-' | ':' | '(' | '[')
                && !(prev == '-' && i >= 2 && chars[i - 2] == ' ' && !next.is_ascii_digit());
            let tight_before = matches!(next, '<' | '>' | ':' | ',' | ')' | ']');
            if tight_after || tight_before {
                if prev == ':' && next != ':' && !(i >= 2 && chars[i - 2] == ':') {
                    out.push(' ');
                }
                continue;
            }
        }
        out.push(*c);
    }
    out
}

/// The argument of a component attribute another macro already handled: `#[tool]` inside
/// `#[plugin]`, `#[command]` below `#[tool]`. The attribute is left on the item with this argument
/// so that rustc still resolves its path (the user's import is used) and the macro passes the item
/// through.
pub(crate) const CONSUMED: &str = "__toolhook_consumed";

/// `#[path(__toolhook_consumed)]` for a handled attribute.
pub(crate) fn consumed(attr: &syn::Attribute) -> syn::Attribute {
    let path = attr.path();
    let marker = proc_macro2::Ident::new(CONSUMED, proc_macro2::Span::call_site());
    syn::parse_quote!(#[#path(#marker)])
}

/// Whether an attribute's arguments are the consumed marker.
pub(crate) fn is_consumed(tokens: &TokenStream) -> bool {
    tokens.to_string() == CONSUMED
}

/// `#[allow(…, deprecated, …)]`.
pub(crate) fn allows_deprecated(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("allow")
        && attr
            .parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .is_ok_and(|lints| lints.iter().any(|lint| lint.is_ident("deprecated")))
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggestions_come_from_aliases_then_spelling() {
        let keys = ["name", "description", "core_tool", "timeout_ms"];
        assert_eq!(did_you_mean("core", &keys), Some("core_tool"));
        assert_eq!(did_you_mean("timeout", &keys), Some("timeout_ms"));
        assert_eq!(did_you_mean("desc", &keys), Some("description"));
        assert_eq!(did_you_mean("priority", &["mode", "order"]), Some("order"));
        assert_eq!(did_you_mean("nmae", &keys), Some("name"));
        assert_eq!(did_you_mean("core", &["name"]), None);
        assert_eq!(did_you_mean("colour", &keys), None);
    }
}
