//! [`HookDispatcher`]: registers plugins' handler batches and fires hooks.

use super::breaker::{Breaker, BreakerConfig, BreakerStatus, Permit, Ticket, Verdict};
use super::entry::{HandlerCall, HandlerResult, HandlerSlot, HookHandlerEntry, ReadyCall};
use super::error::{HookError, HookErrorKind};
use super::names;
use super::observers::{ObserverOverflow, Observers};
use super::recent::{self, Generation, Prepared};
use super::spec::{HookSpec, HookSpecRegistry};
use super::validate;
use crate::Source;
use crate::guard::{self, Guarded, Stamp};
use futures_util::FutureExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::oneshot;
use toolhook::Locale;
use toolhook::hooks::{
    ErrorPolicy, HandlerOutcome, HookAction, HookArgs, HookContext, HookHandlerError, HookMode, HookNames, HookOrder,
    PayloadError, SharedNames,
};

/// What firing a hook came to.
///
/// Handler failures are data here (`errors`), never an `Err` of [`HookDispatcher::invoke`].
///
/// ```
/// use serde_json::json;
/// use toolhook_runtime::hooks::HookDispatchResult;
///
/// #[derive(serde::Deserialize)]
/// struct Text { text: String }
///
/// let result: HookDispatchResult = serde_json::from_value(json!({
///     "hook_name": "demo.hook", "kwargs": {"text": "hi"}, "aborted": false, "stopped_by": null,
///     "custom_results": [], "errors": [], "skipped": []
/// }))?;
/// assert_eq!(result.kwargs_as::<Text>()?.text, "hi");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct HookDispatchResult {
    /// The hook, trimmed.
    pub hook_name: String,
    /// The final arguments: the input as the blocking handlers left it.
    pub kwargs: HookArgs,
    /// Whether a handler stopped the hook.
    pub aborted: bool,
    /// The full name of the handler that stopped it.
    pub stopped_by: Option<String>,
    /// Blocking handlers' custom results, in order.
    pub custom_results: Vec<Value>,
    /// Handler failures and ignored requests, as sentences naming the handler.
    pub errors: Vec<String>,
    /// Handlers the circuit breaker skipped (full names).
    pub skipped: Vec<String>,
}

