//! `#[plugin]` on an impl block: a named, versioned plugin whose `#[tool]`, `#[hook_handler]` and
//! `#[action]` methods run against one shared instance.

use crate::attr::{Errors, check_keys, expect_str, expect_strs, parse_entries};
use crate::docs::fn_docs;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, ImplItem, ImplItemFn, ItemImpl, LitStr, ReturnType, Type};

const KEYS: &[&str] = &["id", "name", "version", "description", "config", "config_version", "config_subscriptions"];

/// The component attributes `#[plugin]` consumes on methods.
const COMPONENTS: &[&str] = &["tool", "hook_handler", "action"];

struct PluginAttrs {
    /// Whether an `id` key was written (a bad value is reported on its own).
    id_given: bool,
    id: Option<LitStr>,
    name: Option<String>,
    version: Option<String>,
    description: Option<String>,
    config: Option<Type>,
    config_version: Option<String>,
    subscriptions: Vec<TokenStream>,
}

fn valid_id(id: &str) -> bool {
    let is_part = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    id.split(['.', '-']).all(is_part)
}

fn parse_attrs(tokens: TokenStream, errors: &mut Errors) -> PluginAttrs {
    let mut attrs = PluginAttrs {
        id_given: false,
        id: None,
        name: None,
        version: None,
        description: None,
        config: None,
        config_version: None,
        subscriptions: Vec::new(),
    };
    let entries = match parse_entries(tokens) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(e);
            return attrs;
        }
    };
    let mut config_version_span = None;
    let mut config_subscriptions_span = None;
    for entry in check_keys(entries, KEYS, errors) {
        match entry.key.as_str() {
            "id" => {
                attrs.id_given = true;
                if let Some(lit) = expect_str(&entry, errors) {
                    if valid_id(&lit.value()) {
                        attrs.id = Some(lit);
                    } else {
                        errors.error(
                            &lit,
                            format!(
                                "invalid plugin id \"{}\": use letters, digits and `_`, in segments joined by `.` or `-`",
                                lit.value()
                            ),
                        );
                    }
                }
            }
            "name" => {
                if let Some(lit) = expect_str(&entry, errors) {
                    if lit.value().trim().is_empty() {
                        errors.error(&lit, "`name` must not be empty");
                    } else {
                        attrs.name = Some(lit.value());
                    }
                }
            }
            "version" => {
                if let Some(lit) = expect_str(&entry, errors) {
                    if semver::Version::parse(&lit.value()).is_ok() {
                        attrs.version = Some(lit.value());
                    } else {
                        errors.error(
                            &lit,
                            format!("invalid version \"{}\": expected a semantic version such as 1.2.0", lit.value()),
                        );
                    }
                }
            }
            "description" => attrs.description = expect_str(&entry, errors).map(|l| l.value()),
            "config" => match &entry.value {
                crate::attr::EntryValue::Expr(syn::Expr::Path(path)) => {
                    attrs.config = Some(Type::Path(syn::TypePath {
                        attrs: Vec::new(),
                        qself: path.qself.clone(),
                        path: path.path.clone(),
                    }));
                }
                _ => errors.error_at(entry.span(), "expected a config type: `config = MyConfig`"),
            },
            "config_version" => {
                config_version_span = Some(entry.key_span);
                if let Some(lit) = expect_str(&entry, errors) {
                    if lit.value().trim().is_empty() {
                        errors.error(&lit, "`config_version` must not be empty");
                    } else {
                        attrs.config_version = Some(lit.value());
                    }
                }
            }
            "config_subscriptions" => {
                config_subscriptions_span = Some(entry.key_span);
                for lit in expect_strs(&entry, errors, false).unwrap_or_default() {
                    match lit.value().as_str() {
                        "bot" => attrs.subscriptions.push(quote!(::toolhook::ConfigScope::Bot)),
                        "model" => attrs.subscriptions.push(quote!(::toolhook::ConfigScope::Model)),
                        other => errors.error(
                            &lit,
                            format!("unknown config subscription \"{other}\"; expected \"bot\" or \"model\""),
                        ),
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(span) = config_version_span
        && attrs.config.is_none()
    {
        errors.error_at(span, "`config_version` needs `config = Type`");
    }
    if let Some(span) = config_subscriptions_span
        && attrs.config.is_none()
    {
        errors.error_at(span, "`config_subscriptions` needs `config = Type`: bot and model updates go to the config");
    }
    attrs
}

/// Expands `#[plugin]`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => return crate::tool::not_a_fn("#[plugin] applies to an inherent impl block", item),
    };
    let mut errors = Errors::default();
    let attrs = parse_attrs(attr, &mut errors);
    if let Some((path, _)) = &block.trait_ {
        errors.error(path, "#[plugin] applies to an inherent impl block");
    }
    if !block.generics.params.is_empty() || block.generics.where_clause.is_some() {
        errors.error(&block.generics, "#[plugin] impl blocks cannot be generic");
    }
    let id = match &attrs.id {
        Some(lit) => lit.value(),
        None => {
            if !attrs.id_given {
                errors.error_at(Span::call_site(), "missing `id`: write `#[plugin(id = \"author.plugin\")]`");
            }
            String::new()
        }
    };
    let self_ty = (*block.self_ty).clone();
    let mut generated = Vec::new();
    let mut consumed: Vec<Attribute> = Vec::new();
    let mut lifecycle = Lifecycle::default();
    for item in block.items.iter_mut() {
        let ImplItem::Fn(method) = item else { continue };
        let components: Vec<(usize, String)> = method
            .attrs
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let name = a.path().segments.last()?.ident.to_string();
                COMPONENTS.contains(&name.as_str()).then_some((i, name))
            })
            .collect();
        if components.len() > 1 {
            errors.error(
                &method.attrs[components[1].0],
                "a method can be one component: #[tool], #[hook_handler] or #[action]",
            );
            for (index, _) in components.iter().rev() {
                let attr = method.attrs.remove(*index);
                consumed.push(crate::attr::consumed(&attr));
            }
            method.attrs.append(&mut consumed);
            continue;
        }
        if let Some((index, kind)) = components.first().cloned() {
            let attr = method.attrs.remove(index);
            consumed.push(crate::attr::consumed(&attr));
            let tokens = attr_tokens(&attr, &mut errors);
            let expanded = match kind.as_str() {
                "tool" => crate::tool::expand_method(tokens, method, &self_ty, &id),
                "action" => crate::action::expand_method(tokens, method, &self_ty, &id),
                _ => crate::hook_handler::expand_method(tokens, method, &self_ty, &id),
            };
            method.attrs.append(&mut consumed);
            match expanded {
                Ok(tokens) => generated.push(tokens),
                Err(e) => errors.extend(e),
            }
            continue;
        }
        lifecycle.read(method, &mut errors);
    }
    // The handled attributes left on the methods resolve without an import of their own.
    let attributes = quote! {
        #[allow(unused_imports)]
        use ::toolhook::__private::component_attributes::*;
    };
    if !errors.is_empty() || id.is_empty() {
        let compile_errors = errors.into_compile_errors();
        return quote!(#attributes #block #compile_errors);
    }
    let registration = registration(&block, &attrs, &id, &self_ty, &lifecycle);
    quote! {
        #attributes
        #block
        #(#generated)*
        #registration
    }
}

/// The tokens inside `#[x(...)]` (empty for `#[x]`).
fn attr_tokens(attr: &Attribute, errors: &mut Errors) -> TokenStream {
    match &attr.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(list) => list.tokens.clone(),
        syn::Meta::NameValue(nv) => {
            errors.error(nv, "expected `#[attribute(...)]`");
            TokenStream::new()
        }
    }
}

