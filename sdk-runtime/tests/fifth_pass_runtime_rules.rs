//! A fifth pass over the written rules for the registry, deferred tools, hooks and plugins, aimed
//! at sentences no earlier test pinned down: access rules deciding who keeps a contested name, a
//! platform of only whitespace, `tool_search`'s default limit, `resync` reading only successful
//! results, deferred tools a caller may not use, the plugin provider's decoding errors, the plain
//! shape of the registry's own failures, the default breaker's cooldowns, a breaker that stops hook
//! handlers but not tools, how often skips are logged, the warnings the rules ask for, log lines in
//! English under zh-Hans, `build_object_schema` with blank `required` entries, and a config type that
//! denies unknown keys. Every expected value follows the rules' own words.
#![allow(missing_debug_implementations)]

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::{advance, sleep};
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode};
use toolhook::{
    DeclaredTool, Dialect, Locale, PermissionLevel, ToolAvailabilityContext, ToolError, ToolExecutionContext,
    ToolExecutionResult, ToolInvocation, ToolSpec, Visibility, hook_handler, plugin, schemars, tool,
};
use toolhook_runtime::hooks::{
    BreakerConfig, BreakerState, HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry, build_object_schema,
};
use toolhook_runtime::{
    BuiltinToolProvider, DuplicatePolicy, MemoryConfigSource, PluginHost, PluginSet, PluginState, PluginToolProvider,
    PluginToolsSpec, RegistryConfig, Source, ToolProvider, ToolRegistry,
};

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

#[path = "common/deferred_pool.rs"]
#[allow(dead_code)]
mod deferred_pool;
use deferred_pool::{deferred, deferred_registry, example_registry, visible};

// ==== helpers =======================================================================================

/// Plugins are singletons per program: tests that load them take turns.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[path = "common/logs.rs"]
mod logs;
use logs::{has_cjk, logged_at};

/// Lines of `log` at the given level (`"WARN"`, `"ERROR"`, …).
fn at_level<'a>(log: &'a str, level: &str) -> Vec<&'a str> {
    let tag = format!(" {level} ");
    log.lines().filter(|l| l.contains(&tag) || l.starts_with(&format!("{level} "))).collect()
}

fn names(specs: &[ToolSpec]) -> Vec<String> {
    specs.iter().map(|s| s.name().to_owned()).collect()
}

async fn listed(registry: &ToolRegistry, ctx: Option<&ToolAvailabilityContext>) -> Vec<String> {
    names(&registry.list_tools(ctx).await)
}

fn availability(f: impl FnOnce(&mut ToolAvailabilityContext)) -> ToolAvailabilityContext {
    let mut ctx = ToolAvailabilityContext::default();
    f(&mut ctx);
    ctx
}

fn execution(f: impl FnOnce(&mut ToolExecutionContext)) -> ToolExecutionContext {
    let mut ctx = ToolExecutionContext::for_session("s");
    f(&mut ctx);
    ctx
}

fn session(id: &str) -> ToolExecutionContext {
    ToolExecutionContext::for_session(id)
}

/// The names `tool_search` matched, from its structured content.
fn matched(result: &ToolExecutionResult) -> Vec<String> {
    assert!(result.success, "{result:?}");
    let structured = result.structured_content().cloned().unwrap_or_default();
    structured["matched_tool_names"]
        .as_array()
        .unwrap_or_else(|| panic!("no matched names in {result:?}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

async fn search(registry: &ToolRegistry, ctx: &ToolExecutionContext, arguments: Value) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new("tool_search", arguments), Some(ctx)).await
}

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).expect("a JSON object")
}

fn hook_specs(specs: Vec<HookSpec>) -> HookSpecRegistry {
    let registry = HookSpecRegistry::new();
    for spec in specs {
        registry.register(spec).unwrap();
    }
    registry
}

/// A blocking handler that sleeps one second under a 50 ms timeout.
fn always_late(name: &str, hook: &str) -> HookHandlerEntry {
    HookHandlerEntry::new(name, hook, |_: HookArgs, _: HookContext| async {
        sleep(Duration::from_secs(1)).await;
    })
    .timeout(Duration::from_millis(50))
}

// ==== access rules and names =========================================================================

fn owner_only(name: &str) -> ToolSpec {
    ToolSpec::builder(name)
        .description("Owner only")
        .permission(PermissionLevel::Owner)
        .visibility(Visibility::Visible)
        .build()
        .unwrap()
}

