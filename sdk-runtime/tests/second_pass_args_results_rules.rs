//! Second pass over argument decoding (integer widths at their bounds, lenient strings, numbers and
//! booleans, wrong kinds, nested paths, enums, unknown keys, both locales), the result model
//! (`ToolOutput`, `from_raw`), history text and the media split, with the values the rules' words give.

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::num::{NonZeroI16, NonZeroU8};
use std::sync::Arc;
use toolhook::{
    DeclaredTool, IntoToolResult, Locale, ToolArguments, ToolContentItem, ToolExecutionResult, ToolInvocation,
    ToolOutput, schemars, serde, tool,
};
use toolhook_runtime::{PluginToolProvider, RegistryConfig, ToolRegistry, split_tool_result};

// ---- helpers ------------------------------------------------------------------------------------

fn registry(locale: Locale) -> ToolRegistry {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn run(locale: Locale, name: &str, arguments: impl Into<ToolArguments>) -> ToolExecutionResult {
    registry(locale).invoke(ToolInvocation::new(name, arguments), None).await
}

/// The content of a call that must succeed.
async fn ok(name: &str, arguments: impl Into<ToolArguments>) -> String {
    let result = run(Locale::En, name, arguments).await;
    assert!(result.success, "{name}: {}", result.error_message);
    result.content
}

/// The decoding error detail of a call that must fail, in the given locale.
async fn err_in(locale: Locale, name: &str, arguments: impl Into<ToolArguments>) -> String {
    let result = run(locale, name, arguments).await;
    assert!(!result.success, "{name} succeeded: {}", result.content);
    let prefix = match locale {
        Locale::En => format!("Tool {name} failed: InvalidArguments: "),
        Locale::ZhHans => format!("工具 {name} 调用失败：InvalidArguments: "),
    };
    result.error_message.strip_prefix(&prefix).unwrap_or_else(|| panic!("{}", result.error_message)).to_owned()
}

async fn err(name: &str, arguments: impl Into<ToolArguments>) -> String {
    err_in(Locale::En, name, arguments).await
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn declared(name: &str) -> toolhook::ToolSpec {
    DeclaredTool::all().into_iter().find(|t| t.name() == name).expect("declared").spec().unwrap()
}

fn result_with(items: Vec<ToolContentItem>) -> ToolExecutionResult {
    let mut result = ToolExecutionResult::success("t", "");
    *result.content_items_mut() = items;
    result
}

fn images(result: &ToolExecutionResult) -> Vec<Option<Vec<u8>>> {
    split_tool_result("c", "t", result, Locale::En).media.into_iter().map(|m| m.image).collect()
}

// ---- tools --------------------------------------------------------------------------------------

/// Signed integers of every width.
#[tool]
fn sp_signed(
    #[param(description = "The a.")] a: Option<i8>,
    #[param(description = "The b.")] b: Option<i16>,
    #[param(description = "The c.")] c: Option<i32>,
    #[param(description = "The d.")] d: Option<isize>,
    #[param(description = "The e.")] e: Option<NonZeroI16>,
) -> String {
    format!("{a:?}|{b:?}|{c:?}|{d:?}|{e:?}")
}

/// Unsigned integers of every width.
#[tool]
fn sp_unsigned(
    #[param(description = "The a.")] a: Option<u8>,
    #[param(description = "The b.")] b: Option<u16>,
    #[param(description = "The c.")] c: Option<u32>,
    #[param(description = "The d.")] d: Option<usize>,
    #[param(description = "The e.")] e: Option<NonZeroU8>,
) -> String {
    format!("{a:?}|{b:?}|{c:?}|{d:?}|{e:?}")
}

/// Numbers.
#[tool]
fn sp_numbers(
    #[param(description = "The x.")] x: f64,
    #[param(description = "The y.")] y: Option<f32>,
    #[param(description = "The xs.")] xs: Option<Vec<f64>>,
) -> String {
    format!("{x:?}|{y:?}|{xs:?}")
}

/// A flag.
#[tool]
fn sp_flag(#[param(description = "The flag.")] flag: bool) -> String {
    flag.to_string()
}

/// Texts.
#[tool]
fn sp_text(
    #[param(description = "The s.")] s: String,
    #[param(description = "The b.")] b: Option<Box<str>>,
    #[param(description = "The a.")] a: Option<Arc<str>>,
) -> String {
    format!("{s:?}|{b:?}|{a:?}")
}

/// Everything required.
#[tool]
fn sp_required(
    #[param(description = "The n.")] n: i32,
    #[param(description = "The flag.")] flag: bool,
    #[param(description = "The list.")] list: Vec<u8>,
    #[param(description = "The s.")] s: String,
) -> String {
    format!("{n}|{flag}|{list:?}|{s}")
}

/// Closed to unknown keys.
#[tool(deny_unknown_args)]
fn sp_closed(#[param(description = "The q.")] q: String, #[param(description = "The n.")] n: Option<u8>) -> String {
    format!("{q}|{n:?}")
}

/// Nested std containers.
#[tool]
fn sp_nested(
    #[param(description = "The rows.")] rows: Vec<HashMap<String, Vec<bool>>>,
    #[param(description = "The limits.")] limits: Option<BTreeMap<String, u16>>,
    #[param(description = "The queue.")] queue: Option<VecDeque<i16>>,
    #[param(description = "The pair.")] pair: Option<[i8; 2]>,
    #[param(description = "The maybe.")] maybe: Option<Vec<Option<u8>>>,
    #[param(description = "The ids.")] ids: Option<BTreeSet<i64>>,
    #[param(description = "The boxed.")] boxed: Option<Box<[u32]>>,
) -> String {
    let rows: Vec<Vec<(String, Vec<bool>)>> = rows.into_iter().map(|m| m.into_iter().collect()).collect();
    format!("{rows:?}|{limits:?}|{queue:?}|{pair:?}|{maybe:?}|{ids:?}|{boxed:?}")
}

/// One entry.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct SpEntry {
    /// Its name.
    pub name: String,
    /// How many.
    pub count: u32,
}

/// Entries.
#[tool]
fn sp_entries(#[param(description = "The items.")] items: Vec<SpEntry>) -> String {
    items.iter().map(|e| format!("{}={}", e.name, e.count)).collect::<Vec<_>>().join(",")
}

/// A speed.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum SpSpeed {
    /// Slowly.
    VerySlow,
    /// Quickly.
    Fast,
}

