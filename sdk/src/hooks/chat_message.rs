//! [`ChatMessage`]: the `message` argument of the chat and send hooks, typed.

use super::args::PayloadError;
use serde_json::{Map, Value};

/// A chat message as the chat and send hooks carry it (their `message` argument), with the keys
/// toolhook documents typed and every other key the host sends kept in [`extra`](Self::extra).
///
/// A host decides what its messages hold; these are the keys a host built on toolhook fills
/// when it has them, so a plugin can rely on their names and types. Each is optional: a key the
/// host leaves out is `None`, never an error. Writing a message back (`set_chat_message`) keeps
/// the keys the host sent that are not modelled here.
///
/// ```
/// use toolhook::hooks::ChatMessage;
/// use toolhook::hooks::payload::ChatReceiveBeforeProcess;
/// use toolhook::serde_json::json;
///
/// let payload: ChatReceiveBeforeProcess = toolhook::serde_json::from_value(json!({
///     "message": {"text": "hello", "user_id": "u1", "reply_to": "m0"}
/// }))?;
/// let mut message = payload.chat_message()?;
/// assert_eq!((message.text.as_deref(), message.user_id.as_deref()), (Some("hello"), Some("u1")));
/// assert_eq!(message.extra["reply_to"], "m0"); // a key of the host's own, kept
///
/// message.text = Some("HELLO".into());
/// let mut payload = payload;
/// payload.set_chat_message(message);
/// assert_eq!(payload.message["text"], "HELLO");
/// assert_eq!(payload.message["reply_to"], "m0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ChatMessage {
    /// The message's id on its platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Its plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Who sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// The group it was sent in; `None` in a private chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    /// The platform it came from or goes to (`qq`, `telegram`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// The chat stream (session) it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<String>,
    /// When it was sent, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<f64>,
    /// Every other key the host sent, as it sent it.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ChatMessage {
    /// Reads a `message` argument; a documented key of the wrong type is an error naming it.
    pub fn from_map(message: &Map<String, Value>) -> Result<ChatMessage, PayloadError> {
        serde_path_to_error::deserialize(Value::Object(message.clone()))
            .map_err(|e| PayloadError::new(format!("message.{}", e.path()), e.inner().to_string()))
    }

    /// The message as a `message` argument.
    pub fn into_map(self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }
}

macro_rules! chat_payloads {
    ($($ty:ident),* $(,)?) => {$(
        impl super::payload::$ty {
            /// The `message` argument, typed (see [`ChatMessage`]).
            pub fn chat_message(&self) -> Result<ChatMessage, PayloadError> {
                ChatMessage::from_map(&self.message)
            }

            /// Replaces the `message` argument, keeping the host's keys [`ChatMessage`] does not
            /// model (those in its `extra`).
            pub fn set_chat_message(&mut self, message: ChatMessage) {
                self.message = message.into_map();
            }
        }
    )*};
}

chat_payloads!(
    ChatReceiveBeforeProcess,
    ChatReceiveAfterProcess,
    ChatCommandBeforeExecute,
    ChatCommandAfterExecute,
    SendServiceAfterBuildMessage,
    SendServiceBeforeSend,
    SendServiceAfterSend,
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_documented_key_of_the_wrong_type_is_an_error_naming_it() {
        let message = json!({"text": 5, "user_id": "u1"});
        let error = ChatMessage::from_map(message.as_object().unwrap()).unwrap_err();
        assert_eq!(error.to_string(), "invalid payload: message.text: invalid type: integer `5`, expected a string");
    }

    #[test]
    fn an_empty_message_has_every_key_unset_and_writes_back_empty() {
        let message = ChatMessage::from_map(&Map::new()).unwrap();
        assert_eq!(message, ChatMessage::default());
        assert!(message.into_map().is_empty());
    }
}
