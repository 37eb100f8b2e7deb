//! A fourth pass over the less obvious corners of the written rules, each expected value worked
//! out from the rules' words alone: lenient integer, number and boolean arguments at the edges of
//! what they accept (padding, signs, notations, non-finite and non-ASCII text, whole floats out of
//! range), `null` inside optional and required list layers, which of several argument errors is
//! reported, paths inside one's own types; the JSON types of hook kwargs validation (numbers and
//! integers, type lists, no leniency, the built-in catalogue, schemas that are never validated);
//! the detailed text in every definitions API (every dialect, locale overrides, a round's
//! definitions, the strict fallback, generated parameter blocks); the Gemini projection's
//! `nullable`, `anyOf` and enum forms; and a plugin after it was unloaded.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolhook::hooks::{HookArgs, HookContext, HookOutcome};
use toolhook::{
    Dialect, Locale, ToolArguments, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolParamType as T,
    ToolParameterInfo as P, ToolSpec, Visibility, hook_handler, plugin, schemars, serde, tool,
};
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};
use toolhook_runtime::{
    DeferredTools, PluginHost, PluginSet, PluginState, PluginToolProvider, RegistryConfig, Source, ToolRegistry,
};

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

// ---- helpers: tool calls ---------------------------------------------------------------------------

fn declared(config: RegistryConfig) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn call(config: RegistryConfig, name: &str, arguments: impl Into<ToolArguments>) -> ToolExecutionResult {
    declared(config).invoke(ToolInvocation::new(name, arguments), None).await
}

/// The content of a call that must succeed.
async fn ok(name: &str, arguments: impl Into<ToolArguments>) -> String {
    let arguments = arguments.into();
    let result = call(RegistryConfig::default(), name, arguments.clone()).await;
    assert!(result.success, "{name} {arguments:?}: {}", result.error_message);
    result.content
}

/// The `error_message`s of a call that must fail, as `[en, zh-Hans]`.
async fn errors(name: &str, arguments: impl Into<ToolArguments>) -> [String; 2] {
    let arguments = arguments.into();
    let mut out = [String::new(), String::new()];
    for (slot, locale) in out.iter_mut().zip([Locale::En, Locale::ZhHans]) {
        let result = call(RegistryConfig::default().locale(locale), name, arguments.clone()).await;
        assert!(!result.success, "{name} {arguments:?} succeeded in {locale}: {}", result.content);
        *slot = result.error_message;
    }
    out
}

/// Asserts a call fails with the argument details `en` / `zh` in the registry's wrapper texts.
async fn fails(name: &str, arguments: impl Into<ToolArguments>, en: &str, zh: &str) {
    let arguments = arguments.into();
    assert_eq!(
        errors(name, arguments.clone()).await,
        [
            format!("Tool {name} failed: InvalidArguments: {en}"),
            format!("工具 {name} 调用失败：InvalidArguments: {zh}"),
        ],
        "{arguments:?}"
    );
}

/// Asserts a call fails with "wrong type": `{path}: expected {type}, got {actual}`.
async fn wrong_type(name: &str, arguments: impl Into<ToolArguments>, path: &str, ty: &str, actual: &str) {
    fails(
        name,
        arguments,
        &format!("{path}: expected {ty}, got {actual}"),
        &format!("{path}：应为 {ty}，实际为 {actual}"),
    )
    .await
}

/// Asserts a call fails with "out of range": `{path}: {value} is out of range for {rust type}`.
async fn out_of_range(name: &str, arguments: impl Into<ToolArguments>, path: &str, value: &str, rust: &str) {
    fails(
        name,
        arguments,
        &format!("{path}: {value} is out of range for {rust}"),
        &format!("{path}：{value} 超出 {rust} 的范围"),
    )
    .await
}

/// A string as the rules name it in `{actual}`: `string` and its compact JSON.
fn string_actual(s: &str) -> String {
    format!("string {}", serde_json::to_string(s).unwrap())
}

// ---- helpers: hooks --------------------------------------------------------------------------------

fn hook_args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

fn modifying(name: &str, hook: &str, kwargs: Value) -> HookHandlerEntry {
    let outcome: HookOutcome = HookOutcome::modify(hook_args(kwargs));
    HookHandlerEntry::new(name, hook, move |_: HookArgs, _: HookContext| std::future::ready(outcome.clone()))
}

/// Hook `demo.v` with `schema`; plugin `p.v` returns each candidate from its handlers `h1`, `h2`, …
fn validating(schema: Value, candidates: &[Value]) -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec { parameters_schema: schema, ..HookSpec::new("demo.v") }).unwrap();
    let dispatcher = HookDispatcher::builder().specs(specs).build();
    let entries =
        candidates.iter().enumerate().map(|(i, c)| modifying(&format!("h{}", i + 1), "demo.v", c.clone())).collect();
    dispatcher.register_plugin("p.v", Source::ThirdParty, entries).unwrap();
    dispatcher
}

/// The rejection texts of handlers `h{n}` with the given reasons.
fn rejected(reasons: &[(usize, &str)]) -> Vec<String> {
    reasons.iter().map(|(n, r)| format!("Hook demo.v rejected modified_kwargs from p.v.h{n}: {r}")).collect()
}

// ---- helpers: definitions --------------------------------------------------------------------------

