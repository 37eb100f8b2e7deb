//! Legacy declarations written by other hosts spell an unset field as JSON `null`; these read it as
//! the field's default, as an absent key reads.

use serde::{Deserialize, Deserializer};

/// `null` ⇒ `T::default()` (an absent key is `#[serde(default)]`'s).
pub(crate) fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// `null` ⇒ `true`.
pub(crate) fn or_true<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(deserializer)?.unwrap_or(true))
}

/// `null` ⇒ `1.0`.
pub(crate) fn or_one<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(1.0))
}

#[cfg(test)]
mod tests {
    use super::super::{action::ActionInfo, param::ToolParameterInfo};
    use serde_json::json;

    #[test]
    fn a_null_reads_as_the_default_an_absent_key_gives() {
        let info: ActionInfo = serde_json::from_value(json!({
            "name": "poke", "description": null, "activation_type": null, "activation_keywords": null,
            "activation_probability": null, "chat_mode": null, "action_parameters": null, "action_require": null,
            "associated_types": null, "parallel_action": null, "action_prompt": null,
        }))
        .unwrap();
        assert_eq!(info, serde_json::from_value::<ActionInfo>(json!({"name": "poke"})).unwrap());
        let param: ToolParameterInfo = serde_json::from_value(json!({
            "name": "q", "param_type": null, "description": null, "required": null, "required_properties": null,
        }))
        .unwrap();
        assert_eq!(param, serde_json::from_value::<ToolParameterInfo>(json!({"name": "q"})).unwrap());
        assert!(param.required);
    }
}
