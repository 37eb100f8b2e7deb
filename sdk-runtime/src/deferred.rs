//! Deferred tools: advertised only after `tool_search` found them in the session,
//! callable by name at any time.

use crate::cache::{Bounded, bounded};
use crate::provider::RegistryLink;
use crate::provider::builtin::{BuiltinTool, PhaseFilter};
use crate::registry::ToolRegistry;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};
use toolhook::{
    Dialect, Locale, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec, Visibility,
};

/// The name of the built-in search tool.
pub const TOOL_SEARCH: &str = "tool_search";

/// Which deferred tools each session has discovered, shared by the host and `tool_search`.
///
/// A host that serves deferred tools calls [`prepare_round`](Self::prepare_round) before each
/// model request and sends the round's [`definitions`](RoundTools::definitions) with its
/// [`reminder`](RoundTools::reminder), then runs the model's calls with
/// [`invoke`](Self::invoke). [`ToolRegistry::get_llm_definitions`] is not the round: it lists
/// every available tool, undiscovered deferred ones included, and writes no reminder.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use toolhook::ToolExecutionContext;
/// use toolhook_runtime::{BuiltinToolProvider, ToolRegistry};
///
/// let builtin = BuiltinToolProvider::new();
/// let deferred = builtin.deferred().clone();
/// let registry = ToolRegistry::default();
/// registry.register_provider(builtin);
/// let round = deferred.prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
/// assert_eq!(round.advertised().iter().map(|t| t.name()).collect::<Vec<_>>(), ["tool_search"]);
/// assert!(round.reminder().is_none());
/// # });
/// ```
///
/// The state of at most [`DEFAULT_SESSION_CAPACITY`](Self::DEFAULT_SESSION_CAPACITY) sessions is
/// kept (see [`with_session_capacity`](Self::with_session_capacity)); the least recently used
/// session beyond that is forgotten, and its model simply finds its tools again with
/// `tool_search`.
#[derive(Clone)]
pub struct DeferredTools {
    sessions: Arc<Bounded<String, Arc<Mutex<HashSet<String>>>>>,
}

impl std::fmt::Debug for DeferredTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeferredTools")
            .field("sessions", &self.sessions.len())
            .field("capacity", &self.sessions.capacity())
            .finish()
    }
}

impl Default for DeferredTools {
    fn default() -> Self {
        Self::with_session_capacity(Self::DEFAULT_SESSION_CAPACITY)
    }
}

/// The tools of one round: what to advertise, the deferred pool, and the reminder listing the
/// undiscovered ones.
#[derive(Clone, Debug)]
pub struct RoundTools {
    advertised: Vec<ToolSpec>,
    pool: Vec<ToolSpec>,
    reminder: Option<String>,
    registry: ToolRegistry,
}

impl RoundTools {
    /// Visible tools, then the discovered deferred ones (in pool order).
    pub fn advertised(&self) -> &[ToolSpec] {
        &self.advertised
    }

    /// Every deferred tool available in the context, in registry order.
    pub fn pool(&self) -> &[ToolSpec] {
        &self.pool
    }

    /// The `<system-reminder>` text listing undiscovered tools, when there are any.
    pub fn reminder(&self) -> Option<&str> {
        self.reminder.as_deref()
    }

    /// The advertised tools' definitions in the registry's locale: what a host that serves
    /// deferred tools sends the model this round.
    ///
    /// These are the visible tools and the deferred ones the session has discovered, not every
    /// available tool as [`ToolRegistry::get_llm_definitions`] gives; the undiscovered deferred
    /// tools are named in the [`reminder`](Self::reminder) instead. Each is rendered as
    /// [`ToolRegistry::definition`] renders it (so
    /// [`RegistryConfig::include_detailed_description`](field@crate::RegistryConfig::include_detailed_description)
    /// applies).
    pub fn definitions(&self, dialect: Dialect) -> Vec<Value> {
        self.advertised.iter().map(|spec| self.registry.definition(spec, dialect, self.registry.locale())).collect()
    }
}

impl DeferredTools {
    /// How many sessions' discoveries are kept by default.
    pub const DEFAULT_SESSION_CAPACITY: usize = 10_000;

    /// An empty discovery state.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty discovery state that keeps at most `capacity` sessions (least recently used
    /// ones are forgotten first).
    pub fn with_session_capacity(capacity: usize) -> Self {
        DeferredTools { sessions: Arc::new(bounded(capacity)) }
    }

    /// A session's set, created when absent.
    fn session(&self, session: &str) -> Arc<Mutex<HashSet<String>>> {
        if let Some(set) = self.sessions.get(session) {
            return set;
        }
        let fresh = Arc::new(Mutex::new(HashSet::new()));
        self.sessions.get_or_insert_with(session, || Ok::<_, ()>(fresh.clone())).unwrap_or(fresh)
    }

