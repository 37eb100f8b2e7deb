//! Value renderings of the Python SDK's host: how Python prints a value, so that the
//! zh-Hans texts stay byte-exact, plus JSON truthiness.

use serde_json::Value;
use std::fmt::Write as _;

/// JSON truthiness as Python reads it: `null`, `false`, `0`, `0.0`, `""`, `[]` and `{}` are
/// falsy; everything else is truthy.
pub(crate) fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// PyStr: a string renders as itself, anything else as [`py_repr`].
pub(crate) fn py_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

/// PyRepr: `None`, `True`, `False`, decimal integers, [`py_float`], quoted strings, `[a, b]` and
/// `{'k': v}`.
pub(crate) fn py_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value);
    out
}

fn write_repr(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str_repr(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str_repr(out, key);
                out.push_str(": ");
                write_repr(out, item);
            }
            out.push('}');
        }
    }
}

fn write_number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        out.push_str(&py_float(f));
    }
}

/// Python's `repr(str)`: single quotes unless the text holds `'` and no `"`.
fn write_str_repr(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let code = c as u32;
                let _ = if code < 0x100 {
                    write!(out, "\\x{code:02x}")
                } else if code < 0x10000 {
                    write!(out, "\\u{code:04x}")
                } else {
                    write!(out, "\\U{code:08x}")
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character: not in Cc, Cf, Cs, Co, Cn, Zl, Zp, or Zs other
/// than the ASCII space.
fn is_printable(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    if c == ' ' {
        return true;
    }
    !matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
    )
}

/// PyFloat: Python's `repr(float)`. Shortest round-trip digits; fixed notation with at least one
/// fractional digit when the decimal exponent x of the first digit is in −4 ≤ x < 16, otherwise
/// `d[.ddd]e±XX`.
pub(crate) fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_owned();
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f == 0.0 {
        return format!("{sign}0.0");
    }
    // Rust's `{:e}` prints the shortest digits that round-trip, e.g. `1.2345e-5`, `1e16`.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::from(sign);
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', int_len - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    }
    out
}

/// PyJson: JSON with the separators `, ` and `: `, non-ASCII raw, control characters escaped as
/// serde_json escapes them, floats as [`py_float`] (Python's `json.dumps(v, ensure_ascii=False)`).
pub(crate) fn py_json(value: &Value) -> String {
    let mut out = String::new();
    write_py_json(&mut out, value);
    out
}

fn write_py_json(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_json_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_py_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_json_str(out, key);
                out.push_str(": ");
                write_py_json(out, item);
            }
            out.push('}');
        }
    }
}

fn write_json_str(out: &mut String, s: &str) {
    // A `String` always serialises; the fallback keeps this total without a panic path.
    match serde_json::to_string(s) {
        Ok(text) => out.push_str(&text),
        Err(_) => out.push_str("\"\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_render_like_python_repr() {
        let cases = [
            (1.0, "1.0"),
            (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (123456789012345678.0, "1.2345678901234568e+17"),
            (0.1, "0.1"),
            (2.5, "2.5"),
            (-3.25, "-3.25"),
            (1e15, "1000000000000000.0"),
            (1e22, "1e+22"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (-0.0, "-0.0"),
            (12345.678, "12345.678"),
        ];
        for (f, expected) in cases {
            assert_eq!(py_float(f), expected, "{f}");
        }
    }

    #[test]
    fn repr_matches_python_for_containers_and_quotes() {
        let v = json!({"k": [1, 2.0, true, null, "a"], "it's": "say \"hi\""});
        assert_eq!(py_repr(&v), r#"{'k': [1, 2.0, True, None, 'a'], "it's": 'say "hi"'}"#);
        assert_eq!(py_repr(&json!("it's")), r#""it's""#);
        assert_eq!(py_repr(&json!("both ' and \"")), r#"'both \' and "'"#);
        assert_eq!(py_repr(&json!("tab\tnl\nbs\\")), r#"'tab\tnl\nbs\\'"#);
        assert_eq!(py_repr(&json!("\u{7}\u{200b}\u{3000}中文\u{10ffff}")), r#"'\x07\u200b\u3000中文\U0010ffff'"#);
    }

    #[test]
    fn py_str_leaves_strings_bare() {
        assert_eq!(py_str(&json!("a b")), "a b");
        assert_eq!(py_str(&json!(["a", "b"])), "['a', 'b']");
        assert_eq!(py_str(&json!(false)), "False");
    }

    #[test]
    fn py_json_uses_python_separators_and_floats() {
        let v = json!({"v": 1e-05, "w": 1.0, "名字": "小明", "c": "\u{1}"});
        assert_eq!(py_json(&v), "{\"v\": 1e-05, \"w\": 1.0, \"名字\": \"小明\", \"c\": \"\\u0001\"}");
    }

    #[test]
    fn truthiness_follows_the_reference() {
        for falsy in [json!(null), json!(false), json!(0), json!(0.0), json!(""), json!([]), json!({})] {
            assert!(!is_truthy(&falsy), "{falsy}");
        }
        for truthy in [json!(true), json!(1), json!(-0.5), json!("false"), json!([0]), json!({"a": null})] {
            assert!(is_truthy(&truthy), "{truthy}");
        }
    }
}
