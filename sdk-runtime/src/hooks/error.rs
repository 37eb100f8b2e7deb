//! [`HookError`]: why the dispatcher refused a call or a registration.

use std::fmt;
use toolhook::Locale;

/// What went wrong, with the names involved. [`HookError`] words it in the dispatcher's locale.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HookErrorKind {
    /// `invoke` with a name that is empty after trimming.
    EmptyHookName,
    /// `invoke_with` a value that does not serialise to a JSON object (`actual` is its JSON type).
    ArgumentsNotAnObject {
        /// The JSON type it serialised to.
        actual: &'static str,
    },
    /// `invoke_with` a value whose `Serialize` failed.
    ArgumentsNotSerializable {
        /// serde's reason.
        reason: String,
    },
    /// A handler subscribes to a hook without a spec (while hooks are validated).
    UnregisteredHook {
        /// `{plugin_id}.{name}`.
        handler: String,
        /// The hook.
        hook: String,
    },
    /// A blocking handler on a hook that allows none.
    BlockingNotAllowed {
        /// `{plugin_id}.{name}`.
        handler: String,
        /// The hook.
        hook: String,
    },
    /// An observe handler on a hook that allows none.
    ObserveNotAllowed {
        /// `{plugin_id}.{name}`.
        handler: String,
        /// The hook.
        hook: String,
    },
    /// `error_policy = abort` on a hook that does not allow abort.
    AbortNotAllowed {
        /// `{plugin_id}.{name}`.
        handler: String,
        /// The hook.
        hook: String,
    },
    /// A mode string that names no mode.
    InvalidMode(String),
    /// An order string that names no order slot.
    InvalidOrder(String),
    /// An error policy string that names no policy.
    InvalidErrorPolicy(String),
    /// A handler whose hook name is empty after trimming.
    EmptyHandlerHook,
    /// A negative `timeout_ms`.
    NegativeTimeout(i64),
    /// Two handlers of one batch with the same full name.
    DuplicateHandler(String),
}

impl HookErrorKind {
    /// The text in `locale` (zh-Hans as the Python SDK words it).
    pub fn message(&self, locale: Locale) -> String {
        let zh = locale == Locale::ZhHans;
        match self {
            HookErrorKind::EmptyHookName => locale.pick("Hook name must not be empty", "Hook 名称不能为空").to_owned(),
            HookErrorKind::ArgumentsNotAnObject { actual } if zh => format!("Hook 参数必须是字典，实际为 {actual}"),
            HookErrorKind::ArgumentsNotAnObject { actual } => {
                format!("Hook arguments must be a JSON object, got {actual}")
            }
            HookErrorKind::ArgumentsNotSerializable { reason } if zh => format!("Hook 参数无法序列化: {reason}"),
            HookErrorKind::ArgumentsNotSerializable { reason } => {
                format!("Hook arguments could not be serialised: {reason}")
            }
            HookErrorKind::UnregisteredHook { handler, hook } if zh => {
                format!("HookHandler {handler} 声明了未注册的 Hook: {hook}")
            }
            HookErrorKind::UnregisteredHook { handler, hook } => {
                format!("HookHandler {handler} subscribes to unregistered hook: {hook}")
            }
            HookErrorKind::BlockingNotAllowed { handler, hook } if zh => {
                format!("HookHandler {handler} 不能注册为 blocking：Hook {hook} 不允许 blocking 处理器")
            }
            HookErrorKind::BlockingNotAllowed { handler, hook } => {
                format!(
                    "HookHandler {handler} cannot register as blocking: hook {hook} does not allow blocking handlers"
                )
            }
            HookErrorKind::ObserveNotAllowed { handler, hook } if zh => {
                format!("HookHandler {handler} 不能注册为 observe：Hook {hook} 不允许 observe 处理器")
            }
            HookErrorKind::ObserveNotAllowed { handler, hook } => {
                format!("HookHandler {handler} cannot register as observe: hook {hook} does not allow observe handlers")
            }
            HookErrorKind::AbortNotAllowed { handler, hook } if zh => {
                format!("HookHandler {handler} 不能使用 error_policy=abort：Hook {hook} 不允许 abort")
            }
            HookErrorKind::AbortNotAllowed { handler, hook } => {
                format!("HookHandler {handler} cannot use error_policy=abort: hook {hook} does not allow abort")
            }
            HookErrorKind::InvalidMode(v) if zh => format!("HookHandler 模式不合法: {v}"),
            HookErrorKind::InvalidMode(v) => format!("invalid HookHandler mode: {v}"),
            HookErrorKind::InvalidOrder(v) if zh => format!("HookHandler 顺序槽位不合法: {v}"),
            HookErrorKind::InvalidOrder(v) => format!("invalid HookHandler order slot: {v}"),
            HookErrorKind::InvalidErrorPolicy(v) if zh => format!("HookHandler 异常处理策略不合法: {v}"),
            HookErrorKind::InvalidErrorPolicy(v) => format!("invalid HookHandler error policy: {v}"),
            HookErrorKind::EmptyHandlerHook => {
                locale.pick("HookHandler hook name must not be empty", "HookHandler 的 hook 名称不能为空").to_owned()
            }
            HookErrorKind::NegativeTimeout(v) => format!("component timeout_ms cannot be negative: {v}"),
            HookErrorKind::DuplicateHandler(handler) if zh => format!("HookHandler {handler} 重复声明"),
            HookErrorKind::DuplicateHandler(handler) => format!("duplicate HookHandler {handler}"),
        }
    }
}

/// Why the dispatcher refused a call or a registration; `Display` is the text in the
/// dispatcher's locale.
///
/// Handler failures are not errors: they are data in
/// [`HookDispatchResult::errors`](super::HookDispatchResult::errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookError {
    kind: HookErrorKind,
    locale: Locale,
}

impl HookError {
    pub(crate) fn new(kind: HookErrorKind, locale: Locale) -> Self {
        HookError { kind, locale }
    }

    /// What went wrong.
    pub fn kind(&self) -> &HookErrorKind {
        &self.kind
    }

    /// The text in another locale.
    pub fn message(&self, locale: Locale) -> String {
        self.kind.message(locale)
    }
}

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind.message(self.locale))
    }
}

impl std::error::Error for HookError {}
