//! One faulty component never takes its siblings down: this crate's default plugin has good
//! tools, a hook handler and a command next to a tool whose output cannot be a structured
//! result, a command whose token does not fit its parameter's type, and a handler of a hook the
//! host does not declare. The good ones are served; each bad one is left out, logged, reported
//! by `load_all`, and quoted when a model calls it.

use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{Json, command, hook_handler, tool};
use toolhook::{ToolExecutionContext, ToolInvocation};
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::{CommandSet, PluginHost, PluginSet, PluginState, ToolRegistry};

/// Adds two numbers.
#[tool]
fn add(
    /// The first.
    a: i64,
    /// The second.
    b: i64,
) -> i64 {
    a + b
}

/// Greets someone.
#[tool]
#[command]
fn greet(
    /// Whom to greet.
    name: String,
) -> String {
    format!("hello {name}")
}

/// A mood, written as a plain string in JSON.
#[derive(serde::Serialize, schemars::JsonSchema)]
enum Mood {
    Calm,
}

/// Reports the mood: a structured result must be an object, and a unit enum is a string.
#[tool]
fn mood() -> Json<Mood> {
    Json(Mood::Calm)
}

/// A weekday.
#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Day {
    Monday,
}

/// Plans a day. The command's token says `integer`, but a day is text.
#[tool]
#[command(pattern = "plan <day:integer>")]
fn plan(
    /// Which day.
    day: Day,
) -> &'static str {
    let Day::Monday = day;
    "planned"
}

/// Tags every incoming message.
#[hook_handler("chat.receive.before_process")]
async fn tag(mut args: HookArgs) -> HookOutcome {
    args.insert("tagged", true);
    HookOutcome::modify(args)
}

/// Listens to a hook this host never declares.
#[hook_handler("acme.reminder.due", custom = true)]
async fn reminder(args: HookArgs) {
    let _ = args;
}

#[tokio::test]
async fn the_good_components_load_and_every_bad_one_is_reported() {
    let set = PluginSet::collect();
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = PluginHost::builder().plugins(set).registry(&registry).dispatcher(&dispatcher).build();
    let report = host.load_all().await;
    let plugin = env!("CARGO_PKG_NAME");
    assert_eq!(report.outcome(plugin).map(|o| o.state), Some(PluginState::Loaded));

    let mut left_out: Vec<&str> = report.problems().iter().filter_map(|p| p.component.as_deref()).collect();
    left_out.sort();
    assert_eq!(left_out, ["command plan", "hook handler reminder", "tool mood"]);
    assert!(report.problems().iter().all(|p| p.plugin_id == plugin));
    let error = report.clone().into_result().unwrap_err().to_string();
    assert!(error.starts_with("3 problems while loading plugins:"), "{error}");

    // The good tools answer; `plan` is served as a tool even though its command is left out.
    let mut served: Vec<String> = registry.list_tools(None).await.iter().map(|t| t.name().to_owned()).collect();
    served.sort();
    assert_eq!(served, ["add", "greet", "plan"]);
    let sum = registry.invoke(ToolInvocation::new("add", r#"{"a": 2, "b": 3}"#), None).await;
    assert_eq!(sum.structured_content().cloned(), Some(serde_json::json!(5)), "{sum:?}");

    // The bad tool is not just missing: the answer says why.
    let missing = registry.invoke(ToolInvocation::new("mood", ""), None).await;
    assert!(!missing.success);
    assert!(missing.error_message.starts_with("Tool not found: mood ("), "{}", missing.error_message);
    assert!(missing.error_message.contains("object"), "{}", missing.error_message);

    // The good command works, the bad one is not a command.
    let commands: Vec<String> = host.plugins().commands().iter().map(|c| c.name().to_owned()).collect();
    assert_eq!(commands, ["greet"]);
    let mut set = CommandSet::new(&registry);
    set.extend(host.plugins().commands());
    let reply = set.run("greet Ada", &ToolExecutionContext::default()).await.expect("a command");
    assert_eq!(reply.text(toolhook::Locale::En), "hello Ada");

    // The good handler runs.
    let message = serde_json::json!({"message": {}});
    let dispatched = dispatcher.invoke_with("chat.receive.before_process", &message).await.unwrap();
    assert_eq!(dispatched.kwargs.get("tagged"), Some(&serde_json::json!(true)));
    host.shutdown().await;
}
