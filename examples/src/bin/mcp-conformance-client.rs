//! The client the official MCP conformance suite runs for its client scenarios: a host that uses
//! one MCP server's tools through a toolhook registry, as any host does.
//!
//! ```text
//! MCP_CONFORMANCE_SCENARIO=tools_call [MCP_CONFORMANCE_PROTOCOL_VERSION=2026-07-28] mcp-conformance-client URL
//! ```
//!
//! The server URL is the last argument. With `MCP_CONFORMANCE_PROTOCOL_VERSION=2026-07-28` it
//! speaks the stateless era, otherwise 2025-11-25 (`initialize`). It lists the server's tools,
//! makes the scenario's calls through [`ToolRegistry::invoke`], prints each result as a JSON
//! line and exits 0 once every call has a result. The server's questions are answered by the
//! host's handler below: forms are accepted with their defaults.

use serde_json::{Map, Value, json};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use toolhook::{
    BoxFuture, Capabilities, Elicitation, ElicitationAction, ElicitationReply, Interaction, InteractionError, Root,
    RootsRequest, ToolInvocation, Visibility,
};
use toolhook_runtime::ToolRegistry;
use toolhook_runtime::mcp::{
    McpProtocol, McpServerEntry, McpServerStatus, McpServersConfig, McpToolProvider, McpToolRules,
};

/// The host's answers to a server's questions: a form is accepted with every field it gives a
/// default for (and `true` for yes/no questions without one); there are no roots.
struct AcceptDefaults;

impl Interaction for AcceptDefaults {
    fn capabilities(&self) -> Capabilities {
        let mut capabilities = Capabilities::NONE;
        capabilities.elicitation = true;
        capabilities.roots = true;
        capabilities
    }

    fn elicit(&self, question: Elicitation) -> BoxFuture<'_, Result<ElicitationReply, InteractionError>> {
        let mut content = Map::new();
        let properties = question.schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        for (name, property) in properties {
            let value = match (property.get("default"), property.get("type").and_then(Value::as_str)) {
                (Some(default), _) => default.clone(),
                (None, Some("boolean")) => Value::Bool(true),
                _ => continue,
            };
            content.insert(name, value);
        }
        Box::pin(async move { Ok(ElicitationReply::new(ElicitationAction::Accept, Some(content))) })
    }

    fn list_roots(&self, _request: RootsRequest) -> BoxFuture<'_, Result<Vec<Root>, InteractionError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

/// The calls a scenario makes, by name and arguments (none: it only lists).
fn calls(scenario: &str, registry_tools: &[toolhook::ToolSpec]) -> Vec<(String, Value)> {
    let schema_of =
        |name: &str| registry_tools.iter().find(|s| s.name() == name).map(|s| s.parameters_schema().clone());
    let call = |name: &str, arguments: Value| (name.to_owned(), arguments);
    match scenario {
        "tools_call" => vec![call("add_numbers", json!({"a": 2, "b": 3}))],
        "sse-retry" => vec![call("test_reconnection", json!({}))],
        "elicitation-sep1034-client-defaults" => vec![call("test_client_elicitation_defaults", json!({}))],
        "sep-2322-client-request-state" => {
            ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"]
                .into_iter()
                .map(|name| call(name, json!({})))
                .collect()
        }
        "http-standard-headers" => vec![call("test_headers", json!({})), call("my-hyphenated-tool", json!({}))],
        "http-invalid-tool-headers" => vec![call("valid_tool", json!({"region": "us-west1"}))],
        // The schema as the registry keeps it goes back to the server, which checks every keyword.
        "json-schema-2020-12-preservation" => match schema_of("json_schema_2020_12_tool") {
            Some(schema) => vec![call("json_schema_echo", json!({"schema": schema}))],
            None => Vec::new(),
        },
        // The suite says which calls to make.
        "http-custom-headers" => {
            let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
                .ok()
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
            context["toolCalls"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| Some(call(c["name"].as_str()?, c["arguments"].clone())))
                .collect()
        }
        _ => Vec::new(),
    }
}

fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: mcp-conformance-client URL (the scenario in MCP_CONFORMANCE_SCENARIO)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let protocol = match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").as_deref() {
        Ok("2026-07-28") => McpProtocol::Stateless,
        _ => McpProtocol::Initialize,
    };
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(async move {
        let entry = McpServerEntry::http(url)
            .protocol(protocol)
            .connect_timeout(Duration::from_secs(20))
            .timeout(Duration::from_secs(20))
            .max_restarts(0)
            .rules(McpToolRules::default().visibility(Visibility::Visible));
        let config = McpServersConfig::new().server("conformance", entry);
        let mcp = McpToolProvider::builder(&config).interaction(Arc::new(AcceptDefaults)).build();
        let registry = ToolRegistry::default();
        registry.register_provider(mcp.clone());
        let status = mcp.wait_connected(Duration::from_secs(25)).await;
        if !matches!(status.first(), Some((_, McpServerStatus::Connected { .. }))) {
            eprintln!("the server did not connect: {status:?}");
            registry.close().await.ok();
            return ExitCode::FAILURE;
        }
        let tools = registry.list_tools(None).await;
        let names: Vec<&str> = tools.iter().map(|s| s.name()).collect();
        println!("{}", json!({"scenario": scenario, "tools": names}));
        let mut failed = false;
        for (name, arguments) in calls(&scenario, &tools) {
            let result = registry.invoke(ToolInvocation::new(name.clone(), arguments), None).await;
            failed |=
                result.error_message.starts_with("MCP server") || result.error_message.starts_with("Tool not found");
            println!("{}", json!({"call": name, "success": result.success, "result": result}));
        }
        if let Err(error) = registry.close().await {
            eprintln!("{error}");
        }
        if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
    })
}
