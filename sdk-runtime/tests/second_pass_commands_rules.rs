//! A second, independent pass over the written rules for chat commands (patterns, parsing, help for
//! one and for all commands), the arguments plugin tools and legacy actions receive, the manifest,
//! plugin config and config updates: each test feeds concrete input and expects what the rules'
//! own words give.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{
    ChatScope, ConfigScope, Locale, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolParamType,
    ToolParameterInfo, ToolSpec, action, command, hook_handler, plugin, schemars, serde, tool,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, CommandError, CommandReply, CommandSet, CommandSpec, ConfigSource,
    HostClassification, LoadOutcome, MemoryConfigSource, PluginHost, PluginSet, PluginState, PluginToolProvider,
    RegistryConfig, ToolRegistry, manifest,
};

// ---- helpers ------------------------------------------------------------------------------------

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What the test plugins' lifecycle methods saw, oldest first.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap_or_else(|p| p.into_inner()).push(e.into());
}

/// Removes and returns the events that start with `prefix`.
fn take_events(prefix: &str) -> Vec<String> {
    let mut events = EVENTS.lock().unwrap_or_else(|p| p.into_inner());
    let (taken, kept): (Vec<String>, Vec<String>) = events.drain(..).partition(|e| e.starts_with(prefix));
    *events = kept;
    taken
}

fn param(name: &str, ty: ToolParamType, description: &str) -> ToolParameterInfo {
    ToolParameterInfo::new(name, ty).description(description)
}

/// `weather <city:text> [days:integer]`, built at run time, with the alias `天气`.
fn weather() -> CommandSpec {
    let spec = ToolSpec::builder("weather")
        .brief_description("Query weather information")
        .parameters(vec![
            param("city", ToolParamType::String, "City name"),
            param("days", ToolParamType::Integer, "Forecast days").required(false),
        ])
        .build()
        .unwrap();
    CommandSpec::from_tool(&spec).alias("天气")
}

fn parsed(command: &CommandSpec, text: &str) -> String {
    Value::Object(command.parse(text).unwrap().unwrap()).to_string()
}

