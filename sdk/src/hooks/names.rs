//! Name constants of the built-in catalogue's hooks.

/// Fires when a chat message arrives, before the host processes it.
pub const CHAT_RECEIVE_BEFORE_PROCESS: &str = "chat.receive.before_process";
/// Fires after the host has pre-processed an incoming chat message.
pub const CHAT_RECEIVE_AFTER_PROCESS: &str = "chat.receive.after_process";
/// Fires when a message matches a command, before the command runs.
pub const CHAT_COMMAND_BEFORE_EXECUTE: &str = "chat.command.before_execute";
/// Fires after a command has run, with its result.
pub const CHAT_COMMAND_AFTER_EXECUTE: &str = "chat.command.after_execute";
/// Fires before an emoji is selected to send in a session.
pub const EMOJI_MAISAKA_BEFORE_SELECT: &str = "emoji.maisaka.before_select";
/// Fires after an emoji has been selected to send, before it is sent.
pub const EMOJI_MAISAKA_AFTER_SELECT: &str = "emoji.maisaka.after_select";
/// Fires while an emoji is registered, after its description has been generated.
pub const EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION: &str = "emoji.register.after_build_description";
/// Fires after jargon entries are extracted from a session, before they are stored.
pub const JARGON_EXTRACT_BEFORE_PERSIST: &str = "jargon.extract.before_persist";
/// Fires after the meaning of a jargon term has been inferred, before the result is finalised.
pub const JARGON_INFERENCE_BEFORE_FINALIZE: &str = "jargon.inference.before_finalize";
/// Fires before expressions are selected for a reply.
pub const EXPRESSION_SELECT_BEFORE_SELECT: &str = "expression.select.before_select";
/// Fires after expressions have been selected for a reply.
pub const EXPRESSION_SELECT_AFTER_SELECTION: &str = "expression.select.after_selection";
/// Fires after expression candidates are extracted from a session's messages.
pub const EXPRESSION_LEARN_AFTER_EXTRACT: &str = "expression.learn.after_extract";
/// Fires before a learned expression is stored.
pub const EXPRESSION_LEARN_BEFORE_UPSERT: &str = "expression.learn.before_upsert";
/// Fires after the send service has built an outgoing message, before it is sent.
pub const SEND_SERVICE_AFTER_BUILD_MESSAGE: &str = "send_service.after_build_message";
/// Fires just before the send service sends a message.
pub const SEND_SERVICE_BEFORE_SEND: &str = "send_service.before_send";
/// Fires after the send service has tried to send a message.
pub const SEND_SERVICE_AFTER_SEND: &str = "send_service.after_send";
/// Fires before the planner's request is sent to the model.
pub const MAISAKA_PLANNER_BEFORE_REQUEST: &str = "maisaka.planner.before_request";
/// Fires after the planner's model has responded.
pub const MAISAKA_PLANNER_AFTER_RESPONSE: &str = "maisaka.planner.after_response";
/// Fires before the replyer prepares its request for a reply.
pub const MAISAKA_REPLYER_BEFORE_REQUEST: &str = "maisaka.replyer.before_request";
/// Fires before each replyer attempt sends its request to the chosen model.
pub const MAISAKA_REPLYER_BEFORE_MODEL_REQUEST: &str = "maisaka.replyer.before_model_request";
/// Fires after the replyer's model has responded, before the reply is accepted.
pub const MAISAKA_REPLYER_AFTER_RESPONSE: &str = "maisaka.replyer.after_response";
/// Fires before the text of a final reply is post-processed.
pub const MAISAKA_REPLY_BEFORE_POST_PROCESS: &str = "maisaka.reply.before_post_process";

/// Every built-in catalogue hook name, in catalogue order.
pub const ALL: [&str; 22] = [
    CHAT_RECEIVE_BEFORE_PROCESS,
    CHAT_RECEIVE_AFTER_PROCESS,
    CHAT_COMMAND_BEFORE_EXECUTE,
    CHAT_COMMAND_AFTER_EXECUTE,
    EMOJI_MAISAKA_BEFORE_SELECT,
    EMOJI_MAISAKA_AFTER_SELECT,
    EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION,
    JARGON_EXTRACT_BEFORE_PERSIST,
    JARGON_INFERENCE_BEFORE_FINALIZE,
    EXPRESSION_SELECT_BEFORE_SELECT,
    EXPRESSION_SELECT_AFTER_SELECTION,
    EXPRESSION_LEARN_AFTER_EXTRACT,
    EXPRESSION_LEARN_BEFORE_UPSERT,
    SEND_SERVICE_AFTER_BUILD_MESSAGE,
    SEND_SERVICE_BEFORE_SEND,
    SEND_SERVICE_AFTER_SEND,
    MAISAKA_PLANNER_BEFORE_REQUEST,
    MAISAKA_PLANNER_AFTER_RESPONSE,
    MAISAKA_REPLYER_BEFORE_REQUEST,
    MAISAKA_REPLYER_BEFORE_MODEL_REQUEST,
    MAISAKA_REPLYER_AFTER_RESPONSE,
    MAISAKA_REPLY_BEFORE_POST_PROCESS,
];
