//! Behaviours the other tests pin only in part: every copy a Rename policy could name stays
//! callable, a `bot_admin` tool against callers without that level, `tool_search` with a `limit`
//! of 0, what a zh-Hans round advertises after two searches, and two plugins that share an id.

use serde_json::json;
use std::sync::{Arc, Mutex};
use toolhook::{
    Locale, PermissionLevel, ToolAvailabilityContext, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec, Visibility, plugin, tool,
};
use toolhook_runtime::{
    BuiltinToolProvider, DeferredTools, DuplicatePolicy, PluginHost, PluginSet, PluginState, RegistryConfig,
    ToolRegistry,
};

#[path = "common/stub.rs"]
#[allow(dead_code)] // `Stub::new`: every provider here records its calls.
mod stub;
use stub::Stub;

/// The calls a [`recording`] provider received.
type Received = Arc<Mutex<Vec<ToolInvocation>>>;

/// A provider listing fixed specs; every call succeeds with `ran {name}` and is recorded.
fn recording(name: &'static str, kind: &'static str, specs: impl IntoIterator<Item = ToolSpec>) -> (Stub, Received) {
    let received = Received::default();
    let log = received.clone();
    let stub = Stub::answering(name, kind, specs, move |call| {
        log.lock().unwrap().push(call.clone());
        let content = format!("ran {}", call.tool_name);
        std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, content)))
    });
    (stub, received)
}

/// A [`recording`] provider whose calls nobody reads back.
fn ran(name: &'static str, kind: &'static str, specs: impl IntoIterator<Item = ToolSpec>) -> Stub {
    recording(name, kind, specs).0
}

fn names(specs: &[ToolSpec]) -> Vec<String> {
    specs.iter().map(|s| s.name().to_owned()).collect()
}

// ---- Rename: three copies named, a fourth dropped -------------------------------------------------

/// Under the Rename policy a built-in `x` keeps its name; an MCP provider (server `s`) that lists
/// `x` three times gets `mcp_s_x` for the first copy and a hashed name for the second, and the
/// third copy, which cannot be named, is dropped. Every named copy is listed and can be called,
/// the MCP ones reaching their provider under the original name `x`.
#[tokio::test]
async fn every_named_copy_of_a_renamed_duplicate_is_listed_and_callable() {
    let copy = |description: &str| {
        ToolSpec::builder("x").description(description).metadata("server_name", "s").build().unwrap()
    };
    let (mcp, received) = recording("mcp", "mcp", [copy("c1"), copy("c2"), copy("c3")]);
    let registry = ToolRegistry::new(RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename));
    registry.register_provider(ran("a", "builtin", [ToolSpec::builder("x").build().unwrap()]));
    registry.register_provider(mcp);

    let listed = registry.list_tools(None).await;
    assert_eq!(names(&listed), ["x", "mcp_s_x", "mcp_s_x_9a7ab5723d23"]);
    let descriptions: Vec<&str> = listed[1..].iter().map(|s| s.description(Locale::En)).collect();
    assert_eq!(descriptions, ["c1", "c2"], "the first two copies are the named ones");

    for name in ["x", "mcp_s_x", "mcp_s_x_9a7ab5723d23"] {
        let result = registry.invoke(ToolInvocation::new(name, "{}"), None).await;
        assert!(result.success, "{name}: {}", result.error_message);
        assert_eq!((result.tool_name.as_str(), result.content.as_str()), (name, "ran x"));
    }
    let received = received.lock().unwrap();
    assert_eq!(received.len(), 2, "the built-in `x` is not routed to the MCP provider");
    for call in received.iter() {
        assert_eq!(call.tool_name, "x");
        assert_eq!(call.metadata().get("mcp_server_name"), Some(&json!("s")));
    }
}

// ---- access rules: permission level -------------------------------------------------------------

