//! Third pass over results: what each Rust return form of a `#[tool]` becomes when called through a
//! registry, panics and timeouts as failed results with their exact texts in both locales, `from_raw`
//! of Python-style dicts, and the history of mixed batches of calls.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use toolhook::{
    Json, Locale, ToolArguments, ToolContentItem, ToolError, ToolExecutionResult, ToolInvocation, ToolOutput, schemars,
    serde, tool,
};
use toolhook_runtime::{
    HistoryMessage, PluginToolProvider, RegistryConfig, ToolRegistry, ToolResultMedia, batch_history, split_tool_result,
};

// ---- helpers ------------------------------------------------------------------------------------

fn registry(config: RegistryConfig) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn call_in(locale: Locale, name: &str, arguments: impl Into<ToolArguments>) -> ToolExecutionResult {
    registry(RegistryConfig::default().locale(locale)).invoke(ToolInvocation::new(name, arguments), None).await
}

async fn call(name: &str) -> ToolExecutionResult {
    call_in(Locale::En, name, "").await
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn message(result: &ToolExecutionResult, locale: Locale) -> String {
    split_tool_result("c", &result.tool_name, result, locale).tool_message
}

// ---- tools: plain return forms ------------------------------------------------------------------

/// Returns nothing.
#[tool]
fn tp_unit() {}

/// Text padded with every kind of whitespace.
#[tool]
fn tp_string() -> String {
    "\n\t  padded text \u{3000}\r\n".to_owned()
}

/// A static text.
#[tool]
fn tp_static() -> &'static str {
    "  static text  "
}

/// A borrowed-or-owned text.
#[tool]
fn tp_cow() -> Cow<'static, str> {
    Cow::Borrowed("\tcow text\n")
}

/// A boxed text.
#[tool]
fn tp_boxed() -> Box<str> {
    "  boxed\ntext  ".into()
}

/// An integer.
#[tool]
fn tp_int() -> i64 {
    -42
}

/// A whole float.
#[tool]
fn tp_float() -> f64 {
    3.0
}

/// A large float.
#[tool]
fn tp_big_float() -> f64 {
    1e16
}

/// A small float.
#[tool]
fn tp_small_float() -> f64 {
    0.00001
}

/// A flag.
#[tool]
fn tp_bool() -> bool {
    false
}

/// A pair of numbers.
#[tool]
fn tp_pair() -> (i32, i32) {
    (1, 2)
}

/// A pair that reports success with a number.
#[tool]
fn tp_flag_pair() -> (bool, i32) {
    (true, 7)
}

type Reply = String;

/// A text through an alias.
#[tool]
fn tp_alias() -> Reply {
    "  aliased  ".to_owned()
}

/// Maybe a text.
#[tool]
fn tp_opt(
    /// Whether to answer.
    answer: bool,
) -> Option<String> {
    answer.then(|| "  some text  ".to_owned())
}

/// Maybe a number.
#[tool]
fn tp_opt_num() -> Option<u32> {
    Some(7)
}

// ---- tools: errors ------------------------------------------------------------------------------

