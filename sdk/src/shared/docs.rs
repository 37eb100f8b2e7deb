//! Model-visible descriptions: the brief, and the detailed text with its generated
//! parameter block in each locale.

use super::locale::Locale;
use super::py::{is_truthy, py_str};
use serde_json::Value;

/// The zh-Hans header of the parameter block.
pub(crate) const HEADER_ZH: &str = "参数说明：";
/// The English header of the parameter block.
pub(crate) const HEADER_EN: &str = "Parameter details:";

/// The brief: the first non-blank of `brief_description`, `description` and the doc comment's
/// first paragraph, trimmed; else `Tool {name}` / `工具 {name}`.
pub(crate) fn brief(name: &str, candidates: &[Option<&str>], locale: Locale) -> String {
    candidates
        .iter()
        .flatten()
        .map(|text| text.trim())
        .find(|text| !text.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| fallback_brief(name, locale))
}

/// `Tool {name}` / `工具 {name}`.
pub(crate) fn fallback_brief(name: &str, locale: Locale) -> String {
    match locale {
        Locale::En => format!("Tool {name}"),
        Locale::ZhHans => format!("工具 {name}"),
    }
}

/// The detailed description: author text that already starts with a block header is used as is;
/// otherwise the parameter block (when the schema has a documented property), a blank line, and the
/// author text when non-empty. Trimmed. `documented` names the properties whose enum values carry
/// docs of their own (see [`parameter_block`]).
pub(crate) fn detailed(schema: &Value, author_text: &str, locale: Locale, documented: &[String]) -> String {
    let author_text = author_text.trim();
    if author_text.starts_with(HEADER_ZH) || author_text.starts_with(HEADER_EN) {
        return author_text.to_owned();
    }
    match parameter_block(schema, locale, documented) {
        Some(block) if author_text.is_empty() => block.trim().to_owned(),
        Some(block) => format!("{block}\n\n{author_text}").trim().to_owned(),
        None => author_text.to_owned(),
    }
}

/// The generated parameter block: the header, then one line per top-level property whose schema is
/// an object, in schema order. `None` when there is no such property.
///
/// A description is shown as written, except for the properties named in `documented`: those
/// are Rust enums whose variants have doc comments, which their description lists as
/// `- value: doc` lines, and the block shows each value's doc beside the value instead.
pub(crate) fn parameter_block(schema: &Value, locale: Locale, documented: &[String]) -> Option<String> {
    let properties = schema.get("properties")?.as_object()?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut lines = Vec::with_capacity(properties.len() + 1);
    lines.push(locale.pick(HEADER_EN, HEADER_ZH).to_owned());
    for (key, prop) in properties {
        let Some(prop) = prop.as_object() else {
            continue;
        };
        let name = key.trim();
        let is_required = required.contains(&name);
        let enum_values = prop.get("enum").and_then(Value::as_array).filter(|values| !values.is_empty());
        let (description, value_docs) = match documented.iter().any(|d| d == key) {
            true => split_value_docs(prop.get("description"), enum_values),
            false => (prop.get("description").cloned(), Vec::new()),
        };
        let line = PropertyLine {
            name,
            type_name: type_name(prop.get("type"), locale),
            required: is_required,
            description: description.as_ref(),
            enum_values,
            value_docs,
            default: prop.get("default"),
        };
        lines.push(line.render(locale));
    }
    (lines.len() > 1).then(|| lines.join("\n"))
}

struct PropertyLine<'a> {
    name: &'a str,
    type_name: String,
    required: bool,
    description: Option<&'a Value>,
    enum_values: Option<&'a Vec<Value>>,
    /// The documented values' docs (`- value: doc` lines of an enum's description), by value.
    value_docs: Vec<(String, String)>,
    default: Option<&'a Value>,
}

/// Splits the `- value: doc` lines a documented enum's description ends with from the rest, so
/// the block shows each value's doc beside it rather than as lines of their own.
fn split_value_docs(
    description: Option<&Value>,
    values: Option<&Vec<Value>>,
) -> (Option<Value>, Vec<(String, String)>) {
    let (Some(Value::String(text)), Some(values)) = (description, values) else {
        return (description.cloned(), Vec::new());
    };
    let mut own = Vec::new();
    let mut docs = Vec::new();
    for line in text.lines() {
        match crate::shared::schema::value_doc(line, values) {
            Some((value, doc)) => docs.push((value.to_owned(), doc.trim().trim_end_matches('.').to_owned())),
            None => own.push(line),
        }
    }
    if docs.is_empty() {
        return (description.cloned(), docs);
    }
    (Some(Value::from(own.join("\n"))), docs)
}

