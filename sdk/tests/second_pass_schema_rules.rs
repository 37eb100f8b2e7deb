//! A second, independent pass over parameters → JSON Schema (builder parameter forms, the legacy
//! dict form, `#[tool]` signatures with std containers, options, maps, enums and user types with
//! serde attributes), every dialect's projection of that schema (strict, Gemini, plain), and the
//! generated English and Simplified Chinese parameter docs, at the corners earlier passes left open.
//! Texts and schemas whose key order a rule fixes are compared as serialised text; keys a
//! projection adds or rewrites, whose place no rule fixes, are compared as values.

use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, VecDeque};
use toolhook::{
    Dialect, Locale, ProjectionError, ToolAnnotation, ToolIcon, ToolParamType as T, ToolParameterInfo as P, ToolSpec,
    schemars, serde, tool,
};

// ---- helpers ------------------------------------------------------------------------------------

#[path = "common/specs.rs"]
#[allow(dead_code)]
mod specs;
use specs::{declared, docs, listed, map, raw, text};

fn schema_text(spec: &ToolSpec) -> String {
    text(spec.parameters_schema())
}

fn definition(spec: &ToolSpec, dialect: Dialect) -> Value {
    spec.llm_definition(dialect, Locale::En).unwrap_or_else(|e| panic!("{dialect}: {e}"))
}

/// The parameters schema a dialect sends.
fn sent(spec: &ToolSpec, dialect: Dialect) -> Value {
    let def = definition(spec, dialect);
    match dialect {
        Dialect::Neutral => def["parameters_schema"].clone(),
        Dialect::OpenAiChat | Dialect::OpenAiChatStrict => def["function"]["parameters"].clone(),
        Dialect::Anthropic => def["input_schema"].clone(),
        Dialect::Mcp => def["inputSchema"].clone(),
        _ => def["parameters"].clone(),
    }
}

fn strict(spec: &ToolSpec) -> Value {
    let chat = sent(spec, Dialect::OpenAiChatStrict);
    assert_eq!(chat, sent(spec, Dialect::OpenAiResponsesStrict), "both strict forms send one schema");
    chat
}

fn gemini(spec: &ToolSpec) -> Value {
    sent(spec, Dialect::Gemini)
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap_or_else(|| panic!("an object: {value}")).keys().map(String::as_str).collect()
}

/// The `required` list as a sorted set.
fn required_set(schema: &Value) -> Vec<String> {
    let mut names: Vec<String> = schema["required"]
        .as_array()
        .unwrap_or_else(|| panic!("a required list: {schema}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
    names.sort();
    names
}

/// Every key of every object anywhere in `value` (property names included).
fn all_keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                out.push(key.clone());
                all_keys(inner, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|inner| all_keys(inner, out)),
        _ => {}
    }
}

fn has_key(value: &Value, key: &str) -> bool {
    let mut found = Vec::new();
    all_keys(value, &mut found);
    found.iter().any(|k| k == key)
}

fn unsupported_keyword(spec: &ToolSpec, dialect: Dialect) -> String {
    match spec.llm_definition(dialect, Locale::En) {
        Err(ProjectionError::Unsupported { keyword, .. }) => keyword,
        other => panic!("{dialect}: expected an unsupported keyword, got {other:?}"),
    }
}

fn is_open_object(spec: &ToolSpec, dialect: Dialect) -> bool {
    matches!(spec.llm_definition(dialect, Locale::En), Err(ProjectionError::OpenObject { .. }))
}

// ---- canonical schema and docs from a parameter list --------------------------------------------

// "`ToolParamType` … schema type: `Float` → `"number"`"; the block's type is the schema's
// `type` string.
#[test]
fn a_float_parameter_is_a_number_in_the_schema_and_the_docs() {
    let spec = listed("ratio", vec![P::new("ratio", T::Float).description("Ratio").default(0.5).required(false)]);
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"ratio":{"type":"number","description":"Ratio","default":0.5}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- ratio: number, optional. Ratio. Default: 0.5");
    assert_eq!(zh, "参数说明：\n- ratio：number，可选。Ratio 默认值：0.5。");
}

// "Fields meant for another type are ignored": `items_schema` is "arrays only", `properties`,
// `required_properties` and `additional_properties` are "objects only".
#[test]
fn fields_meant_for_another_type_are_ignored() {
    let object_fields = |p: P| {
        p.properties(map(json!({"k": {"type": "string"}}))).required_properties(["k"]).additional_properties(false)
    };
    let spec = listed(
        "ignored",
        vec![
            object_fields(P::new("s", T::String).description("S").items_schema(json!({"type": "string"}))),
            object_fields(P::new("a", T::Array).description("A").items_schema(json!({"type": "integer"}))),
            P::new("o", T::Object).description("O").items_schema(json!({"type": "string"})),
            object_fields(P::new("n", T::Integer).description("N").items_schema(json!({"type": "string"}))),
        ],
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"s":{"type":"string","description":"S"},"a":{"type":"array","description":"A","items":{"type":"integer"}},"o":{"type":"object","description":"O","properties":{},"required":[]},"n":{"type":"integer","description":"N"}},"required":["s","a","o","n"]}"#
    );
}

// "`default` | … | JSON `null` = none" — only `null`: other falsy defaults are set, so they are in
// the schema and "**default** part iff the `default` key exists"; values zh-Hans PyStr (`False`),
// English compact JSON.
#[test]
fn falsy_defaults_other_than_null_are_kept_and_shown() {
    let spec = listed(
        "falsy_defaults",
        vec![
            P::new("flag", T::Boolean).description("Flag").default(false).required(false),
            P::new("count", T::Integer).description("Count").default(0).required(false),
            P::new("list", T::Array)
                .description("List")
                .items_schema(json!({"type": "string"}))
                .default(json!([]))
                .required(false),
            P::new("bag", T::Object).description("Bag").default(json!({})).required(false),
        ],
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"flag":{"type":"boolean","description":"Flag","default":false},"count":{"type":"integer","description":"Count","default":0},"list":{"type":"array","description":"List","default":[],"items":{"type":"string"}},"bag":{"type":"object","description":"Bag","default":{},"properties":{},"required":[]}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- flag：boolean，可选。Flag 默认值：False。\n- count：integer，可选。Count 默认值：0。\n- list：array，可选。List 默认值：[]。\n- bag：object，可选。Bag 默认值：{}。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- flag: boolean, optional. Flag. Default: false\n- count: integer, optional. Count. Default: 0\n- list: array, optional. List. Default: []\n- bag: object, optional. Bag. Default: {}"
    );
}

