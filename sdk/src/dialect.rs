//! Tool definitions in the formats of the major model APIs.

use crate::{Locale, ToolSpec};
use serde_json::{Map, Value};
use std::fmt;
use std::str::FromStr;

/// A model API's format for tool definitions.
///
/// The names (serde, [`Display`](fmt::Display), [`FromStr`]) are the ones used on the command
/// line and in test vectors.
///
/// | dialect | shape |
/// |---|---|
/// | `neutral` | `{"name","description","parameters_schema"}` |
/// | `openai-chat` | `{"type":"function","function":{"name","description","parameters"}}` |
/// | `openai-chat-strict` | as above with a strict schema and `"strict": true` |
/// | `openai-responses` | `{"type":"function","name","description","parameters","strict":false}` |
/// | `openai-responses-strict` | as above with a strict schema and `"strict": true` |
/// | `anthropic` | `{"name","description","input_schema"}` |
/// | `gemini` | `{"name","description","parameters"}`, an OpenAPI-subset schema, `parameters` omitted without properties |
/// | `mcp` | `{"name","title"?,"description","inputSchema","outputSchema"?,"annotations"?,"icons"?}` |
///
/// A strict schema closes every object (`additionalProperties: false`), requires every property
/// and makes formerly optional ones nullable; a schema that cannot be made strict is a
/// [`ProjectionError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dialect {
    /// toolhook's own neutral form.
    #[serde(rename = "neutral")]
    Neutral,
    /// OpenAI Chat Completions.
    #[serde(rename = "openai-chat")]
    OpenAiChat,
    /// OpenAI Chat Completions with structured outputs (`strict: true`).
    #[serde(rename = "openai-chat-strict")]
    OpenAiChatStrict,
    /// OpenAI Responses, non-strict (that API defaults to strict, so `"strict": false` is sent).
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// OpenAI Responses, strict.
    #[serde(rename = "openai-responses-strict")]
    OpenAiResponsesStrict,
    /// Anthropic Messages.
    #[serde(rename = "anthropic")]
    Anthropic,
    /// Google Gemini function declarations.
    #[serde(rename = "gemini")]
    Gemini,
    /// Model Context Protocol `tools/list` entries.
    #[serde(rename = "mcp")]
    Mcp,
}

impl Dialect {
    /// Every dialect, in the order of the table above.
    pub const ALL: [Dialect; 8] = [
        Dialect::Neutral,
        Dialect::OpenAiChat,
        Dialect::OpenAiChatStrict,
        Dialect::OpenAiResponses,
        Dialect::OpenAiResponsesStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// The dialect's name, e.g. `"openai-chat"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Dialect::Neutral => "neutral",
            Dialect::OpenAiChat => "openai-chat",
            Dialect::OpenAiChatStrict => "openai-chat-strict",
            Dialect::OpenAiResponses => "openai-responses",
            Dialect::OpenAiResponsesStrict => "openai-responses-strict",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Mcp => "mcp",
        }
    }

    /// Whether the dialect sends strict schemas.
    pub const fn is_strict(self) -> bool {
        matches!(self, Dialect::OpenAiChatStrict | Dialect::OpenAiResponsesStrict)
    }

    /// The non-strict form of the same API (a strict dialect falls back to it for tools whose
    /// schema cannot be made strict).
    pub const fn non_strict(self) -> Dialect {
        match self {
            Dialect::OpenAiChatStrict => Dialect::OpenAiChat,
            Dialect::OpenAiResponsesStrict => Dialect::OpenAiResponses,
            other => other,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown dialect name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown dialect `{0}`; expected one of: neutral, openai-chat, openai-chat-strict, openai-responses, openai-responses-strict, anthropic, gemini, mcp"
)]
pub struct ParseDialectError(String);

impl FromStr for Dialect {
    type Err = ParseDialectError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|dialect| dialect.as_str() == s.trim())
            .ok_or_else(|| ParseDialectError(s.to_owned()))
    }
}

/// A schema that a dialect cannot express.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectionError {
    /// Strict mode needs closed objects; this one allows other properties.
    #[error("strict schemas need closed objects, but the object at `{path}` allows additional properties")]
    OpenObject {
        /// JSON Pointer of the object schema within the parameters schema.
        path: String,
    },
    /// Strict mode does not support this keyword.
    #[error("strict schemas do not support `{keyword}` (at `{path}`)")]
    Unsupported {
        /// The keyword.
        keyword: String,
        /// JSON Pointer of the schema holding it.
        path: String,
    },
}

