//! Decoding a model's arguments straight into a tool's parameters.
//!
//! `#[tool]` generates a hidden argument struct implementing [`ArgsStruct`]; the JSON text is read
//! into it in one pass, with the lenient scalar rules models need and a JSON path on every error.
//! Nothing is allocated on the success path beyond the parameter values themselves.
//!
//! The common case, an object of plain strings, integers, booleans and `null`s, is read without
//! serde, in one scan of the text's bytes or one pass over the value's entries ([`Flat`],
//! [`Param::from_flat`]); anything else, and every value the fast path does not take as it is, is
//! read by serde from the start, so both give the same parameters and the same errors.

use crate::{Locale, ToolArguments, ToolError};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

mod flat;
pub use flat::Flat;

/// Why a model's arguments do not fit a tool's parameters.
///
/// [`message`](Self::message) renders the error texts a model sees, e.g.
/// `limit: expected integer, got string "five"`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgsError {
    path: String,
    kind: ArgsErrorKind,
}

/// The kinds of argument errors.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ArgsErrorKind {
    /// The text is not JSON (serde_json's message).
    InvalidJson(String),
    /// The JSON is not an object.
    NotAnObject,
    /// A required parameter is absent.
    Missing,
    /// A value of the wrong JSON type.
    WrongType {
        /// The schema type expected.
        expected: &'static str,
        /// What arrived (`string "five"`, `array`, …).
        actual: String,
    },
    /// A value outside the parameter's `enum`.
    NotAllowed {
        /// The allowed values as compact JSON.
        allowed: Vec<String>,
        /// What arrived.
        actual: String,
    },
    /// A number the Rust type cannot hold.
    OutOfRange {
        /// The value as compact JSON.
        value: String,
        /// The Rust type as written in the signature.
        rust_type: &'static str,
    },
    /// An argument the tool does not declare (only with `deny_unknown_args`).
    Unknown,
    /// Any other deserialisation error (serde's message).
    Other(String),
    /// The arguments text is longer than the registry allows.
    TooLarge(usize),
    /// The arguments are nested deeper than the registry allows.
    TooDeep(usize),
    /// An integer too large to have arrived exactly (beyond 2^53 in an already parsed value).
    NotExact {
        /// The value as received.
        value: String,
    },
    /// A string that is not exactly one character, for a `char`.
    NotOneCharacter {
        /// What arrived (`string "ab"`).
        actual: String,
    },
    /// An array of another length, for a fixed-size array (`[T; N]`).
    WrongLength {
        /// The length the Rust type has.
        expected: usize,
        /// The length that arrived.
        actual: usize,
    },
}

impl ArgsError {
    pub(crate) fn new(path: String, kind: ArgsErrorKind) -> Self {
        ArgsError { path, kind }
    }

    /// An error about the whole document.
    pub fn document(kind: ArgsErrorKind) -> Self {
        ArgsError { path: String::new(), kind }
    }

    /// The JSON path of the offending value (`items[0].id`); empty for document-level errors.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong.
    pub fn kind(&self) -> &ArgsErrorKind {
        &self.kind
    }

    /// The error text in a locale.
    ///
    /// ```
    /// use toolhook::Locale;
    /// use toolhook::args::{ArgsError, ArgsErrorKind};
    ///
    /// let e = ArgsError::document(ArgsErrorKind::TooDeep(64));
    /// assert_eq!(e.message(Locale::En), "arguments are nested deeper than 64 levels");
    /// assert_eq!(e.message(Locale::ZhHans), "参数嵌套超过 64 层");
    /// ```
    pub fn message(&self, locale: Locale) -> String {
        let p = &self.path;
        match (&self.kind, locale) {
            (ArgsErrorKind::InvalidJson(m), Locale::En) => {
                format!("arguments are not valid JSON: {m}")
            }
            (ArgsErrorKind::InvalidJson(m), Locale::ZhHans) => format!("参数不是合法的 JSON：{m}"),
            (ArgsErrorKind::NotAnObject, Locale::En) => "arguments must be a JSON object".to_owned(),
            (ArgsErrorKind::NotAnObject, Locale::ZhHans) => "参数必须是 JSON 对象".to_owned(),
            (ArgsErrorKind::Missing, Locale::En) => format!("{p}: missing required parameter"),
            (ArgsErrorKind::Missing, Locale::ZhHans) => format!("{p}：缺少必填参数"),
            (ArgsErrorKind::WrongType { expected, actual }, Locale::En) => {
                format!("{p}: expected {expected}, got {actual}")
            }
            (ArgsErrorKind::WrongType { expected, actual }, Locale::ZhHans) => {
                format!("{p}：应为 {expected}，实际为 {actual}")
            }
            (ArgsErrorKind::NotAllowed { allowed, actual }, Locale::En) => {
                format!("{p}: expected one of {}, got {actual}", allowed.join(", "))
            }
            (ArgsErrorKind::NotAllowed { allowed, actual }, Locale::ZhHans) => {
                format!("{p}：应为 {} 之一，实际为 {actual}", allowed.join("、"))
            }
            (ArgsErrorKind::OutOfRange { value, rust_type }, Locale::En) => {
                format!("{p}: {value} is out of range for {rust_type}")
            }
            (ArgsErrorKind::OutOfRange { value, rust_type }, Locale::ZhHans) => {
                format!("{p}：{value} 超出 {rust_type} 的范围")
            }
            (ArgsErrorKind::Unknown, Locale::En) => format!("{p}: unknown parameter"),
            (ArgsErrorKind::Unknown, Locale::ZhHans) => format!("{p}：未知参数"),
            (ArgsErrorKind::Other(m), Locale::En) if p.is_empty() => m.clone(),
            (ArgsErrorKind::Other(m), Locale::En) => format!("{p}: {m}"),
            (ArgsErrorKind::Other(m), Locale::ZhHans) if p.is_empty() => m.clone(),
            (ArgsErrorKind::Other(m), Locale::ZhHans) => format!("{p}：{m}"),
            (ArgsErrorKind::TooLarge(n), Locale::En) => {
                format!("arguments are larger than {n} bytes")
            }
            (ArgsErrorKind::TooLarge(n), Locale::ZhHans) => format!("参数超过 {n} 字节"),
            (ArgsErrorKind::TooDeep(n), Locale::En) => {
                format!("arguments are nested deeper than {n} levels")
            }
            (ArgsErrorKind::TooDeep(n), Locale::ZhHans) => format!("参数嵌套超过 {n} 层"),
            (ArgsErrorKind::NotExact { value }, Locale::En) => {
                format!("{p}: {value} is too large to be read exactly; send it as a string")
            }
            (ArgsErrorKind::NotExact { value }, Locale::ZhHans) => {
                format!("{p}：{value} 过大，无法精确读取，请以字符串形式发送")
            }
            (ArgsErrorKind::NotOneCharacter { actual }, Locale::En) => {
                format!("{p}: expected a single character, got {actual}")
            }
            (ArgsErrorKind::NotOneCharacter { actual }, Locale::ZhHans) => {
                format!("{p}：应为单个字符，实际为 {actual}")
            }
            (ArgsErrorKind::WrongLength { expected, actual }, Locale::En) => {
                format!("{p}: expected an array of {expected} items, got {actual}")
            }
            (ArgsErrorKind::WrongLength { expected, actual }, Locale::ZhHans) => {
                format!("{p}：应为 {expected} 项的数组，实际为 {actual} 项")
            }
        }
    }

