//! One instance of a load-balanced MCP server (see `examples/deploy/`): a few tools, served over
//! Streamable HTTP, stateless or with sessions tagged by the instance's name.
//!
//! ```text
//! mcp-instance --port P --name NAME [--stateless] [--key HEX]
//! ```
//!
//! `--key` is the request-state key every instance shares (64 hex digits), so a call that asks a
//! question on one instance can finish on another.

use toolhook::serde_json::{Value, json};
use toolhook::{Elicitation, ToolExecutionContext, tool};
use toolhook_runtime::mcp::{McpHttpConfig, McpServer};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Add two numbers.
#[tool(core_tool = true)]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// Which instance answered.
#[tool(core_tool = true)]
fn whoami() -> String {
    NAME.get().cloned().unwrap_or_default()
}

/// Asks for a confirmation, then says which instance finished the call.
#[tool(core_tool = true)]
async fn confirm(
    ctx: &ToolExecutionContext,
    /// What to confirm.
    what: String,
) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    let reply = ctx
        .elicit(Elicitation::new(format!("Go ahead with {what}?"), schema).key("ok"))
        .await
        .map_err(|e| e.to_string())?;
    let ok = reply.accepted().and_then(|c| c.get("ok")).and_then(Value::as_bool).unwrap_or(false);
    Ok(format!("{what}: {} on {}", if ok { "done" } else { "cancelled" }, NAME.get().map_or("?", String::as_str)))
}

fn main() -> std::process::ExitCode {
    let mut port = None;
    let mut stateless = false;
    let mut key = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => port = args.next().and_then(|p| p.parse::<u16>().ok()),
            "--name" => {
                let _ = NAME.set(args.next().unwrap_or_default());
            }
            "--stateless" => stateless = true,
            "--key" => key = args.next(),
            _ => port = None,
        }
    }
    let (Some(port), Some(name)) = (port, NAME.get().cloned()) else {
        eprintln!("usage: mcp-instance --port P --name NAME [--stateless] [--key HEX]");
        return std::process::ExitCode::from(2);
    };
    let key: Option<Vec<u8>> = key.map(|hex| {
        (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()).collect()
    });
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(async move {
        let registry = ToolRegistry::default();
        registry.register_provider(PluginToolProvider::from_declared());
        let mut builder = McpServer::builder(&registry).name(format!("toolhook-{name}"));
        if let Some(key) = key {
            builder = builder.request_state_key(key);
        }
        let server = match builder.build() {
            Ok(server) => server,
            Err(error) => {
                eprintln!("{error}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let config = McpHttpConfig::new(([127, 0, 0, 1], port).into()).stateless(stateless).session_tag(name.clone());
        let http = match server.serve_http(config).await {
            Ok(http) => http,
            Err(error) => {
                eprintln!("cannot serve on port {port}: {error}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM");
        tokio::select! {
            _ = terminate.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        http.shutdown().await;
        std::process::ExitCode::SUCCESS
    })
}
