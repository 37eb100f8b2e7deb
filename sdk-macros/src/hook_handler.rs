//! `#[hook_handler("hook.name", …)]`: an async fn subscribes to a named hook point.
//! The attribute and the signature are checked here; the return type and a typed payload are
//! checked by trait bounds spanned where they are written.

use crate::attr::{self, Entry, EntryValue, Errors, check_keys, expect_bool, expect_str, parse_entry};
use crate::catalogue;
use crate::docs::fn_docs;
use crate::owner::Owner;
use crate::signature;
use crate::tool::{expand_free_fn, one_of};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Lit, LitStr, ReturnType, Signature, Token, Type};

const HOOK_KEYS: &[&str] =
    &["name", "description", "mode", "order", "timeout_ms", "error_policy", "metadata", "custom"];

const SIGNATURE_ERROR: &str =
    "a hook handler takes one payload parameter (`HookArgs` or a serde type) and optionally a `&HookContext`";

const OBSERVE_RETURN_ERROR: &str =
    "observe handlers cannot modify the arguments or abort; return `()` or `Result<(), E>`";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Blocking,
    Observe,
}

#[derive(Clone, Copy)]
enum Order {
    Early,
    Normal,
    Late,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Abort,
    Skip,
    Log,
}

/// The hook a handler subscribes to, as written.
enum HookName {
    /// A string literal, trimmed.
    Literal(LitStr, String),
    /// A constant such as `toolhook::hooks::CHAT_RECEIVE_BEFORE_PROCESS`, checked at compile time
    /// by generated const assertions.
    Path(syn::ExprPath),
}

/// The `#[hook_handler(...)]` attribute, checked.
struct HookAttrs {
    hook: Option<HookName>,
    /// `custom = true`: a hook the host declares, outside the built-in catalogue.
    custom: bool,
    name: Option<String>,
    description: Option<String>,
    mode: Mode,
    order: Order,
    timeout_ms: u64,
    error_policy: Policy,
    /// The `error_policy` literal, for the observe + abort error.
    error_policy_lit: Option<LitStr>,
    metadata: Vec<(String, serde_json::Value)>,
}

impl Default for HookAttrs {
    fn default() -> Self {
        HookAttrs {
            hook: None,
            custom: false,
            name: None,
            description: None,
            mode: Mode::Blocking,
            order: Order::Normal,
            timeout_ms: 0,
            error_policy: Policy::Skip,
            error_policy_lit: None,
            metadata: Vec::new(),
        }
    }
}

/// The first, positional argument.
enum Head {
    Hook(LitStr),
    /// Nothing, or a `key = …` first: the hook name is missing.
    Missing(Span),
    /// A path: a constant naming the hook.
    Path(syn::ExprPath),
    /// Something that is neither a string literal nor a path.
    NotLiteral(Expr),
}

fn parse_attr_tokens(tokens: TokenStream, empty_span: Span) -> syn::Result<(Head, Vec<Entry>)> {
    let parser = |input: ParseStream<'_>| -> syn::Result<(Head, Vec<Entry>)> {
        let head = if input.is_empty() {
            return Ok((Head::Missing(empty_span), Vec::new()));
        } else if input.peek(LitStr) {
            Head::Hook(input.parse()?)
        } else if input.peek(syn::Ident::peek_any) && (input.peek2(Token![=]) || input.peek2(syn::token::Paren)) {
            Head::Missing(input.span())
        } else {
            match input.parse()? {
                Expr::Path(path) => Head::Path(path),
                other => Head::NotLiteral(other),
            }
        };
        let mut entries = Vec::new();
        if !matches!(head, Head::Missing(_)) && !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
        while !input.is_empty() {
            entries.push(parse_entry(input)?);
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok((head, entries))
    };
    parser.parse2(tokens)
}

