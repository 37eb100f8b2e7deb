//! Parameter types as schemas: the compile-time `ToolParameterInfo` of a known type, the schema
//! expression of a type composed at run time, and the checks of `default`/`enum` literals.

use crate::attr::{Errors, literal, shown};
use crate::shared::param::{ToolParamType, ToolParameterInfo};
use crate::signature::Shape;
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Map, Value, json};
use syn::{Expr, Lit};

/// The JSON schema of a known shape.
pub(crate) fn shape_schema(shape: &Shape) -> Value {
    match shape {
        Shape::Str { .. } => json!({"type": "string"}),
        Shape::Int { .. } => json!({"type": "integer"}),
        Shape::Float { .. } => json!({"type": "number"}),
        Shape::Bool => json!({"type": "boolean"}),
        Shape::Option(inner) => shape_schema(inner),
        Shape::Seq(inner) => json!({"type": "array", "items": shape_schema(inner)}),
        Shape::Map(inner) => {
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": shape_schema(inner)})
        }
        Shape::Json { .. } => json!({"type": "object", "properties": {}, "required": [], "additionalProperties": true}),
        Shape::User(_) => json!({}),
    }
}

/// The parameter list entry of a known shape.
pub(crate) fn parameter_info(
    name: &str,
    shape: &Shape,
    description: &str,
    required: bool,
    enum_values: Option<Vec<Value>>,
    default: Option<Value>,
) -> ToolParameterInfo {
    let shape = shape.without_option();
    let param_type = match shape {
        Shape::Str { .. } => ToolParamType::String,
        Shape::Int { .. } => ToolParamType::Integer,
        Shape::Float { .. } => ToolParamType::Number,
        Shape::Bool => ToolParamType::Boolean,
        Shape::Seq(_) => ToolParamType::Array,
        Shape::Map(_) | Shape::Json { .. } | Shape::User(_) | Shape::Option(_) => ToolParamType::Object,
    };
    let mut info = ToolParameterInfo::new(name, param_type).description(description).required(required);
    info.enum_values = enum_values;
    info.default = default;
    match shape {
        Shape::Seq(inner) => info.items_schema = Some(shape_schema(inner)),
        Shape::Map(inner) => {
            info.properties = Some(Map::new());
            info.additional_properties = Some(shape_schema(inner));
        }
        Shape::Json { .. } => {
            info.properties = Some(Map::new());
            info.additional_properties = Some(Value::Bool(true));
        }
        _ => {}
    }
    info
}

/// The expression building a shape's schema at run time (`__cx: &mut SchemaCx` in scope).
pub(crate) fn schema_expr(shape: &Shape) -> TokenStream {
    if shape.is_known() {
        let text = shape_schema(shape).to_string();
        return quote!(::toolhook::__private::static_schema(#text));
    }
    match shape {
        Shape::Option(inner) => schema_expr(inner),
        Shape::Seq(inner) => {
            let inner = schema_expr(inner);
            quote!(::toolhook::__private::array_of(#inner))
        }
        Shape::Map(inner) => {
            let inner = schema_expr(inner);
            quote!(::toolhook::__private::map_of(#inner))
        }
        Shape::User(ty) => {
            let ty = crate::signature::owned_type(ty);
            quote!(((&::toolhook::__private::Probe::<#ty>::new()).schema_fn())(__cx))
        }
        _ => quote!(::toolhook::__private::serde_json::Value::Null),
    }
}

/// A checked literal: its JSON value and the `Literal` tokens the decoder uses.
pub(crate) struct CheckedLiteral {
    pub(crate) json: Value,
    pub(crate) tokens: TokenStream,
}

/// Reads a `default`/`enum` literal. For known shapes it must fit the type; other types are
/// checked when the registry is built.
pub(crate) fn check_literal(
    expr: &Expr,
    shape: &Shape,
    type_shown: &str,
    what: &str,
    errors: &mut Errors,
) -> Option<CheckedLiteral> {
    let not_fit = |errors: &mut Errors| {
        errors.error(expr, format!("{what} `{}` does not fit parameter type `{type_shown}`", shown(expr)));
    };
    if let Expr::Array(array) = expr {
        let inner = match shape {
            Shape::Seq(inner) => Some(&**inner),
            Shape::Json { object_only: false } | Shape::User(_) => None,
            _ => {
                not_fit(errors);
                return None;
            }
        };
        let mut json = Vec::new();
        let mut tokens = Vec::new();
        for elem in &array.elems {
            let item = match inner {
                Some(inner) => check_literal(elem, inner, type_shown, what, errors)?,
                None => check_literal(elem, &Shape::Json { object_only: false }, type_shown, what, errors)?,
            };
            json.push(item.json);
            tokens.push(item.tokens);
        }
        return Some(CheckedLiteral {
            json: Value::Array(json),
            tokens: quote!(::toolhook::__private::args::Literal::Array(&[#(#tokens),*])),
        });
    }
    let Some((lit, negative)) = literal(expr) else {
        errors.error(
            expr,
            format!("expected a string, integer, float or bool literal (or an array of them) for `{what}`"),
        );
        return None;
    };
    let lit_tokens = |value: &Value| -> TokenStream {
        match value {
            Value::String(s) => quote!(::toolhook::__private::args::Literal::Str(#s)),
            Value::Bool(b) => quote!(::toolhook::__private::args::Literal::Bool(#b)),
            Value::Number(n) if n.is_f64() => {
                let f = n.as_f64().unwrap_or(0.0);
                quote!(::toolhook::__private::args::Literal::Float(#f))
            }
            Value::Number(n) => {
                let i: i128 = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)).unwrap_or(0);
                quote!(::toolhook::__private::args::Literal::Int(#i))
            }
            _ => quote!(::toolhook::__private::args::Literal::Bool(false)),
        }
    };
    let json = match (shape, &lit) {
        (Shape::Str { is_char: false }, Lit::Str(s)) if !negative => Value::from(s.value()),
        (Shape::Str { is_char: true }, Lit::Str(s)) if !negative && s.value().chars().count() == 1 => {
            Value::from(s.value())
        }
        (Shape::Str { is_char: true }, Lit::Char(c)) if !negative => Value::from(c.value().to_string()),
        (Shape::Bool, Lit::Bool(b)) if !negative => Value::Bool(b.value),
        (Shape::Int { min, max, .. }, Lit::Int(i)) => {
            let digits = i.base10_digits();
            let text = if negative { format!("-{digits}") } else { digits.to_owned() };
            let fits = match text.parse::<i128>() {
                Ok(v) => v >= *min && (v < 0 || (v as u128) <= *max),
                Err(_) => !negative && text.parse::<u128>().is_ok_and(|v| v <= *max),
            };
            if !fits {
                not_fit(errors);
                return None;
            }
            crate::attr::lit_to_json(&lit, negative)?
        }
        (Shape::Float { .. }, Lit::Int(i)) => {
            let v: f64 = i.base10_parse().ok()?;
            Value::from(if negative { -v } else { v })
        }
        (Shape::Float { .. }, Lit::Float(_)) => crate::attr::lit_to_json(&lit, negative)?,
        (Shape::Json { object_only: false } | Shape::User(_), _) => match crate::attr::lit_to_json(&lit, negative) {
            Some(value) => value,
            None => {
                not_fit(errors);
                return None;
            }
        },
        _ => {
            not_fit(errors);
            return None;
        }
    };
    let tokens = lit_tokens(&json);
    Some(CheckedLiteral { json, tokens })
}
