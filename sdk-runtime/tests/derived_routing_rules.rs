//! Routing rules of the registry checked with inputs the other test files do not use, each
//! expected value worked out from the written rule it quotes: registration while calls are in
//! flight and which instance `close()` reaches; names a failing listing or a forged metadata key
//! cannot claim; the Skip warning's content; the Rename pattern with sanitised provider types and
//! names, one `_` per character, hashes over the unsanitised source, sources that are not strings,
//! and the error logged for a copy that cannot be named; calls of a provider of type `mcp` pinned
//! to the server each copy was listed from (and no pin for any other type); the 60 s default
//! timeout, a dropped caller, sync tools past their timeout; failure results (timeouts, errors,
//! panics before and while polling) and their texts in both locales; the contexts and call fields
//! a provider receives; `close()` order and its default; a plugin tool's error text.

use serde_json::{Value, json};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use toolhook::{
    BoxFuture, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec, plugin, tool,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, DuplicatePolicy, PluginHost, PluginSet, PluginState, PluginToolProvider,
    RegistryConfig, ToolProvider, ToolRegistry,
};

#[path = "common/logs.rs"]
mod logs;
use logs::logged;

// ---- fixtures -------------------------------------------------------------------------------------

/// How a [`Stub`] answers a call (called synchronously from `invoke`, so it may panic there).
type Answer = Arc<
    dyn Fn(ToolInvocation, Option<ToolExecutionContext>) -> BoxFuture<'static, Result<ToolExecutionResult, ToolError>>
        + Send
        + Sync,
>;

/// How a [`Stub`] closes.
type Closer = Arc<dyn Fn() -> BoxFuture<'static, Result<(), ToolError>> + Send + Sync>;

/// Every call a [`Stub`] received, with the context it came with.
type Seen = Arc<Mutex<Vec<(ToolInvocation, Option<ToolExecutionContext>)>>>;

/// A provider listing fixed specs (or failing to list), answering and closing as it is told.
struct Stub {
    name: String,
    kind: String,
    specs: Vec<ToolSpec>,
    listing_fails: bool,
    answer: Answer,
    closer: Closer,
    seen: Seen,
}

impl Stub {
    /// A provider whose calls succeed with `{provider} ran {tool}` and whose close succeeds.
    fn new(name: &str, kind: &str, specs: impl IntoIterator<Item = ToolSpec>) -> Self {
        let provider = name.to_owned();
        Stub {
            name: name.to_owned(),
            kind: kind.to_owned(),
            specs: specs.into_iter().collect(),
            listing_fails: false,
            answer: Arc::new(move |call, _| {
                let content = format!("{provider} ran {}", call.tool_name);
                Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, content))))
            }),
            closer: Arc::new(|| Box::pin(std::future::ready(Ok(())))),
            seen: Seen::default(),
        }
    }

    fn answering<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(ToolInvocation, Option<ToolExecutionContext>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, ToolError>> + Send + 'static,
    {
        self.answer = Arc::new(move |call, ctx| Box::pin(answer(call, ctx)));
        self
    }

    fn closing<F, Fut>(mut self, close: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ToolError>> + Send + 'static,
    {
        self.closer = Arc::new(move || Box::pin(close()));
        self
    }

    fn failing_listing(mut self) -> Self {
        self.listing_fails = true;
        self
    }

    fn seen(&self) -> Seen {
        self.seen.clone()
    }
}

impl ToolProvider for Stub {
    fn provider_name(&self) -> &str {
        &self.name
    }
    fn provider_type(&self) -> &str {
        &self.kind
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let listing =
            if self.listing_fails { Err(ToolError::transport("listing refused")) } else { Ok(self.specs.clone()) };
        Box::pin(std::future::ready(listing))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        self.seen.lock().unwrap().push((call.clone(), ctx.cloned()));
        (self.answer)(call, ctx.cloned())
    }
    fn close<'a>(&'a self) -> BoxFuture<'a, Result<(), ToolError>> {
        (self.closer)()
    }
}

/// A spec with a name and nothing else.
fn spec(name: &str) -> ToolSpec {
    ToolSpec::builder(name).build().unwrap()
}

/// A spec with metadata entries.
fn spec_with(name: &str, metadata: &[(&str, Value)]) -> ToolSpec {
    let mut builder = ToolSpec::builder(name);
    for (key, value) in metadata {
        builder = builder.metadata(*key, value.clone());
    }
    builder.build().unwrap()
}

fn registry(config: RegistryConfig, providers: impl IntoIterator<Item = Stub>) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    for provider in providers {
        registry.register_provider(provider);
    }
    registry
}

fn rename() -> RegistryConfig {
    RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename)
}

async fn names(registry: &ToolRegistry) -> Vec<String> {
    registry.list_tools(None).await.iter().map(|s| s.name().to_owned()).collect()
}

/// Calls `tool` with no arguments and no context.
async fn call(registry: &ToolRegistry, tool: &str) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new(tool, "{}"), None).await
}

/// The (tool name, metadata) of every call `seen` holds.
fn calls(seen: &Seen) -> Vec<(String, serde_json::Map<String, Value>)> {
    seen.lock().unwrap().iter().map(|(c, _)| (c.tool_name.clone(), c.metadata().clone())).collect()
}

fn metadata(entries: Value) -> serde_json::Map<String, Value> {
    entries.as_object().unwrap().clone()
}

/// Sets a flag when dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

// ---- registration and order -----------------------------------------------------------------------

/// "Registration may run concurrently with calls; an in-flight call keeps the provider it
/// resolved": replacing or removing the provider while its call waits changes nothing for that
/// call; the next call sees the new provider set.
#[tokio::test]
async fn an_in_flight_call_keeps_the_provider_it_resolved() {
    let (gate, entered) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let blocked = |version: &'static str| {
        let (gate, entered) = (gate.clone(), entered.clone());
        Stub::new("p", "custom", [spec("t")]).answering(move |call, _| {
            let (gate, entered) = (gate.clone(), entered.clone());
            async move {
                entered.notify_one();
                gate.notified().await;
                Ok(ToolExecutionResult::success(call.tool_name, version))
            }
        })
    };
    let registry = ToolRegistry::default();
    registry.register_provider(blocked("v1"));
    let spawn_call = || {
        let registry = registry.clone();
        tokio::spawn(async move { registry.invoke(ToolInvocation::new("t", "{}"), None).await })
    };

    let first = spawn_call();
    entered.notified().await;
    registry.register_provider(blocked("v2"));
    assert_eq!(registry.provider_names(), ["p"]);
    gate.notify_one();
    let first = first.await.unwrap();
    assert_eq!((first.success, first.content.as_str()), (true, "v1"));

    let second = spawn_call();
    entered.notified().await;
    assert!(registry.unregister_provider("p"));
    gate.notify_one();
    let second = second.await.unwrap();
    assert_eq!((second.success, second.content.as_str()), (true, "v2"));

    assert_eq!(call(&registry, "t").await.error_message, "Tool not found: t");
}

