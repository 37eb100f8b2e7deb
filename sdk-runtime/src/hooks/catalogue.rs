//! The built-in hook catalogue: the 22 hooks bot hosts fire.
use serde_json::{Map, Value};
use toolhook::Locale;

/// One payload property of a catalogue hook.
#[derive(Debug)]
pub(crate) struct CatalogueField {
    pub(crate) name: &'static str,
    /// JSON type: "string" | "integer" | "boolean" | "object" | "array".
    pub(crate) json_type: &'static str,
    /// Item type of an array (`array<string>` ⇒ Some("string")), None otherwise or for a plain `array`.
    pub(crate) items: Option<&'static str>,
    pub(crate) required: bool,
    pub(crate) en: &'static str,
    pub(crate) zh: &'static str,
}

/// One catalogue hook.
#[derive(Debug)]
pub(crate) struct CatalogueHook {
    pub(crate) name: &'static str,
    /// One English sentence on where the hook fires (same text as the doc comment in toolhook::hooks).
    pub(crate) description: &'static str,
    pub(crate) default_timeout_ms: u64,
    pub(crate) allow_abort: bool,
    pub(crate) allow_kwargs_mutation: bool,
    pub(crate) fields: &'static [CatalogueField],
}

/// The 22 catalogue hooks, in the order of the catalogue table.
pub(crate) const CATALOGUE: [CatalogueHook; 22] = [
    CatalogueHook {
        name: toolhook::hooks::CHAT_RECEIVE_BEFORE_PROCESS,
        description: "Fires when a chat message arrives, before the host processes it.",
        default_timeout_ms: 0,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[CatalogueField {
            name: "message",
            json_type: "object",
            items: None,
            required: true,
            en: "The incoming chat message, serialised.",
            zh: "当前入站消息的序列化 SessionMessage。",
        }],
    },
    CatalogueHook {
        name: toolhook::hooks::CHAT_RECEIVE_AFTER_PROCESS,
        description: "Fires after the host has pre-processed an incoming chat message.",
        default_timeout_ms: 0,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[CatalogueField {
            name: "message",
            json_type: "object",
            items: None,
            required: true,
            en: "The incoming chat message after pre-processing, serialised.",
            zh: "已完成 `process()` 的序列化 SessionMessage。",
        }],
    },
    CatalogueHook {
        name: toolhook::hooks::CHAT_COMMAND_BEFORE_EXECUTE,
        description: "Fires when a message matches a command, before the command runs.",
        default_timeout_ms: 0,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "message",
                json_type: "object",
                items: None,
                required: true,
                en: "The command message, serialised.",
                zh: "当前命令消息的序列化 SessionMessage。",
            },
            CatalogueField {
                name: "command_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Name of the matched command.",
                zh: "命中的命令名称。",
            },
            CatalogueField {
                name: "plugin_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the plugin that owns the command.",
                zh: "命令所属插件 ID。",
            },
            CatalogueField {
                name: "matched_groups",
                json_type: "object",
                items: None,
                required: true,
                en: "Named capture groups of the command's pattern.",
                zh: "命令正则命名捕获结果。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::CHAT_COMMAND_AFTER_EXECUTE,
        description: "Fires after a command has run, with its result.",
        default_timeout_ms: 0,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "message",
                json_type: "object",
                items: None,
                required: true,
                en: "The command message, serialised.",
                zh: "当前命令消息的序列化 SessionMessage。",
            },
            CatalogueField {
                name: "command_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Name of the command.",
                zh: "命令名称。",
            },
            CatalogueField {
                name: "plugin_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the plugin that owns the command.",
                zh: "命令所属插件 ID。",
            },
            CatalogueField {
                name: "matched_groups",
                json_type: "object",
                items: None,
                required: true,
                en: "Named capture groups of the command's pattern.",
                zh: "命令正则命名捕获结果。",
            },
            CatalogueField {
                name: "success",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether the command succeeded.",
                zh: "命令执行是否成功。",
            },
            CatalogueField {
                name: "response",
                json_type: "string",
                items: None,
                required: false,
                en: "Text the command returned.",
                zh: "命令返回文本。",
            },
            CatalogueField {
                name: "intercept_message_level",
                json_type: "integer",
                items: None,
                required: true,
                en: "Interception level of the command.",
                zh: "命令拦截等级。",
            },
            CatalogueField {
                name: "continue_process",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether message processing continues after the command.",
                zh: "命令执行后是否继续后续消息处理。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EMOJI_MAISAKA_BEFORE_SELECT,
        description: "Fires before an emoji is selected to send in a session.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "stream_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the target session.",
                zh: "目标会话 ID。",
            },
            CatalogueField {
                name: "requested_emotion",
                json_type: "string",
                items: None,
                required: true,
                en: "Emotion tag requested.",
                zh: "请求的目标情绪标签。",
            },
            CatalogueField {
                name: "reasoning",
                json_type: "string",
                items: None,
                required: true,
                en: "The model's reasoning for sending an emoji.",
                zh: "本次发送表情的推理理由。",
            },
            CatalogueField {
                name: "context_texts",
                json_type: "array",
                items: Some("string"),
                required: true,
                en: "Texts of the recent chat context.",
                zh: "最近聊天上下文文本列表。",
            },
            CatalogueField {
                name: "sample_size",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of candidate emojis to sample.",
                zh: "候选表情采样数量。",
            },
            CatalogueField {
                name: "abort_message",
                json_type: "string",
                items: None,
                required: false,
                en: "Failure message to report when a hook aborts.",
                zh: "当 Hook 主动中止时可附带的失败提示。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EMOJI_MAISAKA_AFTER_SELECT,
        description: "Fires after an emoji has been selected to send, before it is sent.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "stream_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the target session.",
                zh: "目标会话 ID。",
            },
            CatalogueField {
                name: "requested_emotion",
                json_type: "string",
                items: None,
                required: true,
                en: "Emotion tag requested.",
                zh: "请求的目标情绪标签。",
            },
            CatalogueField {
                name: "reasoning",
                json_type: "string",
                items: None,
                required: true,
                en: "The model's reasoning for sending an emoji.",
                zh: "本次发送表情的推理理由。",
            },
            CatalogueField {
                name: "context_texts",
                json_type: "array",
                items: Some("string"),
                required: true,
                en: "Texts of the recent chat context.",
                zh: "最近聊天上下文文本列表。",
            },
            CatalogueField {
                name: "sample_size",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of candidate emojis to sample.",
                zh: "候选表情采样数量。",
            },
            CatalogueField {
                name: "selected_emoji",
                json_type: "object",
                items: None,
                required: false,
                en: "The selected emoji, serialised (mainly file_hash, description, emotions).",
                zh: "当前表情包的序列化信息，主要包含 file_hash、description、emotions 等字段。",
            },
            CatalogueField {
                name: "selected_emoji_hash",
                json_type: "string",
                items: None,
                required: false,
                en: "Hash of the selected emoji.",
                zh: "选中的表情哈希。",
            },
            CatalogueField {
                name: "matched_emotion",
                json_type: "string",
                items: None,
                required: true,
                en: "Emotion tag finally matched.",
                zh: "最终命中的情绪标签。",
            },
            CatalogueField {
                name: "abort_message",
                json_type: "string",
                items: None,
                required: false,
                en: "Failure message to report when a hook aborts.",
                zh: "当 Hook 主动中止时可附带的失败提示。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EMOJI_REGISTER_AFTER_BUILD_DESCRIPTION,
        description: "Fires while an emoji is registered, after its description has been generated.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "emoji",
                json_type: "object",
                items: None,
                required: true,
                en: "The emoji, serialised (mainly file_hash, description, emotions).",
                zh: "当前表情包的序列化信息，主要包含 file_hash、description、emotions 等字段。",
            },
            CatalogueField {
                name: "description",
                json_type: "string",
                items: None,
                required: true,
                en: "The generated emoji description.",
                zh: "当前生成出的表情包描述。",
            },
            CatalogueField {
                name: "image_format",
                json_type: "string",
                items: None,
                required: true,
                en: "Image format of the emoji.",
                zh: "表情图片格式。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::JARGON_EXTRACT_BEFORE_PERSIST,
        description: "Fires after jargon entries are extracted from a session, before they are stored.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "session_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Display name of the current session.",
                zh: "当前会话展示名称。",
            },
            CatalogueField {
                name: "entries",
                json_type: "array",
                items: Some("object"),
                required: true,
                en: "Jargon entries about to be stored.",
                zh: "即将持久化的黑话条目列表。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::JARGON_INFERENCE_BEFORE_FINALIZE,
        description: "Fires after the meaning of a jargon term has been inferred, before the result is finalised.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "session_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Display name of the current session.",
                zh: "当前会话展示名称。",
            },
            CatalogueField {
                name: "content",
                json_type: "string",
                items: None,
                required: true,
                en: "The jargon term.",
                zh: "当前黑话词条。",
            },
            CatalogueField {
                name: "count",
                json_type: "integer",
                items: None,
                required: true,
                en: "How many times the term has been seen.",
                zh: "当前词条累计命中次数。",
            },
            CatalogueField {
                name: "raw_content_list",
                json_type: "array",
                items: Some("string"),
                required: true,
                en: "Raw context snippets used for the inference.",
                zh: "用于推断的原始上下文片段列表。",
            },
            CatalogueField {
                name: "comparison_result",
                json_type: "object",
                items: None,
                required: true,
                en: "Output of the comparison stage.",
                zh: "比较阶段输出结果。",
            },
            CatalogueField {
                name: "is_jargon",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether the inference judged the term to be jargon.",
                zh: "当前推断是否判定为黑话。",
            },
            CatalogueField {
                name: "meaning",
                json_type: "string",
                items: None,
                required: true,
                en: "Inferred meaning of the term.",
                zh: "当前推断出的黑话含义。",
            },
            CatalogueField {
                name: "is_complete",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether the whole inference has finished.",
                zh: "当前是否已完成全部推断流程。",
            },
            CatalogueField {
                name: "last_inference_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "The last_inference_count to store after this inference.",
                zh: "本次推断完成后应写回的 last_inference_count。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EXPRESSION_SELECT_BEFORE_SELECT,
        description: "Fires before expressions are selected for a reply.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "chat_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current chat stream.",
                zh: "当前聊天流 ID。",
            },
            CatalogueField {
                name: "chat_info",
                json_type: "string",
                items: None,
                required: true,
                en: "Chat context used to select expressions.",
                zh: "用于选择表达方式的聊天上下文。",
            },
            CatalogueField {
                name: "max_num",
                json_type: "integer",
                items: None,
                required: true,
                en: "Maximum number of expressions to select.",
                zh: "最大可选表达方式数量。",
            },
            CatalogueField {
                name: "target_message",
                json_type: "string",
                items: None,
                required: false,
                en: "Text of the message being replied to.",
                zh: "当前目标回复消息文本。",
            },
            CatalogueField {
                name: "reply_reason",
                json_type: "string",
                items: None,
                required: false,
                en: "Reply reason given by the planner.",
                zh: "规划器给出的回复理由。",
            },
            CatalogueField {
                name: "think_level",
                json_type: "integer",
                items: None,
                required: true,
                en: "Thinking level of the expression selection.",
                zh: "表达方式选择思考级别。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EXPRESSION_SELECT_AFTER_SELECTION,
        description: "Fires after expressions have been selected for a reply.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "chat_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current chat stream.",
                zh: "当前聊天流 ID。",
            },
            CatalogueField {
                name: "chat_info",
                json_type: "string",
                items: None,
                required: true,
                en: "Chat context used to select expressions.",
                zh: "用于选择表达方式的聊天上下文。",
            },
            CatalogueField {
                name: "max_num",
                json_type: "integer",
                items: None,
                required: true,
                en: "Maximum number of expressions to select.",
                zh: "最大可选表达方式数量。",
            },
            CatalogueField {
                name: "target_message",
                json_type: "string",
                items: None,
                required: false,
                en: "Text of the message being replied to.",
                zh: "当前目标回复消息文本。",
            },
            CatalogueField {
                name: "reply_reason",
                json_type: "string",
                items: None,
                required: false,
                en: "Reply reason given by the planner.",
                zh: "规划器给出的回复理由。",
            },
            CatalogueField {
                name: "think_level",
                json_type: "integer",
                items: None,
                required: true,
                en: "Thinking level of the expression selection.",
                zh: "表达方式选择思考级别。",
            },
            CatalogueField {
                name: "selected_expressions",
                json_type: "array",
                items: Some("object"),
                required: true,
                en: "Expressions selected so far.",
                zh: "当前已选中的表达方式列表。",
            },
            CatalogueField {
                name: "selected_expression_ids",
                json_type: "array",
                items: Some("integer"),
                required: true,
                en: "IDs of the expressions selected so far.",
                zh: "当前已选中的表达方式 ID 列表。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EXPRESSION_LEARN_AFTER_EXTRACT,
        description: "Fires after expression candidates are extracted from a session's messages.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "message_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of messages learned from in this round.",
                zh: "本轮参与学习的消息数量。",
            },
            CatalogueField {
                name: "expressions",
                json_type: "array",
                items: Some("object"),
                required: true,
                en: "Parsed expression candidates.",
                zh: "解析出的表达方式候选列表。",
            },
            CatalogueField {
                name: "jargon_entries",
                json_type: "array",
                items: Some("object"),
                required: true,
                en: "Compatibility field, always empty: jargon is learned by a separate learner.",
                zh: "兼容字段。黑话学习已由独立 learner 处理，此处固定为空列表。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::EXPRESSION_LEARN_BEFORE_UPSERT,
        description: "Fires before a learned expression is stored.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "situation",
                json_type: "string",
                items: None,
                required: true,
                en: "Situation text about to be stored.",
                zh: "即将写入的情景文本。",
            },
            CatalogueField {
                name: "style",
                json_type: "string",
                items: None,
                required: true,
                en: "Style text about to be stored.",
                zh: "即将写入的风格文本。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::SEND_SERVICE_AFTER_BUILD_MESSAGE,
        description: "Fires after the send service has built an outgoing message, before it is sent.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "message",
                json_type: "object",
                items: None,
                required: true,
                en: "The message about to be sent, serialised.",
                zh: "待发送消息的序列化 SessionMessage。",
            },
            CatalogueField {
                name: "stream_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the target session.",
                zh: "目标会话 ID。",
            },
            CatalogueField {
                name: "processed_plain_text",
                json_type: "string",
                items: None,
                required: true,
                en: "Optional pre-processed plain text.",
                zh: "可选的预处理纯文本内容。",
            },
            CatalogueField {
                name: "typing",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to simulate typing.",
                zh: "是否模拟打字。",
            },
            CatalogueField {
                name: "set_reply",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to send it as a quoted reply.",
                zh: "是否附带引用回复。",
            },
            CatalogueField {
                name: "storage_message",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to store the message after a successful send.",
                zh: "发送成功后是否写库。",
            },
            CatalogueField {
                name: "show_log",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to log the send.",
                zh: "是否输出发送日志。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::SEND_SERVICE_BEFORE_SEND,
        description: "Fires just before the send service sends a message.",
        default_timeout_ms: 5000,
        allow_abort: true,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "message",
                json_type: "object",
                items: None,
                required: true,
                en: "The message about to be sent, serialised.",
                zh: "待发送消息的序列化 SessionMessage。",
            },
            CatalogueField {
                name: "typing",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to simulate typing.",
                zh: "是否模拟打字。",
            },
            CatalogueField {
                name: "set_reply",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to send it as a quoted reply.",
                zh: "是否附带引用回复。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: false,
                en: "ID of the quoted message.",
                zh: "被引用消息 ID。",
            },
            CatalogueField {
                name: "storage_message",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to store the message after a successful send.",
                zh: "发送成功后是否写库。",
            },
            CatalogueField {
                name: "show_log",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to log the send.",
                zh: "是否输出发送日志。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::SEND_SERVICE_AFTER_SEND,
        description: "Fires after the send service has tried to send a message.",
        default_timeout_ms: 5000,
        allow_abort: false,
        allow_kwargs_mutation: false,
        fields: &[
            CatalogueField {
                name: "message",
                json_type: "object",
                items: None,
                required: true,
                en: "The message this send handled, serialised.",
                zh: "本次发送消息的序列化 SessionMessage。",
            },
            CatalogueField {
                name: "sent",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether the send succeeded.",
                zh: "本次发送是否成功。",
            },
            CatalogueField {
                name: "typing",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to simulate typing.",
                zh: "是否模拟打字。",
            },
            CatalogueField {
                name: "set_reply",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to send it as a quoted reply.",
                zh: "是否附带引用回复。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: false,
                en: "ID of the quoted message.",
                zh: "被引用消息 ID。",
            },
            CatalogueField {
                name: "storage_message",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to store the message after a successful send.",
                zh: "发送成功后是否写库。",
            },
            CatalogueField {
                name: "show_log",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to log the send.",
                zh: "是否输出发送日志。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_PLANNER_BEFORE_REQUEST,
        description: "Fires before the planner's request is sent to the model.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "items",
                json_type: "array",
                items: None,
                required: true,
                en: "Context items about to be sent to the model, without replay payloads.",
                zh: "即将发给模型的 Context Item 列表；不包含 replay payload。",
            },
            CatalogueField {
                name: "item_schema_version",
                json_type: "integer",
                items: None,
                required: true,
                en: "Version of the context-item payload format.",
                zh: "Context Item Hook 载荷版本。",
            },
            CatalogueField {
                name: "tool_definitions",
                json_type: "array",
                items: None,
                required: true,
                en: "Definitions of the candidate tools.",
                zh: "当前候选工具定义列表。",
            },
            CatalogueField {
                name: "selected_history_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of history messages selected as context.",
                zh: "当前选中的上下文消息数量。",
            },
            CatalogueField {
                name: "built_message_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of messages actually sent to the model.",
                zh: "实际发送给模型的消息数量。",
            },
            CatalogueField {
                name: "selection_reason",
                json_type: "string",
                items: None,
                required: true,
                en: "Why this context was selected.",
                zh: "上下文选择说明。",
            },
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_PLANNER_AFTER_RESPONSE,
        description: "Fires after the planner's model has responded.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "output_items",
                json_type: "array",
                items: None,
                required: true,
                en: "Context output items returned by the model, without replay payloads.",
                zh: "模型返回的 Context Output Items；不包含 replay payload。",
            },
            CatalogueField {
                name: "item_schema_version",
                json_type: "integer",
                items: None,
                required: true,
                en: "Version of the context-item payload format.",
                zh: "Context Item Hook 载荷版本。",
            },
            CatalogueField {
                name: "selected_history_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of history messages selected as context.",
                zh: "当前选中的上下文消息数量。",
            },
            CatalogueField {
                name: "built_message_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of messages actually sent to the model.",
                zh: "实际发送给模型的消息数量。",
            },
            CatalogueField {
                name: "selection_reason",
                json_type: "string",
                items: None,
                required: true,
                en: "Why this context was selected.",
                zh: "上下文选择说明。",
            },
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "prompt_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Input token count.",
                zh: "输入 Token 数。",
            },
            CatalogueField {
                name: "completion_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Output token count.",
                zh: "输出 Token 数。",
            },
            CatalogueField {
                name: "total_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Total token count.",
                zh: "总 Token 数。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_REPLYER_BEFORE_REQUEST,
        description: "Fires before the replyer prepares its request for a reply.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "request_type",
                json_type: "string",
                items: None,
                required: true,
                en: "Type of this replyer request.",
                zh: "当前 replyer 请求类型。",
            },
            CatalogueField {
                name: "task_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model task name for this replyer request; hooks may change it.",
                zh: "本次 replyer 请求使用的模型任务名；Hook 可改写该值。",
            },
            CatalogueField {
                name: "model_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Specific model for this replyer request; empty means the task's policy chooses.",
                zh: "本次 replyer 请求指定使用的具体模型名；留空时按任务策略选择。",
            },
            CatalogueField {
                name: "extra_prompt",
                json_type: "string",
                items: None,
                required: true,
                en: "Extra reply instructions a hook may add to this replyer prompt.",
                zh: "Hook 可追加到本次 replyer 提示词中的额外回复要求。",
            },
            CatalogueField {
                name: "attempt",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of this generation attempt, from 1.",
                zh: "当前生成尝试序号，从 1 开始。",
            },
            CatalogueField {
                name: "retry_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "How many times the reply has been regenerated so far.",
                zh: "当前已经重新生成的次数。",
            },
            CatalogueField {
                name: "max_retries",
                json_type: "integer",
                items: None,
                required: true,
                en: "Maximum number of regenerations in this round.",
                zh: "本轮 replyer 最多允许重新生成多少次。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the message replied to; empty when there is none.",
                zh: "被回复消息 ID；无目标消息时为空字符串。",
            },
            CatalogueField {
                name: "reply_reason",
                json_type: "string",
                items: None,
                required: true,
                en: "Reply reason for this replyer run.",
                zh: "本次 replyer 生成的回复理由。",
            },
            CatalogueField {
                name: "selected_expression_ids",
                json_type: "array",
                items: None,
                required: true,
                en: "IDs of the expressions selected for this replyer run.",
                zh: "本次 replyer 选中的表达方式编号列表。",
            },
            CatalogueField {
                name: "reply_tool_args",
                json_type: "object",
                items: None,
                required: true,
                en: "Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.",
                zh: "reply 工具透传给 replyer 的额外参数，不含目标消息 ID 等内部参数。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST,
        description: "Fires before each replyer attempt sends its request to the chosen model.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "items",
                json_type: "array",
                items: None,
                required: true,
                en: "Context items about to be sent to the model, without replay payloads.",
                zh: "即将发给模型的 Context Items；不包含 replay payload。",
            },
            CatalogueField {
                name: "item_schema_version",
                json_type: "integer",
                items: None,
                required: true,
                en: "Version of the context-item payload format.",
                zh: "Context Item Hook 载荷版本。",
            },
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "request_type",
                json_type: "string",
                items: None,
                required: true,
                en: "Type of this replyer request.",
                zh: "当前 replyer 请求类型。",
            },
            CatalogueField {
                name: "task_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model task name this replyer request actually used.",
                zh: "本次 replyer 实际使用的模型任务名。",
            },
            CatalogueField {
                name: "requested_model_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model requested by a before_request hook; empty means the task's policy chooses.",
                zh: "before_request Hook 请求指定的具体模型名；留空表示按任务策略选择。",
            },
            CatalogueField {
                name: "selected_model_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model actually chosen for this attempt; empty before a model was tried.",
                zh: "当前尝试实际选中的模型名；未进入具体模型尝试时为空字符串。",
            },
            CatalogueField {
                name: "selected_model_visual",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether the chosen model has visual input enabled.",
                zh: "当前尝试选中的模型是否启用 visual 能力。",
            },
            CatalogueField {
                name: "attempt",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of this generation attempt, from 1.",
                zh: "当前生成尝试序号，从 1 开始。",
            },
            CatalogueField {
                name: "retry_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "How many times the reply has been regenerated so far.",
                zh: "当前已经重新生成的次数。",
            },
            CatalogueField {
                name: "max_retries",
                json_type: "integer",
                items: None,
                required: true,
                en: "Maximum number of regenerations in this round.",
                zh: "本轮 replyer 最多允许重新生成多少次。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the message replied to; empty when there is none.",
                zh: "被回复消息 ID；无目标消息时为空字符串。",
            },
            CatalogueField {
                name: "reply_reason",
                json_type: "string",
                items: None,
                required: true,
                en: "Reply reason for this replyer run.",
                zh: "本次 replyer 生成的回复理由。",
            },
            CatalogueField {
                name: "selected_expression_ids",
                json_type: "array",
                items: None,
                required: true,
                en: "IDs of the expressions selected for this replyer run.",
                zh: "本次 replyer 选中的表达方式编号列表。",
            },
            CatalogueField {
                name: "reply_tool_args",
                json_type: "object",
                items: None,
                required: true,
                en: "Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.",
                zh: "reply 工具透传给 replyer 的额外参数，不含目标消息 ID 等内部参数。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_REPLYER_AFTER_RESPONSE,
        description: "Fires after the replyer's model has responded, before the reply is accepted.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "response",
                json_type: "string",
                items: None,
                required: true,
                en: "Read-only compatibility view of the replyer's visible text; rewriting it replaces only the text item.",
                zh: "replyer 可见正文的兼容只读投影；改写时仅替换正文 Item。",
            },
            CatalogueField {
                name: "output_items",
                json_type: "array",
                items: None,
                required: true,
                en: "Context output items returned by the replyer's model, without replay payloads.",
                zh: "replyer 模型返回的 Context Output Items；不包含 replay payload。",
            },
            CatalogueField {
                name: "item_schema_version",
                json_type: "integer",
                items: None,
                required: true,
                en: "Version of the context-item payload format.",
                zh: "Context Item Hook 载荷版本。",
            },
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "request_type",
                json_type: "string",
                items: None,
                required: true,
                en: "Type of this replyer request.",
                zh: "当前 replyer 请求类型。",
            },
            CatalogueField {
                name: "task_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model task name this replyer request actually used.",
                zh: "本次 replyer 实际使用的模型任务名。",
            },
            CatalogueField {
                name: "requested_model_name",
                json_type: "string",
                items: None,
                required: true,
                en: "Model requested by a hook; empty means the task's policy chooses.",
                zh: "Hook 请求指定的具体模型名；留空表示按任务策略选择。",
            },
            CatalogueField {
                name: "attempt",
                json_type: "integer",
                items: None,
                required: true,
                en: "Number of this generation attempt, from 1.",
                zh: "当前生成尝试序号，从 1 开始。",
            },
            CatalogueField {
                name: "retry_count",
                json_type: "integer",
                items: None,
                required: true,
                en: "How many times the reply has been regenerated so far.",
                zh: "当前已经重新生成的次数。",
            },
            CatalogueField {
                name: "max_retries",
                json_type: "integer",
                items: None,
                required: true,
                en: "Maximum number of regenerations in this round.",
                zh: "本轮 replyer 最多允许重新生成多少次。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the message replied to; empty when there is none.",
                zh: "被回复消息 ID；无目标消息时为空字符串。",
            },
            CatalogueField {
                name: "selected_expression_ids",
                json_type: "array",
                items: None,
                required: true,
                en: "IDs of the expressions selected for this replyer run.",
                zh: "本次 replyer 选中的表达方式编号列表。",
            },
            CatalogueField {
                name: "reply_tool_args",
                json_type: "object",
                items: None,
                required: true,
                en: "Extra arguments the reply tool passes to the replyer, without internal ones such as the target message ID.",
                zh: "reply 工具透传给 replyer 的额外参数，不含目标消息 ID 等内部参数。",
            },
            CatalogueField {
                name: "prompt_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Input token count.",
                zh: "输入 Token 数。",
            },
            CatalogueField {
                name: "completion_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Output token count.",
                zh: "输出 Token 数。",
            },
            CatalogueField {
                name: "total_tokens",
                json_type: "integer",
                items: None,
                required: true,
                en: "Total token count.",
                zh: "总 Token 数。",
            },
            CatalogueField {
                name: "retry",
                json_type: "boolean",
                items: None,
                required: false,
                en: "A hook handler may set this to true to make the replyer regenerate.",
                zh: "Hook 处理器可置为 true，要求 replyer 重新生成。",
            },
            CatalogueField {
                name: "retry_reason",
                json_type: "string",
                items: None,
                required: false,
                en: "Optional reason for regenerating; when empty the reply is regenerated without adding to the next replyer prompt.",
                zh: "可选的重新生成约束原因；留空时只重新生成，不追加下一轮 replyer 提示词。",
            },
            CatalogueField {
                name: "matched_regex",
                json_type: "string",
                items: None,
                required: false,
                en: "Regex or rule name that triggered the regeneration.",
                zh: "触发重新生成的正则或规则名称。",
            },
            CatalogueField {
                name: "matched_regex_pattern",
                json_type: "string",
                items: None,
                required: false,
                en: "Regex text that triggered the regeneration.",
                zh: "触发重新生成的正则文本。",
            },
            CatalogueField {
                name: "matched_regex_description",
                json_type: "string",
                items: None,
                required: false,
                en: "Description of the rule that triggered the regeneration.",
                zh: "触发重新生成的规则说明。",
            },
        ],
    },
    CatalogueHook {
        name: toolhook::hooks::MAISAKA_REPLY_BEFORE_POST_PROCESS,
        description: "Fires before the text of a final reply is post-processed.",
        default_timeout_ms: 6000,
        allow_abort: false,
        allow_kwargs_mutation: true,
        fields: &[
            CatalogueField {
                name: "response",
                json_type: "string",
                items: None,
                required: true,
                en: "Final reply text about to be post-processed.",
                zh: "即将执行文本后处理的最终回复正文。",
            },
            CatalogueField {
                name: "session_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the current session.",
                zh: "当前会话 ID。",
            },
            CatalogueField {
                name: "reply_message_id",
                json_type: "string",
                items: None,
                required: true,
                en: "ID of the message replied to.",
                zh: "被回复消息 ID。",
            },
            CatalogueField {
                name: "reply_tool_args",
                json_type: "object",
                items: None,
                required: true,
                en: "Arguments of this reply tool call passed through, without internal ones.",
                zh: "本次 reply 工具除内部参数外的透传参数。",
            },
            CatalogueField {
                name: "skip_post_process",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether to skip all text post-processing of this reply.",
                zh: "是否跳过本次回复的全部文本后处理。",
            },
            CatalogueField {
                name: "enable_splitter",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether this reply may be split into several messages per the global settings.",
                zh: "本次回复是否允许按全局配置进行文本拆分。",
            },
            CatalogueField {
                name: "enable_chinese_typo",
                json_type: "boolean",
                items: None,
                required: true,
                en: "Whether Chinese typos may be injected into this reply per the global settings.",
                zh: "本次回复是否允许按全局配置注入中文错别字。",
            },
        ],
    },
];

