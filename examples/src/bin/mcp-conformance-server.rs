//! The tools the official MCP conformance suite calls, served the way a toolhook host serves any
//! tools: plain `#[tool]` fns (plus two built-ins whose schemas are given as JSON), a registry,
//! and [`McpServer`] over Streamable HTTP. One more tool answers with structured content and an
//! output schema, which the official Python client checks against each other (`.ci/mcp-python`).
//!
//! ```text
//! mcp-conformance-server --port P     # http://127.0.0.1:P/mcp until SIGTERM or Ctrl-C; logs on stderr
//! ```

use std::sync::OnceLock;
use std::time::Duration;
use toolhook::serde_json::{Value, json};
use toolhook::{
    Elicitation, Json, LogLevel, Progress, RootsRequest, SamplingRequest, ToolContentItem, ToolExecutionContext,
    ToolExecutionResult, ToolOutput, ToolSpec, tool,
};
use toolhook_runtime::mcp::{McpHttpConfig, McpServer};
use toolhook_runtime::{BuiltinTool, BuiltinToolProvider, PluginToolProvider, ToolRegistry};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

/// The registry, for the tool that changes it.
static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();

/// Answers with a fixed text.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Answers with an image.
#[tool]
fn test_image_content() -> ToolOutput {
    ToolOutput::text("").with_item(ToolContentItem::image(PNG, "image/png"))
}

/// Answers with audio.
#[tool]
fn test_audio_content() -> ToolOutput {
    ToolOutput::text("").with_item(ToolContentItem::audio(WAV, "audio/wav"))
}

/// Answers with an embedded resource.
#[tool]
fn test_embedded_resource() -> ToolOutput {
    let resource = ToolContentItem::resource("test://embedded-resource", "This is an embedded resource content.");
    ToolOutput::text("").with_item(ToolContentItem { mime_type: "text/plain".into(), ..resource })
}

/// Answers with text, an image and a resource.
#[tool]
fn test_multiple_content_types() -> ToolOutput {
    let resource = ToolContentItem::resource("test://mixed-content-resource", r#"{"test":"data","value":123}"#);
    ToolOutput::text("Multiple content types test:")
        .with_item(ToolContentItem::image(PNG, "image/png"))
        .with_item(ToolContentItem { mime_type: "application/json".into(), ..resource })
}

/// Fails on purpose.
#[tool]
fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".into())
}

/// Logs three messages while it works.
#[tool]
async fn test_tool_with_logging(ctx: &ToolExecutionContext) -> &'static str {
    for message in ["Tool execution started", "Tool processing data", "Tool execution completed"] {
        ctx.log(LogLevel::Info, message).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    "Logging test completed"
}

/// Logs once, if the client asked for logs.
#[tool]
async fn test_logging_tool(ctx: &ToolExecutionContext) -> &'static str {
    ctx.log(LogLevel::Info, "test_logging_tool ran").await;
    "Logged (when asked to)"
}

/// Reports progress in three steps.
#[tool]
async fn test_tool_with_progress(ctx: &ToolExecutionContext) -> &'static str {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.report_progress(Progress::new(done).total(100.0)).await;
    }
    "Progress test completed"
}

/// Asks the caller's model.
#[tool]
async fn test_sampling(
    ctx: &ToolExecutionContext,
    /// What to ask.
    prompt: String,
) -> Result<String, String> {
    let reply = ctx.sample(SamplingRequest::new(100).user(prompt)).await.map_err(|e| e.to_string())?;
    Ok(format!("LLM response: {}", reply.text))
}

/// Asks the user for their name and email.
#[tool]
async fn test_elicitation(
    ctx: &ToolExecutionContext,
    /// What to ask.
    message: String,
) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    }, "required": ["username", "email"]});
    let reply = ctx.elicit(Elicitation::new(message, schema)).await.map_err(|e| e.to_string())?;
    Ok(format!("User response: {:?}, {}", reply.action, Value::from(reply.content.unwrap_or_default())))
}

/// Asks the user with a default for every field.
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: &ToolExecutionContext) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": true},
    }});
    let reply = ctx.elicit(Elicitation::new("Please review your details", schema)).await.map_err(|e| e.to_string())?;
    Ok(format!(
        "Elicitation completed: action={:?}, content={}",
        reply.action,
        Value::from(reply.content.unwrap_or_default())
    ))
}

