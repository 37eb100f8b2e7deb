//! Registry, deferred-tool and built-in rules checked with inputs the other test files do not use,
//! each expected value worked out from the written rule it quotes: access rules combining
//! platform, scope and permission; the listing and definition APIs; the registry's failure texts
//! in both locales; the history of a batch of calls; the deferred pool, the advertised list and
//! the reminder; `tool_search`'s scoring, limits, sessions and outputs (key order, CJK queries,
//! exact names and prefixes); the undiscovered-tool hint; and the built-in filters (phase, chat
//! scope, config gate, per-listing specs).

use serde_json::{Value, json};
use std::time::Duration;
use toolhook::{
    ChatScope, Dialect, Locale, PermissionLevel, Phase, ToolAvailabilityContext, ToolContentItem, ToolError,
    ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec, Visibility,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, ChatScopeFilter, ContextParts, DeferredTools, HistoryMessage, PhaseFilter,
    RegistryConfig, ToolRegistry, batch_history, split_tool_result,
};

// ---- fixtures -------------------------------------------------------------------------------------

#[path = "common/stub.rs"]
mod stub;
use stub::Stub;

#[path = "common/deferred_pool.rs"]
#[allow(dead_code)]
mod deferred_pool;
use deferred_pool::{
    EMPTY_QUERY_EN, EMPTY_QUERY_ZH, HINT_EN, NO_MATCH_EN, NO_MATCH_ZH, deferred, deferred_registry, example_registry,
    visible,
};

/// Calls `tool_search` with `arguments` in session `session`.
async fn search(registry: &ToolRegistry, session: &str, arguments: Value) -> ToolExecutionResult {
    let call = ToolInvocation::new("tool_search", arguments);
    registry.invoke(call, Some(&ToolExecutionContext::for_session(session))).await
}

/// The `matched_tool_names` of a `tool_search` result.
fn matched(result: &ToolExecutionResult) -> Vec<String> {
    let structured = result.structured_content().cloned().unwrap_or_default();
    serde_json::from_value(structured["matched_tool_names"].clone()).unwrap_or_default()
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

async fn ok_handler(call: ToolInvocation, _: Option<ToolExecutionContext>) -> Result<ToolExecutionResult, ToolError> {
    Ok(ToolExecutionResult::success(call.tool_name, "ran"))
}

/// A built-in entry with the given visibility (set on the spec and on the entry alike).
fn builtin_entry(name: &str, visibility: Visibility) -> BuiltinTool {
    let spec = ToolSpec::builder(name).description(format!("The {name} tool")).visibility(visibility).build().unwrap();
    BuiltinTool::new(spec, ok_handler).visibility(visibility)
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

// ---- decisions ------------------------------------------------------------------------------------

/// The configuration's defaults: locale `En`, duplicate policy `Skip`, a default timeout of 60 s,
/// no detailed descriptions, arguments up to 1 MiB (1048576 bytes) and 64 levels.
#[test]
fn the_registry_configuration_defaults() {
    let config = RegistryConfig::default();
    assert_eq!(config.locale, Locale::En);
    assert_eq!(config.duplicate_policy, toolhook_runtime::DuplicatePolicy::Skip);
    assert_eq!(config.default_timeout, Some(Duration::from_secs(60)));
    assert!(!config.include_detailed_description);
    assert_eq!((config.max_argument_bytes, config.max_argument_depth), (1_048_576, 64));
    assert_eq!(ToolRegistry::default().locale(), Locale::En);
}

// ---- access rules ---------------------------------------------------------------------------------

/// "A spec is permitted iff all hold: platforms empty or the platform is known and listed; scopes
/// empty or the scope is known and listed; permission <= caller level." One failing fact hides the
/// tool from listings, definitions and lookups, and a call of it is "Tool not found".
#[tokio::test]
async fn platform_scope_and_permission_must_all_allow_a_tool() {
    let moderated = ToolSpec::builder("mod_tool")
        .platforms(["Discord"])
        .scopes([ChatScope::Group])
        .permission(PermissionLevel::GroupAdmin)
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [moderated, visible("open", "Open to all")]));

    let allowed = |c: &mut ToolAvailabilityContext| {
        c.platform = " DISCORD ".into();
        c.is_group_chat = Some(true);
        c.permission = PermissionLevel::GroupAdmin;
    };
    let cases: Vec<(&str, ToolAvailabilityContext, bool)> = vec![
        ("every fact allows", availability(allowed), true),
        (
            "a higher caller level",
            availability(|c| {
                allowed(c);
                c.permission = PermissionLevel::Owner;
            }),
            true,
        ),
        (
            "another platform",
            availability(|c| {
                allowed(c);
                c.platform = "qq".into();
            }),
            false,
        ),
        (
            "no platform",
            availability(|c| {
                allowed(c);
                c.platform = String::new();
            }),
            false,
        ),
        (
            "a private chat",
            availability(|c| {
                allowed(c);
                c.is_group_chat = Some(false);
            }),
            false,
        ),
        (
            "scope unknown",
            availability(|c| {
                allowed(c);
                c.is_group_chat = None;
            }),
            false,
        ),
        (
            "a channel stated over a group chat",
            availability(|c| {
                allowed(c);
                c.scope = Some(ChatScope::Channel);
            }),
            false,
        ),
        (
            "a lower caller level",
            availability(|c| {
                allowed(c);
                c.permission = PermissionLevel::User;
            }),
            false,
        ),
    ];
    for (what, ctx, permitted) in cases {
        let expected: Vec<&str> = if permitted { vec!["mod_tool", "open"] } else { vec!["open"] };
        assert_eq!(listed(&registry, Some(&ctx)).await, expected, "{what}");
        assert_eq!(registry.has_tool("mod_tool", Some(&ctx)).await, permitted, "{what}");
        assert_eq!(registry.get_tool_spec("mod_tool", Some(&ctx)).await.is_some(), permitted, "{what}");
        let definitions = registry.get_llm_definitions(Some(&ctx), Dialect::Neutral).await;
        let defined: Vec<&str> = definitions.iter().map(|d| d["name"].as_str().unwrap()).collect();
        assert_eq!(defined, expected, "{what}");
    }
    // Without a context every fact is unknown.
    assert_eq!(listed(&registry, None).await, ["open"]);

    // The same predicate at call time, on the availability context derived from the call's.
    let call = || ToolInvocation::new("mod_tool", "{}");
    let ok = execution(|c| {
        c.platform = "discord".into();
        c.is_group_chat = Some(true);
        c.permission = PermissionLevel::BotAdmin;
    });
    let result = registry.invoke(call(), Some(&ok)).await;
    assert_eq!((result.success, result.content.as_str()), (true, "p ran mod_tool"));
    let denied = [
        execution(|c| {
            c.platform = "discord".into();
            c.is_group_chat = Some(true);
        }),
        execution(|c| {
            c.platform = "discord".into();
            c.permission = PermissionLevel::Owner;
        }),
        execution(|c| {
            c.is_group_chat = Some(true);
            c.permission = PermissionLevel::Owner;
        }),
    ];
    for ctx in denied {
        let result = registry.invoke(call(), Some(&ctx)).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, "Tool not found: mod_tool"));
        assert_eq!(result.tool_name, "mod_tool");
    }
}

