//! `#[tool]` (and the legacy `#[action]`) checked rule by rule: each test declares small tools and
//! compares what they produce (the spec, the rendered docs, how calls decode and return) with
//! values worked out from the written rules.
// Several declarations leave descriptions out on purpose (fallback briefs, `No description`), so
// the warning `#[tool]` gives for them is silenced here; `#[action]` warns as deprecated too.
#![allow(deprecated)]

use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::HashMap;
use std::num::NonZeroU32;
use toolhook::__private::Invoker;
use toolhook::{
    ActionInfo, ActivationType, ChatMode, ChatScope, DeclaredTool, Locale, PermissionLevel, ToolError,
    ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolOutput, ToolSpec, ToolSpecError, Visibility, action,
    schemars, serde, tool,
};

// ---- helpers ------------------------------------------------------------------------------------

fn declared_tool(name: &str) -> DeclaredTool {
    DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap_or_else(|| panic!("no tool {name}"))
}

fn declared(name: &str) -> ToolSpec {
    declared_tool(name).spec().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn schema_text(spec: &ToolSpec) -> String {
    serde_json::to_string(spec.parameters_schema()).unwrap()
}

fn detailed(name: &str) -> [String; 2] {
    let spec = declared(name);
    [spec.detailed_description(Locale::En).to_owned(), spec.detailed_description(Locale::ZhHans).to_owned()]
}

async fn call_in(name: &str, args: &str, locale: Locale) -> Result<ToolExecutionResult, ToolError> {
    let tool = declared_tool(name);
    let call = ToolInvocation::new(name, args).with_call_id("call_1");
    let ctx: Option<&ToolExecutionContext> = None;
    match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, ctx, locale, None).await,
        Invoker::Sync(f) => f(None, call, ctx.cloned(), locale, None),
    }
}

async fn call(name: &str, args: &str) -> ToolExecutionResult {
    call_in(name, args, Locale::En).await.unwrap_or_else(|e| panic!("{name}: {}", e.message(Locale::En)))
}

async fn arg_error(name: &str, args: &str) -> String {
    let e = call_in(name, args, Locale::En).await.expect_err("expected an argument error");
    assert_eq!(e.type_name(), "InvalidArguments");
    e.message(Locale::En).to_owned()
}

/// Every key of every object anywhere in `v`.
fn all_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, inner) in map {
                out.push(k.clone());
                all_keys(inner, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|inner| all_keys(inner, out)),
        _ => {}
    }
}

// ---- doc comments -------------------------------------------------------------------------------

#[doc = "  Brief from   "]
#[doc = "  doc attributes.  "]
#[doc = ""]
#[doc = "Detail from an attribute."]
#[tool]
fn doc_attributes() {}

/** Block brief
continues here.

Block detail. */
#[tool]
fn block_doc() {}

// "`///`, `/** */` and `#[doc = "…"]` form the doc text … **First paragraph** = brief candidate
// (lines trimmed, joined with one space)."
#[test]
fn doc_attributes_and_block_comments_form_the_doc_text() {
    let spec = declared("doc_attributes");
    assert_eq!(spec.description(Locale::En), "Brief from doc attributes.");
    assert_eq!(spec.description(Locale::ZhHans), "Brief from doc attributes.");
    assert_eq!(spec.detailed_description(Locale::En), "Detail from an attribute.");
    let spec = declared("block_doc");
    assert_eq!(spec.description(Locale::En), "Block brief continues here.");
    assert_eq!(spec.detailed_description(Locale::En), "Block detail.");
}

/// Brief.
///
/// First detail line.
///    indented continuation.
///
///
///
/// Second paragraph.
#[doc = "ends with spaces.   "]
#[tool]
fn paragraphs() {}

// "**Remaining paragraphs** = detailed candidate (trailing whitespace removed, one blank line
// between paragraphs, trimmed)"; "one leading space removed per line".
#[test]
fn remaining_paragraphs_keep_one_blank_line_between_them() {
    let [en, zh] = detailed("paragraphs");
    let expected = "First detail line.\n   indented continuation.\n\nSecond paragraph.\nends with spaces.";
    assert_eq!(en, expected);
    assert_eq!(zh, expected);
}

/// Doc brief, not used.
///
/// Doc detail kept.
#[tool(description = "Attribute brief")]
fn brief_from_attribute() {}

// "**Remaining paragraphs** = detailed candidate …, used even when the brief came from an
// attribute."
#[test]
fn the_doc_detail_is_used_when_the_brief_comes_from_an_attribute() {
    let spec = declared("brief_from_attribute");
    assert_eq!(spec.description(Locale::En), "Attribute brief");
    assert_eq!(spec.detailed_description(Locale::En), "Doc detail kept.");
    assert_eq!(spec.detailed_description(Locale::ZhHans), "Doc detail kept.");
}

/// Doc brief.
///
/// Doc detail.
#[tool(brief_description = "  Brief attr  ", description = "Legacy attr", detailed_description = "  Attr detail.  ")]
fn all_brief_sources() {}

/// Doc brief wins over blank attributes.
#[tool(brief_description = "   ", description = "")]
fn blank_brief_attributes() {}

// "**brief**: first non-blank of `brief_description`, `description`, doc first paragraph;
// trimmed"; "**author text**: `detailed_description`, else the remaining doc paragraphs; trimmed."
#[test]
fn brief_and_author_text_take_the_first_non_blank_source() {
    let spec = declared("all_brief_sources");
    assert_eq!(spec.description(Locale::En), "Brief attr");
    assert_eq!(spec.description(Locale::ZhHans), "Brief attr");
    assert_eq!(spec.detailed_description(Locale::En), "Attr detail.");
    assert_eq!(declared("blank_brief_attributes").description(Locale::En), "Doc brief wins over blank attributes.");
}

#[allow(clippy::empty_docs)]
#[doc = "   "]
#[tool(name = "renamed_tool", description = "  ")]
fn fallback_brief() {}

