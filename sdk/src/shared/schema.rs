//! The canonical parameters schema: from a parameter list, from the legacy dict
//! form, and the property layout Rust-typed parameters share with both.

use super::error::ToolSpecError;
use super::param::{ToolParamType, ToolParameterInfo};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// `{"type":"object","properties":{},"required":[]}`: the schema of a tool without parameters.
pub(crate) fn empty_object_schema() -> Value {
    object_schema(Map::new(), Vec::new())
}

/// `{"type":"object","properties":…,"required":[…]}`.
pub(crate) fn object_schema(properties: Map<String, Value>, required: Vec<Value>) -> Value {
    let mut schema = Map::with_capacity(3);
    schema.insert("type".into(), Value::from("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    Value::Object(schema)
}

/// The property schema of one listed parameter, keys in the order `type`, `description`, `enum`,
/// `default`, `items` (arrays), `properties`, `required`, `additionalProperties` (objects).
pub(crate) fn property_schema(param: &ToolParameterInfo) -> Value {
    let mut prop = Map::new();
    prop.insert("type".into(), Value::from(param.param_type.schema_type()));
    prop.insert("description".into(), Value::from(param.description.clone()));
    if let Some(values) = param.effective_enum() {
        prop.insert("enum".into(), Value::Array(values.to_vec()));
    }
    if let Some(default) = param.effective_default() {
        prop.insert("default".into(), default.clone());
    }
    match param.param_type {
        ToolParamType::Array => {
            if let Some(items) = &param.items_schema {
                prop.insert("items".into(), items.clone());
            }
        }
        ToolParamType::Object => {
            prop.insert("properties".into(), Value::Object(param.properties.clone().unwrap_or_default()));
            prop.insert("required".into(), param.required_properties.iter().cloned().map(Value::from).collect());
            if let Some(additional) = &param.additional_properties {
                prop.insert("additionalProperties".into(), additional.clone());
            }
        }
        _ => {}
    }
    Value::Object(prop)
}

/// The property schema of a Rust-typed parameter: the type's own schema `base` (already cleaned)
/// with the parameter's description, enum and default placed where a listed parameter has them
/// (`type`, `description`, `enum`, `default`, then the rest of `base` in its order). Without a
/// description of its own the parameter takes the type's, else `""`.
/// The `- value: doc` lines a documented enum's description ends with (see the schema cleaning
/// of Rust types), one per documented value.
pub(crate) fn variant_docs(base: &Map<String, Value>) -> Option<String> {
    let values = base.get("enum")?.as_array()?;
    let description = base.get("description")?.as_str()?;
    let lines: Vec<&str> = description.lines().filter(|line| value_doc(line, values).is_some()).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A `- value: doc` line of a documented enum's description, as `(value, doc)`, when `value` is
/// one of the enum's.
pub(crate) fn value_doc<'a>(line: &'a str, values: &[Value]) -> Option<(&'a str, &'a str)> {
    line.strip_prefix("- ")?.split_once(": ").filter(|(value, _)| values.iter().any(|v| v.as_str() == Some(*value)))
}

pub(crate) fn merge_property(
    base: &Value,
    description: Option<&str>,
    enum_values: Option<&[Value]>,
    default: Option<&Value>,
) -> Value {
    let empty = Map::new();
    let base = base.as_object().unwrap_or(&empty);
    let mut prop = Map::with_capacity(base.len() + 3);
    if let Some(ty) = base.get("type") {
        prop.insert("type".into(), ty.clone());
    }
    let description = match description {
        // The parameter's own text replaces the type's, but not the meaning of its values.
        Some(text) => match variant_docs(base) {
            Some(list) if text.trim().is_empty() => Value::from(list),
            Some(list) => Value::from(format!("{text}\n{list}")),
            None => Value::from(text),
        },
        None => base.get("description").cloned().unwrap_or_else(|| Value::from("")),
    };
    prop.insert("description".into(), description);
    match enum_values.filter(|values| !values.is_empty()) {
        Some(values) => {
            prop.insert("enum".into(), Value::Array(values.to_vec()));
        }
        None => {
            if let Some(values) = base.get("enum") {
                prop.insert("enum".into(), values.clone());
            }
        }
    }
    match default.filter(|value| !value.is_null()) {
        Some(value) => {
            prop.insert("default".into(), value.clone());
        }
        None => {
            if let Some(value) = base.get("default") {
                prop.insert("default".into(), value.clone());
            }
        }
    }
    for (key, value) in base {
        if !matches!(key.as_str(), "type" | "description" | "enum" | "default") {
            prop.insert(key.clone(), value.clone());
        }
    }
    Value::Object(prop)
}

/// Checks a parameter list and renders its canonical schema.
pub(crate) fn schema_from_list(tool: &str, params: &[ToolParameterInfo]) -> Result<Value, ToolSpecError> {
    let mut seen = HashSet::with_capacity(params.len());
    let mut properties = Map::with_capacity(params.len());
    let mut required = Vec::new();
    for param in params {
        check_parameter(tool, param)?;
        if !seen.insert(param.name.as_str()) {
            return Err(ToolSpecError::DuplicateParameter { tool: tool.to_owned(), parameter: param.name.clone() });
        }
        properties.insert(param.name.clone(), property_schema(param));
        if param.required {
            required.push(Value::from(param.name.clone()));
        }
    }
    Ok(object_schema(properties, required))
}

fn check_parameter(tool: &str, param: &ToolParameterInfo) -> Result<(), ToolSpecError> {
    let parameter = || param.name.clone();
    if param.name.trim().is_empty() {
        return Err(ToolSpecError::BlankParameterName { tool: tool.to_owned() });
    }
    if param.name.trim() != param.name {
        return Err(ToolSpecError::PaddedParameterName { tool: tool.to_owned(), parameter: parameter() });
    }
    match param.param_type {
        ToolParamType::Array => match &param.items_schema {
            None => {
                return Err(ToolSpecError::ArrayWithoutItems { tool: tool.to_owned(), parameter: parameter() });
            }
            Some(items) if !items.is_object() => {
                return Err(ToolSpecError::ItemsSchemaNotObject { tool: tool.to_owned(), parameter: parameter() });
            }
            Some(_) => {}
        },
        ToolParamType::Object => {
            if let Some(additional) = &param.additional_properties
                && !(additional.is_boolean() || additional.is_object())
            {
                return Err(ToolSpecError::BadAdditionalProperties { tool: tool.to_owned(), parameter: parameter() });
            }
        }
        _ => {}
    }
    Ok(())
}

/// Reads the legacy dict form: `{}`, a full object schema, or a map of parameter
/// name to property schema with a per-property `required` flag.
pub(crate) fn schema_from_raw(tool: &str, raw: &Value) -> Result<Value, ToolSpecError> {
    let Some(map) = raw.as_object() else {
        return Err(ToolSpecError::RawSchemaNotObject { tool: tool.to_owned() });
    };
    if map.is_empty() {
        return Ok(empty_object_schema());
    }
    let full_schema = match map.get("type") {
        None => map.contains_key("properties"),
        Some(Value::String(t)) if t == "object" => true,
        // A property named `type`: the dict is a property map.
        Some(Value::Object(_)) => false,
        Some(_) => {
            return Err(ToolSpecError::RawSchemaNotObjectType { tool: tool.to_owned() });
        }
    };
    let schema = if full_schema { full_schema_form(map) } else { property_map_form(map) };
    check_raw_arrays(tool, &schema)?;
    Ok(schema)
}

fn full_schema_form(map: &Map<String, Value>) -> Value {
    let mut schema = Map::with_capacity(map.len() + 3);
    if !map.contains_key("type") {
        schema.insert("type".into(), Value::from("object"));
    }
    for (key, value) in map {
        let value = match key.as_str() {
            "properties" if !value.is_object() => Value::Object(Map::new()),
            "required" if !value.is_array() => Value::Array(Vec::new()),
            _ => value.clone(),
        };
        schema.insert(key.clone(), value);
    }
    schema.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    schema.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    Value::Object(schema)
}

fn property_map_form(map: &Map<String, Value>) -> Value {
    let mut properties = Map::with_capacity(map.len());
    let mut required = Vec::new();
    for (name, value) in map {
        let Value::Object(prop) = value else { continue };
        let mut prop = prop.clone();
        if prop.shift_remove("required").is_some_and(|flag| super::py::is_truthy(&flag)) {
            required.push(Value::from(name.clone()));
        }
        properties.insert(name.clone(), Value::Object(prop));
    }
    object_schema(properties, required)
}

/// A top-level array property of a raw schema must say what its items are.
fn check_raw_arrays(tool: &str, schema: &Value) -> Result<(), ToolSpecError> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (name, prop) in properties {
        if prop.get("type").and_then(Value::as_str) == Some("array") && prop.get("items").is_none() {
            return Err(ToolSpecError::ArrayWithoutItems { tool: tool.to_owned(), parameter: name.clone() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }

    #[test]
    fn list_form_orders_keys_like_the_reference() {
        let params = vec![
            ToolParameterInfo::new("o", ToolParamType::Object)
                .description("filter")
                .additional_properties(false)
                .required_properties(["field"])
                .properties(json!({"field": {"type": "string"}}).as_object().unwrap().clone()),
            ToolParameterInfo::new("f", ToolParamType::Float).default(0.25).required(false),
        ];
        let schema = schema_from_list("t", &params).unwrap();
        assert_eq!(
            text(&schema),
            r#"{"type":"object","properties":{"o":{"type":"object","description":"filter","properties":{"field":{"type":"string"}},"required":["field"],"additionalProperties":false},"f":{"type":"number","description":"","default":0.25}},"required":["o"]}"#
        );
    }

    #[test]
    fn list_form_rejects_bad_names_and_arrays_without_items() {
        let blank = [ToolParameterInfo::new(" ", ToolParamType::String)];
        assert!(matches!(schema_from_list("t", &blank), Err(ToolSpecError::BlankParameterName { .. })));
        let padded = [ToolParameterInfo::new(" a", ToolParamType::String)];
        assert!(matches!(schema_from_list("t", &padded), Err(ToolSpecError::PaddedParameterName { .. })));
        let twice =
            [ToolParameterInfo::new("a", ToolParamType::String), ToolParameterInfo::new("a", ToolParamType::Integer)];
        assert!(matches!(schema_from_list("t", &twice), Err(ToolSpecError::DuplicateParameter { .. })));
        let array = [ToolParameterInfo::new("a", ToolParamType::Array)];
        assert!(matches!(schema_from_list("t", &array), Err(ToolSpecError::ArrayWithoutItems { .. })));
        let items = [ToolParameterInfo::new("a", ToolParamType::Array).items_schema(json!("string"))];
        assert!(matches!(schema_from_list("t", &items), Err(ToolSpecError::ItemsSchemaNotObject { .. })));
        let extra = [ToolParameterInfo::new("a", ToolParamType::Object).additional_properties(3)];
        assert!(matches!(schema_from_list("t", &extra), Err(ToolSpecError::BadAdditionalProperties { .. })));
    }

    #[test]
    fn raw_full_schema_is_completed_in_place() {
        let raw = json!({"required": "q", "properties": {"q": {"type": "string"}}});
        assert_eq!(
            text(&schema_from_raw("t", &raw).unwrap()),
            r#"{"type":"object","required":[],"properties":{"q":{"type":"string"}}}"#
        );
        let bare = json!({"type": "object"});
        assert_eq!(text(&schema_from_raw("t", &bare).unwrap()), r#"{"type":"object","properties":{},"required":[]}"#);
    }

    #[test]
    fn raw_property_map_reads_required_flags() {
        let raw = json!({"type": {"type": "string", "required": 1}, "n": {"type": "float"}, "junk": 5});
        assert_eq!(
            text(&schema_from_raw("t", &raw).unwrap()),
            r#"{"type":"object","properties":{"type":{"type":"string"},"n":{"type":"float"}},"required":["type"]}"#
        );
        // The flag is taken out without reordering the keys around it.
        let raw = json!({"q": {"required": true, "type": "string", "description": "d", "default": "x"}});
        assert_eq!(
            text(&schema_from_raw("t", &raw).unwrap()),
            r#"{"type":"object","properties":{"q":{"type":"string","description":"d","default":"x"}},"required":["q"]}"#
        );
    }

    #[test]
    fn raw_rejects_non_objects_and_untyped_arrays() {
        assert!(schema_from_raw("t", &json!([1])).is_err());
        assert!(schema_from_raw("t", &json!({"type": "array"})).is_err());
        assert!(schema_from_raw("t", &json!({"a": {"type": "array"}})).is_err());
        assert!(schema_from_raw("t", &json!({"a": {"type": "array", "items": {}}})).is_ok());
    }

    #[test]
    fn merged_property_puts_parameter_parts_first() {
        let base = json!({"description": "type doc", "type": "object", "properties": {}, "required": []});
        assert_eq!(
            text(&merge_property(&base, None, None, None)),
            r#"{"type":"object","description":"type doc","properties":{},"required":[]}"#
        );
        assert_eq!(
            text(&merge_property(&json!({"type": "string", "enum": ["a"]}), Some("d"), None, Some(&json!("a")))),
            r#"{"type":"string","description":"d","enum":["a"],"default":"a"}"#
        );
    }
}
