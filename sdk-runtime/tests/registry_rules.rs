//! Registry rules the vector files leave unpinned: a Rename hash that avoids a name another tool
//! has, provider errors, timeouts and not-loaded plugins in zh-Hans, a tool's own timeout against
//! the registry default, more `tool_search` scoring queries, where the undiscovered-tool hint
//! goes, the built-in provider's own not-found text, and the locale override of
//! `get_llm_definitions_in`.

use serde_json::{Value, json};
use std::time::Duration;
use toolhook::{
    DeclaredTool, Dialect, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec, Visibility, tool,
};
use toolhook_runtime::{
    BuiltinToolProvider, DeferredTools, DuplicatePolicy, PluginState, PluginToolProvider, PluginToolsSpec,
    RegistryConfig, Source, ToolProvider, ToolRegistry,
};

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

/// A spec with a name and nothing else.
fn spec(name: &str) -> ToolSpec {
    ToolSpec::builder(name).build().unwrap()
}

fn registry(config: RegistryConfig, providers: impl IntoIterator<Item = Stub>) -> ToolRegistry {
    let registry = ToolRegistry::new(config);
    for provider in providers {
        registry.register_provider(provider);
    }
    registry
}

/// Calls `tool` with no arguments and no context.
async fn call(registry: &ToolRegistry, tool: &str) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new(tool, "{}"), None).await
}

// ---- Rename: a hashed name ------------------------------------------------------------------------------

#[tokio::test]
async fn a_renamed_duplicate_is_hashed_when_its_candidate_is_an_original_name() {
    // `mcp2`'s `query` would become `mcp_s1_query` (type `mcp` ≠ server `s1`, so the prefix is
    // `mcp_s1`), but that is an original name, wherever it is listed (`reserved`):
    // `mcp_s1_query` + `_` + the first 12 hex digits of SHA-256("mcp2:s1:query").
    const HASHED: &str = "mcp_s1_query_f718458844d0";
    let duplicate =
        || Stub::new("mcp2", "mcp", [ToolSpec::builder("query").metadata("server_name", "s1").build().unwrap()]);
    let orders = [
        // The bare tool is listed before the duplicate.
        (
            vec![Stub::new("a", "builtin", [spec("query"), spec("mcp_s1_query")]), duplicate()],
            ["query", "mcp_s1_query", HASHED],
            "a",
        ),
        // Listed after it, the bare name is reserved all the same.
        (
            vec![
                Stub::new("a", "builtin", [spec("query")]),
                duplicate(),
                Stub::new("c", "builtin", [spec("mcp_s1_query")]),
            ],
            ["query", HASHED, "mcp_s1_query"],
            "c",
        ),
    ];
    for (providers, expected, bare_owner) in orders {
        let registry = registry(RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename), providers);
        let names: Vec<String> = registry.list_tools(None).await.iter().map(|s| s.name().to_owned()).collect();
        assert_eq!(names, expected);
        let copy = registry.get_tool_spec(HASHED, None).await.unwrap();
        assert_eq!(copy.metadata()["registry_original_name"], "query");
        let renamed = call(&registry, HASHED).await;
        assert_eq!((renamed.tool_name.as_str(), renamed.content.as_str()), (HASHED, "mcp2 ran query"));
        assert_eq!(call(&registry, "mcp_s1_query").await.content, format!("{bare_owner} ran mcp_s1_query"));
    }
}

// ---- names no model API accepts ------------------------------------------------------------------

