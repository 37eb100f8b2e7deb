//! Arguments a model sent for a strict definition, made what a non-strict call sends, guided by
//! the tool's own schema at every depth:
//!
//! - a model filling a strict schema sends every property, `null` for those it leaves unset: a
//!   `null` for an optional property whose schema does not take `null` is dropped, so defaults
//!   apply;
//! - strict objects are closed, so a map goes as a list of `{"key", "value"}` pairs: where the
//!   schema has a map and the model sent such a list, it becomes the map again;
//! - Gemini's enums are strings, so an enum of numbers or booleans goes as their compact JSON
//!   (`"2"` for 2): where the schema has such an enum and the model sent the string of one of its
//!   values, it becomes that value again (a string never fits such an enum, so nothing a model
//!   meant is changed). Every provider's tool thus gets the values its schema names.

use serde_json::{Map, Value};
use toolhook::ToolArguments;

/// Undoes, in place, what a strict or Gemini definition makes a model send (see the module docs).
/// `value_enums` says whether the schema has an enum of values that are not strings
/// ([`has_value_enums`], asked once per tool). Without one, text with neither `null` nor a
/// `"key"` in it is left as it is (not even parsed or moved).
#[inline]
pub(crate) fn undo_strict_forms(arguments: &mut ToolArguments, schema: &Value, value_enums: bool) {
    let marked = value_enums
        || match arguments {
            ToolArguments::Text(text) => has_strict_marks(text.as_bytes()),
            ToolArguments::Value(value) => has_strict_forms(value),
        };
    if marked {
        *arguments = from_strict(std::mem::take(arguments), schema, value_enums);
    }
}

/// What arguments sent under a tool's schema can hold of the forms a strict or Gemini definition
/// makes a model send; worked out once per tool.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DialectForms {
    /// Any at all ([`may_hold_strict_forms`] or [`has_value_enums`]): without any, a call's
    /// arguments are left as they are.
    pub(crate) any: bool,
    /// An enum of numbers or booleans, sent as strings ([`has_value_enums`]).
    pub(crate) value_enums: bool,
}

impl DialectForms {
    /// The forms arguments sent under `schema` can hold.
    pub(crate) fn of(schema: &Value) -> Self {
        let value_enums = has_value_enums(schema);
        DialectForms { any: value_enums || may_hold_strict_forms(schema), value_enums }
    }
}

/// Whether a schema has, at any depth, an enum with a value that is not a string (a number or a
/// boolean), which Gemini's definitions send as strings.
pub(crate) fn has_value_enums(schema: &Value) -> bool {
    any_object(schema, |map| {
        let values = map.get("enum").and_then(Value::as_array);
        values.is_some_and(|values| values.iter().any(|v| !v.is_string() && !v.is_null()))
    })
}

/// Whether arguments sent under `schema` can hold a strict form at all: only an object schema
/// with a property it does not require (whose `null` is dropped) or with `additionalProperties`
/// (a map, which goes as pairs) has one (Gemini's enum strings are [`has_value_enums`]'s). A
/// schema with neither, at any depth, leaves every call's arguments as they are, so the registry
/// asks once per listed tool and skips the scan of each call's text. Looks at every object in the
/// schema, `$defs` and values included, so it errs towards `true`.
pub(crate) fn may_hold_strict_forms(schema: &Value) -> bool {
    any_object(schema, |map| {
        let required = map.get("required").and_then(Value::as_array);
        let optional = map.get("properties").and_then(Value::as_object).is_some_and(|properties| {
            properties.keys().any(|key| !required.is_some_and(|r| r.iter().any(|n| n == key)))
        });
        optional || map.get("additionalProperties").is_some_and(Value::is_object)
    })
}

