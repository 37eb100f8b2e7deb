//! What a model's arguments do to a `#[tool]`: lenient decoding, path-named errors, return forms.

use serde_json::{Value, json};
use std::collections::HashMap;
use toolhook::__private::Invoker;
use toolhook::{
    DeclaredTool, Json, Locale, ToolContentItem, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolOutput, schemars, serde, tool,
};

async fn call_in(
    name: &str,
    args: impl Into<toolhook::ToolArguments>,
    ctx: Option<&ToolExecutionContext>,
    locale: Locale,
) -> Result<ToolExecutionResult, ToolError> {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == name).expect("declared");
    let call = ToolInvocation::new(name, args).with_call_id("call_1");
    match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, ctx, locale, None).await,
        Invoker::Sync(f) => f(None, call, ctx.cloned(), locale, None),
    }
}

async fn call(name: &str, args: &str) -> Result<ToolExecutionResult, ToolError> {
    call_in(name, args, None, Locale::En).await
}

async fn error(name: &str, args: &str) -> String {
    let e = call(name, args).await.expect_err("expected an argument error");
    assert_eq!(e.type_name(), "InvalidArguments");
    e.message(Locale::En).to_owned()
}

/// Weather.
#[tool]
async fn weather(
    /// The city.
    city: String,
    #[param(enum = ["celsius", "fahrenheit"], default = "celsius")]
    /// Temperature unit.
    unit: String,
    /// Days ahead.
    days: Option<u8>,
    #[param(default = 0.5)]
    /// The ratio.
    ratio: f32,
    #[param(default = false)]
    /// Whether to give details.
    detailed: bool,
) -> String {
    format!("{city}|{unit}|{days:?}|{ratio}|{detailed}")
}

