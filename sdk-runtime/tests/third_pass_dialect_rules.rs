//! A third, independent pass over tool definitions per dialect: each envelope's exact keys and
//! their order (strict flags, where the name, brief and schema go, MCP's optional parts), a tool
//! without parameters in every dialect, the strict projection and the Gemini projection rule by
//! rule at every depth, and the registry's non-strict fallback for a tool strict mode refuses.

use serde_json::{Value, json};
use toolhook::{
    Dialect, Locale, ProjectionError, ToolAnnotation, ToolIcon, ToolParamType as T, ToolParameterInfo as P, ToolSpec,
    Visibility,
};
use toolhook_runtime::ToolRegistry;

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

// ---- helpers ------------------------------------------------------------------------------------

const EMPTY: &str = r#"{"type":"object","properties":{},"required":[]}"#;
const EMPTY_CLOSED: &str = r#"{"type":"object","properties":{},"required":[],"additionalProperties":false}"#;

fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn raw(name: &str, schema: Value) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Brief.")
        .parameters_raw(schema)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn definition(spec: &ToolSpec, dialect: Dialect) -> Value {
    spec.llm_definition(dialect, Locale::En).unwrap_or_else(|e| panic!("{dialect}: {e}"))
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap_or_else(|| panic!("an object: {value}")).keys().map(String::as_str).collect()
}

/// The schema both strict dialects send (they must agree).
fn strict(spec: &ToolSpec) -> Value {
    let chat = definition(spec, Dialect::OpenAiChatStrict)["function"]["parameters"].clone();
    let responses = definition(spec, Dialect::OpenAiResponsesStrict)["parameters"].clone();
    assert_eq!(text(&chat), text(&responses), "both strict dialects send one schema");
    chat
}

fn gemini(spec: &ToolSpec) -> Value {
    definition(spec, Dialect::Gemini)["parameters"].clone()
}

/// The error both strict dialects give (they must agree).
fn strict_error(spec: &ToolSpec) -> ProjectionError {
    let chat = spec.llm_definition(Dialect::OpenAiChatStrict, Locale::En).expect_err("chat strict must fail");
    let responses =
        spec.llm_definition(Dialect::OpenAiResponsesStrict, Locale::En).expect_err("responses strict must fail");
    assert_eq!(chat, responses);
    chat
}

fn unsupported(keyword: &str, path: &str) -> ProjectionError {
    ProjectionError::Unsupported { keyword: keyword.to_owned(), path: path.to_owned() }
}

fn open_object(path: &str) -> ProjectionError {
    ProjectionError::OpenObject { path: path.to_owned() }
}

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

fn visible(spec: ToolSpec) -> ToolSpec {
    let schema = spec.parameters_schema().clone();
    ToolSpec::builder(spec.name())
        .brief_description(spec.description(Locale::En))
        .parameters_raw(schema)
        .visibility(Visibility::Visible)
        .build()
        .unwrap()
}

// ---- envelopes ----------------------------------------------------------------------------------

