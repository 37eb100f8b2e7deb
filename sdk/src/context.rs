//! What the host knows about the chat a call comes from.

use crate::{ChatScope, Locale, PermissionLevel};
use serde_json::{Map, Value};

/// The step of the reference's two-phase planner a listing is made for; built-in tools filter on
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The timing step (decide whether and when to act).
    Timing,
    /// The action step (pick and call tools).
    Action,
}

/// Everything the host knows about the chat a tool call comes from.
///
/// Passed to providers and, when a `#[tool]` fn asks for it with a `&ToolExecutionContext`
/// parameter, to the tool itself. The registry sets [`locale`](Self::locale) to its own before it
/// calls a provider, so texts the provider produces are in the registry's language.
///
/// ```
/// use toolhook::{ChatScope, PermissionLevel, ToolExecutionContext};
///
/// let ctx = ToolExecutionContext {
///     session_id: "s1".into(),
///     platform: "qq".into(),
///     is_group_chat: Some(true),
///     permission: PermissionLevel::GroupAdmin,
///     ..Default::default()
/// };
/// assert_eq!(ctx.chat_scope(), Some(ChatScope::Group));
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolExecutionContext {
    /// The conversation the call belongs to (deferred-tool discovery is kept per session).
    pub session_id: String,
    /// The chat stream (the reference's name for a chat).
    pub stream_id: String,
    /// The model's stated reasoning for the call.
    pub reasoning: String,
    /// The group, in group chats.
    pub group_id: String,
    /// The user who sent the message.
    pub user_id: String,
    /// The chat platform, e.g. `qq` or `telegram`.
    pub platform: String,
    /// Whether the chat is a group chat, when known.
    pub is_group_chat: Option<bool>,
    /// The caller's rank.
    pub permission: PermissionLevel,
    /// The kind of chat, when known (takes precedence over `is_group_chat`).
    pub scope: Option<ChatScope>,
    /// The planner phase, for built-in filtering.
    pub phase: Option<Phase>,
    /// The language of model-visible text a provider produces.
    pub locale: Locale,
    /// Anything else the host wants to pass along.
    pub metadata: Map<String, Value>,
}

impl ToolExecutionContext {
    /// A context for one session, everything else empty.
    pub fn for_session(session_id: impl Into<String>) -> Self {
        ToolExecutionContext { session_id: session_id.into(), ..Default::default() }
    }

    /// The chat scope: `scope`, else derived from `is_group_chat`, else unknown.
    pub fn chat_scope(&self) -> Option<ChatScope> {
        chat_scope(self.scope, self.is_group_chat)
    }

    /// The stream the call belongs to: `stream_id`, else `session_id`.
    pub fn stream_or_session(&self) -> &str {
        if self.stream_id.is_empty() { &self.session_id } else { &self.stream_id }
    }
}

/// What a provider may look at when it lists tools: the execution context without the call's
/// reasoning and metadata.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ToolAvailabilityContext {
    /// The conversation.
    pub session_id: String,
    /// The chat stream.
    pub stream_id: String,
    /// The group, in group chats.
    pub group_id: String,
    /// The user.
    pub user_id: String,
    /// The chat platform.
    pub platform: String,
    /// Whether the chat is a group chat, when known.
    pub is_group_chat: Option<bool>,
    /// The caller's rank.
    pub permission: PermissionLevel,
    /// The kind of chat, when known.
    pub scope: Option<ChatScope>,
    /// The planner phase.
    pub phase: Option<Phase>,
    /// The language of model-visible text.
    pub locale: Locale,
}

impl ToolAvailabilityContext {
    /// The chat scope: `scope`, else derived from `is_group_chat`, else unknown.
    pub fn chat_scope(&self) -> Option<ChatScope> {
        chat_scope(self.scope, self.is_group_chat)
    }
}

fn chat_scope(scope: Option<ChatScope>, is_group_chat: Option<bool>) -> Option<ChatScope> {
    scope.or(match is_group_chat {
        Some(true) => Some(ChatScope::Group),
        Some(false) => Some(ChatScope::Private),
        None => None,
    })
}

impl From<&ToolExecutionContext> for ToolAvailabilityContext {
    fn from(ctx: &ToolExecutionContext) -> Self {
        ToolAvailabilityContext {
            session_id: ctx.session_id.clone(),
            stream_id: ctx.stream_id.clone(),
            group_id: ctx.group_id.clone(),
            user_id: ctx.user_id.clone(),
            platform: ctx.platform.clone(),
            is_group_chat: ctx.is_group_chat,
            permission: ctx.permission,
            scope: ctx.scope,
            phase: ctx.phase,
            locale: ctx.locale,
        }
    }
}