/// "Levels, lowest to highest: user < group_admin < group_owner < bot_admin < owner"; a tool is
/// permitted when "permission <= caller level", so an equal level is enough.
#[tokio::test]
async fn every_caller_level_sees_the_tools_at_or_below_it() {
    let levels = [
        ("need_user", PermissionLevel::User),
        ("need_group_admin", PermissionLevel::GroupAdmin),
        ("need_group_owner", PermissionLevel::GroupOwner),
        ("need_bot_admin", PermissionLevel::BotAdmin),
        ("need_owner", PermissionLevel::Owner),
    ];
    let specs = levels.map(|(name, level)| {
        ToolSpec::builder(name).permission(level).visibility(Visibility::Visible).build().unwrap()
    });
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", specs));
    for (rank, (_, caller)) in levels.iter().enumerate() {
        let ctx = availability(|c| c.permission = *caller);
        let expected: Vec<&str> = levels[..=rank].iter().map(|(name, _)| *name).collect();
        assert_eq!(listed(&registry, Some(&ctx)).await, expected, "caller {caller:?}");
        // At call time too: the tool of the caller's own level runs, the next one up is not found.
        let call_ctx = execution(|c| c.permission = *caller);
        let own = registry.invoke(ToolInvocation::new(levels[rank].0, "{}"), Some(&call_ctx)).await;
        assert!(own.success, "caller {caller:?}");
        if let Some((above, _)) = levels.get(rank + 1) {
            let result = registry.invoke(ToolInvocation::new(*above, "{}"), Some(&call_ctx)).await;
            assert_eq!(result.error_message, format!("Tool not found: {above}"), "caller {caller:?}");
        }
    }
}

/// "scope = scope, else Group if is_group_chat == Some(true), Private if Some(false), else
/// unknown"; a tool for private chats and channels needs one of those two known.
#[tokio::test]
async fn a_tool_for_private_chats_and_channels_needs_one_of_them_known() {
    let spec = ToolSpec::builder("dm_or_channel")
        .scopes([ChatScope::Private, ChatScope::Channel])
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("p", "plugin", [spec]));
    let cases = [
        (availability(|c| c.is_group_chat = Some(false)), true),
        (availability(|c| c.is_group_chat = Some(true)), false),
        (availability(|c| c.scope = Some(ChatScope::Channel)), true),
        (
            availability(|c| {
                c.scope = Some(ChatScope::Channel);
                c.is_group_chat = Some(true);
            }),
            true,
        ),
        (
            availability(|c| {
                c.scope = Some(ChatScope::Group);
                c.is_group_chat = Some(false);
            }),
            false,
        ),
        (availability(|_| {}), false),
    ];
    for (ctx, permitted) in cases {
        let what = format!("scope {:?}, is_group_chat {:?}", ctx.scope, ctx.is_group_chat);
        assert_eq!(registry.has_tool("dm_or_channel", Some(&ctx)).await, permitted, "{what}");
    }
    assert!(!registry.has_tool("dm_or_channel", None).await, "no context: the scope is unknown");
}

/// "platforms() (empty = any; stored trimmed, lower-cased, de-duplicated)".
#[test]
fn platforms_are_stored_trimmed_lower_cased_and_once_each() {
    let spec = ToolSpec::builder("t").platforms([" QQ ", "qq", "Telegram", " TELEGRAM\t", "QQ"]).build().unwrap();
    assert_eq!(spec.platforms().len(), 2, "{:?}", spec.platforms());
    assert_eq!(sorted(spec.platforms().to_vec()), ["qq", "telegram"]);
    assert!(ToolSpec::builder("any").build().unwrap().platforms().is_empty());
}

/// The hint is added only "If the name resolves, in the call's context, to a Deferred tool not
/// discovered in the session": a deferred tool the context's access rules deny does not resolve,
/// so its call is a plain "Tool not found".
#[tokio::test]
async fn a_deferred_tool_the_context_denies_gets_no_hint() {
    let admin = ToolSpec::builder("admin_fetch")
        .permission(PermissionLevel::Owner)
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let provider = Stub::answering("pool", "plugin", [admin], |call| async move {
        Ok(ToolExecutionResult::failure(call.tool_name, "boom"))
    });
    let registry = ToolRegistry::default();
    registry.register_provider(provider);
    let deferred = DeferredTools::new();
    let call = || ToolInvocation::new("admin_fetch", "{}");

    let denied = deferred.invoke(&registry, call(), &ToolExecutionContext::for_session("s1")).await;
    assert_eq!((denied.success, denied.error_message.as_str()), (false, "Tool not found: admin_fetch"));
    assert_eq!(denied.content, "");

    let owner = execution(|c| {
        c.session_id = "s1".into();
        c.permission = PermissionLevel::Owner;
    });
    let allowed = deferred.invoke(&registry, call(), &owner).await;
    assert_eq!(allowed.error_message, format!("boom\n{HINT_EN}"));
}

/// The hint "is added once: appended after \n to error_message if it is non-empty, ... A text
/// that already contains the hint is left alone": a blank but non-empty error message gets it
/// appended, and one with the hint in its middle keeps its text.
#[tokio::test]
async fn the_hint_follows_a_blank_error_and_spares_a_text_quoting_it() {
    let cases = [("  ", format!("  \n{HINT_EN}")), ("see: {HINT_EN} (ok)", String::new())];
    for (error_message, expected) in cases {
        let error_message = error_message.replace("{HINT_EN}", HINT_EN);
        let expected = if expected.is_empty() { error_message.clone() } else { expected };
        let answer = error_message.clone();
        let provider = Stub::answering("pool", "plugin", [deferred("web_fetch", "Fetch a URL")], move |call| {
            let answer = answer.clone();
            async move { Ok(ToolExecutionResult::failure(call.tool_name, answer)) }
        });
        let registry = ToolRegistry::default();
        registry.register_provider(provider);
        let ctx = ToolExecutionContext::for_session("s1");
        let result = DeferredTools::new().invoke(&registry, ToolInvocation::new("web_fetch", "{}"), &ctx).await;
        assert_eq!((result.error_message.as_str(), result.content.as_str()), (expected.as_str(), ""));
    }
}

// ---- listing APIs ------------------------------------------------------------------------------

/// Each listed copy has "name = registry name, metadata.registry_original_name = original name,
/// provider_name/provider_type = the provider's (the Python SDK's host kept whatever the provider set)".
#[tokio::test]
async fn listed_copies_name_their_provider_whatever_the_spec_said() {
    let spec =
        ToolSpec::builder("tool_a").provider("someone_else", "mcp").visibility(Visibility::Visible).build().unwrap();
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new().named("host_builtin"));
    registry.register_provider(Stub::new("mine", "plugin", [spec]));

    let copy = registry.get_tool_spec("tool_a", None).await.unwrap();
    assert_eq!((copy.name(), copy.provider_name(), copy.provider_type()), ("tool_a", "mine", "plugin"));
    assert_eq!(copy.metadata()["registry_original_name"], "tool_a");

    let search = registry.get_tool_spec("tool_search", None).await.unwrap();
    assert_eq!((search.provider_name(), search.provider_type()), ("host_builtin", "builtin"));
    assert_eq!(search.metadata()["registry_original_name"], "tool_search");

    let default_builtin = ToolRegistry::default();
    default_builtin.register_provider(BuiltinToolProvider::new());
    let search = default_builtin.get_tool_spec("tool_search", None).await.unwrap();
    assert_eq!((search.provider_name(), search.provider_type()), ("toolhook_builtin", "builtin"));
}

