//! Typed payloads of the built-in catalogue: one struct per catalogue hook.
//!
//! Each is usable as the payload parameter of a `#[hook_handler]`: the kwargs are deserialised into it
//! (unknown keys are ignored), and a typed handler's `modify(p)` overlays `p` on the kwargs, so keys the
//! struct does not model are kept. Optional properties are `Option`s, left out when `None`, so an overlay
//! never adds a key the host did not send. Field docs are the properties' English descriptions.

/// Payload of [`CHAT_RECEIVE_BEFORE_PROCESS`](super::CHAT_RECEIVE_BEFORE_PROCESS) (`chat.receive.before_process`):
/// fires when a chat message arrives, before the host processes it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ChatReceiveBeforeProcess {
    /// The incoming chat message, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
}

impl ChatReceiveBeforeProcess {
    /// The hook name, [`CHAT_RECEIVE_BEFORE_PROCESS`](super::CHAT_RECEIVE_BEFORE_PROCESS).
    pub const HOOK: &'static str = super::names::CHAT_RECEIVE_BEFORE_PROCESS;
}

/// Payload of [`CHAT_RECEIVE_AFTER_PROCESS`](super::CHAT_RECEIVE_AFTER_PROCESS) (`chat.receive.after_process`): fires
/// after the host has pre-processed an incoming chat message.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ChatReceiveAfterProcess {
    /// The incoming chat message after pre-processing, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
}

impl ChatReceiveAfterProcess {
    /// The hook name, [`CHAT_RECEIVE_AFTER_PROCESS`](super::CHAT_RECEIVE_AFTER_PROCESS).
    pub const HOOK: &'static str = super::names::CHAT_RECEIVE_AFTER_PROCESS;
}

/// Payload of [`CHAT_COMMAND_BEFORE_EXECUTE`](super::CHAT_COMMAND_BEFORE_EXECUTE) (`chat.command.before_execute`):
/// fires when a message matches a command, before the command runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ChatCommandBeforeExecute {
    /// The command message, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
    /// Name of the matched command.
    pub command_name: String,
    /// ID of the plugin that owns the command.
    pub plugin_id: String,
    /// Named capture groups of the command's pattern.
    pub matched_groups: serde_json::Map<String, serde_json::Value>,
}

impl ChatCommandBeforeExecute {
    /// The hook name, [`CHAT_COMMAND_BEFORE_EXECUTE`](super::CHAT_COMMAND_BEFORE_EXECUTE).
    pub const HOOK: &'static str = super::names::CHAT_COMMAND_BEFORE_EXECUTE;
}

/// Payload of [`CHAT_COMMAND_AFTER_EXECUTE`](super::CHAT_COMMAND_AFTER_EXECUTE) (`chat.command.after_execute`): fires
/// after a command has run, with its result.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ChatCommandAfterExecute {
    /// The command message, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
    /// Name of the command.
    pub command_name: String,
    /// ID of the plugin that owns the command.
    pub plugin_id: String,
    /// Named capture groups of the command's pattern.
    pub matched_groups: serde_json::Map<String, serde_json::Value>,
    /// Whether the command succeeded.
    pub success: bool,
    /// Text the command returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Interception level of the command.
    pub intercept_message_level: i64,
    /// Whether message processing continues after the command.
    pub continue_process: bool,
}

impl ChatCommandAfterExecute {
    /// The hook name, [`CHAT_COMMAND_AFTER_EXECUTE`](super::CHAT_COMMAND_AFTER_EXECUTE).
    pub const HOOK: &'static str = super::names::CHAT_COMMAND_AFTER_EXECUTE;
}

/// Payload of [`EMOJI_MAISAKA_BEFORE_SELECT`](super::EMOJI_MAISAKA_BEFORE_SELECT) (`emoji.maisaka.before_select`):
/// fires before an emoji is selected to send in a session.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EmojiMaisakaBeforeSelect {
    /// ID of the target session.
    pub stream_id: String,
    /// Emotion tag requested.
    pub requested_emotion: String,
    /// The model's reasoning for sending an emoji.
    pub reasoning: String,
    /// Texts of the recent chat context.
    pub context_texts: Vec<String>,
    /// Number of candidate emojis to sample.
    pub sample_size: i64,
    /// Failure message to report when a hook aborts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_message: Option<String>,
}

