//! Numbers arrive exactly as the model wrote them, or are refused: integers beyond what a float
//! holds are read from the text, enum values compare exactly, and errors quote what was sent.

use toolhook::__private::Invoker;
use toolhook::{DeclaredTool, Locale, ToolArguments, ToolExecutionResult, ToolInvocation, tool};

async fn call(name: &str, args: impl Into<ToolArguments>) -> Result<ToolExecutionResult, String> {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == name).expect("declared");
    let call = ToolInvocation::new(name, args);
    let outcome = match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, None, Locale::En, None).await,
        Invoker::Sync(f) => f(None, call, None, Locale::En, None),
    };
    outcome.map_err(|e| e.message(Locale::En).to_owned())
}

/// Echo a big unsigned number.
#[tool]
fn big_unsigned(
    /// A number.
    n: u128,
) -> String {
    n.to_string()
}

/// Echo a big signed number.
#[tool]
fn big_signed(
    /// A number.
    n: i128,
    /// More numbers.
    more: Vec<i128>,
) -> String {
    format!("{n} {more:?}")
}

/// Echo a u64.
#[tool]
fn word(
    /// A number.
    n: u64,
) -> String {
    n.to_string()
}

/// Echo a text.
#[tool]
fn text(
    /// A text.
    s: String,
) -> String {
    s
}

/// Pick a large code.
#[tool]
fn code(
    #[param(enum = [9007199254740993, 1])]
    /// The code.
    code: u64,
) -> String {
    code.to_string()
}

#[tokio::test]
async fn integers_beyond_a_float_are_read_exactly() {
    let out = call("big_unsigned", r#"{"n": 18446744073709551617}"#).await.unwrap();
    assert_eq!(out.content, "18446744073709551617");
    let out = call("big_unsigned", r#"{"n": 123456789012345678901234567890}"#).await.unwrap();
    assert_eq!(out.content, "123456789012345678901234567890");
    let out =
        call("big_signed", r#"{"n": -170141183460469231731687303715884105728, "more": [18446744073709551617, 3]}"#)
            .await
            .unwrap();
    assert_eq!(out.content, "-170141183460469231731687303715884105728 [18446744073709551617, 3]");
    // Exponent notation that denotes an integer is exact too.
    let out = call("word", r#"{"n": 1.5e19}"#).await.unwrap();
    assert_eq!(out.content, "15000000000000000000");
}

#[tokio::test]
async fn a_u128_takes_its_whole_range_past_i128() {
    let max = u128::MAX.to_string();
    for args in [format!(r#"{{"n": {max}}}"#), format!(r#"{{"n": "{max}"}}"#), r#"{"n": 3.4e38}"#.to_owned()] {
        let out = call("big_unsigned", args.as_str()).await.unwrap_or_else(|e| panic!("{args}: {e}"));
        let expected = if args.contains("e38") { "340000000000000000000000000000000000000" } else { &max };
        assert_eq!(out.content, expected, "{args}");
    }
    // One past it is out of range, quoted as sent; an i128 stops at its own end.
    assert_eq!(
        call("big_unsigned", r#"{"n": 340282366920938463463374607431768211456}"#).await.unwrap_err(),
        "n: 340282366920938463463374607431768211456 is out of range for u128"
    );
    assert_eq!(call("big_unsigned", r#"{"n": "-1"}"#).await.unwrap_err(), r#"n: "-1" is out of range for u128"#);
    assert_eq!(
        call("big_signed", r#"{"n": "170141183460469231731687303715884105728", "more": []}"#).await.unwrap_err(),
        r#"n: "170141183460469231731687303715884105728" is out of range for i128"#
    );
    assert_eq!(
        call("big_signed", r#"{"n": 1, "more": [170141183460469231731687303715884105728]}"#).await.unwrap_err(),
        "more[0]: 170141183460469231731687303715884105728 is out of range for i128"
    );
}

#[tokio::test]
async fn out_of_range_errors_quote_the_number_as_sent_when_a_float_would_change_it() {
    assert_eq!(
        call("word", r#"{"n": 18446744073709551616}"#).await.unwrap_err(),
        "n: 18446744073709551616 is out of range for u64"
    );
    assert_eq!(
        call("text", r#"{"s": 18446744073709551616}"#).await.unwrap_err(),
        "s: expected string, got integer 18446744073709551616"
    );
    assert_eq!(
        call("big_signed", r#"{"n": 1, "more": [1, 2e40]}"#).await.unwrap_err(),
        "more[1]: 2e+40 is out of range for i128"
    );
    assert_eq!(call("word", r#"{"n": 2.5e19}"#).await.unwrap_err(), "n: 2.5e+19 is out of range for u64");
    assert_eq!(
        call("word", r#"{"n": 12345678901234567890.5}"#).await.unwrap_err(),
        "n: expected integer, got number 12345678901234567890.5"
    );
}

#[tokio::test]
async fn integer_enum_values_compare_exactly() {
    assert_eq!(call("code", r#"{"code": 9007199254740993}"#).await.unwrap().content, "9007199254740993");
    assert_eq!(
        call("code", r#"{"code": 9007199254740992}"#).await.unwrap_err(),
        "code: expected one of 9007199254740993, 1, got integer 9007199254740992"
    );
}

#[tokio::test]
async fn a_parsed_value_that_lost_digits_is_refused() {
    let value = toolhook::serde_json::json!({"n": 1.8446744073709552e19});
    assert_eq!(
        call("big_unsigned", value).await.unwrap_err(),
        "n: 1.8446744073709552e+19 is too large to be read exactly; send it as a string"
    );
}
