//! Parameters and types of an annotated fn: which types the macro knows, which
//! parameters are injected context, and what the generated code passes to the fn.

use crate::attr::Errors;
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type, TypePath};

/// A parameter type as far as the macro can tell from its tokens.
#[derive(Clone)]
pub(crate) enum Shape {
    /// `String`, `&str`, `char`, `Cow<str>`, `Box<str>`, `Arc<str>`, `Rc<str>`.
    Str { is_char: bool },
    /// An integer type; `rust` is its name as written (`u8`, `NonZeroU32`).
    Int { rust: String, min: i128, max: u128 },
    /// `f32` or `f64`.
    Float { rust: String },
    /// `bool`.
    Bool,
    /// `Option<T>`.
    Option(Box<Shape>),
    /// `Vec<T>`, `VecDeque<T>`, `[T; N]`, `Box<[T]>`, `HashSet<T>`, `BTreeSet<T>`.
    Seq(Box<Shape>),
    /// `HashMap<K, T>`, `BTreeMap<K, T>` with a string key.
    Map(Box<Shape>),
    /// `serde_json::Value` or `serde_json::Map`.
    Json { object_only: bool },
    /// Any other type: composed with schemars when a registry is built.
    User(Type),
}

impl Shape {
    /// Whether every type in it is known at compile time.
    pub(crate) fn is_known(&self) -> bool {
        match self {
            Shape::User(_) => false,
            Shape::Option(inner) | Shape::Seq(inner) | Shape::Map(inner) => inner.is_known(),
            _ => true,
        }
    }

    /// The shape without an outer `Option`.
    pub(crate) fn without_option(&self) -> &Shape {
        match self {
            Shape::Option(inner) => inner.without_option(),
            other => other,
        }
    }

    /// The leaf scalar's Rust type name, for "out of range" messages.
    /// The JSON type of the value itself when a std container gives it (`array` for a sequence,
    /// `object` for a map), through an `Option`; `None` for anything else.
    pub(crate) fn outer_json_type(&self) -> Option<&'static str> {
        match self {
            Shape::Option(inner) => inner.outer_json_type(),
            Shape::Seq(_) => Some("array"),
            Shape::Map(_) => Some("object"),
            _ => None,
        }
    }

    pub(crate) fn rust_leaf(&self) -> String {
        match self {
            Shape::Int { rust, .. } | Shape::Float { rust } => rust.clone(),
            Shape::Option(inner) | Shape::Seq(inner) | Shape::Map(inner) => inner.rust_leaf(),
            Shape::Str { is_char: true } => "char".into(),
            Shape::Str { .. } => "String".into(),
            Shape::Bool => "bool".into(),
            Shape::Json { .. } => "serde_json::Value".into(),
            Shape::User(ty) => quote::ToTokens::to_token_stream(ty).to_string(),
        }
    }
}

/// The last path segment of a type path, if the path is one the macro recognises: a single
/// segment, or one under `std`/`core`/`alloc` (optionally with a leading `::`).
fn known_segment(path: &TypePath) -> Option<&syn::PathSegment> {
    if path.qself.is_some() {
        return None;
    }
    let segments: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
    let last = *segments.last()?;
    if segments.len() == 1 && path.path.leading_colon.is_none() {
        return Some(last);
    }
    let root = segments[0].ident.to_string();
    matches!(root.as_str(), "std" | "core" | "alloc").then_some(last)
}

fn is_serde_json(path: &TypePath, name: &str) -> bool {
    let segments: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.len() >= 2 && segments[segments.len() - 2] == "serde_json" && segments[segments.len() - 1] == name
}