    /// Quotes the number the model wrote as `raw` wherever the message shows the offending
    /// value: as compact JSON, or as written when compact JSON would show another number (see
    /// [`quoted_number`]).
    fn requote_number(&mut self, raw: &str) {
        let quoted = quoted_number(raw);
        let requote = |actual: &mut String| {
            if let Some((kind @ ("integer" | "number"), _)) = actual.split_once(' ') {
                *actual = format!("{kind} {quoted}");
            }
        };
        match &mut self.kind {
            ArgsErrorKind::WrongType { actual, .. } | ArgsErrorKind::NotAllowed { actual, .. } => requote(actual),
            ArgsErrorKind::OutOfRange { value, .. } | ArgsErrorKind::NotExact { value } => *value = quoted,
            _ => {}
        }
    }

    /// The `InvalidArguments` error a provider returns for it, in both locales.
    pub fn into_tool_error(self) -> ToolError {
        ToolError::invalid_arguments_localized(self.message(Locale::En), self.message(Locale::ZhHans))
    }
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Locale::En))
    }
}

impl std::error::Error for ArgsError {}

/// Where a value sits in the arguments: a parameter, then fields and indexes. Rendered only when an
/// error needs it.
#[derive(Clone, Copy, Debug)]
pub enum Path<'a> {
    /// A top-level parameter.
    Param(&'a str),
    /// A field of a map value.
    Field(&'a Path<'a>, &'a str),
    /// An element of a sequence.
    Index(&'a Path<'a>, usize),
}

/// One step of a path, owned: kept with the first error so the value can be found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

impl Path<'_> {
    fn segments(&self) -> Vec<Seg> {
        match self {
            Path::Param(name) => vec![Seg::Key((*name).to_owned())],
            Path::Field(parent, key) => {
                let mut segs = parent.segments();
                segs.push(Seg::Key((*key).to_owned()));
                segs
            }
            Path::Index(parent, i) => {
                let mut segs = parent.segments();
                segs.push(Seg::Index(*i));
                segs
            }
        }
    }

    fn is(&self, segs: &[Seg]) -> bool {
        match (self, segs.split_last()) {
            (Path::Param(name), Some((Seg::Key(key), []))) => name == key,
            (Path::Field(parent, name), Some((Seg::Key(key), rest))) => name == key && parent.is(rest),
            (Path::Index(parent, i), Some((Seg::Index(j), rest))) => i == j && parent.is(rest),
            _ => false,
        }
    }

    fn render(&self) -> String {
        match self {
            Path::Param(name) => (*name).to_owned(),
            Path::Field(parent, key) => format!("{}.{key}", parent.render()),
            Path::Index(parent, i) => format!("{}[{i}]", parent.render()),
        }
    }
}

/// A literal from `#[param(enum = [...])]` or `#[param(default = ...)]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// A string.
    Str(&'static str),
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
    /// A bool.
    Bool(bool),
    /// An array of literals.
    Array(&'static [Literal]),
}

impl Literal {
    /// The literal as JSON.
    pub fn to_value(&self) -> Value {
        match *self {
            Literal::Str(s) => Value::from(s),
            Literal::Int(i) => i64::try_from(i)
                .map(Value::from)
                .or_else(|_| u64::try_from(i).map(Value::from))
                .unwrap_or_else(|_| Value::from(i as f64)),
            Literal::Float(f) => Value::from(f),
            Literal::Bool(b) => Value::Bool(b),
            Literal::Array(items) => Value::Array(items.iter().map(Literal::to_value).collect()),
        }
    }

    /// Whether the literal equals an integer, exactly.
    fn equals_int(&self, n: i128) -> bool {
        match *self {
            Literal::Int(i) => i == n,
            Literal::Float(f) => exact_float_int(f) == Some(n),
            _ => false,
        }
    }

    fn matches(&self, value: &Value) -> bool {
        match (self, value) {
            (Literal::Str(s), Value::String(v)) => s == v,
            (Literal::Int(i), Value::Number(n)) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(x), _, _) => i128::from(x) == *i,
                (_, Some(x), _) => i128::from(x) == *i,
                (_, _, Some(f)) => exact_float_int(f) == Some(*i),
                _ => false,
            },
            (Literal::Float(f), Value::Number(n)) => n.as_f64() == Some(*f),
            (Literal::Bool(b), Value::Bool(v)) => b == v,
            _ => false,
        }
    }
}

/// What the decoder knows about one parameter besides its name.
#[derive(Debug)]
pub struct ParamMeta {
    /// The leaf scalar type as written in the signature (`u8` for `Option<Vec<u8>>`).
    pub rust_type: &'static str,
    /// The `enum` values, if declared.
    pub allowed: Option<&'static [Literal]>,
    /// The JSON type of the value itself when a std container gives it (`array` for `Vec<T>`,
    /// `object` for `HashMap<String, T>`); `None` for a scalar or a user type.
    pub outer: Option<&'static str>,
}

/// The state of one decoding: the first error, with its path; and the integers too large for a
/// float that were read exactly from the text on an earlier pass.
#[derive(Debug, Default)]
pub struct DecodeCx {
    error: RefCell<Option<(ArgsError, Vec<Seg>)>>,
    /// The first error is an integer that arrived as a float: read it from the text (the Rust
    /// type it is for).
    wants_exact: std::cell::Cell<Option<&'static str>>,
    exact: Vec<(Vec<Seg>, Whole)>,
}

impl DecodeCx {
    fn fail<E: de::Error>(&self, at: &Path<'_>, kind: ArgsErrorKind) -> E {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some((ArgsError::new(at.render(), kind), at.segments()));
        }
        E::custom("toolhook argument error")
    }

    /// Fails with an integer that may have lost digits on its way through a float.
    fn fail_inexact<E: de::Error>(&self, at: &Path<'_>, value: f64, rust_type: &'static str) -> E {
        if self.error.borrow().is_none() {
            self.wants_exact.set(Some(rust_type));
        }
        self.fail(at, ArgsErrorKind::NotExact { value: Value::from(value).to_string() })
    }

    /// The integer read exactly from the text for this path, if an earlier pass did.
    fn exact(&self, at: &Path<'_>) -> Option<Whole> {
        self.exact.iter().find(|(segs, _)| at.is(segs)).map(|(_, n)| *n)
    }

    fn take(&self) -> Option<ArgsError> {
        self.error.borrow_mut().take().map(|(error, _)| error)
    }
}

/// The largest integer every `f64` below it represents exactly (2^53).
const MAX_EXACT_FLOAT: f64 = 9_007_199_254_740_992.0;

/// A float's integer value when it is whole and certainly exact.
fn exact_float_int(f: f64) -> Option<i128> {
    (f.is_finite() && f.fract() == 0.0 && f.abs() <= MAX_EXACT_FLOAT).then_some(f as i128)
}

/// A whole number read exactly: any `i128`, or a positive number beyond it that fits `u128`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Whole {
    Signed(i128),
    Big(u128),
}

impl Whole {
    /// The number from its digits (an optional `-`, then ASCII digits) times `10^shift`.
    fn of(digits: &str, shift: u32) -> Option<Whole> {
        let scale = |f: u128| 10u128.checked_pow(shift).and_then(|p| f.checked_mul(p));
        if let Ok(value) = digits.parse::<i128>()
            && let Some(value) = 10i128.checked_pow(shift).and_then(|p| value.checked_mul(p))
        {
            return Some(Whole::Signed(value));
        }
        // Beyond `i128`: only a positive number can still fit `u128`.
        let value = scale(digits.parse::<u128>().ok()?)?;
        Some(i128::try_from(value).map_or(Whole::Big(value), Whole::Signed))
    }
}

impl fmt::Display for Whole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Whole::Signed(n) => n.fmt(f),
            Whole::Big(n) => n.fmt(f),
        }
    }
}

