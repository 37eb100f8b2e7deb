//! `#[workflow_step]`: removed; always one compile error on the attribute that names the
//! `#[hook_handler(...)]` replacing it.

use crate::attr::{Entry, EntryValue, literal, parse_entries};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Expr, Lit};

/// The hook a legacy stage maps to, and the stage when it has none.
fn hook_of(stage: Option<&str>) -> Result<&'static str, ()> {
    match stage {
        Some("pre_process") => Ok("chat.receive.before_process"),
        Some("process") | None => Ok("chat.receive.after_process"),
        Some("post_process") => Ok("send_service.after_build_message"),
        Some("finalize") => Ok("send_service.after_send"),
        Some(_) => Err(()),
    }
}

/// `PreProcess` ⇒ `pre_process`: `_` before each upper-case letter that follows a lower-case
/// letter or a digit, then lower-cased.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_uppercase() && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()) {
            out.push('_');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// The stage as the mapping reads it: a string literal as written, a path by its last segment in
/// snake_case; trimmed and lower-cased. `Err` when it is neither.
fn stage_of(entry: &Entry) -> Result<String, ()> {
    let EntryValue::Expr(expr) = &entry.value else { return Err(()) };
    let raw = match expr {
        Expr::Path(path) if path.qself.is_none() => snake_case(&path.path.segments.last().ok_or(())?.ident.to_string()),
        other => match literal(other) {
            Some((Lit::Str(s), false)) => s.value(),
            _ => return Err(()),
        },
    };
    Ok(raw.trim().to_lowercase())
}

fn bool_of(entry: &Entry) -> Option<bool> {
    match &entry.value {
        EntryValue::Flag => Some(true),
        EntryValue::Expr(expr) => match literal(expr) {
            Some((Lit::Bool(b), false)) => Some(b.value),
            _ => None,
        },
        EntryValue::List(..) => None,
    }
}

/// A string value as the user wrote it (escapes and raw strings kept).
fn string_of(entry: &Entry) -> Option<String> {
    match &entry.value {
        EntryValue::Expr(expr) => match literal(expr) {
            Some((Lit::Str(s), false)) => Some(s.to_token_stream().to_string()),
            _ => None,
        },
        _ => None,
    }
}

fn priority_of(entry: &Entry) -> Option<i128> {
    match &entry.value {
        EntryValue::Expr(expr) => match literal(expr) {
            Some((Lit::Int(i), negative)) => i.base10_parse::<i128>().ok().map(|v| if negative { -v } else { v }),
            _ => None,
        },
        _ => None,
    }
}

/// The error message for the given attribute arguments.
fn message(attr: TokenStream) -> String {
    let removed = |args: &str, extra: &str| {
        format!("`#[workflow_step]` was removed; use `#[hook_handler({args})]` instead{extra}")
    };
    let Ok(entries) = parse_entries(attr) else {
        return removed("\"<hook name>\"", "");
    };
    let find = |keys: &[&str]| keys.iter().find_map(|k| entries.iter().find(|e| e.key == *k));
    let stage = match find(&["stage"]).map(stage_of) {
        Some(Err(())) => return removed("\"<hook name>\"", ""),
        Some(Ok(stage)) => Some(stage),
        None => None,
    };
    let (hook, extra) = match hook_of(stage.as_deref()) {
        Ok(hook) => (hook, String::new()),
        Err(()) => (
            "<hook name>",
            format!("; stage \"{}\" has no equivalent, pick a hook from the catalogue", stage.unwrap_or_default()),
        ),
    };
    let mut args = vec![format!("\"{hook}\"")];
    if let Some(name) = find(&["name", "step_name"]).and_then(string_of) {
        args.push(format!("name = {name}"));
    }
    if let Some(description) = find(&["description", "step_description"]).and_then(string_of) {
        args.push(format!("description = {description}"));
    }
    let observe = find(&["observe"]).and_then(bool_of);
    let blocking = find(&["blocking"]).and_then(bool_of);
    let mode = match (observe, blocking) {
        (Some(true), _) => Some("observe"),
        (_, Some(true)) => Some("blocking"),
        (_, Some(false)) => Some("observe"),
        _ => None,
    };
    if let Some(mode) = mode {
        args.push(format!("mode = \"{mode}\""));
    }
    match find(&["priority"]).and_then(priority_of) {
        Some(p) if p > 0 => args.push("order = \"early\"".to_owned()),
        Some(p) if p < 0 => args.push("order = \"late\"".to_owned()),
        _ => {}
    }
    removed(&args.join(", "), &extra)
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let error = syn::Error::new(Span::call_site(), message(attr)).to_compile_error();
    quote!(#error #item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_of_the_spec() {
        assert_eq!(
            message(quote!(stage = "pre_process", blocking = true, priority = 10)),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"chat.receive.before_process\", mode = \"blocking\", order = \"early\")]` instead"
        );
        assert_eq!(
            message(quote!(observe = true, priority = -1)),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"chat.receive.after_process\", mode = \"observe\", order = \"late\")]` instead"
        );
    }

    #[test]
    fn paths_are_read_by_their_last_segment_in_snake_case() {
        assert_eq!(snake_case("PreProcess"), "Pre_Process");
        assert_eq!(snake_case("POST_PROCESS"), "POST_PROCESS");
        assert_eq!(snake_case("Stage2Finalize"), "Stage2_Finalize");
        assert!(message(quote!(stage = Stage::PostProcess)).contains("\"send_service.after_build_message\""));
        assert!(message(quote!(stage = Stage::POST_PROCESS)).contains("\"send_service.after_build_message\""));
        assert!(message(quote!(stage = FINALIZE)).contains("\"send_service.after_send\""));
    }

    #[test]
    fn unknown_stages_and_unparseable_arguments_ask_for_a_hook() {
        assert_eq!(
            message(quote!(stage = " Review ", name = "r")),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"<hook name>\", name = \"r\")]` instead; stage \"review\" has no equivalent, pick a hook from the catalogue"
        );
        assert_eq!(
            message(quote!(stage = 5)),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"<hook name>\")]` instead"
        );
        assert_eq!(
            message(quote!("pre_process", = )),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"<hook name>\")]` instead"
        );
    }

    #[test]
    fn names_descriptions_and_modes_carry_over() {
        assert_eq!(
            message(quote!(step_description = "d", step_name = "n", blocking = false, priority = 0, other = 1)),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"chat.receive.after_process\", name = \"n\", description = \"d\", mode = \"observe\")]` instead"
        );
        assert_eq!(
            message(quote!(observe = false, blocking = false, priority = "high")),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"chat.receive.after_process\", mode = \"observe\")]` instead"
        );
        assert_eq!(
            message(quote!(observe = false)),
            "`#[workflow_step]` was removed; use `#[hook_handler(\"chat.receive.after_process\")]` instead"
        );
    }
}
