//! What a running tool can do with whoever called it: report progress, log, notice that the
//! call was cancelled, and ask a question of the user (elicitation), of the caller's model
//! (sampling) or of the client (its roots).
//!
//! A tool reaches all of it through its [`ToolExecutionContext`](crate::ToolExecutionContext);
//! the host decides what stands behind it by setting an [`Interaction`] on the context. The MCP
//! server of `toolhook-runtime` puts the MCP client there; an in-process host may put its own
//! sink for progress and logs, or nothing, in which case progress and logs go nowhere and
//! questions fail with [`InteractionError::NotSupported`].

use crate::BoxFuture;
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;

/// The severity of a log message a tool sends its caller (the syslog levels MCP uses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation (the default).
    #[default]
    Info,
    /// Normal but significant events.
    Notice,
    /// Something to look at.
    Warning,
    /// An operation failed.
    Error,
    /// A component failed.
    Critical,
    /// Action needed now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's name as MCP writes it (`info`, `warning`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How far a tool has got: `progress` out of `total` (when known), with a message.
///
/// ```
/// use toolhook::Progress;
///
/// let step = Progress::new(2.0).total(5.0).message("Downloading part 2 of 5");
/// assert_eq!((step.progress, step.total), (2.0, Some(5.0)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Progress {
    /// The work done so far; it only goes up.
    pub progress: f64,
    /// The whole work, when known.
    pub total: Option<f64>,
    /// What is happening now.
    pub message: Option<String>,
}

impl Progress {
    /// `progress` done, total unknown.
    pub fn new(progress: f64) -> Self {
        Progress { progress, total: None, message: None }
    }

    /// Sets the total.
    #[must_use]
    pub fn total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// Sets the message.
    #[must_use]
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

/// What a caller may be asked: which of [`ToolExecutionContext::elicit`](crate::ToolExecutionContext::elicit),
/// [`sample`](crate::ToolExecutionContext::sample) and
/// [`list_roots`](crate::ToolExecutionContext::list_roots) can get an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Capabilities {
    /// The user can be asked questions.
    pub elicitation: bool,
    /// The caller's model can be asked.
    pub sampling: bool,
    /// The client can say which roots (directories, repositories) it works in.
    pub roots: bool,
}

impl Capabilities {
    /// Every kind of question.
    pub const ALL: Capabilities = Capabilities { elicitation: true, sampling: true, roots: true };
    /// None.
    pub const NONE: Capabilities = Capabilities { elicitation: false, sampling: false, roots: false };
}

/// The kind of a question a tool asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InputKind {
    /// A question for the user.
    Elicitation,
    /// A question for the caller's model.
    Sampling,
    /// The client's roots.
    Roots,
}

