//! Legacy actions: the declaration data of SDK 1.x actions and how it renders as a
//! tool.

use super::docs;
use super::locale::Locale;
use super::py::{is_truthy, py_str};
use super::schema::object_schema;
use super::visibility::Visibility;
use serde_json::{Map, Value};
use std::fmt;

/// When a legacy action is offered to the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActivationType {
    /// Never activated automatically.
    Never,
    /// Always available (the default).
    #[default]
    Always,
    /// Activated with `activation_probability`.
    Random,
    /// Activated when a message holds one of `activation_keywords`.
    Keyword,
}

impl ActivationType {
    /// The serde name, e.g. `"keyword"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ActivationType::Never => "never",
            ActivationType::Always => "always",
            ActivationType::Random => "random",
            ActivationType::Keyword => "keyword",
        }
    }
}

impl fmt::Display for ActivationType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The chat mode a legacy action was meant for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatMode {
    /// Focused chat.
    Focus,
    /// Normal chat (the default).
    #[default]
    Normal,
    /// Priority chat.
    Priority,
    /// Every mode.
    All,
}

impl ChatMode {
    /// The serde name, e.g. `"focus"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChatMode::Focus => "focus",
            ChatMode::Normal => "normal",
            ChatMode::Priority => "priority",
            ChatMode::All => "all",
        }
    }
}

impl fmt::Display for ChatMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A legacy (SDK 1.x) action declaration, as hosts load it from data.
///
/// Every key but `name` is optional; any other key is kept in [`extra`](Self::extra) in input
/// order and becomes tool metadata. Turn one into a tool with
/// [`ToolSpec::from_action`](crate::ToolSpec::from_action).
///
/// ```
/// use toolhook::{ActionInfo, ActivationType};
///
/// let info: ActionInfo = serde_json::from_value(serde_json::json!({
///     "name": "poke", "activation_type": "keyword", "activation_keywords": ["poke"],
///     "core_tool": true,
/// }))
/// .unwrap();
/// assert_eq!(info.activation_type, ActivationType::Keyword);
/// assert_eq!(info.extra["core_tool"], true);
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ActionInfo {
    /// The action's (and the tool's) name.
    pub name: String,
    /// The brief shown to the model.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub description: String,
    /// When it is offered.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub activation_type: ActivationType,
    /// Keywords for [`ActivationType::Keyword`].
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub activation_keywords: Vec<String>,
    /// Probability for [`ActivationType::Random`] (default 1.0).
    #[serde(default = "one", deserialize_with = "super::nullable::or_one")]
    pub activation_probability: f64,
    /// The chat mode it was meant for.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub chat_mode: ChatMode,
    /// Parameter name → description; every parameter is an optional string.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub action_parameters: Map<String, Value>,
    /// Usage notes for the model.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub action_require: Vec<String>,
    /// Message types the action applies to.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub associated_types: Vec<String>,
    /// Whether it may run alongside other actions.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub parallel_action: bool,
    /// The original prompt text.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub action_prompt: String,
    /// Every other key, in input order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn one() -> f64 {
    1.0
}

impl ActionInfo {
    /// An action with this name and every other field at its default.
    pub fn new(name: impl Into<String>) -> Self {
        ActionInfo {
            name: name.into(),
            description: String::new(),
            activation_type: ActivationType::default(),
            activation_keywords: Vec::new(),
            activation_probability: 1.0,
            chat_mode: ChatMode::default(),
            action_parameters: Map::new(),
            action_require: Vec::new(),
            associated_types: Vec::new(),
            parallel_action: false,
            action_prompt: String::new(),
            extra: Map::new(),
        }
    }
}

/// Everything a legacy action contributes to its tool spec.
pub(crate) struct ActionRendering {
    /// Brief per locale (`[en, zh-Hans]`).
    pub(crate) brief: [String; 2],
    /// Detailed text per locale.
    pub(crate) detailed: [String; 2],
    /// Parameters schema per locale (the fallback parameter description is locale text).
    pub(crate) schema: [Value; 2],
    pub(crate) visibility: Visibility,
    pub(crate) metadata: Map<String, Value>,
}

/// Renders a legacy action as the 1.x SDK did.
pub(crate) fn render_action(info: &ActionInfo) -> ActionRendering {
    let schema = Locale::ALL.map(|locale| action_schema(info, locale));
    let detailed = Locale::ALL.map(|locale| action_detailed(info, &schema[locale.index()], locale));
    let brief = Locale::ALL.map(|locale| docs::brief(&info.name, &[Some(info.description.as_str())], locale));
    ActionRendering { brief, detailed, schema, visibility: action_visibility(info), metadata: action_metadata(info) }
}