impl HookAttrs {
    /// `empty_span`: where an attribute without arguments is (for `#[plugin]` methods, whose
    /// attribute is gone, the method's name).
    fn parse(tokens: TokenStream, empty_span: Span, errors: &mut Errors) -> Self {
        let mut attrs = HookAttrs::default();
        let (head, entries) = match parse_attr_tokens(tokens, empty_span) {
            Ok(parsed) => parsed,
            Err(e) => {
                errors.push(e);
                return attrs;
            }
        };
        match head {
            Head::Hook(lit) => {
                let hook = lit.value().trim().to_owned();
                if hook.is_empty() {
                    errors.error(&lit, "the hook name must not be empty");
                } else {
                    attrs.hook = Some(HookName::Literal(lit, hook));
                }
            }
            Head::Path(path) => attrs.hook = Some(HookName::Path(path)),
            Head::Missing(span) => {
                errors.error_at(span, "missing hook name: write `#[hook_handler(\"hook.name\")]`");
            }
            Head::NotLiteral(expr) => spanned(
                errors,
                &expr,
                "the hook name must be a string literal or a constant such as \
                 `toolhook::hooks::CHAT_RECEIVE_BEFORE_PROCESS`",
            ),
        }
        for entry in &check_keys(entries, HOOK_KEYS, errors) {
            attrs.apply(entry, errors);
        }
        if attrs.mode == Mode::Observe
            && attrs.error_policy == Policy::Abort
            && let Some(lit) = &attrs.error_policy_lit
        {
            errors.error(lit, "error_policy = \"abort\" has no effect on observe handlers; they never stop a hook");
        }
        attrs.check_catalogue(errors);
        attrs
    }

    /// A literal hook name must be in the built-in catalogue unless `custom = true`, and a
    /// catalogue hook that cannot be aborted takes no `error_policy = "abort"`. (A constant is
    /// checked by the generated const assertions.)
    fn check_catalogue(&self, errors: &mut Errors) {
        let Some(HookName::Literal(lit, name)) = &self.hook else { return };
        match catalogue::find(name) {
            None if !self.custom => {
                let mut message = format!("`{name}` is not a hook of the built-in catalogue");
                match catalogue::closest(name) {
                    Some(near) => message.push_str(&format!("; did you mean `{near}`? For")),
                    None => message.push_str("; for"),
                }
                message.push_str(" a hook your host declares itself, add `custom = true`");
                errors.error(lit, message);
            }
            Some(hook) if !hook.allow_abort && self.error_policy == Policy::Abort => {
                let at = self.error_policy_lit.as_ref().map_or(lit.span(), LitStr::span);
                errors.error_at(
                    at,
                    format!(
                        "`{name}` cannot be aborted, so error_policy = \"abort\" is refused; use \"skip\" or \"log\""
                    ),
                );
            }
            _ => {}
        }
    }

    fn apply(&mut self, entry: &Entry, errors: &mut Errors) {
        match entry.key.as_str() {
            "name" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let name = lit.value().trim().to_owned();
                    if name.is_empty() {
                        errors.error(&lit, "`name` must not be empty");
                    } else {
                        self.name = Some(name);
                    }
                }
            }
            "description" => self.description = expect_str(entry, errors).map(|lit| lit.value()),
            "mode" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let allowed = [("blocking", Mode::Blocking), ("observe", Mode::Observe)];
                    self.mode = one_of(&lit, "mode", &allowed, errors).unwrap_or(self.mode);
                }
            }
            "order" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let allowed = [("early", Order::Early), ("normal", Order::Normal), ("late", Order::Late)];
                    self.order = one_of(&lit, "order", &allowed, errors).unwrap_or(self.order);
                }
            }
            "error_policy" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let allowed = [("abort", Policy::Abort), ("skip", Policy::Skip), ("log", Policy::Log)];
                    if let Some(policy) = one_of(&lit, "error_policy", &allowed, errors) {
                        self.error_policy = policy;
                        self.error_policy_lit = Some(lit);
                    }
                }
            }
            "timeout_ms" => {
                if let Some(ms) = timeout_ms(entry, errors) {
                    self.timeout_ms = ms;
                }
            }
            // A malformed `custom` is reported once, and read as meant: the hook is not judged.
            "custom" => self.custom = expect_bool(entry, errors).unwrap_or(true),
            "metadata" => {
                self.metadata = attr::parse_metadata(entry, errors).into_iter().map(|(k, v, _)| (k, v)).collect();
            }
            _ => {}
        }
    }
}

