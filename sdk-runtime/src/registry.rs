//! The tool registry: one name space over every provider, access rules, model definitions and
//! invocation with one result model.

use crate::access::AccessFacts;
use crate::cache::{Bounded, bounded};
use crate::context_parts::{ContextParts, ContextView};
use crate::guard::{self, Guarded, Stamp};
use crate::listing::{Found, ListingSettings, ProviderListings};
use crate::provider::{Called, LinkedRegistry, RegistryLink, ToolProvider};
use crate::recent_routes;
use crate::routes::{self, DuplicatePolicy, ProviderKind, RouteRef, Routes, Warnings, shown};
use crate::strict_arguments::undo_strict_forms;
use serde_json::Value;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::time::Instant;
use toolhook::args::{ArgsError, ArgsErrorKind, json_depth_exceeds};
use toolhook::{
    Dialect, Locale, ToolArguments, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult,
    ToolInvocation, ToolSpec,
};

/// The deepest nesting of arguments a registry can accept, whatever
/// [`RegistryConfig::max_argument_depth`] says: JSON text nested deeper cannot be parsed
/// (`serde_json` stops at this depth so that parsing cannot overflow the stack), and a value is
/// held to the same limit so that text and values are treated alike.
pub const MAX_ARGUMENT_DEPTH: usize = 127;

/// How a [`ToolRegistry`] behaves.
///
/// Every wait has a bound and every cache a size: a host can run for months on the defaults.
/// Set what you need and take the rest from the defaults, with the builder methods or a struct
/// literal ending in `..RegistryConfig::default()` (options are added in minor releases, so a
/// literal that names every field can stop compiling):
///
/// ```
/// use std::time::Duration;
/// use toolhook_runtime::{DuplicatePolicy, RegistryConfig};
///
/// let config = RegistryConfig {
///     duplicate_policy: DuplicatePolicy::Rename,
///     default_timeout: Some(Duration::from_secs(5)),
///     ..RegistryConfig::default()
/// };
/// assert_eq!(config, RegistryConfig::default().duplicate_policy(DuplicatePolicy::Rename).default_timeout(Some(Duration::from_secs(5))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryConfig {
    /// The language of every model-visible text the registry and its built-ins produce.
    pub locale: Locale,
    /// What to do with duplicate tool names.
    pub duplicate_policy: DuplicatePolicy,
    /// The timeout of a call whose tool sets none; `None` means no timeout. Default 60 s. A
    /// call's timeout counts from the moment [`ToolRegistry::invoke`] is called, so it covers
    /// finding the tool too.
    pub default_timeout: Option<Duration>,
    /// Whether model definitions append the detailed description to the brief. Default `false`.
    ///
    /// Off, a definition's description is the tool's brief alone (for `#[tool]`, the first
    /// paragraph of its doc comment); each parameter's description, allowed values and default
    /// still reach the model inside the schema. On, the description is the brief, a blank line
    /// and [`ToolSpec::detailed_description`]: the generated `Parameter details:` /
    /// `参数说明：` block, then the author text (for `#[tool]`, the doc comment after its first
    /// paragraph). It applies to every definition the registry renders:
    /// [`ToolRegistry::get_llm_definitions`], [`RoundTools::definitions`](crate::RoundTools::definitions)
    /// and the tools an MCP server lists. The default matches the system toolhook replaces.
    pub include_detailed_description: bool,
    /// The longest arguments text accepted (bytes). Default 1 MiB.
    pub max_argument_bytes: usize,
    /// The deepest nesting of arguments accepted (the top-level object is 1). Default 64; at
    /// most [`MAX_ARGUMENT_DEPTH`]: a larger setting counts as that.
    pub max_argument_depth: usize,
    /// The longest a provider's listing may take; a listing that takes longer counts as failed.
    /// Default 10 s.
    pub listing_timeout: Duration,
    /// How long a provider whose listing failed is left alone before it is listed again; doubled
    /// after each further failure up to [`max_listing_backoff`](Self::max_listing_backoff).
    /// Default 1 s.
    pub listing_backoff: Duration,
    /// The longest wait between two listings of a failing provider. Default 60 s.
    pub max_listing_backoff: Duration,
    /// How many distinct contexts each provider's listings are cached for (only what the provider
    /// declares it reads tells contexts apart, see
    /// [`ToolProvider::listing_depends_on`]). Default 1024.
    pub listing_cache_capacity: usize,
    /// How many name spaces (one per combination of listings and access facts: platform, chat
    /// scope, permission) are cached. Default 64.
    pub route_cache_capacity: usize,
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
            listing_timeout: Duration::from_secs(10),
            listing_backoff: Duration::from_secs(1),
            max_listing_backoff: Duration::from_secs(60),
            listing_cache_capacity: 1024,
            route_cache_capacity: 64,
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

    /// Appends each tool's detailed description (its generated parameter docs and the rest of
    /// its doc comment) to the brief in model definitions; see
    /// the [field of the same name](field@RegistryConfig::include_detailed_description).
    ///
    /// ```
    /// use toolhook::{DeclaredTool, Dialect, Locale, tool};
    /// use toolhook_runtime::{RegistryConfig, ToolRegistry};
    ///
    /// /// Look up the weather for a city.
    /// ///
    /// /// Forecasts beyond five days are unreliable.
    /// #[tool(core_tool = true)]
    /// fn city_forecast(
    ///     /// City name.
    ///     city: String,
    /// ) -> String {
    ///     format!("{city}: sunny")
    /// }
    ///
    /// let spec = DeclaredTool::all().into_iter().find(|t| t.name() == "city_forecast").unwrap().spec()?;
    /// // The default: the brief alone.
    /// let plain = ToolRegistry::default().definition(&spec, Dialect::Anthropic, Locale::En);
    /// assert_eq!(plain["description"], "Look up the weather for a city.");
    /// // Turned on: the brief, then the parameter docs and the rest of the doc comment.
    /// let registry = ToolRegistry::new(RegistryConfig::default().include_detailed_description(true));
    /// assert_eq!(
    ///     registry.definition(&spec, Dialect::Anthropic, Locale::En)["description"],
    ///     "Look up the weather for a city.\n\n\
    ///      Parameter details:\n\
    ///      - city: string, required. City name\n\
    ///      \n\
    ///      Forecasts beyond five days are unreliable."
    /// );
    /// let zh = registry.definition(&spec, Dialect::Anthropic, Locale::ZhHans);
    /// assert!(zh["description"].as_str().unwrap().contains("参数说明："));
    /// # Ok::<(), toolhook::ToolSpecError>(())
    /// ```
    pub fn include_detailed_description(mut self, include: bool) -> Self {
        self.include_detailed_description = include;
        self
    }

    /// Sets the largest arguments text accepted.
    pub fn max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self
    }

    /// Sets the deepest argument nesting accepted; at most [`MAX_ARGUMENT_DEPTH`], which a
    /// larger depth counts as.
    pub fn max_argument_depth(mut self, depth: usize) -> Self {
        self.max_argument_depth = depth;
        self
    }

    /// Sets the listing timeout.
    pub fn listing_timeout(mut self, timeout: Duration) -> Self {
        self.listing_timeout = timeout;
        self
    }

    /// Sets the first and the longest wait before a failed listing is retried.
    pub fn listing_backoff(mut self, first: Duration, max: Duration) -> Self {
        self.listing_backoff = first;
        self.max_listing_backoff = max.max(first);
        self
    }

    /// Sets how many contexts each provider's listings are cached for.
    pub fn listing_cache_capacity(mut self, capacity: usize) -> Self {
        self.listing_cache_capacity = capacity;
        self
    }

    /// Sets how many name spaces are cached.
    pub fn route_cache_capacity(mut self, capacity: usize) -> Self {
        self.route_cache_capacity = capacity;
        self
    }

    fn listing_settings(&self) -> ListingSettings {
        ListingSettings {
            timeout: self.listing_timeout,
            backoff: self.listing_backoff,
            max_backoff: self.max_listing_backoff,
            capacity: self.listing_cache_capacity,
        }
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
/// change.
///
/// Listings behave as if they were made on every call, but each provider's listing is cached
/// by the parts of the context it reads ([`ToolProvider::listing_depends_on`]) and each name
/// space by the listings and the caller's access facts, both in bounded caches: a call costs
/// the same with one tool or ten thousand, and memory stays flat however many sessions, users
/// or groups call. A provider whose listing is slow, hangs or fails costs only its own tools: a
/// listing has a timeout, a failed one is retried with backoff while the last good listing (if
/// any) keeps serving, and a call never waits for another provider's listing when its own tool
/// is already known.
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
    /// Unique in the process: what the per-thread memo of name spaces knows the registry by.
    id: u64,
    /// Bumped whenever the tools may have changed (a provider came, went or said so), before the
    /// watchers are told: a name space remembered at an older generation is not used.
    generation: AtomicU64,
    config: RegistryConfig,
    providers: RwLock<Arc<ProviderSet>>,
    warnings: Warnings,
    /// Bumped whenever the tools may have changed (a provider came, went or said so).
    changes: tokio::sync::watch::Sender<u64>,
    /// Whether access rules are checked here; false in a plugin process, whose host checks
    /// them (see [`ToolRegistry::leaving_access_to_client`]).
    checks_access: bool,
}

