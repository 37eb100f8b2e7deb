//! The strict dialects' schemas: the subset OpenAI's structured outputs accept, reached by
//! rewriting what can be rewritten (see [`keywords`](super::keywords)), describing what a model
//! still needs to know, and refusing the rest.

use super::ProjectionError;
use super::keywords::{Family, STRICT_FORMATS, Treatment, append_description, describe, treatment};
use crate::Locale;
use serde_json::{Map, Value};

/// Makes a schema acceptable to strict structured outputs: every object closed and every
/// property required (optional ones nullable), recursively through `$defs`.
pub(crate) fn strict_schema(schema: &Value, locale: Locale) -> Result<Value, ProjectionError> {
    let mut out = schema.clone();
    strictify(&mut out, "", locale)?;
    Ok(out)
}

fn is_object_schema(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => map.contains_key("properties"),
    }
}

fn strictify(schema: &mut Value, path: &str, locale: Locale) -> Result<(), ProjectionError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    let keys: Vec<String> = map.keys().cloned().collect();
    let mut notes = Vec::new();
    for key in keys {
        match treatment(Family::Strict, &key) {
            Treatment::Keep => {}
            Treatment::Refuse => {
                return Err(ProjectionError::Unsupported { keyword: key, path: pointer(path) });
            }
            Treatment::Drop => {
                map.shift_remove(&key);
            }
            Treatment::Describe => {
                if let Some(value) = map.shift_remove(&key)
                    && let Some(note) = describe(&key, &value, locale)
                {
                    notes.push(note);
                }
            }
            Treatment::Rewrite(_) => match key.as_str() {
                "oneOf" => {
                    if let Some(branches) = map.shift_remove("oneOf") {
                        map.insert("anyOf".into(), branches);
                    }
                }
                "prefixItems" => {
                    // A tuple: strict mode knows no positions, so an array of exactly that many
                    // items, each of one of the positions' schemas.
                    if let Some(Value::Array(positions)) = map.shift_remove("prefixItems") {
                        let mut distinct: Vec<Value> = Vec::new();
                        for position in positions.iter() {
                            if !distinct.contains(position) {
                                distinct.push(position.clone());
                            }
                        }
                        let items = match distinct.len() {
                            1 => distinct.remove(0),
                            _ => Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(distinct))])),
                        };
                        map.insert("items".into(), items);
                        map.insert("minItems".into(), Value::from(positions.len()));
                        map.insert("maxItems".into(), Value::from(positions.len()));
                    }
                }
                "const" => {
                    if let Some(value) = map.shift_remove("const") {
                        map.insert("enum".into(), Value::Array(vec![value]));
                    }
                }
                "format" => {
                    let supported =
                        map.get("format").and_then(Value::as_str).is_some_and(|f| STRICT_FORMATS.contains(&f));
                    if !supported
                        && let Some(value) = map.shift_remove("format")
                        && let Some(note) = describe("format", &value, locale)
                    {
                        notes.push(note);
                    }
                }
                // `type`, `required` and `additionalProperties` are settled below.
                _ => {}
            },
        }
    }
    for note in notes {
        append_description(map, &note);
    }
    if is_map(map) {
        // A map (any keys): strict objects are closed, so it is sent as a list of key/value pairs,
        // which the registry turns back into a map before the tool sees the arguments.
        let values = map.shift_remove("additionalProperties").unwrap_or_default();
        let mut pair = Map::new();
        pair.insert("type".into(), Value::from("object"));
        let mut properties = Map::new();
        properties.insert("key".into(), serde_json::json!({"type": "string"}));
        properties.insert("value".into(), values);
        pair.insert("properties".into(), Value::Object(properties));
        pair.insert("required".into(), serde_json::json!(["key", "value"]));
        let mut pair = Value::Object(pair);
        strictify(&mut pair, &format!("{path}/additionalProperties"), locale)?;
        map.shift_remove("properties");
        map.shift_remove("required");
        map.insert("type".into(), Value::from("array"));
        map.insert("items".into(), pair);
        append_description(map, describe_pairs(locale));
        return Ok(());
    }
    let branches = map.contains_key("anyOf");
    if branches && !map.contains_key("properties") {
        // A union of objects (a tagged enum): each branch is its own closed object; an outer
        // `type: object` would be an object without properties that admits none of them.
        if map.get("type").and_then(Value::as_str) == Some("object") {
            map.shift_remove("type");
        }
    } else if is_object_schema(map) {
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            Some(_) => {
                return Err(ProjectionError::OpenObject { path: pointer(path) });
            }
        }
        let properties = map.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        let mut all = Vec::new();
        if let Value::Object(properties) = properties {
            for (key, prop) in properties.iter_mut() {
                strictify(prop, &format!("{path}/properties/{}", escape_pointer(key)), locale)?;
                all.push(key.clone());
            }
        }
        let previously_required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (key, prop) in properties.iter_mut() {
                if !previously_required.contains(key) {
                    make_nullable(prop);
                }
            }
        }
        map.insert("required".into(), Value::Array(all.into_iter().map(Value::from).collect()));
    }
    if let Some(sub @ Value::Object(_)) = map.get_mut("items") {
        strictify(sub, &format!("{path}/items"), locale)?;
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        for (i, branch) in branches.iter_mut().enumerate() {
            strictify(branch, &format!("{path}/anyOf/{i}"), locale)?;
        }
    }
    if let Some(Value::Object(defs)) = map.get_mut("$defs") {
        for (name, def) in defs.iter_mut() {
            strictify(def, &format!("{path}/$defs/{}", escape_pointer(name)), locale)?;
        }
    }
    Ok(())
}