// Computing the routes: "2. From each provider's specs, in its order, drop … specs whose access rules
// deny the context. 3. Assign registry names in this global order under the duplicate policy"; Skip:
// "The first entry with a given original name keeps it". An entry the caller may not use is dropped
// before names are given, so it claims no name: a later provider's tool of that name serves that
// caller, and a permitted caller reaches the first.
#[tokio::test]
async fn an_entry_the_caller_may_not_use_leaves_its_name_to_a_later_provider_under_skip() {
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("a", "builtin", [owner_only("t")]));
    registry.register_provider(Stub::new("b", "plugin", [visible("t", "Open")]));
    let call = |ctx: ToolExecutionContext| {
        let registry = &registry;
        async move { registry.invoke(ToolInvocation::new("t", "{}"), Some(&ctx)).await }
    };

    let user = availability(|_| {});
    assert_eq!(listed(&registry, Some(&user)).await, ["t"]);
    assert_eq!(registry.get_tool_spec("t", Some(&user)).await.unwrap().provider_name(), "b");
    assert_eq!(call(execution(|_| {})).await.content, "b ran t");
    assert_eq!(registry.get_tool_spec("t", None).await.unwrap().provider_name(), "b");

    let owner = availability(|c| c.permission = PermissionLevel::Owner);
    assert_eq!(listed(&registry, Some(&owner)).await, ["t"]);
    assert_eq!(registry.get_tool_spec("t", Some(&owner)).await.unwrap().provider_name(), "a");
    assert_eq!(call(execution(|c| c.permission = PermissionLevel::Owner)).await.content, "a ran t");
}

// Rename: "`reserved` = the set of all original names among the entries of step 2. A later entry with
// an already used name is renamed"; "source = … the provider's provider_name"; "prefix = … else
// {provider_type}_{source}". For a permitted caller the later copy becomes `plugin_b_t`; for a caller
// the first entry is denied to, nothing is used yet, so the later copy keeps `t` and no renamed copy
// exists.
#[tokio::test]
async fn under_rename_an_entry_the_caller_may_not_use_forces_no_renaming() {
    let registry = ToolRegistry::new(RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename));
    registry.register_provider(Stub::new("a", "builtin", [owner_only("t")]));
    registry.register_provider(Stub::new("b", "plugin", [visible("t", "Open")]));

    let owner = availability(|c| c.permission = PermissionLevel::Owner);
    assert_eq!(listed(&registry, Some(&owner)).await, ["t", "plugin_b_t"]);
    let as_owner = execution(|c| c.permission = PermissionLevel::Owner);
    let renamed = registry.invoke(ToolInvocation::new("plugin_b_t", "{}"), Some(&as_owner)).await;
    assert_eq!((renamed.tool_name.as_str(), renamed.content.as_str()), ("plugin_b_t", "b ran t"));

    let user = availability(|_| {});
    assert_eq!(listed(&registry, Some(&user)).await, ["t"]);
    assert_eq!(registry.get_tool_spec("t", Some(&user)).await.unwrap().provider_name(), "b");
    let as_user = execution(|_| {});
    assert_eq!(registry.invoke(ToolInvocation::new("t", "{}"), Some(&as_user)).await.content, "b ran t");
    let missing = registry.invoke(ToolInvocation::new("plugin_b_t", "{}"), Some(&as_user)).await;
    assert_eq!(missing.error_message, "Tool not found: plugin_b_t");
}

// "platform = `platform` trimmed and lower-cased, empty ⇒ unknown"; "Unknown facts fail closed";
// "**Trim** means removing leading and trailing Unicode whitespace". A platform of only whitespace is
// unknown; one padded with an ideographic space and a no-break space is known.
#[tokio::test]
async fn a_platform_of_only_whitespace_is_unknown_and_unicode_padding_is_trimmed() {
    let qq = ToolSpec::builder("qq_tool").platforms(["qq"]).visibility(Visibility::Visible).build().unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [qq, visible("open", "Open")]));
    for blank in ["   ", "\t\n", "\u{3000}"] {
        let ctx = availability(|c| c.platform = blank.into());
        assert_eq!(listed(&registry, Some(&ctx)).await, ["open"], "{blank:?}");
        let call = execution(|c| c.platform = blank.into());
        let result = registry.invoke(ToolInvocation::new("qq_tool", "{}"), Some(&call)).await;
        assert_eq!(result.error_message, "Tool not found: qq_tool", "{blank:?}");
    }
    let padded = availability(|c| c.platform = "\u{3000}QQ\u{a0}".into());
    assert_eq!(listed(&registry, Some(&padded)).await, ["qq_tool", "open"]);
    let call = execution(|c| c.platform = "\u{3000}QQ\u{a0}".into());
    let result = registry.invoke(ToolInvocation::new("qq_tool", "{}"), Some(&call)).await;
    assert_eq!((result.success, result.content.as_str()), (true, "p ran qq_tool"));
}