pub(crate) fn project(
    spec: &ToolSpec,
    dialect: Dialect,
    locale: Locale,
    description: &str,
) -> Result<Value, ProjectionError> {
    let name = Value::from(spec.name());
    let description = Value::from(description);
    let schema = spec.parameters_schema_for(locale);
    let mut def = Map::new();
    match dialect {
        Dialect::Neutral => {
            def.insert("name".into(), name);
            def.insert("description".into(), description);
            def.insert("parameters_schema".into(), schema.clone());
        }
        Dialect::OpenAiChat | Dialect::OpenAiChatStrict => {
            let mut function = Map::new();
            function.insert("name".into(), name);
            function.insert("description".into(), description);
            if dialect.is_strict() {
                function.insert("parameters".into(), strict_schema(schema)?);
                function.insert("strict".into(), Value::Bool(true));
            } else {
                function.insert("parameters".into(), schema.clone());
            }
            def.insert("type".into(), Value::from("function"));
            def.insert("function".into(), Value::Object(function));
        }
        Dialect::OpenAiResponses | Dialect::OpenAiResponsesStrict => {
            def.insert("type".into(), Value::from("function"));
            def.insert("name".into(), name);
            def.insert("description".into(), description);
            let strict = dialect.is_strict();
            let parameters = if strict { strict_schema(schema)? } else { schema.clone() };
            def.insert("parameters".into(), parameters);
            def.insert("strict".into(), Value::Bool(strict));
        }
        Dialect::Anthropic => {
            def.insert("name".into(), name);
            def.insert("description".into(), description);
            def.insert("input_schema".into(), schema.clone());
        }
        Dialect::Gemini => {
            def.insert("name".into(), name);
            def.insert("description".into(), description);
            let has_properties = schema.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
            if has_properties {
                def.insert("parameters".into(), gemini_schema(schema));
            }
        }
        Dialect::Mcp => {
            def.insert("name".into(), name);
            if !spec.title().is_empty() {
                def.insert("title".into(), Value::from(spec.title()));
            }
            def.insert("description".into(), description);
            def.insert("inputSchema".into(), schema.clone());
            if let Some(output) = spec.output_schema() {
                def.insert("outputSchema".into(), output.clone());
            }
            let annotations = mcp_annotations(spec);
            if !annotations.is_empty() {
                def.insert("annotations".into(), Value::Object(annotations));
            }
            if !spec.icons().is_empty() {
                let icons = spec.icons().iter().map(|icon| {
                    let mut out = Map::new();
                    out.insert("src".into(), Value::from(icon.src.clone()));
                    if !icon.mime_type.is_empty() {
                        out.insert("mimeType".into(), Value::from(icon.mime_type.clone()));
                    }
                    if !icon.sizes.is_empty() {
                        out.insert("sizes".into(), Value::from(icon.sizes.clone()));
                    }
                    Value::Object(out)
                });
                def.insert("icons".into(), Value::Array(icons.collect()));
            }
        }
    }
    Ok(Value::Object(def))
}

fn mcp_annotations(spec: &ToolSpec) -> Map<String, Value> {
    let a = spec.annotation();
    let mut out = Map::new();
    if !a.title.is_empty() {
        out.insert("title".into(), Value::from(a.title.clone()));
    }
    let hints = [
        ("readOnlyHint", a.read_only),
        ("destructiveHint", a.destructive),
        ("idempotentHint", a.idempotent),
        ("openWorldHint", a.open_world),
    ];
    for (key, hint) in hints {
        if let Some(hint) = hint {
            out.insert(key.into(), Value::Bool(hint));
        }
    }
    out
}

/// Makes a schema acceptable to strict structured outputs.
pub(crate) fn strict_schema(schema: &Value) -> Result<Value, ProjectionError> {
    let mut out = schema.clone();
    strictify(&mut out, "")?;
    Ok(out)
}

const STRICT_UNSUPPORTED: [&str; 8] =
    ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties"];

fn is_object_schema(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => map.contains_key("properties"),
    }
}

fn strictify(schema: &mut Value, path: &str) -> Result<(), ProjectionError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if let Some(keyword) = STRICT_UNSUPPORTED.iter().find(|keyword| map.contains_key(**keyword)) {
        return Err(ProjectionError::Unsupported { keyword: (*keyword).to_owned(), path: pointer(path) });
    }
    map.remove("default");
    if let Some(branches) = map.remove("oneOf") {
        // `oneOf` → `anyOf`, keeping no particular slot (strict APIs only know `anyOf`).
        map.insert("anyOf".into(), branches);
    }
    if is_object_schema(map) {
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
                strictify(prop, &format!("{path}/properties/{}", escape_pointer(key)))?;
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
    for keyword in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = map.get_mut(keyword) {
            strictify(sub, &format!("{path}/{keyword}"))?;
        }
    }
    for keyword in ["anyOf", "prefixItems"] {
        if let Some(Value::Array(branches)) = map.get_mut(keyword) {
            for (i, branch) in branches.iter_mut().enumerate() {
                strictify(branch, &format!("{path}/{keyword}/{i}"))?;
            }
        }
    }
    for keyword in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = map.get_mut(keyword) {
            for (name, def) in defs.iter_mut() {
                strictify(def, &format!("{path}/{keyword}/{}", escape_pointer(name)))?;
            }
        }
    }
    Ok(())
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
            let inner = std::mem::take(map);
            let null = Value::Object(Map::from_iter([("type".to_owned(), Value::from("null"))]));
            map.insert("anyOf".into(), Value::Array(vec![Value::Object(inner), null]));
        }
    }
}

