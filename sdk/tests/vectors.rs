//! Every case of `tests/vectors/{tools,actions,results}.json` (the parts this crate owns), and
//! of `tests/derived/` beside it: further cases of the same kinds, each worked out from the rules
//! its `note` quotes.

use serde_json::Value;
use toolhook::{ActionInfo, Locale, ToolExecutionResult, ToolParameterInfo, ToolSpec, ToolSpecError, Visibility};

/// The cases of `file`: the vectors', then the derived ones.
fn load(file: &str) -> Vec<Value> {
    ["vectors", "derived"]
        .into_iter()
        .flat_map(|dir| {
            let path = format!("{}/tests/{dir}/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            serde_json::from_str::<Vec<Value>>(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect()
}

fn json(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn build_from_input(input: &Value) -> Result<ToolSpec, String> {
    let mut b = ToolSpec::builder(input["name"].as_str().unwrap());
    for key in ["description", "brief_description", "detailed_description"] {
        if let Some(text) = input.get(key).and_then(Value::as_str) {
            b = match key {
                "description" => b.description(text),
                "brief_description" => b.brief_description(text),
                _ => b.detailed_description(text),
            };
        }
    }
    if let Some(list) = input.get("parameters") {
        let list: Vec<ToolParameterInfo> = serde_json::from_value(list.clone()).map_err(|e| e.to_string())?;
        b = b.parameters(list);
    }
    if let Some(raw) = input.get("parameters_raw") {
        b = b.parameters_raw(raw.clone());
    }
    if let Some(core) = input.get("core_tool").and_then(Value::as_bool) {
        b = b.core_tool(core);
    }
    if let Some(v) = input.get("visibility").and_then(Value::as_str) {
        b = b.visibility(v.parse::<Visibility>().map_err(|e| e.to_string())?);
    }
    if let Some(p) = input.get("platforms").and_then(Value::as_array) {
        b = b.platforms(p.iter().map(|p| p.as_str().unwrap().to_owned()));
    }
    if let Some(m) = input.get("metadata").and_then(Value::as_object) {
        for (k, v) in m {
            b = b.metadata(k.clone(), v.clone());
        }
    }
    b.build().map_err(|e: ToolSpecError| e.to_string())
}

fn check_texts(case: &str, spec: &ToolSpec, expected: &Value) {
    assert_eq!(spec.description(Locale::ZhHans), expected["description"], "{case}: description");
    assert_eq!(spec.description(Locale::En), expected["description_en"], "{case}: description_en");
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        expected["detailed_description_zh_hans"],
        "{case}: detailed zh-Hans"
    );
    assert_eq!(spec.detailed_description(Locale::En), expected["detailed_description_en"], "{case}: detailed en");
    assert_eq!(json(spec.parameters_schema()), json(&expected["parameters_schema"]), "{case}: schema");
    assert_eq!(spec.visibility().as_str(), expected["visibility"], "{case}: visibility");
    assert_eq!(spec.enabled(), expected["enabled"], "{case}: enabled");
    assert_eq!(json(&Value::Object(spec.metadata().clone())), json(&expected["metadata"]), "{case}: metadata");
}

#[test]
fn every_tools_vector_builds_as_expected() {
    let cases = load("tools.json");
    assert!(!cases.is_empty());
    for case in cases {
        let name = case["case"].as_str().unwrap();
        let built = build_from_input(&case["input"]);
        if case["expected"]["error"] == true {
            assert!(built.is_err(), "{name}: expected an error, got {built:?}");
            continue;
        }
        let spec = built.unwrap_or_else(|e| panic!("{name}: {e}"));
        check_texts(name, &spec, &case["expected"]);
        assert_eq!(
            json(&serde_json::to_value(spec.platforms()).unwrap()),
            json(&case["expected"]["platforms"]),
            "{name}"
        );
    }
}

#[test]
fn every_actions_vector_converts_as_expected() {
    for case in load("actions.json") {
        let name = case["case"].as_str().unwrap();
        let built = serde_json::from_value::<ActionInfo>(case["input"].clone())
            .map_err(|e| e.to_string())
            .and_then(|info| ToolSpec::from_action(info).map_err(|e| e.to_string()));
        if case["expected"]["error"] == true {
            assert!(built.is_err(), "{name}: expected an error");
            continue;
        }
        let spec = built.unwrap_or_else(|e| panic!("{name}: {e}"));
        check_texts(name, &spec, &case["expected"]);
        let zh = case["expected"].get("parameters_schema_zh_hans").unwrap_or(&case["expected"]["parameters_schema"]);
        assert_eq!(json(spec.parameters_schema_for(Locale::ZhHans)), json(zh), "{name}: zh-Hans schema");
    }
}

#[test]
fn every_results_vector_reads_and_renders_history_as_expected() {
    for case in load("results.json") {
        let name = case["case"].as_str().unwrap();
        let tool = case["tool_name"].as_str().unwrap();
        let expected = &case["expected"];
        let result = ToolExecutionResult::from_raw(tool, case["input"].clone());
        assert_eq!(result.tool_name, tool, "{name}");
        assert_eq!(result.success, expected["success"], "{name}: success");
        assert_eq!(result.content, expected["content"], "{name}: content");
        assert_eq!(result.error_message, expected["error_message"], "{name}: error_message");
        assert_eq!(result.stop_after_execution, expected["stop_after_execution"], "{name}: stop");
        let zh = ToolExecutionResult::from_raw_in(tool, case["input"].clone(), Locale::ZhHans);
        let zh_error = expected.get("error_message_zh_hans").unwrap_or(&expected["error_message"]);
        assert_eq!(zh.error_message, *zh_error, "{name}: zh-Hans error_message");
        assert_eq!(
            json(&serde_json::to_value(result.content_items()).unwrap()),
            json(&expected["content_items"]),
            "{name}: items"
        );
        assert_eq!(
            json(&result.structured_content().cloned().unwrap_or(Value::Null)),
            json(&expected["structured_content"]),
            "{name}: structured"
        );
        assert_eq!(result.history_content(Locale::ZhHans), expected["history_content_zh_hans"], "{name}: history zh");
        assert_eq!(
            zh.history_content(Locale::ZhHans),
            expected["history_content_zh_hans"],
            "{name}: history zh (zh read)"
        );
        assert_eq!(result.history_content(Locale::En), expected["history_content_en"], "{name}: history en");
    }
}
