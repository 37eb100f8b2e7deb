//! Specs for the schema and parameter-doc rule tests (included with `#[path]` by each): built
//! from a parameter list or a raw schema, or declared with `#[tool]`; and what they show.

use serde_json::{Map, Value};
use toolhook::{DeclaredTool, Locale, ToolParameterInfo, ToolSpec};

/// Compact JSON text.
pub(crate) fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

/// A JSON object's map.
pub(crate) fn map(value: Value) -> Map<String, Value> {
    value.as_object().expect("an object").clone()
}

/// A spec with these parameters (list form).
pub(crate) fn listed(name: &str, parameters: Vec<ToolParameterInfo>) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Brief.")
        .parameters(parameters)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A spec with this parameters schema (raw form).
pub(crate) fn raw(name: &str, schema: Value) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Brief.")
        .parameters_raw(schema)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The spec of the `#[tool]` named `name` in this test binary.
pub(crate) fn declared(name: &str) -> ToolSpec {
    DeclaredTool::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .spec()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `[English, Simplified Chinese]` detailed texts.
pub(crate) fn docs(spec: &ToolSpec) -> [String; 2] {
    [spec.detailed_description(Locale::En).to_owned(), spec.detailed_description(Locale::ZhHans).to_owned()]
}
