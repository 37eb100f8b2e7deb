//! [`HookHandlerEntry`]: one handler as the dispatcher receives it, from `#[hook_handler]`, from
//! a closure, or from strings.

use super::error::HookErrorKind;
use crate::guard::{Reused, put};
use serde::de::DeserializeOwned;
use std::any::Any;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use toolhook::DeclaredHookHandler;
use toolhook::hooks::{
    BlockingHookResult, ErrorPolicy, HandlerOutcome, HookArgs, HookContext, HookHandlerError, HookMode, HookOrder,
};

/// What a handler's call gives.
pub(crate) type HandlerResult = Result<HandlerOutcome, HookHandlerError>;

/// Where a handler's call puts its future: the dispatch's one slot, whose allocation the
/// handlers of a dispatch share when their futures have the same size and alignment.
pub(crate) type HandlerSlot = Option<Reused<HandlerResult>>;

/// The erased call of a handler: puts its future in the slot.
pub(crate) type HandlerCall = Arc<dyn Fn(HookArgs, HookContext, &mut HandlerSlot) + Send + Sync>;

/// A blocking handler's call to its end in place, for one whose body can never wait.
pub(crate) type ReadyCall = Arc<dyn Fn(HookArgs, HookContext) -> HandlerResult + Send + Sync>;

/// One `hook_handlers` entry of a plugin manifest, as manifests and hosts in other
/// languages give it: strings, trimmed and lower-cased, empty meaning the default. Invalid values
/// are reported when the plugin's batch is registered.
///
/// ```
/// use serde_json::json;
/// use toolhook_runtime::hooks::HookHandlerManifest;
///
/// let manifest: HookHandlerManifest = serde_json::from_value(json!({
///     "name": "tag", "hook": "send_service.before_send", "mode": " Blocking ", "order": "late", "timeout_ms": 250,
/// }))?;
/// assert_eq!(manifest.error_policy, "");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct HookHandlerManifest {
    /// The handler's name (trimmed).
    pub name: String,
    /// The hook (trimmed; must not be empty).
    pub hook: String,
    /// `blocking` | `observe`; empty ⇒ blocking.
    pub mode: String,
    /// `early` | `normal` | `late`; empty ⇒ normal.
    pub order: String,
    /// Milliseconds, 0 ⇒ the hook spec's default; negative is an error.
    pub timeout_ms: i64,
    /// `abort` | `skip` | `log`; empty ⇒ skip.
    pub error_policy: String,
}

/// A handler for [`HookDispatcher::register_plugin`](super::HookDispatcher::register_plugin): its
/// name, hook, mode, order, timeout, error policy, and how to call it.
///
/// ```
/// use std::time::Duration;
/// use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOrder, HookOutcome};
/// use toolhook_runtime::hooks::HookHandlerEntry;
///
/// let upper = HookHandlerEntry::new("upper", "demo.hook", |mut args: HookArgs, _ctx: HookContext| async move {
///     if let Some(text) = args.get("text").and_then(|t| t.as_str()).map(str::to_uppercase) {
///         args.insert("text", text);
///     }
///     HookOutcome::modify(args)
/// })
/// .order(HookOrder::Early)
/// .timeout(Duration::from_millis(200))
/// .error_policy(ErrorPolicy::Log);
/// assert_eq!(upper.name(), "upper");
///
/// let audit = HookHandlerEntry::new("audit", "demo.hook", |args: HookArgs, ctx: HookContext| async move {
///     println!("{} fired with {args}", ctx.hook_name());
/// })
/// .mode(HookMode::Observe);
/// # let _ = audit;
/// ```
pub struct HookHandlerEntry {
    pub(crate) name: String,
    pub(crate) hook: String,
    pub(crate) mode: Result<HookMode, String>,
    pub(crate) order: Result<HookOrder, String>,
    pub(crate) error_policy: Result<ErrorPolicy, String>,
    /// Milliseconds; a negative value as given.
    pub(crate) timeout_ms: Result<u64, i64>,
    pub(crate) enabled: bool,
    /// A `#[plugin]` method declared without the plugin's instance: it is not loaded.
    pub(crate) missing_instance: bool,
    pub(crate) call: HandlerCall,
    /// Set for a blocking `#[hook_handler]` whose body can never wait: the dispatcher calls it
    /// in place, with no future to box (in the dispatch, or in its own task if the host made it
    /// an observer).
    pub(crate) ready: Option<ReadyCall>,
}