// "else `Tool {name}` / `工具 {name}`"; "`name` … default the fn name without `r#`".
#[test]
fn the_fallback_brief_names_the_tool_by_its_declared_name() {
    let spec = declared("renamed_tool");
    assert_eq!(spec.name(), "renamed_tool");
    assert_eq!(spec.description(Locale::En), "Tool renamed_tool");
    assert_eq!(spec.description(Locale::ZhHans), "工具 renamed_tool");
    assert_eq!(spec.detailed_description(Locale::En), "");
    let _ = fallback_brief;
}

// ---- parameter docs -----------------------------------------------------------------------------

/// Parameter docs.
#[tool]
fn param_docs(
    /// First line
    ///   second line.
    ///
    /// Second paragraph.
    a: String,
    /// Ignored doc.
    #[param(description = "Attribute wins.")]
    b: String,
    c: String,
) {
    let _ = (a, b, c);
}

// "`///` on a parameter … gives its description: lines trimmed and joined with a space,
// paragraphs joined with `\n\n`. `#[param(description)]` wins. A parameter without either takes
// its type's doc comment, else `""`."
#[test]
fn parameter_doc_comments_become_descriptions() {
    let spec = declared("param_docs");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"First line second line.\n\nSecond paragraph."},"b":{"type":"string","description":"Attribute wins."},"c":{"type":"string","description":""}},"required":["a","b","c"]}"#
    );
    assert_eq!(
        spec.detailed_description(Locale::En),
        "Parameter details:\n- a: string, required. First line second line.\n\nSecond paragraph\n- b: string, required. Attribute wins\n- c: string, required. No description"
    );
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        "参数说明：\n- a：string，必填。First line second line.\n\nSecond paragraph.\n- b：string，必填。Attribute wins.\n- c：string，必填。无额外说明"
    );
}

/// Translate text.
///
/// 注意：仅支持中英互译。
#[tool]
fn translate(
    /// 原文
    text: String,
    /// 目标语言
    #[param(enum = ["zh", "en"], default = "zh")]
    target: String,
) {
    let _ = (text, target);
}

// "the locale's block, then one blank line and the author text when non-empty"; worked example:
// `参数说明：\n- text：string，必填。原文\n- target：string，可选。目标语言 可选值：zh、en。 默认值：zh。\n\n注意：仅支持中英互译。`
#[test]
fn the_block_is_followed_by_a_blank_line_and_the_author_text() {
    let [en, zh] = detailed("translate");
    assert_eq!(
        zh,
        "参数说明：\n- text：string，必填。原文\n- target：string，可选。目标语言 可选值：zh、en。 默认值：zh。\n\n注意：仅支持中英互译。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- text: string, required. 原文\n- target: string, optional. 目标语言. Allowed values: zh, en. Default: zh\n\n注意：仅支持中英互译。"
    );
}

/// Units.
#[tool]
fn units(
    /// Temperature unit.
    #[param(enum = ["celsius", "fahrenheit"], default = "celsius")]
    unit: String,
    /// Level.
    #[param(enum = [1, 2, 3], default = 2)]
    level: u8,
    /// Verbose
    #[param(default = false)]
    verbose: bool,
    /// Etc..
    etc: Option<String>,
) {
    let _ = (unit, level, verbose, etc);
}

// zh-Hans line `- {n}：{type}，{必填|可选}。{desc}{enum}{default}`, desc "nothing appended", enum
// ` 可选值：` + values joined by `、` + `。`, default ` 默认值：` + PyStr + `。` (`True`); English
// desc "trimmed, one trailing `.` removed", parts joined by `. `, `Allowed values: `, `Default: `.
#[test]
fn block_lines_render_enums_defaults_and_descriptions_per_locale() {
    let [en, zh] = detailed("units");
    assert_eq!(
        zh,
        "参数说明：\n- unit：string，可选。Temperature unit. 可选值：celsius、fahrenheit。 默认值：celsius。\n- level：integer，可选。Level. 可选值：1、2、3。 默认值：2。\n- verbose：boolean，可选。Verbose 默认值：False。\n- etc：string，可选。Etc.."
    );
    assert_eq!(
        en,
        "Parameter details:\n- unit: string, optional. Temperature unit. Allowed values: celsius, fahrenheit. Default: celsius\n- level: integer, optional. Level. Allowed values: 1, 2, 3. Default: 2\n- verbose: boolean, optional. Verbose. Default: false\n- etc: string, optional. Etc."
    );
}

/// Empty defaults.
#[tool]
fn empty_default(
    /// Prefix.
    #[param(default = "")]
    prefix: String,
) {
    let _ = prefix;
}

// Values: zh-Hans "PyStr (… `""` prints nothing)"; English "strings bare, `""` as `""`".
#[test]
fn an_empty_string_default_prints_nothing_in_zh_and_quotes_in_english() {
    let spec = declared("empty_default");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"prefix":{"type":"string","description":"Prefix.","default":""}},"required":[]}"#
    );
    let [en, zh] = detailed("empty_default");
    assert_eq!(zh, "参数说明：\n- prefix：string，可选。Prefix. 默认值：。");
    assert_eq!(en, "Parameter details:\n- prefix: string, optional. Prefix. Default: \"\"");
}

/// Quotes.
#[tool]
fn quoted_defaults(
    /// Word
    #[param(default = "it's")]
    word: String,
    /// Words
    #[param(default = ["it's", "x"])]
    words: Vec<String>,
) {
    let _ = (word, words);
}

// PyRepr: "strings in `'…'`, or `"…"` when the text holds `'` and no `"`"; arrays `[a, b]`;
// English values: "strings bare, … others compact JSON".
#[test]
fn default_strings_and_arrays_render_as_python_and_compact_json() {
    let [en, zh] = detailed("quoted_defaults");
    assert_eq!(
        zh,
        "参数说明：\n- word：string，可选。Word 默认值：it's。\n- words：array，可选。Words 默认值：[\"it's\", 'x']。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- word: string, optional. Word. Default: it's\n- words: array, optional. Words. Default: [\"it's\",\"x\"]"
    );
}

