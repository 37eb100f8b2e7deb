//! `#[hook_handler]` end to end: what it registers and what calling the registration does.

use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;
use toolhook::hooks::payload::SendServiceAfterSend;
use toolhook::hooks::{
    ErrorPolicy, HandlerOutcome, HookAction, HookArgs, HookContext, HookHandlerError, HookMode, HookOrder, HookOutcome,
    Modification,
};
use toolhook::{DeclaredHookHandler, hook_handler, schemars, serde};

const PACKAGE: &str = env!("CARGO_PKG_NAME");

fn declared(name: &str) -> DeclaredHookHandler {
    DeclaredHookHandler::all()
        .into_iter()
        .find(|h| h.name() == name)
        .unwrap_or_else(|| panic!("no hook handler named {name}"))
}

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("an object")
}

fn ctx_for(handler: &DeclaredHookHandler) -> HookContext {
    HookContext::new(handler.hook(), handler.plugin_id(), handler.name(), handler.mode())
}

async fn call(name: &str, kwargs: Value) -> Result<HandlerOutcome, HookHandlerError> {
    let handler = declared(name);
    handler.call(None, args(kwargs), ctx_for(&handler)).await
}

// ---- declarations ------------------------------------------------------------------------------

/// Drops empty messages.
///
/// Second paragraph, not part of the description.
#[hook_handler("  chat.receive.before_process ")]
async fn defaults(args: HookArgs) {
    let _ = args;
}

#[hook_handler(
    "send_service.before_send",
    name = " tagger ",
    description = "Tags outgoing messages.",
    mode = "blocking",
    order = "late",
    timeout_ms = 4294967295,
    error_policy = "abort",
    metadata(team = "core", weight = -2, ratio = 0.5, on = true)
)]
async fn tag(mut args: HookArgs, ctx: &HookContext) -> HookOutcome {
    args.insert("tagged_by", ctx.full_name());
    args.remove("drop_me");
    HookOutcome::modify(args).with_custom_result(json!({"hook": ctx.hook_name()}))
}

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Text {
    /// The text.
    text: String,
}

#[hook_handler("demo.typed", custom = true, order = "early")]
async fn shout(payload: Text) -> HookOutcome<Text> {
    HookOutcome::modify(Text { text: payload.text.to_uppercase() })
}

#[hook_handler("demo.typed", custom = true)]
async fn typed_by_ref(ctx: HookContext, payload: &Text) -> Result<HookOutcome<Text>, String> {
    if payload.text.is_empty() {
        return Err(format!("  {} got an empty text\n", ctx.handler_name()));
    }
    Ok(HookOutcome::abort())
}

/// A payload without `JsonSchema`: still a typed payload, just without a manifest schema.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde")]
struct NoSchema {
    n: i64,
}

#[hook_handler("demo.typed", custom = true)]
async fn no_schema(payload: NoSchema) -> HookOutcome<NoSchema> {
    HookOutcome::abort_with(NoSchema { n: payload.n + 1 })
}

#[hook_handler("send_service.after_send")]
async fn catalogue_payload(payload: SendServiceAfterSend) -> Result<(), String> {
    if payload.sent { Ok(()) } else { Err("not sent".into()) }
}

#[derive(Debug)]
struct Oops;

impl fmt::Display for Oops {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("oops")
    }
}

#[hook_handler("demo.observe", custom = true, mode = "observe", error_policy = "log")]
async fn watcher(args: &HookArgs) -> Result<(), Oops> {
    if args.contains_key("fail") { Err(Oops) } else { Ok(()) }
}

#[hook_handler("demo.observe", custom = true, mode = "observe")]
async fn unit_watcher(_: HookArgs, _ctx: HookContext) {}

// ---- what is registered ------------------------------------------------------------------------

#[test]
fn defaults_are_blocking_normal_skip_and_the_fn_name() {
    let handler = declared("defaults");
    assert_eq!(handler.hook(), "chat.receive.before_process");
    assert_eq!(handler.plugin_id(), PACKAGE);
    assert_eq!(handler.full_name(), format!("{PACKAGE}.defaults"));
    assert_eq!(handler.mode(), HookMode::Blocking);
    assert_eq!(handler.order(), HookOrder::Normal);
    assert_eq!(handler.error_policy(), ErrorPolicy::Skip);
    assert_eq!(handler.timeout(), None);
    assert_eq!(handler.description(), "Drops empty messages.");
    assert!(handler.metadata().is_empty());
    assert!(!handler.is_method());
    assert_eq!(handler.payload_schema(), None);
    assert_eq!(handler.registration().package, PACKAGE);
    assert!(
        handler.registration().location.starts_with("sdk/tests/hook_handler_macro.rs:"),
        "{}",
        handler.registration().location
    );
}