/// What a JSON number literal is as an integer.
#[derive(Debug, PartialEq)]
enum ExactInt {
    /// Its exact value: `18446744073709551617`, `-12`, `1.5e3`.
    Value(Whole),
    /// A whole number beyond `i128` and `u128`.
    TooLarge,
    /// Not a whole number, or not a number.
    NotInteger,
}

fn parse_exact_integer(raw: &str) -> ExactInt {
    let (mantissa, exponent) = match raw.split_once(['e', 'E']) {
        Some((m, e)) => match e.parse::<i32>() {
            Ok(e) => (m, e),
            Err(_) => return ExactInt::NotInteger,
        },
        None => (raw, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let fraction = fraction.trim_end_matches('0');
    let Some(shift) = i32::try_from(fraction.len()).ok().and_then(|len| exponent.checked_sub(len)) else {
        return ExactInt::NotInteger;
    };
    let digits = format!("{whole}{fraction}");
    let significant = digits.trim_start_matches(['-', '0']);
    if shift < 0 {
        // The digits must end in enough zeros to divide out.
        let cut = usize::try_from(-shift).unwrap_or(usize::MAX);
        if significant.is_empty() {
            return ExactInt::Value(Whole::Signed(0));
        }
        if cut > significant.len() || !significant[significant.len() - cut..].bytes().all(|b| b == b'0') {
            return ExactInt::NotInteger;
        }
        return Whole::of(&digits[..digits.len() - cut], 0).map_or(ExactInt::TooLarge, ExactInt::Value);
    }
    if significant.is_empty() {
        return ExactInt::Value(Whole::Signed(0));
    }
    u32::try_from(shift).ok().and_then(|shift| Whole::of(&digits, shift)).map_or(ExactInt::TooLarge, ExactInt::Value)
}

/// The text of the value at a path in arguments text, as the model wrote it.
fn locate<'t>(text: &'t str, segs: &[Seg]) -> Option<&'t str> {
    let mut raw: &'t serde_json::value::RawValue = serde_json::from_str(text).ok()?;
    for seg in segs {
        raw = match seg {
            Seg::Key(key) => {
                let map: HashMap<String, &'t serde_json::value::RawValue> = serde_json::from_str(raw.get()).ok()?;
                map.get(key).copied()?
            }
            Seg::Index(i) => {
                let items: Vec<&'t serde_json::value::RawValue> = serde_json::from_str(raw.get()).ok()?;
                items.get(*i).copied()?
            }
        };
    }
    Some(raw.get())
}

fn is_number_literal(raw: &str) -> bool {
    raw.starts_with(|c: char| c == '-' || c.is_ascii_digit())
}

/// A number literal as an error quotes it: its compact JSON (`2.50` as `2.5`, `1E3` as `1000.0`,
/// `1e20` as `1e+20`) when that is the same number, else the literal as written: a number beyond
/// what a float holds exactly (`18446744073709551617`, whose float prints as
/// `1.8446744073709552e+19`) is shown as the model sent it, not as another number.
fn quoted_number(raw: &str) -> String {
    match serde_json::from_str::<serde_json::Number>(raw) {
        Ok(number) => {
            let compact = number.to_string();
            if same_decimal(&compact, raw) { compact } else { raw.to_owned() }
        }
        Err(_) => raw.to_owned(),
    }
}

/// Whether two JSON number literals denote the same decimal number (`-0` and `0.0` included).
fn same_decimal(a: &str, b: &str) -> bool {
    decimal(a).is_some_and(|a| decimal(b) == Some(a))
}

/// A JSON number literal as (negative, significant digits, power of ten): `-12.50e1` is
/// `(true, "125", 0)`, zero is `(false, "", 0)`. `None` for an exponent beyond `i64`.
fn decimal(raw: &str) -> Option<(bool, String, i64)> {
    let (negative, unsigned) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw),
    };
    let (mantissa, exponent) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, ""));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        // Zero, whatever its exponent.
        return Some((false, String::new(), 0));
    }
    let exponent = match exponent {
        "" => 0,
        e => e.parse::<i64>().ok()?,
    };
    let trailing = i64::try_from(digits.len() - significant.len()).ok()?;
    let shift = exponent.checked_sub(i64::try_from(fraction.len()).ok()?)?.checked_add(trailing)?;
    Some((negative, significant.to_owned(), shift))
}

/// A parameter type the decoder reads leniently.
pub trait Param: Sized {
    /// The JSON type named in "expected …" messages.
    const EXPECTED: &'static str;
    /// Reads one value.
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error>;
    /// The value of a plain scalar when this type takes it as it is, for the fast path of
    /// [`decode_text`] and [`decode_value`]: no lenient reading, nothing outside the parameter's
    /// `enum`. `None` (the default) makes the whole of the arguments go through
    /// [`decode`](Self::decode), which reads the value again and words any error.
    ///
    /// An implementation must give exactly what [`decode`](Self::decode) gives for the same JSON,
    /// or `None`: the two paths must never read a call differently.
    #[inline]
    fn from_flat(value: Flat<'_>, meta: &ParamMeta) -> Option<Self> {
        let _ = (value, meta);
        None
    }
}

/// Reads a `P` as a serde seed.
#[derive(Debug)]
pub struct Seed<'a, P> {
    at: Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    _p: PhantomData<fn() -> P>,
}

impl<'a, P> Seed<'a, P> {
    /// A seed for the parameter at `at`.
    pub fn new(at: Path<'a>, meta: &'a ParamMeta, cx: &'a DecodeCx) -> Self {
        Seed { at, meta, cx, _p: PhantomData }
    }
}

impl<'de, P: Param> DeserializeSeed<'de> for Seed<'_, P> {
    type Value = P;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        P::decode(d, &self.at, self.meta, self.cx)
    }
}

/// How an unexpected value is named: `string "five"`, `integer 5`, `null`, `array`.
/// The longest piece of a string value an error quotes (a model may send megabytes).
const MAX_QUOTED_CHARS: usize = 100;

fn actual_str(s: &str) -> String {
    match s.char_indices().nth(MAX_QUOTED_CHARS) {
        None => format!("string {}", Value::from(s)),
        Some((end, _)) => format!("string {}… ({} characters)", Value::from(&s[..end]), s.chars().count()),
    }
}
fn actual_f64(f: f64) -> String {
    let kind = if f.is_finite() && f.fract() == 0.0 { "integer" } else { "number" };
    format!("{kind} {}", Value::from(f))
}
/// How an argument error names a value it did not expect: `null`, `boolean true`, `integer 5`,
/// `number 2.5`, `string "five"`, `array`, `object`.
///
/// ```
/// use toolhook::args::describe_value;
///
/// assert_eq!(describe_value(&toolhook::serde_json::json!("no")), r#"string "no""#);
/// assert_eq!(describe_value(&toolhook::serde_json::json!(0)), "integer 0");
/// ```
pub fn describe_value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => actual_f64(f),
            _ => format!("integer {n}"),
        },
        Value::String(s) => actual_str(s),
        Value::Array(_) => "array".to_owned(),
        Value::Object(_) => "object".to_owned(),
    }
}

fn check_allowed<E: de::Error>(
    value: &Value,
    at: &Path<'_>,
    meta: &ParamMeta,
    cx: &DecodeCx,
    actual: impl FnOnce() -> String,
) -> Result<(), E> {
    match meta.allowed {
        Some(allowed) if !allowed.iter().any(|lit| lit.matches(value)) => Err(cx.fail(
            at,
            ArgsErrorKind::NotAllowed {
                allowed: allowed.iter().map(|lit| lit.to_value().to_string()).collect(),
                actual: actual(),
            },
        )),
        _ => Ok(()),
    }
}

