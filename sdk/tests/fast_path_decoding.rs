//! The fast path of argument decoding against the full decoder, through real `#[tool]`s: for
//! every input the fast path reads, the full decoder reads the same parameters (or the same
//! error).
//!
//! The full decoder is reached from outside the crate by writing each key with an escape
//! (`"\u0073"` for `"s"`): the same JSON, but not "plain", so the fast path gives up on it. For a
//! value, an extra unknown key holding an array does the same (the full decoder ignores it).

#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::num::{NonZeroI64, NonZeroU8, NonZeroU128, NonZeroUsize};
use toolhook::__private::Invoker;
use toolhook::{DeclaredTool, Locale, ToolArguments, ToolInvocation, schemars, serde, tool};

fn call(name: &str, args: ToolArguments) -> Result<String, String> {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == name).expect("declared");
    let call = ToolInvocation::new(name, args);
    let outcome = match tool.registration().invoker {
        Invoker::Sync(f) => f(None, call, None, Locale::En, None),
        Invoker::Async(_) => unreachable!("the tools here are sync"),
    };
    outcome.map(|r| r.content).map_err(|e| e.message(Locale::En).to_owned())
}

/// Every integer type, optional.
#[tool]
fn ints(
    /// a
    a: Option<i8>,
    /// b
    b: Option<i16>,
    /// c
    c: Option<i32>,
    /// d
    d: Option<i64>,
    /// e
    e: Option<i128>,
    /// f
    f: Option<isize>,
    /// g
    g: Option<u8>,
    /// h
    h: Option<u16>,
    /// i
    i: Option<u32>,
    /// j
    j: Option<u64>,
    /// k
    k: Option<u128>,
    /// l
    l: Option<usize>,
) -> String {
    format!("{:?}", (a, b, c, d, e, f, g, h, i, j, k, l))
}

/// Required integers.
#[tool]
fn req_ints(
    /// a
    a: i8,
    /// j
    j: u64,
    /// e
    e: i128,
    /// k
    k: u128,
) -> String {
    format!("{:?}", (a, j, e, k))
}

/// NonZero integers.
#[tool]
fn nonzero(
    /// a
    a: Option<NonZeroU8>,
    /// b
    b: Option<NonZeroI64>,
    /// c
    c: Option<NonZeroU128>,
    /// d
    d: NonZeroUsize,
) -> String {
    format!("{:?}", (a, b, c, d))
}

/// Strings of every kind.
#[tool]
fn strs(
    /// s
    s: String,
    /// r
    r: &str,
    /// o
    o: Option<&str>,
    /// bx
    bx: Option<Box<str>>,
    /// ch
    ch: Option<char>,
    /// cow
    cow: Option<Cow<'static, str>>,
    /// os
    os: Option<String>,
) -> String {
    format!("{:?}", (s, r, o, bx, ch, cow, os))
}

/// Enum-restricted parameters.
#[tool]
fn enums(
    #[param(enum = ["a", "b"])]
    /// s
    s: Option<String>,
    #[param(enum = [1, 3, -2])]
    /// n
    n: Option<i32>,
    /// f
    f: Option<bool>,
    #[param(enum = [18446744073709551615])]
    /// big
    big: Option<u64>,
    #[param(enum = ["a", "b"])]
    /// rs
    rs: String,
) -> String {
    format!("{:?}", (s, n, f, big, rs))
}

/// Parameters with defaults.
#[tool]
fn defaults(
    #[param(default = 5)]
    /// n
    n: u32,
    #[param(default = "x")]
    /// s
    s: String,
    #[param(default = 3)]
    /// o
    o: u8,
    #[param(default = true)]
    /// b
    b: bool,
    #[param(default = "a", enum = ["a", "b"])]
    /// e
    e: String,
    #[param(default = -1)]
    /// i
    i: i64,
) -> String {
    format!("{:?}", (n, s, o, b, e, i))
}

