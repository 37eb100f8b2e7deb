//! `Host`: one builder wires the registry, `tool_search`, the hook dispatcher, the plugins and
//! their commands; it lists every problem and still serves what loaded.

use serde_json::json;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{Dialect, ToolExecutionContext, ToolInvocation, command, hook_handler, tool};
use toolhook_runtime::hooks::HookSpec;
use toolhook_runtime::{HistoryMessage, Host, HostProblem};

/// Adds two numbers.
#[tool(core_tool = true)]
#[command]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// Looks up an old archive: found through `tool_search`.
#[tool]
fn archive(
    /// What to look for.
    query: String,
) -> String {
    format!("nothing about {query}")
}

static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Saves a note, after a moment.
#[tool(core_tool = true)]
async fn remember(
    /// The note.
    note: String,
) -> String {
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    NOTES.lock().unwrap().push(note);
    "saved".to_owned()
}

/// Counts the saved notes.
#[tool(core_tool = true)]
fn count_notes() -> String {
    NOTES.lock().unwrap().len().to_string()
}

/// Marks reminders as seen: the host declares this hook itself.
#[hook_handler("acme.reminder.due", custom = true)]
async fn seen(mut args: HookArgs) -> HookOutcome {
    args.insert("seen", true);
    HookOutcome::modify(args)
}

/// Subscribes to a hook no host here declares: left out and reported.
#[hook_handler("acme.never.declared", custom = true)]
async fn orphan(args: HookArgs) {
    let _ = args;
}

#[tokio::test]
async fn a_host_in_a_few_lines_reports_every_problem_and_serves_the_rest() {
    let built = Host::builder().hook(HookSpec::new("acme.reminder.due")).build().await;
    let error = built.expect_err("the orphan handler is a problem");
    let [HostProblem::Plugin(problem)] = error.problems() else { panic!("{error}") };
    assert_eq!(problem.component.as_deref(), Some("hook handler orphan"));
    assert!(error.to_string().contains("acme.never.declared"), "{error}");
    let host = error.into_host();
    let ctx = ToolExecutionContext::for_session("s1");

    // The round offers the core tool and tool_search; the deferred tool is in the reminder.
    let round = host.round(&ctx).await;
    let names: Vec<String> = round
        .definitions(Dialect::OpenAiChat)
        .iter()
        .map(|d| d["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(names.contains(&"add".to_owned()) && names.contains(&"tool_search".to_owned()), "{names:?}");
    assert!(!names.contains(&"archive".to_owned()));
    assert!(round.reminder().is_some_and(|r| r.contains("archive")));

    // Calls run into history messages, in the order of the calls.
    let calls = [
        ("call_1", ToolInvocation::new("add", r#"{"a": 2, "b": 3}"#)),
        ("call_2", ToolInvocation::new("tool_search", r#"{"query": "archive"}"#)),
    ];
    let history = host.run_calls(calls, &ctx).await;
    let HistoryMessage::Tool { call_id, content } = &history[0] else { panic!("{history:?}") };
    assert_eq!((call_id.as_str(), content.as_str()), ("call_1", "5"));
    assert!(matches!(&history[1], HistoryMessage::Tool { call_id, .. } if call_id == "call_2"));
    // Found through tool_search, the deferred tool is offered from the next round on.
    let round = host.round(&ctx).await;
    assert!(round.definitions(Dialect::OpenAiChat).iter().any(|d| d["function"]["name"] == "archive"));

    // The host's own hook reaches its handler; commands run through the registry.
    let fired =
        host.fire("acme.reminder.due", HookArgs::from(json!({"id": 1}).as_object().unwrap().clone())).await.unwrap();
    assert_eq!(fired.kwargs.get("seen"), Some(&json!(true)));
    let reply = host.command("add 4 5", &ctx).await.expect("a command");
    assert_eq!(reply.text(toolhook::Locale::En), "9");

    host.shutdown().await;
    assert!(host.dispatcher().is_shut_down());
}

#[tokio::test]
async fn the_calls_of_a_turn_run_one_after_another_in_call_order() {
    let host = Host::builder().hook(HookSpec::new("acme.reminder.due")).build().await.unwrap_or_else(|e| e.into_host());
    let ctx = ToolExecutionContext::for_session("s2");
    let calls = [
        ("call_1", ToolInvocation::new("remember", r#"{"note": "buy milk"}"#)),
        ("call_2", ToolInvocation::new("count_notes", "{}")),
    ];
    let history = host.run_calls(calls, &ctx).await;
    let contents: Vec<&str> = history
        .iter()
        .map(|m| match m {
            HistoryMessage::Tool { content, .. } => content.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    // The count ran after the save had finished, although the save waited.
    assert_eq!(contents, ["saved", "1"]);
    host.shutdown().await;
}