impl EmojiMaisakaBeforeSelect {
    /// The hook name, [`EMOJI_MAISAKA_BEFORE_SELECT`](super::EMOJI_MAISAKA_BEFORE_SELECT).
    pub const HOOK: &'static str = super::names::EMOJI_MAISAKA_BEFORE_SELECT;
}

/// Payload of [`EMOJI_MAISAKA_AFTER_SELECT`](super::EMOJI_MAISAKA_AFTER_SELECT) (`emoji.maisaka.after_select`): fires
/// after an emoji has been selected to send, before it is sent.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EmojiMaisakaAfterSelect {
    /// ID of the target session.
    pub stream_id: String,
    /// Emotion tag requested.
    pub requested_emotion: String,
    /// The model's reasoning for sending an emoji.
    pub reasoning: String,
    /// Texts of the recent chat context.
    pub context_texts: Vec<String>,
    /// Number of candidate emojis to sample.
    pub sample_size: i64,
    /// The selected emoji, serialised (mainly file_hash, description, emotions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_emoji: Option<serde_json::Map<String, serde_json::Value>>,
    /// Hash of the selected emoji.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_emoji_hash: Option<String>,
    /// Emotion tag finally matched.
    pub matched_emotion: String,
    /// Failure message to report when a hook aborts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_message: Option<String>,
}

impl EmojiMaisakaAfterSelect {
    /// The hook name, [`EMOJI_MAISAKA_AFTER_SELECT`](super::EMOJI_MAISAKA_AFTER_SELECT).
    pub const HOOK: &'static str = super::names::EMOJI_MAISAKA_AFTER_SELECT;
}

/// Payload of [`EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION`](super::EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION)
/// (`emoji.register.after_build_description`): fires while an emoji is registered, after its description has been
/// generated.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EmojiRegisterAfterBuildDescription {
    /// The emoji, serialised (mainly file_hash, description, emotions).
    pub emoji: serde_json::Map<String, serde_json::Value>,
    /// The generated emoji description.
    pub description: String,
    /// Image format of the emoji.
    pub image_format: String,
}

impl EmojiRegisterAfterBuildDescription {
    /// The hook name, [`EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION`](super::EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION).
    pub const HOOK: &'static str = super::names::EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION;
}

/// Payload of [`JARGON_EXTRACT_BEFORE_PERSIST`](super::JARGON_EXTRACT_BEFORE_PERSIST)
/// (`jargon.extract.before_persist`): fires after jargon entries are extracted from a session, before they are stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct JargonExtractBeforePersist {
    /// ID of the current session.
    pub session_id: String,
    /// Display name of the current session.
    pub session_name: String,
    /// Jargon entries about to be stored.
    pub entries: Vec<serde_json::Map<String, serde_json::Value>>,
}

impl JargonExtractBeforePersist {
    /// The hook name, [`JARGON_EXTRACT_BEFORE_PERSIST`](super::JARGON_EXTRACT_BEFORE_PERSIST).
    pub const HOOK: &'static str = super::names::JARGON_EXTRACT_BEFORE_PERSIST;
}

/// Payload of [`JARGON_INFERENCE_BEFORE_FINALIZE`](super::JARGON_INFERENCE_BEFORE_FINALIZE)
/// (`jargon.inference.before_finalize`): fires after the meaning of a jargon term has been inferred, before the result
/// is finalised.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct JargonInferenceBeforeFinalize {
    /// ID of the current session.
    pub session_id: String,
    /// Display name of the current session.
    pub session_name: String,
    /// The jargon term.
    pub content: String,
    /// How many times the term has been seen.
    pub count: i64,
    /// Raw context snippets used for the inference.
    pub raw_content_list: Vec<String>,
    /// Output of the comparison stage.
    pub comparison_result: serde_json::Map<String, serde_json::Value>,
    /// Whether the inference judged the term to be jargon.
    pub is_jargon: bool,
    /// Inferred meaning of the term.
    pub meaning: String,
    /// Whether the whole inference has finished.
    pub is_complete: bool,
    /// The last_inference_count to store after this inference.
    pub last_inference_count: i64,
}