#[derive(Default)]
struct Lifecycle {
    on_load: bool,
    on_unload: bool,
    on_config_update: bool,
}

impl Lifecycle {
    /// Checks a lifecycle method's signature.
    fn read(&mut self, method: &ImplItemFn, errors: &mut Errors) {
        let name = method.sig.ident.to_string();
        let expected = match name.as_str() {
            "on_load" => "async fn on_load(&self, ctx: &PluginContext)",
            "on_unload" => "async fn on_unload(&self)",
            "on_config_update" => {
                "async fn on_config_update(&self, scope: ConfigScope, config: &serde_json::Value, version: &str)"
            }
            _ => return,
        };
        let sig = &method.sig;
        let receiver_ok = matches!(sig.inputs.first(), Some(FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Reference(_, _, None)));
        let typed: Vec<&Type> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(t) => Some(&*t.ty),
                FnArg::Receiver(_) => None,
            })
            .collect();
        let ends_with = |ty: &Type, name: &str, reference: bool| match ty {
            Type::Reference(r) if reference => {
                matches!(&*r.elem, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name))
            }
            Type::Path(p) if !reference => p.path.segments.last().is_some_and(|s| s.ident == name),
            _ => false,
        };
        let params_ok = match name.as_str() {
            "on_load" => typed.len() == 1 && ends_with(typed[0], "PluginContext", true),
            "on_unload" => typed.is_empty(),
            _ => {
                typed.len() == 3
                    && ends_with(typed[0], "ConfigScope", false)
                    && ends_with(typed[1], "Value", true)
                    && ends_with(typed[2], "str", true)
            }
        };
        let ok = sig.asyncness.is_some() && receiver_ok && params_ok && sig.generics.params.is_empty();
        if !ok {
            errors.error(
                &method.sig,
                format!("lifecycle method `{name}` must be `{expected}`, returning `()` or `Result<(), E: Display>`"),
            );
            return;
        }
        match name.as_str() {
            "on_load" => self.on_load = true,
            "on_unload" => self.on_unload = true,
            _ => self.on_config_update = true,
        }
        let _ = matches!(sig.output, ReturnType::Default);
    }
}

