//! Definitions of tools with the user types authors write: recursive types stay in `$defs`,
//! strict dialects get fillable schemas, Gemini gets its subset, variant docs reach every dialect.

use serde_json::{Value, json};
use toolhook::{DeclaredTool, Dialect, Locale, schemars, serde, tool};

/// A node of an outline.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Section {
    /// The heading.
    pub title: String,
    /// Sections below it.
    #[serde(default)]
    pub children: Vec<Section>,
}

/// How urgent.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "lowercase")]
#[schemars(crate = "toolhook::schemars")]
pub enum Urgency {
    /// Today.
    High,
    /// This week.
    Low,
}

/// Saves an outline.
#[tool]
fn save_outline(
    /// The outline's root.
    root: Section,
    /// How urgent it is.
    urgency: Urgency,
) -> usize {
    fn count(s: &Section) -> usize {
        1 + s.children.iter().map(count).sum::<usize>()
    }
    let _ = urgency;
    count(&root)
}

fn definition(dialect: Dialect) -> Value {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "save_outline").unwrap();
    tool.spec().unwrap().llm_definition(dialect, Locale::En).unwrap()
}

fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if key == "$ref" {
                    out.push(item.as_str().unwrap().to_owned());
                }
                refs(item, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
        _ => {}
    }
}

#[test]
fn a_recursive_type_is_a_definition_referred_to_by_name() {
    let schema = &definition(Dialect::Neutral)["parameters_schema"];
    let mut found = Vec::new();
    refs(schema, &mut found);
    assert!(!found.is_empty() && found.iter().all(|r| r == "#/$defs/Section"), "{found:?}");
    assert_eq!(schema["$defs"]["Section"]["properties"]["children"]["items"], json!({"$ref": "#/$defs/Section"}));
    for dialect in [Dialect::OpenAiChatStrict, Dialect::Anthropic, Dialect::Mcp] {
        let mut found = Vec::new();
        refs(&definition(dialect), &mut found);
        assert!(found.iter().all(|r| r == "#/$defs/Section"), "{dialect}: {found:?}");
    }
    let mut found = Vec::new();
    refs(&definition(Dialect::Gemini), &mut found);
    assert!(found.is_empty(), "gemini inlines: {found:?}");
}

#[test]
fn variant_docs_reach_every_dialect() {
    for dialect in Dialect::ALL {
        let text = definition(dialect).to_string();
        assert!(text.contains("- high: Today.") && text.contains("- low: This week."), "{dialect}: {text}");
    }
    let urgency = &definition(Dialect::Neutral)["parameters_schema"]["properties"]["urgency"];
    assert_eq!(urgency["enum"], json!(["high", "low"]));
    assert_eq!(urgency["description"], "How urgent it is.\n- high: Today.\n- low: This week.");
}

#[test]
fn the_parameter_docs_show_each_value_with_its_doc() {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "save_outline").unwrap();
    let spec = tool.spec().unwrap();
    let en = spec.detailed_description(Locale::En);
    assert!(
        en.contains("- urgency: string, required. How urgent it is. Allowed values: high (Today), low (This week)"),
        "{en}"
    );
    let zh = spec.detailed_description(Locale::ZhHans);
    assert!(zh.contains("可选值：high（Today）、low（This week）。"), "{zh}");
}

/// A description an author wrote is shown as written, even when its lines look like a value's doc:
/// only a Rust enum's variant docs are shown beside the values.
#[test]
fn an_authors_description_is_shown_as_written() {
    let unit = toolhook::ToolParameterInfo::new("unit", toolhook::ToolParamType::String)
        .description("Unit\n- celsius: metric")
        .enum_values(["celsius", "fahrenheit"]);
    let spec = toolhook::ToolSpec::builder("temperature").parameters(vec![unit]).build().unwrap();
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        "参数说明：\n- unit：string，必填。Unit\n- celsius: metric 可选值：celsius、fahrenheit。"
    );
    assert_eq!(
        spec.detailed_description(Locale::En),
        "Parameter details:\n- unit: string, required. Unit\n- celsius: metric. Allowed values: celsius, fahrenheit"
    );
}