impl InputKind {
    /// `elicitation`, `sampling` or `roots`.
    pub const fn as_str(self) -> &'static str {
        match self {
            InputKind::Elicitation => "elicitation",
            InputKind::Sampling => "sampling",
            InputKind::Roots => "roots",
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A question for the user: a message and the JSON Schema of the answer (an object of
/// primitive properties: strings, numbers, integers, booleans, enums, as MCP elicitation
/// allows).
///
/// The `key` names the question among the ones a call asks; over MCP 2026-07-28 the answer comes
/// back under it. Give one when a client or a test expects a particular name; otherwise each
/// question is keyed by its kind and position in the call (`elicitation_1`, …).
///
/// ```
/// use toolhook::Elicitation;
/// use toolhook::serde_json::json;
///
/// let question = Elicitation::new(
///     "Which city?",
///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
/// )
/// .key("city");
/// assert_eq!(question.key.as_deref(), Some("city"));
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Elicitation {
    /// The question's name in the call (see above).
    pub key: Option<String>,
    /// What the user is asked.
    pub message: String,
    /// The JSON Schema of the answer.
    pub schema: Value,
}

impl Elicitation {
    /// A question with the schema of its answer.
    pub fn new(message: impl Into<String>, schema: Value) -> Self {
        Elicitation { key: None, message: message.into(), schema }
    }

    /// Names the question.
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

/// What the user did with a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitationAction {
    /// Answered; the content holds the answer.
    Accept,
    /// Said no.
    Decline,
    /// Dismissed the question.
    Cancel,
}

/// The user's answer to an [`Elicitation`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ElicitationReply {
    /// What the user did.
    pub action: ElicitationAction,
    /// The answer, when accepted: an object that fits the schema.
    pub content: Option<Map<String, Value>>,
}

impl ElicitationReply {
    /// A reply.
    pub fn new(action: ElicitationAction, content: Option<Map<String, Value>>) -> Self {
        ElicitationReply { action, content }
    }

    /// The answer when the user accepted.
    pub fn accepted(&self) -> Option<&Map<String, Value>> {
        match self.action {
            ElicitationAction::Accept => self.content.as_ref(),
            _ => None,
        }
    }
}

/// Who said a message in a sampling conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One text message of a [`SamplingRequest`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub text: String,
}

/// A question for the caller's model: a short conversation and how long the answer may be.
///
/// ```
/// use toolhook::SamplingRequest;
///
/// let ask = SamplingRequest::new(100).user("What is the capital of France?").key("capital");
/// assert_eq!(ask.messages.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The question's name in the call (see [`Elicitation`]).
    pub key: Option<String>,
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The longest answer, in tokens.
    pub max_tokens: u32,
    /// A system prompt, if any.
    pub system_prompt: Option<String>,
    /// The sampling temperature, if it matters.
    pub temperature: Option<f64>,
}

impl SamplingRequest {
    /// An empty conversation whose answer may be `max_tokens` long.
    pub fn new(max_tokens: u32) -> Self {
        SamplingRequest { key: None, messages: Vec::new(), max_tokens, system_prompt: None, temperature: None }
    }

    /// Adds a user message.
    #[must_use]
    pub fn user(mut self, text: impl Into<String>) -> Self {
        self.messages.push(SamplingMessage { role: Role::User, text: text.into() });
        self
    }

    /// Adds an assistant message.
    #[must_use]
    pub fn assistant(mut self, text: impl Into<String>) -> Self {
        self.messages.push(SamplingMessage { role: Role::Assistant, text: text.into() });
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the temperature.
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Names the question.
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

/// The caller's model's answer to a [`SamplingRequest`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct SamplingReply {
    /// The answer's text (empty when the model answered with something else, see `content`).
    pub text: String,
    /// The model that answered.
    pub model: String,
    /// Why the model stopped (`endTurn`, `maxTokens`, …), when said.
    pub stop_reason: Option<String>,
    /// The answer as the client sent it.
    pub content: Value,
}

impl SamplingReply {
    /// A text answer.
    pub fn text(text: impl Into<String>, model: impl Into<String>) -> Self {
        let text = text.into();
        let content = serde_json::json!({"type": "text", "text": text});
        SamplingReply { text, model: model.into(), stop_reason: None, content }
    }
}

/// A request for the client's roots (see [`Elicitation`] for the key).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct RootsRequest {
    /// The request's name in the call.
    pub key: Option<String>,
}

impl RootsRequest {
    /// A request.
    pub fn new() -> Self {
        Self::default()
    }

    /// Names the request.
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

/// One root the client works in: a directory, a repository.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Its URI (`file:///home/me/project`).
    pub uri: String,
    /// A name for people, if any.
    pub name: Option<String>,
}

impl Root {
    /// A root.
    pub fn new(uri: impl Into<String>, name: Option<String>) -> Self {
        Root { uri: uri.into(), name }
    }
}

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InteractionError {
    /// The caller cannot answer this kind of question (an MCP client that did not declare the
    /// capability, or a host that offers none).
    #[error("the caller does not support {0}: this host cannot answer the question")]
    NotSupported(InputKind),
    /// The call was cancelled while waiting.
    #[error("the call was cancelled")]
    Cancelled,
    /// The question could not be asked or its answer not read.
    #[error("{0}")]
    Failed(String),
}

