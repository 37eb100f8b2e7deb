//! The tool registry (runtime.md §4): one name space over every provider, access rules, model
//! definitions and invocation with one result model.

use crate::access::AccessFacts;
use crate::provider::{RegistryLink, ToolProvider};
use futures_util::FutureExt;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::task::Poll;
use std::time::Duration;
use toolhook::args::{ArgsError, ArgsErrorKind, json_depth_exceeds, value_depth};
use toolhook::{
    Dialect, Locale, ToolArguments, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec, Visibility,
};

/// What to do when two providers offer tools with the same name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicatePolicy {
    /// The first tool keeps the name; later ones are not listed (a warning names both sources).
    #[default]
    Skip,
    /// Later tools are renamed `{provider_type}_{source}_{name}` (the reference's rule).
    Rename,
}

/// How a [`ToolRegistry`] behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegistryConfig {
    /// The language of every model-visible text the registry and its built-ins produce.
    pub locale: Locale,
    /// What to do with duplicate tool names.
    pub duplicate_policy: DuplicatePolicy,
    /// The timeout of a call whose tool sets none; `None` means no timeout. Default 60 s.
    pub default_timeout: Option<Duration>,
    /// Whether model definitions append the detailed description to the brief.
    pub include_detailed_description: bool,
    /// The longest arguments text accepted (bytes). Default 1 MiB.
    pub max_argument_bytes: usize,
    /// The deepest nesting of arguments accepted (the top-level object is 1). Default 64.
    pub max_argument_depth: usize,
}

impl Default for RegistryConfig {
    fn default() -> Self {
        RegistryConfig {
            locale: Locale::En,
            duplicate_policy: DuplicatePolicy::Skip,
            default_timeout: Some(Duration::from_secs(60)),
            include_detailed_description: false,
            max_argument_bytes: 1024 * 1024,
            max_argument_depth: 64,
        }
    }
}

impl RegistryConfig {
    /// Sets the locale.
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// Sets the duplicate policy.
    pub fn duplicate_policy(mut self, policy: DuplicatePolicy) -> Self {
        self.duplicate_policy = policy;
        self
    }

    /// Sets the default timeout (`None`: no timeout).
    pub fn default_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// Appends detailed descriptions to model definitions.
    pub fn include_detailed_description(mut self, include: bool) -> Self {
        self.include_detailed_description = include;
        self
    }

    /// Sets the largest arguments text accepted.
    pub fn max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self
    }

    /// Sets the deepest argument nesting accepted.
    pub fn max_argument_depth(mut self, depth: usize) -> Self {
        self.max_argument_depth = depth;
        self
    }
}

/// Providers that failed to close (see [`ToolRegistry::close`]).
#[derive(Debug, thiserror::Error)]
#[error("{} provider(s) failed to close: {}", .0.len(), .0.iter().map(|(p, e)| format!("{p}: {e}")).collect::<Vec<_>>().join("; "))]
pub struct CloseErrors(pub Vec<(String, ToolError)>);

/// Every tool of every provider under one name space.
///
/// `Send + Sync` and cheap to clone (the state is shared). Providers can be registered and removed
/// while calls run: each call works on a snapshot of the provider set, so it never sees half a
/// change. Listings are computed "as if" on every call but cached per provider set, provider
/// change count and context (runtime.md §4.3), so a call's cost does not grow with the number of
/// tools.
///
/// ```
/// use toolhook::{ToolInvocation, tool};
/// use toolhook_runtime::{PluginToolProvider, ToolRegistry};
///
/// /// Add two numbers.
/// #[tool(core_tool = true)]
/// fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let registry = ToolRegistry::default();
/// registry.register_provider(PluginToolProvider::from_declared());
/// let result = registry.invoke(ToolInvocation::new("add", r#"{"a": 2, "b": "3"}"#), None).await;
/// assert_eq!(result.content, "5");
/// let failed = registry.invoke(ToolInvocation::new("add", r#"{"a": 2}"#), None).await;
/// assert_eq!(failed.error_message, "Tool add failed: InvalidArguments: b: missing required parameter");
/// # });
/// ```
#[derive(Clone)]
pub struct ToolRegistry {
    inner: Arc<RegistryInner>,
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("config", &self.inner.config)
            .field("providers", &self.provider_names())
            .finish()
    }
}