/// A tool that needs `bot_admin` is absent from the listing and "not found" when called by a
/// `group_owner`, by a caller whose level is not set (the lowest, `user`) and without any
/// context; an `owner` sees it and can call it.
#[tokio::test]
async fn a_bot_admin_tool_is_hidden_from_lower_or_unknown_callers_and_served_to_the_owner() {
    let admin = ToolSpec::builder("admin").permission(PermissionLevel::BotAdmin).build().unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(ran("A", "plugin", [admin]));

    let listing = |permission: Option<PermissionLevel>| ToolAvailabilityContext {
        permission: permission.unwrap_or_default(),
        ..ToolAvailabilityContext::default()
    };
    let calling = |permission: Option<PermissionLevel>| ToolExecutionContext {
        permission: permission.unwrap_or_default(),
        ..ToolExecutionContext::for_session("s1")
    };
    for level in [Some(PermissionLevel::GroupOwner), None] {
        assert!(registry.list_tools(Some(&listing(level))).await.is_empty(), "{level:?}");
        let result = registry.invoke(ToolInvocation::new("admin", "{}"), Some(&calling(level))).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: admin"), "{level:?}");
    }
    assert!(registry.list_tools(None).await.is_empty(), "no context");
    let result = registry.invoke(ToolInvocation::new("admin", "{}"), None).await;
    assert_eq!(result.error_message, "Tool not found: admin", "no context");

    let owner = Some(PermissionLevel::Owner);
    assert_eq!(names(&registry.list_tools(Some(&listing(owner))).await), ["admin"]);
    let result = registry.invoke(ToolInvocation::new("admin", "{}"), Some(&calling(owner))).await;
    assert_eq!((result.success, result.content.as_str()), (true, "ran admin"));
}

// ---- deferred tools and tool_search ---------------------------------------------------------------

/// The example pool behind `tool_search` (registered first, as the built-in provider), with one
/// visible tool, `reply`, in a registry of the given locale.
fn example_pool(locale: Locale) -> (ToolRegistry, DeferredTools) {
    let deferred = DeferredTools::new();
    let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
    registry.register_provider(BuiltinToolProvider::with_deferred(deferred.clone()).locale(locale));
    let pool = [
        ("web_search", "Search the web"),
        ("web_fetch", "Fetch a URL"),
        ("image_gen", "Generate images for the web"),
        ("search_memes", "Find memes"),
        ("view_forward_message", "查看合并转发消息的内容"),
    ]
    .map(|(name, description)| {
        ToolSpec::builder(name).description(description).visibility(Visibility::Deferred).build().unwrap()
    });
    let reply = ToolSpec::builder("reply").description("Reply").visibility(Visibility::Visible).build().unwrap();
    registry.register_provider(ran("pool", "plugin", std::iter::once(reply).chain(pool)));
    (registry, deferred)
}

async fn tool_search(registry: &ToolRegistry, session: &str, arguments: serde_json::Value) -> ToolExecutionResult {
    let ctx = ToolExecutionContext::for_session(session);
    registry.invoke(ToolInvocation::new("tool_search", arguments), Some(&ctx)).await
}

/// A `limit` of 0 counts as 1: the search for `web` keeps only its best match, `web_search`.
#[tokio::test]
async fn a_limit_of_zero_keeps_only_the_best_match() {
    let (registry, _) = example_pool(Locale::En);
    let result = tool_search(&registry, "l0", json!({"query": "web", "limit": 0})).await;
    assert!(result.success, "{}", result.error_message);
    let structured = result.structured_content().cloned().unwrap();
    assert_eq!(structured["matched_tool_names"], json!(["web_search"]));
    assert_eq!(structured["newly_discovered_tool_names"], json!(["web_search"]));
    assert_eq!(
        result.content,
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_search (newly discovered)"
    );
}

