//! Written rules checked with concrete inputs and the outputs the rules' own words give, for the
//! parts of a call around the tool itself: command help texts (one command, and all commands a
//! context may use), the context values filled into plugin tool and legacy action arguments, own
//! config updates, argument decoding errors and their JSON paths, what a handler's return value
//! becomes, `from_raw` of every JSON shape, history text, and the split into media messages.
#![allow(missing_debug_implementations)]
// Legacy actions are deprecated on purpose; these tests declare some.
#![allow(deprecated)]

use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;
use toolhook::{
    ActionInfo, ChatScope, ConfigScope, ContentType, LegacyActionContext, Locale, PermissionLevel, ToolContentItem,
    ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolOutput, ToolParamType, ToolParameterInfo, ToolSpec,
    action, command, plugin, schemars, serde, tool,
};
#[path = "common/logs.rs"]
mod logs;
use logs::logged;

use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, CommandSet, CommandSpec, ConfigError, ConfigUpdateError, MemoryConfigSource,
    PluginHost, PluginSet, PluginToolProvider, RegistryConfig, ToolRegistry, split_tool_result,
};

// ---- helpers ------------------------------------------------------------------------------------

fn param(name: &str, ty: ToolParamType, description: &str) -> ToolParameterInfo {
    ToolParameterInfo::new(name, ty).description(description)
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

/// A registry serving the given specs as built-in tools that answer `ok`.
fn registry_of(specs: &[ToolSpec]) -> ToolRegistry {
    let registry = ToolRegistry::default();
    let mut provider = BuiltinToolProvider::new().without_tool_search();
    for spec in specs {
        provider = provider.with_tool(BuiltinTool::new(spec.clone(), |call: ToolInvocation, _ctx| async move {
            Ok(ToolExecutionResult::success(call.tool_name, "ok"))
        }));
    }
    registry.register_provider(provider);
    registry
}

/// A registry serving this binary's free `#[tool]`s and `#[action]`s.
fn free_tools(locale: Locale) -> ToolRegistry {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn invoke(
    name: &str,
    arguments: impl Into<toolhook::ToolArguments>,
    ctx: &ToolExecutionContext,
) -> ToolExecutionResult {
    free_tools(Locale::En).invoke(ToolInvocation::new(name, arguments), Some(ctx)).await
}

/// The structured content of a successful call, as compact JSON.
async fn echoed(name: &str, arguments: impl Into<toolhook::ToolArguments>, ctx: &ToolExecutionContext) -> String {
    let result = invoke(name, arguments, ctx).await;
    assert!(result.success, "{name}: {}", result.error_message);
    compact(result.structured_content().expect("structured content"))
}

/// The decoding error detail of a failed call without a context.
async fn arg_error_in(locale: Locale, name: &str, arguments: &str) -> String {
    let result = free_tools(locale).invoke(ToolInvocation::new(name, arguments), None).await;
    assert!(!result.success, "{name} {arguments} succeeded: {}", result.content);
    let prefix = match locale {
        Locale::En => format!("Tool {name} failed: InvalidArguments: "),
        Locale::ZhHans => format!("工具 {name} 调用失败：InvalidArguments: "),
    };
    result.error_message.strip_prefix(&prefix).unwrap_or_else(|| panic!("{}", result.error_message)).to_owned()
}

async fn arg_error(name: &str, arguments: &str) -> String {
    arg_error_in(Locale::En, name, arguments).await
}

async fn content_of(name: &str, arguments: &str) -> String {
    let result = free_tools(Locale::En).invoke(ToolInvocation::new(name, arguments), None).await;
    assert!(result.success, "{name} {arguments}: {}", result.error_message);
    result.content
}

fn full_context() -> ToolExecutionContext {
    ToolExecutionContext {
        session_id: "sess".into(),
        stream_id: "st".into(),
        reasoning: "why".into(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    }
}

// ==== help text of one command ====================================================================

// "`  Aliases: a, b` / `  别名：a、b`"; parameter lines "`    {name}: {schema type} (required|optional)
// {description}` / `    {name}：{schema type}（必填|可选）{description}`".
#[test]
fn help_joins_several_aliases_with_the_locales_list_separator() {
    let spec = ToolSpec::builder("translate")
        .brief_description("Translate text")
        .parameters(vec![
            param("text", ToolParamType::String, "Source text"),
            param("target", ToolParamType::String, "Target language").required(false),
        ])
        .build()
        .unwrap();
    let translate = CommandSpec::from_tool(&spec).alias("tr").alias("翻译");
    assert_eq!(
        translate.help(Locale::En),
        "translate <text:text> [target:rest]\n  Translate text\n  Parameters:\n    text: string (required) Source text\n    target: string (optional) Target language\n  Aliases: tr, 翻译"
    );
    assert_eq!(
        translate.help(Locale::ZhHans),
        "translate <text:text> [target:rest]\n  Translate text\n  参数：\n    text：string（必填）Source text\n    target：string（可选）Target language\n  别名：tr、翻译"
    );
}

// Parameter lines show the "{schema type}" (float → `number`), not the command type of the pattern
// (`list`, `json`).
#[test]
fn help_parameter_lines_name_schema_types_not_command_types() {
    let spec = ToolSpec::builder("mix")
        .brief_description("Mixes values")
        .parameters(vec![
            param("n", ToolParamType::Number, "A number"),
            param("yes", ToolParamType::Boolean, "A flag"),
            param("tags", ToolParamType::Array, "Tags").items_schema(json!({"type": "integer"})),
            param("extra", ToolParamType::Object, "Extra fields").required(false),
            ToolParameterInfo::new("ratio", ToolParamType::Float).required(false),
        ])
        .build()
        .unwrap();
    let mix = CommandSpec::from_tool(&spec);
    assert_eq!(mix.pattern_text(), "mix <n:number> <yes:boolean> <tags:list> [extra:json] [ratio:number]");
    assert_eq!(
        mix.help(Locale::En),
        "mix <n:number> <yes:boolean> <tags:list> [extra:json] [ratio:number]\n  Mixes values\n  Parameters:\n    n: number (required) A number\n    yes: boolean (required) A flag\n    tags: array (required) Tags\n    extra: object (optional) Extra fields\n    ratio: number (optional)"
    );
    assert_eq!(
        mix.help(Locale::ZhHans),
        "mix <n:number> <yes:boolean> <tags:list> [extra:json] [ratio:number]\n  Mixes values\n  参数：\n    n：number（必填）A number\n    yes：boolean（必填）A flag\n    tags：array（必填）Tags\n    extra：object（可选）Extra fields\n    ratio：number（可选）"
    );
}

// "`  Parameters:` / `  参数：`, then per parameter in pattern order" (a custom pattern may order
// them differently from the declaration).
#[test]
fn help_parameter_lines_follow_a_custom_patterns_order() {
    let spec = ToolSpec::builder("swap")
        .brief_description("Swap two things")
        .parameters(vec![
            param("a", ToolParamType::String, "First"),
            param("b", ToolParamType::String, "Second"),
            param("c", ToolParamType::Integer, "Count").required(false),
        ])
        .build()
        .unwrap();
    let swap = CommandSpec::from_tool(&spec).pattern("swap <b:text> <a:text> [c:integer]").unwrap();
    assert_eq!(
        swap.help(Locale::En),
        "swap <b:text> <a:text> [c:integer]\n  Swap two things\n  Parameters:\n    b: string (required) Second\n    a: string (required) First\n    c: integer (optional) Count"
    );
}

// A parameter line is "`{name}: {schema type} (required|optional) {description}`": an `enum` or a
// default adds nothing to it.
#[test]
fn help_lines_of_enum_parameters_show_only_type_marker_and_description() {
    let spec = ToolSpec::builder("convert")
        .brief_description("Convert a temperature")
        .parameters(vec![
            param("value", ToolParamType::Number, "Value"),
            param("unit", ToolParamType::String, "Temperature unit")
                .required(false)
                .enum_values(["celsius", "fahrenheit"])
                .default("celsius"),
            param("level", ToolParamType::Integer, "Level").required(false).enum_values([1, 2, 3]),
        ])
        .build()
        .unwrap();
    let convert = CommandSpec::from_tool(&spec);
    assert_eq!(
        convert.help(Locale::En),
        "convert <value:number> [unit:text] [level:integer]\n  Convert a temperature\n  Parameters:\n    value: number (required) Value\n    unit: string (optional) Temperature unit\n    level: integer (optional) Level"
    );
    assert_eq!(
        convert.help(Locale::ZhHans),
        "convert <value:number> [unit:text] [level:integer]\n  Convert a temperature\n  参数：\n    value：number（必填）Value\n    unit：string（可选）Temperature unit\n    level：integer（可选）Level"
    );
}

// All nine help lines in their order: pattern; description; parameters; aliases; "`  Permission:
// {level}` / `  权限：{level}` (only above `user`)"; platforms; "`  Scopes: group, private` / `  场景：
// group、private`"; usage lines; examples, each indented by four spaces.
#[test]
fn help_with_every_optional_line_lists_them_in_the_written_order() {
    let spec = ToolSpec::builder("ban2")
        .brief_description("Ban a member")
        .parameters(vec![
            param("user", ToolParamType::String, "Who"),
            param("minutes", ToolParamType::Integer, "How long").required(false),
        ])
        .permission(PermissionLevel::Owner)
        .platforms(["qq", "telegram"])
        .scopes([ChatScope::Group, ChatScope::Channel])
        .build()
        .unwrap();
    let ban = CommandSpec::from_tool(&spec)
        .alias("b")
        .alias("封禁")
        .usage("ban2 <user> [minutes]")
        .example("ban2 u1 10")
        .example("封禁 u2");
    assert_eq!(
        ban.help(Locale::En),
        "ban2 <user:text> [minutes:integer]\n  Ban a member\n  Parameters:\n    user: string (required) Who\n    minutes: integer (optional) How long\n  Aliases: b, 封禁\n  Permission: owner\n  Platforms: qq, telegram\n  Scopes: group, channel\n  Usage:\n    ban2 <user> [minutes]\n  Examples:\n    ban2 u1 10\n    封禁 u2"
    );
    assert_eq!(
        ban.help(Locale::ZhHans),
        "ban2 <user:text> [minutes:integer]\n  Ban a member\n  参数：\n    user：string（必填）Who\n    minutes：integer（可选）How long\n  别名：b、封禁\n  权限：owner\n  平台：qq、telegram\n  场景：group、channel\n  用法：\n    ban2 <user> [minutes]\n  示例：\n    ban2 u1 10\n    封禁 u2"
    );
}

// "`  Permission: {level}` / `  权限：{level}` (only above `user`)": `group_owner` is above it, `user`
// is not.
#[test]
fn help_shows_a_permission_above_user_and_none_for_user() {
    let owner_only = ToolSpec::builder("pin").brief_description("Pin it").permission(PermissionLevel::GroupOwner);
    let pin = CommandSpec::from_tool(&owner_only.build().unwrap());
    assert_eq!(pin.help(Locale::ZhHans), "pin\n  Pin it\n  权限：group_owner");
    assert_eq!(pin.help(Locale::En), "pin\n  Pin it\n  Permission: group_owner");
    let anyone = ToolSpec::builder("look").brief_description("Look").permission(PermissionLevel::User);
    assert_eq!(CommandSpec::from_tool(&anyone.build().unwrap()).help(Locale::En), "look\n  Look");
}

/// Forecast the weather.
#[tool]
#[command(alias = ["预报"], usage = ["forecast <city> [unit] [days]"])]
fn forecast(
    /// City name.
    city: String,
    /// Unit.
    #[param(enum = ["c", "f"])]
    unit: Option<String>,
    /// Days ahead.
    #[param(default = 3)]
    days: u8,
) -> String {
    format!("{city} {unit:?} {days}")
}

// A declared command: "Required unless `Option<T>` or defaulted" (so `days` is optional), parameter
// descriptions from `///`, and the zh-Hans labels `参数：`, `（必填）`, `（可选）`, `别名：`, `用法：`.
#[test]
fn help_of_a_declared_command_treats_defaulted_parameters_as_optional() {
    let forecast = PluginSet::collect().commands().into_iter().find(|c| c.name() == "forecast").unwrap();
    assert_eq!(forecast.pattern_text(), "forecast <city:text> [unit:text] [days:integer]");
    assert_eq!(
        forecast.help(Locale::ZhHans),
        "forecast <city:text> [unit:text] [days:integer]\n  Forecast the weather.\n  参数：\n    city：string（必填）City name.\n    unit：string（可选）Unit.\n    days：integer（可选）Days ahead.\n  别名：预报\n  用法：\n    forecast <city> [unit] [days]"
    );
}

// ==== help for all commands =======================================================================

fn scoped_specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec::builder("grp").brief_description("Group only").scopes([ChatScope::Group]).build().unwrap(),
        ToolSpec::builder("any").brief_description("Anyone").build().unwrap(),
    ]
}

// "lists the commands available in that context, those whose tool the registry lists for it (…
// access rules passed …)"; Choices: "a tool limited to platforms or scopes is hidden and refused when
// the context does not say which platform or scope it is called from".
#[tokio::test]
async fn help_for_all_commands_follows_the_scope_of_the_context() {
    let specs = scoped_specs();
    let registry = registry_of(&specs);
    let mut set = CommandSet::new(&registry);
    set.extend(specs.iter().map(CommandSpec::from_tool));
    let group = ToolExecutionContext { scope: Some(ChatScope::Group), ..Default::default() };
    assert_eq!(set.help(&group, Locale::En).await, "Commands:\n  any - Anyone\n  grp - Group only");
    let private = ToolExecutionContext { scope: Some(ChatScope::Private), ..Default::default() };
    assert_eq!(set.help(&private, Locale::ZhHans).await, "可用命令：\n  any - Anyone");
    assert_eq!(set.help(&ToolExecutionContext::default(), Locale::En).await, "Commands:\n  any - Anyone");
}

// Only commands "whose tool the registry lists" are shown; "With no command available the text is the
// single line `No commands available.` / `当前没有可用的命令。`"
#[tokio::test]
async fn commands_whose_tool_the_registry_does_not_list_are_left_out() {
    let registry = registry_of(&scoped_specs()[1..]);
    let ghost = ToolSpec::builder("ghost").brief_description("Not served").build().unwrap();
    let mut set = CommandSet::new(&registry);
    set.insert(CommandSpec::from_tool(&ghost));
    let ctx = ToolExecutionContext::default();
    assert_eq!(set.help(&ctx, Locale::En).await, "No commands available.");
    assert_eq!(set.help(&ctx, Locale::ZhHans).await, "当前没有可用的命令。");
    set.insert(CommandSpec::from_tool(&scoped_specs()[1]));
    assert_eq!(set.help(&ctx, Locale::En).await, "Commands:\n  any - Anyone");
}

// Help line 2 is "two spaces + `description(locale)`", and for all commands "two spaces + its pattern,
// then ` - ` + `description(locale)`" (aliases, usage lines and examples are not part of it); the
// brief of a tool without any description is "`Tool {name}` / `工具 {name}`".
#[tokio::test]
async fn an_undescribed_tool_shows_the_fallback_brief_of_the_locale_in_both_helps() {
    let spec = ToolSpec::builder("ping").build().unwrap();
    let ping = CommandSpec::from_tool(&spec).alias("p").usage("ping").example("p");
    assert_eq!(CommandSpec::from_tool(&spec).help(Locale::En), "ping\n  Tool ping");
    assert_eq!(CommandSpec::from_tool(&spec).help(Locale::ZhHans), "ping\n  工具 ping");
    let registry = registry_of(std::slice::from_ref(&spec));
    let mut set = CommandSet::new(&registry);
    set.insert(ping);
    let ctx = ToolExecutionContext::default();
    assert_eq!(set.help(&ctx, Locale::En).await, "Commands:\n  ping - Tool ping");
    assert_eq!(set.help(&ctx, Locale::ZhHans).await, "可用命令：\n  ping - 工具 ping");
}

// "sorted by command name (byte order)": `B` (0x42) < `b1` < `b_2` (`1` is 0x31, `_` is 0x5F).
#[tokio::test]
async fn help_for_all_commands_sorts_names_by_bytes() {
    let specs: Vec<ToolSpec> = ["b_2", "b1", "B"]
        .into_iter()
        .map(|name| ToolSpec::builder(name).brief_description(format!("Tool {name} here")).build().unwrap())
        .collect();
    let registry = registry_of(&specs);
    let mut set = CommandSet::new(&registry);
    set.extend(specs.iter().map(CommandSpec::from_tool));
    assert_eq!(
        set.help(&ToolExecutionContext::default(), Locale::En).await,
        "Commands:\n  B - Tool B here\n  b1 - Tool b1 here\n  b_2 - Tool b_2 here"
    );
}

// ==== context values in plugin tool arguments =====================================================

/// Echoes the arguments it received.
#[tool]
fn ctx_echo(
    call: &ToolInvocation,
    /// The query.
    q: Option<String>,
    /// The stream.
    stream_id: Option<String>,
    /// The chat.
    chat_id: Option<String>,
    /// The group.
    group_id: Option<String>,
    /// The user.
    user_id: Option<String>,
    /// The platform.
    platform: Option<String>,
) -> Value {
    let _ = (q, stream_id, chat_id, group_id, user_id, platform);
    call.arguments.to_value().unwrap_or(Value::Null)
}

// "Let `sid` = the context's `stream_id`, else its `session_id`"; a declared parameter "whose argument
// is missing, null or `""` gets the context's value"; "A filled key that was present keeps its place;
// absent ones are appended in the order `stream_id`, `chat_id`, `group_id`, `user_id`, `platform`".
#[tokio::test]
async fn present_empty_keys_are_filled_in_place_and_missing_ones_appended_with_the_stream_id() {
    let arguments = r#"{"chat_id":null,"q":"x","platform":""}"#;
    assert_eq!(
        echoed("ctx_echo", arguments, &full_context()).await,
        r#"{"chat_id":"st","q":"x","platform":"qq","stream_id":"st","group_id":"g1","user_id":"u1"}"#
    );
}

// "values the model gave are kept" — only missing, null or `""` is filled: a blank `" "` and any
// non-empty value stay (and a non-string value is then decoded as given).
#[tokio::test]
async fn values_the_model_gave_are_kept_even_blank_or_of_the_wrong_type() {
    let arguments = r#"{"q":"x","user_id":" ","group_id":"mine","stream_id":"model"}"#;
    assert_eq!(
        echoed("ctx_echo", arguments, &full_context()).await,
        r#"{"q":"x","user_id":" ","group_id":"mine","stream_id":"model","chat_id":"st","platform":"qq"}"#
    );
    let wrong = invoke("ctx_echo", r#"{"user_id":5}"#, &full_context()).await;
    assert_eq!(wrong.error_message, "Tool ctx_echo failed: InvalidArguments: user_id: expected string, got integer 5");
}

// "gets the context's value (when non-empty)": empty context values fill nothing, and with neither a
// stream nor a session id `stream_id`/`chat_id` are not added.
#[tokio::test]
async fn empty_context_values_fill_nothing() {
    let ctx = ToolExecutionContext { user_id: "u1".into(), ..Default::default() };
    assert_eq!(
        echoed("ctx_echo", r#"{"q":"x","group_id":""}"#, &ctx).await,
        r#"{"q":"x","group_id":"","user_id":"u1"}"#
    );
}

/// Needs a user and a chat.
#[tool]
fn who_needs(
    /// The user.
    user_id: String,
    /// The chat.
    chat_id: String,
) -> String {
    format!("{user_id}@{chat_id}")
}

// Context-named parameters "stay in the schema"; a required one is filled from the context, and
// left missing when the context has no value ("`{path}: missing required parameter`").
#[tokio::test]
async fn a_required_context_named_parameter_is_missing_when_the_context_has_no_value() {
    let ctx = ToolExecutionContext { session_id: "sess".into(), user_id: "u9".into(), ..Default::default() };
    assert_eq!(invoke("who_needs", "{}", &ctx).await.content, "u9@sess");
    let no_user = ToolExecutionContext { user_id: String::new(), ..ctx };
    assert_eq!(
        invoke("who_needs", "{}", &no_user).await.error_message,
        "Tool who_needs failed: InvalidArguments: user_id: missing required parameter"
    );
}

/// Echoes what it received, refusing unknown arguments.
#[tool(deny_unknown_args)]
fn plat_echo(
    call: &ToolInvocation,
    /// The platform.
    platform: Option<String>,
) -> Value {
    let _ = platform;
    call.arguments.to_value().unwrap_or(Value::Null)
}

/// Reads context parameters under other names.
#[tool]
fn ctx_renamed(
    /// The user, under its context name.
    #[param(rename = "user_id")]
    who: Option<String>,
    /// The platform, under another name.
    #[param(rename = "site")]
    platform: Option<String>,
) -> String {
    format!("{who:?}|{platform:?}")
}

// "each *declared* parameter among `stream_id`, `chat_id`, `group_id`, `user_id`, `platform`" (a
// parameter is declared under its schema name, `rename` included); "Undeclared keys are not added,
// so `deny_unknown_args` is unaffected (the Python SDK added all five)".
#[tokio::test]
async fn only_declared_context_parameters_are_added_by_their_schema_names() {
    assert_eq!(echoed("plat_echo", "{}", &full_context()).await, r#"{"platform":"qq"}"#);
    assert_eq!(invoke("ctx_renamed", "{}", &full_context()).await.content, r#"Some("u1")|None"#);
}

// ==== legacy action argument objects ==============================================================

/// Echoes the legacy argument object.
#[action(activation_type = "always")]
fn legacy_echo(call: &ToolInvocation) -> Value {
    call.arguments.to_value().unwrap_or(Value::Null)
}

// Legacy actions: "the model's arguments, plus each of the five keys above that is missing or empty
// (from a non-empty context value), then `stream_id` and `chat_id` set to `sid`, `reasoning` to the
// context's reasoning and `action_data` to a copy of the model's original arguments, overwriting
// model values" (sid = the stream id when there is one).
#[tokio::test]
async fn a_legacy_object_overwrites_ids_and_reasoning_and_keeps_other_model_values() {
    let arguments = r#"{"chat_id":"m","user_id":"","x":1,"group_id":"mg","reasoning":"model"}"#;
    assert_eq!(
        echoed("legacy_echo", arguments, &full_context()).await,
        r#"{"chat_id":"st","user_id":"u1","x":1,"group_id":"mg","reasoning":"why","stream_id":"st","platform":"qq","action_data":{"chat_id":"m","user_id":"","x":1,"group_id":"mg","reasoning":"model"}}"#
    );
}

// "`stream_id` and `chat_id` set to `sid`, `reasoning` to the context's reasoning" unconditionally;
// the other keys only "from a non-empty context value".
#[tokio::test]
async fn a_legacy_object_from_an_empty_context_still_has_ids_reasoning_and_data() {
    assert_eq!(
        echoed("legacy_echo", json!({"b": "2", "a": "1"}), &ToolExecutionContext::default()).await,
        r#"{"b":"2","a":"1","stream_id":"","chat_id":"","reasoning":"","action_data":{"b":"2","a":"1"}}"#
    );
}

/// Shows its legacy context.
#[action]
fn legacy_show(
    /// The target.
    target: Option<String>,
    ctx: &LegacyActionContext,
) -> String {
    format!(
        "{target:?}|{}|{}|{}|{}|{}|{}|{}",
        ctx.stream_id, ctx.chat_id, ctx.reasoning, ctx.group_id, ctx.user_id, ctx.platform, ctx.action_data
    )
}

// "The action fn gets its declared parameters from that object and may take `LegacyActionContext`
// (`stream_id`, `chat_id`, `reasoning`, `action_data`, `group_id`, `user_id`, `platform`)"; sid falls
// back to the session id; a model's non-empty `group_id` is kept.
#[tokio::test]
async fn a_legacy_action_reads_its_parameters_and_context_from_the_object() {
    let ctx = ToolExecutionContext {
        session_id: "sess".into(),
        reasoning: "r".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    };
    let result = invoke("legacy_show", r#"{"target":"t1","group_id":"mg"}"#, &ctx).await;
    assert_eq!(
        result.content, r#"Some("t1")|sess|sess|r|mg|u1|qq|{"target":"t1","group_id":"mg"}"#,
        "{}",
        result.error_message
    );
}

/// Takes context-named legacy parameters.
#[action]
fn legacy_params(
    /// The platform.
    platform: Option<String>,
    /// The reasoning.
    reasoning: Option<String>,
) -> String {
    format!("{platform:?}|{reasoning:?}")
}

// "The action fn gets its declared parameters from that object": a filled `platform`, and the
// context's `reasoning` "overwriting model values"; `action_data` = "a copy of the model's original
// arguments", replacing a model value of that name too.
#[tokio::test]
async fn legacy_parameters_are_read_from_the_finished_object() {
    let result = invoke("legacy_params", r#"{"reasoning":"model"}"#, &full_context()).await;
    assert_eq!(result.content, r#"Some("qq")|Some("why")"#, "{}", result.error_message);
    let result = invoke("legacy_echo", json!({"action_data": "x"}), &full_context()).await;
    assert_eq!(result.structured_content().unwrap()["action_data"], json!({"action_data": "x"}));
}

// "`from_action` is not `#[deprecated]` (hosts load legacy declarations); it logs one `tracing`
// warning per name: `legacy action "{name}" is converted to a tool; declare it with #[tool]`".
#[tokio::test]
async fn from_action_warns_once_per_name() {
    let convert = |name: &str| {
        let info: ActionInfo = serde_json::from_value(json!({"name": name, "description": "Waves."})).unwrap();
        ToolSpec::from_action(info).unwrap()
    };
    let ((), log) = logged(async {
        convert("rh_wave_once");
        convert("rh_wave_once");
        convert("rh_wave_twice");
    })
    .await;
    let warning = |name: &str| format!("legacy action \"{name}\" is converted to a tool; declare it with #[tool]");
    assert_eq!(log.matches(&warning("rh_wave_once")).count(), 1, "{log}");
    assert_eq!(log.matches(&warning("rh_wave_twice")).count(), 1, "{log}");
    assert!(log.lines().filter(|l| l.contains("is converted to a tool")).all(|l| l.contains("WARN")), "{log}");
}

// ==== own config updates ==========================================================================

/// Settings of the recording plugin.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct RhConfig {
    /// The mode.
    pub mode: String,
}

impl Default for RhConfig {
    fn default() -> Self {
        RhConfig { mode: "fast".into() }
    }
}

static UPDATES: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[derive(Default)]
pub struct RhConfigured;

/// Records its config updates.
#[plugin(id = "rh.configured", config = RhConfig)]
impl RhConfigured {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        UPDATES.lock().unwrap().push(format!("{scope} {version} {}", config["mode"]));
    }
}

// "`ConfigScope::Own` ("self"): normalise. Error ⇒ returned to the host; old config kept;
// `on_config_update` not called": a version that is not a string is *missing version* (zh-Hans
// `插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置`), a value of the wrong type is
// *invalid* (`invalid plugin config at {path}: {reason}` / `插件配置无效：{path}: {reason}`); "Otherwise …
// call `on_config_update(Own, &normalised, version)`".
#[tokio::test]
async fn a_refused_own_update_names_the_config_error_and_reaches_no_plugin_code() {
    let registry = ToolRegistry::default();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["rh.configured"]))
        .registry(&registry)
        .config_source(MemoryConfigSource::new())
        .build();
    assert!(host.load_all().await.is_clean());
    let ctx = host.context("rh.configured").unwrap();
    let config_error = |error: ConfigUpdateError| match error {
        ConfigUpdateError::Config(e) => e,
        other => panic!("not a config error: {other}"),
    };
    let unversioned = json!({"plugin": {"config_version": 7}});
    let error =
        config_error(host.update_config("rh.configured", ConfigScope::Own, unversioned, "2.0.0").await.unwrap_err());
    assert_eq!(error, ConfigError::MissingVersion);
    assert_eq!(
        error.message(Locale::ZhHans),
        "插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置"
    );
    let error = config_error(
        host.update_config("rh.configured", ConfigScope::Own, json!({"mode": 5}), "2.0.0").await.unwrap_err(),
    );
    assert!(error.message(Locale::En).starts_with("invalid plugin config at mode: "), "{error}");
    assert!(error.message(Locale::ZhHans).starts_with("插件配置无效：mode: "), "{}", error.message(Locale::ZhHans));
    assert!(UPDATES.lock().unwrap().is_empty(), "on_config_update is not called for a refused document");
    assert_eq!(ctx.config::<RhConfig>().unwrap().mode, "fast", "old config kept");
    host.update_config("rh.configured", ConfigScope::Own, json!({"mode": "slow"}), "2.0.0").await.unwrap();
    assert_eq!(*UPDATES.lock().unwrap(), [r#"self 2.0.0 "slow""#]);
    assert_eq!(ctx.config::<RhConfig>().unwrap().mode, "slow");
    host.shutdown().await;
}

// ==== argument decoding ===========================================================================

/// Takes a small count.
#[tool]
fn dec_small(
    /// A count.
    n: u8,
) -> String {
    n.to_string()
}

// "integers accept an in-range JSON integer, a float with zero fraction, or a string of optional
// sign + ASCII digits (trimmed)"; "`{path}: {value} is out of range for {rust type}`", `{value}` in
// compact JSON (a float stays a float: `256.0`).
#[tokio::test]
async fn whole_floats_and_digit_strings_are_integers_and_range_checked() {
    assert_eq!(content_of("dec_small", r#"{"n":2.0}"#).await, "2");
    assert_eq!(content_of("dec_small", r#"{"n":"  7 "}"#).await, "7");
    assert_eq!(arg_error("dec_small", r#"{"n":256.0}"#).await, "n: 256.0 is out of range for u8");
    assert_eq!(arg_error("dec_small", r#"{"n":-1}"#).await, "n: -1 is out of range for u8");
}

// "`{value}` is compact JSON" and "`{actual}` … booleans, numbers and strings are followed by a space
// and their compact JSON", compact JSON being "exactly `serde_json::to_string`" (`1e+16`, `5.0`): the
// value received is written in that form, whatever spelling the text used (Choices: "quote the
// offending value as received, as compact JSON").
#[tokio::test]
async fn numbers_in_argument_errors_are_written_as_compact_json() {
    assert_eq!(compact(&json!(1e20)), "1e+20", "the compact JSON of 1e20");
    assert_eq!(compact(&json!(2.50)), "2.5", "the compact JSON of 2.50");
    assert_eq!(arg_error("dec_optional", r#"{"word":2.50}"#).await, "word: expected string, got number 2.5");
    assert_eq!(arg_error("dec_optional", r#"{"word":1E3}"#).await, "word: expected string, got integer 1000.0");
    assert_eq!(arg_error("dec_wide", r#"{"n":1e20}"#).await, "n: 1e+20 is out of range for i64");
    assert_eq!(arg_error("dec_small", r#"{"n":2.56e2}"#).await, "n: 256.0 is out of range for u8");
    assert_eq!(arg_error("dec_small", r#"{"n":256.00}"#).await, "n: 256.0 is out of range for u8");
}

/// Takes wide integers.
#[tool]
fn dec_wide(
    /// A signed number.
    n: i64,
    /// An unsigned number.
    u: Option<u64>,
) -> String {
    format!("{n} {u:?}")
}

// "in-range JSON integer"; out of range names "the scalar type as written in the signature" (`u64`
// for `Option<u64>`).
#[tokio::test]
async fn integers_past_the_64_bit_limits_are_out_of_range() {
    assert_eq!(
        content_of("dec_wide", r#"{"n":-9223372036854775808,"u":18446744073709551615}"#).await,
        "-9223372036854775808 Some(18446744073709551615)"
    );
    assert_eq!(
        arg_error("dec_wide", r#"{"n":9223372036854775808}"#).await,
        "n: 9223372036854775808 is out of range for i64"
    );
    assert_eq!(arg_error("dec_wide", r#"{"n":1,"u":-1}"#).await, "u: -1 is out of range for u64");
}

/// Takes nested collections.
#[tool]
fn dec_grid(
    /// Rows of cells.
    grid: Vec<Vec<u8>>,
    /// Lists by name.
    by_name: Option<HashMap<String, Vec<i8>>>,
) -> String {
    format!("{grid:?} {}", by_name.map_or(0, |m| m.len()))
}

// "Path: the parameter name, then `.field`/`[index]`"; wrong type: "`{path}: expected {type}, got
// {actual}`" with `{type}` the schema type (`array`) and `{actual}` "a number with no fractional
// part" = `integer`, else `number`.
#[tokio::test]
async fn errors_inside_nested_collections_name_the_full_path() {
    assert_eq!(arg_error("dec_grid", r#"{"grid":[[1],[2,300]]}"#).await, "grid[1][1]: 300 is out of range for u8");
    assert_eq!(arg_error("dec_grid", r#"{"grid":[[1.5]]}"#).await, "grid[0][0]: expected integer, got number 1.5");
    assert_eq!(
        arg_error("dec_grid", r#"{"grid":[],"by_name":{"a":[1,"x"]}}"#).await,
        r#"by_name.a[1]: expected integer, got string "x""#
    );
    assert_eq!(arg_error("dec_grid", r#"{"grid":[5]}"#).await, "grid[0]: expected array, got integer 5");
    assert_eq!(
        arg_error_in(Locale::ZhHans, "dec_grid", r#"{"grid":[5]}"#).await,
        "grid[0]：应为 array，实际为 integer 5"
    );
    assert_eq!(arg_error("dec_grid", r#"{"grid":{}}"#).await, "grid: expected array, got object");
}

/// One line of an order.
#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Line {
    /// How many.
    pub qty: u32,
}

/// An order.
#[derive(serde::Deserialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Order {
    /// Its lines.
    pub lines: Vec<Line>,
}

/// Takes orders.
#[tool]
fn dec_orders(
    /// The orders.
    orders: Vec<Order>,
) -> String {
    orders.iter().map(|o| o.lines.iter().map(|l| l.qty).sum::<u32>()).sum::<u32>().to_string()
}

// "errors name the full JSON path" inside one's own types (`items[0].id`), missing fields reading
// "`{path}: missing required parameter`" / "`{path}：缺少必填参数`".
#[tokio::test]
async fn a_missing_field_deep_inside_user_types_is_named_by_its_path() {
    let arguments = r#"{"orders":[{"lines":[]},{"lines":[{"qty":1},{}]}]}"#;
    assert_eq!(arg_error("dec_orders", arguments).await, "orders[1].lines[1].qty: missing required parameter");
    assert_eq!(arg_error_in(Locale::ZhHans, "dec_orders", arguments).await, "orders[1].lines[1].qty：缺少必填参数");
    assert_eq!(content_of("dec_orders", r#"{"orders":[{"lines":[{"qty":2},{"qty":3}]}]}"#).await, "5");
}

/// Scales values.
#[tool]
fn dec_ratio(
    /// A factor.
    x: f64,
    /// More factors.
    xs: Vec<f32>,
) -> String {
    format!("{x} {xs:?}")
}

// "numbers accept a number or a string parsing as a finite decimal" (also as sequence elements);
// "booleans … are followed by a space and their compact JSON, `null` … named by kind only".
#[tokio::test]
async fn numbers_take_numeric_strings_and_name_other_kinds() {
    assert_eq!(content_of("dec_ratio", r#"{"x":"-0.25","xs":["1.5",2]}"#).await, "-0.25 [1.5, 2.0]");
    assert_eq!(arg_error("dec_ratio", r#"{"x":true,"xs":[]}"#).await, "x: expected number, got boolean true");
    assert_eq!(arg_error("dec_ratio", r#"{"x":"abc","xs":[]}"#).await, r#"x: expected number, got string "abc""#);
    assert_eq!(arg_error("dec_ratio", r#"{"x":1,"xs":[null]}"#).await, "xs[0]: expected number, got null");
}

/// Everything optional.
#[tool]
fn dec_optional(
    /// A word.
    word: Option<String>,
) -> String {
    format!("{word:?}")
}

// "Empty or whitespace text or `null` = `{}`. Invalid JSON, or JSON that is not an object, is an
// error"; "An absent or `null` optional parameter is `None`/default".
#[tokio::test]
async fn blank_or_null_argument_text_is_an_empty_object_and_null_takes_the_default() {
    for text in ["", " \n\t ", "null", r#"{"word":null}"#] {
        assert_eq!(content_of("dec_optional", text).await, "None", "{text:?}");
    }
    assert_eq!(content_of("forecast", r#"{"city":"x","unit":null,"days":null}"#).await, "x None 3");
    assert_eq!(content_of("forecast", r#"{"city":"x","unit":"f"}"#).await, r#"x Some("f") 3"#);
    for text in ["true", "[]", "5", r#""{}""#] {
        assert_eq!(arg_error("dec_optional", text).await, "arguments must be a JSON object", "{text}");
    }
}

// ==== handler outcome =============================================================================

/// Builds a full output.
#[tool]
fn out_full() -> ToolOutput {
    ToolOutput::text("  done  ")
        .with_structured(json!({"n": 1}))
        .with_item(ToolContentItem::text("t"))
        .with_post_history(json!({"role": "user", "content": "next"}))
        .stop_after_execution(true)
        .with_metadata("k", "v")
}

// "`ToolOutput` | its fields; `content` trimmed; success unless built with `failure`"; "the registry
// sets `tool_name`".
#[tokio::test]
async fn a_tool_output_keeps_every_part_it_was_built_with() {
    let result = free_tools(Locale::En).invoke(ToolInvocation::new("out_full", ""), None).await;
    assert_eq!((result.tool_name.as_str(), result.success, result.content.as_str()), ("out_full", true, "done"));
    assert_eq!(result.structured_content(), Some(&json!({"n": 1})));
    assert_eq!(result.content_items().len(), 1);
    assert_eq!(result.post_history_messages(), [json!({"role": "user", "content": "next"})]);
    assert!(result.stop_after_execution);
    assert_eq!(result.metadata.get("k"), Some(&json!("v")));
}

/// Returns raw values, or fails.
#[tool]
fn out_raw(
    /// Which value.
    which: u8,
) -> Result<Value, String> {
    match which {
        0 => Ok(json!([false, "  nope  "])),
        1 => Ok(json!({"content": "fine", "stop_after_execution": true})),
        2 => Ok(json!({"success": false})),
        _ => Err("  broke  ".into()),
    }
}

// "`Result<T, E: Display>` | `Ok` as T; `Err(e)` → failure, `error_message` = `e.to_string()`
// trimmed"; "`serde_json::Value` | `from_raw_in`"; the default failure text "`Tool execution failed` /
// `插件工具执行失败`" follows the locale.
#[tokio::test]
async fn a_result_of_a_raw_value_is_read_as_from_raw_in_the_registrys_locale() {
    let call = |locale, which: u8| async move {
        free_tools(locale).invoke(ToolInvocation::new("out_raw", json!({"which": which})), None).await
    };
    let pair = call(Locale::En, 0).await;
    assert_eq!((pair.success, pair.error_message.as_str()), (false, "nope"));
    assert_eq!(pair.structured_content(), Some(&json!([false, "  nope  "])));
    let object = call(Locale::En, 1).await;
    assert_eq!((object.success, object.content.as_str(), object.stop_after_execution), (true, "fine", true));
    assert_eq!(call(Locale::En, 2).await.error_message, "Tool execution failed");
    assert_eq!(call(Locale::ZhHans, 2).await.error_message, "插件工具执行失败");
    let err = call(Locale::En, 3).await;
    assert_eq!((err.success, err.error_message.as_str()), (false, "broke"));
}

/// Reports a failed pair.
#[tool]
fn pair_fail() -> (bool, &'static str) {
    (false, "  msg  ")
}

// A `(bool, msg)` pair from a Rust fn: the history is the message (the Python SDK's history showed
// `[false, "msg"]`, which `from_raw` keeps).
#[tokio::test]
async fn a_bool_pair_from_rust_shows_its_message_while_from_raw_keeps_the_array() {
    let result = free_tools(Locale::En).invoke(ToolInvocation::new("pair_fail", ""), None).await;
    assert_eq!(result.structured_content(), None);
    assert_eq!(result.history_content(Locale::En), "msg");
    let raw = ToolExecutionResult::from_raw("pair_fail", json!([false, "msg"]));
    assert_eq!(raw.history_content(Locale::En), r#"[false, "msg"]"#);
    assert_eq!(raw.history_content(Locale::ZhHans), r#"[false, "msg"]"#);
}

// ==== from_raw ====================================================================================

// Object: "`success` = truthiness of `success` (absent = true …)"; Falsy JSON: "`null`, `false`, `0`,
// `0.0`, `""`, `[]`, `{}`"; "`error_message` … else `Tool execution failed` / `插件工具执行失败`".
#[test]
fn every_falsy_success_value_is_a_failure_with_the_default_text() {
    for success in [json!(null), json!(0), json!(0.0), json!(""), json!([]), json!({})] {
        let raw = json!({"success": success});
        let en = ToolExecutionResult::from_raw("t", raw.clone());
        assert_eq!((en.success, en.error_message.as_str()), (false, "Tool execution failed"), "{raw}");
        let zh = ToolExecutionResult::from_raw_in("t", raw.clone(), Locale::ZhHans);
        assert_eq!((zh.success, zh.error_message.as_str()), (false, "插件工具执行失败"), "{raw}");
    }
    for success in [json!("0"), json!([0]), json!({"a": null}), json!(-1), json!(0.5)] {
        let raw = json!({"success": success, "error": "unused"});
        let result = ToolExecutionResult::from_raw("t", raw.clone());
        assert!(result.success, "{raw}");
        assert_eq!(result.error_message, "", "failures only: {raw}");
    }
}

// "`content` = the `content` value …, falsy → `""`, PyStr, trimmed" with PyRepr "`None`, `True`,
// `False`; integers in decimal; floats as PyFloat" ("`1.0`", "`1e-05`", "`1e+16`").
#[test]
fn object_content_of_every_kind_renders_as_python_prints_it() {
    for (content, expected) in [
        (json!(true), "True"),
        (json!(false), ""),
        (json!(3.0), "3.0"),
        (json!(1e22), "1e+22"),
        (json!(1e-7), "1e-07"),
        (json!(12345678901234567890_u64), "12345678901234567890"),
        (json!([1, "a", null, {"k": false}]), "[1, 'a', None, {'k': False}]"),
        (json!("  padded  "), "padded"),
    ] {
        let result = ToolExecutionResult::from_raw("t", json!({"content": content}));
        assert_eq!(result.content, expected, "{content}");
    }
}

// "`content` = the `content` value if the key exists, else `message`"; "`error_message` … = `error` if
// the key exists, else `message` …, PyStr, trimmed".
#[test]
fn a_non_string_message_is_both_content_and_error_and_errors_render_as_python() {
    let result = ToolExecutionResult::from_raw("t", json!({"success": false, "message": 404}));
    assert_eq!((result.content.as_str(), result.error_message.as_str()), ("404", "404"));
    let result = ToolExecutionResult::from_raw("t", json!({"success": false, "error": ["a", 1.5]}));
    assert_eq!(result.error_message, "['a', 1.5]");
    let result = ToolExecutionResult::from_raw("t", json!({"success": false, "error": true}));
    assert_eq!(result.error_message, "True");
}

// Items: "`content_type` = PyStr of the first truthy of `content_type`, `type`, `"unknown"`, trimmed";
// "`text`, `data` (first truthy of `data`, `base64`), `mime_type`, `uri`, `name`, `description` =
// PyStr, `""` when falsy; `metadata` only if an object"; serialised with "exactly these nine keys in
// this order (`"annotation": null` when absent)".
#[test]
fn content_item_fields_of_any_kind_are_read_as_python_strings() {
    let raw = json!({"content_items": [
        {"content_type": 0, "type": "image", "data": 0, "base64": "QUJD", "mime_type": 5, "name": true,
         "description": ["d"], "uri": null, "text": 1.5, "metadata": {"k": 1}, "annotation": {"title": "x"}},
        {"content_type": true, "text": "t"},
        {"type": "  binary  ", "data": "AAAA", "metadata": "not an object"},
    ]});
    let result = ToolExecutionResult::from_raw("t", raw);
    let items = serde_json::to_value(result.content_items()).unwrap();
    assert_eq!(
        compact(&items),
        concat!(
            r#"[{"content_type":"image","text":"1.5","data":"QUJD","mime_type":"5","uri":"","name":"True","description":"['d']","annotation":null,"metadata":{"k":1}},"#,
            r#"{"content_type":"unknown","text":"t","data":"","mime_type":"","uri":"","name":"","description":"","annotation":null,"metadata":{}},"#,
            r#"{"content_type":"binary","text":"","data":"AAAA","mime_type":"","uri":"","name":"","description":"","annotation":null,"metadata":{}}]"#
        )
    );
}

// "array starting with a bool: message = `""` if there is no second element or it is null, else its
// PyStr trimmed; `success` = the bool; message goes to `content` (true) or `error_message` (false);
// `structured_content` = the array" — so `false` and `0` as messages are printed, not dropped.
#[test]
fn a_bool_first_array_prints_any_non_null_second_element() {
    let failed = ToolExecutionResult::from_raw("t", json!([false, false]));
    assert_eq!((failed.success, failed.error_message.as_str(), failed.content.as_str()), (false, "False", ""));
    assert_eq!(failed.structured_content(), Some(&json!([false, false])));
    assert_eq!(ToolExecutionResult::from_raw("t", json!([true, 0])).content, "0");
    assert_eq!(ToolExecutionResult::from_raw("t", json!([true, [1, "a"], "x"])).content, "[1, 'a']");
    let ok = ToolExecutionResult::from_raw("t", json!([true, "  done  "]));
    assert_eq!((ok.success, ok.content.as_str(), ok.error_message.as_str()), (true, "done", ""));
}

// "anything else: success; `content` = `""` for null, else PyStr trimmed …; `structured_content` = the
// value (none for null)" — no falsy rule here: `0` prints `0`.
#[test]
fn other_values_are_successes_printed_whole_and_kept_as_structured_content() {
    let text = ToolExecutionResult::from_raw("t", json!("  hi  "));
    assert_eq!((text.success, text.content.as_str()), (true, "hi"));
    assert_eq!(text.structured_content(), Some(&json!("  hi  ")));
    let zero = ToolExecutionResult::from_raw("t", json!(0));
    assert_eq!((zero.content.as_str(), zero.structured_content()), ("0", Some(&json!(0))));
    let nested = ToolExecutionResult::from_raw("t", json!([[true], {"k": "it's"}]));
    assert_eq!(nested.content, r#"[[True], {'k': "it's"}]"#);
    let empty = ToolExecutionResult::from_raw("t", json!(""));
    assert_eq!((empty.success, empty.content.as_str(), empty.structured_content()), (true, "", Some(&json!(""))));
}

// PyRepr: "other non-printables (categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs except U+0020) as
// `\xhh`/`\uhhhh`/`\Uhhhhhhhh`; CJK and other printables raw"; PyFloat: "shortest round-trip digits
// …, fixed notation when −4 ≤ x < 16, always with a fractional digit …; otherwise `d[.ddd]e±XX`".
#[test]
fn python_reprs_escape_non_printables_and_print_floats_as_python() {
    let texts = ToolExecutionResult::from_raw(
        "t",
        json!([
            "\u{a0}",
            "\u{3000}",
            "\u{2028}",
            "\u{feff}",
            "\u{e000}",
            "\u{378}",
            "😀中",
            "\u{7f}",
            "\u{f0000}",
            "a\\b",
            "\r"
        ]),
    );
    assert_eq!(
        texts.content,
        r"['\xa0', '\u3000', '\u2028', '\ufeff', '\ue000', '\u0378', '😀中', '\x7f', '\U000f0000', 'a\\b', '\r']"
    );
    let floats = ToolExecutionResult::from_raw(
        "t",
        json!([1.5e16, 9999999999999998.0, 5e-324, -0.0, 1.7976931348623157e308, 0.30000000000000004, 1e-4, 9.5e-5]),
    );
    assert_eq!(
        floats.content,
        "[1.5e+16, 9999999999999998.0, 5e-324, -0.0, 1.7976931348623157e+308, 0.30000000000000004, 0.0001, 9.5e-05]"
    );
}

// ==== history text ================================================================================

// "structured content (a string trimmed, else PyJson …)": PyJson is JSON with `, ` and `: ` (`true`,
// `null`, floats as PyFloat).
#[test]
fn structured_history_is_a_trimmed_string_or_python_style_json() {
    let history =
        |value: Value| ToolExecutionResult::success("t", "").with_structured_content(value).history_content(Locale::En);
    assert_eq!(history(json!("  plain  ")), "plain");
    assert_eq!(history(json!(true)), "true");
    assert_eq!(history(json!([1, "a", null, 2.0])), r#"[1, "a", null, 2.0]"#);
    assert_eq!(history(json!({"a": {"b": [1, 2]}, "c": "中"})), r#"{"a": {"b": [1, 2]}, "c": "中"}"#);
    // "non-ASCII raw, control characters escaped as serde_json does, floats as PyFloat".
    assert_eq!(
        history(json!({"k": "\u{2028}\t\u{1}\"", "f": 1e-7, "g": [1.5e16, -0.0]})),
        "{\"k\": \"\u{2028}\\t\\u0001\\\"\", \"f\": 1e-07, \"g\": [1.5e+16, -0.0]}"
    );
}

// "First that applies: `content` trimmed if not blank; the item summaries …; structured content …;
// `error_message` trimmed" — on a failure as on a success.
#[test]
fn history_takes_content_then_items_then_structured_then_the_error() {
    let mut failed = ToolExecutionResult::failure("t", "  bad  ");
    assert_eq!(failed.history_content(Locale::En), "bad");
    *failed.structured_content_mut() = Some(json!({"e": 1}));
    assert_eq!(failed.history_content(Locale::En), r#"{"e": 1}"#);
    failed.content_items_mut().push(ToolContentItem::binary("AAAA", "application/pdf"));
    assert_eq!(failed.history_content(Locale::ZhHans), "[二进制内容 application/pdf]");
    failed.content = "  partial  ".into();
    assert_eq!(failed.history_content(Locale::ZhHans), "partial");
}

// "resource_link | `[resource link] {name or uri or resource link}`"; ""or" takes the first non-empty
// value, untrimmed"; summaries "joined with `\n`, trimmed" (the whole text, not each line).
#[test]
fn item_summaries_keep_untrimmed_values_inside_the_text() {
    let mut result = ToolExecutionResult::success("t", "");
    let mut link = ToolContentItem::resource_link("  ", "");
    link.name = String::new();
    *result.content_items_mut() = vec![link, ToolContentItem::text("end")];
    assert_eq!(result.history_content(Locale::En), "[resource link]   \nend");
    assert_eq!(result.history_content(Locale::ZhHans), "[资源链接]   \nend");
}

// ==== media split =================================================================================

// The worked example: "`call_abc`, items text, image named `cat "1".png` (metadata `context_key`
// `k<1>`), empty audio, resource_link `doc`, binary JPEG data URL → media 2, 4, 5"; ATTRS "`msg_id`,
// `type`, `mime`, `name`, `context_key`, `source_url`" escaped; `visible_text` = "`<tool_result_media
// msg_id="{index}" />` + `\n` + `type / mime / name / context_key=… / source_url=…` (present parts,
// unescaped) + `\n[图片]` / `\n[image]` if an image was decoded"; image "for type image (or binary with
// an `image/` mime)", "the part after the first comma of a `data:` URL".
#[test]
fn the_worked_media_example_splits_into_three_media_messages() {
    let mut result = ToolExecutionResult::success("draw", "");
    *result.content_items_mut() = vec![
        ToolContentItem::text("look"),
        ToolContentItem::image("iVBORw0KGgo=", "image/png")
            .with_name("cat \"1\".png")
            .with_metadata("context_key", "k<1>"),
        ToolContentItem::audio("", ""),
        ToolContentItem::resource_link("https://example.com/doc", "doc"),
        ToolContentItem::binary("data:image/jpeg;base64,/9j/4A==", "image/jpeg"),
    ];
    let list = "<tool_result_media_list>\n  <media msg_id=\"tool_result:call_abc:2\" type=\"image\" mime=\"image/png\" name=\"cat &quot;1&quot;.png\" context_key=\"k&lt;1&gt;\" />\n  <media msg_id=\"tool_result:call_abc:4\" type=\"resource_link\" name=\"doc\" />\n  <media msg_id=\"tool_result:call_abc:5\" type=\"binary\" mime=\"image/jpeg\" />\n</tool_result_media_list>";
    let en = split_tool_result("call_abc", "draw", &result, Locale::En);
    assert_eq!(
        en.tool_message,
        format!("look\n[image image/png]\n[audio unknown]\n[resource link] doc\n[binary image/jpeg]\n\n{list}")
    );
    let zh = split_tool_result("call_abc", "draw", &result, Locale::ZhHans);
    assert_eq!(
        zh.tool_message,
        format!("look\n[图片内容 image/png]\n[音频内容 unknown]\n[资源链接] doc\n[二进制内容 image/jpeg]\n\n{list}")
    );
    let summary: Vec<(&str, &str, usize)> =
        en.media.iter().map(|m| (m.message_id.as_str(), m.tool_call_id.as_str(), m.item_index)).collect();
    assert_eq!(
        summary,
        [
            ("tool_result:call_abc:2", "call_abc", 2),
            ("tool_result:call_abc:4", "call_abc", 4),
            ("tool_result:call_abc:5", "call_abc", 5)
        ]
    );
    assert_eq!(
        en.media[0].header_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:2\" type=\"image\" mime=\"image/png\" name=\"cat &quot;1&quot;.png\" context_key=\"k&lt;1&gt;\" />"
    );
    assert_eq!(
        en.media[0].visible_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:2\" />\nimage / image/png / cat \"1\".png / context_key=k<1>\n[image]"
    );
    assert_eq!(
        zh.media[0].visible_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:2\" />\nimage / image/png / cat \"1\".png / context_key=k<1>\n[图片]"
    );
    assert_eq!(en.media[0].image.as_deref(), Some(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a][..]));
    assert_eq!(
        en.media[1].header_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:4\" type=\"resource_link\" name=\"doc\" />"
    );
    assert_eq!(
        en.media[1].visible_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:4\" />\nresource_link / doc"
    );
    assert_eq!(en.media[1].image, None);
    assert_eq!(
        en.media[2].visible_text,
        "<tool_result_media msg_id=\"tool_result:call_abc:5\" />\nbinary / image/jpeg\n[image]"
    );
    assert_eq!(en.media[2].image.as_deref(), Some(&[0xff, 0xd8, 0xff, 0xe0][..]));
}

// "Media = type image, audio, resource_link, resource or binary with at least one of data, uri, name,
// description, mime_type not blank" (a mime type alone is enough; text and unknown items never are);
// "Items are numbered from 1 over the whole list"; "id = `call_id` trimmed", "`tool_call_id` =
// `call_id` as given".
#[test]
fn media_are_the_media_typed_items_with_any_non_blank_field() {
    let mut unknown = ToolContentItem::binary("QUJD", "image/png");
    unknown.content_type = ContentType::Unknown;
    let mut result = ToolExecutionResult::success("t", "");
    *result.content_items_mut() = vec![
        ToolContentItem::text("a").with_name("n"),
        unknown,
        ToolContentItem::image("", "image/png"),
        ToolContentItem::audio("  ", ""),
        ToolContentItem::image("QUJD", ""),
    ];
    let history = split_tool_result("  c  ", "t", &result, Locale::En);
    assert_eq!(
        history.tool_message,
        "a\n[unknown content]\n[image image/png]\n[audio unknown]\n[image unknown]\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:c:3\" type=\"image\" mime=\"image/png\" />\n  <media msg_id=\"tool_result:c:5\" type=\"image\" />\n</tool_result_media_list>"
    );
    let indices: Vec<usize> = history.media.iter().map(|m| m.item_index).collect();
    assert_eq!(indices, [3, 5]);
    assert!(history.media.iter().all(|m| m.tool_call_id == "  c  "));
    assert_eq!(history.media[0].image, None);
    assert_eq!(history.media[0].visible_text, "<tool_result_media msg_id=\"tool_result:c:3\" />\nimage / image/png");
    assert_eq!(history.media[1].image.as_deref(), Some(&b"ABC"[..]));
    assert_eq!(history.media[1].visible_text, "<tool_result_media msg_id=\"tool_result:c:5\" />\nimage\n[image]");
}

// ATTRS: "blank ones omitted, values trimmed and escaped (`&amp;` `&lt;` `&gt;` `&quot;` `&#x27;`)";
// `context_key`/`source_url` "from item metadata: object/array values count as blank, others PyStr,
// falsy = blank".
#[test]
fn media_attributes_are_trimmed_escaped_and_read_from_metadata_as_python_strings() {
    let mut result = ToolExecutionResult::success("t", "done");
    *result.content_items_mut() = vec![
        ToolContentItem::image("QUJD", " image/png ")
            .with_name("  cat.png  ")
            .with_metadata("context_key", 42)
            .with_metadata("source_url", " https://a/b?x=1&y='2' "),
        ToolContentItem::audio("QUJD", "audio/ogg")
            .with_metadata("context_key", json!([1]))
            .with_metadata("source_url", false),
    ];
    let history = split_tool_result("c", "t", &result, Locale::En);
    assert_eq!(
        history.media[0].header_text,
        "<tool_result_media msg_id=\"tool_result:c:1\" type=\"image\" mime=\"image/png\" name=\"cat.png\" context_key=\"42\" source_url=\"https://a/b?x=1&amp;y=&#x27;2&#x27;\" />"
    );
    assert_eq!(
        history.media[1].header_text,
        "<tool_result_media msg_id=\"tool_result:c:2\" type=\"audio\" mime=\"audio/ogg\" />"
    );
    assert!(
        history
            .tool_message
            .starts_with("done\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:c:1\" type=\"image\""),
        "{}",
        history.tool_message
    );
}

// Image: "data, else a `data:` uri; the part after the first comma of a `data:` URL; strict base64,
// else with padding added, else none"; "`image` for type image (or binary with an `image/` mime)".
#[test]
fn media_images_decode_only_strict_or_padded_base64() {
    let mut from_uri = ToolContentItem::image("", "image/png");
    from_uri.uri = "data:image/png;base64,QUJD".into();
    let mut result = ToolExecutionResult::success("t", "done");
    *result.content_items_mut() = vec![
        ToolContentItem::image("data:image/svg+xml,<svg/>", "image/svg+xml"),
        ToolContentItem::image("data:image/png;base64,QUJD,RUY=", "image/png"),
        ToolContentItem::image("-_-_", "image/png"),
        from_uri,
        ToolContentItem::audio("QUJD", "audio/ogg"),
        ToolContentItem::binary("QUJDRA", "image/gif"),
    ];
    let history = split_tool_result("c", "t", &result, Locale::En);
    let images: Vec<Option<&[u8]>> = history.media.iter().map(|m| m.image.as_deref()).collect();
    assert_eq!(images, [None, None, None, Some(&b"ABC"[..]), None, Some(&b"ABCD"[..])]);
    assert_eq!(
        history.media[5].visible_text,
        "<tool_result_media msg_id=\"tool_result:c:6\" />\nbinary / image/gif\n[image]"
    );
    assert_eq!(
        history.media[0].visible_text,
        "<tool_result_media msg_id=\"tool_result:c:1\" />\nimage / image/svg+xml"
    );
}