/// Whether a schema is a map strict mode can take as pairs: an object of any keys whose values
/// have a schema of their own (values of any JSON cannot be made strict), no named properties.
pub(crate) fn is_map(map: &Map<String, Value>) -> bool {
    let typed_values = map.get("additionalProperties").and_then(Value::as_object).is_some_and(|values| {
        ["type", "anyOf", "oneOf", "$ref", "enum", "const"].iter().any(|k| values.contains_key(*k))
    });
    is_object_schema(map) && typed_values && map.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty)
}

fn describe_pairs(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "A list of key/value pairs.",
        Locale::ZhHans => "以键值对列表的形式给出。",
    }
}

/// A formerly optional property becomes nullable.
fn make_nullable(prop: &mut Value) {
    let Value::Object(map) = prop else { return };
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            if t != "null" {
                let t = std::mem::take(t);
                map.insert("type".into(), Value::Array(vec![Value::from(t), Value::from("null")]));
            }
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push(Value::from("null"));
            }
        }
        _ => {
            let null = Value::Object(Map::from_iter([("type".to_owned(), Value::from("null"))]));
            match map.get("anyOf") {
                // A union with a `null` branch already takes `null`.
                Some(Value::Array(branches))
                    if branches.iter().any(|b| b.get("type") == Some(&Value::from("null"))) => {}
                // The whole property, its description (and a union's branches) included, is the
                // first branch; but a `$ref` strict mode takes only alone, so a reference's other
                // keywords (a description) stay beside the branches.
                _ => {
                    let mut inner = std::mem::take(map);
                    if inner.contains_key("$ref") {
                        let reference = inner.shift_remove("$ref").unwrap_or_default();
                        let beside = std::mem::take(&mut inner);
                        inner.insert("$ref".into(), reference);
                        map.insert("anyOf".into(), Value::Array(vec![Value::Object(inner), null]));
                        map.extend(beside);
                    } else {
                        map.insert("anyOf".into(), Value::Array(vec![Value::Object(inner), null]));
                    }
                }
            }
        }
    }
}

