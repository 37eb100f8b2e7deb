//! A third pass over argument decoding through real `#[tool]`s called via the registry, each failed
//! call's `error_message` compared byte for byte in English and Simplified Chinese: layers of
//! `Option`s, map values and keys with dots, spaces, brackets and quotes, defaults sent a wrong-typed
//! value, `enum` lists and how their values are quoted, several unknown keys, `serde_json` value and
//! map parameters, unit enums, user types, arguments given as a value, document-level errors with
//! their wrapper text, and context-named parameters sent by the model or filled from the context.
#![allow(missing_debug_implementations)]
// Legacy actions are deprecated on purpose; one test declares one.
#![allow(deprecated)]

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use toolhook::{
    Locale, ToolArguments, ToolExecutionContext, ToolExecutionResult, ToolInvocation, action, schemars, serde, tool,
};
use toolhook_runtime::{PluginToolProvider, RegistryConfig, ToolRegistry};

// ---- helpers ------------------------------------------------------------------------------------

fn registry_with(config: RegistryConfig) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn call_with(
    config: RegistryConfig,
    name: &str,
    arguments: impl Into<ToolArguments>,
    ctx: Option<&ToolExecutionContext>,
) -> ToolExecutionResult {
    registry_with(config).invoke(ToolInvocation::new(name, arguments), ctx).await
}

/// The content of a call (without a context) that must succeed.
async fn ok(name: &str, arguments: impl Into<ToolArguments>) -> String {
    ok_with(name, arguments, None).await
}

async fn ok_with(name: &str, arguments: impl Into<ToolArguments>, ctx: Option<&ToolExecutionContext>) -> String {
    let result = call_with(RegistryConfig::default(), name, arguments, ctx).await;
    assert!(result.success, "{name}: {}", result.error_message);
    result.content
}

/// The whole `error_message` of a failed call in both locales, as `[en, zh-Hans]`.
async fn messages_with(
    config: RegistryConfig,
    name: &str,
    arguments: impl Into<ToolArguments>,
    ctx: Option<&ToolExecutionContext>,
) -> [String; 2] {
    let arguments = arguments.into();
    let mut out = [String::new(), String::new()];
    for (slot, locale) in out.iter_mut().zip([Locale::En, Locale::ZhHans]) {
        let result = call_with(config.clone().locale(locale), name, arguments.clone(), ctx).await;
        assert!(!result.success, "{name} {arguments:?} succeeded in {locale}: {}", result.content);
        *slot = result.error_message;
    }
    out
}

/// Asserts a call fails with the argument details `en` and `zh` wrapped in the registry's texts.
async fn fails(name: &str, arguments: impl Into<ToolArguments>, en: &str, zh: &str) {
    fails_with(name, arguments, None, en, zh).await
}

async fn fails_with(
    name: &str,
    arguments: impl Into<ToolArguments>,
    ctx: Option<&ToolExecutionContext>,
    en: &str,
    zh: &str,
) {
    let arguments = arguments.into();
    let got = messages_with(RegistryConfig::default(), name, arguments.clone(), ctx).await;
    assert_eq!(
        got,
        [
            format!("Tool {name} failed: InvalidArguments: {en}"),
            format!("工具 {name} 调用失败：InvalidArguments: {zh}")
        ],
        "{arguments:?}"
    );
}

fn sorted<K: Ord, V>(map: HashMap<K, V>) -> BTreeMap<K, V> {
    map.into_iter().collect()
}

// ---- tools --------------------------------------------------------------------------------------

/// Layers of options.
#[tool]
fn tp_layers(
    /// An optional list of optional bytes.
    maybe: Option<Vec<Option<u8>>>,
    /// A required list of optional bytes.
    list: Vec<Option<u8>>,
    /// An optional grid of optional small integers.
    grid: Option<Vec<Vec<Option<i8>>>>,
) -> String {
    format!("{maybe:?}|{list:?}|{grid:?}")
}

/// Maps.
#[tool]
fn tp_maps(
    /// Limits by name.
    limits: Option<HashMap<String, u8>>,
    /// Flags by group and name.
    tree: Option<BTreeMap<String, BTreeMap<String, Vec<bool>>>>,
    /// Optional ratios by name.
    opt: Option<HashMap<String, Option<f32>>>,
) -> String {
    format!("{:?}|{tree:?}|{:?}", limits.map(sorted), opt.map(sorted))
}

/// Defaults.
#[tool]
fn tp_defaults(
    /// The count.
    #[param(default = 5)]
    count: u8,
    /// The ratio.
    #[param(default = 0.5)]
    ratio: f64,
    /// The flag.
    #[param(default = true)]
    flag: bool,
    /// The word.
    #[param(default = "x")]
    word: String,
    /// The ids.
    #[param(default = [1, 2])]
    ids: Vec<u16>,
) -> String {
    format!("{count}|{ratio:?}|{flag}|{word}|{ids:?}")
}

