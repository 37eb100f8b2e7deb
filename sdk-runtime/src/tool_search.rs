//! `tool_search`: the built-in tool a model calls to find deferred tools; what it finds is
//! advertised to the session from the next round on.

use crate::deferred::{DeferredTools, TOOL_SEARCH};
use crate::registry::ToolRegistry;
use serde_json::{Map, Value, json};
use toolhook::{
    Locale, ToolAvailabilityContext, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec, Visibility,
};

/// The `tool_search` spec: both locales' texts.
pub(crate) fn tool_search_spec() -> ToolSpec {
    let schema = |q: &str, l: &str| {
        json!({"type": "object", "properties": {
            "query": {"type": "string", "description": q},
            "limit": {"type": "integer", "description": l, "minimum": 1},
        }, "required": ["query"]})
    };
    ToolSpec::builder(TOOL_SEARCH)
        .brief_description("Search the deferred tools by name or keyword and add the matching tools to the available tools for later rounds.")
        .brief_description_in(Locale::ZhHans, "在 deferred tools 列表中按名称或关键词搜索工具，并将命中的工具加入后续轮次的可用工具列表。")
        .parameters_raw(schema("Tool name, prefix or keyword to search for.", "Maximum number of tools to return."))
        .parameters_raw_zh_hans(schema("要搜索的工具名、前缀或关键词。", "最多返回多少个工具。"))
        .visibility(Visibility::Visible)
        .build()
        .unwrap_or_else(|_| ToolSpec::builder(TOOL_SEARCH).build().expect("a plain name builds"))
}

/// `tool_search`'s handler.
pub(crate) async fn run_tool_search(
    deferred: &DeferredTools,
    registry: &ToolRegistry,
    call: ToolInvocation,
    ctx: Option<ToolExecutionContext>,
    default_locale: Locale,
) -> ToolExecutionResult {
    let locale = ctx.as_ref().map_or(default_locale, |c| c.locale);
    let args = call.arguments.to_value().unwrap_or(Value::Null);
    let query = match args.get("query") {
        Some(Value::String(q)) if !q.trim().is_empty() => q.clone(),
        _ => {
            let message = match locale {
                Locale::En => "tool_search needs a non-empty `query` string argument.",
                Locale::ZhHans => "tool_search 需要提供非空的 `query` 字符串参数。",
            };
            return ToolExecutionResult::failure(call.tool_name, message);
        }
    };
    let length = query.split_whitespace().map(|w| w.chars().count() + 1).sum::<usize>().saturating_sub(1);
    if length > MAX_QUERY_CHARS {
        let message = match locale {
            Locale::En => format!(
                "tool_search query is too long ({length} characters); search with a tool name, a prefix or a few keywords, at most {MAX_QUERY_CHARS} characters."
            ),
            Locale::ZhHans => format!(
                "tool_search 的查询过长（{length} 个字符），请用工具名、前缀或几个关键词搜索，不超过 {MAX_QUERY_CHARS} 个字符。"
            ),
        };
        return ToolExecutionResult::failure(call.tool_name, message);
    }
    let limit = parse_limit(args.get("limit")).max(1);
    let availability = ctx.as_ref().map(ToolAvailabilityContext::from);
    let pool: Vec<ToolSpec> = registry
        .list_tools(availability.as_ref())
        .await
        .into_iter()
        .filter(|s| s.visibility() == Visibility::Deferred && !s.name().trim().is_empty())
        .collect();
    let matches = search(&query, &pool, locale, limit).await;
    let session = ctx
        .as_ref()
        .map(|c| c.session_id.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| call.session_id().to_owned());
    let before = deferred.discovered(&session);
    let newly: Vec<String> = matches.iter().filter(|n| !before.contains(*n)).cloned().collect();
    deferred.discover(&session, matches.iter().cloned());
    let trimmed = query.trim().to_owned();
    let mut structured = Map::new();
    structured.insert("query".into(), Value::from(trimmed));
    structured.insert("matched_tool_names".into(), json!(matches));
    structured.insert("newly_discovered_tool_names".into(), json!(newly));
    if matches.is_empty() {
        let content = match locale {
            Locale::En => {
                "No matching deferred tools found. Try a more complete tool name, a prefix or other keywords."
            }
            Locale::ZhHans => "未找到匹配的 deferred tools，请尝试更完整的工具名、前缀或其他关键词。",
        };
        return ToolExecutionResult::success(call.tool_name, content).with_structured_content(structured);
    }
    let n = matches.len();
    let mut lines = vec![match (locale, n) {
        (Locale::En, 1) => "Found 1 deferred tool; it will be added to the available tools in later rounds:".to_owned(),
        (Locale::En, n) => {
            format!("Found {n} deferred tools; they will be added to the available tools in later rounds:")
        }
        (Locale::ZhHans, n) => format!("已找到 {n} 个 deferred tools，它们会在后续轮次中加入可用工具列表："),
    }];
    for name in &matches {
        let new = newly.contains(name);
        lines.push(match (locale, new) {
            (Locale::En, true) => format!("- {name} (newly discovered)"),
            (Locale::En, false) => format!("- {name} (discovered earlier)"),
            (Locale::ZhHans, true) => format!("- {name}（本次新发现）"),
            (Locale::ZhHans, false) => format!("- {name}（此前已发现）"),
        });
    }
    let content = lines.join("\n");
    let mut detail = structured.clone();
    detail.insert("content".into(), Value::from(content.clone()));
    let mut result = ToolExecutionResult::success(call.tool_name, content);
    result.metadata.insert("monitor_detail".into(), Value::Object(detail));
    result.metadata.insert("matched_tool_names".into(), json!(matches));
    result.metadata.insert("newly_discovered_tool_names".into(), json!(newly));
    result.with_structured_content(structured)
}