struct Oops(&'static str);

impl fmt::Display for Oops {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Fails with an error of the given shape.
#[tool]
fn tp_fails(
    /// Which shape.
    shape: u8,
) -> Result<String, Oops> {
    match shape {
        0 => Ok("  fine  ".to_owned()),
        1 => Err(Oops("")),
        2 => Err(Oops(" \n\t ")),
        3 => Err(Oops("\n  first line\n  second line  \n")),
        4 => Err(Oops("\u{3000}全角空格包围\u{3000}")),
        _ => Err(Oops("  it's \"quoted\" <b>  ")),
    }
}

/// Succeeds with nothing, or fails.
#[tool]
fn tp_unit_or(
    /// Whether to fail.
    fail: bool,
) -> Result<(), String> {
    if fail { Err("  unit failed  ".to_owned()) } else { Ok(()) }
}

fn tool_error(kind: u8) -> ToolError {
    match kind {
        0 => ToolError::new("QuotaExceeded", "  daily quota used  "),
        1 => ToolError::localized("Busy", "  try later  ", "稍后再试"),
        2 => ToolError::invalid_arguments("days: must be at most 14"),
        3 => ToolError::invalid_arguments_localized("bad days", "天数不对"),
        4 => ToolError::plugin_not_loaded("acme.tools"),
        5 => ToolError::transport("  connection reset\n"),
        6 => ToolError::transport("   "),
        _ => ToolError::panic("inner"),
    }
}

/// Fails with a tool error.
#[tool]
fn tp_tool_error(
    /// Which constructor.
    kind: u8,
) -> Result<String, ToolError> {
    Err(tool_error(kind))
}

// ---- tools: structured returns ------------------------------------------------------------------

#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Report {
    /// A count.
    count: u32,
    /// A ratio.
    ratio: f64,
    /// A tiny value.
    tiny: f64,
    /// A note.
    note: String,
    /// Tags.
    tags: Vec<String>,
    /// Maybe a value.
    missing: Option<bool>,
}

fn report() -> Report {
    Report {
        count: 3,
        ratio: 1.0,
        tiny: 0.00001,
        note: "  it's 晴  ".to_owned(),
        tags: vec!["a".to_owned(), "b".to_owned()],
        missing: None,
    }
}

/// A report.
#[tool]
fn tp_json() -> Json<Report> {
    Json(report())
}

/// A report, or a failure.
#[tool]
fn tp_json_or(
    /// Whether to fail.
    fail: bool,
) -> Result<Json<Report>, String> {
    if fail { Err("  no report today  ".to_owned()) } else { Ok(Json(report())) }
}

/// Items as a plain list.
#[tool]
fn tp_items() -> Vec<ToolContentItem> {
    vec![ToolContentItem::text("hello")]
}

/// A chart with a caption and an empty audio item.
#[tool]
fn tp_media() -> ToolOutput {
    ToolOutput::text("  chart attached  ")
        .with_item(ToolContentItem::text("caption"))
        .with_item(ToolContentItem::image_bytes(b"\x89PNG", "image/png").with_name("chart <1>.png"))
        .with_item(ToolContentItem::audio("", ""))
        .with_post_history(json!({"n": 2}))
        .with_post_history(json!({"n": 3}))
}

/// Text with a history message.
#[tool]
fn tp_post() -> ToolOutput {
    ToolOutput::text("first").with_post_history(json!({"n": 1}))
}

/// A failed output with nothing to say.
#[tool]
fn tp_out_fail() -> ToolOutput {
    ToolOutput::failure("   ")
}

/// A whole result named after another tool.
#[tool]
fn tp_whole() -> ToolExecutionResult {
    let mut result = ToolExecutionResult::success("someone_else", "kept");
    result.stop_after_execution = true;
    result
}

struct Broken;

impl serde::Serialize for Broken {
    fn serialize<S: serde::Serializer>(&self, _serializer: S) -> Result<S::Ok, S::Error> {
        Err(<S::Error as serde::ser::Error>::custom("cannot write this"))
    }
}

/// A value that cannot be serialised.
#[tool]
fn tp_broken() -> Broken {
    Broken
}

// ---- tools: panics ------------------------------------------------------------------------------

/// Panics with a static text.
#[tool]
async fn tp_panic_str() -> String {
    panic!("boom")
}

/// Panics with a formatted, padded text.
#[tool]
async fn tp_panic_string() -> String {
    let n = 3;
    panic!("  {n} items lost \n")
}

/// Panics with an owned text given as the payload.
#[tool]
fn tp_panic_any_string() -> String {
    std::panic::panic_any(String::from("owned payload"))
}

/// Panics with a number.
#[tool]
fn tp_panic_other() -> String {
    std::panic::panic_any(42_i32)
}

/// Panics with a blank text.
#[tool]
fn tp_panic_blank() -> String {
    std::panic::panic_any("   ")
}

/// Panics after waiting.
#[tool]
async fn tp_panic_after_wait() -> String {
    tokio::task::yield_now().await;
    panic!("late boom")
}

// ---- tools: timeouts ----------------------------------------------------------------------------

static SLOW_DROPPED: AtomicBool = AtomicBool::new(false);

struct SetOnDrop(&'static AtomicBool);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Sleeps past its own limit.
#[tool(timeout_ms = 50)]
async fn tp_slow() -> String {
    let _guard = SetOnDrop(&SLOW_DROPPED);
    tokio::time::sleep(Duration::from_secs(1)).await;
    "too late".to_owned()
}

/// Sleeps past its own limit (for the Chinese text).
#[tool(timeout_ms = 75)]
async fn tp_slow_zh() -> String {
    tokio::time::sleep(Duration::from_secs(1)).await;
    "too late".to_owned()
}

/// Sleeps 300 ms with no limit of its own.
#[tool]
async fn tp_default_limit() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "done".to_owned()
}

/// Sleeps 300 ms within its own limit of a second.
#[tool(timeout_ms = 1000)]
async fn tp_patient() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "  patient  ".to_owned()
}

/// Blocks its thread past its limit.
#[tool(timeout_ms = 50)]
fn tp_sync_slow() -> String {
    std::thread::sleep(Duration::from_millis(600));
    "too late".to_owned()
}

/// Blocks its thread past its limit without ever waiting.
#[tool(timeout_ms = 30)]
async fn tp_blocking_async() -> String {
    std::thread::sleep(Duration::from_millis(150));
    "too late".to_owned()
}

// ==== plain return forms ==========================================================================

// "`()` | success, empty"; the split's "Still empty: `工具执行成功。` / `Tool executed successfully.`".
#[tokio::test]
async fn a_unit_return_is_an_empty_success_told_as_executed_in_both_locales() {
    for locale in [Locale::En, Locale::ZhHans] {
        let result = call_in(locale, "tp_unit", "").await;
        assert!(result.success);
        assert_eq!(result.tool_name, "tp_unit");
        assert_eq!((result.content.as_str(), result.error_message.as_str()), ("", ""));
        assert_eq!(result.structured_content(), None);
        assert!(result.content_items().is_empty());
        assert!(!result.stop_after_execution);
        assert_eq!(result.history_content(locale), "");
    }
    let result = call("tp_unit").await;
    assert_eq!(message(&result, Locale::En), "Tool executed successfully.");
    assert_eq!(message(&result, Locale::ZhHans), "工具执行成功。");
}

