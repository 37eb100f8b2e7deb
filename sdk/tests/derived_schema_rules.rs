//! Written rules checked with concrete inputs and the outputs the rules' own words give: the
//! canonical parameters schema (from a parameter list, from the legacy dict form, from Rust
//! types), every dialect's projection of it (strict and Gemini forms included), the generated
//! parameter docs in English and Simplified Chinese, and the value renderings they use (Python
//! `repr`/`str` of values, Python and `serde_json` float formats). Texts and key order are
//! compared byte for byte (serialised JSON), except inside schemas whose key order no rule fixes
//! (schemars' own output, keys a projection adds), which are compared as values.

use serde_json::{Map, Value, json};
use toolhook::{
    ActionInfo, DeclaredTool, Dialect, Json, Locale, ProjectionError, ToolAnnotation, ToolIcon, ToolParamType as T,
    ToolParameterInfo as P, ToolSpec, schemars, serde, tool,
};

// ---- helpers ------------------------------------------------------------------------------------

fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn map(value: Value) -> Map<String, Value> {
    value.as_object().expect("an object").clone()
}

fn listed(name: &str, brief: &str, parameters: Vec<P>) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description(brief)
        .parameters(parameters)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn raw(name: &str, brief: &str, schema: Value) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description(brief)
        .parameters_raw(schema)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn schema_text(spec: &ToolSpec) -> String {
    text(spec.parameters_schema())
}

fn docs(spec: &ToolSpec) -> [String; 2] {
    [spec.detailed_description(Locale::En).to_owned(), spec.detailed_description(Locale::ZhHans).to_owned()]
}

fn definition(spec: &ToolSpec, dialect: Dialect, locale: Locale) -> Value {
    spec.llm_definition(dialect, locale).unwrap_or_else(|e| panic!("{dialect}: {e}"))
}

fn definition_text(spec: &ToolSpec, dialect: Dialect) -> String {
    text(&definition(spec, dialect, Locale::En))
}

fn declared(name: &str) -> ToolSpec {
    DeclaredTool::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .spec()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().expect("an object").keys().map(String::as_str).collect()
}

/// Every key of every object anywhere in `value`.
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

/// A tool with one required and one optional parameter, a brief and author text.
fn weather() -> ToolSpec {
    ToolSpec::builder("weather")
        .brief_description("Get the weather.")
        .detailed_description("Forecasts are approximate.")
        .parameters(vec![
            P::new("city", T::String).description("City name"),
            P::new("days", T::Integer).description("Days ahead").required(false),
        ])
        .build()
        .unwrap()
}

const WEATHER_SCHEMA: &str = r#"{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","description":"Days ahead"}},"required":["city"]}"#;
const WEATHER_STRICT: &str = r#"{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":["integer","null"],"description":"Days ahead"}},"required":["city","days"],"additionalProperties":false}"#;

// ---- canonical schema from a parameter list -----------------------------------------------------

// "Keys per parameter, in order: `type`; `description`; `enum` (non-empty only); `default` (set
// only); `items` (arrays: `items_schema` verbatim)"; `required` defaults to true and decides alone;
// block values: zh-Hans PyStr (`['a', 'b']`) joined by `、`, English compact JSON joined by `, `.
#[test]
fn an_array_parameter_lists_enum_and_default_before_items() {
    let spec = listed(
        "arrays",
        "Arrays.",
        vec![
            P::new("tags", T::Array)
                .description("Tags")
                .enum_values([json!(["a"]), json!(["b", "c"])])
                .default(json!(["a"]))
                .items_schema(json!({"type": "string"})),
            P::new("ids", T::Array).description("IDs.").items_schema(json!({"type": "integer"})).required(false),
        ],
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"tags":{"type":"array","description":"Tags","enum":[["a"],["b","c"]],"default":["a"],"items":{"type":"string"}},"ids":{"type":"array","description":"IDs.","items":{"type":"integer"}}},"required":["tags"]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- tags：array，必填。Tags 可选值：['a']、['b', 'c']。 默认值：['a']。\n- ids：array，可选。IDs."
    );
    assert_eq!(
        en,
        "Parameter details:\n- tags: array, required. Tags. Allowed values: [\"a\"], [\"b\",\"c\"]. Default: [\"a\"]\n- ids: array, optional. IDs"
    );
}

// Objects: "`properties` (verbatim, `{}` if unset), `required` (= `required_properties`, always),
// then `additionalProperties` if set", after `type`, `description`, `enum`, `default`; a blank
// description: `无额外说明` / `No description`; object values: `{'k': 1}` / compact JSON.
#[test]
fn an_object_parameter_lists_every_key_in_the_written_order() {
    let spec = listed(
        "objects",
        "Objects.",
        vec![
            P::new("opts", T::Object)
                .description("Options")
                .enum_values([json!({"z": 1})])
                .default(json!({"z": 1}))
                .properties(map(json!({"z": {"type": "integer"}, "a": {"type": "string"}})))
                .required_properties(["z"])
                .additional_properties(json!({"type": "string"}))
                .required(false),
            P::new("bag", T::Object),
        ],
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"opts":{"type":"object","description":"Options","enum":[{"z":1}],"default":{"z":1},"properties":{"z":{"type":"integer"},"a":{"type":"string"}},"required":["z"],"additionalProperties":{"type":"string"}},"bag":{"type":"object","description":"","properties":{},"required":[]}},"required":["bag"]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- opts：object，可选。Options 可选值：{'z': 1}。 默认值：{'z': 1}。\n- bag：object，必填。无额外说明"
    );
    assert_eq!(
        en,
        "Parameter details:\n- opts: object, optional. Options. Allowed values: {\"z\":1}. Default: {\"z\":1}\n- bag: object, required. No description"
    );
}

