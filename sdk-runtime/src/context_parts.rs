//! Which parts of an availability context a provider's listing reads, so the registry caches
//! each listing by exactly those parts and shares it across every other difference.

use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use toolhook::{ChatScope, Locale, PermissionLevel, Phase, ToolAvailabilityContext, ToolExecutionContext};

/// A set of the fields of a [`ToolAvailabilityContext`] that a listing depends on.
///
/// The registry keeps one cached listing per provider and per distinct value of these fields:
/// a provider that declares [`ContextParts::NONE`] is listed once per change of its tools, one
/// that declares [`ContextParts::USER`] once per user. Declare as little as the listing really
/// reads: a listing that depends on the session is cached per session, which a host with
/// many sessions pays for in listings (the cache is bounded, so memory is not the problem,
/// time is). Whether a context was given at all always counts.
///
/// ```
/// use toolhook_runtime::ContextParts;
///
/// let parts = ContextParts::PHASE | ContextParts::CHAT_SCOPE;
/// assert!(parts.contains(ContextParts::PHASE));
/// assert!(!parts.contains(ContextParts::SESSION));
/// assert_eq!(parts.to_string(), "chat_scope | phase");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ContextParts(u16);

impl ContextParts {
    /// Nothing: the listing is the same for every context.
    pub const NONE: ContextParts = ContextParts(0);
    /// `session_id`.
    pub const SESSION: ContextParts = ContextParts(1 << 0);
    /// `stream_id`.
    pub const STREAM: ContextParts = ContextParts(1 << 1);
    /// `group_id`.
    pub const GROUP: ContextParts = ContextParts(1 << 2);
    /// `user_id`.
    pub const USER: ContextParts = ContextParts(1 << 3);
    /// `platform`.
    pub const PLATFORM: ContextParts = ContextParts(1 << 4);
    /// `is_group_chat` and `scope`.
    pub const CHAT_SCOPE: ContextParts = ContextParts(1 << 5);
    /// `permission`.
    pub const PERMISSION: ContextParts = ContextParts(1 << 6);
    /// `phase`.
    pub const PHASE: ContextParts = ContextParts(1 << 7);
    /// Every field (the default of [`ToolProvider::listing_depends_on`](crate::ToolProvider::listing_depends_on)).
    pub const ALL: ContextParts = ContextParts((1 << 8) - 1);

    const NAMES: [&'static str; 8] =
        ["session", "stream", "group", "user", "platform", "chat_scope", "permission", "phase"];

    /// Whether every part of `other` is in `self`.
    pub const fn contains(self, other: ContextParts) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no part is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The context with every field outside this set blanked, in `locale`: the key a listing is
    /// cached under, and the context the provider is listed with (so it cannot read what it did
    /// not declare).
    pub(crate) fn project(self, ctx: ContextView<'_>, locale: Locale) -> ToolAvailabilityContext {
        let text = |part: ContextParts, value: &str| if self.contains(part) { value.to_owned() } else { String::new() };
        let chat = self.contains(Self::CHAT_SCOPE);
        ToolAvailabilityContext {
            session_id: text(Self::SESSION, ctx.session_id),
            stream_id: text(Self::STREAM, ctx.stream_id),
            group_id: text(Self::GROUP, ctx.group_id),
            user_id: text(Self::USER, ctx.user_id),
            platform: text(Self::PLATFORM, ctx.platform),
            is_group_chat: if chat { ctx.is_group_chat } else { None },
            scope: if chat { ctx.scope } else { None },
            permission: if self.contains(Self::PERMISSION) { ctx.permission } else { Default::default() },
            phase: if self.contains(Self::PHASE) { ctx.phase } else { None },
            locale,
        }
    }
}

impl ContextParts {
    /// Whether [`project`](Self::project) of `ctx` in `locale` gives `projected`, found without
    /// building the projection.
    pub(crate) fn projects_to(self, ctx: ContextView<'_>, locale: Locale, projected: &ToolAvailabilityContext) -> bool {
        let text = |part: ContextParts, value: &str, kept: &str| {
            if self.contains(part) { value == kept } else { kept.is_empty() }
        };
        let chat = self.contains(Self::CHAT_SCOPE);
        projected.locale == locale
            && text(Self::SESSION, ctx.session_id, &projected.session_id)
            && text(Self::STREAM, ctx.stream_id, &projected.stream_id)
            && text(Self::GROUP, ctx.group_id, &projected.group_id)
            && text(Self::USER, ctx.user_id, &projected.user_id)
            && text(Self::PLATFORM, ctx.platform, &projected.platform)
            && projected.is_group_chat == if chat { ctx.is_group_chat } else { None }
            && projected.scope == if chat { ctx.scope } else { None }
            && projected.permission == if self.contains(Self::PERMISSION) { ctx.permission } else { Default::default() }
            && projected.phase == if self.contains(Self::PHASE) { ctx.phase } else { None }
    }
}

/// The fields of either context, borrowed: what listings and access rules read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContextView<'a> {
    pub(crate) session_id: &'a str,
    pub(crate) stream_id: &'a str,
    pub(crate) group_id: &'a str,
    pub(crate) user_id: &'a str,
    pub(crate) platform: &'a str,
    pub(crate) is_group_chat: Option<bool>,
    pub(crate) scope: Option<ChatScope>,
    pub(crate) permission: PermissionLevel,
    pub(crate) phase: Option<Phase>,
}