/// "register_provider(p) removes any provider with the same provider_name, then appends p"; close
/// "awaits close() of every provider": the replaced instance is no longer the registry's, so only
/// the one registered now is closed (also when it came through `register_shared`).
#[tokio::test]
async fn close_reaches_only_the_instance_registered_now() {
    let closed = Arc::new(Mutex::new(Vec::new()));
    let instance = |name: &str, label: &'static str| {
        let closed = closed.clone();
        Stub::new(name, "custom", [spec("t")]).closing(move || {
            closed.lock().unwrap().push(label);
            std::future::ready(Ok(()))
        })
    };
    let registry = ToolRegistry::default();
    registry.register_provider(instance("p", "p v1"));
    registry.register_provider(instance("q", "q"));
    registry.register_shared(Arc::new(instance("p", "p v2")));
    assert_eq!(registry.provider_names(), ["q", "p"]);
    assert!(registry.close().await.is_ok());
    assert_eq!(*closed.lock().unwrap(), ["q", "p v2"]);
}

// ---- computing the routes -------------------------------------------------------------------------

/// "Err or panic ⇒ warn and skip that provider only"; names are assigned over the entries that are
/// left: a provider whose listing fails claims no name, under either policy (with Rename, its
/// original names are not reserved either).
#[tokio::test]
async fn a_provider_whose_listing_fails_claims_no_name() {
    for config in [RegistryConfig::default(), rename()] {
        let registry = registry(
            config.clone(),
            [
                Stub::new("down", "builtin", [spec("t"), spec("mcp_s_q")]).failing_listing(),
                Stub::new("b", "plugin", [spec("t")]),
                Stub::new("c", "builtin", [spec("q")]),
                Stub::new("mcp", "mcp", [spec_with("q", &[("server_name", json!("s"))])]),
            ],
        );
        let policy = config.duplicate_policy;
        let expected: &[&str] = match policy {
            DuplicatePolicy::Skip => &["t", "q"],
            _ => &["t", "q", "mcp_s_q"],
        };
        assert_eq!(names(&registry).await, expected, "{policy:?}");
        assert_eq!(call(&registry, "t").await.content, "b ran t", "{policy:?}");
        let copy = registry.get_tool_spec("t", None).await.unwrap();
        assert_eq!(copy.provider_name(), "b", "{policy:?}");
    }
}

/// Each listed copy has "metadata.registry_original_name = original name" (a reserved key): a
/// provider that sets the key itself does not decide it; its other metadata stays.
#[tokio::test]
async fn a_provider_cannot_forge_the_original_name() {
    let forged = |name: &str, extra: &[(&str, Value)]| {
        let mut entries = vec![("registry_original_name", json!("forged"))];
        entries.extend(extra.iter().cloned());
        spec_with(name, &entries)
    };
    let registry = registry(
        rename(),
        [
            Stub::new("a", "builtin", [forged("t", &[])]),
            Stub::new("p", "plugin", [forged("t", &[("plugin_id", json!("acme"))])]),
        ],
    );
    assert_eq!(names(&registry).await, ["t", "plugin_acme_t"]);
    let plain = registry.get_tool_spec("t", None).await.unwrap();
    assert_eq!(plain.metadata()["registry_original_name"], "t");
    let renamed = registry.get_tool_spec("plugin_acme_t", None).await.unwrap();
    assert_eq!(renamed.metadata()["registry_original_name"], "t");
    assert_eq!(renamed.metadata()["plugin_id"], "acme");
}

// ---- duplicate names ------------------------------------------------------------------------------

/// Skip: "The first entry with a given original name keeps it"; "Every later entry with an already
/// used name is dropped: not listed, not invocable. A warning naming the tool, the skipped provider
/// and the winning provider is logged once per registry for each (provider, name) pair".
#[tokio::test]
async fn skip_keeps_the_first_of_four_copies_and_each_warning_names_all_three() {
    let registry = registry(
        RegistryConfig::default(),
        [
            Stub::new("first_p", "builtin", [spec("dup")]),
            Stub::new("second_p", "plugin", [spec("dup")]),
            Stub::new("third_p", "mcp", [spec_with("dup", &[("server_name", json!("srv"))])]),
            Stub::new("fourth_p", "custom", [spec("dup")]),
        ],
    );
    let ((), log) = logged(async {
        for _ in 0..2 {
            assert_eq!(names(&registry).await, ["dup"]);
        }
        let result = call(&registry, "dup").await;
        assert_eq!((result.tool_name.as_str(), result.content.as_str()), ("dup", "first_p ran dup"));
        assert!(registry.has_tool("dup", None).await);
    })
    .await;
    let warnings: Vec<&str> = log.lines().filter(|l| l.contains(" WARN ")).collect();
    assert_eq!(warnings.len(), 3, "{log}");
    for skipped in ["second_p", "third_p", "fourth_p"] {
        assert!(
            warnings.iter().any(|l| l.contains("dup") && l.contains(skipped) && l.contains("first_p")),
            "no warning names dup, {skipped} and first_p: {log}"
        );
    }
}

/// Skip: the warning "is logged once per registry for each (provider, name) pair, not on every
/// listing": re-registering the provider that already lost a name warns no more; re-registering
/// the winner moves it to the end, so it now loses the name, a new pair, warned once.
#[tokio::test]
async fn the_skip_warning_is_once_per_pair_across_re_registration() {
    let a = || Stub::new("alpha_p", "builtin", [spec("dup")]);
    let b = || Stub::new("beta_p", "plugin", [spec("dup")]);
    let registry = registry(RegistryConfig::default(), [a(), b()]);
    let (owners, log) = logged(async {
        let mut owners = Vec::new();
        for step in 0..3 {
            match step {
                1 => registry.register_provider(b()),
                2 => registry.register_provider(a()),
                _ => {}
            }
            for _ in 0..2 {
                assert_eq!(names(&registry).await, ["dup"]);
            }
            owners.push(call(&registry, "dup").await.content);
        }
        owners
    })
    .await;
    assert_eq!(owners, ["alpha_p ran dup", "alpha_p ran dup", "beta_p ran dup"]);
    let warnings: Vec<&str> = log.lines().filter(|l| l.contains(" WARN ")).collect();
    assert_eq!(warnings.len(), 2, "{log}");
    assert!(warnings[0].contains("beta_p") && warnings[0].contains("alpha_p"), "{log}");
    assert!(warnings[1].contains("alpha_p") && warnings[1].contains("beta_p"), "{log}");
}