// "`String`, `&'static str`, `Cow<'static, str>`, `Box<str>` | success, `content` trimmed" (trim is
// `str::trim`: Unicode whitespace, inner line breaks kept).
#[tokio::test]
async fn text_returns_of_every_written_form_are_trimmed_content() {
    for (name, expected) in [
        ("tp_string", "padded text"),
        ("tp_static", "static text"),
        ("tp_cow", "cow text"),
        ("tp_boxed", "boxed\ntext"),
    ] {
        let result = call(name).await;
        assert!(result.success, "{name}");
        assert_eq!(result.content, expected, "{name}");
        assert_eq!(result.structured_content(), None, "{name}");
        assert_eq!(message(&result, Locale::ZhHans), expected, "{name}");
    }
}

// "any other `T: Serialize` | success, `structured_content` = T"; history "structured content (a
// string trimmed, else PyJson)" with floats as PyFloat (`1.0`, `1e-05`, `1e+16`).
#[tokio::test]
async fn number_and_bool_returns_are_structured_content_shown_as_python_json() {
    for (name, structured, history) in [
        ("tp_int", json!(-42), "-42"),
        ("tp_float", json!(3.0), "3.0"),
        ("tp_big_float", json!(1e16), "1e+16"),
        ("tp_small_float", json!(0.00001), "1e-05"),
        ("tp_bool", json!(false), "false"),
    ] {
        let result = call(name).await;
        assert!(result.success, "{name}");
        assert_eq!(result.structured_content().map(compact), Some(compact(&structured)), "{name}");
        assert_eq!(result.history_content(Locale::En), history, "{name}");
        assert_eq!(message(&result, Locale::ZhHans), history, "{name}");
    }
}

// "`(bool, S: Display)` | true → `content` = S trimmed …; no structured content" versus other tuples,
// which are "any other `T: Serialize`".
#[tokio::test]
async fn a_bool_pair_is_text_while_another_tuple_is_a_structured_array() {
    let flag = call("tp_flag_pair").await;
    assert_eq!((flag.success, flag.content.as_str()), (true, "7"));
    assert_eq!(flag.structured_content(), None);
    let pair = call("tp_pair").await;
    assert!(pair.success);
    assert_eq!(pair.structured_content(), Some(&json!([1, 2])));
    assert_eq!(pair.history_content(Locale::En), "[1, 2]");
}

// "any other `T: Serialize` (aliases included)": an alias of `String` is structured content, a JSON
// string, and the history shows "a string trimmed".
#[tokio::test]
async fn a_string_alias_return_is_a_structured_string_shown_trimmed() {
    let result = call("tp_alias").await;
    assert!(result.success);
    assert_eq!(result.structured_content(), Some(&json!("  aliased  ")));
    assert_eq!(result.history_content(Locale::En), "aliased");
    assert_eq!(message(&result, Locale::En), "aliased");
}

// "`Option<T>` | `None` as `()`, `Some` as T".
#[tokio::test]
async fn option_none_is_an_empty_success_and_some_is_its_inner_form() {
    let none = call_in(Locale::En, "tp_opt", json!({"answer": false})).await;
    assert_eq!((none.success, none.content.as_str()), (true, ""));
    assert_eq!(none.structured_content(), None);
    assert_eq!(message(&none, Locale::En), "Tool executed successfully.");
    let some = call_in(Locale::En, "tp_opt", json!({"answer": true})).await;
    assert_eq!((some.success, some.content.as_str()), (true, "some text"));
    assert_eq!(some.structured_content(), None);
    let number = call("tp_opt_num").await;
    assert!(number.success);
    assert_eq!(number.structured_content(), Some(&json!(7)));
    assert_eq!(number.history_content(Locale::En), "7");
}

// "`ToolExecutionResult` | as is, `tool_name` overwritten".
#[tokio::test]
async fn a_returned_execution_result_is_kept_but_named_after_the_call() {
    let result = call("tp_whole").await;
    assert_eq!(result.tool_name, "tp_whole");
    assert_eq!((result.success, result.content.as_str()), (true, "kept"));
    assert!(result.stop_after_execution);
}

// ==== errors returned by the fn ===================================================================

// "`Result<T, E: Display>` | `Ok` as T; `Err(e)` → failure, `error_message` = `e.to_string()`
// trimmed" — trimmed only at the ends, whatever the whitespace, inner lines and quotes kept.
#[tokio::test]
async fn error_displays_are_trimmed_at_the_ends_only() {
    let ok = call_in(Locale::En, "tp_fails", json!({"shape": 0})).await;
    assert_eq!((ok.success, ok.content.as_str(), ok.error_message.as_str()), (true, "fine", ""));
    for (shape, expected) in [(3, "first line\n  second line"), (4, "全角空格包围"), (5, "it's \"quoted\" <b>")] {
        for locale in [Locale::En, Locale::ZhHans] {
            let result = call_in(locale, "tp_fails", json!({"shape": shape})).await;
            assert!(!result.success, "{shape}");
            assert_eq!(result.error_message, expected, "{shape}");
            assert_eq!(result.content, "", "{shape}");
            assert_eq!(result.structured_content(), None, "{shape}");
            assert_eq!(message(&result, locale), expected, "{shape}");
        }
    }
}