impl fmt::Debug for HookHandlerEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HookHandlerEntry")
            .field("name", &self.name)
            .field("hook", &self.hook)
            .field("mode", &self.mode)
            .field("order", &self.order)
            .field("error_policy", &self.error_policy)
            .field("timeout_ms", &self.timeout_ms)
            .field("enabled", &self.enabled)
            .finish_non_exhaustive()
    }
}

/// A setting, trimmed and lower-cased; empty ⇒ the default. An invalid one is reported as
/// normalised, the value that was checked.
fn setting<T: Default + std::str::FromStr>(value: &str) -> Result<T, String> {
    let normalized = value.trim().to_lowercase();
    if normalized.is_empty() {
        return Ok(T::default());
    }
    normalized.parse::<T>().map_err(|_| normalized)
}

impl HookHandlerEntry {
    fn with_call(name: impl Into<String>, hook: impl Into<String>, call: HandlerCall) -> Self {
        HookHandlerEntry {
            name: name.into().trim().to_owned(),
            hook: hook.into(),
            mode: Ok(HookMode::Blocking),
            order: Ok(HookOrder::Normal),
            error_policy: Ok(ErrorPolicy::Skip),
            timeout_ms: Ok(0),
            enabled: true,
            missing_instance: false,
            call,
            ready: None,
        }
    }