// "Nested schemas are copied, not validated": `items_schema` and `properties` keep odd types,
// odd keywords and their own key order.
#[test]
fn nested_schemas_are_copied_as_given() {
    let spec = listed(
        "nested",
        "Nested.",
        vec![
            P::new("rows", T::Array)
                .description("Rows")
                .items_schema(json!({"type": "float", "items": "nonsense", "z": {"b": 1, "a": 2}, "required": "x"})),
            P::new("cfg", T::Object)
                .description("Config")
                .properties(map(json!({"n": {"type": "INTEGER", "enum": []}, "m": "not a schema"}))),
        ],
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"rows":{"type":"array","description":"Rows","items":{"type":"float","items":"nonsense","z":{"b":1,"a":2},"required":"x"}},"cfg":{"type":"object","description":"Config","properties":{"n":{"type":"INTEGER","enum":[]},"m":"not a schema"},"required":[]}},"required":["rows","cfg"]}"#
    );
}

// ---- canonical schema from the legacy dict form -------------------------------------------------

// Full schema: "copied in key order; a missing `type` is inserted first" — a `type` that is
// present keeps its place, even last.
#[test]
fn a_full_schema_keeps_a_trailing_type_where_it_is() {
    let input =
        json!({"properties": {"a": {"type": "string", "description": "A"}}, "required": ["a"], "type": "object"});
    let spec = raw("trailing_type", "T.", input.clone());
    assert_eq!(schema_text(&spec), text(&input));
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- a: string, required. A");
    assert_eq!(zh, "参数说明：\n- a：string，必填。A");
}

// Full schema: "`properties` missing … → `{}`, `required` missing … → `[]` (replaced in place,
// else appended)": appended after the keys already there, `properties` before `required`.
#[test]
fn a_full_schema_gets_missing_properties_and_required_appended() {
    let spec = raw("required_first", "R.", json!({"required": ["a"], "type": "object"}));
    assert_eq!(schema_text(&spec), r#"{"required":["a"],"type":"object","properties":{}}"#);
    let spec = raw("root_keys", "R.", json!({"description": "Root", "type": "object", "additionalProperties": false}));
    assert_eq!(
        schema_text(&spec),
        r#"{"description":"Root","type":"object","additionalProperties":false,"properties":{},"required":[]}"#
    );
    // "if the schema has at least one object-valued property: the locale's block …; else the
    // author text (possibly `""`)".
    assert_eq!(docs(&spec), ["", ""]);
}

// Full schema: "copied in key order": every keyword of a raw full schema stays, `$schema`,
// `$defs`, `$ref` and `$comment` included (cleaning applies to schemars output only), and the
// plain dialects send it as it is.
#[test]
fn a_full_schema_is_copied_with_every_keyword() {
    let input = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"colour": {"$ref": "#/$defs/Colour", "$comment": "c"}, "n": {"type": "integer", "minimum": 1}},
        "required": ["n"],
        "$defs": {"Colour": {"type": "string", "enum": ["red", "green"]}},
        "additionalProperties": false,
    });
    let spec = raw("full_copy", "F.", input.clone());
    assert_eq!(schema_text(&spec), text(&input));
    assert_eq!(text(&definition(&spec, Dialect::Neutral, Locale::En)["parameters_schema"]), text(&input));
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- colour: string, optional. No description\n- n: integer, required. No description"
    );
    assert_eq!(zh, "参数说明：\n- colour：string，可选。无额外说明\n- n：integer，必填。无额外说明");
}

// "**Full schema** (`"type":"object"` or a `properties` key)": a dict with a `properties` key is a
// full schema even without `type` (inserted first), whatever its `properties` hold.
#[test]
fn a_properties_key_makes_a_full_schema() {
    let spec = raw("props_key", "P.", json!({"properties": {"type": "string", "description": "x"}}));
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"type":"string","description":"x"},"required":[]}"#
    );
    // "one line per top-level property in schema order (non-object values skipped)".
    assert_eq!(docs(&spec), ["", ""]);
}

// Property map: "each property loses its `required` key, and the name is required when that
// value was truthy" — an object property's own `required` list is that key too.
#[test]
fn a_property_map_takes_an_object_propertys_required_list_as_its_flag() {
    let spec = raw(
        "flags",
        "F.",
        json!({
            "obj": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            "flag": {"type": "boolean", "required": []},
        }),
    );
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"obj":{"type":"object","properties":{"x":{"type":"string"}}},"flag":{"type":"boolean"}},"required":["obj"]}"#
    );
}

// ---- canonical schema from Rust types -----------------------------------------------------------

/// A catalogue listing.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Listing {
    title: String,
    format: String,
    copies: u32,
}

/// Files a listing.
#[tool]
fn file_listing(
    /// The listing.
    listing: Listing,
) {
    let _ = listing;
}

// "`$schema`, `title`, and `format` on integers/numbers removed": keywords, not properties that
// happen to be named `title` or `format`.
#[test]
fn properties_named_title_or_format_are_kept() {
    let spec = declared("file_listing");
    let listing = &spec.parameters_schema()["properties"]["listing"];
    let props = &listing["properties"];
    assert_eq!(keys(props), ["title", "format", "copies"], "{listing}");
    assert_eq!(props["title"], json!({"type": "string"}));
    assert_eq!(props["format"], json!({"type": "string"}));
    assert_eq!(props["copies"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(listing["required"], json!(["title", "format", "copies"]));
}

/// A contact.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", deny_unknown_fields)]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Contact {
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    handle: String,
    ip: std::net::Ipv4Addr,
    age: u8,
    score: f32,
}

/// Saves a contact.
#[tool]
fn save_contact(
    /// The contact.
    contact: Contact,
) {
    let _ = contact;
}

// "`format` on integers/numbers removed"; "Everything else (doc-comment descriptions, `minimum`,
// `pattern`, `additionalProperties: false`) is kept" — so a string's `format` stays.
#[test]
fn number_formats_go_and_string_formats_patterns_and_closed_objects_stay() {
    let spec = declared("save_contact");
    let contact = &spec.parameters_schema()["properties"]["contact"];
    let props = &contact["properties"];
    assert_eq!(props["handle"], json!({"type": "string", "pattern": "^[a-z]+$"}), "{contact}");
    assert_eq!(props["ip"], json!({"type": "string", "format": "ipv4"}), "{contact}");
    assert_eq!(props["age"], json!({"type": "integer", "minimum": 0, "maximum": 255}), "{contact}");
    assert_eq!(props["score"], json!({"type": "number"}), "{contact}");
    assert_eq!(contact["additionalProperties"], json!(false), "{contact}");
}

/// Counts of a run.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct RunStats {
    count: u64,
    ratio: f64,
}