impl Default for ToolRegistry {
    fn default() -> Self {
        ToolRegistry::new(RegistryConfig::default())
    }
}

pub(crate) struct RegistryInner {
    config: RegistryConfig,
    providers: RwLock<Arc<ProviderSet>>,
    warned: Mutex<HashSet<(String, String)>>,
}

struct ProviderSet {
    entries: Vec<ProviderEntry>,
    all_context_free: bool,
    cache: RwLock<HashMap<CacheKey, Arc<Routes>>>,
}

struct ProviderEntry {
    provider: Arc<dyn ToolProvider>,
    epoch: Arc<AtomicU64>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum ContextKey {
    Facts(AccessFacts),
    Full(Option<ToolAvailabilityContext>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    epochs: u64,
    context: ContextKey,
}

/// The context a route lookup comes with.
#[derive(Clone, Copy)]
enum Lookup<'a> {
    Availability(Option<&'a ToolAvailabilityContext>),
    Execution(Option<&'a ToolExecutionContext>),
}

/// The most listings cached per provider set (contexts are few in practice; this bounds memory
/// when they are not).
const CACHE_LIMIT: usize = 4096;

/// The outcome of computing routes: registry name → provider and listed copy, in order.
pub(crate) struct Routes {
    order: Vec<Route>,
    index: HashMap<String, usize>,
}

pub(crate) struct Route {
    provider: Arc<dyn ToolProvider>,
    original_name: String,
    listed: ToolSpec,
    /// Whether the provider lists this original name more than once (then the call must say
    /// which one it means).
    ambiguous: bool,
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new(config: RegistryConfig) -> Self {
        let set = ProviderSet { entries: Vec::new(), all_context_free: true, cache: RwLock::new(HashMap::default()) };
        ToolRegistry {
            inner: Arc::new(RegistryInner {
                config,
                providers: RwLock::new(Arc::new(set)),
                warned: Mutex::new(HashSet::default()),
            }),
        }
    }

    pub(crate) fn from_inner(inner: Arc<RegistryInner>) -> Self {
        ToolRegistry { inner }
    }

    /// The registry's configuration.
    pub fn config(&self) -> &RegistryConfig {
        &self.inner.config
    }

    /// The registry's locale.
    pub fn locale(&self) -> Locale {
        self.inner.config.locale
    }

    fn snapshot(&self) -> Arc<ProviderSet> {
        read(&self.inner.providers).clone()
    }

    fn replace_set(&self, change: impl FnOnce(&mut Vec<ProviderEntry>)) {
        let mut guard = write(&self.inner.providers);
        let mut entries: Vec<ProviderEntry> = guard
            .entries
            .iter()
            .map(|e| ProviderEntry { provider: e.provider.clone(), epoch: e.epoch.clone() })
            .collect();
        change(&mut entries);
        let all_context_free = entries.iter().all(|e| !e.provider.listing_depends_on_context());
        *guard = Arc::new(ProviderSet { entries, all_context_free, cache: RwLock::new(HashMap::default()) });
    }

    /// Registers a provider. One with the same `provider_name` is removed first; the new one is
    /// appended, so re-registering moves a provider to the end (which can change who keeps a
    /// contested name).
    pub fn register_provider(&self, provider: impl ToolProvider) {
        self.register_shared(Arc::new(provider));
    }

    /// Registers a provider that is shared elsewhere too.
    pub fn register_shared(&self, provider: Arc<dyn ToolProvider>) {
        let epoch = Arc::new(AtomicU64::new(0));
        provider.attach(RegistryLink::new(epoch.clone(), Arc::downgrade(&self.inner)));
        let name = provider.provider_name().to_owned();
        self.replace_set(|entries| {
            entries.retain(|e| e.provider.provider_name() != name);
            entries.push(ProviderEntry { provider, epoch });
        });
    }

    /// Removes a provider; `false` when none has that name.
    pub fn unregister_provider(&self, provider_name: &str) -> bool {
        if !self.snapshot().entries.iter().any(|e| e.provider.provider_name() == provider_name) {
            return false;
        }
        let mut removed = false;
        self.replace_set(|entries| {
            let before = entries.len();
            entries.retain(|e| e.provider.provider_name() != provider_name);
            removed = entries.len() != before;
        });
        removed
    }

    /// The registered providers' names, in order.
    pub fn provider_names(&self) -> Vec<String> {
        self.snapshot().entries.iter().map(|e| e.provider.provider_name().to_owned()).collect()
    }

    /// The tools available in a context, as listed copies (registry names, provider identity,
    /// `metadata.registry_original_name`), in route order.
    pub async fn list_tools(&self, ctx: Option<&ToolAvailabilityContext>) -> Vec<ToolSpec> {
        self.routes(ctx).await.order.iter().map(|r| r.listed.clone()).collect()
    }

    /// The listed copy of one tool, by registry name.
    pub async fn get_tool_spec(&self, name: &str, ctx: Option<&ToolAvailabilityContext>) -> Option<ToolSpec> {
        let routes = self.routes(ctx).await;
        routes.index.get(name).map(|&i| routes.order[i].listed.clone())
    }

    /// Whether a tool is available in a context, by registry name.
    pub async fn has_tool(&self, name: &str, ctx: Option<&ToolAvailabilityContext>) -> bool {
        self.routes(ctx).await.index.contains_key(name)
    }

    /// The model definitions of every available tool, in the registry's locale.
    pub async fn get_llm_definitions(&self, ctx: Option<&ToolAvailabilityContext>, dialect: Dialect) -> Vec<Value> {
        self.get_llm_definitions_in(ctx, dialect, self.locale()).await
    }

    /// The model definitions of every available tool, in a given locale.
    ///
    /// A strict dialect that cannot project a tool sends that tool in the non-strict form of the
    /// same API and logs a warning.
    pub async fn get_llm_definitions_in(
        &self,
        ctx: Option<&ToolAvailabilityContext>,
        dialect: Dialect,
        locale: Locale,
    ) -> Vec<Value> {
        let routes = self.routes(ctx).await;
        routes.order.iter().map(|route| self.definition(&route.listed, dialect, locale)).collect()
    }

    /// The model definition of one listed tool, as [`get_llm_definitions_in`](Self::get_llm_definitions_in)
    /// renders it.
    pub fn definition(&self, spec: &ToolSpec, dialect: Dialect, locale: Locale) -> Value {
        let brief = spec.description(locale);
        let detailed = spec.detailed_description(locale);
        let description = if self.inner.config.include_detailed_description && !detailed.is_empty() {
            format!("{brief}\n\n{detailed}")
        } else {
            brief.to_owned()
        };
        match spec.__llm_definition_described(dialect, locale, &description) {
            Ok(def) => def,
            Err(error) => {
                tracing::warn!(tool = spec.name(), %dialect, %error, "sending the tool in the non-strict form");
                spec.__llm_definition_described(dialect.non_strict(), locale, &description).unwrap_or(Value::Null)
            }
        }
    }

    /// Calls a tool. Never fails and never panics: every problem is a failed result whose
    /// `error_message` a model can act on (unknown tool, bad arguments, a provider error, a panic,
    /// a timeout).
    pub async fn invoke(&self, call: ToolInvocation, ctx: Option<&ToolExecutionContext>) -> ToolExecutionResult {
        let routes = match self.cached_routes(Lookup::Execution(ctx)) {
            Ok(routes) => routes,
            Err(miss) => {
                let (set, key) = *miss;
                let availability = ctx.map(ToolAvailabilityContext::from);
                Box::pin(self.fill_routes(set, key, availability.as_ref())).await
            }
        };
        let locale = self.locale();
        let requested = call.tool_name.clone();
        let Some(route) = routes.index.get(&requested).map(|&i| &routes.order[i]) else {
            tracing::debug!(tool = %requested, "tool not found, not available or denied in this context");
            return ToolExecutionResult::failure(requested.clone(), not_found(&requested, locale));
        };
        if let Some(error) = self.check_argument_limits(&call.arguments) {
            let text = failure_text(&requested, &error.into_tool_error(), locale);
            return ToolExecutionResult::failure(requested, text);
        }
        let provider_call = provider_call(route, call, &requested);
        // Providers produce texts in the registry's locale (runtime.md §4.1).
        let localized =
            ctx.filter(|c| c.locale != locale).map(|c| Box::new(ToolExecutionContext { locale, ..c.clone() }));
        let ctx = localized.as_deref().or(ctx);
        let timeout = route.listed.timeout().or(self.inner.config.default_timeout);
        let provider = &route.provider;
        let outcome = match std::panic::catch_unwind(AssertUnwindSafe(|| provider.invoke(provider_call, ctx))) {
            Ok(future) => run_guarded(future, timeout).await,
            Err(payload) => Err(panic_error(payload)),
        };
        match outcome {
            Ok(mut result) => {
                result.tool_name = requested;
                result
            }
            Err(error) => {
                tracing::error!(tool = %requested, provider = provider.provider_name(), %error, "tool call failed");
                let text = failure_text(&requested, &error, locale);
                ToolExecutionResult::failure(requested, text)
            }
        }
    }

    /// Closes every provider in registration order. A failing provider does not stop the others;
    /// every failure is returned. Providers stay registered.
    pub async fn close(&self) -> Result<(), CloseErrors> {
        let set = self.snapshot();
        let mut failures = Vec::new();
        for entry in &set.entries {
            let name = entry.provider.provider_name().to_owned();
            let closed = match std::panic::catch_unwind(AssertUnwindSafe(|| entry.provider.close())) {
                Ok(future) => AssertUnwindSafe(future).catch_unwind().await.unwrap_or_else(|p| Err(panic_error(p))),
                Err(p) => Err(panic_error(p)),
            };
            if let Err(error) = closed {
                tracing::error!(provider = %name, %error, "provider failed to close");
                failures.push((name, error));
            }
        }
        if failures.is_empty() { Ok(()) } else { Err(CloseErrors(failures)) }
    }

    fn check_argument_limits(&self, arguments: &ToolArguments) -> Option<ArgsError> {
        let config = &self.inner.config;
        let (bytes, too_deep) = match arguments {
            ToolArguments::Text(text) => (text.len(), json_depth_exceeds(text, config.max_argument_depth)),
            ToolArguments::Value(value) => (compact_len(value), value_depth(value) > config.max_argument_depth),
        };
        if bytes > config.max_argument_bytes {
            return Some(ArgsError::document(ArgsErrorKind::TooLarge(config.max_argument_bytes)));
        }
        too_deep.then(|| ArgsError::document(ArgsErrorKind::TooDeep(config.max_argument_depth)))
    }

    /// The routes for a context: cached per provider set, provider change counts and context.
    pub(crate) async fn routes(&self, ctx: Option<&ToolAvailabilityContext>) -> Arc<Routes> {
        match self.cached_routes(Lookup::Availability(ctx)) {
            Ok(routes) => routes,
            // The slow path is boxed so that every caller's future stays small.
            Err(miss) => {
                let (set, key) = *miss;
                Box::pin(self.fill_routes(set, key, ctx)).await
            }
        }
    }

    /// The cached routes, or what is needed to compute them.
    fn cached_routes(&self, lookup: Lookup<'_>) -> Result<Arc<Routes>, Box<(Arc<ProviderSet>, CacheKey)>> {
        let set = self.snapshot();
        let locale = self.locale();
        let epochs = set.entries.iter().map(|e| e.epoch.load(Ordering::Acquire)).fold(0u64, u64::wrapping_add);
        let context = if set.all_context_free {
            ContextKey::Facts(match lookup {
                Lookup::Availability(ctx) => AccessFacts::of(ctx),
                Lookup::Execution(ctx) => AccessFacts::of_execution(ctx),
            })
        } else {
            let ctx = match lookup {
                Lookup::Availability(ctx) => ctx.cloned(),
                Lookup::Execution(ctx) => ctx.map(ToolAvailabilityContext::from),
            };
            // Providers see the registry's locale (runtime.md §4.1).
            ContextKey::Full(ctx.map(|c| ToolAvailabilityContext { locale, ..c }))
        };
        let key = CacheKey { epochs, context };
        if let Some(routes) = read(&set.cache).get(&key) {
            return Ok(routes.clone());
        }
        Err(Box::new((set, key)))
    }

    async fn fill_routes(
        &self,
        set: Arc<ProviderSet>,
        key: CacheKey,
        ctx: Option<&ToolAvailabilityContext>,
    ) -> Arc<Routes> {
        let locale = self.locale();
        let localized;
        let ctx = match ctx {
            Some(c) if c.locale != locale => {
                localized = ToolAvailabilityContext { locale, ..c.clone() };
                Some(&localized)
            }
            other => other,
        };
        let (routes, complete) = self.compute_routes(&set, ctx).await;
        let routes = Arc::new(routes);
        if complete {
            let mut cache = write(&set.cache);
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, routes.clone());
        }
        routes
    }

    /// runtime.md §4.3 steps 1–5. `complete` is false when a provider failed (such a result is not
    /// cached, so the provider is asked again next time).
    async fn compute_routes(&self, set: &ProviderSet, ctx: Option<&ToolAvailabilityContext>) -> (Routes, bool) {
        let facts = AccessFacts::of(ctx);
        let mut complete = true;
        let mut candidates: Vec<(Arc<dyn ToolProvider>, ToolSpec)> = Vec::new();
        for entry in &set.entries {
            let provider = &entry.provider;
            let listed = match std::panic::catch_unwind(AssertUnwindSafe(|| provider.list_tools(ctx))) {
                Ok(future) => AssertUnwindSafe(future).catch_unwind().await.unwrap_or_else(|p| Err(panic_error(p))),
                Err(p) => Err(panic_error(p)),
            };
            let specs = match listed {
                Ok(specs) => specs,
                Err(error) => {
                    tracing::warn!(provider = provider.provider_name(), %error, "provider listing failed; skipped");
                    complete = false;
                    continue;
                }
            };
            for spec in specs {
                if !spec.enabled() || spec.visibility() == Visibility::Hidden {
                    continue;
                }
                if let Err(rule) = facts.permits(&spec) {
                    tracing::debug!(tool = spec.name(), rule, "tool denied by its access rules");
                    continue;
                }
                candidates.push((provider.clone(), spec));
            }
        }
        (self.assign_names(candidates), complete)
    }

    fn assign_names(&self, candidates: Vec<(Arc<dyn ToolProvider>, ToolSpec)>) -> Routes {
        let policy = self.inner.config.duplicate_policy;
        let reserved: HashSet<&str> = candidates.iter().map(|(_, s)| s.name()).collect();
        let mut per_provider: HashMap<(*const (), &str), usize> =
            HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
        for (provider, spec) in &candidates {
            *per_provider.entry((Arc::as_ptr(provider).cast::<()>(), spec.name())).or_default() += 1;
        }
        let mut order: Vec<Route> = Vec::with_capacity(candidates.len());
        let mut index: HashMap<String, usize> = HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
        for (provider, spec) in &candidates {
            let original = spec.name();
            let registry_name = if !index.contains_key(original) {
                original.to_owned()
            } else {
                match policy {
                    DuplicatePolicy::Skip => {
                        let winner = order[index[original]].provider.provider_name().to_owned();
                        self.warn_skipped(original, provider.provider_name(), &winner);
                        continue;
                    }
                    DuplicatePolicy::Rename => match rename(provider.as_ref(), spec, &index, &reserved) {
                        Some(name) => name,
                        None => continue,
                    },
                }
            };
            let listed = spec.__listed_copy(&registry_name, provider.provider_name(), provider.provider_type());
            index.insert(registry_name, order.len());
            let ambiguous = per_provider.get(&(Arc::as_ptr(provider).cast::<()>(), original)).is_some_and(|n| *n > 1);
            order.push(Route { provider: provider.clone(), original_name: original.to_owned(), listed, ambiguous });
        }
        Routes { order, index }
    }

    fn warn_skipped(&self, tool: &str, skipped: &str, winner: &str) {
        let mut warned = self.inner.warned.lock().unwrap_or_else(|p| p.into_inner());
        if warned.insert((skipped.to_owned(), tool.to_owned())) {
            tracing::warn!(
                tool,
                skipped_provider = skipped,
                winning_provider = winner,
                "duplicate tool name: provider {skipped}'s {tool} is skipped, {winner}'s keeps the name"
            );
        }
    }
}

/// The reference's renaming rule (runtime.md §4.4, `Rename`).
fn rename(
    provider: &dyn ToolProvider,
    spec: &ToolSpec,
    index: &HashMap<String, usize>,
    reserved: &HashSet<&str>,
) -> Option<String> {
    let name = spec.name();
    let meta = |key: &str| spec.metadata().get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let source = meta("server_name").or_else(|| meta("plugin_id")).unwrap_or(provider.provider_name());
    let provider_type = provider.provider_type();
    let prefix = if source == provider_type { source.to_owned() } else { format!("{provider_type}_{source}") };
    let sanitise = |text: &str| -> String {
        text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
    };
    let taken = |candidate: &str| index.contains_key(candidate) || reserved.contains(candidate);
    let mut candidate = sanitise(&format!("{prefix}_{name}"));
    if candidate.len() > 64 || taken(&candidate) {
        let digest = Sha256::digest(format!("{}:{source}:{name}", provider.provider_name()).as_bytes());
        let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
        candidate = format!("{}_{hex}", &candidate[..candidate.len().min(51)]);
    }
    if taken(&candidate) {
        tracing::error!("cannot assign a unique name to duplicate tool {}/{source}/{name}", provider.provider_name());
        return None;
    }
    Some(candidate)
}

/// The invocation a provider receives (runtime.md §4.9 step 5).
fn provider_call(route: &Route, mut call: ToolInvocation, requested: &str) -> ToolInvocation {
    if route.original_name != requested {
        call.tool_name = route.original_name.clone();
    }
    // Which of the provider's tools is meant: MCP calls always name their server (a caller cannot
    // forge it); plugin calls name their plugin when the provider lists the name more than once,
    // or when the caller tried to name one.
    let pinned_key = match route.provider.provider_type() {
        "mcp" => Some(("mcp_server_name", "server_name")),
        "plugin" if route.ambiguous || call.metadata.contains_key("plugin_id") => Some(("plugin_id", "plugin_id")),
        _ => None,
    };
    if let Some((key, from)) = pinned_key {
        match route.listed.metadata().get(from).filter(|v| v.as_str().is_some_and(|s| !s.is_empty())) {
            Some(value) => {
                call.metadata.insert(key.to_owned(), value.clone());
            }
            None => {
                call.metadata.remove(key);
            }
        }
    }
    call
}

/// Runs a provider's future with the timeout, catching panics.
async fn run_guarded(
    future: toolhook::BoxFuture<'_, Result<ToolExecutionResult, ToolError>>,
    timeout: Option<Duration>,
) -> Result<ToolExecutionResult, ToolError> {
    let mut guarded = AssertUnwindSafe(future).catch_unwind();
    // Most tools answer on their first poll: only a call that has to wait arms the timer (boxed,
    // so the common path carries no timer state).
    let first = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut guarded).poll(cx))).await;
    let outcome = match (first, timeout) {
        (Poll::Ready(outcome), _) => outcome,
        (Poll::Pending, None) => guarded.await,
        (Poll::Pending, Some(limit)) => match Box::pin(tokio::time::timeout(limit, guarded)).await {
            Ok(outcome) => outcome,
            Err(_) => {
                let ms = limit.as_millis();
                return Err(ToolError::localized(
                    "Timeout",
                    format!("no result within {ms} ms"),
                    format!("超过 {ms}ms 未返回结果"),
                ));
            }
        },
    };
    outcome.unwrap_or_else(|payload| Err(panic_error(payload)))
}