// Access rules: "invoking it gives `Tool not found` (the reason is logged at debug level, never shown
// to the model)": a denied call leaves a debug line naming the tool, nothing at warn or above, and the
// model sees only the not-found text.
#[tokio::test]
async fn a_denied_call_logs_its_reason_at_debug_level_only() {
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [owner_only("guarded5")]));
    let (result, log) =
        logged_at(tracing::Level::DEBUG, registry.invoke(ToolInvocation::new("guarded5", "{}"), Some(&session("s"))))
            .await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: guarded5"));
    assert_eq!(result.content, "");
    let debug: Vec<&str> = at_level(&log, "DEBUG").into_iter().filter(|l| l.contains("guarded5")).collect();
    assert!(!debug.is_empty(), "no debug line for the denied call: {log:?}");
    assert!(at_level(&log, "WARN").is_empty() && at_level(&log, "ERROR").is_empty(), "{log}");
}

// "A *failure result* = the given `tool_name` and `error_message`, `success = false`, all else
// default": the not-found failure, an argument-limit failure and the built-in provider's not-found
// failure carry nothing else.
#[tokio::test]
async fn the_registrys_own_failures_carry_nothing_but_name_and_error() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(16).max_argument_depth(2));
    registry.register_provider(Stub::new("p", "plugin", [visible("t", "T")]));
    let nope = registry.invoke(ToolInvocation::new("nope", "{}"), None).await;
    let large = registry.invoke(ToolInvocation::new("t", r#"{"q":"0123456789abcdef"}"#), None).await;
    let deep = registry.invoke(ToolInvocation::new("t", r#"{"a":{"b":{}}}"#), None).await;
    let builtin = BuiltinToolProvider::new().invoke(ToolInvocation::new("gone", "{}"), None).await.unwrap();
    for (result, name, text) in [
        (&nope, "nope", "Tool not found: nope"),
        (&large, "t", "Tool t failed: InvalidArguments: arguments are larger than 16 bytes"),
        (&deep, "t", "Tool t failed: InvalidArguments: arguments are nested deeper than 2 levels"),
        (&builtin, "gone", "Builtin tool handler not found: gone"),
    ] {
        assert_eq!((result.tool_name.as_str(), result.success), (name, false), "{text}");
        assert_eq!(result.error_message, text);
        assert_eq!(result.content, "", "{text}");
        assert_eq!(result.structured_content(), None, "{text}");
        assert!(result.content_items().is_empty(), "{text}");
        assert!(result.post_history_messages().is_empty(), "{text}");
        assert!(result.metadata.is_empty(), "{text}: {:?}", result.metadata);
        assert!(!result.stop_after_execution, "{text}");
    }
}

// Skip: "A warning naming the tool, the skipped provider and the winning provider is logged once per
// registry for each (provider, name) pair, not on every listing": listings under other contexts are
// listings too, and a second registry logs its own warning once.
#[tokio::test]
async fn each_registry_warns_once_about_a_skipped_name_whatever_the_context() {
    let build = || {
        let registry = ToolRegistry::default();
        registry.register_provider(Stub::new("alpha5", "builtin", [visible("dup5", "First")]));
        registry.register_provider(Stub::new("beta5", "plugin", [visible("dup5", "Second")]));
        registry
    };
    let (first, second) = (build(), build());
    let contexts = [
        None,
        Some(availability(|c| c.platform = "qq".into())),
        Some(availability(|c| c.session_id = "other".into())),
        Some(availability(|c| c.permission = PermissionLevel::Owner)),
    ];
    let ((), log) = logged_at(tracing::Level::WARN, async {
        for registry in [&first, &second] {
            for ctx in &contexts {
                for _ in 0..2 {
                    assert_eq!(listed(registry, ctx.as_ref()).await, ["dup5"]);
                }
            }
            let result = registry.invoke(ToolInvocation::new("dup5", "{}"), Some(&session("x"))).await;
            assert_eq!(result.content, "alpha5 ran dup5");
        }
    })
    .await;
    let warnings: Vec<&str> = at_level(&log, "WARN").into_iter().filter(|l| l.contains("dup5")).collect();
    assert_eq!(warnings.len(), 2, "{log}");
    for line in warnings {
        assert!(line.contains("alpha5") && line.contains("beta5"), "{line}");
    }
}

// "A strict dialect that fails to project a tool (`ProjectionError`) sends that tool in the non-strict
// form of the same API and logs a warning." An object property open to any keys cannot be projected
// strictly.
#[tokio::test]
async fn a_tool_sent_in_the_non_strict_form_is_logged_as_a_warning() {
    let open = ToolSpec::builder("open_meta")
        .brief_description("Brief.")
        .parameters_raw(json!({
            "type": "object",
            "properties": {"meta": {"type": "object", "additionalProperties": true}},
            "required": []
        }))
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [open]));
    let copy = registry.get_tool_spec("open_meta", None).await.unwrap();
    let (sent, log) =
        logged_at(tracing::Level::WARN, registry.get_llm_definitions(None, Dialect::OpenAiChatStrict)).await;
    assert_eq!(sent, [copy.llm_definition(Dialect::OpenAiChat, Locale::En).unwrap()]);
    assert!(!at_level(&log, "WARN").is_empty(), "no warning logged: {log:?}");
}

// "Log lines are English; their wording is free unless quoted", with the registry in zh-Hans: `Err(e)`
// is logged "at error level with tool and provider name". The model-visible text is Chinese, the log
// line is not.
#[tokio::test]
async fn a_zh_hans_registry_logs_a_provider_error_in_english() {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(Stub::answering("prov5", "plugin", [visible("down5", "Down")], |_| async {
        Err(ToolError::transport("down"))
    }));
    let (result, log) =
        logged_at(tracing::Level::WARN, registry.invoke(ToolInvocation::new("down5", "{}"), Some(&session("s")))).await;
    assert_eq!(result.error_message, "工具 down5 调用失败：Transport: down");
    let errors = at_level(&log, "ERROR");
    assert!(!errors.is_empty(), "{log:?}");
    assert!(errors.iter().any(|l| l.contains("down5") && l.contains("prov5")), "{log}");
    assert!(!has_cjk(&log), "{log}");
}

/// A provider whose listing always fails.
struct DownListing;

impl ToolProvider for DownListing {
    fn provider_name(&self) -> &str {
        "down5"
    }
    fn provider_type(&self) -> &str {
        "plugin"
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> toolhook::BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        Box::pin(std::future::ready(Err(ToolError::transport("listing down"))))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> toolhook::BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "never"))))
    }
}

