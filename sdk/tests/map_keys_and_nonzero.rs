//! Map parameters keyed by every owned string type (a `char` key read as a `char` value is,
//! repeated keys), and a `NonZero` parameter's zero named as sent in every form.

use std::collections::{BTreeMap, HashMap};
use std::num::{NonZeroI32, NonZeroU8};
use toolhook::tool;

#[path = "common/calls.rs"]
mod calls;
use calls::{argument_error, content};

// ---- char keys against char values -----------------------------------------------------------

/// Letters, as keys and as values.
#[tool]
fn rv_letters(
    /// Counts by letter.
    by_letter: Option<BTreeMap<char, u32>>,
    /// Letters by name.
    by_name: Option<BTreeMap<String, char>>,
    /// A list of letters.
    list: Option<Vec<char>>,
) -> String {
    format!("{:?}|{:?}|{:?}", by_letter.unwrap_or_default(), by_name.unwrap_or_default(), list.unwrap_or_default())
}

// A `char` that is not one character reads the same wherever a `char` is read: a value, an
// element, a map's value and a map's key ("expected a single character" / "应为单个字符").
#[tokio::test]
async fn a_char_key_of_two_characters_reads_as_a_char_value_of_two_characters_does() {
    // The value forms, for reference (these pass).
    assert_eq!(
        argument_error("rv_letters", r#"{"list": ["ab"]}"#).await,
        [
            r#"list[0]: expected a single character, got string "ab""#.to_owned(),
            r#"list[0]：应为单个字符，实际为 string "ab""#.to_owned()
        ]
    );
    assert_eq!(
        argument_error("rv_letters", r#"{"by_name": {"x": "ab"}}"#).await,
        [
            r#"by_name.x: expected a single character, got string "ab""#.to_owned(),
            r#"by_name.x：应为单个字符，实际为 string "ab""#.to_owned()
        ]
    );
    // The key form.
    assert_eq!(
        argument_error("rv_letters", r#"{"by_letter": {"ab": 1}}"#).await,
        [
            r#"by_letter.ab: expected a single character, got string "ab""#.to_owned(),
            r#"by_letter.ab：应为单个字符，实际为 string "ab""#.to_owned()
        ]
    );
}

// Checked, consistent: a letter written as two code points (e + U+0301) is two characters for a
// key as for a value; a precomposed é and an astral character are one. Passes.
#[tokio::test]
async fn char_keys_count_code_points_as_char_values_do() {
    assert_eq!(content("rv_letters", r#"{"by_letter": {"é": 1, "😀": 2}}"#).await, "{'é': 1, '😀': 2}|{}|[]");
    let [key, _] = argument_error("rv_letters", "{\"by_letter\": {\"e\u{301}\": 1}}").await;
    assert!(key.starts_with("by_letter.e\u{301}: "), "{key}");
    let [value, _] = argument_error("rv_letters", "{\"list\": [\"e\u{301}\"]}").await;
    assert!(value.starts_with("list[0]: expected a single character"), "{value}");
}

// ---- duplicate keys ----------------------------------------------------------------------------

/// Keys of several string types.
#[tool]
fn rv_dupes(
    /// Boxed.
    boxed: Option<BTreeMap<Box<str>, u8>>,
    /// Shared.
    shared: Option<HashMap<std::sync::Arc<str>, u8>>,
    /// Borrowed.
    cow: Option<BTreeMap<std::borrow::Cow<'_, str>, u8>>,
    /// Letters.
    letters: Option<BTreeMap<char, u8>>,
) -> String {
    let mut shared: Vec<_> = shared.unwrap_or_default().into_iter().collect();
    shared.sort();
    format!(
        "{:?}|{shared:?}|{:?}|{:?}",
        boxed.unwrap_or_default(),
        cow.unwrap_or_default(),
        letters.unwrap_or_default()
    )
}

// Checked: a repeated key keeps its last value for every key type (as `String` keys did through
// the former Vec of pairs), and an elided `Cow<'_, str>` key compiles. Passes.
#[tokio::test]
async fn a_repeated_key_keeps_its_last_value_for_every_key_type() {
    assert_eq!(
        content(
            "rv_dupes",
            r#"{"boxed": {"a": 1, "a": 2}, "shared": {"a": 1, "a": 3}, "cow": {"a": 1, "a": 4}, "letters": {"a": 1, "a": 5}}"#
        )
        .await,
        r#"{"a": 2}|[("a", 3)]|{"a": 4}|{'a': 5}"#
    );
}

// ---- NonZero zero in every form ------------------------------------------------------------------

/// Never-zero counts.
#[tool]
fn rv_nonzero(
    /// Unsigned.
    u: Option<NonZeroU8>,
    /// Signed.
    i: Option<NonZeroI32>,
    /// A plain u8, for comparison.
    p: Option<u8>,
) -> String {
    format!("{u:?}|{i:?}|{p:?}")
}

// Checked: zero is named as sent in every form, as an out-of-range u8 is. Passes.
#[tokio::test]
async fn a_nonzero_zero_is_named_as_sent_in_every_form() {
    for (sent, shown) in [
        (r#""0""#, r#""0""#),
        (r#"" 0 ""#, r#"" 0 ""#),
        (r#""-0""#, r#""-0""#),
        (r#""+0""#, r#""+0""#),
        (r#""000""#, r#""000""#),
        ("0", "0"),
    ] {
        let [en, _] = argument_error("rv_nonzero", &format!(r#"{{"u": {sent}}}"#)).await;
        assert_eq!(en, format!("u: {shown} is out of range for NonZeroU8"), "{sent}");
        let [en, _] = argument_error("rv_nonzero", &format!(r#"{{"i": {sent}}}"#)).await;
        assert_eq!(en, format!("i: {shown} is out of range for NonZeroI32"), "{sent}");
    }
    // A whole float names its number as a u8 out of range does.
    let [u8_text, _] = argument_error("rv_nonzero", r#"{"p": 300.0}"#).await;
    let [nz_text, _] = argument_error("rv_nonzero", r#"{"u": 0.0}"#).await;
    assert_eq!(u8_text, "p: 300.0 is out of range for u8");
    assert_eq!(nz_text, "u: 0.0 is out of range for NonZeroU8");
}