fn parse_error(command: &CommandSpec, text: &str) -> CommandError {
    command.parse(text).expect_err(text)
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

/// A registry serving `specs` as built-in tools that answer `ok`.
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

/// A registry serving this binary's free `#[tool]`s, and the declared commands.
fn free_commands() -> (ToolRegistry, CommandSet) {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let mut set = CommandSet::new(&registry);
    set.extend(PluginSet::collect().commands());
    (registry, set)
}

/// The context of the written argument example: `{session_id:"sess", stream_id:"", group_id:"g1",
/// user_id:"u1", platform:"qq"}`.
fn example_context() -> ToolExecutionContext {
    ToolExecutionContext {
        session_id: "sess".into(),
        stream_id: String::new(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    }
}

// ==== pattern ====================================================================================

/// Order matters.
#[tool]
#[command]
fn sp_order(
    /// The first value.
    a: Option<String>,
    /// The second value.
    b: String,
) -> String {
    format!("{b}{}", a.unwrap_or_default())
}

// ==== parsing ====================================================================================

// "The host strips its own prefix (`/`, `!`, …) first"; "First token ≠ the command name and ≠ every
// alias (exact, case-sensitive) ⇒ `Ok(None)`".
#[test]
fn a_message_still_carrying_the_hosts_prefix_names_no_command() {
    let weather = weather();
    assert_eq!(weather.parse("/weather Oslo").unwrap(), None);
    assert_eq!(weather.parse("!天气 Oslo").unwrap(), None);
    assert_eq!(weather.parse("weatherOslo").unwrap(), None);
    assert_eq!(parsed(&weather, "  weather   Oslo  "), r#"{"city":"Oslo"}"#);
}

// "integer | `integer` | `i64` parse": an explicit sign parses.
#[test]
fn integer_tokens_are_read_by_i64_parse() {
    let weather = weather();
    assert_eq!(parsed(&weather, "weather Oslo +5"), r#"{"city":"Oslo","days":5}"#);
    assert_eq!(parsed(&weather, "weather Oslo -0"), r#"{"city":"Oslo","days":0}"#);
    assert_eq!(
        parse_error(&weather, "weather Oslo 5.0").to_string(),
        "Invalid value for <days:integer>: 5.0. Usage: weather <city:text> [days:integer]"
    );
}

// "`"…"` is one token"; bad value: "`Invalid value for <{name}:{type}>: {token}. Usage: {pattern}`" /
// "`参数 <{name}:{type}> 的值无效：{token}。用法：{pattern}`" — the token is what the quotes held.
#[test]
fn a_bad_value_names_the_token_without_its_quotes_in_both_locales() {
    let error = parse_error(&weather(), "weather Oslo \"x y\"");
    assert_eq!(error.to_string(), "Invalid value for <days:integer>: x y. Usage: weather <city:text> [days:integer]");
    assert_eq!(
        error.message(Locale::ZhHans),
        "参数 <days:integer> 的值无效：x y。用法：weather <city:text> [days:integer]"
    );
}

// An empty quoted token is a token: for an integer parameter its `i64` parse fails.
#[test]
fn an_empty_quoted_token_is_an_invalid_integer() {
    let error = parse_error(&weather(), "weather Oslo \"\"");
    assert!(matches!(&error, CommandError::BadValue { token, .. } if token.is_empty()), "{error:?}");
    assert_eq!(error.to_string(), "Invalid value for <days:integer>: . Usage: weather <city:text> [days:integer]");
}

// "number / float | `number` | `f64` parse (finite)".
#[test]
fn number_tokens_are_read_by_f64_parse() {
    let spec = ToolSpec::builder("scale")
        .brief_description("Scale")
        .parameters(vec![param("by", ToolParamType::Float, "Factor")])
        .build()
        .unwrap();
    let scale = CommandSpec::from_tool(&spec);
    assert_eq!(scale.pattern_text(), "scale <by:number>");
    assert_eq!(parsed(&scale, "scale .5"), r#"{"by":0.5}"#);
    assert_eq!(parsed(&scale, "scale +2"), r#"{"by":2.0}"#);
    assert_eq!(parsed(&scale, "scale 1E2"), r#"{"by":100.0}"#);
    for bad in ["1,5", "1_000", "-inf", "0x1"] {
        assert_eq!(
            parse_error(&scale, &format!("scale {bad}")).to_string(),
            format!("Invalid value for <by:number>: {bad}. Usage: scale <by:number>"),
            "{bad}"
        );
    }
}

// "array | `list` | split on `,`, items trimmed, empty items dropped, each converted by the item type".
#[test]
fn integer_list_items_are_trimmed_and_each_read_as_i64() {
    let spec = ToolSpec::builder("pick")
        .brief_description("Pick")
        .parameters(vec![param("ids", ToolParamType::Array, "Ids").items_schema(json!({"type": "integer"}))])
        .build()
        .unwrap();
    let pick = CommandSpec::from_tool(&spec);
    assert_eq!(pick.pattern_text(), "pick <ids:list>");
    assert_eq!(parsed(&pick, "pick \" 1, 2 ,,-3 \""), r#"{"ids":[1,2,-3]}"#);
    assert_eq!(parsed(&pick, "pick 7,"), r#"{"ids":[7]}"#);
    assert_eq!(
        parse_error(&pick, "pick 1,2.5").message(Locale::ZhHans),
        "参数 <ids:list> 的值无效：1,2.5。用法：pick <ids:list>"
    );
}

// "`<name:rest>` … (the rest of the line, raw, trimmed …)"; "Missing required ⇒ error": missing:
// "`Missing argument <{name}:{type}>. Usage: {pattern}`" / "`缺少参数 <{name}:{type}>。用法：{pattern}`".
#[test]
fn a_required_rest_parameter_with_nothing_left_is_missing() {
    let spec = ToolSpec::builder("say")
        .brief_description("Say")
        .parameters(vec![param("text", ToolParamType::String, "Text")])
        .build()
        .unwrap();
    let say = CommandSpec::from_tool(&spec).pattern("say <text:rest>").unwrap();
    let error = parse_error(&say, "say");
    assert_eq!(error.to_string(), "Missing argument <text:rest>. Usage: say <text:rest>");
    assert_eq!(error.message(Locale::ZhHans), "缺少参数 <text:rest>。用法：say <text:rest>");
    assert_eq!(parsed(&say, "say  a  \"b\" "), r#"{"text":"a  \"b\""}"#);
}

// "`Ok(Some(arguments))` holds only the given parameters": an optional parameter that is not given
// is absent, even when its spec has a default.
#[test]
fn parsed_arguments_hold_only_the_given_parameters() {
    let spec = ToolSpec::builder("conv")
        .brief_description("Convert")
        .parameters(vec![
            param("value", ToolParamType::Number, "Value"),
            param("level", ToolParamType::Integer, "Level").required(false).default(2),
        ])
        .build()
        .unwrap();
    let conv = CommandSpec::from_tool(&spec);
    assert_eq!(conv.pattern_text(), "conv <value:number> [level:integer]");
    assert_eq!(parsed(&conv, "conv 3"), r#"{"value":3.0}"#);
    assert_eq!(parsed(&conv, "conv 3 4"), r#"{"value":3.0,"level":4}"#);
}

// A command of a tool without parameters: its pattern is the name alone, no token may follow
// ("tokens left over ⇒ error"), and nothing is passed.
#[test]
fn a_command_without_parameters_takes_no_token() {
    let spec = ToolSpec::builder("ping").brief_description("Ping").build().unwrap();
    let ping = CommandSpec::from_tool(&spec).alias("p");
    assert_eq!(ping.pattern_text(), "ping");
    assert_eq!(parsed(&ping, "p"), "{}");
    let error = parse_error(&ping, "ping now");
    assert_eq!(error.to_string(), "Too many arguments. Usage: ping");
    assert_eq!(error.message(Locale::ZhHans), "参数过多。用法：ping");
}

// ==== help of one command ========================================================================

// The written help example, in English and with the zh-Hans labels.
#[test]
fn the_written_help_example_in_both_locales() {
    let spec = ToolSpec::builder("weather")
        .brief_description("Query weather information")
        .parameters(vec![
            param("city", ToolParamType::String, "City name"),
            param("days", ToolParamType::Number, "Forecast days").required(false),
        ])
        .build()
        .unwrap();
    let weather = CommandSpec::from_tool(&spec).alias("天气");
    assert_eq!(
        weather.help(Locale::En),
        "weather <city:text> [days:number]\n  Query weather information\n  Parameters:\n    city: string (required) City name\n    days: number (optional) Forecast days\n  Aliases: 天气"
    );
    assert_eq!(
        weather.help(Locale::ZhHans),
        "weather <city:text> [days:number]\n  Query weather information\n  参数：\n    city：string（必填）City name\n    days：number（可选）Forecast days\n  别名：天气"
    );
}

// "per parameter in pattern order": the generated pattern puts required parameters first, so the
// help does too.
#[test]
fn help_lists_a_required_parameter_declared_last_first() {
    let spec = ToolSpec::builder("t")
        .brief_description("Try")
        .parameters(vec![
            param("a", ToolParamType::Integer, "Optional one").required(false),
            param("b", ToolParamType::String, "Required one"),
        ])
        .build()
        .unwrap();
    let t = CommandSpec::from_tool(&spec);
    assert_eq!(
        t.help(Locale::En),
        "t <b:text> [a:integer]\n  Try\n  Parameters:\n    b: string (required) Required one\n    a: integer (optional) Optional one"
    );
    assert_eq!(
        t.help(Locale::ZhHans),
        "t <b:text> [a:integer]\n  Try\n  参数：\n    b：string（必填）Required one\n    a：integer（可选）Optional one"
    );
}

// "per parameter in pattern order": a parameter a custom pattern leaves out has no line.
#[test]
fn help_has_no_line_for_a_parameter_the_custom_pattern_leaves_out() {
    let spec = ToolSpec::builder("mark")
        .brief_description("Mark")
        .parameters(vec![
            param("n", ToolParamType::Integer, "Number"),
            param("note", ToolParamType::String, "Note").required(false),
        ])
        .build()
        .unwrap();
    let mark = CommandSpec::from_tool(&spec).pattern("mark <n:integer>").unwrap();
    assert_eq!(mark.help(Locale::En), "mark <n:integer>\n  Mark\n  Parameters:\n    n: integer (required) Number");
}

// Line 2 is "two spaces + `description(locale)`" — the brief; the detailed description is no part
// of the help.
#[test]
fn help_shows_the_brief_and_not_the_detailed_description() {
    let spec = ToolSpec::builder("explain")
        .brief_description("Explain a term")
        .detailed_description("A long text about explaining.")
        .parameters(vec![param("depth", ToolParamType::Integer, "How deep")])
        .build()
        .unwrap();
    let explain = CommandSpec::from_tool(&spec);
    assert_eq!(
        explain.help(Locale::En),
        "explain <depth:integer>\n  Explain a term\n  Parameters:\n    depth: integer (required) How deep"
    );
    assert!(!explain.help(Locale::ZhHans).contains("long text"));
}

// Optional lines "only when non-empty": scopes and examples without usage, aliases or permission.
#[test]
fn help_with_only_scopes_and_examples() {
    let spec = ToolSpec::builder("roll").brief_description("Roll a die").scopes([ChatScope::Private]).build().unwrap();
    let roll = CommandSpec::from_tool(&spec).example("roll").example("roll again");
    assert_eq!(roll.help(Locale::En), "roll\n  Roll a die\n  Scopes: private\n  Examples:\n    roll\n    roll again");
    assert_eq!(roll.help(Locale::ZhHans), "roll\n  Roll a die\n  场景：private\n  示例：\n    roll\n    roll again");
}

// ==== help for all commands ======================================================================

// The written example of help for all commands; an alias adds no line.
#[tokio::test]
async fn the_written_example_of_help_for_all_commands_in_both_locales() {
    let specs = vec![
        ToolSpec::builder("weather")
            .brief_description("Query weather information")
            .parameters(vec![
                param("city", ToolParamType::String, "City name"),
                param("days", ToolParamType::Integer, "Forecast days").required(false),
            ])
            .build()
            .unwrap(),
        ToolSpec::builder("ping").brief_description("Check that the bot is alive").build().unwrap(),
    ];
    let registry = registry_of(&specs);
    let mut set = CommandSet::new(&registry);
    set.insert(CommandSpec::from_tool(&specs[0]).alias("aaa").alias("天气"));
    set.insert(CommandSpec::from_tool(&specs[1]));
    let ctx = ToolExecutionContext::default();
    assert_eq!(
        set.help(&ctx, Locale::En).await,
        "Commands:\n  ping - Check that the bot is alive\n  weather <city:text> [days:integer] - Query weather information"
    );
    assert_eq!(
        set.help(&ctx, Locale::ZhHans).await,
        "可用命令：\n  ping - Check that the bot is alive\n  weather <city:text> [days:integer] - Query weather information"
    );
}

// "those whose tool the registry lists for it (… access rules passed …)": a platform limit.
#[tokio::test]
async fn help_for_all_commands_leaves_out_a_tool_of_another_platform() {
    let specs = vec![
        ToolSpec::builder("tg").brief_description("Telegram only").platforms(["telegram"]).build().unwrap(),
        ToolSpec::builder("all").brief_description("Everywhere").build().unwrap(),
    ];
    let registry = registry_of(&specs);
    let mut set = CommandSet::new(&registry);
    set.extend(specs.iter().map(CommandSpec::from_tool));
    let qq = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    assert_eq!(set.help(&qq, Locale::En).await, "Commands:\n  all - Everywhere");
    let telegram = ToolExecutionContext { platform: "telegram".into(), ..Default::default() };
    assert_eq!(set.help(&telegram, Locale::ZhHans).await, "可用命令：\n  all - Everywhere\n  tg - Telegram only");
}

// ==== commands run through the registry ===========================================================

/// Says who asks.
#[tool]
#[command]
fn sp_whoami(
    /// The user.
    user_id: Option<String>,
) -> String {
    user_id.unwrap_or_else(|| "nobody".into())
}

// "the call then goes through `ToolRegistry::invoke` with an execution context built from the
// message, so … argument decoding apply exactly as for model calls": a declared `user_id` that the
// message leaves out is filled from the context; one it gives is kept.
#[tokio::test]
async fn a_command_call_gets_declared_context_parameters_from_its_context() {
    let (_registry, set) = free_commands();
    let ctx = ToolExecutionContext { user_id: "u7".into(), platform: "qq".into(), ..Default::default() };
    assert_eq!(set.run("sp_whoami", &ctx).await.unwrap().text(Locale::En), "u7");
    assert_eq!(set.run("sp_whoami me", &ctx).await.unwrap().text(Locale::En), "me");
}

/// Telegram only.
#[tool(platforms = ["telegram"])]
#[command]
fn sp_tg_only() -> &'static str {
    "tg"
}

// "tool → command | peer: drops the permission level | through the registry: all access rules
// apply" — a platform limit too.
#[tokio::test]
async fn a_command_for_a_tool_of_another_platform_is_not_found() {
    let (_registry, set) = free_commands();
    let qq = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    assert_eq!(set.run("sp_tg_only", &qq).await.unwrap().text(Locale::En), "Tool not found: sp_tg_only");
    let telegram = ToolExecutionContext { platform: "telegram".into(), ..Default::default() };
    assert_eq!(set.run("sp_tg_only", &telegram).await.unwrap().text(Locale::En), "tg");
}

/// Takes too long.
#[tool(timeout_ms = 50)]
#[command]
async fn sp_slow() -> &'static str {
    tokio::time::sleep(Duration::from_secs(5)).await;
    "late"
}

// "so access rules, timeouts and argument decoding apply exactly as for model calls"; "a failure
// [renders] as its `error_message`".
#[tokio::test]
async fn a_command_call_times_out_as_a_model_call_does() {
    let (registry, set) = free_commands();
    let ctx = ToolExecutionContext::default();
    let reply = set.run("sp_slow", &ctx).await.unwrap();
    let CommandReply::Ran(result) = &reply else { panic!("{reply:?}") };
    assert!(!result.success);
    let direct = registry.invoke(ToolInvocation::new("sp_slow", "{}"), Some(&ctx)).await;
    assert!(!direct.error_message.is_empty());
    assert_eq!(reply.text(Locale::En), direct.error_message);
}

// ==== arguments of plugin tools and legacy actions ================================================

#[derive(Default)]
pub struct SpContext;

/// Echoes what its components receive.
#[plugin(id = "sp.context")]
impl SpContext {
    /// Echoes its arguments.
    #[tool]
    #[allow(clippy::too_many_arguments)]
    async fn sp_ctx_all(
        &self,
        call: &ToolInvocation,
        /// The query.
        q: String,
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

    /// Echoes its legacy argument object.
    #[allow(deprecated)]
    #[action(activation_type = "always")]
    async fn sp_ctx_legacy(&self, call: &ToolInvocation) -> Value {
        call.arguments.to_value().unwrap_or(Value::Null)
    }
}

async fn context_plugin_call(name: &str, arguments: &str, ctx: &ToolExecutionContext) -> String {
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["sp.context"])).registry(&registry).build();
    assert!(host.load_all().await.is_clean());
    let result = registry.invoke(ToolInvocation::new(name, arguments), Some(ctx)).await;
    host.shutdown().await;
    assert!(result.success, "{}", result.error_message);
    serde_json::to_string(result.structured_content().unwrap()).unwrap()
}

// The written example, through a `#[plugin]` method: all six parameters declared, arguments
// `{"q":"x","user_id":"","platform":"override"}` ⇒ `{"q":"x","user_id":"u1","platform":"override",
// "stream_id":"sess","chat_id":"sess","group_id":"g1"}`.
#[tokio::test]
async fn a_plugin_tool_receives_the_written_example_arguments() {
    let _serial = SERIAL.lock().await;
    assert_eq!(
        context_plugin_call("sp_ctx_all", r#"{"q":"x","user_id":"","platform":"override"}"#, &example_context()).await,
        r#"{"q":"x","user_id":"u1","platform":"override","stream_id":"sess","chat_id":"sess","group_id":"g1"}"#
    );
}

// Legacy actions: "plus each of the five keys above that is missing or empty …, then `stream_id` and
// `chat_id` set to `sid`, `reasoning` to the context's reasoning and `action_data` to a copy of the
// model's original arguments, overwriting model values" — through a `#[plugin]` method.
#[tokio::test]
async fn a_plugin_legacy_action_overwrites_the_models_stream_id_and_fills_empty_keys_in_place() {
    let _serial = SERIAL.lock().await;
    let ctx = ToolExecutionContext { reasoning: "because".into(), ..example_context() };
    assert_eq!(
        context_plugin_call("sp_ctx_legacy", r#"{"stream_id":"model","platform":"","x":1}"#, &ctx).await,
        r#"{"stream_id":"sess","platform":"qq","x":1,"chat_id":"sess","group_id":"g1","user_id":"u1","reasoning":"because","action_data":{"stream_id":"model","platform":"","x":1}}"#
    );
}

/// Declares only a query.
#[tool]
fn sp_only_q(
    call: &ToolInvocation,
    /// The query.
    q: String,
) -> Value {
    let _ = q;
    call.arguments.to_value().unwrap_or(Value::Null)
}

// "a tool declaring only `q` gets no `stream_id` key" (nor any other of the five).
#[tokio::test]
async fn a_tool_declaring_only_q_gets_no_context_key() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let ctx = ToolExecutionContext { stream_id: "st".into(), reasoning: "r".into(), ..example_context() };
    let result = registry.invoke(ToolInvocation::new("sp_only_q", r#"{"q":"x"}"#), Some(&ctx)).await;
    assert_eq!(serde_json::to_string(result.structured_content().unwrap()).unwrap(), r#"{"q":"x"}"#);
}

// ==== manifest ===================================================================================

#[derive(Default)]
pub struct SpManifest;

/// Components for the manifest.
#[plugin(id = "sp.manifest")]
impl SpManifest {
    /// Last by name.
    #[tool]
    async fn sp_m_zeta(&self) {}

    /// Look a word up.
    #[tool(description_zh_hans = "查词")]
    #[command(
        alias = ["查", "lk"],
        pattern = "sp_m_lookup <word:rest>",
        usage = ["sp_m_lookup <word>"],
        examples = ["sp_m_lookup rust", "查 rust"]
    )]
    async fn sp_m_lookup(
        &self,
        /// The word.
        word: String,
    ) -> String {
        word
    }

    /// Wave at someone.
    #[allow(deprecated)]
    #[action(activation_type = "keyword", activation_keywords = ["hi"])]
    async fn sp_m_wave(
        &self,
        /// Whom to wave at.
        target: Option<String>,
    ) -> String {
        target.unwrap_or_default()
    }

    #[hook_handler("send_service.before_send")]
    async fn zeta_h(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }

    #[hook_handler("chat.receive.before_process")]
    async fn alpha_h(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

fn manifest_of(ids: &[&str], classification: &HostClassification) -> Value {
    manifest::export(&PluginSet::collect().only(ids), classification)
}

// `{ "manifest_version": 1, "generator": "toolhook <version>", "plugins": [ … ] }`, keys in that order.
#[test]
fn the_manifest_starts_with_its_version_and_generator() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    assert_eq!(keys(&document), ["manifest_version", "generator", "plugins"]);
    assert_eq!(document["manifest_version"], json!(1));
    assert!(document["generator"].as_str().unwrap().starts_with("toolhook "), "{}", document["generator"]);
}

// "plugins by id, tools and handlers by name": tools and actions form one list sorted by name, and
// `kind` is the first key of each.
#[test]
fn manifest_tools_and_actions_are_one_list_sorted_by_name() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    let tools = document["plugins"][0]["tools"].as_array().unwrap();
    let listed: Vec<(&str, &str)> =
        tools.iter().map(|t| (t["name"].as_str().unwrap(), t["kind"].as_str().unwrap())).collect();
    assert_eq!(listed, [("sp_m_lookup", "tool"), ("sp_m_wave", "legacy_action"), ("sp_m_zeta", "tool")]);
    assert!(tools.iter().all(|t| keys(t)[0] == "kind"));
}

// `"command": null | { "pattern", "aliases", "usage", "examples", "help": { "en", "zh-Hans" } }`.
#[test]
fn a_manifest_command_has_its_pattern_aliases_usage_examples_and_help_in_order() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    let tools = document["plugins"][0]["tools"].as_array().unwrap();
    let command = &tools[0]["command"];
    assert_eq!(keys(command), ["pattern", "aliases", "usage", "examples", "help"]);
    assert_eq!(command["pattern"], "sp_m_lookup <word:rest>");
    assert_eq!(command["aliases"], json!(["查", "lk"]));
    assert_eq!(command["usage"], json!(["sp_m_lookup <word>"]));
    assert_eq!(command["examples"], json!(["sp_m_lookup rust", "查 rust"]));
    assert_eq!(
        command["help"]["zh-Hans"],
        "sp_m_lookup <word:rest>\n  查词\n  参数：\n    word：string（必填）The word.\n  别名：查、lk\n  用法：\n    sp_m_lookup <word>\n  示例：\n    sp_m_lookup rust\n    查 rust"
    );
    assert_eq!(
        command["help"]["en"],
        "sp_m_lookup <word:rest>\n  Look a word up.\n  Parameters:\n    word: string (required) The word.\n  Aliases: 查, lk\n  Usage:\n    sp_m_lookup <word>\n  Examples:\n    sp_m_lookup rust\n    查 rust"
    );
    assert_eq!(tools[2]["command"], Value::Null, "a tool without #[command]");
}

// "<the ToolSpec serialised form>": `description {en, zh-Hans}, detailed_description {en, zh-Hans}`;
// "both locales always present".
#[test]
fn manifest_tool_descriptions_carry_both_locales() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    let tools = document["plugins"][0]["tools"].as_array().unwrap();
    assert_eq!(tools[0]["description"], json!({"en": "Look a word up.", "zh-Hans": "查词"}));
    for tool in tools {
        assert_eq!(keys(&tool["description"]), ["en", "zh-Hans"], "{}", tool["name"]);
        assert_eq!(keys(&tool["detailed_description"]), ["en", "zh-Hans"], "{}", tool["name"]);
    }
}

// A legacy action's "spec's metadata keeps `legacy_action: true`, `legacy_component_type: "ACTION"`
// and the activation fields (`activation_type`, `activation_keywords`, `activation_probability`,
// `chat_mode`, `action_parameters`, `action_require`, `associated_types`, `parallel_action`,
// `action_prompt`)".
#[test]
fn a_manifest_legacy_action_keeps_its_legacy_metadata() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    let wave = &document["plugins"][0]["tools"][1];
    assert_eq!(
        serde_json::to_string(&wave["metadata"]).unwrap(),
        r#"{"legacy_action":true,"legacy_component_type":"ACTION","activation_type":"keyword","activation_keywords":["hi"],"activation_probability":1.0,"chat_mode":"normal","action_parameters":{"target":"Whom to wave at."},"action_require":[],"associated_types":[],"parallel_action":false,"action_prompt":""}"#
    );
}

// "handlers by name"; "`metadata` is the handler's `metadata(…)` (…; `{}` when none)"; "`null` for
// `HookArgs`".
#[test]
fn manifest_handlers_are_sorted_by_name_with_empty_metadata() {
    let document = manifest_of(&["sp.manifest"], &HostClassification::default());
    let handlers = document["plugins"][0]["hook_handlers"].as_array().unwrap();
    let names: Vec<(&str, &str, &str)> = handlers
        .iter()
        .map(|h| (h["name"].as_str().unwrap(), h["full_name"].as_str().unwrap(), h["hook"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("alpha_h", "sp.manifest.alpha_h", "chat.receive.before_process"),
            ("zeta_h", "sp.manifest.zeta_h", "send_service.before_send")
        ]
    );
    for handler in handlers {
        assert_eq!(handler["metadata"], json!({}));
        assert_eq!(handler["payload_schema"], Value::Null);
    }
}

#[derive(Default)]
pub struct SpSolo;

/// One segment.
#[plugin(id = "spsolo")]
impl SpSolo {
    /// Answers solo.
    #[tool]
    async fn sp_solo_tool(&self) -> &'static str {
        "solo"
    }
}

// "`source` is the given `HostClassification`'s verdict", here from `.builtin_if(predicate on the
// id)`; "plugins by id" (`.` sorts before `s`).
#[test]
fn manifest_sources_follow_a_builtin_predicate() {
    let classification = HostClassification::default().builtin_if(|id| id.starts_with("sp."));
    let document = manifest_of(&["spsolo", "sp.manifest"], &classification);
    let plugins: Vec<(&str, &str)> = document["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["source"].as_str().unwrap()))
        .collect();
    assert_eq!(plugins, [("sp.manifest", "builtin"), ("spsolo", "third_party")]);
}

#[derive(Default)]
pub struct SpClash;

/// A tool and an action of one name.
#[plugin(id = "sp.clash")]
impl SpClash {
    /// The tool.
    #[tool(name = "sp_clash")]
    async fn clash_tool(&self) {}

    /// The action.
    #[allow(deprecated)]
    #[action(name = "sp_clash")]
    async fn clash_action(&self) {}
}

// "two tools (or two actions, or a tool and an action) with the same name in one plugin: `duplicate
// tool {name} in plugin {id}`"; `"problems": [string]`. Only the clashing components are left out
// (the plugin loads without them), and the manifest still names the problem.
#[test]
fn a_tool_and_an_action_of_one_name_are_named_in_the_manifests_problems() {
    let document = manifest_of(&["sp.clash"], &HostClassification::default());
    let plugin = &document["plugins"][0];
    assert_eq!(plugin["state_on_collect"], "ok");
    assert_eq!(plugin["problems"], json!(["duplicate tool sp_clash in plugin sp.clash"]));
    assert_eq!(plugin["tools"], json!([]));
}

// "(and `to_string_pretty`)"; "identical output on every run".
#[test]
fn the_pretty_manifest_text_is_the_exported_value() {
    let classification = HostClassification::default().builtin(["sp.manifest"]);
    let set = PluginSet::collect().only(["sp.manifest", "spsolo", "sp.config"]);
    let text = manifest::to_string_pretty(&set, &classification);
    assert_eq!(text, manifest::to_string_pretty(&set, &classification));
    assert!(text.contains('\n'));
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value.to_string(), manifest::export(&set, &classification).to_string());
}

// "plugin id | ≥ 2 segments | ≥ 1 segment (package names)".
#[tokio::test]
async fn a_single_segment_plugin_id_is_collected_and_loaded() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["spsolo"]);
    assert!(set.get("spsolo").unwrap().problems().is_empty());
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(set).registry(&registry).build();
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    assert_eq!(registry.invoke(ToolInvocation::new("sp_solo_tool", "{}"), None).await.content, "solo");
    host.shutdown().await;
}

// ==== plugin config ==============================================================================

/// The config of `sp.config`.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct SpConfig {
    /// `fast` or `slow`.
    pub mode: String,
    /// A limit.
    pub limit: u32,
    /// Tags.
    pub tags: Vec<String>,
}

impl Default for SpConfig {
    fn default() -> Self {
        SpConfig { mode: "fast".into(), limit: 5, tags: vec!["a".into(), "b".into()] }
    }
}

#[derive(Default)]
pub struct SpConfigured;

/// Configurable.
#[plugin(id = "sp.config", config = SpConfig, config_version = "3.0.0")]
impl SpConfigured {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        let mode = self.config().mode.clone();
        event(format!("sp.config {scope} {version} mode={mode} {config}"));
    }

    /// Shows the mode.
    #[tool]
    async fn sp_config_mode(&self) -> String {
        self.config().mode.clone()
    }
}

fn config_host(registry: &ToolRegistry, source: MemoryConfigSource) -> PluginHost {
    PluginHost::builder()
        .plugins(PluginSet::collect().only(["sp.config"]))
        .registry(registry)
        .config_source(source)
        .build()
}

/// Loads `sp.config` from `stored` with a registry of `locale`; its outcome and current config.
async fn load_config(locale: Locale, stored: Value) -> (LoadOutcome, Option<Value>) {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    let host = config_host(&registry, MemoryConfigSource::new().with("sp.config", stored));
    let outcome = host.load_all().await.outcomes()[0].clone();
    let config = host.context("sp.config").map(|c| c.config_value());
    host.shutdown().await;
    (outcome, config)
}

fn failed_with(outcome: &LoadOutcome) -> Option<&str> {
    assert_eq!(outcome.state, PluginState::Failed, "{:?}", outcome.reason);
    outcome.reason.as_deref()
}

// Invalid (zh-Hans): "`插件配置无效：{path}: {reason}`", "path from serde".
#[tokio::test]
async fn an_invalid_top_level_value_fails_with_the_chinese_invalid_text() {
    let _serial = SERIAL.lock().await;
    let (outcome, config) =
        load_config(Locale::ZhHans, json!({"plugin": {"config_version": "3.0.0"}, "limit": "many"})).await;
    assert_eq!(failed_with(&outcome), Some(r#"插件配置无效：limit: invalid type: string "many", expected u32"#));
    assert_eq!(config, None);
}

// "Fill missing keys recursively from the defaults (objects merged key by key; arrays and scalars are
// values)": a shorter stored array is kept whole, not completed from the default's items.
#[tokio::test]
async fn a_stored_array_replaces_the_default_array_whole() {
    let _serial = SERIAL.lock().await;
    let (outcome, config) =
        load_config(Locale::En, json!({"plugin": {"config_version": "3.0.0"}, "tags": ["x"]})).await;
    assert_eq!(outcome.state, PluginState::Loaded, "{:?}", outcome.reason);
    assert_eq!(
        config,
        Some(
            json!({"plugin": {"config_version": "3.0.0", "enabled": true}, "mode": "fast", "limit": 5, "tags": ["x"]})
        )
    );
}

// ==== config updates =============================================================================

async fn loaded_config_host(source: MemoryConfigSource) -> (ToolRegistry, PluginHost) {
    let registry = ToolRegistry::default();
    let host = config_host(&registry, source);
    assert!(host.load_all().await.is_clean());
    take_events("sp.config");
    (registry, host)
}

// "The host stores the normalised document … after an accepted `update_config(Own)`"; "store it (so
// `ctx.config()` sees it) and call `on_config_update(Own, &normalised, version)`".
#[tokio::test]
async fn an_accepted_own_update_is_stored_and_announced_normalised() {
    let _serial = SERIAL.lock().await;
    let source = MemoryConfigSource::new();
    let (registry, host) = loaded_config_host(source.clone()).await;
    let document = json!({"plugin": {"config_version": "3.0.0"}, "mode": "slow"});
    host.update_config("sp.config", ConfigScope::Own, document, "3.1.0").await.unwrap();
    let normalised =
        json!({"plugin": {"config_version": "3.0.0", "enabled": true}, "mode": "slow", "limit": 5, "tags": ["a", "b"]});
    assert_eq!(source.load("sp.config").unwrap(), Some(normalised.clone()));
    let events = take_events("sp.config");
    assert_eq!(events.len(), 1, "{events:?}");
    let seen: Value = serde_json::from_str(events[0].strip_prefix("sp.config self 3.1.0 mode=slow ").unwrap()).unwrap();
    assert_eq!(seen, normalised);
    assert_eq!(registry.invoke(ToolInvocation::new("sp_config_mode", "{}"), None).await.content, "slow");
    host.shutdown().await;
}

// "`ConfigScope::Bot` / `ConfigScope::Model`: only for plugins subscribed to that scope": an
// unsubscribed plugin's `on_config_update` is not called and its config stays.
#[tokio::test]
async fn an_unsubscribed_plugin_gets_no_bot_or_model_update() {
    let _serial = SERIAL.lock().await;
    let (_registry, host) = loaded_config_host(MemoryConfigSource::new()).await;
    let _ = host.update_config("sp.config", ConfigScope::Bot, json!({"mode": "bot"}), "1").await;
    let _ = host.update_config("sp.config", ConfigScope::Model, json!({"mode": "model"}), "2").await;
    assert!(take_events("sp.config").is_empty());
    assert_eq!(host.context("sp.config").unwrap().config_value()["mode"], "fast");
    host.shutdown().await;
}