// A tool without parameters has the empty object schema in every dialect's envelope; Gemini leaves
// `parameters` out; the description is the brief only, never the detailed text. The builder's
// three ways of giving no parameters agree.
#[test]
fn every_dialect_wraps_a_tool_without_parameters_in_its_exact_envelope() {
    let specs = [
        ToolSpec::builder("ping").brief_description("Ping.").detailed_description("Longer text.").build().unwrap(),
        ToolSpec::builder("ping").brief_description("Ping.").parameters(vec![]).build().unwrap(),
        ToolSpec::builder("ping").brief_description("Ping.").parameters_raw(json!({})).build().unwrap(),
    ];
    let expected = [
        (Dialect::Neutral, format!(r#"{{"name":"ping","description":"Ping.","parameters_schema":{EMPTY}}}"#)),
        (
            Dialect::OpenAiChat,
            format!(r#"{{"type":"function","function":{{"name":"ping","description":"Ping.","parameters":{EMPTY}}}}}"#),
        ),
        (
            Dialect::OpenAiChatStrict,
            format!(
                r#"{{"type":"function","function":{{"name":"ping","description":"Ping.","parameters":{EMPTY_CLOSED},"strict":true}}}}"#
            ),
        ),
        (
            Dialect::OpenAiResponses,
            format!(r#"{{"type":"function","name":"ping","description":"Ping.","parameters":{EMPTY},"strict":false}}"#),
        ),
        (
            Dialect::OpenAiResponsesStrict,
            format!(
                r#"{{"type":"function","name":"ping","description":"Ping.","parameters":{EMPTY_CLOSED},"strict":true}}"#
            ),
        ),
        (Dialect::Anthropic, format!(r#"{{"name":"ping","description":"Ping.","input_schema":{EMPTY}}}"#)),
        (Dialect::Gemini, r#"{"name":"ping","description":"Ping."}"#.to_owned()),
        (Dialect::Mcp, format!(r#"{{"name":"ping","description":"Ping.","inputSchema":{EMPTY}}}"#)),
    ];
    for spec in &specs {
        for (dialect, want) in &expected {
            assert_eq!(text(&definition(spec, *dialect)), *want, "{dialect}");
        }
    }
}

// Each envelope's keys in order, for a tool with parameters and every MCP part set.
#[test]
fn every_envelope_lists_its_keys_in_the_written_order() {
    let spec = ToolSpec::builder("find")
        .title("Find")
        .brief_description("Find it.")
        .parameters(vec![P::new("q", T::String).description("Query")])
        .output_schema(json!({"type": "object", "properties": {}, "required": []}))
        .annotation(ToolAnnotation { read_only: Some(true), ..Default::default() })
        .icon(ToolIcon::new("https://example.com/f.png"))
        .build()
        .unwrap();
    let top = |d| keys(&definition(&spec, d)).into_iter().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(top(Dialect::Neutral), ["name", "description", "parameters_schema"]);
    assert_eq!(top(Dialect::OpenAiChat), ["type", "function"]);
    assert_eq!(keys(&definition(&spec, Dialect::OpenAiChat)["function"]), ["name", "description", "parameters"]);
    assert_eq!(top(Dialect::OpenAiChatStrict), ["type", "function"]);
    assert_eq!(
        keys(&definition(&spec, Dialect::OpenAiChatStrict)["function"]),
        ["name", "description", "parameters", "strict"]
    );
    assert_eq!(top(Dialect::OpenAiResponses), ["type", "name", "description", "parameters", "strict"]);
    assert_eq!(top(Dialect::OpenAiResponsesStrict), ["type", "name", "description", "parameters", "strict"]);
    assert_eq!(top(Dialect::Anthropic), ["name", "description", "input_schema"]);
    assert_eq!(top(Dialect::Gemini), ["name", "description", "parameters"]);
    assert_eq!(
        top(Dialect::Mcp),
        ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons"]
    );
    assert_eq!(definition(&spec, Dialect::OpenAiChat)["type"], "function");
    assert_eq!(definition(&spec, Dialect::OpenAiResponsesStrict)["type"], "function");
    assert_eq!(definition(&spec, Dialect::OpenAiChatStrict)["function"]["strict"], json!(true));
    assert_eq!(definition(&spec, Dialect::OpenAiResponsesStrict)["strict"], json!(true));
    assert_eq!(definition(&spec, Dialect::OpenAiResponses)["strict"], json!(false));
}

// The OpenAI chat envelope (non-strict) carries no `strict` flag anywhere; Neutral, Anthropic, MCP
// and Gemini have none either.
#[test]
fn only_the_responses_and_strict_forms_carry_a_strict_flag() {
    let spec = raw("flagless", json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}));
    for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Anthropic, Dialect::Gemini, Dialect::Mcp] {
        let def = definition(&spec, dialect);
        assert!(def.get("strict").is_none(), "{dialect}: {def}");
        assert!(def.get("function").and_then(|f| f.get("strict")).is_none(), "{dialect}: {def}");
    }
}

// MCP lists exactly name, title, description, inputSchema, outputSchema, annotations and icons:
// the tool's metadata, provider and access settings are not part of it, and an empty title, no
// output schema, no set hint and no icon leave their keys out.
#[test]
fn mcp_sends_no_metadata_or_other_spec_fields() {
    let spec = ToolSpec::builder("tagged")
        .title("")
        .brief_description("Tagged.")
        .metadata("owner", "team-a")
        .metadata("version", 3)
        .provider("p", "plugin")
        .annotation(ToolAnnotation {
            audience: vec!["user".into()],
            metadata: json!({"k": 1}).as_object().unwrap().clone(),
            ..Default::default()
        })
        .build()
        .unwrap();
    assert_eq!(
        text(&definition(&spec, Dialect::Mcp)),
        format!(r#"{{"name":"tagged","description":"Tagged.","inputSchema":{EMPTY}}}"#)
    );
}

// MCP annotations hold only the set fields, a title alone included; an icon with a MIME type and
// no sizes has no `sizes`.
#[test]
fn mcp_sends_an_annotation_title_alone_and_an_icon_without_sizes() {
    let spec = ToolSpec::builder("titled")
        .brief_description("Titled.")
        .annotation(ToolAnnotation { title: "Nice name".into(), ..Default::default() })
        .icon(ToolIcon::new("https://example.com/i.svg").mime_type("image/svg+xml"))
        .build()
        .unwrap();
    assert_eq!(
        text(&definition(&spec, Dialect::Mcp)),
        format!(
            r#"{{"name":"titled","description":"Titled.","inputSchema":{EMPTY},"annotations":{{"title":"Nice name"}},"icons":[{{"src":"https://example.com/i.svg","mimeType":"image/svg+xml"}}]}}"#
        )
    );
}

// MCP's `outputSchema` is the spec's output schema; no other dialect sends it.
#[test]
fn only_mcp_sends_the_output_schema() {
    let output = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let spec =
        ToolSpec::builder("counted").brief_description("Counted.").output_schema(output.clone()).build().unwrap();
    assert_eq!(text(&definition(&spec, Dialect::Mcp)["outputSchema"]), text(&output));
    for dialect in Dialect::ALL.iter() {
        if *dialect != Dialect::Mcp {
            let def = definition(&spec, *dialect);
            assert!(!has_key(&def, "outputSchema") && !has_key(&def, "output_schema"), "{dialect}: {def}");
        }
    }
}

// ---- strict(S) ----------------------------------------------------------------------------------

// "`required` lists every property", on every subschema: an object inside the items of an array
// inside an object property is closed, fully required, its optional field nullable.
#[test]
fn strict_reaches_an_object_three_levels_down() {
    let spec = raw(
        "deep",
        json!({
            "type": "object",
            "properties": {"outer": {
                "type": "object",
                "properties": {"rows": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "note": {"type": "string"}},
                    "required": ["id"],
                }}},
                "required": ["rows"],
            }},
            "required": ["outer"],
        }),
    );
    let item = &strict(&spec)["properties"]["outer"]["properties"]["rows"]["items"];
    assert_eq!(
        *item,
        json!({
            "type": "object",
            "properties": {"id": {"type": "integer"}, "note": {"type": ["string", "null"]}},
            "required": ["id", "note"],
            "additionalProperties": false,
        })
    );
    let outer = &strict(&spec)["properties"]["outer"];
    assert_eq!(outer["additionalProperties"], json!(false));
    assert_eq!(outer["type"], "object", "a required property stays non-nullable");
}

// A required property keeps its schema: its type is not made nullable, its enum gains no null, its
// type list gains no null.
#[test]
fn strict_leaves_required_properties_non_nullable() {
    let spec = raw(
        "required_forms",
        json!({
            "type": "object",
            "properties": {
                "level": {"type": "string", "enum": ["low", "high"]},
                "either": {"type": ["string", "integer"]},
                "count": {"type": "integer", "minimum": 1},
            },
            "required": ["level", "either", "count"],
        }),
    );
    let s = strict(&spec);
    assert_eq!(s["properties"]["level"], json!({"type": "string", "enum": ["low", "high"]}));
    assert_eq!(s["properties"]["either"], json!({"type": ["string", "integer"]}));
    assert_eq!(s["properties"]["count"], json!({"type": "integer", "minimum": 1}));
    assert_eq!(s["required"], json!(["level", "either", "count"]));
}

// "an `enum` gains `null`" and "string `type` t → `[t,"null"]`" for an optional property nested
// in an object that is itself required.
#[test]
fn strict_makes_a_nested_optional_enum_nullable() {
    let spec = raw(
        "nested_enum",
        json!({
            "type": "object",
            "properties": {"opts": {
                "type": "object",
                "properties": {"mode": {"type": "integer", "enum": [1, 2, 3]}},
                "required": [],
            }},
            "required": ["opts"],
        }),
    );
    assert_eq!(
        strict(&spec)["properties"]["opts"]["properties"]["mode"],
        json!({"type": ["integer", "null"], "enum": [1, 2, 3, null]})
    );
    assert_eq!(strict(&spec)["properties"]["opts"]["required"], json!(["mode"]));
}

// "`oneOf` → `anyOf`" on every subschema: inside items, inside a definition and inside a branch.
#[test]
fn strict_turns_one_of_into_any_of_at_every_depth() {
    let spec = raw(
        "one_ofs",
        json!({
            "type": "object",
            "properties": {
                "list": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
                "ref": {"$ref": "#/$defs/D"},
                "outer": {"anyOf": [{"oneOf": [{"type": "boolean"}, {"type": "number"}]}, {"type": "string"}]},
            },
            "required": ["list", "ref", "outer"],
            "$defs": {"D": {"oneOf": [{"type": "string"}, {"type": "null"}]}},
        }),
    );
    let s = strict(&spec);
    assert!(!has_key(&s, "oneOf"), "{s}");
    assert_eq!(s["properties"]["list"]["items"], json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}));
    assert_eq!(s["$defs"]["D"], json!({"anyOf": [{"type": "string"}, {"type": "null"}]}));
    assert_eq!(
        s["properties"]["outer"],
        json!({"anyOf": [{"anyOf": [{"type": "boolean"}, {"type": "number"}]}, {"type": "string"}]})
    );
}

// A union that already has a `null` branch stays as it is when optional (it is only made required).
#[test]
fn strict_leaves_an_optional_union_with_a_null_branch_as_it_is() {
    let spec = raw(
        "nullable_union",
        json!({
            "type": "object",
            "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "V"}},
            "required": [],
        }),
    );
    let s = strict(&spec);
    assert_eq!(s["properties"]["v"], json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "V"}));
    assert_eq!(s["required"], json!(["v"]));
}

