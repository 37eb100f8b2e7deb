//! The deprecated `#[action]`: it registers a tool exactly as `ToolSpec::from_action` builds one,
//! and receives what the Python SDK's legacy path passed.
#![allow(deprecated)]

use serde_json::{Value, json};
use toolhook::{
    ActionInfo, DeclaredTool, LegacyActionContext, Locale, ToolExecutionContext, ToolInvocation, ToolSpec, action,
};
use toolhook_runtime::{PluginState, PluginToolProvider, PluginToolsSpec, Source, ToolRegistry};

fn declared(name: &str) -> ToolSpec {
    DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap().spec().unwrap()
}

fn same(a: &ToolSpec, b: &ToolSpec) {
    assert_eq!(serde_json::to_string_pretty(a).unwrap(), serde_json::to_string_pretty(b).unwrap());
    assert_eq!(a.parameters_schema_for(Locale::ZhHans), b.parameters_schema_for(Locale::ZhHans));
}

/// Mirrors the `action_full` vector.
#[action(
    name = "poke",
    description = "戳一戳用户",
    activation_type = "keyword",
    activation_keywords = ["戳", "poke"],
    activation_probability = 0.3,
    chat_mode = "focus",
    action_require = ["用户明确要求时使用", "不要连续使用"],
    associated_types = ["text", "emoji"],
    parallel_action = true,
    action_prompt = "当用户想互动时"
)]
async fn poke(
    /// 被戳的用户 ID
    target: Option<String>,
    #[param(description = "次数")] times: Option<String>,
    call: &ToolInvocation,
) -> Value {
    let _ = (target, times);
    call.arguments.to_value().unwrap()
}

#[test]
fn an_action_equals_from_action_of_the_same_declaration() {
    let info: ActionInfo = serde_json::from_value(json!({
        "name": "poke", "description": "戳一戳用户", "activation_type": "keyword",
        "activation_keywords": ["戳", "poke"], "activation_probability": 0.3, "chat_mode": "focus",
        "action_parameters": {"target": "被戳的用户 ID", "times": "次数"},
        "action_require": ["用户明确要求时使用", "不要连续使用"], "associated_types": ["text", "emoji"],
        "parallel_action": true, "action_prompt": "当用户想互动时"
    }))
    .unwrap();
    let expected = ToolSpec::from_action(info).unwrap();
    let spec = declared("poke");
    same(&spec, &expected);
    assert_eq!(
        spec.detailed_description(Locale::ZhHans),
        "参数说明：\n- target：string，可选。被戳的用户 ID\n- times：string，可选。次数\n\n使用建议：\n- 用户明确要求时使用\n- 不要连续使用\n\n适用消息类型：text、emoji。\n\n兼容旧 Action 激活方式：keyword。\n激活关键词：戳、poke。\n原始 Action 提示语：当用户想互动时。"
    );
    assert_eq!(spec.metadata()["legacy_component_type"], "ACTION");
}

/// 发送一个表情包
#[action(activation_type = "never", associated_types = ["emoji"])]
fn send_emoji(emotion: Option<String>, ctx: &LegacyActionContext) -> String {
    format!("{}|{}|{}", emotion.unwrap_or_default(), ctx.stream_id, ctx.reasoning)
}

#[test]
fn undocumented_parameters_get_the_legacy_fallback_text_per_locale() {
    let info: ActionInfo = serde_json::from_value(json!({
        "name": "send_emoji", "description": "发送一个表情包", "activation_type": "never",
        "action_parameters": {"emotion": ""}, "associated_types": ["emoji"]
    }))
    .unwrap();
    let spec = declared("send_emoji");
    same(&spec, &ToolSpec::from_action(info).unwrap());
    assert_eq!(spec.parameters_schema()["properties"]["emotion"]["description"], "Legacy action parameter");
    assert_eq!(
        spec.parameters_schema_for(Locale::ZhHans)["properties"]["emotion"]["description"],
        "兼容旧 Action 参数"
    );
}

fn provider() -> PluginToolProvider {
    let tools = DeclaredTool::all().into_iter().filter(|t| ["poke", "send_emoji"].contains(&t.name())).collect();
    PluginToolProvider::with_plugins(vec![PluginToolsSpec {
        id: "acme.tools".into(),
        source: Source::ThirdParty,
        state: PluginState::Loaded,
        tools,
    }])
    .unwrap()
}

#[tokio::test]
async fn an_action_receives_the_reference_legacy_argument_object() {
    let registry = ToolRegistry::default();
    registry.register_provider(provider());
    let ctx = ToolExecutionContext {
        session_id: "sess".into(),
        reasoning: "because".into(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    };
    let result = registry.invoke(ToolInvocation::new("poke", json!({"x": 1})), Some(&ctx)).await;
    assert_eq!(
        serde_json::to_string(result.structured_content().unwrap()).unwrap(),
        r#"{"x":1,"stream_id":"sess","chat_id":"sess","group_id":"g1","user_id":"u1","platform":"qq","reasoning":"because","action_data":{"x":1}}"#
    );
    let result = registry.invoke(ToolInvocation::new("send_emoji", json!({"emotion": "happy"})), Some(&ctx)).await;
    assert_eq!(result.content, "happy|sess|because");
}

#[tokio::test]
async fn the_host_case_of_legacy_action_arguments_holds() {
    let path = format!("{}/tests/vectors/host_cases.json", env!("CARGO_MANIFEST_DIR"));
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in all["cases"].as_array().unwrap().iter().filter(|c| c["feature"] == "plugins.arguments.legacy_action") {
        let registry = ToolRegistry::default();
        registry.register_provider(provider());
        let action = &case["action"]["invoke"];
        let ctx: ToolExecutionContext = serde_json::from_value(action["context"].clone()).unwrap();
        let call = ToolInvocation::new(action["tool_name"].as_str().unwrap(), action["arguments"].clone());
        let result = registry.invoke(call, Some(&ctx)).await;
        assert_eq!(
            serde_json::to_string(result.structured_content().unwrap()).unwrap(),
            serde_json::to_string(&case["expected"]["argument_object"]).unwrap(),
            "{}",
            case["case"]
        );
    }
}