impl LinkedRegistry for RegistryInner {
    fn changed(&self) {
        RegistryInner::changed(self);
    }
}

impl RegistryLink {
    /// The registry, while it exists.
    pub fn registry(&self) -> Option<ToolRegistry> {
        let inner: Arc<dyn std::any::Any + Send + Sync> = self.registry.upgrade()?;
        inner.downcast::<RegistryInner>().ok().map(ToolRegistry::from_inner)
    }
}

impl RegistryInner {
    pub(crate) fn changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// Tells a registry's watchers when its tools may have changed; see [`ToolRegistry::subscribe`].
#[derive(Debug)]
pub struct RegistryChanges {
    receiver: tokio::sync::watch::Receiver<u64>,
}

impl RegistryChanges {
    /// Resolves at the next change after the last one seen; `false` once the registry is gone.
    /// Changes that come while nobody waits are seen as one.
    pub async fn changed(&mut self) -> bool {
        self.receiver.changed().await.is_ok()
    }
}

/// The registered providers, in order, and the name spaces computed over them.
struct ProviderSet {
    entries: Vec<Arc<ProviderListings>>,
    routes: Bounded<RoutesKey, Arc<Routes>>,
    /// The parts of a context that tell its name space apart: those any provider's listing
    /// reads, and those the access rules read.
    parts: ContextParts,
}

/// What a name space depends on: the listing each provider contributed (0: none), and the
/// caller's access facts.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RoutesKey {
    listings: SmallVec<[u64; 4]>,
    facts: AccessFacts,
}

