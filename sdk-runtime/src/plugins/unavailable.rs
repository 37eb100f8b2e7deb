//! Why a tool declared in the program is not served, in each locale a `Tool not found` answer
//! may be written in.

use toolhook::Locale;

/// Why a declared tool is not served: the wrapping words in each locale around the problem as
/// it was reported (a plugin's own error, a spec error), which stays as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unavailable {
    en: String,
    zh_hans: String,
}

impl Unavailable {
    /// A problem whose words are the same in every locale (a component's own problem).
    pub(crate) fn as_reported(problem: &str) -> Self {
        Unavailable { en: problem.to_owned(), zh_hans: problem.to_owned() }
    }

    /// The plugin failed while loading.
    pub(crate) fn failed_to_load(plugin: &str, reason: &str) -> Self {
        Unavailable {
            en: format!("plugin {plugin} failed to load: {reason}"),
            zh_hans: format!("插件 {plugin} 加载失败：{reason}"),
        }
    }

    /// The plugin cannot load at all (found when it was collected).
    pub(crate) fn cannot_load(plugin: &str, problems: &[String]) -> Self {
        Unavailable {
            en: format!("plugin {plugin} cannot load: {}", problems.join("; ")),
            zh_hans: format!("插件 {plugin} 无法加载：{}", problems.join("；")),
        }
    }

    /// The words in `locale`.
    pub(crate) fn in_locale(&self, locale: Locale) -> &str {
        locale.pick(&self.en, &self.zh_hans)
    }
}
