//! A second, independent pass over the registry, deferred-tool and built-in rules, with expected
//! values worked out from the written rules alone: `tool_search` query normalisation (punctuation,
//! full-width letters, whitespace runs, CJK phrases), byte-order ties, limits, outputs with one or
//! many results in both locales, the reminder's briefs (renamed copies, fallback briefs), discovery
//! per session (`forget`, `resync`, the hint), duplicate names across three providers under Skip
//! and Rename, renamed copies' metadata and definitions, argument limits and failure texts in
//! zh-Hans, the history of mixed batches, and the built-in phase, chat-scope and config filters.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolhook::{
    Dialect, Locale, Phase, ToolAvailabilityContext, ToolContentItem, ToolError, ToolExecutionContext,
    ToolExecutionResult, ToolInvocation, ToolSpec, Visibility,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, ChatScopeFilter, DeferredTools, DuplicatePolicy, HistoryMessage, PhaseFilter,
    RegistryConfig, ToolRegistry, batch_history,
};

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

#[path = "common/deferred_pool.rs"]
#[allow(dead_code)]
mod deferred_pool;
use deferred_pool::{
    EMPTY_QUERY_EN, EMPTY_QUERY_ZH, HINT_EN, NO_MATCH_EN, NO_MATCH_ZH, deferred, deferred_registry, example_pool,
    example_registry, visible,
};

// ---- fixtures -------------------------------------------------------------------------------------

const HINT_ZH: &str = "请通过 tool_search 查看具体的工具参数后再重试。";
const INTRO_EN: &str = "The following tools are not exposed to you directly, but you can discover them with the tool_search tool and use them in later rounds:";
const CLOSING_EN: &str =
    "Call tool_search first if you need one of them. tool_search only discovers tools; it does not run them.";
const INTRO_ZH: &str = "以下工具当前未直接暴露给你，但可以通过 tool_search 工具发现并在后续轮次中使用：";
const CLOSING_ZH: &str = "如需其中某个工具，请先调用 tool_search。tool_search 只负责发现工具，不直接执行。";

/// A spec with metadata entries and the given visibility, no description.
fn spec_with(name: &str, visibility: Visibility, metadata: &[(&str, &str)]) -> ToolSpec {
    let mut builder = ToolSpec::builder(name).visibility(visibility);
    for (key, value) in metadata {
        builder = builder.metadata(*key, *value);
    }
    builder.build().unwrap()
}

fn session(id: &str) -> ToolExecutionContext {
    ToolExecutionContext::for_session(id)
}

async fn search(registry: &ToolRegistry, session_id: &str, arguments: Value) -> ToolExecutionResult {
    registry.invoke(ToolInvocation::new("tool_search", arguments), Some(&session(session_id))).await
}

fn matched(result: &ToolExecutionResult) -> Vec<String> {
    let structured = result.structured_content().cloned().unwrap_or_default();
    serde_json::from_value(structured["matched_tool_names"].clone()).unwrap_or_default()
}

fn newly(result: &ToolExecutionResult) -> Vec<String> {
    let structured = result.structured_content().cloned().unwrap_or_default();
    serde_json::from_value(structured["newly_discovered_tool_names"].clone()).unwrap_or_default()
}

fn names(specs: &[ToolSpec]) -> Vec<String> {
    specs.iter().map(|s| s.name().to_owned()).collect()
}

async fn listed(registry: &ToolRegistry, ctx: Option<&ToolAvailabilityContext>) -> Vec<String> {
    names(&registry.list_tools(ctx).await)
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn reminder(intro: &str, lines: &[&str], closing: &str) -> String {
    let mut all = vec!["<system-reminder>", intro];
    all.extend_from_slice(lines);
    all.extend(["", closing, "</system-reminder>"]);
    all.join("\n")
}

async fn ok_handler(call: ToolInvocation, _: Option<ToolExecutionContext>) -> Result<ToolExecutionResult, ToolError> {
    Ok(ToolExecutionResult::success(call.tool_name, "ran"))
}

fn builtin_entry(name: &str, visibility: Visibility) -> BuiltinTool {
    let spec = ToolSpec::builder(name).description(format!("The {name} tool")).visibility(visibility).build().unwrap();
    BuiltinTool::new(spec, ok_handler).visibility(visibility)
}

fn availability(f: impl FnOnce(&mut ToolAvailabilityContext)) -> ToolAvailabilityContext {
    let mut ctx = ToolAvailabilityContext::default();
    f(&mut ctx);
    ctx
}

fn rename() -> RegistryConfig {
    RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename)
}

// ---- tool_search: query normalisation -------------------------------------------------------------

/// "terms = q with _ and - replaced by spaces, split on whitespace": no other punctuation splits
/// a query, so `web.search`, `web/fetch` and `fetch,url` are one term each that no name or
/// description contains; `web-search` is two terms (web_search 25+25+10+10 = 70, search_memes 25,
/// web_fetch 25, image_gen 10).
#[tokio::test]
async fn only_underscore_and_hyphen_split_a_query_into_terms() {
    let (registry, discovery) = example_registry(Locale::En);
    for query in ["web.search", "web/fetch", "fetch,url"] {
        let result = search(&registry, "p1", json!({ "query": query })).await;
        assert_eq!((result.success, result.content.as_str()), (true, NO_MATCH_EN), "{query}");
        assert_eq!(
            result.structured_content().cloned(),
            Some(json!({"query": query, "matched_tool_names": [], "newly_discovered_tool_names": []})),
            "{query}"
        );
        assert!(result.metadata.is_empty(), "{query}");
    }
    assert!(discovery.discovered("p1").is_empty());
    let split = search(&registry, "p2", json!({"query": "web-search"})).await;
    assert_eq!(matched(&split), ["web_search", "search_memes", "web_fetch", "image_gen"]);
}

/// "q = the query lower-cased": lower-casing is the only folding, so full-width Latin letters
/// (`ＷＥＢ`, `ｗｅｂ`) do not match the ASCII `web`.
#[tokio::test]
async fn full_width_letters_are_not_folded_to_ascii() {
    let (registry, _) = example_registry(Locale::En);
    for query in ["ＷＥＢ", "ｗｅｂ"] {
        let result = search(&registry, "fw", json!({ "query": query })).await;
        assert_eq!((result.success, result.content.as_str()), (true, NO_MATCH_EN), "{query}");
        assert_eq!(result.structured_content().unwrap()["query"], query);
    }
}

/// "q = the query lower-cased with whitespace runs collapsed to one space and trimmed", then
/// "+100 if d contains q": `Web \t Page` is `web page`, which site_reader's description holds
/// (100 + 10 + 10 = 120) while page_web_links only has both terms in its name (25 + 25 = 50).
/// The structured query is the trimmed query as given.
#[tokio::test]
async fn whitespace_runs_collapse_before_the_phrase_is_looked_up() {
    let (registry, _) = deferred_registry(
        Locale::En,
        vec![deferred("page_web_links", "Links"), deferred("site_reader", "Reads the web page aloud")],
    );
    let result = search(&registry, "ws", json!({"query": "  Web \t Page \n"})).await;
    assert_eq!(matched(&result), ["site_reader", "page_web_links"]);
    assert_eq!(result.structured_content().unwrap()["query"], "Web \t Page");
}