// values: zh-Hans "PyStr (… `""` prints nothing)", English "strings bare, `""` as `""`" — for the
// enum part as for the default part.
#[test]
fn an_empty_string_among_the_allowed_values_prints_nothing_in_zh_and_quotes_in_english() {
    let spec = listed(
        "empty_choice",
        vec![P::new("sep", T::String).description("Separator").enum_values(["", "x"]).default("").required(false)],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(zh, "参数说明：\n- sep：string，可选。Separator 可选值：、x。 默认值：。");
    assert_eq!(en, "Parameter details:\n- sep: string, optional. Separator. Allowed values: \"\", x. Default: \"\"");
}

// English desc: "trimmed, one trailing `.` removed, trimmed"; zh-Hans: trimmed, "nothing appended"
// nor removed.
#[test]
fn english_removes_exactly_one_trailing_ascii_full_stop() {
    let spec = listed(
        "stops",
        vec![
            P::new("a", T::String).description("Wait..."),
            P::new("b", T::String).description("Done. "),
            P::new("c", T::String).description("Ends . "),
            P::new("d", T::String).description("完成。"),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- a: string, required. Wait..\n- b: string, required. Done\n- c: string, required. Ends\n- d: string, required. 完成。"
    );
    assert_eq!(
        zh,
        "参数说明：\n- a：string，必填。Wait...\n- b：string，必填。Done.\n- c：string，必填。Ends .\n- d：string，必填。完成。"
    );
}

// ---- the legacy dict form and its docs ----------------------------------------------------------

// "**default** part iff the `default` key exists (even `null`)": the dict form copies a `null`
// default, shown as PyStr `None` / compact JSON `null`.
#[test]
fn a_null_default_in_a_raw_schema_is_shown_as_none_and_null() {
    let input = json!({"type": "object", "properties": {"x": {"type": "string", "description": "D", "default": null}}, "required": []});
    let spec = raw("null_default", input.clone());
    assert_eq!(schema_text(&spec), text(&input));
    let [en, zh] = docs(&spec);
    assert_eq!(zh, "参数说明：\n- x：string，可选。D 默认值：None。");
    assert_eq!(en, "Parameter details:\n- x: string, optional. D. Default: null");
}

// "**type** = string `type` trimmed and lowercased, `string` when missing, falsy or blank, any
// other value rendered (PyStr / compact JSON) and lowercased (no float→number here: raw `"float"`
// prints `float`)"; "Property values are not type-mapped".
#[test]
fn raw_types_are_trimmed_lowercased_or_rendered_and_never_mapped() {
    let input = json!({
        "type": "object",
        "properties": {
            "a": {"type": "  INTEGER "},
            "b": {"type": "float"},
            "c": {"type": "   "},
            "d": {"type": ["String", null]},
        },
        "required": [],
    });
    let spec = raw("odd_types", input.clone());
    assert_eq!(schema_text(&spec), text(&input));
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：integer，可选。无额外说明\n- b：float，可选。无额外说明\n- c：string，可选。无额外说明\n- d：['string', none]，可选。无额外说明"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: integer, optional. No description\n- b: float, optional. No description\n- c: string, optional. No description\n- d: [\"string\",null], optional. No description"
    );
}

// desc: zh-Hans "PyStr of `description`", English "the string (non-strings compact JSON …)".
#[test]
fn non_string_descriptions_render_as_python_and_as_compact_json() {
    let spec = raw(
        "odd_descriptions",
        json!({
            "a": {"description": true},
            "b": {"description": ["a", 1]},
            "c": {"description": {"k": "v"}},
            "d": {"description": 2.0},
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：string，可选。True\n- b：string，可选。['a', 1]\n- c：string，可选。{'k': 'v'}\n- d：string，可选。2.0"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: string, optional. true\n- b: string, optional. [\"a\",1]\n- c: string, optional. {\"k\":\"v\"}\n- d: string, optional. 2.0"
    );
}

// "**enum** part iff `enum` is a non-empty array".
#[test]
fn an_enum_that_is_empty_or_not_an_array_has_no_part() {
    let spec = raw(
        "odd_enums",
        json!({
            "a": {"type": "string", "enum": []},
            "b": {"type": "string", "enum": "abc"},
            "c": {"type": "string", "enum": {"x": 1}},
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：string，可选。无额外说明\n- b：string，可选。无额外说明\n- c：string，可选。无额外说明"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: string, optional. No description\n- b: string, optional. No description\n- c: string, optional. No description"
    );
}

// Property map: "non-object values skipped; each property loses its `required` key, and the name
// is required when that value was truthy" (truthiness: "everything else is truthy").
#[test]
fn a_property_map_reads_its_required_flags_by_truthiness() {
    let spec = raw(
        "flags",
        json!({
            "a": {"type": "string", "required": "yes"},
            "b": {"type": "string", "required": 0},
            "c": {"type": "string", "required": ""},
            "d": {"type": "string", "required": {"x": 1}},
            "e": "not a schema",
            "f": {"type": "string", "required": 0.5},
            "g": {"type": "string"},
        }),
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"f":{"type":"string"},"g":{"type":"string"}},"required":["a","d","f"]}"#
    );
    let [en, _] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- a: string, required. No description\n- b: string, optional. No description\n- c: string, optional. No description\n- d: string, required. No description\n- f: string, required. No description\n- g: string, optional. No description"
    );
}

// "one line per top-level property in schema order (non-object values skipped)"; the block comes
// "if the schema has at least one object-valued property".
#[test]
fn the_block_skips_non_object_properties_of_a_full_schema() {
    let input = json!({
        "type": "object",
        "properties": {"a": "text", "b": {"type": "integer", "description": "B"}, "c": null, "d": [1]},
        "required": ["b"],
    });
    let spec = raw("mixed_props", input.clone());
    assert_eq!(schema_text(&spec), text(&input));
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- b: integer, required. B");
    assert_eq!(zh, "参数说明：\n- b：integer，必填。B");
}

// "**author text**: `detailed_description` …; trimmed"; "author text starting with `参数说明：` or
// `Parameter details:` is used as is in both locales"; otherwise "the locale's block, then one
// blank line and the author text".
#[test]
fn only_author_text_that_starts_with_a_header_after_trimming_replaces_the_block() {
    let x = || vec![P::new("x", T::String).description("X")];
    let spec = ToolSpec::builder("own_block")
        .brief_description("Brief.")
        .detailed_description("\n  Parameter details:\n- x: custom  ")
        .parameters(x())
        .build()
        .unwrap();
    assert_eq!(docs(&spec), ["Parameter details:\n- x: custom", "Parameter details:\n- x: custom"]);
    let spec = ToolSpec::builder("later_header")
        .brief_description("Brief.")
        .detailed_description("See below.\n参数说明：x")
        .parameters(x())
        .build()
        .unwrap();
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- x: string, required. X\n\nSee below.\n参数说明：x");
    assert_eq!(zh, "参数说明：\n- x：string，必填。X\n\nSee below.\n参数说明：x");
}

// ---- strict projections -------------------------------------------------------------------------

// strict(S): "`required` lists every property; a formerly optional property becomes nullable" —
// optional means absent from `required`, whatever order `required` is written in.
#[test]
fn strict_nullability_follows_required_membership_not_position() {
    let spec = raw(
        "membership",
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}},
            "required": ["c", "a"],
        }),
    );
    let s = strict(&spec);
    assert_eq!(s["properties"]["a"], json!({"type": "string"}));
    assert_eq!(s["properties"]["b"], json!({"type": ["string", "null"]}));
    assert_eq!(s["properties"]["c"], json!({"type": "string"}));
    assert_eq!(keys(&s["properties"]), ["a", "b", "c"]);
    assert_eq!(required_set(&s), sorted(&["a", "b", "c"]));
    assert_eq!(s["additionalProperties"], json!(false));
}

