//! The plugin run in its own process by a host, through `McpToolProvider` over stdio: it serves
//! exactly its own tools as declared; a crash mid-call is a clear error, the process is started
//! again and later calls succeed; a call the host gives up on is cancelled in the plugin; a
//! restart or a changed binary swaps processes under concurrent calls without losing or
//! misrouting one; a plugin that cannot start is disabled after its restarts run out; a client
//! that leaves before starting a session ends the plugin quietly.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use toolhook::{
    ChatScope, Dialect, Locale, PermissionLevel, ToolExecutionContext, ToolExecutionResult, ToolInvocation, Visibility,
};
use toolhook_example_isolated as _;
use toolhook_runtime::mcp::{McpServerEntry, McpServerStatus, McpServersConfig, McpToolProvider};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

const PLUGIN: &str = env!("CARGO_BIN_EXE_toolhook-example-isolated");

/// A host with the plugin as its one isolated plugin, connected.
async fn host(entry: McpServerEntry) -> (ToolRegistry, McpToolProvider) {
    let provider = McpToolProvider::new(&McpServersConfig::default().server("isolated", entry));
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    let status = provider.wait_connected(Duration::from_secs(30)).await;
    assert!(matches!(status[0].1, McpServerStatus::Connected { .. }), "{status:?}");
    (registry, provider)
}

async fn call(registry: &ToolRegistry, tool: &str, arguments: Value) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new(tool, arguments), None).await
}

async fn pid(registry: &ToolRegistry) -> String {
    let result = call(registry, "process_id", json!({})).await;
    assert!(result.success, "{result:?}");
    result.content
}

/// Polls until `done` or 20 s passed.
async fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

fn connected(provider: &McpToolProvider) -> bool {
    matches!(provider.servers()[0].1, McpServerStatus::Connected { .. })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn it_serves_exactly_its_own_tools_as_declared() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    // The same plugin loaded in this process, the usual way.
    let local = ToolRegistry::default();
    local.register_provider(PluginToolProvider::from_declared());
    let expected = local.get_llm_definitions(None, Dialect::Mcp).await;
    // Listed for no caller, as a model without a chat sees them: `kick`'s rules leave it out,
    // here as there.
    let listed = registry.list_tools(None).await;
    let names: Vec<&str> = listed.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["cancelled_calls", "crash", "process_id", "refuse", "slow_echo", "wait_forever", "whoami"]);
    for (spec, definition) in listed.iter().zip(&expected) {
        assert_eq!(registry.definition(spec, Dialect::Mcp, Locale::En), *definition);
    }
    assert_eq!(call(&registry, "slow_echo", json!({"text": "hello"})).await.content, "hello");
    let refused = call(&registry, "refuse", json!({"reason": "not today"})).await;
    assert!(!refused.success && refused.error_message.contains("not today"), "{refused:?}");
    assert_ne!(pid(&registry).await, std::process::id().to_string(), "it runs in its own process");
    provider.remove_server("isolated").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_carries_the_hosts_chat_context_when_the_entry_forwards_it() {
    let ctx = ToolExecutionContext { user_id: "u7".into(), platform: "qq".into(), ..ToolExecutionContext::default() };
    let whoami = ToolInvocation::new("whoami", json!({}));
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN).forward_context(true)).await;
    let heard = registry.invoke(whoami.clone(), Some(&ctx)).await;
    assert_eq!(heard.content, "u7 on qq", "{heard:?}");
    provider.remove_server("isolated").await;

    // Without it the plugin knows no chat: its context parameters stay unfilled.
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    let unheard = registry.invoke(whoami, Some(&ctx)).await;
    assert!(!unheard.success && unheard.error_message.contains("user_id: missing required parameter"), "{unheard:?}");
    provider.remove_server("isolated").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn its_tools_keep_their_access_rules_and_visibility_in_the_host() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    let admin_on_qq = ToolExecutionContext {
        platform: "qq".into(),
        scope: Some(ChatScope::Group),
        permission: PermissionLevel::GroupAdmin,
        ..ToolExecutionContext::default()
    };
    let kick = ToolInvocation::new("kick", json!({"member": "mallory"}));
    let kicked = registry.invoke(kick.clone(), Some(&admin_on_qq)).await;
    assert!(kicked.success, "{kicked:?}");
    assert_eq!(kicked.content, "kicked mallory");
    // Everyone else is refused by the host, as for a tool it links.
    let on_telegram = ToolExecutionContext { platform: "telegram".into(), ..admin_on_qq.clone() };
    let member = ToolExecutionContext { permission: PermissionLevel::User, ..admin_on_qq.clone() };
    for (who, ctx) in [("another platform", Some(&on_telegram)), ("a plain member", Some(&member)), ("no caller", None)]
    {
        let refused = registry.invoke(kick.clone(), ctx).await;
        assert_eq!(refused.error_message, "Tool not found: kick", "{who}: {refused:?}");
    }
    // Listed where its rules admit the caller, with the author's visibility: its core tools are
    // in every round, as in a host that links the plugin.
    let lists_kick = |specs: Vec<toolhook::ToolSpec>| specs.iter().any(|s| s.name() == "kick");
    assert!(lists_kick(registry.list_tools(Some(&(&admin_on_qq).into())).await));
    assert!(!lists_kick(registry.list_tools(Some(&(&member).into())).await));
    let listed = registry.list_tools(None).await;
    let slow_echo = listed.iter().find(|s| s.name() == "slow_echo").expect("listed");
    assert_eq!(slow_echo.visibility(), Visibility::Visible);
    provider.remove_server("isolated").await;
}