/// Enumerated values that need quoting.
#[tool]
fn tp_enum_values(
    /// A string with quotes.
    #[param(enum = ["a\"b", "c\\d", "é", "x y"])]
    s: Option<String>,
    /// A small integer.
    #[param(enum = [-1, 0, 1])]
    i: Option<i8>,
    /// A float.
    #[param(enum = [1.0, 2.5, 0.25])]
    f: Option<f64>,
    /// A defaulted integer.
    #[param(enum = [10, 20], default = 10)]
    d: u16,
    /// A Chinese word.
    #[param(enum = ["中", "文"])]
    z: Option<String>,
) -> String {
    format!("{s:?}|{i:?}|{f:?}|{d}|{z:?}")
}

/// Closed to unknown keys.
#[tool(deny_unknown_args)]
fn tp_closed(
    ctx: &ToolExecutionContext,
    /// The query.
    q: String,
    /// The count.
    n: Option<u8>,
    /// Any keys.
    m: Option<HashMap<String, u8>>,
) -> String {
    format!("{q}|{n:?}|{:?}|{}", m.map(sorted), ctx.user_id)
}

/// Any JSON.
#[tool]
fn tp_json(
    /// Required value.
    v: Value,
    /// Optional value.
    o: Option<Value>,
    /// Optional object.
    m: Option<Map<String, Value>>,
    /// Optional list of values.
    vs: Option<Vec<Value>>,
) -> String {
    let m = m.map(Value::Object);
    format!("{}|{o:?}|{}|{vs:?}", serde_json::to_string(&v).unwrap(), serde_json::to_string(&m).unwrap())
}

/// A mode.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "kebab-case")]
#[schemars(crate = "toolhook::schemars")]
pub enum TpMode {
    /// Quickly.
    Fast,
    /// Slowly.
    VerySlow,
    /// Not at all.
    #[serde(rename = "Off!")]
    Off,
}

/// Modes.
#[tool]
fn tp_modes(
    /// The mode.
    mode: TpMode,
    /// Another mode.
    alt: Option<TpMode>,
    /// Modes by key.
    by_key: Option<HashMap<String, TpMode>>,
) -> String {
    format!("{mode:?}|{alt:?}|{:?}", by_key.map(sorted))
}

/// A range.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct TpRange {
    /// Lower bound.
    pub min: i32,
    /// Upper bound.
    pub max: i32,
}

/// A filter.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct TpFilter {
    /// The field.
    pub field: String,
    /// How to match.
    #[serde(rename = "matchMode")]
    pub match_mode: TpMode,
    /// The range.
    pub range: Option<TpRange>,
}

/// Filters.
#[tool]
fn tp_filter(
    /// The filter.
    filter: TpFilter,
    /// Named filters.
    named: Option<BTreeMap<String, TpFilter>>,
) -> String {
    format!("{}:{:?}:{:?}|{}", filter.field, filter.match_mode, filter.range, named.map_or(0, |n| n.len()))
}

/// Context-named parameters of other types.
#[tool]
fn tp_ids(
    /// The user, as a number.
    user_id: Option<u64>,
    /// The chat.
    chat_id: Option<String>,
    /// The query.
    q: Option<String>,
) -> String {
    format!("{user_id:?}|{chat_id:?}|{q:?}")
}

/// A plain tool for document-level errors.
#[tool]
fn tp_doc(
    /// The query.
    q: Option<String>,
    /// A nested value.
    m: Option<Value>,
) -> String {
    format!("{q:?}|{m:?}")
}

/// A legacy action.
#[action]
fn tp_legacy(
    /// The target.
    target: Option<String>,
    /// The chat.
    chat_id: Option<String>,
) -> String {
    format!("{target:?}|{chat_id:?}")
}

// ==== Option layers ==============================================================================