    /// A handler that receives the arguments as [`HookArgs`]: blocking, normal order, the hook
    /// spec's timeout, error policy skip. The closure may return anything a blocking
    /// `#[hook_handler]` may ([`BlockingHookResult`]); as an observer (after
    /// [`mode(Observe)`](Self::mode)) its changes and aborts are ignored.
    pub fn new<F, Fut, R>(name: impl Into<String>, hook: impl Into<String>, handler: F) -> Self
    where
        F: Fn(HookArgs, HookContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: BlockingHookResult,
    {
        let call: HandlerCall = Arc::new(move |args, ctx, slot| {
            let future = handler(args, ctx);
            put(slot, async move { future.await.into_handler_outcome() });
        });
        HookHandlerEntry::with_call(name, hook, call)
    }

    /// A handler with a typed payload: the arguments are decoded into `P` (a decode failure is the
    /// handler failure `invalid payload: {path}: {reason}`, and the handler is not called), and a
    /// `HookOutcome::modify(p)` overlays `p` on them.
    ///
    /// ```
    /// use toolhook::hooks::{HookContext, HookOutcome};
    /// use toolhook_runtime::hooks::HookHandlerEntry;
    ///
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Text { text: String }
    ///
    /// let entry = HookHandlerEntry::typed("shout", "demo.hook", |mut p: Text, _ctx: HookContext| async move {
    ///     p.text.push('!');
    ///     HookOutcome::modify(p)
    /// });
    /// # let _ = entry;
    /// ```
    pub fn typed<P, F, Fut, R>(name: impl Into<String>, hook: impl Into<String>, handler: F) -> Self
    where
        P: DeserializeOwned + Send + 'static,
        F: Fn(P, HookContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: BlockingHookResult,
    {
        // Decoded when the call is made, under the same guard and clock as the handler's own
        // call: the future then holds the handler's future alone, not a share of the handler.
        let call: HandlerCall = Arc::new(move |args: HookArgs, ctx, slot| match args.into_payload::<P>() {
            Ok(payload) => {
                let future = handler(payload, ctx);
                put(slot, async move { future.await.into_handler_outcome() });
            }
            Err(error) => put(slot, async move { Err(error.into()) }),
        });
        HookHandlerEntry::with_call(name, hook, call)
    }

    /// A handler declared with `#[hook_handler]`, with its settings. A `#[plugin]` method needs
    /// the plugin's instance; without it the handler fails with `plugin {id} is not loaded`.
    pub fn from_declared(handler: DeclaredHookHandler, instance: Option<Arc<dyn Any + Send + Sync>>) -> Self {
        let missing_instance = handler.is_method() && instance.is_none();
        let ready = handler.registration().ready.map(|ready| {
            let instance = instance.clone();
            Arc::new(move |args, ctx| ready(instance.clone(), args, ctx)) as ReadyCall
        });
        let call: HandlerCall = Arc::new(move |args, ctx, slot| put(slot, handler.call(instance.clone(), args, ctx)));
        let mut entry = HookHandlerEntry::with_call(handler.name(), handler.hook(), call)
            .mode(handler.mode())
            .order(handler.order())
            .error_policy(handler.error_policy());
        entry.timeout_ms = Ok(handler.registration().timeout_ms);
        entry.missing_instance = missing_instance;
        entry.ready = ready;
        entry
    }

    /// A handler declared by strings, called through `handler` like [`new`](Self::new).
    pub fn from_manifest<F, Fut, R>(manifest: HookHandlerManifest, handler: F) -> Self
    where
        F: Fn(HookArgs, HookContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: BlockingHookResult,
    {
        let mut entry = HookHandlerEntry::new(manifest.name, manifest.hook, handler);
        entry.mode = setting(&manifest.mode);
        entry.order = setting(&manifest.order);
        entry.error_policy = setting(&manifest.error_policy);
        entry.timeout_ms = u64::try_from(manifest.timeout_ms).map_err(|_| manifest.timeout_ms);
        entry
    }

    /// Blocking (the default) or observe.
    pub fn mode(mut self, mode: HookMode) -> Self {
        self.mode = Ok(mode);
        self
    }

    /// The slot within the mode (default normal).
    pub fn order(mut self, order: HookOrder) -> Self {
        self.order = Ok(order);
        self
    }

    /// Its own timeout; zero means the hook spec's default (the default). It counts from the
    /// handler's start (a blocking handler starts when the one before it returned) and covers
    /// the whole call: a handler that blocks its thread past it is timed out when it returns,
    /// and its changes are dropped. Limits of 256 ms or more are checked to the kernel's clock
    /// tick while the handler has not waited (see "Timing precision" in the
    /// [crate docs](crate#choices)).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout_ms = Ok(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX));
        self
    }

    /// What a failure does (default skip).
    pub fn error_policy(mut self, policy: ErrorPolicy) -> Self {
        self.error_policy = Ok(policy);
        self
    }

    /// Whether it runs (default true); see also
    /// [`HookDispatcher::set_enabled`](super::HookDispatcher::set_enabled).
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// The handler's name (trimmed).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The hook, as given.
    pub fn hook(&self) -> &str {
        &self.hook
    }

    /// The first value problem of this entry, in the order registration checks them.
    pub(crate) fn value_problem(&self) -> Option<HookErrorKind> {
        if let Err(v) = &self.mode {
            return Some(HookErrorKind::InvalidMode(v.clone()));
        }
        if let Err(v) = &self.order {
            return Some(HookErrorKind::InvalidOrder(v.clone()));
        }
        if let Err(v) = &self.error_policy {
            return Some(HookErrorKind::InvalidErrorPolicy(v.clone()));
        }
        if self.hook.trim().is_empty() {
            return Some(HookErrorKind::EmptyHandlerHook);
        }
        if let Err(v) = self.timeout_ms {
            return Some(HookErrorKind::NegativeTimeout(v));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(mode: &str, order: &str, policy: &str, timeout_ms: i64) -> HookHandlerEntry {
        let manifest = HookHandlerManifest {
            name: " h ".into(),
            hook: "a.b".into(),
            mode: mode.into(),
            order: order.into(),
            timeout_ms,
            error_policy: policy.into(),
        };
        HookHandlerEntry::from_manifest(manifest, |_: HookArgs, _: HookContext| async {})
    }

    #[test]
    fn strings_are_trimmed_and_lower_cased_and_empty_means_default() {
        let entry = manifest(" OBSERVE ", "Late", "", 0);
        assert_eq!(entry.name(), "h");
        assert_eq!(entry.mode, Ok(HookMode::Observe));
        assert_eq!(entry.order, Ok(HookOrder::Late));
        assert_eq!(entry.error_policy, Ok(ErrorPolicy::Skip));
        assert!(entry.value_problem().is_none());
    }

    #[test]
    fn bad_strings_are_reported_as_given() {
        assert_eq!(
            manifest("sideways", "", "", 0).value_problem(),
            Some(HookErrorKind::InvalidMode("sideways".into()))
        );
        assert_eq!(manifest("", "first", "", 0).value_problem(), Some(HookErrorKind::InvalidOrder("first".into())));
        assert_eq!(
            manifest("", "", "panic", 0).value_problem(),
            Some(HookErrorKind::InvalidErrorPolicy("panic".into()))
        );
        assert_eq!(manifest("", "", "", -5).value_problem(), Some(HookErrorKind::NegativeTimeout(-5)));
    }
}
