//! A call routes with the tools as they are now: after a provider's tools change, for each kind
//! of caller, for each registry, on the thread that made the earlier calls too; and a registry
//! that is gone lets its providers go, whichever threads called through it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use toolhook::{
    BoxFuture, PermissionLevel, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec,
};
use toolhook_runtime::{ContextParts, RegistryLink, ToolProvider, ToolRegistry};

/// A provider whose tools the test changes; each call answers with the tool's name.
#[derive(Clone, Default)]
struct Changing {
    tools: Arc<Mutex<Vec<ToolSpec>>>,
    link: Arc<OnceLock<RegistryLink>>,
    parts: Option<ContextParts>,
    /// Kept for its `Drop`.
    _dropped: DropFlag,
}

/// Set when the provider that holds it is dropped.
#[derive(Clone, Default)]
struct DropFlag(Option<Arc<AtomicBool>>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        if let Some(dropped) = &self.0 {
            dropped.store(true, Ordering::SeqCst);
        }
    }
}

impl Changing {
    fn with(names: &[&str]) -> Self {
        let changing = Changing::default();
        changing.set(names.iter().map(|n| spec(n)).collect());
        changing
    }

    fn set(&self, tools: Vec<ToolSpec>) {
        *self.tools.lock().unwrap() = tools;
        if let Some(link) = self.link.get() {
            link.notify();
        }
    }
}

fn spec(name: &str) -> ToolSpec {
    ToolSpec::builder(name).brief_description("A tool").core_tool(true).build().unwrap()
}

impl ToolProvider for Changing {
    fn provider_name(&self) -> &str {
        "changing"
    }
    fn provider_type(&self) -> &str {
        "test"
    }
    fn listing_depends_on(&self) -> ContextParts {
        self.parts.unwrap_or(ContextParts::NONE)
    }
    fn attach(&self, link: RegistryLink) {
        let _ = self.link.set(link);
    }
    fn list_tools<'a>(
        &'a self,
        ctx: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let mut tools = self.tools.lock().unwrap().clone();
        // A provider that lists per session offers one tool of its own to each session.
        if self.parts.is_some_and(|p| p.contains(ContextParts::SESSION))
            && let Some(ctx) = ctx
        {
            tools.push(spec(&format!("mine_{}", ctx.session_id)));
        }
        Box::pin(std::future::ready(Ok(tools)))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        let name = call.tool_name.clone();
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, name))))
    }
}

async fn answers(registry: &ToolRegistry, tool: &str, ctx: Option<&ToolExecutionContext>) -> bool {
    let result = registry.invoke(ToolInvocation::new(tool, "{}"), ctx).await;
    assert!(result.success || result.error_message.starts_with("Tool not found"), "{result:?}");
    result.success
}

#[tokio::test]
async fn a_change_of_tools_reaches_the_next_call_on_the_same_thread() {
    let provider = Changing::with(&["first"]);
    let registry = ToolRegistry::default();
    registry.register_provider(provider.clone());
    for _ in 0..3 {
        assert!(answers(&registry, "first", None).await);
    }
    provider.set(vec![spec("second")]);
    assert!(!answers(&registry, "first", None).await);
    assert!(answers(&registry, "second", None).await);
    // A provider registered or removed counts as a change too.
    registry.register_provider(Changing::with(&["third"]));
    assert!(!answers(&registry, "second", None).await);
    assert!(answers(&registry, "third", None).await);
    assert!(registry.unregister_provider("changing"));
    assert!(!answers(&registry, "third", None).await);
}

#[tokio::test]
async fn callers_with_different_access_keep_to_their_own_tools() {
    let admin_only = ToolSpec::builder("ban")
        .brief_description("Ban a member")
        .core_tool(true)
        .permission(PermissionLevel::GroupAdmin)
        .build()
        .unwrap();
    let qq_only =
        ToolSpec::builder("poke").brief_description("Poke").core_tool(true).platforms(["qq"]).build().unwrap();
    let provider = Changing::default();
    provider.set(vec![admin_only, qq_only, spec("hello")]);
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let with = |permission, platform: &str| ToolExecutionContext {
        permission,
        platform: platform.to_owned(),
        ..ToolExecutionContext::for_session("s1")
    };
    // More kinds of caller than a thread remembers, in turn, several rounds.
    let callers = [
        (Some(with(PermissionLevel::GroupAdmin, "qq")), true, true),
        (Some(with(PermissionLevel::User, "qq")), false, true),
        (None, false, false),
        (Some(with(PermissionLevel::GroupAdmin, "telegram")), true, false),
        (Some(with(PermissionLevel::User, "QQ ")), false, true),
        (Some(with(PermissionLevel::Owner, "")), true, false),
    ];
    for _ in 0..3 {
        for (ctx, may_ban, may_poke) in &callers {
            assert_eq!(answers(&registry, "ban", ctx.as_ref()).await, *may_ban, "{ctx:?}");
            assert_eq!(answers(&registry, "poke", ctx.as_ref()).await, *may_poke, "{ctx:?}");
            assert!(answers(&registry, "hello", ctx.as_ref()).await, "{ctx:?}");
        }
    }
}

#[tokio::test]
async fn a_provider_listing_per_session_serves_each_session_its_own_tools() {
    let provider = Changing { parts: Some(ContextParts::SESSION), ..Changing::with(&["shared"]) };
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let sessions: Vec<ToolExecutionContext> =
        (0..6).map(|i| ToolExecutionContext::for_session(format!("s{i}"))).collect();
    for _ in 0..3 {
        for (i, ctx) in sessions.iter().enumerate() {
            assert!(answers(&registry, &format!("mine_s{i}"), Some(ctx)).await);
            assert!(!answers(&registry, &format!("mine_s{}", (i + 1) % sessions.len()), Some(ctx)).await);
            assert!(answers(&registry, "shared", Some(ctx)).await);
        }
    }
}

#[tokio::test]
async fn two_registries_on_one_thread_keep_to_their_own_tools() {
    let (one, two) = (ToolRegistry::default(), ToolRegistry::default());
    one.register_provider(Changing::with(&["only_in_one"]));
    two.register_provider(Changing::with(&["only_in_two"]));
    for _ in 0..3 {
        assert!(answers(&one, "only_in_one", None).await);
        assert!(!answers(&two, "only_in_one", None).await);
        assert!(answers(&two, "only_in_two", None).await);
        assert!(!answers(&one, "only_in_two", None).await);
    }
}

#[tokio::test]
async fn a_dropped_registry_lets_its_providers_go() {
    let dropped = Arc::new(AtomicBool::new(false));
    let registry = ToolRegistry::default();
    registry.register_provider(Changing { _dropped: DropFlag(Some(dropped.clone())), ..Changing::with(&["tool"]) });
    for _ in 0..3 {
        assert!(answers(&registry, "tool", None).await);
    }
    assert!(!dropped.load(Ordering::SeqCst));
    drop(registry);
    assert!(dropped.load(Ordering::SeqCst), "the provider outlived its registry");
}