// An optional `$ref` is a branch alone, its description beside the branches.
#[test]
fn strict_wraps_an_optional_reference_with_its_description_beside_the_branches() {
    let spec = raw(
        "optional_ref",
        json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/Point", "description": "Where"}},
            "required": [],
            "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
        }),
    );
    let s = strict(&spec);
    assert_eq!(
        s["properties"]["p"],
        json!({"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}], "description": "Where"})
    );
    assert_eq!(
        s["$defs"]["Point"],
        json!({"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"], "additionalProperties": false})
    );
}

// The strict dialects rewrite `const` as a one-value `enum`.
#[test]
fn strict_turns_a_const_into_a_one_value_enum() {
    let spec = raw(
        "consts",
        json!({"type": "object", "properties": {"kind": {"type": "string", "const": "circle"}}, "required": ["kind"]}),
    );
    assert_eq!(strict(&spec)["properties"]["kind"], json!({"type": "string", "enum": ["circle"]}));
}

// The strict dialects drop annotation keywords: `examples`, `deprecated`, `readOnly`,
// `writeOnly`, `$schema`, `$id`, `$comment`.
#[test]
fn strict_drops_annotation_keywords_at_every_depth() {
    let spec = raw(
        "annotated",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "a": {"type": "string", "examples": ["x"], "deprecated": true, "$comment": "c"},
                "b": {"type": "array", "items": {"type": "integer", "readOnly": true, "writeOnly": false, "$id": "urn:b"}},
            },
            "required": ["a", "b"],
        }),
    );
    let s = strict(&spec);
    for keyword in ["$schema", "examples", "deprecated", "$comment", "readOnly", "writeOnly", "$id"] {
        assert!(!has_key(&s, keyword), "{keyword}: {s}");
    }
    assert_eq!(s["properties"]["a"], json!({"type": "string"}));
    assert_eq!(s["properties"]["b"], json!({"type": "array", "items": {"type": "integer"}}));
}