/// "sort by score descending, then name ascending (byte order)": among equal scores (each 110,
/// the query `common` in every description) `T` < `-` < digits < `_` < lower-case letters go
/// by their bytes: Tool_b, tool-b, tool1, tool_b.
#[tokio::test]
async fn equal_scores_sort_by_the_bytes_of_the_names() {
    let specs = ["tool_b", "tool-b", "Tool_b", "tool1"].map(|n| deferred(n, "Common helper")).to_vec();
    let (registry, _) = deferred_registry(Locale::En, specs);
    let result = search(&registry, "ties", json!({"query": "common", "limit": 10})).await;
    assert_eq!(matched(&result), ["Tool_b", "tool-b", "tool1", "tool_b"]);
}

/// zh-Hans scoring and outputs: `转发 消息` is not in any description as a phrase, its terms are
/// (forward_view 10 + 10, the other two 10 each, tied by name); `合并转发消息` is a phrase of
/// forward_view's description only (100 + 10). The zh header has one form for every count; a
/// tool found again reads `（此前已发现）`.
#[tokio::test]
async fn chinese_phrases_and_terms_score_in_zh_hans_outputs() {
    let specs = vec![
        deferred("msg_send", "发送消息"),
        deferred("forward_view", "查看合并转发消息的内容"),
        deferred("msg_recall", "撤回一条消息"),
    ];
    let (registry, discovery) = deferred_registry(Locale::ZhHans, specs);
    let first = search(&registry, "z1", json!({"query": "转发 消息"})).await;
    assert_eq!(
        first.content,
        "已找到 3 个 deferred tools，它们会在后续轮次中加入可用工具列表：\n- forward_view（本次新发现）\n- msg_recall（本次新发现）\n- msg_send（本次新发现）"
    );
    assert_eq!(newly(&first), ["forward_view", "msg_recall", "msg_send"]);
    let again = search(&registry, "z1", json!({"query": "合并转发消息"})).await;
    assert_eq!(
        again.content,
        "已找到 1 个 deferred tools，它们会在后续轮次中加入可用工具列表：\n- forward_view（此前已发现）"
    );
    assert_eq!(
        serde_json::to_string(again.structured_content().unwrap()).unwrap(),
        r#"{"query":"合并转发消息","matched_tool_names":["forward_view"],"newly_discovered_tool_names":[]}"#
    );
    assert_eq!(sorted(discovery.discovered("z1").into_iter().collect()), ["forward_view", "msg_recall", "msg_send"]);
}

/// "limit: ... integer ⇒ itself; number with a fraction ⇒ truncated toward zero; string whose
/// trimmed text parses as a (signed) integer ⇒ that; anything else ⇒ 5. Then max(1, limit)".
/// `e` matches all five example tools: image_gen, search_memes, web_fetch, web_search (335 each,
/// by name), view_forward_message (225).
#[tokio::test]
async fn limits_given_as_whole_floats_signed_strings_or_other_values() {
    let (registry, _) = example_registry(Locale::En);
    let all = ["image_gen", "search_memes", "web_fetch", "web_search", "view_forward_message"];
    let cases = [
        (json!(2.0), 2),
        (json!(1.99), 1),
        (json!(" +1 "), 1),
        (json!("-0"), 1),
        (json!("3\n"), 3),
        (json!("1e1"), 5),
        (json!("0x3"), 5),
        (json!({"n": 1}), 5),
        (json!(false), 5),
        (json!("  "), 5),
    ];
    for (i, (limit, count)) in cases.into_iter().enumerate() {
        let result = search(&registry, &format!("lim{i}"), json!({"query": "e", "limit": limit})).await;
        assert_eq!(matched(&result), all[..count], "limit {limit}");
    }
}

/// The description searched is the tool's brief ("n and d its lower-cased name and
/// description"), not its detailed text; the reminder line shows the brief too.
#[tokio::test]
async fn the_detailed_text_is_neither_searched_nor_reminded() {
    let helper = ToolSpec::builder("helper")
        .brief_description("Short help")
        .detailed_description("Long explanation here")
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let (registry, discovery) = deferred_registry(Locale::En, vec![helper]);
    assert_eq!(search(&registry, "d1", json!({"query": "explanation"})).await.content, NO_MATCH_EN);
    let round = discovery.prepare_round(&registry, &session("d1")).await;
    assert_eq!(round.reminder(), Some(reminder(INTRO_EN, &["1. helper: Short help"], CLOSING_EN).as_str()));
    assert_eq!(matched(&search(&registry, "d1", json!({"query": "short"})).await), ["helper"]);
}

// ---- tool_search: outputs ------------------------------------------------------------------------

/// En header for n > 1, "lines - {name} (newly discovered) / - {name} (discovered earlier)",
/// "Newly discovered = matches not yet in the set, in match order": a tool discovered before
/// sits between two new ones.
#[tokio::test]
async fn an_english_result_mixes_new_and_earlier_lines_in_match_order() {
    let (registry, discovery) = example_registry(Locale::En);
    discovery.discover("m1", ["web_fetch"]);
    let result = search(&registry, "m1", json!({"query": "web"})).await;
    let content = "Found 3 deferred tools; they will be added to the available tools in later rounds:\n- web_search (newly discovered)\n- web_fetch (discovered earlier)\n- image_gen (newly discovered)";
    assert_eq!((result.success, result.content.as_str()), (true, content));
    assert_eq!(newly(&result), ["web_search", "image_gen"]);
    let metadata = serde_json::to_value(&result.metadata).unwrap();
    assert_eq!(metadata["monitor_detail"]["content"], content);
    assert_eq!(metadata["newly_discovered_tool_names"], json!(["web_search", "image_gen"]));
    assert_eq!(metadata["matched_tool_names"], json!(["web_search", "web_fetch", "image_gen"]));
}

/// Empty query ⇒ a failure result ("the given tool_name and error_message, success = false, all
/// else default") in the registry's locale; nothing is discovered. `tool_search` is Visible, so
/// a call through the deferred layer gets no hint.
#[tokio::test]
async fn an_empty_query_is_a_bare_failure_that_discovers_nothing() {
    for (locale, text) in [(Locale::En, EMPTY_QUERY_EN), (Locale::ZhHans, EMPTY_QUERY_ZH)] {
        let (registry, discovery) = example_registry(locale);
        for arguments in
            [json!({"query": ""}), json!({"query": " \t "}), json!({}), json!({"query": 7}), json!({"query": null})]
        {
            let result = search(&registry, "e1", arguments.clone()).await;
            assert_eq!((result.tool_name.as_str(), result.success), ("tool_search", false), "{arguments}");
            assert_eq!(result.error_message, text, "{arguments}");
            assert_eq!(result.content, "", "{arguments}");
            assert_eq!(result.structured_content(), None, "{arguments}");
            assert!(result.metadata.is_empty(), "{arguments}");
            assert!(!result.stop_after_execution);
            let through =
                discovery.invoke(&registry, ToolInvocation::new("tool_search", arguments), &session("e1")).await;
            assert_eq!((through.success, through.error_message.as_str()), (false, text));
        }
        assert!(discovery.discovered("e1").is_empty());
    }
}