/// `{"type":"object","properties":{name: {"type": t, "items": {"type": i}?, "description": text in locale}},"required":[required names in order]}`
/// (`required` omitted when no field is required); keys in exactly that order.
pub(crate) fn payload_schema(hook: &CatalogueHook, locale: Locale) -> Value {
    let mut properties = Map::new();
    for field in hook.fields {
        let mut property = Map::new();
        property.insert("type".to_owned(), Value::from(field.json_type));
        if let Some(items) = field.items {
            let mut item = Map::new();
            item.insert("type".to_owned(), Value::from(items));
            property.insert("items".to_owned(), Value::Object(item));
        }
        let text = match locale {
            Locale::En => field.en,
            Locale::ZhHans => field.zh,
        };
        property.insert("description".to_owned(), Value::from(text));
        properties.insert(field.name.to_owned(), Value::Object(property));
    }
    let required: Vec<Value> = hook.fields.iter().filter(|f| f.required).map(|f| Value::from(f.name)).collect();
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::from("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), Value::Array(required));
    }
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeSet;
    use toolhook::hooks::payload::*;

    fn hook(name: &str) -> &'static CatalogueHook {
        CATALOGUE.iter().find(|h| h.name == name).unwrap_or_else(|| panic!("no catalogue hook {name}"))
    }

    #[test]
    fn has_22_unique_hooks_in_constant_order() {
        assert_eq!(CATALOGUE.len(), 22);
        let names: BTreeSet<&str> = CATALOGUE.iter().map(|h| h.name).collect();
        assert_eq!(names.len(), 22);
        let order: Vec<&str> = CATALOGUE.iter().map(|h| h.name).collect();
        assert_eq!(order, toolhook::hooks::ALL);
    }

    #[test]
    fn the_compile_time_checks_know_every_hook_and_which_may_be_aborted() {
        for hook in &CATALOGUE {
            assert!(toolhook::__private::is_catalogue_hook(hook.name), "{}", hook.name);
            assert_eq!(toolhook::__private::hook_allows_abort(hook.name), hook.allow_abort, "{}", hook.name);
        }
        assert!(!toolhook::__private::is_catalogue_hook("chat.receive"));
    }

    #[test]
    fn spec_examples() {
        let after_send = hook("send_service.after_send");
        assert_eq!(after_send.default_timeout_ms, 5000);
        assert!(!after_send.allow_abort);
        assert!(!after_send.allow_kwargs_mutation);
        assert!(!hook("chat.command.after_execute").allow_abort);
        assert_eq!(hook("maisaka.planner.before_request").default_timeout_ms, 6000);
        assert_eq!(hook("chat.receive.before_process").default_timeout_ms, 0);
    }

    #[test]
    fn texts_are_present_and_fields_well_formed() {
        for hook in &CATALOGUE {
            assert!(hook.description.starts_with("Fires ") && hook.description.ends_with('.'), "{}", hook.name);
            assert!(!hook.fields.is_empty(), "{}", hook.name);
            let names: BTreeSet<&str> = hook.fields.iter().map(|f| f.name).collect();
            assert_eq!(names.len(), hook.fields.len(), "duplicate field in {}", hook.name);
            for field in hook.fields {
                assert!(!field.en.trim().is_empty(), "{}.{} en", hook.name, field.name);
                assert!(!field.zh.trim().is_empty(), "{}.{} zh", hook.name, field.name);
                assert!(
                    ["string", "integer", "boolean", "object", "array"].contains(&field.json_type),
                    "{}.{}",
                    hook.name,
                    field.name
                );
                if let Some(items) = field.items {
                    assert_eq!(field.json_type, "array", "{}.{}", hook.name, field.name);
                    assert!(["string", "integer", "object"].contains(&items), "{}.{}", hook.name, field.name);
                }
            }
        }
    }

    #[test]
    fn payload_schema_shape() {
        let schema = payload_schema(hook("chat.command.after_execute"), Locale::En);
        let keys: Vec<&str> = schema.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["type", "properties", "required"]);
        assert_eq!(schema["type"], "object");
        assert_eq!(
            schema["required"],
            json!([
                "message",
                "command_name",
                "plugin_id",
                "matched_groups",
                "success",
                "intercept_message_level",
                "continue_process"
            ])
        );
        assert_eq!(
            schema["properties"]["response"],
            json!({"type": "string", "description": "Text the command returned."})
        );

        let schema = payload_schema(hook("emoji.maisaka.before_select"), Locale::ZhHans);
        let context_texts = &schema["properties"]["context_texts"];
        let keys: Vec<&str> = context_texts.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["type", "items", "description"]);
        assert_eq!(
            *context_texts,
            json!({"type": "array", "items": {"type": "string"}, "description": "最近聊天上下文文本列表。"})
        );

        let schema = payload_schema(hook("chat.receive.after_process"), Locale::ZhHans);
        assert_eq!(schema["properties"]["message"]["description"], "已完成 `process()` 的序列化 SessionMessage。");

        let schema = payload_schema(hook("maisaka.planner.before_request"), Locale::En);
        assert_eq!(schema["properties"]["items"].get("items"), None);
        assert_eq!(schema["properties"]["items"]["type"], "array");

        let optional_only = CatalogueHook {
            name: "x.y",
            description: "Fires in tests.",
            default_timeout_ms: 0,
            allow_abort: true,
            allow_kwargs_mutation: true,
            fields: &[CatalogueField {
                name: "a",
                json_type: "integer",
                items: None,
                required: false,
                en: "A.",
                zh: "甲。",
            }],
        };
        assert_eq!(
            payload_schema(&optional_only, Locale::ZhHans),
            json!({"type": "object", "properties": {"a": {"type": "integer", "description": "甲。"}}})
        );
    }

    /// Builds the JSON Schema of one payload struct.
    type SchemaOf = fn() -> Value;

    macro_rules! payloads {
        ($($ty:ident),* $(,)?) => {
            [$(($ty::HOOK, (|| serde_json::to_value(toolhook::schemars::schema_for!($ty)).unwrap()) as SchemaOf)),*]
        };
    }

    #[test]
    fn payload_structs_match_the_catalogue() {
        let payloads: [(&str, SchemaOf); 22] = payloads!(
            ChatReceiveBeforeProcess,
            ChatReceiveAfterProcess,
            ChatCommandBeforeExecute,
            ChatCommandAfterExecute,
            EmojiMaisakaBeforeSelect,
            EmojiMaisakaAfterSelect,
            EmojiRegisterAfterBuildDescription,
            JargonExtractBeforePersist,
            JargonInferenceBeforeFinalize,
            ExpressionSelectBeforeSelect,
            ExpressionSelectAfterSelection,
            ExpressionLearnAfterExtract,
            ExpressionLearnBeforeUpsert,
            SendServiceAfterBuildMessage,
            SendServiceBeforeSend,
            SendServiceAfterSend,
            MaisakaPlannerBeforeRequest,
            MaisakaPlannerAfterResponse,
            MaisakaReplyerBeforeRequest,
            MaisakaReplyerBeforeModelRequest,
            MaisakaReplyerAfterResponse,
            MaisakaReplyBeforePostProcess,
        );
        for (hook, (name, schema)) in CATALOGUE.iter().zip(payloads) {
            assert_eq!(name, hook.name);
            let schema = schema();
            let properties = schema["properties"].as_object().unwrap_or_else(|| panic!("{name}: {schema}"));
            let names: Vec<&str> = properties.keys().map(String::as_str).collect();
            let expected: Vec<&str> = hook.fields.iter().map(|f| f.name).collect();
            assert_eq!(names, expected, "{name}");

            let required: BTreeSet<&str> = schema
                .get("required")
                .map(|r| r.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect())
                .unwrap_or_default();
            let optional: BTreeSet<&str> = names.iter().copied().filter(|n| !required.contains(n)).collect();
            let expected_optional: BTreeSet<&str> =
                hook.fields.iter().filter(|f| !f.required).map(|f| f.name).collect();
            assert_eq!(optional, expected_optional, "{name}");

            for field in hook.fields {
                let property = &properties[field.name];
                let ty = match &property["type"] {
                    Value::String(t) => t.as_str(),
                    Value::Array(types) => {
                        let types: Vec<&str> =
                            types.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect();
                        assert_eq!(types.len(), 1, "{name}.{}: {property}", field.name);
                        types[0]
                    }
                    _ => panic!("{name}.{}: {property}", field.name),
                };
                assert_eq!(ty, field.json_type, "{name}.{}", field.name);
                if field.json_type == "array" {
                    match field.items {
                        Some(items) => assert_eq!(property["items"]["type"], items, "{name}.{}", field.name),
                        None => assert_eq!(property["items"], true, "{name}.{}: {property}", field.name),
                    }
                }
                assert_eq!(property["description"], field.en, "{name}.{}", field.name);
            }
        }
    }
}
