//! `#[tool]`: a fn becomes an LLM tool, with its schema and both locales' parameter docs rendered
//! at compile time where the tokens hold the information.

use crate::analysis::{FnAnalysis, ParamAnalysis, ParamKind};
use crate::attr::{
    self, Entry, EntryValue, Errors, check_keys_with, expect_bool, expect_str, expect_strs, parse_entries,
};
use crate::docs::{FnDocs, fn_docs, param_docs};
use crate::owner::Owner;
use crate::schema::{CheckedLiteral, check_literal, parameter_info, schema_expr};
use crate::shared::access::{ChatScope, PermissionLevel};
use crate::shared::locale::Locale;
use crate::shared::visibility::Visibility;
use crate::shared::{docs, schema as shared_schema};
use crate::signature::{self, Shape, Wrap};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, LitStr, Pat, ReturnType, Signature, Type};

const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "brief_description",
    "detailed_description",
    "description_zh_hans",
    "detailed_description_zh_hans",
    "title",
    "core_tool",
    "visibility",
    "platforms",
    "permission",
    "scopes",
    "timeout_ms",
    "deny_unknown_args",
    "metadata",
];

const PARAM_KEYS: &[&str] = &["description", "description_zh_hans", "default", "enum", "rename"];

/// Parameters a plugin tool provider fills from the context when the model leaves them empty.
pub(crate) const CONTEXT_NAMED: &[&str] = &["stream_id", "chat_id", "group_id", "user_id", "platform"];

/// The `#[tool(...)]` attribute, checked.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<String>,
    pub(crate) brief_description: Option<String>,
    pub(crate) detailed_description: Option<String>,
    /// The author's zh-Hans brief, beside the English one.
    pub(crate) description_zh_hans: Option<String>,
    /// The author's zh-Hans detailed text.
    pub(crate) detailed_description_zh_hans: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) core_tool: Option<bool>,
    pub(crate) visibility: Option<Visibility>,
    pub(crate) platforms: Vec<String>,
    pub(crate) permission: Option<PermissionLevel>,
    pub(crate) scopes: Vec<ChatScope>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) deny_unknown_args: bool,
    pub(crate) metadata: Vec<(String, serde_json::Value)>,
}

/// Checks a string value against allowed spellings: the message lists them, with a hint when only
/// the case differs.
pub(crate) fn one_of<T: Copy>(lit: &LitStr, what: &str, allowed: &[(&str, T)], errors: &mut Errors) -> Option<T> {
    let value = lit.value();
    if let Some((_, v)) = allowed.iter().find(|(name, _)| *name == value) {
        return Some(*v);
    }
    let list = allowed.iter().map(|(n, _)| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
    let mut message = format!("unknown {what} \"{value}\"; expected one of {list}");
    if let Some((name, _)) = allowed.iter().find(|(name, _)| name.eq_ignore_ascii_case(value.trim())) {
        message.push_str(&format!(" (did you mean \"{name}\"?)"));
    }
    errors.error(lit, message);
    None
}

impl ToolAttrs {
    pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> Self {
        let entries = match parse_entries(tokens) {
            Ok(entries) => entries,
            Err(e) => {
                errors.push(e);
                return ToolAttrs::default();
            }
        };
        let hint = |key: &str| (key == "enabled").then(|| "use `visibility = \"hidden\"` to hide a tool".to_owned());
        let entries = check_keys_with(entries, TOOL_KEYS, errors, hint);
        let mut attrs = ToolAttrs::default();
        for entry in &entries {
            attrs.apply(entry, errors);
        }
        attrs
    }

    fn apply(&mut self, entry: &Entry, errors: &mut Errors) {
        match entry.key.as_str() {
            "name" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let value = lit.value();
                    if value.trim().is_empty() {
                        errors.error(&lit, "tool name must not be empty");
                    } else if value.trim() != value {
                        errors.error(&lit, "tool name must not start or end with whitespace");
                    } else {
                        self.name = Some(lit);
                    }
                }
            }
            "description" => self.description = expect_str(entry, errors).map(|l| l.value()),
            "brief_description" => self.brief_description = expect_str(entry, errors).map(|l| l.value()),
            "detailed_description" => self.detailed_description = expect_str(entry, errors).map(|l| l.value()),
            "description_zh_hans" => self.description_zh_hans = expect_str(entry, errors).map(|l| l.value()),
            "detailed_description_zh_hans" => {
                self.detailed_description_zh_hans = expect_str(entry, errors).map(|l| l.value());
            }
            "title" => self.title = expect_str(entry, errors).map(|l| l.value()),
            "core_tool" => self.core_tool = expect_bool(entry, errors),
            "deny_unknown_args" => self.deny_unknown_args = expect_bool(entry, errors).unwrap_or(false),
            "visibility" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let allowed = [
                        ("visible", Visibility::Visible),
                        ("deferred", Visibility::Deferred),
                        ("hidden", Visibility::Hidden),
                    ];
                    self.visibility = one_of(&lit, "visibility", &allowed, errors);
                }
            }
            "permission" => {
                if let Some(lit) = expect_str(entry, errors) {
                    let allowed = [
                        ("user", PermissionLevel::User),
                        ("group_admin", PermissionLevel::GroupAdmin),
                        ("group_owner", PermissionLevel::GroupOwner),
                        ("bot_admin", PermissionLevel::BotAdmin),
                        ("owner", PermissionLevel::Owner),
                    ];
                    self.permission = one_of(&lit, "permission", &allowed, errors);
                }
            }
            "scopes" => {
                for lit in expect_strs(entry, errors, true).unwrap_or_default() {
                    let allowed =
                        [("private", ChatScope::Private), ("group", ChatScope::Group), ("channel", ChatScope::Channel)];
                    if let Some(scope) = one_of(&lit, "scope", &allowed, errors)
                        && !self.scopes.contains(&scope)
                    {
                        self.scopes.push(scope);
                    }
                }
            }
            "platforms" => {
                for lit in expect_strs(entry, errors, true).unwrap_or_default() {
                    let value = lit.value();
                    if value.trim().is_empty() {
                        errors.error(&lit, "platform names must not be empty");
                    } else {
                        self.platforms.push(value);
                    }
                }
            }
            "timeout_ms" => {
                let parsed = match &entry.value {
                    EntryValue::Expr(expr) => match attr::literal(expr) {
                        Some((syn::Lit::Int(i), false)) => i.base10_parse::<u64>().ok().filter(|v| *v > 0),
                        _ => None,
                    },
                    _ => None,
                };
                match parsed {
                    Some(ms) => self.timeout_ms = Some(ms),
                    None => errors.error_at(entry.span(), "`timeout_ms` must be a positive integer literal"),
                }
            }
            "metadata" => {
                self.metadata = attr::parse_metadata(entry, errors).into_iter().map(|(k, v, _)| (k, v)).collect();
            }
            _ => {}
        }
    }
}

