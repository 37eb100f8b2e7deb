//! Which JSON Schema keywords each family of dialects keeps, rewrites or drops — the one place
//! that says it. The table in the dialects guide is rendered from [`KEYWORDS`], and the strict and
//! Gemini projections read it.
//!
//! Three families: the JSON Schema dialects (`neutral`, `openai-chat`, `openai-responses`,
//! `anthropic`, `mcp`) send a schema as it is; the strict dialects (`openai-*-strict`) send the
//! subset OpenAI's structured outputs accept; `gemini` sends the OpenAPI subset of Gemini's
//! function declarations.

use crate::Locale;
use serde_json::Value;

/// What a family does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Treatment {
    /// Sent as it is.
    Keep,
    /// Sent in another form (the text says which).
    Rewrite(&'static str),
    /// Left out, and its meaning added to the schema's description for the model.
    Describe,
    /// Left out: it tells a model nothing it needs.
    Drop,
    /// Cannot be expressed: a strict dialect sends the tool's non-strict definition instead.
    Refuse,
}

/// One keyword's treatment in the strict and Gemini families (the JSON Schema family keeps all).
#[derive(Debug)]
pub(crate) struct Keyword {
    pub(crate) name: &'static str,
    pub(crate) strict: Treatment,
    pub(crate) gemini: Treatment,
}

const fn kw(name: &'static str, strict: Treatment, gemini: Treatment) -> Keyword {
    Keyword { name, strict, gemini }
}

use Treatment::{Describe, Drop, Keep, Refuse, Rewrite};

/// Every keyword a schema of toolhook's can hold, with what each family does with it. A keyword
/// not listed is dropped by the strict and Gemini families.
pub(crate) const KEYWORDS: &[Keyword] = &[
    kw(
        "type",
        Rewrite("a list of types: `null` in the list as strict nullability"),
        Rewrite("a list of types: one type with `nullable: true`, several as `anyOf`"),
    ),
    kw("description", Keep, Keep),
    kw("title", Keep, Keep),
    kw("properties", Keep, Keep),
    kw("required", Rewrite("every property, those that were optional made nullable"), Keep),
    kw(
        "additionalProperties",
        Rewrite("`false` on every object; a map is a list of key/value pairs, refused when its values may be any JSON"),
        Describe,
    ),
    kw("items", Keep, Keep),
    kw(
        "prefixItems",
        Rewrite("an array of exactly as many items, each of one of the positions' schemas"),
        Rewrite("an array of the items' common type, else of any item"),
    ),
    kw(
        "enum",
        Keep,
        Rewrite(
            "strings only: an enum of numbers or booleans is its values' compact JSON as strings, which the registry turns back into the values",
        ),
    ),
    kw("const", Rewrite("a one-value `enum`"), Rewrite("a one-value `enum`")),
    kw("anyOf", Keep, Keep),
    kw("oneOf", Rewrite("`anyOf`"), Rewrite("`anyOf`")),
    kw("allOf", Refuse, Drop),
    kw("not", Refuse, Drop),
    kw("if", Refuse, Drop),
    kw("then", Refuse, Drop),
    kw("else", Refuse, Drop),
    kw("$ref", Keep, Rewrite("inlined; a type referred to inside itself is an open object")),
    kw("$defs", Keep, Rewrite("inlined where referenced")),
    kw("default", Describe, Keep),
    kw(
        "format",
        Rewrite("kept for date-time, time, date, duration, email, hostname, ipv4, ipv6 and uuid; described otherwise"),
        Rewrite("kept for date-time on strings, int32/int64 on integers, float/double on numbers; described otherwise"),
    ),
    kw("pattern", Keep, Keep),
    kw("minLength", Describe, Keep),
    kw("maxLength", Describe, Keep),
    kw("minimum", Keep, Keep),
    kw("maximum", Keep, Keep),
    kw("exclusiveMinimum", Keep, Rewrite("`minimum` one above on integers; described on numbers")),
    kw("exclusiveMaximum", Keep, Rewrite("`maximum` one below on integers; described on numbers")),
    kw("multipleOf", Keep, Describe),
    kw("minItems", Keep, Keep),
    kw("maxItems", Keep, Keep),
    kw("uniqueItems", Describe, Describe),
    kw("minProperties", Describe, Keep),
    kw("maxProperties", Describe, Keep),
    kw("patternProperties", Refuse, Drop),
    kw("propertyNames", Drop, Drop),
    kw("dependentRequired", Refuse, Drop),
    kw("dependentSchemas", Refuse, Drop),
    kw("examples", Drop, Drop),
    kw("deprecated", Drop, Drop),
    kw("readOnly", Drop, Drop),
    kw("writeOnly", Drop, Drop),
    kw("$schema", Drop, Drop),
    kw("$id", Drop, Drop),
    kw("$comment", Drop, Drop),
];

/// Which family's column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Strict,
    Gemini,
}