/// Floats.
#[tool]
fn float_values(
    /// 精度
    #[param(default = 0.00001)]
    eps: f64,
    /// Big
    #[param(default = 1e16)]
    big: f64,
    /// Factor
    #[param(enum = [0.5, 1.0, 2.5])]
    factor: Option<f64>,
) {
    let _ = (eps, big, factor);
}

// PyFloat: "fixed notation when −4 ≤ x < 16, always with a fractional digit …; otherwise
// `d[.ddd]e±XX`"; example `- eps：number，可选。精度 默认值：1e-05。` /
// `- eps: number, optional. 精度. Default: 0.00001`.
#[test]
fn float_values_render_as_pyfloat_in_zh_and_compact_json_in_english() {
    let [en, zh] = detailed("float_values");
    assert_eq!(
        zh,
        "参数说明：\n- eps：number，可选。精度 默认值：1e-05。\n- big：number，可选。Big 默认值：1e+16。\n- factor：number，可选。Factor 可选值：0.5、1.0、2.5。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- eps: number, optional. 精度. Default: 0.00001\n- big: number, optional. Big. Default: 1e+16\n- factor: number, optional. Factor. Allowed values: 0.5, 1.0, 2.5"
    );
}

/// Scale.
#[tool]
fn float_int_default(
    /// Scale.
    #[param(default = 2)]
    scale: f32,
) {
    let _ = scale;
}

// "An integer literal on a float parameter (`f32`, `f64`) is stored as a float: `default = 5`
// gives `"default": 5.0`, rendered `5.0` in both locales."
#[test]
fn an_integer_default_on_an_f32_is_a_float() {
    let spec = declared("float_int_default");
    assert_eq!(
        schema_text(&spec),
        r#"{"type":"object","properties":{"scale":{"type":"number","description":"Scale.","default":2.0}},"required":[]}"#
    );
    let [en, zh] = detailed("float_int_default");
    assert_eq!(en, "Parameter details:\n- scale: number, optional. Scale. Default: 2.0");
    assert_eq!(zh, "参数说明：\n- scale：number，可选。Scale. 默认值：2.0。");
}

// ---- the canonical schema -----------------------------------------------------------------------

/// Ordering.
#[tool]
fn ordering(
    /// Z.
    zeta: String,
    /// A.
    alpha: Option<u32>,
    ctx: &ToolExecutionContext,
    /// M.
    #[param(default = true)]
    mid: bool,
    /// Mode.
    #[param(enum = ["a", "b"])]
    mode: Option<String>,
    /// B.
    beta: i64,
) {
    let _ = (zeta, alpha, ctx, mid, mode, beta);
}

// "properties in declaration order, `required` always present (required names in declaration
// order)"; "`Option<T>` … as T, not required, no `null`"; context parameters never appear.
#[test]
fn properties_and_required_follow_declaration_order() {
    assert_eq!(
        schema_text(&declared("ordering")),
        r#"{"type":"object","properties":{"zeta":{"type":"string","description":"Z."},"alpha":{"type":"integer","description":"A."},"mid":{"type":"boolean","description":"M.","default":true},"mode":{"type":"string","description":"Mode.","enum":["a","b"]},"beta":{"type":"integer","description":"B."}},"required":["zeta","beta"]}"#
    );
}

/// Only a context.
///
/// Author text only.
#[tool]
fn only_context(ctx: &ToolExecutionContext) {
    let _ = ctx;
}

/// No parameters, no detail.
#[tool]
fn bare_tool() {}

// "No parameters: `{"type":"object","properties":{},"required":[]}`"; detailed: "Otherwise, if
// the schema has at least one object-valued property: the locale's block …; else the author text
// (possibly `""`)."
#[test]
fn tools_without_schema_parameters_have_only_the_author_text() {
    let spec = declared("only_context");
    assert_eq!(schema_text(&spec), r#"{"type":"object","properties":{},"required":[]}"#);
    assert_eq!(spec.detailed_description(Locale::En), "Author text only.");
    assert_eq!(spec.detailed_description(Locale::ZhHans), "Author text only.");
    let spec = declared("bare_tool");
    assert_eq!(spec.detailed_description(Locale::En), "");
    assert_eq!(spec.detailed_description(Locale::ZhHans), "");
}

/// Strict without parameters.
#[tool(deny_unknown_args)]
fn strict_empty() -> &'static str {
    "ok"
}

