//! Validation of a blocking handler's changed arguments against the hook's schema:
//! `type`, `enum`, `items`, `properties`, `required` and `additionalProperties`; the first
//! violation wins.

use serde_json::{Map, Value};
use toolhook::__private::json_type;
use toolhook::Locale;

/// The first value of the candidate that breaks the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    /// `key`, `key.sub`, `key[i]`.
    pub(crate) path: String,
    pub(crate) reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    Missing,
    Type { expected: Vec<String>, actual: &'static str },
    Enum,
    Extra,
}

impl Violation {
    /// `{path}: {reason}` in `locale`.
    pub(crate) fn message(&self, locale: Locale) -> String {
        let reason = match (&self.reason, locale) {
            (Reason::Missing, _) => locale.pick("missing required field", "缺少必填字段").to_owned(),
            (Reason::Type { expected, actual }, Locale::En) => {
                format!("expected {}, got {actual}", expected.join(" or "))
            }
            (Reason::Type { expected, actual }, Locale::ZhHans) => {
                format!("应为 {}，实际为 {actual}", expected.join("或"))
            }
            (Reason::Enum, _) => {
                locale.pick("value is not one of the allowed values", "不在允许的取值范围内").to_owned()
            }
            (Reason::Extra, _) => locale.pick("unexpected field", "不允许的字段").to_owned(),
        };
        format!("{}: {reason}", self.path)
    }
}

/// Checks `candidate` against an object `schema`.
pub(crate) fn validate(schema: &Value, candidate: &Map<String, Value>) -> Result<(), Violation> {
    match schema {
        Value::Object(schema) => check_object(schema, candidate, ""),
        _ => Ok(()),
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") }
}

fn check_object(schema: &Map<String, Value>, object: &Map<String, Value>, prefix: &str) -> Result<(), Violation> {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    for name in &required {
        if !object.contains_key(*name) {
            return Err(Violation { path: join(prefix, name), reason: Reason::Missing });
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, property) in properties.into_iter().flatten() {
        match object.get(name) {
            None => {}
            Some(Value::Null) if !required.contains(&name.as_str()) => {}
            Some(value) => check_value(property, value, &join(prefix, name))?,
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        for key in object.keys() {
            if !properties.is_some_and(|p| p.contains_key(key)) {
                return Err(Violation { path: join(prefix, key), reason: Reason::Extra });
            }
        }
    }
    Ok(())
}

fn check_value(schema: &Value, value: &Value, path: &str) -> Result<(), Violation> {
    let Value::Object(schema) = schema else { return Ok(()) };
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(name) => vec![name.as_str()],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.is_empty() && !names.iter().any(|name| type_matches(name, value)) {
            return Err(Violation {
                path: path.to_owned(),
                reason: Reason::Type {
                    expected: names.iter().map(|n| (*n).to_owned()).collect(),
                    actual: json_type(value),
                },
            });
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum")
        && !allowed.iter().any(|a| json_equal(a, value))
    {
        return Err(Violation { path: path.to_owned(), reason: Reason::Enum });
    }
    if let (Some(items), Value::Array(elements)) = (schema.get("items"), value) {
        for (i, element) in elements.iter().enumerate() {
            check_value(items, element, &format!("{path}[{i}]"))?;
        }
    }
    if let Value::Object(object) = value
        && ["properties", "required", "additionalProperties"].iter().any(|k| schema.contains_key(*k))
    {
        check_object(schema, object, path)?;
    }
    Ok(())
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
            }
            _ => false,
        },
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        // A type name JSON Schema does not define constrains nothing.
        _ => true,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, candidate: Value) -> Result<(), String> {
        validate(&schema, candidate.as_object().unwrap()).map_err(|v| v.message(Locale::En))
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "message": {"type": "object"},
                "mode": {"type": "string", "enum": ["normal", "deep"]},
                "ids": {"type": "array", "items": {"type": "integer"}},
                "nested": {"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "boolean"}}, "required": ["a"], "additionalProperties": false},
                "note": {"type": "string"}
            },
            "required": ["message"]
        })
    }

    #[test]
    fn required_fields_come_first() {
        assert_eq!(check(schema(), json!({"mode": 5})), Err("message: missing required field".into()));
    }

    #[test]
    fn properties_are_checked_in_schema_order() {
        assert_eq!(
            check(schema(), json!({"ids": ["x"], "message": 5})),
            Err("message: expected object, got integer".into())
        );
        assert_eq!(
            check(schema(), json!({"message": {}, "ids": [1, 2.0, 2.5]})),
            Err("ids[2]: expected integer, got number".into())
        );
        assert_eq!(
            check(schema(), json!({"message": {}, "mode": "shallow"})),
            Err("mode: value is not one of the allowed values".into())
        );
    }

    #[test]
    fn optional_nulls_pass_at_every_level() {
        assert_eq!(check(schema(), json!({"message": {}, "note": null, "nested": {"a": null, "b": null}})), Ok(()));
        assert_eq!(
            check(json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}), json!({"a": null})),
            Err("a: expected string, got null".into())
        );
    }

    #[test]
    fn nested_objects_and_additional_properties() {
        assert_eq!(
            check(schema(), json!({"message": {}, "nested": {}})),
            Err("nested.a: missing required field".into())
        );
        assert_eq!(
            check(schema(), json!({"message": {}, "nested": {"a": "x", "zz": 1}})),
            Err("nested.zz: unexpected field".into())
        );
        assert_eq!(check(schema(), json!({"message": {}, "extra": true})), Ok(()));
    }

    #[test]
    fn type_lists_are_joined_in_both_locales() {
        let schema = json!({"properties": {"a": {"type": ["string", "integer"]}}});
        let violation = validate(&schema, json!({"a": true}).as_object().unwrap()).unwrap_err();
        assert_eq!(violation.message(Locale::En), "a: expected string or integer, got boolean");
        assert_eq!(violation.message(Locale::ZhHans), "a: 应为 string或integer，实际为 boolean");
    }
}