/// "list_tools(ctx) -> Vec<ToolSpec>: the listed copies in route order" (providers in
/// registration order, each provider's specs in its own order: "its order is kept");
/// get_llm_definitions gives "one definition per listed copy, in order".
#[tokio::test]
async fn listings_and_definitions_keep_provider_order_then_each_providers_order() {
    let registry = ToolRegistry::default();
    registry.register_provider(Stub::new("a", "plugin", [visible("zeta", "Z"), visible("alpha", "A")]));
    registry.register_provider(Stub::new("b", "plugin", [deferred("mid", "M"), visible("beta", "B")]));
    let expected = ["zeta", "alpha", "mid", "beta"];
    assert_eq!(listed(&registry, None).await, expected);
    let listed_copies = registry.list_tools(None).await;
    for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Anthropic] {
        let definitions = registry.get_llm_definitions(None, dialect).await;
        let rendered: Vec<Value> =
            listed_copies.iter().map(|s| s.llm_definition(dialect, Locale::En).unwrap()).collect();
        assert_eq!(definitions, rendered, "{dialect}");
    }
    let chat = registry.get_llm_definitions(None, Dialect::OpenAiChat).await;
    let chat_names: Vec<&str> = chat.iter().map(|d| d["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(chat_names, expected);
}

// ---- LLM definitions --------------------------------------------------------------------------

/// "With include_detailed_description and a non-empty detailed_description(locale), the
/// definition's description is the brief + \n\n + that text"; otherwise the brief alone.
#[tokio::test]
async fn the_detailed_text_follows_a_blank_line_only_when_configured_and_present() {
    let deep = ToolSpec::builder("deep")
        .brief_description("Short.")
        .detailed_description("More words.")
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let plain = ToolSpec::builder("plain").brief_description("Plain.").visibility(Visibility::Visible).build().unwrap();
    for include in [true, false] {
        let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(include));
        registry.register_provider(Stub::new("p", "plugin", [deep.clone(), plain.clone()]));
        let copy = registry.get_tool_spec("deep", None).await.unwrap();
        let detailed = copy.detailed_description(Locale::En).to_owned();
        assert!(detailed.contains("More words."), "{detailed:?}");
        let expected_deep = if include { format!("Short.\n\n{detailed}") } else { "Short.".to_owned() };
        let neutral = registry.get_llm_definitions(None, Dialect::Neutral).await;
        assert_eq!(neutral[0]["description"], expected_deep.as_str(), "include {include}");
        assert_eq!(neutral[1]["description"], "Plain.", "include {include}");
        let chat = registry.get_llm_definitions(None, Dialect::OpenAiChat).await;
        assert_eq!(chat[0]["function"]["description"], expected_deep.as_str(), "include {include}");
        assert_eq!(chat[1]["function"]["description"], "Plain.", "include {include}");
    }
}

/// The detailed text is "detailed_description(locale)" for the definition's locale: "the
/// registry's, or the call's override".
#[tokio::test]
async fn the_detailed_text_is_the_one_of_the_definitions_locale() {
    let spec = ToolSpec::builder("note")
        .brief_description("Take a note.")
        .brief_description_in(Locale::ZhHans, "记一条笔记。")
        .detailed_description("Notes are kept for a day.")
        .detailed_description_in(Locale::ZhHans, "笔记保留一天。")
        .visibility(Visibility::Visible)
        .build()
        .unwrap();
    let config = RegistryConfig::default().include_detailed_description(true);
    let registry = ToolRegistry::new(config.clone());
    registry.register_provider(Stub::new("p", "plugin", [spec.clone()]));
    let zh_detailed = spec.detailed_description(Locale::ZhHans).to_owned();
    let en_detailed = spec.detailed_description(Locale::En).to_owned();
    assert!(zh_detailed.contains("笔记保留一天。") && en_detailed.contains("Notes are kept for a day."));
    let zh = format!("记一条笔记。\n\n{zh_detailed}");
    let en = format!("Take a note.\n\n{en_detailed}");

    let own = registry.get_llm_definitions(None, Dialect::Neutral).await;
    assert_eq!(own[0]["description"], en.as_str());
    let overridden = registry.get_llm_definitions_in(None, Dialect::Neutral, Locale::ZhHans).await;
    assert_eq!(overridden[0]["description"], zh.as_str());

    let zh_registry = ToolRegistry::new(config.locale(Locale::ZhHans));
    zh_registry.register_provider(Stub::new("p", "plugin", [spec]));
    let definitions = zh_registry.get_llm_definitions(None, Dialect::Anthropic).await;
    assert_eq!(definitions[0]["description"], zh.as_str());
}

// ---- registry texts -----------------------------------------------------------------------------

/// `Err(e)` gives "Tool {name} failed: {type}: {message}" when the trimmed message is non-empty,
/// else "Tool {name} failed: {type}"; "{type} the error's type name (never translated);
/// {message} the trimmed message" (a provider's own type name included).
#[tokio::test]
async fn a_providers_own_error_type_and_a_blank_message() {
    let provider = || {
        Stub::answering("p", "test", [visible("quota", "Q"), visible("slow", "S")], |call| async move {
            Err(match call.tool_name.as_str() {
                "quota" => ToolError::new("RateLimited", " \n\t "),
                _ => ToolError::new("RateLimited", "\n  slow down \t"),
            })
        })
    };
    let expected = [
        (Locale::En, "Tool quota failed: RateLimited", "Tool slow failed: RateLimited: slow down"),
        (Locale::ZhHans, "工具 quota 调用失败：RateLimited", "工具 slow 调用失败：RateLimited: slow down"),
    ];
    for (locale, quota, slow) in expected {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        registry.register_provider(provider());
        for (tool, text) in [("quota", quota), ("slow", slow)] {
            let result = registry.invoke(ToolInvocation::new(tool, "{}"), None).await;
            assert_eq!((result.success, result.tool_name.as_str()), (false, tool), "{locale:?}");
            assert_eq!(result.error_message, text, "{locale:?}");
            assert_eq!(result.content, "", "{locale:?}");
        }
    }
}

/// Panics with a formatted message for `formatted`, with a number for anything else.
fn explode(tool: &str) -> Result<ToolExecutionResult, ToolError> {
    match tool {
        "formatted" => panic!("code {}", 7),
        _ => std::panic::panic_any(42_u32),
    }
}

/// `invoke` "never returns an error and never panics": "Panic ⇒ failure with type Panic and the
/// panic payload if it is a string, else no message" (a formatted panic message is a string).
#[tokio::test]
async fn a_formatted_panic_keeps_its_text_and_another_payload_none() {
    let expected = [
        (Locale::En, "Tool formatted failed: Panic: code 7", "Tool number failed: Panic"),
        (Locale::ZhHans, "工具 formatted 调用失败：Panic: code 7", "工具 number 调用失败：Panic"),
    ];
    for (locale, formatted, number) in expected {
        let provider =
            Stub::answering("p", "test", [visible("formatted", "F"), visible("number", "N")], |call| async move {
                explode(&call.tool_name)
            });
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        registry.register_provider(provider);
        for (tool, text) in [("formatted", formatted), ("number", number)] {
            let result = registry.invoke(ToolInvocation::new(tool, "{}"), None).await;
            assert_eq!((result.success, result.error_message.as_str()), (false, text), "{locale:?}");
        }
    }
}