fn generic_types(segment: &syn::PathSegment) -> Vec<&Type> {
    match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn int_range(name: &str) -> Option<(i128, u128)> {
    Some(match name {
        "i8" | "NonZeroI8" => (i8::MIN.into(), i8::MAX as u128),
        "i16" | "NonZeroI16" => (i16::MIN.into(), i16::MAX as u128),
        "i32" | "NonZeroI32" => (i32::MIN.into(), i32::MAX as u128),
        "i64" | "NonZeroI64" | "isize" | "NonZeroIsize" => (i64::MIN.into(), i64::MAX as u128),
        "i128" | "NonZeroI128" => (i128::MIN, i128::MAX as u128),
        "u8" | "NonZeroU8" => (0, u8::MAX.into()),
        "u16" | "NonZeroU16" => (0, u16::MAX.into()),
        "u32" | "NonZeroU32" => (0, u32::MAX.into()),
        "u64" | "NonZeroU64" | "usize" | "NonZeroUsize" => (0, u64::MAX.into()),
        "u128" | "NonZeroU128" => (0, u128::MAX),
        _ => return None,
    })
}

/// Classifies a parameter type. Map keys that are not strings are reported.
pub(crate) fn shape_of(ty: &Type, errors: &mut Errors) -> Shape {
    match ty {
        Type::Group(group) => shape_of(&group.elem, errors),
        Type::Paren(paren) => shape_of(&paren.elem, errors),
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(p) if known_segment(p).is_some_and(|s| s.ident == "str") => Shape::Str { is_char: false },
            _ => Shape::User(ty.clone()),
        },
        Type::Array(array) => Shape::Seq(Box::new(shape_of(&array.elem, errors))),
        Type::Path(path) => {
            if is_serde_json(path, "Value") {
                return Shape::Json { object_only: false };
            }
            if is_serde_json(path, "Map") {
                return Shape::Json { object_only: true };
            }
            let Some(segment) = known_segment(path) else { return Shape::User(ty.clone()) };
            let name = segment.ident.to_string();
            let args = generic_types(segment);
            match (name.as_str(), args.as_slice()) {
                ("String" | "char", []) => Shape::Str { is_char: name == "char" },
                ("f32" | "f64", []) => Shape::Float { rust: name },
                ("bool", []) => Shape::Bool,
                (n, []) if int_range(n).is_some() => {
                    let (min, max) = int_range(n).unwrap_or((0, 0));
                    let min = if n.starts_with("NonZero") && min == 0 { 1 } else { min };
                    Shape::Int { rust: name, min, max }
                }
                ("Cow" | "Box" | "Arc" | "Rc", [inner]) if is_str(inner) => Shape::Str { is_char: false },
                ("Box", [Type::Slice(slice)]) => Shape::Seq(Box::new(shape_of(&slice.elem, errors))),
                ("Option", [inner]) => Shape::Option(Box::new(shape_of(inner, errors))),
                ("Vec" | "VecDeque" | "HashSet" | "BTreeSet", [inner]) => Shape::Seq(Box::new(shape_of(inner, errors))),
                ("HashMap" | "BTreeMap", [key, value]) => {
                    if !is_string_key(key) {
                        errors.error(key, "map keys of tool parameters must be of a string type (`String`, `char`, `Box<str>`, `Arc<str>`, `Cow<str>`)");
                    }
                    Shape::Map(Box::new(shape_of(value, errors)))
                }
                _ => Shape::User(ty.clone()),
            }
        }
        _ => Shape::User(ty.clone()),
    }
}

fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if known_segment(p).is_some_and(|s| s.ident == "str"))
}

/// Whether a map's key type is one of the string types: `String`, `char`, and `str` behind
/// `Box`, `Arc` or `Cow`. A `&str` key passes here and is refused where every borrowed parameter
/// is, with the advice to take it by value.
fn is_string_key(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => known_segment(p).is_some_and(|s| match s.ident.to_string().as_str() {
            "String" | "char" => true,
            "Box" | "Arc" | "Cow" => match &s.arguments {
                syn::PathArguments::AngleBracketed(args) => {
                    args.args.iter().any(|arg| matches!(arg, syn::GenericArgument::Type(t) if is_str(t)))
                }
                _ => false,
            },
            _ => false,
        }),
        Type::Reference(r) => is_str(&r.elem),
        _ => false,
    }
}

/// The type the generated argument struct stores for a parameter: references to `str` become
/// `String`, every lifetime `'static`.
pub(crate) fn owned_type(ty: &Type) -> Type {
    struct Owned;
    impl syn::visit_mut::VisitMut for Owned {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if let Type::Reference(reference) = ty
                && is_str(&reference.elem)
            {
                *ty = syn::parse_quote!(::std::string::String);
                return;
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
        fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
            *lifetime = syn::Lifetime::new("'static", lifetime.span());
        }
        fn visit_path_segment_mut(&mut self, segment: &mut syn::PathSegment) {
            syn::visit_mut::visit_path_segment_mut(self, segment);
            // `Cow<str>` has an elided lifetime: name it.
            if segment.ident == "Cow"
                && let PathArguments::AngleBracketed(angle) = &mut segment.arguments
                && !angle.args.iter().any(|a| matches!(a, GenericArgument::Lifetime(_)))
            {
                let span = angle.span();
                angle.args.insert(0, GenericArgument::Lifetime(syn::Lifetime::new("'static", span)));
            }
        }
    }
    let mut owned = ty.clone();
    syn::visit_mut::VisitMut::visit_type_mut(&mut Owned, &mut owned);
    owned
}