/// Implements the "wrong type" answers of a scalar visitor.
macro_rules! reject_others {
    ($($method:ident($($arg:ident: $ty:ty)?) => $actual:expr;)*) => {
        $(
            fn $method<E: de::Error>(self, $($arg: $ty)?) -> Result<Self::Value, E> {
                Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: $actual }))
            }
        )*
    };
}

// ---- integers -------------------------------------------------------------------------------

struct IntVisitor<'a, T> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    expected: &'static str,
    /// For a `NonZero` type: zero is out of its range.
    nonzero: bool,
    _t: PhantomData<T>,
}

impl<T: TryFrom<i128> + TryFrom<u128>> IntVisitor<'_, T> {
    /// [`fit`](Self::fit) for any whole number read exactly.
    fn fit_whole<E: de::Error>(
        &self,
        n: Whole,
        shown: impl FnOnce() -> String,
        actual: impl FnOnce() -> String,
    ) -> Result<T, E> {
        match n {
            Whole::Signed(n) => self.fit(n, shown, actual),
            // Beyond `i128`: only a `u128` can hold it, and no `enum` value is one.
            Whole::Big(n) => self.fit_checked(n, false, |_| false, shown, actual),
        }
    }

    fn fit<E: de::Error>(
        &self,
        n: i128,
        shown: impl FnOnce() -> String,
        actual: impl FnOnce() -> String,
    ) -> Result<T, E> {
        self.fit_checked(n, n == 0, |allowed| allowed.iter().any(|lit| lit.equals_int(n)), shown, actual)
    }

    /// Checks `n` against the parameter's `enum` (`listed` says whether it is one of the values)
    /// and then against the Rust type (`zero` says whether `n` is zero, for a `NonZero` type).
    fn fit_checked<N, E: de::Error>(
        &self,
        n: N,
        zero: bool,
        listed: impl FnOnce(&[Literal]) -> bool,
        shown: impl FnOnce() -> String,
        actual: impl FnOnce() -> String,
    ) -> Result<T, E>
    where
        T: TryFrom<N>,
    {
        if let Some(allowed) = self.meta.allowed
            && !listed(allowed)
        {
            let allowed = allowed.iter().map(|lit| lit.to_value().to_string()).collect();
            return Err(self.cx.fail(self.at, ArgsErrorKind::NotAllowed { allowed, actual: actual() }));
        }
        if zero && self.nonzero {
            return Err(self
                .cx
                .fail(self.at, ArgsErrorKind::OutOfRange { value: shown(), rust_type: self.meta.rust_type }));
        }
        T::try_from(n).map_err(|_| {
            self.cx.fail(self.at, ArgsErrorKind::OutOfRange { value: shown(), rust_type: self.meta.rust_type })
        })
    }
}

impl<'de, T: TryFrom<i128> + TryFrom<u128>> Visitor<'de> for IntVisitor<'_, T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.fit(i128::from(v), || v.to_string(), || format!("integer {v}"))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.fit(i128::from(v), || v.to_string(), || format!("integer {v}"))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        self.fit(v, || v.to_string(), || format!("integer {v}"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        match i128::try_from(v) {
            Ok(n) => self.fit(n, || v.to_string(), || format!("integer {v}")),
            Err(_) => self.fit_whole(Whole::Big(v), || v.to_string(), || format!("integer {v}")),
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        if !(v.is_finite() && v.fract() == 0.0) {
            return Err(self
                .cx
                .fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: actual_f64(v) }));
        }
        // Beyond 2^53 a float may have lost digits: the integer is read from the text instead
        // (an earlier pass found it there), or the error says so.
        match exact_float_int(v).map(Whole::Signed).or_else(|| self.cx.exact(self.at)) {
            Some(n) => self.fit_whole(n, || n.to_string(), || format!("integer {n}")),
            None => Err(self.cx.fail_inexact(self.at, v, self.meta.rust_type)),
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        let t = v.trim();
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self
                .cx
                .fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: actual_str(v) }));
        }
        let shown = || Value::from(v).to_string();
        match Whole::of(t.strip_prefix('+').unwrap_or(t), 0) {
            Some(n) => self.fit_whole(n, shown, || actual_str(v)),
            None => {
                Err(self.cx.fail(self.at, ArgsErrorKind::OutOfRange { value: shown(), rust_type: self.meta.rust_type }))
            }
        }
    }
    reject_others! {
        visit_bool(v: bool) => format!("boolean {v}");
        visit_unit() => "null".to_owned();
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "array".into() }))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "object".into() }))
    }
}

macro_rules! int_params {
    ($($t:ty),*) => {$(
        impl Param for $t {
            const EXPECTED: &'static str = "integer";
            fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, meta: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
                d.deserialize_any(IntVisitor::<$t> { at, meta, cx, expected: Self::EXPECTED, nonzero: false, _t: PhantomData })
            }
            #[inline]
            fn from_flat(value: Flat<'_>, meta: &ParamMeta) -> Option<Self> {
                flat::int(value, meta)
            }
        }
    )*};
}
int_params!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! nonzero_params {
    ($($t:ty => $inner:ty),*) => {$(
        impl Param for $t {
            const EXPECTED: &'static str = "integer";
            fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, meta: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
                // Zero is refused by the visitor, which names it as the model wrote it (`"0"`).
                let visitor = IntVisitor::<$inner> { at, meta, cx, expected: Self::EXPECTED, nonzero: true, _t: PhantomData };
                let n = d.deserialize_any(visitor)?;
                <$t>::new(n).ok_or_else(|| {
                    cx.fail(at, ArgsErrorKind::OutOfRange { value: "0".to_owned(), rust_type: meta.rust_type })
                })
            }
        }
    )*};
}
nonzero_params!(
    std::num::NonZeroI8 => i8, std::num::NonZeroI16 => i16, std::num::NonZeroI32 => i32,
    std::num::NonZeroI64 => i64, std::num::NonZeroI128 => i128, std::num::NonZeroIsize => isize,
    std::num::NonZeroU8 => u8, std::num::NonZeroU16 => u16, std::num::NonZeroU32 => u32,
    std::num::NonZeroU64 => u64, std::num::NonZeroU128 => u128, std::num::NonZeroUsize => usize
);

// ---- floats ---------------------------------------------------------------------------------

struct FloatVisitor<'a> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    expected: &'static str,
    max: f64,
}

impl FloatVisitor<'_> {
    fn fit<E: de::Error>(&self, v: f64, actual: impl FnOnce() -> String) -> Result<f64, E> {
        check_allowed(&Value::from(v), self.at, self.meta, self.cx, actual)?;
        if v.abs() > self.max {
            return Err(self.cx.fail(
                self.at,
                ArgsErrorKind::OutOfRange { value: Value::from(v).to_string(), rust_type: self.meta.rust_type },
            ));
        }
        Ok(v)
    }
}

impl<'de> Visitor<'de> for FloatVisitor<'_> {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        self.fit(v, || actual_f64(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        self.fit(v as f64, || format!("integer {v}"))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        self.fit(v as f64, || format!("integer {v}"))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v.trim().parse::<f64>() {
            Ok(f) if f.is_finite() => self.fit(f, || actual_str(v)),
            _ => {
                Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: actual_str(v) }))
            }
        }
    }
    reject_others! {
        visit_bool(v: bool) => format!("boolean {v}");
        visit_unit() => "null".to_owned();
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<f64, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "array".into() }))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<f64, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "object".into() }))
    }
}

impl Param for f64 {
    const EXPECTED: &'static str = "number";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        d.deserialize_any(FloatVisitor { at, meta, cx, expected: Self::EXPECTED, max: f64::MAX })
    }
}