/// Asks the user to pick from every kind of enum.
#[tool]
async fn test_elicitation_sep1330_enums(ctx: &ToolExecutionContext) -> Result<String, String> {
    let titled = |prefix: &str, names: [&str; 3]| -> Vec<Value> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| json!({"const": format!("value{}", i + 1), "title": format!("{n} {prefix}")}))
            .collect()
    };
    let schema = json!({"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": titled("Option", ["First", "Second", "Third"])},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": titled("Choice", ["First", "Second", "Third"])}},
    }});
    let reply = ctx.elicit(Elicitation::new("Pick your options", schema)).await.map_err(|e| e.to_string())?;
    Ok(format!(
        "Elicitation completed: action={:?}, content={}",
        reply.action,
        Value::from(reply.content.unwrap_or_default())
    ))
}

/// Takes a moment, for SSE polling clients.
#[tool]
async fn test_reconnection() -> &'static str {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed"
}

/// Needs the caller's model.
#[tool]
async fn test_missing_capability(ctx: &ToolExecutionContext) -> Result<String, String> {
    let reply = ctx.sample(SamplingRequest::new(20).user("Say hi")).await.map_err(|e| e.to_string())?;
    Ok(reply.text)
}

/// Asks the user while the call streams.
#[tool]
async fn test_streaming_elicitation(ctx: &ToolExecutionContext) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    let reply = ctx.elicit(Elicitation::new("Continue?", schema)).await.map_err(|e| e.to_string())?;
    Ok(format!("Streaming elicitation: {:?}", reply.action))
}

/// A forecast, as data.
#[derive(toolhook::serde::Serialize, toolhook::schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Forecast {
    /// The city.
    city: String,
    /// Degrees Celsius.
    celsius: f64,
    /// Whether the sun shines.
    sunny: bool,
}

/// Answers with structured content, described by the tool's output schema.
#[tool]
fn test_structured_content(
    /// The city.
    city: String,
) -> Json<Forecast> {
    Json(Forecast { city, celsius: 21.5, sunny: true })
}

/// Adds or removes a tool, so clients are told the list changed.
#[tool]
fn test_trigger_tool_change() -> &'static str {
    let Some(registry) = REGISTRY.get() else { return "no registry" };
    if registry.unregister_provider("changing") {
        "removed test_changing_tool"
    } else {
        let spec = ToolSpec::builder("test_changing_tool").brief_description("Comes and goes.").build().unwrap();
        let tool =
            BuiltinTool::new(spec, |call, _| async move { Ok(ToolExecutionResult::success(call.tool_name, "here")) });
        registry.register_provider(BuiltinToolProvider::new().without_tool_search().named("changing").with_tool(tool));
        "added test_changing_tool"
    }
}

fn name_question(key: &str) -> Elicitation {
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    Elicitation::new("What is your name?", schema).key(key)
}

fn confirm_question(key: &str, message: &str) -> Elicitation {
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    Elicitation::new(message, schema).key(key)
}

/// Asks the user's name.
#[tool]
async fn test_input_required_result_elicitation(ctx: &ToolExecutionContext) -> Result<String, String> {
    let reply = ctx.elicit(name_question("user_name")).await.map_err(|e| e.to_string())?;
    let name = reply.accepted().and_then(|c| c.get("name")).and_then(Value::as_str).unwrap_or("stranger");
    Ok(format!("Hello, {name}!"))
}

/// Asks the caller's model a question.
#[tool]
async fn test_input_required_result_sampling(ctx: &ToolExecutionContext) -> Result<String, String> {
    let ask = SamplingRequest::new(100).user("What is the capital of France?").key("capital_question");
    let reply = ctx.sample(ask).await.map_err(|e| e.to_string())?;
    Ok(format!("The model says: {}", reply.text))
}

/// Asks the client for its roots.
#[tool]
async fn test_input_required_result_list_roots(ctx: &ToolExecutionContext) -> Result<String, String> {
    let roots = ctx.list_roots(RootsRequest::new().key("client_roots")).await.map_err(|e| e.to_string())?;
    Ok(format!("Roots: {}", roots.iter().map(|r| r.uri.as_str()).collect::<Vec<_>>().join(", ")))
}

/// Asks for a confirmation that travels in the request state.
#[tool]
async fn test_input_required_result_request_state(ctx: &ToolExecutionContext) -> Result<String, String> {
    let reply = ctx.elicit(confirm_question("confirm", "Confirm?")).await.map_err(|e| e.to_string())?;
    let ok = reply.accepted().and_then(|c| c.get("ok")).and_then(Value::as_bool).unwrap_or(false);
    Ok(if ok { "state-ok".into() } else { "not confirmed".into() })
}

