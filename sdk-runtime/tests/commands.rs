//! Tools as chat commands: generated and custom patterns, parsing, help, and calls through the
//! registry with the same access rules as model calls.

use serde_json::{Value, json};
use toolhook::{Locale, PermissionLevel, ToolExecutionContext, command, tool};
use toolhook_runtime::{
    CommandError, CommandReply, CommandSet, CommandSpec, PluginSet, PluginToolProvider, ToolRegistry,
};

/// Query weather information
#[tool]
#[command(alias = ["天气"])]
fn weather(
    /// City name
    city: String,
    /// Forecast days
    days: Option<i64>,
) -> String {
    format!("{city} in {} day(s)", days.unwrap_or(0))
}

/// Takes a note.
#[tool]
#[command]
fn note(
    /// What to note.
    text: String,
) -> String {
    format!("noted: {text}")
}

#[tokio::test]
async fn a_trailing_text_parameter_takes_the_rest_of_the_message() {
    let spec = command("note");
    assert_eq!(spec.pattern_text(), "note <text:rest>");
    let parsed = spec.parse("note call mum at 6").unwrap().unwrap();
    assert_eq!(parsed["text"], "call mum at 6");
}

/// Order matters
#[tool]
#[command]
fn f(
    /// The first value.
    a: Option<String>,
    /// The second value.
    b: String,
) -> String {
    format!("{b}{}", a.unwrap_or_default())
}

/// Ban a user
// Its help shows parameters without descriptions: the warning for them is silenced.
#[allow(deprecated)]
#[tool(permission = "bot_admin", platforms = ["qq"])]
#[command(usage = ["ban <user_id> [reason...]"], examples = ["ban u42 spamming links"], pattern = "ban <user_id:text> [reason:rest]")]
fn ban(user_id: String, reason: Option<String>) -> String {
    format!("banned {user_id}: {}", reason.unwrap_or_default())
}

/// Every argument kind
#[tool]
#[command]
fn kinds(
    /// A number.
    n: f64,
    /// A flag.
    yes: bool,
    /// Tags.
    tags: Vec<i64>,
    /// Extra fields.
    extra: Option<serde_json::Map<String, Value>>,
) -> String {
    format!("{n} {yes} {tags:?} {extra:?}")
}

fn command(name: &str) -> CommandSpec {
    PluginSet::collect().commands().into_iter().find(|c| c.name() == name).unwrap()
}

fn args(command: &CommandSpec, text: &str) -> Value {
    Value::Object(command.parse(text).unwrap().unwrap())
}

#[test]
fn generated_patterns_list_required_parameters_first() {
    assert_eq!(command("weather").pattern_text(), "weather <city:text> [days:integer]");
    assert_eq!(command("f").pattern_text(), "f <b:text> [a:rest]");
    assert_eq!(command("kinds").pattern_text(), "kinds <n:number> <yes:boolean> <tags:list> [extra:json]");
    assert_eq!(command("ban").pattern_text(), "ban <user_id:text> [reason:rest]");
}