/// Context-named and renamed parameters.
#[tool]
fn named(
    /// user
    user_id: String,
    /// platform
    platform: Option<String>,
    #[param(rename = "type")]
    /// kind
    kind: Option<String>,
    /// match
    r#match: Option<u8>,
) -> String {
    format!("{:?}", (user_id, platform, kind, r#match))
}

/// Unknown arguments denied.
#[tool(deny_unknown_args = true)]
fn strict(
    /// n
    n: u32,
    /// s
    s: Option<String>,
    /// b
    b: Option<bool>,
) -> String {
    format!("{:?}", (n, s, b))
}

/// A colour.
#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
enum Colour {
    /// Red.
    Red,
    /// Green.
    Green,
}

/// A wrapped number.
#[allow(dead_code)]
#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Wrapper(u8);

/// Others: user types, floats, bools, JSON values, containers.
#[tool]
fn others(
    /// c
    c: Option<Colour>,
    /// w
    w: Option<Wrapper>,
    /// x
    x: Option<f64>,
    /// y
    y: Option<f32>,
    /// b
    b: Option<bool>,
    /// v
    v: Option<Value>,
    /// vec
    vec: Option<Vec<u8>>,
    /// map
    map: Option<HashMap<String, u8>>,
    /// rb
    rb: bool,
) -> String {
    format!("{:?}", (c, w, x, y, b, v, vec, map, rb))
}

const TOOLS: &[(&str, &[&str], bool)] = &[
    ("ints", &["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], false),
    ("req_ints", &["a", "j", "e", "k"], false),
    ("nonzero", &["a", "b", "c", "d"], false),
    ("strs", &["s", "r", "o", "bx", "ch", "cow", "os"], false),
    ("enums", &["s", "n", "f", "big", "rs"], false),
    ("defaults", &["n", "s", "o", "b", "e", "i"], false),
    ("named", &["user_id", "platform", "type", "match"], false),
    ("strict", &["n", "s", "b"], true),
    ("others", &["c", "w", "x", "y", "b", "v", "vec", "map", "rb"], false),
];

/// Values as JSON text, valid and not.
const VALUES: &[&str] = &[
    "\"x\"",
    "\"\"",
    "\"a\"",
    "\"b\"",
    "\"c\"",
    "\"Red\"",
    "\"é漢\"",
    "\"\u{2028}\"",
    "\"\u{7f}\"",
    "\"\u{feff}\"",
    "\"5\"",
    "\"0\"",
    "\"true\"",
    "\" 1\"",
    "\"a\\nb\"",
    "0",
    "-0",
    "1",
    "-1",
    "3",
    "-2",
    "5",
    "007",
    "127",
    "128",
    "-128",
    "-129",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "170141183460469231731687303715884105727",
    "1.0",
    "1e3",
    "-0.0",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    "[1]",
    "{\"a\":1}",
];

/// Values the fast path reads for some parameter.
const PLAIN: &[&str] = &[
    "\"a\"",
    "\"b\"",
    "\"x\"",
    "\"Red\"",
    "\"é漢\"",
    "\"\u{2028}\"",
    "\"\u{7f}\"",
    "0",
    "1",
    "3",
    "-2",
    "5",
    "255",
    "true",
    "false",
    "null",
    "18446744073709551615",
    "-9223372036854775808",
    "9223372036854775808",
];

/// A value: often one the fast path reads for some parameter, else any.
fn pick(rng: &mut Rng) -> &'static str {
    if rng.chance(60) { PLAIN[rng.below(PLAIN.len())] } else { VALUES[rng.below(VALUES.len())] }
}

const BLANKS: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n "];

/// xorshift64*
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A key written with its first character escaped: the same key, not plain.
fn escaped(key: &str) -> String {
    let mut chars = key.chars();
    let first = chars.next().expect("a key");
    format!("\\u{:04x}{}", first as u32, chars.as_str())
}

/// The object text of `entries`, keys as written by `key`.
fn object(entries: &[(&str, &str)], blanks: &[&str], key: impl Fn(&str) -> String) -> String {
    let mut text = String::from(blanks[0]);
    text.push('{');
    for (n, (k, v)) in entries.iter().enumerate() {
        let b = |i: usize| blanks[(n * 4 + i) % blanks.len()];
        if n > 0 {
            text.push(',');
        }
        text.push_str(&format!("{}\"{}\"{}:{}{}{}", b(1), key(k), b(2), b(3), v, b(4)));
    }
    text.push('}');
    text.push_str(blanks[blanks.len() - 1]);
    text
}

/// Errors about text that is not JSON quote a column, which the escapes move.
fn normalized(r: Result<String, String>) -> Result<String, String> {
    r.map_err(|e| if e.starts_with("arguments are not valid JSON") { "invalid JSON".to_owned() } else { e })
}

fn compare(tool: &str, deny: bool, entries: &[(&str, &str)], blanks: &[&str], failures: &mut Vec<String>) {
    let plain = object(entries, blanks, str::to_owned);
    let slow = object(entries, blanks, escaped);
    let fast_text = normalized(call(tool, ToolArguments::Text(plain.clone())));
    let full_text = normalized(call(tool, ToolArguments::Text(slow.clone())));
    if fast_text != full_text {
        failures.push(format!("{tool} text {plain}\n  decode_text: {fast_text:?}\n  full:        {full_text:?}"));
    }
    if let Ok(value) = serde_json::from_str::<Value>(&plain) {
        let fast_value = call(tool, ToolArguments::Value(value.clone()));
        let flat_only = value.as_object().is_some_and(|m| {
            m.values()
                .all(|v| !(v.is_array() || v.is_object() || v.as_number().is_some_and(serde_json::Number::is_f64)))
        });
        if deny && !flat_only {
            return;
        }
        let full_value = if deny {
            // No unknown key may force the full decoder: the full text decoder on the value's
            // own text (no duplicate keys, so the same arguments).
            let text = serde_json::to_string(&value).expect("JSON");
            let map: Map<String, Value> = serde_json::from_str(&text).expect("an object");
            let entries: Vec<(String, String)> = map.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            let entries: Vec<(&str, &str)> = entries.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            call(tool, ToolArguments::Text(object(&entries, &[""], escaped)))
        } else {
            let mut forced = value.clone();
            forced.as_object_mut().expect("an object").insert("\u{1}unknown".into(), Value::Array(vec![]));
            call(tool, ToolArguments::Value(forced))
        };
        if fast_value != full_value {
            failures
                .push(format!("{tool} value {value}\n  decode_value: {fast_value:?}\n  full:         {full_value:?}"));
        }
    }
}

#[test]
fn every_plain_object_reads_as_the_full_decoder_reads_it() {
    let mut failures = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for &(tool, keys, deny) in TOOLS {
        // Every single key with every value, with the other keys plainly valid where required.
        for key in keys {
            for value in VALUES {
                compare(tool, deny, &[(key, value)], &[""], &mut failures);
            }
        }
        // Random objects: most keys, random values, some repeated keys, random blanks.
        for _ in 0..6000 {
            let mut entries: Vec<(&str, &str)> = Vec::new();
            for key in keys {
                if rng.chance(75) {
                    entries.push((key, pick(&mut rng)));
                }
            }
            while rng.chance(20) {
                entries.push((keys[rng.below(keys.len())], pick(&mut rng)));
            }
            for i in (1..entries.len()).rev() {
                entries.swap(i, rng.below(i + 1));
            }
            let blanks: Vec<&str> = (0..5).map(|_| BLANKS[rng.below(BLANKS.len())]).collect();
            compare(tool, deny, &entries, &blanks, &mut failures);
        }
    }
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} divergences:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Texts around a plain object: trailing content, a byte order mark, blanks JSON does not
/// have, raw control characters, numbers at the edges.
#[test]
fn edges_of_plain_objects_read_as_the_full_decoder_reads_them() {
    let cases: &[(&str, &[(&str, &str)], &str, &str)] = &[
        // (tool, entries, before, after)
        ("strict", &[("n", "1")], "", " x"),
        ("strict", &[("n", "1")], "", "}"),
        ("strict", &[("n", "1")], "", ","),
        ("strict", &[("n", "1")], "", "\u{0}"),
        ("strict", &[("n", "1")], "", "\u{a0}"),
        ("strict", &[("n", "1")], "", "\u{feff}"),
        ("strict", &[("n", "1")], "\u{feff}", ""),
        ("strict", &[("n", "1")], "\u{a0}", ""),
        ("strict", &[("n", "1")], "\u{2028}", ""),
        ("strict", &[("n", "1")], "\u{c}", ""),
        ("strict", &[("n", "1")], "", "\u{c}"),
        ("strict", &[("n", "1")], "", "{}"),
        ("strict", &[("n", "1"), ("s", "\"\u{1}\"")], "", ""),
        ("strict", &[("n", "1"), ("s", "\"\u{1f}\"")], "", ""),
        ("strict", &[("n", "1"), ("s", "\"\u{7f}\u{2028}\u{2029}\u{feff}\u{10ffff}\"")], "", ""),
        ("strict", &[("n", "1 "), ("s", "\"x\" ")], "", ""),
        ("strict", &[("n", "-0")], "", ""),
        ("strict", &[("n", "0")], "", ""),
        ("strict", &[("n", "00")], "", ""),
        ("strict", &[("n", "-")], "", ""),
        ("strict", &[("n", "+1")], "", ""),
        ("strict", &[("n", "1."), ("s", "\"x\"")], "", ""),
        ("strict", &[("n", "1e"), ("s", "\"x\"")], "", ""),
        ("strict", &[("n", "1"), ("b", "tru")], "", ""),
        ("strict", &[("n", "1"), ("b", "truee")], "", ""),
        ("strict", &[("n", "1"), ("b", "nul")], "", ""),
        ("strict", &[("n", "1"), ("b", "null")], "", ""),
        ("strict", &[("n", "1"), ("b", "True")], "", ""),
        ("strict", &[("n", "1"), ("s", "null"), ("s", "\"a\"")], "", ""),
        ("strict", &[("n", "1"), ("n", "2")], "", ""),
        ("strict", &[("n", "\"1\""), ("n", "2")], "", ""),
        ("strict", &[("n", "2"), ("n", "\"1\"")], "", ""),
        (
            "req_ints",
            &[
                ("a", "-128"),
                ("j", "18446744073709551615"),
                ("e", "-9223372036854775808"),
                ("k", "9223372036854775808"),
            ],
            "",
            "",
        ),
        (
            "req_ints",
            &[
                ("a", "-129"),
                ("j", "18446744073709551615"),
                ("e", "-9223372036854775808"),
                ("k", "9223372036854775808"),
            ],
            "",
            "",
        ),
        ("req_ints", &[("a", "1"), ("j", "18446744073709551616"), ("e", "1"), ("k", "1")], "", ""),
        ("req_ints", &[("a", "1"), ("j", "1"), ("e", "-9223372036854775809"), ("k", "1")], "", ""),
        (
            "defaults",
            &[("n", "null"), ("s", "null"), ("o", "null"), ("b", "null"), ("e", "null"), ("i", "null")],
            "",
            "",
        ),
        ("defaults", &[("e", "\"c\"")], "", ""),
        ("defaults", &[("e", "\"b\""), ("e", "null")], "", ""),
        ("named", &[("user_id", "\"\""), ("type", "\"t\""), ("match", "0")], "", ""),
        ("named", &[("user_id", "\"u\""), ("kind", "\"t\"")], "", ""),
        ("nonzero", &[("d", "0")], "", ""),
        ("nonzero", &[("d", "1"), ("a", "null"), ("b", "null"), ("c", "null")], "", ""),
        ("enums", &[("rs", "\"a\""), ("big", "18446744073709551615"), ("n", "-2")], "", ""),
        ("enums", &[("rs", "\"a\""), ("n", "2")], "", ""),
    ];
    let mut failures = Vec::new();
    for (tool, entries, before, after) in cases {
        let plain = format!("{before}{}{after}", object(entries, &[""], str::to_owned));
        let slow = format!("{before}{}{after}", object(entries, &[""], escaped));
        let fast = normalized(call(tool, ToolArguments::Text(plain.clone())));
        let full = normalized(call(tool, ToolArguments::Text(slow)));
        if fast != full {
            failures.push(format!("{tool} {plain:?}: {fast:?} vs {full:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Values each tool's parameters take (some the fast path reads, some only the full decoder).
const VALID: &[(&str, &[(&str, &[&str])])] = &[
    (
        "req_ints",
        &[
            ("a", &["-128", "127", "0", "-1", "\"5\""]),
            ("j", &["0", "18446744073709551615", "9223372036854775808", "9007199254740993", "1.0"]),
            ("e", &["-9223372036854775808", "9223372036854775807", "0", "18446744073709551615"]),
            ("k", &["0", "18446744073709551615", "1"]),
        ],
    ),
    (
        "strs",
        &[
            ("s", &["\"x\"", "\"\"", "\"é漢\"", "\"\u{2028}\"", "\"\u{7f}\"", "\"a\\\"b\""]),
            ("r", &["\"r\"", "\"\u{10ffff}\""]),
            ("o", &["\"o\"", "null"]),
            ("bx", &["\"bx\"", "null"]),
            ("ch", &["\"c\"", "null", "\"漢\""]),
            ("cow", &["\"cow\"", "null"]),
            ("os", &["\"os\"", "null", "\"\""]),
        ],
    ),
    (
        "enums",
        &[
            ("s", &["\"a\"", "\"b\"", "null"]),
            ("n", &["1", "3", "-2", "null", "3.0"]),
            ("f", &["true", "false", "null"]),
            ("big", &["18446744073709551615", "null"]),
            ("rs", &["\"a\"", "\"b\""]),
        ],
    ),
    (
        "defaults",
        &[
            ("n", &["0", "4294967295", "null"]),
            ("s", &["\"y\"", "null"]),
            ("o", &["255", "null"]),
            ("b", &["false", "null"]),
            ("e", &["\"a\"", "\"b\"", "null"]),
            ("i", &["-9223372036854775808", "null"]),
        ],
    ),
    (
        "others",
        &[
            ("c", &["\"Red\"", "\"Green\"", "null"]),
            ("w", &["5", "null"]),
            ("x", &["1", "-1", "null"]),
            ("y", &["1", "null"]),
            ("b", &["true", "null"]),
            ("v", &["null", "1", "\"v\""]),
            ("vec", &["null", "[1]"]),
            ("map", &["null"]),
            ("rb", &["true", "false"]),
        ],
    ),
    (
        "named",
        &[
            ("user_id", &["\"u\"", "\"\""]),
            ("platform", &["\"p\"", "null"]),
            ("type", &["\"t\"", "null"]),
            ("match", &["0", "255", "null"]),
        ],
    ),
];

#[test]
fn mostly_valid_objects_read_as_the_full_decoder_reads_them() {
    let mut failures = Vec::new();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for &(tool, params) in VALID {
        for _ in 0..3000 {
            let mut entries: Vec<(&str, &str)> = Vec::new();
            for &(key, values) in params {
                if rng.chance(85) {
                    entries.push((key, values[rng.below(values.len())]));
                }
            }
            if rng.chance(30) {
                let (key, _) = params[rng.below(params.len())];
                entries.push((key, pick(&mut rng)));
            }
            for i in (1..entries.len()).rev() {
                entries.swap(i, rng.below(i + 1));
            }
            let blanks: Vec<&str> = (0..5).map(|_| BLANKS[rng.below(BLANKS.len())]).collect();
            compare(tool, false, &entries, &blanks, &mut failures);
        }
    }
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "{} divergences:\n{}", failures.len(), failures[..failures.len().min(40)].join("\n"));
}