/// Timeout: "Tool {name} failed: Timeout: no result within {n} ms" / "工具 {name} 调用失败：Timeout:
/// 超过 {n}ms 未返回结果"; the spec's own timeout counts even when the registry has no default.
#[tokio::test(start_paused = true)]
async fn a_timeout_names_its_limit_in_milliseconds_in_both_locales() {
    for (locale, text) in [
        (Locale::En, "Tool slow failed: Timeout: no result within 1500 ms"),
        (Locale::ZhHans, "工具 slow 调用失败：Timeout: 超过 1500ms 未返回结果"),
    ] {
        let spec = ToolSpec::builder("slow")
            .timeout(Duration::from_millis(1500))
            .visibility(Visibility::Visible)
            .build()
            .unwrap();
        let provider = Stub::answering("p", "test", [spec], |call| async move {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(ToolExecutionResult::success(call.tool_name, "late"))
        });
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale).default_timeout(None));
        registry.register_provider(provider);
        let started = tokio::time::Instant::now();
        let result = registry.invoke(ToolInvocation::new("slow", "{}"), None).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, text));
        assert_eq!(started.elapsed(), Duration::from_millis(1500));
    }
}

// ---- a batch of calls and its history -----------------------------------------------------------

/// "for each call in call order, its tool message followed by its media messages; after all tool
/// messages of the batch, the post_history_messages of all its results, in call order (each
/// result's list in its own order)".
#[test]
fn a_batch_writes_tool_and_media_messages_in_call_order_then_every_post_message() {
    let mut first = ToolExecutionResult::success("first", "one");
    first.post_history_messages_mut().push(json!({"role": "user", "content": "1a"}));
    first.post_history_messages_mut().push(json!({"role": "user", "content": "1b"}));
    let mut second = ToolExecutionResult::success("second", "two");
    second.content_items_mut().push(ToolContentItem::image("AAAA", "image/png"));
    second.content_items_mut().push(ToolContentItem::audio("AAAA", "audio/mpeg"));
    second.post_history_messages_mut().push(json!({"role": "user", "content": "2a"}));
    let third = ToolExecutionResult::success("third", "three");
    let mut fourth = ToolExecutionResult::failure("fourth", "bad");
    fourth.post_history_messages_mut().push(json!({"role": "user", "content": "4a"}));
    let calls = [("c1", &first), ("c2", &second), ("c3", &third), ("c4", &fourth)];

    let history = batch_history(calls, Locale::En);

    let mut expected = Vec::new();
    for (call_id, result) in calls {
        let split = split_tool_result(call_id, &result.tool_name, result, Locale::En);
        expected.push(HistoryMessage::Tool { call_id: call_id.to_owned(), content: split.tool_message });
        expected.extend(split.media.into_iter().map(HistoryMessage::Media));
    }
    for post in ["1a", "1b", "2a", "4a"] {
        expected.push(HistoryMessage::Post(json!({"role": "user", "content": post})));
    }
    assert_eq!(history, expected);

    let shape: Vec<String> = history
        .iter()
        .map(|m| match m {
            HistoryMessage::Tool { call_id, .. } => format!("tool {call_id}"),
            HistoryMessage::Media(media) => format!("media {}", media.tool_call_id),
            HistoryMessage::Post(post) => format!("post {}", post["content"].as_str().unwrap()),
        })
        .collect();
    assert_eq!(
        shape,
        [
            "tool c1", "tool c2", "media c2", "media c2", "tool c3", "tool c4", "post 1a", "post 1b", "post 2a",
            "post 4a"
        ]
    );
    assert!(matches!(&history[0], HistoryMessage::Tool { content, .. } if content == "one"));
}

/// A batch with no calls writes nothing; one whose results ask for no post-history messages
/// writes only its tool (and media) messages, in call order.
#[test]
fn a_batch_without_post_messages_is_its_tool_messages_only() {
    assert!(batch_history([], Locale::ZhHans).is_empty());
    let a = ToolExecutionResult::success("a", "alpha");
    let b = ToolExecutionResult::success("b", "beta");
    let history = batch_history([("x2", &b), ("x1", &a)], Locale::ZhHans);
    assert_eq!(
        history,
        [
            HistoryMessage::Tool { call_id: "x2".into(), content: "beta".into() },
            HistoryMessage::Tool { call_id: "x1".into(), content: "alpha".into() },
        ]
    );
}

// ---- deferred tools: pool, advertised list, reminder -----------------------------------------------

/// "Visible specs are advertised; Deferred specs form the session's pool"; "reminder is the text
/// ... when at least one pool tool is undiscovered, else None"; "RoundTools::definitions(dialect)
/// renders the advertised list". With no deferred tool, nothing is pooled or reminded and
/// `tool_search` finds nothing among the visible tools.
#[tokio::test]
async fn an_empty_pool_advertises_the_visible_tools_and_reminds_nothing() {
    let (registry, discovery) =
        deferred_registry(Locale::En, vec![visible("reply", "Reply to the user"), visible("wait", "Wait a bit")]);
    let ctx = ToolExecutionContext::for_session("s1");
    let round = discovery.prepare_round(&registry, &ctx).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "wait"]);
    assert!(round.pool().is_empty());
    assert_eq!(round.reminder(), None);
    for dialect in [Dialect::Neutral, Dialect::OpenAiChat, Dialect::Gemini] {
        let expected: Vec<Value> =
            round.advertised().iter().map(|s| s.llm_definition(dialect, Locale::En).unwrap()).collect();
        assert_eq!(round.definitions(dialect), expected, "{dialect}");
    }
    // Visible tools, `tool_search` itself included, are not in the pool it searches.
    for query in ["reply", "tool_search"] {
        let result = search(&registry, "s1", json!({ "query": query })).await;
        assert!(result.success);
        assert_eq!(result.content, NO_MATCH_EN, "{query}");
    }
    assert!(discovery.discovered("s1").is_empty());
}

/// "definitions use the registry's locale": a round's definitions render the advertised list
/// (visible tools, then discovered pool tools) in it, `tool_search`'s zh-Hans texts included.
#[tokio::test]
async fn round_definitions_render_the_advertised_list_in_the_registrys_locale() {
    let (registry, discovery) = example_registry(Locale::ZhHans);
    discovery.discover("s1", ["image_gen"]);
    let round = discovery.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "image_gen"]);
    let definitions = round.definitions(Dialect::Neutral);
    let expected: Vec<Value> =
        round.advertised().iter().map(|s| s.llm_definition(Dialect::Neutral, Locale::ZhHans).unwrap()).collect();
    assert_eq!(definitions, expected);
    assert_eq!(
        definitions[0]["description"],
        "在 deferred tools 列表中按名称或关键词搜索工具，并将命中的工具加入后续轮次的可用工具列表。"
    );
    assert_eq!(
        definitions[0]["parameters_schema"]["properties"]["query"]["description"],
        "要搜索的工具名、前缀或关键词。"
    );
    assert_eq!(definitions[0]["parameters_schema"]["properties"]["limit"]["description"], "最多返回多少个工具。");
}

