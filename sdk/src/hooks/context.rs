//! [`HookContext`]: which hook and which handler a call is.

use super::HookMode;
use std::sync::Arc;
use std::time::Duration;

/// Which hook a handler call belongs to and who is handling it. A handler asks for it by taking a
/// `HookContext` or `&HookContext` parameter.
///
/// The hook name is never put into the arguments (the Python SDK did, and it leaked back to callers
/// when a handler echoed its arguments); this is where a handler subscribed to several hooks learns
/// which one fired.
///
/// ```
/// use std::time::Duration;
/// use toolhook::hooks::{HookContext, HookMode};
///
/// let ctx = HookContext::new("chat.receive.before_process", "acme.filter", "drop_spam", HookMode::Blocking)
///     .with_timeout(Duration::from_secs(5));
/// assert_eq!(ctx.hook_name(), "chat.receive.before_process");
/// assert_eq!(ctx.full_name(), "acme.filter.drop_spam");
/// assert_eq!(ctx.timeout(), Duration::from_secs(5));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookContext {
    names: SharedNames,
    mode: HookMode,
    timeout: Duration,
}

/// A handler's [`HookNames`] as its calls share them: kept for the life of the process (the
/// dispatcher keeps the names of the handlers a program registers so), which makes a call's
/// context a copy of a pointer; or counted, which makes it a reference count.
#[doc(hidden)]
#[derive(Clone)]
pub enum SharedNames {
    /// Names kept for the life of the process.
    Static(&'static HookNames),
    /// Names shared by reference count.
    Counted(Arc<HookNames>),
}

impl std::ops::Deref for SharedNames {
    type Target = HookNames;

    fn deref(&self) -> &HookNames {
        match self {
            SharedNames::Static(names) => names,
            SharedNames::Counted(names) => names,
        }
    }
}

impl std::fmt::Debug for SharedNames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for SharedNames {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for SharedNames {}

/// The names a [`HookContext`] reports, kept once per handler and shared by each of its calls
/// (one reference count per call instead of four, or none, see [`SharedNames`]). The dispatcher
/// reads them too.
#[doc(hidden)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct HookNames {
    hook_name: Arc<str>,
    plugin_id: Arc<str>,
    handler_name: Arc<str>,
    full_name: Arc<str>,
}

impl From<Arc<HookNames>> for SharedNames {
    fn from(names: Arc<HookNames>) -> Self {
        SharedNames::Counted(names)
    }
}

impl From<&'static HookNames> for SharedNames {
    fn from(names: &'static HookNames) -> Self {
        SharedNames::Static(names)
    }
}

impl HookNames {
    /// The names of handler `handler_name` of plugin `plugin_id` on `hook_name`; the full name is
    /// `{plugin_id}.{handler_name}`.
    pub fn new(
        hook_name: impl Into<Arc<str>>,
        plugin_id: impl Into<Arc<str>>,
        handler_name: impl Into<Arc<str>>,
    ) -> Self {
        let (plugin_id, handler_name) = (plugin_id.into(), handler_name.into());
        let full_name = format!("{plugin_id}.{handler_name}").into();
        HookNames { hook_name: hook_name.into(), plugin_id, handler_name, full_name }
    }

    /// The hook (trimmed).
    pub fn hook_name(&self) -> &Arc<str> {
        &self.hook_name
    }

    /// The handler's plugin.
    pub fn plugin_id(&self) -> &Arc<str> {
        &self.plugin_id
    }

    /// The handler's own name.
    pub fn handler_name(&self) -> &Arc<str> {
        &self.handler_name
    }

    /// `{plugin_id}.{handler_name}`.
    pub fn full_name(&self) -> &Arc<str> {
        &self.full_name
    }
}

impl HookContext {
    /// A context for handler `handler_name` of plugin `plugin_id` on `hook_name`; full name
    /// `{plugin_id}.{handler_name}`, no timeout budget set ([`Duration::ZERO`]).
    pub fn new(
        hook_name: impl AsRef<str>,
        plugin_id: impl AsRef<str>,
        handler_name: impl AsRef<str>,
        mode: HookMode,
    ) -> Self {
        let names = HookNames::new(hook_name.as_ref(), plugin_id.as_ref(), handler_name.as_ref());
        HookContext { names: SharedNames::Counted(Arc::new(names)), mode, timeout: Duration::ZERO }
    }

    /// Like [`new`](Self::new), with names the dispatcher keeps per handler.
    #[doc(hidden)]
    pub fn from_parts(names: impl Into<SharedNames>, mode: HookMode, timeout: Duration) -> Self {
        HookContext { names: names.into(), mode, timeout }
    }

    /// Sets the time budget of the call.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The hook that fired (trimmed).
    pub fn hook_name(&self) -> &str {
        &self.names.hook_name
    }

    /// The plugin the handler belongs to (the package name for free fns).
    pub fn plugin_id(&self) -> &str {
        &self.names.plugin_id
    }

    /// The handler's own name.
    pub fn handler_name(&self) -> &str {
        &self.names.handler_name
    }

    /// `{plugin_id}.{handler_name}`: how errors and results name the handler.
    pub fn full_name(&self) -> &str {
        &self.names.full_name
    }

    /// Blocking or observe.
    pub fn mode(&self) -> HookMode {
        self.mode
    }

    /// How long this call may take before the dispatcher drops it: the handler's `timeout_ms`, else
    /// the hook spec's default, else the dispatcher's.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}