fn pointer(path: &str) -> String {
    if path.is_empty() { "/".to_owned() } else { path.to_owned() }
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn strict(schema: Value) -> Result<Value, ProjectionError> {
        strict_schema(&schema, Locale::En)
    }

    #[test]
    fn objects_are_closed_and_optional_properties_nullable() {
        let schema = json!({"type": "object", "properties": {
            "q": {"type": "string", "description": "query"},
            "n": {"type": "integer", "default": 5},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "any": {"description": "untyped"},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}, "required": []}},
        }, "required": ["q", "tags"]});
        assert_eq!(
            strict(schema).unwrap(),
            json!({"type": "object", "properties": {
                "q": {"type": "string", "description": "query"},
                "n": {"type": ["integer", "null"], "description": "Default: 5."},
                "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
                "any": {"anyOf": [{"description": "untyped"}, {"type": "null"}]},
                "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": ["string", "null"]}}, "required": ["k"], "additionalProperties": false}},
            }, "required": ["q", "n", "unit", "any", "tags"], "additionalProperties": false})
        );
    }

    #[test]
    fn an_optional_reference_is_a_bare_ref_branch_with_its_description_beside() {
        let schema = json!({"type": "object", "properties": {
            "next": {"$ref": "#/$defs/Node", "description": "The next node."},
        }, "$defs": {"Node": {"type": "object", "properties": {}}}});
        assert_eq!(
            strict(schema).unwrap()["properties"]["next"],
            json!({"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}], "description": "The next node."})
        );
    }

    #[test]
    fn a_tuple_is_an_array_of_exactly_its_length() {
        let schema = json!({"type": "object", "properties": {"at": {"type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "integer"}], "minItems": 2, "maxItems": 2}}, "required": ["at"]});
        assert_eq!(
            strict(schema).unwrap()["properties"]["at"],
            json!({"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}})
        );
    }

    #[test]
    fn a_map_is_a_list_of_key_value_pairs() {
        let schema = json!({"type": "object", "properties": {"scores": {"type": "object", "description": "Scores.",
            "properties": {}, "required": [], "additionalProperties": {"type": "integer"}}}, "required": ["scores"]});
        assert_eq!(
            strict(schema).unwrap()["properties"]["scores"],
            json!({"type": "array", "description": "Scores. A list of key/value pairs.", "items": {"type": "object",
                "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
                "required": ["key", "value"], "additionalProperties": false}})
        );
    }

    #[test]
    fn open_objects_and_unsupported_keywords_are_refused() {
        let open = json!({"type": "object", "properties": {"m": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}}});
        assert_eq!(strict(open), Err(ProjectionError::OpenObject { path: "/properties/m".into() }));
        let all_of = json!({"type": "object", "properties": {"m": {"allOf": []}}});
        assert!(matches!(strict(all_of), Err(ProjectionError::Unsupported { .. })));
    }

    #[test]
    fn a_tagged_enum_is_a_union_of_closed_objects_each_fillable() {
        let schema = json!({"type": "object", "properties": {"shape": {
            "type": "object",
            "description": "A shape.",
            "oneOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]},
            ],
        }}, "required": ["shape"]});
        let shape = &strict(schema).unwrap()["properties"]["shape"];
        assert_eq!(shape.get("type"), None);
        assert_eq!(shape["description"], "A shape.");
        assert_eq!(
            shape["anyOf"][0],
            json!({"type": "object", "properties": {"kind": {"type": "string", "enum": ["circle"]}, "r": {"type": "number"}}, "required": ["kind", "r"], "additionalProperties": false})
        );
    }

    #[test]
    fn keywords_strict_mode_rejects_are_described_in_the_locale() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string", "minLength": 2}, "uniqueItems": true, "description": "Tags."},
            "site": {"type": "string", "format": "uri"},
            "at": {"type": "string", "format": "date-time"},
        }, "required": ["tags", "site", "at"]});
        let out = strict(schema.clone()).unwrap();
        assert_eq!(out["properties"]["tags"]["description"], "Tags. Items must be unique.");
        assert_eq!(
            out["properties"]["tags"]["items"],
            json!({"type": "string", "description": "At least 2 characters."})
        );
        assert_eq!(out["properties"]["site"], json!({"type": "string", "description": "Format: uri."}));
        assert_eq!(out["properties"]["at"], json!({"type": "string", "format": "date-time"}));
        let zh = strict_schema(&schema, Locale::ZhHans).unwrap();
        assert_eq!(zh["properties"]["tags"]["description"], "Tags. 各项不可重复。");
    }

    #[test]
    fn recursive_definitions_are_made_strict_too() {
        let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"],
            "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}, "label": {"type": "string"}}, "required": ["children"]}}});
        let out = strict(schema).unwrap();
        assert_eq!(
            out["$defs"]["Node"],
            json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}, "label": {"type": ["string", "null"]}}, "required": ["children", "label"], "additionalProperties": false})
        );
    }
}
