//! Questions a tool asks its caller, on the wire: elicitation, sampling and roots requests as MCP
//! parameters, and their answers read back (leniently: an answer that does not fit is no answer).

use serde_json::{Map, Value, json};
use toolhook::{
    Elicitation, ElicitationAction, ElicitationReply, InputKind, Role, Root, SamplingReply, SamplingRequest,
};

/// A question's method and parameters as MCP writes them.
pub(crate) fn method(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Elicitation => "elicitation/create",
        InputKind::Sampling => "sampling/createMessage",
        InputKind::Roots => "roots/list",
        _ => "",
    }
}

/// `elicitation/create` parameters (form mode).
pub(crate) fn elicitation_params(question: &Elicitation) -> Value {
    json!({"message": question.message, "requestedSchema": question.schema})
}

/// `sampling/createMessage` parameters.
pub(crate) fn sampling_params(request: &SamplingRequest) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({"role": role, "content": {"type": "text", "text": m.text}})
        })
        .collect();
    let mut params = Map::new();
    params.insert("messages".into(), Value::Array(messages));
    params.insert("maxTokens".into(), Value::from(request.max_tokens));
    if let Some(prompt) = &request.system_prompt {
        params.insert("systemPrompt".into(), Value::from(prompt.clone()));
    }
    if let Some(temperature) = request.temperature {
        params.insert("temperature".into(), Value::from(temperature));
    }
    Value::Object(params)
}

/// An elicitation answer: `{action, content?}`; an accepted answer needs an object.
pub(crate) fn elicitation_reply(answer: &Value) -> Option<ElicitationReply> {
    let action = match answer.get("action")?.as_str()? {
        "accept" => ElicitationAction::Accept,
        "decline" => ElicitationAction::Decline,
        "cancel" => ElicitationAction::Cancel,
        _ => return None,
    };
    let content = match answer.get("content") {
        Some(Value::Object(content)) => Some(content.clone()),
        None | Some(Value::Null) if action != ElicitationAction::Accept => None,
        _ => return None,
    };
    Some(ElicitationReply::new(action, content))
}

/// A sampling answer: `{role, content, model, stopReason?}`.
pub(crate) fn sampling_reply(answer: &Value) -> Option<SamplingReply> {
    let model = answer.get("model")?.as_str()?;
    let content = answer.get("content")?.clone();
    let blocks = match &content {
        Value::Array(blocks) => blocks.clone(),
        block @ Value::Object(_) => vec![block.clone()],
        _ => return None,
    };
    let text: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let mut reply = SamplingReply::text(text.join("\n"), model);
    reply.stop_reason = answer.get("stopReason").and_then(Value::as_str).map(str::to_owned);
    reply.content = content;
    Some(reply)
}

/// A roots answer: `{roots: [{uri, name?}]}`.
pub(crate) fn roots_reply(answer: &Value) -> Option<Vec<Root>> {
    answer
        .get("roots")?
        .as_array()?
        .iter()
        .map(|root| {
            let uri = root.get("uri")?.as_str()?;
            Some(Root::new(uri, root.get("name").and_then(Value::as_str).map(str::to_owned)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_that_do_not_fit_are_no_answers() {
        assert!(elicitation_reply(&json!(12345)).is_none());
        assert!(elicitation_reply(&json!({"action": "accept"})).is_none());
        assert!(elicitation_reply(&json!({"action": "accept", "content": "Alice"})).is_none());
        let declined = elicitation_reply(&json!({"action": "decline"})).unwrap();
        assert_eq!(declined.action, ElicitationAction::Decline);
        let accepted = elicitation_reply(&json!({"action": "accept", "content": {"name": "Alice"}})).unwrap();
        assert_eq!(accepted.accepted().unwrap()["name"], "Alice");
        let sampled = sampling_reply(&json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}))
            .unwrap();
        assert_eq!((sampled.text.as_str(), sampled.stop_reason.as_deref()), ("Paris", Some("endTurn")));
        assert!(sampling_reply(&json!({"content": {"type": "text", "text": "Paris"}})).is_none());
        let roots = roots_reply(&json!({"roots": [{"uri": "file:///r", "name": "R"}]})).unwrap();
        assert_eq!(roots[0].uri, "file:///r");
        assert!(roots_reply(&json!({"roots": [{"name": "no uri"}]})).is_none());
    }
}