// "no type → `{"anyOf":[p,{"type":"null"}]}`": an optional union without a `type` is wrapped
// whole, its own `anyOf` kept inside.
#[test]
fn strict_wraps_an_optional_untyped_union_whole() {
    let spec = raw(
        "optional_union",
        json!({
            "type": "object",
            "properties": {"x": {"description": "X", "anyOf": [{"type": "string"}, {"type": "integer"}]}},
            "required": [],
        }),
    );
    assert_eq!(
        strict(&spec)["properties"]["x"],
        json!({"anyOf": [{"description": "X", "anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]})
    );
}

// strict(S) "on every subschema": an optional array becomes `["array","null"]` while its item
// objects are closed, fully required and their optional fields nullable.
#[test]
fn strict_makes_an_optional_array_nullable_and_closes_its_item_objects() {
    let spec = listed(
        "rows",
        vec![
            P::new("rows", T::Array)
                .description("Rows")
                .items_schema(json!({
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}},
                    "required": ["id"],
                }))
                .required(false),
        ],
    );
    assert_eq!(
        strict(&spec),
        json!({
            "type": "object",
            "properties": {"rows": {
                "type": ["array", "null"],
                "description": "Rows",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "tag": {"type": ["string", "null"]}},
                    "required": ["id", "tag"],
                    "additionalProperties": false,
                },
            }},
            "required": ["rows"],
            "additionalProperties": false,
        })
    );
}

// "object schemas get `additionalProperties: false`": also an object without `properties`, and
// one already closed is no open object.
#[test]
fn strict_closes_objects_without_properties_and_accepts_closed_ones() {
    let spec = raw(
        "bags",
        json!({
            "type": "object",
            "properties": {
                "bag": {"type": "object", "description": "Bag"},
                "closed": {"type": "object", "properties": {}, "additionalProperties": false},
            },
            "required": ["bag", "closed"],
        }),
    );
    let s = strict(&spec);
    assert_eq!(s["properties"]["bag"]["additionalProperties"], json!(false), "{s}");
    assert_eq!(s["properties"]["bag"]["type"], "object", "{s}");
    assert_eq!(s["properties"]["closed"]["additionalProperties"], json!(false), "{s}");
}

// "an object with `true` … there → `ProjectionError::OpenObject { path }`", at any depth (inside
// items, inside a nested object); the non-strict dialects send it.
#[test]
fn strict_rejects_objects_left_open_at_depth() {
    let nested = listed(
        "open_inner",
        vec![
            P::new("opts", T::Object)
                .description("Opts")
                .properties(map(json!({"inner": {"type": "object", "properties": {}, "additionalProperties": true}}))),
        ],
    );
    let in_items = listed(
        "open_rows",
        vec![P::new("rows", T::Array).description("Rows").items_schema(json!({
            "type": "object",
            "properties": {},
            "additionalProperties": true,
        }))],
    );
    for spec in [&nested, &in_items] {
        for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
            assert!(is_open_object(spec, dialect), "{}: {dialect}", spec.name());
        }
        for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Neutral] {
            assert_eq!(text(&sent(spec, dialect)), schema_text(spec), "{}: {dialect}", spec.name());
        }
    }
}