impl HookDispatchResult {
    fn new(hook_name: &str, kwargs: HookArgs) -> Self {
        HookDispatchResult {
            hook_name: hook_name.to_owned(),
            kwargs,
            aborted: false,
            stopped_by: None,
            custom_results: Vec::new(),
            errors: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// The final arguments deserialised into `T` (the error names the JSON path).
    pub fn kwargs_as<T: DeserializeOwned>(&self) -> Result<T, PayloadError> {
        self.kwargs.parse()
    }
}

/// One registered handler.
pub(super) struct Handler {
    /// Its hook, plugin and names, which each call's [`HookContext`] reports too (kept for the
    /// life of the process, see [`names`](super::names)).
    names: SharedNames,
    source: Source,
    mode: HookMode,
    order: HookOrder,
    timeout_ms: u64,
    error_policy: ErrorPolicy,
    enabled: AtomicBool,
    /// Shared by the plugin's handlers; flipped by `set_plugin_loaded`.
    loaded: Arc<AtomicBool>,
    missing_instance: bool,
    call: HandlerCall,
    /// The call to its end in place of a blocking handler whose body can never wait.
    ready: Option<ReadyCall>,
}

impl Handler {
    fn sort_key(&self) -> (HookMode, HookOrder, Source, &str, &str) {
        (self.mode, self.order, self.source, self.plugin_id(), self.names.handler_name())
    }

    fn plugin_id(&self) -> &str {
        self.names.plugin_id()
    }

    fn full_name(&self) -> &str {
        self.names.full_name()
    }

    /// Calls the handler: to its end right here when its body never waits (an observer, in its
    /// own task), else up to its future.
    fn invoke(&self, kwargs: HookArgs, ctx: HookContext, slot: &mut HandlerSlot) -> Called {
        match &self.ready {
            Some(ready) => Called::Done(ready(kwargs, ctx)),
            None => {
                (self.call)(kwargs, ctx, slot);
                Called::Running
            }
        }
    }
}

/// A handler, called: its outcome, or its future.
enum Called {
    Done(HandlerResult),
    /// Its future is in the slot.
    Running,
}

#[derive(Default)]
struct State {
    /// Each registered plugin's handlers.
    plugins: HashMap<String, Vec<Arc<Handler>>>,
    /// Whether each plugin may run (registered plugins count as loaded until told otherwise).
    loaded: HashMap<String, Arc<AtomicBool>>,
    /// Every hook's handlers in dispatch order, rebuilt on (un)registration. Looked up on every
    /// dispatch, with the fast hasher of the route tables (hook names are the host's and its
    /// plugins', not a caller's).
    by_hook: rustc_hash::FxHashMap<Arc<str>, Arc<[Arc<Handler>]>>,
}

impl State {
    fn rebuild(&mut self) {
        let mut by_hook: HashMap<Arc<str>, Vec<Arc<Handler>>> = HashMap::new();
        for handler in self.plugins.values().flatten() {
            by_hook.entry(Arc::clone(handler.names.hook_name())).or_default().push(Arc::clone(handler));
        }
        self.by_hook = by_hook
            .into_iter()
            .map(|(hook, mut handlers)| {
                handlers.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
                (hook, handlers.into())
            })
            .collect();
    }
}

struct Inner {
    /// Unique in the process: what the per-thread memo of prepared hooks knows it by.
    id: u64,
    /// Bumped by every change of the registered handlers, under the state lock.
    generation: AtomicU64,
    /// Each hook's handlers and spec at the current generations, made on first dispatch.
    prepared: Mutex<PreparedHooks>,
    specs: HookSpecRegistry,
    default_timeout: Duration,
    locale: Locale,
    validate_hooks: bool,
    breaker: Breaker,
    observers: Arc<Observers>,
    state: RwLock<State>,
    shut_down: AtomicBool,
}

/// The hooks prepared at one pair of generations.
#[derive(Default)]
struct PreparedHooks {
    generation: Generation,
    hooks: HashMap<Arc<str>, Arc<Prepared>>,
}

/// A dispatcher id no other dispatcher of the process has.
fn next_dispatcher_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// How one handler call ended.
enum Run {
    Outcome(HandlerOutcome),
    /// A failure, rendered in a locale without the `HookHandler {full} failed: ` part.
    Failed(Failure),
    TimedOut(Duration),
    /// The breaker denied it.
    Skipped,
}

/// Why a handler's run failed: rendered in the dispatcher's locale for the dispatch result, in
/// English for the log.
enum Failure {
    /// Its plugin is not loaded.
    NotLoaded(String),
    /// Its payload did not decode (the decoder's detail).
    InvalidPayload(String),
    /// No timer could be armed.
    NoTimer(Box<toolhook::ToolError>),
    /// A panic or the handler's own error: its text, as it is in every locale.
    Text(String),
}

impl Failure {
    fn message(&self, locale: Locale) -> String {
        match (self, locale) {
            (Failure::NotLoaded(plugin_id), Locale::En) => format!("plugin {plugin_id} is not loaded"),
            (Failure::NotLoaded(plugin_id), Locale::ZhHans) => format!("插件 {plugin_id} 未加载"),
            (Failure::InvalidPayload(detail), Locale::En) => format!("invalid payload: {detail}"),
            (Failure::InvalidPayload(detail), Locale::ZhHans) => format!("载荷无效: {detail}"),
            (Failure::NoTimer(error), locale) => error.message(locale).to_owned(),
            (Failure::Text(text), _) => text.clone(),
        }
    }
}

/// Fires named hooks at the handlers plugins registered: blocking handlers in order on the
/// caller's task, then observers concurrently.
///
/// Cheap to clone (the clones share everything); `Send + Sync`. Handlers run on the tokio runtime
/// of the caller, which needs its time driver (timeouts); observers are spawned onto it.
///
/// ```
/// use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookOutcome};
/// use toolhook_runtime::Source;
/// use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let specs = HookSpecRegistry::new();
/// specs.register(HookSpec::new("demo.hook"))?;
/// let dispatcher = HookDispatcher::builder().specs(specs).build();
/// dispatcher.register_plugin(
///     "acme.demo",
///     Source::ThirdParty,
///     vec![HookHandlerEntry::new("fail", "demo.hook", |_: HookArgs, _: HookContext| async {
///         Err::<(), _>("handler exploded")
///     })
///     .error_policy(ErrorPolicy::Abort)],
/// )?;
///
/// let result = dispatcher.invoke("demo.hook", HookArgs::new()).await?;
/// assert!(result.aborted);
/// assert_eq!(result.stopped_by.as_deref(), Some("acme.demo.fail"));
/// assert_eq!(result.errors, ["HookHandler acme.demo.fail failed: handler exploded"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct HookDispatcher {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for HookDispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookDispatcher")
            .field("locale", &self.inner.locale)
            .field("default_timeout", &self.inner.default_timeout)
            .field("validate_hooks", &self.inner.validate_hooks)
            .field("shut_down", &self.inner.shut_down.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// Builds a [`HookDispatcher`].
#[derive(Debug)]
pub struct HookDispatcherBuilder {
    specs: Option<HookSpecRegistry>,
    default_timeout: Duration,
    locale: Locale,
    breaker: BreakerConfig,
    validate_hooks: bool,
    max_concurrent_observers: usize,
    max_queued_observers: usize,
    observer_overflow: ObserverOverflow,
}

impl Default for HookDispatcherBuilder {
    fn default() -> Self {
        HookDispatcherBuilder {
            specs: None,
            default_timeout: Duration::from_secs(60),
            locale: Locale::En,
            breaker: BreakerConfig::default(),
            validate_hooks: true,
            max_concurrent_observers: 64,
            max_queued_observers: 1024,
            observer_overflow: ObserverOverflow::DropOldest,
        }
    }
}

impl HookDispatcherBuilder {
    /// The hook specs (default: the built-in catalogue in the dispatcher's locale).
    pub fn specs(mut self, specs: HookSpecRegistry) -> Self {
        self.specs = Some(specs);
        self
    }

    /// The timeout of handlers whose own and whose spec's are 0 (default 60 s).
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// The language of errors and results (default English).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// The circuit breaker's settings.
    pub fn breaker(mut self, config: BreakerConfig) -> Self {
        self.breaker = config;
        self
    }

    /// Whether handlers may only subscribe to registered hooks, with modes and policies the spec
    /// allows (default true).
    pub fn validate_hooks(mut self, validate: bool) -> Self {
        self.validate_hooks = validate;
        self
    }

    /// How many observer runs run at once across the dispatcher (default 64, at least 1); later
    /// ones wait in a queue, first come, first served.
    pub fn max_concurrent_observers(mut self, max: usize) -> Self {
        self.max_concurrent_observers = max;
        self
    }

    /// How many observer runs may wait for a slot (default 1024). A run that finds the queue
    /// full is dropped under the [`observer_overflow`](Self::observer_overflow) policy, logged and
    /// counted in [`HookDispatcher::dropped_observer_runs`]. Waiting runs of one event share one
    /// copy of its arguments.
    pub fn max_queued_observers(mut self, max: usize) -> Self {
        self.max_queued_observers = max;
        self
    }

    /// Which run is dropped when the observer queue is full (default: the oldest waiting one).
    pub fn observer_overflow(mut self, overflow: ObserverOverflow) -> Self {
        self.observer_overflow = overflow;
        self
    }

    /// The dispatcher.
    pub fn build(self) -> HookDispatcher {
        let specs = self.specs.unwrap_or_else(|| HookSpecRegistry::with_builtin_catalogue_in(self.locale));
        HookDispatcher {
            inner: Arc::new(Inner {
                id: next_dispatcher_id(),
                generation: AtomicU64::new(0),
                prepared: Mutex::default(),
                specs,
                default_timeout: self.default_timeout,
                locale: self.locale,
                validate_hooks: self.validate_hooks,
                breaker: Breaker::new(self.breaker),
                observers: Arc::new(Observers::new(
                    self.max_concurrent_observers,
                    self.max_queued_observers,
                    self.observer_overflow,
                )),
                state: RwLock::new(State::default()),
                shut_down: AtomicBool::new(false),
            }),
        }
    }
}

impl Default for HookDispatcher {
    fn default() -> Self {
        HookDispatcher::builder().build()
    }
}

impl HookDispatcher {
    /// A builder with the defaults.
    pub fn builder() -> HookDispatcherBuilder {
        HookDispatcherBuilder::default()
    }

    /// A dispatcher with the defaults: the built-in catalogue, English, 60 s timeout.
    pub fn new() -> Self {
        HookDispatcher::default()
    }

    /// The hook specs; register more at any time.
    pub fn specs(&self) -> &HookSpecRegistry {
        &self.inner.specs
    }

    /// The language of errors and results.
    pub fn locale(&self) -> Locale {
        self.inner.locale
    }

    // ---- registration ------------------------------------------------------------------

    /// Checks one handler as [`register_plugin`](Self::register_plugin) would, without
    /// registering it: its options, and (when hooks are validated) that its hook is registered
    /// and allows its mode and error policy. The plugin host uses it to leave out only the
    /// handlers that fail.
    pub fn check_handler(&self, plugin_id: &str, entry: &HookHandlerEntry) -> Result<(), HookError> {
        let error = |kind| HookError::new(kind, self.inner.locale);
        if let Some(problem) = entry.value_problem() {
            return Err(error(problem));
        }
        if !self.inner.validate_hooks {
            return Ok(());
        }
        let full_name = format!("{plugin_id}.{}", entry.name);
        let hook = entry.hook.trim().to_owned();
        let Some(spec) = self.inner.specs.get_shared(&hook) else {
            return Err(error(HookErrorKind::UnregisteredHook { handler: full_name, hook }));
        };
        match entry.mode {
            Ok(HookMode::Blocking) if !spec.allow_blocking => {
                Err(error(HookErrorKind::BlockingNotAllowed { handler: full_name, hook }))
            }
            Ok(HookMode::Observe) if !spec.allow_observe => {
                Err(error(HookErrorKind::ObserveNotAllowed { handler: full_name, hook }))
            }
            _ if entry.error_policy == Ok(ErrorPolicy::Abort) && !spec.allow_abort => {
                Err(error(HookErrorKind::AbortNotAllowed { handler: full_name, hook }))
            }
            _ => Ok(()),
        }
    }

    /// Registers a plugin's handlers as one batch, replacing its previous ones.
    ///
    /// The whole batch is checked first; the first problem (entries in order; per entry its
    /// values, then duplicates, then the spec checks) rejects it all and keeps the plugin's
    /// previous handlers. A plugin registered for the first time counts as loaded until
    /// [`set_plugin_loaded`](Self::set_plugin_loaded) says otherwise; a flag set before keeps.
    pub fn register_plugin(
        &self,
        plugin_id: &str,
        source: Source,
        entries: Vec<HookHandlerEntry>,
    ) -> Result<(), HookError> {
        let mut seen: HashSet<String> = HashSet::new();
        for entry in &entries {
            let error = |kind| HookError::new(kind, self.inner.locale);
            if let Some(problem) = entry.value_problem() {
                return Err(error(problem));
            }
            let full_name = format!("{plugin_id}.{}", entry.name);
            if !seen.insert(full_name.clone()) {
                return Err(error(HookErrorKind::DuplicateHandler(full_name)));
            }
            self.check_handler(plugin_id, entry)?;
        }

        let mut state = self.write_state();
        let loaded =
            Arc::clone(state.loaded.entry(plugin_id.to_owned()).or_insert_with(|| Arc::new(AtomicBool::new(true))));
        let plugin: Arc<str> = plugin_id.into();
        let handlers = entries
            .into_iter()
            .map(|entry| {
                Arc::new(Handler {
                    names: names::keep(HookNames::new(entry.hook.trim(), Arc::clone(&plugin), entry.name.as_str())),
                    source,
                    mode: entry.mode.unwrap_or_default(),
                    order: entry.order.unwrap_or_default(),
                    timeout_ms: entry.timeout_ms.unwrap_or_default(),
                    error_policy: entry.error_policy.unwrap_or_default(),
                    enabled: AtomicBool::new(entry.enabled),
                    loaded: Arc::clone(&loaded),
                    missing_instance: entry.missing_instance,
                    call: entry.call,
                    ready: entry.ready,
                })
            })
            .collect();
        state.plugins.insert(plugin_id.to_owned(), handlers);
        state.rebuild();
        drop(state);
        self.inner.handlers_changed();
        Ok(())
    }

    /// Removes a plugin's handlers and its loaded flag; whether it had any registered. Running
    /// calls finish.
    pub fn unregister_plugin(&self, plugin_id: &str) -> bool {
        let mut state = self.write_state();
        state.loaded.remove(plugin_id);
        let removed = state.plugins.remove(plugin_id).is_some();
        if removed {
            state.rebuild();
            drop(state);
            self.inner.handlers_changed();
        }
        removed
    }

    /// Switches a handler on or off by full name (`{plugin_id}.{name}`); disabled handlers never
    /// run. Whether such a handler is registered.
    pub fn set_enabled(&self, full_name: &str, enabled: bool) -> bool {
        let state = self.read_state();
        let mut found = false;
        for handler in state.plugins.values().flatten().filter(|h| h.full_name() == full_name) {
            handler.enabled.store(enabled, Ordering::Relaxed);
            found = true;
        }
        found
    }

    /// Whether a plugin's handlers may run. The plugin host marks a plugin not loaded while its
    /// `on_load` runs: its handlers then fail with `plugin {id} is not loaded` without consulting
    /// the circuit breaker. May be called before the plugin is registered.
    pub fn set_plugin_loaded(&self, plugin_id: &str, loaded: bool) {
        let mut state = self.write_state();
        match state.loaded.get(plugin_id) {
            Some(flag) => flag.store(loaded, Ordering::Relaxed),
            None => {
                state.loaded.insert(plugin_id.to_owned(), Arc::new(AtomicBool::new(loaded)));
            }
        }
    }

    /// The plugins whose circuit breaker is not closed, by plugin id.
    pub fn breaker_statuses(&self) -> Vec<BreakerStatus> {
        self.inner.breaker.statuses()
    }

    fn read_state(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.inner.state.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_state(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.inner.state.write().unwrap_or_else(|e| e.into_inner())
    }

    // ---- dispatch ----------------------------------------------------------------------

    /// Fires hook `name` (trimmed) with `kwargs`: blocking handlers run in order and may
    /// replace the arguments or abort; observers are then started with the final arguments and
    /// may still be running when this returns. Dropping the future cancels the running handler.
    ///
    /// `Err` only for an empty name. An unknown hook is not an error: its handlers (registered
    /// without validation) run with every permission and the default timeout.
    ///
    /// The future is `Send`, so a host may spawn it.
    pub fn invoke<'a>(
        &'a self,
        name: &'a str,
        kwargs: HookArgs,
    ) -> impl Future<Output = Result<HookDispatchResult, HookError>> + Send + 'a {
        // `dispatch`'s own future, not an `async fn` around it: one state machine less to move.
        self.dispatch(name, kwargs, false).map(|dispatched| dispatched.map(|(result, _)| result))
    }

    /// [`invoke`](Self::invoke) with any value that serialises to a JSON object.
    pub async fn invoke_with<T: Serialize + ?Sized>(
        &self,
        name: &str,
        kwargs: &T,
    ) -> Result<HookDispatchResult, HookError> {
        let error = |kind| HookError::new(kind, self.inner.locale);
        if name.trim().is_empty() {
            return Err(error(HookErrorKind::EmptyHookName));
        }
        let kwargs = match serde_json::to_value(kwargs) {
            Ok(Value::Object(map)) => HookArgs::from(map),
            Ok(other) => {
                return Err(error(HookErrorKind::ArgumentsNotAnObject {
                    actual: toolhook::__private::json_type(&other),
                }));
            }
            Err(e) => return Err(error(HookErrorKind::ArgumentsNotSerializable { reason: e.to_string() })),
        };
        self.invoke(name, kwargs).await
    }

    /// [`invoke`](Self::invoke), then waits for the observers this call started (not others).
    pub async fn invoke_and_wait(&self, name: &str, kwargs: HookArgs) -> Result<HookDispatchResult, HookError> {
        let (result, observers) = self.dispatch(name, kwargs, true).await?;
        for observer in observers {
            // A dropped or aborted run is as finished as it gets.
            let _ = observer.await;
        }
        Ok(result)
    }

    /// How many observer runs were dropped because the queue was full (see
    /// [`HookDispatcherBuilder::max_queued_observers`]) since the dispatcher was built.
    pub fn dropped_observer_runs(&self) -> u64 {
        self.inner.observers.dropped()
    }

    /// Waits until no observer is running or waiting to start.
    pub async fn wait_observers(&self) {
        self.inner.observers.wait_all().await;
    }

    /// Stops dispatching (later `invoke`s run no handler and return the arguments unchanged),
    /// aborts the running and waiting observers and waits until they are gone.
    pub async fn shutdown(&self) {
        self.inner.shut_down.store(true, Ordering::SeqCst);
        self.inner.observers.abort_all().await;
    }

    /// Whether [`shutdown`](Self::shutdown) was called.
    pub fn is_shut_down(&self) -> bool {
        self.inner.shut_down.load(Ordering::SeqCst)
    }

    async fn dispatch(
        &self,
        name: &str,
        kwargs: HookArgs,
        track: bool,
    ) -> Result<(HookDispatchResult, Vec<oneshot::Receiver<()>>), HookError> {
        let inner = &self.inner;
        let hook = name.trim();
        if hook.is_empty() {
            return Err(HookError::new(HookErrorKind::EmptyHookName, inner.locale));
        }
        let mut result = HookDispatchResult::new(hook, kwargs);
        let mut observers = Vec::new();
        if self.is_shut_down() {
            return Ok((result, observers));
        }
        let Some(prepared) = inner.prepared(hook) else {
            return Ok((result, observers));
        };
        let spec = &prepared.spec;
        // The observers of one event share one copy of its arguments (taken when the first one
        // is submitted, after the blocking handlers before it).
        let mut shared: Option<(usize, Arc<HookArgs>)> = None;
        let mut changes = 0usize;
        // One clock read per blocking handler: each starts when the one before it returned.
        let mut clock = Stamp::now();
        // The blocking handlers' futures, one after another in one box: a future of the same size
        // and alignment as the one before it (closures of one kind) takes its allocation over.
        let mut slot: HandlerSlot = None;
        for target in prepared.handlers.iter() {
            if self.is_shut_down() {
                break;
            }
            if !target.enabled.load(Ordering::Relaxed) {
                continue;
            }
            let timeout = inner.timeout_of(target, spec);
            match target.mode {
                HookMode::Observe if !spec.allow_observe => {
                    tracing::warn!(hook, handler = target.full_name(), "hook does not allow observers; skipped");
                }
                HookMode::Observe => {
                    let kwargs = match &shared {
                        Some((at, kwargs)) if *at == changes => Arc::clone(kwargs),
                        _ => Arc::clone(&shared.insert((changes, Arc::new(result.kwargs.clone()))).1),
                    };
                    let task = Arc::clone(inner);
                    let handler = Arc::clone(target);
                    let done = inner.observers.submit(Arc::clone(target.names.full_name()), async move {
                        let kwargs = Arc::unwrap_or_clone(kwargs);
                        task.observe(&handler, kwargs, timeout).await;
                    });
                    if track {
                        observers.push(done);
                    }
                }
                HookMode::Blocking if !spec.allow_blocking => {
                    let full = target.full_name();
                    result.errors.push(match inner.locale {
                        Locale::En => format!("Hook {hook} does not allow blocking handlers; skipped {full}"),
                        Locale::ZhHans => format!("Hook {hook} 不允许 blocking 处理器，已跳过 {full}"),
                    });
                }
                HookMode::Blocking => {
                    // The handler's clock starts before its future is created: creating it is
                    // the handler's work too.
                    let timing = guard::Clock::new(Some(timeout), clock);
                    let (run, ended) = match inner.start(target, result.kwargs.clone(), timeout, clock, &mut slot) {
                        Started::Running(ticket) => {
                            let (outcome, ended) = guard::run_in(&mut slot, timing).await;
                            (inner.finish(target, ticket, timeout, outcome), ended)
                        }
                        Started::Done(outcome, ticket) => inner.settle(target, ticket, timeout, timing, outcome),
                        Started::Over(run, ended) => (run, ended),
                    };
                    clock = ended;
                    changes += 1;
                    inner.merge(&mut result, spec, target, run);
                    if result.aborted {
                        break;
                    }
                }
            }
        }
        Ok((result, observers))
    }
}

/// A handler's call, started: its future (in the slot) and the breaker's ticket, its outcome and
/// the ticket (a handler that never waits, run to its end in place), or already over.
enum Started<'a> {
    /// Its future is in the slot.
    Running(Ticket<'a>),
    /// A handler that never waits, already run to its end.
    Done(HandlerResult, Ticket<'a>),
    Over(Run, Stamp),
}

impl Inner {
    /// After a change of the registered handlers (with the state lock released: `prepared`
    /// takes the two locks in the other order): what was prepared is stale, and is let go at
    /// once, so that removed handlers are not kept alive.
    fn handlers_changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.prepared.lock().unwrap_or_else(|e| e.into_inner()).hooks.clear();
    }

    /// The hook's handlers and spec, or `None` when it has no handlers: the ones this thread used
    /// last when nothing changed since, else prepared (once per change) under the lock.
    fn prepared(&self, hook: &str) -> Option<Arc<Prepared>> {
        // Read before the state and the specs: a change after it makes what is prepared below
        // stale.
        let generation = (self.generation.load(Ordering::Acquire), self.specs.generation());
        if let Some(prepared) = recent::find(self.id, generation, hook) {
            return Some(prepared);
        }
        let mut cache = self.prepared.lock().unwrap_or_else(|e| e.into_inner());
        if cache.generation != generation {
            *cache = PreparedHooks { generation, hooks: HashMap::new() };
        }
        let (name, prepared) = match cache.hooks.get_key_value(hook) {
            Some((name, prepared)) => (Arc::clone(name), Arc::clone(prepared)),
            None => {
                let (name, handlers) = {
                    let state = self.state.read().unwrap_or_else(|e| e.into_inner());
                    let (name, handlers) = state.by_hook.get_key_value(hook)?;
                    (Arc::clone(name), Arc::clone(handlers))
                };
                let spec = self.specs.get_shared(hook).unwrap_or_else(|| Arc::new(HookSpec::synthetic(hook)));
                let prepared = Arc::new(Prepared { handlers, spec });
                cache.hooks.insert(Arc::clone(&name), Arc::clone(&prepared));
                (name, prepared)
            }
        };
        recent::remember(self.id, generation, name, &prepared);
        Some(prepared)
    }

    /// the handler's own, else the spec's, else the dispatcher's.
    fn timeout_of(&self, handler: &Handler, spec: &HookSpec) -> Duration {
        if handler.timeout_ms > 0 {
            Duration::from_millis(handler.timeout_ms)
        } else if spec.default_timeout_ms > 0 {
            Duration::from_millis(spec.default_timeout_ms)
        } else {
            self.default_timeout
        }
    }

    /// one call, with its loaded check, breaker permit, timeout and panic catching; its timeout
    /// counts from `started`. Also gives the clock reading taken when the handler returned
    /// (`started` when it did not run), from which the next handler of a dispatch starts.
    async fn run(&self, handler: &Handler, kwargs: HookArgs, timeout: Duration, started: Stamp) -> (Run, Stamp) {
        let clock = guard::Clock::new(Some(timeout), started);
        let mut slot = None;
        match self.start(handler, kwargs, timeout, started, &mut slot) {
            Started::Running(ticket) => {
                let (outcome, ended) = guard::run_in(&mut slot, clock).await;
                (self.finish(handler, ticket, timeout, outcome), ended)
            }
            Started::Done(outcome, ticket) => self.settle(handler, ticket, timeout, clock, outcome),
            Started::Over(run, ended) => (run, ended),
        }
    }

    /// [`finish`](Self::finish) of a handler that ran to its end in place: timed out when it
    /// blocked past its limit, as its first poll would have been.
    fn settle(
        &self,
        handler: &Handler,
        ticket: Ticket<'_>,
        timeout: Duration,
        mut clock: guard::Clock,
        outcome: HandlerResult,
    ) -> (Run, Stamp) {
        let outcome = clock.settle(outcome);
        (self.finish_apart(handler, ticket, timeout, outcome), clock.ended())
    }

    /// The first half of [`run`](Self::run), up to the handler's future (or the whole call of a
    /// handler that never waits): the dispatch loop awaits the future itself, so that a
    /// handler's call is one future, not three nested ones.
    fn start<'a>(
        &'a self,
        handler: &'a Handler,
        kwargs: HookArgs,
        timeout: Duration,
        started: Stamp,
        slot: &mut HandlerSlot,
    ) -> Started<'a> {
        if handler.missing_instance || !handler.loaded.load(Ordering::Relaxed) {
            return Started::Over(Run::Failed(Failure::NotLoaded(handler.plugin_id().to_owned())), started);
        }
        let probe = match self.breaker.acquire(handler.plugin_id()) {
            Permit::Granted { probe } => probe,
            Permit::Denied { log } => {
                if log {
                    tracing::warn!(
                        handler = handler.full_name(),
                        plugin = handler.plugin_id(),
                        "circuit breaker open: hook handler skipped"
                    );
                }
                return Started::Over(Run::Skipped, started);
            }
        };
        let ticket = Ticket::new(&self.breaker, handler.plugin_id(), probe);
        let ctx = HookContext::from_parts(handler.names.clone(), handler.mode, timeout);
        // A handler that blocks its thread (even while its future is created) is timed out when
        // it returns, and counts against its plugin. On timeout the future is dropped (a panic in
        // its drop is contained), cancelling the handler.
        match guard::create(|| handler.invoke(kwargs, ctx, slot)) {
            Ok(Called::Running) => Started::Running(ticket),
            Ok(Called::Done(outcome)) => Started::Done(outcome, ticket),
            Err(payload) => {
                let panicked = Guarded::Panicked(guard::panic_message(&*payload));
                Started::Over(self.finish(handler, ticket, timeout, panicked), Stamp::now())
            }
        }
    }