/// "Tool names are compared exactly (case-sensitive, untrimmed)": names differing in case are not
/// duplicates, under either policy.
#[tokio::test]
async fn names_differing_in_case_are_not_duplicates() {
    for config in [RegistryConfig::default(), rename()] {
        let registry = registry(
            config.clone(),
            [Stub::new("a", "builtin", [spec("search")]), Stub::new("b", "plugin", [spec("Search")])],
        );
        let policy = config.duplicate_policy;
        assert_eq!(names(&registry).await, ["search", "Search"], "{policy:?}");
        assert_eq!(call(&registry, "Search").await.content, "b ran Search", "{policy:?}");
        assert_eq!(call(&registry, "search").await.content, "a ran search", "{policy:?}");
    }
}

/// Rename: "source = the first non-empty string among metadata.server_name, metadata.plugin_id, and
/// the provider's provider_name"; "prefix = source if source == provider_type, else
/// {provider_type}_{source}"; "candidate = {prefix}_{name} with every character outside
/// [A-Za-z0-9_-] replaced by one _" — the provider type and name are sanitised too. The provider
/// is called with the original name; the result carries the registry name.
#[tokio::test]
async fn rename_sanitises_a_prefix_made_of_provider_type_and_name() {
    let odd = Stub::new("Acme Tools", "my.kind", [spec("t")]);
    let seen = odd.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("t")]), odd]);
    assert_eq!(names(&registry).await, ["t", "my_kind_Acme_Tools_t"]);
    let copy = registry.get_tool_spec("my_kind_Acme_Tools_t", None).await.unwrap();
    assert_eq!((copy.provider_name(), copy.provider_type()), ("Acme Tools", "my.kind"));
    let result = call(&registry, "my_kind_Acme_Tools_t").await;
    assert_eq!((result.tool_name.as_str(), result.content.as_str()), ("my_kind_Acme_Tools_t", "Acme Tools ran t"));
    assert_eq!(calls(&seen), [("t".to_owned(), serde_json::Map::new())]);
}

/// Rename: "prefix = source if source == provider_type, else {provider_type}_{source}", the
/// comparison exact: a server `MCP` of a provider of type `mcp` is not the type, so the prefix is
/// `mcp_MCP`; a server `mcp` is, so the prefix is `mcp`.
#[tokio::test]
async fn rename_compares_the_source_with_the_provider_type_exactly() {
    let registry = registry(
        rename(),
        [
            Stub::new("a", "builtin", [spec("t")]),
            Stub::new("loud", "mcp", [spec_with("t", &[("server_name", json!("MCP"))])]),
            Stub::new("quiet", "mcp", [spec_with("t", &[("server_name", json!("mcp"))])]),
        ],
    );
    assert_eq!(names(&registry).await, ["t", "mcp_MCP_t", "mcp_t"]);
}

/// Rename: with an empty provider type, the source (the provider's name) differs from it, so the
/// prefix is `{provider_type}_{source}` = `_p` and the candidate `_p_t`.
#[tokio::test]
async fn rename_with_an_empty_provider_type_keeps_the_separator() {
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("t")]), Stub::new("p", "", [spec("t")])]);
    assert_eq!(names(&registry).await, ["t", "_p_t"]);
    assert_eq!(call(&registry, "_p_t").await.content, "p ran t");
}

/// Rename: "one _ per character": a character outside the Basic Multilingual Plane (four UTF-8
/// bytes, two UTF-16 units) and a two-byte letter are one `_` each.
#[tokio::test]
async fn rename_puts_one_underscore_per_character() {
    let registry = registry(
        rename(),
        [
            Stub::new("a", "builtin", [spec("t")]),
            Stub::new("rocket", "mcp", [spec_with("t", &[("server_name", json!("🚀x"))])]),
            Stub::new("cafe", "mcp", [spec_with("t", &[("server_name", json!("café"))])]),
        ],
    );
    assert_eq!(names(&registry).await, ["t", "mcp__x_t", "mcp_caf__t"]);
}

/// Rename: a candidate "longer than 64 characters" becomes "first 51 characters + _ + the first 12
/// lowercase hex digits of SHA-256({provider_name}:{source}:{name}) (UTF-8 input; original,
/// unsanitised source and name)". The 65-character candidate
/// `mcp____server_v2_lookup_every_archived_record_between_two_dates_x` is hashed over
/// `m2:我的 server.v2:lookup_every_archived_record_between_two_dates_x`.
#[tokio::test]
async fn rename_hashes_the_unsanitised_source_and_name() {
    const NAME: &str = "lookup_every_archived_record_between_two_dates_x";
    const HASHED: &str = "mcp____server_v2_lookup_every_archived_record_betwe_eb9bb5e0ec55";
    let m2 = Stub::new("m2", "mcp", [spec_with(NAME, &[("server_name", json!("我的 server.v2"))])]);
    let seen = m2.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec(NAME)]), m2]);
    assert_eq!(names(&registry).await, [NAME, HASHED]);
    let result = call(&registry, HASHED).await;
    assert_eq!((result.tool_name.as_str(), result.content.as_str()), (HASHED, format!("m2 ran {NAME}").as_str()));
    assert_eq!(calls(&seen), [(NAME.to_owned(), metadata(json!({"mcp_server_name": "我的 server.v2"})))]);
}

/// Rename: the source is "the first non-empty string among metadata.server_name,
/// metadata.plugin_id, and the provider's provider_name", whatever the provider's type: a
/// plugin-type tool naming a server is renamed after the server.
#[tokio::test]
async fn rename_prefers_the_server_name_whatever_the_provider_type() {
    let tagged = spec_with("t", &[("plugin_id", json!("p.id")), ("server_name", json!("srv"))]);
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("t")]), Stub::new("p", "plugin", [tagged])]);
    assert_eq!(names(&registry).await, ["t", "plugin_srv_t"]);
}

/// Rename: the source is the first non-empty *string*: a `server_name` that is a number, or
/// `null`, is passed over for the next candidate.
#[tokio::test]
async fn rename_passes_over_metadata_that_is_not_a_string() {
    let registry = registry(
        rename(),
        [
            Stub::new("a", "builtin", [spec("t")]),
            Stub::new("m", "mcp", [spec_with("t", &[("server_name", json!(42)), ("plugin_id", json!("pid"))])]),
            Stub::new("m2", "mcp", [spec_with("t", &[("server_name", Value::Null), ("plugin_id", Value::Null)])]),
        ],
    );
    assert_eq!(names(&registry).await, ["t", "mcp_pid_t", "mcp_m2_t"]);
}

