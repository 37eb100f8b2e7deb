//! The built-in hook catalogue as the macros see it: each hook's name and whether a handler may
//! abort it. `toolhook_runtime`'s tests check that this list equals the runtime's catalogue.

use crate::attr::levenshtein;

/// One catalogue hook: its name, whether handlers may abort it.
pub(crate) struct Hook {
    pub(crate) name: &'static str,
    pub(crate) allow_abort: bool,
}

const fn hook(name: &'static str, allow_abort: bool) -> Hook {
    Hook { name, allow_abort }
}

/// The 22 catalogue hooks, in catalogue order.
pub(crate) const HOOKS: [Hook; 22] = [
    hook("chat.receive.before_process", true),
    hook("chat.receive.after_process", true),
    hook("chat.command.before_execute", true),
    hook("chat.command.after_execute", false),
    hook("emoji.maisaka.before_select", true),
    hook("emoji.maisaka.after_select", true),
    hook("emoji.register.after_build_description", true),
    hook("jargon.extract.before_persist", true),
    hook("jargon.inference.before_finalize", true),
    hook("expression.select.before_select", true),
    hook("expression.select.after_selection", true),
    hook("expression.learn.after_extract", true),
    hook("expression.learn.before_upsert", true),
    hook("send_service.after_build_message", true),
    hook("send_service.before_send", true),
    hook("send_service.after_send", false),
    hook("maisaka.planner.before_request", false),
    hook("maisaka.planner.after_response", false),
    hook("maisaka.replyer.before_request", false),
    hook("maisaka.replyer.before_model_request", false),
    hook("maisaka.replyer.after_response", false),
    hook("maisaka.reply.before_post_process", false),
];

/// The catalogue hook of this name.
pub(crate) fn find(name: &str) -> Option<&'static Hook> {
    HOOKS.iter().find(|h| h.name == name)
}

/// The name of a hook's typed payload struct in `toolhook::hooks`:
/// `send_service.after_build_message` is `SendServiceAfterBuildMessage`.
pub(crate) fn payload_type(hook: &str) -> String {
    hook.split(['.', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

/// The catalogue hook whose payload struct has this name.
pub(crate) fn hook_of_payload(type_name: &str) -> Option<&'static Hook> {
    HOOKS.iter().find(|h| payload_type(h.name) == type_name)
}

/// The catalogue hook closest to a misspelt name, when one is close enough to suggest.
pub(crate) fn closest(name: &str) -> Option<&'static str> {
    let (distance, best) = HOOKS.iter().map(|h| (levenshtein(name, h.name), h.name)).min()?;
    (distance <= name.len().max(3) / 3).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_types_are_the_camel_case_hook_names() {
        assert_eq!(payload_type("send_service.after_build_message"), "SendServiceAfterBuildMessage");
        assert_eq!(hook_of_payload("ChatReceiveBeforeProcess").map(|h| h.name), Some("chat.receive.before_process"));
        assert!(hook_of_payload("Weather").is_none());
    }

    #[test]
    fn a_misspelt_hook_gets_the_closest_name_and_a_stranger_none() {
        assert_eq!(closest("chat.recieve.before_process"), Some("chat.receive.before_process"));
        assert_eq!(closest("send_service.before_sned"), Some("send_service.before_send"));
        assert_eq!(closest("my.plugin.event"), None);
    }
}