    /// [`finish`](Self::finish), not inlined: for a handler run to its end in place, whose
    /// outcome is not read back through a poll's output. (Keeping `settle` out of line instead
    /// measured slower: its own output is then read back through memory.)
    #[inline(never)]
    fn finish_apart(
        &self,
        handler: &Handler,
        ticket: Ticket<'_>,
        timeout: Duration,
        outcome: Guarded<HandlerResult>,
    ) -> Run {
        self.finish(handler, ticket, timeout, outcome)
    }

    /// The second half of [`run`](Self::run): how the handler's future ended, reported to the
    /// breaker.
    // Always inline, as `GuardedRun::poll` is: its `Run`, read back through memory at once, cost
    // each handler's call a store-forwarding stall.
    #[inline(always)]
    fn finish(&self, handler: &Handler, ticket: Ticket<'_>, timeout: Duration, outcome: Guarded<HandlerResult>) -> Run {
        match outcome {
            Guarded::TimedOut(timed_out) => {
                ticket.report(Verdict::Failure);
                if let Some(blocked) = timed_out.blocked_for {
                    tracing::warn!(
                        handler = handler.full_name(),
                        blocked_ms = blocked.as_millis() as u64,
                        timeout_ms = timeout.as_millis() as u64,
                        "hook handler blocked its executor thread longer than its timeout; do blocking work in spawn_blocking"
                    );
                }
                Run::TimedOut(timeout)
            }
            Guarded::NoTimer(missing) => {
                ticket.report(Verdict::Neutral);
                Run::Failed(Failure::NoTimer(Box::new(missing.into_tool_error())))
            }
            Guarded::Panicked(text) => {
                ticket.report(Verdict::Failure);
                // `panic`, and the payload's text when it is one.
                Run::Failed(Failure::Text(text.map_or_else(|| "panic".to_owned(), |text| format!("panic: {text}"))))
            }
            Guarded::Finished(Ok(outcome)) => {
                ticket.report(Verdict::Success);
                Run::Outcome(outcome)
            }
            Guarded::Finished(Err(HookHandlerError::InvalidPayload(error))) => {
                ticket.report(Verdict::Neutral);
                Run::Failed(Failure::InvalidPayload(error.detail().to_string()))
            }
            Guarded::Finished(Err(HookHandlerError::PluginNotLoaded(plugin_id))) => {
                ticket.report(Verdict::Neutral);
                Run::Failed(Failure::NotLoaded(plugin_id.to_string()))
            }
            Guarded::Finished(Err(error)) => {
                ticket.report(Verdict::Success);
                Run::Failed(Failure::Text(error.to_string().trim().to_owned()))
            }
        }
    }