/// Rename: the source is the first non-*empty* string; a server name of three spaces is not empty,
/// so it is the source, and each space becomes one `_` (`mcp_` + `___` + `_t`).
#[tokio::test]
async fn rename_takes_a_blank_but_non_empty_server_name_as_the_source() {
    let registry = registry(
        rename(),
        [
            Stub::new("a", "builtin", [spec("t")]),
            Stub::new("m", "mcp", [spec_with("t", &[("server_name", json!("   ")), ("plugin_id", json!("pid"))])]),
        ],
    );
    assert_eq!(names(&registry).await, ["t", "mcp_____t"]);
}

/// Rename with four copies of `z`: the second gets `custom_m9_z` (source = the provider's name,
/// prefix `{provider_type}_{source}`), the third's candidate "is already a registry name" and is
/// hashed (SHA-256 of `m9:m9:z`), the fourth's hashed candidate is still a registry name: "it is
/// dropped and an error is logged (cannot assign a unique name to duplicate tool
/// {provider_name}/{source}/{name})"; the others still list and invoke.
#[tokio::test]
async fn rename_logs_the_copy_it_cannot_name() {
    const HASHED: &str = "custom_m9_z_1768bd482abf";
    let m9 = Stub::new("m9", "custom", [spec("z"), spec("z"), spec("z")]);
    let seen = m9.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("z")]), m9]);
    let (listed, log) = logged(names(&registry)).await;
    assert_eq!(listed, ["z", "custom_m9_z", HASHED]);
    assert!(
        log.lines().any(|l| l.contains("ERROR") && l.contains("cannot assign a unique name to duplicate tool m9/m9/z")),
        "{log}"
    );
    for name in ["custom_m9_z", HASHED] {
        let result = call(&registry, name).await;
        assert_eq!((result.tool_name.as_str(), result.content.as_str()), (name, "m9 ran z"));
    }
    assert_eq!(call(&registry, "z").await.content, "a ran z");
    assert_eq!(calls(&seen).len(), 2);
}

// ---- calls of tools from MCP servers ---------------------------------------------------------------

/// "if provider_type == "mcp" and the spec has metadata.server_name, set metadata.mcp_server_name
/// to it, overwriting any caller value"; with Rename, copies of one name from two servers of one
/// MCP provider are `mcp_{server}_{name}`, and each call is routed to the server its copy came
/// from, under the original name.
#[tokio::test]
async fn renamed_copies_of_one_mcp_provider_are_pinned_to_their_own_servers() {
    let mcp = Stub::new(
        "mcp",
        "mcp",
        [
            spec_with("search", &[("server_name", json!("brave"))]),
            spec_with("search", &[("server_name", json!("kagi"))]),
        ],
    );
    let seen = mcp.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("search")]), mcp]);
    assert_eq!(names(&registry).await, ["search", "mcp_brave_search", "mcp_kagi_search"]);
    let kagi = registry.get_tool_spec("mcp_kagi_search", None).await.unwrap();
    assert_eq!(kagi.metadata()["server_name"], "kagi");
    assert_eq!(kagi.metadata()["registry_original_name"], "search");

    for (name, caller) in [("mcp_kagi_search", "brave"), ("mcp_brave_search", "kagi")] {
        let invocation = ToolInvocation::new(name, "{}").with_metadata("mcp_server_name", caller);
        let result = registry.invoke(invocation, None).await;
        assert_eq!((result.tool_name.as_str(), result.content.as_str()), (name, "mcp ran search"));
    }
    assert_eq!(
        calls(&seen),
        [
            ("search".to_owned(), metadata(json!({"mcp_server_name": "kagi"}))),
            ("search".to_owned(), metadata(json!({"mcp_server_name": "brave"}))),
        ]
    );
    assert_eq!(call(&registry, "search").await.content, "a ran search");
}

/// Skip: the second server's copy of a name is "not listed, not invocable"; a caller naming that
/// server still reaches the copy that kept the name, pinned to its server.
#[tokio::test]
async fn under_skip_a_caller_cannot_reach_the_second_servers_copy() {
    let mcp = Stub::new(
        "mcp",
        "mcp",
        [
            spec_with("search", &[("server_name", json!("brave"))]),
            spec_with("search", &[("server_name", json!("kagi"))]),
        ],
    );
    let seen = mcp.seen();
    let registry = registry(RegistryConfig::default(), [mcp]);
    assert_eq!(names(&registry).await, ["search"]);
    let invocation = ToolInvocation::new("search", "{}").with_metadata("mcp_server_name", "kagi");
    assert!(registry.invoke(invocation, None).await.success);
    assert_eq!(calls(&seen), [("search".to_owned(), metadata(json!({"mcp_server_name": "brave"})))]);
}

/// The pin applies "if provider_type == "mcp"" (compared exactly): a provider of type `MCP` gets
/// the caller's metadata as it is; its renamed copy's prefix keeps the type as written.
#[tokio::test]
async fn a_provider_type_other_than_exactly_mcp_gets_no_server_pin() {
    let upper = Stub::new("upper", "MCP", [spec_with("search", &[("server_name", json!("brave"))])]);
    let seen = upper.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("search")]), upper]);
    assert_eq!(names(&registry).await, ["search", "MCP_brave_search"]);
    let forged = ToolInvocation::new("MCP_brave_search", "{}").with_metadata("mcp_server_name", "forged");
    assert!(registry.invoke(forged, None).await.success);
    assert!(call(&registry, "MCP_brave_search").await.success);
    assert_eq!(
        calls(&seen),
        [
            ("search".to_owned(), metadata(json!({"mcp_server_name": "forged"}))),
            ("search".to_owned(), serde_json::Map::new()),
        ]
    );
}

// ---- timeouts, panics, cancellation ---------------------------------------------------------------