// A blank `Display` trims to an empty `error_message`; the split's "on failure `工具 {tool_name}
// 执行失败。` / `Tool {tool_name} failed.`" names the tool as called.
#[tokio::test]
async fn a_blank_error_display_fails_silently_and_the_split_names_the_tool() {
    for shape in [1, 2] {
        let result = call_in(Locale::En, "tp_fails", json!({"shape": shape})).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, ""), "{shape}");
        assert_eq!(result.history_content(Locale::En), "", "{shape}");
        assert_eq!(message(&result, Locale::En), "Tool tp_fails failed.", "{shape}");
        assert_eq!(message(&result, Locale::ZhHans), "工具 tp_fails 执行失败。", "{shape}");
    }
}

// `Result<(), E>`: "`Ok` as T" with T = `()` "success, empty"; `Err` trimmed.
#[tokio::test]
async fn a_result_of_unit_is_an_empty_success_or_a_trimmed_failure() {
    let ok = call_in(Locale::ZhHans, "tp_unit_or", json!({"fail": false})).await;
    assert_eq!((ok.success, ok.content.as_str()), (true, ""));
    assert_eq!(message(&ok, Locale::ZhHans), "工具执行成功。");
    let err = call_in(Locale::ZhHans, "tp_unit_or", json!({"fail": "yes"})).await;
    assert_eq!((err.success, err.error_message.as_str()), (false, "unit failed"));
}

// A handler's `Err(e)` "is a tool failure with `error_message = trim(e.to_string())`, as the reference
// passes a handler's message through raw, not a `ToolError`": a `ToolError` the fn returns is such an
// `E`, never wrapped in the registry's `Tool {name} failed: …` text.
#[tokio::test]
async fn a_returned_tool_error_is_its_display_trimmed_not_a_registry_failure_text() {
    for kind in 0..8 {
        let expected = tool_error(kind).to_string().trim().to_owned();
        for locale in [Locale::En, Locale::ZhHans] {
            let result = call_in(locale, "tp_tool_error", json!({"kind": kind})).await;
            assert!(!result.success, "{kind}");
            assert_eq!(result.error_message, expected, "{kind} {locale}");
            assert!(!result.error_message.starts_with("Tool tp_tool_error failed"), "{kind}");
            assert!(!result.error_message.starts_with("工具 tp_tool_error"), "{kind}");
        }
    }
    let sample = call_in(Locale::En, "tp_tool_error", json!({"kind": 2})).await;
    assert_eq!(sample.error_message, "InvalidArguments: days: must be at most 14");
}

// "any other `T: Serialize` … serialisation failure → failure `failed to serialise the tool output:
// {err}` / `工具输出序列化失败：{err}`", in the registry's locale.
#[tokio::test]
async fn a_value_that_cannot_be_serialised_fails_in_the_registrys_locale() {
    let en = call_in(Locale::En, "tp_broken", "").await;
    assert_eq!(
        (en.success, en.error_message.as_str()),
        (false, "failed to serialise the tool output: cannot write this")
    );
    assert_eq!(en.structured_content(), None);
    let zh = call_in(Locale::ZhHans, "tp_broken", "").await;
    assert_eq!((zh.success, zh.error_message.as_str()), (false, "工具输出序列化失败：cannot write this"));
}

// ==== Json<T>, item lists, ToolOutput ===============================================================

