//! Deferred tools: advertised only after `tool_search` found them in the session,
//! callable by name at any time.

use crate::cache::{Bounded, bounded};
use crate::registry::ToolRegistry;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use toolhook::{
    Dialect, Locale, ToolAvailabilityContext, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
    Visibility,
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
/// undiscovered ones. Read them as fields or through the methods of the same names.
#[derive(Clone, Debug)]
pub struct RoundTools {
    /// Visible tools, then the discovered deferred ones (in pool order).
    pub advertised: Vec<ToolSpec>,
    /// Every deferred tool available in the context, in registry order.
    pub pool: Vec<ToolSpec>,
    /// The `<system-reminder>` text listing undiscovered tools, when there are any.
    pub reminder: Option<String>,
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

    /// [`definitions`](Self::definitions) as the JSON array text a model API receives, byte for
    /// byte their serialisation. It is written without building the values for the dialects
    /// that take a schema as it is (neutral, OpenAI Chat and Responses, Anthropic), a `#[tool]`'s
    /// schema as the text rendered at compile time.
    ///
    /// ```
    /// use toolhook::{Dialect, ToolExecutionContext, tool};
    /// use toolhook_runtime::{DeferredTools, PluginToolProvider, ToolRegistry};
    ///
    /// /// Say when the sun rises in a city.
    /// #[tool(core_tool = true)]
    /// fn sunrise(
    ///     /// The city's name.
    ///     city: String,
    /// ) -> String {
    ///     format!("{city}: 06:12")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let registry = ToolRegistry::default();
    /// registry.register_provider(PluginToolProvider::from_declared());
    /// let round = DeferredTools::new().prepare_round(&registry, &ToolExecutionContext::for_session("s1")).await;
    /// let text = round.definitions_json(Dialect::Anthropic);
    /// assert_eq!(text, serde_json::to_string(&round.definitions(Dialect::Anthropic)).unwrap());
    /// assert!(text.starts_with(r#"[{"name":""#));
    /// # });
    /// ```
    pub fn definitions_json(&self, dialect: Dialect) -> String {
        let specs = self.advertised.iter().map(|spec| (spec, spec.name()));
        self.registry.definitions_text_of(specs, dialect, self.registry.locale())
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
            match result.structured_content().and_then(|s| s.get("matched_tool_names")).and_then(Value::as_array) {
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
    /// discovered gets a hint to look it up with `tool_search` first. The session is the
    /// context's, else the call's (as `tool_search` reads it).
    pub async fn invoke(
        &self,
        registry: &ToolRegistry,
        call: ToolInvocation,
        ctx: &ToolExecutionContext,
    ) -> ToolExecutionResult {
        let name = call.tool_name.clone();
        let call_session = ctx.session_id.is_empty().then(|| call.session_id().to_owned());
        let mut result = registry.invoke(call, Some(ctx)).await;
        if result.success {
            return result;
        }
        let availability = ToolAvailabilityContext::from(ctx);
        let deferred = registry
            .get_tool_spec(&name, Some(&availability))
            .await
            .is_some_and(|spec| spec.visibility() == Visibility::Deferred);
        let session = call_session.as_deref().unwrap_or(&ctx.session_id);
        // Discoveries hold listed names; a tool called by its own name answers under its listed one.
        if deferred && !self.discovered(session).contains(&result.tool_name) {
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