/// "Texts it produces follow the context's locale" and the registry sets "the context's locale
/// to" its own before calling a provider: `tool_search` answers in the registry's locale, not the
/// built-in provider's own setting nor the caller's.
#[tokio::test]
async fn tool_search_answers_in_the_registrys_locale_whatever_provider_and_caller_say() {
    for (registry_locale, other, no_match, found) in [
        (
            Locale::En,
            Locale::ZhHans,
            NO_MATCH_EN,
            "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_fetch (newly discovered)",
        ),
        (
            Locale::ZhHans,
            Locale::En,
            NO_MATCH_ZH,
            "已找到 1 个 deferred tools，它们会在后续轮次中加入可用工具列表：\n- web_fetch（本次新发现）",
        ),
    ] {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(registry_locale));
        registry.register_provider(BuiltinToolProvider::new().locale(other));
        registry.register_provider(Stub::new("pool", "plugin", example_pool()));
        let ctx = ToolExecutionContext { locale: other, ..session("loc") };
        let none = registry.invoke(ToolInvocation::new("tool_search", json!({"query": "zzz"})), Some(&ctx)).await;
        assert_eq!(none.content, no_match, "{registry_locale:?}");
        let one = registry.invoke(ToolInvocation::new("tool_search", json!({"query": "fetch url"})), Some(&ctx)).await;
        assert_eq!(one.content, found, "{registry_locale:?}");
    }
}

// ---- reminder and renamed copies ---------------------------------------------------------------

/// "A renamed copy's texts are not re-rendered: a fallback brief keeps the original name": the
/// reminder shows `Tool search` / `工具 search` for both copies, and `tool search` scores both the
/// same (100 + 10 + 25 + 10 = 145), so they sort by name.
#[tokio::test]
async fn a_renamed_copy_keeps_its_original_fallback_brief_in_reminder_and_search() {
    for (locale, brief, query) in
        [(Locale::En, "Tool search", "tool search"), (Locale::ZhHans, "工具 search", "工具 search")]
    {
        let builtin = BuiltinToolProvider::new();
        let discovery = builtin.deferred().clone();
        let registry = ToolRegistry::new(rename().locale(locale));
        registry.register_provider(builtin);
        registry.register_provider(Stub::new("a", "builtin", [spec_with("search", Visibility::Deferred, &[])]));
        registry.register_provider(Stub::new(
            "p",
            "plugin",
            [spec_with("search", Visibility::Deferred, &[("plugin_id", "acme")])],
        ));
        assert_eq!(listed(&registry, None).await, ["tool_search", "search", "plugin_acme_search"]);
        let copy = registry.get_tool_spec("plugin_acme_search", None).await.unwrap();
        assert_eq!(copy.description(locale), brief);

        let round = discovery.prepare_round(&registry, &session("r1")).await;
        let (intro, closing) = if locale == Locale::En { (INTRO_EN, CLOSING_EN) } else { (INTRO_ZH, CLOSING_ZH) };
        let line1 = format!("1. search: {brief}");
        let line2 = format!("2. plugin_acme_search: {brief}");
        assert_eq!(round.reminder(), Some(reminder(intro, &[&line1, &line2], closing).as_str()), "{locale:?}");

        let result = search(&registry, "r1", json!({ "query": query })).await;
        assert_eq!(matched(&result), ["plugin_acme_search", "search"], "{locale:?}");
    }
}

/// A renamed deferred copy is pooled, found and advertised under its registry name ("invoke
/// receives the provider's original name"); a failed call of it is hinted until the session
/// found it; names are compared exactly, so `Search` resolves to nothing and gets no hint.
#[tokio::test]
async fn a_renamed_deferred_copy_is_hinted_until_its_session_finds_it() {
    let builtin = BuiltinToolProvider::new();
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::new(rename());
    registry.register_provider(builtin);
    registry.register_provider(Stub::new("a", "builtin", [deferred("search", "Search A")]));
    let failing = ToolSpec::builder("search")
        .description("Search B")
        .metadata("plugin_id", "acme")
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    registry.register_provider(Stub::answering("p", "plugin", [failing], |call| async move {
        assert_eq!(call.tool_name, "search");
        Err(ToolError::transport("down"))
    }));
    let call = || ToolInvocation::new("plugin_acme_search", "{}");
    let failed = "Tool plugin_acme_search failed: Transport: down";

    let before = discovery.invoke(&registry, call(), &session("s1")).await;
    assert_eq!(before.error_message, format!("{failed}\n{HINT_EN}"));
    let found = search(&registry, "s1", json!({"query": "acme"})).await;
    assert_eq!(matched(&found), ["plugin_acme_search"]);
    let after = discovery.invoke(&registry, call(), &session("s1")).await;
    assert_eq!((after.tool_name.as_str(), after.error_message.as_str()), ("plugin_acme_search", failed));
    let elsewhere = discovery.invoke(&registry, call(), &session("s2")).await;
    assert_eq!(elsewhere.error_message, format!("{failed}\n{HINT_EN}"));

    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.pool()), ["search", "plugin_acme_search"]);
    assert_eq!(names(round.advertised()), ["tool_search", "plugin_acme_search"]);
    let defined: Vec<Value> = round.definitions(Dialect::Neutral).iter().map(|d| d["name"].clone()).collect();
    assert_eq!(defined, [json!("tool_search"), json!("plugin_acme_search")]);
    assert_eq!(round.reminder(), Some(reminder(INTRO_EN, &["1. search: Search A"], CLOSING_EN).as_str()));

    let wrong_case = discovery.invoke(&registry, ToolInvocation::new("Search", "{}"), &session("s1")).await;
    assert_eq!(wrong_case.error_message, "Tool not found: Search");
}

// ---- discovery per session -----------------------------------------------------------------------

/// "It persists until forget(session)": forgetting one session brings back its full reminder and
/// makes its next search "newly discovered" again, while another session keeps its discoveries.
#[tokio::test]
async fn forgetting_one_session_leaves_another_sessions_discoveries() {
    let (registry, discovery) = example_registry(Locale::En);
    for id in ["s1", "s2"] {
        assert_eq!(
            matched(&search(&registry, id, json!({"query": "web"})).await),
            ["web_search", "web_fetch", "image_gen"]
        );
    }
    discovery.forget("s1");
    assert!(discovery.discovered("s1").is_empty());
    let s1 = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(s1.advertised()), ["tool_search", "reply"]);
    let all = [
        "1. web_search: Search the web",
        "2. web_fetch: Fetch a URL",
        "3. image_gen: Generate images for the web",
        "4. search_memes: Find memes",
        "5. view_forward_message: 查看合并转发消息的内容",
    ];
    assert_eq!(s1.reminder(), Some(reminder(INTRO_EN, &all, CLOSING_EN).as_str()));
    let s2 = discovery.prepare_round(&registry, &session("s2")).await;
    assert_eq!(names(s2.advertised()), ["tool_search", "reply", "web_search", "web_fetch", "image_gen"]);
    let again = search(&registry, "s1", json!({"query": "fetch url"})).await;
    assert_eq!(
        again.content,
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_fetch (newly discovered)"
    );
}