/// The `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<Type> {
    match ty {
        Type::Path(p) => {
            let last = p.path.segments.last()?;
            match (last.ident == "Option", generic_types(last).as_slice()) {
                (true, [inner]) => Some((*inner).clone()),
                _ => None,
            }
        }
        Type::Group(g) => option_inner(&g.elem),
        Type::Paren(p) => option_inner(&p.elem),
        _ => None,
    }
}

/// Whether `ty` is `&Name` (any path ending in `Name`).
pub(crate) fn is_ref_to(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == name),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `ty` is `Option<&str>` (passed with `.as_deref()`).
pub(crate) fn is_option_of_str_ref(ty: &Type) -> bool {
    if let Type::Path(p) = ty
        && let Some(segment) = known_segment(p)
        && segment.ident == "Option"
        && let [Type::Reference(r)] = generic_types(segment).as_slice()
    {
        return r.mutability.is_none() && is_str(&r.elem);
    }
    false
}

/// The references in a tool parameter's type, outermost ones only, each with the owned type to
/// write instead (`None` when there is none to name, as for `&dyn Trait`). A `&str` or an
/// `Option<&str>` as the whole type is read as a string and is not listed.
pub(crate) fn borrowed_parts(ty: &Type) -> Vec<(&syn::TypeReference, Option<Type>)> {
    let top = strip_groups(ty);
    if let Type::Reference(reference) = top
        && reference.mutability.is_none()
        && is_str(&reference.elem)
    {
        return Vec::new();
    }
    if is_option_of_str_ref(top) {
        return Vec::new();
    }
    struct Finder<'ast>(Vec<&'ast syn::TypeReference>);
    impl<'ast> syn::visit::Visit<'ast> for Finder<'ast> {
        fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
            self.0.push(reference);
        }
    }
    let mut finder = Finder(Vec::new());
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.0.into_iter().map(|reference| (reference, owned_form(&Type::Reference(reference.clone())))).collect()
}

fn strip_groups(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => strip_groups(&group.elem),
        Type::Paren(paren) => strip_groups(&paren.elem),
        other => other,
    }
}

