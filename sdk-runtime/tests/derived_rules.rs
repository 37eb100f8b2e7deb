//! Written rules checked with concrete inputs and the outputs the rules' own words give: chat
//! commands (patterns, parsing, help), plugin config and its updates, lifecycle states, the
//! manifest, argument decoding and the forms a tool's return value takes.
#![allow(missing_debug_implementations)]

use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook::{
    ChatScope, ConfigScope, Locale, PermissionLevel, PluginContext, ToolContentItem, ToolExecutionContext,
    ToolExecutionResult, ToolInvocation, ToolOutput, ToolParamType, ToolParameterInfo, ToolSpec, Visibility, command,
    hook_handler, plugin, schemars, serde, tool,
};
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::{
    BoxError, BuiltinTool, BuiltinToolProvider, CommandError, CommandReply, CommandSet, CommandSpec, ConfigSource,
    HostClassification, MemoryConfigSource, PluginHost, PluginSet, PluginState, PluginToolProvider, RegistryConfig,
    ToolRegistry, manifest,
};

/// Plugins are singletons per program and record into shared statics: tests that load them take
/// turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What the test plugins saw, in order.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn event(e: impl Into<String>) {
    EVENTS.lock().unwrap_or_else(|p| p.into_inner()).push(e.into());
}

/// Takes (and removes) the events starting with `prefix`.
fn take_events(prefix: &str) -> Vec<String> {
    let mut events = EVENTS.lock().unwrap_or_else(|p| p.into_inner());
    let (taken, kept): (Vec<String>, Vec<String>) = events.drain(..).partition(|e| e.starts_with(prefix));
    *events = kept;
    taken
}

// ---- helpers ------------------------------------------------------------------------------------

fn param(name: &str, ty: ToolParamType) -> ToolParameterInfo {
    ToolParameterInfo::new(name, ty).description(format!("The {name}."))
}

fn spec(name: &str, brief: &str, parameters: Vec<ToolParameterInfo>) -> ToolSpec {
    ToolSpec::builder(name).brief_description(brief).parameters(parameters).build().unwrap()
}

/// `weather <city:text> [days:integer]` built at run time.
fn weather_command() -> CommandSpec {
    let spec = spec(
        "weather",
        "Query weather information",
        vec![param("city", ToolParamType::String), param("days", ToolParamType::Integer).required(false)],
    );
    CommandSpec::from_tool(&spec).alias("天气")
}

/// [`spec`] under a name a local binding cannot shadow.
fn spec_of(name: &str, brief: &str, parameters: Vec<ToolParameterInfo>) -> ToolSpec {
    spec(name, brief, parameters)
}

fn parsed(command: &CommandSpec, text: &str) -> String {
    Value::Object(command.parse(text).unwrap().unwrap()).to_string()
}

fn parse_error(command: &CommandSpec, text: &str) -> CommandError {
    command.parse(text).expect_err(text)
}