/// What the outline tool reports.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Report {
    /// Sections counted.
    pub sections: usize,
    /// A note, when there is one.
    pub note: Option<String>,
}

/// Reports on an outline.
#[tool]
fn outline_report(
    /// The outline's root.
    root: Section,
) -> toolhook::Json<Report> {
    toolhook::Json(Report { sections: 1 + root.children.len(), note: None })
}

#[test]
fn an_optional_output_field_takes_the_null_serde_writes() {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "outline_report").unwrap();
    let spec = tool.spec().unwrap();
    let note = &spec.output_schema().unwrap()["properties"]["note"];
    assert_eq!(note["type"], json!(["string", "null"]), "{note}");
}

/// Finds a train.
#[tool(description_zh_hans = "查找火车班次。", detailed_description_zh_hans = "只查今天的班次。")]
fn find_train(
    /// Where from.
    #[param(description_zh_hans = "出发站。")]
    from: String,
    /// How urgent.
    urgency: Urgency,
) -> String {
    let _ = urgency;
    from
}

/// Finds a bus.
///
/// Only today's buses.
#[tool(description_zh_hans = "查找公交。")]
fn find_bus(
    /// Where from.
    #[param(description_zh_hans = "出发站。")]
    from: String,
) -> String {
    from
}

#[test]
fn an_author_gives_zh_hans_text_for_a_tool_and_its_parameters() {
    for name in ["find_train", "find_bus"] {
        let tool = DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap();
        let spec = tool.spec().unwrap();
        let zh = spec.llm_definition(Dialect::OpenAiChat, Locale::ZhHans).unwrap();
        assert!(zh["function"]["description"].as_str().unwrap().starts_with("查找"), "{zh}");
        assert_eq!(zh["function"]["parameters"]["properties"]["from"]["description"], "出发站。");
        let en = spec.llm_definition(Dialect::OpenAiChat, Locale::En).unwrap();
        assert_eq!(en["function"]["parameters"]["properties"]["from"]["description"], "Where from.");
        assert!(spec.detailed_description(Locale::ZhHans).contains("- from：string，必填。出发站。"), "{name}");
    }
    let train = DeclaredTool::all().into_iter().find(|t| t.name() == "find_train").unwrap().spec().unwrap();
    assert!(train.detailed_description(Locale::ZhHans).ends_with("只查今天的班次。"));
    let bus = DeclaredTool::all().into_iter().find(|t| t.name() == "find_bus").unwrap().spec().unwrap();
    assert!(bus.detailed_description(Locale::En).ends_with("Only today's buses."));
}

/// Spreads work over some days.
#[tool]
fn spread_work(
    /// How many days.
    #[param(enum = [4, 5, 6], default = 5)]
    days: u8,
) -> String {
    format!("{days} days")
}

#[tokio::test]
async fn gemini_sends_a_parameters_enum_of_numbers_as_strings_the_tool_reads_back() {
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "spread_work").unwrap();
    let gemini = tool.spec().unwrap().llm_definition(Dialect::Gemini, Locale::En).unwrap();
    let properties = &gemini["parameters"]["properties"];
    assert_eq!(properties["days"]["type"], "string");
    assert_eq!(properties["days"]["enum"], json!(["4", "5", "6"]));
    assert_eq!(properties["days"]["default"], "5");
    // What a model filling that schema sends decodes to the numbers.
    let call = toolhook::ToolInvocation::new("spread_work", r#"{"days": "4"}"#);
    let outcome = match tool.registration().invoker {
        toolhook::__private::Invoker::Async(f) => f(None, call, None, Locale::En, None).await,
        toolhook::__private::Invoker::Sync(f) => f(None, call, None, Locale::En, None),
    };
    assert_eq!(outcome.unwrap().content, "4 days");
}