/// The context a lookup comes with.
#[derive(Clone, Copy)]
enum Caller<'a> {
    Availability(Option<&'a ToolAvailabilityContext>),
    Execution(Option<&'a ToolExecutionContext>),
}

impl<'a> Caller<'a> {
    fn view(self) -> Option<ContextView<'a>> {
        match self {
            Caller::Availability(ctx) => ctx.map(ContextView::from),
            Caller::Execution(ctx) => ctx.map(ContextView::from),
        }
    }
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new(config: RegistryConfig) -> Self {
        Self::with_access_checks(config, true)
    }

    fn with_access_checks(config: RegistryConfig, checks_access: bool) -> Self {
        let set = ProviderSet::new(Vec::new(), config.route_cache_capacity);
        ToolRegistry {
            inner: Arc::new(RegistryInner {
                id: next_registry_id(),
                generation: AtomicU64::new(0),
                config,
                providers: RwLock::new(Arc::new(set)),
                warnings: Warnings::new(),
                changes: tokio::sync::watch::Sender::new(0),
                checks_access,
            }),
        }
    }

    /// A registry that checks no access rule: every caller sees and may call every tool, and
    /// the rules are left to the one client it serves, which learns them from the MCP listing
    /// (see [`McpServer`](crate::mcp::McpServer)). What a plugin process serves its host with.
    #[cfg(feature = "mcp")]
    pub(crate) fn leaving_access_to_client(config: RegistryConfig) -> Self {
        Self::with_access_checks(config, false)
    }

    /// Whether access rules are checked here (false: they are the client's to check).
    #[cfg(feature = "mcp")]
    pub(crate) fn checks_access(&self) -> bool {
        self.inner.checks_access
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

    fn replace_set(&self, change: impl FnOnce(&mut Vec<Arc<ProviderListings>>)) {
        let mut guard = write(&self.inner.providers);
        let mut entries = guard.entries.clone();
        change(&mut entries);
        *guard = Arc::new(ProviderSet::new(entries, self.inner.config.route_cache_capacity));
        drop(guard);
        self.inner.changed();
    }

    /// A watcher of this registry's tools: it wakes when a provider is registered or removed, or
    /// says its tools changed (through [`RegistryLink::notify`]). The MCP server uses it to send
    /// `notifications/tools/list_changed`.
    pub fn subscribe(&self) -> RegistryChanges {
        RegistryChanges { receiver: self.inner.changes.subscribe() }
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
        let inner: Arc<dyn LinkedRegistry> = self.inner.clone();
        provider.attach(RegistryLink::new(epoch.clone(), Arc::downgrade(&inner), self.inner.config.locale));
        let name = provider.provider_name().to_owned();
        let entry = Arc::new(ProviderListings::new(provider, epoch, self.inner.config.listing_settings()));
        self.replace_set(|entries| {
            entries.retain(|e| e.name() != name);
            entries.push(entry);
        });
    }

    /// Removes a provider; `false` when none has that name.
    pub fn unregister_provider(&self, provider_name: &str) -> bool {
        if !self.snapshot().entries.iter().any(|e| e.name() == provider_name) {
            return false;
        }
        let mut removed = false;
        self.replace_set(|entries| {
            let before = entries.len();
            entries.retain(|e| e.name() != provider_name);
            removed = entries.len() != before;
        });
        removed
    }

    /// The registered providers' names, in order.
    pub fn provider_names(&self) -> Vec<String> {
        self.snapshot().entries.iter().map(|e| e.name().to_owned()).collect()
    }

    /// The tools available in a context, as listed copies (registry names, provider identity,
    /// `metadata.registry_original_name`), in route order.
    pub async fn list_tools(&self, ctx: Option<&ToolAvailabilityContext>) -> Vec<ToolSpec> {
        self.routes(ctx).await.iter().map(|r| r.listed().clone()).collect()
    }

    /// The listed copy of one tool, by registry name (or by the own name of a tool listed under a
    /// valid name because its own is not one).
    pub async fn get_tool_spec(&self, name: &str, ctx: Option<&ToolAvailabilityContext>) -> Option<ToolSpec> {
        self.routes(ctx).await.get(name).map(|route| route.listed().clone())
    }

    /// Whether a tool is available in a context, by registry name (or by the own name of a tool
    /// listed under a valid name because its own is not one).
    pub async fn has_tool(&self, name: &str, ctx: Option<&ToolAvailabilityContext>) -> bool {
        self.routes(ctx).await.contains(name)
    }

    /// The model definitions of every available tool, in the registry's locale: visible and
    /// deferred tools alike, with no reminder.
    ///
    /// This is the whole tool set, for a host that does not defer tools (or wants a catalogue).
    /// A host that serves deferred tools does not send it: each round it sends
    /// [`RoundTools::definitions`](crate::RoundTools::definitions) from
    /// [`DeferredTools::prepare_round`](crate::DeferredTools::prepare_round) (the visible tools
    /// and the deferred ones the session has found with `tool_search`) with
    /// [`RoundTools::reminder`](crate::RoundTools::reminder) naming the others. Both render each
    /// tool as [`definition`](Self::definition) does.
    pub async fn get_llm_definitions(&self, ctx: Option<&ToolAvailabilityContext>, dialect: Dialect) -> Vec<Value> {
        self.get_llm_definitions_in(ctx, dialect, self.locale()).await
    }

    /// The model definitions of every available tool, deferred ones included, in a given locale
    /// (see [`get_llm_definitions`](Self::get_llm_definitions)). Providers listed for a context
    /// see it in that locale, so that a provider that writes its texts per locale writes them in
    /// it.
    ///
    /// A strict dialect that cannot project a tool sends that tool in the non-strict form of the
    /// same API and logs a warning.
    pub async fn get_llm_definitions_in(
        &self,
        ctx: Option<&ToolAvailabilityContext>,
        dialect: Dialect,
        locale: Locale,
    ) -> Vec<Value> {
        self.definitions(&*self.routes_in(ctx, locale).await, dialect, locale)
    }

    /// The model definitions of every available tool (as [`get_llm_definitions`](Self::get_llm_definitions)
    /// gives them) as the JSON array text a model API receives, in the registry's locale.
    ///
    /// The text is rendered once per set of available tools (the providers' listings and the
    /// caller's access facts), dialect and locale, and then shared: a host that sends the same
    /// tools on every request pays for a reference count, not a rendering. Any change of the
    /// tools (a provider registered, removed or announcing a change) renders it anew.
    ///
    /// The dialects that take a tool's schema as it is (neutral, OpenAI Chat and Responses,
    /// Anthropic) are written straight to text, a `#[tool]`'s schema as the text rendered at
    /// compile time, never parsed; the others are built and serialised. Either way the text is
    /// exactly the serialised [`get_llm_definitions`](Self::get_llm_definitions).
    ///
    /// ```
    /// use toolhook::{Dialect, tool};
    /// use toolhook_runtime::{PluginToolProvider, ToolRegistry};
    ///
    /// /// Say a city's local time.
    /// #[tool(core_tool = true)]
    /// fn local_time(
    ///     /// The city's name.
    ///     city: String,
    /// ) -> String {
    ///     format!("{city}: 12:00")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let registry = ToolRegistry::default();
    /// registry.register_provider(PluginToolProvider::from_declared());
    /// let text = registry.llm_definitions_json(None, Dialect::OpenAiChat).await;
    /// let values = registry.get_llm_definitions(None, Dialect::OpenAiChat).await;
    /// assert_eq!(*text, serde_json::to_string(&values).unwrap());
    /// // The second request shares the first one's text.
    /// assert!(std::sync::Arc::ptr_eq(&text, &registry.llm_definitions_json(None, Dialect::OpenAiChat).await));
    /// # });
    /// ```
    pub async fn llm_definitions_json(&self, ctx: Option<&ToolAvailabilityContext>, dialect: Dialect) -> Arc<str> {
        self.llm_definitions_json_in(ctx, dialect, self.locale()).await
    }

    /// [`llm_definitions_json`](Self::llm_definitions_json) in a given locale.
    pub async fn llm_definitions_json_in(
        &self,
        ctx: Option<&ToolAvailabilityContext>,
        dialect: Dialect,
        locale: Locale,
    ) -> Arc<str> {
        let routes = self.routes_in(ctx, locale).await;
        routes.rendered(dialect, locale, || self.definitions_text(&routes, dialect, locale).into())
    }

    /// The model definition of one listed tool, as [`get_llm_definitions_in`](Self::get_llm_definitions_in)
    /// renders it: the brief as its description, followed by the detailed description when
    /// [`RegistryConfig::include_detailed_description`](field@RegistryConfig::include_detailed_description)
    /// is set.
    pub fn definition(&self, spec: &ToolSpec, dialect: Dialect, locale: Locale) -> Value {
        self.definition_named(spec, spec.name(), dialect, locale)
    }

    /// The definitions of every route of a name space, in order.
    fn definitions(&self, routes: &Routes, dialect: Dialect, locale: Locale) -> Vec<Value> {
        routes.iter().map(|route| self.definition_named(route.spec(), route.name(), dialect, locale)).collect()
    }

    /// [`definitions`](Self::definitions) as the JSON array text.
    fn definitions_text(&self, routes: &Routes, dialect: Dialect, locale: Locale) -> String {
        self.definitions_text_of(routes.iter().map(|route| (route.spec(), route.name())), dialect, locale)
    }

    /// The definitions of specs listed under names, as the JSON array text: the serialised
    /// [`definition_named`](Self::definition_named)s, written without building the values where
    /// the dialect allows (see `ToolSpec::__write_llm_definition`).
    pub(crate) fn definitions_text_of<'s>(
        &self,
        specs: impl ExactSizeIterator<Item = (&'s ToolSpec, &'s str)>,
        dialect: Dialect,
        locale: Locale,
    ) -> String {
        let mut out = Vec::with_capacity(512 * specs.len().min(4096));
        out.push(b'[');
        for (i, (spec, name)) in specs.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let description = self.description_of(spec, locale);
            if let Err(error) = spec.__write_llm_definition(&mut out, name, dialect, locale, &description) {
                tracing::warn!(tool = name, %dialect, %error, "sending the tool in the non-strict form");
                let non_strict =
                    spec.__write_llm_definition(&mut out, name, dialect.non_strict(), locale, &description);
                if non_strict.is_err() {
                    out.extend_from_slice(b"null");
                }
            }
        }
        out.push(b']');
        // serde_json writes UTF-8, and so are the texts copied in.
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The description a definition carries: the brief, and the detailed description after it
    /// when the registry sends it.
    fn description_of<'s>(&self, spec: &'s ToolSpec, locale: Locale) -> std::borrow::Cow<'s, str> {
        let brief = spec.description(locale);
        let detailed = spec.detailed_description(locale);
        if self.inner.config.include_detailed_description && !detailed.is_empty() {
            format!("{brief}\n\n{detailed}").into()
        } else {
            brief.into()
        }
    }

    /// [`definition`](Self::definition) of a spec listed under `name`.
    fn definition_named(&self, spec: &ToolSpec, name: &str, dialect: Dialect, locale: Locale) -> Value {
        let description = self.description_of(spec, locale);
        match spec.__llm_definition_described(name, dialect, locale, &description) {
            Ok(def) => def,
            Err(error) => {
                tracing::warn!(tool = name, %dialect, %error, "sending the tool in the non-strict form");
                spec.__llm_definition_described(name, dialect.non_strict(), locale, &description).unwrap_or(Value::Null)
            }
        }
    }

    /// Calls a tool. Never fails and never panics: every problem is a failed result whose
    /// `error_message` a model can act on (unknown tool, bad arguments, a provider error, a panic,
    /// a timeout, a host without a usable tokio runtime).
    ///
    /// The timeout (the tool's own, else [`RegistryConfig::default_timeout`]) counts from the
    /// moment the returned future is first polled: waiting for a provider's first listing to
    /// find the tool, and a handler that blocks its thread before its first `.await`, use it up
    /// too. A limit of 256 ms or more is checked to the kernel's clock tick until the call first
    /// waits (see "Timing precision" in the [crate docs](crate#choices)): a call is never failed
    /// before its limit.
    ///
    /// A tool the caller's access rules hide answers `Tool not found`, as if it did not exist: a
    /// plain failed result, with nothing else set; a `debug` log names the rule that hid it
    /// (`platform`, `scope` or `permission`). A tool that was declared but failed to load is not
    /// found either, and the answer says why.
    pub fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'a {
        // `invoke_found`'s own future, not an `async fn` around it: that would keep its own copy
        // of the call beside the one inside, for the whole call, and move the result once more.
        //
        // Not a future written by hand either. One that runs a tool that never waits through
        // plain functions at its first poll, in a future the size of the call (128 bytes, not
        // this one's 456 at the time; 328 now), cut such a call by about 185 instructions (4%).
        // But every other call must then go on in a boxed future, because its provider's future
        // borrows the name space that future would own: a tool whose body awaits (measured with
        // an await that is ready at once) took about 570 instructions (11%) more, a worse trade
        // than the gain.
        self.invoke_found(call, ctx, None)
    }

    /// [`invoke`](Self::invoke), also giving the tool's spec (as its provider listed it) in
    /// `found` when one was found and `found` is given (the MCP server needs its output schema;
    /// one lookup serves both). Without it, no call touches the spec's reference counts, which
    /// every thread calling the same tool would otherwise share.
    pub(crate) async fn invoke_found(
        &self,
        call: ToolInvocation,
        ctx: Option<&ToolExecutionContext>,
        found: Option<&mut Option<ToolSpec>>,
    ) -> ToolExecutionResult {
        // The call's time counts from here (see `guard::run` for the clock it is read from).
        let mut started = Stamp::now();
        let config = &self.inner.config;
        let locale = config.locale;
        let caller = Caller::Execution(ctx);
        // The name space; it outlives the block below, whose route borrows it.
        let routes: Arc<Routes>;
        // A context in another locale, copied in the registry's (providers produce texts in
        // it); it outlives the provider's future, which borrows it.
        let localized: Option<Box<ToolExecutionContext>>;
        // The call is found, checked, changed and handed to its provider in a block that ends
        // before the provider's future is awaited: a binding that was borrowed stays in the
        // future until its scope ends, and the call would stay beside the provider's copy for as
        // long as the call runs. One block, so that the call is moved into it once.
        let (requested, provider, future, clock) = {
            let mut call = call;
            routes = match self.routes_now(caller, locale) {
                Some(routes) => routes,
                // The slow path is boxed so that the call's future stays small. It may wait for
                // listings, and is timed on the precise clock from its start.
                None => {
                    let now = Instant::now();
                    started = Stamp::Precise(now);
                    // Finding the tool waits at most as long as the call may take.
                    let wait = config.default_timeout.map_or(config.listing_timeout, |t| t.min(config.listing_timeout));
                    let find_by = guard::deadline_after(now, wait);
                    Box::pin(self.resolve(caller, Some(&call.tool_name), find_by, locale)).await
                }
            };
            let Some(route) = routes.get(&call.tool_name) else {
                let requested = call.tool_name;
                tracing::debug!(tool = %shown(&requested), "tool not found, not available or denied in this context");
                let reason =
                    self.snapshot().entries.iter().find_map(|e| e.provider.unavailable_reason(&requested, locale));
                let text = match reason {
                    Some(reason) => not_found_because(&requested, &reason, locale),
                    None => not_found(&requested, locale),
                };
                // The model is told only that there is no such tool; the debug log says which rule hid it.
                if let Some(rule) = routes.denied_by(&requested) {
                    tracing::debug!(tool = %shown(&requested), rule, "call refused by the tool's access rules");
                }
                return ToolExecutionResult::failure(requested, text);
            };
            if let Some(found) = found {
                *found = Some(route.spec().clone());
            }
            // The name the caller asked for, borrowed from the route: the result is named after it.
            let requested = route.name();
            if let Some(error) = self.check_argument_limits(&call.arguments) {
                let error = error.into_tool_error();
                let provider = route.provider().provider_name();
                tracing::error!(tool = %shown(requested), provider, %error, "tool call failed");
                let text = failure_text(requested, &error, locale);
                // A value nested too deep for the stack is taken apart without recursion.
                if let ToolArguments::Value(value) = call.arguments {
                    toolhook::args::drop_deep(value);
                }
                return ToolExecutionResult::failure(requested, text);
            }
            let server = provider_call(route, &mut call);
            let provider = route.provider();
            localized =
                ctx.filter(|c| c.locale != locale).map(|c| Box::new(ToolExecutionContext { locale, ..c.clone() }));
            let ctx = localized.as_deref().or(ctx);
            // The provider's spec: its content (schemas, timeout) is the listed copy's, without
            // the copy's renaming, which this path does not need. The call's clock starts before
            // the call: a tool that never waits runs to its end right here.
            let clock = guard::Clock::new(route.spec().timeout().or(config.default_timeout), started);
            let created = guard::create(move || {
                // Worked out at the tool's first call, by the provider (so under the guard).
                let calling = route.calling();
                if calling.forms.any {
                    undo_strict_forms(&mut call.arguments, route.spec().parameters_schema(), calling.forms.value_enums);
                }
                match server {
                    Some(server) => Called::Running(provider.__invoke_on_server(call, ctx, server)),
                    // The provider's ready-made call of the tool, when it has one: it skips the
                    // provider's own per-call lookup.
                    None => match &calling.direct {
                        Some(direct) => direct.call(call, ctx),
                        None => Called::Running(provider.invoke(call, ctx)),
                    },
                }
            });
            // A call that ran to its end is concluded here: its outcome (the size of a result)
            // would otherwise stay in this future beside the provider's future for the whole of
            // a call that waits.
            let provider = route.provider();
            let future = match created {
                Ok(Called::Running(future)) => future,
                Ok(Called::Done(outcome)) => {
                    let mut clock = clock;
                    return match (clock.ended_in_time(), outcome) {
                        (Ok(()), Ok(mut result)) => {
                            name_as_requested(&mut result, requested);
                            result
                        }
                        (Ok(()), Err(error)) => {
                            conclude_otherwise(Guarded::Finished(Err(error)), requested, provider, locale)
                        }
                        (Err(timed_out), _) => {
                            conclude_otherwise(Guarded::TimedOut(timed_out), requested, provider, locale)
                        }
                    };
                }
                Err(payload) => {
                    return conclude(Guarded::Panicked(guard::panic_message(&*payload)), requested, provider, locale);
                }
            };
            (requested, provider, future, clock)
        };
        conclude(guard::run_on(future, clock).await.0, requested, provider, locale)
    }

    /// Closes every provider in registration order. A failing provider does not stop the others;
    /// every failure is returned. Providers stay registered. Each close may take at most
    /// [`RegistryConfig::listing_timeout`].
    pub async fn close(&self) -> Result<(), CloseErrors> {
        let set = self.snapshot();
        let mut failures = Vec::new();
        for entry in &set.entries {
            let name = entry.name().to_owned();
            let limit = Some(self.inner.config.listing_timeout);
            let closed = match guard::create(|| entry.provider.close()) {
                Ok(future) => match guard::run(future, limit, Stamp::precise()).await {
                    Guarded::Finished(closed) => closed,
                    Guarded::Panicked(message) => Err(ToolError::panic(message.unwrap_or_default())),
                    Guarded::TimedOut(timed_out) => Err(timeout_error(timed_out.limit)),
                    Guarded::NoTimer(missing) => Err(missing.into_tool_error()),
                },
                Err(payload) => Err(guard::panic_error(payload)),
            };
            if let Err(error) = closed {
                tracing::error!(provider = %name, %error, "provider failed to close");
                failures.push((name, error));
            }
        }
        if failures.is_empty() { Ok(()) } else { Err(CloseErrors(failures)) }
    }

    /// The registry's limits on a call's arguments: `Some` error when they are too large or too
    /// deep. Text no longer than either limit passes at once (it can nest no deeper than its
    /// length).
    #[inline]
    fn check_argument_limits(&self, arguments: &ToolArguments) -> Option<ArgsError> {
        let config = &self.inner.config;
        if let ToolArguments::Text(text) = arguments
            && text.len() <= config.max_argument_bytes
            && text.len() <= config.max_argument_depth.min(MAX_ARGUMENT_DEPTH)
        {
            return None;
        }
        self.check_argument_limits_fully(arguments)
    }

    fn check_argument_limits_fully(&self, arguments: &ToolArguments) -> Option<ArgsError> {
        let config = &self.inner.config;
        let max_depth = config.max_argument_depth.min(MAX_ARGUMENT_DEPTH);
        let too_deep = |depth| Some(ArgsError::document(ArgsErrorKind::TooDeep(depth)));
        let too_large = |bytes| Some(ArgsError::document(ArgsErrorKind::TooLarge(bytes)));
        match arguments {
            ToolArguments::Text(text) => {
                if text.len() > config.max_argument_bytes {
                    return too_large(config.max_argument_bytes);
                }
                if json_depth_exceeds(text, max_depth) {
                    return too_deep(max_depth);
                }
            }
            // Depth first, without recursion: measuring the size of a deep value would recurse.
            ToolArguments::Value(value) => match measure(value, max_depth) {
                None => return too_deep(max_depth),
                // The exact size is counted only when the bound says it may be too large.
                Some(bound) if bound > config.max_argument_bytes && compact_len(value) > config.max_argument_bytes => {
                    return too_large(config.max_argument_bytes);
                }
                Some(_) => {}
            },
        }
        None
    }

    /// The name space for a listing: waits for providers' first listings up to the listing
    /// timeout.
    pub(crate) async fn routes(&self, ctx: Option<&ToolAvailabilityContext>) -> Arc<Routes> {
        self.routes_in(ctx, self.locale()).await
    }

    /// [`routes`](Self::routes) with the providers listed in `locale` (their contexts carry it).
    async fn routes_in(&self, ctx: Option<&ToolAvailabilityContext>, locale: Locale) -> Arc<Routes> {
        let caller = Caller::Availability(ctx);
        if let Some(routes) = self.routes_now(caller, locale) {
            return routes;
        }
        let wait_until = guard::deadline_after(Instant::now(), self.inner.config.listing_timeout);
        Box::pin(self.resolve(caller, None, wait_until, locale)).await
    }

    /// The name space for a caller when every provider's listing and the name space itself are
    /// cached and current: no waiting, no allocation beyond the key's. The name space this
    /// thread last used for such a caller comes first, without a lock (see
    /// [`recent_routes`](crate::recent_routes)).
    fn routes_now(&self, caller: Caller<'_>, locale: Locale) -> Option<Arc<Routes>> {
        let view = caller.view();
        // Read before the set: a change after it makes whatever is remembered below stale.
        let generation = self.inner.generation.load(Ordering::Acquire);
        if let Some(routes) = recent_routes::find(self.inner.id, generation, view, locale) {
            return Some(routes);
        }
        let set = read(&self.inner.providers);
        let mut listings = SmallVec::with_capacity(set.entries.len());
        for entry in &set.entries {
            listings.push(entry.fresh(view, locale)?);
        }
        let routes = set.routes.get(&RoutesKey { listings, facts: AccessFacts::of(view, self.inner.checks_access) })?;
        recent_routes::remember(self.inner.id, generation, set.parts, view, locale, &routes);
        Some(routes)
    }

    /// The name space for a caller. Each provider's listing comes from its cache; a provider
    /// whose first listing is still on its way is waited for (until `wait_until`) only when the
    /// `wanted` tool is not already in another listing.
    async fn resolve(
        &self,
        caller: Caller<'_>,
        wanted: Option<&str>,
        wait_until: Instant,
        locale: Locale,
    ) -> Arc<Routes> {
        let set = self.snapshot();
        let view = caller.view();
        let mut found = Vec::with_capacity(set.entries.len());
        for entry in &set.entries {
            found.push(entry.lookup(view, locale).await);
        }
        let pending: Vec<usize> = (0..found.len()).filter(|&i| matches!(found[i], Found::Pending(_))).collect();
        let known = |found: &[Found]| {
            wanted.is_some_and(|name| {
                found.iter().filter_map(Found::listing).any(|l| l.specs.iter().any(|s| s.name() == name))
            })
        };
        if !pending.is_empty() && !known(&found) {
            let flights = pending.iter().filter_map(|&i| match &found[i] {
                Found::Pending(flight) => Some(flight.clone()),
                _ => None,
            });
            let all = futures_util::future::join_all(flights.map(|flight| async move { flight.finished().await }));
            if guard::wait_until(all, wait_until).await.is_none() {
                let late: Vec<&str> = pending.iter().map(|&i| set.entries[i].name()).collect();
                tracing::warn!(providers = ?late, "providers' first listings are late; routing without them");
            }
            for &i in &pending {
                found[i] = set.entries[i].lookup(view, locale).await;
            }
        }
        let key = RoutesKey {
            listings: found.iter().map(|found| found.listing().map_or(0, |l| l.id)).collect(),
            facts: AccessFacts::of(view, self.inner.checks_access),
        };
        if let Some(routes) = set.routes.get(&key) {
            return routes;
        }
        let sources: routes::Sources = set
            .entries
            .iter()
            .zip(found)
            .filter_map(|(entry, found)| Some((entry.provider.clone(), found.listing()?.clone())))
            .collect();
        let routes = routes::assign(self.inner.config.duplicate_policy, sources, &key.facts, &self.inner.warnings);
        let routes = Arc::new(routes);
        set.routes.insert(key, routes.clone());
        routes
    }
}