/// A `Panic` error with the payload's text (when it is a string).
pub(crate) fn panic_error(payload: Box<dyn std::any::Any + Send>) -> ToolError {
    ToolError::panic(panic_message(&*payload).unwrap_or_default())
}

/// The text of a panic payload, when it is a string.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| payload.downcast_ref::<String>().cloned())
}

/// `Tool not found: {name}` / `未找到工具：{name}`.
pub(crate) fn not_found(name: &str, locale: Locale) -> String {
    match locale {
        Locale::En => format!("Tool not found: {name}"),
        Locale::ZhHans => format!("未找到工具：{name}"),
    }
}

/// `Tool {name} failed: {type}: {message}` and its zh-Hans form.
pub(crate) fn failure_text(name: &str, error: &ToolError, locale: Locale) -> String {
    let message = error.message(locale).trim();
    let kind = error.type_name();
    match (locale, message.is_empty()) {
        (Locale::En, true) => format!("Tool {name} failed: {kind}"),
        (Locale::En, false) => format!("Tool {name} failed: {kind}: {message}"),
        (Locale::ZhHans, true) => format!("工具 {name} 调用失败：{kind}"),
        (Locale::ZhHans, false) => format!("工具 {name} 调用失败：{kind}: {message}"),
    }
}

fn compact_len(value: &Value) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}