/// Counts words.
#[tool]
fn count_words(
    /// Counts per word.
    counts: HashMap<String, u32>,
) {
    let _ = counts;
}

/// Stores a document.
#[tool]
fn store_document(
    /// The document.
    doc: Option<serde_json::Value>,
) {
    let _ = doc;
}

// `serde_json::Value`: "`properties: {}`, `required: []`, `additionalProperties: true`" — an open
// object, which strict(S) cannot express: "an object with `true` … → `ProjectionError::OpenObject`".
#[test]
fn a_json_value_parameter_cannot_be_made_strict() {
    let spec = declared("store_document");
    for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
        assert!(is_open_object(&spec, dialect), "{dialect}");
    }
    assert!(spec.llm_definition(Dialect::Anthropic, Locale::En).is_ok());
    assert_eq!(
        schema_text(&declared("store_document")),
        r#"{"type":"object","properties":{"doc":{"type":"object","description":"The document.","properties":{},"required":[],"additionalProperties":true}},"required":[]}"#
    );
}

/// Searches.
#[tool]
fn strict_search(
    /// Q
    q: String,
    /// Limit
    limit: Option<u32>,
    /// Tags
    tags: Option<Vec<String>>,
    /// Mode
    #[param(enum = ["a", "b"], default = "a")]
    mode: String,
) {
    let _ = (q, limit, tags, mode);
}

// "`Option<T>` | as T | as T, not required, no `null`"; "Required unless `Option<T>` or
// defaulted"; strict: "string `type` t → `[t,"null"]`", "an `enum` gains `null`", "`default`
// removed".
#[test]
fn optional_and_defaulted_rust_parameters_become_nullable_when_strict() {
    let spec = declared("strict_search");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"q":{"type":"string","description":"Q"},"limit":{"type":"integer","description":"Limit"},"tags":{"type":"array","description":"Tags","items":{"type":"string"}},"mode":{"type":"string","description":"Mode","enum":["a","b"],"default":"a"}},"required":["q"]}"#
    );
    let mut s = strict(&spec);
    // What happens to a default's description is checked on its own; here: type, enum, no default.
    let mode = s["properties"]["mode"].as_object_mut().unwrap().remove("description");
    assert!(mode.is_some(), "{s}");
    assert_eq!(
        s,
        json!({
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "Q"},
                "limit": {"type": ["integer", "null"], "description": "Limit"},
                "tags": {"type": ["array", "null"], "description": "Tags", "items": {"type": "string"}},
                "mode": {"type": ["string", "null"], "enum": ["a", "b", null]},
            },
            "required": ["q", "limit", "tags", "mode"],
            "additionalProperties": false,
        })
    );
}

/// Inner part.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct InnerPart {
    a: String,
    b: Option<bool>,
}

/// Outer part.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct OuterPart {
    name: String,
    inner: Option<InnerPart>,
    parts: Vec<InnerPart>,
}

/// Nested parts.
#[tool]
fn nested_parts(
    /// Outer.
    outer: OuterPart,
    /// Maybe.
    maybe: Option<OuterPart>,
) {
    let _ = (outer, maybe);
}

// schemars output is used with "`Option` fields without a null type" and "`$ref`s inlined";
// strict(S) "on every subschema" then closes every object and makes each optional level nullable.
#[test]
fn nested_optional_structs_are_plain_objects_made_nullable_only_when_strict() {
    let spec = declared("nested_parts");
    let canonical = spec.parameters_schema();
    assert!(!schema_text(&spec).contains("null"), "{canonical}");
    let outer = &canonical["properties"]["outer"];
    assert_eq!(outer["type"], "object", "{outer}");
    assert_eq!(outer["required"], json!(["name", "parts"]), "{outer}");
    assert_eq!(outer["properties"]["inner"]["type"], "object", "{outer}");
    assert_eq!(outer["properties"]["inner"]["required"], json!(["a"]), "{outer}");
    assert_eq!(canonical["required"], json!(["outer"]));

    let s = strict(&spec);
    assert_eq!(required_set(&s), sorted(&["outer", "maybe"]));
    let outer = &s["properties"]["outer"];
    assert_eq!(outer["type"], "object", "{outer}");
    assert_eq!(outer["additionalProperties"], json!(false), "{outer}");
    assert_eq!(required_set(outer), sorted(&["name", "inner", "parts"]));
    let inner = &outer["properties"]["inner"];
    assert_eq!(inner["type"], json!(["object", "null"]), "{inner}");
    assert_eq!(inner["additionalProperties"], json!(false), "{inner}");
    assert_eq!(required_set(inner), sorted(&["a", "b"]));
    assert_eq!(inner["properties"]["b"]["type"], json!(["boolean", "null"]), "{inner}");
    let item = &outer["properties"]["parts"]["items"];
    assert_eq!(outer["properties"]["parts"]["type"], "array", "{outer}");
    assert_eq!(item["additionalProperties"], json!(false), "{item}");
    assert_eq!(item["properties"]["b"]["type"], json!(["boolean", "null"]), "{item}");
    let maybe = &s["properties"]["maybe"];
    assert_eq!(maybe["type"], json!(["object", "null"]), "{maybe}");
    assert_eq!(maybe["additionalProperties"], json!(false), "{maybe}");
}

/// A figure to draw.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", tag = "kind", rename_all = "lowercase")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Figure {
    Dot { x: f64, label: Option<String> },
    Line { len: f64 },
}

/// Draws a figure.
#[tool]
fn draw_figure(
    /// The figure.
    figure: Figure,
) {
    let _ = figure;
}