// "Log lines are English" for the registry's warnings too, in a zh-Hans registry: a provider whose
// listing fails ("`Err` or panic ⇒ warn and skip that provider only"), a skipped duplicate ("A warning
// naming the tool, the skipped provider and the winning provider") and a tool sent in the non-strict
// form ("logs a warning").
#[tokio::test]
async fn a_zh_hans_registry_logs_its_warnings_in_english() {
    let open = ToolSpec::builder("open_meta")
        .brief_description("开放的参数")
        .parameters_raw(json!({
            "type": "object",
            "properties": {"meta": {"type": "object", "additionalProperties": true}},
            "required": []
        }))
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(DownListing);
    registry.register_provider(Stub::new("alpha5", "builtin", [visible("dup5", "第一")]));
    registry.register_provider(Stub::new("beta5", "plugin", [visible("dup5", "第二"), open]));
    let (definitions, log) =
        logged_at(tracing::Level::WARN, registry.get_llm_definitions(None, Dialect::OpenAiChatStrict)).await;
    assert_eq!(definitions.len(), 2);
    assert!(at_level(&log, "WARN").len() >= 3, "{log}");
    assert!(!has_cjk(&log), "{log}");
}

// The rules: "Dispatcher and registration texts follow the dispatcher's `Locale` (En default,
// zh-Hans = the reference byte for byte); log lines are English." Observer "Failures … are logged
// at warn"; the `log` policy logs "at warn". With a zh-Hans dispatcher the result's texts are
// Chinese, and the warn lines stay English.
#[tokio::test]
async fn a_zh_hans_dispatcher_logs_handler_failures_in_english() {
    let d =
        HookDispatcher::builder().specs(hook_specs(vec![HookSpec::new("demo.hook")])).locale(Locale::ZhHans).build();
    d.register_plugin(
        "p5",
        Source::ThirdParty,
        vec![
            HookHandlerEntry::new("l", "demo.hook", |_: HookArgs, _: HookContext| async { Err::<(), _>("bad") })
                .error_policy(ErrorPolicy::Log),
            HookHandlerEntry::new("o", "demo.hook", |_: HookArgs, _: HookContext| async { Err::<(), _>("worse") })
                .mode(HookMode::Observe),
        ],
    )
    .unwrap();
    let (dispatched, log) = logged_at(tracing::Level::WARN, async {
        let result = d.invoke("demo.hook", args(json!({"text": "hi"}))).await.unwrap();
        d.wait_observers().await;
        result
    })
    .await;
    assert_eq!(dispatched.errors, ["HookHandler p5.l 执行失败: bad"]);
    let warnings = at_level(&log, "WARN");
    assert!(warnings.len() >= 2, "one for the `log` policy, one for the observer: {log:?}");
    assert!(!has_cjk(&log), "{log}");
}

