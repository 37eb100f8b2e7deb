//! `#[tool]` and `ToolSpec::builder` give equal specs for equal declarations, for every parameter
//! type the macro knows.
// Declarations without descriptions are part of what these tests compare (empty descriptions,
// the fallback brief), so the warning `#[tool]` gives for them is silenced here.
#![allow(deprecated)]

use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::num::{NonZeroI64, NonZeroU32};
use std::sync::Arc;
use toolhook::{
    ChatScope, DeclaredTool, Locale, PermissionLevel, ToolParamType as T, ToolParameterInfo as P, ToolSpec, Visibility,
    schemars, serde, tool,
};

fn declared(name: &str) -> ToolSpec {
    DeclaredTool::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .spec()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn same(macro_spec: &ToolSpec, builder_spec: &ToolSpec) {
    assert_eq!(
        serde_json::to_string_pretty(macro_spec).unwrap(),
        serde_json::to_string_pretty(builder_spec).unwrap(),
        "serialised specs differ"
    );
    assert_eq!(macro_spec.timeout(), builder_spec.timeout());
    assert_eq!(macro_spec.deny_unknown_args(), builder_spec.deny_unknown_args());
    assert_eq!(macro_spec, builder_spec);
}

fn s(name: &str) -> P {
    P::new(name, T::String)
}

// ---- strings ------------------------------------------------------------------------------------

/// Strings of every kind.
#[tool]
fn strings(
    /// owned
    a: String,
    /// borrowed
    b: &str,
    /// one character
    c: char,
    d: Cow<'_, str>,
    e: Box<str>,
    f: Arc<str>,
    g: std::string::String,
) {
    let _ = (a, b, c, d, e, f, g);
}

#[test]
fn string_types_match_the_builder() {
    let list = vec![
        s("a").description("owned"),
        s("b").description("borrowed"),
        s("c").description("one character"),
        s("d"),
        s("e"),
        s("f"),
        s("g"),
    ];
    same(
        &declared("strings"),
        &ToolSpec::builder("strings").brief_description("Strings of every kind.").parameters(list).build().unwrap(),
    );
}

// ---- numbers and booleans -----------------------------------------------------------------------

/// Numbers.
#[tool]
#[allow(clippy::too_many_arguments)]
fn numbers(
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: i128,
    f: isize,
    g: u8,
    h: u16,
    i: u32,
    j: u64,
    k: u128,
    l: usize,
    m: NonZeroU32,
    n: NonZeroI64,
    o: f32,
    p: f64,
    q: bool,
) {
    let _ = (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q);
}

#[test]
fn numeric_and_boolean_types_match_the_builder() {
    let mut list: Vec<P> = "abcdefghijklmn".chars().map(|c| P::new(c.to_string(), T::Integer)).collect();
    list.push(P::new("o", T::Number));
    list.push(P::new("p", T::Float));
    list.push(P::new("q", T::Boolean));
    same(
        &declared("numbers"),
        &ToolSpec::builder("numbers").brief_description("Numbers.").parameters(list).build().unwrap(),
    );
}

// ---- options, defaults, enums -------------------------------------------------------------------

/// Search the internet for information
///
/// Use a search engine to find related information.
#[tool(name = "search_web")]
fn search(
    /// Search keywords
    query: String,
    /// Maximum number of results to return
    #[param(default = 5)]
    limit: u32,
    /// Temperature unit
    #[param(enum = ["celsius", "fahrenheit"], default = "celsius")]
    unit: String,
    #[param(description = "Level", enum = [1, 2, 3])] level: Option<u8>,
    /// Ratio
    #[param(default = 5)]
    ratio: f64,
    #[param(default = ["a", "b"])] names: Vec<String>,
    maybe: Option<Option<String>>,
) {
    let _ = (query, limit, unit, level, ratio, names, maybe);
}

#[test]
fn options_defaults_and_enums_match_the_builder() {
    let list = vec![
        s("query").description("Search keywords"),
        P::new("limit", T::Integer).description("Maximum number of results to return").default(5).required(false),
        s("unit")
            .description("Temperature unit")
            .enum_values(["celsius", "fahrenheit"])
            .default("celsius")
            .required(false),
        P::new("level", T::Integer).description("Level").enum_values([1, 2, 3]).required(false),
        P::new("ratio", T::Number).description("Ratio").default(5.0).required(false),
        P::new("names", T::Array).items_schema(json!({"type": "string"})).default(json!(["a", "b"])).required(false),
        s("maybe").required(false),
    ];
    let builder = ToolSpec::builder("search_web")
        .brief_description("Search the internet for information")
        .detailed_description("Use a search engine to find related information.")
        .parameters(list)
        .build()
        .unwrap();
    let spec = declared("search_web");
    same(&spec, &builder);
    // An integer default on a float parameter is a float, in both locales.
    assert!(spec.detailed_description(Locale::En).contains("- ratio: number, optional. Ratio. Default: 5.0"));
    assert!(spec.detailed_description(Locale::ZhHans).contains("- ratio：number，可选。Ratio 默认值：5.0。"));
    assert!(spec.detailed_description(Locale::ZhHans).contains("默认值：['a', 'b']。"));
}

// ---- sequences and maps -------------------------------------------------------------------------

/// Collections.
#[tool]
#[allow(clippy::too_many_arguments)]
fn collections(
    a: Vec<u8>,
    b: VecDeque<String>,
    c: [f64; 3],
    d: Box<[bool]>,
    e: HashSet<String>,
    f: BTreeSet<i32>,
    g: HashMap<String, u32>,
    h: BTreeMap<String, Vec<String>>,
    i: serde_json::Value,
    j: serde_json::Map<String, serde_json::Value>,
    k: Vec<Vec<i64>>,
    l: Option<Vec<String>>,
) {
    let _ = (a, b, c, d, e, f, g, h, i, j, k, l);
}

#[test]
fn collection_types_match_the_builder() {
    let array = |name: &str, items: Value| P::new(name, T::Array).items_schema(items);
    let object = |name: &str, additional: Value| {
        P::new(name, T::Object).properties(Default::default()).additional_properties(additional)
    };
    let list = vec![
        array("a", json!({"type": "integer"})),
        array("b", json!({"type": "string"})),
        array("c", json!({"type": "number"})),
        array("d", json!({"type": "boolean"})),
        array("e", json!({"type": "string"})),
        array("f", json!({"type": "integer"})),
        object("g", json!({"type": "integer"})),
        object("h", json!({"type": "array", "items": {"type": "string"}})),
        object("i", json!(true)),
        object("j", json!(true)),
        array("k", json!({"type": "array", "items": {"type": "integer"}})),
        array("l", json!({"type": "string"})).required(false),
    ];
    same(
        &declared("collections"),
        &ToolSpec::builder("collections").brief_description("Collections.").parameters(list).build().unwrap(),
    );
}

mod imported_names {
    use serde_json::{Map, Value};
    use toolhook::tool;

    type Document = Value;
    type Counts = std::collections::HashMap<String, u32>;

    /// JSON through imported names and aliases.
    #[tool]
    pub(crate) fn imported_json(a: Value, b: Map<String, Value>, c: Document, d: Option<Value>, e: Counts) {
        let _ = (a, b, c, d, e);
    }
}

#[test]
fn json_values_named_without_their_path_get_the_same_open_object_schema() {
    let _ = imported_names::imported_json;
    let object = |name: &str| P::new(name, T::Object).properties(Default::default()).additional_properties(json!(true));
    // Composed by schemars, which also states the unsigned range.
    let counts = P::new("e", T::Object)
        .properties(Default::default())
        .additional_properties(json!({"type": "integer", "minimum": 0}));
    let list = vec![object("a"), object("b"), object("c"), object("d").required(false), counts];
    let spec = declared("imported_json");
    assert_eq!(spec.parameters_schema()["properties"]["c"]["type"], "object");
    same(
        &spec,
        &ToolSpec::builder("imported_json")
            .brief_description("JSON through imported names and aliases.")
            .parameters(list)
            .build()
            .unwrap(),
    );
}

// ---- user types ---------------------------------------------------------------------------------

/// A filter on one field.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Filter {
    /// Field to match.
    field: String,
    value: Option<f64>,
}