    /// The names a session has discovered (unordered).
    pub fn discovered(&self, session: &str) -> HashSet<String> {
        self.sessions.get(session).map(|set| lock(&set).clone()).unwrap_or_default()
    }

    /// Marks names as discovered in a session.
    pub fn discover<S: Into<String>>(&self, session: &str, names: impl IntoIterator<Item = S>) {
        lock(&self.session(session)).extend(names.into_iter().map(Into::into));
    }

    /// Forgets a session.
    pub fn forget(&self, session: &str) {
        self.sessions.remove(session);
    }

    /// Re-derives a session's discoveries from the `tool_search` results still in the host's
    /// context: the matched names of the successful ones (`structured_content.matched_tool_names`,
    /// else the content lines `- {name} (` / `- {name}（`). Names that left the pool are dropped at
    /// the next [`prepare_round`](Self::prepare_round).
    pub fn resync(&self, session: &str, results: &[ToolExecutionResult]) {
        let mut names = HashSet::new();
        for result in results.iter().filter(|r| r.success) {
            match result.structured_content.as_ref().and_then(|s| s.get("matched_tool_names")).and_then(Value::as_array)
            {
                Some(matched) => names.extend(matched.iter().filter_map(Value::as_str).map(str::to_owned)),
                None => {
                    for line in result.content.lines() {
                        let Some(rest) = line.strip_prefix("- ") else { continue };
                        let end = [rest.find(" ("), rest.find('（')].into_iter().flatten().min();
                        if let Some(end) = end {
                            names.insert(rest[..end].to_owned());
                        }
                    }
                }
            }
        }
        *lock(&self.session(session)) = names;
    }

    /// Splits the tools available in a context into what to advertise this round and the deferred
    /// pool, and writes the reminder. Call it before each model request; the round's
    /// [`definitions`](RoundTools::definitions) replace
    /// [`ToolRegistry::get_llm_definitions`] for a host that serves deferred tools.
    pub async fn prepare_round(&self, registry: &ToolRegistry, ctx: &ToolExecutionContext) -> RoundTools {
        let availability = ToolAvailabilityContext::from(ctx);
        let specs = registry.list_tools(Some(&availability)).await;
        let (visible, pool): (Vec<ToolSpec>, Vec<ToolSpec>) = specs
            .into_iter()
            .filter(|s| matches!(s.visibility(), Visibility::Visible | Visibility::Deferred))
            .partition(|s| s.visibility() == Visibility::Visible);
        let pool_names: HashSet<&str> = pool.iter().map(ToolSpec::name).collect();
        let discovered: HashSet<String> = match self.sessions.get(ctx.session_id.as_str()) {
            Some(set) => {
                let mut set = lock(&set);
                set.retain(|name| pool_names.contains(name.as_str()));
                set.clone()
            }
            None => HashSet::new(),
        };
        let mut advertised = visible;
        advertised.extend(pool.iter().filter(|s| discovered.contains(s.name())).cloned());
        let undiscovered: Vec<&ToolSpec> = pool.iter().filter(|s| !discovered.contains(s.name())).collect();
        let reminder = (!undiscovered.is_empty()).then(|| reminder_text(&undiscovered, registry.locale()));
        RoundTools { advertised, pool, reminder, registry: registry.clone() }
    }

    /// Calls a tool through the registry; a failed call of a deferred tool the session has not
    /// discovered gets a hint to look it up with `tool_search` first.
    pub async fn invoke(
        &self,
        registry: &ToolRegistry,
        call: ToolInvocation,
        ctx: &ToolExecutionContext,
    ) -> ToolExecutionResult {
        let name = call.tool_name.clone();
        let mut result = registry.invoke(call, Some(ctx)).await;
        if result.success {
            return result;
        }
        let availability = ToolAvailabilityContext::from(ctx);
        let deferred = registry
            .get_tool_spec(&name, Some(&availability))
            .await
            .is_some_and(|spec| spec.visibility() == Visibility::Deferred);
        if deferred && !self.discovered(&ctx.session_id).contains(&name) {
            let hint = match registry.locale() {
                Locale::En => "Use tool_search to look up this tool's parameters, then try again.",
                Locale::ZhHans => "请通过 tool_search 查看具体的工具参数后再重试。",
            };
            let target = if !result.error_message.is_empty() {
                &mut result.error_message
            } else if !result.content.is_empty() {
                &mut result.content
            } else {
                &mut result.error_message
            };
            if !target.contains(hint) {
                if !target.is_empty() {
                    target.push('\n');
                }
                target.push_str(hint);
            }
        }
        result
    }
}

fn lock(set: &Mutex<HashSet<String>>) -> std::sync::MutexGuard<'_, HashSet<String>> {
    set.lock().unwrap_or_else(|p| p.into_inner())
}