// strict(S): "`oneOf` → `anyOf`", every object branch closed and fully required; gemini(S):
// "`oneOf` → `anyOf`; `const` v → `enum` [v]".
#[test]
fn a_tagged_enum_becomes_closed_any_of_branches_and_gemini_enums() {
    let spec = declared("draw_figure");
    let s = strict(&spec);
    assert!(!has_key(&s, "oneOf") && !has_key(&s, "default"), "{s}");
    let branches = s["properties"]["figure"]["anyOf"].as_array().unwrap_or_else(|| panic!("anyOf: {s}"));
    assert_eq!(branches.len(), 2, "{s}");
    for branch in branches {
        assert_eq!(branch["additionalProperties"], json!(false), "{branch}");
        assert_eq!(required_set(branch), {
            let mut all: Vec<String> = keys(&branch["properties"]).into_iter().map(str::to_owned).collect();
            all.sort();
            all
        });
    }
    assert_eq!(branches[0]["properties"]["label"]["type"], json!(["string", "null"]), "{s}");

    let g = gemini(&spec);
    assert!(!has_key(&g, "oneOf") && !has_key(&g, "const"), "{g}");
    let branches = g["properties"]["figure"]["anyOf"].as_array().unwrap_or_else(|| panic!("anyOf: {g}"));
    assert_eq!(branches[0]["properties"]["kind"]["enum"], json!(["dot"]), "{g}");
    assert_eq!(branches[1]["properties"]["kind"]["enum"], json!(["line"]), "{g}");
}

// "`allOf`, `not`, `if/then/else` … → `ProjectionError::Unsupported`", wherever they sit: inside
// items, a `$defs` definition, an `anyOf` branch, a nested object.
#[test]
fn unsupported_keywords_fail_strict_at_any_depth() {
    let cases = [
        ("allOf", json!({"rows": {"type": "array", "items": {"allOf": [{"type": "string"}]}}}), json!({})),
        ("not", json!({"ref": {"$ref": "#/$defs/D"}}), json!({"D": {"type": "string", "not": {"const": "x"}}})),
        (
            "if",
            json!({"either": {"anyOf": [{"type": "string", "if": {"const": "a"}, "then": {}}, {"type": "integer"}]}}),
            json!({}),
        ),
        (
            "patternProperties",
            json!({"deep": {"type": "object", "properties": {"inner": {"type": "object", "properties": {}, "patternProperties": {"^x": {}}}}}}),
            json!({}),
        ),
    ];
    for (keyword, properties, defs) in cases {
        let mut schema = json!({"type": "object", "properties": properties, "required": []});
        if !defs.as_object().unwrap().is_empty() {
            schema["$defs"] = defs;
        }
        let spec = raw("deep_unsupported", schema);
        for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
            assert_eq!(unsupported_keyword(&spec, dialect), keyword, "{dialect}");
        }
        assert!(spec.llm_definition(Dialect::Gemini, Locale::En).is_ok(), "{keyword}");
        assert!(spec.llm_definition(Dialect::OpenAiChat, Locale::En).is_ok(), "{keyword}");
    }
}

// Projections rewrite schema keywords, not property names: properties named `default`, `allOf`,
// `additionalProperties`, `const` or `$defs` are ordinary parameters in every dialect and in the
// docs.
#[test]
fn properties_named_like_keywords_stay_parameters() {
    let spec = raw(
        "keyword_names",
        json!({
            "type": "object",
            "properties": {
                "default": {"type": "string"},
                "allOf": {"type": "string"},
                "additionalProperties": {"type": "integer"},
                "const": {"type": "string"},
                "$defs": {"type": "string"},
            },
            "required": ["default"],
        }),
    );
    let names = ["default", "allOf", "additionalProperties", "const", "$defs"];
    let s = strict(&spec);
    assert_eq!(keys(&s["properties"]), names, "{s}");
    assert_eq!(required_set(&s), sorted(&names));
    assert_eq!(s["properties"]["default"], json!({"type": "string"}));
    assert_eq!(s["properties"]["allOf"], json!({"type": ["string", "null"]}));
    let g = gemini(&spec);
    assert_eq!(keys(&g["properties"]), names, "{g}");
    assert_eq!(g["properties"]["additionalProperties"], json!({"type": "integer"}));
    assert_eq!(g["properties"]["const"], json!({"type": "string"}));
    let [en, _] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- default: string, required. No description\n- allOf: string, optional. No description\n- additionalProperties: integer, optional. No description\n- const: string, optional. No description\n- $defs: string, optional. No description"
    );
}

/// Closed tool.
#[tool(deny_unknown_args)]
fn closed_tool(
    /// A
    a: String,
    /// B
    b: Option<i64>,
) {
    let _ = (a, b);
}

// deny_unknown_args: "the schema gains a top-level `"additionalProperties": false` after
// `required`"; strict keeps that one key; Gemini removes `additionalProperties`.
#[test]
fn a_closed_tool_keeps_one_root_additional_properties_when_strict_and_none_for_gemini() {
    let spec = declared("closed_tool");
    let canonical = r#"{"type":"object","properties":{"a":{"type":"string","description":"A"},"b":{"type":"integer","description":"B"}},"required":["a"],"additionalProperties":false}"#;
    assert_eq!(schema_text(&spec), canonical);
    assert_eq!(
        text(&definition(&spec, Dialect::OpenAiResponsesStrict)),
        r#"{"type":"function","name":"closed_tool","description":"Closed tool.","parameters":{"type":"object","properties":{"a":{"type":"string","description":"A"},"b":{"type":["integer","null"],"description":"B"}},"required":["a","b"],"additionalProperties":false},"strict":true}"#
    );
    assert_eq!(
        text(&definition(&spec, Dialect::Gemini)),
        r#"{"name":"closed_tool","description":"Closed tool.","parameters":{"type":"object","properties":{"a":{"type":"string","description":"A"},"b":{"type":"integer","description":"B"}},"required":["a"]}}"#
    );
    assert_eq!(
        text(&definition(&spec, Dialect::Anthropic)),
        format!(r#"{{"name":"closed_tool","description":"Closed tool.","input_schema":{canonical}}}"#)
    );
}

// ---- Gemini -------------------------------------------------------------------------------------

// gemini(S): "`additionalProperties` … removed", at every depth (nested objects, items); the
// other dialects keep them.
#[test]
fn gemini_drops_additional_properties_at_every_depth() {
    let spec = listed(
        "closed_parts",
        vec![
            P::new("opts", T::Object)
                .description("Opts")
                .properties(map(json!({"inner": {
                    "type": "object",
                    "properties": {"k": {"type": "string"}},
                    "additionalProperties": true,
                }})))
                .additional_properties(false),
            P::new("rows", T::Array).description("Rows").items_schema(json!({
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "required": ["id"],
                "additionalProperties": false,
            })),
        ],
    );
    assert_eq!(
        text(&gemini(&spec)),
        r#"{"type":"object","properties":{"opts":{"type":"object","description":"Opts","properties":{"inner":{"type":"object","properties":{"k":{"type":"string"}}}},"required":[]},"rows":{"type":"array","description":"Rows","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}},"required":["opts","rows"]}"#
    );
    for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Anthropic, Dialect::Mcp] {
        assert_eq!(text(&sent(&spec, dialect)), schema_text(&spec), "{dialect}");
    }
}