/// An integer literal in `0..=u32::MAX`; strings and bools are the wrong kind, other numbers out
/// of range.
fn timeout_ms(entry: &Entry, errors: &mut Errors) -> Option<u64> {
    const RANGE: &str = "`timeout_ms` must be an integer between 0 and 4294967295";
    let EntryValue::Expr(expr) = &entry.value else {
        errors.error_at(entry.span(), "expected an integer literal for `timeout_ms`");
        return None;
    };
    match attr::literal(expr) {
        Some((Lit::Int(int), negative)) => match int.base10_parse::<u64>() {
            Ok(0) => Some(0),
            Ok(ms) if !negative && ms <= u64::from(u32::MAX) => Some(ms),
            _ => {
                spanned(errors, expr, RANGE);
                None
            }
        },
        Some((Lit::Float(_), _)) => {
            spanned(errors, expr, RANGE);
            None
        }
        _ => {
            spanned(errors, expr, "expected an integer literal for `timeout_ms`");
            None
        }
    }
}

/// An error underlining all of `tokens` (a plain span covers only their first token on stable).
fn spanned(errors: &mut Errors, tokens: impl quote::ToTokens, message: impl std::fmt::Display) {
    errors.push(syn::Error::new_spanned(tokens, message));
}

/// What a parameter is to the generated call.
enum Param {
    Context { by_ref: bool },
    Payload { ty: Box<Type>, by_ref: bool, hook_args: bool },
}

/// The checked signature.
struct Analysis {
    params: Vec<Param>,
    output: Option<Type>,
}

/// The last path segment's name of a type path.
fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last().map(|s| s.ident.to_string()),
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

fn analyze(sig: &Signature, owner: Owner<'_>, mode: Mode, errors: &mut Errors) -> Analysis {
    if sig.asyncness.is_none() {
        errors.error(sig.fn_token, "#[hook_handler] applies to an async fn");
    }
    if !sig.generics.params.is_empty() {
        spanned(errors, &sig.generics, "hook handlers cannot be generic");
    } else if let Some(where_clause) = &sig.generics.where_clause {
        spanned(errors, where_clause, "hook handlers cannot be generic");
    }
    let mut params = Vec::new();
    let mut has_receiver = false;
    let mut payloads = 0usize;
    let mut contexts = 0usize;
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(receiver) => {
                has_receiver = true;
                match owner {
                    Owner::Free => spanned(errors, receiver, "put #[plugin] on the impl block"),
                    Owner::Method { .. } => {
                        if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) {
                            spanned(errors, receiver, "hook handler methods take &self");
                        }
                    }
                }
            }
            FnArg::Typed(pat_type) => {
                let (inner, by_ref, mutable) = match &*pat_type.ty {
                    Type::Reference(reference) => (&*reference.elem, true, reference.mutability.is_some()),
                    other => (other, false, false),
                };
                // Reported, then counted as a payload, so the count does not complain as well.
                if signature::contains_impl_trait(inner) {
                    spanned(
                        errors,
                        &pat_type.ty,
                        "hook handler parameters cannot be `impl Trait`; name a concrete type",
                    );
                    payloads += 1;
                    continue;
                }
                if mutable {
                    spanned(errors, &pat_type.ty, "hook handler parameters are taken by value or by shared reference");
                    payloads += 1;
                    continue;
                }
                let name = last_segment(inner);
                if name.as_deref() == Some("HookContext") {
                    contexts += 1;
                    if contexts > 1 {
                        spanned(errors, &pat_type.ty, SIGNATURE_ERROR);
                    }
                    params.push(Param::Context { by_ref });
                } else {
                    payloads += 1;
                    if payloads > 1 {
                        spanned(errors, &pat_type.ty, SIGNATURE_ERROR);
                    }
                    let hook_args = name.as_deref() == Some("HookArgs");
                    params.push(Param::Payload { ty: Box::new(signature::owned_type(inner)), by_ref, hook_args });
                }
            }
        }
    }
    if payloads == 0 {
        errors.error_at(sig.paren_token.span.join(), SIGNATURE_ERROR);
    }
    if matches!(owner, Owner::Method { .. }) && !has_receiver {
        errors.error(&sig.ident, "hook handler methods take &self");
    }
    let output = match &sig.output {
        ReturnType::Default => None,
        ReturnType::Type(_, ty) => {
            if mode == Mode::Observe && observe_return(ty) == Verdict::Wrong {
                spanned(errors, ty, OBSERVE_RETURN_ERROR);
            } else if signature::contains_impl_trait(ty) {
                spanned(errors, ty, "a hook handler cannot return `impl Trait`; name the type");
            }
            Some((**ty).clone())
        }
    };
    Analysis { params, output }
}