// `then` and `else` are refused on their own too, each named as the keyword.
#[test]
fn strict_refuses_then_and_else_on_their_own() {
    for keyword in ["then", "else"] {
        let mut p = json!({"type": "string"});
        p[keyword] = json!({"minLength": 1});
        let spec = raw("branchy", json!({"type": "object", "properties": {"p": p}, "required": ["p"]}));
        assert_eq!(strict_error(&spec), unsupported(keyword, "/properties/p"));
    }
}

// A refused keyword names the schema holding it, wherever that is: items, a definition, a union
// branch, a nested object's property.
#[test]
fn strict_refusals_point_at_the_schema_holding_the_keyword() {
    let cases = [
        (
            json!({"rows": {"type": "array", "items": {"type": "string", "not": {"const": "x"}}}}),
            json!(null),
            unsupported("not", "/properties/rows/items"),
        ),
        (
            json!({"r": {"$ref": "#/$defs/D"}}),
            json!({"D": {"allOf": [{"type": "string"}]}}),
            unsupported("allOf", "/$defs/D"),
        ),
        (
            json!({"u": {"anyOf": [{"type": "integer"}, {"type": "string", "if": {"const": "a"}}]}}),
            json!(null),
            unsupported("if", "/properties/u/anyOf/1"),
        ),
        (
            json!({"o": {"type": "object", "properties": {"inner": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "required": [],
                "dependentSchemas": {"a": {}},
            }}, "required": []}}),
            json!(null),
            unsupported("dependentSchemas", "/properties/o/properties/inner"),
        ),
    ];
    for (properties, defs, want) in cases {
        let mut schema = json!({"type": "object", "properties": properties, "required": []});
        if !defs.is_null() {
            schema["$defs"] = defs;
        }
        let spec = raw("refused", schema);
        assert_eq!(strict_error(&spec), want);
        for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Mcp] {
            assert!(spec.llm_definition(dialect, Locale::En).is_ok(), "{dialect}");
        }
    }
}