impl Param for f32 {
    const EXPECTED: &'static str = "number";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        let v = d.deserialize_any(FloatVisitor { at, meta, cx, expected: Self::EXPECTED, max: f64::from(f32::MAX) })?;
        Ok(v as f32)
    }
}

// ---- booleans -------------------------------------------------------------------------------

struct BoolVisitor<'a> {
    at: &'a Path<'a>,
    cx: &'a DecodeCx,
    expected: &'static str,
}

impl<'de> Visitor<'de> for BoolVisitor<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self
                .cx
                .fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: format!("integer {v}") })),
        }
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: format!("integer {v}") }))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
        match v {
            0.0 => Ok(false),
            1.0 => Ok(true),
            _ => {
                Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: actual_f64(v) }))
            }
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        parse_lenient_bool(v).ok_or_else(|| {
            self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: actual_str(v) })
        })
    }
    reject_others! {
        visit_unit() => "null".to_owned();
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "array".into() }))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<bool, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "object".into() }))
    }
}

/// The lenient boolean words: trimmed, case-insensitive `true false 1 0 yes no on off t f y n`.
pub fn parse_lenient_bool(text: &str) -> Option<bool> {
    let t = text.trim();
    const TRUE: [&str; 5] = ["true", "1", "yes", "on", "t"];
    const FALSE: [&str; 5] = ["false", "0", "no", "off", "f"];
    if TRUE.iter().any(|w| t.eq_ignore_ascii_case(w)) || t.eq_ignore_ascii_case("y") {
        Some(true)
    } else if FALSE.iter().any(|w| t.eq_ignore_ascii_case(w)) || t.eq_ignore_ascii_case("n") {
        Some(false)
    } else {
        None
    }
}

impl Param for bool {
    const EXPECTED: &'static str = "boolean";
    fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, _: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
        d.deserialize_any(BoolVisitor { at, cx, expected: Self::EXPECTED })
    }
    #[inline]
    fn from_flat(value: Flat<'_>, _: &ParamMeta) -> Option<Self> {
        match value {
            Flat::Bool(b) => Some(b),
            _ => None,
        }
    }
}

// ---- strings --------------------------------------------------------------------------------

struct StrVisitor<'a> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    expected: &'static str,
}

impl StrVisitor<'_> {
    fn fit<E: de::Error>(&self, v: &str) -> Result<(), E> {
        if let Some(allowed) = self.meta.allowed
            && !allowed.iter().any(|lit| matches!(lit, Literal::Str(s) if *s == v))
        {
            return Err(self.cx.fail(
                self.at,
                ArgsErrorKind::NotAllowed {
                    allowed: allowed.iter().map(|lit| lit.to_value().to_string()).collect(),
                    actual: actual_str(v),
                },
            ));
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for StrVisitor<'_> {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        self.fit(v)?;
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        self.fit(&v)?;
        Ok(v)
    }
    reject_others! {
        visit_bool(v: bool) => format!("boolean {v}");
        visit_i64(v: i64) => format!("integer {v}");
        visit_u64(v: u64) => format!("integer {v}");
        visit_f64(v: f64) => actual_f64(v);
        visit_unit() => "null".to_owned();
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "array".into() }))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: self.expected, actual: "object".into() }))
    }
}

impl Param for String {
    const EXPECTED: &'static str = "string";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        d.deserialize_any(StrVisitor { at, meta, cx, expected: Self::EXPECTED })
    }
    #[inline]
    fn from_flat(value: Flat<'_>, meta: &ParamMeta) -> Option<Self> {
        match value {
            Flat::Str(s) if flat::allows_str(meta, s) => Some(s.to_owned()),
            _ => None,
        }
    }
}

macro_rules! string_like {
    ($($t:ty),*) => {$(
        impl Param for $t {
            const EXPECTED: &'static str = "string";
            fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, meta: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
                String::decode(d, at, meta, cx).map(Into::into)
            }
            #[inline]
            fn from_flat(value: Flat<'_>, meta: &ParamMeta) -> Option<Self> {
                String::from_flat(value, meta).map(Into::into)
            }
        }
    )*};
}
string_like!(Box<str>, std::sync::Arc<str>, std::rc::Rc<str>, std::borrow::Cow<'static, str>);

impl Param for char {
    const EXPECTED: &'static str = "string";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        let s = String::decode(d, at, meta, cx)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(cx.fail(at, ArgsErrorKind::NotOneCharacter { actual: actual_str(&s) })),
        }
    }
}

// ---- JSON values ----------------------------------------------------------------------------

impl Param for Value {
    const EXPECTED: &'static str = "object";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        let value = <Value as serde::Deserialize>::deserialize(d)?;
        check_allowed(&value, at, meta, cx, || describe_value(&value))?;
        Ok(value)
    }
}

impl Param for Map<String, Value> {
    const EXPECTED: &'static str = "object";
    fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, _: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
        match <Value as serde::Deserialize>::deserialize(d)? {
            Value::Object(map) => Ok(map),
            other => Err(cx.fail(at, ArgsErrorKind::WrongType { expected: "object", actual: describe_value(&other) })),
        }
    }
}

// ---- containers -----------------------------------------------------------------------------

/// The "wrong type" answers of a container visitor expecting an array or object.
macro_rules! reject_seq_others {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(self.wrong(format!("boolean {v}")))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Err(self.wrong(format!("integer {v}")))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Err(self.wrong(format!("integer {v}")))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Err(self.wrong(actual_f64(v)))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Err(self.wrong(actual_str(v)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.wrong("null".to_owned()))
        }
    };
}

struct OptionVisitor<'a, P> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    _p: PhantomData<P>,
}

impl<'de, P: Param> Visitor<'de> for OptionVisitor<'_, P> {
    type Value = Option<P>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an optional value")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        P::decode(d, self.at, self.meta, self.cx).map(Some)
    }
}

impl<P: Param> Param for Option<P> {
    const EXPECTED: &'static str = P::EXPECTED;
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        d.deserialize_option(OptionVisitor::<P> { at, meta, cx, _p: PhantomData })
    }
    #[inline]
    fn from_flat(value: Flat<'_>, meta: &ParamMeta) -> Option<Self> {
        flat::option(value, meta)
    }
}

struct SeqVisitor<'a, P> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    _p: PhantomData<P>,
}

impl<'de, P: Param> Visitor<'de> for SeqVisitor<'_, P> {
    type Value = Vec<P>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<P>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        loop {
            let at = Path::Index(self.at, out.len());
            match seq.next_element_seed(Seed::<P>::new(at, self.meta, self.cx))? {
                Some(item) => out.push(item),
                None => return Ok(out),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Vec<P>, A::Error> {
        Err(self.wrong("object".to_owned()))
    }
    reject_seq_others!();
}

impl<P> SeqVisitor<'_, P> {
    fn wrong<E: de::Error>(&self, actual: String) -> E {
        self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: "array", actual })
    }
}

impl<P: Param> Param for Vec<P> {
    const EXPECTED: &'static str = "array";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        d.deserialize_any(SeqVisitor::<P> { at, meta, cx, _p: PhantomData })
    }
}

macro_rules! seq_like {
    ($($t:ident $(: $bound:path)?),*) => {$(
        impl<P: Param $(+ $bound)?> Param for $t<P> {
            const EXPECTED: &'static str = "array";
            fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, meta: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
                Vec::<P>::decode(d, at, meta, cx).map(|items| items.into_iter().collect())
            }
        }
    )*};
}
seq_like!(VecDeque, BTreeSet: Ord);

impl<P: Param + Eq + Hash> Param for HashSet<P> {
    const EXPECTED: &'static str = "array";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        Vec::<P>::decode(d, at, meta, cx).map(|items| items.into_iter().collect())
    }
}