/// "The session's discovered set is intersected with the pool's names"; "Advertised list =
/// visible specs (in order) followed by discovered pool specs (in pool order)": a discovered
/// visible tool is not advertised twice, and names outside the pool (unknown, or Hidden, which
/// is never listed) add nothing. The En reminder lists what is left.
#[tokio::test]
async fn discovered_names_outside_the_pool_add_nothing() {
    let hidden = ToolSpec::builder("secret").description("Secret").visibility(Visibility::Hidden).build().unwrap();
    let specs = vec![
        visible("reply", "Reply to the user"),
        deferred("web_search", "Search the web"),
        hidden,
        deferred("web_fetch", "Fetch a URL"),
    ];
    let (registry, discovery) = deferred_registry(Locale::En, specs);
    discovery.discover("s1", ["reply", "ghost", "secret", "web_fetch"]);
    let round = discovery.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
    assert_eq!(names(round.pool()), ["web_search", "web_fetch"]);
    assert_eq!(names(round.advertised()), ["tool_search", "reply", "web_fetch"]);
    assert_eq!(
        round.reminder(),
        Some(
            "<system-reminder>\nThe following tools are not exposed to you directly, but you can discover them with the tool_search tool and use them in later rounds:\n1. web_search: Search the web\n\nCall tool_search first if you need one of them. tool_search only discovers tools; it does not run them.\n</system-reminder>"
        )
    );
}

/// The reminder has "one line per undiscovered pool tool numbered from 1 in pool order": tools
/// discovered in between leave no gap in the numbering (zh-Hans intro and closing).
#[tokio::test]
async fn the_reminder_numbers_only_the_undiscovered_tools() {
    let (registry, discovery) = example_registry(Locale::ZhHans);
    discovery.discover("s1", ["web_fetch", "search_memes", "view_forward_message"]);
    let round = discovery.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
    assert_eq!(
        round.reminder(),
        Some(
            "<system-reminder>\n以下工具当前未直接暴露给你，但可以通过 tool_search 工具发现并在后续轮次中使用：\n1. web_search: Search the web\n2. image_gen: Generate images for the web\n\n如需其中某个工具，请先调用 tool_search。tool_search 只负责发现工具，不直接执行。\n</system-reminder>"
        )
    );
    assert_eq!(
        names(round.advertised()),
        ["tool_search", "reply", "web_fetch", "search_memes", "view_forward_message"]
    );
}

/// "Session = the context's session_id, else the invocation's": `tool_search` records its
/// matches under the call's session when the context has none, and under the context's when it
/// has one.
#[tokio::test]
async fn tool_search_records_matches_under_the_context_session_else_the_calls() {
    let (registry, discovery) = example_registry(Locale::En);
    let no_session = ToolExecutionContext::default();
    let call = ToolInvocation::new("tool_search", json!({"query": "fetch url"})).with_session_id("s9");
    let result = registry.invoke(call, Some(&no_session)).await;
    assert_eq!(matched(&result), ["web_fetch"]);
    assert_eq!(sorted(discovery.discovered("s9").into_iter().collect()), ["web_fetch"]);
    assert!(discovery.discovered("").is_empty());

    let call = ToolInvocation::new("tool_search", json!({"query": "image"})).with_session_id("s9");
    let result = registry.invoke(call, Some(&ToolExecutionContext::for_session("s1"))).await;
    assert_eq!(matched(&result), ["image_gen"]);
    assert_eq!(sorted(discovery.discovered("s1").into_iter().collect()), ["image_gen"]);
    assert_eq!(sorted(discovery.discovered("s9").into_iter().collect()), ["web_fetch"]);
}

/// The built-in chat-scope filter is "Applied only when a context is given", and `tool_search`
/// "gets the call's context as it came: without one, it searches every deferred tool" (so a
/// group-only deferred built-in is found); with a private chat's context it is not in the pool.
#[tokio::test]
async fn tool_search_without_a_context_finds_a_group_only_builtin() {
    let spec = ToolSpec::builder("group_notes")
        .description("Read the group notes")
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let notes = BuiltinTool::new(spec, ok_handler).visibility(Visibility::Deferred).chat_scope(ChatScopeFilter::Group);
    let builtin = BuiltinToolProvider::new().with_tool(notes);
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);

    let call = ToolInvocation::new("tool_search", json!({"query": "notes"})).with_session_id("s5");
    let result = registry.invoke(call, None).await;
    assert_eq!(matched(&result), ["group_notes"]);
    assert!(discovery.discovered("s5").contains("group_notes"));

    let private = execution(|c| {
        c.session_id = "s6".into();
        c.is_group_chat = Some(false);
    });
    let call = ToolInvocation::new("tool_search", json!({"query": "notes"}));
    let result = registry.invoke(call, Some(&private)).await;
    assert_eq!((result.success, result.content.as_str()), (true, NO_MATCH_EN));
}

/// A built-in entry's visibility decides where it goes: a `Deferred` entry is in the pool (and
/// `tool_search` finds it); a `Hidden` one is "dropped" from the listing, so it is neither pooled,
/// found nor callable.
#[tokio::test]
async fn a_deferred_builtin_joins_the_pool_and_a_hidden_one_never_shows() {
    let builtin = BuiltinToolProvider::new()
        .with_tool(builtin_entry("calc", Visibility::Deferred))
        .with_tool(builtin_entry("debug", Visibility::Hidden));
    let discovery = builtin.deferred().clone();
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    assert_eq!(listed(&registry, None).await, ["tool_search", "calc"]);
    let ctx = ToolExecutionContext::for_session("s1");
    let round = discovery.prepare_round(&registry, &ctx).await;
    assert_eq!(names(round.pool()), ["calc"]);
    assert_eq!(names(round.advertised()), ["tool_search"]);
    assert_eq!(search(&registry, "s1", json!({"query": "debug"})).await.content, NO_MATCH_EN);
    assert_eq!(matched(&search(&registry, "s1", json!({"query": "calc"})).await), ["calc"]);
    let result = registry.invoke(ToolInvocation::new("debug", "{}"), Some(&ctx)).await;
    assert_eq!(result.error_message, "Tool not found: debug");
}