impl ProviderSet {
    fn new(entries: Vec<Arc<ProviderListings>>, capacity: usize) -> Self {
        let access = ContextParts::PLATFORM | ContextParts::CHAT_SCOPE | ContextParts::PERMISSION;
        let parts = entries.iter().fold(access, |parts, entry| parts | entry.parts());
        ProviderSet { entries, routes: bounded(capacity), parts }
    }
}

/// The invocation a provider receives: its own name for the tool, and where the tool comes
/// from when the provider needs to know. Returns the MCP server a call of an MCP-type provider
/// names, which [`ToolProvider::__invoke_on_server`] passes on.
#[inline]
fn provider_call<'r>(route: RouteRef<'r>, call: &mut ToolInvocation) -> Option<&'r str> {
    if route.renamed() {
        call.tool_name = route.original_name().to_owned();
    }
    // Which of the provider's tools is meant: MCP calls of a tool listed from a server name that
    // server (over whatever the caller put there; a call of a tool listed without one keeps the
    // caller's metadata as it is); plugin calls name their plugin when the provider lists the
    // name more than once, or when the caller tried to name one.
    let named = |key| route.spec().metadata().get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    match route.kind() {
        ProviderKind::Mcp => return named("server_name"),
        ProviderKind::Plugin if route.ambiguous() || call.metadata().contains_key("plugin_id") => {
            match named("plugin_id") {
                Some(plugin) => {
                    call.metadata_mut().insert("plugin_id".to_owned(), Value::from(plugin));
                }
                // Only a call that names one has metadata to change.
                None if call.metadata().contains_key("plugin_id") => {
                    call.metadata_mut().shift_remove("plugin_id");
                }
                None => {}
            }
        }
        _ => {}
    }
    None
}