/// Whether any object in a schema, at any depth, matches; walks without recursion, so a schema
/// of any depth is safe.
fn any_object(schema: &Value, matches: impl Fn(&Map<String, Value>) -> bool) -> bool {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if matches(map) {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// Undoes what a strict or Gemini definition makes a model send (see the module docs). Without
/// `value_enums`, text with neither `null` nor a `"key"` in it is left as it is (not even parsed).
pub(crate) fn from_strict(arguments: ToolArguments, schema: &Value, value_enums: bool) -> ToolArguments {
    match arguments {
        ToolArguments::Text(text) => {
            if !value_enums && !has_strict_marks(text.as_bytes()) {
                return ToolArguments::Text(text);
            }
            let Ok(mut value) = serde_json::from_str::<Value>(&text) else {
                // Bad JSON is the decoder's to report, in its words.
                return ToolArguments::Text(text);
            };
            if strip(&mut value, schema, root_defs(schema)) {
                ToolArguments::Value(value)
            } else {
                ToolArguments::Text(text)
            }
        }
        ToolArguments::Value(mut value) => {
            if value_enums || has_strict_forms(&value) {
                strip(&mut value, schema, root_defs(schema));
            }
            ToolArguments::Value(value)
        }
    }
}

/// Whether a value holds a `null` or a list of objects with a `"key"`: without either there is
/// nothing to undo, and the schema need not be walked. (Its depth is already bounded by the
/// registry's argument limits.)
fn has_strict_forms(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.values().any(has_strict_forms),
        Value::Array(items) => {
            items.iter().any(|item| item.as_object().is_some_and(|o| o.contains_key("key")) || has_strict_forms(item))
        }
        _ => false,
    }
}

/// Whether `text` holds a `null` or a `"key"`: one vectorised pass for their letters (`n`,
/// `k`), which most argument texts do not contain at all.
fn has_strict_marks(text: &[u8]) -> bool {
    memchr::memchr2_iter(b'n', b'k', text).any(|i| match text[i] {
        b'n' => text[i..].starts_with(b"null"),
        _ => i > 0 && text[i - 1] == b'"' && text[i..].starts_with(b"key\""),
    })
}

fn root_defs(schema: &Value) -> Option<&Map<String, Value>> {
    schema.get("$defs").and_then(Value::as_object)
}

/// The schema a `$ref` names, or the schema itself.
fn resolve<'a>(schema: &'a Value, defs: Option<&'a Map<String, Value>>) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => defs.and_then(|d| d.get(name)).unwrap_or(schema),
        None => schema,
    }
}

/// Whether a schema takes `null`.
fn takes_null(schema: &Value, defs: Option<&Map<String, Value>>) -> bool {
    let schema = resolve(schema, defs);
    let Some(map) = schema.as_object() else {
        return schema != &Value::Bool(false);
    };
    let typed = match map.get("type") {
        Some(Value::String(t)) => Some(t == "null"),
        Some(Value::Array(types)) => Some(types.iter().any(|t| t == "null")),
        _ => None,
    };
    let enumerated = map.get("enum").and_then(Value::as_array).map(|values| values.contains(&Value::Null));
    let branches = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| map.get(*k).and_then(Value::as_array))
        .map(|branches| branches.iter().any(|b| takes_null(b, defs)))
        .next();
    match (typed, enumerated, branches) {
        (Some(false), _, _) | (_, Some(false), _) | (_, _, Some(false)) => false,
        (None, None, None) => !map.contains_key("properties") && !map.contains_key("items"),
        _ => true,
    }
}

/// Undoes the strict forms in `value` under `schema`; whether anything changed.
fn strip(value: &mut Value, schema: &Value, defs: Option<&Map<String, Value>>) -> bool {
    let schema = resolve(schema, defs);
    let Some(map) = schema.as_object() else { return false };
    let pairs_back = pairs_to_map(value, map);
    pairs_back
        | match value {
            Value::Object(object) => {
                if let Some(branch) = branch_for(map, object, defs) {
                    return strip(value, branch, defs);
                }
                let mut dropped = false;
                if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                    let required = |key: &str| {
                        map.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|n| n == key))
                    };
                    object.retain(|key, item| {
                        let drop = item.is_null()
                            && !required(key)
                            && properties.get(key).is_some_and(|p| !takes_null(p, defs));
                        dropped |= drop;
                        !drop
                    });
                    for (key, item) in object.iter_mut() {
                        if let Some(property) = properties.get(key) {
                            dropped |= strip(item, property, defs);
                        }
                    }
                }
                if let Some(values @ Value::Object(_)) = map.get("additionalProperties") {
                    for (key, item) in object.iter_mut() {
                        let declared =
                            map.get("properties").and_then(Value::as_object).is_some_and(|p| p.contains_key(key));
                        if !declared {
                            dropped |= strip(item, values, defs);
                        }
                    }
                }
                dropped
            }
            Value::Array(items) => match map.get("items") {
                Some(item_schema) => {
                    items.iter_mut().fold(false, |dropped, item| strip(item, item_schema, defs) | dropped)
                }
                None => false,
            },
            Value::String(text) => match enum_value_of(text, map, defs, 0) {
                Some(meant) => {
                    *value = meant;
                    true
                }
                None => false,
            },
            _ => false,
        }
}

