//! Every accepted signature and every attribute key.

use std::fmt;
use toolhook::hooks::payload::SendServiceBeforeSend;
use toolhook::hooks::{HookArgs, HookContext, HookOutcome};
use toolhook::{DeclaredHookHandler, hook_handler, serde};

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(crate = "toolhook::serde")]
struct Text {
    text: String,
}

struct MyError;

impl fmt::Display for MyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("my error")
    }
}

type Unit = ();
type MyResult<T> = Result<T, MyError>;

/// Unit return, `HookArgs` by value.
#[hook_handler("chat.receive.before_process")]
async fn unit(args: HookArgs) {
    let _ = args;
}

#[hook_handler("chat.receive.before_process", name = "renamed", description = "d", mode = "blocking", order = "early", timeout_ms = 0, error_policy = "abort", metadata(a = "x", b = 1, c = -2.5, d = false))]
async fn every_key(args: &HookArgs, ctx: &HookContext) -> HookOutcome {
    let _ = ctx.full_name();
    HookOutcome::modify(args.clone())
}

#[hook_handler("demo.typed", custom = true, order = "late", timeout_ms = 4294967295)]
async fn typed(ctx: HookContext, payload: Text) -> Result<HookOutcome<Text>, MyError> {
    let _ = ctx;
    Ok(HookOutcome::abort_with(payload))
}

#[hook_handler("demo.typed", custom = true, error_policy = "log")]
async fn typed_by_ref(payload: &Text) -> Result<(), String> {
    if payload.text.is_empty() { Err("empty".into()) } else { Ok(()) }
}

#[hook_handler("send_service.before_send")]
async fn catalogue(mut payload: SendServiceBeforeSend) -> MyResult<HookOutcome<SendServiceBeforeSend>> {
    payload.show_log = false;
    Ok(HookOutcome::modify(payload))
}

#[hook_handler("demo.observe", custom = true, mode = "observe", order = "early", error_policy = "skip")]
async fn observer(_: HookArgs, _ctx: HookContext) {}

#[hook_handler("demo.observe", custom = true, mode = "observe")]
async fn observer_result(args: &HookArgs) -> Result<(), MyError> {
    if args.is_empty() { Err(MyError) } else { Ok(()) }
}

#[hook_handler("demo.observe", custom = true, mode = "observe")]
async fn observer_alias(payload: Text) -> Unit {
    let _ = payload.text;
}

#[hook_handler("demo.observe", custom = true, mode = "observe")]
async fn observer_result_alias(payload: Text) -> MyResult<()> {
    let _ = payload.text;
    Ok(())
}

#[hook_handler(r"demo.raw", custom = true, name = r"raw_name")]
async fn r#raw(args: HookArgs) -> HookOutcome<HookArgs> {
    HookOutcome::proceed().with_custom_result(args.len())
}

fn main() {
    let names: Vec<&str> = DeclaredHookHandler::all().iter().map(|h| h.name()).collect();
    assert_eq!(
        names,
        [
            "catalogue",
            "observer",
            "observer_alias",
            "observer_result",
            "observer_result_alias",
            "raw_name",
            "renamed",
            "typed",
            "typed_by_ref",
            "unit"
        ]
    );
}