// An object left open below the top names its own place.
#[test]
fn strict_open_objects_below_the_top_name_their_place() {
    let in_items = raw(
        "open_items",
        json!({
            "type": "object",
            "properties": {"rows": {"type": "array", "items": {"type": "object", "properties": {}, "additionalProperties": true}}},
            "required": ["rows"],
        }),
    );
    assert_eq!(strict_error(&in_items), open_object("/properties/rows/items"));
    let nested = raw(
        "open_nested",
        json!({
            "type": "object",
            "properties": {"o": {"type": "object", "properties": {"inner": {"type": "object", "additionalProperties": true}}}},
            "required": [],
        }),
    );
    assert_eq!(strict_error(&nested), open_object("/properties/o/properties/inner"));
}

// "an object with `true` or a schema there → `ProjectionError::OpenObject`": a schema that allows
// any value (`{}`) leaves the object open.
#[test]
fn strict_refuses_an_object_whose_other_properties_may_be_any_json() {
    let spec = raw(
        "any_values",
        json!({
            "type": "object",
            "properties": {"bag": {"type": "object", "properties": {}, "additionalProperties": {}}},
            "required": ["bag"],
        }),
    );
    assert_eq!(strict_error(&spec), open_object("/properties/bag"));
}

// The root object itself left open (where its path points is not written down).
#[test]
fn strict_refuses_an_open_root_object() {
    let spec = raw(
        "open_root",
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}),
    );
    assert!(matches!(strict_error(&spec), ProjectionError::OpenObject { .. }));
    assert_eq!(
        text(&definition(&spec, Dialect::Anthropic)["input_schema"]),
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":true}"#
    );
}