/// The host's side of a call: what stands behind a tool's progress, logs and questions.
///
/// Every method has a default: progress and logs go nowhere, questions are not supported, the
/// call is never cancelled. A host overrides what it offers. The MCP server of
/// `toolhook-runtime` implements it for the MCP client of each call.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use toolhook::{BoxFuture, Interaction, Progress, ToolExecutionContext};
///
/// #[derive(Default)]
/// struct ProgressLog(Mutex<Vec<f64>>);
///
/// impl Interaction for ProgressLog {
///     fn report_progress(&self, progress: Progress) -> BoxFuture<'_, ()> {
///         self.0.lock().unwrap().push(progress.progress);
///         Box::pin(async {})
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let log = Arc::new(ProgressLog::default());
/// let ctx = ToolExecutionContext::default().with_interaction(log.clone());
/// ctx.report_progress(Progress::new(1.0).total(2.0)).await;
/// assert_eq!(*log.0.lock().unwrap(), [1.0]);
/// # });
/// ```
pub trait Interaction: Send + Sync + 'static {
    /// Passes a progress update on. Default: dropped.
    fn report_progress(&self, progress: Progress) -> BoxFuture<'_, ()> {
        let _ = progress;
        Box::pin(std::future::ready(()))
    }

    /// Passes a log message on. Default: dropped.
    fn log(&self, level: LogLevel, logger: Option<&str>, data: Value) -> BoxFuture<'_, ()> {
        let _ = (level, logger, data);
        Box::pin(std::future::ready(()))
    }

    /// What the caller can answer. Default: nothing.
    fn capabilities(&self) -> Capabilities {
        Capabilities::NONE
    }

    /// Asks the user. Default: not supported.
    fn elicit(&self, question: Elicitation) -> BoxFuture<'_, Result<ElicitationReply, InteractionError>> {
        let _ = question;
        Box::pin(std::future::ready(Err(InteractionError::NotSupported(InputKind::Elicitation))))
    }

    /// Asks the caller's model. Default: not supported.
    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<SamplingReply, InteractionError>> {
        let _ = request;
        Box::pin(std::future::ready(Err(InteractionError::NotSupported(InputKind::Sampling))))
    }

    /// Asks the client for its roots. Default: not supported.
    fn list_roots(&self, request: RootsRequest) -> BoxFuture<'_, Result<Vec<Root>, InteractionError>> {
        let _ = request;
        Box::pin(std::future::ready(Err(InteractionError::NotSupported(InputKind::Roots))))
    }

    /// Whether the caller cancelled the call. Default: never.
    fn is_cancelled(&self) -> bool {
        false
    }

    /// Resolves when the caller cancels the call. Default: never.
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::pending())
    }
}

/// The [`Interaction`] a context carries, if any. Compares equal to any other (it is not part of
/// what a context says about the chat) and is not serialised.
#[derive(Clone, Default)]
pub struct InteractionHandle(Option<Arc<dyn Interaction>>);

impl InteractionHandle {
    /// A handle on an interaction.
    pub fn new(interaction: Arc<dyn Interaction>) -> Self {
        InteractionHandle(Some(interaction))
    }

    /// The interaction, if the host set one.
    pub fn get(&self) -> Option<&dyn Interaction> {
        self.0.as_deref()
    }

    /// The interaction as a shared handle, for passing on (a provider that forwards a remote
    /// tool's progress and questions to the caller keeps it while the call runs).
    pub fn shared(&self) -> Option<Arc<dyn Interaction>> {
        self.0.clone()
    }
}

impl fmt::Debug for InteractionHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "InteractionHandle(set)" } else { "InteractionHandle(none)" })
    }
}

impl PartialEq for InteractionHandle {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