impl PropertyLine<'_> {
    fn doc_of(&self, value: &Value) -> Option<&str> {
        let value = value.as_str()?;
        self.value_docs.iter().find(|(v, _)| v == value).map(|(_, doc)| doc.as_str())
    }

    fn render(&self, locale: Locale) -> String {
        match locale {
            Locale::ZhHans => self.render_zh(),
            Locale::En => self.render_en(),
        }
    }

    fn render_zh(&self) -> String {
        let mut line =
            format!("- {}：{}，{}。", self.name, self.type_name, if self.required { "必填" } else { "可选" });
        let description = match self.description.filter(|d| is_truthy(d)) {
            Some(d) => py_str(d).trim().to_owned(),
            None => String::new(),
        };
        line.push_str(if description.is_empty() { "无额外说明" } else { &description });
        if let Some(values) = self.enum_values {
            let values: Vec<String> = values
                .iter()
                .map(|v| match self.doc_of(v) {
                    Some(doc) => format!("{}（{doc}）", py_str(v)),
                    None => py_str(v),
                })
                .collect();
            line.push_str(" 可选值：");
            line.push_str(&values.join("、"));
            line.push('。');
        }
        if let Some(default) = self.default {
            line.push_str(" 默认值：");
            line.push_str(&py_str(default));
            line.push('。');
        }
        line
    }

    fn render_en(&self) -> String {
        let description = match self.description.filter(|d| is_truthy(d)) {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let description = description.trim();
        let description = description.strip_suffix('.').unwrap_or(description).trim();
        let mut parts = vec![if description.is_empty() { "No description".to_owned() } else { description.to_owned() }];
        if let Some(values) = self.enum_values {
            let values: Vec<String> = values
                .iter()
                .map(|v| match self.doc_of(v) {
                    Some(doc) => format!("{} ({doc})", en_value(v)),
                    None => en_value(v),
                })
                .collect();
            parts.push(format!("Allowed values: {}", values.join(", ")));
        }
        if let Some(default) = self.default {
            parts.push(format!("Default: {}", en_value(default)));
        }
        format!(
            "- {}: {}, {}. {}",
            self.name,
            self.type_name,
            if self.required { "required" } else { "optional" },
            parts.join(". ")
        )
    }
}

/// The type shown in a block line: a string `type` trimmed and lower-cased; `string` when missing,
/// falsy or blank; any other value rendered (zh-Hans PyStr, English compact JSON) and lower-cased.
fn type_name(ty: Option<&Value>, locale: Locale) -> String {
    match ty {
        Some(Value::String(t)) if !t.trim().is_empty() => t.trim().to_lowercase(),
        // A blank string is truthy to Python, but "blank" is one of the cases that mean `string`.
        Some(Value::String(_)) => "string".to_owned(),
        Some(other) if is_truthy(other) => match locale {
            Locale::ZhHans => py_str(other).to_lowercase(),
            Locale::En => other.to_string().to_lowercase(),
        },
        _ => "string".to_owned(),
    }
}

/// A value in an English block line: strings bare (`""` for the empty string), others compact JSON.
fn en_value(value: &Value) -> String {
    match value {
        Value::String(text) if text.is_empty() => "\"\"".to_owned(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn block_lines_match_the_spec_examples() {
        let schema = json!({"type": "object", "properties": {
            "limit": {"type": "integer", "description": "Maximum number of results to return", "default": 5},
            "unit": {"type": "string", "description": "温度单位", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            "eps": {"type": "number", "description": "精度", "default": 1e-05},
            "q": {"type": "string"},
        }, "required": ["q"]});
        assert_eq!(
            parameter_block(&schema, Locale::ZhHans, &[]).unwrap(),
            "参数说明：\n- limit：integer，可选。Maximum number of results to return 默认值：5。\n- unit：string，可选。温度单位 可选值：celsius、fahrenheit。 默认值：celsius。\n- eps：number，可选。精度 默认值：1e-05。\n- q：string，必填。无额外说明"
        );
        assert_eq!(
            parameter_block(&schema, Locale::En, &[]).unwrap(),
            "Parameter details:\n- limit: integer, optional. Maximum number of results to return. Default: 5\n- unit: string, optional. 温度单位. Allowed values: celsius, fahrenheit. Default: celsius\n- eps: number, optional. 精度. Default: 0.00001\n- q: string, required. No description"
        );
    }

    #[test]
    fn author_text_follows_the_block_or_replaces_it() {
        let schema = json!({"type": "object", "properties": {
            "text": {"type": "string", "description": "原文"},
            "target": {"type": "string", "description": "目标语言", "enum": ["zh", "en"], "default": "zh"},
        }, "required": ["text"]});
        assert_eq!(
            detailed(&schema, "  注意：仅支持中英互译。\n", Locale::ZhHans, &[]),
            "参数说明：\n- text：string，必填。原文\n- target：string，可选。目标语言 可选值：zh、en。 默认值：zh。\n\n注意：仅支持中英互译。"
        );
        assert_eq!(detailed(&schema, "Parameter details: by hand", Locale::ZhHans, &[]), "Parameter details: by hand");
        assert_eq!(detailed(&json!({"properties": {}}), " only text ", Locale::En, &[]), "only text");
    }

    #[test]
    fn odd_types_and_null_defaults_are_rendered() {
        let schema = json!({"properties": {
            "a": {"type": ["string", "null"], "default": null, "description": 7},
            "b": {"type": "  INTEGER ", "description": false},
            "c": 5,
            "d": {"type": "  ", "description": "blank type"},
        }});
        assert_eq!(
            parameter_block(&schema, Locale::ZhHans, &[]).unwrap(),
            "参数说明：\n- a：['string', 'null']，可选。7 默认值：None。\n- b：integer，可选。无额外说明\n- d：string，可选。blank type"
        );
        assert_eq!(
            parameter_block(&schema, Locale::En, &[]).unwrap(),
            "Parameter details:\n- a: [\"string\",\"null\"], optional. 7. Default: null\n- b: integer, optional. No description\n- d: string, optional. blank type"
        );
    }

    #[test]
    fn a_padded_key_is_shown_and_looked_up_in_required_by_its_trimmed_name() {
        let schema = json!({"properties": {
            " a ": {"type": "string"},
            " b": {"type": "string"},
        }, "required": [" a ", "b"]});
        assert_eq!(
            parameter_block(&schema, Locale::En, &[]).unwrap(),
            "Parameter details:\n- a: string, optional. No description\n- b: string, required. No description"
        );
    }

    #[test]
    fn brief_falls_back_to_the_name() {
        assert_eq!(brief("t", &[Some("  "), None, Some(" doc ")], Locale::En), "doc");
        assert_eq!(brief("t", &[None], Locale::ZhHans), "工具 t");
    }
}