#[test]
fn every_key_of_the_attribute_is_registered() {
    let handler = declared("tagger");
    assert_eq!(handler.hook(), "send_service.before_send");
    assert_eq!(handler.description(), "Tags outgoing messages.");
    assert_eq!(handler.order(), HookOrder::Late);
    assert_eq!(handler.error_policy(), ErrorPolicy::Abort);
    assert_eq!(handler.timeout(), Some(std::time::Duration::from_millis(4_294_967_295)));
    assert_eq!(
        serde_json::to_string(&handler.metadata()).unwrap(),
        r#"{"team":"core","weight":-2,"ratio":0.5,"on":true}"#
    );
    assert!(DeclaredHookHandler::all().iter().all(|h| h.name() != "tag"));
}

#[test]
fn declared_handlers_are_sorted_by_plugin_then_name() {
    let names: Vec<&str> = DeclaredHookHandler::all().iter().map(|h| h.name()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn typed_payloads_have_a_schema_when_they_implement_json_schema() {
    assert_eq!(
        declared("shout").payload_schema(),
        Some(json!({
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text."}},
            "required": ["text"]
        }))
    );
    assert_eq!(declared("no_schema").payload_schema(), None);
    let catalogue = declared("catalogue_payload").payload_schema().unwrap();
    assert_eq!(catalogue["properties"]["sent"]["type"], "boolean");
}

#[test]
fn observe_handlers_are_registered_as_observers() {
    assert_eq!(declared("watcher").mode(), HookMode::Observe);
    assert_eq!(declared("watcher").error_policy(), ErrorPolicy::Log);
    assert_eq!(declared("unit_watcher").mode(), HookMode::Observe);
}

// ---- what calling it does ----------------------------------------------------------------------

#[tokio::test]
async fn unit_means_continue_unchanged() {
    assert_eq!(call("defaults", json!({"text": "hi"})).await, Ok(HandlerOutcome::proceed()));
}

#[tokio::test]
async fn hook_args_handlers_replace_the_arguments_and_see_their_context() {
    let outcome = call("tagger", json!({"text": "hi", "drop_me": 1})).await.unwrap();
    assert_eq!(outcome.action, HookAction::Continue);
    assert_eq!(
        outcome.modified.as_deref(),
        Some(&Modification::Replace(args(json!({"text": "hi", "tagged_by": format!("{PACKAGE}.tagger")}))))
    );
    assert_eq!(outcome.custom_result.as_deref(), Some(&json!({"hook": "send_service.before_send"})));
}

#[tokio::test]
async fn typed_handlers_overlay_their_payload() {
    let outcome = call("shout", json!({"text": "hi", "keep": 1})).await.unwrap();
    let overlay = Modification::Overlay(json!({"text": "HI"}).as_object().unwrap().clone());
    assert_eq!(outcome.modified.as_deref(), Some(&overlay));
    let outcome = call("no_schema", json!({"n": 1})).await.unwrap();
    assert_eq!(outcome.action, HookAction::Abort);
    let overlay = Modification::Overlay(json!({"n": 2}).as_object().unwrap().clone());
    assert_eq!(outcome.modified.as_deref(), Some(&overlay));
}

#[tokio::test]
async fn a_payload_that_does_not_decode_is_reported_with_its_path_and_the_handler_not_called() {
    let error = call("shout", json!({"text": 5})).await.unwrap_err();
    let HookHandlerError::InvalidPayload(error) = error else { panic!("{error:?}") };
    assert_eq!(error.path(), "text");
    assert_eq!(error.to_string(), "invalid payload: text: invalid type: integer `5`, expected a string");
    let error = call("shout", json!({})).await.unwrap_err();
    assert_eq!(error.to_string(), "invalid payload: missing field `text`");
}

#[tokio::test]
async fn result_errors_are_trimmed_failures() {
    let error = call("typed_by_ref", json!({"text": ""})).await.unwrap_err();
    assert_eq!(error, HookHandlerError::Failed("typed_by_ref got an empty text".into()));
    assert_eq!(call("typed_by_ref", json!({"text": "x"})).await.unwrap().action, HookAction::Abort);
    let kwargs = json!({"message": {}, "sent": false, "typing": false, "set_reply": false, "storage_message": true, "show_log": true});
    assert_eq!(call("catalogue_payload", kwargs).await, Err(HookHandlerError::Failed("not sent".into())));
}

#[tokio::test]
async fn observers_return_nothing_to_merge_and_report_their_errors() {
    assert_eq!(call("watcher", json!({})).await, Ok(HandlerOutcome::proceed()));
    assert_eq!(call("watcher", json!({"fail": true})).await, Err(HookHandlerError::Failed("oops".into())));
    assert_eq!(call("unit_watcher", json!({})).await, Ok(HandlerOutcome::proceed()));
}

#[tokio::test]
async fn an_instance_is_ignored_by_free_fns() {
    let handler = declared("defaults");
    let instance: Arc<dyn std::any::Any + Send + Sync> = Arc::new(5u8);
    let outcome = handler.call(Some(instance), HookArgs::new(), ctx_for(&handler)).await;
    assert_eq!(outcome, Ok(HandlerOutcome::proceed()));
}