/// An rmcp client of the plugin declaring `capabilities`, in the protocol era `version`.
async fn plain_client(
    capabilities: Value,
    version: rmcp::model::ProtocolVersion,
) -> rmcp::service::RunningService<rmcp::RoleClient, rmcp::model::ClientConfig> {
    use rmcp::ClientServiceExt;
    let mut command = tokio::process::Command::new(PLUGIN);
    command.stderr(std::process::Stdio::null());
    let capabilities: rmcp::model::ClientCapabilities = serde_json::from_value(capabilities).unwrap();
    let handler = rmcp::model::ClientConfig::new(capabilities, rmcp::model::Implementation::new("plain", "1.0.0"));
    let lifecycle = if version == rmcp::model::ProtocolVersion::V_2026_07_28 {
        rmcp::ClientLifecycleMode::Discover { preferred_versions: vec![version] }
    } else {
        rmcp::ClientLifecycleMode::Initialize
    };
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    handler.serve_with_lifecycle(transport, lifecycle).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_check_the_rules_gets_them_checked_by_the_plugin() {
    use rmcp::model::{CallToolRequestParams, ProtocolVersion};
    for version in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        // Any MCP client but a toolhook host (or an older one): the plugin checks the rules itself,
        // in the only context it has, where nobody is a group admin on QQ.
        let plain = plain_client(json!({}), version.clone()).await;
        let listed = plain.peer().list_all_tools().await.unwrap();
        let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
        assert!(names.contains(&"whoami") && !names.contains(&"kick"), "{version}: {names:?}");
        let kick =
            CallToolRequestParams::new("kick").with_arguments(json!({"member": "x"}).as_object().unwrap().clone());
        let refused = plain.peer().call_tool(kick.clone()).await;
        assert!(refused.is_err(), "{version}: {refused:?}");
        plain.cancel().await.unwrap();

        // A client that says it checks them is given every tool with its rules.
        let checking = plain_client(json!({"experimental": {"toolhook/rules": {}}}), version.clone()).await;
        let listed = checking.peer().list_all_tools().await.unwrap();
        let kick_listed = listed.iter().find(|t| t.name == "kick").expect("kick listed");
        let rules = kick_listed.meta.as_ref().and_then(|m| m.get("toolhook/rules")).cloned();
        assert_eq!(
            rules,
            Some(
                json!({"visibility": "deferred", "permission": "group_admin", "platforms": ["qq"], "scopes": ["group"]})
            ),
            "{version}"
        );
        let kicked = checking.peer().call_tool(kick).await.unwrap();
        assert_eq!(kicked.is_error, Some(false), "{version}: {kicked:?}");
        checking.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_mid_call_is_a_clear_error_and_the_plugin_comes_back() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    let first = pid(&registry).await;

    let waiting = registry.clone();
    let in_flight =
        tokio::spawn(async move { call(&waiting, "slow_echo", json!({"text": "hi", "delay_ms": 5000})).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let crashed = call(&registry, "crash", json!({})).await;
    assert_eq!(
        crashed.error_message,
        "MCP tool 'crash' failed: MCP server 'isolated' stopped before answering; try again shortly"
    );
    let lost = in_flight.await.unwrap();
    assert_eq!(
        lost.error_message,
        "MCP tool 'slow_echo' failed: MCP server 'isolated' stopped before answering; try again shortly"
    );

    // Until it is back, its tools fail at once and say why.
    assert!(eventually(|| !connected(&provider)).await);
    if let McpServerStatus::Reconnecting { failures, .. } = &provider.servers()[0].1 {
        assert_eq!(*failures, 1);
        let down = call(&registry, "slow_echo", json!({"text": "x"})).await;
        assert!(down.error_message.starts_with("MCP server 'isolated'"), "{down:?}");
    }
    assert!(eventually(|| connected(&provider)).await, "{:?}", provider.servers());
    assert_ne!(pid(&registry).await, first, "a new process");
    assert_eq!(call(&registry, "slow_echo", json!({"text": "again"})).await.content, "again");
    provider.remove_server("isolated").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_the_host_gives_up_on_is_cancelled_in_the_plugin() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN).timeout(Duration::from_millis(300))).await;
    let timed_out = call(&registry, "wait_forever", json!({})).await;
    assert_eq!(timed_out.error_message, "Tool wait_forever failed: Timeout: no result within 300 ms");
    let mut seen = String::new();
    for _ in 0..100 {
        seen = call(&registry, "cancelled_calls", json!({})).await.content;
        if seen == "1" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(seen, "1", "the plugin saw the cancellation");
    provider.remove_server("isolated").await;
}

/// Calls `slow_echo` from 4 tasks until `stop`, each with its own texts; returns (calls, every
/// wrong or failed result).
async fn hammer(registry: &ToolRegistry, stop: tokio::sync::watch::Receiver<bool>) -> (usize, Vec<String>) {
    let workers = (0..4).map(|worker| {
        let registry = registry.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            let (mut calls, mut wrong) = (0, Vec::new());
            while !*stop.borrow() {
                let text = format!("worker {worker} call {calls}");
                let result = call(&registry, "slow_echo", json!({"text": text, "delay_ms": 20})).await;
                if !result.success || result.content != text {
                    wrong.push(format!("{text}: {result:?}"));
                }
                calls += 1;
            }
            (calls, wrong)
        })
    });
    let mut total = (0, Vec::new());
    for worker in futures_util::future::join_all(workers).await {
        let (calls, wrong) = worker.unwrap();
        total.0 += calls;
        total.1.extend(wrong);
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_under_concurrent_calls_loses_and_misroutes_nothing() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    let mut pids = BTreeSet::from([pid(&registry).await]);
    let (stop, running) = tokio::sync::watch::channel(false);
    let calls = tokio::spawn({
        let registry = registry.clone();
        async move { hammer(&registry, running).await }
    });
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let before = pid(&registry).await;
        assert!(provider.restart("isolated"));
        let mut after = before.clone();
        let until = Instant::now() + Duration::from_secs(20);
        while after == before && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
            after = pid(&registry).await;
        }
        pids.insert(after);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.send(true).unwrap();
    let (count, wrong) = calls.await.unwrap();
    assert_eq!(pids.len(), 3, "two restarts, three processes: {pids:?}");
    assert!(count > 40, "calls kept going ({count})");
    assert!(
        wrong.is_empty(),
        "{} of {count} calls lost or misrouted: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    assert!(connected(&provider));
    provider.remove_server("isolated").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_binary_is_reloaded_under_concurrent_calls() {
    let dir = std::env::temp_dir().join(format!("toolhook-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("plugin");
    std::fs::copy(PLUGIN, &binary).unwrap();
    let (registry, provider) = host(McpServerEntry::stdio(binary.to_string_lossy()).watch(true)).await;
    let before = pid(&registry).await;
    let (stop, running) = tokio::sync::watch::channel(false);
    let calls = tokio::spawn({
        let registry = registry.clone();
        async move { hammer(&registry, running).await }
    });
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // A new build lands: written elsewhere and renamed into place, as installers do.
    let staged = dir.join("plugin.new");
    std::fs::copy(PLUGIN, &staged).unwrap();
    std::fs::rename(&staged, &binary).unwrap();
    let mut after = before.clone();
    let until = Instant::now() + Duration::from_secs(20);
    while after == before && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = pid(&registry).await;
    }
    stop.send(true).unwrap();
    let (count, wrong) = calls.await.unwrap();
    assert_ne!(after, before, "the new binary runs");
    assert!(
        wrong.is_empty(),
        "{} of {count} calls lost or misrouted: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    provider.remove_server("isolated").await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugin_that_cannot_start_is_disabled_and_reported() {
    let entry = McpServerEntry::stdio("/nonexistent/toolhook-plugin").max_restarts(1);
    let provider = McpToolProvider::new(&McpServersConfig::default().server("broken", entry));
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    assert!(eventually(|| matches!(provider.servers()[0].1, McpServerStatus::Disabled { .. })).await);
    let McpServerStatus::Disabled { reason } = &provider.servers()[0].1 else { unreachable!() };
    assert!(reason.starts_with("2 failures in a row, the last: cannot start /nonexistent/toolhook-plugin"), "{reason}");
    assert!(registry.list_tools(None).await.is_empty());
}

fn alive(pid: &str) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default().contains(") Z ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_drops_its_provider_leaves_no_process_behind() {
    let (registry, provider) = host(McpServerEntry::stdio(PLUGIN)).await;
    let pid = pid(&registry).await;
    assert!(alive(&pid));
    drop(registry);
    drop(provider);
    let until = Instant::now() + Duration::from_secs(20);
    while alive(&pid) && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!alive(&pid), "process {pid} outlived the provider");
}

/// Runs the plugin with `input` on its stdin, then closes it: how it exits, and its stderr.
fn closed_after(input: &str) -> (std::process::ExitStatus, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(PLUGIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the plugin starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.as_bytes()).expect("the plugin reads its stdin");
    drop(stdin);
    let until = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the plugin can be waited for") {
            break status;
        }
        if Instant::now() > until {
            child.kill().ok();
            panic!("the plugin did not exit after its stdin was closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child.stderr.take().expect("piped stderr").read_to_string(&mut stderr).ok();
    (status, stderr)
}

#[test]
fn a_client_that_leaves_before_a_session_ends_the_plugin_quietly() {
    // A 2026-07-28 client that only asked `server/discover`, and one that sent nothing at all.
    let discover = json!({
        "jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1.0.0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}
    });
    for input in [format!("{discover}\n"), String::new()] {
        let (status, stderr) = closed_after(&input);
        assert!(status.success(), "{status}: {stderr}");
        assert!(!stderr.contains("could not start"), "{stderr}");
    }
}