// "with `deny_unknown_args` they are errors and the schema gains a top-level
// `"additionalProperties": false` after `required`"; "`{path}: unknown parameter`".
#[tokio::test]
async fn deny_unknown_args_closes_even_an_empty_schema() {
    let spec = declared("strict_empty");
    assert!(spec.deny_unknown_args());
    assert_eq!(schema_text(&spec), r#"{"type":"object","properties":{},"required":[],"additionalProperties":false}"#);
    assert_eq!(arg_error("strict_empty", r#"{"extra":1}"#).await, "extra: unknown parameter");
    assert_eq!(call("strict_empty", "{}").await.content, "ok");
}

/// Detail header.
///
/// Parameter details:
/// - q: the query, free text
#[tool]
fn own_header(
    /// Query.
    q: String,
) {
    let _ = q;
}

/// Chinese header.
#[tool(detailed_description = "参数说明：\n- q：自定义说明")]
fn own_zh_header(
    /// Query.
    q: String,
) {
    let _ = q;
}

// "author text starting with `参数说明：` or `Parameter details:` is used as is in both locales
// (toolhook decision: no second block)."
#[test]
fn author_text_that_starts_with_a_header_is_used_as_is_in_both_locales() {
    let [en, zh] = detailed("own_header");
    assert_eq!(en, "Parameter details:\n- q: the query, free text");
    assert_eq!(zh, en);
    let [en, zh] = detailed("own_zh_header");
    assert_eq!(en, "参数说明：\n- q：自定义说明");
    assert_eq!(zh, en);
}

/// A point on a map.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct MapPoint {
    /// Latitude.
    lat: f64,
    /// Longitude.
    lon: f64,
}

/// Types in the block.
#[tool]
fn block_types(
    /// Tags.
    tags: Vec<String>,
    /// Weights.
    weights: HashMap<String, f64>,
    /// Anything.
    any: serde_json::Value,
    at: MapPoint,
) {
    let _ = (tags, weights, any, at);
}

// "**type** = string `type` trimmed and lowercased"; "Nested properties and items are not
// documented"; a parameter without a doc "takes its type's doc comment".
#[test]
fn block_lines_name_container_types_and_skip_nested_properties() {
    let [en, zh] = detailed("block_types");
    assert_eq!(
        en,
        "Parameter details:\n- tags: array, required. Tags\n- weights: object, required. Weights\n- any: object, required. Anything\n- at: object, required. A point on a map"
    );
    assert_eq!(
        zh,
        "参数说明：\n- tags：array，必填。Tags.\n- weights：object，必填。Weights.\n- any：object，必填。Anything.\n- at：object，必填。A point on a map."
    );
}

// ---- Rust types composed with schemars ----------------------------------------------------------

/// A range of pages.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct PageRange {
    /// First page.
    from: u32,
    /// Last page.
    to: Option<u32>,
}

/// Print options.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct PrintOptions {
    pages: PageRange,
    copies: u8,
}

/// Print.
#[tool]
fn print_pages(opts: PrintOptions) {
    let _ = opts;
}

// "`$ref`s inlined and `$defs` dropped …; `$schema`, `title`, and `format` on integers/numbers
// removed …. Everything else (doc-comment descriptions, `minimum`, …) is kept"; "`Option` fields
// without a null type".
#[test]
fn struct_parameters_are_cleaned_schemars_schemas() {
    let spec = declared("print_pages");
    let opts = &spec.parameters_schema()["properties"]["opts"];
    let mut keys = Vec::new();
    all_keys(spec.parameters_schema(), &mut keys);
    for banned in ["$ref", "$defs", "$schema", "title", "format"] {
        assert!(!keys.iter().any(|k| k == banned), "{banned} in {opts}");
    }
    assert_eq!(opts["type"], "object");
    assert_eq!(opts["description"], "Print options.");
    assert_eq!(opts["required"], json!(["pages", "copies"]));
    let pages = &opts["properties"]["pages"];
    assert_eq!(pages["type"], "object", "{pages}");
    assert_eq!(pages["required"], json!(["from"]));
    assert_eq!(pages["properties"]["from"], json!({"description": "First page.", "type": "integer", "minimum": 0}));
    assert_eq!(pages["properties"]["to"]["type"], "integer", "no null type: {pages}");
    assert_eq!(opts["properties"]["copies"]["maximum"], 255);
    assert_eq!(spec.parameters_schema()["required"], json!(["opts"]));
}

/// A node of a tree.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct TreeNode {
    label: String,
    children: Vec<TreeNode>,
}

/// Walk a tree.
#[tool]
fn walk_tree(
    /// The root.
    root: TreeNode,
) {
    let _ = root;
}

// "a recursive type keeps a root `$defs`, after `required`, with `#/$defs/Name` refs".
#[test]
fn a_recursive_type_keeps_a_root_defs_after_required() {
    let spec = declared("walk_tree");
    let root = spec.parameters_schema().as_object().unwrap();
    assert_eq!(root.keys().collect::<Vec<_>>(), ["type", "properties", "required", "$defs"]);
    let text = schema_text(&spec);
    let refs: Vec<&str> = text.match_indices(r#""$ref":""#).map(|(i, m)| &text[i + m.len()..]).collect();
    assert!(!refs.is_empty(), "{text}");
    assert!(refs.iter().all(|r| r.starts_with("#/$defs/")), "{text}");
    assert!(root["$defs"].as_object().unwrap().contains_key("TreeNode"), "{text}");
}

/// A number or a text.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum NumberOrText {
    Number(u32),
    Text(String),
}

/// A name in one of two spellings.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Spelling {
    Short(String),
    Long(Box<str>),
}

/// Untyped union.
#[tool]
fn untyped_union(value: NumberOrText) {
    let _ = value;
}

/// Shared-type union.
#[tool]
fn shared_type_union(value: Spelling) {
    let _ = value;
}

// "a `oneOf`/`anyOf` without `type` whose branches share one `type` gets it (first); differing
// branches fail the build (`ToolSpecError::UntypedParameter`…)".
#[test]
fn unions_get_their_branches_shared_type_or_fail_the_build() {
    let err = declared_tool("untyped_union").spec().expect_err("branches of differing types");
    assert!(matches!(err, ToolSpecError::UntypedParameter { .. }), "{err:?}");
    let spec = declared("shared_type_union");
    let value = spec.parameters_schema()["properties"]["value"].as_object().unwrap();
    assert_eq!(value.keys().next().map(String::as_str), Some("type"), "{value:?}");
    assert_eq!(value["type"], "string");
}

type Count = u32;

/// Alias with a bad default.
#[tool]
fn alias_bad_default(
    /// How many.
    #[param(default = "many")]
    how_many: Count,
) {
    let _ = how_many;
}

/// Alias with a good default.
#[tool]
fn alias_good_default(
    /// How many.
    #[param(default = 3, enum = [1, 3, 5])]
    how_many: Count,
) {
    let _ = how_many;
}