/// resync: discovered "becomes the names in the successful ones (structured_content.
/// matched_tool_names, else content lines ...)": when the structured names are there, the
/// content lines are not read.
#[tokio::test]
async fn resync_reads_the_structured_names_before_the_content_lines() {
    let (registry, discovery) = example_registry(Locale::En);
    discovery.discover("s1", ["web_search", "search_memes"]);
    let result = ToolExecutionResult::success(
        "tool_search",
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- image_gen (newly discovered)",
    )
    .with_structured_content(json!({"query": "x", "matched_tool_names": ["web_fetch"], "newly_discovered_tool_names": []}));
    discovery.resync("s1", &[result]);
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "web_fetch"]);
}

/// resync reads "structured_content.matched_tool_names, else content lines `- {name}（` /
/// `- {name} (`": with no names in the structured content, the lines of both locales count, and
/// names outside the pool do not.
#[tokio::test]
async fn resync_reads_content_lines_of_both_locales_without_structured_names() {
    let (registry, discovery) = example_registry(Locale::En);
    discovery.discover("s1", ["web_search"]);
    let content = "Found 3 deferred tools; they will be added to the available tools in later rounds:\n- image_gen (discovered earlier)\n- gone_tool (newly discovered)\n- search_memes（本次新发现）";
    let result = ToolExecutionResult::success("tool_search", content).with_structured_content(json!({"query": "x"}));
    discovery.resync("s1", &[result]);
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "image_gen", "search_memes"]);
}

/// The hint goes by the session that ran `tool_search`: "If the name resolves ... to a Deferred
/// tool not discovered in the session and the result has success = false".
#[tokio::test]
async fn the_hint_follows_the_session_that_ran_tool_search() {
    let builtin = BuiltinToolProvider::new();
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    registry.register_provider(Stub::answering("pool", "plugin", example_pool(), |call| async move {
        Ok(ToolExecutionResult::failure(call.tool_name, "boom"))
    }));
    assert_eq!(matched(&search(&registry, "s1", json!({"query": "fetch url"})).await), ["web_fetch"]);
    let call = || ToolInvocation::new("web_fetch", "{}");
    assert_eq!(discovery.invoke(&registry, call(), &session("s1")).await.error_message, "boom");
    assert_eq!(discovery.invoke(&registry, call(), &session("s2")).await.error_message, format!("boom\n{HINT_EN}"));
    // web_search was not matched in s1.
    let other = discovery.invoke(&registry, ToolInvocation::new("web_search", "{}"), &session("s1")).await;
    assert_eq!(other.error_message, format!("boom\n{HINT_EN}"));
}

/// A timeout is a failure result like any other: in zh-Hans its text is followed by `\n` and the
/// zh hint for an undiscovered deferred tool.
#[tokio::test(start_paused = true)]
async fn a_timed_out_undiscovered_tool_gets_the_zh_hint_after_the_timeout_text() {
    let slow =
        ToolSpec::builder("slow").timeout(Duration::from_millis(50)).visibility(Visibility::Deferred).build().unwrap();
    let provider = Stub::answering("pool", "plugin", [slow], |call| async move {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Ok(ToolExecutionResult::success(call.tool_name, "late"))
    });
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(provider);
    let result = DeferredTools::new().invoke(&registry, ToolInvocation::new("slow", "{}"), &session("s1")).await;
    assert!(!result.success);
    assert_eq!(result.error_message, format!("工具 slow 调用失败：Timeout: 超过 50ms 未返回结果\n{HINT_ZH}"));
    assert_eq!(result.content, "");
}

/// "Kept per session id (`""` is a valid key)" and the session is "the context's session_id, else
/// the invocation's": with neither set, the hint reads the `""` session's discoveries.
#[tokio::test]
async fn the_empty_session_is_a_session_of_its_own_for_the_hint() {
    let provider = Stub::answering("pool", "plugin", example_pool(), |call| async move {
        Ok(ToolExecutionResult::failure(call.tool_name, "boom"))
    });
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let discovery = DeferredTools::new();
    discovery.discover("", ["web_fetch"]);
    let no_session = ToolExecutionContext::default();
    let plain = discovery.invoke(&registry, ToolInvocation::new("web_fetch", "{}"), &no_session).await;
    assert_eq!(plain.error_message, "boom");
    let on_call = ToolInvocation::new("web_fetch", "{}").with_session_id("s1");
    let hinted = discovery.invoke(&registry, on_call, &no_session).await;
    assert_eq!(hinted.error_message, format!("boom\n{HINT_EN}"));
    let other = discovery.invoke(&registry, ToolInvocation::new("web_search", "{}"), &no_session).await;
    assert_eq!(other.error_message, format!("boom\n{HINT_EN}"));
}

/// "Hidden tools are never listed nor invocable": a hidden tool does not resolve, so its call is
/// a plain not-found failure without the hint, in either locale.
#[tokio::test]
async fn a_hidden_tool_resolves_to_nothing_and_gets_no_hint() {
    for (locale, text) in [(Locale::En, "Tool not found: secret"), (Locale::ZhHans, "未找到工具：secret")] {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        let secret = ToolSpec::builder("secret").description("Secret").visibility(Visibility::Hidden).build().unwrap();
        registry.register_provider(Stub::new("pool", "plugin", [secret, deferred("web_fetch", "Fetch a URL")]));
        let result = DeferredTools::new().invoke(&registry, ToolInvocation::new("secret", "{}"), &session("s1")).await;
        assert_eq!((result.success, result.error_message.as_str(), result.content.as_str()), (false, text, ""));
    }
}

/// "The call goes to registry.invoke unchanged" and "Successful results ... are untouched": the
/// provider sees the call's arguments, call id and metadata under the original name.
#[tokio::test]
async fn the_deferred_layer_passes_the_call_through_unchanged() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let provider = Stub::answering("pool", "plugin", [deferred("web_fetch", "Fetch a URL")], move |call| {
        record.lock().unwrap().push(call.clone());
        async move {
            let mut result = ToolExecutionResult::success(call.tool_name, "  fetched  ");
            result.metadata.insert("m".into(), json!(1));
            Ok(result)
        }
    });
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let call = ToolInvocation::new("web_fetch", json!({"q": 1})).with_call_id("call_9").with_metadata("trace", "t");
    let result = DeferredTools::new().invoke(&registry, call, &session("s1")).await;
    assert_eq!((result.success, result.content.as_str(), result.error_message.as_str()), (true, "  fetched  ", ""));
    assert_eq!(result.metadata.get("m"), Some(&json!(1)));
    let calls = seen.lock().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].tool_name.as_str(), calls[0].call_id()), ("web_fetch", "call_9"));
    assert_eq!(calls[0].arguments.to_value().unwrap(), json!({"q": 1}));
    assert_eq!(calls[0].metadata().get("trace"), Some(&json!("t")));
}