// "An absent or `null` optional parameter is `None`/default"; lenient scalars reach "elements … of
// their sequences, options"; a `null` element of `Vec<Option<u8>>` is `None`.
#[tokio::test]
async fn null_is_none_at_every_optional_layer() {
    assert_eq!(ok("tp_layers", r#"{"list":[]}"#).await, "None|[]|None");
    assert_eq!(
        ok("tp_layers", r#"{"maybe":null,"list":[null,"7",8.0],"grid":null}"#).await,
        "None|[None, Some(7), Some(8)]|None"
    );
    assert_eq!(
        ok("tp_layers", r#"{"maybe":[null],"list":[null],"grid":[[null," -3 "],[]]}"#).await,
        "Some([None])|[None]|Some([[None, Some(-3)], []])"
    );
}

// A required sequence given `null` is the wrong type ("`days: expected integer, got null`"); a
// non-optional inner sequence too, at its index.
#[tokio::test]
async fn null_for_a_non_optional_layer_is_a_wrong_type_at_its_path() {
    fails("tp_layers", r#"{"list":null}"#, "list: expected array, got null", "list：应为 array，实际为 null").await;
    fails(
        "tp_layers",
        r#"{"list":[],"grid":[[1],null]}"#,
        "grid[1]: expected array, got null",
        "grid[1]：应为 array，实际为 null",
    )
    .await;
}

// "`{rust type}` is the scalar type as written in the signature (`u8` for `Option<Vec<u8>>`)".
#[tokio::test]
async fn errors_inside_option_layers_name_the_index_and_the_scalar_type() {
    fails(
        "tp_layers",
        r#"{"maybe":[null,256],"list":[]}"#,
        "maybe[1]: 256 is out of range for u8",
        "maybe[1]：256 超出 u8 的范围",
    )
    .await;
    fails(
        "tp_layers",
        r#"{"list":[],"grid":[[1],[null,"-129"]]}"#,
        r#"grid[1][1]: "-129" is out of range for i8"#,
        r#"grid[1][1]："-129" 超出 i8 的范围"#,
    )
    .await;
    fails(
        "tp_layers",
        r#"{"maybe":[1,[2]],"list":[]}"#,
        "maybe[1]: expected integer, got array",
        "maybe[1]：应为 integer，实际为 array",
    )
    .await;
}

// "One error per call: the first in document order; then missing parameters": a bad optional
// sequence reported before the missing required one.
#[tokio::test]
async fn an_optional_sequence_of_another_kind_is_reported_before_a_missing_parameter() {
    fails("tp_layers", r#"{"maybe":{}}"#, "maybe: expected array, got object", "maybe：应为 array，实际为 object")
        .await;
    fails(
        "tp_layers",
        r#"{"maybe":"1"}"#,
        r#"maybe: expected array, got string "1""#,
        r#"maybe：应为 array，实际为 string "1""#,
    )
    .await;
    fails("tp_layers", r#"{"maybe":[]}"#, "list: missing required parameter", "list：缺少必填参数").await;
}

// ==== maps =======================================================================================

// "Path: the parameter name, then `.field`/`[index]`": a map key is the field as written, dots,
// brackets, spaces and quotes included.
#[tokio::test]
async fn map_keys_appear_in_the_path_as_written() {
    fails(
        "tp_maps",
        r#"{"limits":{"a.b":300}}"#,
        "limits.a.b: 300 is out of range for u8",
        "limits.a.b：300 超出 u8 的范围",
    )
    .await;
    fails(
        "tp_maps",
        r#"{"limits":{" x y ":"z"}}"#,
        r#"limits. x y : expected integer, got string "z""#,
        r#"limits. x y ：应为 integer，实际为 string "z""#,
    )
    .await;
    fails(
        "tp_maps",
        r#"{"limits":{"k[0]":-1}}"#,
        "limits.k[0]: -1 is out of range for u8",
        "limits.k[0]：-1 超出 u8 的范围",
    )
    .await;
    fails(
        "tp_maps",
        r#"{"limits":{"say \"hi\"":true}}"#,
        r#"limits.say "hi": expected integer, got boolean true"#,
        r#"limits.say "hi"：应为 integer，实际为 boolean true"#,
    )
    .await;
    fails(
        "tp_maps",
        r#"{"limits":{"温度":"高"}}"#,
        r#"limits.温度: expected integer, got string "高""#,
        r#"limits.温度：应为 integer，实际为 string "高""#,
    )
    .await;
}

#[tokio::test]
async fn nested_map_paths_join_every_key_and_index() {
    fails(
        "tp_maps",
        r#"{"tree":{"a.b":{"c d":[true,"maybe"]}}}"#,
        r#"tree.a.b.c d[1]: expected boolean, got string "maybe""#,
        r#"tree.a.b.c d[1]：应为 boolean，实际为 string "maybe""#,
    )
    .await;
    fails("tp_maps", r#"{"tree":{"x":[]}}"#, "tree.x: expected object, got array", "tree.x：应为 object，实际为 array")
        .await;
    fails(
        "tp_maps",
        r#"{"tree":{"x":{"y":null}}}"#,
        "tree.x.y: expected array, got null",
        "tree.x.y：应为 array，实际为 null",
    )
    .await;
}

// Map values are lenient and may be optional; "the first in document order" among the values.
#[tokio::test]
async fn map_values_are_lenient_and_the_first_bad_value_in_the_text_wins() {
    assert_eq!(
        ok("tp_maps", r#"{"limits":{"b":"7","a":255.0},"opt":{"n":null,"h":"2.5","i":1}}"#).await,
        r#"Some({"a": 255, "b": 7})|None|Some({"h": Some(2.5), "i": Some(1.0), "n": None})"#
    );
    fails(
        "tp_maps",
        r#"{"limits":{"z":1,"b":999,"a":"x"}}"#,
        "limits.b: 999 is out of range for u8",
        "limits.b：999 超出 u8 的范围",
    )
    .await;
    fails(
        "tp_maps",
        r#"{"opt":{"a":null,"b":"x"}}"#,
        r#"opt.b: expected number, got string "x""#,
        r#"opt.b：应为 number，实际为 string "x""#,
    )
    .await;
    fails(
        "tp_maps",
        r#"{"opt":"a=1"}"#,
        r#"opt: expected object, got string "a=1""#,
        r#"opt：应为 object，实际为 string "a=1""#,
    )
    .await;
}

// The field of an empty key is empty: the path is the name and a dot.
#[tokio::test]
async fn an_empty_map_key_leaves_the_dot_alone() {
    fails("tp_maps", r#"{"limits":{"":256}}"#, "limits.: 256 is out of range for u8", "limits.：256 超出 u8 的范围")
        .await;
}

// ==== defaults ===================================================================================

// "Required unless `Option<T>` or defaulted. An absent or `null` optional parameter is
// `None`/default"; `""` is neither.
#[tokio::test]
async fn absent_and_null_take_the_default_and_other_values_are_kept() {
    assert_eq!(ok("tp_defaults", "{}").await, "5|0.5|true|x|[1, 2]");
    assert_eq!(
        ok("tp_defaults", r#"{"count":null,"ratio":null,"flag":null,"word":null,"ids":null}"#).await,
        "5|0.5|true|x|[1, 2]"
    );
    assert_eq!(
        ok("tp_defaults", r#"{"count":"0","ratio":"2","flag":"off","word":"","ids":[]}"#).await,
        "0|2.0|false||[]"
    );
}

// A defaulted parameter sent a value of another kind is decoded as any other: the wrong type.
#[tokio::test]
async fn a_defaulted_parameter_sent_the_wrong_kind_is_a_wrong_type() {
    for (args, en, zh) in [
        (
            r#"{"count":"many"}"#,
            r#"count: expected integer, got string "many""#,
            r#"count：应为 integer，实际为 string "many""#,
        ),
        (
            r#"{"ratio":"half"}"#,
            r#"ratio: expected number, got string "half""#,
            r#"ratio：应为 number，实际为 string "half""#,
        ),
        (
            r#"{"flag":"maybe"}"#,
            r#"flag: expected boolean, got string "maybe""#,
            r#"flag：应为 boolean，实际为 string "maybe""#,
        ),
        (r#"{"word":5}"#, "word: expected string, got integer 5", "word：应为 string，实际为 integer 5"),
        (r#"{"word":false}"#, "word: expected string, got boolean false", "word：应为 string，实际为 boolean false"),
        (r#"{"ids":"1,2"}"#, r#"ids: expected array, got string "1,2""#, r#"ids：应为 array，实际为 string "1,2""#),
        (r#"{"ids":{"0":1}}"#, "ids: expected array, got object", "ids：应为 array，实际为 object"),
        (r#"{"ratio":[0.5]}"#, "ratio: expected number, got array", "ratio：应为 number，实际为 array"),
    ] {
        fails("tp_defaults", args, en, zh).await;
    }
}

#[tokio::test]
async fn a_defaulted_parameter_is_range_checked() {
    fails("tp_defaults", r#"{"count":256}"#, "count: 256 is out of range for u8", "count：256 超出 u8 的范围").await;
    fails(
        "tp_defaults",
        r#"{"ids":[1,70000]}"#,
        "ids[1]: 70000 is out of range for u16",
        "ids[1]：70000 超出 u16 的范围",
    )
    .await;
}

// ==== enum lists =================================================================================

// "The allowed values of "not allowed" are the `enum` values as compact JSON joined by `, `
// (zh-Hans `、`)": strings keep their quotes and escapes, non-ASCII stays raw.
#[tokio::test]
async fn string_enum_values_are_quoted_as_compact_json() {
    fails(
        "tp_enum_values",
        r#"{"s":"a"}"#,
        r#"s: expected one of "a\"b", "c\\d", "é", "x y", got string "a""#,
        r#"s：应为 "a\"b"、"c\\d"、"é"、"x y" 之一，实际为 string "a""#,
    )
    .await;
    fails(
        "tp_enum_values",
        r#"{"z":"英"}"#,
        r#"z: expected one of "中", "文", got string "英""#,
        r#"z：应为 "中"、"文" 之一，实际为 string "英""#,
    )
    .await;
    assert_eq!(ok("tp_enum_values", r#"{"s":"a\"b","z":"文"}"#).await, r#"Some("a\"b")|None|None|10|Some("文")"#);
    assert_eq!(ok("tp_enum_values", r#"{"s":"c\\d"}"#).await, r#"Some("c\\d")|None|None|10|None"#);
}

#[tokio::test]
async fn integer_enum_values_include_negatives_and_take_digit_strings() {
    assert_eq!(ok("tp_enum_values", r#"{"i":"-1"}"#).await, "None|Some(-1)|None|10|None");
    assert_eq!(ok("tp_enum_values", r#"{"i":" 1 ","d":"20"}"#).await, "None|Some(1)|None|20|None");
    fails(
        "tp_enum_values",
        r#"{"i":2}"#,
        "i: expected one of -1, 0, 1, got integer 2",
        "i：应为 -1、0、1 之一，实际为 integer 2",
    )
    .await;
    fails(
        "tp_enum_values",
        r#"{"i":"-2"}"#,
        r#"i: expected one of -1, 0, 1, got string "-2""#,
        r#"i：应为 -1、0、1 之一，实际为 string "-2""#,
    )
    .await;
}

// Float enum values are compact JSON (`1.0`); a sent `3.0` is an `integer` ("a number with no
// fractional part").
#[tokio::test]
async fn float_enum_values_are_written_with_a_fraction_and_a_whole_float_is_an_integer() {
    assert_eq!(ok("tp_enum_values", r#"{"f":1}"#).await, "None|None|Some(1.0)|10|None");
    assert_eq!(ok("tp_enum_values", r#"{"f":"2.50"}"#).await, "None|None|Some(2.5)|10|None");
    fails(
        "tp_enum_values",
        r#"{"f":3.0}"#,
        "f: expected one of 1.0, 2.5, 0.25, got integer 3.0",
        "f：应为 1.0、2.5、0.25 之一，实际为 integer 3.0",
    )
    .await;
    fails(
        "tp_enum_values",
        r#"{"f":0.3}"#,
        "f: expected one of 1.0, 2.5, 0.25, got number 0.3",
        "f：应为 1.0、2.5、0.25 之一，实际为 number 0.3",
    )
    .await;
}

// A defaulted enum parameter: `null` takes the default, another value is checked against the list.
#[tokio::test]
async fn a_defaulted_enum_parameter_is_enforced_when_sent() {
    assert_eq!(ok("tp_enum_values", r#"{"d":null}"#).await, "None|None|None|10|None");
    fails(
        "tp_enum_values",
        r#"{"d":15}"#,
        "d: expected one of 10, 20, got integer 15",
        "d：应为 10、20 之一，实际为 integer 15",
    )
    .await;
    fails(
        "tp_enum_values",
        r#"{"d":"30"}"#,
        r#"d: expected one of 10, 20, got string "30""#,
        r#"d：应为 10、20 之一，实际为 string "30""#,
    )
    .await;
}

// ==== unknown keys ===============================================================================

// "with `deny_unknown_args` they are errors"; "One error per call: the first in document order;
// then missing parameters".
#[tokio::test]
async fn of_several_unknown_keys_the_first_in_the_text_is_reported() {
    fails("tp_closed", r#"{"b":1,"a":2,"q":"x"}"#, "b: unknown parameter", "b：未知参数").await;
    fails("tp_closed", r#"{"q":"x","zz":[1],"aa":{}}"#, "zz: unknown parameter", "zz：未知参数").await;
    fails("tp_closed", r#"{"zz":1}"#, "zz: unknown parameter", "zz：未知参数").await;
    fails("tp_closed", r#"{"a.b":1,"q":"x"}"#, "a.b: unknown parameter", "a.b：未知参数").await;
    fails("tp_closed", json!({"q": "x", "y y": 1, "b": 2}), "y y: unknown parameter", "y y：未知参数").await;
}

// Injected context parameters "never appear in the schema", and undeclared context-named keys are
// not parameters: sent by the model, both are unknown.
#[tokio::test]
async fn keys_named_after_injected_or_undeclared_context_parameters_are_unknown() {
    fails("tp_closed", r#"{"q":"x","ctx":{}}"#, "ctx: unknown parameter", "ctx：未知参数").await;
    fails("tp_closed", r#"{"q":"x","user_id":"u"}"#, "user_id: unknown parameter", "user_id：未知参数").await;
}

// "Undeclared keys are not added, so `deny_unknown_args` is unaffected"; a map parameter takes any
// keys.
#[tokio::test]
async fn a_closed_tool_called_in_a_full_context_gets_no_added_keys() {
    let ctx = ToolExecutionContext {
        session_id: "sess".into(),
        stream_id: "st".into(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    };
    assert_eq!(
        ok_with("tp_closed", r#"{"q":"x","m":{"zz":"1","y":2}}"#, Some(&ctx)).await,
        r#"x|None|Some({"y": 2, "zz": 1})|u1"#
    );
    fails_with(
        "tp_closed",
        r#"{"q":"x","stream_id":"st"}"#,
        Some(&ctx),
        "stream_id: unknown parameter",
        "stream_id：未知参数",
    )
    .await;
}

// ==== serde_json values ==========================================================================

// "`serde_json::Value` … decoding accepts any JSON"; values are taken as sent (no lenient scalars),
// key order kept.
#[tokio::test]
async fn value_parameters_keep_what_was_sent_and_an_optional_null_is_none() {
    assert_eq!(
        ok("tp_json", r#"{"v":{"z":1,"a":["2"]},"o":"5","m":{"y":2,"b":{}},"vs":[null,1,"x"]}"#).await,
        r#"{"z":1,"a":["2"]}|Some(String("5"))|{"y":2,"b":{}}|Some([Null, Number(1), String("x")])"#
    );
    assert_eq!(ok("tp_json", r#"{"v":[],"o":null,"m":null,"vs":null}"#).await, "[]|None|null|None");
    fails("tp_json", r#"{"o":1}"#, "v: missing required parameter", "v：缺少必填参数").await;
}

// "decoding accepts any JSON": `null` is JSON.
#[tokio::test]
async fn a_required_value_parameter_accepts_null() {
    assert_eq!(ok("tp_json", r#"{"v":null}"#).await, "null|None|null|None");
}

// A `Vec<Value>` parameter's schema type is `array`: another kind is the wrong type.
#[tokio::test]
async fn a_list_of_values_given_another_kind_is_a_wrong_type() {
    fails("tp_json", r#"{"v":1,"vs":{}}"#, "vs: expected array, got object", "vs：应为 array，实际为 object").await;
    fails(
        "tp_json",
        r#"{"v":1,"vs":"x"}"#,
        r#"vs: expected array, got string "x""#,
        r#"vs：应为 array，实际为 string "x""#,
    )
    .await;
}

// `serde_json::Map` is a parameter of schema type `object` ("wrong type | `{path}: expected
// {type}, got {actual}`", "`{type}` is the schema type"); only user types keep serde's words.
#[tokio::test]
async fn a_json_map_given_another_kind_is_a_wrong_type() {
    fails("tp_json", r#"{"v":1,"m":[1]}"#, "m: expected object, got array", "m：应为 object，实际为 array").await;
    fails(
        "tp_json",
        r#"{"v":1,"m":"{}"}"#,
        r#"m: expected object, got string "{}""#,
        r#"m：应为 object，实际为 string "{}""#,
    )
    .await;
    fails("tp_json", r#"{"v":1,"m":7.5}"#, "m: expected object, got number 7.5", "m：应为 object，实际为 number 7.5")
        .await;
}

// ==== unit enums =================================================================================

// Unit enums are enforced by their serialised names (`rename_all`, `rename`), exactly: case and
// padding count.
#[tokio::test]
async fn unit_enum_parameters_take_only_their_serialised_names() {
    assert_eq!(ok("tp_modes", r#"{"mode":"very-slow","alt":"Off!"}"#).await, "VerySlow|Some(Off)|None");
    assert_eq!(ok("tp_modes", r#"{"mode":"fast","alt":null}"#).await, "Fast|None|None");
    for sent in ["Fast", "VerySlow", "very_slow", "off!", " fast", "Off"] {
        let actual = serde_json::to_string(sent).unwrap();
        fails(
            "tp_modes",
            json!({ "mode": sent }),
            &format!(r#"mode: expected one of "fast", "very-slow", "Off!", got string {actual}"#),
            &format!(r#"mode：应为 "fast"、"very-slow"、"Off!" 之一，实际为 string {actual}"#),
        )
        .await;
    }
}

#[tokio::test]
async fn unit_enums_in_options_and_map_values_name_their_path() {
    fails(
        "tp_modes",
        r#"{"mode":"fast","alt":"FAST"}"#,
        r#"alt: expected one of "fast", "very-slow", "Off!", got string "FAST""#,
        r#"alt：应为 "fast"、"very-slow"、"Off!" 之一，实际为 string "FAST""#,
    )
    .await;
    fails(
        "tp_modes",
        r#"{"mode":"fast","by_key":{"a":"fast","b c":"slow"}}"#,
        r#"by_key.b c: expected one of "fast", "very-slow", "Off!", got string "slow""#,
        r#"by_key.b c：应为 "fast"、"very-slow"、"Off!" 之一，实际为 string "slow""#,
    )
    .await;
    fails("tp_modes", r#"{"alt":"fast"}"#, "mode: missing required parameter", "mode：缺少必填参数").await;
}

// ==== user types =================================================================================

// A missing field inside a user type reads `{path}: missing required parameter` at the field's
// path (its serialised name), the first in declaration order.
#[tokio::test]
async fn missing_fields_inside_user_types_are_named_by_their_serialised_path() {
    fails(
        "tp_filter",
        r#"{"filter":{"matchMode":"fast"}}"#,
        "filter.field: missing required parameter",
        "filter.field：缺少必填参数",
    )
    .await;
    fails(
        "tp_filter",
        r#"{"filter":{"field":"f"}}"#,
        "filter.matchMode: missing required parameter",
        "filter.matchMode：缺少必填参数",
    )
    .await;
    fails("tp_filter", r#"{"filter":{}}"#, "filter.field: missing required parameter", "filter.field：缺少必填参数")
        .await;
    fails(
        "tp_filter",
        r#"{"filter":{"field":"f","matchMode":"fast","range":{"min":1}}}"#,
        "filter.range.max: missing required parameter",
        "filter.range.max：缺少必填参数",
    )
    .await;
    fails(
        "tp_filter",
        r#"{"filter":{"field":"f","matchMode":"fast"},"named":{"a.b":{"field":"x"}}}"#,
        "named.a.b.matchMode: missing required parameter",
        "named.a.b.matchMode：缺少必填参数",
    )
    .await;
    assert_eq!(
        ok("tp_filter", r#"{"filter":{"field":"f","matchMode":"Off!","range":null},"named":null}"#).await,
        "f:Off:None|0"
    );
}

// An unknown unit variant inside a user type reads as every other "not allowed".
#[tokio::test]
async fn an_unknown_variant_inside_a_user_type_is_not_allowed_at_its_path() {
    fails(
        "tp_filter",
        r#"{"filter":{"field":"f","matchMode":"Fast"}}"#,
        r#"filter.matchMode: expected one of "fast", "very-slow", "Off!", got string "Fast""#,
        r#"filter.matchMode：应为 "fast"、"very-slow"、"Off!" 之一，实际为 string "Fast""#,
    )
    .await;
    fails(
        "tp_filter",
        r#"{"filter":{"field":"f","matchMode":"fast"},"named":{"k":{"field":"x","matchMode":"none"}}}"#,
        r#"named.k.matchMode: expected one of "fast", "very-slow", "Off!", got string "none""#,
        r#"named.k.matchMode：应为 "fast"、"very-slow"、"Off!" 之一，实际为 string "none""#,
    )
    .await;
}

// "wrong type | `{path}: expected {type}, got {actual}`", for a top-level parameter of a user type
// too: a struct given a string is of another kind than the object it is. An error inside it keeps
// serde's words (other | `{path}: {serde message}`).
#[tokio::test]
async fn a_bare_user_type_given_another_kind_is_a_wrong_type() {
    fails(
        "tp_filter",
        r#"{"filter":"x"}"#,
        r#"filter: expected object, got string "x""#,
        r#"filter：应为 object，实际为 string "x""#,
    )
    .await;
}

// ==== arguments given as a value =================================================================

// A `Value`'s keys are read in their order (`preserve_order`), so "the first in document order" is
// the first key inserted; `{actual}` is the value's compact JSON.
#[tokio::test]
async fn a_value_is_read_in_its_key_order_with_the_same_texts() {
    fails(
        "tp_defaults",
        json!({"word": 1, "count": "x"}),
        "word: expected string, got integer 1",
        "word：应为 string，实际为 integer 1",
    )
    .await;
    fails(
        "tp_defaults",
        json!({"count": u64::MAX}),
        "count: 18446744073709551615 is out of range for u8",
        "count：18446744073709551615 超出 u8 的范围",
    )
    .await;
    fails(
        "tp_defaults",
        json!({"word": "tab\there", "flag": "tab\there"}),
        r#"flag: expected boolean, got string "tab\there""#,
        r#"flag：应为 boolean，实际为 string "tab\there""#,
    )
    .await;
    fails(
        "tp_maps",
        json!({"tree": {"k": {"j": [false, 1e-7]}}}),
        "tree.k.j[1]: expected boolean, got number 1e-7",
        "tree.k.j[1]：应为 boolean，实际为 number 1e-7",
    )
    .await;
    assert_eq!(ok("tp_defaults", json!({"count": 3.0, "flag": "Y"})).await, "3|0.5|true|x|[1, 2]");
}

// ==== document-level errors ======================================================================

// "invalid JSON | `arguments are not valid JSON: {serde message}` | `参数不是合法的 JSON：{serde
// message}`"; "not an object"; "document-level errors have none" (no path).
#[tokio::test]
async fn document_level_errors_are_wrapped_whole_in_both_locales() {
    let text = r#"{"q":"x""#;
    let serde_message = serde_json::from_str::<Value>(text).unwrap_err().to_string();
    fails(
        "tp_doc",
        text,
        &format!("arguments are not valid JSON: {serde_message}"),
        &format!("参数不是合法的 JSON：{serde_message}"),
    )
    .await;
    for arguments in [ToolArguments::from("[1]"), ToolArguments::from("\"x\""), json!(5).into(), json!([{}]).into()] {
        fails("tp_doc", arguments, "arguments must be a JSON object", "参数必须是 JSON 对象").await;
    }
}

// "size is the byte length of the arguments text (a `Value` counts as its compact JSON)"; checked
// "before any decoding".
#[tokio::test]
async fn size_counts_text_bytes_or_a_values_compact_json() {
    let config = RegistryConfig::default().max_argument_bytes(10);
    let large = ["arguments are larger than 10 bytes", "参数超过 10 字节"];
    let wrapped = |[en, zh]: [&str; 2]| {
        [format!("Tool tp_doc failed: InvalidArguments: {en}"), format!("工具 tp_doc 调用失败：InvalidArguments: {zh}")]
    };
    // `{"q": "x"}` is 10 bytes as text; `{"q": "xy"}` is 11, its compact JSON 10.
    let fits = call_with(config.clone(), "tp_doc", r#"{"q": "x"}"#, None).await;
    assert!(fits.success, "{}", fits.error_message);
    assert_eq!(messages_with(config.clone(), "tp_doc", r#"{"q": "xy"}"#, None).await, wrapped(large));
    let value = call_with(config.clone(), "tp_doc", json!({"q": "xy"}), None).await;
    assert!(value.success, "{}", value.error_message);
    // Bytes, not characters: `{"q":"中"}` is 9 characters and 11 bytes.
    assert_eq!(messages_with(config.clone(), "tp_doc", r#"{"q":"中"}"#, None).await, wrapped(large));
    assert_eq!(messages_with(config.clone(), "tp_doc", json!({"q": "中"}), None).await, wrapped(large));
    // Invalid JSON that is too large is too large.
    assert_eq!(messages_with(config, "tp_doc", r#"{"q":"xxxxx"#, None).await, wrapped(large));
}

// "depth counts nested arrays and objects, the top-level object being 1"; brackets inside strings
// are text; checked "before any decoding".
#[tokio::test]
async fn depth_counts_arrays_and_objects_but_not_brackets_in_strings() {
    let config = RegistryConfig::default().max_argument_depth(2);
    let deep = [
        "Tool tp_doc failed: InvalidArguments: arguments are nested deeper than 2 levels".to_owned(),
        "工具 tp_doc 调用失败：InvalidArguments: 参数嵌套超过 2 层".to_owned(),
    ];
    let fits = call_with(config.clone(), "tp_doc", r#"{"q":"[[[{{{","m":{"a":1}}"#, None).await;
    assert!(fits.success, "{}", fits.error_message);
    assert_eq!(messages_with(config.clone(), "tp_doc", r#"{"m":{"a":[]}}"#, None).await, deep);
    assert_eq!(messages_with(config.clone(), "tp_doc", json!({"m": [[1]]}), None).await, deep);
    // Before decoding: a deep non-object, and a deep value of a string parameter.
    assert_eq!(messages_with(config.clone(), "tp_doc", "[[[1]]]", None).await, deep);
    assert_eq!(messages_with(config, "tp_doc", r#"{"q":[[1]]}"#, None).await, deep);
}

// ==== context-named parameters ===================================================================

fn chat_context(user_id: &str) -> ToolExecutionContext {
    ToolExecutionContext { session_id: "sess".into(), user_id: user_id.into(), ..Default::default() }
}

// A value filled from the context is decoded as the model's would be: leniently, into the
// parameter's type; `chat_id` is the stream id, else the session id.
#[tokio::test]
async fn a_context_value_is_decoded_into_the_parameters_type() {
    assert_eq!(ok_with("tp_ids", "{}", Some(&chat_context("42"))).await, r#"Some(42)|Some("sess")|None"#);
    assert_eq!(
        ok_with("tp_ids", json!({"user_id": null, "chat_id": ""}), Some(&chat_context(" 7 "))).await,
        r#"Some(7)|Some("sess")|None"#
    );
    fails_with(
        "tp_ids",
        "{}",
        Some(&chat_context("u1")),
        r#"user_id: expected integer, got string "u1""#,
        r#"user_id：应为 integer，实际为 string "u1""#,
    )
    .await;
    assert_eq!(ok_with("tp_ids", "{}", None).await, "None|None|None");
}

// "values the model gave are kept": a model's value is decoded (and refused) as sent, whatever the
// context holds.
#[tokio::test]
async fn a_model_value_for_a_context_named_parameter_is_decoded_as_sent() {
    assert_eq!(
        ok_with("tp_ids", r#"{"user_id":"0"}"#, Some(&chat_context("42"))).await,
        r#"Some(0)|Some("sess")|None"#
    );
    fails_with(
        "tp_ids",
        r#"{"user_id":-1}"#,
        Some(&chat_context("42")),
        "user_id: -1 is out of range for u64",
        "user_id：-1 超出 u64 的范围",
    )
    .await;
    fails_with(
        "tp_ids",
        r#"{"chat_id":5}"#,
        Some(&chat_context("42")),
        "chat_id: expected string, got integer 5",
        "chat_id：应为 string，实际为 integer 5",
    )
    .await;
}

// Legacy actions: "`stream_id` and `chat_id` set to `sid` … overwriting model values", so a model's
// bad `chat_id` never reaches decoding; a declared parameter of its own is decoded as sent.
#[tokio::test]
async fn a_legacy_actions_chat_id_is_overwritten_and_its_own_parameters_decoded() {
    let ctx = ToolExecutionContext { stream_id: "st".into(), session_id: "sess".into(), ..Default::default() };
    assert_eq!(ok_with("tp_legacy", r#"{"target":"t","chat_id":5}"#, Some(&ctx)).await, r#"Some("t")|Some("st")"#);
    fails_with(
        "tp_legacy",
        r#"{"target":5}"#,
        Some(&ctx),
        "target: expected string, got integer 5",
        "target：应为 string，实际为 integer 5",
    )
    .await;
}