// gemini(S): "refs inlined", "`$defs` … removed", "`[t,"null"]` → t + `"nullable":true`",
// "`const` v → `enum` [v]", inside items, `anyOf` branches and definitions that refer to others.
#[test]
fn gemini_inlines_references_used_in_items_unions_and_other_definitions() {
    let spec = raw(
        "deep_refs",
        json!({
            "type": "object",
            "properties": {
                "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}},
                "where": {"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "string"}]},
            },
            "required": ["points"],
            "$defs": {
                "Point": {
                    "type": "object",
                    "properties": {"x": {"type": ["number", "null"]}, "unit": {"$ref": "#/$defs/Unit"}},
                    "required": ["x"],
                    "additionalProperties": false,
                },
                "Unit": {"type": "string", "const": "m"},
            },
        }),
    );
    let point = json!({
        "type": "object",
        "properties": {"x": {"type": "number", "nullable": true}, "unit": {"type": "string", "enum": ["m"]}},
        "required": ["x"],
    });
    let g = gemini(&spec);
    assert_eq!(keys(&g), ["type", "properties", "required"], "{g}");
    assert_eq!(g["properties"]["points"], json!({"type": "array", "items": point}));
    assert_eq!(g["properties"]["where"], json!({"anyOf": [point, {"type": "string"}]}));
    assert!(!has_key(&g, "$ref") && !has_key(&g, "$defs") && !has_key(&g, "const"), "{g}");
}

// gemini(S): "an `enum` with non-strings → its values as compact-JSON strings and
// `"type":"string"`", wherever the enum is, a `const` included (`const` v → `enum` [v]).
#[test]
fn gemini_turns_non_string_enums_into_compact_json_strings_at_depth() {
    let spec = raw(
        "deep_enums",
        json!({
            "type": "object",
            "properties": {
                "scores": {"type": "array", "items": {"type": "number", "enum": [0.5, 1e-7, 2]}},
                "opts": {
                    "type": "object",
                    "properties": {"flag": {"type": "boolean", "enum": [true, false]}, "n": {"type": "integer", "const": 3}},
                    "required": [],
                },
            },
            "required": [],
        }),
    );
    let g = gemini(&spec);
    assert_eq!(g["properties"]["scores"]["items"], json!({"type": "string", "enum": ["0.5", "1e-7", "2"]}));
    assert_eq!(g["properties"]["opts"]["properties"]["flag"], json!({"type": "string", "enum": ["true", "false"]}));
    assert_eq!(g["properties"]["opts"]["properties"]["n"], json!({"type": "string", "enum": ["3"]}));
}

// gemini(S) lists what it removes and rewrites; defaults, bounds and patterns are not among them,
// so a schema without those forms is sent unchanged.
#[test]
fn gemini_keeps_defaults_bounds_and_patterns() {
    let spec = raw(
        "kept",
        json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1, "maximum": 9, "default": 3},
                "s": {"type": "string", "pattern": "^\\d", "enum": ["2024-01-01"]},
                "l": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3, "default": ["a"]},
            },
            "required": ["n"],
        }),
    );
    assert_eq!(text(&gemini(&spec)), schema_text(&spec));
}

/// Closed ping.
#[tool(deny_unknown_args)]
fn closed_ping() {}

// Gemini: "`parameters` omitted when S has no properties", even when S is closed.
#[test]
fn gemini_omits_the_parameters_of_a_closed_tool_without_parameters() {
    let spec = declared("closed_ping");
    assert_eq!(text(&definition(&spec, Dialect::Gemini)), r#"{"name":"closed_ping","description":"Closed ping."}"#);
}

// gemini(S): "`anyOf` of one branch and `{"type":"null"}` → that branch + nullable", and
// "`[t,"null"]` → t + `"nullable":true`", with the null written first.
#[test]
fn gemini_flags_nullable_forms_with_the_null_first() {
    let spec = raw(
        "null_first",
        json!({
            "type": "object",
            "properties": {
                "vals": {"type": "array", "items": {"anyOf": [{"type": "null"}, {"type": "string", "description": "V"}]}},
                "n": {"type": ["null", "integer"], "description": "N"},
            },
            "required": [],
        }),
    );
    let g = gemini(&spec);
    assert_eq!(g["properties"]["vals"]["items"], json!({"type": "string", "description": "V", "nullable": true}));
    assert_eq!(g["properties"]["n"], json!({"type": "integer", "description": "N", "nullable": true}));
}

// gemini(S): "refs inlined (a recursive one becomes `{"type":"object"}`)".
#[test]
fn gemini_cuts_a_recursive_reference_to_a_plain_object() {
    let spec = raw(
        "recursive",
        json!({
            "type": "object",
            "properties": {"tree": {"$ref": "#/$defs/Node"}},
            "required": ["tree"],
            "$defs": {"Node": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                "required": ["label"],
            }},
        }),
    );
    let g = gemini(&spec);
    assert_eq!(
        g["properties"]["tree"],
        json!({
            "type": "object",
            "properties": {"label": {"type": "string"}, "kids": {"type": "array", "items": {"type": "object"}}},
            "required": ["label"],
        })
    );
    assert!(!has_key(&g, "$defs"), "{g}");
}