/// Where a dialect's definition keeps its description.
fn description_of(definition: &Value, dialect: Dialect) -> &Value {
    match dialect {
        Dialect::OpenAiChat | Dialect::OpenAiChatStrict => &definition["function"]["description"],
        _ => &definition["description"],
    }
}

fn named<'a>(definitions: &'a [Value], dialect: Dialect, name: &str) -> &'a Value {
    definitions
        .iter()
        .find(|d| match dialect {
            Dialect::OpenAiChat | Dialect::OpenAiChatStrict => d["function"]["name"] == name,
            _ => d["name"] == name,
        })
        .unwrap_or_else(|| panic!("{name} in {dialect}: {definitions:?}"))
}

fn raw(name: &str, schema: Value) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Brief.")
        .parameters_raw(schema)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn gemini_property(schema: Value, property: &str) -> Value {
    let spec = raw("g", schema);
    let definition = spec.llm_definition(Dialect::Gemini, Locale::En).expect("a Gemini definition");
    definition["parameters"]["properties"][property].clone()
}

/// A spec for the registry tests: brief, author text and two parameters, both locales' texts.
fn lookup_spec(name: &str, visibility: Visibility) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Look things up.")
        .brief_description_in(Locale::ZhHans, "查找资料。")
        .detailed_description("Results are cached for a minute.")
        .detailed_description_in(Locale::ZhHans, "结果缓存一分钟。")
        .parameters(vec![
            P::new("q", T::String).description("The query."),
            P::new("limit", T::Integer).description("Max results").required(false).default(5),
        ])
        .visibility(visibility)
        .build()
        .unwrap()
}

/// `lookup_spec`'s description in a definition when the detailed text is included (rules for the
/// parameter block: English drops one trailing `.` and joins parts with `. `; zh-Hans keeps the
/// description as written and appends ` 默认值：5。`).
const LOOKUP_EN: &str = "Look things up.\n\nParameter details:\n- q: string, required. The query\n- limit: integer, optional. Max results. Default: 5\n\nResults are cached for a minute.";
const LOOKUP_ZH: &str = "查找资料。\n\n参数说明：\n- q：string，必填。The query.\n- limit：integer，可选。Max results 默认值：5。\n\n结果缓存一分钟。";

// ---- tools -----------------------------------------------------------------------------------------

/// Integers.
#[tool]
fn fp_int(
    /// A signed count.
    n: Option<i64>,
    /// An unsigned count.
    u: Option<u32>,
    /// A count that is never zero.
    nz: Option<NonZeroU32>,
) -> String {
    format!("{n:?}|{u:?}|{nz:?}")
}

/// Numbers.
#[tool]
fn fp_num(
    /// A ratio.
    x: Option<f64>,
    /// A small ratio.
    y: Option<f32>,
) -> String {
    format!("{x:?}|{y:?}")
}

/// Booleans.
#[tool]
fn fp_bool(
    /// A flag.
    flag: Option<bool>,
    /// Flags.
    flags: Option<Vec<bool>>,
) -> String {
    format!("{flag:?}|{flags:?}")
}

/// Lists.
#[tool]
fn fp_lists(
    /// Optional list of required ids.
    ids: Option<Vec<u32>>,
    /// Optional list of optional slots.
    slots: Option<Vec<Option<u32>>>,
) -> String {
    format!("{ids:?}|{slots:?}")
}

/// Four required parameters.
#[tool]
fn fp_order(
    /// First.
    a: u8,
    /// Second.
    b: String,
    /// Third.
    c: bool,
    /// Fourth.
    d: u8,
) -> String {
    format!("{a}|{b}|{c}|{d}")
}

/// An item.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct FpItem {
    /// Its id.
    pub id: u32,
    /// Its tag.
    pub tag: Option<String>,
}

/// Items.
#[tool]
fn fp_items(
    /// The items.
    items: Vec<FpItem>,
) -> String {
    items.iter().map(|i| format!("{}:{:?}", i.id, i.tag)).collect::<Vec<_>>().join(",")
}

/// Look up a word.
#[tool(core_tool = true)]
fn fp_lookup(
    /// The word.
    word: String,
    /// How many senses.
    #[param(default = 3)]
    senses: u8,
) -> String {
    format!("{word}|{senses}")
}

/// Pick a level.
#[tool]
fn fp_level(
    /// The level.
    #[param(enum = [1, 2, 3])]
    level: Option<u8>,
    /// The ratio.
    #[param(enum = [0.5, 1.0])]
    ratio: Option<f64>,
) -> String {
    format!("{level:?}|{ratio:?}")
}

// ==== integer arguments ================================================================================

// "integers accept … a string of optional sign + ASCII digits (trimmed)".
#[tokio::test]
async fn integer_strings_are_trimmed_and_take_one_optional_sign() {
    for (arguments, expected) in [
        (json!({"n": " 5 "}), "Some(5)|None|None"),
        (json!({"n": "+5"}), "Some(5)|None|None"),
        (json!({"n": "-0"}), "Some(0)|None|None"),
        (json!({"n": "007"}), "Some(7)|None|None"),
        (json!({"n": "\t-12\n"}), "Some(-12)|None|None"),
        (json!({"u": "+5"}), "None|Some(5)|None"),
        (json!({"u": " 4294967295 "}), "None|Some(4294967295)|None"),
        (json!({"nz": " 3 "}), "None|None|Some(3)"),
    ] {
        assert_eq!(ok("fp_int", arguments.clone()).await, expected, "{arguments}");
    }
}