fn pointer(path: &str) -> String {
    if path.is_empty() { "/".to_owned() } else { path.to_owned() }
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Converts a JSON Schema to the OpenAPI subset Gemini accepts.
pub(crate) fn gemini_schema(schema: &Value) -> Value {
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut stack = Vec::new();
    geminify(schema, &defs, &mut stack)
}

const GEMINI_DROPPED: [&str; 9] = [
    "$defs",
    "definitions",
    "$schema",
    "$id",
    "$comment",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
];

fn geminify(schema: &Value, defs: &Map<String, Value>, stack: &mut Vec<String>) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference).to_owned();
        if stack.contains(&name) {
            return Value::Object(Map::from_iter([("type".to_owned(), Value::from("object"))]));
        }
        let Some(target) = defs.get(&name) else {
            return Value::Object(Map::from_iter([("type".to_owned(), Value::from("object"))]));
        };
        stack.push(name);
        let mut inlined = geminify(target, defs, stack);
        stack.pop();
        // Sibling keywords of the `$ref` (a description, say) are kept.
        if let Value::Object(inlined_map) = &mut inlined {
            for (key, value) in map {
                if key != "$ref" && !GEMINI_DROPPED.contains(&key.as_str()) {
                    inlined_map.insert(key.clone(), geminify(value, defs, stack));
                }
            }
        }
        return inlined;
    }
    let mut out = Map::new();
    let mut nullable = false;
    for (key, value) in map {
        if GEMINI_DROPPED.contains(&key.as_str()) {
            continue;
        }
        match key.as_str() {
            "type" => match value {
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
            "anyOf" | "oneOf" => {
                let branches: Vec<Value> =
                    value.as_array().map(|b| b.iter().map(|x| geminify(x, defs, stack)).collect()).unwrap_or_default();
                let is_null = |b: &Value| {
                    b.get("type") == Some(&Value::from("null")) && b.as_object().is_some_and(|m| m.len() == 1)
                };
                let non_null: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
                if branches.len() == 2 && non_null.len() == 1 {
                    nullable = true;
                    if let Value::Object(branch) = &non_null[0] {
                        for (k, v) in branch {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                } else {
                    out.insert("anyOf".into(), Value::Array(branches));
                }
            }
            "const" => {
                out.insert("enum".into(), Value::Array(vec![value.clone()]));
            }
            "properties" => {
                let props = value
                    .as_object()
                    .map(|p| p.iter().map(|(k, v)| (k.clone(), geminify(v, defs, stack))).collect())
                    .unwrap_or_default();
                out.insert("properties".into(), Value::Object(props));
            }
            "items" => {
                out.insert("items".into(), geminify(value, defs, stack));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if let Some(Value::Array(values)) = out.get("enum")
        && values.iter().any(|v| !v.is_string())
    {
        let strings =
            values.iter().map(|v| Value::from(v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect();
        out.insert("enum".into(), Value::Array(strings));
        out.insert("type".into(), Value::from("string"));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strict_closes_objects_and_makes_optional_properties_nullable() {
        let schema = json!({"type": "object", "properties": {
            "q": {"type": "string", "description": "query"},
            "n": {"type": "integer", "default": 5},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "any": {"description": "untyped"},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}, "required": []}},
        }, "required": ["q", "tags"]});
        assert_eq!(
            strict_schema(&schema).unwrap().to_string(),
            r#"{"type":"object","properties":{"q":{"type":"string","description":"query"},"n":{"type":["integer","null"]},"unit":{"type":["string","null"],"enum":["c","f",null]},"any":{"anyOf":[{"description":"untyped"},{"type":"null"}]},"tags":{"type":"array","items":{"type":"object","properties":{"k":{"type":["string","null"]}},"required":["k"],"additionalProperties":false}}},"required":["q","n","unit","any","tags"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn strict_rejects_open_objects_and_unsupported_keywords() {
        let open = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": true}}});
        assert_eq!(strict_schema(&open), Err(ProjectionError::OpenObject { path: "/properties/m".into() }));
        let all_of = json!({"type": "object", "properties": {"m": {"allOf": []}}});
        assert!(matches!(strict_schema(&all_of), Err(ProjectionError::Unsupported { .. })));
    }

    #[test]
    fn gemini_inlines_refs_and_rewrites_nullables_consts_and_enums() {
        let schema = json!({"type": "object", "properties": {
            "node": {"$ref": "#/$defs/Node"},
            "opt": {"type": ["string", "null"]},
            "multi": {"type": ["string", "integer"]},
            "either": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "k": {"const": "x"},
            "level": {"type": "integer", "enum": [1, 2]},
        }, "required": [], "additionalProperties": false,
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
        assert_eq!(
            gemini_schema(&schema).to_string(),
            r#"{"type":"object","properties":{"node":{"type":"object","properties":{"next":{"type":"object"}}},"opt":{"type":"string","nullable":true},"multi":{"anyOf":[{"type":"string"},{"type":"integer"}]},"either":{"type":"integer","nullable":true},"k":{"enum":["x"]},"level":{"type":"string","enum":["1","2"]}},"required":[]}"#
        );
    }
}