/// Speeds.
#[tool]
fn sp_speeds(#[param(description = "The speeds.")] speeds: Vec<SpSpeed>) -> String {
    format!("{speeds:?}")
}

/// Enumerated values.
#[tool]
fn sp_enums(
    #[param(description = "The x.", enum = [0.5, 1.5])] x: Option<f64>,
    #[param(description = "The level.", enum = [1, 2, 3])] level: Option<u8>,
    #[param(description = "The unit.", enum = ["celsius", "fahrenheit"], default = "celsius")] unit: String,
) -> String {
    format!("{x:?}|{level:?}|{unit}")
}

/// Any JSON.
#[tool]
fn sp_any(
    #[param(description = "The v.")] v: Value,
    #[param(description = "The m.")] m: Option<Map<String, Value>>,
) -> String {
    format!("{}|{}", compact(&v), m.map_or("-".to_owned(), |m| compact(&Value::Object(m))))
}

// ==== integers ===================================================================================

// "integers accept an in-range JSON integer"; "`{path}: {value} is out of range for {rust type}`",
// "`{rust type}` is the scalar type as written in the signature".
#[tokio::test]
async fn every_signed_width_takes_both_bounds_and_refuses_one_past_them() {
    assert_eq!(
        ok("sp_signed", r#"{"a":-128,"b":32767,"c":-2147483648,"d":9223372036854775807,"e":-32768}"#).await,
        "Some(-128)|Some(32767)|Some(-2147483648)|Some(9223372036854775807)|Some(-32768)"
    );
    assert_eq!(
        ok("sp_signed", r#"{"a":127,"b":-32768,"c":2147483647,"e":32767}"#).await,
        "Some(127)|Some(-32768)|Some(2147483647)|None|Some(32767)"
    );
    for (args, expected) in [
        (r#"{"a":128}"#, "a: 128 is out of range for i8"),
        (r#"{"a":-129}"#, "a: -129 is out of range for i8"),
        (r#"{"b":32768}"#, "b: 32768 is out of range for i16"),
        (r#"{"b":-32769}"#, "b: -32769 is out of range for i16"),
        (r#"{"c":2147483648}"#, "c: 2147483648 is out of range for i32"),
        (r#"{"c":-2147483649}"#, "c: -2147483649 is out of range for i32"),
        (r#"{"d":9223372036854775808}"#, "d: 9223372036854775808 is out of range for isize"),
        (r#"{"e":0}"#, "e: 0 is out of range for NonZeroI16"),
        (r#"{"e":32768}"#, "e: 32768 is out of range for NonZeroI16"),
    ] {
        assert_eq!(err("sp_signed", args).await, expected, "{args}");
    }
}

#[tokio::test]
async fn every_unsigned_width_takes_its_bounds_and_refuses_negatives_and_one_past() {
    assert_eq!(
        ok("sp_unsigned", r#"{"a":255,"b":65535,"c":4294967295,"d":0,"e":255}"#).await,
        "Some(255)|Some(65535)|Some(4294967295)|Some(0)|Some(255)"
    );
    for (args, expected) in [
        (r#"{"a":256}"#, "a: 256 is out of range for u8"),
        (r#"{"b":65536}"#, "b: 65536 is out of range for u16"),
        (r#"{"c":4294967296}"#, "c: 4294967296 is out of range for u32"),
        (r#"{"c":-1}"#, "c: -1 is out of range for u32"),
        (r#"{"d":-1}"#, "d: -1 is out of range for usize"),
        (r#"{"e":0}"#, "e: 0 is out of range for NonZeroU8"),
        (r#"{"e":256}"#, "e: 256 is out of range for NonZeroU8"),
    ] {
        assert_eq!(err("sp_unsigned", args).await, expected, "{args}");
    }
    assert_eq!(err_in(Locale::ZhHans, "sp_unsigned", r#"{"b":65536}"#).await, "b：65536 超出 u16 的范围");
}

// "a string of optional sign + ASCII digits (trimmed)"; "`{value}` is compact JSON" (a string keeps
// its quotes).
#[tokio::test]
async fn digit_strings_are_range_checked_at_the_bounds_and_quoted_when_out_of_range() {
    assert_eq!(
        ok("sp_signed", r#"{"a":"-128","b":"+32767","c":" -2147483648\t"}"#).await,
        "Some(-128)|Some(32767)|Some(-2147483648)|None|None"
    );
    assert_eq!(ok("sp_unsigned", r#"{"a":"007","b":"+0"}"#).await, "Some(7)|Some(0)|None|None|None");
    assert_eq!(err("sp_signed", r#"{"a":"128"}"#).await, r#"a: "128" is out of range for i8"#);
    assert_eq!(err("sp_signed", r#"{"b":"-32769"}"#).await, r#"b: "-32769" is out of range for i16"#);
    assert_eq!(
        err("sp_unsigned", r#"{"c":"99999999999999999999999"}"#).await,
        r#"c: "99999999999999999999999" is out of range for u32"#
    );
    assert_eq!(err_in(Locale::ZhHans, "sp_signed", r#"{"a":"128"}"#).await, r#"a："128" 超出 i8 的范围"#);
}

// "integers accept … a float with zero fraction"; out of range values are compact JSON (`128.0`).
#[tokio::test]
async fn whole_floats_are_integers_up_to_the_bounds() {
    assert_eq!(ok("sp_signed", r#"{"a":127.0,"b":-32768.0}"#).await, "Some(127)|Some(-32768)|None|None|None");
    assert_eq!(ok("sp_unsigned", r#"{"b":65535.0}"#).await, "None|Some(65535)|None|None|None");
    assert_eq!(err("sp_signed", r#"{"a":128.0}"#).await, "a: 128.0 is out of range for i8");
    assert_eq!(err("sp_signed", r#"{"a":-129.0}"#).await, "a: -129.0 is out of range for i8");
    assert_eq!(err("sp_unsigned", r#"{"b":-1.0}"#).await, "b: -1.0 is out of range for u16");
}

// Only "optional sign + ASCII digits": anything else in a string is a wrong type, `{actual}` being
// the kind and the string's compact JSON.
#[tokio::test]
async fn integer_strings_other_than_a_sign_and_ascii_digits_are_wrong_types() {
    for text in ["0x10", "1_000", "1e3", "", "+", "1 2", "１２", "٣", "--1", "+-1", "5.", "7.0", " ", "a\nb", "五"]
    {
        let expected = format!("c: expected integer, got string {}", compact(&json!(text)));
        assert_eq!(err("sp_signed", json!({ "c": text })).await, expected, "{text:?}");
    }
    assert_eq!(err("sp_signed", r#"{"c":"a\nb"}"#).await, r#"c: expected integer, got string "a\nb""#);
    assert_eq!(err_in(Locale::ZhHans, "sp_signed", r#"{"c":"五"}"#).await, r#"c：应为 integer，实际为 string "五""#);
}

// "`{actual}` is the JSON kind …; booleans, numbers and strings are followed by a space and their
// compact JSON, `null`, arrays and objects are named by kind only".
#[tokio::test]
async fn integers_name_every_other_kind_they_are_given() {
    for (args, expected) in [
        (r#"{"c":true}"#, "c: expected integer, got boolean true"),
        (r#"{"c":{}}"#, "c: expected integer, got object"),
        (r#"{"c":[1]}"#, "c: expected integer, got array"),
        (r#"{"c":0.5}"#, "c: expected integer, got number 0.5"),
        (r#"{"c":-2.5e-3}"#, "c: expected integer, got number -0.0025"),
    ] {
        assert_eq!(err("sp_signed", args).await, expected, "{args}");
    }
    assert_eq!(err_in(Locale::ZhHans, "sp_signed", r#"{"c":false}"#).await, "c：应为 integer，实际为 boolean false");
    assert_eq!(err_in(Locale::ZhHans, "sp_signed", r#"{"c":{"k":1}}"#).await, "c：应为 integer，实际为 object");
}

// ==== numbers ====================================================================================

// "numbers accept a number or a string parsing as a finite decimal".
#[tokio::test]
async fn numbers_take_integers_and_numeric_strings_and_refuse_non_finite_ones() {
    assert_eq!(ok("sp_numbers", r#"{"x":3,"y":"-0.5"}"#).await, "3.0|Some(-0.5)|None");
    assert_eq!(ok("sp_numbers", r#"{"x":"7","xs":["2.25",1,-0.5]}"#).await, "7.0|None|Some([2.25, 1.0, -0.5])");
    for text in ["NaN", "nan", "inf", "-Infinity", "infinity", "1e999", "1.5.2", "1,5", ""] {
        let expected = format!("x: expected number, got string {}", compact(&json!(text)));
        assert_eq!(err("sp_numbers", json!({ "x": text })).await, expected, "{text:?}");
    }
    assert_eq!(err("sp_numbers", r#"{"x":null}"#).await, "x: expected number, got null");
    assert_eq!(err("sp_numbers", r#"{"x":[1.5]}"#).await, "x: expected number, got array");
    assert_eq!(err("sp_numbers", r#"{"x":1,"xs":[1,"2.5","x"]}"#).await, r#"xs[2]: expected number, got string "x""#);
    assert_eq!(err_in(Locale::ZhHans, "sp_numbers", r#"{"x":"NaN"}"#).await, r#"x：应为 number，实际为 string "NaN""#);
    assert_eq!(err_in(Locale::ZhHans, "sp_numbers", r#"{"x":1,"y":{}}"#).await, "y：应为 number，实际为 object");
}

// ==== booleans ===================================================================================

// "booleans accept a bool, `0`/`1`, or a string (trimmed, case-insensitive) in `true false 1 0 yes
// no on off t f y n`".
#[tokio::test]
async fn every_boolean_word_is_read_in_any_case_with_padding() {
    for word in ["true", "TRUE", " True ", "1", " 1\t", "yes", "YeS", "on", "ON", "t", "T", "y", "Y"] {
        assert_eq!(ok("sp_flag", json!({ "flag": word })).await, "true", "{word:?}");
    }
    for word in ["false", "FALSE", "\nFalse ", "0", "no", "No", "off", "oFF", "f", "F", "n", " N "] {
        assert_eq!(ok("sp_flag", json!({ "flag": word })).await, "false", "{word:?}");
    }
    assert_eq!(ok("sp_flag", r#"{"flag":1}"#).await, "true");
    assert_eq!(ok("sp_flag", r#"{"flag":0}"#).await, "false");
    assert_eq!(ok("sp_flag", r#"{"flag":true}"#).await, "true");
}

#[tokio::test]
async fn other_boolean_spellings_and_numbers_are_wrong_types() {
    for text in ["2", "yes please", "", "tru", "ja", "１", "1.0", "-1", "nope", "o"] {
        let expected = format!("flag: expected boolean, got string {}", compact(&json!(text)));
        assert_eq!(err("sp_flag", json!({ "flag": text })).await, expected, "{text:?}");
    }
    for (args, expected) in [
        (r#"{"flag":-1}"#, "flag: expected boolean, got integer -1"),
        (r#"{"flag":0.5}"#, "flag: expected boolean, got number 0.5"),
        (r#"{"flag":[true]}"#, "flag: expected boolean, got array"),
        (r#"{"flag":{}}"#, "flag: expected boolean, got object"),
        (r#"{"flag":null}"#, "flag: expected boolean, got null"),
    ] {
        assert_eq!(err("sp_flag", args).await, expected, "{args}");
    }
    assert_eq!(
        err_in(Locale::ZhHans, "sp_flag", r#"{"flag":"ja"}"#).await,
        r#"flag：应为 boolean，实际为 string "ja""#
    );
}

// ==== strings ====================================================================================

// "Strings accept strings only"; JSON escapes are read as JSON reads them.
#[tokio::test]
async fn strings_keep_escapes_and_unicode_and_refuse_other_kinds() {
    assert_eq!(
        ok("sp_text", r#"{"s":"\u00e9\ud83d\ude00\t\"\\\/ \u4e2d","b":"5","a":"  x  "}"#).await,
        r#""é😀\t\"\\/ 中"|Some("5")|Some("  x  ")"#
    );
    for (args, expected) in [
        (r#"{"s":1.5}"#, "s: expected string, got number 1.5"),
        (r#"{"s":{}}"#, "s: expected string, got object"),
        (r#"{"s":"x","b":false}"#, "b: expected string, got boolean false"),
        (r#"{"s":"x","a":7}"#, "a: expected string, got integer 7"),
        (r#"{"s":"x","a":[]}"#, "a: expected string, got array"),
    ] {
        assert_eq!(err("sp_text", args).await, expected, "{args}");
    }
    assert_eq!(err_in(Locale::ZhHans, "sp_text", r#"{"s":1.5}"#).await, "s：应为 string，实际为 number 1.5");
}

// ==== missing, null, order =======================================================================

// "An absent or `null` optional parameter is `None`/default"; a required one given `null` is the
// wrong type (`days: expected integer, got null`), not missing.
#[tokio::test]
async fn null_for_a_required_parameter_is_a_wrong_type_and_absence_is_missing() {
    let full = json!({"n": 1, "flag": "on", "list": ["2"], "s": "x"});
    assert_eq!(ok("sp_required", full.clone()).await, "1|true|[2]|x");
    for (key, expected) in [
        ("n", "n: expected integer, got null"),
        ("flag", "flag: expected boolean, got null"),
        ("list", "list: expected array, got null"),
        ("s", "s: expected string, got null"),
    ] {
        let mut args = full.clone();
        args[key] = Value::Null;
        assert_eq!(err("sp_required", args).await, expected);
    }
    assert_eq!(err("sp_required", "{}").await, "n: missing required parameter");
    assert_eq!(err("sp_required", r#"{"s":"x","flag":true,"n":1}"#).await, "list: missing required parameter");
    assert_eq!(err_in(Locale::ZhHans, "sp_required", r#"{"n":1}"#).await, "flag：缺少必填参数");
    assert_eq!(err_in(Locale::ZhHans, "sp_required", r#"{"n":null}"#).await, "n：应为 integer，实际为 null");
}

// "One error per call: the first in document order; then missing parameters, first in declaration
// order."
#[tokio::test]
async fn the_first_bad_value_in_the_text_wins_at_any_depth_before_missing_parameters() {
    assert_eq!(err("sp_required", r#"{"s":5,"n":"x"}"#).await, "s: expected string, got integer 5");
    assert_eq!(
        err("sp_required", r#"{"list":[1,"x"],"n":"bad"}"#).await,
        r#"list[1]: expected integer, got string "x""#
    );
    assert_eq!(err("sp_required", r#"{"n":"bad","list":[1,"x"]}"#).await, r#"n: expected integer, got string "bad""#);
    assert_eq!(
        err("sp_required", r#"{"s":"ok","flag":"maybe"}"#).await,
        r#"flag: expected boolean, got string "maybe""#
    );
}

// ==== unknown keys ===============================================================================

// "Unknown arguments are ignored": names are matched exactly.
#[tokio::test]
async fn unknown_keys_are_ignored_and_names_match_exactly() {
    assert_eq!(err("sp_text", r#"{"S":"x"}"#).await, "s: missing required parameter");
    assert_eq!(ok("sp_text", r#"{"s ":1,"s":"x","extra":{"deep":[1,{"a":null}]},"B":5}"#).await, r#""x"|None|None"#);
}

// "with `deny_unknown_args` they are errors and the schema gains a top-level
// `"additionalProperties": false` after `required`"; "`{path}: unknown parameter`" / "`{path}：未知参数`";
// the first error in document order.
#[tokio::test]
async fn denied_unknown_keys_are_errors_in_document_order() {
    assert_eq!(err("sp_closed", r#"{"zzz":1,"q":5}"#).await, "zzz: unknown parameter");
    assert_eq!(err("sp_closed", r#"{"q":5,"zzz":1}"#).await, "q: expected string, got integer 5");
    assert_eq!(err("sp_closed", r#"{"Q":"x","q":"y"}"#).await, "Q: unknown parameter");
    assert_eq!(err("sp_closed", r#"{"n":1,"zzz":null}"#).await, "zzz: unknown parameter");
    assert_eq!(err_in(Locale::ZhHans, "sp_closed", r#"{"q":"y","Q":"x"}"#).await, "Q：未知参数");
    assert_eq!(ok("sp_closed", r#"{"q":"y","n":"3"}"#).await, "y|Some(3)");
    let spec = declared("sp_closed");
    let keys: Vec<&String> = spec.parameters_schema().as_object().unwrap().keys().collect();
    assert_eq!(keys, ["type", "properties", "required", "additionalProperties"]);
    assert_eq!(spec.parameters_schema()["additionalProperties"], json!(false));
}

// ==== nested paths ===============================================================================

// Lenient scalars reach "elements/values of their sequences, options, maps"; "Path: the parameter
// name, then `.field`/`[index]`".
#[tokio::test]
async fn lenient_scalars_reach_every_std_container() {
    let args = r#"{"rows":[{"k":["yes",0]}],"limits":{"a":"65535"},"queue":["-32768",1],"pair":["1",-2],
        "maybe":[1,null,"2"],"ids":["3"," 1 ",2],"boxed":[" 4 "]}"#;
    assert_eq!(
        ok("sp_nested", args).await,
        r#"[[("k", [true, false])]]|Some({"a": 65535})|Some([-32768, 1])|Some([1, -2])|Some([Some(1), None, Some(2)])|Some({1, 2, 3})|Some([4])"#
    );
}

#[tokio::test]
async fn errors_inside_std_containers_name_the_full_path() {
    for (args, expected) in [
        (r#"{"rows":[{},{"k":[true,"maybe"]}]}"#, r#"rows[1].k[1]: expected boolean, got string "maybe""#),
        (r#"{"rows":[],"limits":{"a":1,"b":70000}}"#, "limits.b: 70000 is out of range for u16"),
        (r#"{"rows":[],"queue":[1,"-32769"]}"#, r#"queue[1]: "-32769" is out of range for i16"#),
        (r#"{"rows":[],"pair":[200,1]}"#, "pair[0]: 200 is out of range for i8"),
        (r#"{"rows":[],"maybe":[null,"x"]}"#, r#"maybe[1]: expected integer, got string "x""#),
        (r#"{"rows":[],"ids":[1,1.5]}"#, "ids[1]: expected integer, got number 1.5"),
        (r#"{"rows":[],"boxed":[-1]}"#, "boxed[0]: -1 is out of range for u32"),
        (r#"{"rows":[5]}"#, "rows[0]: expected object, got integer 5"),
        (r#"{"rows":[{"k":"yes"}]}"#, r#"rows[0].k: expected array, got string "yes""#),
        (r#"{"rows":"x"}"#, r#"rows: expected array, got string "x""#),
        (r#"{"rows":[],"limits":[]}"#, "limits: expected object, got array"),
        (r#"{"rows":[],"limits":{"温度 max":-1}}"#, "limits.温度 max: -1 is out of range for u16"),
    ] {
        assert_eq!(err("sp_nested", args).await, expected, "{args}");
    }
    assert_eq!(
        err_in(Locale::ZhHans, "sp_nested", r#"{"rows":[{},{"k":[true,"maybe"]}]}"#).await,
        r#"rows[1].k[1]：应为 boolean，实际为 string "maybe""#
    );
    assert_eq!(
        err_in(Locale::ZhHans, "sp_nested", r#"{"rows":[],"limits":{"b":70000}}"#).await,
        "limits.b：70000 超出 u16 的范围"
    );
}

// Lenient scalars apply "not inside user types"; errors still name the path (`items[0].id`).
#[tokio::test]
async fn fields_of_user_types_are_not_lenient_and_errors_name_their_path() {
    assert_eq!(ok("sp_entries", r#"{"items":[{"name":"a","count":1},{"name":"b","count":2}]}"#).await, "a=1,b=2");
    let detail =
        err("sp_entries", r#"{"items":[{"name":"a","count":1},{"name":"b","count":2},{"name":5,"count":3}]}"#).await;
    assert!(detail.starts_with("items[2].name: "), "{detail}");
    let detail = err("sp_entries", r#"{"items":[{"name":"a","count":"5"}]}"#).await;
    assert!(detail.starts_with("items[0].count: "), "a digit string is no u32 inside a user type: {detail}");
    let detail =
        err_in(Locale::ZhHans, "sp_entries", r#"{"items":[{"name":"a","count":1},{"name":1,"count":1}]}"#).await;
    assert!(detail.starts_with("items[1].name："), "{detail}");
    assert_eq!(
        err("sp_entries", r#"{"items":[{"name":"a","count":1},{"count":1}]}"#).await,
        "items[1].name: missing required parameter"
    );
}

// "wrong type | `{path}: expected {type}, got {actual}`", "`{type}` is the schema type": a top-level
// sequence of user types is a std container of schema type `array`.
#[tokio::test]
async fn a_sequence_of_user_types_given_another_kind_is_a_wrong_type() {
    assert_eq!(err("sp_entries", r#"{"items":"x"}"#).await, r#"items: expected array, got string "x""#);
    assert_eq!(err("sp_entries", r#"{"items":{}}"#).await, "items: expected array, got object");
    assert_eq!(err_in(Locale::ZhHans, "sp_entries", r#"{"items":3}"#).await, "items：应为 array，实际为 integer 3");
}

// "`enum` lists and unit enums are enforced"; the allowed values are the serialised names.
#[tokio::test]
async fn unit_enums_in_a_sequence_are_enforced_by_their_serialised_names() {
    assert_eq!(ok("sp_speeds", r#"{"speeds":["very_slow","fast"]}"#).await, "[VerySlow, Fast]");
    assert_eq!(
        err("sp_speeds", r#"{"speeds":["fast","Fast"]}"#).await,
        r#"speeds[1]: expected one of "very_slow", "fast", got string "Fast""#
    );
    assert_eq!(
        err_in(Locale::ZhHans, "sp_speeds", r#"{"speeds":["VerySlow"]}"#).await,
        r#"speeds[0]：应为 "very_slow"、"fast" 之一，实际为 string "VerySlow""#
    );
}

// ==== enum lists =================================================================================

// "The allowed values of "not allowed" are the `enum` values as compact JSON joined by `, `
// (zh-Hans `、`)"; strings are not trimmed; a `null` optional takes its default.
#[tokio::test]
async fn enum_lists_of_floats_integers_and_strings_are_enforced_in_both_locales() {
    assert_eq!(ok("sp_enums", r#"{"x":"1.5","level":"3","unit":null}"#).await, "Some(1.5)|Some(3)|celsius");
    assert_eq!(ok("sp_enums", r#"{"x":0.5,"unit":"fahrenheit"}"#).await, "Some(0.5)|None|fahrenheit");
    assert_eq!(err("sp_enums", r#"{"x":2}"#).await, "x: expected one of 0.5, 1.5, got integer 2");
    assert_eq!(err_in(Locale::ZhHans, "sp_enums", r#"{"x":2.5}"#).await, "x：应为 0.5、1.5 之一，实际为 number 2.5");
    assert_eq!(err("sp_enums", r#"{"level":0}"#).await, "level: expected one of 1, 2, 3, got integer 0");
    assert_eq!(err("sp_enums", r#"{"level":"4"}"#).await, r#"level: expected one of 1, 2, 3, got string "4""#);
    for text in [" celsius ", "Celsius", ""] {
        let expected =
            format!(r#"unit: expected one of "celsius", "fahrenheit", got string {}"#, compact(&json!(text)));
        assert_eq!(err("sp_enums", json!({ "unit": text })).await, expected, "{text:?}");
    }
    assert_eq!(
        err_in(Locale::ZhHans, "sp_enums", r#"{"unit":"kelvin"}"#).await,
        r#"unit：应为 "celsius"、"fahrenheit" 之一，实际为 string "kelvin""#
    );
}

// ==== JSON values and the document ===============================================================

// "`serde_json::Value` … decoding accepts any JSON".
#[tokio::test]
async fn json_value_parameters_take_any_json_as_sent() {
    for v in [json!(5), json!("x"), json!([1, {"a": null}]), json!(true), json!({}), json!(-0.25)] {
        assert_eq!(ok("sp_any", json!({ "v": v })).await, format!("{}|-", compact(&v)));
    }
    assert_eq!(ok("sp_any", r#"{"v":1,"m":{"k":[1,"2"]}}"#).await, r#"1|{"k":[1,"2"]}"#);
    assert_eq!(err("sp_any", r#"{"m":{}}"#).await, "v: missing required parameter");
}

// "Empty or whitespace text or `null` = `{}`. Invalid JSON, or JSON that is not an object, is an
// error"; "document-level errors have none" (no path); a call's arguments may be text or a `Value`.
#[tokio::test]
async fn the_document_is_read_alike_from_text_and_from_a_value() {
    assert_eq!(err("sp_text", json!(null)).await, "s: missing required parameter");
    assert_eq!(err("sp_text", " null ").await, "s: missing required parameter");
    assert_eq!(err("sp_text", "\r\n\t").await, "s: missing required parameter");
    for value in [json!([1]), json!("{}"), json!(0), json!(false)] {
        assert_eq!(err("sp_text", value.clone()).await, "arguments must be a JSON object", "{value}");
    }
    assert_eq!(err_in(Locale::ZhHans, "sp_text", json!([])).await, "参数必须是 JSON 对象");
    assert_eq!(ok("sp_text", json!({"s": "v"})).await, r#""v"|None|None"#);
    for text in [r#"{"s":"x",}"#, r#"{"s":NaN}"#, r#"{'s':'x'}"#, r#"{"s":"x"}{}"#] {
        let detail = err("sp_text", text).await;
        assert!(detail.starts_with("arguments are not valid JSON: "), "{text}: {detail}");
    }
    let detail = err_in(Locale::ZhHans, "sp_text", r#"{"s":"x",}"#).await;
    assert!(detail.starts_with("参数不是合法的 JSON："), "{detail}");
}

// ==== tool outputs ===============================================================================

// "`ToolOutput` | its fields; `content` trimmed; success unless built with `failure`"; history:
// "content … if not blank; the item summaries …; structured content (… so a failed object result
// shows its JSON); `error_message` trimmed".
#[test]
fn a_failed_tool_output_shows_its_items_then_its_json_then_its_error() {
    let failed = ToolOutput::failure("  broke  ").into_tool_result(Locale::En);
    assert!(!failed.success);
    assert_eq!(failed.history_content(Locale::En), "broke");
    let with_json =
        ToolOutput::failure("broke").with_structured(json!({"code": 7, "ok": false})).into_tool_result(Locale::En);
    assert!(!with_json.success);
    assert_eq!(with_json.history_content(Locale::En), r#"{"code": 7, "ok": false}"#);
    assert_eq!(with_json.history_content(Locale::ZhHans), r#"{"code": 7, "ok": false}"#);
    let with_item = ToolOutput::failure("broke")
        .with_structured(json!({"code": 7}))
        .with_item(ToolContentItem::audio("QUJD", "audio/ogg"))
        .into_tool_result(Locale::ZhHans);
    assert_eq!(with_item.history_content(Locale::ZhHans), "[音频内容 audio/ogg]");
    assert_eq!(with_item.history_content(Locale::En), "[audio audio/ogg]");
    let split = split_tool_result("c1", "t", &with_item, Locale::ZhHans);
    assert_eq!(
        split.tool_message,
        "[音频内容 audio/ogg]\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:c1:1\" type=\"audio\" mime=\"audio/ogg\" />\n</tool_result_media_list>"
    );
}

#[test]
fn tool_output_text_is_trimmed_and_its_parts_keep_their_order() {
    let result = ToolOutput::text("\n  two words \t")
        .with_item(ToolContentItem::text("a"))
        .with_items([ToolContentItem::text("b"), ToolContentItem::resource("mem://c", "c")])
        .with_post_history(json!({"n": 1}))
        .with_post_history(json!({"n": 2}))
        .stop_after_execution(true)
        .stop_after_execution(false)
        .with_metadata("k", 1)
        .into_tool_result(Locale::En);
    assert!(result.success);
    assert_eq!(result.content, "two words");
    let texts: Vec<&str> = result.content_items().iter().map(|i| i.text.as_str()).collect();
    assert_eq!(texts, ["a", "b", "c"]);
    assert_eq!(result.post_history_messages(), [json!({"n": 1}), json!({"n": 2})]);
    assert!(!result.stop_after_execution);
    assert_eq!(result.metadata.get("k"), Some(&json!(1)));
    assert_eq!(result.history_content(Locale::En), "two words");
    let blank = ToolOutput::text("   ").with_item(ToolContentItem::text(" b ")).into_tool_result(Locale::En);
    assert_eq!((blank.content.as_str(), blank.history_content(Locale::En).as_str()), ("", "b"));
    let structured = ToolOutput::structured(json!([1, 2.0, "x"])).into_tool_result(Locale::En);
    assert!(structured.success);
    assert_eq!(structured.content, "");
    assert_eq!(structured.structured_content(), Some(&json!([1, 2.0, "x"])));
    assert_eq!(structured.history_content(Locale::En), r#"[1, 2.0, "x"]"#);
}

// "`(bool, S: Display)` | true → `content` = S trimmed; false → failure with `error_message` = S
// trimmed; no structured content"; "`Option<T>` | `None` as `()`"; "`Result<T, E: Display>` | …
// `Err(e)` → failure, `error_message` = `e.to_string()` trimmed"; the split's "Still empty:
// `工具执行成功。` / `Tool executed successfully.`, or on failure `工具 {tool_name} 执行失败。` / `Tool
// {tool_name} failed.`"
#[test]
fn rust_return_forms_split_into_their_message_or_the_locales_default_text() {
    let message = |result: &ToolExecutionResult, locale| split_tool_result("c", "t", result, locale).tool_message;
    let refused = (false, "  no  ").into_tool_result(Locale::ZhHans);
    assert_eq!((refused.success, refused.error_message.as_str(), refused.structured_content()), (false, "no", None));
    assert_eq!(message(&refused, Locale::ZhHans), "no");
    assert_eq!(message(&refused, Locale::En), "no");
    let silent = (false, "").into_tool_result(Locale::En);
    assert!(!silent.success);
    assert_eq!(message(&silent, Locale::En), "Tool t failed.");
    assert_eq!(message(&silent, Locale::ZhHans), "工具 t 执行失败。");
    let blank_err = Err::<String, String>("  ".into()).into_tool_result(Locale::En);
    assert_eq!((blank_err.success, blank_err.error_message.as_str()), (false, ""));
    assert_eq!(message(&blank_err, Locale::En), "Tool t failed.");
    for done in [(true, "  ").into_tool_result(Locale::En), None::<String>.into_tool_result(Locale::En)] {
        assert!(done.success);
        assert_eq!(message(&done, Locale::En), "Tool executed successfully.");
        assert_eq!(message(&done, Locale::ZhHans), "工具执行成功。");
    }
}

// ==== from_raw ===================================================================================

// "`content` = the `content` value if the key exists, else `message`, else `""`, falsy → `""`, PyStr,
// trimmed": a present key never falls back, even when its text is blank.
#[test]
fn a_present_content_key_never_falls_back_to_message() {
    for content in [json!("   "), json!(false), json!([]), json!({})] {
        let raw = json!({"content": content, "message": "m"});
        let result = ToolExecutionResult::from_raw("t", raw.clone());
        assert!(result.success, "{raw}");
        assert_eq!(result.content, "", "{raw}");
    }
    let result = ToolExecutionResult::from_raw("t", json!({"content": "   ", "message": "m"}));
    assert_eq!(result.history_content(Locale::En), r#"{"content": "   ", "message": "m"}"#);
    assert_eq!(result.history_content(Locale::ZhHans), r#"{"content": "   ", "message": "m"}"#);
}

// "`error_message` (failures only) = `error` if the key exists, else `message`, else `Tool execution
// failed` / `插件工具执行失败`, falsy → `""`, PyStr, trimmed".
#[test]
fn a_present_error_key_wins_even_when_blank_and_a_present_message_beats_the_default() {
    for locale in [Locale::En, Locale::ZhHans] {
        let r = ToolExecutionResult::from_raw_in("t", json!({"success": false, "error": "  ", "message": "m"}), locale);
        assert_eq!((r.success, r.error_message.as_str(), r.content.as_str()), (false, "", "m"));
        let r = ToolExecutionResult::from_raw_in("t", json!({"success": false, "error": 0, "message": "m"}), locale);
        assert_eq!(r.error_message, "");
        let r = ToolExecutionResult::from_raw_in("t", json!({"success": false, "message": ""}), locale);
        assert_eq!(r.error_message, "", "a present message is used, even falsy");
        let r = ToolExecutionResult::from_raw_in("t", json!({"success": false, "error": {"code": 1}}), locale);
        assert_eq!(r.error_message, "{'code': 1}");
    }
}

// PyRepr: "strings in `'…'`, or `"…"` when the text holds `'` and no `"`; inside quotes escape `\\`,
// that quote, `\n`, `\r`, `\t`"; "objects `{'k': v, 'k2': v2}`".
#[test]
fn python_reprs_pick_their_quotes_by_the_text() {
    let result = ToolExecutionResult::from_raw(
        "t",
        json!(["it's", "say \"hi\"", "both ' \"", {"it's": "\n", "k2": [null, true]}, "tab\there"]),
    );
    assert!(result.success);
    assert_eq!(result.content, r#"["it's", 'say "hi"', 'both \' "', {"it's": '\n', 'k2': [None, True]}, 'tab\there']"#);
}

// "a `stop_after_execution` that is present and not a bool → failure, … `structured_content` = the
// object, nothing else read"; the message in both locales.
#[test]
fn a_non_boolean_stop_flag_reads_nothing_else_in_either_locale() {
    let raw = json!({"success": true, "content": "c", "stop_after_execution": 1,
        "content_items": [{"type": "image", "data": "QUJD"}]});
    let en = ToolExecutionResult::from_raw("t", raw.clone());
    assert!(!en.success);
    assert_eq!(en.error_message, "The tool result field `stop_after_execution` must be a boolean.");
    assert_eq!((en.content.as_str(), en.content_items().len(), en.stop_after_execution), ("", 0, false));
    assert_eq!(en.structured_content(), Some(&raw));
    let zh = ToolExecutionResult::from_raw_in("t", raw, Locale::ZhHans);
    assert_eq!(zh.error_message, "插件工具返回字段 `stop_after_execution` 必须为布尔值。");
}

// ==== history text ===============================================================================

// Summaries per item kind: "resource_link | `[resource link] {name or uri or resource link}`";
// "resource | text trimmed if not blank, else `[embedded resource] {name or uri or embedded
// resource}`"; "other, incl. blank text | `[{type} content]`" / "`[{type} 内容]`".
#[test]
fn every_item_kind_built_in_rust_summarises_in_both_locales() {
    let mut named = ToolContentItem::resource("mem://r", "   ");
    named.name = "notes".into();
    let mut unknown = ToolContentItem::text("x");
    unknown.content_type = toolhook::ContentType::Unknown;
    let result = result_with(vec![
        ToolContentItem::text("  hi  "),
        ToolContentItem::image("QUJD", ""),
        ToolContentItem::audio("", "audio/ogg"),
        ToolContentItem::resource_link("https://x/y", ""),
        ToolContentItem::resource_link("https://x/y", "Y"),
        ToolContentItem::resource("mem://r", "  body  "),
        named,
        ToolContentItem::resource("", ""),
        ToolContentItem::binary("QUJD", "application/zip"),
        ToolContentItem::text("   "),
        unknown,
    ]);
    assert_eq!(
        result.history_content(Locale::En),
        "hi\n[image unknown]\n[audio audio/ogg]\n[resource link] https://x/y\n[resource link] Y\nbody\n[embedded resource] notes\n[embedded resource] embedded resource\n[binary application/zip]\n[text content]\n[unknown content]"
    );
    assert_eq!(
        result.history_content(Locale::ZhHans),
        "hi\n[图片内容 unknown]\n[音频内容 audio/ogg]\n[资源链接] https://x/y\n[资源链接] Y\nbody\n[嵌入资源] notes\n[嵌入资源] 嵌入资源\n[二进制内容 application/zip]\n[text 内容]\n[unknown 内容]"
    );
}

// "First that applies: `content` trimmed if not blank; the item summaries …": a text-only list of
// blank texts still beats structured content.
#[test]
fn blank_text_items_still_beat_structured_content_and_the_error() {
    let mut result = ToolExecutionResult::failure("t", "boom").with_structured_content(json!({"a": 1}));
    result.content_items_mut().push(ToolContentItem::text(" "));
    assert_eq!(result.history_content(Locale::En), "[text content]");
    assert_eq!(result.history_content(Locale::ZhHans), "[text 内容]");
}

// ==== media split ================================================================================

// "the part after the first comma of a `data:` URL; strict base64, else with padding added, else
// none"; "`image` for type image (or binary with an `image/` mime): data, else a `data:` uri".
#[test]
fn data_urls_give_the_part_after_the_first_comma_with_or_without_a_base64_marker() {
    let mut from_uri = ToolContentItem::image("", "");
    from_uri.uri = "data:;base64,QUJD".into();
    let mut bad_data_good_uri = ToolContentItem::image("!!!!", "image/png");
    bad_data_good_uri.uri = "data:image/png;base64,QUJD".into();
    let result = result_with(vec![
        ToolContentItem::image("data:image/png,QUJD", "image/png"),
        from_uri,
        ToolContentItem::binary("data:image/gif;base64,R0lG", "image/gif"),
        ToolContentItem::binary("QUJD", "image/svg+xml"),
        bad_data_good_uri,
    ]);
    assert_eq!(
        images(&result),
        [Some(b"ABC".to_vec()), Some(b"ABC".to_vec()), Some(b"GIF".to_vec()), Some(b"ABC".to_vec()), None]
    );
}

#[test]
fn base64_gets_missing_padding_and_nothing_else_repaired() {
    let result = result_with(
        ["QQ", "QUI", "QUJDRQ", "QUJD\nRUY=", "QUJD RUY=", "QU_D", "QU+D", "Q"]
            .into_iter()
            .map(|data| ToolContentItem::image(data, "image/png"))
            .collect(),
    );
    assert_eq!(
        images(&result),
        [
            Some(b"A".to_vec()),
            Some(b"AB".to_vec()),
            Some(b"ABCE".to_vec()),
            None,
            None,
            None,
            Some(vec![0x41, 0x4f, 0x83]),
            None
        ]
    );
    let split = split_tool_result("c", "t", &result, Locale::ZhHans);
    assert!(split.media[0].visible_text.ends_with("\n[图片]"), "{}", split.media[0].visible_text);
    assert_eq!(split.media[3].visible_text, "<tool_result_media msg_id=\"tool_result:c:4\" />\nimage / image/png");
}

// ATTRS "in order, blank ones omitted, values trimmed and escaped"; `visible_text` lists "`type / mime
// / name / context_key=… / source_url=…` (present parts, unescaped)".
#[test]
fn every_attribute_appears_in_order_escaped_in_the_header_and_plain_in_the_visible_text() {
    let mut item = ToolContentItem::resource("file:///r", "")
        .with_name("a&b")
        .with_metadata("source_url", "https://x/?a=1&b=<2>")
        .with_metadata("context_key", "k'1");
    item.mime_type = "text/plain".into();
    let result = result_with(vec![item]);
    for (locale, summary) in [(Locale::En, "[embedded resource] a&b"), (Locale::ZhHans, "[嵌入资源] a&b")] {
        let split = split_tool_result("c", "t", &result, locale);
        let attrs = r#"msg_id="tool_result:c:1" type="resource" mime="text/plain" name="a&amp;b" context_key="k&#x27;1" source_url="https://x/?a=1&amp;b=&lt;2&gt;""#;
        assert_eq!(
            split.tool_message,
            format!("{summary}\n\n<tool_result_media_list>\n  <media {attrs} />\n</tool_result_media_list>")
        );
        assert_eq!(split.media[0].header_text, format!("<tool_result_media {attrs} />"));
        assert_eq!(
            split.media[0].visible_text,
            "<tool_result_media msg_id=\"tool_result:c:1\" />\nresource / text/plain / a&b / context_key=k'1 / source_url=https://x/?a=1&b=<2>"
        );
        assert_eq!(split.media[0].image, None);
    }
}

// "Media = type image, audio, resource_link, resource or binary with at least one of data, uri, name,
// description, mime_type not blank": a text item's text never makes it media, nor an unknown item's
// fields.
#[test]
fn only_media_kinds_with_a_non_blank_field_are_split_out() {
    let mut unknown = ToolContentItem::image("QUJD", "image/png");
    unknown.content_type = toolhook::ContentType::Unknown;
    let mut text = ToolContentItem::text("t");
    text.data = "QUJD".into();
    text.mime_type = "image/png".into();
    let result = result_with(vec![
        text,
        unknown,
        ToolContentItem::resource("", "embedded body"),
        ToolContentItem::resource_link(" ", " "),
        ToolContentItem::binary("", "").with_description("a file"),
    ]);
    let split = split_tool_result("c", "t", &result, Locale::En);
    let indices: Vec<usize> = split.media.iter().map(|m| m.item_index).collect();
    assert_eq!(indices, [5]);
    assert_eq!(split.media[0].header_text, "<tool_result_media msg_id=\"tool_result:c:5\" type=\"binary\" />");
    assert_eq!(split.media[0].visible_text, "<tool_result_media msg_id=\"tool_result:c:5\" />\nbinary");
}