impl<'a> From<&'a ToolAvailabilityContext> for ContextView<'a> {
    fn from(c: &'a ToolAvailabilityContext) -> Self {
        ContextView {
            session_id: &c.session_id,
            stream_id: &c.stream_id,
            group_id: &c.group_id,
            user_id: &c.user_id,
            platform: &c.platform,
            is_group_chat: c.is_group_chat,
            scope: c.scope,
            permission: c.permission,
            phase: c.phase,
        }
    }
}

impl<'a> From<&'a ToolExecutionContext> for ContextView<'a> {
    fn from(c: &'a ToolExecutionContext) -> Self {
        ContextView {
            session_id: &c.session_id,
            stream_id: &c.stream_id,
            group_id: &c.group_id,
            user_id: &c.user_id,
            platform: &c.platform,
            is_group_chat: c.is_group_chat,
            scope: c.scope,
            permission: c.permission,
            phase: c.phase,
        }
    }
}

impl ContextView<'_> {
    /// `scope`, else derived from `is_group_chat`.
    pub(crate) fn chat_scope(&self) -> Option<ChatScope> {
        self.scope.or(match self.is_group_chat {
            Some(true) => Some(ChatScope::Group),
            Some(false) => Some(ChatScope::Private),
            None => None,
        })
    }
}

impl BitOr for ContextParts {
    type Output = ContextParts;
    fn bitor(self, rhs: ContextParts) -> ContextParts {
        ContextParts(self.0 | rhs.0)
    }
}

impl BitOrAssign for ContextParts {
    fn bitor_assign(&mut self, rhs: ContextParts) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for ContextParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let mut first = true;
        for (i, name) in Self::NAMES.iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                if !first {
                    f.write_str(" | ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ContextParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContextParts({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context with parts that projections keep or clear.
    fn full_context() -> ToolAvailabilityContext {
        ToolAvailabilityContext {
            session_id: "s".into(),
            user_id: "u".into(),
            platform: "qq".into(),
            is_group_chat: Some(true),
            permission: PermissionLevel::Owner,
            phase: Some(Phase::Action),
            ..Default::default()
        }
    }

    #[test]
    fn projection_keeps_only_the_declared_parts() {
        let ctx = full_context();
        let projected = (ContextParts::PHASE | ContextParts::CHAT_SCOPE).project((&ctx).into(), Locale::En);
        assert_eq!(projected.session_id, "");
        assert_eq!(projected.user_id, "");
        assert_eq!(projected.platform, "");
        assert_eq!(projected.permission, PermissionLevel::User);
        assert_eq!(projected.is_group_chat, Some(true));
        assert_eq!(projected.phase, Some(Phase::Action));
        assert_eq!(ContextParts::ALL.project((&ctx).into(), Locale::En), ctx);
    }

    #[test]
    fn a_projection_is_recognised_without_being_built() {
        let base = full_context();
        let others = [
            ToolAvailabilityContext { session_id: "t".into(), ..base.clone() },
            ToolAvailabilityContext { user_id: "v".into(), ..base.clone() },
            ToolAvailabilityContext { stream_id: "x".into(), ..base.clone() },
            ToolAvailabilityContext { group_id: "g".into(), ..base.clone() },
            ToolAvailabilityContext { platform: "QQ".into(), ..base.clone() },
            ToolAvailabilityContext { is_group_chat: Some(false), ..base.clone() },
            ToolAvailabilityContext { scope: Some(ChatScope::Private), ..base.clone() },
            ToolAvailabilityContext { permission: PermissionLevel::User, ..base.clone() },
            ToolAvailabilityContext { phase: None, ..base.clone() },
            base.clone(),
        ];
        let sets = [
            ContextParts::NONE,
            ContextParts::SESSION,
            ContextParts::PHASE | ContextParts::CHAT_SCOPE,
            ContextParts::PLATFORM | ContextParts::PERMISSION | ContextParts::USER,
            ContextParts::STREAM | ContextParts::GROUP,
            ContextParts::ALL,
        ];
        for parts in sets {
            let projected = parts.project((&base).into(), Locale::En);
            for other in &others {
                let same = parts.project(other.into(), Locale::En) == projected;
                assert_eq!(parts.projects_to(other.into(), Locale::En, &projected), same, "{parts} {other:?}");
            }
            assert!(!parts.projects_to((&base).into(), Locale::ZhHans, &projected), "{parts}: another locale");
        }
    }
}
