//! `#[action]`: the deprecated legacy form. Still works, becomes a tool exactly as
//! `ToolSpec::from_action` builds one, and warns at compile time.

use crate::analysis::ParamKind;
use crate::attr::{self, EntryValue, Errors, check_keys, expect_bool, expect_str, expect_strs, parse_entries};
use crate::docs::fn_docs;
use crate::owner::Owner;
use crate::shared::action::{ActionInfo, ActivationType, ChatMode, render_action};
use crate::shared::visibility::Visibility;
use crate::signature::Shape;
use crate::tool::{self, ToolAttrs, json_tokens, one_of};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use serde_json::Value;
use syn::{Attribute, LitStr, Signature, Type};

const KEYS: &[&str] = &[
    "name",
    "description",
    "activation_type",
    "activation_keywords",
    "activation_probability",
    "chat_mode",
    "action_require",
    "associated_types",
    "parallel_action",
    "action_prompt",
];

/// Expands `#[action]` on a free fn.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_free_fn(item, "#[action] applies to a fn", |func| {
        expand_item(attr, &mut func.attrs, &mut func.sig, Owner::Free)
    })
}

/// Expands `#[action]` on a `#[plugin]` method.
pub(crate) fn expand_method(
    attr: TokenStream,
    method: &mut syn::ImplItemFn,
    self_ty: &Type,
    plugin_id: &str,
) -> Result<TokenStream, Errors> {
    expand_item(attr, &mut method.attrs, &mut method.sig, Owner::Method { self_ty, plugin_id })
}