#[test]
fn messages_parse_into_typed_arguments() {
    let weather = command("weather");
    assert_eq!(args(&weather, "天气 Beijing 3"), json!({"city": "Beijing", "days": 3}));
    assert_eq!(args(&weather, "weather \"New York\""), json!({"city": "New York"}));
    assert_eq!(args(&weather, r#"weather "say \"hi\" \\ there""#), json!({"city": "say \"hi\" \\ there"}));
    assert_eq!(weather.parse("forecast a").unwrap(), None);
    assert_eq!(weather.parse("Weather a").unwrap(), None, "names are case-sensitive");
    let kinds = command("kinds");
    assert_eq!(args(&kinds, "kinds 2.5 YES 1,2,,3"), json!({"n": 2.5, "yes": true, "tags": [1, 2, 3]}));
    assert_eq!(
        args(&kinds, r#"kinds -1 off 7 {"a":1}"#),
        json!({"n": -1.0, "yes": false, "tags": [7], "extra": {"a": 1}})
    );
    assert_eq!(
        args(&command("ban"), "ban u42   spamming   links "),
        json!({"user_id": "u42", "reason": "spamming   links"})
    );
}

#[test]
fn errors_say_what_is_missing_or_wrong_and_show_the_usage() {
    let weather = command("weather");
    let usage = "Usage: weather <city:text> [days:integer]";
    assert_eq!(weather.parse("weather").unwrap_err().to_string(), format!("Missing argument <city:text>. {usage}"));
    assert_eq!(weather.parse("weather a b c").unwrap_err().to_string(), format!("Too many arguments. {usage}"));
    assert_eq!(
        weather.parse("weather a x").unwrap_err().to_string(),
        format!("Invalid value for <days:integer>: x. {usage}")
    );
    assert_eq!(weather.parse("weather \"a").unwrap_err().to_string(), format!("Unclosed quotation mark. {usage}"));
    assert_eq!(
        weather.parse("weather a x").unwrap_err().message(Locale::ZhHans),
        "参数 <days:integer> 的值无效：x。用法：weather <city:text> [days:integer]"
    );
    assert_eq!(
        weather.parse("weather").unwrap_err().message(Locale::ZhHans),
        "缺少参数 <city:text>。用法：weather <city:text> [days:integer]"
    );
    assert!(matches!(command("kinds").parse("kinds 1 maybe 1"), Err(CommandError::BadValue { .. })));
    assert!(matches!(command("kinds").parse("kinds 1 yes 1 [1]"), Err(CommandError::BadValue { .. })));
}

#[test]
fn help_lists_parameters_and_access_rules_in_both_locales() {
    assert_eq!(
        command("weather").help(Locale::En),
        "weather <city:text> [days:integer]\n  Query weather information\n  Parameters:\n    city: string (required) City name\n    days: integer (optional) Forecast days\n  Aliases: 天气"
    );
    assert_eq!(
        command("ban").help(Locale::En),
        "ban <user_id:text> [reason:rest]\n  Ban a user\n  Parameters:\n    user_id: string (required)\n    reason: string (optional)\n  Permission: bot_admin\n  Platforms: qq\n  Usage:\n    ban <user_id> [reason...]\n  Examples:\n    ban u42 spamming links"
    );
    assert_eq!(
        command("ban").help(Locale::ZhHans),
        "ban <user_id:text> [reason:rest]\n  Ban a user\n  参数：\n    user_id：string（必填）\n    reason：string（可选）\n  权限：bot_admin\n  平台：qq\n  用法：\n    ban <user_id> [reason...]\n  示例：\n    ban u42 spamming links"
    );
}

fn commands() -> (ToolRegistry, CommandSet) {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let mut set = CommandSet::new(&registry);
    set.extend(PluginSet::collect().commands());
    (registry, set)
}

#[tokio::test]
async fn commands_run_through_the_registry_with_its_access_rules() {
    let (_registry, set) = commands();
    let user = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    let reply = set.run("天气 Paris 2", &user).await.unwrap();
    assert_eq!(reply.text(Locale::En), "Paris in 2 day(s)");
    let denied = set.run("ban u1 spam", &user).await.unwrap();
    assert_eq!(denied.text(Locale::En), "Tool not found: ban");
    let admin = ToolExecutionContext { permission: PermissionLevel::BotAdmin, ..user.clone() };
    assert_eq!(set.run("ban u1 spam", &admin).await.unwrap().text(Locale::En), "banned u1: spam");
    assert!(matches!(set.run("weather", &user).await, Some(CommandReply::Invalid(_))));
    assert!(set.run("hello there", &user).await.is_none());
}

#[tokio::test]
async fn help_for_all_commands_lists_only_what_the_caller_may_use() {
    let (_registry, set) = commands();
    let user = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    assert_eq!(
        set.help(&user, Locale::En).await,
        "Commands:\n  f <b:text> [a:rest] - Order matters\n  kinds <n:number> <yes:boolean> <tags:list> [extra:json] - Every argument kind\n  note <text:rest> - Takes a note.\n  weather <city:text> [days:integer] - Query weather information"
    );
    let admin = ToolExecutionContext { permission: PermissionLevel::Owner, ..user };
    assert!(
        set.help(&admin, Locale::ZhHans)
            .await
            .starts_with("可用命令：\n  ban <user_id:text> [reason:rest] - Ban a user")
    );
    let empty = CommandSet::new(&ToolRegistry::default());
    assert_eq!(empty.help(&ToolExecutionContext::default(), Locale::ZhHans).await, "当前没有可用的命令。");
}

#[test]
fn hosts_derive_commands_from_any_tool() {
    let spec = toolhook::ToolSpec::builder("echo")
        .parameters(vec![toolhook::ToolParameterInfo::new("text", toolhook::ToolParamType::String)])
        .build()
        .unwrap();
    let echo = CommandSpec::from_tool(&spec).pattern("echo <text:rest>").unwrap().alias("say").example("say hi there");
    assert_eq!(args(&echo, "say hi  there"), json!({"text": "hi  there"}));
    assert!(CommandSpec::from_tool(&spec).pattern("echo [text:text]").is_err(), "a required parameter must be <…>");
    assert!(CommandSpec::from_tool(&spec).pattern("echo <other:text>").is_err());
}

#[tokio::test]
async fn a_huge_message_is_answered_with_a_bounded_reply() {
    let (_registry, set) = commands();
    let ctx = ToolExecutionContext::default();
    // A bad token megabytes long is quoted only by its start.
    let huge = format!("kinds {} yes [1]", "9".repeat(5_000_000) + "x");
    let reply = set.run(&huge, &ctx).await.expect("names a command");
    let text = reply.text(Locale::En);
    assert!(text.len() < 400, "{} bytes", text.len());
    assert!(text.starts_with("Invalid value for <n:number>: 9999"), "{text}");
    // A message that names no command is not tokenised at all, however long.
    let chatter = "hello ".repeat(1_000_000);
    assert!(set.run(&chatter, &ctx).await.is_none());
    // A message with an unclosed quote that names no command is not a command error.
    assert!(set.run("hello \"there", &ctx).await.is_none());
    let quote = set.run("weather \"Paris", &ctx).await.expect("names a command");
    assert!(matches!(quote, CommandReply::Invalid(CommandError::Quote { .. })));
}

#[tokio::test]
async fn a_denied_call_is_a_plain_not_found() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let user = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    let result = registry.invoke(toolhook::ToolInvocation::new("ban", r#"{"user_id": "u1"}"#), Some(&user)).await;
    assert_eq!(result, toolhook::ToolExecutionResult::failure("ban", "Tool not found: ban"));
}