impl<P: Param> Param for Box<[P]> {
    const EXPECTED: &'static str = "array";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        Vec::<P>::decode(d, at, meta, cx).map(Vec::into_boxed_slice)
    }
}

impl<P: Param, const N: usize> Param for [P; N] {
    const EXPECTED: &'static str = "array";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        let items = Vec::<P>::decode(d, at, meta, cx)?;
        let len = items.len();
        <[P; N]>::try_from(items).map_err(|_| cx.fail(at, ArgsErrorKind::WrongLength { expected: N, actual: len }))
    }
}

/// The key type of a map parameter: a string type. A key that does not fit (a `char` key of
/// other than one character) is an error at the entry's path, worded as for a value of the type.
pub trait MapKey: Sized + Ord + Eq + Hash {
    /// Whether an object's key fits this type.
    #[inline]
    fn check(key: &str) -> Result<(), ArgsErrorKind> {
        let _ = key;
        Ok(())
    }
    /// The key from an object's key that [`check`](Self::check) passed.
    fn from_key(key: String) -> Self;
}

macro_rules! string_keys {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            #[inline]
            fn from_key(key: String) -> Self {
                key.into()
            }
        }
    )*};
}
string_keys!(String, Box<str>, std::sync::Arc<str>, std::borrow::Cow<'static, str>);

impl MapKey for char {
    fn check(key: &str) -> Result<(), ArgsErrorKind> {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(_), None) => Ok(()),
            _ => Err(ArgsErrorKind::NotOneCharacter { actual: actual_str(key) }),
        }
    }
    fn from_key(key: String) -> Self {
        key.chars().next().unwrap_or_default()
    }
}

struct MapVisitor<'a, K, P, M> {
    at: &'a Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
    _p: PhantomData<(K, P, M)>,
}

impl<K, P, M> MapVisitor<'_, K, P, M> {
    fn wrong<E: de::Error>(&self, actual: String) -> E {
        self.cx.fail(self.at, ArgsErrorKind::WrongType { expected: "object", actual })
    }
}

impl<'de, K: MapKey, P: Param, M: Default + Extend<(K, P)>> Visitor<'de> for MapVisitor<'_, K, P, M> {
    type Value = M;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M, A::Error> {
        let mut out = M::default();
        while let Some(name) = map.next_key::<String>()? {
            let at = Path::Field(self.at, &name);
            K::check(&name).map_err(|kind| self.cx.fail(&at, kind))?;
            let value = map.next_value_seed(Seed::<P>::new(at, self.meta, self.cx))?;
            out.extend(std::iter::once((K::from_key(name), value)));
        }
        Ok(out)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<M, A::Error> {
        Err(self.wrong("array".to_owned()))
    }
    reject_seq_others!();
}

macro_rules! map_like {
    ($($t:ident),*) => {$(
        impl<K: MapKey, P: Param> Param for $t<K, P> {
            const EXPECTED: &'static str = "object";
            fn decode<'de, D: Deserializer<'de>>(d: D, at: &Path<'_>, meta: &ParamMeta, cx: &DecodeCx) -> Result<Self, D::Error> {
                d.deserialize_any(MapVisitor::<K, P, Self> { at, meta, cx, _p: PhantomData })
            }
        }
    )*};
}
map_like!(HashMap, BTreeMap);

// ---- user types -----------------------------------------------------------------------------

/// A parameter of a type the macro does not know: read with its own `Deserialize`, without the
/// lenient scalar rules, with the JSON path of a failure inside it ([`PlainSeed`]). A missing
/// field and an unknown enum variant are reported in the argument errors' own words
/// (`items[1].id: missing required parameter`, `colour: expected one of "Red", "Green", got
/// string "Blue"`), and so is a parameter's value of another kind (`items: expected array, got
/// object`, `filter: expected object, got string "x"`); any other failure in serde's.
#[derive(Debug)]
pub struct Plain<T>(pub T);

/// How a [`Plain`] value becomes a `T`: [`plain_decode`], picked where the generated code names
/// the type, so that a type without `Deserialize` is reported once, by the parameter's check.
pub type PlainDecode<T> = fn(Value) -> Result<T, PlainError>;

/// Why a [`Plain`] value did not decode.
#[derive(Debug)]
#[non_exhaustive]
pub struct PlainError {
    /// The path inside the value (`.`, `x`, `[0].y`).
    pub path: String,
    /// serde's message.
    pub message: String,
    /// The value as argument errors name what they got (`array`, `string "x"`), when the error
    /// is about the value itself (its path is `.`); empty otherwise.
    pub got: String,
}

impl PlainError {
    fn of(error: serde_path_to_error::Error<serde_json::Error>, value: impl FnOnce() -> String) -> Self {
        let path = error.path().to_string();
        let got = if path == "." { value() } else { String::new() };
        PlainError { path, message: error.into_inner().to_string(), got }
    }
}

/// An error of a user type's own `Deserialize` that the argument errors have words for, read
/// from serde's message (its wording is serde's `de::Error` defaults, the same for every format).
#[derive(Debug, PartialEq)]
enum UserTypeError<'m> {
    /// A field the type requires is absent: ``missing field `id` ``.
    Missing(&'m str),
    /// A name that is none of an enum's variants (a unit enum's value, or an externally tagged
    /// variant's tag): ``unknown variant `Blue`, expected `Red` or `Green` ``.
    UnknownVariant {
        /// The name sent.
        variant: &'m str,
        /// The variants, as JSON strings.
        allowed: Vec<String>,
    },
}

/// The first text between backticks in `text`, and what follows it.
fn backticked(text: &str) -> Option<(&str, &str)> {
    let (_, rest) = text.split_once('`')?;
    rest.split_once('`')
}

fn user_type_error(message: &str) -> Option<UserTypeError<'_>> {
    if let Some(rest) = message.strip_prefix("missing field ") {
        let (field, tail) = backticked(rest)?;
        return tail.is_empty().then_some(UserTypeError::Missing(field));
    }
    let rest = message.strip_prefix("unknown variant ")?;
    let (variant, mut expected) = backticked(rest)?;
    expected = expected.strip_prefix(", expected ")?;
    let mut names = Vec::new();
    while let Some((name, tail)) = backticked(expected) {
        names.push(name);
        expected = tail;
    }
    // The variant is the model's text: a backtick in it could pass for the end of the name and
    // add names of its own. Only a message serde would write for exactly these names is read.
    let listed = match names.as_slice() {
        [] => return None,
        [one] => format!("`{one}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        more => format!("one of {}", more.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")),
    };
    if message != format!("unknown variant `{variant}`, expected {listed}") {
        return None;
    }
    let allowed = names.iter().map(|name| Value::from(*name).to_string()).collect();
    Some(UserTypeError::UnknownVariant { variant, allowed })
}