/// Reports run statistics.
#[tool]
fn run_stats() -> Json<RunStats> {
    Json(RunStats { count: 1, ratio: 0.5 })
}

// The output schema of a `Json<T>` is cleaned like a parameter's: "`$schema`, `title`, and
// `format` on integers/numbers removed"; MCP: `"outputSchema":O` when there is one.
#[test]
fn an_output_schema_is_cleaned_and_reaches_mcp() {
    let spec = declared("run_stats");
    let output = spec.output_schema().expect("an output schema");
    assert_eq!(
        output,
        &json!({
            "description": "Counts of a run.",
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 0}, "ratio": {"type": "number"}},
            "required": ["count", "ratio"],
        })
    );
    let mcp = definition(&spec, Dialect::Mcp, Locale::En);
    assert_eq!(keys(&mcp), ["name", "description", "inputSchema", "outputSchema"]);
    assert_eq!(text(&mcp["outputSchema"]), text(output));
}

/// Scales a value.
#[tool]
fn scale_value(
    /// Factor.
    #[param(default = 0.1)]
    factor: f32,
) {
    let _ = factor;
}

// "`default`: a string, integer, float or bool literal": the literal's value is the default, on an
// `f32` as on an `f64` (not the nearest `f32`), rendered PyFloat / compact JSON.
#[test]
fn a_float_literal_default_on_an_f32_keeps_the_literal() {
    let spec = declared("scale_value");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"factor":{"type":"number","description":"Factor.","default":0.1}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- factor: number, optional. Factor. Default: 0.1");
    assert_eq!(zh, "参数说明：\n- factor：number，可选。Factor. 默认值：0.1。");
}

// ---- dialects -----------------------------------------------------------------------------------

// "`Dialect` names (serde, `Display`, `FromStr`…)": `neutral`, `openai-chat`,
// `openai-chat-strict`, `openai-responses`, `openai-responses-strict`, `anthropic`, `gemini`,
// `mcp`.
#[test]
fn dialect_names_read_and_write_alike() {
    let names = [
        (Dialect::Neutral, "neutral"),
        (Dialect::OpenAiChat, "openai-chat"),
        (Dialect::OpenAiChatStrict, "openai-chat-strict"),
        (Dialect::OpenAiResponses, "openai-responses"),
        (Dialect::OpenAiResponsesStrict, "openai-responses-strict"),
        (Dialect::Anthropic, "anthropic"),
        (Dialect::Gemini, "gemini"),
        (Dialect::Mcp, "mcp"),
    ];
    assert_eq!(Dialect::ALL.to_vec(), names.iter().map(|(d, _)| *d).collect::<Vec<_>>());
    for (dialect, name) in names {
        assert_eq!(dialect.to_string(), name);
        assert_eq!(dialect.as_str(), name);
        assert_eq!(name.parse::<Dialect>().unwrap(), dialect);
        assert_eq!(serde_json::to_value(dialect).unwrap(), json!(name));
        assert_eq!(serde_json::from_value::<Dialect>(json!(name)).unwrap(), dialect);
    }
}