/// "Effective timeout of a call: the spec's timeout() when set, else the registry's
/// default_timeout" with the default "Some(60 s)": a tool without its own limit is cut off at 60 s
/// (`no result within 60000 ms`), one whose own limit is 90 s may take 70 s. A call that waits
/// may be timed out up to 1/64 of its limit late (the crate's timing choice), never early.
#[tokio::test(start_paused = true)]
async fn the_sixty_second_default_bounds_a_tool_without_its_own_limit() {
    let sleepy = |name: &str, own: Option<Duration>, sleep: Duration| {
        let mut builder = ToolSpec::builder(name);
        if let Some(own) = own {
            builder = builder.timeout(own);
        }
        Stub::new(name, "custom", [builder.build().unwrap()]).answering(move |call, _| async move {
            tokio::time::sleep(sleep).await;
            Ok(ToolExecutionResult::success(call.tool_name, "woke"))
        })
    };
    let registry = registry(
        RegistryConfig::default(),
        [
            sleepy("plain", None, Duration::from_secs(61)),
            sleepy("patient", Some(Duration::from_secs(90)), Duration::from_secs(70)),
        ],
    );
    let started = tokio::time::Instant::now();
    let plain = call(&registry, "plain").await;
    let took = started.elapsed();
    assert_eq!(plain.error_message, "Tool plain failed: Timeout: no result within 60000 ms");
    let limit = Duration::from_secs(60);
    assert!(took >= limit && took <= limit + limit / 64, "{took:?}");

    let started = tokio::time::Instant::now();
    let patient = call(&registry, "patient").await;
    assert_eq!((patient.success, patient.content.as_str()), (true, "woke"));
    assert_eq!(started.elapsed(), Duration::from_secs(70));
}

/// "Dropping the future returned by invoke drops the provider's future: no result, nothing
/// logged."
#[tokio::test(start_paused = true)]
async fn dropping_the_call_drops_the_providers_future_and_logs_nothing() {
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = dropped.clone();
    let hanging = Stub::new("p", "custom", [spec("hang")]).answering(move |call, _| {
        let guard = DropFlag(flag.clone());
        async move {
            let _guard = guard;
            std::future::pending::<()>().await;
            Ok(ToolExecutionResult::success(call.tool_name, "never"))
        }
    });
    let seen = hanging.seen();
    let registry = registry(RegistryConfig::default(), [hanging]);
    let call = registry.invoke(ToolInvocation::new("hang", "{}"), None);
    let (outcome, log) = logged(tokio::time::timeout(Duration::from_millis(10), call)).await;
    assert!(outcome.is_err(), "the call was still waiting");
    assert_eq!(seen.lock().unwrap().len(), 1, "the provider was called");
    assert!(dropped.load(Ordering::SeqCst), "the provider's future was dropped");
    assert_eq!(log, "", "nothing logged");
}

static SLEEPY_FINISHED: AtomicBool = AtomicBool::new(false);

/// Sleeps a second on its thread.
#[tool(timeout_ms = 50)]
fn drr_sleepy() -> String {
    std::thread::sleep(Duration::from_millis(1000));
    SLEEPY_FINISHED.store(true, Ordering::SeqCst);
    "woke".to_owned()
}

/// "A sync #[tool] runs on the blocking pool and cannot be stopped: it runs to completion there and
/// its result is discarded"; the call yields the Timeout failure when its limit passes, without
/// waiting for the tool.
#[tokio::test]
async fn a_sync_tool_past_its_limit_times_out_and_still_runs_to_its_end() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let started = std::time::Instant::now();
    let result = call(&registry, "drr_sleepy").await;
    let took = started.elapsed();
    assert_eq!(result.error_message, "Tool drr_sleepy failed: Timeout: no result within 50 ms");
    assert!(took < Duration::from_millis(800), "the call waited for the tool: {took:?}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !SLEEPY_FINISHED.load(Ordering::SeqCst) {
        assert!(std::time::Instant::now() < deadline, "the sync tool never finished");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// "A failure result = the given tool_name and error_message, success = false, all else default"
/// — for a timeout, a provider error and a panic alike.
#[tokio::test(start_paused = true)]
async fn timeouts_errors_and_panics_are_plain_failure_results() {
    let slow = ToolSpec::builder("slow").timeout(Duration::from_millis(50)).build().unwrap();
    let provider = Stub::new("p", "custom", [spec("err"), spec("boom"), slow]).answering(|call, _| async move {
        match call.tool_name.as_str() {
            "err" => Err(ToolError::transport("down")),
            "boom" => panic!("boom"),
            _ => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                Ok(ToolExecutionResult::success(call.tool_name, "late"))
            }
        }
    });
    let registry = registry(RegistryConfig::default(), [provider]);
    for (tool, text) in [
        ("err", "Tool err failed: Transport: down"),
        ("boom", "Tool boom failed: Panic: boom"),
        ("slow", "Tool slow failed: Timeout: no result within 50 ms"),
    ] {
        let result = call(&registry, tool).await;
        assert_eq!((result.tool_name.as_str(), result.success), (tool, false));
        assert_eq!(result.error_message, text);
        assert_eq!(result.content, "", "{tool}");
        assert_eq!(result.structured_content(), None, "{tool}");
        assert!(result.content_items().is_empty(), "{tool}");
        assert!(result.post_history_messages().is_empty(), "{tool}");
        assert!(result.metadata.is_empty(), "{tool}: {:?}", result.metadata);
        assert!(!result.stop_after_execution, "{tool}");
    }
}

/// "Panic ⇒ failure with type Panic and the panic payload if it is a string"; the texts use "the
/// trimmed message", and a message that is empty after trimming gives `Tool {name} failed: {type}`.
#[tokio::test]
async fn a_panic_message_is_trimmed_and_a_blank_one_leaves_the_type_alone() {
    let expected = [
        (Locale::En, ["Tool spaced failed: Panic: boom", "Tool empty failed: Panic", "Tool blank failed: Panic"]),
        (
            Locale::ZhHans,
            ["工具 spaced 调用失败：Panic: boom", "工具 empty 调用失败：Panic", "工具 blank 调用失败：Panic"],
        ),
    ];
    for (locale, texts) in expected {
        let provider =
            Stub::new("p", "custom", [spec("spaced"), spec("empty"), spec("blank")]).answering(|call, _| async move {
                match call.tool_name.as_str() {
                    "spaced" => std::panic::panic_any("  boom \n"),
                    "empty" => std::panic::panic_any(""),
                    "blank" => panic!("{}", " \t "),
                    _ => Ok(ToolExecutionResult::success(call.tool_name, "fine")),
                }
            });
        let registry = registry(RegistryConfig::default().locale(locale), [provider]);
        for (tool, text) in ["spaced", "empty", "blank"].into_iter().zip(texts) {
            let result = call(&registry, tool).await;
            assert_eq!((result.success, result.error_message.as_str()), (false, text), "{locale:?}");
        }
    }
}