/// The JSON type a [`Plain`] parameter's value should have had, when serde's error at the value
/// itself (path `.`) is that the value is of another kind, and `got` names the value. serde
/// reports an error inside a tagged enum or a flattened field at the root too, so only what
/// cannot come from inside counts: a value of another kind than the sequence or map the
/// signature shows (`outer`); else serde's own expectation of an array or an object, for a scalar
/// value (it has no inside), or for an array where an object was expected (those buffer maps
/// only).
fn root_kind_mismatch(message: &str, got: &str, outer: Option<&'static str>) -> Option<&'static str> {
    let (_, expected) = message.strip_prefix("invalid type: ")?.rsplit_once(", expected ")?;
    if let Some(outer) = outer {
        return (got != outer).then_some(outer);
    }
    let array = ["a sequence", "a tuple of size ", "an array of length ", "tuple struct "];
    let object = ["a map", "struct ", "internally tagged enum ", "adjacently tagged enum "];
    let expected = if array.iter().any(|a| expected.starts_with(a)) {
        "array"
    } else if object.iter().any(|o| expected.starts_with(o)) {
        "object"
    } else {
        return None;
    };
    let scalar = got != "array" && got != "object";
    (scalar || (got == "array" && expected == "object")).then_some(expected)
}

/// Reads a `T` with its own `Deserialize`.
pub fn plain_decode<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, PlainError> {
    match value {
        // Moved in, so that its strings are too; an error about the value itself needs only its kind.
        Value::Array(_) | Value::Object(_) => {
            let kind = if value.is_array() { "array" } else { "object" };
            serde_path_to_error::deserialize::<_, T>(value).map_err(|e| PlainError::of(e, || kind.to_owned()))
        }
        // Read by reference (a scalar holds at most one string), so an error can quote it.
        scalar => {
            serde_path_to_error::deserialize::<_, T>(&scalar).map_err(|e| PlainError::of(e, || describe_value(&scalar)))
        }
    }
}

/// Reads a [`Plain`] parameter; [`optional`](Self::optional) reads an `Option` of one.
#[derive(Debug)]
pub struct PlainSeed<'a, T> {
    decode: PlainDecode<T>,
    at: Path<'a>,
    meta: &'a ParamMeta,
    cx: &'a DecodeCx,
}

impl<'a, T> PlainSeed<'a, T> {
    /// A seed for the parameter at `at`.
    pub fn new(decode: PlainDecode<T>, at: Path<'a>, meta: &'a ParamMeta, cx: &'a DecodeCx) -> Self {
        PlainSeed { decode, at, meta, cx }
    }

    /// The seed of an `Option<Plain<T>>`: `null` is `None`.
    pub fn optional(self) -> OptionalPlainSeed<'a, T> {
        OptionalPlainSeed(self)
    }

    fn read<E: de::Error>(&self, value: Value) -> Result<Plain<T>, E> {
        check_allowed(&value, &self.at, self.meta, self.cx, || describe_value(&value))?;
        match (self.decode)(value) {
            Ok(v) => Ok(Plain(v)),
            Err(PlainError { path: inner, message, got }) => {
                let base = self.at.render();
                let mut path = match inner.as_str() {
                    "." | "" => base,
                    p if p.starts_with('[') => format!("{base}{p}"),
                    p => format!("{base}.{p}"),
                };
                // The parameter's own value is of another kind: said as for any parameter.
                let wrong_type = (inner == "." && !got.is_empty())
                    .then(|| root_kind_mismatch(&message, &got, self.meta.outer))
                    .flatten();
                let kind = match (wrong_type, user_type_error(&message)) {
                    (Some(expected), _) => ArgsErrorKind::WrongType { expected, actual: got },
                    (None, Some(UserTypeError::Missing(field))) => {
                        path = format!("{path}.{field}");
                        ArgsErrorKind::Missing
                    }
                    (None, Some(UserTypeError::UnknownVariant { variant, allowed })) => {
                        ArgsErrorKind::NotAllowed { allowed, actual: actual_str(variant) }
                    }
                    (None, None) => ArgsErrorKind::Other(message),
                };
                let mut slot = self.cx.error.borrow_mut();
                if slot.is_none() {
                    *slot = Some((ArgsError::new(path, kind), self.at.segments()));
                }
                Err(de::Error::custom("toolhook argument error"))
            }
        }
    }
}

impl<'de, T> DeserializeSeed<'de> for PlainSeed<'_, T> {
    type Value = Plain<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Plain<T>, D::Error> {
        let value = <Value as serde::Deserialize>::deserialize(d)?;
        self.read(value)
    }
}

/// Reads an `Option<Plain<T>>` (see [`PlainSeed::optional`]).
#[derive(Debug)]
pub struct OptionalPlainSeed<'a, T>(PlainSeed<'a, T>);

impl<'de, T> DeserializeSeed<'de> for OptionalPlainSeed<'_, T> {
    type Value = Option<Plain<T>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Plain<T>>, D::Error> {
        match <Option<Value> as serde::Deserialize>::deserialize(d)? {
            None | Some(Value::Null) => Ok(None),
            Some(value) => self.0.read(value).map(Some),
        }
    }
}

/// For hand-written argument structs; `#[tool]` reads through [`PlainSeed`], picking the decoder
/// where it names the type.
impl<T: serde::de::DeserializeOwned> Param for Plain<T> {
    const EXPECTED: &'static str = "object";
    fn decode<'de, D: Deserializer<'de>>(
        d: D,
        at: &Path<'_>,
        meta: &ParamMeta,
        cx: &DecodeCx,
    ) -> Result<Self, D::Error> {
        PlainSeed::new(plain_decode::<T>, *at, meta, cx).deserialize(d)
    }
}

/// A `default` of a [`Plain`] parameter, read when the spec is built (`None`: it does not fit).
pub fn decode_default_plain<T>(decode: PlainDecode<T>, literal: &Literal) -> Option<Plain<T>> {
    decode(literal.to_value()).ok().map(Plain)
}

// ---- the argument object --------------------------------------------------------------------

/// The hidden argument struct of a `#[tool]`.
pub trait ArgsStruct: Sized {
    /// Parameter names (schema names), in declaration order.
    const NAMES: &'static [&'static str];
    /// Whether undeclared arguments are errors.
    const DENY_UNKNOWN: bool;
    /// One `Option` per parameter.
    type Slots: Default;
    /// Reads the value of parameter `index`.
    fn decode_field<'de, A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        index: usize,
        map: &mut A,
        cx: &DecodeCx,
    ) -> Result<(), A::Error>;
    /// Applies defaults; `Err(index)` names the first missing required parameter.
    fn finish(slots: Self::Slots) -> Result<Self, usize>;
    /// The index of the parameter named `name` in [`NAMES`](Self::NAMES). `#[tool]` writes it as
    /// a `match` on the names, which the compiler turns into length checks and word compares.
    fn index_of(name: &str) -> Option<usize> {
        Self::NAMES.iter().position(|known| *known == name)
    }
    /// Stores a plain scalar the fast path read for parameter `index` ([`Param::from_flat`]);
    /// `false` when the parameter does not take it as it is, and the full decoder must read the
    /// arguments (text or value). The default takes nothing.
    fn decode_flat(slots: &mut Self::Slots, index: usize, value: Flat<'_>) -> bool {
        let _ = (slots, index, value);
        false
    }
}

enum Key {
    Known(usize),
    Unknown(String),
}

struct KeySeed<A>(PhantomData<A>);

impl<'de, A: ArgsStruct> DeserializeSeed<'de> for KeySeed<A> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, A: ArgsStruct> Visitor<'de> for KeySeed<A> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a parameter name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(match A::index_of(v) {
            Some(i) => Key::Known(i),
            None => Key::Unknown(v.to_owned()),
        })
    }
}

struct ArgsVisitor<'a, A> {
    cx: &'a DecodeCx,
    _a: PhantomData<A>,
}