/// A tag.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", deny_unknown_fields)]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Tag {
    name: String,
    note: Option<String>,
}

/// Tags things.
#[tool]
fn tag_all(
    /// Items.
    items: Vec<Tag>,
    /// Extra.
    extra: Option<Tag>,
) {
    let _ = (items, extra);
}

// A closed user type ("`additionalProperties: false` … is kept") stays closed in the canonical
// schema and when strict, and loses the keyword for Gemini at every depth.
#[test]
fn a_closed_user_type_is_kept_closed_except_for_gemini() {
    let spec = declared("tag_all");
    let canonical = spec.parameters_schema();
    assert_eq!(canonical["properties"]["items"]["items"]["additionalProperties"], json!(false), "{canonical}");
    assert_eq!(canonical["properties"]["extra"]["additionalProperties"], json!(false), "{canonical}");
    let s = strict(&spec);
    let item = &s["properties"]["items"]["items"];
    assert_eq!(required_set(item), sorted(&["name", "note"]));
    assert_eq!(item["properties"]["note"]["type"], json!(["string", "null"]), "{item}");
    assert_eq!(s["properties"]["extra"]["type"], json!(["object", "null"]), "{s}");
    assert!(!has_key(&gemini(&spec), "additionalProperties"));
}

// ---- plain dialects and MCP ---------------------------------------------------------------------

// Neutral, OpenAI chat and responses (non-strict), Anthropic and MCP send S itself: nothing is
// closed, rewritten, inlined or removed.
#[test]
fn plain_dialects_send_the_canonical_schema_untouched() {
    let spec = raw(
        "untouched",
        json!({
            "type": "object",
            "properties": {
                "mode": {"oneOf": [{"type": "string", "const": "a"}, {"type": "integer"}], "default": "a"},
                "meta": {"type": "object", "additionalProperties": true},
                "opt": {"type": ["string", "null"]},
                "ref": {"$ref": "#/$defs/R"},
                "n": {"type": "integer", "enum": [1, 2]},
            },
            "required": ["mode"],
            "$defs": {"R": {"type": "string", "allOf": [{"minLength": 1}]}},
        }),
    );
    for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Mcp] {
        assert_eq!(text(&sent(&spec, dialect)), schema_text(&spec), "{dialect}");
    }
    assert_eq!(definition(&spec, Dialect::OpenAiResponses)["strict"], json!(false));
    assert_eq!(
        keys(&definition(&spec, Dialect::OpenAiResponses)),
        ["type", "name", "description", "parameters", "strict"]
    );
}

// MCP annotations: "`title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`,
// `openWorldHint` from the set ToolAnnotation fields" (false is set); icons
// `{"src","mimeType"?,"sizes"?}`.
#[test]
fn mcp_sends_every_set_hint_in_order_and_icons_without_empty_keys() {
    let annotation = ToolAnnotation {
        open_world: Some(true),
        idempotent: Some(false),
        destructive: Some(true),
        read_only: Some(false),
        title: "T".into(),
        ..Default::default()
    };
    let spec = ToolSpec::builder("hints")
        .brief_description("Hints.")
        .annotation(annotation)
        .icon(ToolIcon::new("https://example.com/i.png").size("16x16"))
        .build()
        .unwrap();
    assert_eq!(
        text(&definition(&spec, Dialect::Mcp)),
        r#"{"name":"hints","description":"Hints.","inputSchema":{"type":"object","properties":{},"required":[]},"annotations":{"title":"T","readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true},"icons":[{"src":"https://example.com/i.png","sizes":["16x16"]}]}"#
    );
    let spec = ToolSpec::builder("one_hint")
        .brief_description("One.")
        .annotation(ToolAnnotation { destructive: Some(false), ..Default::default() })
        .build()
        .unwrap();
    assert_eq!(definition(&spec, Dialect::Mcp)["annotations"], json!({"destructiveHint": false}));
}

// ---- `#[tool]` signatures -----------------------------------------------------------------------

/// Nested containers.
#[tool]
fn nested_containers(
    /// A
    a: Vec<Vec<String>>,
    /// B
    b: HashMap<String, Vec<f64>>,
    /// C
    c: BTreeMap<String, HashMap<String, bool>>,
    /// D
    d: Option<VecDeque<i8>>,
    /// E
    e: Vec<serde_json::Value>,
) {
    let _ = (a, b, c, d, e);
}

// Sequences: "`items` = schema of T"; maps: "`properties: {}`, `required: []`,
// `additionalProperties` = schema of T"; `serde_json::Value`: "`properties: {}`, `required: []`,
// `additionalProperties: true`"; "Nested properties and items are not documented".
#[test]
fn std_containers_nest_their_element_schemas() {
    let spec = declared("nested_containers");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"a":{"type":"array","description":"A","items":{"type":"array","items":{"type":"string"}}},"b":{"type":"object","description":"B","properties":{},"required":[],"additionalProperties":{"type":"array","items":{"type":"number"}}},"c":{"type":"object","description":"C","properties":{},"required":[],"additionalProperties":{"type":"object","properties":{},"required":[],"additionalProperties":{"type":"boolean"}}},"d":{"type":"array","description":"D","items":{"type":"integer"}},"e":{"type":"array","description":"E","items":{"type":"object","properties":{},"required":[],"additionalProperties":true}}},"required":["a","b","c","e"]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- a: array, required. A\n- b: object, required. B\n- c: object, required. C\n- d: array, optional. D\n- e: array, required. E"
    );
    assert_eq!(
        zh,
        "参数说明：\n- a：array，必填。A\n- b：object，必填。B\n- c：object，必填。C\n- d：array，可选。D\n- e：array，必填。E"
    );
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "SCREAMING_SNAKE_CASE")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Pace {
    #[serde(rename = "fast-lane")]
    FastLane,
    Slow,
    MediumRare,
    #[serde(skip)]
    Hidden,
}