/// A temperature unit.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "lowercase")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// A shape.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", tag = "kind", rename_all = "lowercase")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

/// User types.
#[tool]
fn user_types(
    /// Which rows to keep
    filter: Filter,
    unit: Unit,
    filters: Vec<Filter>,
    #[param(default = "celsius")] fallback: Unit,
    maybe: Option<Filter>,
) {
    let _ = (filter, unit, filters, fallback, maybe);
}

#[test]
fn structs_and_unit_enums_match_the_builder() {
    let filter_props = json!({
        "field": {"type": "string", "description": "Field to match."},
        "value": {"type": "number"},
    });
    let filter = |name: &str, description: &str| {
        P::new(name, T::Object)
            .description(description)
            .properties(filter_props.as_object().unwrap().clone())
            .required_properties(["field"])
    };
    // Nested schemas keep schemars' key order.
    let filter_item = json!({"type": "object", "properties": filter_props, "required": ["field"], "description": "A filter on one field."});
    let list = vec![
        filter("filter", "Which rows to keep"),
        s("unit").description("A temperature unit.").enum_values(["celsius", "fahrenheit"]),
        P::new("filters", T::Array).items_schema(filter_item),
        s("fallback")
            .description("A temperature unit.")
            .enum_values(["celsius", "fahrenheit"])
            .default("celsius")
            .required(false),
        filter("maybe", "A filter on one field.").required(false),
    ];
    let builder = ToolSpec::builder("user_types").brief_description("User types.").parameters(list).build().unwrap();
    same(&declared("user_types"), &builder);
}

