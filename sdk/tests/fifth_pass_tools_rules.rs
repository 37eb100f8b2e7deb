//! Tools checked against the written rules, for the sentences no other test asserts on its own.
//! The expected values come from the rules alone. The topics: a `#[tool]` fn is still an
//! ordinary Rust fn, and its invoker says whether it is sync or async; `from_action` is not
//! deprecated; `default` and `enum` values of types the macro cannot check are tested when the
//! spec is composed; a union without a single JSON type fails with an error that names the
//! parameter and suggests a serde tag; maps keyed by a string type written with its path; the
//! "other" row of the argument error table; and how whole floats are named in wrong-type errors.

use serde_json::json;
use std::collections::BTreeMap;
use toolhook::__private::Invoker;
use toolhook::{ActionInfo, ToolExecutionContext, ToolSpec, ToolSpecError, schemars, serde, tool};

// ---- helpers ------------------------------------------------------------------------------------

#[path = "common/calls.rs"]
mod calls;
use calls::{argument_error, content, declared_tool};

fn declared(name: &str) -> ToolSpec {
    declared_tool(name).spec().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap()
}

// ---- the fn is re-emitted -----------------------------------------------------------------------

/// Adds two numbers.
#[tool]
fn fp5_add(
    /// The first number.
    #[param(default = 1)]
    a: i64,
    /// The second number.
    b: Option<i64>,
) -> String {
    (a + b.unwrap_or(0)).to_string()
}

/// Greets someone, later.
#[tool]
async fn fp5_greet(
    /// Who to greet.
    #[param(rename = "who")]
    name: String,
    ctx: &ToolExecutionContext,
) -> String {
    format!("hello {name} on {}", ctx.platform)
}