impl JargonInferenceBeforeFinalize {
    /// The hook name, [`JARGON_INFERENCE_BEFORE_FINALIZE`](super::JARGON_INFERENCE_BEFORE_FINALIZE).
    pub const HOOK: &'static str = super::names::JARGON_INFERENCE_BEFORE_FINALIZE;
}

/// Payload of [`EXPRESSION_SELECT_BEFORE_SELECT`](super::EXPRESSION_SELECT_BEFORE_SELECT)
/// (`expression.select.before_select`): fires before expressions are selected for a reply.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ExpressionSelectBeforeSelect {
    /// ID of the current chat stream.
    pub chat_id: String,
    /// Chat context used to select expressions.
    pub chat_info: String,
    /// Maximum number of expressions to select.
    pub max_num: i64,
    /// Text of the message being replied to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_message: Option<String>,
    /// Reply reason given by the planner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_reason: Option<String>,
    /// Thinking level of the expression selection.
    pub think_level: i64,
}

impl ExpressionSelectBeforeSelect {
    /// The hook name, [`EXPRESSION_SELECT_BEFORE_SELECT`](super::EXPRESSION_SELECT_BEFORE_SELECT).
    pub const HOOK: &'static str = super::names::EXPRESSION_SELECT_BEFORE_SELECT;
}

/// Payload of [`EXPRESSION_SELECT_AFTER_SELECTION`](super::EXPRESSION_SELECT_AFTER_SELECTION)
/// (`expression.select.after_selection`): fires after expressions have been selected for a reply.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ExpressionSelectAfterSelection {
    /// ID of the current chat stream.
    pub chat_id: String,
    /// Chat context used to select expressions.
    pub chat_info: String,
    /// Maximum number of expressions to select.
    pub max_num: i64,
    /// Text of the message being replied to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_message: Option<String>,
    /// Reply reason given by the planner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_reason: Option<String>,
    /// Thinking level of the expression selection.
    pub think_level: i64,
    /// Expressions selected so far.
    pub selected_expressions: Vec<serde_json::Map<String, serde_json::Value>>,
    /// IDs of the expressions selected so far.
    pub selected_expression_ids: Vec<i64>,
}

impl ExpressionSelectAfterSelection {
    /// The hook name, [`EXPRESSION_SELECT_AFTER_SELECTION`](super::EXPRESSION_SELECT_AFTER_SELECTION).
    pub const HOOK: &'static str = super::names::EXPRESSION_SELECT_AFTER_SELECTION;
}

/// Payload of [`EXPRESSION_LEARN_AFTER_EXTRACT`](super::EXPRESSION_LEARN_AFTER_EXTRACT)
/// (`expression.learn.after_extract`): fires after expression candidates are extracted from a session's messages.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ExpressionLearnAfterExtract {
    /// ID of the current session.
    pub session_id: String,
    /// Number of messages learned from in this round.
    pub message_count: i64,
    /// Parsed expression candidates.
    pub expressions: Vec<serde_json::Map<String, serde_json::Value>>,
    /// Compatibility field, always empty: jargon is learned by a separate learner.
    pub jargon_entries: Vec<serde_json::Map<String, serde_json::Value>>,
}

impl ExpressionLearnAfterExtract {
    /// The hook name, [`EXPRESSION_LEARN_AFTER_EXTRACT`](super::EXPRESSION_LEARN_AFTER_EXTRACT).
    pub const HOOK: &'static str = super::names::EXPRESSION_LEARN_AFTER_EXTRACT;
}

/// Payload of [`EXPRESSION_LEARN_BEFORE_UPSERT`](super::EXPRESSION_LEARN_BEFORE_UPSERT)
/// (`expression.learn.before_upsert`): fires before a learned expression is stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ExpressionLearnBeforeUpsert {
    /// ID of the current session.
    pub session_id: String,
    /// Situation text about to be stored.
    pub situation: String,
    /// Style text about to be stored.
    pub style: String,
}