/// The `tool_search` spec: "Visible, phase Action, chat scope All"; it "carries both locales'
/// texts: description(locale), and parameters_schema_for(locale) with the locale's Q and L
/// (parameters_schema() has the English ones)", in the written key order.
#[tokio::test]
async fn the_tool_search_spec_carries_both_locales_in_key_order() {
    let registry = ToolRegistry::new(RegistryConfig::default().locale(Locale::ZhHans));
    registry.register_provider(BuiltinToolProvider::new());
    for ctx in [
        availability(|c| c.is_group_chat = Some(true)),
        availability(|c| c.is_group_chat = Some(false)),
        availability(|c| c.phase = Some(Phase::Action)),
    ] {
        assert!(registry.has_tool("tool_search", Some(&ctx)).await, "{ctx:?}");
    }
    let spec = registry.get_tool_spec("tool_search", None).await.unwrap();
    assert_eq!(spec.visibility(), Visibility::Visible);
    assert_eq!(
        spec.description(Locale::En),
        "Search the deferred tools by name or keyword and add the matching tools to the available tools for later rounds."
    );
    assert_eq!(
        spec.description(Locale::ZhHans),
        "在 deferred tools 列表中按名称或关键词搜索工具，并将命中的工具加入后续轮次的可用工具列表。"
    );
    let schema = |q: &str, l: &str| {
        format!(
            r#"{{"type":"object","properties":{{"query":{{"type":"string","description":"{q}"}},"limit":{{"type":"integer","description":"{l}","minimum":1}}}},"required":["query"]}}"#
        )
    };
    let en = schema("Tool name, prefix or keyword to search for.", "Maximum number of tools to return.");
    let zh = schema("要搜索的工具名、前缀或关键词。", "最多返回多少个工具。");
    assert_eq!(serde_json::to_string(spec.parameters_schema()).unwrap(), en);
    assert_eq!(serde_json::to_string(spec.parameters_schema_for(Locale::En)).unwrap(), en);
    assert_eq!(serde_json::to_string(spec.parameters_schema_for(Locale::ZhHans)).unwrap(), zh);
    // Definitions use the registry's locale.
    let definitions = registry.get_llm_definitions(None, Dialect::Neutral).await;
    assert_eq!(serde_json::to_string(&definitions[0]["parameters_schema"]).unwrap(), zh);
}

// ---- tool_search scoring ----------------------------------------------------------------------------

/// "score = 1000 if q == n; +300 if n starts with q; +200 if n contains q; +100 if d contains q;
/// then for each term +25 if n contains it and +10 if d contains it", q lower-cased first.
/// `WEB_FETCH`: web_fetch 1000+300+200+25+25+10 = 1560; web_search 25+10 = 35; image_gen 10.
#[tokio::test]
async fn an_exact_name_in_another_case_ranks_first() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "exact", json!({"query": "WEB_FETCH"})).await;
    assert_eq!(matched(&result), ["web_fetch", "web_search", "image_gen"]);
    assert_eq!(result.structured_content().unwrap()["query"], "WEB_FETCH", "the trimmed query as given");
}

/// A prefix scores both "+300 if n starts with q" and "+200 if n contains q". `web_f` (terms
/// `web`, `f`): web_fetch 300+200+25+25+10 = 560; web_search 25+10 = 35; view_forward_message
/// 25 (`f` in its name); image_gen 10+10 = 20 (`web`, `f` of "for"); search_memes 10 (`f` of
/// "find"). The default limit is 5.
#[tokio::test]
async fn a_prefix_query_scores_starts_with_and_contains() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "prefix", json!({"query": "web_f"})).await;
    assert_eq!(matched(&result), ["web_fetch", "web_search", "view_forward_message", "image_gen", "search_memes"]);
}

/// "terms = q with _ and - replaced by spaces, split on whitespace" (a double `_` makes no empty
/// term); ties sort "by name ascending". `web__search`: web_search 25+25+10+10 = 70; search_memes
/// 25 and web_fetch 25 (tie, by name); image_gen 10.
#[tokio::test]
async fn doubled_separators_split_terms_and_ties_sort_by_name() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "terms", json!({"query": "web__search"})).await;
    assert_eq!(matched(&result), ["web_search", "search_memes", "web_fetch", "image_gen"]);
}

/// "+100 if d contains q" rewards the whole query in a description. `the web`: web_search
/// 100+25+10+10 = 145; image_gen 100+10+10 = 120; web_fetch 25.
#[tokio::test]
async fn the_whole_query_in_a_description_outscores_its_terms_in_a_name() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "phrase", json!({"query": "the web"})).await;
    assert_eq!(matched(&result), ["web_search", "image_gen", "web_fetch"]);
}

/// "sort by score descending ... take the first limit": the limit cuts the sorted list, not the
/// pool order, and only what it keeps is discovered ("then add all matches").
#[tokio::test]
async fn the_limit_cuts_the_sorted_matches_not_the_pool() {
    let specs = vec![
        deferred("image_gen", "Generate images for the web"),
        deferred("web_fetch", "Fetch a URL"),
        deferred("web_search", "Search the web"),
    ];
    let (registry, discovery) = deferred_registry(Locale::En, specs);
    // `web`: web_search 300+200+25+100+10 = 635, web_fetch 300+200+25 = 525, image_gen 100+10 = 110.
    let result = search(&registry, "cut", json!({"query": "web", "limit": 1})).await;
    assert_eq!(matched(&result), ["web_search"]);
    assert_eq!(
        result.content,
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_search (newly discovered)"
    );
    assert_eq!(sorted(discovery.discovered("cut").into_iter().collect()), ["web_search"]);
}

/// "q = the query lower-cased with whitespace runs collapsed to one space and trimmed"; terms are
/// "split on whitespace" — ideographic spaces included — so `转发　消息` scores its two terms in
/// view_forward_message's description (10 + 10); the structured query is the trimmed query.
#[tokio::test]
async fn a_cjk_query_with_ideographic_spaces_is_split_into_terms() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "cjk", json!({"query": "\u{3000}转发\u{3000}消息\u{3000}"})).await;
    assert!(result.success, "{result:?}");
    assert_eq!(matched(&result), ["view_forward_message"]);
    assert_eq!(result.structured_content().unwrap()["query"], "转发\u{3000}消息");
    assert_eq!(
        result.content,
        "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- view_forward_message (newly discovered)"
    );
}

/// "n and d their lower-cased name and description (in the context's locale, i.e. the
/// registry's)": a description written per locale is searched in the registry's locale only.
#[tokio::test]
async fn descriptions_are_searched_in_the_registrys_locale() {
    let stock = ToolSpec::builder("stock_quote")
        .brief_description("Look up stock prices")
        .brief_description_in(Locale::ZhHans, "查询股票价格")
        .visibility(Visibility::Deferred)
        .build()
        .unwrap();
    let (en, en_discovery) = deferred_registry(Locale::En, vec![stock.clone()]);
    assert_eq!(search(&en, "l1", json!({"query": "股票"})).await.content, NO_MATCH_EN);
    assert_eq!(matched(&search(&en, "l1", json!({"query": "stock prices"})).await), ["stock_quote"]);

    let (zh, zh_discovery) = deferred_registry(Locale::ZhHans, vec![stock]);
    let found = search(&zh, "l2", json!({"query": "股票"})).await;
    assert_eq!(
        found.content,
        "已找到 1 个 deferred tools，它们会在后续轮次中加入可用工具列表：\n- stock_quote（本次新发现）"
    );
    // The reminder shows each undiscovered tool's description in the registry's locale too.
    let fresh = ToolExecutionContext::for_session("l3");
    let zh_round = zh_discovery.prepare_round(&zh, &fresh).await;
    let zh_reminder = zh_round.reminder().unwrap_or_default();
    assert!(zh_reminder.contains("\n1. stock_quote: 查询股票价格\n"), "{zh_reminder}");
    let en_round = en_discovery.prepare_round(&en, &fresh).await;
    let en_reminder = en_round.reminder().unwrap_or_default();
    assert!(en_reminder.contains("\n1. stock_quote: Look up stock prices\n"), "{en_reminder}");
    let missed = search(&zh, "l2", json!({"query": "prices"})).await;
    assert_eq!((missed.success, missed.content.as_str()), (true, NO_MATCH_ZH));
    assert_eq!(
        missed.structured_content().cloned(),
        Some(json!({"query": "prices", "matched_tool_names": [], "newly_discovered_tool_names": []}))
    );
}