/// Checks a signature and reads its parameters; strips `#[param]` and doc attributes from them.
pub(crate) fn analyze(sig: &mut Signature, owner: Owner<'_>, what: &str, errors: &mut Errors) -> FnAnalysis {
    if let Some(constness) = &sig.constness {
        errors.error(constness, format!("{what} cannot be a `const fn`"));
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.error(unsafety, format!("{what} cannot be an `unsafe fn`"));
    }
    if let Some(abi) = &sig.abi {
        errors.error(abi, format!("{what} cannot be an `extern` fn"));
    }
    if let Some(variadic) = &sig.variadic {
        errors.error(variadic.dots, format!("{what} cannot be variadic"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.error(&sig.generics, "tool functions cannot be generic");
    }
    let output = match &sig.output {
        ReturnType::Default => None,
        ReturnType::Type(_, ty) => {
            if signature::contains_impl_trait(ty) {
                errors.error(ty, "a tool cannot return `impl Trait`; name a concrete type that can become a result");
            } else if let Some(inner) = signature::json_output(ty)
                && let Some(kind) = signature::non_object_kind(&inner)
            {
                errors.push(syn::Error::new_spanned(
                    &inner,
                    format!(
                        "`Json<T>` is a tool's structured output, which must be a JSON object, but this is {kind}; \
                         wrap it in a struct with a named field, or return it without `Json` as plain content"
                    ),
                ));
            }
            Some((**ty).clone())
        }
    };
    let mut params: Vec<ParamAnalysis> = Vec::new();
    for arg in sig.inputs.iter_mut() {
        match arg {
            FnArg::Receiver(receiver) => match owner {
                Owner::Free => errors.error(&*receiver, "`self` outside a plugin: put #[plugin] on the impl block"),
                Owner::Method { .. } => {
                    if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) {
                        errors.error(&*receiver, "tool methods take &self");
                    }
                }
            },
            FnArg::Typed(pat_type) => {
                let (param_attrs, rest): (Vec<Attribute>, Vec<Attribute>) =
                    std::mem::take(&mut pat_type.attrs).into_iter().partition(|a| a.path().is_ident("param"));
                let (doc_attrs, other): (Vec<Attribute>, Vec<Attribute>) =
                    rest.into_iter().partition(|a| a.path().is_ident("doc"));
                pat_type.attrs = other;
                let ident = match &*pat_type.pat {
                    Pat::Ident(pat) if pat.subpat.is_none() && pat.by_ref.is_none() => pat.ident.clone(),
                    other => {
                        errors.error(other, "tool parameters must be plain identifiers");
                        continue;
                    }
                };
                if let Some(param) = analyze_param(ident, &pat_type.ty, &param_attrs, &doc_attrs, errors) {
                    params.push(param);
                }
            }
        }
    }
    if owner_is_method(owner) && !sig.inputs.iter().any(|a| matches!(a, FnArg::Receiver(_))) {
        errors.error(&sig.ident, "tool methods take &self");
    }
    for kind in [ParamKind::ExecutionContext, ParamKind::Invocation, ParamKind::LegacyContext] {
        let of_kind: Vec<&ParamAnalysis> = params.iter().filter(|p| p.kind == kind).collect();
        for extra in of_kind.iter().skip(1) {
            errors.error(&extra.ty, "only one context parameter of each kind is allowed");
        }
    }
    let mut names: Vec<&str> = Vec::new();
    for param in params.iter().filter(|p| p.model()) {
        if names.contains(&param.schema_name.as_str()) {
            errors.error(&param.ident, format!("two parameters are named `{}` in the schema", param.schema_name));
        }
        names.push(&param.schema_name);
    }
    FnAnalysis { params, is_async: sig.asyncness.is_some(), never_waits: false, output }
}

fn owner_is_method(owner: Owner<'_>) -> bool {
    matches!(owner, Owner::Method { .. })
}

fn analyze_param(
    ident: Ident,
    ty: &Type,
    param_attrs: &[Attribute],
    doc_attrs: &[Attribute],
    errors: &mut Errors,
) -> Option<ParamAnalysis> {
    let kind = if signature::is_ref_to(ty, "ToolExecutionContext") {
        ParamKind::ExecutionContext
    } else if signature::is_ref_to(ty, "ToolInvocation") {
        ParamKind::Invocation
    } else if signature::is_ref_to(ty, "LegacyActionContext") {
        ParamKind::LegacyContext
    } else {
        ParamKind::Model
    };
    if kind != ParamKind::Model {
        for attr in param_attrs.iter().chain(doc_attrs) {
            errors.error(attr, "#[param] and doc comments do not apply to a context parameter");
        }
        return Some(ParamAnalysis {
            schema_name: ident.to_string(),
            ident,
            ty: ty.clone(),
            shape: Shape::Bool,
            kind,
            description: None,
            description_zh_hans: None,
            default: None,
            enum_values: None,
        });
    }
    if signature::contains_impl_trait(ty) {
        errors.error(ty, "tool parameters cannot be `impl Trait`; name a concrete type");
        return None;
    }
    let shape = signature::shape_of(ty, errors);
    let type_shown = attr::shown(ty);
    let mut param = ParamAnalysis {
        schema_name: ident.to_string().trim_start_matches("r#").to_owned(),
        ident,
        ty: ty.clone(),
        shape,
        kind,
        description: param_docs(doc_attrs),
        description_zh_hans: None,
        default: None,
        enum_values: None,
    };
    for attr in param_attrs {
        let entries = match attr.meta.require_list().and_then(|list| parse_entries(list.tokens.clone())) {
            Ok(entries) => entries,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for entry in crate::attr::check_keys(entries, PARAM_KEYS, errors) {
            match entry.key.as_str() {
                "description" => param.description = expect_str(&entry, errors).map(|l| l.value()),
                "description_zh_hans" => {
                    param.description_zh_hans = expect_str(&entry, errors).map(|l| l.value());
                }
                "rename" => {
                    if let Some(lit) = expect_str(&entry, errors) {
                        if lit.value().trim().is_empty() {
                            errors.error(&lit, "parameter name must not be empty");
                        } else {
                            param.schema_name = lit.value();
                        }
                    }
                }
                "default" => {
                    let EntryValue::Expr(expr) = &entry.value else {
                        errors.error_at(entry.span(), "expected `default = <literal>`");
                        continue;
                    };
                    if let Shape::Option(inner) = &param.shape {
                        let inner_ty = match &param.ty {
                            Type::Path(p) => p
                                .path
                                .segments
                                .last()
                                .and_then(|s| match &s.arguments {
                                    syn::PathArguments::AngleBracketed(a) => a.args.first().map(attr::shown),
                                    _ => None,
                                })
                                .unwrap_or_default(),
                            _ => String::new(),
                        };
                        let _ = inner;
                        errors.error(
                            expr,
                            format!(
                                "`{type_shown}` is already optional; use `{inner_ty}` for a parameter with a default"
                            ),
                        );
                        continue;
                    }
                    param.default = check_literal(expr, &param.shape, &type_shown, "default", errors);
                }
                "enum" => {
                    let EntryValue::Expr(syn::Expr::Array(array)) = &entry.value else {
                        errors.error_at(entry.span(), "expected `enum = [<literal>, …]`");
                        continue;
                    };
                    let scalar = param.shape.without_option();
                    if !matches!(scalar, Shape::Str { .. } | Shape::Int { .. } | Shape::Float { .. } | Shape::User(_)) {
                        errors.error(array, "`enum` applies to string, integer and number parameters");
                        continue;
                    }
                    let values: Option<Vec<CheckedLiteral>> = array
                        .elems
                        .iter()
                        .map(|elem| check_literal(elem, scalar, &type_shown, "enum value", errors))
                        .collect();
                    match values {
                        Some(values) if values.is_empty() => errors.error(array, "`enum` needs at least one value"),
                        Some(values) => param.enum_values = Some(values),
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }
    Some(param)
}

/// The compile-time rendering of a tool whose parameter types are all known.
pub(crate) struct Rendered {
    pub(crate) schema: String,
    /// The zh-Hans schema, when a parameter has zh-Hans text of its own.
    pub(crate) schema_zh: Option<String>,
    pub(crate) brief: [String; 2],
    pub(crate) detailed: [String; 2],
}

/// Renders schema and texts with the shared rules (the code `ToolSpec::builder` runs).
pub(crate) fn render(
    name: &str,
    attrs: &ToolAttrs,
    docs: &FnDocs,
    analysis: &FnAnalysis,
) -> Result<Rendered, crate::shared::error::ToolSpecError> {
    let schema_in = |zh: bool| -> Result<serde_json::Value, crate::shared::error::ToolSpecError> {
        let list: Vec<_> = analysis
            .model_params()
            .map(|p| {
                let own = if zh { p.description_zh_hans.as_deref() } else { None };
                parameter_info(
                    &p.schema_name,
                    &p.shape,
                    own.or(p.description.as_deref()).unwrap_or(""),
                    p.required(),
                    p.enum_values.as_ref().map(|v| v.iter().map(|c| c.json.clone()).collect()),
                    p.default.as_ref().map(|d| d.json.clone()),
                )
            })
            .collect();
        let mut schema = shared_schema::schema_from_list(name, &list)?;
        if attrs.deny_unknown_args
            && let serde_json::Value::Object(map) = &mut schema
        {
            map.entry("additionalProperties").or_insert(serde_json::Value::Bool(false));
        }
        Ok(schema)
    };
    let schema = schema_in(false)?;
    let translated = analysis.model_params().any(|p| p.description_zh_hans.is_some());
    let schema_zh = if translated { schema_in(true)? } else { schema.clone() };
    let candidates = brief_candidates(attrs, docs);
    let candidates = [candidates[0].as_deref(), candidates[1].as_deref()];
    let zh_brief = attrs.description_zh_hans.as_deref().filter(|b| !b.trim().is_empty());
    let author = author_text(attrs, docs);
    let author_zh = attrs.detailed_description_zh_hans.clone().filter(|d| !d.trim().is_empty());
    Ok(Rendered {
        schema: schema.to_string(),
        schema_zh: translated.then(|| schema_zh.to_string()),
        brief: [
            docs::brief(name, &candidates, Locale::En),
            match zh_brief {
                Some(zh) => docs::brief(name, &[Some(zh), None], Locale::ZhHans),
                None => docs::brief(name, &candidates, Locale::ZhHans),
            },
        ],
        detailed: [
            docs::detailed(&schema, &author, Locale::En, &[]),
            docs::detailed(&schema_zh, author_zh.as_deref().unwrap_or(&author), Locale::ZhHans, &[]),
        ],
    })
}

/// `brief_description`, then `description` or the doc comment's first paragraph.
fn brief_candidates(attrs: &ToolAttrs, docs: &FnDocs) -> [Option<String>; 2] {
    let brief = attrs.brief_description.clone().filter(|b| !b.trim().is_empty());
    let legacy = attrs.description.clone().filter(|d| !d.trim().is_empty()).or_else(|| Some(docs.brief.clone()));
    [brief, legacy]
}

fn author_text(attrs: &ToolAttrs, docs: &FnDocs) -> String {
    attrs.detailed_description.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| docs.detailed.clone())
}

/// The builder calls every tool shares (besides parameters and texts).
fn builder_settings(attrs: &ToolAttrs) -> TokenStream {
    let mut calls = TokenStream::new();
    if let Some(title) = &attrs.title {
        calls.extend(quote!(.title(#title)));
    }
    if let Some(core) = attrs.core_tool {
        calls.extend(quote!(.core_tool(#core)));
    }
    if let Some(visibility) = attrs.visibility {
        let v = format_ident!("{}", format!("{visibility:?}"));
        calls.extend(quote!(.visibility(::toolhook::Visibility::#v)));
    }
    if !attrs.platforms.is_empty() {
        let platforms = &attrs.platforms;
        calls.extend(quote!(.platforms([#(#platforms),*])));
    }
    if let Some(permission) = attrs.permission {
        let p = format_ident!("{}", format!("{permission:?}"));
        calls.extend(quote!(.permission(::toolhook::PermissionLevel::#p)));
    }
    if !attrs.scopes.is_empty() {
        let scopes = attrs.scopes.iter().map(|s| format_ident!("{}", format!("{s:?}")));
        calls.extend(quote!(.scopes([#(::toolhook::ChatScope::#scopes),*])));
    }
    if let Some(ms) = attrs.timeout_ms {
        calls.extend(quote!(.timeout(::std::time::Duration::from_millis(#ms))));
    }
    if attrs.deny_unknown_args {
        calls.extend(quote!(.deny_unknown_args(true)));
    }
    for (key, value) in &attrs.metadata {
        let value = json_tokens(value);
        calls.extend(quote!(.metadata(#key, #value)));
    }
    calls
}

/// A literal JSON value as tokens.
pub(crate) fn json_tokens(value: &serde_json::Value) -> TokenStream {
    match value {
        serde_json::Value::String(s) => quote!(::toolhook::__private::serde_json::Value::from(#s)),
        serde_json::Value::Bool(b) => quote!(::toolhook::__private::serde_json::Value::Bool(#b)),
        serde_json::Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            quote!(::toolhook::__private::serde_json::Value::from(#f))
        }
        serde_json::Value::Number(n) if n.is_i64() => {
            let i = n.as_i64().unwrap_or(0);
            quote!(::toolhook::__private::serde_json::Value::from(#i))
        }
        serde_json::Value::Number(n) => {
            let u = n.as_u64().unwrap_or(0);
            quote!(::toolhook::__private::serde_json::Value::from(#u))
        }
        other => {
            let text = other.to_string();
            quote!(::toolhook::__private::static_schema(#text))
        }
    }
}

/// Expands `#[tool]` on a free fn.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand_free_fn(item, "#[tool] applies to a fn", |func| {
        expand_item(attr, &mut func.attrs, &mut func.sig, &func.block, Owner::Free)
    })
}

/// A component attribute on a free fn: the fn (as `expand` leaves it) followed by the generated
/// items, or by the compile errors; `not_a_fn` when the item is not a fn.
pub(crate) fn expand_free_fn(
    item: TokenStream,
    not_a_fn_message: &str,
    expand: impl FnOnce(&mut ItemFn) -> Result<TokenStream, Errors>,
) -> TokenStream {
    let mut func: ItemFn = match syn::parse2(item.clone()) {
        Ok(func) => func,
        Err(_) => return not_a_fn(not_a_fn_message, item),
    };
    let generated = expand(&mut func).unwrap_or_else(Errors::into_compile_errors);
    quote!(#func #generated)
}

/// Expands `#[tool]` on a method of a `#[plugin]` impl block: checks and strips the method, and
/// returns the hidden items to emit after the impl block.
pub(crate) fn expand_method(
    attr: TokenStream,
    method: &mut syn::ImplItemFn,
    self_ty: &Type,
    plugin_id: &str,
) -> Result<TokenStream, Errors> {
    expand_item(attr, &mut method.attrs, &mut method.sig, &method.block, Owner::Method { self_ty, plugin_id })
}

/// `#[tool]` on a fn or method: the attribute, the signature, a `#[command]` below it.
fn expand_item(
    attr: TokenStream,
    fn_attrs: &mut Vec<Attribute>,
    sig: &mut Signature,
    body: &syn::Block,
    owner: Owner<'_>,
) -> Result<TokenStream, Errors> {
    let mut errors = Errors::default();
    let attrs = ToolAttrs::parse(attr, &mut errors);
    let command = crate::command::take(fn_attrs, &mut errors);
    let mut analysis = analyze(sig, owner, "a tool", &mut errors);
    analysis.never_waits = analysis.is_async && crate::awaits::inert(fn_attrs) && crate::awaits::never_waits(body);
    for legacy in analysis.params.iter().filter(|p| p.kind == ParamKind::LegacyContext) {
        errors.error(
            &legacy.ty,
            "`&LegacyActionContext` carries what legacy `#[action]` calls receive; \
             a `#[tool]` takes `&ToolExecutionContext` (stream, user, platform, …) instead",
        );
    }
    for param in analysis.model_params() {
        for (reference, owned) in signature::borrowed_parts(&param.ty) {
            let instead = match owned {
                Some(owned) => format!("write `{}`", attr::shown(&owned)),
                None => "write an owned type".to_owned(),
            };
            errors.push(syn::Error::new_spanned(
                reference,
                format!("tool parameters are taken by value: {instead} instead of `{}`", attr::shown(reference)),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let name = attrs
        .name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| sig.ident.to_string().trim_start_matches("r#").to_owned());
    let command = match command {
        Some(command) => crate::command::registration(&command, &name, owner, &analysis, &mut errors),
        None => TokenStream::new(),
    };
    let generated = generate(fn_attrs, sig, &attrs, &analysis, owner, crate::Kind::Tool, None);
    if !errors.is_empty() {
        return Err(errors);
    }
    let generated = generated?;
    let warnings = description_warnings(fn_attrs, sig, &attrs, &analysis);
    append_parameter_docs(fn_attrs, &analysis);
    Ok(quote!(#generated #command #warnings))
}

/// Warnings for a tool or parameter without a description, which the model needs: each names a
/// deprecated item, spanned at the fn's name or the parameter. A hidden tool, which no model
/// sees, is not warned about; nor is a parameter of a type the macro does not know without text
/// of its own, as the type's doc comment then describes it. `#[allow(deprecated)]` on the fn
/// silences them.
fn description_warnings(
    fn_attrs: &[Attribute],
    sig: &Signature,
    attrs: &ToolAttrs,
    analysis: &FnAnalysis,
) -> TokenStream {
    if attrs.visibility == Some(Visibility::Hidden) {
        return TokenStream::new();
    }
    let mut uses = Vec::new();
    let described = brief_candidates(attrs, &fn_docs(fn_attrs)).iter().flatten().any(|text| !text.trim().is_empty());
    if !described {
        uses.push(quote_spanned!(sig.ident.span()=> ::toolhook::__private::undocumented_tool();));
    }
    for param in analysis.model_params() {
        let described = param.description.as_deref().is_some_and(|text| !text.trim().is_empty());
        if !described && !matches!(param.shape.without_option(), Shape::User(_)) {
            uses.push(quote_spanned!(param.ident.span()=> ::toolhook::__private::undocumented_parameter();));
        }
    }
    if uses.is_empty() {
        return TokenStream::new();
    }
    let allows = fn_attrs.iter().filter(|a| crate::attr::allows_deprecated(a));
    quote! {
        #[doc(hidden)]
        #(#allows)*
        const _: () = { #(#uses)* };
    }
}

/// The error for an attribute on something that is not a fn, spanned at the item's keyword.
pub(crate) fn not_a_fn(message: &str, item: TokenStream) -> TokenStream {
    let span = match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Struct(s)) => s.struct_token.span(),
        Ok(syn::Item::Enum(e)) => e.enum_token.span(),
        Ok(syn::Item::Impl(i)) => i.impl_token.span(),
        Ok(syn::Item::Mod(m)) => m.mod_token.span(),
        Ok(syn::Item::Const(c)) => c.const_token.span(),
        Ok(syn::Item::Static(s)) => s.static_token.span(),
        Ok(syn::Item::Trait(t)) => t.trait_token.span(),
        _ => Span::call_site(),
    };
    let error = syn::Error::new(span, message).to_compile_error();
    quote!(#error #item)
}

/// Appends a `# Parameters` section to the fn's rustdoc.
pub(crate) fn append_parameter_docs(attrs: &mut Vec<Attribute>, analysis: &FnAnalysis) {
    let params: Vec<&ParamAnalysis> = analysis.model_params().collect();
    if params.is_empty() {
        return;
    }
    let mut lines = vec![String::new(), "# Parameters".to_owned(), String::new()];
    for p in params {
        let ty = attr::shown(&p.ty).replace(" ", "");
        let mut line =
            format!("- `{}` (`{}`, {})", p.schema_name, ty, if p.required() { "required" } else { "optional" });
        if let Some(d) = p.description.as_deref().filter(|d| !d.trim().is_empty()) {
            line.push_str(&format!(": {}", d.trim().replace('\n', " ")));
        }
        if let Some(values) = &p.enum_values {
            let shown: Vec<String> = values.iter().map(|v| format!("`{}`", v.json)).collect();
            line.push_str(&format!(" One of {}.", shown.join(", ")));
        }
        if let Some(default) = &p.default {
            line.push_str(&format!(" Default `{}`.", default.json));
        }
        lines.push(line);
    }
    for line in lines {
        attrs.push(syn::parse_quote!(#[doc = #line]));
    }
}

/// The hidden items of a tool: argument struct, spec composer, invoker, registration.
pub(crate) fn generate(
    fn_attrs: &[Attribute],
    sig: &Signature,
    attrs: &ToolAttrs,
    analysis: &FnAnalysis,
    owner: Owner<'_>,
    kind: crate::Kind,
    compose_override: Option<TokenStream>,
) -> Result<TokenStream, Errors> {
    let mut errors = Errors::default();
    let fn_ident = &sig.ident;
    let name = attrs
        .name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| fn_ident.to_string().trim_start_matches("r#").to_owned());
    let docs = fn_docs(fn_attrs);
    let model: Vec<&ParamAnalysis> = analysis.model_params().collect();
    let all_known = model.iter().all(|p| p.shape.is_known());

    // --- the spec composer ---
    let settings = builder_settings(attrs);
    let output_fn = analysis.output.as_ref().and_then(signature::json_output).map(|ty| {
        quote!(::core::option::Option::Some(|__cx: &mut ::toolhook::__private::SchemaCx| ::toolhook::__private::output_schema::<#ty>(__cx)))
    });
    let has_output_schema = output_fn.is_some();
    let output_fn = output_fn.unwrap_or_else(|| quote!(::core::option::Option::None));
    let compose_body = if let Some(body) = compose_override {
        body
    } else if all_known {
        let rendered = match render(&name, attrs, &docs, analysis) {
            Ok(r) => r,
            Err(e) => {
                errors.error(fn_ident, e);
                return Err(errors);
            }
        };
        let Rendered { schema, schema_zh, brief: [brief_en, brief_zh], detailed: [detailed_en, detailed_zh] } =
            rendered;
        let schema_zh = match schema_zh {
            Some(zh) => quote!(::core::option::Option::Some(#zh)),
            None => quote!(::core::option::Option::None),
        };
        // Without an output schema to compose, the prerendered builder is all there is.
        let finish = if has_output_schema {
            quote!(::toolhook::__private::compose(#name, __builder, &[], #output_fn))
        } else {
            quote!(__builder.build())
        };
        quote! {
            let __builder = ::toolhook::ToolSpec::builder(#name)
                .__prerendered(#schema, #schema_zh, [#brief_en, #brief_zh], [#detailed_en, #detailed_zh])
                #settings;
            #finish
        }
    } else {
        let [brief, legacy] = brief_candidates(attrs, &docs);
        let brief = brief.or(legacy).unwrap_or_default();
        let author = author_text(attrs, &docs);
        let params = model.iter().map(|p| rust_param(p));
        let mut translated = TokenStream::new();
        if let Some(zh) = attrs.description_zh_hans.as_deref().filter(|b| !b.trim().is_empty()) {
            translated.extend(quote!(.brief_description_in(::toolhook::Locale::ZhHans, #zh)));
        }
        if let Some(zh) = attrs.detailed_description_zh_hans.as_deref().filter(|d| !d.trim().is_empty()) {
            translated.extend(quote!(.detailed_description_in(::toolhook::Locale::ZhHans, #zh)));
        }
        quote! {
            let __builder = ::toolhook::ToolSpec::builder(#name)
                .brief_description(#brief)
                .detailed_description(#author)
                #translated
                #settings;
            ::toolhook::__private::compose(#name, __builder, &[#(#params),*], #output_fn)
        }
    };

    // --- the argument struct ---
    let field_idents: Vec<Ident> = (0..model.len()).map(|i| format_ident!("p{}", i)).collect();
    let mut field_types = Vec::new();
    let mut decoded_types = Vec::new();
    let mut finishers = Vec::new();
    let mut metas = Vec::new();
    let mut assertions = Vec::new();
    let mut seeds = Vec::new();
    // The `Param` type each parameter is read as, by serde and by the fast path (`None`: a user
    // type, read with its own `Deserialize`).
    let mut read_types = Vec::new();
    for (i, p) in model.iter().enumerate() {
        let owned = signature::owned_type(&p.ty);
        let (decoded, field) = decoded_type(&p.shape, &owned);
        let plain = plain_type(&p.shape, &owned);
        let index = &field_idents[i];
        let name = &p.schema_name;
        let at = quote!(::toolhook::__private::args::Path::Param(#name), &__TOOLHOOK_META[#i], cx);
        // A parameter with a default is read as an `Option`: absent and `null` both take it.
        let read = plain.is_none().then(|| match &p.default {
            Some(_) => quote!(::core::option::Option<#decoded>),
            None => quote!(#decoded),
        });
        seeds.push(match (&plain, &read) {
            // Read with the type's own `Deserialize`, through a probe (see `__private`).
            (Some(plain), _) => {
                let optional =
                    (p.default.is_some() || matches!(p.shape, Shape::Option(_))).then(|| quote!(.optional()));
                quote!(::toolhook::__private::args::PlainSeed::new(
                    (&::toolhook::__private::Probe::<#plain>::new()).plain_decoder(), #at)#optional)
            }
            (None, read) => quote!(::toolhook::__private::args::Seed::<#read>::new(#at)),
        });
        read_types.push(read);
        let finish = if let Some(default) = &p.default {
            let lit = &default.tokens;
            let decode_default = match &plain {
                Some(plain) => quote!(::toolhook::__private::args::decode_default_plain::<#plain>(
                    (&::toolhook::__private::Probe::<#plain>::new()).plain_decoder(), &#lit)),
                None => quote!(::toolhook::__private::args::decode_default::<#decoded>(&#lit)),
            };
            quote!(match slots.#index.flatten() {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => #decode_default.ok_or(#i)?,
            })
        } else if matches!(p.shape, Shape::Option(_)) {
            quote!(slots.#index.flatten())
        } else {
            quote!(match slots.#index { ::core::option::Option::Some(v) => v, ::core::option::Option::None => return ::core::result::Result::Err(#i) })
        };
        let unwrap = unwrap_user(&p.shape, quote!(__v));
        finishers.push(quote!({ let __v = #finish; #unwrap }));
        let slot_ty = if p.default.is_some() { quote!(::core::option::Option<#decoded>) } else { quote!(#decoded) };
        decoded_types.push(slot_ty);
        field_types.push(field);
        let rust_type = p.shape.rust_leaf();
        let allowed = match &p.enum_values {
            Some(values) => {
                let tokens = values.iter().map(|v| &v.tokens);
                quote!(::core::option::Option::Some(&[#(#tokens),*]))
            }
            None => quote!(::core::option::Option::None),
        };
        let outer = match p.shape.outer_json_type() {
            Some(outer) => quote!(::core::option::Option::Some(#outer)),
            None => quote!(::core::option::Option::None),
        };
        metas.push(
            quote!(::toolhook::__private::args::ParamMeta { rust_type: #rust_type, allowed: #allowed, outer: #outer }),
        );
        if let Some(user) = first_user(&p.shape) {
            assertions.push(parameter_checks(user, &p.ty, plain.as_ref()));
        }
    }
    let names: Vec<&str> = model.iter().map(|p| p.schema_name.as_str()).collect();
    let deny = attrs.deny_unknown_args;
    let n = model.len();
    let decode_arms = seeds.iter().enumerate().map(|(i, seed)| {
        let index = &field_idents[i];
        quote!(#i => { slots.#index = ::core::option::Option::Some(map.next_value_seed(#seed)?); })
    });
    let flat_arms = read_types.iter().enumerate().filter_map(|(i, ty)| {
        let index = &field_idents[i];
        let ty = ty.as_ref()?;
        Some(quote!(#i => match <#ty as ::toolhook::__private::args::Param>::from_flat(value, &__TOOLHOOK_META[#i]) {
            ::core::option::Option::Some(v) => { slots.#index = ::core::option::Option::Some(v); true }
            ::core::option::Option::None => false,
        },))
    });
    let name_indices = 0..names.len();
    let args_struct = quote! {
        #[allow(non_camel_case_types, dead_code)]
        struct __ToolhookArgs { #(#field_idents: #field_types,)* }
        #[allow(non_camel_case_types)]
        struct __ToolhookSlots { #(#field_idents: ::core::option::Option<#decoded_types>,)* }
        impl ::core::default::Default for __ToolhookSlots {
            fn default() -> Self {
                __ToolhookSlots { #(#field_idents: ::core::option::Option::None,)* }
            }
        }
        static __TOOLHOOK_META: [::toolhook::__private::args::ParamMeta; #n] = [#(#metas),*];
        impl ::toolhook::__private::args::ArgsStruct for __ToolhookArgs {
            const NAMES: &'static [&'static str] = &[#(#names),*];
            const DENY_UNKNOWN: bool = #deny;
            type Slots = __ToolhookSlots;
            #[allow(unused_variables, clippy::match_single_binding)]
            fn decode_field<'de, A: ::toolhook::__private::serde::de::MapAccess<'de>>(
                slots: &mut Self::Slots,
                index: usize,
                map: &mut A,
                cx: &::toolhook::__private::args::DecodeCx,
            ) -> ::core::result::Result<(), A::Error> {
                match index {
                    #(#decode_arms)*
                    _ => { map.next_value::<::toolhook::__private::serde::de::IgnoredAny>()?; }
                }
                ::core::result::Result::Ok(())
            }
            #[allow(unused_variables)]
            fn finish(slots: Self::Slots) -> ::core::result::Result<Self, usize> {
                ::core::result::Result::Ok(__ToolhookArgs { #(#field_idents: #finishers,)* })
            }
            fn index_of(name: &str) -> ::core::option::Option<usize> {
                match name {
                    #(#names => ::core::option::Option::Some(#name_indices),)*
                    _ => ::core::option::Option::None,
                }
            }
            #[allow(unused_variables, clippy::match_single_binding)]
            fn decode_flat(
                slots: &mut Self::Slots,
                index: usize,
                value: ::toolhook::__private::args::Flat<'_>,
            ) -> bool {
                match index {
                    #(#flat_arms)*
                    _ => false,
                }
            }
        }
    };

    // --- the call ---
    let mut model_index = 0usize;
    let call_args: Vec<TokenStream> = analysis
        .params
        .iter()
        .map(|p| match p.kind {
            ParamKind::ExecutionContext => quote!(&*__ctx_value),
            ParamKind::Invocation => quote!(&__call),
            ParamKind::LegacyContext => quote!(&__legacy),
            ParamKind::Model => {
                let field = &field_idents[model_index];
                model_index += 1;
                if matches!(p.ty, Type::Reference(_)) {
                    quote!(&__args.#field)
                } else if signature::is_option_of_str_ref(&p.ty) {
                    quote!(__args.#field.as_deref())
                } else {
                    quote!(__args.#field)
                }
            }
        })
        .collect();
    let callee = match owner {
        Owner::Free => quote!(#fn_ident),
        Owner::Method { self_ty, .. } => quote!(<#self_ty>::#fn_ident),
    };
    let receiver = match owner {
        Owner::Free => quote!(),
        Owner::Method { .. } => quote!(&*__this,),
    };
    let instance = match owner {
        Owner::Free => quote!(let _ = __instance;),
        Owner::Method { self_ty, plugin_id } => quote! {
            let __this: ::std::sync::Arc<#self_ty> = match __instance.and_then(|i| i.downcast::<#self_ty>().ok()) {
                ::core::option::Option::Some(this) => this,
                ::core::option::Option::None => return ::core::result::Result::Err(::toolhook::ToolError::plugin_not_loaded(#plugin_id)),
            };
        },
    };
    let uses_ctx = analysis.params.iter().any(|p| p.kind == ParamKind::ExecutionContext);
    let legacy = analysis.params.iter().any(|p| p.kind == ParamKind::LegacyContext);
    let wrap = match &analysis.output {
        Some(ty) => signature::wrap_of(ty),
        None => Wrap::Identity,
    };
    let wrapped = signature::wrap_expr(&wrap, quote!(__out));
    // The conversion names the return type and is spanned at it, so a type that cannot become a
    // result is reported where it is written, once.
    let into_result = match &analysis.output {
        Some(ty) => {
            let wrapped_ty = signature::wrapped_type(ty, &wrap);
            quote_spanned!(ty.span()=> ::toolhook::__private::into_result::<#wrapped_ty>(#wrapped, __locale, __origin))
        }
        None => quote!(::toolhook::__private::into_result::<()>(__out, __locale, __origin)),
    };
    let decode = quote! {
        let __args: __ToolhookArgs = ::toolhook::__private::args::decode(&__call.arguments)
            .map_err(::toolhook::__private::args::ArgsError::into_tool_error)?;
    };
    let legacy_binding = if legacy {
        quote!(let __legacy = ::toolhook::__private::legacy_context(&__call, __ctx_opt);)
    } else {
        quote!()
    };
    // What every invoker takes; `ctx` is the context's type.
    let params = |ctx: TokenStream| {
        quote! {
            __instance: ::toolhook::__private::PluginInstance,
            __call: ::toolhook::ToolInvocation,
            __ctx: #ctx,
            __locale: ::toolhook::Locale,
            __origin: ::core::option::Option<::toolhook::SharedEntries>,
        }
    };
    // The body of an invoker that calls the fn to its end: `call` is the call of the fn.
    let run_to_end = |ctx_binding: &TokenStream, legacy_binding: &TokenStream, call: TokenStream| {
        quote! {
            #instance
            #decode
            #ctx_binding
            #legacy_binding
            let __out = #call;
            // Converted first: the output may borrow the call, whose name the result then takes.
            ::core::result::Result::Ok(::toolhook::__private::named(#into_result, __call.tool_name))
        }
    };
    let call = quote!(#callee(#receiver #(#call_args),*));
    let invoker = if analysis.is_async {
        let ctx_binding = if uses_ctx {
            quote!(let __ctx_value = ::toolhook::__private::context_or_default(__ctx);)
        } else {
            quote!()
        };
        let legacy_binding = if legacy { quote!(let __ctx_opt = __ctx; #legacy_binding) } else { quote!() };
        // A body that can never wait runs to its end in place, without the box; the boxed
        // invoker calls the same fn, so the body's code (and any error in it) exists once.
        let (boxed, ready) = if analysis.never_waits {
            let params = params(quote!(::core::option::Option<&::toolhook::ToolExecutionContext>));
            let body = run_to_end(&ctx_binding, &legacy_binding, quote!(::toolhook::__private::run_ready(#call)?));
            let ready = quote! {
                fn __toolhook_invoke_ready(#params) -> ::core::result::Result<::toolhook::ToolExecutionResult, ::toolhook::ToolError> {
                    #body
                }
                const __TOOLHOOK_READY: ::core::option::Option<::toolhook::__private::ReadyInvoker> =
                    ::core::option::Option::Some(__toolhook_invoke_ready);
            };
            let boxed = quote! {
                ::std::boxed::Box::pin(async move { __toolhook_invoke_ready(__instance, __call, __ctx, __locale, __origin) })
            };
            (boxed, ready)
        } else {
            let span = sig.asyncness.map(|a| a.span()).unwrap_or_else(|| fn_ident.span());
            let body = run_to_end(&ctx_binding, &legacy_binding, quote_spanned!(span=> #call.await));
            let boxed = quote_spanned! {span=>
                ::std::boxed::Box::pin(async move { #body })
            };
            let ready = quote! {
                const __TOOLHOOK_READY: ::core::option::Option<::toolhook::__private::ReadyInvoker> = ::core::option::Option::None;
            };
            (boxed, ready)
        };
        let params = params(quote!(::core::option::Option<&'a ::toolhook::ToolExecutionContext>));
        quote! {
            fn __toolhook_invoke<'a>(#params) -> ::toolhook::BoxFuture<'a, ::core::result::Result<::toolhook::ToolExecutionResult, ::toolhook::ToolError>> {
                #boxed
            }
            const __TOOLHOOK_INVOKER: ::toolhook::__private::Invoker = ::toolhook::__private::Invoker::Async(__toolhook_invoke);
            #ready
        }
    } else {
        let ctx_binding = if uses_ctx {
            quote!(let __ctx_value = ::std::borrow::Cow::<::toolhook::ToolExecutionContext>::Owned(__ctx.clone().unwrap_or_default());)
        } else {
            quote!()
        };
        let legacy_binding = if legacy { quote!(let __ctx_opt = __ctx.as_ref(); #legacy_binding) } else { quote!() };
        let params = params(quote!(::core::option::Option<::toolhook::ToolExecutionContext>));
        let body = run_to_end(&ctx_binding, &legacy_binding, call);
        quote! {
            fn __toolhook_invoke(#params) -> ::core::result::Result<::toolhook::ToolExecutionResult, ::toolhook::ToolError> {
                #body
            }
            const __TOOLHOOK_INVOKER: ::toolhook::__private::Invoker = ::toolhook::__private::Invoker::Sync(__toolhook_invoke);
            const __TOOLHOOK_READY: ::core::option::Option<::toolhook::__private::ReadyInvoker> = ::core::option::Option::None;
        }
    };
    let context_params: Vec<&str> = CONTEXT_NAMED.iter().copied().filter(|c| names.contains(c)).collect();
    let (plugin_id, is_method) = match owner {
        Owner::Free => (quote!(::core::env!("CARGO_PKG_NAME")), false),
        Owner::Method { plugin_id, .. } => (quote!(#plugin_id), true),
    };
    let kind_tokens = match kind {
        crate::Kind::Tool => quote!(::toolhook::__private::ToolKind::Tool),
        crate::Kind::Action => quote!(::toolhook::__private::ToolKind::LegacyAction),
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(quote! {
        #[doc(hidden)]
        #[allow(clippy::all, non_snake_case)]
        const _: () = {
            #[allow(unused_imports)]
            use ::toolhook::__private::{
                DecodeProbe as _, LeafProbe as _, NoDecodeProbe as _, NoLeafProbe as _, NoSchemaProbe as _,
                SchemaProbe as _,
            };
            #(#assertions)*
            #args_struct
            fn __toolhook_compose() -> ::core::result::Result<::toolhook::ToolSpec, ::toolhook::ToolSpecError> {
                #compose_body
            }
            #invoker
            ::toolhook::__private::inventory::submit! {
                ::toolhook::__private::ToolRegistration {
                    name: #name,
                    plugin_id: #plugin_id,
                    package: ::core::env!("CARGO_PKG_NAME"),
                    package_version: ::core::env!("CARGO_PKG_VERSION"),
                    is_method: #is_method,
                    kind: #kind_tokens,
                    context_params: &[#(#context_params),*],
                    compose: __toolhook_compose,
                    invoker: __TOOLHOOK_INVOKER,
                    ready: __TOOLHOOK_READY,
                    location: ::core::concat!(::core::file!(), ":", ::core::line!()),
                }
            }
        };
    })
}

/// The type the decoder reads for a parameter, and the type the fn receives. Known types are read
/// leniently; a parameter with a type the macro does not know anywhere in it is read with that
/// type's own `Deserialize` (`Plain`), an `Option` of one as an `Option` of it.
fn decoded_type(shape: &Shape, owned: &Type) -> (TokenStream, TokenStream) {
    if shape.is_known() {
        return (quote!(#owned), quote!(#owned));
    }
    if let Shape::Option(_) = shape
        && let Some(inner) = signature::option_inner(owned)
    {
        return (
            quote!(::core::option::Option<::toolhook::__private::args::Plain<#inner>>),
            quote!(::core::option::Option<#inner>),
        );
    }
    (quote!(::toolhook::__private::args::Plain<#owned>), quote!(#owned))
}

fn unwrap_user(shape: &Shape, value: TokenStream) -> TokenStream {
    match shape {
        _ if shape.is_known() => value,
        Shape::Option(_) => quote!(#value.map(|__p| __p.0)),
        _ => quote!(#value.0),
    }
}

/// The type a parameter of a type the macro does not know is read as with its own `Deserialize`
/// (the `T` of `Plain<T>`): the parameter's type, or what its `Option` holds.
fn plain_type(shape: &Shape, owned: &Type) -> Option<Type> {
    if shape.is_known() {
        return None;
    }
    match shape {
        Shape::Option(_) => Some(signature::option_inner(owned).unwrap_or_else(|| owned.clone())),
        _ => Some(owned.clone()),
    }
}

/// The compile-time checks of a parameter whose type the macro does not know: the schema of the
/// first such type in it (`leaf`), then (only when that holds) its `Deserialize`, both spanned at
/// it; then (only when both hold) the `Deserialize` of the whole type it is read as (`plain`),
/// spanned at the parameter's type (`param`). One mistake is one error.
fn parameter_checks(leaf: &Type, param: &Type, plain: Option<&Type>) -> TokenStream {
    let span = leaf.span();
    let leaf = signature::owned_type(leaf);
    let whole = plain.filter(|plain| attr::shown(*plain) != attr::shown(&leaf)).map(|plain| {
        quote_spanned!(param.span()=> (&::toolhook::__private::Probe::<(#leaf, #plain)>::new()).after_leaf().check_whole();)
    });
    quote_spanned! {span=>
        const _: () = {
            ::toolhook::__private::assert_parameter::<#leaf>();
            #[allow(dead_code)]
            fn __toolhook_check() {
                (&::toolhook::__private::Probe::<#leaf>::new()).after_schema().check_parameter();
                #whole
            }
        };
    }
}

/// The first type in a shape the macro does not know (it must meet the parameter bound).
fn first_user(shape: &Shape) -> Option<&Type> {
    match shape {
        Shape::User(ty) => Some(ty),
        Shape::Option(inner) | Shape::Seq(inner) | Shape::Map(inner) => first_user(inner),
        _ => None,
    }
}

/// A `RustParam` for the run-time composer.
fn rust_param(p: &ParamAnalysis) -> TokenStream {
    let name = &p.schema_name;
    let required = p.required();
    let description = match &p.description {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None if p.shape.is_known() => quote!(::core::option::Option::Some("")),
        None => quote!(::core::option::Option::None),
    };
    let description_zh_hans = match &p.description_zh_hans {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    let enum_values = match &p.enum_values {
        Some(values) => {
            let text = serde_json::Value::Array(values.iter().map(|v| v.json.clone()).collect()).to_string();
            quote!(::core::option::Option::Some(#text))
        }
        None => quote!(::core::option::Option::None),
    };
    let default = match &p.default {
        Some(d) => {
            let text = d.json.to_string();
            quote!(::core::option::Option::Some(#text))
        }
        None => quote!(::core::option::Option::None),
    };
    let schema = schema_expr(&p.shape);
    let check = match p.shape.without_option() {
        Shape::User(ty) => {
            let ty = signature::owned_type(ty);
            quote!(::core::option::Option::Some((&::toolhook::__private::Probe::<#ty>::new()).value_check()))
        }
        _ => quote!(::core::option::Option::None),
    };
    quote! {
        ::toolhook::__private::RustParam {
            name: #name,
            required: #required,
            description: #description,
            description_zh_hans: #description_zh_hans,
            enum_values: #enum_values,
            default: #default,
            schema: |__cx: &mut ::toolhook::__private::SchemaCx| #schema,
            check: #check,
        }
    }
}