/// "A panic while polling the provider's future is caught; the registry keeps serving" — also a
/// panic on a later poll, after the future has waited.
#[tokio::test(start_paused = true)]
async fn a_panic_after_the_provider_has_waited_is_a_panic_failure() {
    let provider = Stub::new("p", "custom", [spec("late"), spec("fine")]).answering(|call, _| async move {
        if call.tool_name == "late" {
            tokio::time::sleep(Duration::from_millis(20)).await;
            panic!("late {}", "failure");
        }
        Ok(ToolExecutionResult::success(call.tool_name, "ok"))
    });
    let registry = registry(RegistryConfig::default(), [provider]);
    let started = tokio::time::Instant::now();
    let result = call(&registry, "late").await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool late failed: Panic: late failure"));
    assert_eq!(started.elapsed(), Duration::from_millis(20));
    assert_eq!(call(&registry, "fine").await.content, "ok");
}

/// `invoke` "never returns an error and never panics"; "Panic ⇒ failure with type Panic and the
/// panic payload": a provider whose `invoke` panics before it hands back its future is a Panic
/// failure too, and the registry keeps serving.
#[tokio::test]
async fn a_panic_before_the_provider_returns_its_future_is_a_panic_failure() {
    let provider = Stub::new("p", "custom", [spec("early"), spec("fine")]).answering(|call, _| {
        if call.tool_name == "early" {
            panic!("early exit");
        }
        async move { Ok(ToolExecutionResult::success(call.tool_name, "ok")) }
    });
    let registry = registry(RegistryConfig::default(), [provider]);
    for _ in 0..2 {
        let result = call(&registry, "early").await;
        assert_eq!((result.success, result.error_message.as_str()), (false, "Tool early failed: Panic: early exit"));
        assert_eq!(call(&registry, "fine").await.content, "ok");
    }
}

// ---- provider errors ------------------------------------------------------------------------------

/// `Err(e)` gives "Tool {name} failed: {type}: {message}" / "工具 {name} 调用失败：{type}: {message}"
/// in the registry's one locale: a provider error with a text per locale shows the registry's,
/// and one whose text in that locale is blank gives the short form.
#[tokio::test]
async fn a_localized_provider_error_reads_in_the_registrys_locale() {
    let provider = || {
        Stub::new("p", "custom", [spec("bad"), spec("quota")]).answering(|call, _| async move {
            Err(match call.tool_name.as_str() {
                "bad" => ToolError::invalid_arguments_localized("q: expected string", "q：应为 string"),
                _ => ToolError::localized("Quota", "over quota", "  "),
            })
        })
    };
    let expected = [
        (Locale::En, "Tool bad failed: InvalidArguments: q: expected string", "Tool quota failed: Quota: over quota"),
        (Locale::ZhHans, "工具 bad 调用失败：InvalidArguments: q：应为 string", "工具 quota 调用失败：Quota"),
    ];
    for (locale, bad, quota) in expected {
        let registry = registry(RegistryConfig::default().locale(locale), [provider()]);
        assert_eq!(call(&registry, "bad").await.error_message, bad, "{locale:?}");
        assert_eq!(call(&registry, "quota").await.error_message, quota, "{locale:?}");
    }
}

/// "plugin not ready (type PluginNotLoaded)": `Tool {name} failed: PluginNotLoaded: plugin {id} is
/// not loaded` / `工具 {name} 调用失败：PluginNotLoaded: 插件 {id} 未加载`, whichever provider
/// returns the error.
#[tokio::test]
async fn a_plugin_not_loaded_error_from_any_provider_reads_as_the_table_says() {
    for (locale, text) in [
        (Locale::En, "Tool lookup failed: PluginNotLoaded: plugin acme.x is not loaded"),
        (Locale::ZhHans, "工具 lookup 调用失败：PluginNotLoaded: 插件 acme.x 未加载"),
    ] {
        let provider = Stub::new("gateway", "custom", [spec("lookup")])
            .answering(|_, _| async { Err(ToolError::plugin_not_loaded("acme.x")) });
        let registry = registry(RegistryConfig::default().locale(locale), [provider]);
        let result = call(&registry, "lookup").await;
        assert_eq!((result.success, result.error_message.as_str()), (false, text));
    }
}

/// "{message} the trimmed message": trimming removes leading and trailing whitespace only; line
/// breaks inside the message stay.
#[tokio::test]
async fn an_error_message_is_trimmed_at_its_ends_only() {
    let provider = Stub::new("p", "custom", [spec("t")])
        .answering(|_, _| async { Err(ToolError::transport("\n first line\nsecond line \t")) });
    let registry = registry(RegistryConfig::default(), [provider]);
    assert_eq!(call(&registry, "t").await.error_message, "Tool t failed: Transport: first line\nsecond line");
}

/// "Trim means removing leading and trailing Unicode whitespace": an ideographic space (U+3000) and
/// a no-break space (U+00A0) around a provider error's message or a panic's payload are trimmed;
/// a message of nothing else is empty.
#[tokio::test]
async fn messages_are_trimmed_of_unicode_whitespace() {
    let provider =
        Stub::new("p", "custom", [spec("wide"), spec("void"), spec("shout")]).answering(|call, _| async move {
            match call.tool_name.as_str() {
                "wide" => Err(ToolError::transport("\u{3000}busy\u{a0}")),
                "void" => Err(ToolError::transport("\u{3000}\u{a0}\u{3000}")),
                "shout" => std::panic::panic_any("\u{3000}stop\u{3000}"),
                _ => Ok(ToolExecutionResult::success(call.tool_name, "fine")),
            }
        });
    let registry = registry(RegistryConfig::default(), [provider]);
    assert_eq!(call(&registry, "wide").await.error_message, "Tool wide failed: Transport: busy");
    assert_eq!(call(&registry, "void").await.error_message, "Tool void failed: Transport");
    assert_eq!(call(&registry, "shout").await.error_message, "Tool shout failed: Panic: stop");
}

/// "Err(e) ⇒ failure result with the error text; log at error level with tool and provider name."
#[tokio::test]
async fn a_provider_error_is_logged_at_error_level_with_tool_and_provider() {
    let provider = Stub::new("gateway_p", "custom", [spec("fetch_page")])
        .answering(|_, _| async { Err(ToolError::transport("offline")) });
    let registry = registry(RegistryConfig::default(), [provider]);
    let (result, log) = logged(call(&registry, "fetch_page")).await;
    assert_eq!(result.error_message, "Tool fetch_page failed: Transport: offline");
    assert!(log.lines().any(|l| l.contains("ERROR") && l.contains("fetch_page") && l.contains("gateway_p")), "{log}");
}