// ==== tool_search and deferred tools =================================================================

// "`limit`: absent or null ⇒ 5; … anything else ⇒ 5. Then `max(1, limit)`"; "number with a fraction ⇒
// truncated toward zero". Seven tools match `item` with one score, so they sort by name.
#[tokio::test]
async fn an_absent_or_null_limit_keeps_five_of_seven_matches() {
    let letters = ["a", "b", "c", "d", "e", "f", "g"];
    let specs = letters.iter().map(|l| deferred(&format!("item_{l}"), "An item")).collect();
    let (registry, _) = deferred_registry(Locale::En, specs);
    let all: Vec<String> = letters.iter().map(|l| format!("item_{l}")).collect();
    let ctx = session("lim5");
    let cases = [
        (json!({"query": "item"}), 5),
        (json!({"query": "item", "limit": null}), 5),
        (json!({"query": "item", "limit": true}), 5),
        (json!({"query": "item", "limit": [3]}), 5),
        (json!({"query": "item", "limit": {"n": 3}}), 5),
        (json!({"query": "item", "limit": 7}), 7),
        (json!({"query": "item", "limit": 6.9}), 6),
        (json!({"query": "item", "limit": -2.5}), 1),
    ];
    for (arguments, count) in cases {
        let result = search(&registry, &ctx, arguments.clone()).await;
        assert_eq!(matched(&result), all[..count], "{arguments}");
    }
}

// `resync(session, results)`: "discovered becomes the names in the successful ones": a failed
// `tool_search` result discovers nothing, whatever names its texts hold.
#[tokio::test]
async fn resync_reads_only_the_successful_results() {
    let (registry, discovery) = example_registry(Locale::En);
    let mut failed = ToolExecutionResult::failure("tool_search", "boom").with_structured_content(json!({
        "query": "web",
        "matched_tool_names": ["web_search"],
        "newly_discovered_tool_names": ["web_search"]
    }));
    failed.content =
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_fetch (newly discovered)"
            .into();
    discovery.discover("s1", ["image_gen"]);
    discovery.resync("s1", std::slice::from_ref(&failed));
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply"]);

    let ok = ToolExecutionResult::success(
        "tool_search",
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- search_memes (newly discovered)",
    );
    discovery.resync("s1", &[failed, ok]);
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "search_memes"]);
}

// "Pool = the `Deferred` tools listed for the call's availability context (derived from the execution
// context)"; `prepare_round`: "`specs = registry.list_tools(Some(ctx))`"; a denied tool "is absent from
// listings". A deferred tool the caller may not use is neither pooled, reminded nor found; the owner
// gets both (equal scores, by name).
#[tokio::test]
async fn deferred_tools_the_caller_may_not_use_are_neither_pooled_reminded_nor_found() {
    let admin = ToolSpec::builder("admin_fetch")
        .description("Fetch as admin")
        .permission(PermissionLevel::Owner)
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let (registry, discovery) = deferred_registry(Locale::En, vec![admin, deferred("web_fetch", "Fetch a URL")]);

    let user = session("u5");
    let round = discovery.prepare_round(&registry, &user).await;
    assert_eq!(names(round.pool()), ["web_fetch"]);
    let reminder = round.reminder().expect("web_fetch is undiscovered");
    assert!(reminder.contains("\n1. web_fetch: Fetch a URL\n"), "{reminder}");
    assert!(!reminder.contains("admin_fetch"), "{reminder}");
    assert_eq!(matched(&search(&registry, &user, json!({"query": "fetch"})).await), ["web_fetch"]);

    let owner = ToolExecutionContext { permission: PermissionLevel::Owner, ..session("o5") };
    let round = discovery.prepare_round(&registry, &owner).await;
    assert_eq!(names(round.pool()), ["admin_fetch", "web_fetch"]);
    assert_eq!(matched(&search(&registry, &owner, json!({"query": "fetch"})).await), ["admin_fetch", "web_fetch"]);
}