// "The fn is re-emitted without parameter attributes/docs": the declared fn stays an ordinary Rust
// fn, called with its own Rust parameters (no default, no rename applies to a direct call).
#[tokio::test]
async fn a_tool_fn_is_still_an_ordinary_rust_fn() {
    assert_eq!(fp5_add(40, Some(2)), "42");
    assert_eq!(fp5_add(5, None), "5");
    let ctx = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    assert_eq!(fp5_greet("Ann".to_owned(), &ctx).await, "hello Ann on qq");
    // And the same fns are tools.
    assert_eq!(content("fp5_add", r#"{"b": 2}"#).await, "3");
    assert_eq!(content("fp5_greet", r#"{"who": "Bo"}"#).await, "hello Bo on");
}

// "The generated invoker declares whether the tool is sync or async".
#[test]
fn the_invoker_says_whether_the_tool_is_sync_or_async() {
    assert!(matches!(declared_tool("fp5_add").registration().invoker, Invoker::Sync(_)));
    assert!(matches!(declared_tool("fp5_greet").registration().invoker, Invoker::Async(_)));
}

// "`from_action` is not `#[deprecated]` (hosts load legacy declarations)": a caller that denies
// deprecated items still compiles (this file would not build otherwise) and gets the tool.
#[deny(deprecated)]
#[test]
fn from_action_is_not_deprecated() {
    let spec = ToolSpec::from_action(ActionInfo::new("fp5_wave")).unwrap();
    assert_eq!(spec.name(), "fp5_wave");
    assert_eq!(spec.metadata()["legacy_action"], true);
}

// ---- values the macro cannot check --------------------------------------------------------------

/// A speed.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Fp5Speed {
    Slow,
    Fast,
}

type Fp5Small = u8;
type Fp5Word = String;

/// A default that is no variant.
#[tool]
fn fp5_bad_variant_default(
    /// The pace.
    #[param(default = "medium")]
    fp5_pace: Fp5Speed,
) {
    let _ = fp5_pace;
}

/// A default that is a variant.
#[tool]
fn fp5_good_variant_default(
    /// The pace.
    #[param(default = "fast")]
    pace: Fp5Speed,
) {
    let _ = pace;
}

/// An allowed value past the alias's range.
#[tool]
fn fp5_bad_alias_enum(
    /// The level.
    #[param(enum = [1, 300])]
    fp5_level: Fp5Small,
) {
    let _ = fp5_level;
}

/// An allowed value of another kind.
#[tool]
fn fp5_mixed_alias_enum(
    /// The level.
    #[param(enum = [1, "two"])]
    fp5_tier: Fp5Small,
) {
    let _ = fp5_tier;
}

/// A default past the alias's range.
#[tool]
fn fp5_bad_alias_default(
    /// The level.
    #[param(default = 256)]
    fp5_cap: Fp5Small,
) {
    let _ = fp5_cap;
}

/// An alias of a string with a number for an allowed value.
#[tool]
fn fp5_bad_word_enum(
    /// The word.
    #[param(enum = ["a", 2])]
    fp5_word: Fp5Word,
) {
    let _ = fp5_word;
}

/// Aliases with fitting values.
#[tool]
fn fp5_good_alias_values(
    /// The level.
    #[param(enum = [1, 255], default = 255)]
    level: Fp5Small,
    /// The word.
    #[param(enum = ["a", "b"])]
    word: Fp5Word,
) {
    let _ = (level, word);
}

// "For any other type, aliases included (`type Count = u32;`), `default` and `enum` values are
// deserialised into T when the registry or `PluginSet` is built …; a mismatch fails with a
// `ToolSpecError` naming the tool and the parameter" — for `enum` values as for `default`, for a
// user enum as for an alias, and for a value out of the aliased type's range.
#[test]
fn enum_and_default_values_of_unchecked_types_are_checked_when_the_spec_is_composed() {
    for (tool, parameter) in [
        ("fp5_bad_variant_default", "fp5_pace"),
        ("fp5_bad_alias_enum", "fp5_level"),
        ("fp5_mixed_alias_enum", "fp5_tier"),
        ("fp5_bad_alias_default", "fp5_cap"),
        ("fp5_bad_word_enum", "fp5_word"),
    ] {
        let error = declared_tool(tool).spec().expect_err(tool).to_string();
        assert!(error.contains(tool) && error.contains(parameter), "{tool}: {error}");
    }
    let spec = declared("fp5_good_variant_default");
    let pace = &spec.parameters_schema()["properties"]["pace"];
    assert_eq!(pace["default"], "fast", "{pace}");
    let spec = declared("fp5_good_alias_values");
    let properties = &spec.parameters_schema()["properties"];
    assert_eq!((&properties["level"]["enum"], &properties["level"]["default"]), (&json!([1, 255]), &json!(255)));
    assert_eq!(properties["word"]["enum"], json!(["a", "b"]));
    assert_eq!(spec.parameters_schema()["required"], json!(["word"]));
}

// ---- unions without one type ---------------------------------------------------------------------

/// A count or a label.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Fp5CountOrLabel {
    Count(u32),
    Label(String),
}

/// An untyped union.
#[tool]
fn fp5_untyped(
    /// A count or a label.
    fp5_either: Fp5CountOrLabel,
) {
    let _ = fp5_either;
}

// "differing branches fail the build (`ToolSpecError::UntypedParameter`, suggesting
// `#[serde(tag = "…")]`)"; "`build()` fails (`thiserror`, naming the parameter) on: … a Rust-typed
// parameter without a single JSON type".
#[test]
fn an_untyped_union_error_names_the_parameter_and_suggests_a_serde_tag() {
    let error = declared_tool("fp5_untyped").spec().expect_err("branches of differing types");
    assert!(matches!(error, ToolSpecError::UntypedParameter { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("fp5_either"), "{message}");
    assert!(message.contains("#[serde(tag"), "{message}");
}

// ---- maps keyed by a path-written string type ----------------------------------------------------

/// Counts by key.
#[tool]
fn fp5_keyed(
    /// Counts.
    counts: BTreeMap<std::string::String, u8>,
    /// Flags.
    flags: Option<std::collections::HashMap<::std::string::String, bool>>,
) -> String {
    let mut flags: Vec<(String, bool)> = flags.unwrap_or_default().into_iter().collect();
    flags.sort();
    format!("{counts:?}|{flags:?}")
}

// "`HashMap<K, T>`, `BTreeMap<K, T>`, K a string type | object | `properties: {}`, `required: []`,
// `additionalProperties` = schema of T"; std types are "recognised by path (`u32`, `String`,
// `std::string::String`, …)", so a key written with its path is a string key; map values take
// lenient scalars ("elements/values of their sequences, options, maps") and errors name
// `{path}.key`.
#[tokio::test]
async fn maps_keyed_by_a_path_written_string_are_open_objects_of_their_values() {
    let spec = declared("fp5_keyed");
    assert_eq!(
        text(spec.parameters_schema()),
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""counts":{"type":"object","description":"Counts.","properties":{},"required":[],"additionalProperties":{"type":"integer"}},"#,
            r#""flags":{"type":"object","description":"Flags.","properties":{},"required":[],"additionalProperties":{"type":"boolean"}}"#,
            r#"},"required":["counts"]}"#
        )
    );
    assert_eq!(
        content("fp5_keyed", r#"{"counts": {"b": "7", "a": 2.0}, "flags": {"y": "yes", "x": 0}}"#).await,
        r#"{"a": 2, "b": 7}|[("x", false), ("y", true)]"#
    );
    assert_eq!(
        argument_error("fp5_keyed", r#"{"counts": {"a": 1, "b": 256}}"#).await,
        ["counts.b: 256 is out of range for u8".to_owned(), "counts.b：256 超出 u8 的范围".to_owned()]
    );
    assert_eq!(
        argument_error("fp5_keyed", r#"{"counts": {}, "flags": {"on": "maybe"}}"#).await,
        [
            r#"flags.on: expected boolean, got string "maybe""#.to_owned(),
            r#"flags.on：应为 boolean，实际为 string "maybe""#.to_owned()
        ]
    );
}

/// Tallies by every string key type.
#[tool]
fn fp5_string_keys(
    /// Boxed.
    boxed: BTreeMap<Box<str>, u8>,
    /// Shared.
    shared: std::collections::HashMap<std::sync::Arc<str>, bool>,
    /// Borrowed or owned.
    cow: Option<BTreeMap<std::borrow::Cow<'static, str>, String>>,
    /// By letter.
    letters: Option<BTreeMap<char, u32>>,
) -> String {
    let mut shared: Vec<(std::sync::Arc<str>, bool)> = shared.into_iter().collect();
    shared.sort();
    format!("{boxed:?}|{shared:?}|{:?}|{:?}", cow.unwrap_or_default(), letters.unwrap_or_default())
}

// "K a string type", where the string types are "`String`, `&str`, `char`, `Cow<str>`,
// `Box<str>`, `Arc<str>`": every one that is owned (all but `&str`, which a parameter cannot
// borrow) keys an open object of its values. A key a `char` cannot hold is an error at the entry,
// worded as for a `char` value.
#[tokio::test]
async fn maps_keyed_by_any_string_type_are_open_objects_of_their_values() {
    let spec = declared("fp5_string_keys");
    let open = |values: &str| {
        format!(r#"{{"type":"object","properties":{{}},"required":[],"additionalProperties":{{"type":"{values}"}}}}"#)
    };
    for (name, values) in [("boxed", "integer"), ("shared", "boolean"), ("cow", "string"), ("letters", "integer")] {
        let mut schema = spec.parameters_schema()["properties"][name].clone();
        schema.as_object_mut().unwrap().shift_remove("description");
        assert_eq!(text(&schema), open(values), "{name}");
    }
    assert_eq!(
        content(
            "fp5_string_keys",
            r#"{"boxed": {"b": "7", "a": 1}, "shared": {"y": "yes", "x": 0}, "cow": {"k": "v"}, "letters": {"é": 2, "a": "3"}}"#
        )
        .await,
        r#"{"a": 1, "b": 7}|[("x", false), ("y", true)]|{"k": "v"}|{'a': 3, 'é': 2}"#
    );
    assert_eq!(
        argument_error("fp5_string_keys", r#"{"boxed": {}, "shared": {}, "letters": {"ab": 1}}"#).await,
        [
            r#"letters.ab: expected a single character, got string "ab""#.to_owned(),
            r#"letters.ab：应为单个字符，实际为 string "ab""#.to_owned()
        ]
    );
    // The key is read before its value: the first error in the text is the key's.
    assert_eq!(
        argument_error("fp5_string_keys", r#"{"boxed": {}, "shared": {}, "letters": {"": "x"}}"#).await[0],
        r#"letters.: expected a single character, got string """#
    );
}

// ---- the "other" argument error ------------------------------------------------------------------

/// An e-mail address.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", try_from = "String")]
#[schemars(crate = "toolhook::schemars")]
struct Fp5Email(String);

impl TryFrom<String> for Fp5Email {
    type Error = String;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        if value.contains('@') { Ok(Fp5Email(value)) } else { Err(format!("no at sign in {value}")) }
    }
}

/// A contact.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Fp5Contact {
    /// The name.
    name: String,
    /// The address.
    email: Fp5Email,
}

/// Mails someone.
#[tool]
fn fp5_mail(
    /// Where to send.
    to: Fp5Email,
    /// Who else.
    cc: Option<Vec<Fp5Contact>>,
) -> String {
    let cc: Vec<String> = cc.unwrap_or_default().into_iter().map(|c| format!("{} <{}>", c.name, c.email.0)).collect();
    format!("{}|{}", to.0, cc.join(","))
}

// Error table: "other | `{path}: {serde message}` | `{path}：{serde message}`", with the path
// "the parameter name, then `.field`/`[index]`": a user type refusing a value in its own words.
#[tokio::test]
async fn a_user_types_own_refusal_is_its_serde_message_after_the_path() {
    assert_eq!(content("fp5_mail", r#"{"to": "a@b", "cc": [{"name": "C", "email": "c@d"}]}"#).await, "a@b|C <c@d>");
    let [en, zh] = argument_error("fp5_mail", r#"{"to": "nobody"}"#).await;
    assert!(en.starts_with("to: no at sign in nobody"), "{en}");
    assert!(zh.starts_with("to：no at sign in nobody"), "{zh}");
    let [en, zh] = argument_error(
        "fp5_mail",
        r#"{"to": "a@b", "cc": [{"name": "C", "email": "c@d"}, {"name": "D", "email": "d"}]}"#,
    )
    .await;
    assert!(en.starts_with("cc[1].email: no at sign in d"), "{en}");
    assert!(zh.starts_with("cc[1].email：no at sign in d"), "{zh}");
}

// ---- how numbers are named -----------------------------------------------------------------------

/// Echoes a word.
#[tool]
fn fp5_word(
    /// The word.
    q: String,
) -> String {
    q
}

// "`{actual}` is the JSON kind … (`integer` = a number with no fractional part, as in JSON Schema);
// booleans, numbers and strings are followed by a space and their compact JSON", compact JSON being
// `serde_json::to_string` (`-0.0`; `1e+300`, `1e-7` in exponent form).
#[tokio::test]
async fn whole_floats_of_any_notation_are_integers_named_by_their_compact_json() {
    for (sent, actual) in [
        ("-0.0", "integer -0.0"),
        ("1E300", "integer 1e+300"),
        ("2.50e1", "integer 25.0"),
        ("1e-7", "number 1e-7"),
        ("-12.5", "number -12.5"),
    ] {
        assert_eq!(
            argument_error("fp5_word", &format!(r#"{{"q": {sent}}}"#)).await,
            [format!("q: expected string, got {actual}"), format!("q：应为 string，实际为 {actual}")],
            "{sent}"
        );
    }
}
