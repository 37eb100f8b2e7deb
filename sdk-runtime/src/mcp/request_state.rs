//! The `requestState` of MCP 2026-07-28 calls that need input: the answers gathered in earlier
//! rounds, signed with the host's key (HMAC-SHA256 through rmcp's codec) and bound to the tool
//! and its arguments, so any instance with the same key can continue the call and nobody can
//! forge or replay answers for another call.

use rmcp::ErrorData;
use rmcp::model::{RequestStateCodec, SealOptions};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::time::Duration;

/// The largest sealed state sent out (answers accumulate over rounds).
const MAX_STATE_BYTES: usize = 64 * 1024;

/// Seals and opens request states with one key.
pub(crate) struct RequestStates {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl std::fmt::Debug for RequestStates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestStates").field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Sealed {
    answers: Map<String, Value>,
}

impl RequestStates {
    /// States signed with `key` (at least 32 bytes), valid for `ttl`.
    pub(crate) fn new(key: &[u8], ttl: Duration) -> Result<Self, String> {
        let codec = RequestStateCodec::try_new(key.to_vec()).map_err(|e| e.to_string())?;
        Ok(RequestStates { codec, ttl })
    }

    /// The state carrying `answers` for a call of `tool` with `arguments`.
    pub(crate) fn seal(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        answers: Map<String, Value>,
    ) -> Result<String, ErrorData> {
        let binding = binding(tool, arguments)?;
        let sealed = self
            .codec
            .seal_json_with(&Sealed { answers }, &SealOptions::new().associated_data(&binding).ttl(self.ttl))
            .map_err(|e| ErrorData::internal_error(format!("cannot seal the request state: {e}"), None))?;
        if sealed.len() > MAX_STATE_BYTES {
            return Err(ErrorData::invalid_params(
                "the answers gathered for this call are too large to carry on; start the call again",
                None,
            ));
        }
        Ok(sealed)
    }

    /// The answers a state carries, if it was sealed by this key for this very call and has not
    /// expired.
    pub(crate) fn open(
        &self,
        sealed: &str,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Result<Map<String, Value>, ErrorData> {
        let binding = binding(tool, arguments)?;
        match self.codec.open_json_with::<Sealed>(sealed, &binding) {
            Ok(state) => Ok(state.answers),
            Err(error) => {
                tracing::debug!(tool, %error, "request state refused");
                Err(ErrorData::invalid_params(
                    "invalid requestState: it was altered, has expired, or belongs to another call",
                    None,
                ))
            }
        }
    }
}

/// What a state is bound to: the tool and a digest of its arguments in canonical form (object
/// keys sorted), so a client that reorders keys between rounds still matches.
fn binding(tool: &str, arguments: &Map<String, Value>) -> Result<Vec<u8>, ErrorData> {
    let value = Value::Object(arguments.clone());
    if toolhook::args::value_depth_exceeds(&value, 64) {
        return Err(ErrorData::invalid_params("arguments are nested deeper than 64 levels", None));
    }
    let mut hasher = Sha256::new();
    hasher.update(tool.as_bytes());
    hasher.update([0]);
    canonical(&value, &mut hasher);
    Ok(hasher.finalize().to_vec())
}

fn canonical(value: &Value, hasher: &mut Sha256) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            hasher.update(b"{");
            for key in keys {
                hasher.update(Value::from(key.as_str()).to_string().as_bytes());
                hasher.update(b":");
                canonical(&map[key], hasher);
                hasher.update(b",");
            }
            hasher.update(b"}");
        }
        Value::Array(items) => {
            hasher.update(b"[");
            for item in items {
                canonical(item, hasher);
                hasher.update(b",");
            }
            hasher.update(b"]");
        }
        scalar => hasher.update(scalar.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_state_opens_only_for_its_own_call_and_untouched() {
        let states = RequestStates::new(&[7; 32], Duration::from_secs(60)).unwrap();
        let mut answers = Map::new();
        answers.insert("step1".into(), json!({"action": "accept", "content": {"ok": true}}));
        let sealed = states.seal("tool", &args(json!({"a": 1, "b": [1, 2]})), answers.clone()).unwrap();
        // Keys in another order are the same call.
        assert_eq!(states.open(&sealed, "tool", &args(json!({"b": [1, 2], "a": 1}))).unwrap(), answers);
        assert!(states.open(&sealed, "other_tool", &args(json!({"a": 1, "b": [1, 2]}))).is_err());
        assert!(states.open(&sealed, "tool", &args(json!({"a": 2, "b": [1, 2]}))).is_err());
        assert!(states.open(&format!("{sealed}-TAMPERED"), "tool", &args(json!({"a": 1, "b": [1, 2]}))).is_err());
        let other_key = RequestStates::new(&[8; 32], Duration::from_secs(60)).unwrap();
        assert!(other_key.open(&sealed, "tool", &args(json!({"a": 1, "b": [1, 2]}))).is_err());
    }

    #[test]
    fn a_short_key_is_refused() {
        assert!(RequestStates::new(&[1; 8], Duration::from_secs(60)).is_err());
    }
}