// ==== the plugin tools provider ======================================================================

/// Counts.
#[tool]
fn fp5_count(
    /// How many.
    count: i64,
) -> String {
    format!("counted {count}")
}

fn declared(names: &[&str]) -> Vec<DeclaredTool> {
    let all = DeclaredTool::all();
    names.iter().map(|n| *all.iter().find(|t| t.name() == *n).unwrap()).collect()
}

// Plugin tools, invocation: "a decoding error ⇒ `Err(ToolError::invalid_arguments(detail))` with the
// locale's detail text", not a failure result; through the registry it reads as any `Err`: `Tool
// {name} failed: {type}: {message}`.
#[tokio::test]
async fn the_plugin_provider_answers_undecodable_arguments_with_an_invalid_arguments_error() {
    let provider = PluginToolProvider::with_plugins(vec![PluginToolsSpec {
        id: "fp5.args".into(),
        source: Source::ThirdParty,
        state: PluginState::Loaded,
        tools: declared(&["fp5_count"]),
    }])
    .unwrap();
    let cases = [
        (
            json!({"count": "x"}),
            r#"count: expected integer, got string "x""#,
            r#"count：应为 integer，实际为 string "x""#,
        ),
        (json!({}), "count: missing required parameter", "count：缺少必填参数"),
    ];
    for (arguments, en, zh) in &cases {
        for (locale, detail) in [(Locale::En, en), (Locale::ZhHans, zh)] {
            let ctx = ToolExecutionContext { locale, ..session("s") };
            let call = ToolInvocation::new("fp5_count", arguments.clone());
            let error = provider.invoke(call, Some(&ctx)).await.expect_err("an error, not a result");
            assert_eq!(error.type_name(), "InvalidArguments", "{arguments}");
            assert_eq!(error.message(locale), *detail, "{arguments} {locale:?}");
        }
    }
    let ok = provider.invoke(ToolInvocation::new("fp5_count", json!({"count": "3"})), None).await.unwrap();
    assert_eq!((ok.success, ok.content.as_str()), (true, "counted 3"));

    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(
        PluginToolProvider::with_plugins(vec![PluginToolsSpec {
            id: "fp5.args".into(),
            source: Source::ThirdParty,
            state: PluginState::Loaded,
            tools: declared(&["fp5_count"]),
        }])
        .unwrap(),
    );
    let result = registry.invoke(ToolInvocation::new("fp5_count", json!({"count": "x"})), None).await;
    assert_eq!(
        result.error_message,
        r#"工具 fp5_count 调用失败：InvalidArguments: count：应为 integer，实际为 string "x""#
    );
}

// ==== hooks ===========================================================================================