/// Sets a pace.
#[tool]
fn set_pace(
    /// Pace
    pace: Pace,
    /// Fallback
    #[param(default = "SLOW")]
    fallback: Pace,
    /// Maybe
    maybe: Option<Pace>,
) {
    let _ = (pace, fallback, maybe);
}

// "unit-only enum | string | `enum`: serialised variant names in order" (serde renames applied,
// skipped variants absent); an `Option` of it is "not required, no `null`"; strict: "an `enum`
// gains `null`", "`default` removed".
#[test]
fn a_unit_enum_lists_its_serialised_names_in_schema_docs_and_strict_forms() {
    let spec = declared("set_pace");
    let names = r#"["fast-lane","SLOW","MEDIUM_RARE"]"#;
    assert_eq!(
        schema_text(&spec),
        format!(
            r#"{{"type":"object","properties":{{"pace":{{"type":"string","description":"Pace","enum":{names}}},"fallback":{{"type":"string","description":"Fallback","enum":{names},"default":"SLOW"}},"maybe":{{"type":"string","description":"Maybe","enum":{names}}}}},"required":["pace"]}}"#
        )
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- pace: string, required. Pace. Allowed values: fast-lane, SLOW, MEDIUM_RARE\n- fallback: string, optional. Fallback. Allowed values: fast-lane, SLOW, MEDIUM_RARE. Default: SLOW\n- maybe: string, optional. Maybe. Allowed values: fast-lane, SLOW, MEDIUM_RARE"
    );
    assert_eq!(
        zh,
        "参数说明：\n- pace：string，必填。Pace 可选值：fast-lane、SLOW、MEDIUM_RARE。\n- fallback：string，可选。Fallback 可选值：fast-lane、SLOW、MEDIUM_RARE。 默认值：SLOW。\n- maybe：string，可选。Maybe 可选值：fast-lane、SLOW、MEDIUM_RARE。"
    );
    let s = strict(&spec);
    let nullable = json!(["fast-lane", "SLOW", "MEDIUM_RARE", null]);
    assert_eq!(s["properties"]["maybe"], json!({"type": ["string", "null"], "description": "Maybe", "enum": nullable}));
    let fallback = &s["properties"]["fallback"];
    assert_eq!((&fallback["type"], &fallback["enum"]), (&json!(["string", "null"]), &nullable), "{fallback}");
    assert!(fallback.get("default").is_none(), "{fallback}");
    assert_eq!(s["properties"]["pace"]["type"], "string");
}

/// A search query.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct SearchQuery {
    #[serde(rename = "q")]
    text: String,
    #[serde(default)]
    limit: u32,
    #[serde(skip)]
    cache: Option<String>,
    tag: Option<String>,
    max_hits: u8,
}

/// Runs a query.
#[tool]
fn run_query(
    /// The query.
    query: SearchQuery,
) {
    let _ = query;
}

// A struct gives "its `properties`, `required`, `additionalProperties`" as serde reads it
// (renames, defaults and skips applied); "`Option` fields without a null type"; "`format` on
// integers/numbers removed", `minimum` kept.
#[test]
fn struct_fields_follow_serde_renames_defaults_and_skips() {
    let spec = declared("run_query");
    let query = &spec.parameters_schema()["properties"]["query"];
    assert_eq!(query["type"], "object", "{query}");
    assert_eq!(query["description"], "The query.", "{query}");
    assert_eq!(keys(&query["properties"]), ["q", "limit", "tag", "maxHits"], "{query}");
    assert_eq!(query["required"], json!(["q", "maxHits"]), "{query}");
    let props = &query["properties"];
    assert_eq!(props["q"], json!({"type": "string"}));
    assert_eq!(props["tag"], json!({"type": "string"}));
    assert_eq!(props["maxHits"], json!({"type": "integer", "minimum": 0, "maximum": 255}));
    assert_eq!(props["limit"]["type"], "integer", "{query}");
    assert!(props["limit"].get("format").is_none(), "{query}");
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- query: object, required. The query");
    assert_eq!(zh, "参数说明：\n- query：object，必填。The query.");
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "lowercase")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Tone {
    /// Calm voice.
    Calm,
    /// Loud voice.
    Loud,
}

/// Speaks.
#[tool]
fn speak(
    /// Tone to use.
    tone: Tone,
) {
    let _ = tone;
}

/// Attribute defaults.
#[tool]
fn attribute_defaults(
    /// Verbose output
    #[param(default = true)]
    verbose: bool,
    /// Offset
    #[param(default = -3)]
    offset: i64,
    /// Epsilon
    #[param(default = 0.00001)]
    eps: f64,
) {
    let _ = (verbose, offset, eps);
}

// `default`: "a string, integer, float or bool literal"; values: zh-Hans PyStr (`True`, PyFloat
// `1e-05`), English compact JSON (`true`, `0.00001`).
#[test]
fn boolean_negative_and_small_float_defaults_render_per_locale() {
    let spec = declared("attribute_defaults");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"verbose":{"type":"boolean","description":"Verbose output","default":true},"offset":{"type":"integer","description":"Offset","default":-3},"eps":{"type":"number","description":"Epsilon","default":0.00001}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- verbose: boolean, optional. Verbose output. Default: true\n- offset: integer, optional. Offset. Default: -3\n- eps: number, optional. Epsilon. Default: 0.00001"
    );
    assert_eq!(
        zh,
        "参数说明：\n- verbose：boolean，可选。Verbose output 默认值：True。\n- offset：integer，可选。Offset 默认值：-3。\n- eps：number，可选。Epsilon 默认值：1e-05。"
    );
}