// ---- duplicate names -----------------------------------------------------------------------------

/// Skip: "The first entry with a given original name keeps it. ... Every later entry with an
/// already used name is dropped", whatever its visibility: a deferred first copy is pooled and a
/// visible later one is not advertised.
#[tokio::test]
async fn under_skip_a_deferred_first_copy_keeps_the_name_from_a_visible_later_one() {
    let builtin = BuiltinToolProvider::new();
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    registry.register_provider(Stub::new("a", "plugin", [deferred("t", "A t")]));
    registry.register_provider(Stub::new("b", "plugin", [visible("t", "B t")]));
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search"]);
    assert_eq!(names(round.pool()), ["t"]);
    assert_eq!(round.reminder(), Some(reminder(INTRO_EN, &["1. t: A t"], CLOSING_EN).as_str()));
    assert_eq!(registry.invoke(ToolInvocation::new("t", "{}"), None).await.content, "a ran t");
}

/// Skip the other way round: a visible first copy keeps the name, so the deferred later copy is
/// neither pooled nor found, and a failed call of `t` (the visible one) gets no hint.
#[tokio::test]
async fn under_skip_a_dropped_deferred_copy_is_not_searched_or_hinted() {
    let builtin = BuiltinToolProvider::new();
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    registry.register_provider(Stub::answering("a", "plugin", [visible("t", "Visible t")], |call| async move {
        Ok(ToolExecutionResult::failure(call.tool_name, "boom"))
    }));
    registry.register_provider(Stub::new("b", "plugin", [deferred("t", "Deferred helper")]));
    let found = search(&registry, "s1", json!({"query": "deferred helper"})).await;
    assert_eq!((found.success, found.content.as_str()), (true, NO_MATCH_EN));
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert!(round.pool().is_empty());
    assert_eq!(round.reminder(), None);
    let result = discovery.invoke(&registry, ToolInvocation::new("t", "{}"), &session("s1")).await;
    assert_eq!(result.error_message, "boom");
}

/// "register_provider(p) removes any provider with the same provider_name, then appends p" and
/// Skip keeps the first copy: across three providers the name passes down registration order.
#[tokio::test]
async fn skip_hands_a_name_down_three_providers_in_registration_order() {
    let registry = ToolRegistry::default();
    for name in ["a", "b", "c"] {
        registry.register_provider(Stub::new(name, "plugin", [visible("t", name)]));
    }
    let owner = || async { registry.invoke(ToolInvocation::new("t", "{}"), None).await.content };
    assert_eq!(owner().await, "a ran t");
    assert!(registry.unregister_provider("a"));
    assert_eq!(owner().await, "b ran t");
    registry.register_provider(Stub::new("a", "plugin", [visible("t", "a")]));
    assert_eq!(registry.provider_names(), ["b", "c", "a"]);
    assert_eq!(owner().await, "b ran t");
    assert!(registry.unregister_provider("b"));
    assert_eq!(owner().await, "c ran t");
    assert!(registry.unregister_provider("c"));
    assert_eq!(owner().await, "a ran t");
    assert_eq!(listed(&registry, None).await, ["t"]);
}

/// Rename step 4: a candidate "already a registry name" is replaced by "first 51 characters + _ +
/// the first 12 lowercase hex digits of SHA-256("{provider_name}:{source}:{name}")": three MCP
/// providers with server `s` give x, mcp_s_x and mcp_s_x + `_` + sha256("m3:s:x")[..12].
#[tokio::test]
async fn rename_hashes_a_third_servers_copy_with_its_own_provider_name() {
    const HASHED: &str = "mcp_s_x_d5ce6c6a2d29";
    let registry = ToolRegistry::new(rename());
    for name in ["m1", "m2", "m3"] {
        registry.register_provider(Stub::new(
            name,
            "mcp",
            [spec_with("x", Visibility::Visible, &[("server_name", "s")])],
        ));
    }
    assert_eq!(listed(&registry, None).await, ["x", "mcp_s_x", HASHED]);
    let copy = registry.get_tool_spec(HASHED, None).await.unwrap();
    assert_eq!((copy.provider_name(), copy.provider_type()), ("m3", "mcp"));
    assert_eq!(copy.metadata()["registry_original_name"], "x");
    assert_eq!(copy.metadata()["server_name"], "s");
    for (name, content) in [("x", "m1 ran x"), ("mcp_s_x", "m2 ran x"), (HASHED, "m3 ran x")] {
        let result = registry.invoke(ToolInvocation::new(name, "{}"), None).await;
        assert_eq!((result.tool_name.as_str(), result.content.as_str()), (name, content));
    }
}

/// Rename step 4 hashes "If the candidate is longer than 64 characters": a 64-character
/// candidate (`mcp_s_` + 58 letters) is kept, a 65-character one becomes its first 51 characters
/// + `_` + the first 12 hex digits of SHA-256("m2:s:" + the 59 letters).
#[tokio::test]
async fn a_sixty_four_character_candidate_is_kept_and_a_longer_one_hashed() {
    let fits = "a".repeat(58);
    let long = "a".repeat(59);
    let registry = ToolRegistry::new(rename());
    registry.register_provider(Stub::new("m1", "builtin", [visible(&fits, "F"), visible(&long, "L")]));
    registry.register_provider(Stub::new(
        "m2",
        "mcp",
        [
            spec_with(&fits, Visibility::Visible, &[("server_name", "s")]),
            spec_with(&long, Visibility::Visible, &[("server_name", "s")]),
        ],
    ));
    let kept = format!("mcp_s_{fits}");
    assert_eq!(kept.len(), 64);
    let hashed = format!("mcp_s_{}_a442f0759ccf", "a".repeat(45));
    assert_eq!(listed(&registry, None).await, [fits.clone(), long.clone(), kept.clone(), hashed.clone()]);
    for name in [&kept, &hashed] {
        let result = registry.invoke(ToolInvocation::new(name.as_str(), "{}"), None).await;
        assert!(result.content.starts_with("m2 ran a"), "{name}: {result:?}");
    }
}

/// Rename: "reserved = the set of all original names among the entries of step 2", and step 2
/// drops "specs with enabled = false, Hidden specs": a hidden and a disabled `mcp_s_q` reserve
/// nothing, so the duplicate `q` gets `mcp_s_q` unhashed.
#[tokio::test]
async fn rename_reserves_only_the_names_of_listed_entries() {
    let registry = ToolRegistry::new(rename());
    registry.register_provider(Stub::new("a", "builtin", [visible("q", "Q")]));
    registry.register_provider(Stub::new("m", "mcp", [spec_with("q", Visibility::Visible, &[("server_name", "s")])]));
    registry.register_provider(Stub::new("c", "plugin", [spec_with("mcp_s_q", Visibility::Hidden, &[])]));
    let disabled = ToolSpec::builder("mcp_s_q").visibility(Visibility::Visible).enabled(false).build().unwrap();
    registry.register_provider(Stub::new("d", "plugin", [disabled]));
    assert_eq!(listed(&registry, None).await, ["q", "mcp_s_q"]);
    let result = registry.invoke(ToolInvocation::new("mcp_s_q", "{}"), None).await;
    assert_eq!(result.content, "m ran q");
}