// "`build_object_schema(properties, required)` gives `{"type":"object","properties":…}` plus `required`
// only when the trimmed, non-empty entries are non-empty": entries that are all blank add no
// `required`.
#[test]
fn build_object_schema_leaves_out_required_when_every_entry_is_blank() {
    let properties = json!({"a": {"type": "string"}}).as_object().unwrap().clone();
    let schema = build_object_schema(properties, [" ", "\t", ""]);
    assert_eq!(serde_json::to_string(&schema).unwrap(), r#"{"type":"object","properties":{"a":{"type":"string"}}}"#);
}

// Circuit breaker with the defaults ("cooldown 60 s doubling to at most 300 s"): "Open: cooldown =
// min(60 × 2^level, 300) s, then `level += 1`"; a probe's "counted failure ⇒ open again with the next
// cooldown". With no recovery the level never resets: 60, 120, 240, then 300 twice.
#[tokio::test(start_paused = true)]
async fn the_default_breaker_doubles_its_cooldown_up_to_three_hundred_seconds() {
    let d = HookDispatcher::builder().specs(hook_specs(vec![HookSpec::new("demo.b")])).build();
    d.register_plugin("fp5.cool", Source::ThirdParty, vec![always_late("h", "demo.b")]).unwrap();
    for _ in 0..3 {
        let result = d.invoke("demo.b", HookArgs::new()).await.unwrap();
        assert_eq!(result.errors, ["HookHandler fp5.cool.h timed out after 50 ms"]);
    }
    let status = |d: &HookDispatcher| {
        let statuses = d.breaker_statuses();
        assert_eq!(statuses.len(), 1, "{statuses:?}");
        (statuses[0].state, statuses[0].remaining, statuses[0].level)
    };
    assert_eq!(status(&d), (BreakerState::Open, Duration::from_secs(60), 1));
    for (waited, next, level) in [(60, 120, 2), (120, 240, 3), (240, 300, 4), (300, 300, 5)] {
        advance(Duration::from_secs(waited)).await;
        let probe = d.invoke("demo.b", HookArgs::new()).await.unwrap();
        assert_eq!(probe.errors, ["HookHandler fp5.cool.h timed out after 50 ms"], "after {waited} s");
        assert_eq!(status(&d), (BreakerState::Open, Duration::from_secs(next), level), "after {waited} s");
    }
}

// "Calls before the cooldown ends are denied (logged at most every 30 s)", with the default "skip log
// every 30 s": twelve denied calls over 55 s of one cooldown leave one or two log lines naming the
// handler, not one per call.
#[tokio::test(start_paused = true)]
async fn a_skipped_plugin_is_logged_at_most_every_thirty_seconds() {
    let d = HookDispatcher::builder()
        .specs(hook_specs(vec![HookSpec::new("demo.b")]))
        .breaker(BreakerConfig::default())
        .build();
    d.register_plugin("fp5.skipper", Source::ThirdParty, vec![always_late("h", "demo.b")]).unwrap();
    for _ in 0..3 {
        d.invoke("demo.b", HookArgs::new()).await.unwrap();
    }
    assert_eq!(d.breaker_statuses()[0].state, BreakerState::Open);
    let ((), log) = logged_at(tracing::Level::TRACE, async {
        for _ in 0..12 {
            let result = d.invoke("demo.b", HookArgs::new()).await.unwrap();
            assert_eq!(result.skipped, ["fp5.skipper.h"]);
            advance(Duration::from_secs(5)).await;
        }
    })
    .await;
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("fp5.skipper")).collect();
    assert!((1..=2).contains(&lines.len()), "{} lines: {log}", lines.len());
}

// Steps of `invoke`: "observe: `allow_observe = false` ⇒ warn and skip (no error)"; merging: "`abort`:
// if the spec allows abort ⇒ …; else warn and continue" (a spec changed after registration).
#[tokio::test]
async fn skipped_observers_and_refused_abort_policies_are_logged_as_warnings() {
    let specs =
        hook_specs(vec![HookSpec { allow_observe: false, ..HookSpec::new("demo.no_obs") }, HookSpec::new("demo.swap")]);
    let d = HookDispatcher::builder().specs(specs).validate_hooks(false).build();
    let ran = Arc::new(Mutex::new(Vec::<&str>::new()));
    let log = Arc::clone(&ran);
    d.register_plugin(
        "fp5.w",
        Source::ThirdParty,
        vec![
            HookHandlerEntry::new("o", "demo.no_obs", move |_: HookArgs, _: HookContext| {
                log.lock().unwrap().push("observer");
                async {}
            })
            .mode(HookMode::Observe),
            HookHandlerEntry::new("a", "demo.swap", |_: HookArgs, _: HookContext| async { Err::<(), _>("no") })
                .error_policy(ErrorPolicy::Abort),
        ],
    )
    .unwrap();

    let (result, log) = logged_at(tracing::Level::WARN, d.invoke_and_wait("demo.no_obs", HookArgs::new())).await;
    let result = result.unwrap();
    assert!(result.errors.is_empty() && !result.aborted, "{result:?}");
    assert!(ran.lock().unwrap().is_empty());
    assert!(!at_level(&log, "WARN").is_empty(), "no warning for the skipped observer: {log:?}");

    d.specs().register(HookSpec { allow_abort: false, ..HookSpec::new("demo.swap") }).unwrap();
    let (result, log) = logged_at(tracing::Level::WARN, d.invoke("demo.swap", HookArgs::new())).await;
    let result = result.unwrap();
    assert_eq!(result.errors, ["HookHandler fp5.w.a failed: no"]);
    assert!(!result.aborted);
    assert!(!at_level(&log, "WARN").is_empty(), "no warning for the refused abort: {log:?}");
}

// ==== plugins ==========================================================================================

#[derive(Default)]
pub struct Fp5Tripped;