// "`Json<T>` | success, `structured_content` = T; `output_schema` = schema of T"; the history is
// PyJson of it: separators `, ` and `: `, non-ASCII raw, floats as PyFloat, `null` kept.
#[tokio::test]
async fn a_json_return_is_structured_content_shown_as_python_json_with_an_output_schema() {
    let result = call("tp_json").await;
    assert!(result.success);
    assert_eq!(result.content, "");
    assert_eq!(
        result.structured_content().map(compact).as_deref(),
        Some(r#"{"count":3,"ratio":1.0,"tiny":0.00001,"note":"  it's 晴  ","tags":["a","b"],"missing":null}"#)
    );
    let text =
        r#"{"count": 3, "ratio": 1.0, "tiny": 1e-05, "note": "  it's 晴  ", "tags": ["a", "b"], "missing": null}"#;
    assert_eq!(result.history_content(Locale::En), text);
    assert_eq!(result.history_content(Locale::ZhHans), text);
    assert_eq!(message(&result, Locale::En), text);
    let registry = registry(RegistryConfig::default());
    let spec = registry.get_tool_spec("tp_json", None).await.expect("listed");
    let schema = spec.output_schema().expect("an output schema");
    assert_eq!(schema["type"], json!("object"));
    let keys: Vec<&String> = schema["properties"].as_object().expect("properties").keys().collect();
    assert_eq!(keys, ["count", "ratio", "tiny", "note", "tags", "missing"]);
}

// `Result<Json<T>, E>`: "`Ok` as T; `Err(e)` → failure, `error_message` = `e.to_string()` trimmed",
// with no structured content.
#[tokio::test]
async fn a_json_result_fails_as_a_plain_error() {
    let err = call_in(Locale::En, "tp_json_or", json!({"fail": true})).await;
    assert_eq!((err.success, err.error_message.as_str()), (false, "no report today"));
    assert_eq!(err.structured_content(), None);
    assert_eq!(message(&err, Locale::En), "no report today");
    let ok = call_in(Locale::En, "tp_json_or", json!({"fail": false})).await;
    assert!(ok.success);
    assert_eq!(ok.structured_content().and_then(|v| v.get("count")), Some(&json!(3)));
}

// `Vec<ToolContentItem>` is not in the table of return forms, so it is "any other `T: Serialize`":
// structured content (each item with its nine keys), no content items, shown as PyJson.
#[tokio::test]
async fn a_vec_of_content_items_is_structured_content_not_items() {
    let result = call("tp_items").await;
    assert!(result.success);
    assert!(result.content_items().is_empty());
    assert_eq!(
        result.structured_content().map(compact).as_deref(),
        Some(
            r#"[{"content_type":"text","text":"hello","data":"","mime_type":"","uri":"","name":"","description":"","annotation":null,"metadata":{}}]"#
        )
    );
    assert_eq!(
        result.history_content(Locale::En),
        r#"[{"content_type": "text", "text": "hello", "data": "", "mime_type": "", "uri": "", "name": "", "description": "", "annotation": null, "metadata": {}}]"#
    );
}

// "`ToolOutput` | its fields; `content` trimmed"; the split: items "numbered from 1 over the whole list
// (text items count)", "**Media** = type image, … with at least one of data, uri, name, description,
// mime_type not blank", ATTRS escaped in the header and plain in the visible text, `\n[图片]` /
// `\n[image]` after a decoded image.
#[tokio::test]
async fn a_tool_output_with_media_splits_into_a_media_list_and_one_image_message() {
    for (locale, image_word) in [(Locale::En, "[image]"), (Locale::ZhHans, "[图片]")] {
        let result = call_in(locale, "tp_media", "").await;
        assert_eq!((result.success, result.content.as_str()), (true, "chart attached"));
        assert_eq!(result.content_items().len(), 3);
        let split = split_tool_result("call_7", &result.tool_name, &result, locale);
        assert_eq!(
            split.tool_message,
            "chart attached\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:call_7:2\" type=\"image\" mime=\"image/png\" name=\"chart &lt;1&gt;.png\" />\n</tool_result_media_list>"
        );
        assert_eq!(
            split.media,
            [ToolResultMedia {
                message_id: "tool_result:call_7:2".into(),
                tool_call_id: "call_7".into(),
                item_index: 2,
                header_text:
                    "<tool_result_media msg_id=\"tool_result:call_7:2\" type=\"image\" mime=\"image/png\" name=\"chart &lt;1&gt;.png\" />"
                        .into(),
                visible_text: format!(
                    "<tool_result_media msg_id=\"tool_result:call_7:2\" />\nimage / image/png / chart <1>.png\n{image_word}"
                ),
                image: Some(b"\x89PNG".to_vec()),
            }]
        );
    }
}

// "`ToolOutput` | … success unless built with `failure`"; a failure with nothing to show splits into
// "`工具 {tool_name} 执行失败。` / `Tool {tool_name} failed.`".
#[tokio::test]
async fn a_failed_tool_output_with_nothing_to_show_names_the_tool() {
    let result = call_in(Locale::ZhHans, "tp_out_fail", "").await;
    assert_eq!((result.success, result.error_message.as_str(), result.content.as_str()), (false, "", ""));
    assert_eq!(message(&result, Locale::ZhHans), "工具 tp_out_fail 执行失败。");
    assert_eq!(message(&result, Locale::En), "Tool tp_out_fail failed.");
}

// ==== panics ======================================================================================

// "Panic ⇒ failure with type `Panic` and the panic payload if it is a string"; "A panic with payload
// `boom` reads `Tool x failed: Panic: boom`"; zh-Hans `工具 {name} 调用失败：{type}: {message}`.
#[tokio::test]
async fn a_static_text_panic_is_the_message_in_both_locales() {
    let en = call_in(Locale::En, "tp_panic_str", "").await;
    assert_eq!((en.tool_name.as_str(), en.success), ("tp_panic_str", false));
    assert_eq!(en.error_message, "Tool tp_panic_str failed: Panic: boom");
    assert_eq!((en.content.as_str(), en.structured_content()), ("", None));
    let zh = call_in(Locale::ZhHans, "tp_panic_str", "").await;
    assert_eq!(zh.error_message, "工具 tp_panic_str 调用失败：Panic: boom");
}

// Owned payloads are strings too; "`{message}` the trimmed message".
#[tokio::test]
async fn formatted_and_owned_panic_texts_are_the_trimmed_message() {
    assert_eq!(call("tp_panic_string").await.error_message, "Tool tp_panic_string failed: Panic: 3 items lost");
    assert_eq!(
        call("tp_panic_any_string").await.error_message,
        "Tool tp_panic_any_string failed: Panic: owned payload"
    );
    let zh = call_in(Locale::ZhHans, "tp_panic_string", "").await;
    assert_eq!(zh.error_message, "工具 tp_panic_string 调用失败：Panic: 3 items lost");
}

// "… the panic payload if it is a string, else no message"; "`Err(e)`, message empty | `Tool {name}
// failed: {type}`" / "`工具 {name} 调用失败：{type}`" — a blank text trims to empty as well.
#[tokio::test]
async fn a_panic_without_a_text_names_only_its_type() {
    for name in ["tp_panic_other", "tp_panic_blank"] {
        let en = call_in(Locale::En, name, "").await;
        assert_eq!((en.success, en.error_message.clone()), (false, format!("Tool {name} failed: Panic")));
        let zh = call_in(Locale::ZhHans, name, "").await;
        assert_eq!(zh.error_message, format!("工具 {name} 调用失败：Panic"));
    }
}

// "A panic while polling the provider's future is caught; the registry keeps serving", for a panic
// after the tool waited as for one in a sync tool on the blocking pool.
#[tokio::test]
async fn panics_after_a_wait_are_caught_and_the_same_registry_keeps_serving() {
    let registry = registry(RegistryConfig::default());
    let late = registry.invoke(ToolInvocation::new("tp_panic_after_wait", ""), None).await;
    assert_eq!(late.error_message, "Tool tp_panic_after_wait failed: Panic: late boom");
    let sync = registry.invoke(ToolInvocation::new("tp_panic_any_string", ""), None).await;
    assert_eq!(sync.error_message, "Tool tp_panic_any_string failed: Panic: owned payload");
    let next = registry.invoke(ToolInvocation::new("tp_static", ""), None).await;
    assert_eq!((next.success, next.content.as_str()), (true, "static text"));
}

// ==== timeouts ====================================================================================

// "When the timer fires, the provider's future is dropped (cancelled) and the call yields the Timeout
// failure": `Tool {name} failed: Timeout: no result within {n} ms`, with the spec's own limit.
#[tokio::test(start_paused = true)]
async fn a_tools_own_limit_drops_its_future_and_names_the_limit() {
    let start = tokio::time::Instant::now();
    let result = call("tp_slow").await;
    let elapsed = start.elapsed();
    assert_eq!((result.tool_name.as_str(), result.success), ("tp_slow", false));
    assert_eq!(result.error_message, "Tool tp_slow failed: Timeout: no result within 50 ms");
    assert_eq!(result.content, "");
    assert!(elapsed >= Duration::from_millis(50) && elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert!(SLOW_DROPPED.load(Ordering::SeqCst), "the tool's future was dropped");
}

// zh-Hans timeout: `工具 {name} 调用失败：Timeout: 超过 {n}ms 未返回结果`.
#[tokio::test(start_paused = true)]
async fn the_timeout_text_in_zh_hans_has_no_space_before_ms() {
    let result = call_in(Locale::ZhHans, "tp_slow_zh", "").await;
    assert!(!result.success);
    assert_eq!(result.error_message, "工具 tp_slow_zh 调用失败：Timeout: 超过 75ms 未返回结果");
}

// "Effective timeout of a call: the spec's `timeout()` when set, else the registry's
// `default_timeout`": the registry default of 100 ms times out only the tool without a limit.
#[tokio::test(start_paused = true)]
async fn the_registry_default_applies_only_to_tools_without_their_own_limit() {
    let limited_registry = registry(RegistryConfig::default().default_timeout(Some(Duration::from_millis(100))));
    let patient = limited_registry.invoke(ToolInvocation::new("tp_patient", ""), None).await;
    assert_eq!((patient.success, patient.content.as_str()), (true, "patient"));
    let start = tokio::time::Instant::now();
    let limited = limited_registry.invoke(ToolInvocation::new("tp_default_limit", ""), None).await;
    assert_eq!(limited.error_message, "Tool tp_default_limit failed: Timeout: no result within 100 ms");
    assert!(start.elapsed() < Duration::from_millis(300), "{:?}", start.elapsed());
    let none = registry(RegistryConfig::default().default_timeout(None));
    let unlimited = none.invoke(ToolInvocation::new("tp_default_limit", ""), None).await;
    assert_eq!((unlimited.success, unlimited.content.as_str()), (true, "done"));
}

// "A timeout … cannot stop a sync tool: the call yields the Timeout failure at once, and the tool
// keeps running to completion on the blocking pool, its result discarded."
#[tokio::test]
async fn a_sync_tool_past_its_limit_times_out_at_once() {
    let start = std::time::Instant::now();
    let result = call("tp_sync_slow").await;
    let elapsed = start.elapsed();
    assert_eq!((result.success, result.content.as_str()), (false, ""));
    assert_eq!(result.error_message, "Tool tp_sync_slow failed: Timeout: no result within 50 ms");
    assert!(elapsed < Duration::from_millis(500), "{elapsed:?}");
}

// An async tool whose body never waits "cannot be interrupted, so one that runs past its limit is
// timed out when it returns" — still the Timeout failure with the tool's limit.
#[tokio::test]
async fn a_never_waiting_async_tool_past_its_limit_is_timed_out() {
    let result = call_in(Locale::ZhHans, "tp_blocking_async", "").await;
    assert_eq!((result.success, result.content.as_str()), (false, ""));
    assert_eq!(result.error_message, "工具 tp_blocking_async 调用失败：Timeout: 超过 30ms 未返回结果");
}

// ==== registry failure texts ========================================================================

// "not found … | `Tool not found: {name}` | `未找到工具：{name}`"; decoding errors are
// `InvalidArguments` failures: `{path}: expected {type}, got {actual}` / `{path}：应为 {type}，实际为
// {actual}`.
#[tokio::test]
async fn not_found_and_argument_failures_read_exactly_in_both_locales() {
    let en = call_in(Locale::En, "tp_nope", "").await;
    assert_eq!(
        (en.tool_name.as_str(), en.success, en.error_message.as_str()),
        ("tp_nope", false, "Tool not found: tp_nope")
    );
    let zh = call_in(Locale::ZhHans, "tp_nope", "").await;
    assert_eq!(zh.error_message, "未找到工具：tp_nope");
    let en = call_in(Locale::En, "tp_fails", json!({"shape": "x"})).await;
    assert_eq!(en.error_message, "Tool tp_fails failed: InvalidArguments: shape: expected integer, got string \"x\"");
    let zh = call_in(Locale::ZhHans, "tp_fails", json!({"shape": "x"})).await;
    assert_eq!(zh.error_message, "工具 tp_fails 调用失败：InvalidArguments: shape：应为 integer，实际为 string \"x\"");
    let zh = call_in(Locale::ZhHans, "tp_fails", "{}").await;
    assert_eq!(zh.error_message, "工具 tp_fails 调用失败：InvalidArguments: shape：缺少必填参数");
}

// ==== from_raw on Python-style dicts =================================================================

// A failed dict with both `content` and `error`: each is read from its own key, and the history
// takes "`content` trimmed if not blank" first, so the split shows the content, not the error.
#[test]
fn a_failed_dict_with_content_shows_its_content_first() {
    let raw = json!({"success": false, "content": "  partial list  ", "error": "  quota hit  "});
    for locale in [Locale::En, Locale::ZhHans] {
        let result = ToolExecutionResult::from_raw_in("t", raw.clone(), locale);
        assert_eq!(
            (result.success, result.content.as_str(), result.error_message.as_str()),
            (false, "partial list", "quota hit")
        );
        assert_eq!(result.structured_content(), Some(&raw));
        assert_eq!(split_tool_result("c", "t", &result, locale).tool_message, "partial list");
    }
}

// "`success` = truthiness of `success` (absent = true; `"false"` is truthy)"; "`content` = the
// `content` value if the key exists, else `message`".
#[test]
fn a_false_string_is_success_and_message_stands_in_for_content() {
    let result = ToolExecutionResult::from_raw("t", json!({"success": "false", "message": "  looked fine  "}));
    assert_eq!((result.success, result.content.as_str(), result.error_message.as_str()), (true, "looked fine", ""));
    assert_eq!(result.history_content(Locale::En), "looked fine");
}

// "`stop_after_execution` = the flag" also on a failure, whose `error_message` comes from `error`.
#[test]
fn a_boolean_stop_flag_is_kept_on_failures_and_successes() {
    let failed = ToolExecutionResult::from_raw(
        "t",
        json!({"success": false, "error": "stop now", "stop_after_execution": true}),
    );
    assert_eq!((failed.success, failed.error_message.as_str(), failed.stop_after_execution), (false, "stop now", true));
    let done = ToolExecutionResult::from_raw("t", json!({"content": "ok", "stop_after_execution": false}));
    assert_eq!((done.success, done.content.as_str(), done.stop_after_execution), (true, "ok", false));
    let absent = ToolExecutionResult::from_raw("t", json!({"content": "ok"}));
    assert!(!absent.stop_after_execution);
    // "a `stop_after_execution` that is present and not a bool → failure": `null` is present.
    let raw = json!({"content": "ok", "stop_after_execution": null});
    let null = ToolExecutionResult::from_raw("t", raw.clone());
    assert!(!null.success);
    assert_eq!(null.error_message, "The tool result field `stop_after_execution` must be a boolean.");
    assert_eq!((null.content.as_str(), null.structured_content()), ("", Some(&raw)));
}

// PyStr of nested lists and dicts in `content` and `error`: "arrays `[a, b]`; objects `{'k': v, 'k2':
// v2}`", `None`/`True`/`False`, floats as PyFloat.
#[test]
fn nested_lists_in_content_and_error_render_as_python_prints_them() {
    let ok = ToolExecutionResult::from_raw("t", json!({"content": [[1, [2.5, []]], {"k": [true, null, {}]}]}));
    assert_eq!(ok.content, "[[1, [2.5, []]], {'k': [True, None, {}]}]");
    let failed = ToolExecutionResult::from_raw("t", json!({"success": 0, "error": [["a"], {"n": 1e-5}]}));
    assert_eq!((failed.success, failed.error_message.as_str()), (false, "[['a'], {'n': 1e-05}]"));
    let top = ToolExecutionResult::from_raw("t", json!([[["deep"]], false]));
    assert_eq!((top.success, top.content.as_str()), (true, "[[['deep']], False]"));
}

// Items: "(arrays only, non-objects skipped)"; "`content_type` = … trimmed, `unknown` unless one of the
// seven"; items come before structured content in the history.
#[test]
fn content_items_come_only_from_arrays_of_objects_with_known_types() {
    let raw = json!({"content_items": [
        "skip me", 7, null,
        {"type": " image ", "base64": "QUJD", "mime_type": "image/png"},
        {"content_type": "video", "text": "v"},
        {"type": "resource_link", "uri": "https://x/y"}
    ]});
    let result = ToolExecutionResult::from_raw("t", raw);
    let kinds: Vec<Value> =
        result.content_items().iter().map(|i| serde_json::to_value(i).unwrap()["content_type"].clone()).collect();
    assert_eq!(kinds, [json!("image"), json!("unknown"), json!("resource_link")]);
    assert_eq!(result.history_content(Locale::En), "[image image/png]\n[unknown content]\n[resource link] https://x/y");
    assert_eq!(result.history_content(Locale::ZhHans), "[图片内容 image/png]\n[unknown 内容]\n[资源链接] https://x/y");
    let not_a_list = ToolExecutionResult::from_raw("t", json!({"content_items": {"type": "image", "data": "QUJD"}}));
    assert!(not_a_list.content_items().is_empty());
    assert_eq!(not_a_list.history_content(Locale::En), r#"{"content_items": {"type": "image", "data": "QUJD"}}"#);
}

// Dicts with nothing to show: the history falls to the structured dict as PyJson; `null` reads as
// "`content` = `""` for null … (none for null)" and splits into the success text.
#[test]
fn bare_dicts_show_their_json_and_null_shows_the_success_text() {
    for (raw, text) in [(json!({"success": true}), r#"{"success": true}"#), (json!({}), "{}")] {
        let result = ToolExecutionResult::from_raw("t", raw.clone());
        assert!(result.success, "{raw}");
        assert_eq!(result.content, "", "{raw}");
        assert_eq!(split_tool_result("c", "t", &result, Locale::En).tool_message, text, "{raw}");
    }
    let null = ToolExecutionResult::from_raw("t", Value::Null);
    assert_eq!((null.success, null.content.as_str(), null.structured_content()), (true, "", None));
    assert_eq!(split_tool_result("c", "t", &null, Locale::ZhHans).tool_message, "工具执行成功。");
}

// ==== batches ======================================================================================

// "for each call in call order, its tool message followed by its media messages …; after all tool
// messages of the batch, the `post_history_messages` of all its results, in call order (each result's
// list in its own order)" — with failures, panics and empty results in between.
#[tokio::test]
async fn a_mixed_batch_writes_tool_and_media_messages_then_every_post_message() {
    let registry = registry(RegistryConfig::default().locale(Locale::ZhHans));
    let run = |name: &'static str, args: Value| {
        let registry = &registry;
        async move { registry.invoke(ToolInvocation::new(name, args), None).await }
    };
    let results = [
        ("c1", run("tp_post", json!({})).await),
        ("c2", run("tp_panic_str", json!({})).await),
        ("c3", run("tp_media", json!({})).await),
        ("c4", run("tp_unit", json!({})).await),
        ("c5", run("tp_fails", json!({"shape": 1})).await),
        ("c6", run("tp_missing", json!({})).await),
    ];
    let history = batch_history(results.iter().map(|(id, result)| (*id, result)), Locale::ZhHans);
    let tool = |id: &str, content: &str| HistoryMessage::Tool { call_id: id.into(), content: content.into() };
    assert_eq!(
        history,
        [
            tool("c1", "first"),
            tool("c2", "工具 tp_panic_str 调用失败：Panic: boom"),
            tool(
                "c3",
                "chart attached\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:c3:2\" type=\"image\" mime=\"image/png\" name=\"chart &lt;1&gt;.png\" />\n</tool_result_media_list>"
            ),
            HistoryMessage::Media(ToolResultMedia {
                message_id: "tool_result:c3:2".into(),
                tool_call_id: "c3".into(),
                item_index: 2,
                header_text:
                    "<tool_result_media msg_id=\"tool_result:c3:2\" type=\"image\" mime=\"image/png\" name=\"chart &lt;1&gt;.png\" />"
                        .into(),
                visible_text: "<tool_result_media msg_id=\"tool_result:c3:2\" />\nimage / image/png / chart <1>.png\n[图片]"
                    .into(),
                image: Some(b"\x89PNG".to_vec()),
            }),
            tool("c4", "工具执行成功。"),
            tool("c5", "工具 tp_fails 执行失败。"),
            tool("c6", "未找到工具：tp_missing"),
            HistoryMessage::Post(json!({"n": 1})),
            HistoryMessage::Post(json!({"n": 2})),
            HistoryMessage::Post(json!({"n": 3})),
        ]
    );
}

// "Index `tool_result:{id}:{N}`, id = `call_id` trimmed, else `tool_name` trimmed"; "`tool_call_id` =
// `call_id` as given"; a batch of one call without post messages has nothing after its media.
#[tokio::test]
async fn a_blank_call_id_indexes_media_by_the_tool_name_and_is_kept_as_given() {
    let result = call("tp_media").await;
    let history = batch_history([("  ", &result)], Locale::En);
    assert_eq!(history.len(), 4);
    let HistoryMessage::Tool { call_id, content } = &history[0] else { panic!("{history:?}") };
    assert_eq!(call_id, "  ");
    assert!(content.contains("msg_id=\"tool_result:tp_media:2\""), "{content}");
    let HistoryMessage::Media(media) = &history[1] else { panic!("{history:?}") };
    assert_eq!((media.message_id.as_str(), media.tool_call_id.as_str()), ("tool_result:tp_media:2", "  "));
    assert_eq!(
        media.visible_text,
        "<tool_result_media msg_id=\"tool_result:tp_media:2\" />\nimage / image/png / chart <1>.png\n[image]"
    );
    assert_eq!(history[2..], [HistoryMessage::Post(json!({"n": 2})), HistoryMessage::Post(json!({"n": 3}))]);
}