/// A registry serving this binary's free `#[tool]`s.
fn free_tools(locale: Locale) -> ToolRegistry {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

async fn call_in(locale: Locale, name: &str, arguments: &str) -> ToolExecutionResult {
    free_tools(locale).invoke(ToolInvocation::new(name, arguments), None).await
}

async fn call(name: &str, arguments: &str) -> ToolExecutionResult {
    call_in(Locale::En, name, arguments).await
}

/// The detail of an `InvalidArguments` failure (English).
async fn arg_error(name: &str, arguments: &str) -> String {
    let result = call(name, arguments).await;
    assert!(!result.success, "{name} {arguments} succeeded: {}", result.content);
    let prefix = format!("Tool {name} failed: InvalidArguments: ");
    result.error_message.strip_prefix(&prefix).unwrap_or_else(|| panic!("{}", result.error_message)).to_owned()
}

fn builtin(spec: ToolSpec) -> BuiltinTool {
    BuiltinTool::new(spec, |call: ToolInvocation, _ctx| async move {
        Ok(ToolExecutionResult::success(call.tool_name, "ok"))
    })
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

// ==== tools as chat commands =====================================================================

// "Generated unless `pattern` is given: the tool name, then every required parameter as
// `<name:type>`, then every optional one as `[name:type]`, each group in declaration order";
// integer → `integer`, number / float → `number`, boolean → `boolean`, array → `list`, object →
// `json`.
#[test]
fn generated_patterns_map_every_parameter_type_to_its_command_type() {
    let spec = spec(
        "mix",
        "Mixes things",
        vec![
            param("opts", ToolParamType::Object).required(false),
            param("flag", ToolParamType::Boolean),
            param("count", ToolParamType::Integer).required(false),
            param("ratio", ToolParamType::Float),
            param("ids", ToolParamType::Array).items_schema(json!({"type": "integer"})),
            param("weight", ToolParamType::Number).required(false),
        ],
    );
    assert_eq!(
        CommandSpec::from_tool(&spec).pattern_text(),
        "mix <flag:boolean> <ratio:number> <ids:list> [opts:json] [count:integer] [weight:number]"
    );
}

// "integer | `integer` | `i64` parse"; "number / float | `number` | `f64` parse (finite)"
#[test]
fn integer_and_number_tokens_parse_as_i64_and_finite_f64() {
    let pick = CommandSpec::from_tool(&spec("pick", "Picks", vec![param("n", ToolParamType::Integer)]));
    assert_eq!(parsed(&pick, "pick -42"), r#"{"n":-42}"#);
    assert_eq!(parsed(&pick, "pick 9223372036854775807"), r#"{"n":9223372036854775807}"#);
    for bad in ["9223372036854775808", "1.0", "0x10", "five"] {
        assert!(
            matches!(parse_error(&pick, &format!("pick {bad}")), CommandError::BadValue { ref token, .. } if token == bad),
            "{bad}"
        );
    }
    let calc = CommandSpec::from_tool(&spec("calc", "Calculates", vec![param("x", ToolParamType::Number)]));
    assert_eq!(parsed(&calc, "calc 3"), r#"{"x":3.0}"#);
    assert_eq!(parsed(&calc, "calc -2.5"), r#"{"x":-2.5}"#);
    assert_eq!(parsed(&calc, "calc 1e3"), r#"{"x":1000.0}"#);
    for bad in ["inf", "NaN", "1e400", "x1"] {
        assert_eq!(
            parse_error(&calc, &format!("calc {bad}")).to_string(),
            format!("Invalid value for <x:number>: {bad}. Usage: calc <x:number>"),
            "{bad}"
        );
    }
}

// "boolean | `boolean` | the lenient set: trimmed, case-insensitive `true false 1 0 yes no on off t
// f y n`"
#[test]
fn boolean_tokens_take_the_lenient_words_in_any_case() {
    let set = CommandSpec::from_tool(&spec("toggle", "Toggles", vec![param("on", ToolParamType::Boolean)]));
    for word in ["true", "TRUE", "1", "Yes", "ON", "t", "Y", "\" yes \""] {
        assert_eq!(parsed(&set, &format!("toggle {word}")), r#"{"on":true}"#, "{word}");
    }
    for word in ["false", "False", "0", "no", "OFF", "F", "n"] {
        assert_eq!(parsed(&set, &format!("toggle {word}")), r#"{"on":false}"#, "{word}");
    }
    for word in ["2", "ja", "\"\""] {
        assert!(matches!(parse_error(&set, &format!("toggle {word}")), CommandError::BadValue { .. }), "{word}");
    }
}

// "array | `list` | split on `,`, items trimmed, empty items dropped, each converted by the item
// type"; "object | `json` | JSON parse; must be an object"
#[test]
fn list_and_json_tokens_convert_as_the_table_says() {
    let spec = spec(
        "tag",
        "Tags",
        vec![
            param("names", ToolParamType::Array).items_schema(json!({"type": "string"})),
            param("sizes", ToolParamType::Array).items_schema(json!({"type": "number"})),
            param("flags", ToolParamType::Array).items_schema(json!({"type": "boolean"})).required(false),
        ],
    );
    let tag = CommandSpec::from_tool(&spec);
    assert_eq!(tag.pattern_text(), "tag <names:list> <sizes:list> [flags:list]");
    assert_eq!(
        parsed(&tag, r#"tag " a, b ,,c," 1,2.5 yes,OFF"#),
        r#"{"names":["a","b","c"],"sizes":[1.0,2.5],"flags":[true,false]}"#
    );
    assert_eq!(parsed(&tag, "tag , 3"), r#"{"names":[],"sizes":[3.0]}"#);
    assert_eq!(
        parse_error(&tag, "tag a 1,x").to_string(),
        "Invalid value for <sizes:list>: 1,x. Usage: tag <names:list> <sizes:list> [flags:list]"
    );
    let cfg = CommandSpec::from_tool(&spec_of("cfg", "Configures", vec![param("doc", ToolParamType::Object)]));
    assert_eq!(parsed(&cfg, r#"cfg {"a":[1,{"b":null}]}"#), r#"{"doc":{"a":[1,{"b":null}]}}"#);
    assert_eq!(parsed(&cfg, r#"cfg "{\"k\": \"v w\"}""#), r#"{"doc":{"k":"v w"}}"#);
    for bad in ["[1]", "1", "null", "{bad", r#""""#] {
        assert!(matches!(parse_error(&cfg, &format!("cfg {bad}")), CommandError::BadValue { .. }), "{bad}");
    }
}

// "Tokenise: split on Unicode whitespace; `"…"` is one token"; "First token ≠ the command name and ≠
// every alias (exact, case-sensitive) ⇒ `Ok(None)`"
#[test]
fn tokens_split_on_any_unicode_whitespace_and_quotes_make_one_token() {
    let weather = weather_command();
    assert_eq!(parsed(&weather, "天气\u{3000}北京\u{3000}3"), r#"{"city":"北京","days":3}"#);
    assert_eq!(parsed(&weather, "weather\tOslo\n 2"), r#"{"city":"Oslo","days":2}"#);
    assert_eq!(parsed(&weather, "weather\u{00A0}Rome"), r#"{"city":"Rome"}"#);
    assert_eq!(parsed(&weather, r#"weather "" 2"#), r#"{"city":"","days":2}"#);
    assert_eq!(parsed(&weather, r#""天气" "São Paulo""#), r#"{"city":"São Paulo"}"#);
    assert_eq!(weather.parse("WEATHER Oslo").unwrap(), None);
    assert_eq!(weather.parse("").unwrap(), None);
}

// "`<name:rest>` / `[name:rest]` (the rest of the line, raw, trimmed; only last)"; "`Ok(Some(arguments))`
// holds only the given parameters"
#[test]
fn a_rest_parameter_takes_the_raw_remaining_text() {
    let spec = spec(
        "memo",
        "Writes a memo",
        vec![param("title", ToolParamType::String), param("body", ToolParamType::String).required(false)],
    );
    let memo = CommandSpec::from_tool(&spec).pattern("memo <title:text> [body:rest]").unwrap();
    assert_eq!(
        Value::Object(memo.parse(r#"memo "To do"   say "hi"  to \\ all  "#).unwrap().unwrap()),
        json!({"title": "To do", "body": r#"say "hi"  to \\ all"#})
    );
    assert_eq!(parsed(&memo, "memo t1   "), r#"{"title":"t1"}"#);
}

// "Missing required ⇒ error; tokens left over ⇒ error; conversion failure ⇒ error." (in that order)
#[test]
fn missing_and_extra_arguments_are_found_before_conversion() {
    let spec = spec("pair", "Pairs", vec![param("a", ToolParamType::Integer), param("b", ToolParamType::Integer)]);
    let pair = CommandSpec::from_tool(&spec);
    assert_eq!(
        parse_error(&pair, "pair x").to_string(),
        "Missing argument <b:integer>. Usage: pair <a:integer> <b:integer>"
    );
    assert_eq!(parse_error(&pair, "pair x y z").to_string(), "Too many arguments. Usage: pair <a:integer> <b:integer>");
    assert_eq!(
        parse_error(&pair, "pair 1 y").to_string(),
        "Invalid value for <b:integer>: y. Usage: pair <a:integer> <b:integer>"
    );
}

// zh-Hans: "`参数过多。用法：{pattern}`", "`引号未闭合。用法：{pattern}`", "`缺少参数 <{name}:{type}>。用法：{pattern}`"
#[test]
fn command_errors_in_simplified_chinese() {
    let weather = weather_command();
    let usage = "weather <city:text> [days:integer]";
    assert_eq!(parse_error(&weather, "天气 a 1 2").message(Locale::ZhHans), format!("参数过多。用法：{usage}"));
    assert_eq!(parse_error(&weather, "天气 \"a b").message(Locale::ZhHans), format!("引号未闭合。用法：{usage}"));
    assert_eq!(parse_error(&weather, "天气").message(Locale::ZhHans), format!("缺少参数 <city:text>。用法：{usage}"));
    assert_eq!(
        parse_error(&weather, "天气 \"a b").message(Locale::En),
        format!("Unclosed quotation mark. Usage: {usage}")
    );
}

// "1. Tokenise: … an unclosed quote is an error. 2. First token ≠ the command name … ⇒ `Ok(None)`"
// (the quote error comes at step 1, before the command name is looked at)
#[test]
fn an_unclosed_quote_is_an_error_at_tokenising() {
    let weather = weather_command();
    assert!(matches!(weather.parse("forecast \"a b"), Err(CommandError::Quote { .. })));
}

// "A custom pattern uses the same tokens plus `<name:rest>` / `[name:rest]` (… only last) …
// every token must name a declared parameter and every required parameter must appear as `<…>`;
// … Whether a token's type fits its parameter (types from the table, `rest` only for string
// parameters)"
#[test]
fn a_custom_pattern_must_fit_its_tools_parameters() {
    let spec = spec(
        "mark",
        "Marks",
        vec![param("n", ToolParamType::Integer), param("note", ToolParamType::String).required(false)],
    );
    let custom = |pattern: &str| CommandSpec::from_tool(&spec).pattern(pattern);
    assert!(custom("mark <n:integer> [note:rest]").is_ok());
    assert!(custom("mark <n:integer> [note:text]").is_ok());
    assert!(custom("mark <n:integer>").is_ok(), "an optional parameter may be left out");
    for bad in [
        "mark <n:text>",
        "mark <n:number>",
        "mark <n:rest>",
        "mark [note:rest] <n:integer>",
        "mark <n:integer> [other:text]",
        "mark [note:text]",
    ] {
        let error = custom(bad).expect_err(bad).to_string();
        assert!(error.contains("mark"), "{bad}: {error}");
    }
    // A parameter the pattern leaves out cannot be given: the token is one too many.
    let short = custom("mark <n:integer>").unwrap();
    assert_eq!(parse_error(&short, "mark 1 x").to_string(), "Too many arguments. Usage: mark <n:integer>");
}

// Help: "the pattern; two spaces + `description(locale)`; `  Parameters:` … `    {name}: {schema
// type} (required|optional) {description}` (no description ⇒ nothing after the marker, no space);
// … `  Permission: {level}` (only above `user`); `  Platforms: qq, telegram`; `  Scopes: group,
// private`"; "`  Usage:` / `  用法：` then each usage line indented by four spaces"; "optional lines
// only when non-empty"
#[test]
fn help_lists_only_the_lines_that_apply_in_their_order() {
    let spec = ToolSpec::builder("find")
        .brief_description("Find things")
        .parameters(vec![
            param("q", ToolParamType::String).description("Query text"),
            ToolParameterInfo::new("n", ToolParamType::Integer).required(false),
            param("r", ToolParamType::Float).required(false).description("Ratio"),
        ])
        .platforms(["qq", "telegram"])
        .scopes([ChatScope::Group, ChatScope::Private])
        .build()
        .unwrap();
    let find = CommandSpec::from_tool(&spec);
    assert_eq!(
        find.help(Locale::En),
        "find <q:text> [n:integer] [r:number]\n  Find things\n  Parameters:\n    q: string (required) Query text\n    n: integer (optional)\n    r: number (optional) Ratio\n  Platforms: qq, telegram\n  Scopes: group, private"
    );
    assert_eq!(
        find.help(Locale::ZhHans),
        "find <q:text> [n:integer] [r:number]\n  Find things\n  参数：\n    q：string（必填）Query text\n    n：integer（可选）\n    r：number（可选）Ratio\n  平台：qq、telegram\n  场景：group、private"
    );
    // A tool without parameters has no parameter lines; one above `user` shows its permission.
    let spec = ToolSpec::builder("kick")
        .brief_description("Kick someone")
        .permission(PermissionLevel::GroupAdmin)
        .build()
        .unwrap();
    let kick = CommandSpec::from_tool(&spec).usage("kick now").usage("kick later").example("kick");
    assert_eq!(kick.pattern_text(), "kick");
    assert_eq!(
        kick.help(Locale::ZhHans),
        "kick\n  Kick someone\n  权限：group_admin\n  用法：\n    kick now\n    kick later\n  示例：\n    kick"
    );
    assert_eq!(
        kick.help(Locale::En),
        "kick\n  Kick someone\n  Permission: group_admin\n  Usage:\n    kick now\n    kick later\n  Examples:\n    kick"
    );
}

/// Tools for command sets: two for anyone, one hidden, one switched off, one for Telegram only.
fn command_specs() -> Vec<ToolSpec> {
    vec![
        spec("Zulu", "Last letter", vec![]),
        spec("alpha", "First letter", vec![param("x", ToolParamType::String).required(false)]),
        ToolSpec::builder("beta").brief_description("Hidden").visibility(Visibility::Hidden).build().unwrap(),
        ToolSpec::builder("gamma").brief_description("Switched off").enabled(false).build().unwrap(),
        ToolSpec::builder("delta").brief_description("Telegram only").platforms(["telegram"]).build().unwrap(),
    ]
}

fn command_registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    let mut provider = BuiltinToolProvider::new().without_tool_search();
    for spec in command_specs() {
        let tool = builtin(spec.clone()).enabled(spec.enabled());
        provider = provider.with_tool(match spec.visibility() {
            Visibility::Hidden => tool.visibility(Visibility::Hidden),
            _ => tool,
        });
    }
    registry.register_provider(provider);
    registry
}

// "`help(&ctx, locale)` … lists the commands available in that context, those whose tool the
// registry lists for it (enabled, not hidden, access rules passed …), sorted by command name (byte
// order)"; "two spaces + its pattern, then ` - ` + `description(locale)`"
#[tokio::test]
async fn help_for_all_commands_lists_available_ones_in_byte_order() {
    let registry = command_registry();
    let mut set = CommandSet::new(&registry);
    set.extend(command_specs().iter().map(CommandSpec::from_tool));
    let qq = ToolExecutionContext { platform: "qq".into(), ..Default::default() };
    assert_eq!(set.help(&qq, Locale::En).await, "Commands:\n  Zulu - Last letter\n  alpha [x:rest] - First letter");
    let telegram = ToolExecutionContext { platform: "telegram".into(), ..Default::default() };
    assert_eq!(
        set.help(&telegram, Locale::ZhHans).await,
        "可用命令：\n  Zulu - Last letter\n  alpha [x:rest] - First letter\n  delta - Telegram only"
    );
}

// "a second command with the same name replaces the first"
#[tokio::test]
async fn a_second_command_with_the_same_name_replaces_the_first() {
    let registry = command_registry();
    let alpha = registry.get_tool_spec("alpha", None).await.unwrap();
    let mut set = CommandSet::new(&registry);
    set.insert(CommandSpec::from_tool(&alpha).alias("a"));
    set.insert(CommandSpec::from_tool(&alpha).pattern("alpha [x:text]").unwrap());
    let ctx = ToolExecutionContext::default();
    assert_eq!(set.help(&ctx, Locale::En).await, "Commands:\n  alpha [x:text] - First letter");
    match set.run("alpha one two", &ctx).await {
        Some(CommandReply::Invalid(error)) => {
            assert_eq!(error.to_string(), "Too many arguments. Usage: alpha [x:text]")
        }
        other => panic!("{other:?}"),
    }
    assert!(set.run("a one", &ctx).await.is_none(), "the replaced command's alias is gone");
}

/// Repeats a word.
#[tool]
#[command]
fn dr_repeat(
    /// How many times.
    times: u8,
    /// The word.
    word: String,
) -> String {
    vec![word; usize::from(times)].join(" ")
}

/// Shows a picture.
#[tool]
#[command]
fn dr_picture() -> ToolOutput {
    ToolOutput::text("").with_item(ToolContentItem::image("AAAA", "image/png"))
}

/// Half done.
#[tool]
#[command]
fn dr_partial() -> ToolExecutionResult {
    let mut result = ToolExecutionResult::failure("dr_partial", "");
    result.content = "half done".into();
    result
}

fn declared_commands() -> CommandSet {
    let registry = free_tools(Locale::En);
    let mut set = CommandSet::new(&registry);
    set.extend(PluginSet::collect().commands());
    set
}

// "the call then goes through `ToolRegistry::invoke` … so access rules, timeouts and argument
// decoding apply exactly as for model calls"
#[tokio::test]
async fn a_command_call_decodes_its_arguments_as_a_model_call() {
    let set = declared_commands();
    let ctx = ToolExecutionContext::default();
    let ok = set.run("dr_repeat 2 ho", &ctx).await.unwrap();
    assert_eq!(ok.text(Locale::En), "ho ho");
    let out_of_range = set.run("dr_repeat 300 hi", &ctx).await.unwrap();
    assert_eq!(
        out_of_range.text(Locale::En),
        "Tool dr_repeat failed: InvalidArguments: times: 300 is out of range for u8"
    );
}

// "A finished command renders as the result's `history_content(locale)`; a failure as its
// `error_message` (the history text when that is empty)."
#[tokio::test]
async fn a_command_reply_is_the_history_text_or_the_error_message() {
    let set = declared_commands();
    let ctx = ToolExecutionContext::default();
    let picture = set.run("dr_picture", &ctx).await.unwrap();
    assert_eq!(picture.text(Locale::En), "[image image/png]");
    assert_eq!(picture.text(Locale::ZhHans), "[图片内容 image/png]");
    let partial = set.run("dr_partial", &ctx).await.unwrap();
    assert!(matches!(&partial, CommandReply::Ran(r) if !r.success), "{partial:?}");
    assert_eq!(partial.text(Locale::En), "half done");
}

/// Renamed.
#[tool(name = "dr_renamed")]
#[command(alias = ["dr_rn"])]
fn dr_original_fn_name(
    /// How many.
    n: i64,
) -> String {
    n.to_string()
}

// "The command has the tool's name."; "Declared commands live with the plugin's registrations
// (`PluginSet::commands()`, the declared `CommandSpec`s sorted by name)"
#[tokio::test]
async fn a_declared_command_has_its_tools_name() {
    let commands = PluginSet::collect().commands();
    let names: Vec<&str> = commands.iter().map(CommandSpec::name).collect();
    assert!(names.contains(&"dr_renamed"), "{names:?}");
    assert!(!names.contains(&"dr_original_fn_name"), "{names:?}");
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    let renamed = commands.iter().find(|c| c.name() == "dr_renamed").unwrap();
    assert_eq!(renamed.pattern_text(), "dr_renamed <n:integer>");
    let set = declared_commands();
    let reply = set.run("dr_rn 7", &ToolExecutionContext::default()).await.unwrap();
    assert_eq!(reply.text(Locale::En), "7");
}

/// Reads the news.
#[tool(description_zh_hans = "阅读新闻")]
#[command]
fn dr_news(
    /// The topic.
    topic: Option<String>,
) -> String {
    topic.unwrap_or_default()
}

// Help: "2. two spaces + `description(locale)`"; all commands: "two spaces + its pattern, then ` - `
// + `description(locale)`"
#[tokio::test]
async fn help_texts_use_the_description_of_their_locale() {
    let news = PluginSet::collect().commands().into_iter().find(|c| c.name() == "dr_news").unwrap();
    assert_eq!(news.help(Locale::En).lines().nth(1), Some("  Reads the news."));
    assert_eq!(news.help(Locale::ZhHans).lines().nth(1), Some("  阅读新闻"));
    let set = declared_commands();
    let ctx = ToolExecutionContext::default();
    assert!(set.help(&ctx, Locale::ZhHans).await.lines().any(|l| l == "  dr_news [topic:rest] - 阅读新闻"));
    assert!(set.help(&ctx, Locale::En).await.lines().any(|l| l == "  dr_news [topic:rest] - Reads the news."));
}

// ==== plugin config ==============================================================================

/// Settings of the settings plugin.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct DrSettings {
    /// A limit.
    pub limit: u32,
    /// A ratio.
    pub ratio: f64,
    /// Tags.
    pub tags: Vec<String>,
    /// Nested settings.
    pub nested: DrNested,
}

impl Default for DrSettings {
    fn default() -> Self {
        DrSettings { limit: 5, ratio: 0.5, tags: vec!["a".into(), "b".into()], nested: DrNested::default() }
    }
}

/// Nested settings.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct DrNested {
    /// Whether it is on.
    pub on: bool,
    /// Its name.
    pub name: String,
}

impl Default for DrNested {
    fn default() -> Self {
        DrNested { on: true, name: "n".into() }
    }
}

#[derive(Default)]
pub struct Settings;

/// Configurable.
#[plugin(id = "dr.settings", config = DrSettings, config_version = "2.0.0", config_subscriptions = ["model"])]
impl Settings {
    async fn on_config_update(&self, scope: ConfigScope, config: &Value, version: &str) {
        let limit = self.config().limit;
        event(format!("dr.settings update {scope} {version} limit={limit} {config}"));
    }

    /// Reads the limit.
    #[tool]
    async fn dr_settings_limit(&self) -> String {
        self.config().limit.to_string()
    }
}

const SETTINGS_DEFAULTS: &str = r#"{"plugin":{"config_version":"2.0.0","enabled":true},"limit":5,"ratio":0.5,"tags":["a","b"],"nested":{"on":true,"name":"n"}}"#;

/// A config source that counts what it is handed.
#[derive(Clone, Default)]
struct Recording {
    stored: Option<Value>,
    handed: Arc<Mutex<Vec<Value>>>,
}

impl ConfigSource for Recording {
    fn load(&self, _plugin_id: &str) -> Result<Option<Value>, BoxError> {
        Ok(self.stored.clone())
    }

    fn store(&self, _plugin_id: &str, document: &Value) -> Result<(), BoxError> {
        self.handed.lock().unwrap().push(document.clone());
        Ok(())
    }
}

fn settings_host(registry: &ToolRegistry, source: impl ConfigSource) -> PluginHost {
    PluginHost::builder()
        .plugins(PluginSet::collect().only(["dr.settings"]))
        .registry(registry)
        .config_source(source)
        .build()
}

/// Loads `dr.settings` from a stored document; its state, its context's config text, and the
/// documents handed to the source.
async fn load_settings(stored: Value) -> (PluginState, Option<String>, Option<String>, Vec<Value>) {
    let registry = ToolRegistry::default();
    let source = Recording { stored: Some(stored), ..Default::default() };
    let host = settings_host(&registry, source.clone());
    let report = host.load_all().await;
    let state = report.outcomes()[0].state;
    let config = host.context("dr.settings").map(|c| c.config_value().to_string());
    let reason = host.reason("dr.settings");
    host.shutdown().await;
    let handed = source.handed.lock().unwrap().clone();
    (state, config, reason, handed)
}

// "Empty document (absent or `{}`) ⇒ the defaults"; "Fill missing keys recursively from the
// defaults (objects merged key by key; arrays and scalars are values)"; "The host stores the normalised document when normalisation reports `changed`"
#[tokio::test]
async fn missing_config_keys_are_filled_recursively_and_arrays_are_kept_whole() {
    let _serial = SERIAL.lock().await;
    // "Empty document (absent or `{}`) ⇒ the defaults, `changed = true`."
    let (state, config, _, handed) = load_settings(json!({})).await;
    assert_eq!((state, config.as_deref()), (PluginState::Loaded, Some(SETTINGS_DEFAULTS)));
    assert_eq!(handed.iter().map(Value::to_string).collect::<Vec<_>>(), [SETTINGS_DEFAULTS]);
    let stored = json!({"plugin": {"config_version": "2.0.0"}, "tags": [], "nested": {"name": "x"}});
    let (state, config, _, handed) = load_settings(stored).await;
    assert_eq!(state, PluginState::Loaded);
    let expected = r#"{"plugin":{"config_version":"2.0.0","enabled":true},"limit":5,"ratio":0.5,"tags":[],"nested":{"on":true,"name":"x"}}"#;
    assert_eq!(config.as_deref(), Some(expected));
    assert_eq!(handed.iter().map(Value::to_string).collect::<Vec<_>>(), [expected]);
}

// "`changed` = anything was filled or the round trip altered the document"; the host stores the
// document only "when normalisation reports `changed`"
#[tokio::test]
async fn a_normal_document_is_not_stored_again_but_one_the_round_trip_alters_is() {
    let _serial = SERIAL.lock().await;
    let normal: Value = serde_json::from_str(SETTINGS_DEFAULTS).unwrap();
    let (state, config, _, handed) = load_settings(normal).await;
    assert_eq!((state, config.as_deref()), (PluginState::Loaded, Some(SETTINGS_DEFAULTS)));
    assert!(handed.is_empty(), "{handed:?}");

    let mut altered: Value = serde_json::from_str(SETTINGS_DEFAULTS).unwrap();
    altered["ratio"] = json!(1);
    let (_, config, _, handed) = load_settings(altered).await;
    let expected = SETTINGS_DEFAULTS.replace(r#""ratio":0.5"#, r#""ratio":1.0"#);
    assert_eq!(config.as_deref(), Some(expected.as_str()));
    assert_eq!(handed.iter().map(Value::to_string).collect::<Vec<_>>(), [expected]);
}

// "A stored version different from the declared one is accepted"; "Deserialise the non-`plugin`
// part into `C` (unknown keys ignored …), serialise back" (so unknown keys, nested ones too, drop)
#[tokio::test]
async fn another_stored_version_is_accepted_and_unknown_nested_keys_drop() {
    let _serial = SERIAL.lock().await;
    let stored =
        json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "nested": {"on": false, "zzz": 1}, "zzz": 2});
    let (state, config, _, _) = load_settings(stored).await;
    assert_eq!(state, PluginState::Loaded);
    assert_eq!(
        config.as_deref(),
        Some(
            r#"{"plugin":{"config_version":"1.0.0","enabled":true},"limit":5,"ratio":0.5,"tags":["a","b"],"nested":{"on":false,"name":"n"}}"#
        )
    );
}

// "Read the stored config document and normalise it. Error ⇒ `Failed` (reason = the config
// error)"; invalid: "`invalid plugin config at {path}: {reason}`", "path from serde"
#[tokio::test]
async fn an_invalid_stored_config_fails_the_plugin_with_the_config_error() {
    let _serial = SERIAL.lock().await;
    let stored = json!({"plugin": {"config_version": "2.0.0"}, "nested": {"on": "maybe"}});
    let (state, config, reason, handed) = load_settings(stored).await;
    assert_eq!(state, PluginState::Failed);
    assert_eq!(config, None);
    assert_eq!(
        reason.as_deref(),
        Some(r#"invalid plugin config at nested.on: invalid type: string "maybe", expected a boolean"#)
    );
    assert!(handed.is_empty());
}

// "`plugin.config_version` … not a string, or blank ⇒ error *missing version*" (zh-Hans:
// "`插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置`"); "Error ⇒ `Failed`"
#[tokio::test]
async fn a_config_version_that_is_not_a_string_fails_the_plugin() {
    let _serial = SERIAL.lock().await;
    for version in [json!(2), json!(null), json!("   ")] {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
        let stored = json!({"plugin": {"config_version": version}});
        let host = settings_host(&registry, MemoryConfigSource::new().with("dr.settings", stored));
        let outcome = host.load_all().await.outcomes()[0].clone();
        assert_eq!(outcome.state, PluginState::Failed, "{version}");
        assert_eq!(
            outcome.reason.as_deref(),
            Some("插件配置文件缺少 plugin.config_version 版本号，当前版本策略不再兼容无版本配置"),
            "{version}"
        );
        assert!(!registry.has_tool("dr_settings_limit", None).await);
    }
}

#[derive(Default)]
pub struct Plain;

/// No config type.
#[plugin(id = "dr.plain")]
impl Plain {
    /// Plain tool.
    #[tool]
    async fn dr_plain_tool(&self) -> &'static str {
        "plain"
    }
}

// "A plugin without `config` accepts any document and only reads `plugin.enabled`."
#[tokio::test]
async fn a_plugin_without_config_accepts_any_document_and_reads_only_enabled() {
    let _serial = SERIAL.lock().await;
    for (stored, expected) in [
        (json!({"anything": [1, 2]}), PluginState::Loaded),
        (json!({"plugin": {"config_version": " "}, "x": null}), PluginState::Loaded),
        (json!({"anything": 1, "plugin": {"enabled": false}}), PluginState::Disabled),
    ] {
        let registry = ToolRegistry::default();
        let host = PluginHost::builder()
            .plugins(PluginSet::collect().only(["dr.plain"]))
            .registry(&registry)
            .config_source(MemoryConfigSource::new().with("dr.plain", stored.clone()))
            .build();
        let report = host.load_all().await;
        assert_eq!(report.outcomes()[0].state, expected, "{stored} {:?}", report.outcomes()[0].reason);
        host.shutdown().await;
    }
}

// "`ConfigScope::Own`: normalise. … Otherwise store it (so `ctx.config()` sees it) and call
// `on_config_update(Own, &normalised, version)`." (an update names only what changes: a merge
// patch over the current document)
#[tokio::test]
async fn an_own_update_passes_the_normalised_document_and_version() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = settings_host(&registry, MemoryConfigSource::new());
    assert!(host.load_all().await.is_clean());
    take_events("dr.settings");
    host.update_config("dr.settings", ConfigScope::Own, json!({"limit": 9}), "2.1.0").await.unwrap();
    let expected = SETTINGS_DEFAULTS.replace(r#""limit":5"#, r#""limit":9"#);
    assert_eq!(take_events("dr.settings"), [format!("dr.settings update self 2.1.0 limit=9 {expected}")]);
    let limit = registry.invoke(ToolInvocation::new("dr_settings_limit", "{}"), None).await;
    assert_eq!(limit.content, "9");
    host.shutdown().await;
}

// "`ConfigScope::Bot` / `ConfigScope::Model` …: only for plugins subscribed to that scope; the
// document is passed as given."
#[tokio::test]
async fn a_model_update_reaches_a_subscriber_as_given_and_a_bot_update_does_not() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = settings_host(&registry, MemoryConfigSource::new());
    assert!(host.load_all().await.is_clean());
    take_events("dr.settings");
    host.update_config("dr.settings", ConfigScope::Model, json!({"x": [1, null], "limit": "many"}), "m1")
        .await
        .unwrap();
    assert_eq!(take_events("dr.settings"), [r#"dr.settings update model m1 limit=5 {"x":[1,null],"limit":"many"}"#]);
    host.update_config("dr.settings", ConfigScope::Bot, json!({"x": 1}), "b1").await.unwrap();
    assert!(take_events("dr.settings").is_empty());
    assert_eq!(host.context("dr.settings").unwrap().config_value().to_string(), SETTINGS_DEFAULTS);
    host.shutdown().await;
}

/// Reserved config.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, Default)]
#[serde(crate = "toolhook::serde", default)]
#[schemars(crate = "toolhook::schemars")]
pub struct ReservedConfig {
    /// Clashes with the reserved section.
    pub plugin: String,
}

#[derive(Default)]
pub struct Reserved;

/// Declares a reserved field.
#[plugin(id = "dr.reserved", config = ReservedConfig)]
impl Reserved {
    /// Reserved tool.
    #[tool]
    async fn dr_reserved_tool(&self) {}
}

// "a config type whose schema has a top-level property `plugin` (reserved): `config type of plugin
// {id} must not declare a top-level field named plugin`" — the plugin is `Failed`.
#[tokio::test]
async fn a_config_type_with_a_plugin_field_fails_its_plugin() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["dr.reserved"]);
    assert_eq!(
        set.get("dr.reserved").unwrap().problems(),
        ["config type of plugin dr.reserved must not declare a top-level field named plugin"]
    );
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(set).registry(&registry).build();
    let report = host.load_all().await;
    assert_eq!(report.outcomes()[0].state, PluginState::Failed);
    assert!(!registry.has_tool("dr_reserved_tool", None).await);
}

// ==== lifecycle ==================================================================================

#[derive(Default)]
pub struct Bare;

/// Has a config and no lifecycle method.
#[plugin(id = "dr.bare", config = DrNested)]
impl Bare {
    /// Reads the name.
    #[tool]
    async fn dr_bare_name(&self) -> String {
        self.config().name.clone()
    }
}

// "Lifecycle methods (all optional; absent ⇒ no-op success)"
#[tokio::test]
async fn a_plugin_without_lifecycle_methods_loads_updates_and_unloads() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["dr.bare"])).registry(&registry).build();
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Loaded);
    host.update_config("dr.bare", ConfigScope::Own, json!({"name": "renamed"}), "1.0.0").await.unwrap();
    let ctx = host.context("dr.bare").unwrap();
    assert_eq!(ctx.config::<DrNested>().unwrap().name, "renamed");
    assert_eq!(registry.invoke(ToolInvocation::new("dr_bare_name", "{}"), None).await.content, "renamed");
    host.unload("dr.bare").await;
    assert_eq!(host.state("dr.bare"), Some(PluginState::Unloaded));
    let gone = registry.invoke(ToolInvocation::new("dr_bare_name", "{}"), None).await;
    assert!(gone.error_message.starts_with("Tool not found: dr_bare_name"), "{}", gone.error_message);
}

#[derive(Default)]
pub struct Switch;

/// Can be switched off.
#[plugin(id = "dr.switch")]
impl Switch {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("dr.switch on_load");
    }

    /// Switch tool.
    #[tool]
    async fn dr_switch_tool(&self) -> &'static str {
        "on"
    }

    #[hook_handler("chat.receive.before_process")]
    async fn mark(&self, mut args: HookArgs) -> HookOutcome<HookArgs> {
        args.insert("marked_by", "dr.switch");
        HookOutcome::modify(args)
    }
}

// States table: "others | no | `Tool not found` | not registered"; "`plugin.enabled = false` ⇒
// `Disabled`; nothing is registered."
#[tokio::test]
async fn a_disabled_plugin_serves_no_tool_and_no_hook_handler() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["dr.switch"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .config_source(MemoryConfigSource::new().with("dr.switch", json!({"plugin": {"enabled": false}})))
        .build();
    assert_eq!(host.load_all().await.outcomes()[0].state, PluginState::Disabled);
    let result = registry.invoke(ToolInvocation::new("dr_switch_tool", "{}"), None).await;
    assert!(result.error_message.starts_with("Tool not found: dr_switch_tool"), "{}", result.error_message);
    let hooked = dispatcher.invoke_with("chat.receive.before_process", &json!({"message": {}})).await.unwrap();
    assert_eq!(hooked.kwargs.get("marked_by"), None);
    assert!(take_events("dr.switch").is_empty(), "on_load is not called");
}

#[derive(Default)]
pub struct Identity;

/// Says who it is.
///
/// A second paragraph that is not part of the description.
#[plugin(id = "dr.identity")]
impl Identity {
    async fn on_load(&self, ctx: &PluginContext) {
        event(format!("dr.identity {}|{}|{}", ctx.plugin_id(), ctx.name(), ctx.version()));
    }
}

#[derive(Default)]
pub struct Named;

#[plugin(id = "dr.named", name = "Named One", version = "1.2.0-beta.1")]
impl Named {
    async fn on_load(&self, ctx: &PluginContext) {
        event(format!("dr.named {}|{}|{}", ctx.plugin_id(), ctx.name(), ctx.version()));
    }
}

// "`name` | … | the id"; "`version` | … | the package version"; "`description` | … | first
// paragraph of the impl block's doc comment, else `""`"; `PluginContext`: "`plugin_id()`,
// `name()`, `version()`"
#[tokio::test]
async fn plugin_identity_defaults_reach_the_collection_and_the_context() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["dr.identity", "dr.named"]);
    let identity = set.get("dr.identity").unwrap();
    assert_eq!(
        (identity.name(), identity.version(), identity.description()),
        ("dr.identity", env!("CARGO_PKG_VERSION"), "Says who it is.")
    );
    let named = set.get("dr.named").unwrap();
    assert_eq!((named.name(), named.version(), named.description()), ("Named One", "1.2.0-beta.1", ""));
    let host = PluginHost::builder().plugins(set).registry(&ToolRegistry::default()).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(
        take_events("dr.identity"),
        [format!("dr.identity dr.identity|dr.identity|{}", env!("CARGO_PKG_VERSION"))]
    );
    assert_eq!(take_events("dr.named"), ["dr.named dr.named|Named One|1.2.0-beta.1"]);
    host.shutdown().await;
}

static GATE: tokio::sync::Notify = tokio::sync::Notify::const_new();

#[derive(Default)]
pub struct Careful;

/// Its lifecycle calls record when they run.
#[plugin(id = "dr.careful", config = DrNested)]
impl Careful {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("dr.careful on_load start");
        GATE.notified().await;
        event("dr.careful on_load done");
    }

    async fn on_config_update(&self, _scope: ConfigScope, _config: &Value, _version: &str) {
        event("dr.careful on_config_update");
    }

    /// A sync tool.
    #[tool]
    fn dr_careful_sync(&self) -> &'static str {
        "ran"
    }
}

// "Lifecycle calls of one plugin never overlap."; states table: "`Loading` | yes | `PluginNotLoaded`
// error"
#[tokio::test]
async fn a_config_update_never_runs_while_on_load_does() {
    let _serial = SERIAL.lock().await;
    take_events("dr.careful");
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["dr.careful"])).registry(&registry).build();
    let loading = tokio::spawn({
        let host = host.clone();
        async move { host.load_all().await }
    });
    while take_events("dr.careful on_load start").is_empty() {
        tokio::task::yield_now().await;
    }
    let early = registry.invoke(ToolInvocation::new("dr_careful_sync", "{}"), None).await;
    assert_eq!(early.error_message, "Tool dr_careful_sync failed: PluginNotLoaded: plugin dr.careful is not loaded");
    let update = tokio::spawn({
        let host = host.clone();
        async move { host.update_config("dr.careful", ConfigScope::Own, json!({"name": "x"}), "1.0.0").await }
    });
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert!(take_events("dr.careful on_config_update").is_empty(), "on_config_update ran during on_load");
    GATE.notify_one();
    assert_eq!(loading.await.unwrap().outcomes()[0].state, PluginState::Loaded);
    let _ = update.await.unwrap();
    let after = take_events("dr.careful");
    assert!(after.first().is_some_and(|e| e == "dr.careful on_load done"), "{after:?}");
    assert_eq!(registry.invoke(ToolInvocation::new("dr_careful_sync", "{}"), None).await.content, "ran");
    host.shutdown().await;
}

static LEAVING: tokio::sync::Notify = tokio::sync::Notify::const_new();

#[derive(Default)]
pub struct Leaving;

/// Takes its time to unload.
#[plugin(id = "dr.leaving")]
impl Leaving {
    async fn on_unload(&self) {
        event("dr.leaving on_unload start");
        LEAVING.notified().await;
    }

    /// An async tool.
    #[tool]
    async fn dr_leaving_async(&self) -> &'static str {
        "async"
    }

    /// A sync tool.
    #[tool]
    fn dr_leaving_sync(&self) -> &'static str {
        "sync"
    }
}

// States table: "others | no | `Tool not found`" (here `Unloading`); "`unload(id)` — state
// `Unloading`: tools stop being listed … first …, then `on_unload()`"
#[tokio::test]
async fn tools_called_while_their_plugin_unloads_are_not_found() {
    let _serial = SERIAL.lock().await;
    take_events("dr.leaving");
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["dr.leaving"])).registry(&registry).build();
    assert!(host.load_all().await.is_clean());
    let invoke = |name: &'static str| registry.invoke(ToolInvocation::new(name, "{}"), None);
    for _ in 0..3 {
        assert_eq!(invoke("dr_leaving_async").await.content, "async");
        assert_eq!(invoke("dr_leaving_sync").await.content, "sync");
    }
    let unloading = tokio::spawn({
        let host = host.clone();
        async move { host.unload("dr.leaving").await }
    });
    while take_events("dr.leaving on_unload start").is_empty() {
        tokio::task::yield_now().await;
    }
    assert_eq!(host.state("dr.leaving"), Some(PluginState::Unloading));
    assert!(registry.list_tools(None).await.is_empty());
    for name in ["dr_leaving_async", "dr_leaving_sync"] {
        let result = invoke(name).await;
        assert!(result.error_message.starts_with(&format!("Tool not found: {name}")), "{}", result.error_message);
    }
    LEAVING.notify_one();
    unloading.await.unwrap();
    assert_eq!(host.state("dr.leaving"), Some(PluginState::Unloaded));
}

// ==== manifest ===================================================================================

#[derive(Default)]
pub struct Exported;

/// Exported components.
#[plugin(id = "dr.exported")]
impl Exported {
    async fn on_load(&self, _ctx: &PluginContext) {
        event("dr.exported on_load");
    }

    /// Timed tool.
    #[tool(timeout_ms = 1500)]
    async fn dr_timed(&self) {}

    /// Hidden tool.
    #[tool(visibility = "hidden")]
    async fn dr_hidden(&self) {}

    #[hook_handler("chat.receive.before_process", metadata(zeta = 1, alpha = "x", mid = true))]
    async fn watch(&self, args: HookArgs) -> HookOutcome<HookArgs> {
        HookOutcome::modify(args)
    }
}

// "`source` is the given `HostClassification`'s verdict"; `"default_plugin": bool`,
// `"state_on_collect": "ok" | "failed"`, `"problems"`; `"config": null | { "version",
// "subscriptions", "schema", "default": <normalised defaults document> }`; "plugins by id"
#[test]
fn manifest_plugin_entries_follow_the_classification_and_the_config_declaration() {
    let package = env!("CARGO_PKG_NAME");
    let set = PluginSet::collect().only(["dr.settings", "dr.reserved", package]);
    let document = manifest::export(&set, &HostClassification::default().builtin(["dr.settings"]));
    assert_eq!(document["generator"], format!("toolhook {}", env!("CARGO_PKG_VERSION")));
    let plugins = document["plugins"].as_array().unwrap();
    let ids: Vec<&str> = plugins.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["dr.reserved", "dr.settings", package]);
    let [reserved, settings, default] = [&plugins[0], &plugins[1], &plugins[2]];

    assert_eq!(
        (&settings["source"], &settings["default_plugin"], &settings["state_on_collect"], &settings["problems"]),
        (&json!("builtin"), &json!(false), &json!("ok"), &json!([]))
    );
    let config = &settings["config"];
    assert_eq!(keys(config), ["version", "subscriptions", "schema", "default"]);
    assert_eq!((&config["version"], &config["subscriptions"]), (&json!("2.0.0"), &json!(["model"])));
    assert_eq!(config["default"].to_string(), SETTINGS_DEFAULTS);
    assert_eq!(config["schema"]["properties"]["limit"]["type"], "integer");

    assert_eq!(
        (&reserved["source"], &reserved["state_on_collect"], &reserved["problems"]),
        (
            &json!("third_party"),
            &json!("failed"),
            &json!(["config type of plugin dr.reserved must not declare a top-level field named plugin"])
        )
    );
    assert_eq!(
        (&default["name"], &default["default_plugin"], &default["config"], &default["version"]),
        (&json!(package), &json!(true), &Value::Null, &json!(env!("CARGO_PKG_VERSION")))
    );
}

// "Hidden tools are listed (marked)"; `"timeout_ms": null | n`; "`metadata` is the handler's
// `metadata(…)` … in written order"; "`payload_schema` … `null` for `HookArgs`"; "It needs no
// instance and runs no lifecycle method."
#[tokio::test]
async fn manifest_lists_hidden_tools_timeouts_and_handler_metadata_in_written_order() {
    let _serial = SERIAL.lock().await;
    take_events("dr.exported");
    let document = manifest::export(&PluginSet::collect().only(["dr.exported"]), &HostClassification::default());
    let plugin = &document["plugins"][0];
    let tools = plugin["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["dr_hidden", "dr_timed"]);
    assert_eq!((&tools[0]["visibility"], &tools[0]["enabled"]), (&json!("hidden"), &json!(false)));
    assert_eq!((&tools[0]["timeout_ms"], &tools[1]["timeout_ms"]), (&Value::Null, &json!(1500)));
    let handler = &plugin["hook_handlers"][0];
    assert_eq!(handler["metadata"].to_string(), r#"{"zeta":1,"alpha":"x","mid":true}"#);
    assert_eq!(handler["payload_schema"], Value::Null);
    assert_eq!(handler["hook"], "chat.receive.before_process");
    assert!(take_events("dr.exported").is_empty(), "no lifecycle method runs");
}

// ==== argument decoding ==========================================================================

/// Takes a positive count.
#[tool]
fn dr_positive(
    /// A count above zero.
    n: std::num::NonZeroU8,
    /// An index.
    i: Option<usize>,
) -> String {
    format!("{n} {i:?}")
}

/// Counts.
#[tool]
fn dr_count(
    /// A number.
    n: i64,
) -> String {
    n.to_string()
}

// "integers accept an in-range JSON integer, a float with zero fraction, or a string of optional
// sign + ASCII digits (trimmed)"; out of range: "`{path}: {value} is out of range for {rust
// type}`", "`{rust type}` is the scalar type as written in the signature"
#[tokio::test]
async fn integers_take_whole_floats_and_digit_strings_only() {
    assert_eq!(call("dr_count", r#"{"n":1e2}"#).await.content, "100");
    assert_eq!(call("dr_count", r#"{"n":" -12 "}"#).await.content, "-12");
    assert_eq!(call("dr_count", r#"{"n":"+0"}"#).await.content, "0");
    assert_eq!(arg_error("dr_count", r#"{"n":"3.0"}"#).await, r#"n: expected integer, got string "3.0""#);
    assert_eq!(arg_error("dr_count", r#"{"n":"1e2"}"#).await, r#"n: expected integer, got string "1e2""#);
    assert_eq!(arg_error("dr_count", r#"{"n":""}"#).await, r#"n: expected integer, got string """#);
    assert_eq!(arg_error("dr_count", r#"{"n":true}"#).await, "n: expected integer, got boolean true");
    assert_eq!(call("dr_positive", r#"{"n":"1","i":0}"#).await.content, "1 Some(0)");
    assert_eq!(arg_error("dr_positive", r#"{"n":256}"#).await, "n: 256 is out of range for NonZeroU8");
    assert_eq!(arg_error("dr_positive", r#"{"n":1,"i":-1}"#).await, "i: -1 is out of range for usize");
}

/// Scales.
#[tool]
fn dr_scale(
    /// A factor.
    x: f64,
) -> String {
    x.to_string()
}

// "numbers accept a number or a string parsing as a finite decimal"
#[tokio::test]
async fn numbers_refuse_strings_that_are_not_finite() {
    assert_eq!(call("dr_scale", r#"{"x":"2.5"}"#).await.content, "2.5");
    assert_eq!(call("dr_scale", r#"{"x":-3}"#).await.content, "-3");
    for bad in ["inf", "NaN", "-infinity", "1e999"] {
        assert_eq!(
            arg_error("dr_scale", &format!(r#"{{"x":"{bad}"}}"#)).await,
            format!(r#"x: expected number, got string "{bad}""#)
        );
    }
}

/// Flags.
#[tool]
fn dr_flag(
    /// A flag.
    b: bool,
) -> String {
    b.to_string()
}

/// Echoes.
#[tool]
fn dr_echo(
    /// The text.
    s: String,
) -> String {
    s
}

// "booleans accept a bool, `0`/`1`, or a string (trimmed, case-insensitive) in `true false 1 0 yes
// no on off t f y n`. Strings accept strings only."; "`{actual}` is the JSON kind … (`integer` = a number with no
// fractional part, as in JSON Schema); booleans, numbers and strings are followed by a space and
// their compact JSON, `null`, arrays and objects are named by kind only"
#[tokio::test]
async fn strings_and_booleans_accept_only_their_forms_and_name_what_arrived() {
    assert_eq!(arg_error("dr_echo", r#"{"s":5}"#).await, "s: expected string, got integer 5");
    assert_eq!(arg_error("dr_echo", r#"{"s":2.5}"#).await, "s: expected string, got number 2.5");
    assert_eq!(arg_error("dr_echo", r#"{"s":5.0}"#).await, "s: expected string, got integer 5.0");
    assert_eq!(arg_error("dr_echo", r#"{"s":false}"#).await, "s: expected string, got boolean false");
    assert_eq!(arg_error("dr_echo", r#"{"s":{"a":1}}"#).await, "s: expected string, got object");
    for (arguments, expected) in [(r#"{"b":0}"#, "false"), (r#"{"b":" N "}"#, "false"), (r#"{"b":"T"}"#, "true")] {
        assert_eq!(call("dr_flag", arguments).await.content, expected, "{arguments}");
    }
    assert_eq!(arg_error("dr_flag", r#"{"b":2}"#).await, "b: expected boolean, got integer 2");
    assert_eq!(arg_error("dr_flag", r#"{"b":"maybe"}"#).await, r#"b: expected boolean, got string "maybe""#);
    assert_eq!(arg_error("dr_flag", r#"{"b":[true]}"#).await, "b: expected boolean, got array");
}

/// Picks a level.
#[tool]
fn dr_level(
    /// The level.
    #[param(enum = [1, 2, 3])]
    level: i64,
) -> String {
    level.to_string()
}

// "`enum` lists … are enforced"; "The allowed values of "not allowed" are the `enum` values as
// compact JSON joined by `, ` (zh-Hans `、`)"
#[tokio::test]
async fn integer_enums_are_enforced_after_lenient_reading() {
    assert_eq!(call("dr_level", r#"{"level":"2"}"#).await.content, "2");
    assert_eq!(arg_error("dr_level", r#"{"level":4}"#).await, "level: expected one of 1, 2, 3, got integer 4");
    let zh = call_in(Locale::ZhHans, "dr_level", r#"{"level":4}"#).await;
    assert_eq!(
        zh.error_message,
        "工具 dr_level 调用失败：InvalidArguments: level：应为 1、2、3 之一，实际为 integer 4"
    );
}

/// Bits.
#[tool]
fn dr_bits(
    /// Flags.
    flags: Vec<bool>,
    /// Sizes.
    sizes: Option<Vec<u8>>,
) -> String {
    format!("{flags:?} {sizes:?}")
}

// "Lenient scalars (top-level parameters and elements/values of their sequences, options, maps …)";
// "`{rust type}` is the scalar type as written in the signature (`u8` for `Option<Vec<u8>>`)";
// path: "`[index]`"
#[tokio::test]
async fn lenient_scalars_apply_inside_sequences_and_options() {
    let ok = call("dr_bits", r#"{"flags":["yes",0," OFF "],"sizes":["7",8.0]}"#).await;
    assert_eq!(ok.content, "[true, false, false] Some([7, 8])");
    assert_eq!(arg_error("dr_bits", r#"{"flags":[],"sizes":[1,300]}"#).await, "sizes[1]: 300 is out of range for u8");
    assert_eq!(arg_error("dr_bits", r#"{"flags":[1,"x"]}"#).await, r#"flags[1]: expected boolean, got string "x""#);
}

/// Takes two.
#[tool]
fn dr_two(
    /// First.
    a: String,
    /// Second.
    b: String,
    /// Third.
    c: Option<u8>,
) -> String {
    format!("{a}{b}{c:?}")
}

// "One error per call: the first in document order; then missing parameters, first in declaration
// order."
#[tokio::test]
async fn missing_parameters_come_after_type_errors_in_declaration_order() {
    assert_eq!(arg_error("dr_two", "{}").await, "a: missing required parameter");
    assert_eq!(arg_error("dr_two", r#"{"a":"x"}"#).await, "b: missing required parameter");
    assert_eq!(arg_error("dr_two", r#"{"c":"x"}"#).await, r#"c: expected integer, got string "x""#);
    assert_eq!(arg_error("dr_strict", r#"{"zzz":1}"#).await, "zzz: unknown parameter");
    assert_eq!(arg_error("dr_strict", r#"{"zzz":1,"q":5}"#).await, "zzz: unknown parameter");
    assert_eq!(arg_error("dr_strict", r#"{"q":5,"zzz":1}"#).await, "q: expected string, got integer 5");
}

/// Strict.
#[tool(deny_unknown_args)]
fn dr_strict(
    /// The query.
    q: String,
) -> String {
    q
}

// zh-Hans detail texts: "`参数必须是 JSON 对象`", "`{path}：缺少必填参数`", "`{path}：未知参数`",
// "`{path}：{value} 超出 {rust type} 的范围`", "`参数不是合法的 JSON：{serde message}`"
#[tokio::test]
async fn argument_errors_in_simplified_chinese() {
    let zh = |name: &'static str, arguments: &'static str| async move {
        let result = call_in(Locale::ZhHans, name, arguments).await;
        let prefix = format!("工具 {name} 调用失败：InvalidArguments: ");
        result.error_message.strip_prefix(&prefix).unwrap_or_else(|| panic!("{}", result.error_message)).to_owned()
    };
    assert_eq!(zh("dr_two", "[1]").await, "参数必须是 JSON 对象");
    assert_eq!(zh("dr_two", r#"{"a":"x"}"#).await, "b：缺少必填参数");
    assert_eq!(zh("dr_strict", r#"{"q":"x","zzz":1}"#).await, "zzz：未知参数");
    assert_eq!(zh("dr_bits", r#"{"flags":[],"sizes":[300]}"#).await, "sizes[0]：300 超出 u8 的范围");
    assert!(zh("dr_two", "{").await.starts_with("参数不是合法的 JSON："));
}

// "too large / too deep are checked by the registry before any decoding …: `{n}` is the limit;
// size is the byte length of the arguments text (a `Value` counts as its compact JSON); depth counts nested arrays and objects, the
// top-level object being 1."
#[tokio::test]
async fn argument_limits_count_bytes_and_levels_from_the_top_object() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(20).max_argument_depth(3));
    registry.register_provider(PluginToolProvider::from_declared());
    let invoke = |arguments: &str| registry.invoke(ToolInvocation::new("dr_echo", arguments), None);
    let twenty = r#"{"s":"abcdefghijkl"}"#;
    assert_eq!(twenty.len(), 20);
    assert_eq!(invoke(twenty).await.content, "abcdefghijkl");
    assert_eq!(
        invoke(r#"{"s":"abcdefghijklm"}"#).await.error_message,
        "Tool dr_echo failed: InvalidArguments: arguments are larger than 20 bytes"
    );
    assert_eq!(
        invoke(r#"{"s": "abcdefghijkl"}"#).await.error_message,
        "Tool dr_echo failed: InvalidArguments: arguments are larger than 20 bytes",
        "the text's bytes count, spaces too"
    );
    let value = ToolInvocation::new("dr_echo", json!({"s": "abcdefghijkl"}));
    assert_eq!(registry.invoke(value, None).await.content, "abcdefghijkl", "a value counts as its compact JSON");
    assert!(invoke(r#"{"s":"x","z":[[]]}"#).await.success, "three levels");
    assert_eq!(
        invoke(r#"{"s":"","z":[[{}]]}"#).await.error_message,
        "Tool dr_echo failed: InvalidArguments: arguments are nested deeper than 3 levels"
    );
}

/// A count, through an alias the macro cannot look through.
pub type DrCount = u32;

#[derive(Default)]
pub struct Faulty;

/// Components whose faults show only when the plugin set is collected.
#[plugin(id = "dr.faulty")]
impl Faulty {
    /// A default that does not fit the aliased type.
    #[tool]
    async fn dr_bad_default(
        &self,
        /// How many.
        #[param(default = "many")]
        n: DrCount,
    ) -> String {
        n.to_string()
    }

    /// A command token that does not fit the aliased type.
    #[tool]
    #[command(pattern = "dr_bad_token <n:text>")]
    async fn dr_bad_token(
        &self,
        /// How many.
        n: DrCount,
    ) -> String {
        n.to_string()
    }

    /// A sound sibling.
    #[tool]
    async fn dr_sound(&self) -> &'static str {
        "sound"
    }
}

// "a tool whose spec cannot be composed: a `ToolSpecError` naming the tool and the parameter (a
// `default` … value that does not deserialise into a parameter type the macro could not check, a
// command token of the wrong type)" (a faulty component is left out; the rest of its plugin loads)
#[tokio::test]
async fn faults_the_macro_cannot_see_are_found_at_collection_naming_tool_and_parameter() {
    let _serial = SERIAL.lock().await;
    let set = PluginSet::collect().only(["dr.faulty"]);
    let problems = set.problems();
    for tool in ["dr_bad_default", "dr_bad_token"] {
        let problem = problems
            .iter()
            .find(|p| p.message.contains(tool))
            .unwrap_or_else(|| panic!("no problem names {tool}: {problems:?}"));
        assert!(problem.message.contains("`n`") || problem.message.contains(" n "), "{problem:?}");
    }
    assert!(set.commands().iter().all(|c| c.name() != "dr_bad_token"));
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(set).registry(&registry).build();
    let report = host.load_all().await;
    assert_eq!(report.outcomes()[0].state, PluginState::Loaded);
    assert_eq!(registry.invoke(ToolInvocation::new("dr_sound", "{}"), None).await.content, "sound");
    let bad = registry.invoke(ToolInvocation::new("dr_bad_default", "{}"), None).await;
    assert!(bad.error_message.starts_with("Tool not found: dr_bad_default"), "{}", bad.error_message);
    host.shutdown().await;
}

/// Says who asks.
#[tool(deny_unknown_args)]
fn dr_who(
    /// The question.
    q: String,
    /// The user.
    user_id: Option<String>,
    /// The platform.
    platform: Option<String>,
    /// The chat.
    chat_id: Option<String>,
) -> String {
    format!("{q}|{user_id:?}|{platform:?}|{chat_id:?}")
}

// "each *declared* parameter among `stream_id`, `chat_id` (both `sid`), `group_id`, `user_id`,
// `platform` whose argument is missing, null or `""` gets the context's value (when non-empty);
// values the model gave are kept"; "Undeclared keys are not added, so `deny_unknown_args` is
// unaffected"
#[tokio::test]
async fn declared_context_parameters_are_filled_and_undeclared_ones_not_added() {
    let ctx = ToolExecutionContext {
        session_id: "sess".into(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    };
    let registry = free_tools(Locale::En);
    let call = ToolInvocation::new("dr_who", r#"{"q":"x","user_id":"","platform":"override"}"#);
    let result = registry.invoke(call, Some(&ctx)).await;
    assert_eq!(result.content, r#"x|Some("u1")|Some("override")|Some("sess")"#, "{}", result.error_message);
    let empty = ToolExecutionContext { user_id: String::new(), ..ctx };
    let call = ToolInvocation::new("dr_who", r#"{"q":"y","user_id":null}"#);
    let result = registry.invoke(call, Some(&empty)).await;
    assert_eq!(result.content, r#"y|None|Some("qq")|Some("sess")"#, "{}", result.error_message);
}

// ==== handler outcome and return types ===========================================================

/// Returns a result of its own.
#[tool]
fn dr_own_result() -> ToolExecutionResult {
    ToolExecutionResult::success("someone_else", "kept")
}

/// Returns maybe a string.
#[tool]
fn dr_maybe(
    /// Whether there is one.
    some: bool,
) -> Option<String> {
    some.then(|| "  hi there  ".to_owned())
}

/// Returns a borrowed-or-owned string.
#[tool]
fn dr_cow() -> Cow<'static, str> {
    Cow::Borrowed("\n cow \t")
}

/// Returns a boxed string.
#[tool]
fn dr_boxed() -> Box<str> {
    " boxed ".into()
}

/// Returns an ok string.
#[tool]
async fn dr_fallible(
    /// Whether it fails.
    fail: bool,
) -> Result<String, String> {
    if fail { Err("  broke  ".into()) } else { Ok("  fine  ".into()) }
}

// Return types: "`ToolExecutionResult` | as is, `tool_name` overwritten"; "`String`, `&'static
// str`, `Cow<'static, str>`, `Box<str>` | success, `content` trimmed"; "`Option<T>` | `None` as
// `()`, `Some` as T"; "`Result<T, E: Display>` | `Ok` as T; `Err(e)` → failure, `error_message` =
// `e.to_string()` trimmed"
#[tokio::test]
async fn return_forms_become_results_as_written() {
    let own = call("dr_own_result", "").await;
    assert_eq!((own.tool_name.as_str(), own.success, own.content.as_str()), ("dr_own_result", true, "kept"));
    let some = call("dr_maybe", r#"{"some":true}"#).await;
    assert_eq!((some.success, some.content.as_str()), (true, "hi there"));
    let none = call("dr_maybe", r#"{"some":false}"#).await;
    assert!(none.success && none.content.is_empty() && none.structured_content().is_none(), "{none:?}");
    assert_eq!(call("dr_cow", "").await.content, "cow");
    assert_eq!(call("dr_boxed", "").await.content, "boxed");
    assert_eq!(call("dr_fallible", r#"{"fail":false}"#).await.content, "fine");
    let failed = call("dr_fallible", r#"{"fail":true}"#).await;
    assert_eq!((failed.success, failed.error_message.as_str()), (false, "broke"));
}

/// Cannot be written as JSON.
pub struct Unwritable;

impl serde::Serialize for Unwritable {
    fn serialize<S: serde::Serializer>(&self, _serializer: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("boom"))
    }
}

/// Returns what cannot be serialised.
#[tool]
fn dr_unwritable() -> Unwritable {
    Unwritable
}

// "any other `T: Serialize` … serialisation failure → failure `failed to serialise the tool output:
// {err}` / `工具输出序列化失败：{err}`"
#[tokio::test]
async fn a_serialisation_failure_is_a_failed_result_in_the_callers_locale() {
    let en = call("dr_unwritable", "").await;
    assert_eq!((en.success, en.error_message.as_str()), (false, "failed to serialise the tool output: boom"));
    let zh = call_in(Locale::ZhHans, "dr_unwritable", "").await;
    assert_eq!((zh.success, zh.error_message.as_str()), (false, "工具输出序列化失败：boom"));
}