    /// A failed run's text in `locale`: the dispatcher's for the result, English for the log.
    fn failure_text(full: &str, run: &Run, locale: Locale) -> String {
        match (run, locale) {
            (Run::TimedOut(timeout), Locale::En) => {
                format!("HookHandler {full} timed out after {} ms", timeout.as_millis())
            }
            (Run::TimedOut(timeout), Locale::ZhHans) => {
                format!("HookHandler {full} 执行超时，已超过 {}ms", timeout.as_millis())
            }
            (Run::Failed(failure), locale) => {
                let message = failure.message(locale);
                match (message.is_empty(), locale) {
                    (true, Locale::En) => format!("HookHandler {full} failed"),
                    (false, Locale::En) => format!("HookHandler {full} failed: {message}"),
                    (true, Locale::ZhHans) => format!("HookHandler {full} 执行失败"),
                    (false, Locale::ZhHans) => format!("HookHandler {full} 执行失败: {message}"),
                }
            }
            (Run::Outcome(_) | Run::Skipped, _) => String::new(),
        }
    }

    /// merges a blocking handler's run into the result.
    fn merge(&self, result: &mut HookDispatchResult, spec: &HookSpec, handler: &Handler, run: Run) {
        let hook = &spec.name;
        let full = handler.full_name();
        let zh = self.locale == Locale::ZhHans;
        let outcome = match run {
            Run::Skipped => {
                result.skipped.push(full.to_owned());
                return;
            }
            Run::Outcome(outcome) => outcome,
            failed => {
                // Log lines are English whatever the dispatcher's locale.
                let logged = || Self::failure_text(full, &failed, Locale::En);
                match handler.error_policy {
                    ErrorPolicy::Skip => tracing::debug!(hook = &**hook, handler = full, "{}", logged()),
                    ErrorPolicy::Log => tracing::warn!(hook = &**hook, handler = full, "{}", logged()),
                    ErrorPolicy::Abort if spec.allow_abort => {
                        result.aborted = true;
                        result.stopped_by = Some(full.to_owned());
                    }
                    ErrorPolicy::Abort => {
                        tracing::warn!(
                            hook = &**hook,
                            handler = full,
                            "{}; the hook does not allow abort, continuing",
                            logged()
                        );
                    }
                }
                result.errors.push(Self::failure_text(full, &failed, self.locale));
                return;
            }
        };
        if let Some(custom) = outcome.custom_result {
            result.custom_results.push(*custom);
        }
        if let Some(modification) = outcome.modified {
            if !spec.allow_kwargs_mutation {
                result.errors.push(if zh {
                    format!("Hook {hook} 不允许修改 kwargs，已忽略 {full} 的 modified_kwargs")
                } else {
                    format!("Hook {hook} does not allow modifying kwargs; ignored modified_kwargs from {full}")
                });
            } else {
                let candidate = modification.apply_to(&result.kwargs);
                match spec.validates().then(|| validate::validate(&spec.parameters_schema, &candidate)) {
                    Some(Err(violation)) => {
                        let detail = violation.message(self.locale);
                        result.errors.push(if zh {
                            format!("Hook {hook} 的参数校验失败，已丢弃 {full} 的 modified_kwargs：{detail}")
                        } else {
                            format!("Hook {hook} rejected modified_kwargs from {full}: {detail}")
                        });
                    }
                    _ => result.kwargs = candidate,
                }
            }
        }
        if outcome.action == HookAction::Abort {
            if spec.allow_abort {
                result.aborted = true;
                result.stopped_by = Some(full.to_owned());
            } else {
                result.errors.push(if zh {
                    format!("Hook {hook} 不允许 abort，已忽略 {full} 的 abort 请求")
                } else {
                    format!("Hook {hook} does not allow abort; ignored the abort request from {full}")
                });
            }
        }
    }