/// Renamed copies keep their place: "Assign registry names in this global order" and
/// "list_tools: the listed copies in route order"; without metadata the source is the
/// provider's name (`plugin_pb_t`). Under Skip the same providers list t, a1, b1.
#[tokio::test]
async fn renamed_copies_keep_their_place_in_route_order() {
    for (config, expected) in [
        (rename(), vec!["t", "a1", "plugin_pb_t", "b1", "plugin_pc_t"]),
        (RegistryConfig::default(), vec!["t", "a1", "b1"]),
    ] {
        let registry = ToolRegistry::new(config);
        registry.register_provider(Stub::new("pa", "plugin", [visible("t", "A"), visible("a1", "A1")]));
        registry.register_provider(Stub::new("pb", "plugin", [visible("t", "B")]));
        registry.register_provider(Stub::new("pc", "plugin", [visible("b1", "B1"), visible("t", "C")]));
        assert_eq!(listed(&registry, None).await, expected);
        let chat = registry.get_llm_definitions(None, Dialect::OpenAiChat).await;
        let defined: Vec<&str> = chat.iter().map(|d| d["function"]["name"].as_str().unwrap()).collect();
        assert_eq!(defined, expected);
    }
}

/// A renamed listed copy: "name = registry name, metadata.registry_original_name = original name,
/// provider_name/provider_type = the provider's"; its other metadata stays, its definitions use
/// the registry name in every dialect, and lookups go "by registry name" (exactly).
#[tokio::test]
async fn a_renamed_copy_is_defined_and_looked_up_under_its_registry_name() {
    let registry = ToolRegistry::new(rename());
    registry.register_provider(Stub::new("a", "builtin", [visible("search", "Search A")]));
    let b = ToolSpec::builder("search")
        .description("Search B")
        .metadata("plugin_id", "acme.web")
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    registry.register_provider(Stub::new("p", "plugin", [b]));
    const RENAMED: &str = "plugin_acme_web_search";
    let copy = registry.get_tool_spec(RENAMED, None).await.unwrap();
    assert_eq!((copy.name(), copy.provider_name(), copy.provider_type()), (RENAMED, "p", "plugin"));
    assert_eq!(copy.metadata()["plugin_id"], "acme.web");
    assert_eq!(copy.metadata()["registry_original_name"], "search");
    assert_eq!(copy.description(Locale::En), "Search B");
    assert_eq!(registry.get_tool_spec("search", None).await.unwrap().provider_name(), "a");
    assert!(registry.get_tool_spec("Plugin_acme_web_search", None).await.is_none());
    assert!(!registry.has_tool("acme.web", None).await);

    let neutral = registry.get_llm_definitions(None, Dialect::Neutral).await;
    assert_eq!((neutral[1]["name"].as_str(), neutral[1]["description"].as_str()), (Some(RENAMED), Some("Search B")));
    let chat = registry.get_llm_definitions(None, Dialect::OpenAiChat).await;
    assert_eq!(chat[1]["function"]["name"], RENAMED);
    let anthropic = registry.get_llm_definitions(None, Dialect::Anthropic).await;
    assert_eq!(anthropic[1]["name"], RENAMED);
    let zh = registry.get_llm_definitions_in(None, Dialect::Neutral, Locale::ZhHans).await;
    assert_eq!(zh[1]["name"], RENAMED);
}

/// Under Skip the first registered copy of `tool_search` keeps the name, even a plugin's; under
/// Rename the built-in one becomes `builtin_toolhook_builtin_tool_search` (source = the
/// provider's name, type `builtin`) and still searches.
#[tokio::test]
async fn a_tool_search_registered_before_the_builtin_one_keeps_the_name() {
    let skip = ToolRegistry::default();
    skip.register_provider(Stub::new("p", "plugin", [visible("tool_search", "Their search")]));
    skip.register_provider(BuiltinToolProvider::new());
    let copies = skip.list_tools(None).await;
    assert_eq!(names(&copies), ["tool_search"]);
    assert_eq!(copies[0].provider_name(), "p");
    assert_eq!(search(&skip, "s", json!({"query": "x"})).await.content, "p ran tool_search");

    let renamed = ToolRegistry::new(rename());
    renamed.register_provider(Stub::new("p", "plugin", [visible("tool_search", "Their search")]));
    renamed.register_provider(BuiltinToolProvider::new());
    renamed.register_provider(Stub::new("pool", "plugin", example_pool()));
    let all = listed(&renamed, None).await;
    assert_eq!(all[..2], ["tool_search", "builtin_toolhook_builtin_tool_search"]);
    let call = ToolInvocation::new("builtin_toolhook_builtin_tool_search", json!({"query": "fetch url"}));
    let result = renamed.invoke(call, Some(&session("s"))).await;
    assert_eq!(result.tool_name, "builtin_toolhook_builtin_tool_search");
    assert_eq!(matched(&result), ["web_fetch"]);
}

// ---- invoke: argument limits and texts ------------------------------------------------------------

/// "size is the byte length of the arguments text": `{"a":"xx"}` is 10 bytes and passes a
/// 10-byte limit; `{"a":"éé"}` is 10 characters but 12 bytes and fails, in both locales, with
/// the "too large" detail wrapped as an InvalidArguments failure.
#[tokio::test]
async fn the_argument_size_limit_counts_bytes_not_characters() {
    for (locale, text) in [
        (Locale::En, "Tool t failed: InvalidArguments: arguments are larger than 10 bytes"),
        (Locale::ZhHans, "工具 t 调用失败：InvalidArguments: 参数超过 10 字节"),
    ] {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale).max_argument_bytes(10));
        registry.register_provider(Stub::new("p", "plugin", [visible("t", "T")]));
        let fits = registry.invoke(ToolInvocation::new("t", r#"{"a":"xx"}"#), None).await;
        assert_eq!((fits.success, fits.content.as_str()), (true, "p ran t"), "{locale:?}");
        let over = registry.invoke(ToolInvocation::new("t", r#"{"a":"éé"}"#), None).await;
        assert_eq!((over.success, over.error_message.as_str()), (false, text), "{locale:?}");
        assert_eq!(over.tool_name, "t");
    }
}

/// "a Value counts as its compact JSON": `{"a":"xx"}` built as a value is 10 bytes, one more
/// character is 11.
#[tokio::test]
async fn a_value_argument_is_measured_as_its_compact_json() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(10));
    registry.register_provider(Stub::new("p", "plugin", [visible("t", "T")]));
    assert!(registry.invoke(ToolInvocation::new("t", json!({"a": "xx"})), None).await.success);
    let over = registry.invoke(ToolInvocation::new("t", json!({"a": "xxx"})), None).await;
    assert_eq!(over.error_message, "Tool t failed: InvalidArguments: arguments are larger than 10 bytes");
}

