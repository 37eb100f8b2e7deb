//! The toolhook demo host: it loads the example plugins, prints the tool definitions a model
//! receives and the parameter docs `#[tool]` generated for one tool in both locales, plays a
//! scripted model turn with every kind of result and the history the model would see next, fires
//! hooks (a moderation chain and the model-routing scenario), and answers chat commands.
//! `--definitions-json` prints every declared tool's definition in every dialect and locale as one
//! JSON document, which CI validates against the official client libraries' types.
//!
//! ```text
//! cargo run -p toolhook-examples --bin demo -- [--dialect D] [--locale L] [--calls FILE] [--definitions] [--manifest]
//! cargo run -p toolhook-examples --bin demo -- --definitions-json   # the same definitions, as one JSON document
//! cargo run -p toolhook-examples --bin demo -- --mcp-stdio          # serve the demo's tools over MCP stdio
//! cargo run -p toolhook-examples --bin demo -- --mcp-http ADDR      # … over Streamable HTTP at http://ADDR/mcp
//! ```

use serde_json::{Value, json};
use std::process::ExitCode;
use toolhook::{DeclaredTool, Dialect, Locale, ToolExecutionContext, ToolExecutionResult, ToolInvocation};
use toolhook_examples::host::DemoHost;
use toolhook_runtime::hooks::HookDispatcher;
use toolhook_runtime::mcp::McpHttpConfig;
use toolhook_runtime::{CommandSet, DeferredTools, HistoryMessage, PluginSet, ToolRegistry, batch_history, manifest};