// Neutral `{"name":N,"description":D,"parameters_schema":S}`, OpenAI chat
// `{"type":"function","function":{"name":N,"description":D,"parameters":S}}`, Anthropic
// `{"name":N,"description":D,"input_schema":S}`; "D `description(locale)` (the brief only)".
#[test]
fn plain_dialects_wrap_the_brief_and_the_canonical_schema() {
    let spec = weather();
    assert_eq!(schema_text(&spec), WEATHER_SCHEMA);
    assert_eq!(
        definition_text(&spec, Dialect::Neutral),
        format!(r#"{{"name":"weather","description":"Get the weather.","parameters_schema":{WEATHER_SCHEMA}}}"#)
    );
    assert_eq!(
        definition_text(&spec, Dialect::OpenAiChat),
        format!(
            r#"{{"type":"function","function":{{"name":"weather","description":"Get the weather.","parameters":{WEATHER_SCHEMA}}}}}"#
        )
    );
    assert_eq!(
        definition_text(&spec, Dialect::Anthropic),
        format!(r#"{{"name":"weather","description":"Get the weather.","input_schema":{WEATHER_SCHEMA}}}"#)
    );
    // Gemini: nothing in this schema needs rewriting.
    assert_eq!(
        definition_text(&spec, Dialect::Gemini),
        format!(r#"{{"name":"weather","description":"Get the weather.","parameters":{WEATHER_SCHEMA}}}"#)
    );
}

// Decision "Responses API, non-strict | `strict` omitted | `"strict": false`":
// `{"type":"function","name":N,"description":D,"parameters":S,"strict":false}`.
#[test]
fn the_non_strict_responses_form_says_strict_false() {
    assert_eq!(
        definition_text(&weather(), Dialect::OpenAiResponses),
        format!(
            r#"{{"type":"function","name":"weather","description":"Get the weather.","parameters":{WEATHER_SCHEMA},"strict":false}}"#
        )
    );
}

// Strict chat `{"type":"function","function":{"name":N,"description":D,"parameters":strict(S),
// "strict":true}}`, strict responses `{"type":"function","name":N,"description":D,
// "parameters":strict(S),"strict":true}`; strict(S): "object schemas get `additionalProperties:
// false`…; `required` lists every property; a formerly optional property becomes nullable (string
// `type` t → `[t,"null"]`…)".
#[test]
fn strict_forms_close_the_object_and_make_optional_parameters_nullable() {
    let spec = weather();
    assert_eq!(
        definition_text(&spec, Dialect::OpenAiChatStrict),
        format!(
            r#"{{"type":"function","function":{{"name":"weather","description":"Get the weather.","parameters":{WEATHER_STRICT},"strict":true}}}}"#
        )
    );
    assert_eq!(
        definition_text(&spec, Dialect::OpenAiResponsesStrict),
        format!(
            r#"{{"type":"function","name":"weather","description":"Get the weather.","parameters":{WEATHER_STRICT},"strict":true}}"#
        )
    );
    // The spec's own schema is unchanged by projecting it.
    assert_eq!(schema_text(&spec), WEATHER_SCHEMA);
}

// strict(S) "on every subschema": item objects and nested objects are closed and fully required,
// their optional properties made nullable; "an `enum` gains `null`".
#[test]
fn strict_forms_reach_item_and_nested_objects() {
    let spec = listed(
        "rows",
        "Rows.",
        vec![
            P::new("rows", T::Array).description("Rows").items_schema(json!({
                "type": "object",
                "properties": {"id": {"type": "integer"}, "note": {"type": "string"}},
                "required": ["id"],
            })),
            P::new("filter", T::Object)
                .description("Filter")
                .properties(map(json!({"field": {"type": "string"}, "op": {"type": "string", "enum": ["eq", "ne"]}})))
                .required_properties(["field"])
                .required(false),
        ],
    );
    let strict = definition(&spec, Dialect::OpenAiChatStrict, Locale::En);
    assert_eq!(
        text(&strict["function"]["parameters"]),
        r#"{"type":"object","properties":{"rows":{"type":"array","description":"Rows","items":{"type":"object","properties":{"id":{"type":"integer"},"note":{"type":["string","null"]}},"required":["id","note"],"additionalProperties":false}},"filter":{"type":["object","null"],"description":"Filter","properties":{"field":{"type":"string"},"op":{"type":["string","null"],"enum":["eq","ne",null]}},"required":["field","op"],"additionalProperties":false}},"required":["rows","filter"],"additionalProperties":false}"#
    );
}

// Nullable forms: "a type list gains `"null"`; … an `enum` gains `null`"; "`oneOf` → `anyOf`".
#[test]
fn strict_nullable_forms_for_type_lists_and_enums() {
    let spec = raw(
        "forms",
        "Forms.",
        json!({
            "type": "object",
            "properties": {
                "multi": {"type": ["string", "integer"], "description": "M"},
                "choice": {"description": "C", "oneOf": [{"type": "string"}, {"type": "integer"}]},
                "level": {"type": "integer", "enum": [1, 2]},
            },
            "required": ["choice"],
        }),
    );
    let strict = definition(&spec, Dialect::OpenAiResponsesStrict, Locale::En);
    assert_eq!(
        text(&strict["parameters"]),
        r#"{"type":"object","properties":{"multi":{"type":["string","integer","null"],"description":"M"},"choice":{"description":"C","anyOf":[{"type":"string"},{"type":"integer"}]},"level":{"type":["integer","null"],"enum":[1,2,null]}},"required":["multi","choice","level"],"additionalProperties":false}"#
    );
}

// Nullable form of a schema without a type: "no type → `{"anyOf":[p,{"type":"null"}]}`", p being
// the property's schema as it was (its description included).
#[test]
fn strict_wraps_an_untyped_optional_property_whole() {
    let spec = raw(
        "untyped",
        "Untyped.",
        json!({"type": "object", "properties": {"any": {"description": "Anything"}}, "required": []}),
    );
    let strict = definition(&spec, Dialect::OpenAiChatStrict, Locale::En);
    assert_eq!(
        text(&strict["function"]["parameters"]),
        r#"{"type":"object","properties":{"any":{"anyOf":[{"description":"Anything"},{"type":"null"}]}},"required":["any"],"additionalProperties":false}"#
    );
}

// strict(S) "on every subschema": objects inside `anyOf` branches and `$defs` definitions are
// closed and fully required too; an optional reference (no type) becomes
// `{"anyOf":[p,{"type":"null"}]}`.
#[test]
fn strict_forms_reach_union_branches_and_definitions() {
    let spec = raw(
        "linked",
        "L.",
        json!({
            "type": "object",
            "properties": {
                "head": {"$ref": "#/$defs/Node"},
                "either": {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "string"}]},
            },
            "required": ["head", "either"],
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {"label": {"type": "string"}, "next": {"$ref": "#/$defs/Node"}},
                    "required": ["label"],
                },
            },
        }),
    );
    let strict = definition(&spec, Dialect::OpenAiChatStrict, Locale::En);
    let parameters = &strict["function"]["parameters"];
    assert_eq!(text(&parameters["properties"]["head"]), r##"{"$ref":"#/$defs/Node"}"##);
    assert_eq!(
        text(&parameters["properties"]["either"]),
        r#"{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},{"type":"string"}]}"#
    );
    assert_eq!(
        text(&parameters["$defs"]["Node"]),
        r##"{"type":"object","properties":{"label":{"type":"string"},"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},"required":["label","next"],"additionalProperties":false}"##
    );
    assert_eq!(parameters["required"], json!(["head", "either"]));
    assert_eq!(parameters["additionalProperties"], json!(false));
}

// strict(S): "`default` removed", on every subschema.
#[test]
fn strict_forms_remove_defaults_everywhere() {
    let spec = listed(
        "defaults",
        "Defaults.",
        vec![
            P::new("n", T::Integer).description("N").default(5).required(false),
            P::new("words", T::Array).description("Words").items_schema(json!({"type": "string", "default": "x"})),
        ],
    );
    for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
        let strict = definition(&spec, dialect, Locale::En);
        let mut found = Vec::new();
        all_keys(&strict, &mut found);
        assert!(!found.iter().any(|k| k == "default"), "{dialect}: {strict}");
        let parameters = if dialect == Dialect::OpenAiChatStrict {
            &strict["function"]["parameters"]
        } else {
            &strict["parameters"]
        };
        assert_eq!(parameters["properties"]["n"]["type"], json!(["integer", "null"]), "{dialect}");
        assert_eq!(parameters["required"], json!(["n", "words"]), "{dialect}");
    }
    // The canonical schema keeps them.
    assert_eq!(spec.parameters_schema()["properties"]["n"]["default"], 5);
}