/// "depth counts nested arrays and objects, the top-level object being 1"; zh-Hans text
/// `参数嵌套超过 {n} 层`; "the provider is not called".
#[tokio::test]
async fn the_argument_depth_limit_reads_in_zh_hans_and_spares_the_provider() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let provider = Stub::answering("p", "plugin", [visible("t", "T")], move |call| {
        seen.fetch_add(1, Ordering::SeqCst);
        async move { Ok(ToolExecutionResult::success(call.tool_name, "ran")) }
    });
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans).max_argument_depth(2));
    registry.register_provider(provider);
    for ok in [r#"{"a":{"b":1}}"#, r#"{"a":[1,2]}"#] {
        assert!(registry.invoke(ToolInvocation::new("t", ok), None).await.success, "{ok}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    for deep in [r#"{"a":{"b":[]}}"#, r#"{"a":[[1]]}"#] {
        let result = registry.invoke(ToolInvocation::new("t", deep), None).await;
        assert_eq!(result.error_message, "工具 t 调用失败：InvalidArguments: 参数嵌套超过 2 层", "{deep}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

/// "depth counts nested arrays and objects": brackets and braces inside strings (escaped quotes
/// included) are text, not nesting, so they pass a depth limit of 2.
#[tokio::test]
async fn brackets_inside_strings_do_not_count_as_nesting() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_depth(2));
    registry.register_provider(Stub::new("p", "plugin", [visible("t", "T")]));
    for text in [r#"{"a":"[[[{{{"}"#, r#"{"a":"\"[[[\"","b":{"c":"]]]}}}"}}"#, r#"{"[[[":{"{{":"x"}}"#] {
        let result = registry.invoke(ToolInvocation::new("t", text), None).await;
        assert_eq!((result.success, result.error_message.as_str()), (true, ""), "{text}");
    }
    let value = json!({"a": "[[[[", "b": {"c": "{{{{"}});
    assert!(registry.invoke(ToolInvocation::new("t", value), None).await.success);
    let deep = registry.invoke(ToolInvocation::new("t", r#"{"a":{"b":{"c":"[]"}}}"#), None).await;
    assert_eq!(deep.error_message, "Tool t failed: InvalidArguments: arguments are nested deeper than 2 levels");
}

/// "size is the byte length of the arguments text" and arguments keep "the model's JSON text as
/// received": blanks around a small object count.
#[tokio::test]
async fn blanks_around_the_arguments_text_count_towards_its_size() {
    let registry = ToolRegistry::new(RegistryConfig::default().max_argument_bytes(5));
    registry.register_provider(Stub::new("p", "plugin", [visible("t", "T")]));
    assert!(registry.invoke(ToolInvocation::new("t", " {} "), None).await.success);
    let over = registry.invoke(ToolInvocation::new("t", "   {}   "), None).await;
    assert_eq!(over.error_message, "Tool t failed: InvalidArguments: arguments are larger than 5 bytes");
}

/// "{name} is the requested registry name": a renamed copy's provider errors read under its
/// registry name in zh-Hans (`Transport`, and `PluginNotLoaded` with `插件 {id} 未加载`).
#[tokio::test]
async fn a_renamed_copys_errors_read_under_its_registry_name_in_zh_hans() {
    let registry = ToolRegistry::new(rename().locale(Locale::ZhHans));
    registry.register_provider(Stub::new("a", "builtin", [visible("t", "T")]));
    let spec = |plugin: &str| {
        ToolSpec::builder("t").metadata("plugin_id", plugin).visibility(Visibility::Visible).build().unwrap()
    };
    registry.register_provider(Stub::answering("p1", "plugin", [spec("x.y")], |_| async move {
        Err(ToolError::new("Transport", "  down \n"))
    }));
    registry.register_provider(Stub::answering("p2", "plugin", [spec("x.z")], |_| async move {
        Err(ToolError::plugin_not_loaded("x.z"))
    }));
    let down = registry.invoke(ToolInvocation::new("plugin_x_y_t", "{}"), None).await;
    assert_eq!(
        (down.tool_name.as_str(), down.error_message.as_str()),
        ("plugin_x_y_t", "工具 plugin_x_y_t 调用失败：Transport: down")
    );
    let loading = registry.invoke(ToolInvocation::new("plugin_x_z_t", "{}"), None).await;
    assert_eq!(loading.error_message, "工具 plugin_x_z_t 调用失败：PluginNotLoaded: 插件 x.z 未加载");
    assert_eq!(registry.invoke(ToolInvocation::new("t", "{}"), None).await.content, "a ran t");
}

/// "Tool names are compared exactly (case-sensitive, untrimmed)": the not-found text quotes the
/// requested name as sent.
#[tokio::test]
async fn the_not_found_text_quotes_the_requested_name_as_sent() {
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [visible("web_fetch", "Fetch")]));
    for name in [" web_fetch", "web_fetch\t", "Web_Fetch", "web-fetch"] {
        let result = registry.invoke(ToolInvocation::new(name, "{}"), None).await;
        assert_eq!((result.tool_name.as_str(), result.success), (name, false));
        assert_eq!(result.error_message, format!("Tool not found: {name}"));
        assert!(!registry.has_tool(name, None).await);
    }
}

// ---- a batch of calls and its history ------------------------------------------------------------

/// Six results whose tool messages each come from a different rule ("content trimmed if not
/// blank; ... structured content (a string trimmed ...); error_message trimmed", else "Tool
/// executed successfully." / "Tool {tool_name} failed."), then every post-history message
/// after all tool messages, in call order.
#[test]
fn a_mixed_batch_writes_each_results_own_text_then_the_post_messages() {
    for (locale, empty_ok, empty_failed) in [
        (Locale::En, "Tool executed successfully.", "Tool t4 failed."),
        (Locale::ZhHans, "工具执行成功。", "工具 t4 执行失败。"),
    ] {
        let r1 = ToolExecutionResult::success("t1", "  done  ");
        let mut r2 = ToolExecutionResult::failure("t2", "  bad input  ");
        r2.post_history_messages_mut().push(json!({"role": "user", "content": "p2"}));
        let r3 = ToolExecutionResult::success("t3", "");
        let r4 = ToolExecutionResult::failure("t4", "");
        let mut r5 = ToolExecutionResult::failure("t5", "e");
        r5.content = "partial".into();
        r5.post_history_messages_mut().push(json!({"role": "user", "content": "p5a"}));
        r5.post_history_messages_mut().push(json!({"role": "system", "content": "p5b"}));
        let r6 = ToolExecutionResult::success("t6", "").with_structured_content(json!("  raw  "));
        let calls = [("c1", &r1), ("c2", &r2), ("c3", &r3), ("c4", &r4), ("c5", &r5), ("c6", &r6)];
        let tool = |id: &str, text: &str| HistoryMessage::Tool { call_id: id.into(), content: text.into() };
        let expected = vec![
            tool("c1", "done"),
            tool("c2", "bad input"),
            tool("c3", empty_ok),
            tool("c4", empty_failed),
            tool("c5", "partial"),
            tool("c6", "raw"),
            HistoryMessage::Post(json!({"role": "user", "content": "p2"})),
            HistoryMessage::Post(json!({"role": "user", "content": "p5a"})),
            HistoryMessage::Post(json!({"role": "system", "content": "p5b"})),
        ];
        assert_eq!(batch_history(calls, locale), expected, "{locale:?}");
    }
}

/// Media messages follow their own call's tool message: items are numbered from 1 over the
/// whole list (the text item is 1, the image 2); an audio item with nothing set is no media
/// item and only shows as `[audio unknown]`; post-history messages come after the whole batch.
#[test]
fn a_batch_puts_each_media_message_right_after_its_own_tool_message() {
    let mut draw = ToolExecutionResult::success("draw", "");
    draw.content_items_mut().push(ToolContentItem::text("Here"));
    draw.content_items_mut().push(ToolContentItem::image("AAAA", "image/png").with_name("cat.png"));
    let mut echo = ToolExecutionResult::success("echo", "plain");
    echo.post_history_messages_mut().push(json!({"role": "user", "content": "after"}));
    let mut mute = ToolExecutionResult::failure("mute", "");
    mute.content_items_mut().push(ToolContentItem::audio("", ""));

    let history = batch_history([("c1", &draw), ("c2", &echo), ("c3", &mute)], Locale::En);
    assert_eq!(history.len(), 5, "{history:?}");
    assert_eq!(
        history[0],
        HistoryMessage::Tool {
            call_id: "c1".into(),
            content: "Here\n[image image/png]\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:c1:2\" type=\"image\" mime=\"image/png\" name=\"cat.png\" />\n</tool_result_media_list>".into(),
        }
    );
    let HistoryMessage::Media(media) = &history[1] else { panic!("expected a media message: {:?}", history[1]) };
    assert_eq!(
        (media.message_id.as_str(), media.tool_call_id.as_str(), media.item_index),
        ("tool_result:c1:2", "c1", 2)
    );
    assert_eq!(
        media.header_text,
        "<tool_result_media msg_id=\"tool_result:c1:2\" type=\"image\" mime=\"image/png\" name=\"cat.png\" />"
    );
    assert_eq!(
        media.visible_text,
        "<tool_result_media msg_id=\"tool_result:c1:2\" />\nimage / image/png / cat.png\n[image]"
    );
    assert_eq!(media.image.as_deref(), Some(&[0u8, 0, 0][..]));
    assert_eq!(history[2], HistoryMessage::Tool { call_id: "c2".into(), content: "plain".into() });
    assert_eq!(history[3], HistoryMessage::Tool { call_id: "c3".into(), content: "[audio unknown]".into() });
    assert_eq!(history[4], HistoryMessage::Post(json!({"role": "user", "content": "after"})));
}

/// zh-Hans history of a media result whose call id is blank: the index id is "call_id trimmed,
/// else tool_name trimmed", while "tool_call_id = call_id as given"; the summary reads
/// `[图片内容 {m}]` and the visible text ends with `[图片]`.
#[test]
fn a_blank_call_id_indexes_media_by_the_tool_name_in_zh_hans() {
    let mut draw = ToolExecutionResult::success(" draw ", "");
    draw.content_items_mut().push(ToolContentItem::image("AAAA", "image/png"));
    let history = batch_history([("  ", &draw)], Locale::ZhHans);
    assert_eq!(history.len(), 2, "{history:?}");
    let HistoryMessage::Tool { content, .. } = &history[0] else { panic!("expected a tool message: {:?}", history[0]) };
    assert_eq!(
        content,
        "[图片内容 image/png]\n\n<tool_result_media_list>\n  <media msg_id=\"tool_result:draw:1\" type=\"image\" mime=\"image/png\" />\n</tool_result_media_list>"
    );
    let HistoryMessage::Media(media) = &history[1] else { panic!("expected a media message: {:?}", history[1]) };
    assert_eq!((media.message_id.as_str(), media.tool_call_id.as_str()), ("tool_result:draw:1", "  "));
    assert_eq!(
        media.header_text,
        "<tool_result_media msg_id=\"tool_result:draw:1\" type=\"image\" mime=\"image/png\" />"
    );
    assert_eq!(media.visible_text, "<tool_result_media msg_id=\"tool_result:draw:1\" />\nimage / image/png\n[图片]");
}

// ---- built-in filters ----------------------------------------------------------------------------

/// Phase ("listed iff its phase is Both or equals p"; no phase ⇒ all) and chat scope ("Group
/// needs is_group_chat == Some(true), Private needs Some(false); with None both are hidden",
/// applied only with a context) must both pass.
#[tokio::test]
async fn phase_and_chat_scope_must_both_pass_for_a_builtin() {
    let builtin = BuiltinToolProvider::new()
        .without_tool_search()
        .with_tool(
            builtin_entry("gt", Visibility::Visible).phase(PhaseFilter::Timing).chat_scope(ChatScopeFilter::Group),
        )
        .with_tool(
            builtin_entry("pb", Visibility::Visible).phase(PhaseFilter::Both).chat_scope(ChatScopeFilter::Private),
        );
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    let ctx = |phase: Option<Phase>, group: Option<bool>| {
        availability(|c| {
            c.phase = phase;
            c.is_group_chat = group;
        })
    };
    let cases: [(ToolAvailabilityContext, &[&str]); 8] = [
        (ctx(Some(Phase::Timing), Some(true)), &["gt"]),
        (ctx(Some(Phase::Timing), Some(false)), &["pb"]),
        (ctx(Some(Phase::Action), Some(true)), &[]),
        (ctx(Some(Phase::Action), Some(false)), &["pb"]),
        (ctx(None, Some(true)), &["gt"]),
        (ctx(None, Some(false)), &["pb"]),
        (ctx(None, None), &[]),
        (ctx(Some(Phase::Timing), None), &[]),
    ];
    for (c, expected) in cases {
        assert_eq!(listed(&registry, Some(&c)).await, expected, "{:?} {:?}", c.phase, c.is_group_chat);
    }
    assert_eq!(listed(&registry, None).await, ["gt", "pb"]);
}

/// "A built-in whose enabled is false (host configuration) is not listed": a disabled deferred
/// built-in is not pooled, not reminded, not found by `tool_search` and not callable.
#[tokio::test]
async fn a_disabled_deferred_builtin_is_not_pooled_found_or_callable() {
    let builtin = BuiltinToolProvider::new()
        .with_tool(builtin_entry("calc", Visibility::Deferred).enabled(false))
        .with_tool(builtin_entry("notes", Visibility::Deferred));
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    let round = discovery.prepare_round(&registry, &session("s1")).await;
    assert_eq!(names(round.pool()), ["notes"]);
    assert_eq!(round.reminder(), Some(reminder(INTRO_EN, &["1. notes: The notes tool"], CLOSING_EN).as_str()));
    assert_eq!(search(&registry, "s1", json!({"query": "calc"})).await.content, NO_MATCH_EN);
    let result = discovery.invoke(&registry, ToolInvocation::new("calc", "{}"), &session("s1")).await;
    assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: calc"));
}
