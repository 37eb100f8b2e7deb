//! Tool definitions in the formats of the major model APIs.

mod gemini;
pub(crate) mod keywords;
mod strict;

use crate::{Locale, ToolSpec};
use gemini::gemini_schema;
use serde_json::{Map, Value};
use std::fmt;
use std::str::FromStr;
use strict::strict_schema;

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
/// [`ProjectionError`] (a host then sends the tool's non-strict definition). Which JSON Schema
/// keywords each dialect keeps, rewrites, describes or drops is the table of the
/// [dialects guide](crate::guides::dialects).
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
        /// JSON Pointer of the object schema within the parameters schema (`/` for the root).
        path: String,
    },
    /// Strict mode does not support this keyword.
    #[error("strict schemas do not support `{keyword}` (at `{path}`)")]
    Unsupported {
        /// The keyword.
        keyword: String,
        /// JSON Pointer of the schema holding it (`/` for the root).
        path: String,
    },
}

/// [`project`] as JSON text appended to `out`, the same bytes as serialising its value: the
/// dialects that take the parameters schema as it is are written directly (the schema as its
/// compile-time text when it has one), the others projected and serialised. Writes nothing on
/// `Err`.
pub(crate) fn write(
    spec: &ToolSpec,
    out: &mut Vec<u8>,
    name: &str,
    dialect: Dialect,
    locale: Locale,
    description: &str,
) -> Result<(), ProjectionError> {
    // Each shape: what comes before the name, the key of the schema, and what closes it.
    let (open, schema_key, close) = match dialect {
        Dialect::Neutral => ("{", "parameters_schema", "}"),
        Dialect::OpenAiChat => (r#"{"type":"function","function":{"#, "parameters", "}}"),
        Dialect::OpenAiResponses => (r#"{"type":"function","#, "parameters", r#","strict":false}"#),
        Dialect::Anthropic => ("{", "input_schema", "}"),
        _ => {
            let definition = project(spec, name, dialect, locale, description)?;
            put(out, &definition);
            return Ok(());
        }
    };
    out.extend_from_slice(open.as_bytes());
    out.extend_from_slice(br#""name":"#);
    put(out, name);
    out.extend_from_slice(br#","description":"#);
    put(out, description);
    out.push(b',');
    put(out, schema_key);
    out.push(b':');
    match spec.parameters_schema_text_for(locale) {
        Some(text) => out.extend_from_slice(text.as_bytes()),
        None => put(out, spec.parameters_schema_for(locale)),
    }
    out.extend_from_slice(close.as_bytes());
    Ok(())
}

/// Appends `value` as compact JSON. This cannot fail: a `Vec`'s writes never do, and what is
/// written here (strings, `Value`s, whose keys are strings) always serialises.
fn put(out: &mut Vec<u8>, value: &(impl serde::Serialize + ?Sized)) {
    let _ = serde_json::to_writer(out, value);
}

pub(crate) fn project(
    spec: &ToolSpec,
    name: &str,
    dialect: Dialect,
    locale: Locale,
    description: &str,
) -> Result<Value, ProjectionError> {
    let name = Value::from(name);
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
                function.insert("parameters".into(), strict_schema(schema, locale)?);
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
            let parameters = if strict { strict_schema(schema, locale)? } else { schema.clone() };
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
                def.insert("parameters".into(), gemini_schema(schema, locale));
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