// "an object with `true` … there → `ProjectionError::OpenObject { path }`"; the other dialects
// send S as it is.
#[test]
fn an_open_object_cannot_be_made_strict() {
    let spec = listed("open", "Open.", vec![P::new("meta", T::Object).description("Meta").additional_properties(true)]);
    let expected = r#"{"type":"object","properties":{"meta":{"type":"object","description":"Meta","properties":{},"required":[],"additionalProperties":true}},"required":["meta"]}"#;
    assert_eq!(schema_text(&spec), expected);
    for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
        assert_eq!(
            spec.llm_definition(dialect, Locale::En),
            Err(ProjectionError::OpenObject { path: "/properties/meta".to_owned() }),
            "{dialect}"
        );
    }
    assert_eq!(definition(&spec, Dialect::OpenAiChat, Locale::En)["function"]["parameters"].to_string(), expected);
    assert_eq!(definition(&spec, Dialect::Mcp, Locale::En)["inputSchema"].to_string(), expected);
}

// "`allOf`, `not`, `if/then/else`, `dependentRequired`, `dependentSchemas`, `patternProperties`
// → `ProjectionError::Unsupported`" (the path is the JSON Pointer of the schema holding it).
#[test]
fn unsupported_keywords_fail_the_strict_projection() {
    let cases = [
        ("allOf", json!({"allOf": [{"type": "string"}]})),
        ("not", json!({"type": "string", "not": {"enum": ["x"]}})),
        ("if", json!({"type": "string", "if": {"const": "a"}})),
        (
            "dependentRequired",
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "dependentRequired": {"a": []}}),
        ),
        (
            "dependentSchemas",
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "dependentSchemas": {"a": {}}}),
        ),
        (
            "patternProperties",
            json!({"type": "object", "properties": {}, "required": [], "patternProperties": {"^x": {"type": "string"}}}),
        ),
    ];
    for (keyword, schema) in cases {
        let spec = raw("unsupported", "U.", json!({"type": "object", "properties": {"p": schema}, "required": ["p"]}));
        for dialect in [Dialect::OpenAiChatStrict, Dialect::OpenAiResponsesStrict] {
            assert_eq!(
                spec.llm_definition(dialect, Locale::En),
                Err(ProjectionError::Unsupported { keyword: keyword.to_owned(), path: "/properties/p".to_owned() }),
                "{dialect}"
            );
        }
        assert!(spec.llm_definition(Dialect::Anthropic, Locale::En).is_ok(), "{keyword}");
    }
}

// "No parameters: `{"type":"object","properties":{},"required":[]}`", made strict: closed.
#[test]
fn the_empty_schema_made_strict_is_closed() {
    let spec = ToolSpec::builder("ping").brief_description("Ping.").build().unwrap();
    assert_eq!(
        definition_text(&spec, Dialect::OpenAiChatStrict),
        r#"{"type":"function","function":{"name":"ping","description":"Ping.","parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false},"strict":true}}"#
    );
}

// Gemini: "`parameters` omitted when S has no properties"; the legacy `{}` is "no parameters"
// and a bare `{"type":"object"}` gets `properties: {}`.
#[test]
fn gemini_omits_the_parameters_of_a_tool_without_properties() {
    let specs = [
        ToolSpec::builder("ping").brief_description("Ping.").build().unwrap(),
        raw("ping", "Ping.", json!({})),
        raw("ping", "Ping.", json!({"type": "object"})),
    ];
    for spec in specs {
        assert_eq!(definition_text(&spec, Dialect::Gemini), r#"{"name":"ping","description":"Ping."}"#);
        assert_eq!(
            definition_text(&spec, Dialect::Anthropic),
            r#"{"name":"ping","description":"Ping.","input_schema":{"type":"object","properties":{},"required":[]}}"#
        );
    }
}

// gemini(S): "`[t,"null"]` → t + `"nullable":true` (more types → `anyOf` of single types);
// `anyOf` of one branch and `{"type":"null"}` → that branch + nullable". Where the added keys go
// is not written down, so the properties are compared as values.
#[test]
fn gemini_flags_nullable_types_and_splits_type_lists() {
    let spec = raw(
        "nullable",
        "N.",
        json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"], "description": "A"},
                "b": {"anyOf": [{"type": "integer", "description": "B"}, {"type": "null"}]},
                "c": {"type": ["string", "integer"], "description": "C"},
            },
            "required": ["a"],
        }),
    );
    let gemini = definition(&spec, Dialect::Gemini, Locale::En);
    let parameters = &gemini["parameters"];
    assert_eq!(keys(&gemini), ["name", "description", "parameters"]);
    assert_eq!(keys(parameters), ["type", "properties", "required"]);
    assert_eq!(keys(&parameters["properties"]), ["a", "b", "c"]);
    assert_eq!(parameters["required"], json!(["a"]));
    let props = &parameters["properties"];
    assert_eq!(props["a"], json!({"type": "string", "nullable": true, "description": "A"}));
    assert_eq!(props["b"], json!({"type": "integer", "description": "B", "nullable": true}));
    assert_eq!(props["c"], json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "C"}));
}