/// "query must be a JSON string that is non-blank after trimming" (trim = Unicode whitespace);
/// otherwise the empty-query failure, in the registry's locale.
#[tokio::test]
async fn a_query_of_unicode_blanks_or_null_is_empty() {
    for (locale, text) in [(Locale::En, EMPTY_QUERY_EN), (Locale::ZhHans, EMPTY_QUERY_ZH)] {
        let (registry, discovery) = example_registry(locale);
        for query in [json!("\u{3000}"), json!("\u{2003}\n\u{a0}"), Value::Null, json!(true)] {
            let result = search(&registry, "blank", json!({ "query": query })).await;
            assert_eq!(result.tool_name, "tool_search");
            assert_eq!((result.success, result.error_message.as_str()), (false, text), "{locale:?} {query}");
        }
        assert!(discovery.discovered("blank").is_empty());
    }
}

/// "q = the query lower-cased" and "n and d their lower-cased name and description": lower-casing
/// is not limited to ASCII, so `äpfel` finds a description written `ÄPFEL` (100 + 10).
#[tokio::test]
async fn lower_casing_covers_letters_beyond_ascii() {
    let (registry, _) =
        deferred_registry(Locale::En, vec![deferred("fruit_tool", "Frische ÄPFEL"), deferred("other", "x")]);
    let result = search(&registry, "lc", json!({"query": "äpfel"})).await;
    assert_eq!(matched(&result), ["fruit_tool"]);
    let result = search(&registry, "lc", json!({"query": "FRISCHE Äpfel"})).await;
    assert_eq!(matched(&result), ["fruit_tool"]);
}

/// "limit: ... integer ⇒ itself; number with a fraction ⇒ truncated toward zero ... Then max(1,
/// limit)": a number too large for any pool keeps every match, a hugely negative one keeps one.
#[tokio::test]
async fn a_huge_numeric_limit_keeps_every_match_and_a_hugely_negative_one_keeps_one() {
    let (registry, _) = example_registry(Locale::En);
    // `e` is in every name or description of the pool: five matches.
    let every = matched(&search(&registry, "n1", json!({"query": "e", "limit": 100})).await);
    assert_eq!(every.len(), 5, "{every:?}");
    let huge = matched(&search(&registry, "n2", json!({"query": "e", "limit": 1e20})).await);
    assert_eq!(huge, every);
    let negative = matched(&search(&registry, "n3", json!({"query": "e", "limit": -1e20})).await);
    assert_eq!(negative, every[..1]);
}

/// "tool_search queries are at most 256 characters" — characters, not bytes: 256 CJK characters
/// (768 bytes) are searched, 257 are refused.
#[tokio::test]
async fn the_query_bound_counts_characters_not_bytes() {
    let (registry, _) = example_registry(Locale::En);
    let at_bound = search(&registry, "b", json!({ "query": "转".repeat(256) })).await;
    assert_eq!((at_bound.success, at_bound.content.as_str()), (true, NO_MATCH_EN));
    let over = search(&registry, "b", json!({ "query": "转".repeat(257) })).await;
    assert!(!over.success, "{over:?}");
    assert!(over.error_message.contains("257"), "{}", over.error_message);
}

/// "their first 16 distinct terms are scored": a 17th distinct term counts for nothing, while
/// the same term among the first sixteen finds its tool.
#[tokio::test]
async fn only_the_first_sixteen_distinct_terms_are_scored() {
    let (registry, _) = example_registry(Locale::En);
    let fillers: Vec<String> = (1..=16).map(|i| format!("zq{i}")).collect();
    let late = format!("{} fetch", fillers.join(" "));
    assert_eq!(search(&registry, "t", json!({ "query": late })).await.content, NO_MATCH_EN);
    let early = format!("fetch {}", fillers[..15].join(" "));
    assert_eq!(matched(&search(&registry, "t", json!({ "query": early })).await), ["web_fetch"]);
    // Repeating a term does not use up the sixteen: it is one distinct term.
    let repeated = format!("{} {} fetch", fillers[..15].join(" "), fillers[..15].join(" "));
    assert_eq!(matched(&search(&registry, "t", json!({ "query": repeated })).await), ["web_fetch"]);
}

// ---- tool_search outputs ------------------------------------------------------------------------

/// "structured_content = {"query", "matched_tool_names", "newly_discovered_tool_names"} (that key
/// order); metadata = {"monitor_detail": {<the three keys>, "content": <content>},
/// "matched_tool_names": [...], "newly_discovered_tool_names": [...]}", byte for byte.
#[tokio::test]
async fn outputs_keep_their_key_order_in_english() {
    let (registry, _) = example_registry(Locale::En);
    let result = search(&registry, "order", json!({"query": "  fetch url "})).await;
    let content = "Found 1 deferred tool; it will be added to the available tools in later rounds:\n- web_fetch (newly discovered)";
    assert_eq!(result.content, content);
    assert_eq!(
        serde_json::to_string(result.structured_content().unwrap()).unwrap(),
        r#"{"query":"fetch url","matched_tool_names":["web_fetch"],"newly_discovered_tool_names":["web_fetch"]}"#
    );
    let metadata = json!({
        "monitor_detail": {
            "query": "fetch url",
            "matched_tool_names": ["web_fetch"],
            "newly_discovered_tool_names": ["web_fetch"],
            "content": content,
        },
        "matched_tool_names": ["web_fetch"],
        "newly_discovered_tool_names": ["web_fetch"],
    });
    assert_eq!(serde_json::to_string(&result.metadata).unwrap(), serde_json::to_string(&metadata).unwrap());
}

/// zh header `已找到 {n} 个 deferred tools，它们会在后续轮次中加入可用工具列表：`, lines
/// `- {name}（本次新发现）` / `- {name}（此前已发现）`; "Newly discovered = matches not yet in the
/// set, in match order". `web` with limit 2: web_search 635, web_fetch 525.
#[tokio::test]
async fn outputs_in_zh_hans_mark_earlier_discoveries_and_keep_key_order() {
    let (registry, discovery) = example_registry(Locale::ZhHans);
    discovery.discover("z", ["web_fetch"]);
    let result = search(&registry, "z", json!({"query": "web", "limit": 2})).await;
    let content = "已找到 2 个 deferred tools，它们会在后续轮次中加入可用工具列表：\n- web_search（本次新发现）\n- web_fetch（此前已发现）";
    assert_eq!(result.content, content);
    let structured = json!({
        "query": "web",
        "matched_tool_names": ["web_search", "web_fetch"],
        "newly_discovered_tool_names": ["web_search"],
    });
    assert_eq!(
        serde_json::to_string(result.structured_content().unwrap()).unwrap(),
        serde_json::to_string(&structured).unwrap()
    );
    let metadata = json!({
        "monitor_detail": {
            "query": "web",
            "matched_tool_names": ["web_search", "web_fetch"],
            "newly_discovered_tool_names": ["web_search"],
            "content": content,
        },
        "matched_tool_names": ["web_search", "web_fetch"],
        "newly_discovered_tool_names": ["web_search"],
    });
    assert_eq!(serde_json::to_string(&result.metadata).unwrap(), serde_json::to_string(&metadata).unwrap());
}