fn registration(block: &ItemImpl, attrs: &PluginAttrs, id: &str, self_ty: &Type, lifecycle: &Lifecycle) -> TokenStream {
    let name = attrs.name.clone().unwrap_or_else(|| id.to_owned());
    let version = match &attrs.version {
        Some(v) => quote!(#v),
        None => quote!(::core::env!("CARGO_PKG_VERSION")),
    };
    let description = attrs.description.clone().unwrap_or_else(|| fn_docs(&block.attrs).brief);
    let type_name = crate::attr::shown(self_ty);
    let create = quote_spanned!(self_ty.span()=> ::toolhook::__private::create_plugin::<#self_ty>);
    let downcast = quote!(::toolhook::__private::downcast_plugin::<#self_ty>);
    let lifecycle_result = quote!(::toolhook::__private::LifecycleResult::into_lifecycle);
    let on_load = if lifecycle.on_load {
        quote!(::core::option::Option::Some(|__instance, __ctx| ::std::boxed::Box::pin(async move {
            let __this = #downcast(__instance)?;
            #lifecycle_result(<#self_ty>::on_load(&__this, &__ctx).await)
        })))
    } else {
        quote!(::core::option::Option::None)
    };
    let on_unload = if lifecycle.on_unload {
        quote!(::core::option::Option::Some(|__instance| ::std::boxed::Box::pin(async move {
            let __this = #downcast(__instance)?;
            #lifecycle_result(<#self_ty>::on_unload(&__this).await)
        })))
    } else {
        quote!(::core::option::Option::None)
    };
    let on_config_update = if lifecycle.on_config_update {
        quote!(::core::option::Option::Some(|__instance, __scope, __config, __version| ::std::boxed::Box::pin(async move {
            let __this = #downcast(__instance)?;
            #lifecycle_result(<#self_ty>::on_config_update(&__this, __scope, &__config, &__version).await)
        })))
    } else {
        quote!(::core::option::Option::None)
    };
    let (config_static, config) = match &attrs.config {
        Some(ty) => {
            let version = attrs.config_version.clone().unwrap_or_else(|| "1.0.0".to_owned());
            let subscriptions = &attrs.subscriptions;
            let bound = quote_spanned!(ty.span()=> ::toolhook::__private::config_schema::<#ty>);
            (
                quote! {
                    static __TOOLHOOK_CONFIG: ::toolhook::__private::ConfigDeclaration = ::toolhook::__private::ConfigDeclaration {
                        version: #version,
                        subscriptions: &[#(#subscriptions),*],
                        schema: #bound,
                        defaults: ::toolhook::__private::config_defaults::<#ty>,
                        load: ::toolhook::__private::config_load::<#ty>,
                    };
                },
                quote!(::core::option::Option::Some(&__TOOLHOOK_CONFIG)),
            )
        }
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    // A method the author wrote under the same name wins: it is not generated.
    let defines =
        |name: &str| block.items.iter().any(|item| matches!(item, syn::ImplItem::Fn(f) if f.sig.ident == name));
    let config_accessor = attrs.config.as_ref().filter(|_| !defines("config")).map(|ty| {
        quote! {
            /// The plugin's current typed config (the defaults until a host loads the plugin);
            /// generated by `#[plugin(config = …)]`.
            #[allow(dead_code)]
            pub fn config(&self) -> ::std::sync::Arc<#ty> {
                self.plugin_context()
                    .config::<#ty>()
                    .unwrap_or_else(|| ::std::sync::Arc::new(<#ty as ::core::default::Default>::default()))
            }
        }
    });
    let context_accessor = (!defines("plugin_context")).then(|| {
        quote! {
            /// The plugin's context — its id, config and the host's services — once a host has
            /// loaded it (from `on_load` on); before that, a context of its own without config or
            /// services. Generated by `#[plugin]`.
            #[allow(dead_code)]
            pub fn plugin_context(&self) -> ::toolhook::PluginContext {
                ::toolhook::__private::context_at(self)
                    .unwrap_or_else(|| ::toolhook::PluginContext::new(#id, #name, #version))
            }
        }
    });
    quote! {
        impl #self_ty {
            #context_accessor
            #config_accessor
        }

        #[doc(hidden)]
        #[allow(clippy::all)]
        const _: () = {
            #config_static
            ::toolhook::__private::inventory::submit! {
                ::toolhook::__private::PluginRegistration {
                    id: #id,
                    name: #name,
                    version: #version,
                    description: #description,
                    package: ::core::env!("CARGO_PKG_NAME"),
                    type_name: #type_name,
                    create: #create,
                    on_load: #on_load,
                    on_unload: #on_unload,
                    on_config_update: #on_config_update,
                    config: #config,
                    location: ::core::concat!(::core::file!(), ":", ::core::line!()),
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::valid_id;

    #[test]
    fn plugin_ids_are_segments_of_letters_digits_and_underscores() {
        for ok in ["acme.weather", "weather-tools", "a_b.c-d", "x"] {
            assert!(valid_id(ok), "{ok}");
        }
        for bad in ["Bad Id", "", "a..b", ".a", "a.", "a/b", "a-"] {
            assert!(!valid_id(bad), "{bad}");
        }
    }
}