// gemini(S): "refs inlined; `$defs`, `$schema`, `$id`, `$comment`, `additionalProperties`,
// `patternProperties`, `unevaluatedProperties`, `propertyNames` removed; … `oneOf` → `anyOf`;
// `const` v → `enum` [v]".
#[test]
fn gemini_inlines_refs_rewrites_unions_and_consts_and_drops_keywords() {
    let spec = raw(
        "gemini_forms",
        "G.",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "mode": {"description": "M", "oneOf": [{"type": "string", "const": "fast"}, {"type": "string", "const": "slow"}]},
                "colour": {"$ref": "#/$defs/Colour"},
                "note": {"type": "string", "$comment": "internal", "$id": "urn:note"},
                "tags": {
                    "type": "object",
                    "properties": {"k": {"type": "string"}},
                    "propertyNames": {"pattern": "^[a-z]+$"},
                    "patternProperties": {"^x": {"type": "string"}},
                    "unevaluatedProperties": false,
                    "additionalProperties": {"type": "string"},
                },
            },
            "required": ["mode"],
            "$defs": {"Colour": {"type": "string", "enum": ["red", "green"]}},
        }),
    );
    let parameters = definition(&spec, Dialect::Gemini, Locale::En)["parameters"].clone();
    assert_eq!(keys(&parameters), ["type", "properties", "required"], "{parameters}");
    let props = &parameters["properties"];
    assert_eq!(
        text(&props["mode"]),
        r#"{"description":"M","anyOf":[{"type":"string","enum":["fast"]},{"type":"string","enum":["slow"]}]}"#
    );
    assert_eq!(text(&props["colour"]), r#"{"type":"string","enum":["red","green"]}"#);
    assert_eq!(text(&props["note"]), r#"{"type":"string"}"#);
    let tags = props["tags"].as_object().unwrap();
    for dropped in ["propertyNames", "patternProperties", "unevaluatedProperties", "additionalProperties"] {
        assert!(!tags.contains_key(dropped), "{dropped} in {}", props["tags"]);
    }
    assert_eq!(props["tags"]["properties"], json!({"k": {"type": "string"}}));
}

// gemini(S): "refs inlined", "`anyOf` of one branch and `{"type":"null"}` → that branch +
// nullable", "`oneOf` → `anyOf`", "`[t,"null"]` → t + `"nullable":true`", wherever they occur
// (a nullable reference, a `oneOf` with a null branch, item schemas).
#[test]
fn gemini_rewrites_combined_and_nested_forms() {
    let spec = raw(
        "gemini_nested",
        "G.",
        json!({
            "type": "object",
            "properties": {
                "colour": {"anyOf": [{"$ref": "#/$defs/Colour"}, {"type": "null"}]},
                "label": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                "counts": {"type": "array", "items": {"type": ["integer", "null"]}},
            },
            "required": [],
            "$defs": {"Colour": {"type": "string", "enum": ["red", "green"]}},
        }),
    );
    let parameters = definition(&spec, Dialect::Gemini, Locale::En)["parameters"].clone();
    assert_eq!(keys(&parameters), ["type", "properties", "required"], "{parameters}");
    let props = &parameters["properties"];
    assert_eq!(props["colour"], json!({"type": "string", "enum": ["red", "green"], "nullable": true}));
    assert_eq!(props["label"], json!({"type": "string", "nullable": true}));
    assert_eq!(props["counts"], json!({"type": "array", "items": {"type": "integer", "nullable": true}}));
}

// MCP `{"name":N,"title":T,"description":D,"inputSchema":S,"outputSchema":O,"annotations":A,
// "icons":I}`; "title/outputSchema/annotations/icons only when non-empty"; annotations: "`title`,
// `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint` from the set ToolAnnotation
// fields"; icons: `{"src","mimeType"?,"sizes"?}`.
#[test]
fn mcp_lists_title_output_annotations_and_icons_when_set() {
    let annotation = ToolAnnotation {
        title: "Lookup tool".into(),
        read_only: Some(true),
        open_world: Some(false),
        audience: vec!["user".into()],
        priority: Some(0.5),
        ..Default::default()
    };
    let spec = ToolSpec::builder("lookup")
        .title("Lookup")
        .brief_description("Look it up.")
        .parameters(vec![P::new("q", T::String).description("Query")])
        .output_schema(json!({"type": "object", "properties": {"hits": {"type": "integer"}}, "required": ["hits"]}))
        .annotation(annotation)
        .icon(ToolIcon::new("https://example.com/a.png").mime_type("image/png").size("48x48").size("96x96"))
        .icon(ToolIcon::new("https://example.com/b.svg"))
        .build()
        .unwrap();
    assert_eq!(
        definition_text(&spec, Dialect::Mcp),
        r#"{"name":"lookup","title":"Lookup","description":"Look it up.","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"Query"}},"required":["q"]},"outputSchema":{"type":"object","properties":{"hits":{"type":"integer"}},"required":["hits"]},"annotations":{"title":"Lookup tool","readOnlyHint":true,"openWorldHint":false},"icons":[{"src":"https://example.com/a.png","mimeType":"image/png","sizes":["48x48","96x96"]},{"src":"https://example.com/b.svg"}]}"#
    );
}

// MCP: "title/outputSchema/annotations/icons only when non-empty"; only the five hint fields form
// the annotations, so audience and priority alone give none.
#[test]
fn mcp_leaves_out_what_is_empty() {
    assert_eq!(
        definition_text(&weather(), Dialect::Mcp),
        format!(r#"{{"name":"weather","description":"Get the weather.","inputSchema":{WEATHER_SCHEMA}}}"#)
    );
    let spec = ToolSpec::builder("quiet")
        .brief_description("Quiet.")
        .annotation(ToolAnnotation { audience: vec!["assistant".into()], priority: Some(1.0), ..Default::default() })
        .build()
        .unwrap();
    assert_eq!(
        definition_text(&spec, Dialect::Mcp),
        r#"{"name":"quiet","description":"Quiet.","inputSchema":{"type":"object","properties":{},"required":[]}}"#
    );
}

// "D `description(locale)`, S `parameters_schema_for(locale)` (differs for legacy actions)";
// decision "legacy fallback and default failure texts | zh-Hans only | per locale": the brief
// `Tool {name}` / `工具 {name}`, the parameter text `Legacy action parameter` / `兼容旧 Action 参数`.
#[test]
fn definitions_use_the_locales_brief_and_schema() {
    let info: ActionInfo =
        serde_json::from_value(json!({"name": "poke", "action_parameters": {"target": ""}})).unwrap();
    let spec = ToolSpec::from_action(info).unwrap();
    assert_eq!(
        text(&definition(&spec, Dialect::Anthropic, Locale::ZhHans)),
        r#"{"name":"poke","description":"工具 poke","input_schema":{"type":"object","properties":{"target":{"type":"string","description":"兼容旧 Action 参数"}},"required":[]}}"#
    );
    assert_eq!(
        text(&definition(&spec, Dialect::Anthropic, Locale::En)),
        r#"{"name":"poke","description":"Tool poke","input_schema":{"type":"object","properties":{"target":{"type":"string","description":"Legacy action parameter"}},"required":[]}}"#
    );
    let spec = ToolSpec::builder("weather")
        .brief_description("Get the weather.")
        .brief_description_in(Locale::ZhHans, "查询天气")
        .build()
        .unwrap();
    assert_eq!(definition(&spec, Dialect::Neutral, Locale::ZhHans)["description"], "查询天气");
    assert_eq!(definition(&spec, Dialect::Neutral, Locale::En)["description"], "Get the weather.");
}

// ---- generated parameter docs and value renderings ----------------------------------------------

// "**trim** = Rust `str::trim`; **blank** = empty after trim" (U+3000 is whitespace to it, U+200B
// is not); desc zh-Hans "trimmed; `无额外说明` if blank", English "trimmed, one trailing `.`
// removed, trimmed; `No description` if blank"; the schema keeps the description verbatim.
#[test]
fn descriptions_are_trimmed_as_rust_trims() {
    let spec = listed(
        "trims",
        "Trims.",
        vec![
            P::new("city", T::String).description("\u{3000}城市\u{3000}"),
            P::new("gap", T::String).description("\u{3000}\u{a0}"),
            P::new("name", T::String).description("Name.\u{3000}"),
            P::new("zw", T::String).description("\u{200b}"),
        ],
    );
    assert_eq!(spec.parameters_schema()["properties"]["city"]["description"], "\u{3000}城市\u{3000}");
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- city：string，必填。城市\n- gap：string，必填。无额外说明\n- name：string，必填。Name.\n- zw：string，必填。\u{200b}"
    );
    assert_eq!(
        en,
        "Parameter details:\n- city: string, required. 城市\n- gap: string, required. No description\n- name: string, required. Name\n- zw: string, required. \u{200b}"
    );
}

// "brief: first non-blank of `brief_description`, `description`…; trimmed; else `Tool {name}` /
// `工具 {name}`" with blank as Rust's trim sees it; `Locale::En` is the default (decision "docs
// language: `En` default").
#[test]
fn a_brief_of_full_width_spaces_is_blank_and_english_is_the_default() {
    let spec = ToolSpec::builder("spaced")
        .brief_description("\u{3000}")
        .description("\tLegacy brief\u{3000}")
        .build()
        .unwrap();
    assert_eq!(spec.description(Locale::En), "Legacy brief");
    assert_eq!(spec.description(Locale::ZhHans), "Legacy brief");
    let spec = ToolSpec::builder("blank").brief_description("\u{3000}").description(" \n ").build().unwrap();
    assert_eq!(Locale::default(), Locale::En);
    assert_eq!(spec.description(Locale::default()), "Tool blank");
    assert_eq!(spec.description(Locale::ZhHans), "工具 blank");
}

// Block type: "`string` when missing, falsy or blank, any other value rendered (PyStr / compact
// JSON) and lowercased".
#[test]
fn non_string_types_are_rendered_and_lowercased() {
    let spec = raw(
        "odd_types",
        "O.",
        json!({
            "type": "object",
            "properties": {
                "a": {"type": 5},
                "b": {"type": true},
                "c": {"type": {"Kind": "X"}},
                "d": {"type": false},
                "e": {"type": 1.5},
                "f": {"type": 0},
            },
            "required": [],
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：5，可选。无额外说明\n- b：true，可选。无额外说明\n- c：{'kind': 'x'}，可选。无额外说明\n- d：string，可选。无额外说明\n- e：1.5，可选。无额外说明\n- f：string，可选。无额外说明"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: 5, optional. No description\n- b: true, optional. No description\n- c: {\"kind\":\"x\"}, optional. No description\n- d: string, optional. No description\n- e: 1.5, optional. No description\n- f: string, optional. No description"
    );
}

// "**Falsy** JSON: `null`, `false`, `0`, `0.0`, `""`, `[]`, `{}`"; desc: zh-Hans "PyStr of
// `description` (falsy → `""`)", English "the string (non-strings compact JSON, falsy → `""`)";
// a missing `type` reads `string`.
#[test]
fn falsy_descriptions_are_blank_and_truthy_ones_are_shown() {
    let spec = raw(
        "falsy",
        "F.",
        json!({
            "a": {"type": "number", "description": 0.0},
            "b": {"description": []},
            "c": {"description": {}},
            "d": {"description": null},
            "e": {"description": "0"},
            "f": {"description": -1.5},
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：number，可选。无额外说明\n- b：string，可选。无额外说明\n- c：string，可选。无额外说明\n- d：string，可选。无额外说明\n- e：string，可选。0\n- f：string，可选。-1.5"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: number, optional. No description\n- b: string, optional. No description\n- c: string, optional. No description\n- d: string, optional. No description\n- e: string, optional. 0\n- f: string, optional. -1.5"
    );
}

// PyFloat: "fixed notation when −4 ≤ x < 16, always with a fractional digit; otherwise
// `d[.ddd]e±XX`, signed, ≥ 2 exponent digits"; compact JSON: "fixed notation when −5 ≤ x < 16 with
// at least one fractional digit, otherwise `d[.ddd]e{x}` with no padding and a `+` on positive
// exponents"; enum values zh-Hans joined by `、`, English by `, `.
#[test]
fn floats_render_at_the_edges_of_both_notations() {
    let values = [
        json!(1e15),
        json!(9999999999999998.0),
        json!(1.5e16),
        json!(1.2345678901234568e17),
        json!(1e21),
        json!(1e100),
        json!(1.7976931348623157e308),
        json!(0.0001),
        json!(0.000015),
        json!(-2.5e-7),
        json!(5e-324),
        json!(0.0),
        json!(-0.0),
        json!(123.456),
    ];
    let spec = listed("edges", "Edges.", vec![P::new("x", T::Number).description("X").enum_values(values)]);
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"x":{"type":"number","description":"X","enum":[1000000000000000.0,9999999999999998.0,1.5e+16,1.2345678901234568e+17,1e+21,1e+100,1.7976931348623157e+308,0.0001,0.000015,-2.5e-7,5e-324,0.0,-0.0,123.456]}},"required":["x"]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- x：number，必填。X 可选值：1000000000000000.0、9999999999999998.0、1.5e+16、1.2345678901234568e+17、1e+21、1e+100、1.7976931348623157e+308、0.0001、1.5e-05、-2.5e-07、5e-324、0.0、-0.0、123.456。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- x: number, required. X. Allowed values: 1000000000000000.0, 9999999999999998.0, 1.5e+16, 1.2345678901234568e+17, 1e+21, 1e+100, 1.7976931348623157e+308, 0.0001, 0.000015, -2.5e-7, 5e-324, 0.0, -0.0, 123.456"
    );
}

// PyRepr "integers in decimal" (never float notation); compact JSON likewise.
#[test]
fn integers_render_in_decimal_in_both_locales() {
    let spec = listed(
        "ints",
        "Ints.",
        vec![
            P::new("n", T::Integer)
                .description("N")
                .enum_values([json!(12345678901234567890u64), json!(-3), json!(10000000000000000i64), json!(0)])
                .default(json!(-9223372036854775808i64))
                .required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- n：integer，可选。N 可选值：12345678901234567890、-3、10000000000000000、0。 默认值：-9223372036854775808。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- n: integer, optional. N. Allowed values: 12345678901234567890, -3, 10000000000000000, 0. Default: -9223372036854775808"
    );
}

// PyRepr: "inside quotes escape `\\`, that quote, `\n`, `\r`, `\t`, and other non-printables
// (categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs except U+0020) as `\xhh`/`\uhhhh`/`\Uhhhhhhhh`; CJK and
// other printables raw"; `"…"` only "when the text holds `'` and no `"`"; objects
// `{'k': v, 'k2': v2}`. English: compact JSON.
#[test]
fn python_repr_escapes_every_kind_of_non_printable() {
    let words = json!([
        "\r",
        "a\\b",
        "\u{7}",
        "\u{7f}",
        "\u{85}",
        "\u{ad}",
        "\u{2028}",
        "\u{2029}",
        "\u{3000}",
        "\u{e000}",
        "\u{10ffff}",
        "\u{1f600}",
        "\u{feff}",
        "say \"hi\"",
        "it's \"x\"",
        "a b",
    ]);
    let spec = listed(
        "reprs",
        "Reprs.",
        vec![
            P::new("words", T::Array)
                .description("Words")
                .items_schema(json!({"type": "string"}))
                .default(words)
                .required(false),
            P::new("pairs", T::Object).description("Pairs").default(json!({"it's": "a\\b", "k\t": 1})).required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        concat!(
            "参数说明：\n- words：array，可选。Words 默认值：",
            r#"['\r', 'a\\b', '\x07', '\x7f', '\x85', '\xad', '\u2028', '\u2029', '\u3000', '\ue000', '\U0010ffff', '"#,
            "\u{1f600}",
            r#"', '\ufeff', 'say "hi"', 'it\'s "x"', 'a b']。"#,
            "\n- pairs：object，可选。Pairs 默认值：",
            r#"{"it's": 'a\\b', 'k\t': 1}。"#,
        )
    );
    assert_eq!(
        en,
        concat!(
            "Parameter details:\n- words: array, optional. Words. Default: ",
            r#"["\r","a\\b","\u0007",""#,
            "\u{7f}\",\"\u{85}\",\"\u{ad}\",\"\u{2028}\",\"\u{2029}\",\"\u{3000}\",\"\u{e000}\",\"\u{10ffff}\",\"\u{1f600}\",\"\u{feff}\",",
            r#""say \"hi\"","it's \"x\"","a b"]"#,
            "\n- pairs: object, optional. Pairs. Default: ",
            r#"{"it's":"a\\b","k\t":1}"#,
        )
    );
}

// PyStr: "a string renders as itself" (no quotes, no escapes) in zh-Hans; English "strings bare".
#[test]
fn a_string_default_renders_as_itself_in_both_locales() {
    let spec = listed(
        "bare",
        "Bare.",
        vec![
            P::new("pad", T::String).description("Pad").default("  ").required(false),
            P::new("sep", T::String).description("Separator").default("line1\nline2 'q' \"d\"").required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- pad：string，可选。Pad 默认值：  。\n- sep：string，可选。Separator 默认值：line1\nline2 'q' \"d\"。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- pad: string, optional. Pad. Default:   \n- sep: string, optional. Separator. Default: line1\nline2 'q' \"d\""
    );
}

// PyRepr "arrays `[a, b]`; objects `{'k': v, 'k2': v2}`", `True`/`None`, floats as PyFloat, at any
// depth; English compact JSON.
#[test]
fn nested_values_render_as_python_and_as_compact_json() {
    let spec = listed(
        "deep",
        "Deep.",
        vec![
            P::new("grid", T::Array)
                .description("Grid")
                .items_schema(json!({}))
                .default(json!([[1, 2.0], ["a"], {"k": [true, null, false]}, [], {}]))
                .required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- grid：array，可选。Grid 默认值：[[1, 2.0], ['a'], {'k': [True, None, False]}, [], {}]。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- grid: array, optional. Grid. Default: [[1,2.0],[\"a\"],{\"k\":[true,null,false]},[],{}]"
    );
}

// Block line: "`- {n}: {type}, {required|optional}. ` + parts joined by `. `" with the enum part
// after `No description`; zh-Hans: `{desc}{enum}{default}` with ` 可选值：…。` and ` 默认值：…。`.
#[test]
fn a_blank_description_comes_before_the_enum_and_default_parts() {
    let spec = listed(
        "parts",
        "Parts.",
        vec![
            P::new("mode", T::String).enum_values(["fast", "slow"]).default("fast").required(false),
            P::new("flag", T::Boolean).description(" . ").enum_values([true, false]),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- mode：string，可选。无额外说明 可选值：fast、slow。 默认值：fast。\n- flag：boolean，必填。. 可选值：True、False。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- mode: string, optional. No description. Allowed values: fast, slow. Default: fast\n- flag: boolean, required. No description. Allowed values: true, false"
    );
}

// "detailed: … the locale's block, then one blank line and the author text when non-empty …
// Trimmed", with the block in each locale and the author text as written.
#[test]
fn the_author_text_follows_the_block_in_both_locales() {
    let [en, zh] = docs(&weather());
    assert_eq!(
        en,
        "Parameter details:\n- city: string, required. City name\n- days: integer, optional. Days ahead\n\nForecasts are approximate."
    );
    assert_eq!(
        zh,
        "参数说明：\n- city：string，必填。City name\n- days：integer，可选。Days ahead\n\nForecasts are approximate."
    );
}
