//! Access rules: who may see and call a tool, on which platform, in which chat.

use crate::context_parts::ContextView;
use toolhook::{ChatScope, PermissionLevel, ToolSpec};

/// The facts about a caller that access rules read. Unknown facts fail closed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct AccessFacts {
    /// Trimmed and lower-cased; `None` when empty or unknown.
    platform: Option<String>,
    scope: Option<ChatScope>,
    permission: PermissionLevel,
    /// Every rule admits the caller: the registry leaves its rules to its client (a plugin
    /// process, whose host enforces them).
    unchecked: bool,
}

impl AccessFacts {
    /// The facts of a caller; when `checked` is false, facts every rule admits.
    pub(crate) fn of(ctx: Option<ContextView<'_>>, checked: bool) -> Self {
        match ctx {
            _ if !checked => AccessFacts { unchecked: true, ..AccessFacts::default() },
            None => AccessFacts::default(),
            Some(ctx) => Self::from_parts(ctx.platform, ctx.chat_scope(), ctx.permission),
        }
    }

    fn from_parts(platform: &str, scope: Option<ChatScope>, permission: PermissionLevel) -> Self {
        let platform = platform.trim();
        let platform = if platform.is_empty() {
            None
        } else if platform.bytes().any(|b| b.is_ascii_uppercase()) || !platform.is_ascii() {
            Some(platform.to_lowercase())
        } else {
            Some(platform.to_owned())
        };
        AccessFacts { platform, scope, permission, unchecked: false }
    }

    /// Whether the spec's platforms, scopes and permission admit this caller.
    pub(crate) fn permits(&self, spec: &ToolSpec) -> Result<(), &'static str> {
        if self.unchecked {
            return Ok(());
        }
        if !spec.platforms().is_empty() && !self.platform.as_ref().is_some_and(|p| spec.platforms().contains(p)) {
            return Err("platform");
        }
        if !spec.scopes().is_empty() && !self.scope.is_some_and(|s| spec.scopes().contains(&s)) {
            return Err("scope");
        }
        if spec.permission() > self.permission {
            return Err("permission");
        }
        Ok(())
    }
}
