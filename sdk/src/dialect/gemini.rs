//! The Gemini dialect's schemas: the OpenAPI subset of Gemini's function declarations, reached
//! by the rewrites of [`keywords`](super::keywords): references inlined (a type inside itself is
//! an open object there), nullable types flagged, enums of strings only, and what the subset
//! cannot say described for the model.

use super::keywords::{Family, Treatment, append_description, describe, treatment};
use crate::Locale;
use serde_json::{Map, Value};

/// Converts a JSON Schema to the OpenAPI subset Gemini accepts.
pub(crate) fn gemini_schema(schema: &Value, locale: Locale) -> Value {
    let defs = schema.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut cx = Cx { defs, stack: Vec::new(), locale };
    cx.convert(schema)
}

struct Cx {
    defs: Map<String, Value>,
    stack: Vec<String>,
    locale: Locale,
}

fn open_object() -> Value {
    Value::Object(Map::from_iter([("type".to_owned(), Value::from("object"))]))
}

impl Cx {
    fn convert(&mut self, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            // `true` (any value): the nearest Gemini says is an open object.
            return open_object();
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return self.inline(reference, map);
        }
        let mut out = Map::new();
        let mut nullable = false;
        let mut notes = Vec::new();
        for (key, value) in map {
            match (treatment(Family::Gemini, key), key.as_str()) {
                (Treatment::Drop | Treatment::Refuse, _) => {}
                (Treatment::Describe, _) => notes.extend(describe(key, value, self.locale)),
                (_, "type") => match value {
                    Value::Array(types) => {
                        let non_null: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                        nullable |= non_null.len() < types.len();
                        match non_null.as_slice() {
                            [] => {
                                out.insert("type".into(), Value::from("null"));
                            }
                            [single] => {
                                out.insert("type".into(), (*single).clone());
                            }
                            many => {
                                let branches = many
                                    .iter()
                                    .map(|t| Value::Object(Map::from_iter([("type".to_owned(), (*t).clone())])))
                                    .collect();
                                out.insert("anyOf".into(), Value::Array(branches));
                            }
                        }
                    }
                    other => {
                        out.insert("type".into(), other.clone());
                    }
                },
                (_, "anyOf" | "oneOf") => {
                    let branches: Vec<Value> =
                        value.as_array().map(|b| b.iter().map(|x| self.convert(x)).collect()).unwrap_or_default();
                    let is_null = |b: &Value| {
                        b.get("type") == Some(&Value::from("null")) && b.as_object().is_some_and(|m| m.len() == 1)
                    };
                    let non_null: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
                    if branches.len() == 2 && non_null.len() == 1 {
                        nullable = true;
                        if let Value::Object(branch) = &non_null[0] {
                            for (k, v) in branch {
                                out.entry(k.clone()).or_insert_with(|| v.clone());
                            }
                        }
                    } else {
                        out.insert("anyOf".into(), Value::Array(branches));
                    }
                }
                // Inlined where referenced.
                (_, "$defs") => {}
                (_, "const") => {
                    out.insert("enum".into(), Value::Array(vec![value.clone()]));
                }
                (_, "properties") => {
                    let props = value
                        .as_object()
                        .map(|p| p.iter().map(|(k, v)| (k.clone(), self.convert(v))).collect())
                        .unwrap_or_default();
                    out.insert("properties".into(), Value::Object(props));
                }
                (_, "items") => {
                    out.insert("items".into(), self.convert(value));
                }
                (_, "prefixItems") => {
                    // A tuple: an array of the items' common type, else of any item.
                    let items: Vec<Value> =
                        value.as_array().map(|b| b.iter().map(|x| self.convert(x)).collect()).unwrap_or_default();
                    let first = items.first().and_then(|i| i.get("type")).cloned();
                    let common = first.filter(|t| items.iter().all(|i| i.get("type") == Some(t)));
                    let item = match common {
                        Some(t) => Value::Object(Map::from_iter([("type".to_owned(), t)])),
                        None => Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(items.clone()))])),
                    };
                    out.insert("items".into(), item);
                    out.insert("minItems".into(), Value::from(items.len()));
                    out.insert("maxItems".into(), Value::from(items.len()));
                }
                (_, "format") => {
                    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
                    let format = value.as_str().unwrap_or_default();
                    let accepted = matches!(
                        (kind, format),
                        ("string", "date-time" | "enum")
                            | ("integer", "int32" | "int64")
                            | ("number", "float" | "double")
                    );
                    if accepted {
                        out.insert("format".into(), value.clone());
                    } else {
                        notes.extend(describe("format", value, self.locale));
                    }
                }
                (_, "exclusiveMinimum" | "exclusiveMaximum") => {
                    let integer = map.get("type").and_then(Value::as_str) == Some("integer");
                    match value.as_i64().filter(|_| integer) {
                        Some(bound) if key == "exclusiveMinimum" => {
                            out.insert("minimum".into(), Value::from(bound + 1));
                        }
                        Some(bound) => {
                            out.insert("maximum".into(), Value::from(bound - 1));
                        }
                        None => notes.extend(describe(key, value, self.locale)),
                    }
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        // Gemini's enums are strings: an enum of other values becomes their compact JSON as
        // strings (`"2"` for 2) of type `string`, its default written the same way, and the
        // keywords of the former type go. The registry turns such a string back into the value
        // before any tool sees it.
        if let Some(Value::Array(values)) = out.get_mut("enum")
            && values.iter().any(|v| !v.is_string() && !v.is_null())
        {
            for value in values.iter_mut().filter(|v| !v.is_string() && !v.is_null()) {
                *value = Value::String(value.to_string());
            }
            out.insert("type".into(), Value::from("string"));
            if let Some(default) = out.get_mut("default").filter(|d| !d.is_string() && !d.is_null()) {
                *default = Value::String(default.to_string());
            }
            for keyword in ["format", "minimum", "maximum"] {
                out.shift_remove(keyword);
            }
        }
        if let Some(Value::Array(values)) = out.get_mut("enum") {
            nullable |= values.iter().any(Value::is_null);
            values.retain(|v| !v.is_null());
        }
        if !out.contains_key("type") && out.get("enum").is_some() {
            out.insert("type".into(), Value::from("string"));
        }
        // Gemini refuses an empty `properties`: a map (any keys, its values described) is a plain
        // object.
        if out.get("properties").and_then(Value::as_object).is_some_and(Map::is_empty) {
            out.shift_remove("properties");
            if out.get("required").and_then(Value::as_array).is_some_and(Vec::is_empty) {
                out.shift_remove("required");
            }
        }
        for note in notes {
            append_description(&mut out, &note);
        }
        if nullable {
            let mut with_flag = Map::with_capacity(out.len() + 1);
            let had_type = out.contains_key("type");
            for (key, value) in out {
                let is_type = key == "type";
                with_flag.insert(key, value);
                if is_type {
                    with_flag.insert("nullable".into(), Value::Bool(true));
                }
            }
            if !had_type {
                with_flag.insert("nullable".into(), Value::Bool(true));
            }
            out = with_flag;
        }
        Value::Object(out)
    }

    /// A `$ref`, inlined; a type met again inside itself is an open object there.
    fn inline(&mut self, reference: &str, map: &Map<String, Value>) -> Value {
        let name = reference.rsplit('/').next().unwrap_or(reference).to_owned();
        // Gemini's schemas cannot refer to a definition: a type met again inside itself is an open
        // object there.
        let mut inlined = match self.defs.get(&name).cloned() {
            Some(target) if !self.stack.contains(&name) => {
                self.stack.push(name);
                let inlined = self.convert(&target);
                self.stack.pop();
                inlined
            }
            _ => open_object(),
        };
        // Sibling keywords of the `$ref` (a description, say) are kept.
        let siblings: Map<String, Value> =
            map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
        if !siblings.is_empty()
            && let (Value::Object(inlined_map), Value::Object(converted)) =
                (&mut inlined, self.convert(&Value::Object(siblings)))
        {
            for (key, value) in converted {
                if key != "type" || !inlined_map.contains_key("type") {
                    inlined_map.insert(key, value);
                }
            }
        }
        inlined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refs_are_inlined_and_nullables_consts_and_enums_rewritten() {
        let schema = json!({"type": "object", "properties": {
            "opt": {"type": ["string", "null"]},
            "multi": {"type": ["string", "integer"]},
            "either": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "k": {"const": "x"},
            "level": {"type": "integer", "enum": [1, 2], "default": 1},
        }, "required": [], "additionalProperties": false});
        assert_eq!(
            gemini_schema(&schema, Locale::En),
            json!({"type": "object", "properties": {
                "opt": {"type": "string", "nullable": true},
                "multi": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "either": {"type": "integer", "nullable": true},
                "k": {"enum": ["x"], "type": "string"},
                "level": {"type": "string", "enum": ["1", "2"], "default": "1"},
            }, "required": []})
        );
    }

    #[test]
    fn a_recursive_reference_is_an_open_object() {
        let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node", "description": "The tree."}},
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
        let out = gemini_schema(&schema, Locale::En);
        assert_eq!(
            out,
            json!({"type": "object", "properties": {"root": {"type": "object",
                "properties": {"next": {"type": "object"}}, "description": "The tree."}}})
        );
    }

    #[test]
    fn an_enum_of_numbers_is_strings_at_any_depth() {
        let schema = json!({"type": "object", "properties": {
            "level": {"type": ["integer", "null"], "enum": [1, 2, null]},
            "levels": {"type": "array", "items": {"type": "integer", "enum": [1, 2]}},
            "mixed": {"enum": ["a", 1.5, true]},
            "inner": {"$ref": "#/$defs/Inner"},
        }, "$defs": {"Inner": {"type": "object", "properties": {"code": {"type": "integer", "enum": [7, 9]}}}}});
        let out = gemini_schema(&schema, Locale::En);
        assert_eq!(out["properties"]["level"], json!({"type": "string", "nullable": true, "enum": ["1", "2"]}));
        assert_eq!(out["properties"]["levels"]["items"], json!({"type": "string", "enum": ["1", "2"]}));
        assert_eq!(out["properties"]["mixed"], json!({"enum": ["a", "1.5", "true"], "type": "string"}));
        assert_eq!(out["properties"]["inner"]["properties"]["code"], json!({"type": "string", "enum": ["7", "9"]}));
        // The former type's keywords go with it.
        let bounded =
            json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 2, "enum": [1, 2], "default": 2});
        assert_eq!(gemini_schema(&bounded, Locale::En), json!({"type": "string", "enum": ["1", "2"], "default": "2"}));
    }

    #[test]
    fn unsupported_constraints_are_described_or_rewritten() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
            "x": {"type": "number", "exclusiveMaximum": 1.5},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "site": {"type": "string", "format": "uri"},
            "scores": {"type": "object", "properties": {}, "additionalProperties": {"type": "integer"}},
        }});
        let out = gemini_schema(&schema, Locale::En);
        assert_eq!(
            out["properties"]["scores"],
            json!({"type": "object", "description": "Any keys, each value of type integer."})
        );
        assert_eq!(out["properties"]["n"], json!({"type": "integer", "minimum": 1, "description": "A multiple of 5."}));
        assert_eq!(out["properties"]["x"], json!({"type": "number", "description": "Less than 1.5."}));
        assert_eq!(out["properties"]["tags"]["description"], "Items must be unique.");
        assert_eq!(out["properties"]["site"], json!({"type": "string", "description": "Format: uri."}));
    }
}