/// A tool listed under a valid name because its own is not one is called by either name; a tool
/// whose own name is the valid one keeps it, and a second tool of the same invalid name is
/// reached only under its registry name.
#[tokio::test]
async fn a_tool_listed_under_a_valid_name_answers_to_its_own_name_too() {
    for policy in [DuplicatePolicy::Skip, DuplicatePolicy::Rename] {
        let registry = registry(
            RegistryConfig::default().duplicate_policy(policy),
            [
                Stub::new("a", "builtin", [spec("web.search"), spec("web_search")]),
                Stub::new("b", "builtin", [spec("web.search")]),
            ],
        );
        let names: Vec<String> = registry.list_tools(None).await.iter().map(|s| s.name().to_owned()).collect();
        let valid = names[0].clone();
        assert!(valid.starts_with("web_search_"), "{policy:?}: {names:?}");
        let by_own_name = call(&registry, "web.search").await;
        assert_eq!(
            (by_own_name.tool_name.as_str(), by_own_name.content.as_str()),
            (valid.as_str(), "a ran web.search")
        );
        assert_eq!(call(&registry, &valid).await.content, "a ran web.search", "{policy:?}");
        assert_eq!(call(&registry, "web_search").await.content, "a ran web_search", "{policy:?}");
        assert!(registry.has_tool("web.search", None).await, "{policy:?}");
        assert_eq!(registry.get_tool_spec("web.search", None).await.map(|s| s.name().to_owned()), Some(valid));
        if let [_, _, second] = names.as_slice() {
            assert_eq!(call(&registry, second).await.content, "b ran web.search", "{policy:?}");
        } else {
            assert_eq!(names.len(), 2, "{policy:?}: b's duplicate is skipped");
        }
    }
}

// ---- provider errors ---------------------------------------------------------------------

#[tokio::test]
async fn a_provider_error_reads_in_the_registrys_locale() {
    let failing = || {
        Stub::answering("p", "test", [spec("boom"), spec("silent")], |call| async move {
            Err(match call.tool_name.as_str() {
                "boom" => ToolError::invalid_arguments("  bad input  "),
                _ => ToolError::transport(""),
            })
        })
    };
    let expected = [
        (Locale::En, "Tool boom failed: InvalidArguments: bad input", "Tool silent failed: Transport"),
        (Locale::ZhHans, "工具 boom 调用失败：InvalidArguments: bad input", "工具 silent 调用失败：Transport"),
    ];
    for (locale, boom, silent) in expected {
        let registry = registry(RegistryConfig::default().locale(locale), [failing()]);
        for (tool, text) in [("boom", boom), ("silent", silent)] {
            let result = call(&registry, tool).await;
            assert_eq!((result.success, result.tool_name.as_str()), (false, tool));
            assert_eq!(result.error_message, text);
        }
    }
}

// ---- timeouts ----------------------------------------------------------------------

/// How long the `slow` tool takes.
const SLOW: Duration = Duration::from_millis(300);