fn expand_item(
    attr: TokenStream,
    fn_attrs: &mut Vec<Attribute>,
    sig: &mut Signature,
    owner: Owner<'_>,
) -> Result<TokenStream, Errors> {
    let mut errors = Errors::default();
    let mut info = ActionInfo::new(sig.ident.to_string().trim_start_matches("r#"));
    let mut name_lit: Option<LitStr> = None;
    let mut description = None;
    match parse_entries(attr) {
        Ok(entries) => {
            for entry in check_keys(entries, KEYS, &mut errors) {
                match entry.key.as_str() {
                    "name" => {
                        if let Some(lit) = expect_str(&entry, &mut errors) {
                            if lit.value().trim().is_empty() {
                                errors.error(&lit, "action name must not be empty");
                            } else {
                                info.name = lit.value();
                                name_lit = Some(lit);
                            }
                        }
                    }
                    "description" => description = expect_str(&entry, &mut errors).map(|l| l.value()),
                    "action_prompt" => {
                        info.action_prompt = expect_str(&entry, &mut errors).map(|l| l.value()).unwrap_or_default()
                    }
                    "activation_keywords" => info.activation_keywords = values(&entry, &mut errors),
                    "action_require" => info.action_require = values(&entry, &mut errors),
                    "associated_types" => info.associated_types = values(&entry, &mut errors),
                    "parallel_action" => info.parallel_action = expect_bool(&entry, &mut errors).unwrap_or(false),
                    "activation_type" => {
                        if let Some(lit) = expect_str(&entry, &mut errors) {
                            let allowed = [
                                ("never", ActivationType::Never),
                                ("always", ActivationType::Always),
                                ("random", ActivationType::Random),
                                ("keyword", ActivationType::Keyword),
                            ];
                            if let Some(v) = one_of(&lit, "activation_type", &allowed, &mut errors) {
                                info.activation_type = v;
                            }
                        }
                    }
                    "chat_mode" => {
                        if let Some(lit) = expect_str(&entry, &mut errors) {
                            let allowed = [
                                ("focus", ChatMode::Focus),
                                ("normal", ChatMode::Normal),
                                ("priority", ChatMode::Priority),
                                ("all", ChatMode::All),
                            ];
                            if let Some(v) = one_of(&lit, "chat_mode", &allowed, &mut errors) {
                                info.chat_mode = v;
                            }
                        }
                    }
                    "activation_probability" => {
                        let value = match &entry.value {
                            EntryValue::Expr(expr) => match attr::literal(expr) {
                                Some((lit @ (syn::Lit::Float(_) | syn::Lit::Int(_)), false)) => {
                                    attr::lit_to_json(&lit, false).and_then(|v| v.as_f64())
                                }
                                _ => None,
                            },
                            _ => None,
                        };
                        match value.filter(|p| (0.0..=1.0).contains(p)) {
                            Some(p) => info.activation_probability = p,
                            None => errors
                                .error_at(entry.span(), "`activation_probability` must be a number between 0 and 1"),
                        }
                    }
                    _ => {}
                }
            }
        }
        Err(e) => errors.push(e),
    }
    info.description = description.unwrap_or_else(|| fn_docs(fn_attrs).brief);
    let analysis = tool::analyze(sig, owner, "a legacy action", &mut errors);
    for param in analysis.params.iter() {
        match param.kind {
            ParamKind::Model => {
                let is_option_string = matches!(&param.shape, Shape::Option(inner) if matches!(**inner, Shape::Str { is_char: false }))
                    && !matches!(&param.ty, Type::Reference(_))
                    && !crate::signature::is_option_of_str_ref(&param.ty);
                if !is_option_string {
                    errors.error(
                        &param.ty,
                        format!(
                            "legacy action parameters are optional strings; declare `{}: Option<String>` or migrate to #[tool]",
                            param.ident
                        ),
                    );
                }
                // The call fills `action_data` with the model's original arguments, an object:
                // as a string parameter it could never be decoded.
                if param.schema_name == "action_data" {
                    errors.error(
                        &param.ident,
                        "`action_data` is filled with the model's original arguments, an object; \
                         take `&LegacyActionContext` and read its `action_data` instead",
                    );
                }
                if param.enum_values.is_some() {
                    errors.error(
                        &param.ident,
                        "legacy action parameters take only a description; migrate to #[tool] for `enum`",
                    );
                }
                info.action_parameters
                    .insert(param.schema_name.clone(), Value::from(param.description.clone().unwrap_or_default()));
            }
            ParamKind::ExecutionContext | ParamKind::Invocation | ParamKind::LegacyContext => {}
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let rendered = render_action(&info);
    let name = &info.name;
    let [schema_en, schema_zh] = rendered.schema.map(|s| s.to_string());
    let [brief_en, brief_zh] = &rendered.brief;
    let [detailed_en, detailed_zh] = &rendered.detailed;
    let visibility = match rendered.visibility {
        Visibility::Visible => quote!(Visible),
        Visibility::Deferred => quote!(Deferred),
        Visibility::Hidden => quote!(Hidden),
    };
    let metadata = rendered.metadata.iter().map(|(k, v)| {
        let v = json_tokens(v);
        quote!(.metadata(#k, #v))
    });
    let compose = quote! {
        ::toolhook::ToolSpec::builder(#name)
            .__prerendered(
                #schema_en,
                ::core::option::Option::Some(#schema_zh),
                [#brief_en, #brief_zh],
                [#detailed_en, #detailed_zh],
            )
            .visibility(::toolhook::Visibility::#visibility)
            #(#metadata)*
            .build()
    };
    let attrs =
        ToolAttrs { name: name_lit.or_else(|| Some(LitStr::new(name, Span::call_site()))), ..ToolAttrs::default() };
    let generated = tool::generate(fn_attrs, sig, &attrs, &analysis, owner, crate::Kind::Action, Some(compose))?;
    // Referencing a deprecated item makes every use warn, spanned at the attribute.
    let deprecation = quote_spanned!(Span::call_site()=> const _: () = ::toolhook::__private::legacy_action(););
    // `#[allow(deprecated)]` on the fn silences the warning, as it would on any other item.
    let allows = fn_attrs.iter().filter(|a| crate::attr::allows_deprecated(a));
    let allows = quote!(#(#allows)*);
    tool::append_parameter_docs(fn_attrs, &analysis);
    Ok(quote! {
        #generated
        #[doc(hidden)]
        #allows
        #deprecation
    })
}

fn values(entry: &crate::attr::Entry, errors: &mut Errors) -> Vec<String> {
    expect_strs(entry, errors, false).unwrap_or_default().iter().map(LitStr::value).collect()
}