// ---- built-in filters ---------------------------------------------------------------------------

/// "With a context whose phase is Some(p), an entry is listed iff its phase is Both or equals p.
/// No context, or phase = None ⇒ all phases listed"; entries in insertion order after the
/// default `tool_search` (an action-phase tool). Calls are filtered by the call's phase alike.
#[tokio::test]
async fn phases_filter_builtins_only_when_the_context_names_one() {
    let builtin = BuiltinToolProvider::new()
        .with_tool(builtin_entry("t_timing", Visibility::Visible).phase(PhaseFilter::Timing))
        .with_tool(builtin_entry("t_action", Visibility::Visible))
        .with_tool(builtin_entry("t_both", Visibility::Visible).phase(PhaseFilter::Both));
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    let all = ["tool_search", "t_timing", "t_action", "t_both"];
    assert_eq!(listed(&registry, None).await, all);
    let no_phase = availability(|c| {
        c.platform = "qq".into();
        c.is_group_chat = Some(true);
    });
    assert_eq!(listed(&registry, Some(&no_phase)).await, all);
    let timing = availability(|c| c.phase = Some(Phase::Timing));
    assert_eq!(listed(&registry, Some(&timing)).await, ["t_timing", "t_both"]);
    let action = availability(|c| c.phase = Some(Phase::Action));
    assert_eq!(listed(&registry, Some(&action)).await, ["tool_search", "t_action", "t_both"]);

    let call = |name: &str| ToolInvocation::new(name, "{}");
    let in_timing = execution(|c| c.phase = Some(Phase::Timing));
    assert_eq!(registry.invoke(call("t_timing"), Some(&in_timing)).await.content, "ran");
    assert_eq!(registry.invoke(call("t_both"), Some(&in_timing)).await.content, "ran");
    let result = registry.invoke(call("t_action"), Some(&in_timing)).await;
    assert_eq!(result.error_message, "Tool not found: t_action");
    let no_phase_call = execution(|_| {});
    assert_eq!(registry.invoke(call("t_timing"), Some(&no_phase_call)).await.content, "ran");
}

/// "Group needs is_group_chat == Some(true), Private needs Some(false); with None both are
/// hidden. All always passes. ... independent of the access-rule scopes": a context's stated
/// `scope` does not stand in for `is_group_chat`.
#[tokio::test]
async fn builtin_chat_scope_reads_is_group_chat_not_the_stated_scope() {
    let builtin = BuiltinToolProvider::new()
        .without_tool_search()
        .with_tool(builtin_entry("g", Visibility::Visible).chat_scope(ChatScopeFilter::Group))
        .with_tool(builtin_entry("p", Visibility::Visible).chat_scope(ChatScopeFilter::Private))
        .with_tool(builtin_entry("a", Visibility::Visible).chat_scope(ChatScopeFilter::All));
    let registry = ToolRegistry::default();
    registry.register_provider(builtin);
    let cases = [
        (
            availability(|c| {
                c.scope = Some(ChatScope::Group);
            }),
            vec!["a"],
        ),
        (
            availability(|c| {
                c.scope = Some(ChatScope::Private);
                c.is_group_chat = Some(true);
            }),
            vec!["g", "a"],
        ),
        (
            availability(|c| {
                c.scope = Some(ChatScope::Channel);
                c.is_group_chat = Some(false);
            }),
            vec!["p", "a"],
        ),
    ];
    for (ctx, expected) in cases {
        let what = format!("scope {:?}, is_group_chat {:?}", ctx.scope, ctx.is_group_chat);
        assert_eq!(listed(&registry, Some(&ctx)).await, expected, "{what}");
    }
    assert_eq!(listed(&registry, None).await, ["g", "p", "a"]);
    let stated_group = execution(|c| c.scope = Some(ChatScope::Group));
    let result = registry.invoke(ToolInvocation::new("g", "{}"), Some(&stated_group)).await;
    assert_eq!(result.error_message, "Tool not found: g");
}

/// `tool_search` is "added by default; without_tool_search() removes it": then it is neither
/// listed nor callable ("Tool not found" / "未找到工具：{name}").
#[tokio::test]
async fn a_builtin_provider_without_tool_search_does_not_serve_it() {
    for (locale, text) in [(Locale::En, "Tool not found: tool_search"), (Locale::ZhHans, "未找到工具：tool_search")]
    {
        let registry = ToolRegistry::new(RegistryConfig::default().locale(locale));
        registry.register_provider(
            BuiltinToolProvider::new().without_tool_search().with_tool(builtin_entry("wait", Visibility::Visible)),
        );
        assert_eq!(listed(&registry, None).await, ["wait"]);
        let call = ToolInvocation::new("tool_search", json!({"query": "wait"}));
        let result = registry.invoke(call, Some(&ToolExecutionContext::for_session("s"))).await;
        assert_eq!((result.success, result.error_message.as_str()), (false, text), "{locale:?}");
    }
}

/// "A built-in whose enabled is false (host configuration) is not listed", so it claims no name:
/// under the default Skip policy another provider's tool of that name keeps it and gets the calls.
#[tokio::test]
async fn a_disabled_builtin_leaves_its_name_to_another_provider() {
    let registry = ToolRegistry::default();
    registry.register_provider(
        BuiltinToolProvider::new()
            .with_tool(builtin_entry("wait", Visibility::Visible).phase(PhaseFilter::Both).enabled(false)),
    );
    registry.register_provider(Stub::new("other", "plugin", [visible("wait", "Wait elsewhere")]));
    assert_eq!(listed(&registry, None).await, ["tool_search", "wait"]);
    let copy = registry.get_tool_spec("wait", None).await.unwrap();
    assert_eq!(copy.provider_name(), "other");
    let result =
        registry.invoke(ToolInvocation::new("wait", "{}"), Some(&ToolExecutionContext::for_session("s"))).await;
    assert_eq!(result.content, "other ran wait");
}

/// "A built-in's spec may depend on the availability context ...; the builder is called per
/// listing": each listing shows the spec built for its own context.
#[tokio::test]
async fn a_builtin_spec_is_built_for_each_listings_context() {
    let reply = BuiltinTool::with_spec_fn(
        "reply",
        ContextParts::PLATFORM,
        |ctx| {
            let platform = ctx.map_or("chat", |c| c.platform.as_str());
            ToolSpec::builder("reply")
                .brief_description(format!("Reply on {platform}"))
                .visibility(Visibility::Visible)
                .build()
        },
        ok_handler,
    );
    let registry = ToolRegistry::default();
    registry.register_provider(BuiltinToolProvider::new().without_tool_search().with_tool(reply));
    for platform in ["qq", "telegram", "qq"] {
        let ctx = availability(|c| c.platform = platform.into());
        let copy = registry.get_tool_spec("reply", Some(&ctx)).await.unwrap();
        assert_eq!(copy.description(Locale::En), format!("Reply on {platform}"));
        let definitions = registry.get_llm_definitions(Some(&ctx), Dialect::Neutral).await;
        assert_eq!(definitions[0]["description"], format!("Reply on {platform}").as_str());
    }
    let copy = registry.get_tool_spec("reply", None).await.unwrap();
    assert_eq!(copy.description(Locale::En), "Reply on chat");
}