/// What `family` does with `keyword`.
pub(crate) fn treatment(family: Family, keyword: &str) -> Treatment {
    match KEYWORDS.iter().find(|k| k.name == keyword) {
        Some(k) if family == Family::Strict => k.strict,
        Some(k) => k.gemini,
        None => Drop,
    }
}

/// The formats strict structured outputs accept on strings.
pub(crate) const STRICT_FORMATS: [&str; 9] =
    ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// The sentence that tells a model what a left-out keyword meant.
pub(crate) fn describe(keyword: &str, value: &Value, locale: Locale) -> Option<String> {
    let shown = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let zh = locale == Locale::ZhHans;
    Some(match keyword {
        "default" if zh => format!("默认值：{shown}。"),
        "default" => format!("Default: {shown}."),
        "minLength" if zh => format!("至少 {shown} 个字符。"),
        "minLength" if value == &Value::from(1) => "At least 1 character.".to_owned(),
        "minLength" => format!("At least {shown} characters."),
        "maxLength" if zh => format!("最多 {shown} 个字符。"),
        "maxLength" if value == &Value::from(1) => "At most 1 character.".to_owned(),
        "maxLength" => format!("At most {shown} characters."),
        "multipleOf" if zh => format!("须为 {shown} 的倍数。"),
        "multipleOf" => format!("A multiple of {shown}."),
        "exclusiveMinimum" if zh => format!("须大于 {shown}。"),
        "exclusiveMinimum" => format!("Greater than {shown}."),
        "exclusiveMaximum" if zh => format!("须小于 {shown}。"),
        "exclusiveMaximum" => format!("Less than {shown}."),
        "uniqueItems" if value != &Value::Bool(true) => return None,
        "uniqueItems" if zh => "各项不可重复。".to_owned(),
        "uniqueItems" => "Items must be unique.".to_owned(),
        "minProperties" if zh => format!("至少 {shown} 项。"),
        "minProperties" if value == &Value::from(1) => "At least 1 entry.".to_owned(),
        "minProperties" => format!("At least {shown} entries."),
        "maxProperties" if zh => format!("最多 {shown} 项。"),
        "maxProperties" if value == &Value::from(1) => "At most 1 entry.".to_owned(),
        "maxProperties" => format!("At most {shown} entries."),
        "format" if zh => format!("格式：{shown}。"),
        "format" => format!("Format: {shown}."),
        "enum" if zh => format!("取值之一：{}。", list(value, "、")),
        "enum" => format!("One of: {}.", list(value, ", ")),
        "additionalProperties" if zh => format!("键任意，值的类型：{}。", value_type(value)?),
        "additionalProperties" => format!("Any keys, each value of type {}.", value_type(value)?),
        _ => return None,
    })
}

/// The type of a map's values, when its schema names one.
fn value_type(schema: &Value) -> Option<String> {
    match schema.get("type")? {
        Value::String(t) => Some(t.clone()),
        other => Some(other.to_string()),
    }
}

fn list(value: &Value, separator: &str) -> String {
    let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
    items.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect::<Vec<_>>().join(separator)
}

/// Appends a sentence to a schema's description.
pub(crate) fn append_description(map: &mut serde_json::Map<String, Value>, sentence: &str) {
    let text = match map.get("description").and_then(Value::as_str).map(str::trim_end) {
        Some(own) if !own.is_empty() => format!("{own} {sentence}"),
        _ => sentence.to_owned(),
    };
    map.insert("description".into(), Value::from(text));
}

/// The table of the dialects guide, rendered from [`KEYWORDS`].
#[cfg(test)]
fn markdown_table() -> String {
    let cell = |t: Treatment| match t {
        Keep => "kept".to_owned(),
        Rewrite(how) => format!("rewritten: {how}"),
        Describe => "described".to_owned(),
        Drop => "dropped".to_owned(),
        Refuse => "refused (non-strict definition sent)".to_owned(),
    };
    let mut out = String::from("| keyword | JSON Schema dialects | strict dialects | gemini |\n|---|---|---|---|\n");
    for k in KEYWORDS {
        out.push_str(&format!("| `{}` | kept | {} | {} |\n", k.name, cell(k.strict), cell(k.gemini)));
    }
    out
}

#[cfg(test)]
mod tests {
    /// The guide's table is the table these projections use. To update the guide after a change
    /// here, run this test with `TOOLHOOK_WRITE_DOCS=1`.
    #[test]
    fn the_dialects_guide_shows_this_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/dialects.md");
        let guide = std::fs::read_to_string(path).unwrap();
        let marker = "<!-- keyword table: generated from the projection's own data; a test keeps it equal -->\n";
        let start = guide.find(marker).expect("the table's marker") + marker.len();
        let expected = format!("{}{}", &guide[..start], super::markdown_table());
        if std::env::var_os("TOOLHOOK_WRITE_DOCS").is_some() {
            std::fs::write(path, &expected).unwrap();
        }
        assert!(guide == expected, "docs/dialects.md is out of date: run this test with TOOLHOOK_WRITE_DOCS=1");
    }
}