fn reminder_text(undiscovered: &[&ToolSpec], locale: Locale) -> String {
    let (intro, closing) = match locale {
        Locale::En => (
            "The following tools are not exposed to you directly, but you can discover them with the tool_search tool and use them in later rounds:",
            "Call tool_search first if you need one of them. tool_search only discovers tools; it does not run them.",
        ),
        Locale::ZhHans => (
            "以下工具当前未直接暴露给你，但可以通过 tool_search 工具发现并在后续轮次中使用：",
            "如需其中某个工具，请先调用 tool_search。tool_search 只负责发现工具，不直接执行。",
        ),
    };
    let mut lines = vec!["<system-reminder>".to_owned(), intro.to_owned()];
    for (i, spec) in undiscovered.iter().enumerate() {
        let description = spec.description(locale);
        lines.push(if description.is_empty() {
            format!("{}. {}", i + 1, spec.name())
        } else {
            format!("{}. {}: {description}", i + 1, spec.name())
        });
    }
    lines.push(String::new());
    lines.push(closing.to_owned());
    lines.push("</system-reminder>".to_owned());
    lines.join("\n")
}

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

pub(crate) fn tool_search_entry(deferred: DeferredTools, link: Arc<OnceLock<RegistryLink>>) -> BuiltinTool {
    let spec = tool_search_spec();
    BuiltinTool::new(spec, move |call, ctx| {
        let deferred = deferred.clone();
        let registry = link.get().and_then(RegistryLink::registry);
        async move {
            let Some(registry) = registry else {
                return Err(ToolError::new("Unavailable", "tool_search is not registered with a registry"));
            };
            Ok(run_tool_search(&deferred, &registry, call, ctx).await)
        }
    })
    .phase(PhaseFilter::Action)
}

/// `tool_search`'s handler.
async fn run_tool_search(
    deferred: &DeferredTools,
    registry: &ToolRegistry,
    call: ToolInvocation,
    ctx: Option<ToolExecutionContext>,
) -> ToolExecutionResult {
    let locale = ctx.as_ref().map_or(registry.locale(), |c| c.locale);
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
    let session =
        ctx.as_ref().map(|c| c.session_id.clone()).filter(|s| !s.is_empty()).unwrap_or_else(|| call.session_id.clone());
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
        let mut result = ToolExecutionResult::success(call.tool_name, content);
        result.structured_content = Some(Value::Object(structured));
        return result;
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
    result.structured_content = Some(Value::Object(structured));
    result
}

/// `limit`: absent or null ⇒ 5; integers as they are; numbers truncated; integer strings parsed;
/// anything else ⇒ 5.
fn parse_limit(limit: Option<&Value>) -> i64 {
    match limit {
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().map(|f| f.trunc() as i64)).unwrap_or(5),
        Some(Value::String(s)) => s.trim().parse::<i64>().unwrap_or(5),
        _ => 5,
    }
}

/// The longest `tool_search` query accepted, in characters (whitespace runs count as one).
pub(crate) const MAX_QUERY_CHARS: usize = 256;

/// The most distinct terms of a query that are scored; later ones are ignored.
const MAX_QUERY_TERMS: usize = 16;

/// How much of a description is searched (a provider may send a very long one).
const MAX_SCANNED_DESCRIPTION: usize = 4096;

/// Scores the pool against a query: names in match order. Bounded by the query's length and
/// term count, and it yields to the executor between chunks of tools, so a timeout can always
/// interrupt it.
pub(crate) async fn search(query: &str, pool: &[ToolSpec], locale: Locale, limit: i64) -> Vec<String> {
    let q = query.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
    let terms_text = q.replace(['_', '-'], " ");
    let mut terms: Vec<&str> = Vec::new();
    for term in terms_text.split_whitespace() {
        if !terms.contains(&term) {
            terms.push(term);
        }
        if terms.len() == MAX_QUERY_TERMS {
            break;
        }
    }
    let mut scored: Vec<(i64, &str)> = Vec::new();
    for (i, spec) in pool.iter().enumerate() {
        if i % 256 == 255 {
            tokio::task::yield_now().await;
        }
        let n = spec.name().to_lowercase();
        let description = spec.description(locale);
        let mut end = description.len().min(MAX_SCANNED_DESCRIPTION);
        while !description.is_char_boundary(end) {
            end -= 1;
        }
        let d = description[..end].to_lowercase();
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
        if d.contains(&q) {
            score += 100;
        }
        for term in &terms {
            if n.contains(term) {
                score += 25;
            }
            if d.contains(term) {
                score += 10;
            }
        }
        if score > 0 {
            scored.push((score, spec.name()));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(usize::try_from(limit).unwrap_or(usize::MAX)).map(|(_, name)| name.to_owned()).collect()
}