/// Data enums.
#[tool]
fn data_enums(shape: Shape) {
    let _ = shape;
}

#[test]
fn enums_with_data_match_the_raw_builder() {
    let spec = declared("data_enums");
    let shape = &spec.parameters_schema()["properties"]["shape"];
    assert_eq!(shape["type"], "object", "{shape}");
    assert!(shape.get("oneOf").is_some(), "{shape}");
    let builder = ToolSpec::builder("data_enums")
        .brief_description("Data enums.")
        .parameters_raw(spec.parameters_schema().clone())
        .build()
        .unwrap();
    same(&spec, &builder);
}

// ---- attributes ---------------------------------------------------------------------------------

/// The brief from the doc comment.
///
/// First detailed paragraph.
/// Still the first.
///
/// Second paragraph.
#[tool(
    name = "attributes",
    title = "Attribute tool",
    core_tool = true,
    platforms = ["QQ", "telegram", "qq"],
    permission = "bot_admin",
    scopes = ["group", "private"],
    timeout_ms = 1500,
    deny_unknown_args,
    metadata(author = "alice", weight = 3, ratio = 0.5, beta = true)
)]
async fn attribute_tool(q: String) -> String {
    q
}

#[test]
fn every_attribute_matches_the_builder() {
    let builder = ToolSpec::builder("attributes")
        .brief_description("The brief from the doc comment.")
        .detailed_description("First detailed paragraph.\nStill the first.\n\nSecond paragraph.")
        .title("Attribute tool")
        .core_tool(true)
        .platforms(["QQ", "telegram", "qq"])
        .permission(PermissionLevel::BotAdmin)
        .scopes([ChatScope::Group, ChatScope::Private])
        .timeout(std::time::Duration::from_millis(1500))
        .deny_unknown_args(true)
        .metadata("author", "alice")
        .metadata("weight", 3)
        .metadata("ratio", 0.5)
        .metadata("beta", true)
        .parameters(vec![s("q")])
        .build()
        .unwrap();
    let spec = declared("attributes");
    same(&spec, &builder);
    assert_eq!(spec.platforms(), ["qq", "telegram"]);
    assert_eq!(spec.visibility(), Visibility::Visible);
    assert_eq!(spec.parameters_schema()["additionalProperties"], false);
}