// Only "optional sign + ASCII digits": exponents, fractions, separators, bare signs, doubled signs,
// inner spaces and non-ASCII digits are strings of the wrong type.
#[tokio::test]
async fn integer_strings_other_than_sign_and_ascii_digits_are_the_wrong_type() {
    for sent in ["1e3", "5.0", "+", "-", "+-5", "--5", "5 5", "- 5", "1_000", "1,000", "５", "٣", "", "0x10", "five"]
    {
        wrong_type("fp_int", json!({ "n": sent }), "n", "integer", &string_actual(sent)).await;
    }
}

// "integers accept an in-range JSON integer, a float with zero fraction": whatever its notation.
#[tokio::test]
async fn integers_accept_whole_floats_in_any_notation() {
    for (text, expected) in [
        (r#"{"n":1e3}"#, "Some(1000)|None|None"),
        (r#"{"n":5.0}"#, "Some(5)|None|None"),
        (r#"{"n":-2.0}"#, "Some(-2)|None|None"),
        (r#"{"n":1E2}"#, "Some(100)|None|None"),
        (r#"{"n":2.5e1}"#, "Some(25)|None|None"),
        (r#"{"u":1e3}"#, "None|Some(1000)|None"),
        (r#"{"nz":4.0}"#, "None|None|Some(4)"),
    ] {
        assert_eq!(ok("fp_int", text).await, expected, "{text}");
    }
}

// A float with a fraction is a `number` ("`integer` = a number with no fractional part"), named
// with its compact JSON.
#[tokio::test]
async fn integers_refuse_a_fractional_number_named_by_its_compact_json() {
    wrong_type("fp_int", r#"{"n":5.5}"#, "n", "integer", "number 5.5").await;
    wrong_type("fp_int", r#"{"n":1e-3}"#, "n", "integer", "number 0.001").await;
    wrong_type("fp_int", r#"{"u":2.5e-1}"#, "u", "integer", "number 0.25").await;
    wrong_type("fp_int", r#"{"n":true}"#, "n", "integer", "boolean true").await;
}

// "in-range": out of range reads `{path}: {value} is out of range for {rust type}`, `{value}` the
// compact JSON of what was sent (`1e+300`, `-1.0`, a string in quotes).
#[tokio::test]
async fn whole_numbers_and_digit_strings_beyond_the_type_are_out_of_range() {
    out_of_range("fp_int", r#"{"n":1e300}"#, "n", "1e+300", "i64").await;
    out_of_range("fp_int", r#"{"u":-1.0}"#, "u", "-1.0", "u32").await;
    out_of_range("fp_int", r#"{"u":4294967296}"#, "u", "4294967296", "u32").await;
    out_of_range("fp_int", r#"{"u":"4294967296"}"#, "u", r#""4294967296""#, "u32").await;
    out_of_range("fp_int", r#"{"u":"-1"}"#, "u", r#""-1""#, "u32").await;
    out_of_range("fp_int", r#"{"n":"-9223372036854775809"}"#, "n", r#""-9223372036854775809""#, "i64").await;
}

// `NonZero*` integers are "range checked when decoding": zero is outside their range, as a number
// or a whole float.
#[tokio::test]
async fn zero_is_out_of_range_for_a_non_zero_integer() {
    out_of_range("fp_int", r#"{"nz":0}"#, "nz", "0", "NonZeroU32").await;
    out_of_range("fp_int", r#"{"nz":0.0}"#, "nz", "0.0", "NonZeroU32").await;
    out_of_range("fp_int", r#"{"nz":"-1"}"#, "nz", r#""-1""#, "NonZeroU32").await;
}

// The rules: "`{value}` is compact JSON" — of the value sent, so a digit string keeps its quotes as
// it does for every other integer type (`"4294967296"` for `u32` above, `"-1"` for this very
// parameter).
#[tokio::test]
async fn a_zero_digit_string_for_a_non_zero_integer_is_named_with_its_quotes() {
    out_of_range("fp_int", r#"{"nz":"0"}"#, "nz", r#""0""#, "NonZeroU32").await;
}

// ==== number arguments =================================================================================

// "numbers accept a number or a string parsing as a finite decimal".
#[tokio::test]
async fn numbers_accept_numbers_and_decimal_strings() {
    for (text, expected) in [
        (r#"{"x":"2.5"}"#, "Some(2.5)|None"),
        (r#"{"x":"-0.25"}"#, "Some(-0.25)|None"),
        (r#"{"x":"5"}"#, "Some(5.0)|None"),
        (r#"{"x":7}"#, "Some(7.0)|None"),
        (r#"{"x":1e3}"#, "Some(1000.0)|None"),
        (r#"{"x":-1.5e-2}"#, "Some(-0.015)|None"),
        (r#"{"y":"0.5"}"#, "None|Some(0.5)"),
        (r#"{"y":3}"#, "None|Some(3.0)"),
    ] {
        assert_eq!(ok("fp_num", text).await, expected, "{text}");
    }
}

// "finite": not-a-number, infinities, and a decimal too large to be finite are refused, whatever
// their case or sign.
#[tokio::test]
async fn number_strings_that_are_not_finite_are_the_wrong_type() {
    for sent in ["nan", "NaN", "-nan", "inf", "-inf", "+inf", "infinity", "Infinity", "1e400", "-1e400"] {
        wrong_type("fp_num", json!({ "x": sent }), "x", "number", &string_actual(sent)).await;
    }
    wrong_type("fp_num", json!({"y": "inf"}), "y", "number", &string_actual("inf")).await;
}

// "a string parsing as a finite decimal": hexadecimal, decimal commas, units, separators, empty
// text and words do not parse.
#[tokio::test]
async fn number_strings_that_are_not_decimals_are_the_wrong_type() {
    for sent in ["0x10", "1,5", "2.5kg", "1_000", "", "half", "½"] {
        wrong_type("fp_num", json!({ "x": sent }), "x", "number", &string_actual(sent)).await;
    }
    wrong_type("fp_num", json!({"x": false}), "x", "number", "boolean false").await;
    wrong_type("fp_num", json!({"x": [1.5]}), "x", "number", "array").await;
}

// ==== boolean arguments ================================================================================

// "booleans accept a bool, `0`/`1`, or a string (trimmed, case-insensitive) in `true false 1 0 yes
// no on off t f y n`".
#[tokio::test]
async fn booleans_accept_the_listed_words_trimmed_in_any_case() {
    for sent in
        [json!(" YES "), json!("T"), json!("y"), json!(" On "), json!("TRUE"), json!(" 1 "), json!(1), json!(true)]
    {
        assert_eq!(ok("fp_bool", json!({ "flag": sent })).await, "Some(true)|None", "{sent}");
    }
    for sent in
        [json!("F"), json!("n"), json!("No"), json!("OFF "), json!("\t0"), json!("False"), json!(0), json!(false)]
    {
        assert_eq!(ok("fp_bool", json!({ "flag": sent })).await, "Some(false)|None", "{sent}");
    }
}

// Only `0`/`1` among numbers; only the listed words among strings.
#[tokio::test]
async fn booleans_refuse_other_numbers_and_words() {
    wrong_type("fp_bool", r#"{"flag":2}"#, "flag", "boolean", "integer 2").await;
    wrong_type("fp_bool", r#"{"flag":-1}"#, "flag", "boolean", "integer -1").await;
    wrong_type("fp_bool", r#"{"flag":0.5}"#, "flag", "boolean", "number 0.5").await;
    for sent in ["2", "yes!", "y e s", "", "enabled", "tru", "nope", "是"] {
        wrong_type("fp_bool", json!({ "flag": sent }), "flag", "boolean", &string_actual(sent)).await;
    }
    wrong_type("fp_bool", r#"{"flag":{}}"#, "flag", "boolean", "object").await;
}

// Lenient scalars reach "elements … of their sequences"; the first bad element is named by index.
#[tokio::test]
async fn booleans_in_a_list_are_lenient_element_by_element() {
    assert_eq!(
        ok("fp_bool", r#"{"flags":[" Y ",0,"off",1,"t"]}"#).await,
        "None|Some([true, false, false, true, true])"
    );
    wrong_type("fp_bool", r#"{"flags":[true,2,"maybe"]}"#, "flags[1]", "boolean", "integer 2").await;
    wrong_type("fp_bool", r#"{"flags":[true,null]}"#, "flags[1]", "boolean", "null").await;
}

// ==== null in list layers ==============================================================================

// `Option<Vec<u32>>`: the list may be `null`, its elements may not ("`days: expected integer, got
// null`"); the elements are lenient.
#[tokio::test]
async fn an_optional_list_of_required_elements_refuses_a_null_element() {
    assert_eq!(ok("fp_lists", r#"{"ids":null}"#).await, "None|None");
    assert_eq!(ok("fp_lists", r#"{"ids":[" 3 ",4.0,"+5"]}"#).await, "Some([3, 4, 5])|None");
    wrong_type("fp_lists", r#"{"ids":[1,null]}"#, "ids[1]", "integer", "null").await;
    wrong_type("fp_lists", r#"{"ids":[null,"x"]}"#, "ids[0]", "integer", "null").await;
    wrong_type("fp_lists", r#"{"ids":[1,"x",-1]}"#, "ids[1]", "integer", r#"string "x""#).await;
}

// `Vec<Option<u32>>`: a `null` element is `None`; the other elements are decoded and range checked
// at their index.
#[tokio::test]
async fn a_list_of_optional_elements_takes_null_elements_as_none() {
    assert_eq!(ok("fp_lists", r#"{"slots":[null,"2",null,3.0]}"#).await, "None|Some([None, Some(2), None, Some(3)])");
    assert_eq!(ok("fp_lists", r#"{"slots":null}"#).await, "None|None");
    wrong_type("fp_lists", r#"{"slots":[null,"x"]}"#, "slots[1]", "integer", r#"string "x""#).await;
    out_of_range("fp_lists", r#"{"slots":[null,-1]}"#, "slots[1]", "-1", "u32").await;
    wrong_type("fp_lists", r#"{"slots":[[null]]}"#, "slots[0]", "integer", "array").await;
}

// ==== which error is reported ==========================================================================

// "One error per call: the first in document order": not the first parameter declared.
#[tokio::test]
async fn the_first_bad_value_in_the_text_wins_over_an_earlier_declared_parameter() {
    wrong_type("fp_order", r#"{"d":"x","c":"maybe","a":1,"b":"s"}"#, "d", "integer", r#"string "x""#).await;
    wrong_type("fp_order", r#"{"c":"maybe","d":"x"}"#, "c", "boolean", r#"string "maybe""#).await;
    wrong_type("fp_order", json!({"b": 5, "a": "x"}), "b", "string", "integer 5").await;
}

// "then missing parameters": a bad value is reported although required parameters are missing.
#[tokio::test]
async fn a_bad_value_is_reported_before_any_missing_parameter() {
    out_of_range("fp_order", r#"{"d":300}"#, "d", "300", "u8").await;
    wrong_type("fp_order", r#"{"d":1,"c":2}"#, "c", "boolean", "integer 2").await;
}

// "then missing parameters, first in declaration order", wherever the given keys stand.
#[tokio::test]
async fn missing_parameters_are_reported_in_declaration_order() {
    for (arguments, missing) in [
        ("{}", "a"),
        ("null", "a"),
        ("  ", "a"),
        (r#"{"d":1,"c":true,"b":"s"}"#, "a"),
        (r#"{"d":1,"a":1}"#, "b"),
        (r#"{"b":"s","d":1,"a":2}"#, "c"),
        (r#"{"c":"yes","b":"s","a":"2"}"#, "d"),
    ] {
        fails(
            "fp_order",
            arguments,
            &format!("{missing}: missing required parameter"),
            &format!("{missing}：缺少必填参数"),
        )
        .await;
    }
    assert_eq!(ok("fp_order", r#"{"d":"4","c":"yes","b":"s","a":1.0}"#).await, "1|s|true|4");
}

// ==== paths inside user types ==========================================================================

// "Path: the parameter name, then `.field`/`[index]` (`items[0].id`)".
#[tokio::test]
async fn a_missing_field_of_a_listed_user_type_is_named_by_index_and_field() {
    fails(
        "fp_items",
        r#"{"items":[{"id":1},{"tag":"t"}]}"#,
        "items[1].id: missing required parameter",
        "items[1].id：缺少必填参数",
    )
    .await;
    assert_eq!(ok("fp_items", r#"{"items":[{"id":1,"tag":null},{"id":2,"tag":"t"}]}"#).await, r#"1:None,2:Some("t")"#);
}

// Lenient scalars apply "not inside user types": a digit string for a field of a user type is
// refused, at the path `items[0].id`.
#[tokio::test]
async fn leniency_stops_at_the_fields_of_user_types() {
    for (arguments, index) in [(r#"{"items":[{"id":"5"}]}"#, 0), (r#"{"items":[{"id":2},{"id":" 5 "}]}"#, 1)] {
        let [en, zh] = errors("fp_items", arguments).await;
        let en_prefix = format!("Tool fp_items failed: InvalidArguments: items[{index}].id: ");
        let zh_prefix = format!("工具 fp_items 调用失败：InvalidArguments: items[{index}].id：");
        assert!(en.starts_with(&en_prefix), "{en}");
        assert!(zh.starts_with(&zh_prefix), "{zh}");
    }
}

// ==== hook kwargs validation ===========================================================================

// A `number` property takes integers too: the rules use JSON Schema's type names, where an integer
// is a number; strings, booleans and arrays are refused (no leniency here).
#[tokio::test]
async fn a_hook_number_property_takes_integers_and_floats_only() {
    let schema = json!({"type": "object", "properties": {"x": {"type": "number"}}});
    let candidates = [
        json!({"x": 5}),
        json!({"x": -3}),
        json!({"x": u64::MAX}),
        json!({"x": 2.5}),
        json!({"x": "5"}),
        json!({"x": true}),
        json!({"x": [1]}),
    ];
    let d = validating(schema, &candidates);
    let result = d.invoke("demo.v", hook_args(json!({"x": 0}))).await.unwrap();
    assert_eq!(
        result.errors,
        rejected(&[
            (5, "x: expected number, got string"),
            (6, "x: expected number, got boolean"),
            (7, "x: expected number, got array"),
        ])
    );
    assert_eq!(result.kwargs, hook_args(json!({"x": 2.5})));
}

// "`integer` accepts any number without fractional part", also inside a type list; "types joined
// by ` or `".
#[tokio::test]
async fn a_hook_integer_or_null_type_list_takes_whole_floats_and_null() {
    let schema = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}, "required": ["n"]});
    let candidates = [json!({"n": 3.5}), json!({"n": "3"}), json!({"n": 1e3}), json!({"n": null}), json!({"n": 3.0})];
    let d = validating(schema, &candidates);
    let result = d.invoke("demo.v", hook_args(json!({"n": 0}))).await.unwrap();
    assert_eq!(
        result.errors,
        rejected(&[(1, "n: expected integer or null, got number"), (2, "n: expected integer or null, got string")])
    );
    assert_eq!(result.kwargs, hook_args(json!({"n": 3.0})));
}

// Hook validation checks JSON types as sent: nothing is coerced (`1` is no boolean, `"true"` no
// boolean, `5` no string).
#[tokio::test]
async fn hook_validation_coerces_nothing() {
    let schema = json!({
        "type": "object",
        "properties": {"b": {"type": "boolean"}, "s": {"type": "string"}, "o": {"type": "object"}}
    });
    let candidates = [
        json!({"b": 1}),
        json!({"b": "true"}),
        json!({"s": 5}),
        json!({"s": 2.5}),
        json!({"o": []}),
        json!({"b": false, "s": "", "o": {}}),
    ];
    let d = validating(schema, &candidates);
    let result = d.invoke("demo.v", hook_args(json!({}))).await.unwrap();
    assert_eq!(
        result.errors,
        rejected(&[
            (1, "b: expected boolean, got integer"),
            (2, "b: expected boolean, got string"),
            (3, "s: expected string, got integer"),
            (4, "s: expected string, got number"),
            (5, "o: expected object, got array"),
        ])
    );
    assert_eq!(result.kwargs, hook_args(json!({"b": false, "s": "", "o": {}})));
}

// `items` checks "each element, path `key[i]`" with the same integer rule.
#[tokio::test]
async fn hook_integer_items_take_whole_floats_and_name_the_first_fractional_one() {
    let schema = json!({"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "integer"}}}});
    let candidates = [json!({"xs": [1, 1.5, 2.5]}), json!({"xs": [1, 2.0, 3e0]})];
    let d = validating(schema, &candidates);
    let result = d.invoke("demo.v", hook_args(json!({"xs": []}))).await.unwrap();
    assert_eq!(result.errors, rejected(&[(1, "xs[1]: expected integer, got number")]));
    assert_eq!(result.kwargs, hook_args(json!({"xs": [1, 2.0, 3e0]})));
}

// The catalogue's integer fields take whole floats; an optional field may be `null`; a dropped
// required field is "missing required field".
#[tokio::test]
async fn catalogue_integer_fields_take_whole_floats() {
    const HOOK: &str = "expression.select.before_select";
    let d = HookDispatcher::builder().specs(HookSpecRegistry::with_builtin_catalogue()).build();
    let accepted =
        json!({"chat_id": "c", "chat_info": "i", "max_num": 5.0, "target_message": null, "think_level": 1e0});
    d.register_plugin(
        "p.cat",
        Source::ThirdParty,
        vec![
            modifying("h1", HOOK, accepted.clone()),
            modifying("h2", HOOK, json!({"chat_id": "c", "chat_info": "i", "max_num": 2.5, "think_level": 1})),
            modifying("h3", HOOK, json!({"chat_id": "c", "max_num": 1, "think_level": 1})),
        ],
    )
    .unwrap();
    let input = json!({"chat_id": "c", "chat_info": "i", "max_num": 3, "think_level": 1});
    let result = d.invoke(HOOK, hook_args(input)).await.unwrap();
    assert_eq!(
        result.errors,
        [
            format!("Hook {HOOK} rejected modified_kwargs from p.cat.h2: max_num: expected integer, got number"),
            format!("Hook {HOOK} rejected modified_kwargs from p.cat.h3: chat_info: missing required field"),
        ]
    );
    assert_eq!(result.kwargs, hook_args(accepted));
}

// "if the spec's schema has `properties` or `required`, validate it": an object schema with
// neither is never checked, even when it closes additional properties.
#[tokio::test]
async fn a_hook_schema_without_properties_or_required_is_not_validated() {
    let d = validating(
        json!({"type": "object", "additionalProperties": false}),
        &[json!({"anything": [1, "x"], "else": null})],
    );
    let result = d.invoke("demo.v", hook_args(json!({"text": "hi"}))).await.unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(result.kwargs, hook_args(json!({"anything": [1, "x"], "else": null})));
}

// ==== the detailed text in definitions =================================================================

// "With `include_detailed_description` and a non-empty `detailed_description(locale)`, the
// definition's description is the brief + `\n\n` + that text", in every dialect; without it, the
// brief alone.
#[tokio::test]
async fn every_dialect_appends_the_detailed_text_only_when_configured() {
    for include in [true, false] {
        let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(include));
        registry.register_provider(Stub::new("p", "plugin", [lookup_spec("lookup", Visibility::Visible)]));
        let expected = if include { LOOKUP_EN } else { "Look things up." };
        for dialect in Dialect::ALL {
            let definitions = registry.get_llm_definitions(None, dialect).await;
            assert_eq!(definitions.len(), 1, "{dialect}");
            assert_eq!(description_of(&definitions[0], dialect), expected, "{dialect} include {include}");
        }
    }
}

// `get_llm_definitions_in(ctx, dialect, locale)` "overrides the locale for that call": the brief
// and the detailed text are both the override's, either way round.
#[tokio::test]
async fn a_locale_override_sends_that_locales_brief_and_detailed_text() {
    for (own, other, own_text, other_text) in
        [(Locale::En, Locale::ZhHans, LOOKUP_EN, LOOKUP_ZH), (Locale::ZhHans, Locale::En, LOOKUP_ZH, LOOKUP_EN)]
    {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(own).include_detailed_description(true));
        registry.register_provider(Stub::new("p", "plugin", [lookup_spec("lookup", Visibility::Deferred)]));
        for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Gemini, Dialect::Mcp] {
            let mine = registry.get_llm_definitions(None, dialect).await;
            assert_eq!(description_of(&mine[0], dialect), own_text, "{dialect} in {own}");
            let overridden = registry.get_llm_definitions_in(None, dialect, other).await;
            assert_eq!(description_of(&overridden[0], dialect), other_text, "{dialect} in {other}");
        }
    }
}

// A `#[tool]` without author text but with parameters has a detailed text: the locale's block.
#[tokio::test]
async fn a_declared_tool_without_author_text_sends_its_parameter_block() {
    let registry = declared(RegistryConfig::default().include_detailed_description(true));
    let en = registry.get_llm_definitions(None, Dialect::Anthropic).await;
    assert_eq!(
        named(&en, Dialect::Anthropic, "fp_lookup")["description"],
        "Look up a word.\n\nParameter details:\n- word: string, required. The word\n- senses: integer, optional. How many senses. Default: 3"
    );
    let zh = registry.get_llm_definitions_in(None, Dialect::OpenAiChat, Locale::ZhHans).await;
    assert_eq!(
        named(&zh, Dialect::OpenAiChat, "fp_lookup")["function"]["description"],
        "Look up a word.\n\n参数说明：\n- word：string，必填。The word.\n- senses：integer，可选。How many senses. 默认值：3。"
    );
}

// "a non-empty `detailed_description(locale)`": blank author text on a tool without parameters
// leaves the brief alone; author text that already starts with the header is "used as is in both
// locales".
#[tokio::test]
async fn only_a_non_empty_detailed_text_is_appended_and_a_headed_one_as_is() {
    let blank = ToolSpec::builder("blank")
        .brief_description("Blank.")
        .detailed_description("  \n\t ")
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let plain = ToolSpec::builder("plain")
        .brief_description("Plain.")
        .detailed_description("  Only text.  ")
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let headed = ToolSpec::builder("headed")
        .brief_description("Headed.")
        .detailed_description("Parameter details:\n- q: anything at all")
        .parameters(vec![P::new("q", T::String).description("Query")])
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(true));
    registry.register_provider(Stub::new("p", "plugin", [blank, plain, headed]));
    for locale in [Locale::En, Locale::ZhHans] {
        let definitions = registry.get_llm_definitions_in(None, Dialect::Neutral, locale).await;
        let descriptions: Vec<&Value> = definitions.iter().map(|d| &d["description"]).collect();
        assert_eq!(
            descriptions,
            [
                &json!("Blank."),
                &json!("Plain.\n\nOnly text."),
                &json!("Headed.\n\nParameter details:\n- q: anything at all")
            ],
            "{locale}"
        );
    }
}

// "`RoundTools::definitions(dialect)` renders the advertised list" as LLM definitions, in the
// registry's configuration: visible and discovered tools carry their detailed text.
#[tokio::test]
async fn a_rounds_definitions_carry_the_detailed_text_when_configured() {
    for include in [true, false] {
        let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(include));
        registry.register_provider(Stub::new(
            "p",
            "plugin",
            [
                lookup_spec("shown", Visibility::Visible),
                lookup_spec("found", Visibility::Deferred),
                lookup_spec("unfound", Visibility::Deferred),
            ],
        ));
        let deferred = DeferredTools::new();
        deferred.discover("s1", ["found"]);
        let round = deferred.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
        let expected = if include { LOOKUP_EN } else { "Look things up." };
        for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Anthropic] {
            let definitions = round.definitions(dialect);
            assert_eq!(definitions.len(), 2, "{dialect}");
            for name in ["shown", "found"] {
                let definition = named(&definitions, dialect, name);
                assert_eq!(description_of(definition, dialect), expected, "{name} {dialect} include {include}");
            }
        }
    }
}

// "A strict dialect that fails to project a tool sends that tool in the non-strict form of the
// same API": with the detailed text, as every definition.
#[tokio::test]
async fn the_non_strict_fallback_keeps_the_detailed_text() {
    let open = ToolSpec::builder("open")
        .brief_description("Open.")
        .detailed_description("Takes any metadata.")
        .parameters(vec![P::new("meta", T::Object).description("Meta").additional_properties(true)])
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(true));
    registry.register_provider(Stub::new("p", "plugin", [open.clone()]));
    let description = "Open.\n\nParameter details:\n- meta: object, required. Meta\n\nTakes any metadata.";
    let schema = open.parameters_schema().clone();
    let chat = registry.get_llm_definitions(None, Dialect::OpenAiChatStrict).await;
    assert_eq!(
        chat,
        [json!({"type": "function", "function": {"name": "open", "description": description, "parameters": schema}})]
    );
    let responses = registry.get_llm_definitions(None, Dialect::OpenAiResponsesStrict).await;
    assert_eq!(
        responses,
        [
            json!({"type": "function", "name": "open", "description": description, "parameters": schema, "strict": false})
        ]
    );
}

// ==== the Gemini projection ============================================================================

// "`[t,"null"]` → t + `"nullable":true`" on a top-level property, the description kept; a type
// list names a set of types, so `null` may come first or last.
#[test]
fn gemini_flags_a_null_type_list_in_either_order() {
    for list in [json!(["integer", "null"]), json!(["null", "integer"])] {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"type": list, "description": "N"}},
            "required": []
        });
        assert_eq!(gemini_property(schema, "n"), json!({"type": "integer", "description": "N", "nullable": true}));
    }
}

// "`anyOf` of one branch and `{"type":"null"}` → that branch + nullable", whichever comes first.
#[test]
fn gemini_folds_an_any_of_with_null_first_or_last() {
    let branch = json!({"type": "string", "enum": ["a", "b"]});
    for any_of in [json!([branch.clone(), {"type": "null"}]), json!([{"type": "null"}, branch.clone()])] {
        let schema = json!({"type": "object", "properties": {"s": {"anyOf": any_of}}, "required": []});
        assert_eq!(gemini_property(schema, "s"), json!({"type": "string", "enum": ["a", "b"], "nullable": true}));
    }
}

// "an `enum` with non-strings → its values as compact-JSON strings and `"type":"string"`";
// "`const` v → `enum` [v]": floats keep their fraction (`1.0`), small ones their exponent
// (`1e-7`); booleans become words; a string enum is left alone.
#[test]
fn gemini_sends_non_string_enum_values_as_compact_json_strings() {
    let schema = json!({
        "type": "object",
        "properties": {
            "f": {"type": "number", "enum": [1.0, 2.5, 1e-7]},
            "b": {"type": "boolean", "enum": [true, false]},
            "c": {"type": "integer", "const": 5},
            "s": {"type": "string", "enum": ["x", "y"]}
        },
        "required": []
    });
    assert_eq!(gemini_property(schema.clone(), "f"), json!({"type": "string", "enum": ["1.0", "2.5", "1e-7"]}));
    assert_eq!(gemini_property(schema.clone(), "b"), json!({"type": "string", "enum": ["true", "false"]}));
    assert_eq!(gemini_property(schema.clone(), "c"), json!({"type": "string", "enum": ["5"]}));
    assert_eq!(gemini_property(schema, "s"), json!({"type": "string", "enum": ["x", "y"]}));
}

// A declared tool's numeric enums go to Gemini as strings, and "lenient decoding turns `"2"` back
// into 2": the values a Gemini model picks decode into the parameter's type.
#[tokio::test]
async fn a_declared_numeric_enum_round_trips_through_gemini_strings() {
    let registry = declared(RegistryConfig::default());
    let spec = registry.get_tool_spec("fp_level", None).await.expect("fp_level is listed");
    let definition = spec.llm_definition(Dialect::Gemini, Locale::En).unwrap();
    let properties = &definition["parameters"]["properties"];
    assert_eq!(properties["level"], json!({"type": "string", "description": "The level.", "enum": ["1", "2", "3"]}));
    assert_eq!(properties["ratio"], json!({"type": "string", "description": "The ratio.", "enum": ["0.5", "1.0"]}));
    assert_eq!(ok("fp_level", json!({"level": "2", "ratio": "1.0"})).await, "Some(2)|Some(1.0)");
    assert_eq!(ok("fp_level", json!({"level": "3", "ratio": "0.5"})).await, "Some(3)|Some(0.5)");
    fails(
        "fp_level",
        json!({"level": "4"}),
        r#"level: expected one of 1, 2, 3, got string "4""#,
        r#"level：应为 1、2、3 之一，实际为 string "4""#,
    )
    .await;
}

// ==== a plugin after unload ============================================================================

static FP_UNLOADS: AtomicUsize = AtomicUsize::new(0);

#[derive(Default)]
pub struct FpUnloaded;

#[plugin(id = "fp.unloaded")]
impl FpUnloaded {
    async fn on_unload(&self) {
        FP_UNLOADS.fetch_add(1, Ordering::SeqCst);
    }

    /// Answer.
    #[tool(core_tool = true)]
    async fn fp_unloaded_probe(&self) -> &'static str {
        "here"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("marked_by", "fp.unloaded");
        HookOutcome::modify(args)
    }
}

// States other than `Loading`/`Loaded`: tools not listed, a call gets `Tool not found`, handlers
// not registered; "`PluginHost::shutdown()` unloads every `Loaded` plugin", so an `Unloaded` one
// is not unloaded again.
#[tokio::test]
async fn an_unloaded_plugin_is_gone_and_shutdown_leaves_it_alone() {
    let (registry, dispatcher) = (ToolRegistry::default(), HookDispatcher::new());
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["fp.unloaded"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .build();
    assert!(host.load_all().await.is_clean());
    let probe = || ToolInvocation::new("fp_unloaded_probe", "{}");
    let marked = || async {
        let result = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
        result.kwargs.get("marked_by").cloned()
    };
    assert_eq!(registry.invoke(probe(), None).await.content, "here");
    assert_eq!(marked().await, Some(json!("fp.unloaded")));

    host.unload("fp.unloaded").await;
    assert_eq!(host.state("fp.unloaded"), Some(PluginState::Unloaded));
    assert_eq!(FP_UNLOADS.load(Ordering::SeqCst), 1);
    assert!(!registry.has_tool("fp_unloaded_probe", None).await);
    let result = registry.invoke(probe(), None).await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: fp_unloaded_probe"));
    assert_eq!(marked().await, None);

    host.shutdown().await;
    assert_eq!(FP_UNLOADS.load(Ordering::SeqCst), 1, "shutdown unloads only Loaded plugins");
    assert_eq!(host.state("fp.unloaded"), Some(PluginState::Unloaded));
}