    /// one observer, its failures logged.
    async fn observe(&self, handler: &Handler, kwargs: HookArgs, timeout: Duration) {
        let full = handler.full_name();
        let hook = &**handler.names.hook_name();
        match self.run(handler, kwargs, timeout, Stamp::now()).await.0 {
            Run::Outcome(outcome) => {
                if outcome.modified.is_some() || outcome.action == HookAction::Abort {
                    tracing::warn!(hook, handler = full, "observers cannot modify the arguments or abort; ignored");
                }
            }
            Run::Skipped => {}
            failed => {
                tracing::warn!(hook, handler = full, "{}", Self::failure_text(full, &failed, Locale::En));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::{HookSpec, HookSpecRegistry};
    use std::sync::atomic::AtomicUsize;
    use toolhook::hooks::{BlockingHookResult, HookOutcome};

    /// A handler whose boxed call must not run, with a ready call that counts its calls and
    /// marks the arguments.
    fn ready_entry(name: &str, calls: &Arc<AtomicUsize>) -> HookHandlerEntry {
        let mut entry = HookHandlerEntry::new(name, "t.hook", |_: HookArgs, _: HookContext| async {
            panic!("the boxed call ran although the handler has a ready one");
            #[allow(unreachable_code)]
            HookOutcome::<HookArgs>::proceed()
        });
        let calls = Arc::clone(calls);
        entry.ready = Some(Arc::new(move |mut args: HookArgs, _| {
            calls.fetch_add(1, Ordering::SeqCst);
            args.insert("ready", true);
            HookOutcome::modify(args).into_handler_outcome()
        }));
        entry
    }

    fn dispatcher() -> HookDispatcher {
        let specs = HookSpecRegistry::new();
        specs.register(HookSpec::new("t.hook")).unwrap();
        HookDispatcher::builder().specs(specs).build()
    }

    #[tokio::test]
    async fn a_handler_with_a_ready_call_is_called_in_place_blocking_or_observing() {
        let calls = Arc::new(AtomicUsize::new(0));
        let d = dispatcher();
        let observer = ready_entry("watch", &calls).mode(HookMode::Observe);
        d.register_plugin("p", Source::ThirdParty, vec![ready_entry("mark", &calls), observer]).unwrap();
        let result = d.invoke_and_wait("t.hook", HookArgs::new()).await.unwrap();
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        assert_eq!(result.kwargs.get("ready"), Some(&true.into()), "the blocking one's change is applied");
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_ready_handler_without_its_plugin_instance_is_not_called() {
        let calls = Arc::new(AtomicUsize::new(0));
        let d = dispatcher();
        let mut entry = ready_entry("mark", &calls);
        entry.missing_instance = true;
        d.register_plugin("p", Source::ThirdParty, vec![entry]).unwrap();
        let result = d.invoke("t.hook", HookArgs::new()).await.unwrap();
        assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
        assert!(result.errors[0].contains("plugin p is not loaded"), "{:?}", result.errors);
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }
}
