//! Uses one MCP server's tools through a toolhook registry, as a host does, and prints what the
//! registry lists and what each call returns, as JSON lines on stdout.
//!
//! ```text
//! mcp-everything-probe (--stdio "CMD ARG..." | --url URL) [--protocol auto|2026-07-28|2025-11-25] [--call NAME JSON]...
//! ```
//!
//! The first line is `{"tools": [{"name", "description", "input_schema"}, …]}`; then one line
//! per `--call`, in order: `{"call", "is_error", "text", "result"}`. Try it against the official reference
//! server: `--stdio "npx -y @modelcontextprotocol/server-everything" --call echo '{"message":"hi"}'`.

use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Duration;
use toolhook::{ContentType, ToolInvocation, Visibility};
use toolhook_runtime::ToolRegistry;
use toolhook_runtime::mcp::{
    McpProtocol, McpServerEntry, McpServerStatus, McpServersConfig, McpToolProvider, McpToolRules,
};

struct Options {
    entry: McpServerEntry,
    calls: Vec<(String, String)>,
}

fn options() -> Result<Options, String> {
    let mut entry = None;
    let mut calls = Vec::new();
    let mut protocol = McpProtocol::Auto;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stdio" => {
                let line = args.next().ok_or("--stdio needs a command")?;
                let mut words = line.split_whitespace();
                let command = words.next().ok_or("--stdio needs a command")?;
                entry = Some(McpServerEntry::stdio(command).args(words));
            }
            "--url" => entry = Some(McpServerEntry::http(args.next().ok_or("--url needs a URL")?)),
            "--protocol" => protocol = args.next().ok_or("--protocol needs an era")?.parse()?,
            "--call" => {
                let name = args.next().ok_or("--call needs a tool name")?;
                let arguments = args.next().ok_or("--call needs JSON arguments")?;
                calls.push((name, arguments));
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let entry = entry.ok_or("give --stdio or --url")?;
    Ok(Options {
        entry: entry.protocol(protocol).rules(McpToolRules::default().visibility(Visibility::Visible)),
        calls,
    })
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!(
                "{message}\nusage: mcp-everything-probe (--stdio \"CMD ARG...\" | --url URL) [--protocol auto|2026-07-28|2025-11-25] [--call NAME JSON]..."
            );
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(async move {
        let config = McpServersConfig::new().server("server", options.entry.connect_timeout(Duration::from_secs(120)));
        let mcp = McpToolProvider::new(&config);
        let registry = ToolRegistry::default();
        registry.register_provider(mcp.clone());
        let status = mcp.wait_connected(Duration::from_secs(120)).await;
        if !matches!(status.first(), Some((_, McpServerStatus::Connected { .. }))) {
            eprintln!("the server did not connect: {status:?}");
            registry.close().await.ok();
            return ExitCode::FAILURE;
        }
        let locale = registry.locale();
        let tools: Vec<Value> = registry
            .list_tools(None)
            .await
            .iter()
            .map(|spec| json!({"name": spec.name(), "description": spec.description(locale), "input_schema": spec.parameters_schema()}))
            .collect();
        println!("{}", json!({"tools": tools}));
        for (name, arguments) in options.calls {
            let call = ToolInvocation::new(name.clone(), arguments);
            let result = registry.invoke(call, None).await;
            let texts: Vec<&str> = result
                .content_items()
                .iter()
                .filter(|i| i.content_type == ContentType::Text)
                .map(|i| i.text.as_str())
                .collect();
            let text = if !texts.is_empty() {
                texts.join("\n")
            } else if result.success {
                result.content.clone()
            } else {
                result.error_message.clone()
            };
            let line = json!({"call": name, "is_error": !result.success, "text": text, "result": result});
            println!("{line}");
        }
        if let Err(error) = registry.close().await {
            eprintln!("{error}");
        }
        ExitCode::SUCCESS
    })
}