// "For any other type, aliases included (`type Count = u32;`), `default` and `enum` values are
// deserialised into T when the registry or `PluginSet` is built; a mismatch fails with a
// `ToolSpecError` naming the tool and the parameter."
#[test]
fn alias_defaults_are_checked_when_the_spec_is_built() {
    let err = declared_tool("alias_bad_default").spec().expect_err("a string does not fit u32").to_string();
    assert!(err.contains("alias_bad_default") && err.contains("how_many"), "{err}");
    let spec = declared("alias_good_default");
    let p = &spec.parameters_schema()["properties"]["how_many"];
    assert_eq!((&p["type"], &p["default"], &p["enum"]), (&json!("integer"), &json!(3), &json!([1, 3, 5])), "{p}");
    assert_eq!(spec.parameters_schema()["required"], json!([]));
}

// ---- attribute keys -----------------------------------------------------------------------------

/// Defaults.
#[tool]
fn attribute_defaults() {}

/// Core flag.
#[tool(core_tool)]
fn core_flag() {}

/// Core but deferred.
#[tool(core_tool = true, visibility = "deferred")]
fn core_but_deferred() {}

/// Visible.
#[tool(visibility = "visible")]
fn plainly_visible() {}

// Visibility "`Deferred` (default)"; "`.core_tool(bool)` visible, unless `.visibility(..)` is also
// called"; `permission` default `User`; "`platforms` (empty = any)", "`scopes` (empty = any)";
// "`title()` (`""`)"; "The builder adds no metadata of its own."
#[test]
fn attribute_keys_have_their_defaults_and_visibility_wins_over_core_tool() {
    let spec = declared("attribute_defaults");
    assert_eq!(spec.visibility(), Visibility::Deferred);
    assert!(spec.enabled());
    assert_eq!(spec.permission(), PermissionLevel::User);
    assert!(spec.platforms().is_empty() && spec.scopes().is_empty());
    assert_eq!(spec.title(), "");
    assert_eq!(spec.timeout(), None);
    assert!(!spec.deny_unknown_args());
    assert!(spec.metadata().is_empty(), "{:?}", spec.metadata());
    assert_eq!(spec.output_schema(), None);
    assert_eq!(declared("core_flag").visibility(), Visibility::Visible);
    assert_eq!(declared("core_but_deferred").visibility(), Visibility::Deferred);
    assert_eq!(declared("plainly_visible").visibility(), Visibility::Visible);
}

/// Single platform.
#[tool(platforms = "  QQ ", permission = "owner", scopes = ["channel", "private"], timeout_ms = 250)]
fn single_platform() {}

/// Metadata.
#[tool(metadata(zeta = "z", alpha = 1, mid = 1.0, flag = false))]
fn metadata_order() {}