// ---- registry fallback --------------------------------------------------------------------------

fn open_tool() -> ToolSpec {
    visible(raw(
        "open_tool",
        json!({"type": "object", "properties": {"meta": {"type": "object", "additionalProperties": true}}, "required": []}),
    ))
}

fn refused_tool() -> ToolSpec {
    visible(raw(
        "refused_tool",
        json!({"type": "object", "properties": {"p": {"allOf": [{"type": "string"}]}}, "required": ["p"]}),
    ))
}

fn fine_tool() -> ToolSpec {
    visible(raw("fine_tool", json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []})))
}

// "A strict dialect that fails to project a tool (`ProjectionError`) sends that tool in the
// non-strict form of the same API": chat strict → the chat form, responses strict → the responses
// form (`"strict": false`); the other tools stay strict, in order.
#[tokio::test]
async fn the_registry_sends_a_tool_strict_mode_refuses_in_the_non_strict_form_of_the_same_api() {
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [open_tool(), fine_tool(), refused_tool()]));
    let copies = registry.list_tools(None).await;
    assert_eq!(copies.len(), 3);
    for (strict_dialect, plain) in
        [(Dialect::OpenAiChatStrict, Dialect::OpenAiChat), (Dialect::OpenAiResponsesStrict, Dialect::OpenAiResponses)]
    {
        let sent = registry.get_llm_definitions(None, strict_dialect).await;
        assert_eq!(sent.len(), 3, "{strict_dialect}");
        assert_eq!(text(&sent[0]), text(&copies[0].llm_definition(plain, Locale::En).unwrap()), "{strict_dialect}");
        assert_eq!(
            text(&sent[1]),
            text(&copies[1].llm_definition(strict_dialect, Locale::En).unwrap()),
            "{strict_dialect}"
        );
        assert_eq!(text(&sent[2]), text(&copies[2].llm_definition(plain, Locale::En).unwrap()), "{strict_dialect}");
    }
    let chat = registry.get_llm_definitions(None, Dialect::OpenAiChatStrict).await;
    assert!(chat[0]["function"].get("strict").is_none(), "{}", chat[0]);
    assert_eq!(chat[1]["function"]["strict"], json!(true));
    let responses = registry.get_llm_definitions(None, Dialect::OpenAiResponsesStrict).await;
    assert_eq!(responses[0]["strict"], json!(false));
    assert_eq!(responses[1]["strict"], json!(true));
    assert_eq!(responses[2]["strict"], json!(false));
    assert_eq!(
        text(&responses[0]["parameters"]),
        r#"{"type":"object","properties":{"meta":{"type":"object","additionalProperties":true}},"required":[]}"#
    );
}

// ---- gemini(S) ----------------------------------------------------------------------------------

// The removed keywords go at every depth: items of items, union branches, inlined definitions.
#[test]
fn gemini_removes_the_listed_keywords_at_every_depth() {
    let junk = json!({
        "$schema": "x", "$id": "urn:x", "$comment": "c",
        "additionalProperties": false, "patternProperties": {"^x": {}},
        "unevaluatedProperties": false, "propertyNames": {"pattern": "^a"},
    });
    let object = |props: Value| {
        let mut o = json!({"type": "object", "properties": props, "required": []});
        for (k, v) in junk.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    };
    let spec = raw(
        "junk",
        json!({
            "type": "object",
            "properties": {
                "grid": {"type": "array", "items": {"type": "array", "items": object(json!({"a": {"type": "string"}}))}},
                "either": {"anyOf": [object(json!({"b": {"type": "integer"}})), {"type": "string"}]},
                "ref": {"$ref": "#/$defs/D"},
            },
            "required": [],
            "$defs": {"D": object(json!({"c": {"type": "boolean"}}))},
        }),
    );
    let g = gemini(&spec);
    for keyword in [
        "$schema",
        "$id",
        "$comment",
        "additionalProperties",
        "patternProperties",
        "unevaluatedProperties",
        "propertyNames",
        "$defs",
        "$ref",
    ] {
        assert!(!has_key(&g, keyword), "{keyword}: {g}");
    }
    let clean = |props: Value| json!({"type": "object", "properties": props, "required": []});
    assert_eq!(g["properties"]["grid"]["items"]["items"], clean(json!({"a": {"type": "string"}})));
    assert_eq!(g["properties"]["either"]["anyOf"][0], clean(json!({"b": {"type": "integer"}})));
    assert_eq!(g["properties"]["ref"], clean(json!({"c": {"type": "boolean"}})));
}