#[plugin(id = "fp5.tripped")]
impl Fp5Tripped {
    /// Answers while the plugin's handlers are skipped.
    #[tool]
    async fn fp5_tripped_tool(&self) -> &'static str {
        "still served"
    }

    #[hook_handler("chat.receive.before_process", timeout_ms = 50)]
    async fn slow_hook(&self, _args: HookArgs) {
        sleep(Duration::from_secs(1)).await;
    }
}

// Circuit breaker: "One per dispatcher, keyed by plugin id, for all hooks (not tools)": once a
// plugin's breaker is open its handler is skipped, while its tools still run.
#[tokio::test(start_paused = true)]
async fn an_open_breaker_skips_a_plugins_handlers_but_not_its_tools() {
    let _serial = SERIAL.lock().await;
    let registry = ToolRegistry::default();
    let dispatcher = HookDispatcher::new();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["fp5.tripped"]))
        .registry(&registry)
        .dispatcher(&dispatcher)
        .build();
    assert!(host.load_all().await.is_clean());
    let kwargs = json!({"message": {}});
    for _ in 0..3 {
        let result = dispatcher.invoke_with("chat.receive.before_process", &kwargs).await.unwrap();
        assert_eq!(result.errors, ["HookHandler fp5.tripped.slow_hook timed out after 50 ms"]);
    }
    let skipped = dispatcher.invoke_with("chat.receive.before_process", &kwargs).await.unwrap();
    assert_eq!(skipped.skipped, ["fp5.tripped.slow_hook"]);
    assert_eq!(dispatcher.breaker_statuses()[0].plugin_id, "fp5.tripped");

    let call = registry.invoke(ToolInvocation::new("fp5_tripped_tool", "{}"), Some(&session("s"))).await;
    assert_eq!((call.success, call.content.as_str()), (true, "still served"), "{call:?}");
    host.shutdown().await;
}

/// A config type that refuses keys it does not declare.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(default, deny_unknown_fields)]
#[schemars(crate = "toolhook::schemars")]
pub struct Fp5StrictConfig {
    /// `fast` or `slow`.
    pub mode: String,
}

impl Default for Fp5StrictConfig {
    fn default() -> Self {
        Fp5StrictConfig { mode: "fast".into() }
    }
}

#[derive(Default)]
pub struct Fp5Strict;

/// Strictly configured.
#[plugin(id = "fp5.strict", config = Fp5StrictConfig)]
impl Fp5Strict {
    /// Answers.
    #[tool]
    async fn fp5_strict_tool(&self) -> &'static str {
        "strict"
    }
}

async fn load_strict(source: MemoryConfigSource) -> (PluginState, Option<String>, Option<Value>) {
    let registry = ToolRegistry::default();
    let host = PluginHost::builder()
        .plugins(PluginSet::collect().only(["fp5.strict"]))
        .registry(&registry)
        .dispatcher(&HookDispatcher::new())
        .config_source(source)
        .build();
    let report = host.load_all().await;
    let outcome = report.outcome("fp5.strict").unwrap().clone();
    let config = host.context("fp5.strict").map(|c| c.config_value());
    host.shutdown().await;
    (outcome.state, outcome.reason, config)
}

// Normalising: "5. Deserialise the non-`plugin` part into `C` (unknown keys ignored unless `C` denies
// them; failure ⇒ error *invalid* …), serialise back, re-attach `plugin`". The `plugin` section never
// reaches `C`, so a type that denies unknown keys loads a normal document and its defaults, and fails on
// a key it does not declare.
#[tokio::test]
async fn a_config_type_that_denies_unknown_keys_fails_only_on_a_key_it_does_not_declare() {
    let _serial = SERIAL.lock().await;
    let (state, reason, config) = load_strict(MemoryConfigSource::new()).await;
    assert_eq!((state, reason), (PluginState::Loaded, None));
    assert_eq!(config, Some(json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "mode": "fast"})));

    let stored = json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "mode": "slow"});
    let (state, reason, config) = load_strict(MemoryConfigSource::new().with("fp5.strict", stored.clone())).await;
    assert_eq!((state, reason), (PluginState::Loaded, None));
    assert_eq!(config, Some(stored));

    let unknown = json!({"plugin": {"config_version": "1.0.0", "enabled": true}, "mode": "slow", "zzz": 1});
    let (state, reason, _) = load_strict(MemoryConfigSource::new().with("fp5.strict", unknown)).await;
    assert_eq!(state, PluginState::Failed);
    let reason = reason.unwrap_or_default();
    assert!(reason.starts_with("invalid plugin config"), "{reason}");
    assert!(reason.contains("zzz"), "{reason}");
}