#[tokio::test]
async fn lenient_scalars_are_accepted() {
    let out = call("weather", r#"{"city":"Paris","days":"3","ratio":"0.25","detailed":"Yes"}"#).await.unwrap();
    assert_eq!(out.content, "Paris|celsius|Some(3)|0.25|true");
    let out = call("weather", r#"{"city":"Paris","days":3.0,"detailed":1,"ratio":2}"#).await.unwrap();
    assert_eq!(out.content, "Paris|celsius|Some(3)|2|true");
    let out = call("weather", r#"{"city":"Paris","days":" +7 ","detailed":" off "}"#).await.unwrap();
    assert_eq!(out.content, "Paris|celsius|Some(7)|0.5|false");
}

#[tokio::test]
async fn absent_and_null_optionals_take_none_or_the_default() {
    let out = call("weather", r#"{"city":"Oslo","days":null,"unit":null,"extra":{"ignored":[1,2]}}"#).await.unwrap();
    assert_eq!(out.content, "Oslo|celsius|None|0.5|false");
}

#[tokio::test]
async fn wrong_types_name_the_path_and_what_arrived() {
    assert_eq!(error("weather", r#"{"city":"P","days":"five"}"#).await, r#"days: expected integer, got string "five""#);
    assert_eq!(error("weather", r#"{"city":"P","detailed":5}"#).await, "detailed: expected boolean, got integer 5");
    assert_eq!(error("weather", r#"{"city":["P"]}"#).await, "city: expected string, got array");
    assert_eq!(error("weather", r#"{"city":"P","days":2.5}"#).await, "days: expected integer, got number 2.5");
    assert_eq!(error("weather", r#"{"city":null}"#).await, "city: expected string, got null");
}

#[tokio::test]
async fn enums_ranges_and_missing_parameters_are_reported() {
    assert_eq!(
        error("weather", r#"{"city":"P","unit":"kelvin"}"#).await,
        r#"unit: expected one of "celsius", "fahrenheit", got string "kelvin""#
    );
    assert_eq!(error("weather", r#"{"city":"P","days":300}"#).await, "days: 300 is out of range for u8");
    assert_eq!(error("weather", r#"{"city":"P","days":-1}"#).await, "days: -1 is out of range for u8");
    assert_eq!(error("weather", r#"{"days":1}"#).await, "city: missing required parameter");
}

#[tokio::test]
async fn the_first_error_in_document_order_wins_then_missing_parameters() {
    assert_eq!(error("weather", r#"{"days":"x","unit":"kelvin"}"#).await, r#"days: expected integer, got string "x""#);
}

#[tokio::test]
async fn document_level_errors_have_no_path() {
    assert!(error("weather", r#"{"city":"P""#).await.starts_with("arguments are not valid JSON: EOF while parsing"));
    assert_eq!(error("weather", "[1,2]").await, "arguments must be a JSON object");
    assert_eq!(error("weather", r#""text""#).await, "arguments must be a JSON object");
    assert!(
        error("weather", r#"{"city":"P"} x"#).await.starts_with("arguments are not valid JSON: trailing characters")
    );
    // Empty text and null mean {}.
    assert_eq!(error("weather", "  ").await, "city: missing required parameter");
    assert_eq!(error("weather", "null").await, "city: missing required parameter");
}

#[tokio::test]
async fn errors_are_localised() {
    let e = call_in("weather", r#"{"city":"P","days":"five"}"#, None, Locale::ZhHans).await.unwrap_err();
    assert_eq!(e.message(Locale::ZhHans), r#"days：应为 integer，实际为 string "five""#);
    assert_eq!(e.message(Locale::En), r#"days: expected integer, got string "five""#);
}

/// Initials.
#[tool]
fn initials(
    /// One letter.
    letter: char,
    /// Exactly two points.
    pair: [u8; 2],
) -> String {
    format!("{letter}{pair:?}")
}

#[tokio::test]
async fn chars_and_fixed_arrays_say_what_they_need_in_both_locales() {
    assert_eq!(call("initials", r#"{"letter":"é","pair":[1,2]}"#).await.unwrap().content, "é[1, 2]");
    let both = |args: &'static str| async move {
        let e = call_in("initials", args, None, Locale::ZhHans).await.unwrap_err();
        [e.message(Locale::En).to_owned(), e.message(Locale::ZhHans).to_owned()]
    };
    assert_eq!(
        both(r#"{"letter":"ab","pair":[1,2]}"#).await,
        [r#"letter: expected a single character, got string "ab""#, r#"letter：应为单个字符，实际为 string "ab""#]
    );
    assert_eq!(
        both(r#"{"letter":"a","pair":[1,2,3]}"#).await,
        ["pair: expected an array of 2 items, got 3", "pair：应为 2 项的数组，实际为 3 项"]
    );
}

#[tokio::test]
async fn arguments_may_be_a_value() {
    let out = call_in("weather", json!({"city": "Rome", "days": 2}), None, Locale::En).await.unwrap();
    assert_eq!(out.content, "Rome|celsius|Some(2)|0.5|false");
}

/// Strict.
#[tool(deny_unknown_args)]
fn strict(
    /// The query.
    q: String,
) -> String {
    q
}

#[tokio::test]
async fn denied_unknown_arguments_are_errors() {
    assert_eq!(error("strict", r#"{"q":"x","zzz":1}"#).await, "zzz: unknown parameter");
    assert_eq!(call("strict", r#"{"q":" x "}"#).await.unwrap().content, "x");
}

#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Item {
    id: u32,
}

/// Nested.
#[tool]
fn nested(
    /// Items.
    items: Vec<Item>,
    /// Tags.
    tags: Vec<u8>,
    /// Scores by name.
    scores: HashMap<String, i8>,
    any: Option<Value>,
) -> String {
    format!("{}|{:?}|{}|{:?}", items.len(), tags, scores.len(), any)
}

#[tokio::test]
async fn nested_paths_point_at_the_bad_value() {
    assert_eq!(
        error("nested", r#"{"items":[{"id":1},{"id":"x"}],"tags":[],"scores":{}}"#).await,
        r#"items[1].id: invalid type: string "x", expected u32"#
    );
    assert_eq!(
        error("nested", r#"{"items":[],"tags":[1,2,"300"],"scores":{}}"#).await,
        r#"tags[2]: "300" is out of range for u8"#
    );
    assert_eq!(
        error("nested", r#"{"items":[],"tags":[],"scores":{"a":1,"b":"many"}}"#).await,
        r#"scores.b: expected integer, got string "many""#
    );
    assert_eq!(error("nested", r#"{"items":{},"tags":[],"scores":{}}"#).await, r#"items: expected array, got object"#);
    let ok =
        call("nested", r#"{"items":[{"id":1}],"tags":["1",2],"scores":{"a":"-3"},"any":{"k":[1]}}"#).await.unwrap();
    assert_eq!(ok.content, r#"1|[1, 2]|1|Some(Object {"k": Array [Number(1)]})"#);
}

/// Context.
#[tool]
async fn whoami(
    ctx: &ToolExecutionContext,
    call: &ToolInvocation,
    /// The chat id.
    chat_id: Option<String>,
) -> String {
    format!("{}|{}|{}|{:?}", ctx.user_id, ctx.locale, call.call_id(), chat_id)
}

#[tokio::test]
async fn context_parameters_are_injected_and_not_in_the_schema() {
    let ctx = ToolExecutionContext { user_id: "u1".into(), locale: Locale::ZhHans, ..Default::default() };
    let out = call_in("whoami", "{}", Some(&ctx), Locale::ZhHans).await.unwrap();
    assert_eq!(out.content, "u1|zh-Hans|call_1|None");
    let out = call("whoami", "").await.unwrap();
    assert_eq!(out.content, "|en|call_1|None");
    let spec = DeclaredTool::all().into_iter().find(|t| t.name() == "whoami").unwrap().spec().unwrap();
    assert_eq!(spec.parameters_schema()["required"], json!([]));
    assert_eq!(spec.parameters_schema()["properties"].as_object().unwrap().keys().collect::<Vec<_>>(), ["chat_id"]);
    assert_eq!(
        DeclaredTool::all().into_iter().find(|t| t.name() == "whoami").unwrap().registration().context_params,
        ["chat_id"]
    );
}

// ---- return forms -------------------------------------------------------------------------------

#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Forecast {
    high: i32,
}

/// Returns nothing.
#[tool]
fn ret_unit() {}
/// Returns a string.
#[tool]
fn ret_str() -> &'static str {
    "  padded  "
}
/// Returns a JSON value.
#[tool]
fn ret_value() -> Value {
    json!({"success": false, "error": "bad"})
}
/// Returns structured output.
#[tool]
fn ret_json() -> Json<Forecast> {
    Json(Forecast { high: 21 })
}
/// Returns a struct.
#[tool]
fn ret_struct() -> Forecast {
    Forecast { high: 3 }
}
/// Returns a tool output.
#[tool]
fn ret_output() -> ToolOutput {
    ToolOutput::text(" chart ").with_item(ToolContentItem::image("AAAA", "image/png")).stop_after_execution(true)
}
/// Returns a tuple.
#[tool]
fn ret_tuple(
    /// Whether it succeeds.
    ok: bool,
) -> (bool, String) {
    (ok, format!(" msg {ok} "))
}
/// Returns an option.
#[tool]
fn ret_option(
    /// Whether there is a forecast.
    some: bool,
) -> Option<Forecast> {
    some.then_some(Forecast { high: 1 })
}
/// Returns a result.
#[tool]
async fn ret_result(
    /// Whether it fails.
    fail: bool,
) -> Result<Json<Forecast>, std::io::Error> {
    if fail { Err(std::io::Error::other(" disk full ")) } else { Ok(Json(Forecast { high: 2 })) }
}
/// Returns a number.
#[tool]
fn ret_number() -> i64 {
    42
}

/// R.
#[tool]
fn ret_pair() -> (i32, &'static str) {
    (1, "two")
}

/// R.
#[tool]
fn ret_boxed() -> Box<(u8, u8)> {
    Box::new((3, 4))
}

/// R.
#[tool]
fn ret_slice() -> &'static [u8] {
    &[4, 5]
}

#[tokio::test]
async fn every_return_form_becomes_a_result() {
    let r = call("ret_unit", "").await.unwrap();
    assert!(r.success && r.content.is_empty() && r.structured_content().is_none());
    assert_eq!(call("ret_str", "").await.unwrap().content, "padded");
    let r = call("ret_value", "").await.unwrap();
    assert_eq!((r.success, r.error_message.as_str()), (false, "bad"));
    assert_eq!(call("ret_json", "").await.unwrap().structured_content().cloned(), Some(json!({"high": 21})));
    assert_eq!(call("ret_struct", "").await.unwrap().structured_content().cloned(), Some(json!({"high": 3})));
    let r = call("ret_output", "").await.unwrap();
    assert_eq!((r.content.as_str(), r.content_items().len(), r.stop_after_execution), ("chart", 1, true));
    let r = call("ret_tuple", r#"{"ok":false}"#).await.unwrap();
    assert_eq!((r.success, r.error_message.as_str(), r.structured_content().cloned()), (false, "msg false", None));
    assert_eq!(call("ret_tuple", r#"{"ok":true}"#).await.unwrap().content, "msg true");
    assert_eq!(call("ret_option", r#"{"some":false}"#).await.unwrap().structured_content().cloned(), None);
    assert_eq!(
        call("ret_option", r#"{"some":true}"#).await.unwrap().structured_content().cloned(),
        Some(json!({"high": 1}))
    );
    let r = call("ret_result", r#"{"fail":true}"#).await.unwrap();
    assert_eq!((r.success, r.error_message.as_str()), (false, "disk full"));
    assert_eq!(
        call("ret_result", r#"{"fail":false}"#).await.unwrap().structured_content().cloned(),
        Some(json!({"high": 2}))
    );
    assert_eq!(call("ret_number", "").await.unwrap().structured_content().cloned(), Some(json!(42)));
    // Tuples other than `(bool, S)`, references other than `&str`, and boxes of other types are
    // structured content too.
    assert_eq!(call("ret_pair", "").await.unwrap().structured_content().cloned(), Some(json!([1, "two"])));
    assert_eq!(call("ret_boxed", "").await.unwrap().structured_content().cloned(), Some(json!([3, 4])));
    assert_eq!(call("ret_slice", "").await.unwrap().structured_content().cloned(), Some(json!([4, 5])));
}

#[test]
fn json_returns_declare_an_output_schema() {
    for name in ["ret_json", "ret_result"] {
        let spec = DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap().spec().unwrap();
        assert_eq!(
            spec.output_schema().map(Value::to_string).as_deref(),
            Some(r#"{"type":"object","properties":{"high":{"type":"integer"}},"required":["high"]}"#),
            "{name}"
        );
    }
}

/// A colour.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
enum Colour {
    Red,
    Green,
}

/// An item to paint.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
struct Painted {
    id: u32,
    label: String,
    colour: Option<Colour>,
}

/// Paints items.
#[tool]
async fn paint(
    /// The colour.
    colour: Colour,
    /// What to paint.
    items: Vec<Painted>,
) -> String {
    format!("{colour:?} {}", items.len())
}

#[tokio::test]
async fn user_types_name_unknown_variants_and_missing_fields_in_the_argument_words() {
    assert_eq!(
        error("paint", r#"{"colour":"Blue","items":[]}"#).await,
        r#"colour: expected one of "Red", "Green", got string "Blue""#
    );
    assert_eq!(
        error("paint", r#"{"colour":"Red","items":[{"id":1,"label":"a"},{"label":"b"}]}"#).await,
        "items[1].id: missing required parameter"
    );
    assert_eq!(
        error("paint", r#"{"colour":"Red","items":[{"id":1,"label":"a","colour":"Pink"}]}"#).await,
        r#"items[0].colour: expected one of "Red", "Green", got string "Pink""#
    );
    let e = call_in("paint", r#"{"colour":"Red","items":[{"label":"b"}]}"#, None, Locale::ZhHans).await.unwrap_err();
    assert_eq!(e.message(Locale::ZhHans), "items[0].id：缺少必填参数");
    let e = call_in("paint", r#"{"colour":"Blue","items":[]}"#, None, Locale::ZhHans).await.unwrap_err();
    assert_eq!(e.message(Locale::ZhHans), r#"colour：应为 "Red"、"Green" 之一，实际为 string "Blue""#);
    // A value that looks like part of serde's message cannot add allowed values of its own.
    assert_eq!(
        error("paint", r#"{"colour":"x`, expected `Evil","items":[]}"#).await,
        r#"colour: unknown variant `x`, expected `Evil`, expected `Red` or `Green`"#
    );
    // Other errors of a user type keep serde's words, at their path.
    assert_eq!(
        error("paint", r#"{"colour":"Red","items":[{"id":"x","label":"a"}]}"#).await,
        r#"items[0].id: invalid type: string "x", expected u32"#
    );
    assert_eq!(call("paint", r#"{"colour":"Green","items":[{"id":1,"label":"a"}]}"#).await.unwrap().content, "Green 1");
}