/// In zh-Hans, after session s1 searched `" web "` with limit `"2"` and then `web` with limit
/// `"x"` (the default 5), the round advertises the visible tools followed by the three found
/// ones in pool order, and the reminder lists the two still undiscovered, numbered from 1. A
/// session that found nothing is advertised no pool tool.
#[tokio::test]
async fn a_zh_hans_round_advertises_what_the_session_found_and_reminds_of_the_rest() {
    let (registry, deferred) = example_pool(Locale::ZhHans);
    let first = tool_search(&registry, "s1", json!({"query": " web ", "limit": "2"})).await;
    assert_eq!(first.structured_content().unwrap()["matched_tool_names"], json!(["web_search", "web_fetch"]));
    let second = tool_search(&registry, "s1", json!({"query": "web", "limit": "x"})).await;
    assert_eq!(
        second.structured_content().unwrap()["matched_tool_names"],
        json!(["web_search", "web_fetch", "image_gen"])
    );
    assert_eq!(second.structured_content().unwrap()["newly_discovered_tool_names"], json!(["image_gen"]));

    let round = deferred.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "web_search", "web_fetch", "image_gen"]);
    assert_eq!(
        round.reminder(),
        Some(
            "<system-reminder>\n以下工具当前未直接暴露给你，但可以通过 tool_search 工具发现并在后续轮次中使用：\n1. search_memes: Find memes\n2. view_forward_message: 查看合并转发消息的内容\n\n如需其中某个工具，请先调用 tool_search。tool_search 只负责发现工具，不直接执行。\n</system-reminder>"
        )
    );

    let other = deferred.prepare_round(&registry, &ToolExecutionContext::for_session("s2")).await;
    assert_eq!(names(other.advertised()), ["tool_search", "reply"]);
}

// ---- two plugins with one id ----------------------------------------------------------------------

/// One of two plugins that claim the same id.
#[derive(Default, Debug)]
pub struct TwinOne;

#[plugin(id = "coverage.twin")]
impl TwinOne {
    /// The first twin's tool.
    #[tool]
    async fn twin_one_tool(&self) -> &'static str {
        "one"
    }
}

/// The other plugin that claims the same id.
#[derive(Default, Debug)]
pub struct TwinTwo;

#[plugin(id = "coverage.twin")]
impl TwinTwo {
    /// The second twin's tool.
    #[tool]
    async fn twin_two_tool(&self) -> &'static str {
        "two"
    }
}

/// A plugin with an id of its own.
#[derive(Default, Debug)]
pub struct Bystander;

#[plugin(id = "coverage.bystander")]
impl Bystander {
    /// The bystander's tool.
    #[tool]
    async fn bystander_tool(&self) -> &'static str {
        "here"
    }
}

/// Two plugins with the same id both fail with `duplicate plugin id {id}`: neither one's tools
/// are listed or callable (a "not found" that may say why). Another plugin loads as usual.
#[tokio::test]
async fn two_plugins_with_one_id_both_fail_and_the_others_load() {
    let set = PluginSet::collect().only(["coverage.twin", "coverage.bystander"]);
    assert_eq!(set.get("coverage.twin").unwrap().problems(), ["duplicate plugin id coverage.twin"]);
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(set).registry(&registry).build();
    let report = host.load_all().await;
    let states: Vec<(&str, PluginState)> = report.outcomes().iter().map(|o| (o.plugin_id.as_str(), o.state)).collect();
    assert_eq!(states, [("coverage.bystander", PluginState::Loaded), ("coverage.twin", PluginState::Failed)]);
    let twin = report.outcomes().iter().find(|o| o.plugin_id == "coverage.twin").unwrap();
    assert_eq!(twin.reason.as_deref(), Some("duplicate plugin id coverage.twin"));

    assert_eq!(names(&registry.list_tools(None).await), ["bystander_tool"]);
    for tool in ["twin_one_tool", "twin_two_tool"] {
        let result = registry.invoke(ToolInvocation::new(tool, "{}"), None).await;
        assert!(!result.success, "{tool}");
        assert!(result.error_message.starts_with(&format!("Tool not found: {tool}")), "{}", result.error_message);
    }
    let result = registry.invoke(ToolInvocation::new("bystander_tool", "{}"), None).await;
    assert_eq!(result.content, "here");
    host.shutdown().await;
}
