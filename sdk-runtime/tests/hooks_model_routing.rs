//! The model-routing scenario end to end: a plugin lets the planner model choose how hard the replyer works,
//! with two typed blocking handlers on catalogue hooks, fired through a dispatcher that validates
//! their changes against the catalogue schemas.

use serde_json::{Value, json};
use std::sync::OnceLock;
use toolhook::hooks::payload::{MaisakaPlannerBeforeRequest, MaisakaReplyerBeforeRequest};
use toolhook::hooks::{HookOutcome, MAISAKA_PLANNER_BEFORE_REQUEST, MAISAKA_REPLYER_BEFORE_REQUEST};
use toolhook::{DeclaredHookHandler, hook_handler};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry};

/// The plugin's config: the model deep replies use.
static STRONG_MODEL: OnceLock<String> = OnceLock::new();

const DEEP_INSTRUCTION: &str = "Reason step by step before you reply; accuracy matters more than speed.";

/// Offers the planner a `thinking_level` argument on the `reply` tool.
#[hook_handler("maisaka.planner.before_request")]
async fn offer_thinking_level(mut request: MaisakaPlannerBeforeRequest) -> HookOutcome<MaisakaPlannerBeforeRequest> {
    let reply = request.tool_definitions.iter_mut().find(|d| d.pointer("/function/name") == Some(&json!("reply")));
    if let Some(properties) =
        reply.and_then(|d| d.pointer_mut("/function/parameters/properties")).and_then(Value::as_object_mut)
    {
        properties.insert(
            "thinking_level".to_owned(),
            json!({
                "type": "string",
                "enum": ["normal", "deep"],
                "description": "How carefully to reply: pick `deep` for replies that need careful reasoning, else `normal`."
            }),
        );
    }
    HookOutcome::modify(request)
}

/// Sends deep replies to the stronger model, with an instruction to reason carefully.
#[hook_handler("maisaka.replyer.before_request", order = "early")]
async fn route_by_thinking_level(mut request: MaisakaReplyerBeforeRequest) -> HookOutcome<MaisakaReplyerBeforeRequest> {
    if request.reply_tool_args.get("thinking_level").and_then(Value::as_str) != Some("deep") {
        return HookOutcome::proceed();
    }
    request.model_name = STRONG_MODEL.get().cloned().unwrap_or_default();
    if !request.extra_prompt.is_empty() {
        request.extra_prompt.push('\n');
    }
    request.extra_prompt.push_str(DEEP_INSTRUCTION);
    HookOutcome::modify(request)
}

fn dispatcher() -> HookDispatcher {
    STRONG_MODEL.get_or_init(|| "strong-model-1".to_owned());
    let dispatcher = HookDispatcher::new();
    let entries: Vec<HookHandlerEntry> = DeclaredHookHandler::all()
        .into_iter()
        .filter(|h| ["offer_thinking_level", "route_by_thinking_level"].contains(&h.name()))
        .map(|h| HookHandlerEntry::from_declared(h, None))
        .collect();
    assert_eq!(entries.len(), 2);
    dispatcher.register_plugin(env!("CARGO_PKG_NAME"), Source::ThirdParty, entries).unwrap();
    dispatcher
}

fn function(name: &str, properties: Value) -> Value {
    json!({"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": properties}}})
}

fn planner_request() -> Value {
    json!({
        "items": [{"role": "user", "content": "why is the sky blue?"}],
        "item_schema_version": 2,
        "tool_definitions": [
            function("no_reply", json!({})),
            function("reply", json!({"reply_to": {"type": "string"}})),
        ],
        "selected_history_count": 5,
        "built_message_count": 6,
        "selection_reason": "recent",
        "session_id": "s1",
        "host_extra": "kept",
    })
}

fn replyer_request(reply_tool_args: Value, extra_prompt: &str) -> Value {
    json!({
        "session_id": "s1",
        "request_type": "reply",
        "task_name": "replyer",
        "model_name": "",
        "extra_prompt": extra_prompt,
        "attempt": 1,
        "retry_count": 0,
        "max_retries": 2,
        "reply_message_id": "m1",
        "reply_reason": "asked",
        "selected_expression_ids": [],
        "reply_tool_args": reply_tool_args,
    })
}

#[tokio::test]
async fn the_planner_is_offered_a_thinking_level_on_the_reply_tool_only() {
    let d = dispatcher();
    let result = d.invoke_with(MAISAKA_PLANNER_BEFORE_REQUEST, &planner_request()).await.unwrap();
    assert_eq!(result.errors, Vec::<String>::new());
    let definitions = &result.kwargs["tool_definitions"];
    let level = &definitions[1]["function"]["parameters"]["properties"]["thinking_level"];
    assert_eq!(level["enum"], json!(["normal", "deep"]));
    assert_eq!(level["type"], "string");
    assert!(level["description"].as_str().unwrap().contains("`deep`"));
    assert_eq!(definitions[1]["function"]["parameters"].get("required"), None, "thinking_level is optional");
    assert_eq!(definitions[0], function("no_reply", json!({})), "other definitions are left alone");
    assert_eq!(result.kwargs["host_extra"], "kept", "the overlay keeps keys the payload does not model");
}

#[tokio::test]
async fn a_deep_reply_goes_to_the_strong_model_with_the_instruction() {
    let d = dispatcher();
    let args = replyer_request(json!({"thinking_level": "deep", "tone": "calm"}), "Be brief.");
    let result = d.invoke_with(MAISAKA_REPLYER_BEFORE_REQUEST, &args).await.unwrap();
    assert_eq!(result.errors, Vec::<String>::new());
    let request: MaisakaReplyerBeforeRequest = result.kwargs_as().unwrap();
    assert_eq!(request.model_name, "strong-model-1");
    assert_eq!(request.extra_prompt, format!("Be brief.\n{DEEP_INSTRUCTION}"));

    let args = replyer_request(json!({"thinking_level": "deep"}), "");
    let result = d.invoke_with(MAISAKA_REPLYER_BEFORE_REQUEST, &args).await.unwrap();
    assert_eq!(result.kwargs["extra_prompt"], DEEP_INSTRUCTION, "no line feed before an empty prompt");
}

#[tokio::test]
async fn normal_or_absent_levels_leave_the_request_unchanged() {
    let d = dispatcher();
    for args in [json!({"thinking_level": "normal"}), json!({})] {
        let request = replyer_request(args, "Be brief.");
        let result = d.invoke_with(MAISAKA_REPLYER_BEFORE_REQUEST, &request).await.unwrap();
        assert_eq!(result.errors, Vec::<String>::new());
        assert_eq!(serde_json::to_string(&result.kwargs).unwrap(), serde_json::to_string(&request).unwrap());
    }
}

#[tokio::test]
async fn the_planner_choice_flows_into_the_replyer() {
    let d = dispatcher();
    let planned = d.invoke_with(MAISAKA_PLANNER_BEFORE_REQUEST, &planner_request()).await.unwrap();
    assert!(planned.kwargs["tool_definitions"][1].pointer("/function/parameters/properties/thinking_level").is_some());
    // The model called `reply` with the new argument; the host passes it on, minus its internal ones.
    let call = json!({"reply_to": "m1", "thinking_level": "deep"});
    let reply_tool_args = json!({"thinking_level": call["thinking_level"]});
    let result = d.invoke_with(MAISAKA_REPLYER_BEFORE_REQUEST, &replyer_request(reply_tool_args, "")).await.unwrap();
    assert_eq!(result.kwargs["model_name"], "strong-model-1");
    assert!(!result.aborted);
}