/// Calls a `slow` tool (with `timeout` in its spec) that answers after [`SLOW`]; also gives how
/// long the call took.
async fn call_slow(config: RegistryConfig, timeout: Option<Duration>) -> (ToolExecutionResult, Duration) {
    let mut slow = ToolSpec::builder("slow");
    if let Some(timeout) = timeout {
        slow = slow.timeout(timeout);
    }
    let provider = Stub::answering("p", "test", [slow.build().unwrap()], |call| async move {
        tokio::time::sleep(SLOW).await;
        Ok(ToolExecutionResult::success(call.tool_name, "done"))
    });
    let registry = registry(config, [provider]);
    let started = tokio::time::Instant::now();
    let result = call(&registry, "slow").await;
    (result, started.elapsed())
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[tokio::test(start_paused = true)]
async fn a_tools_own_timeout_beats_the_registry_default() {
    let cases = [
        // A longer timeout of the tool's own lets it finish; without one, the default holds.
        (Some(ms(100)), Some(ms(1000)), Ok(())),
        (Some(ms(100)), None, Err(100)),
        // A shorter timeout of the tool's own cuts it off before the default.
        (Some(ms(1000)), Some(ms(50)), Err(50)),
        // No default: only the tool's own timeout bounds it.
        (None, Some(ms(50)), Err(50)),
        (None, None, Ok(())),
    ];
    for (default, own, expected) in cases {
        let (result, took) = call_slow(RegistryConfig::default().default_timeout(default), own).await;
        let what = format!("default {default:?}, own {own:?}");
        match expected {
            Ok(()) => {
                assert!(result.success, "{what}: {result:?}");
                assert_eq!(took, SLOW, "{what}");
            }
            Err(limit) => {
                assert_eq!(
                    result.error_message,
                    format!("Tool slow failed: Timeout: no result within {limit} ms"),
                    "{what}"
                );
                assert_eq!(took, ms(limit), "{what}");
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_timeout_reads_in_zh_hans() {
    let config = RegistryConfig::default().locale(Locale::ZhHans).default_timeout(Some(ms(50)));
    let (result, _) = call_slow(config, None).await;
    assert_eq!(result.error_message, "工具 slow 调用失败：Timeout: 超过 50ms 未返回结果");
}

// ---- a plugin that is not loaded yet -----------------------------------------------------

/// Look something up.
#[tool]
fn lookup() -> &'static str {
    "found"
}

#[tokio::test]
async fn a_tool_of_a_plugin_still_loading_reads_in_zh_hans() {
    let plugin = PluginToolsSpec {
        id: "acme.tools".into(),
        source: Source::ThirdParty,
        state: PluginState::Loading,
        tools: DeclaredTool::all().iter().filter(|t| t.name() == "lookup").copied().collect(),
    };
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(PluginToolProvider::with_plugins(vec![plugin]).unwrap());
    assert!(registry.has_tool("lookup", None).await, "a loading plugin's tools are listed");
    let result = call(&registry, "lookup").await;
    assert_eq!(result.error_message, "工具 lookup 调用失败：PluginNotLoaded: 插件 acme.tools 未加载");
}

/// Report a failure the way a plugin's raw return value does.
#[tool]
fn raw_failure() -> Value {
    json!({"success": false})
}

#[tokio::test]
async fn a_plugin_tool_called_without_a_context_answers_in_the_registrys_locale() {
    for (locale, expected) in [(Locale::ZhHans, "插件工具执行失败"), (Locale::En, "Tool execution failed")] {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        registry.register_provider(PluginToolProvider::from_declared());
        let result = call(&registry, "raw_failure").await;
        assert_eq!((result.success, result.error_message.as_str()), (false, expected), "{locale:?}");
        // A context's locale is the registry's too, whatever the caller put in it.
        let other = if locale == Locale::En { Locale::ZhHans } else { Locale::En };
        let ctx = ToolExecutionContext { locale: other, ..ToolExecutionContext::for_session("s1") };
        let result = registry.invoke(ToolInvocation::new("raw_failure", "{}"), Some(&ctx)).await;
        assert_eq!(result.error_message, expected, "{locale:?} with a {other:?} context");
    }
}

// ---- tool_search scoring --------------------------------------------------------------------

/// A pool of deferred tools, behind `tool_search`.
fn deferred_pool() -> ToolRegistry {
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
    let registry = registry(RegistryConfig::default(), [Stub::new("pool", "plugin", pool)]);
    registry.register_provider(BuiltinToolProvider::new());
    registry
}

async fn tool_search(registry: &ToolRegistry, query: &str) -> ToolExecutionResult {
    let call = ToolInvocation::new("tool_search", json!({ "query": query }));
    registry.invoke(call, Some(&ToolExecutionContext::for_session("scoring"))).await
}

#[tokio::test]
async fn tool_search_scores_more_queries() {
    // With n and d the lower-cased name and description: 1000 if q == n, +300 if n starts with
    // q, +200 if n contains q, +100 if d contains q, then per term +25 if n contains it and +10
    // if d contains it. No name equals, starts with or contains any of these queries.
    let queries: [(&str, &[&str]); 3] = [
        // Terms `web`, `fetch` (`-` splits terms; q itself is in no name or description):
        // web_fetch    25 (web in n) + 25 (fetch in n) + 10 (fetch in "fetch a url") = 60
        // web_search   25 (web in n) + 10 (web in "search the web")                  = 35
        // image_gen    10 (web in "generate images for the web")                     = 10
        // search_memes, view_forward_message: 0 ("view_forward" has no `web`).
        ("web-fetch", &["web_fetch", "web_search", "image_gen"]),
        // One term, equal to q: only view_forward_message's description contains it,
        // 100 (d contains q) + 10 (d contains the term) = 110; every other tool 0.
        ("合并转发", &["view_forward_message"]),
        // Nothing contains `zzz`: every score is 0.
        ("zzz", &[]),
    ];
    let registry = deferred_pool();
    for (query, expected) in queries {
        let result = tool_search(&registry, query).await;
        assert!(result.success, "{query}: {result:?}");
        let structured = result.structured_content().cloned().unwrap();
        assert_eq!(structured["matched_tool_names"], json!(expected), "{query}");
        if expected.is_empty() {
            assert_eq!(
                result.content,
                "No matching deferred tools found. Try a more complete tool name, a prefix or other keywords."
            );
            assert_eq!(
                structured,
                json!({"query": query, "matched_tool_names": [], "newly_discovered_tool_names": []})
            );
            assert!(result.metadata.is_empty());
        }
    }
}

// ---- the hint for an undiscovered deferred tool -------------------------------------------

const HINT: &str = "Use tool_search to look up this tool's parameters, then try again.";

/// A failed call of the undiscovered deferred `web_fetch` whose provider answers with
/// `error_message` and `content`, as the host's deferred tools return it.
async fn undiscovered_failure(error_message: &str, content: &str) -> ToolExecutionResult {
    let web_fetch = ToolSpec::builder("web_fetch").visibility(Visibility::Deferred).build().unwrap();
    let answer = (error_message.to_owned(), content.to_owned());
    let provider = Stub::answering("pool", "plugin", [web_fetch], move |call| {
        let (error_message, content) = answer.clone();
        async move {
            let mut result = ToolExecutionResult::failure(call.tool_name, error_message);
            result.content = content;
            Ok(result)
        }
    });
    let registry = registry(RegistryConfig::default(), [provider]);
    let ctx = ToolExecutionContext::for_session("s1");
    DeferredTools::new().invoke(&registry, ToolInvocation::new("web_fetch", "{}"), &ctx).await
}

#[tokio::test]
async fn the_hint_goes_to_the_first_non_empty_text_once() {
    let with_hint = |text: &str| format!("{text}\n{HINT}");
    // (error_message, content) the provider answers ⇒ what the caller gets.
    let cases = [
        (("boom", "partial"), (with_hint("boom"), "partial".to_owned())),
        (("", "partial"), (String::new(), with_hint("partial"))),
        (("", ""), (HINT.to_owned(), String::new())),
        // A text that already carries the hint is left alone.
        ((&*with_hint("boom"), ""), (with_hint("boom"), String::new())),
        (("", &*with_hint("partial")), (String::new(), with_hint("partial"))),
        ((HINT, "partial"), (HINT.to_owned(), "partial".to_owned())),
    ];
    for ((error_message, content), expected) in cases {
        let result = undiscovered_failure(error_message, content).await;
        assert!(!result.success);
        assert_eq!((result.error_message, result.content), expected, "answered {error_message:?}, {content:?}");
    }
}

/// A registry with one deferred tool, `name`, whose every call fails with `boom`.
fn failing_deferred_tool(name: &str) -> ToolRegistry {
    let spec = ToolSpec::builder(name).visibility(Visibility::Deferred).build().unwrap();
    let provider = Stub::answering("pool", "plugin", [spec], |call| async move {
        Ok(ToolExecutionResult::failure(call.tool_name, "boom"))
    });
    registry(RegistryConfig::default(), [provider])
}

/// The session whose discoveries count is the context's, else the call's, as `tool_search`
/// reads it: a host that puts the session on the call alone gets no hint for a found tool.
#[tokio::test]
async fn the_hint_reads_the_calls_session_when_the_context_has_none() {
    let registry = failing_deferred_tool("web_fetch");
    let deferred = DeferredTools::new();
    let no_session = ToolExecutionContext::default();
    let call = || ToolInvocation::new("web_fetch", "{}").with_session_id("s1");
    let before = deferred.invoke(&registry, call(), &no_session).await;
    assert_eq!(before.error_message, format!("boom\n{HINT}"));
    deferred.discover("s1", ["web_fetch"]);
    assert_eq!(deferred.invoke(&registry, call(), &no_session).await.error_message, "boom");
    // The context's session, when it has one, is the one that counts.
    let other = ToolExecutionContext::for_session("s2");
    assert_eq!(deferred.invoke(&registry, call(), &other).await.error_message, format!("boom\n{HINT}"));
}

/// A tool listed under a valid name is discovered under that name; called by its own name, it
/// counts as discovered all the same.
#[tokio::test]
async fn the_hint_knows_a_tool_called_by_its_own_name() {
    let registry = failing_deferred_tool("web.search");
    let deferred = DeferredTools::new();
    let ctx = ToolExecutionContext::for_session("s1");
    let call = || ToolInvocation::new("web.search", "{}");
    assert_eq!(deferred.invoke(&registry, call(), &ctx).await.error_message, format!("boom\n{HINT}"));
    deferred.discover("s1", ["web_search"]);
    let found = deferred.invoke(&registry, call(), &ctx).await;
    assert_eq!((found.tool_name.as_str(), found.error_message.as_str()), ("web_search", "boom"));
}

// ---- the built-in provider's own not-found text -----------------------------------------------

#[tokio::test]
async fn the_builtin_provider_names_a_handler_it_does_not_have() {
    let en = "Builtin tool handler not found: nope";
    let zh = "未找到内置工具处理器：nope";
    let in_locale = |locale| ToolExecutionContext { locale, ..ToolExecutionContext::for_session("s1") };
    // The context's locale wins; without a context, the provider's own (default English).
    let cases = [
        (Locale::En, None, en),
        (Locale::ZhHans, None, zh),
        (Locale::En, Some(in_locale(Locale::ZhHans)), zh),
        (Locale::ZhHans, Some(in_locale(Locale::En)), en),
    ];
    for (own, ctx, expected) in cases {
        let provider = BuiltinToolProvider::new().locale(own);
        let result = provider.invoke(ToolInvocation::new("nope", "{}"), ctx.as_ref()).await.unwrap();
        assert_eq!((result.success, result.tool_name.as_str()), (false, "nope"));
        assert_eq!(result.error_message, expected, "provider {own:?}, context {:?}", ctx.map(|c| c.locale));
    }
}

// ---- get_llm_definitions_in ---------------------------------------------------------------------

/// `tool_search`'s neutral definition in a locale.
fn tool_search_definition(locale: Locale) -> Value {
    let (description, q, l) = match locale {
        Locale::En => (
            "Search the deferred tools by name or keyword and add the matching tools to the available tools for later rounds.",
            "Tool name, prefix or keyword to search for.",
            "Maximum number of tools to return.",
        ),
        Locale::ZhHans => (
            "在 deferred tools 列表中按名称或关键词搜索工具，并将命中的工具加入后续轮次的可用工具列表。",
            "要搜索的工具名、前缀或关键词。",
            "最多返回多少个工具。",
        ),
    };
    json!({"name": "tool_search", "description": description, "parameters_schema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": q},
            "limit": {"type": "integer", "description": l, "minimum": 1},
        },
        "required": ["query"],
    }})
}

#[tokio::test]
async fn definitions_can_be_rendered_in_another_locale() {
    let note = ToolSpec::builder("note")
        .brief_description("Take a note.")
        .brief_description_in(Locale::ZhHans, "记一条笔记。")
        .build()
        .unwrap();
    let ctx = ToolAvailabilityContext::default();
    for (own, other, note_in_other) in
        [(Locale::En, Locale::ZhHans, "记一条笔记。"), (Locale::ZhHans, Locale::En, "Take a note.")]
    {
        let registry = registry(RegistryConfig::default().locale(own), [Stub::new("notes", "test", [note.clone()])]);
        registry.register_provider(BuiltinToolProvider::new());
        let overridden = registry.get_llm_definitions_in(Some(&ctx), Dialect::Neutral, other).await;
        assert_eq!(overridden[0]["description"], note_in_other, "registry in {own:?}");
        assert_eq!(overridden[1], tool_search_definition(other), "registry in {own:?}");
        // Every dialect renders each listed copy in the override's locale ...
        let listed = registry.list_tools(Some(&ctx)).await;
        for dialect in Dialect::ALL {
            let expected: Vec<Value> = listed.iter().map(|s| s.llm_definition(dialect, other).unwrap()).collect();
            assert_eq!(registry.get_llm_definitions_in(Some(&ctx), dialect, other).await, expected, "{dialect}");
        }
        // ... for that call only.
        let own_definitions = registry.get_llm_definitions(Some(&ctx), Dialect::Neutral).await;
        assert_eq!(own_definitions[1], tool_search_definition(own), "registry in {own:?}");
        assert_eq!(registry.locale(), own);
    }
}