fn action_schema(info: &ActionInfo, locale: Locale) -> Value {
    let mut properties = Map::new();
    for (key, value) in &info.action_parameters {
        let name = key.trim();
        if name.is_empty() {
            continue;
        }
        let rendered = if is_truthy(value) {
            match (locale, value) {
                (Locale::ZhHans, _) => py_str(value),
                (Locale::En, Value::String(text)) => text.clone(),
                (Locale::En, other) => other.to_string(),
            }
        } else {
            String::new()
        };
        let rendered = rendered.trim();
        let description = if rendered.is_empty() {
            locale.pick("Legacy action parameter", "兼容旧 Action 参数")
        } else {
            rendered
        };
        let mut prop = Map::with_capacity(2);
        prop.insert("type".into(), Value::from("string"));
        prop.insert("description".into(), Value::from(description));
        properties.insert(name.to_owned(), Value::Object(prop));
    }
    object_schema(properties, Vec::new())
}

fn action_detailed(info: &ActionInfo, schema: &Value, locale: Locale) -> String {
    let mut parts = Vec::new();
    if let Some(block) = docs::parameter_block(schema, locale, &[]) {
        parts.push(block);
    }
    let requirements = non_blank(&info.action_require);
    if !requirements.is_empty() {
        let mut part = locale.pick("Usage notes:", "使用建议：").to_owned();
        for item in requirements {
            part.push_str("\n- ");
            part.push_str(item);
        }
        parts.push(part);
    }
    let types = non_blank(&info.associated_types);
    if !types.is_empty() {
        parts.push(match locale {
            Locale::En => format!("Applicable message types: {}.", types.join(", ")),
            Locale::ZhHans => format!("适用消息类型：{}。", types.join("、")),
        });
    }
    let mut activation = vec![match locale {
        Locale::En => format!("Legacy action activation: {}.", info.activation_type),
        Locale::ZhHans => format!("兼容旧 Action 激活方式：{}。", info.activation_type),
    }];
    let keywords = non_blank(&info.activation_keywords);
    if !keywords.is_empty() {
        activation.push(match locale {
            Locale::En => format!("Activation keywords: {}.", keywords.join(", ")),
            Locale::ZhHans => format!("激活关键词：{}。", keywords.join("、")),
        });
    }
    let prompt = info.action_prompt.trim();
    if !prompt.is_empty() {
        activation.push(match locale {
            Locale::En => format!("Original action prompt: {}.", prompt.strip_suffix('.').unwrap_or(prompt)),
            Locale::ZhHans => format!("原始 Action 提示语：{prompt}。"),
        });
    }
    parts.push(activation.join("\n"));
    parts.join("\n\n")
}

fn non_blank(items: &[String]) -> Vec<&str> {
    items.iter().map(|item| item.trim()).filter(|item| !item.is_empty()).collect()
}

fn action_visibility(info: &ActionInfo) -> Visibility {
    let declared =
        info.extra.get("visibility").and_then(Value::as_str).and_then(|text| text.parse::<Visibility>().ok());
    match declared {
        Some(visibility) => visibility,
        None if info.extra.get("core_tool").is_some_and(is_truthy) => Visibility::Visible,
        None => Visibility::Deferred,
    }
}

fn action_metadata(info: &ActionInfo) -> Map<String, Value> {
    let mut metadata = info.extra.clone();
    let strings = |items: &[String]| Value::Array(items.iter().cloned().map(Value::from).collect());
    let legacy = [
        ("legacy_action", Value::Bool(true)),
        ("legacy_component_type", Value::from("ACTION")),
        ("activation_type", Value::from(info.activation_type.as_str())),
        ("activation_keywords", strings(&info.activation_keywords)),
        ("activation_probability", Value::from(info.activation_probability)),
        ("chat_mode", Value::from(info.chat_mode.as_str())),
        ("action_parameters", Value::Object(info.action_parameters.clone())),
        ("action_require", strings(&info.action_require)),
        ("associated_types", strings(&info.associated_types)),
        ("parallel_action", Value::Bool(info.parallel_action)),
        ("action_prompt", Value::from(info.action_prompt.clone())),
    ];
    for (key, value) in legacy {
        // A colliding extra key keeps its slot and takes the legacy value.
        metadata.insert(key.to_owned(), value);
    }
    metadata
}