impl<'de, A: ArgsStruct> Visitor<'de> for ArgsVisitor<'_, A> {
    type Value = A::Slots;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<A::Slots, M::Error> {
        let mut slots = A::Slots::default();
        while let Some(key) = map.next_key_seed(KeySeed::<A>(PhantomData))? {
            match key {
                Key::Known(i) => A::decode_field(&mut slots, i, &mut map, self.cx)?,
                Key::Unknown(name) if A::DENY_UNKNOWN => {
                    return Err(self.cx.fail(&Path::Param(&name), ArgsErrorKind::Unknown));
                }
                Key::Unknown(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(slots)
    }
    fn visit_unit<E: de::Error>(self) -> Result<A::Slots, E> {
        Ok(A::Slots::default())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<A::Slots, E> {
        Err(self.not_object())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<A::Slots, E> {
        Err(self.not_object())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<A::Slots, E> {
        Err(self.not_object())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<A::Slots, E> {
        Err(self.not_object())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<A::Slots, E> {
        Err(self.not_object())
    }
    fn visit_seq<S: SeqAccess<'de>>(self, _: S) -> Result<A::Slots, S::Error> {
        Err(self.not_object())
    }
}

impl<A> ArgsVisitor<'_, A> {
    fn not_object<E: de::Error>(&self) -> E {
        let mut slot = self.cx.error.borrow_mut();
        if slot.is_none() {
            *slot = Some((ArgsError::document(ArgsErrorKind::NotAnObject), Vec::new()));
        }
        E::custom("toolhook argument error")
    }
}

#[inline]
fn finish<A: ArgsStruct>(slots: A::Slots) -> Result<A, ArgsError> {
    A::finish(slots).map_err(|i| ArgsError::new(A::NAMES[i].to_owned(), ArgsErrorKind::Missing))
}

/// The most integers beyond 2^53 read exactly from one arguments text.
const MAX_EXACT_INTEGERS: usize = 32;

/// Decodes arguments text; empty text and `null` mean `{}`.
///
/// Integers are exact: one too large for a float is read again from the text (for an integer
/// parameter), and an error quotes a number as compact JSON, or as the model wrote it where compact
/// JSON would show another number.
pub fn decode_text<A: ArgsStruct>(text: &str) -> Result<A, ArgsError> {
    // Blank text is `{}`; `trim_start` stops at the first character that is not blank.
    if text.trim_start().is_empty() {
        return finish::<A>(A::Slots::default());
    }
    // An object of plain scalars is read without serde; anything else (and every error) is
    // read by the pass below, from the start.
    if let Some(slots) = flat::decode_text::<A>(text) {
        return finish::<A>(slots);
    }
    decode_text_fully(text)
}

/// [`decode_text`] without its fast path: serde reads the whole text.
fn decode_text_fully<A: ArgsStruct>(text: &str) -> Result<A, ArgsError> {
    // One context for every pass (a pass that failed only for an integer that lost digits in a
    // float runs again with the integer read from the text, in `exact`). Built in place once:
    // moving the list into a new context per pass stalled every call's first pass on reading
    // back the list's fields just written.
    let mut cx = DecodeCx::default();
    loop {
        let mut de = serde_json::Deserializer::from_str(text);
        let slots = de
            .deserialize_any(ArgsVisitor::<A> { cx: &cx, _a: PhantomData })
            .and_then(|slots| de.end().map(|()| slots));
        let json_error = match slots {
            Ok(slots) => return finish::<A>(slots),
            Err(e) => e,
        };
        let Some((mut error, segs)) = cx.error.take() else {
            return Err(ArgsError::document(ArgsErrorKind::InvalidJson(json_error.to_string())));
        };
        let raw = locate(text, &segs).filter(|raw| is_number_literal(raw));
        if let (Some(rust_type), Some(raw)) = (cx.wants_exact.take(), raw) {
            match parse_exact_integer(raw) {
                ExactInt::Value(n) if cx.exact.len() < MAX_EXACT_INTEGERS => {
                    cx.exact.push((segs, n));
                    continue;
                }
                ExactInt::Value(_) => {}
                ExactInt::TooLarge => error.kind = ArgsErrorKind::OutOfRange { value: quoted_number(raw), rust_type },
                ExactInt::NotInteger => {
                    let actual = format!("number {}", quoted_number(raw));
                    error.kind = ArgsErrorKind::WrongType { expected: "integer", actual };
                }
            }
        }
        if let Some(raw) = raw {
            error.requote_number(raw);
        }
        return Err(error);
    }
}

/// Decodes an arguments value; `null` means `{}`.
pub fn decode_value<A: ArgsStruct>(value: &Value) -> Result<A, ArgsError> {
    // An object of plain scalars is read without serde, as text is.
    if let Some(slots) = flat::decode_value::<A>(value) {
        return finish::<A>(slots);
    }
    decode_value_fully(value)
}

/// [`decode_value`] without its fast path.
fn decode_value_fully<A: ArgsStruct>(value: &Value) -> Result<A, ArgsError> {
    let cx = DecodeCx::default();
    match value.deserialize_any(ArgsVisitor::<A> { cx: &cx, _a: PhantomData }) {
        Ok(slots) => finish::<A>(slots),
        Err(e) => Err(cx.take().unwrap_or_else(|| ArgsError::document(ArgsErrorKind::Other(e.to_string())))),
    }
}

/// Decodes a call's arguments, text or value.
#[inline]
pub fn decode<A: ArgsStruct>(arguments: &ToolArguments) -> Result<A, ArgsError> {
    match arguments {
        ToolArguments::Text(text) => decode_text(text),
        ToolArguments::Value(value) => decode_value(value),
    }
}

/// How deeply arrays and objects nest in JSON text (the top-level object is 1); stops counting
/// once past `limit`. Strings are skipped, so brackets inside them do not count.
pub fn json_depth_exceeds(text: &str, limit: usize) -> bool {
    // Depth cannot exceed the number of opening brackets, nor the length; counting them is a
    // vectorised pass, and most arguments are too short to need it.
    if text.len() <= limit || text.bytes().filter(|&b| b == b'{' || b == b'[').count() <= limit {
        return false;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Whether a value is nested deeper than `limit` (the top-level object or array is 1). Walks the
/// value without recursion, so a host-built value of any depth is measured safely.
pub fn value_depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        match value {
            Value::Array(_) | Value::Object(_) if depth > limit => return true,
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|child| (child, depth + 1))),
            _ => {}
        }
    }
    false
}

/// Drops a value without recursion (dropping a deeply nested `Value` the usual way recurses
/// once per level and can overflow a thread's stack).
pub fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Decodes a `#[param(default = …)]` literal into the parameter type (when the model left the
/// parameter out or sent `null`).
pub fn decode_default<P: Param>(literal: &Literal) -> Option<P> {
    static META: ParamMeta = ParamMeta { rust_type: "", allowed: None, outer: None };
    let cx = DecodeCx::default();
    P::decode(&literal.to_value(), &Path::Param("default"), &META, &cx).ok()
}

#[cfg(test)]
mod tests {
    use super::{quoted_number, same_decimal};

    #[test]
    fn numbers_are_quoted_as_compact_json_when_that_is_the_same_number() {
        assert_eq!(quoted_number("2.50"), "2.5");
        assert_eq!(quoted_number("1E3"), "1000.0");
        assert_eq!(quoted_number("1e20"), "1e+20");
        assert_eq!(quoted_number("-0.000010"), "-0.00001");
        assert_eq!(quoted_number("300"), "300");
        // A float would show another number: the literal as written.
        assert_eq!(quoted_number("18446744073709551617"), "18446744073709551617");
        assert_eq!(quoted_number("12345678901234567890.5"), "12345678901234567890.5");
        assert_eq!(quoted_number("1e400"), "1e400");
    }

    #[test]
    fn decimals_compare_by_value() {
        assert!(same_decimal("1000.0", "1e3"));
        assert!(same_decimal("0.0", "-0"));
        assert!(same_decimal("0.0", "0e99999999999999999999"));
        assert!(same_decimal("2.5", "250e-2"));
        assert!(!same_decimal("1.8446744073709552e+19", "18446744073709551616"));
        assert!(!same_decimal("-1", "1"));
        assert!(!same_decimal("1e9223372036854775807", "10e9223372036854775807"));
    }
}