/// Asks the user, the model and the client at once.
#[tool]
async fn test_input_required_result_multiple_inputs(ctx: &ToolExecutionContext) -> Result<String, String> {
    let (name, greeting, roots) = tokio::join!(
        ctx.elicit(name_question("user_name")),
        ctx.sample(SamplingRequest::new(50).user("Write a greeting").key("greeting")),
        ctx.list_roots(RootsRequest::new().key("client_roots")),
    );
    let (name, greeting, roots) =
        (name.map_err(|e| e.to_string())?, greeting.map_err(|e| e.to_string())?, roots.map_err(|e| e.to_string())?);
    let name = name.accepted().and_then(|c| c.get("name")).and_then(Value::as_str).unwrap_or("stranger").to_owned();
    Ok(format!("{} {name} ({} roots)", greeting.text, roots.len()))
}

/// Asks two questions, one after the other.
#[tool]
async fn test_input_required_result_multi_round(ctx: &ToolExecutionContext) -> Result<String, String> {
    ctx.elicit(confirm_question("step1", "Step 1?")).await.map_err(|e| e.to_string())?;
    ctx.elicit(confirm_question("step2", "Step 2?")).await.map_err(|e| e.to_string())?;
    Ok("Both steps done".into())
}

/// Asks a question whose request state must come back untouched.
#[tool]
async fn test_input_required_result_tampered_state(ctx: &ToolExecutionContext) -> Result<String, String> {
    ctx.elicit(confirm_question("confirm", "Confirm?")).await.map_err(|e| e.to_string())?;
    Ok("confirmed".into())
}

/// Asks only what the client can answer.
#[tool]
async fn test_input_required_result_capabilities(ctx: &ToolExecutionContext) -> Result<String, String> {
    let elicitation = async {
        if ctx.can_ask(toolhook::InputKind::Elicitation) {
            Some(ctx.elicit(name_question("user_name")).await)
        } else {
            None
        }
    };
    let sampling = async {
        if ctx.can_ask(toolhook::InputKind::Sampling) {
            Some(ctx.sample(SamplingRequest::new(50).user("Say hello").key("hello")).await)
        } else {
            None
        }
    };
    let (elicited, sampled) = tokio::join!(elicitation, sampling);
    Ok(format!("asked: elicitation={}, sampling={}", elicited.is_some(), sampled.is_some()))
}

/// Two tools whose input schemas are given as JSON, as a host would for schemas that no Rust
/// signature describes.
fn schema_tools() -> BuiltinToolProvider {
    let json_schema = ToolSpec::builder("json_schema_2020_12_tool")
        .brief_description("Tool with JSON Schema 2020-12 features")
        .parameters_raw(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        }))
        .core_tool(true)
        .build()
        .expect("a valid spec");
    let custom_header = ToolSpec::builder("test_custom_header")
        .brief_description("Echoes a value that also travels in a header.")
        .parameters_raw(json!({"type": "object", "properties": {
            "value": {"type": "string", "description": "The value", "x-mcp-header": "Value"}
        }, "required": ["value"]}))
        .core_tool(true)
        .build()
        .expect("a valid spec");
    BuiltinToolProvider::new()
        .without_tool_search()
        .named("schemas")
        .with_tool(BuiltinTool::new(json_schema, |call, _| async move {
            Ok(ToolExecutionResult::success(call.tool_name, format!("received {}", call.arguments.as_text())))
        }))
        .with_tool(BuiltinTool::new(custom_header, |call, _| async move {
            let value = call.arguments.to_value().ok().and_then(|v| v.get("value").cloned()).unwrap_or_default();
            Ok(ToolExecutionResult::success(call.tool_name, value.as_str().unwrap_or_default()))
        }))
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let port: u16 = match (args.next().as_deref(), args.next().map(|p| p.parse())) {
        (Some("--port"), Some(Ok(port))) => port,
        _ => {
            eprintln!("usage: mcp-conformance-server --port P");
            return std::process::ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_target(false).init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(async move {
        let registry = REGISTRY.get_or_init(ToolRegistry::default).clone();
        registry.register_provider(PluginToolProvider::from_declared());
        registry.register_provider(schema_tools());
        let server = McpServer::builder(&registry).name("toolhook-conformance").build().expect("a server");
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let http = match server.serve_http(McpHttpConfig::new(address)).await {
            Ok(http) => http,
            Err(error) => {
                eprintln!("cannot serve on {address}: {error}");
                return std::process::ExitCode::FAILURE;
            }
        };
        eprintln!("serving http://{}/mcp", http.local_addr());
        let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM");
        tokio::select! {
            _ = terminate.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        http.shutdown().await;
        std::process::ExitCode::SUCCESS
    })
}