/// A registry id no other registry of the process has.
fn next_registry_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A call's result from how its provider's call ended: named as the caller asked, or a failure
/// (logged) whose text a model can act on. Inline for a call that finished with a result; the
/// rest is out of line ([`conclude_otherwise`]).
#[inline]
fn conclude(
    guarded: Guarded<Result<ToolExecutionResult, ToolError>>,
    requested: &str,
    provider: &Arc<dyn ToolProvider>,
    locale: Locale,
) -> ToolExecutionResult {
    match guarded {
        Guarded::Finished(Ok(result)) => named(result, requested),
        otherwise => conclude_otherwise(otherwise, requested, provider, locale),
    }
}

/// A result named as the caller asked for the tool (most providers name it so already).
#[inline]
fn named(mut result: ToolExecutionResult, requested: &str) -> ToolExecutionResult {
    name_as_requested(&mut result, requested);
    result
}

/// [`named`] in place.
#[inline]
fn name_as_requested(result: &mut ToolExecutionResult, requested: &str) {
    if result.tool_name != requested {
        result.tool_name = requested.to_owned();
    }
}

/// [`conclude`] for a call that failed, panicked, timed out or found no timer: logged.
#[cold]
fn conclude_otherwise(
    guarded: Guarded<Result<ToolExecutionResult, ToolError>>,
    requested: &str,
    provider: &Arc<dyn ToolProvider>,
    locale: Locale,
) -> ToolExecutionResult {
    let error = match guarded {
        Guarded::Finished(Ok(result)) => return named(result, requested),
        Guarded::Finished(Err(error)) => error,
        Guarded::Panicked(message) => ToolError::panic(message.unwrap_or_default()),
        Guarded::TimedOut(timed_out) => {
            if let Some(blocked) = timed_out.blocked_for {
                tracing::warn!(
                    tool = %shown(requested),
                    provider = provider.provider_name(),
                    blocked_ms = blocked.as_millis() as u64,
                    timeout_ms = timed_out.limit.as_millis() as u64,
                    "the tool blocked its executor thread longer than its timeout; do blocking work in a sync fn or spawn_blocking"
                );
            }
            timeout_error(timed_out.limit)
        }
        Guarded::NoTimer(missing) => missing.into_tool_error(),
    };
    tracing::error!(tool = %shown(requested), provider = provider.provider_name(), %error, "tool call failed");
    let text = failure_text(requested, &error, locale);
    ToolExecutionResult::failure(requested, text)
}