#[test]
fn deny_unknown_args_closes_a_raw_schema_the_author_left_open() {
    let closed = |raw: serde_json::Value| {
        let spec = ToolSpec::builder("raw").parameters_raw(raw).deny_unknown_args(true).build().unwrap();
        serde_json::to_string(spec.parameters_schema()).unwrap()
    };
    // `true` or a value schema would advertise arguments the flag refuses: `false`, after `required`.
    let open = json!({"type": "object", "additionalProperties": true, "properties": {"a": {"type": "string"}}, "required": ["a"]});
    assert_eq!(
        closed(open),
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#
    );
    let values = json!({"type": "object", "properties": {}, "additionalProperties": {"type": "string"}});
    assert_eq!(closed(values), r#"{"type":"object","properties":{},"required":[],"additionalProperties":false}"#);
    // The author's own `false` keeps its place.
    let already = json!({"type": "object", "additionalProperties": false, "properties": {}});
    assert_eq!(closed(already), r#"{"type":"object","additionalProperties":false,"properties":{},"required":[]}"#);
    // Without the flag, the author's value stays.
    let kept = ToolSpec::builder("raw")
        .parameters_raw(json!({"type": "object", "additionalProperties": true, "properties": {}}))
        .build()
        .unwrap();
    assert_eq!(kept.parameters_schema()["additionalProperties"], true);
}

/// Hidden even though it is a core tool.
#[tool(core_tool = true, visibility = "hidden", description = "legacy brief", brief_description = "  ")]
fn hidden_tool() {}

#[test]
fn visibility_wins_over_core_tool_and_blank_briefs_are_ignored() {
    let spec = declared("hidden_tool");
    assert_eq!(spec.visibility(), Visibility::Hidden);
    assert!(!spec.enabled());
    assert_eq!(spec.description(Locale::En), "legacy brief");
}

/// r#type is a keyword.
#[tool]
fn r#type(r#type: String, #[param(rename = "other")] renamed: u8) {
    let _ = (r#type, renamed);
}

#[test]
fn raw_identifiers_and_renames_set_schema_names() {
    let spec = declared("type");
    assert_eq!(spec.parameters_schema()["required"], json!(["type", "other"]));
}

#[tool]
fn no_docs() {}

#[test]
fn a_tool_without_docs_gets_the_fallback_brief_and_the_empty_schema() {
    let spec = declared("no_docs");
    assert_eq!(spec.description(Locale::En), "Tool no_docs");
    assert_eq!(spec.description(Locale::ZhHans), "工具 no_docs");
    assert_eq!(spec.parameters_schema().to_string(), r#"{"type":"object","properties":{},"required":[]}"#);
}

/// Mirrors the `sup_all_types_one_tool` vector.
#[tool(name = "everything", brief_description = "全部类型", detailed_description = "Covers every type.")]
#[allow(clippy::too_many_arguments)]
fn everything(
    /// text
    s: String,
    /// count
    i: Option<i64>,
    /// amount
    n: f64,
    /// ratio
    #[param(default = 0.25)]
    f: f64,
    /// flag
    #[param(default = true)]
    b: bool,
    /// ids
    a: Vec<i64>,
) {
    let _ = (s, i, n, f, b, a);
}

#[test]
fn the_all_types_vector_renders_the_same_from_the_macro() {
    let spec = declared("everything");
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        "参数说明：\n- s：string，必填。text\n- i：integer，可选。count\n- n：number，必填。amount\n- f：number，可选。ratio 默认值：0.25。\n- b：boolean，可选。flag 默认值：True。\n- a：array，必填。ids\n\nCovers every type."
    );
    assert_eq!(
        spec.detailed_description(Locale::En),
        "Parameter details:\n- s: string, required. text\n- i: integer, optional. count\n- n: number, required. amount\n- f: number, optional. ratio. Default: 0.25\n- b: boolean, optional. flag. Default: true\n- a: array, required. ids\n\nCovers every type."
    );
}