/// Which of `patterns` the lower-cased `text` contains. A text longer than
/// [`SCAN_BETWEEN_YIELDS`] is lower-cased and searched a piece at a time, cut after a whitespace
/// (so that lower-casing sees every word whole), with the end of the piece before kept for
/// matches across the cut, and a yield to the executor after each piece: one huge description
/// cannot hold the thread past a timeout.
async fn find_lowercased(text: &str, patterns: &[&str]) -> Vec<bool> {
    if text.len() <= SCAN_BETWEEN_YIELDS {
        let lower = text.to_lowercase();
        return patterns.iter().map(|p| lower.contains(p)).collect();
    }
    let longest = patterns.iter().map(|p| p.len()).max().unwrap_or(0);
    let mut found = vec![false; patterns.len()];
    let mut window = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = rest.len().min(SCAN_BETWEEN_YIELDS);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end < rest.len()
            && let Some((at, space)) = rest[..end].char_indices().rev().find(|(_, c)| c.is_whitespace())
            && at > 0
        {
            end = at + space.len_utf8();
        }
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        window.push_str(&piece.to_lowercase());
        for (hit, pattern) in found.iter_mut().zip(patterns) {
            *hit = *hit || window.contains(pattern);
        }
        if found.iter().all(|hit| *hit) || rest.is_empty() {
            break;
        }
        // Only a match across the cut can still use what was read: keep less than the longest
        // pattern of it.
        let mut keep_from = window.len().saturating_sub(longest.saturating_sub(1));
        while !window.is_char_boundary(keep_from) {
            keep_from -= 1;
        }
        window.drain(..keep_from);
        tokio::task::yield_now().await;
    }
    found
}

/// `limit`: absent or null ⇒ 5; integers as they are; numbers truncated; integer strings parsed;
/// anything else ⇒ 5.
fn parse_limit(limit: Option<&Value>) -> i64 {
    match limit {
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().map(|f| f.trunc() as i64)).unwrap_or(5),
        Some(Value::String(s)) => parse_integer(s.trim()).unwrap_or(5),
        _ => 5,
    }
}

/// A signed integer's text (`+`/`-`, then ASCII digits), saturated at the ends of `i64`: a
/// limit too large to hold is still "every match", not the default.
fn parse_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i64>().unwrap_or(if negative { i64::MIN } else { i64::MAX }))
}

/// The longest `tool_search` query accepted, in characters (whitespace runs count as one).
pub(crate) const MAX_QUERY_CHARS: usize = 256;

/// The most distinct terms of a query that are scored (each as often as the query repeats it);
/// later new ones are ignored.
const MAX_QUERY_TERMS: usize = 16;

/// How many bytes of names and descriptions are searched between two yields to the executor.
const SCAN_BETWEEN_YIELDS: usize = 64 * 1024;

/// Scores the pool against a query: names in match order. Bounded by the query's length and
/// term count; whole descriptions are searched, and it yields to the executor after every
/// [`SCAN_BETWEEN_YIELDS`] bytes searched, so a timeout can always interrupt it.
pub(crate) async fn search(query: &str, pool: &[ToolSpec], locale: Locale, limit: i64) -> Vec<String> {
    let q = query.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
    let terms_text = q.replace(['_', '-'], " ");
    // Each distinct term once, with how often the query repeats it: every occurrence scores, and
    // each is searched for once.
    let mut terms: Vec<(&str, i64)> = Vec::new();
    for term in terms_text.split_whitespace() {
        if let Some((_, count)) = terms.iter_mut().find(|(seen, _)| *seen == term) {
            *count += 1;
        } else if terms.len() < MAX_QUERY_TERMS {
            terms.push((term, 1));
        }
    }
    // The whole query first, then each term: what the description is searched for.
    let patterns: Vec<&str> = std::iter::once(q.as_str()).chain(terms.iter().map(|(term, _)| *term)).collect();
    let mut scored: Vec<(i64, &str)> = Vec::new();
    let mut scanned = 0usize;
    for spec in pool {
        if scanned >= SCAN_BETWEEN_YIELDS {
            scanned = 0;
            tokio::task::yield_now().await;
        }
        let n = spec.name().to_lowercase();
        let description = spec.description(locale);
        scanned += n.len() + description.len();
        let in_description = find_lowercased(description, &patterns).await;
        let mut score = 0;
        if q == n {
            score += 1000;
        }
        if n.starts_with(&q) {
            score += 300;
        }
        if n.contains(&q) {
            score += 200;
        }
        if in_description[0] {
            score += 100;
        }
        for ((term, count), found) in terms.iter().zip(&in_description[1..]) {
            if n.contains(term) {
                score += 25 * count;
            }
            if *found {
                score += 10 * count;
            }
        }
        if score > 0 {
            scored.push((score, spec.name()));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(usize::try_from(limit).unwrap_or(usize::MAX)).map(|(_, name)| name.to_owned()).collect()
}