// Gemini makes nothing nullable or required by itself: an optional plain property stays as it is,
// `required` keeps only the required names.
#[test]
fn gemini_leaves_optional_properties_as_written() {
    let spec = raw(
        "optional_plain",
        json!({
            "type": "object",
            "properties": {"a": {"type": "string", "description": "A"}, "b": {"type": "integer"}},
            "required": ["b"],
        }),
    );
    assert_eq!(
        text(&definition(&spec, Dialect::Gemini)),
        r#"{"name":"optional_plain","description":"Brief.","parameters":{"type":"object","properties":{"a":{"type":"string","description":"A"},"b":{"type":"integer"}},"required":["b"]}}"#
    );
}

// "`[t,"null"]` → t + `"nullable":true`" inside items, a union branch and a definition.
#[test]
fn gemini_flags_null_type_lists_at_every_depth() {
    let spec = raw(
        "null_lists",
        json!({
            "type": "object",
            "properties": {
                "xs": {"type": "array", "items": {"type": ["number", "null"]}},
                "u": {"anyOf": [{"type": ["boolean", "null"]}, {"type": "integer"}]},
                "r": {"$ref": "#/$defs/D"},
            },
            "required": [],
            "$defs": {"D": {"type": ["string", "null"], "description": "D"}},
        }),
    );
    let g = gemini(&spec);
    assert_eq!(g["properties"]["xs"]["items"], json!({"type": "number", "nullable": true}));
    assert_eq!(g["properties"]["u"]["anyOf"][0], json!({"type": "boolean", "nullable": true}));
    assert_eq!(g["properties"]["u"]["anyOf"][1], json!({"type": "integer"}));
    assert_eq!(g["properties"]["r"], json!({"type": "string", "description": "D", "nullable": true}));
}

// "`anyOf` of one branch and `{"type":"null"}` → that branch + nullable": the branch an object
// reference, inlined and cleaned.
#[test]
fn gemini_makes_a_nullable_object_reference_a_nullable_object() {
    let spec = raw(
        "nullable_object",
        json!({
            "type": "object",
            "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
            "required": [],
            "$defs": {"P": {
                "type": "object",
                "properties": {"x": {"type": "number"}},
                "required": ["x"],
                "additionalProperties": false,
            }},
        }),
    );
    assert_eq!(
        gemini(&spec)["properties"]["p"],
        json!({"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"], "nullable": true})
    );
}

// "`oneOf` → `anyOf`" inside items and inside a definition; "`const` v → `enum` [v]" inside a
// branch.
#[test]
fn gemini_turns_one_of_into_any_of_and_const_into_enum_at_depth() {
    let spec = raw(
        "deep_one_of",
        json!({
            "type": "object",
            "properties": {
                "xs": {"type": "array", "items": {"oneOf": [{"type": "string", "const": "a"}, {"type": "integer"}]}},
                "r": {"$ref": "#/$defs/D"},
            },
            "required": ["xs"],
            "$defs": {"D": {"oneOf": [{"type": "boolean"}, {"type": "number"}]}},
        }),
    );
    let g = gemini(&spec);
    assert!(!has_key(&g, "oneOf") && !has_key(&g, "const"), "{g}");
    assert_eq!(
        g["properties"]["xs"]["items"],
        json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "integer"}]})
    );
    assert_eq!(g["properties"]["r"], json!({"anyOf": [{"type": "boolean"}, {"type": "number"}]}));
}