const USAGE: &str = "\
Usage: demo [--dialect D] [--locale L] [--calls FILE] [--definitions] [--manifest]
       demo --definitions-json
       demo --mcp-stdio | --mcp-http ADDR [--locale L]

  --dialect D     openai-chat (default), openai-chat-strict, openai-responses,
                  openai-responses-strict, anthropic, gemini, mcp, neutral
  --locale L      en (default) or zh-Hans
  --calls FILE    play the tool calls in FILE (JSON lines: {\"name\", \"arguments\",
                  \"call_id\"?, \"round\"?}) instead of the embedded script
  --definitions   print every example tool's definition in every dialect and locale
  --definitions-json
                  the same as one JSON document: {\"tools\": [{\"name\", \"plugin\", \"dialect\",
                  \"locale\", \"parameters\" (the neutral schema), \"definition\"}], \"errors\": [...]}
  --manifest      print the JSON manifest of every plugin and component
  --mcp-stdio     serve the demo's tools to an MCP client over stdin/stdout (logs on stderr)
  --mcp-http ADDR serve them over Streamable HTTP at http://ADDR/mcp until Ctrl-C";

/// The embedded default script: rounds of tool calls as a model would make them.
const SCRIPT: &str = r#"
{"round": 1, "call_id": "call_01", "name": "weather", "arguments": {"city": "Paris"}}
{"round": 1, "call_id": "call_02", "name": "weather", "arguments": {"city": "Oslo", "unit": "kelvin"}}
{"round": 1, "call_id": "call_03", "name": "web_search", "arguments": "{\"query\": \"rust async\", \"limit\": \"2\"}"}
{"round": 1, "call_id": "call_04", "name": "calculator", "arguments": {"a": 6, "op": "mul", "b": 7}}
{"round": 1, "call_id": "call_05", "name": "calculator", "arguments": {"a": 1, "op": "div", "b": 0}}
{"round": 1, "call_id": "call_06", "name": "translate", "arguments": {"text": "hello"}}
{"round": 1, "call_id": "call_07", "name": "ban_user", "arguments": {"user_id": "u-9"}}
{"round": 1, "call_id": "call_08", "name": "web_fetch", "arguments": {"url": "ftp://example.com"}}
{"round": 1, "call_id": "call_09", "name": "tool_search", "arguments": {"query": "fetch url"}}
{"round": 1, "call_id": "call_10", "name": "cache_lookup", "arguments": {"key": "a-very-long-key"}}
{"round": 1, "call_id": "call_11", "name": "render_chart", "arguments": {"title": "Sales", "values": [3, 5, 2]}}
{"round": 2, "call_id": "call_12", "name": "web_fetch", "arguments": {"url": "https://example.com/news"}}
"#;

struct Options {
    dialect: Dialect,
    locale: Locale,
    calls: Option<String>,
    definitions: bool,
    definitions_json: bool,
    manifest: bool,
    mcp: Option<Mcp>,
}

/// How the demo serves its tools over MCP instead of playing its script.
enum Mcp {
    Stdio,
    Http(std::net::SocketAddr),
}

fn parse_options() -> Result<Options, String> {
    use lexopt::prelude::*;
    let mut options = Options {
        dialect: Dialect::OpenAiChat,
        locale: Locale::En,
        calls: None,
        definitions: false,
        definitions_json: false,
        manifest: false,
        mcp: None,
    };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("dialect") => {
                let value = parser.value().map_err(|e| e.to_string())?;
                options.dialect = value.string().map_err(|e| e.to_string())?.parse().map_err(|e| format!("{e}"))?;
            }
            Long("locale") => {
                let value = parser.value().map_err(|e| e.to_string())?;
                options.locale = value.string().map_err(|e| e.to_string())?.parse().map_err(|e| format!("{e}"))?;
            }
            Long("calls") => {
                options.calls = Some(parser.value().map_err(|e| e.to_string())?.string().map_err(|e| e.to_string())?)
            }
            Long("definitions") => options.definitions = true,
            Long("definitions-json") => options.definitions_json = true,
            Long("manifest") => options.manifest = true,
            Long("mcp-stdio") => options.mcp = Some(Mcp::Stdio),
            Long("mcp-http") => {
                let value = parser.value().map_err(|e| e.to_string())?.string().map_err(|e| e.to_string())?;
                let address = value.parse().map_err(|e| format!("--mcp-http {value}: {e}"))?;
                options.mcp = Some(Mcp::Http(address));
            }
            Short('h') | Long("help") => return Err(String::new()),
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let mut options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprintln!("{USAGE}");
            return if message.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    // Panics inside tools become failed results; keep the default hook from printing a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("  (a tool panicked{place}: {message}; the registry turns that into a failed result)");
    }));
    let level = if options.mcp.is_some() { tracing::Level::INFO } else { tracing::Level::WARN };
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .with_ansi(ansi)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let outcome = match options.mcp.take() {
        Some(mcp) => runtime.block_on(serve_mcp(mcp, options.locale)),
        None => runtime.block_on(run(options)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn heading(title: &str) {
    println!("\n{title}\n{}", "=".repeat(title.chars().count()));
}

async fn run(options: Options) -> Result<(), String> {
    if options.definitions {
        print_all_definitions();
        return Ok(());
    }
    if options.definitions_json {
        println!("{}", pretty(&all_definitions_json()));
        return Ok(());
    }
    if options.manifest {
        println!("{}", manifest::to_string_pretty(&PluginSet::collect(), &DemoHost::classification()));
        return Ok(());
    }
    let calls = match &options.calls {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            (parse_calls(&text)?, format!("calls from {path}"))
        }
        None => (parse_calls(SCRIPT)?, "the embedded default script (pass --calls FILE to play your own)".to_owned()),
    };
    let locale = options.locale;
    let DemoHost { registry, deferred, dispatcher, host, context: ctx, outcomes } = DemoHost::load(locale).await;
    heading("Plugins");
    for outcome in outcomes {
        let reason = outcome.reason.map(|r| format!(" ({r})")).unwrap_or_default();
        println!("{:<22} {}{reason}", outcome.plugin_id, outcome.state);
    }

    heading(&format!("Tool definitions the model receives ({}, {locale})", options.dialect));
    let round = deferred.prepare_round(&registry, &ctx).await;
    println!("{}", pretty(&Value::Array(round.definitions(options.dialect))));
    if let Some(reminder) = round.reminder() {
        println!("\nSystem reminder sent with them:\n{reminder}");
    }

    heading("Parameter docs #[tool] generated for weather, in both locales");
    println!(
        "A definition's description is the brief alone; a host built with\n\
         RegistryConfig::default().include_detailed_description(true) appends this text to it."
    );
    if let Some(weather) = round.advertised().iter().find(|spec| spec.name() == "weather") {
        for locale in Locale::ALL {
            println!("\n[{locale}]\n{}", weather.detailed_description(locale));
        }
    }

    heading(&format!("A model turn: {}", calls.1));
    let mut rounds: Vec<u64> = calls.0.iter().map(|c| c.0).collect();
    rounds.dedup();
    for round_number in rounds {
        play_round(&registry, &deferred, &ctx, round_number, calls.0.iter().filter(|c| c.0 == round_number)).await;
    }

    heading("Hooks: a message passes the moderation chain");
    hook_scene(&dispatcher).await?;

    heading("Hooks: the planner picks how hard the replyer works");
    routing_scene(&dispatcher).await?;

    heading("Chat commands (tools that double as commands)");
    let mut commands = CommandSet::new(&registry);
    commands.extend(host.plugins().commands());
    println!("{}", commands.help(&ctx, locale).await);
    for message in
        ["天气 Paris 2", "remember buy milk", "remind call mum", "remind water plants", "reminders", "weather"]
    {
        if let Some(reply) = commands.run(message, &ctx).await {
            println!("\n/{message}\n  {}", reply.text(locale).replace('\n', "\n  "));
        }
    }

    host.shutdown().await;
    dispatcher.shutdown().await;
    Ok(())
}

/// The demo's host (registry with `tool_search`, every example plugin loaded) served over MCP.
async fn serve_mcp(mcp: Mcp, locale: Locale) -> Result<(), String> {
    let demo = DemoHost::load(locale).await;
    for outcome in &demo.outcomes {
        if let Some(reason) = &outcome.reason {
            tracing::warn!(plugin = %outcome.plugin_id, state = %outcome.state, %reason, "plugin not loaded");
        }
    }
    let server = demo.mcp_server().map_err(|e| e.to_string())?;
    match mcp {
        Mcp::Stdio => server.serve_stdio().await.map_err(|e| e.to_string())?,
        Mcp::Http(address) => {
            let http = server.serve_http(McpHttpConfig::new(address)).await.map_err(|e| e.to_string())?;
            eprintln!("serving the demo's tools at http://{}/mcp (Ctrl-C to stop)", http.local_addr());
            tokio::signal::ctrl_c().await.map_err(|e| e.to_string())?;
            http.shutdown().await;
        }
    }
    demo.host.shutdown().await;
    demo.dispatcher.shutdown().await;
    Ok(())
}

async fn hook_scene(dispatcher: &HookDispatcher) -> Result<(), String> {
    for text in ["can u help me with u r homework", "buy cheap spam now"] {
        println!("\nmessage: {text:?}");
        let kwargs = json!({"message": {"text": text, "sender": "user-42"}});
        let before = dispatcher.invoke_with("chat.receive.before_process", &kwargs).await.map_err(|e| e.to_string())?;
        if before.aborted {
            println!(
                "  chat.receive.before_process: aborted by {} {}",
                before.stopped_by.as_deref().unwrap_or("?"),
                Value::Array(before.custom_results.clone())
            );
            continue;
        }
        println!("  chat.receive.before_process: {}", before.kwargs);
        let after =
            dispatcher.invoke_and_wait("chat.receive.after_process", before.kwargs).await.map_err(|e| e.to_string())?;
        println!("  chat.receive.after_process: {} error(s)", after.errors.len());
    }
    Ok(())
}

async fn routing_scene(dispatcher: &HookDispatcher) -> Result<(), String> {
    let planner = json!({
        "items": [], "item_schema_version": 1, "selected_history_count": 4, "built_message_count": 5,
        "selection_reason": "recent context", "session_id": "demo-session",
        "tool_definitions": [
            {"type": "function", "function": {"name": "reply", "description": "Reply to the chat",
             "parameters": {"type": "object", "properties": {"reason": {"type": "string"}}, "required": []}}},
            {"type": "function", "function": {"name": "wait", "description": "Wait",
             "parameters": {"type": "object", "properties": {}, "required": []}}}
        ]
    });
    let planned =
        dispatcher.invoke_with("maisaka.planner.before_request", &planner).await.map_err(|e| e.to_string())?;
    let reply = &planned.kwargs.get("tool_definitions").cloned().unwrap_or_default()[0];
    println!("the reply tool now offers: {}", reply["function"]["parameters"]["properties"]["thinking_level"]);
    for level in ["normal", "deep"] {
        let request = json!({
            "session_id": "demo-session", "request_type": "reply", "task_name": "replyer", "model_name": "",
            "extra_prompt": "Be brief.", "attempt": 1, "retry_count": 0, "max_retries": 2,
            "reply_message_id": "m-1", "reply_reason": "the user asked a question", "selected_expression_ids": [],
            "reply_tool_args": {"thinking_level": level}
        });
        let routed =
            dispatcher.invoke_with("maisaka.replyer.before_request", &request).await.map_err(|e| e.to_string())?;
        println!(
            "thinking_level={level}: model_name={} extra_prompt={}",
            routed.kwargs.get("model_name").cloned().unwrap_or_default(),
            routed.kwargs.get("extra_prompt").cloned().unwrap_or_default()
        );
    }
    Ok(())
}

async fn play_round<'a>(
    registry: &ToolRegistry,
    deferred: &DeferredTools,
    ctx: &ToolExecutionContext,
    number: u64,
    calls: impl Iterator<Item = &'a (u64, ToolInvocation)>,
) {
    let round = deferred.prepare_round(registry, ctx).await;
    let offered: Vec<&str> = round.advertised().iter().map(|t| t.name()).collect();
    println!("\n--- Round {number}: the model is offered {} ---", offered.join(", "));
    let mut results: Vec<(String, ToolExecutionResult)> = Vec::new();
    for (_, call) in calls {
        println!("\n→ {} {}", call.tool_name, call.arguments.as_text());
        let result = deferred.invoke(registry, call.clone(), ctx).await;
        let status = if result.success { "ok" } else { "failed" };
        let text =
            if result.success { result.history_content(registry.locale()) } else { result.error_message.clone() };
        println!("← {status}: {}", text.replace('\n', "\n  "));
        results.push((call.call_id().to_owned(), result));
    }
    println!("\nHistory the model sees next (round {number}):");
    let history = batch_history(results.iter().map(|(id, r)| (id.as_str(), r)), registry.locale());
    for message in history {
        match message {
            HistoryMessage::Tool { call_id, content } => {
                println!("  [tool {call_id}] {}", content.replace('\n', "\n      "));
            }
            HistoryMessage::Media(media) => {
                let image =
                    media.image.as_ref().map(|b| format!(" ({} image bytes attached)", b.len())).unwrap_or_default();
                println!("  [user] {}{image}", media.visible_text.replace('\n', "\n      "));
            }
            HistoryMessage::Post(value) => println!("  [post] {value}"),
        }
    }
}

fn parse_calls(text: &str) -> Result<Vec<(u64, ToolInvocation)>, String> {
    let mut calls = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let name =
            value.get("name").and_then(Value::as_str).ok_or_else(|| format!("line {}: missing \"name\"", i + 1))?;
        let arguments = match value.get("arguments") {
            Some(Value::String(text)) => toolhook::ToolArguments::Text(text.clone()),
            Some(other) => toolhook::ToolArguments::Value(other.clone()),
            None => toolhook::ToolArguments::Value(json!({})),
        };
        let call_id = value
            .get("call_id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("call_{}", calls.len() + 1), str::to_owned);
        let round = value.get("round").and_then(Value::as_u64).unwrap_or(1);
        calls.push((round, ToolInvocation::new(name, arguments).with_call_id(call_id).with_session_id("demo-session")));
    }
    Ok(calls)
}

fn print_all_definitions() {
    for locale in Locale::ALL {
        for dialect in Dialect::ALL {
            heading(&format!("{dialect} / {locale}"));
            for tool in DeclaredTool::all() {
                match tool.spec().map(|spec| spec.llm_definition(dialect, locale)) {
                    Ok(Ok(definition)) => println!("{}", pretty(&definition)),
                    Ok(Err(error)) => println!("// {}: not expressible in {dialect}: {error}", tool.name()),
                    Err(error) => println!("// {}: {error}", tool.name()),
                }
            }
        }
    }
}

/// Every declared tool's definition in every dialect and locale, with the neutral parameters
/// schema it was projected from, as one JSON document; a spec that fails to build, or a schema a
/// dialect cannot express, is an entry of `errors` instead.
fn all_definitions_json() -> Value {
    let mut tools = Vec::new();
    let mut errors = Vec::new();
    for tool in DeclaredTool::all() {
        let spec = match tool.spec() {
            Ok(spec) => spec,
            Err(error) => {
                errors.push(json!({"name": tool.name(), "plugin": tool.plugin_id(), "error": error.to_string()}));
                continue;
            }
        };
        for locale in Locale::ALL {
            for dialect in Dialect::ALL {
                let mut entry = serde_json::Map::new();
                entry.insert("name".into(), Value::from(tool.name()));
                entry.insert("plugin".into(), Value::from(tool.plugin_id()));
                entry.insert("dialect".into(), Value::from(dialect.as_str()));
                entry.insert("locale".into(), Value::from(locale.as_str()));
                match spec.llm_definition(dialect, locale) {
                    Ok(definition) => {
                        entry.insert("parameters".into(), spec.parameters_schema_for(locale).clone());
                        entry.insert("definition".into(), definition);
                        tools.push(Value::Object(entry));
                    }
                    Err(error) => {
                        entry.insert("error".into(), Value::from(error.to_string()));
                        errors.push(Value::Object(entry));
                    }
                }
            }
        }
    }
    json!({"tools": tools, "errors": errors})
}