// "`platforms` | string or `[strings]`" (trimmed, lowercased); `permission`, `scopes`,
// "`timeout_ms` | positive integer"; "`metadata(k = lit, …)` | string/integer/float/bool literals,
// in written order".
#[test]
fn access_keys_timeout_and_metadata_are_kept_as_written() {
    let spec = declared("single_platform");
    assert_eq!(spec.platforms(), ["qq"]);
    assert_eq!(spec.permission(), PermissionLevel::Owner);
    assert_eq!(spec.scopes(), [ChatScope::Channel, ChatScope::Private]);
    assert_eq!(spec.timeout(), Some(std::time::Duration::from_millis(250)));
    let spec = declared("metadata_order");
    assert_eq!(serde_json::to_string(spec.metadata()).unwrap(), r#"{"zeta":"z","alpha":1,"mid":1.0,"flag":false}"#);
}

/// English brief.
///
/// English detail.
#[tool(description_zh_hans = "中文简介", detailed_description_zh_hans = "中文详细说明。")]
fn bilingual(
    /// City
    #[param(description_zh_hans = "城市")]
    city: String,
) {
    let _ = city;
}

/// Only English.
#[tool]
fn english_only(
    /// City
    city: String,
) {
    let _ = city;
}

// Project addition: "`#[tool(description_zh_hans = "…", detailed_description_zh_hans = "…")]` and
// `#[param(description_zh_hans = "…")]`: the author's own Simplified Chinese text, in
// `Locale::ZhHans` definitions and parameter docs" (default: the English text).
#[test]
fn zh_hans_texts_of_the_author_are_used_in_that_locale_only() {
    let spec = declared("bilingual");
    assert_eq!(spec.description(Locale::En), "English brief.");
    assert_eq!(spec.description(Locale::ZhHans), "中文简介");
    assert_eq!(
        spec.detailed_description(Locale::En),
        "Parameter details:\n- city: string, required. City\n\nEnglish detail."
    );
    assert_eq!(spec.detailed_description(Locale::ZhHans), "参数说明：\n- city：string，必填。城市\n\n中文详细说明。");
    assert_eq!(spec.parameters_schema()["properties"]["city"]["description"], "City");
    assert_eq!(spec.parameters_schema_for(Locale::ZhHans)["properties"]["city"]["description"], "城市");
    let spec = declared("english_only");
    assert_eq!(spec.description(Locale::ZhHans), "Only English.");
    assert_eq!(spec.parameters_schema_for(Locale::ZhHans), spec.parameters_schema());
}

// ---- argument decoding --------------------------------------------------------------------------

/// Lenient containers.
#[tool]
fn lenient_containers(
    /// Flags.
    flags: Option<Vec<bool>>,
    /// Weights.
    weights: HashMap<String, f64>,
    /// Small numbers.
    small: Option<Vec<u8>>,
) -> String {
    let mut w: Vec<_> = weights.into_iter().collect();
    w.sort_by(|a, b| a.0.cmp(&b.0));
    format!("{flags:?}|{w:?}|{small:?}")
}

// "**Lenient scalars** (top-level parameters and elements/values of their sequences, options,
// maps …)"; "booleans accept a bool, `0`/`1`, or a string (trimmed, case-insensitive) in `true
// false 1 0 yes no on off t f y n`"; "`{rust type}` is the scalar type as written in the signature
// (`u8` for `Option<Vec<u8>>`)".
#[tokio::test]
async fn lenient_scalars_reach_into_options_sequences_and_maps() {
    let out = call("lenient_containers", r#"{"flags":[" Y ","n",1,"T","Off"],"weights":{"b":"1.5","a":2}}"#).await;
    assert_eq!(out.content, r#"Some([true, false, true, true, false])|[("a", 2.0), ("b", 1.5)]|None"#);
    assert_eq!(
        arg_error("lenient_containers", r#"{"weights":{},"small":[1,300]}"#).await,
        "small[1]: 300 is out of range for u8"
    );
    assert_eq!(
        arg_error("lenient_containers", r#"{"weights":{},"flags":["maybe"]}"#).await,
        r#"flags[0]: expected boolean, got string "maybe""#
    );
}

/// Strict scalars.
#[tool]
fn scalar_edges(
    /// Count.
    count: Option<i32>,
    /// Ratio.
    ratio: Option<f64>,
    /// Name.
    name: Option<String>,
    /// Level.
    #[param(enum = [1, 2, 3])]
    level: Option<u8>,
) -> String {
    format!("{count:?}|{ratio:?}|{name:?}|{level:?}")
}

// "integers accept … a string of optional sign + ASCII digits (trimmed); numbers accept a number
// or a string parsing as a finite decimal …. Strings accept strings only"; "`enum` lists … are
// enforced"; "`{path}: expected one of {a, b}, got {actual}`".
#[tokio::test]
async fn scalar_strings_must_be_exact_and_enums_are_enforced() {
    assert_eq!(
        call("scalar_edges", r#"{"count":" -12 ","ratio":"2.5","level":"2"}"#).await.content,
        "Some(-12)|Some(2.5)|None|Some(2)"
    );
    assert_eq!(arg_error("scalar_edges", r#"{"count":"7.0"}"#).await, r#"count: expected integer, got string "7.0""#);
    assert_eq!(arg_error("scalar_edges", r#"{"ratio":"inf"}"#).await, r#"ratio: expected number, got string "inf""#);
    assert_eq!(arg_error("scalar_edges", r#"{"name":5}"#).await, "name: expected string, got integer 5");
    assert_eq!(arg_error("scalar_edges", r#"{"name":true}"#).await, "name: expected string, got boolean true");
    assert_eq!(arg_error("scalar_edges", r#"{"level":4}"#).await, "level: expected one of 1, 2, 3, got integer 4");
}

/// Renamed and ordered.
#[tool]
fn renamed_args(
    /// Second alphabetically.
    zulu: String,
    /// The kind.
    #[param(rename = "kind")]
    r#type: String,
    /// First alphabetically.
    alpha: String,
) -> String {
    format!("{zulu}|{}|{alpha}", r#type)
}

// "`rename`: the schema name"; "One error per call: the first in document order; then missing
// parameters, first in declaration order."
#[tokio::test]
async fn renamed_parameters_are_read_by_their_schema_name_and_missing_ones_in_order() {
    assert_eq!(call("renamed_args", r#"{"zulu":"z","kind":"k","alpha":"a"}"#).await.content, "z|k|a");
    assert_eq!(arg_error("renamed_args", r#"{"type":"t"}"#).await, "zulu: missing required parameter");
    assert_eq!(arg_error("renamed_args", r#"{"zulu":"z","alpha":"a"}"#).await, "kind: missing required parameter");
    assert_eq!(declared("renamed_args").parameters_schema()["required"], json!(["zulu", "kind", "alpha"]));
}

// ---- return types -------------------------------------------------------------------------------

/// Cow.
#[tool]
fn ret_cow() -> Cow<'static, str> {
    Cow::Borrowed("  cow  ")
}

/// Boxed.
#[tool]
fn ret_box_str() -> Box<str> {
    "\n boxed \t".into()
}

/// Owned.
#[tool]
async fn ret_string() -> String {
    " owned ".to_owned()
}

/// Maybe text.
#[tool]
fn ret_maybe_text(
    /// Whether there is text.
    some: bool,
) -> Option<String> {
    some.then(|| "  text  ".to_owned())
}

/// Unit result.
#[tool]
fn ret_unit_result(
    /// Whether it fails.
    fail: bool,
) -> Result<(), String> {
    if fail { Err("  went wrong \n".to_owned()) } else { Ok(()) }
}

// "`String`, `&'static str`, `Cow<'static, str>`, `Box<str>` | success, `content` trimmed";
// "`Option<T>` | `None` as `()`, `Some` as T"; "`Result<T, E: Display>` | `Ok` as T; `Err(e)` →
// failure, `error_message` = `e.to_string()` trimmed".
#[tokio::test]
async fn text_returns_are_trimmed_and_options_and_results_are_looked_through() {
    for (name, text) in [("ret_cow", "cow"), ("ret_box_str", "boxed"), ("ret_string", "owned")] {
        let r = call(name, "").await;
        assert!(r.success, "{name}");
        assert_eq!(r.content, text, "{name}");
        assert_eq!(r.structured_content(), None, "{name}");
    }
    let none = call("ret_maybe_text", r#"{"some":false}"#).await;
    assert!(none.success && none.content.is_empty() && none.structured_content().is_none());
    assert_eq!(call("ret_maybe_text", r#"{"some":true}"#).await.content, "text");
    let ok = call("ret_unit_result", r#"{"fail":false}"#).await;
    assert!(ok.success && ok.content.is_empty() && ok.error_message.is_empty());
    let err = call("ret_unit_result", r#"{"fail":true}"#).await;
    assert!(!err.success);
    assert_eq!(err.error_message, "went wrong");
}

/// A result of its own.
#[tool]
fn ret_own_result() -> ToolExecutionResult {
    ToolExecutionResult::success("some_other_name", "from inside")
}

/// A failed output.
#[tool]
fn ret_failed_output() -> ToolOutput {
    ToolOutput::failure("it broke")
}

/// A pair with a number.
#[tool]
fn ret_bool_number(
    /// Whether it succeeds.
    ok: bool,
) -> (bool, i32) {
    (ok, 42)
}

// "`ToolExecutionResult` | as is, `tool_name` overwritten"; "`ToolOutput` | … success unless built
// with `failure`"; "`(bool, S: Display)` | true → `content` = S trimmed; false → failure with
// `error_message` = S trimmed; no structured content".
#[tokio::test]
async fn own_results_outputs_and_bool_pairs_become_results() {
    let r = call("ret_own_result", "").await;
    assert_eq!((r.tool_name.as_str(), r.success, r.content.as_str()), ("ret_own_result", true, "from inside"));
    let r = call("ret_failed_output", "").await;
    assert!(!r.success);
    assert_eq!(r.error_message, "it broke");
    let r = call("ret_bool_number", r#"{"ok":true}"#).await;
    assert_eq!((r.success, r.content.as_str(), r.structured_content()), (true, "42", None));
    let r = call("ret_bool_number", r#"{"ok":false}"#).await;
    assert_eq!((r.success, r.error_message.as_str(), r.structured_content()), (false, "42", None));
}

type Reply = String;

/// Aliased text.
#[tool]
fn ret_alias() -> Reply {
    "  as data ".to_owned()
}

// "any other `T: Serialize` (aliases included) | success, `structured_content` = T"; the return
// form is "chosen by the written type".
#[tokio::test]
async fn an_aliased_string_return_is_structured_content() {
    let r = call("ret_alias", "").await;
    assert!(r.success);
    assert_eq!(r.structured_content().cloned(), Some(json!("  as data ")));
}

/// Raw value.
#[tool]
fn ret_raw(
    /// Which form.
    form: String,
) -> Value {
    match form.as_str() {
        "pair" => json!([false, "  nope  "]),
        "ok_pair" => json!([true]),
        "number" => json!(1e16),
        "null" => Value::Null,
        "list" => json!(["a", true, null]),
        _ => json!({"success": 0, "message": "  gone  "}),
    }
}

// "`serde_json::Value` | `from_raw_in`": "**array starting with a bool**: message = `""` if there
// is no second element …; `success` = the bool; …`structured_content` = the array"; "**anything
// else**: success; `content` = `""` for null, else PyStr trimmed (`42`, `True`, `['a', 'b']`,
// `1e+16`)"; object: "`success` = truthiness of `success`", "`error_message` … `error` if the key
// exists, else `message`".
#[tokio::test]
async fn raw_value_returns_are_read_as_the_reference_reads_them() {
    let r = call("ret_raw", r#"{"form":"pair"}"#).await;
    assert_eq!((r.success, r.error_message.as_str()), (false, "nope"));
    assert_eq!(r.structured_content().cloned(), Some(json!([false, "  nope  "])));
    let r = call("ret_raw", r#"{"form":"ok_pair"}"#).await;
    assert_eq!((r.success, r.content.as_str()), (true, ""));
    let r = call("ret_raw", r#"{"form":"number"}"#).await;
    assert_eq!((r.success, r.content.as_str()), (true, "1e+16"));
    let r = call("ret_raw", r#"{"form":"null"}"#).await;
    assert_eq!((r.success, r.content.as_str(), r.structured_content()), (true, "", None));
    let r = call("ret_raw", r#"{"form":"list"}"#).await;
    assert_eq!(r.content, "['a', True, None]");
    let r = call("ret_raw", r#"{"form":"object"}"#).await;
    assert_eq!((r.success, r.error_message.as_str()), (false, "gone"));
}

/// Refuses to serialise.
struct Unserialisable;

impl serde::Serialize for Unserialisable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(<S::Error as serde::ser::Error>::custom("boom"))
    }
}

/// Fails to serialise.
#[tool]
fn ret_unserialisable() -> Unserialisable {
    Unserialisable
}

// "serialisation failure → failure `failed to serialise the tool output: {err}` / `工具输出序列化
// 失败：{err}`".
#[tokio::test]
async fn a_serialisation_failure_is_a_localised_failure() {
    let r = call("ret_unserialisable", "").await;
    assert!(!r.success);
    assert_eq!(r.error_message, "failed to serialise the tool output: boom");
    let r = call_in("ret_unserialisable", "", Locale::ZhHans).await.unwrap();
    assert!(!r.success);
    assert_eq!(r.error_message, "工具输出序列化失败：boom");
}

// ---- #[action] ----------------------------------------------------------------------------------

/// Send a sticker.
///
/// This paragraph is not used by actions.
#[action(
    activation_type = "random",
    activation_probability = 0.25,
    chat_mode = "focus",
    action_require = ["  When the mood is light  ", "   "],
    associated_types = ["text", "emoji"],
    parallel_action = true,
    action_prompt = "Pick a fitting sticker."
)]
fn send_sticker(
    /// The sticker's mood.
    mood: Option<String>,
    #[param(description = "Sticker size")] size: Option<String>,
    extra: Option<String>,
) -> String {
    format!("{mood:?}{size:?}{extra:?}")
}

// "The tool equals `ToolSpec::from_action` of the same values"; "key = its name, value = its `///`
// doc or `#[param(description)]`"; from_action: "`兼容旧 Action 参数` / `Legacy action parameter`"
// when the value is falsy, "Schema … all optional", detailed parts joined by `\n\n`.
#[test]
fn an_action_equals_the_converted_legacy_declaration() {
    let tool = declared_tool("send_sticker");
    let spec = tool.spec().unwrap();
    let mut info = ActionInfo::new("send_sticker");
    info.description = "Send a sticker.".to_owned();
    info.activation_type = ActivationType::Random;
    info.activation_probability = 0.25;
    info.chat_mode = ChatMode::Focus;
    info.action_require = vec!["  When the mood is light  ".to_owned(), "   ".to_owned()];
    info.associated_types = vec!["text".to_owned(), "emoji".to_owned()];
    info.parallel_action = true;
    info.action_prompt = "Pick a fitting sticker.".to_owned();
    info.action_parameters.insert("mood".to_owned(), "The sticker's mood.".into());
    info.action_parameters.insert("size".to_owned(), "Sticker size".into());
    info.action_parameters.insert("extra".to_owned(), "".into());
    let converted = ToolSpec::from_action(info).unwrap();
    assert_eq!(serde_json::to_string(&spec).unwrap(), serde_json::to_string(&converted).unwrap());
    assert_eq!(spec.description(Locale::En), "Send a sticker.");
    assert_eq!(
        serde_json::to_string(spec.parameters_schema()).unwrap(),
        r#"{"type":"object","properties":{"mood":{"type":"string","description":"The sticker's mood."},"size":{"type":"string","description":"Sticker size"},"extra":{"type":"string","description":"Legacy action parameter"}},"required":[]}"#
    );
    assert_eq!(spec.parameters_schema_for(Locale::ZhHans)["properties"]["extra"]["description"], "兼容旧 Action 参数");
    assert_eq!(
        spec.detailed_description(Locale::En),
        "Parameter details:\n- mood: string, optional. The sticker's mood\n- size: string, optional. Sticker size\n- extra: string, optional. Legacy action parameter\n\nUsage notes:\n- When the mood is light\n\nApplicable message types: text, emoji.\n\nLegacy action activation: random.\nOriginal action prompt: Pick a fitting sticker."
    );
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        "参数说明：\n- mood：string，可选。The sticker's mood.\n- size：string，可选。Sticker size\n- extra：string，可选。兼容旧 Action 参数\n\n使用建议：\n- When the mood is light\n\n适用消息类型：text、emoji。\n\n兼容旧 Action 激活方式：random。\n原始 Action 提示语：Pick a fitting sticker.。"
    );
    let keys: Vec<_> = spec.metadata().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "legacy_action",
            "legacy_component_type",
            "activation_type",
            "activation_keywords",
            "activation_probability",
            "chat_mode",
            "action_parameters",
            "action_require",
            "associated_types",
            "parallel_action",
            "action_prompt"
        ]
    );
    assert_eq!(spec.metadata()["chat_mode"], "focus");
    assert_eq!(spec.visibility(), Visibility::Deferred);
}

// ---- more block and decoding edges --------------------------------------------------------------

/// Blank descriptions.
#[tool]
fn blank_descriptions(
    #[param(description = ".")] dot: String,
    #[param(default = 3)] count: u16,
    #[param(description = "  Ends with a space. ", default = [1, 2])] ids: Vec<u32>,
) {
    let _ = (dot, count, ids);
}

// English desc: "trimmed, one trailing `.` removed, trimmed; `No description` if blank (first
// part)"; zh-Hans desc: "`无额外说明` if blank; nothing appended"; values "PyStr (… `['a', 'b']`)" /
// "others compact JSON".
#[test]
fn blank_descriptions_are_filled_in_before_the_other_parts() {
    let [en, zh] = detailed("blank_descriptions");
    assert_eq!(
        en,
        "Parameter details:\n- dot: string, required. No description\n- count: integer, optional. No description. Default: 3\n- ids: array, optional. Ends with a space. Default: [1,2]"
    );
    assert_eq!(
        zh,
        "参数说明：\n- dot：string，必填。.\n- count：integer，可选。无额外说明 默认值：3。\n- ids：array，可选。Ends with a space. 默认值：[1, 2]。"
    );
}

/// A mood.
#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
enum Mood {
    /// Happy mood.
    #[serde(rename = "happy")]
    Happy,
    /// Sad mood.
    #[serde(rename = "sad")]
    Sad,
}

/// Moods.
#[tool]
fn mood_tool(mood: Mood) -> String {
    format!("{mood:?}")
}

// "unit-only enum | string | `enum`: serialised variant names in order"; "string-`const` unions
// and `enum`s become `{"type":"string","enum":[…]}`".
#[tokio::test]
async fn unit_enums_with_variant_docs_are_string_enums() {
    let spec = declared("mood_tool");
    let mood = &spec.parameters_schema()["properties"]["mood"];
    assert_eq!(mood["type"], "string", "{mood}");
    assert_eq!(mood["enum"], json!(["happy", "sad"]), "{mood}");
    assert!(mood.get("oneOf").is_none() && mood.get("anyOf").is_none(), "{mood}");
    assert_eq!(call("mood_tool", r#"{"mood":"sad"}"#).await.content, "Sad");
    assert_eq!(
        arg_error("mood_tool", r#"{"mood":"Sad"}"#).await,
        r#"mood: expected one of "happy", "sad", got string "Sad""#
    );
}

/// Integer edges.
#[tool]
fn integer_edges(
    /// Count.
    count: Option<i64>,
    /// Non-zero.
    nz: Option<NonZeroU32>,
    /// Flag.
    flag: Option<bool>,
) -> String {
    format!("{count:?}|{nz:?}|{flag:?}")
}

// "integers accept an in-range JSON integer, a float with zero fraction, …"; "`NonZero*` | integer
// | (range checked when decoding)"; "booleans accept a bool, `0`/`1`, or a string"; out of range:
// "`{path}: {value} is out of range for {rust type}`", "`{rust type}` is the scalar type as written
// in the signature".
#[tokio::test]
async fn integer_and_boolean_edges() {
    assert_eq!(
        call("integer_edges", r#"{"count":1e2,"nz":"5","flag":0}"#).await.content,
        "Some(100)|Some(5)|Some(false)"
    );
    assert_eq!(arg_error("integer_edges", r#"{"nz":0}"#).await, "nz: 0 is out of range for NonZeroU32");
    assert_eq!(arg_error("integer_edges", r#"{"flag":2}"#).await, "flag: expected boolean, got integer 2");
    assert_eq!(arg_error("integer_edges", r#"{"count":1.5}"#).await, "count: expected integer, got number 1.5");
}
