//! What the host knows about the chat a call comes from.

use crate::interaction::{
    Capabilities, Elicitation, ElicitationReply, InputKind, Interaction, InteractionError, InteractionHandle, LogLevel,
    Progress, Root, RootsRequest, SamplingReply, SamplingRequest,
};
use crate::{ChatScope, Locale, PermissionLevel};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The step of the host's two-phase planner a listing is made for; built-in tools filter on
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
    /// The chat stream (the Python SDK's name for a chat).
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
    /// Whoever called: where progress, logs and questions go (see
    /// [`with_interaction`](Self::with_interaction)). Not part of the chat, so not serialised
    /// and not compared.
    #[serde(skip)]
    pub interaction: InteractionHandle,
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

    /// The context with an [`Interaction`] behind it: what the host does with the tool's
    /// progress, logs and questions.
    #[must_use]
    pub fn with_interaction(mut self, interaction: Arc<dyn Interaction>) -> Self {
        self.interaction = InteractionHandle::new(interaction);
        self
    }

    /// Tells the caller how far the tool has got (an MCP client sees `notifications/progress`).
    /// Without a host sink it goes nowhere.
    ///
    /// ```
    /// use toolhook::{Progress, ToolExecutionContext, tool};
    ///
    /// /// Index a repository.
    /// #[tool]
    /// async fn index(
    ///     ctx: &ToolExecutionContext,
    ///     /// The files to index.
    ///     files: Vec<String>,
    /// ) -> String {
    ///     let total = files.len() as f64;
    ///     for (done, file) in files.iter().enumerate() {
    ///         ctx.report_progress(Progress::new(done as f64).total(total).message(file.clone())).await;
    ///         if ctx.is_cancelled() {
    ///             return format!("stopped after {done} files");
    ///         }
    ///     }
    ///     format!("indexed {total} files")
    /// }
    /// ```
    pub async fn report_progress(&self, progress: Progress) {
        if let Some(interaction) = self.interaction.get() {
            interaction.report_progress(progress).await;
        }
    }

    /// Sends the caller a log message (an MCP client sees `notifications/message`, at the level it
    /// asked for and above). Without a host sink it goes nowhere.
    pub async fn log(&self, level: LogLevel, message: impl Into<Value>) {
        if let Some(interaction) = self.interaction.get() {
            interaction.log(level, None, message.into()).await;
        }
    }

    /// Whether the caller cancelled the call. A cancelled async tool is dropped at its next
    /// `.await` anyway; a sync tool or a loop that does not await should check this.
    pub fn is_cancelled(&self) -> bool {
        self.interaction.get().is_some_and(|i| i.is_cancelled())
    }

    /// Resolves when the caller cancels the call (never, when nothing can cancel it).
    pub async fn cancelled(&self) {
        match self.interaction.get() {
            Some(interaction) => interaction.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// What the caller can be asked.
    pub fn capabilities(&self) -> Capabilities {
        self.interaction.get().map_or(Capabilities::NONE, |i| i.capabilities())
    }

    /// Whether the caller can answer this kind of question.
    pub fn can_ask(&self, kind: InputKind) -> bool {
        let can = self.capabilities();
        match kind {
            InputKind::Elicitation => can.elicitation,
            InputKind::Sampling => can.sampling,
            InputKind::Roots => can.roots,
        }
    }

    /// Asks the user a question and waits for the answer.
    ///
    /// Over MCP the client asks its user. A client on protocol 2026-07-28 answers between calls:
    /// the call returns "input required", and once the client has the answer the tool is **run
    /// again from the start** with it, so everything a tool does before its last question must
    /// be safe to do twice (read, don't write, until you have every answer). Without a caller
    /// that can answer, this is [`InteractionError::NotSupported`].
    ///
    /// ```
    /// use toolhook::{Elicitation, ToolExecutionContext, tool};
    /// use toolhook::serde_json::json;
    ///
    /// /// Book a table.
    /// #[tool]
    /// async fn book(
    ///     ctx: &ToolExecutionContext,
    ///     /// The restaurant's name.
    ///     restaurant: String,
    /// ) -> Result<String, String> {
    ///     let schema = json!({"type": "object", "properties": {"guests": {"type": "integer"}}, "required": ["guests"]});
    ///     let reply = ctx.elicit(Elicitation::new("For how many guests?", schema)).await.map_err(|e| e.to_string())?;
    ///     let guests = reply.accepted().and_then(|a| a["guests"].as_i64()).ok_or("no answer")?;
    ///     Ok(format!("booked {restaurant} for {guests}"))
    /// }
    /// ```
    pub async fn elicit(&self, question: Elicitation) -> Result<ElicitationReply, InteractionError> {
        match self.interaction.get() {
            Some(interaction) => interaction.elicit(question).await,
            None => Err(InteractionError::NotSupported(InputKind::Elicitation)),
        }
    }

    /// Asks the caller's model and waits for its answer (re-runs as for
    /// [`elicit`](Self::elicit)).
    pub async fn sample(&self, request: SamplingRequest) -> Result<SamplingReply, InteractionError> {
        match self.interaction.get() {
            Some(interaction) => interaction.sample(request).await,
            None => Err(InteractionError::NotSupported(InputKind::Sampling)),
        }
    }

    /// Asks the client which roots it works in (re-runs as for [`elicit`](Self::elicit)).
    pub async fn list_roots(&self, request: RootsRequest) -> Result<Vec<Root>, InteractionError> {
        match self.interaction.get() {
            Some(interaction) => interaction.list_roots(request).await,
            None => Err(InteractionError::NotSupported(InputKind::Roots)),
        }
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