/// The value of an enum of numbers or booleans (in the schema or one of its union's branches,
/// to a few levels: a union of unions of itself ends there) whose compact JSON a model sent as
/// `text`.
fn enum_value_of(text: &str, map: &Map<String, Value>, defs: Option<&Map<String, Value>>, depth: u8) -> Option<Value> {
    let values = map.get("enum").and_then(Value::as_array);
    if values.is_some_and(|values| values.iter().any(|v| v.as_str() == Some(text))) {
        // The string itself is one of the values.
        return None;
    }
    let own =
        values.and_then(|values| values.iter().find(|v| !v.is_string() && !v.is_null() && spells(v, text)).cloned());
    own.or_else(|| {
        let branches = map.get("anyOf").or_else(|| map.get("oneOf")).and_then(Value::as_array)?;
        let deeper = depth.checked_add(1).filter(|d| *d < 8)?;
        branches.iter().find_map(|branch| enum_value_of(text, resolve(branch, defs).as_object()?, defs, deeper))
    })
}

/// Whether `text` is `value`'s compact JSON (a `Value` compared with a `&str` would ask whether
/// the value is that string).
fn spells(value: &Value, text: &str) -> bool {
    let compact = value.to_string();
    compact == text
}

/// A map sent as `[{"key": k, "value": v}, …]` (the strict form) becomes `{k: v, …}`.
fn pairs_to_map(value: &mut Value, schema: &Map<String, Value>) -> bool {
    let is_map = schema.get("additionalProperties").is_some_and(Value::is_object)
        && schema.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty);
    let Value::Array(items) = value else { return false };
    let pairs = is_map
        && items.iter().all(|item| {
            item.as_object().is_some_and(|pair| {
                pair.len() == 2 && pair.get("key").is_some_and(Value::is_string) && pair.contains_key("value")
            })
        });
    if !pairs {
        return false;
    }
    let map: Map<String, Value> = std::mem::take(items)
        .into_iter()
        .filter_map(|item| match item {
            Value::Object(mut pair) => {
                let key = pair.remove("key")?.as_str()?.to_owned();
                Some((key, pair.remove("value").unwrap_or(Value::Null)))
            }
            _ => None,
        })
        .collect();
    *value = Value::Object(map);
    true
}