// "refs inlined (a recursive one becomes `{"type":"object"}`)": with two types referring to each
// other, each is inlined until it would repeat inside itself.
#[test]
fn gemini_cuts_mutually_recursive_references_where_they_repeat() {
    let spec = raw(
        "mutual",
        json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "required": ["a"],
            "$defs": {
                "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}, "required": []},
                "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "n": {"type": "integer"}}, "required": []},
            },
        }),
    );
    assert_eq!(
        gemini(&spec)["properties"]["a"],
        json!({
            "type": "object",
            "properties": {"b": {
                "type": "object",
                "properties": {"a": {"type": "object"}, "n": {"type": "integer"}},
                "required": [],
            }},
            "required": [],
        })
    );
}

// A type used twice, side by side, is not recursive: both places get the whole definition.
#[test]
fn gemini_inlines_a_shared_definition_in_full_at_each_use() {
    let point = json!({"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]});
    let spec = raw(
        "shared",
        json!({
            "type": "object",
            "properties": {"from": {"$ref": "#/$defs/P"}, "to": {"$ref": "#/$defs/P"}},
            "required": ["from", "to"],
            "$defs": {"P": point},
        }),
    );
    let g = gemini(&spec);
    assert_eq!(g["properties"]["from"], point);
    assert_eq!(g["properties"]["to"], point);
}

// An enum of numbers is sent as compact-JSON strings of type `string`, its default too.
#[test]
fn gemini_sends_a_numeric_enums_default_as_a_string() {
    let spec = raw(
        "numeric_default",
        json!({
            "type": "object",
            "properties": {"level": {"type": "integer", "enum": [1, 2, 3], "default": 2}},
            "required": [],
        }),
    );
    assert_eq!(
        gemini(&spec)["properties"]["level"],
        json!({"type": "string", "enum": ["1", "2", "3"], "default": "2"})
    );
}

// "`parameters` omitted when S has no properties" only: a tool whose properties are all optional
// still sends them.
#[test]
fn gemini_sends_parameters_when_every_property_is_optional() {
    let spec = ToolSpec::builder("opt")
        .brief_description("Opt.")
        .parameters(vec![P::new("a", T::Boolean).description("A").required(false)])
        .build()
        .unwrap();
    assert_eq!(
        text(&definition(&spec, Dialect::Gemini)),
        r#"{"name":"opt","description":"Opt.","parameters":{"type":"object","properties":{"a":{"type":"boolean","description":"A"}},"required":[]}}"#
    );
}

// The Gemini projection refuses nothing strict mode refuses: an open object and `allOf` are sent
// (the keywords dropped).
#[test]
fn gemini_sends_what_strict_mode_refuses() {
    let spec = raw(
        "lenient",
        json!({
            "type": "object",
            "properties": {
                "meta": {"type": "object", "additionalProperties": true},
                "s": {"type": "string", "allOf": [{"minLength": 1}], "not": {"const": "x"}},
            },
            "required": ["s"],
        }),
    );
    let g = gemini(&spec);
    assert_eq!(g["properties"]["meta"]["type"], "object");
    assert_eq!(g["properties"]["s"]["type"], "string");
    for keyword in ["additionalProperties", "allOf", "not"] {
        assert!(!has_key(&g, keyword), "{keyword}: {g}");
    }
}

// "`[t,"null"]` → t + `"nullable":true` (more types → `anyOf` of single types)": with two types
// and null, the two become single-type branches and the null a flag.
#[test]
fn gemini_splits_a_type_list_with_null_into_single_types_flagged_nullable() {
    let spec = raw(
        "three",
        json!({
            "type": "object",
            "properties": {"v": {"type": ["string", "integer", "null"], "description": "V"}},
            "required": [],
        }),
    );
    assert_eq!(
        gemini(&spec)["properties"]["v"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "V", "nullable": true})
    );
}