/// "a registry has one locale": its own texts (not found, provider errors) are in it whatever the
/// locale of the caller's context.
#[tokio::test]
async fn registry_texts_follow_the_registrys_locale_not_the_callers() {
    let expected = [
        (Locale::En, Locale::ZhHans, "Tool not found: nope", "Tool down failed: Transport: offline"),
        (Locale::ZhHans, Locale::En, "未找到工具：nope", "工具 down 调用失败：Transport: offline"),
    ];
    for (own, callers, not_found, failed) in expected {
        let provider =
            Stub::new("p", "custom", [spec("down")]).answering(|_, _| async { Err(ToolError::transport("offline")) });
        let registry = registry(RegistryConfig::default().locale(own), [provider]);
        let ctx = ToolExecutionContext { locale: callers, ..ToolExecutionContext::for_session("s") };
        let missing = registry.invoke(ToolInvocation::new("nope", "{}"), Some(&ctx)).await;
        assert_eq!(missing.error_message, not_found, "{own:?}");
        let down = registry.invoke(ToolInvocation::new("down", "{}"), Some(&ctx)).await;
        assert_eq!(down.error_message, failed, "{own:?}");
    }
}

// ---- what a provider receives ---------------------------------------------------------------------

/// "The context passed on carries the registry's locale": the provider gets the caller's
/// execution context (its session, user, reasoning and metadata) with the locale set to the
/// registry's.
#[tokio::test]
async fn the_provider_gets_the_callers_execution_context_in_the_registrys_locale() {
    let provider = Stub::new("p", "custom", [spec("t")]);
    let seen = provider.seen();
    let registry = registry(RegistryConfig::default().locale(Locale::ZhHans), [provider]);
    let mut ctx = ToolExecutionContext {
        session_id: "s1".into(),
        user_id: "u7".into(),
        reasoning: "because".into(),
        locale: Locale::En,
        ..Default::default()
    };
    ctx.metadata.insert("trace".into(), json!(1));
    assert!(registry.invoke(ToolInvocation::new("t", "{}"), Some(&ctx)).await.success);
    let seen = seen.lock().unwrap();
    let received = seen[0].1.as_ref().expect("a context");
    assert_eq!(
        (received.session_id.as_str(), received.user_id.as_str(), received.reasoning.as_str()),
        ("s1", "u7", "because")
    );
    assert_eq!(received.metadata, metadata(json!({"trace": 1})));
    assert_eq!(received.locale, Locale::ZhHans);
}

/// The steps of `invoke` in order: "Look up invocation.tool_name among the registry names. Missing
/// ⇒ failure result with ... the not-found text" comes before "Arguments text longer than
/// max_argument_bytes ... ⇒ failure as for Err(ToolError::invalid_arguments(detail))": an unknown
/// or denied tool is not found whatever its arguments; a known one is refused for their size.
#[tokio::test]
async fn a_missing_tool_is_not_found_before_its_arguments_are_measured() {
    let admin = ToolSpec::builder("admin").permission(toolhook::PermissionLevel::Owner).build().unwrap();
    let provider = Stub::new("p", "custom", [spec("t"), admin]);
    let seen = provider.seen();
    let registry = registry(RegistryConfig::default().max_argument_bytes(8), [provider]);
    let big = r#"{"text": "far more than eight bytes"}"#;
    let ctx = ToolExecutionContext::for_session("s");
    for (tool, text) in [
        ("nope", "Tool not found: nope"),
        ("admin", "Tool not found: admin"),
        ("t", "Tool t failed: InvalidArguments: arguments are larger than 8 bytes"),
    ] {
        let result = registry.invoke(ToolInvocation::new(tool, big), Some(&ctx)).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, text));
    }
    assert!(seen.lock().unwrap().is_empty(), "the provider was never called");
}

/// "Build the provider's invocation: tool_name = the original name; metadata = a copy of the
/// caller's": everything else of the call (call id, session, stream, reasoning, arguments) reaches
/// the provider as sent, also for a renamed tool.
#[tokio::test]
async fn a_renamed_call_reaches_its_provider_as_sent_but_for_its_name() {
    let plugin = Stub::new("p", "plugin", [spec_with("t", &[("plugin_id", json!("x.y"))])]);
    let seen = plugin.seen();
    let registry = registry(rename(), [Stub::new("a", "builtin", [spec("t")]), plugin]);
    let invocation = ToolInvocation::new("plugin_x_y_t", json!({"q": [1, 2]}))
        .with_call_id("c1")
        .with_session_id("s1")
        .with_stream_id("st1")
        .with_reasoning("why")
        .with_metadata("trace", "t9");
    let result = registry.invoke(invocation, None).await;
    assert_eq!((result.tool_name.as_str(), result.content.as_str()), ("plugin_x_y_t", "p ran t"));
    let seen = seen.lock().unwrap();
    let (received, ctx) = &seen[0];
    assert_eq!(received.tool_name, "t");
    assert_eq!(
        (received.call_id(), received.session_id(), received.stream_id(), received.reasoning()),
        ("c1", "s1", "st1", "why")
    );
    assert_eq!(received.arguments.to_value().unwrap(), json!({"q": [1, 2]}));
    assert_eq!(*received.metadata(), metadata(json!({"trace": "t9"})));
    assert!(ctx.is_none(), "no context was given");
}

/// Built-in tools: "Texts it produces follow the context's locale", and the registry sets the
/// context's locale to its own before calling a provider: a host's built-in gets the caller's
/// context in the registry's locale.
#[tokio::test]
async fn a_builtin_handler_gets_the_callers_context_in_the_registrys_locale() {
    let whoami = BuiltinTool::new(spec("whoami"), |call, ctx| async move {
        let ctx = ctx.expect("a context");
        let content = format!("{}|{}", ctx.session_id, ctx.locale == Locale::ZhHans);
        Ok(ToolExecutionResult::success(call.tool_name, content))
    });
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(BuiltinToolProvider::new().without_tool_search().with_tool(whoami));
    let ctx = ToolExecutionContext { locale: Locale::En, ..ToolExecutionContext::for_session("s9") };
    let result = registry.invoke(ToolInvocation::new("whoami", "{}"), Some(&ctx)).await;
    assert_eq!((result.success, result.content.as_str()), (true, "s9|true"));
}

// ---- close() --------------------------------------------------------------------------------------

