//! `#[command]` below `#[tool]`: the tool doubles as a chat command.

use crate::analysis::FnAnalysis;
use crate::attr::{Entry, Errors, check_keys, expect_str, expect_strs, parse_entries};
use crate::owner::Owner;
use crate::signature::Shape;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Attribute, LitStr, Meta};

const KEYS: &[&str] = &["alias", "pattern", "usage", "examples"];

/// A checked `#[command(...)]`.
pub(crate) struct CommandAttr {
    aliases: Vec<String>,
    pattern: Option<LitStr>,
    usage: Vec<String>,
    examples: Vec<String>,
}

fn is_command(attr: &Attribute) -> bool {
    attr.path().segments.last().is_some_and(|s| s.ident == "command")
}

/// Removes `#[command]` from a tool's attributes and reads it.
pub(crate) fn take(attrs: &mut Vec<Attribute>, errors: &mut Errors) -> Option<CommandAttr> {
    let (commands, rest): (Vec<Attribute>, Vec<Attribute>) = std::mem::take(attrs).into_iter().partition(is_command);
    *attrs = rest;
    // Left on the fn as handled, so rustc still resolves the user's `command` import.
    attrs.extend(commands.iter().map(crate::attr::consumed));
    let mut found = None;
    for attr in commands {
        if found.is_some() {
            errors.error(&attr, "duplicate attribute `command`");
            continue;
        }
        let entries = match &attr.meta {
            Meta::Path(_) => Vec::new(),
            Meta::List(list) => match parse_entries(list.tokens.clone()) {
                Ok(entries) => entries,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            },
            Meta::NameValue(nv) => {
                errors.error(nv, "expected `#[command]` or `#[command(alias = [...], pattern = \"...\", usage = [...], examples = [...])]`");
                continue;
            }
        };
        let mut command = CommandAttr { aliases: Vec::new(), pattern: None, usage: Vec::new(), examples: Vec::new() };
        for entry in check_keys(entries, KEYS, errors) {
            match entry.key.as_str() {
                "alias" => command.aliases = strings(&entry, errors),
                "usage" => command.usage = strings(&entry, errors),
                "examples" => command.examples = strings(&entry, errors),
                "pattern" => command.pattern = expect_str(&entry, errors),
                _ => {}
            }
        }
        found = Some(command);
    }
    found
}

fn strings(entry: &Entry, errors: &mut Errors) -> Vec<String> {
    let values = expect_strs(entry, errors, true).unwrap_or_default();
    let mut out = Vec::new();
    for lit in values {
        if lit.value().trim().is_empty() {
            errors.error(&lit, format!("`{}` values must not be empty", entry.key));
        } else {
            out.push(lit.value());
        }
    }
    out
}

/// The command type a parameter shape takes, when the macro knows the shape.
fn command_types(shape: &Shape) -> Option<&'static [&'static str]> {
    Some(match shape.without_option() {
        Shape::Str { .. } => &["text", "rest"],
        Shape::Int { .. } => &["integer"],
        Shape::Float { .. } => &["number"],
        Shape::Bool => &["boolean"],
        Shape::Seq(_) => &["list"],
        Shape::Map(_) | Shape::Json { .. } => &["json"],
        _ => return None,
    })
}

const TYPES: &[&str] = &["text", "integer", "number", "boolean", "list", "json", "rest"];

/// Checks a custom pattern against the tool's parameters.
fn check_pattern(pattern: &LitStr, tool: &str, analysis: &FnAnalysis, errors: &mut Errors) {
    let text = pattern.value();
    let mut words = text.split_whitespace();
    if words.next() != Some(tool) {
        errors.error(pattern, format!("a command pattern starts with the command name `{tool}`"));
        return;
    }
    let words: Vec<&str> = words.collect();
    let mut seen: Vec<(String, bool)> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let required = word.starts_with('<') && word.ends_with('>');
        let optional = word.starts_with('[') && word.ends_with(']');
        let parsed = (required || optional).then(|| word[1..word.len() - 1].split_once(':')).flatten();
        let Some((name, ty)) = parsed else {
            errors.error(pattern, format!("pattern token `{word}` is not `<name:type>` or `[name:type]`"));
            continue;
        };
        if !TYPES.contains(&ty) {
            errors.error(
                pattern,
                format!("pattern token `{word}` has an unknown type `{ty}`; expected one of: {}", TYPES.join(", ")),
            );
            continue;
        }
        if ty == "rest" && i + 1 != words.len() {
            errors.error(
                pattern,
                format!("pattern token `{word}`: `rest` takes the rest of the line and must come last"),
            );
        }
        let Some(param) = analysis.model_params().find(|p| p.schema_name == name) else {
            errors.error(pattern, format!("pattern token `{word}` names no parameter of `{tool}`"));
            continue;
        };
        if param.required() && optional {
            errors.error(pattern, format!("pattern token `{word}`: `{name}` is required; write `<{name}:{ty}>`"));
        }
        if let Some(types) = command_types(&param.shape)
            && !types.contains(&ty)
        {
            errors
                .error(pattern, format!("pattern token `{word}` does not fit parameter `{name}`; use `{}`", types[0]));
        }
        seen.push((name.to_owned(), required));
    }
    for param in analysis.model_params().filter(|p| p.required()) {
        if !seen.iter().any(|(n, r)| *n == param.schema_name && *r) {
            errors.error(
                pattern,
                format!(
                    "the pattern must take the required parameter `{}` as `<{}:…>`",
                    param.schema_name, param.schema_name
                ),
            );
        }
    }
}

/// The registration of a tool's command.
pub(crate) fn registration(
    command: &CommandAttr,
    tool: &str,
    owner: Owner<'_>,
    analysis: &FnAnalysis,
    errors: &mut Errors,
) -> TokenStream {
    if let Some(pattern) = &command.pattern {
        check_pattern(pattern, tool, analysis, errors);
    }
    let plugin_id = owner.plugin_id_tokens();
    let aliases = &command.aliases;
    let usage = &command.usage;
    let examples = &command.examples;
    let pattern = match &command.pattern {
        Some(p) => quote!(::core::option::Option::Some(#p)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            ::toolhook::__private::inventory::submit! {
                ::toolhook::__private::CommandRegistration {
                    tool: #tool,
                    plugin_id: #plugin_id,
                    aliases: &[#(#aliases),*],
                    pattern: #pattern,
                    usage: &[#(#usage),*],
                    examples: &[#(#examples),*],
                    location: ::core::concat!(::core::file!(), ":", ::core::line!()),
                }
            }
        };
    }
}

/// `#[command]` anywhere but below `#[tool]`.
pub(crate) fn misplaced(item: TokenStream) -> TokenStream {
    let error = syn::Error::new(Span::call_site(), "#[command] must be placed below #[tool]").to_compile_error();
    quote!(#error #item)
}