#[derive(PartialEq, Eq)]
enum Verdict {
    Fits,
    /// Certainly not `()` or `Result<(), E>`.
    Wrong,
    /// A name the tokens cannot judge (an alias, say): the trait bound decides.
    Unknown,
}

fn observe_return(ty: &Type) -> Verdict {
    match ty {
        Type::Tuple(tuple) if tuple.elems.is_empty() => Verdict::Fits,
        Type::Group(group) => observe_return(&group.elem),
        Type::Paren(paren) => observe_return(&paren.elem),
        Type::Never(_) => Verdict::Unknown,
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else { return Verdict::Unknown };
            if path.path.segments.iter().any(|s| s.ident == "HookOutcome") {
                return Verdict::Wrong;
            }
            let first_type = match &last.arguments {
                syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match (last.ident == "Result", first_type) {
                (true, Some(Type::Tuple(tuple))) if tuple.elems.is_empty() => Verdict::Fits,
                (true, Some(_)) => Verdict::Wrong,
                // `MyResult<()>`, `Unit`, `Option<()>`: the trait bound decides, with the same words.
                _ => Verdict::Unknown,
            }
        }
        Type::Path(_) => Verdict::Unknown,
        _ => Verdict::Wrong,
    }
}

/// The hidden items of a handler: its erased call, payload schema and registration.
fn generate(
    fn_attrs: &[Attribute],
    sig: &Signature,
    attrs: &HookAttrs,
    analysis: &Analysis,
    owner: Owner<'_>,
    ready: bool,
) -> TokenStream {
    let fn_ident = &sig.ident;
    let (hook, checks) = hook_tokens(attrs, analysis);
    let name = attrs.name.clone().unwrap_or_else(|| fn_ident.to_string().trim_start_matches("r#").to_owned());
    let description = attrs.description.clone().unwrap_or_else(|| fn_docs(fn_attrs).brief);
    let mode = match attrs.mode {
        Mode::Blocking => format_ident!("Blocking"),
        Mode::Observe => format_ident!("Observe"),
    };
    let order = match attrs.order {
        Order::Early => format_ident!("Early"),
        Order::Normal => format_ident!("Normal"),
        Order::Late => format_ident!("Late"),
    };
    let policy = match attrs.error_policy {
        Policy::Abort => format_ident!("Abort"),
        Policy::Skip => format_ident!("Skip"),
        Policy::Log => format_ident!("Log"),
    };
    let timeout_ms = attrs.timeout_ms;
    let metadata = serde_json::Value::Object(attrs.metadata.iter().cloned().collect()).to_string();

    let mut decode = quote!();
    let mut schema = quote!(::core::option::Option::None);
    let mut uses_ctx = false;
    let call_args: Vec<TokenStream> = analysis
        .params
        .iter()
        .map(|param| match param {
            Param::Context { by_ref } => {
                uses_ctx = true;
                if *by_ref { quote!(&__ctx) } else { quote!(__ctx) }
            }
            Param::Payload { ty, by_ref, hook_args } => {
                if *hook_args {
                    decode = quote!(let __payload = __args;);
                } else {
                    // Spanned at the payload type: a type without serde is reported there, once.
                    let call = quote_spanned!(ty.span()=> ::toolhook::__private::hook_payload::<#ty>(__args)?);
                    decode = quote!(let __payload: #ty = #call;);
                    schema = quote! {{
                        #[allow(unused_imports)]
                        use ::toolhook::__private::{NoPayloadSchema as _, PayloadSchemaOf as _};
                        (&::toolhook::__private::PayloadSchema::<#ty>::new()).payload_schema()
                    }};
                }
                if *by_ref { quote!(&__payload) } else { quote!(__payload) }
            }
        })
        .collect();
    let ctx_unused = if uses_ctx { quote!() } else { quote!(let _ = &__ctx;) };
    let (callee, receiver, instance, plugin_id, is_method) = match owner {
        Owner::Free => {
            (quote!(#fn_ident), quote!(), quote!(let _ = __instance;), quote!(::core::env!("CARGO_PKG_NAME")), false)
        }
        Owner::Method { self_ty, plugin_id } => (
            quote!(<#self_ty>::#fn_ident),
            quote!(&*__this,),
            quote! {
                let __this: ::std::sync::Arc<#self_ty> = match __instance.and_then(|i| i.downcast::<#self_ty>().ok()) {
                    ::core::option::Option::Some(this) => this,
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(::toolhook::__private::hook_plugin_not_loaded(#plugin_id));
                    }
                };
            },
            quote!(#plugin_id),
            true,
        ),
    };
    // Spanned at the return type: a type the mode does not accept is reported there, once.
    let convert = match (&analysis.output, attrs.mode) {
        (Some(ty), Mode::Blocking) => quote_spanned!(ty.span()=> ::toolhook::__private::blocking_outcome::<#ty>(__out)),
        (Some(ty), Mode::Observe) => quote_spanned!(ty.span()=> ::toolhook::__private::observe_outcome::<#ty>(__out)),
        (None, Mode::Blocking) => quote!(::toolhook::__private::blocking_outcome::<()>(__out)),
        (None, Mode::Observe) => quote!(::toolhook::__private::observe_outcome::<()>(__out)),
    };
    // What both calls of the handler take.
    let params = quote! {
        __instance: ::toolhook::__private::PluginInstance,
        __args: ::toolhook::hooks::HookArgs,
        __ctx: ::toolhook::hooks::HookContext,
    };
    let call = quote!(#callee(#receiver #(#call_args),*));
    // The body of a call of the handler to its end: `call` is the call of the fn.
    let run_to_end = |call: TokenStream| {
        quote! {
            #instance
            #ctx_unused
            #decode
            let __out = #call;
            #convert
        }
    };
    // A body that can never wait is called to its end in place, without the box; the boxed call
    // goes through the same fn, so the glue (and any error in it) exists once.
    let (boxed, ready_fn, ready_field) = if ready {
        let body = run_to_end(quote!(::toolhook::__private::run_hook_ready(#call)?));
        let ready_fn = quote! {
            fn __toolhook_hook_ready(#params) -> ::core::result::Result<::toolhook::hooks::HandlerOutcome, ::toolhook::hooks::HookHandlerError> {
                #body
            }
        };
        let boxed = quote! {
            ::std::boxed::Box::pin(async move { __toolhook_hook_ready(__instance, __args, __ctx) })
        };
        (boxed, ready_fn, quote!(::core::option::Option::Some(__toolhook_hook_ready)))
    } else {
        let span = sig.asyncness.map(|a| a.span()).unwrap_or_else(|| fn_ident.span());
        let body = run_to_end(quote_spanned!(span=> #call.await));
        let boxed = quote_spanned! {span=>
            ::std::boxed::Box::pin(async move { #body })
        };
        (boxed, quote!(), quote!(::core::option::Option::None))
    };
    quote! {
        #[doc(hidden)]
        #[allow(clippy::all, non_snake_case)]
        const _: () = {
            #checks
            fn __toolhook_hook_handler(#params) -> ::toolhook::BoxFuture<'static, ::core::result::Result<::toolhook::hooks::HandlerOutcome, ::toolhook::hooks::HookHandlerError>> {
                #boxed
            }
            #ready_fn
            fn __toolhook_payload_schema() -> ::core::option::Option<::toolhook::__private::serde_json::Value> {
                #schema
            }
            ::toolhook::__private::inventory::submit! {
                ::toolhook::__private::HookHandlerRegistration {
                    hook: #hook,
                    name: #name,
                    plugin_id: #plugin_id,
                    package: ::core::env!("CARGO_PKG_NAME"),
                    package_version: ::core::env!("CARGO_PKG_VERSION"),
                    is_method: #is_method,
                    description: #description,
                    mode: ::toolhook::hooks::HookMode::#mode,
                    order: ::toolhook::hooks::HookOrder::#order,
                    timeout_ms: #timeout_ms,
                    error_policy: ::toolhook::hooks::ErrorPolicy::#policy,
                    metadata: #metadata,
                    payload_schema: __toolhook_payload_schema,
                    handler: __toolhook_hook_handler,
                    ready: #ready_field,
                    location: ::core::concat!(::core::file!(), ":", ::core::line!()),
                }
            }
        };
    }
}

/// The hook name as an expression, and the const assertions that check a constant name: in the
/// catalogue (unless `custom = true`), abortable when `error_policy = "abort"`, and the hook of a
/// catalogue payload type.
fn hook_tokens(attrs: &HookAttrs, analysis: &Analysis) -> (TokenStream, TokenStream) {
    let path = match &attrs.hook {
        Some(HookName::Literal(_, name)) => return (quote!(#name), quote!()),
        Some(HookName::Path(path)) => path,
        None => return (quote!(""), quote!()),
    };
    let span = path.span();
    let mut checks = TokenStream::new();
    if !attrs.custom {
        checks.extend(quote_spanned! {span=>
            const _: () = ::core::assert!(
                ::toolhook::__private::is_catalogue_hook(#path),
                "this constant names no hook of the built-in catalogue; for a hook your host declares itself, add `custom = true`"
            );
        });
    }
    if attrs.error_policy == Policy::Abort {
        let at = attrs.error_policy_lit.as_ref().map_or(span, LitStr::span);
        checks.extend(quote_spanned! {at=>
            const _: () = ::core::assert!(
                ::toolhook::__private::hook_allows_abort(#path),
                "this hook cannot be aborted, so error_policy = \"abort\" is refused; use \"skip\" or \"log\""
            );
        });
    }
    if let Some(ty) = catalogue_payload(analysis) {
        checks.extend(quote_spanned! {ty.span()=>
            const _: () = ::core::assert!(
                ::toolhook::__private::str_eq(<#ty as ::toolhook::__private::CataloguePayload>::HOOK, #path),
                "this payload type belongs to another hook; take the payload type of this hook, or `HookArgs`"
            );
        });
    }
    (quote!(#path), checks)
}

/// The handler's payload type when its name is that of a catalogue payload struct.
fn catalogue_payload(analysis: &Analysis) -> Option<&Type> {
    analysis.params.iter().find_map(|param| match param {
        Param::Payload { ty, hook_args: false, .. } => {
            last_segment(ty).and_then(|name| catalogue::hook_of_payload(&name)).map(|_| &**ty)
        }
        _ => None,
    })
}

/// A catalogue payload type on a hook named by a literal must be that hook's.
fn check_payload(attrs: &HookAttrs, analysis: &Analysis, errors: &mut Errors) {
    let (Some(HookName::Literal(_, name)), Some(ty)) = (&attrs.hook, catalogue_payload(analysis)) else { return };
    let Some(owner) = last_segment(ty).and_then(|n| catalogue::hook_of_payload(&n)) else { return };
    if owner.name != name {
        let wanted = match catalogue::find(name) {
            Some(_) => format!("take `{}` or `HookArgs`", catalogue::payload_type(name)),
            None => "take `HookArgs` or a serde type of your own".to_owned(),
        };
        spanned(
            errors,
            ty,
            format!("this is the payload of `{}`, but the handler subscribes to `{name}`; {wanted}", owner.name),
        );
    }
}

/// Checks the attribute and the signature, then generates; every mistake of both is reported.
fn build(
    attr: TokenStream,
    fn_attrs: &[Attribute],
    sig: &Signature,
    body: &syn::Block,
    owner: Owner<'_>,
) -> Result<TokenStream, Errors> {
    let mut errors = Errors::default();
    let empty_span = match owner {
        Owner::Free => Span::call_site(),
        Owner::Method { .. } => sig.ident.span(),
    };
    let attrs = HookAttrs::parse(attr, empty_span, &mut errors);
    let analysis = analyze(sig, owner, attrs.mode, &mut errors);
    check_payload(&attrs, &analysis, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    // A blocking handler whose body can never wait runs to its end in place (observers always
    // run as tasks of their own).
    let ready = attrs.mode == Mode::Blocking
        && sig.asyncness.is_some()
        && crate::awaits::inert(fn_attrs)
        && crate::awaits::never_waits(body);
    Ok(generate(fn_attrs, sig, &attrs, &analysis, owner, ready))
}

/// Expands `#[hook_handler]` on a free fn (the package's default plugin).
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand_free_fn(item, "#[hook_handler] applies to an async fn", |func| {
        build(attr, &func.attrs, &func.sig, &func.block, Owner::Free)
    })
}

/// For `#[plugin]`: checks a `#[hook_handler(attr)]` method of the impl block of `self_ty` (the
/// attribute already taken off the method) and returns the hidden items to emit after the block.
/// The method itself is left as written.
pub(crate) fn expand_method(
    attr: TokenStream,
    method: &mut syn::ImplItemFn,
    self_ty: &Type,
    plugin_id: &str,
) -> Result<TokenStream, Errors> {
    build(attr, &method.attrs, &method.sig, &method.block, Owner::Method { self_ty, plugin_id })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(attr: TokenStream, item: TokenStream) -> String {
        expand(attr, item).to_string()
    }

    #[test]
    fn a_method_registers_with_the_plugin_id_and_downcasts_the_instance() {
        let mut method: syn::ImplItemFn = syn::parse_quote! {
            /// Tags outgoing messages.
            async fn tag(&self, args: HookArgs) -> HookOutcome { HookOutcome::modify(args) }
        };
        let self_ty: Type = syn::parse_quote!(Weather);
        let out =
            expand_method(quote!("send_service.before_send", order = "late"), &mut method, &self_ty, "acme.weather")
                .unwrap_or_else(|e| panic!("{}", e.into_compile_errors()))
                .to_string();
        assert!(out.contains("is_method : true"), "{out}");
        assert!(out.contains("plugin_id : \"acme.weather\""), "{out}");
        assert!(out.contains("downcast :: < Weather >"), "{out}");
        assert!(out.contains("< Weather > :: tag (& * __this ,"), "{out}");
        assert!(out.contains("description : \"Tags outgoing messages.\""), "{out}");
    }

    #[test]
    fn methods_must_take_shared_self() {
        let self_ty: Type = syn::parse_quote!(Weather);
        for method in [
            quote!(
                async fn tag(&mut self, args: HookArgs) {}
            ),
            quote!(
                async fn tag(self, args: HookArgs) {}
            ),
            quote!(
                async fn tag(args: HookArgs) {}
            ),
        ] {
            let mut method: syn::ImplItemFn = syn::parse2(method).unwrap();
            let errors = expand_method(quote!("a.b"), &mut method, &self_ty, "p").expect_err("rejected");
            assert!(errors.into_compile_errors().to_string().contains("hook handler methods take &self"));
        }
    }

    #[test]
    fn observe_returns_are_judged_by_their_tokens_where_they_can_be() {
        let verdict = |ty: Type| observe_return(&ty);
        assert!(verdict(syn::parse_quote!(())) == Verdict::Fits);
        assert!(verdict(syn::parse_quote!(Result<(), String>)) == Verdict::Fits);
        assert!(verdict(syn::parse_quote!(std::io::Result<()>)) == Verdict::Fits);
        assert!(verdict(syn::parse_quote!(HookOutcome<HookArgs>)) == Verdict::Wrong);
        assert!(verdict(syn::parse_quote!(Result<HookOutcome, String>)) == Verdict::Wrong);
        assert!(verdict(syn::parse_quote!(&'static str)) == Verdict::Wrong);
        assert!(verdict(syn::parse_quote!(MyResult<()>)) == Verdict::Unknown);
        assert!(verdict(syn::parse_quote!(Option<()>)) == Verdict::Unknown);
    }

    #[test]
    fn a_struct_is_not_a_handler() {
        let out = errors_of(
            quote!("a.b"),
            quote!(
                struct S;
            ),
        );
        assert!(out.contains("#[hook_handler] applies to an async fn"), "{out}");
    }
}