/// close() "awaits close() of every provider sequentially in registration order. A failing
/// provider does not stop the others; the result lists every failure": each close starts only
/// once the one before it has ended.
#[tokio::test(start_paused = true)]
async fn close_awaits_each_provider_before_starting_the_next() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let started = tokio::time::Instant::now();
    let closing = |name: &'static str, takes: u64, fails: bool| {
        let events = events.clone();
        Stub::new(name, "custom", [spec(name)]).closing(move || {
            let events = events.clone();
            async move {
                events.lock().unwrap().push(format!("{name} start {}", started.elapsed().as_millis()));
                tokio::time::sleep(Duration::from_millis(takes)).await;
                events.lock().unwrap().push(format!("{name} end {}", started.elapsed().as_millis()));
                if fails { Err(ToolError::transport(format!("{name} stuck"))) } else { Ok(()) }
            }
        })
    };
    let registry =
        registry(RegistryConfig::default(), [closing("a", 100, false), closing("b", 30, true), closing("c", 0, true)]);
    let failures = registry.close().await.expect_err("two providers failed").0;
    assert_eq!(
        *events.lock().unwrap(),
        ["a start 0", "a end 100", "b start 100", "b end 130", "c start 130", "c end 130"]
    );
    let failures: Vec<(String, String, String)> =
        failures.iter().map(|(p, e)| (p.clone(), e.type_name().to_owned(), e.message(Locale::En).to_owned())).collect();
    assert_eq!(
        failures,
        [
            ("b".to_owned(), "Transport".to_owned(), "b stuck".to_owned()),
            ("c".to_owned(), "Transport".to_owned(), "c stuck".to_owned()),
        ]
    );
    assert_eq!(registry.provider_names(), ["a", "b", "c"]);
}

/// A provider that implements only what it must.
struct Quiet;

impl ToolProvider for Quiet {
    fn provider_name(&self) -> &str {
        "quiet"
    }
    fn provider_type(&self) -> &str {
        "custom"
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        Box::pin(std::future::ready(Ok(vec![spec("hush")])))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "shh"))))
    }
}

/// The trait's `close` defaults to `Ok(())`: a registry of such providers (or of none) closes
/// without a failure, and its providers stay registered and callable.
#[tokio::test]
async fn a_provider_without_its_own_close_closes_cleanly() {
    assert!(ToolRegistry::default().close().await.is_ok(), "no providers");
    let registry = ToolRegistry::default();
    registry.register_provider(Quiet);
    assert!(registry.close().await.is_ok());
    assert_eq!(registry.provider_names(), ["quiet"]);
    assert_eq!(call(&registry, "hush").await.content, "shh");
}

static KEEPER_UNLOADS: AtomicUsize = AtomicUsize::new(0);

/// A plugin that counts its unloads.
#[derive(Debug, Default)]
pub struct Keeper;

#[plugin(id = "drr.keeper")]
impl Keeper {
    async fn on_unload(&self) {
        KEEPER_UNLOADS.fetch_add(1, Ordering::SeqCst);
    }

    /// Answers pong.
    #[tool]
    async fn keeper_ping(&self) -> String {
        "pong".to_owned()
    }
}

/// The plugin provider's "close does nothing: ToolRegistry::close() does not unload plugins.
/// on_unload runs when the plugin host unloads a plugin".
#[tokio::test]
async fn closing_the_registry_leaves_plugins_loaded() {
    let registry = ToolRegistry::default();
    let host = PluginHost::builder().plugins(PluginSet::collect().only(["drr.keeper"])).registry(&registry).build();
    assert!(host.load_all().await.is_clean());
    assert_eq!(registry.provider_names(), ["plugin_runtime"]);
    assert!(registry.close().await.is_ok());
    assert_eq!(host.state("drr.keeper"), Some(PluginState::Loaded));
    assert_eq!(KEEPER_UNLOADS.load(Ordering::SeqCst), 0);
    assert_eq!(call(&registry, "keeper_ping").await.content, "pong");
    host.shutdown().await;
    assert_eq!(KEEPER_UNLOADS.load(Ordering::SeqCst), 1);
}

// ---- plugin tools ---------------------------------------------------------------------------------

/// Always fails.
#[tool]
fn drr_fails() -> Result<String, String> {
    Err("  disk is full \n".to_owned())
}

/// A plugin handler's "Err(e) is a tool failure with error_message = trim(e.to_string())" (not a
/// registry error text); "metadata.plugin_id is set on every result".
#[tokio::test]
async fn a_plugin_tools_error_is_its_trimmed_text_with_its_plugin_id() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let listed = registry.get_tool_spec("drr_fails", None).await.expect("listed");
    let plugin_id = listed.metadata()["plugin_id"].clone();
    assert!(plugin_id.as_str().is_some_and(|id| !id.is_empty()), "{plugin_id}");
    let result = call(&registry, "drr_fails").await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "disk is full"));
    assert_eq!(result.metadata.get("plugin_id"), Some(&plugin_id));
}

/// Fails with a message padded by ideographic spaces.
#[tool]
fn drr_fails_wide() -> Result<String, String> {
    Err("\u{3000}quota used up\u{3000}".to_owned())
}

/// "error_message = trim(e.to_string())", where trimming removes Unicode whitespace.
#[tokio::test]
async fn a_plugin_tools_error_is_trimmed_of_unicode_whitespace() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let result = call(&registry, "drr_fails_wide").await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "quota used up"));
}

/// Tool names "are compared exactly (case-sensitive, untrimmed)": an empty name is no tool's name;
/// the not-found text quotes it as it is (empty).
#[tokio::test]
async fn an_empty_tool_name_is_not_found() {
    for (locale, text) in [(Locale::En, "Tool not found: "), (Locale::ZhHans, "未找到工具：")] {
        let registry = registry(RegistryConfig::default().locale(locale), [Stub::new("p", "custom", [spec("t")])]);
        let result = call(&registry, "").await;
        assert_eq!((result.tool_name.as_str(), result.success), ("", false));
        assert_eq!(result.error_message, text, "{locale:?}");
        assert!(!registry.has_tool("", None).await);
    }
}

/// Returns a whole result that claims another plugin.
#[tool]
fn drr_claims() -> ToolExecutionResult {
    let mut result = ToolExecutionResult::success("ignored", "claimed");
    result.metadata.insert("plugin_id".to_owned(), json!("someone.else"));
    result.metadata.insert("kept".to_owned(), json!(1));
    result
}

/// A `ToolExecutionResult` return is used "as is, tool_name overwritten", and the plugin provider's
/// "metadata.plugin_id is set on every result": the tool's own `plugin_id` gives way to its
/// plugin's, its other metadata stays.
#[tokio::test]
async fn a_plugin_tools_result_always_names_its_own_plugin() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let listed = registry.get_tool_spec("drr_claims", None).await.expect("listed");
    let plugin_id = listed.metadata()["plugin_id"].clone();
    let result = call(&registry, "drr_claims").await;
    assert_eq!((result.tool_name.as_str(), result.content.as_str()), ("drr_claims", "claimed"));
    assert_eq!(result.metadata.get("plugin_id"), Some(&plugin_id));
    assert_ne!(plugin_id, json!("someone.else"));
    assert_eq!(result.metadata.get("kept"), Some(&json!(1)));
}