impl ExpressionLearnBeforeUpsert {
    /// The hook name, [`EXPRESSION_LEARN_BEFORE_UPSERT`](super::EXPRESSION_LEARN_BEFORE_UPSERT).
    pub const HOOK: &'static str = super::names::EXPRESSION_LEARN_BEFORE_UPSERT;
}

/// Payload of [`SEND_SERVICE_AFTER_BUILD_MESSAGE`](super::SEND_SERVICE_AFTER_BUILD_MESSAGE)
/// (`send_service.after_build_message`): fires after the send service has built an outgoing message, before it is sent.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SendServiceAfterBuildMessage {
    /// The message about to be sent, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
    /// ID of the target session.
    pub stream_id: String,
    /// Optional pre-processed plain text.
    pub processed_plain_text: String,
    /// Whether to simulate typing.
    pub typing: bool,
    /// Whether to send it as a quoted reply.
    pub set_reply: bool,
    /// Whether to store the message after a successful send.
    pub storage_message: bool,
    /// Whether to log the send.
    pub show_log: bool,
}

impl SendServiceAfterBuildMessage {
    /// The hook name, [`SEND_SERVICE_AFTER_BUILD_MESSAGE`](super::SEND_SERVICE_AFTER_BUILD_MESSAGE).
    pub const HOOK: &'static str = super::names::SEND_SERVICE_AFTER_BUILD_MESSAGE;
}

/// Payload of [`SEND_SERVICE_BEFORE_SEND`](super::SEND_SERVICE_BEFORE_SEND) (`send_service.before_send`): fires just
/// before the send service sends a message.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SendServiceBeforeSend {
    /// The message about to be sent, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
    /// Whether to simulate typing.
    pub typing: bool,
    /// Whether to send it as a quoted reply.
    pub set_reply: bool,
    /// ID of the quoted message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_message_id: Option<String>,
    /// Whether to store the message after a successful send.
    pub storage_message: bool,
    /// Whether to log the send.
    pub show_log: bool,
}

impl SendServiceBeforeSend {
    /// The hook name, [`SEND_SERVICE_BEFORE_SEND`](super::SEND_SERVICE_BEFORE_SEND).
    pub const HOOK: &'static str = super::names::SEND_SERVICE_BEFORE_SEND;
}

/// Payload of [`SEND_SERVICE_AFTER_SEND`](super::SEND_SERVICE_AFTER_SEND) (`send_service.after_send`): fires after the
/// send service has tried to send a message.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SendServiceAfterSend {
    /// The message this send handled, serialised.
    pub message: serde_json::Map<String, serde_json::Value>,
    /// Whether the send succeeded.
    pub sent: bool,
    /// Whether to simulate typing.
    pub typing: bool,
    /// Whether to send it as a quoted reply.
    pub set_reply: bool,
    /// ID of the quoted message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_message_id: Option<String>,
    /// Whether to store the message after a successful send.
    pub storage_message: bool,
    /// Whether to log the send.
    pub show_log: bool,
}

impl SendServiceAfterSend {
    /// The hook name, [`SEND_SERVICE_AFTER_SEND`](super::SEND_SERVICE_AFTER_SEND).
    pub const HOOK: &'static str = super::names::SEND_SERVICE_AFTER_SEND;
}

/// Payload of [`MAISAKA_PLANNER_BEFORE_REQUEST`](super::MAISAKA_PLANNER_BEFORE_REQUEST)
/// (`maisaka.planner.before_request`): fires before the planner's request is sent to the model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaPlannerBeforeRequest {
    /// Context items about to be sent to the model, without replay payloads.
    pub items: Vec<serde_json::Value>,
    /// Version of the context-item payload format.
    pub item_schema_version: i64,
    /// Definitions of the candidate tools.
    pub tool_definitions: Vec<serde_json::Value>,
    /// Number of history messages selected as context.
    pub selected_history_count: i64,
    /// Number of messages actually sent to the model.
    pub built_message_count: i64,
    /// Why this context was selected.
    pub selection_reason: String,
    /// ID of the current session.
    pub session_id: String,
}

