//! The fast path of argument decoding: an object of plain scalars read without serde.
//!
//! Most calls a model makes are an object of strings, integers and booleans written plainly
//! (`{"city":"Paris","days":3}`). Such text is read here in one scan of its bytes, each value
//! stored as its parameter's type takes it as it is. Anything else — an escape or a control
//! character in a string, a number with a fraction or an exponent, a nested value, an unknown
//! key, a value the parameter would read leniently or reject, text that is not JSON — makes the
//! scan give up, and the whole text is decoded again by the full decoder ([`decode_text`]'s
//! serde pass), which reads everything and words every error. So the fast path never decides
//! anything the full decoder would decide differently: it either gives the same parameters or
//! gives up (a property test checks this on random texts).
//!
//! Arguments given as a value are read the same way ([`decode_value`]).
//!
//! [`decode_text`]: super::decode_text

use super::{ArgsStruct, Literal, Param, ParamMeta};
use serde_json::Value;

/// A plain JSON scalar as the fast path read it, from text or from a value.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Flat<'a> {
    /// A string: from text, one without escapes or control characters (its text between the
    /// quotes); from a value, any.
    Str(&'a str),
    /// A non-negative integer that fits a `u64` (from text, written without fraction or exponent).
    UInt(u64),
    /// A negative integer that fits an `i64` (from text, written without fraction or exponent,
    /// and never `-0`).
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// The parameters of an object of plain scalars, or `None` when the text needs the full decoder.
pub(super) fn decode_text<A: ArgsStruct>(text: &str) -> Option<A::Slots> {
    let mut scan = Scan { text, at: 0 };
    scan.skip_blank();
    scan.eat(b'{')?;
    let mut slots = A::Slots::default();
    scan.skip_blank();
    if scan.peek() == Some(b'}') {
        scan.at += 1;
    } else {
        loop {
            let key = scan.string()?;
            scan.skip_blank();
            scan.eat(b':')?;
            scan.skip_blank();
            let index = A::index_of(key)?;
            let value = scan.scalar()?;
            if !A::decode_flat(&mut slots, index, value) {
                return None;
            }
            scan.skip_blank();
            match scan.peek()? {
                b',' => {
                    scan.at += 1;
                    scan.skip_blank();
                }
                b'}' => {
                    scan.at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    scan.skip_blank();
    (scan.at == text.len()).then_some(slots)
}

/// [`decode_text`] for arguments given as a value: an object whose values are strings (any: a value's
/// strings hold no escapes), integers that fit a `u64` or a negative `i64`, booleans or `null`.
pub(super) fn decode_value<A: ArgsStruct>(value: &Value) -> Option<A::Slots> {
    let mut slots = A::Slots::default();
    for (key, value) in value.as_object()? {
        let index = A::index_of(key)?;
        let value = match value {
            Value::String(s) => Flat::Str(s),
            Value::Bool(b) => Flat::Bool(*b),
            Value::Null => Flat::Null,
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(n), _) => Flat::UInt(n),
                (None, Some(n)) => Flat::Int(n),
                _ => return None,
            },
            Value::Array(_) | Value::Object(_) => return None,
        };
        if !A::decode_flat(&mut slots, index, value) {
            return None;
        }
    }
    Some(slots)
}

/// A position in the text.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Steps over `byte`, or gives up.
    #[inline]
    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Steps over JSON's blanks (space, tab, line feed, carriage return).
    #[inline]
    fn skip_blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters, the scan at its opening quote.
    #[inline]
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        let len = bytes[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + len;
        if bytes[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        // Both ends are at ASCII quotes, so on character boundaries.
        Some(&self.text[start..end])
    }

    /// A plain scalar.
    #[inline]
    fn scalar(&mut self) -> Option<Flat<'a>> {
        let rest = &self.text.as_bytes()[self.at..];
        let (flat, len) = match *rest.first()? {
            b'"' => return self.string().map(Flat::Str),
            b't' if rest.starts_with(b"true") => (Flat::Bool(true), 4),
            b'f' if rest.starts_with(b"false") => (Flat::Bool(false), 5),
            b'n' if rest.starts_with(b"null") => (Flat::Null, 4),
            b'-' => {
                let (n, len) = digits(&rest[1..])?;
                // `-0` and magnitudes beyond `i64` are floats to serde_json.
                let n = 0i64.checked_sub_unsigned(n).filter(|&n| n < 0)?;
                (Flat::Int(n), len + 1)
            }
            b'0'..=b'9' => {
                let (n, len) = digits(rest)?;
                (Flat::UInt(n), len)
            }
            _ => return None,
        };
        self.at += len;
        // A literal runs to a delimiter: `truex` and `3x` are not JSON; the caller checks what
        // follows, and `1.5`, `1e3` are numbers this path leaves to serde.
        match self.peek() {
            Some(b'.' | b'e' | b'E') => None,
            _ => Some(flat),
        }
    }
}

/// The integer written at the start of `bytes` in JSON's form (no leading zero) and the number
/// of bytes it takes; `None` when there is none or it overflows a `u64`.
#[inline]
fn digits(bytes: &[u8]) -> Option<(u64, usize)> {
    let len = bytes.iter().position(|b| !b.is_ascii_digit()).unwrap_or(bytes.len());
    if len == 0 || len > 1 && bytes[0] == b'0' {
        return None;
    }
    let mut n: u64 = 0;
    for &b in &bytes[..len] {
        n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some((n, len))
}

/// Whether an integer is one of a parameter's `enum` values (any, when it has none).
#[inline]
pub(super) fn allows_int(meta: &ParamMeta, n: i128) -> bool {
    meta.allowed.is_none_or(|allowed| allowed.iter().any(|lit| lit.equals_int(n)))
}

/// Whether a string is one of a parameter's `enum` values (any, when it has none).
#[inline]
pub(super) fn allows_str(meta: &ParamMeta, s: &str) -> bool {
    meta.allowed.is_none_or(|allowed| allowed.iter().any(|lit| matches!(lit, Literal::Str(v) if *v == s)))
}

/// An integer of a parameter of type `T`, when it fits and is allowed.
#[inline]
pub(super) fn int<T: TryFrom<u64> + TryFrom<i64>>(value: Flat<'_>, meta: &ParamMeta) -> Option<T> {
    match value {
        Flat::UInt(n) if allows_int(meta, i128::from(n)) => T::try_from(n).ok(),
        Flat::Int(n) if allows_int(meta, i128::from(n)) => T::try_from(n).ok(),
        _ => None,
    }
}

/// `Option<P>`: `null` is `None`, anything else is `P`'s.
#[inline]
pub(super) fn option<P: Param>(value: Flat<'_>, meta: &ParamMeta) -> Option<Option<P>> {
    match value {
        Flat::Null => Some(None),
        value => P::from_flat(value, meta).map(Some),
    }
}

#[cfg(test)]
mod tests {
    //! The fast path against the full decoder, on an argument struct written as `#[tool]`
    //! writes one: whenever the fast path reads a text, the full decoder reads it to the same
    //! parameters.

    use super::super::{
        ArgsError, ArgsStruct, DecodeCx, Literal, Param, ParamMeta, Path, Seed, decode_text, decode_text_fully,
        decode_value_fully,
    };
    use super::{Flat, decode_text as decode, decode_value};
    use proptest::prelude::*;
    use serde::de::{IgnoredAny, MapAccess};
    use serde_json::Value;

    #[derive(Debug, PartialEq)]
    struct Args {
        s: String,
        n: u32,
        i: i64,
        b: bool,
        o: Option<u8>,
        e: Option<String>,
        w: Option<u128>,
        k: Option<Box<str>>,
    }

    #[derive(Default)]
    struct Slots {
        s: Option<String>,
        n: Option<u32>,
        i: Option<i64>,
        b: Option<bool>,
        o: Option<Option<u8>>,
        e: Option<Option<String>>,
        w: Option<Option<u128>>,
        k: Option<Option<Box<str>>>,
    }

    const fn meta(rust_type: &'static str) -> ParamMeta {
        ParamMeta { rust_type, allowed: None, outer: None }
    }
    static META: [ParamMeta; 8] = [
        meta("String"),
        meta("u32"),
        meta("i64"),
        meta("bool"),
        meta("u8"),
        ParamMeta { rust_type: "String", allowed: Some(&[Literal::Str("a"), Literal::Str("b")]), outer: None },
        meta("u128"),
        meta("Box<str>"),
    ];

    impl ArgsStruct for Args {
        const NAMES: &'static [&'static str] = &["s", "n", "i", "b", "o", "e", "w", "k"];
        const DENY_UNKNOWN: bool = false;
        type Slots = Slots;
        fn decode_field<'de, A: MapAccess<'de>>(
            slots: &mut Slots,
            index: usize,
            map: &mut A,
            cx: &DecodeCx,
        ) -> Result<(), A::Error> {
            let at = |i: usize| Path::Param(Self::NAMES[i]);
            match index {
                0 => slots.s = Some(map.next_value_seed(Seed::new(at(0), &META[0], cx))?),
                1 => slots.n = Some(map.next_value_seed(Seed::new(at(1), &META[1], cx))?),
                2 => slots.i = Some(map.next_value_seed(Seed::new(at(2), &META[2], cx))?),
                3 => slots.b = Some(map.next_value_seed(Seed::new(at(3), &META[3], cx))?),
                4 => slots.o = Some(map.next_value_seed(Seed::new(at(4), &META[4], cx))?),
                5 => slots.e = Some(map.next_value_seed(Seed::new(at(5), &META[5], cx))?),
                6 => slots.w = Some(map.next_value_seed(Seed::new(at(6), &META[6], cx))?),
                7 => slots.k = Some(map.next_value_seed(Seed::new(at(7), &META[7], cx))?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
        fn finish(slots: Slots) -> Result<Self, usize> {
            Ok(Args {
                s: slots.s.ok_or(0usize)?,
                n: slots.n.ok_or(1usize)?,
                i: slots.i.ok_or(2usize)?,
                b: slots.b.ok_or(3usize)?,
                o: slots.o.flatten(),
                e: slots.e.flatten(),
                w: slots.w.flatten(),
                k: slots.k.flatten(),
            })
        }
        fn decode_flat(slots: &mut Slots, index: usize, value: Flat<'_>) -> bool {
            fn put<P: Param>(slot: &mut Option<P>, value: Flat<'_>, meta: &ParamMeta) -> bool {
                P::from_flat(value, meta).map(|v| *slot = Some(v)).is_some()
            }
            match index {
                0 => put(&mut slots.s, value, &META[0]),
                1 => put(&mut slots.n, value, &META[1]),
                2 => put(&mut slots.i, value, &META[2]),
                3 => put(&mut slots.b, value, &META[3]),
                4 => put(&mut slots.o, value, &META[4]),
                5 => put(&mut slots.e, value, &META[5]),
                6 => put(&mut slots.w, value, &META[6]),
                7 => put(&mut slots.k, value, &META[7]),
                _ => false,
            }
        }
    }

    fn fast(text: &str) -> Option<Result<Args, ArgsError>> {
        decode::<Args>(text).map(super::super::finish::<Args>)
    }

    fn fast_value(value: &Value) -> Option<Result<Args, ArgsError>> {
        decode_value::<Args>(value).map(super::super::finish::<Args>)
    }

    #[test]
    fn plain_objects_take_the_fast_path_and_read_as_the_full_decoder_reads_them() {
        for text in [
            r#"{"s":"Paris","n":3,"i":-7,"b":true}"#,
            " {\n\t\"b\" : false , \"s\" : \"\" , \"n\" : 0 , \"i\" : 9223372036854775807 }\r\n",
            r#"{"s":"é漢","n":4294967295,"i":-9223372036854775808,"b":false,"o":null,"e":"b","w":18446744073709551615,"k":"boxed"}"#,
            r#"{"s":"x","n":1,"i":0,"b":true,"o":255,"s":"last"}"#,
            r#"{"n":1}"#,
            "{}",
        ] {
            let fast = fast(text).unwrap_or_else(|| panic!("the fast path gave up on {text}"));
            assert_eq!(fast, decode_text_fully::<Args>(text), "{text}");
            assert_eq!(decode_text::<Args>(text), fast, "{text}");
            let value: Value = serde_json::from_str(text).expect("JSON");
            let fast_value = fast_value(&value).unwrap_or_else(|| panic!("the fast path gave up on {value}"));
            assert_eq!(fast_value, fast, "{text}");
            assert_eq!(decode_value_fully::<Args>(&value), fast, "{text}");
        }
    }

    #[test]
    fn anything_the_full_decoder_reads_otherwise_is_left_to_it() {
        for text in [
            r#"{"s":"a\"b","n":1,"i":1,"b":true}"#,
            r#"{"s":"tab	here","n":1,"i":1,"b":true}"#,
            r#"{"s":"x","n":"5","i":1,"b":true}"#,
            r#"{"s":"x","n":5.0,"i":1,"b":true}"#,
            r#"{"s":"x","n":1e3,"i":1,"b":true}"#,
            r#"{"s":"x","n":1,"i":-0,"b":true}"#,
            r#"{"s":"x","n":4294967296,"i":1,"b":true}"#,
            r#"{"s":"x","n":1,"i":1,"b":1}"#,
            r#"{"s":"x","n":1,"i":1,"b":true,"e":"c"}"#,
            r#"{"s":"x","n":1,"i":1,"b":true,"extra":1}"#,
            r#"{"s":"x","n":1,"i":1,"b":true,"o":[1]}"#,
            r#"{"\u0073":"x","n":1,"i":1,"b":true}"#,
            r#"{"s":"x","n":01,"i":1,"b":true}"#,
            r#"{"s":"x","n":1,"i":1,"b":true,}"#,
            r#"{"s":"x","n":1,"i":1,"b":true} x"#,
            r#"{"s":"x","n":1,"i":1,"b":truex}"#,
            "null",
            "[1]",
        ] {
            assert!(fast(text).is_none(), "the fast path read {text}");
        }
    }

    #[test]
    fn a_value_takes_the_fast_path_for_any_string_and_leaves_the_rest_to_the_full_decoder() {
        let value = serde_json::json!({"s": "a\"b\\\n\u{1}", "n": 1, "i": -1, "b": true, "o": null});
        let fast = fast_value(&value).expect("the fast path reads it");
        assert_eq!(fast, decode_value_fully::<Args>(&value));
        assert_eq!(fast.expect("valid").s, "a\"b\\\n\u{1}");
        for value in [
            serde_json::json!({"s": "x", "n": 1.0, "i": 1, "b": true}),
            serde_json::json!({"s": "x", "n": 1, "i": 1, "b": "yes"}),
            serde_json::json!({"s": "x", "n": 1, "i": 1, "b": true, "x": 1}),
            serde_json::json!({"s": "x", "n": 1, "i": 1, "b": true, "o": [1]}),
            serde_json::json!({"s": "x", "n": 1, "i": 1, "b": true, "e": "c"}),
            serde_json::json!(null),
            serde_json::json!([]),
        ] {
            assert!(fast_value(&value).is_none(), "the fast path read {value}");
        }
    }

    /// Pieces of argument text, plain and not.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("{".to_owned()),
            Just("}".to_owned()),
            Just(",".to_owned()),
            Just(":".to_owned()),
            Just("[".to_owned()),
            Just("]".to_owned()),
            prop::sample::select(vec![" ", "\t", "\n", "\r", "\u{a0}", "\u{b}", ""]).prop_map(str::to_owned),
            prop::sample::select(vec!["s", "n", "i", "b", "o", "e", "w", "k", "x", "\\u0073", "S"])
                .prop_map(|k| format!("\"{k}\"")),
            "[a-z\\\\\"\u{0}-\u{1f}é漢 ]{0,6}".prop_map(|s| format!("\"{s}\"")),
            any::<i128>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|f| f.to_string()),
            prop::sample::select(vec![
                "true", "false", "null", "tru", "nul", "-0", "-", "007", "0", "1.5", "1e3", "2E1", "-1", "+1", "\"5\"",
                "\"a\"", "\"b\"", "\"c\"", "{}", "[]",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// Texts mostly shaped like an object of parameters, often plain, sometimes broken.
    fn text() -> impl Strategy<Value = String> {
        let entry = (
            prop::sample::select(vec!["s", "n", "i", "b", "o", "e", "w", "k", "x"]),
            prop::sample::select(vec!["", " ", "\n"]),
            prop_oneof![
                piece(),
                any::<u32>().prop_map(|n| n.to_string()),
                "[a-zé ]{0,4}".prop_map(|s| format!("\"{s}\""))
            ],
        )
            .prop_map(|(key, blank, value)| format!("\"{key}\"{blank}:{blank}{value}"));
        prop_oneof![
            prop::collection::vec(entry, 0..8).prop_map(|entries| format!("{{{}}}", entries.join(","))),
            (prop::collection::vec(piece(), 0..16)).prop_map(|pieces| pieces.concat()),
            (prop::collection::vec(piece(), 0..12), prop::collection::vec(piece(), 0..4)).prop_map(|(a, b)| format!(
                "{{{}}}{}",
                a.concat(),
                b.concat()
            )),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn the_fast_path_never_reads_a_text_otherwise_than_the_full_decoder(text in text()) {
            if let Some(fast) = fast(&text) {
                prop_assert_eq!(fast, decode_text_fully::<Args>(&text), "{}", text);
            }
            if let Ok(value) = serde_json::from_str::<Value>(&text)
                && let Some(fast) = fast_value(&value)
            {
                prop_assert_eq!(fast, decode_value_fully::<Args>(&value), "{}", text);
            }
        }
    }
}