/// `ty` with every reference replaced by the owned type it borrows: `&str` by `String`, `&[T]` by
/// `Vec<T>`, `&Path` by `PathBuf`, `&T` by `T`; `None` when it borrows a trait object.
fn owned_form(ty: &Type) -> Option<Type> {
    struct Owned(bool);
    impl syn::visit_mut::VisitMut for Owned {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if let Type::Reference(reference) = ty {
                let elem = strip_groups(&reference.elem).clone();
                *ty = match elem {
                    elem if is_str(&elem) => syn::parse_quote!(String),
                    Type::Slice(slice) => {
                        let item = &slice.elem;
                        syn::parse_quote!(Vec<#item>)
                    }
                    Type::Path(path) if known_segment(&path).is_some_and(|s| s.ident == "Path") => {
                        syn::parse_quote!(PathBuf)
                    }
                    Type::TraitObject(_) | Type::ImplTrait(_) => {
                        self.0 = false;
                        elem
                    }
                    elem => elem,
                };
                // What replaced the reference may hold references of its own.
                self.visit_type_mut(ty);
                return;
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    let mut owned = ty.clone();
    let mut visitor = Owned(true);
    syn::visit_mut::VisitMut::visit_type_mut(&mut visitor, &mut owned);
    visitor.0.then_some(owned)
}

/// Whether `ty` contains `impl Trait`.
pub(crate) fn contains_impl_trait(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.0
}

/// The return type as the generated code converts it: known result types as they are, `Option`
/// and `Result` looked through, anything else wrapped as structured output. Returns the wrapping
/// expression builder and the wrapped type.
pub(crate) enum Wrap {
    /// Converted as it is.
    Identity,
    /// `Structured(v)`.
    Structured,
    /// `v.map(|x| inner(x))` for `Option` and `Result`.
    Map(Box<Wrap>),
}

/// Names of result types `IntoToolResult` implements directly (checked by the compiler).
/// Return types converted by their own `IntoToolResult` impl, by the name written last; `Box`
/// and `Cow` only of `str`, checked apart.
const KNOWN_RETURNS: &[&str] = &["String", "Value", "Json", "ToolOutput", "ToolExecutionResult"];

/// Whether a type is written as `bool`.
fn is_bool(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident("bool"))
}

pub(crate) fn wrap_of(ty: &Type) -> Wrap {
    match ty {
        // `()` and `(bool, S)` have their own conversions; any other tuple is structured content.
        Type::Tuple(tuple) if tuple.elems.is_empty() => Wrap::Identity,
        Type::Tuple(tuple) if tuple.elems.len() == 2 && tuple.elems.first().is_some_and(is_bool) => Wrap::Identity,
        // `&str` is text; any other reference is structured content.
        Type::Reference(reference) if is_str(&reference.elem) => Wrap::Identity,
        Type::Group(g) => wrap_of(&g.elem),
        Type::Paren(p) => wrap_of(&p.elem),
        Type::Path(path) => {
            let Some(last) = path.path.segments.last() else { return Wrap::Structured };
            let name = last.ident.to_string();
            let args = generic_types(last);
            match (name.as_str(), args.as_slice()) {
                ("Option" | "Result", [inner, ..]) => match wrap_of(inner) {
                    Wrap::Identity => Wrap::Identity,
                    other => Wrap::Map(Box::new(other)),
                },
                ("Box" | "Cow", [inner, ..]) if is_str(inner) => Wrap::Identity,
                (n, _) if KNOWN_RETURNS.contains(&n) => Wrap::Identity,
                _ => Wrap::Structured,
            }
        }
        _ => Wrap::Structured,
    }
}

/// The type after wrapping (for the compile-time check spanned at the return type).
pub(crate) fn wrapped_type(ty: &Type, wrap: &Wrap) -> Type {
    match wrap {
        Wrap::Identity => ty.clone(),
        Wrap::Structured => syn::parse_quote_spanned!(ty.span()=> ::toolhook::__private::Structured<#ty>),
        Wrap::Map(inner) => {
            let mut out = ty.clone();
            if let Type::Path(path) = &mut out
                && let Some(last) = path.path.segments.last_mut()
                && let PathArguments::AngleBracketed(angle) = &mut last.arguments
                && let Some(GenericArgument::Type(first)) =
                    angle.args.iter_mut().find(|a| matches!(a, GenericArgument::Type(_)))
            {
                *first = wrapped_type(first, inner);
            }
            out
        }
    }
}

pub(crate) fn wrap_expr(wrap: &Wrap, value: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    match wrap {
        Wrap::Identity => value,
        Wrap::Structured => quote::quote!(::toolhook::__private::Structured(#value)),
        Wrap::Map(inner) => {
            let inner = wrap_expr(inner, quote::quote!(__x));
            quote::quote!(#value.map(|__x| #inner))
        }
    }
}

/// The `T` of `Json<T>` in a return type (looking through `Option` and `Result`).
/// What JSON a `Json<T>`'s `T` certainly is not an object as, judged by its tokens: `Some` with
/// the JSON kind (`"an array"`, …) for sequences, tuples, primitives and `Option`; `None` when
/// the tokens cannot tell (a struct, a map, an alias) and the runtime check decides.
pub(crate) fn non_object_kind(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Array(_) | Type::Slice(_) => Some("an array"),
        Type::Tuple(tuple) if tuple.elems.is_empty() => Some("null"),
        Type::Tuple(_) => Some("an array"),
        Type::Reference(reference) => non_object_kind(&reference.elem),
        Type::Group(group) => non_object_kind(&group.elem),
        Type::Paren(paren) => non_object_kind(&paren.elem),
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            match last.ident.to_string().as_str() {
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "LinkedList" | "BinaryHeap" | "IndexSet" => {
                    Some("an array")
                }
                "String" | "str" | "char" | "Cow" => Some("a string"),
                "bool" => Some("a boolean"),
                "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize"
                | "f32" | "f64" => Some("a number"),
                "Option" => Some("null when it is `None`"),
                "Box" | "Arc" | "Rc" => generic_types(last).first().and_then(|inner| non_object_kind(inner)),
                _ => None,
            }
        }
        _ => None,
    }
}

pub(crate) fn json_output(ty: &Type) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let args = generic_types(last);
    match (last.ident.to_string().as_str(), args.as_slice()) {
        ("Json", [inner]) => Some((*inner).clone()),
        ("Option" | "Result", [inner, ..]) => json_output(inner),
        _ => None,
    }
}