impl MaisakaPlannerBeforeRequest {
    /// The hook name, [`MAISAKA_PLANNER_BEFORE_REQUEST`](super::MAISAKA_PLANNER_BEFORE_REQUEST).
    pub const HOOK: &'static str = super::names::MAISAKA_PLANNER_BEFORE_REQUEST;
}

/// Payload of [`MAISAKA_PLANNER_AFTER_RESPONSE`](super::MAISAKA_PLANNER_AFTER_RESPONSE)
/// (`maisaka.planner.after_response`): fires after the planner's model has responded.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaPlannerAfterResponse {
    /// Context output items returned by the model, without replay payloads.
    pub output_items: Vec<serde_json::Value>,
    /// Version of the context-item payload format.
    pub item_schema_version: i64,
    /// Number of history messages selected as context.
    pub selected_history_count: i64,
    /// Number of messages actually sent to the model.
    pub built_message_count: i64,
    /// Why this context was selected.
    pub selection_reason: String,
    /// ID of the current session.
    pub session_id: String,
    /// Input token count.
    pub prompt_tokens: i64,
    /// Output token count.
    pub completion_tokens: i64,
    /// Total token count.
    pub total_tokens: i64,
}

impl MaisakaPlannerAfterResponse {
    /// The hook name, [`MAISAKA_PLANNER_AFTER_RESPONSE`](super::MAISAKA_PLANNER_AFTER_RESPONSE).
    pub const HOOK: &'static str = super::names::MAISAKA_PLANNER_AFTER_RESPONSE;
}

/// Payload of [`MAISAKA_REPLYER_BEFORE_REQUEST`](super::MAISAKA_REPLYER_BEFORE_REQUEST)
/// (`maisaka.replyer.before_request`): fires before the replyer prepares its request for a reply.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaReplyerBeforeRequest {
    /// ID of the current session.
    pub session_id: String,
    /// Type of this replyer request.
    pub request_type: String,
    /// Model task name for this replyer request; hooks may change it.
    pub task_name: String,
    /// Specific model for this replyer request; empty means the task's policy chooses.
    pub model_name: String,
    /// Extra reply instructions a hook may add to this replyer prompt.
    pub extra_prompt: String,
    /// Number of this generation attempt, from 1.
    pub attempt: i64,
    /// How many times the reply has been regenerated so far.
    pub retry_count: i64,
    /// Maximum number of regenerations in this round.
    pub max_retries: i64,
    /// ID of the message replied to; empty when there is none.
    pub reply_message_id: String,
    /// Reply reason for this replyer run.
    pub reply_reason: String,
    /// IDs of the expressions selected for this replyer run.
    pub selected_expression_ids: Vec<serde_json::Value>,
    /// Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.
    pub reply_tool_args: serde_json::Map<String, serde_json::Value>,
}

impl MaisakaReplyerBeforeRequest {
    /// The hook name, [`MAISAKA_REPLYER_BEFORE_REQUEST`](super::MAISAKA_REPLYER_BEFORE_REQUEST).
    pub const HOOK: &'static str = super::names::MAISAKA_REPLYER_BEFORE_REQUEST;
}

/// Payload of [`MAISAKA_REPLYER_BEFORE_MODEL_REQUEST`](super::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST)
/// (`maisaka.replyer.before_model_request`): fires before each replyer attempt sends its request to the chosen model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaReplyerBeforeModelRequest {
    /// Context items about to be sent to the model, without replay payloads.
    pub items: Vec<serde_json::Value>,
    /// Version of the context-item payload format.
    pub item_schema_version: i64,
    /// ID of the current session.
    pub session_id: String,
    /// Type of this replyer request.
    pub request_type: String,
    /// Model task name this replyer request actually used.
    pub task_name: String,
    /// Model requested by a before_request hook; empty means the task's policy chooses.
    pub requested_model_name: String,
    /// Model actually chosen for this attempt; empty before a model was tried.
    pub selected_model_name: String,
    /// Whether the chosen model has visual input enabled.
    pub selected_model_visual: bool,
    /// Number of this generation attempt, from 1.
    pub attempt: i64,
    /// How many times the reply has been regenerated so far.
    pub retry_count: i64,
    /// Maximum number of regenerations in this round.
    pub max_retries: i64,
    /// ID of the message replied to; empty when there is none.
    pub reply_message_id: String,
    /// Reply reason for this replyer run.
    pub reply_reason: String,
    /// IDs of the expressions selected for this replyer run.
    pub selected_expression_ids: Vec<serde_json::Value>,
    /// Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.
    pub reply_tool_args: serde_json::Map<String, serde_json::Value>,
}