/// `Timeout: no result within {n} ms` and its zh-Hans form.
pub(crate) fn timeout_error(limit: Duration) -> ToolError {
    let ms = limit.as_millis();
    ToolError::localized("Timeout", format!("no result within {ms} ms"), format!("超过 {ms}ms 未返回结果"))
}

/// `Tool not found: {name}` / `未找到工具：{name}` (a long name is cut).
pub(crate) fn not_found(name: &str, locale: Locale) -> String {
    let name = shown(name);
    match locale {
        Locale::En => format!("Tool not found: {name}"),
        Locale::ZhHans => format!("未找到工具：{name}"),
    }
}

/// `Tool not found: {name} ({reason})`: a tool that was declared but failed to load.
pub(crate) fn not_found_because(name: &str, reason: &str, locale: Locale) -> String {
    let name = shown(name);
    match locale {
        Locale::En => format!("Tool not found: {name} ({reason})"),
        Locale::ZhHans => format!("未找到工具：{name}（{reason}）"),
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

/// `None` when `value` nests containers deeper than `limit`, else an upper bound of its compact
/// JSON length; one walk without recursion, on the stack for small values.
fn measure(value: &Value, limit: usize) -> Option<usize> {
    // An integer is at most 20 characters; a string's byte may take 6 (`\u001f`).
    let text = |s: &str| 2 + 6 * s.len();
    let mut bound = 0usize;
    let mut stack: SmallVec<[(&Value, usize); 16]> = SmallVec::new();
    stack.push((value, 1));
    while let Some((value, depth)) = stack.pop() {
        bound = bound.saturating_add(match value {
            Value::Null | Value::Bool(_) => 5,
            Value::Number(n) if n.is_i64() || n.is_u64() => 20,
            Value::Number(n) => compact_len(n),
            Value::String(s) => text(s),
            Value::Array(_) | Value::Object(_) if depth > limit => return None,
            Value::Array(items) => {
                stack.extend(items.iter().map(|child| (child, depth + 1)));
                2 + items.len()
            }
            Value::Object(map) => {
                stack.extend(map.values().map(|child| (child, depth + 1)));
                map.keys().fold(2, |n, key| n.saturating_add(text(key) + 2))
            }
        });
    }
    Some(bound)
}

/// The length of `value`'s compact JSON text, as serde_json writes it.
fn compact_len(value: &impl serde::Serialize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            (-1e17f64..1e17).prop_map(|f| Value::from(f.trunc())),
            any::<String>().prop_map(Value::from),
        ];
        leaf.prop_recursive(8, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                prop::collection::vec((any::<String>(), inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The size check's bound is never below the real size, and its depth check agrees with
        /// the plain one.
        #[test]
        fn measure_bounds_the_compact_length(value in json(), limit in 1usize..10) {
            match measure(&value, limit) {
                None => prop_assert!(toolhook::args::value_depth_exceeds(&value, limit)),
                Some(bound) => {
                    prop_assert!(!toolhook::args::value_depth_exceeds(&value, limit));
                    prop_assert!(bound >= compact_len(&value), "{bound} < {}", compact_len(&value));
                }
            }
        }

        /// The text's depth check agrees with the value's, brackets inside strings and the
        /// shortcut for short texts included.
        #[test]
        fn text_depth_agrees_with_the_value_depth(value in json(), limit in 0usize..10, pretty: bool) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let text = text.expect("a JSON value");
            prop_assert_eq!(json_depth_exceeds(&text, limit), toolhook::args::value_depth_exceeds(&value, limit));
        }
    }
}