/// For a union of object schemas (a tagged enum), the branch an object belongs to: the first
/// whose `const`/`enum` tags it matches and whose properties name every key it has.
fn branch_for<'a>(
    map: &'a Map<String, Value>,
    object: &Map<String, Value>,
    defs: Option<&'a Map<String, Value>>,
) -> Option<&'a Value> {
    let branches = map.get("anyOf").or_else(|| map.get("oneOf")).and_then(Value::as_array)?;
    branches.iter().find(|branch| {
        let branch = resolve(branch, defs);
        let Some(properties) = branch.get("properties").and_then(Value::as_object) else {
            return false;
        };
        let tags_match = properties.iter().all(|(key, property)| {
            let tag = property
                .get("const")
                .or_else(|| property.get("enum").and_then(Value::as_array).filter(|values| values.len() == 1)?.first());
            match tag {
                Some(tag) => object.get(key).is_none_or(|v| v == tag),
                None => true,
            }
        });
        tags_match && object.keys().all(|key| properties.contains_key(key))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    proptest::proptest! {
        /// The one-pass check finds exactly the texts that hold `null` or `"key"`.
        #[test]
        fn strict_marks_are_found_exactly(text in "[\"nulkeyab{}: ]{0,30}") {
            let expected = text.contains("null") || text.contains("\"key\"");
            proptest::prop_assert_eq!(has_strict_marks(text.as_bytes()), expected);
        }
    }

    #[test]
    fn strict_marks_in_argument_texts() {
        for (text, expected) in [
            (r#"{"city":"Paris","days":3}"#, false),
            (r#"{"a":null}"#, true),
            (r#"[{"key":"x","value":1}]"#, true),
            (r#"{"monkey":"nul"}"#, false),
            ("null", true),
            (r#""k"#, false),
        ] {
            assert_eq!(has_strict_marks(text.as_bytes()), expected, "{text}");
        }
    }

    #[test]
    fn an_enums_value_sent_as_its_string_is_the_value_again_at_any_depth() {
        let schema = json!({"type": "object", "properties": {
            "level": {"type": "integer", "enum": [1, 2]},
            "flags": {"type": "array", "items": {"enum": [true, false]}},
            "inner": {"$ref": "#/$defs/Inner"},
            "either": {"anyOf": [{"type": "number", "enum": [1.5]}, {"type": "null"}]},
            "word": {"enum": ["1", 2]},
            "free": {"type": "string"},
        }, "$defs": {"Inner": {"type": "object", "properties": {"code": {"type": "integer", "enum": [7]}}}}});
        assert!(has_value_enums(&schema));
        assert!(!has_value_enums(&json!({"type": "object", "properties": {"u": {"enum": ["c", "f", null]}}})));
        let sent = json!({"level": "2", "flags": ["true", false], "inner": {"code": "7"}, "either": "1.5",
            "word": "1", "free": "2"});
        let undone = match from_strict(ToolArguments::Text(sent.to_string()), &schema, true) {
            ToolArguments::Value(value) => value,
            ToolArguments::Text(text) => panic!("left as text: {text}"),
        };
        // A string that is one of the values, or under a schema without such an enum, stays.
        assert_eq!(
            undone,
            json!({"level": 2, "flags": [true, false], "inner": {"code": 7}, "either": 1.5, "word": "1", "free": "2"})
        );
        // A string no value spells is the decoder's to refuse.
        let mut odd = ToolArguments::Value(json!({"level": "3"}));
        undo_strict_forms(&mut odd, &schema, true);
        assert!(matches!(odd, ToolArguments::Value(v) if v == json!({"level": "3"})));
    }

    fn stripped(arguments: Value, schema: Value) -> Value {
        match from_strict(ToolArguments::Text(arguments.to_string()), &schema, false) {
            ToolArguments::Value(value) => value,
            ToolArguments::Text(text) => serde_json::from_str(&text).unwrap(),
        }
    }

    #[test]
    fn optional_nulls_go_at_every_depth_and_meaningful_ones_stay() {
        let schema = json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer", "default": 1},
            "note": {"type": ["string", "null"]},
            "place": {"$ref": "#/$defs/Place"},
            "stops": {"type": "array", "items": {"$ref": "#/$defs/Place"}},
            "extra": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}, "properties": {}},
        }, "required": ["city"], "$defs": {"Place": {"type": "object", "properties": {
            "name": {"type": "string"}, "zip": {"type": "string"}}, "required": ["name"]}}});
        let sent = json!({"city": "Oslo", "days": null, "note": null,
            "place": {"name": "A", "zip": null}, "stops": [{"name": "B", "zip": null}], "extra": {"k": null}});
        assert_eq!(
            stripped(sent, schema),
            json!({"city": "Oslo", "note": null, "place": {"name": "A"}, "stops": [{"name": "B"}], "extra": {"k": null}})
        );
    }

    #[test]
    fn a_required_null_stays_for_the_decoder_to_report() {
        let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
        assert_eq!(stripped(json!({"city": null}), schema), json!({"city": null}));
    }

    #[test]
    fn a_tagged_enum_is_stripped_by_its_own_branch() {
        let schema = json!({"type": "object", "properties": {"shape": {"anyOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}, "label": {"type": "string"}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}, "label": {"type": "string"}}, "required": ["kind", "side"]},
        ]}}, "required": ["shape"]});
        let sent = json!({"shape": {"kind": "square", "side": 2, "label": null}});
        assert_eq!(stripped(sent, schema), json!({"shape": {"kind": "square", "side": 2}}));
    }

    #[test]
    fn a_map_sent_as_pairs_is_a_map_again() {
        let schema = json!({"type": "object", "properties": {
            "scores": {"type": "object", "properties": {}, "additionalProperties": {"type": "object",
                "properties": {"n": {"type": "integer"}, "note": {"type": "string"}}, "required": ["n"]}},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}},
        }});
        let sent = json!({"scores": [{"key": "ann", "value": {"n": 3, "note": null}}],
            "tags": [{"key": "k", "value": "v"}]});
        assert_eq!(
            stripped(sent, schema),
            json!({"scores": {"ann": {"n": 3}}, "tags": [{"key": "k", "value": "v"}]}),
            "a real list of key/value objects stays a list"
        );
    }

    #[test]
    fn values_are_stripped_like_texts() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string"},
            "m": {"type": "object", "properties": {}, "additionalProperties": {"type": "integer"}},
        }});
        let strict = |value: Value| match from_strict(ToolArguments::Value(value), &schema, false) {
            ToolArguments::Value(value) => value,
            ToolArguments::Text(_) => unreachable!("a value stays a value"),
        };
        assert_eq!(strict(json!({"a": null})), json!({}));
        assert_eq!(strict(json!({"m": [{"key": "x", "value": 1}]})), json!({"m": {"x": 1}}));
        assert_eq!(strict(json!({"a": "b", "m": {"x": 1}})), json!({"a": "b", "m": {"x": 1}}));
    }

    #[test]
    fn only_schemas_with_optional_properties_or_maps_can_hold_strict_forms() {
        let place = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
        let closed = json!({"type": "object", "properties": {"city": {"type": "string"}, "place": {"$ref": "#/$defs/Place"},
            "stops": {"type": "array", "items": {"$ref": "#/$defs/Place"}}}, "required": ["city", "place", "stops"],
            "$defs": {"Place": place}});
        assert!(!may_hold_strict_forms(&closed));
        assert!(!may_hold_strict_forms(&json!({"type": "object", "properties": {}})));
        // Every call under it comes out as it went in, nulls and pairs included.
        for sent in [
            json!({"city": null, "place": {"name": null}, "stops": [{"name": "B"}]}),
            json!({"city": "Oslo", "place": [{"key": "name", "value": "A"}], "stops": []}),
        ] {
            assert_eq!(stripped(sent.clone(), closed.clone()), sent);
        }
        let optional_in_defs = json!({"type": "object", "properties": {"place": {"$ref": "#/$defs/Place"}},
            "required": ["place"], "$defs": {"Place": {"type": "object", "properties": {"zip": {"type": "string"}}}}});
        let optional_in_items = json!({"type": "object", "properties": {"stops": {"type": "array", "items":
            {"type": "object", "properties": {"zip": {"type": "string"}}, "required": []}}}, "required": ["stops"]});
        let map = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
            "required": ["m"]});
        let top_level_optional = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        for schema in [optional_in_defs, optional_in_items, map, top_level_optional] {
            assert!(may_hold_strict_forms(&schema), "{schema}");
        }
    }

    #[test]
    fn a_schema_of_any_depth_is_looked_at_without_recursion() {
        let mut schema = json!({"type": "string"});
        for _ in 0..100_000 {
            let mut node = Map::new();
            node.insert("type".into(), json!("array"));
            node.insert("items".into(), schema);
            schema = Value::Object(node);
        }
        assert!(!may_hold_strict_forms(&schema));
        toolhook::args::drop_deep(schema);
    }

    #[test]
    fn text_without_null_is_not_touched() {
        let text = r#"{"n": 123456789012345678901234567890}"#;
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        assert!(
            matches!(from_strict(ToolArguments::Text(text.into()), &schema, false), ToolArguments::Text(t) if t == text)
        );
    }
}