impl MaisakaReplyerBeforeModelRequest {
    /// The hook name, [`MAISAKA_REPLYER_BEFORE_MODEL_REQUEST`](super::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST).
    pub const HOOK: &'static str = super::names::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST;
}

/// Payload of [`MAISAKA_REPLYER_AFTER_RESPONSE`](super::MAISAKA_REPLYER_AFTER_RESPONSE)
/// (`maisaka.replyer.after_response`): fires after the replyer's model has responded, before the reply is accepted.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaReplyerAfterResponse {
    /// Read-only compatibility view of the replyer's visible text; rewriting it replaces only the text item.
    pub response: String,
    /// Context output items returned by the replyer's model, without replay payloads.
    pub output_items: Vec<serde_json::Value>,
    /// Version of the context-item payload format.
    pub item_schema_version: i64,
    /// ID of the current session.
    pub session_id: String,
    /// Type of this replyer request.
    pub request_type: String,
    /// Model task name this replyer request actually used.
    pub task_name: String,
    /// Model requested by a hook; empty means the task's policy chooses.
    pub requested_model_name: String,
    /// Number of this generation attempt, from 1.
    pub attempt: i64,
    /// How many times the reply has been regenerated so far.
    pub retry_count: i64,
    /// Maximum number of regenerations in this round.
    pub max_retries: i64,
    /// ID of the message replied to; empty when there is none.
    pub reply_message_id: String,
    /// IDs of the expressions selected for this replyer run.
    pub selected_expression_ids: Vec<serde_json::Value>,
    /// Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.
    pub reply_tool_args: serde_json::Map<String, serde_json::Value>,
    /// Input token count.
    pub prompt_tokens: i64,
    /// Output token count.
    pub completion_tokens: i64,
    /// Total token count.
    pub total_tokens: i64,
    /// A hook handler may set this to true to make the replyer regenerate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// Optional reason for regenerating; when empty the reply is regenerated without adding to the next replyer prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_reason: Option<String>,
    /// Regex or rule name that triggered the regeneration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_regex: Option<String>,
    /// Regex text that triggered the regeneration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_regex_pattern: Option<String>,
    /// Description of the rule that triggered the regeneration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_regex_description: Option<String>,
}

impl MaisakaReplyerAfterResponse {
    /// The hook name, [`MAISAKA_REPLYER_AFTER_RESPONSE`](super::MAISAKA_REPLYER_AFTER_RESPONSE).
    pub const HOOK: &'static str = super::names::MAISAKA_REPLYER_AFTER_RESPONSE;
}

/// Payload of [`MAISAKA_REPLY_BEFORE_POST_PROCESS`](super::MAISAKA_REPLY_BEFORE_POST_PROCESS)
/// (`maisaka.reply.before_post_process`): fires before the text of a final reply is post-processed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct MaisakaReplyBeforePostProcess {
    /// Final reply text about to be post-processed.
    pub response: String,
    /// ID of the current session.
    pub session_id: String,
    /// ID of the message replied to.
    pub reply_message_id: String,
    /// Arguments of this reply tool call passed through, without internal ones.
    pub reply_tool_args: serde_json::Map<String, serde_json::Value>,
    /// Whether to skip all text post-processing of this reply.
    pub skip_post_process: bool,
    /// Whether this reply may be split into several messages per the global settings.
    pub enable_splitter: bool,
    /// Whether Chinese typos may be injected into this reply per the global settings.
    pub enable_chinese_typo: bool,
}

impl MaisakaReplyBeforePostProcess {
    /// The hook name, [`MAISAKA_REPLY_BEFORE_POST_PROCESS`](super::MAISAKA_REPLY_BEFORE_POST_PROCESS).
    pub const HOOK: &'static str = super::names::MAISAKA_REPLY_BEFORE_POST_PROCESS;
}
