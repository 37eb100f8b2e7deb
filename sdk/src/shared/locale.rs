//! The language of model-visible text.

use std::fmt;
use std::str::FromStr;

/// The language of every text a model sees: descriptions, parameter docs, error and result texts.
///
/// English is the default. Simplified Chinese is byte-exact to the [Python SDK](crate::guides::compatibility)'s host, so hosts that
/// already speak to their models in it keep working.
///
/// ```
/// use toolhook::Locale;
///
/// assert_eq!("zh_CN".parse::<Locale>(), Ok(Locale::ZhHans));
/// assert_eq!(Locale::ZhHans.to_string(), "zh-Hans");
/// assert_eq!(Locale::default(), Locale::En);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Locale {
    /// English (`"en"`), the default.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (`"zh-Hans"`).
    #[serde(rename = "zh-Hans")]
    ZhHans,
}

impl Locale {
    /// Both locales, English first.
    pub const ALL: [Locale; 2] = [Locale::En, Locale::ZhHans];

    /// The tag used in JSON and on the command line: `"en"` or `"zh-Hans"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::ZhHans => "zh-Hans",
        }
    }

    /// Index into per-locale arrays (`[en, zh-Hans]`).
    pub(crate) const fn index(self) -> usize {
        match self {
            Locale::En => 0,
            Locale::ZhHans => 1,
        }
    }

    /// Picks the value for this locale: `Locale::ZhHans.pick("Tool", "工具") == "工具"`.
    pub fn pick<T>(self, en: T, zh_hans: T) -> T {
        match self {
            Locale::En => en,
            Locale::ZhHans => zh_hans,
        }
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Locale`] from an unknown tag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown locale `{0}`; expected one of: en, zh-Hans")]
pub struct ParseLocaleError(pub(crate) String);

impl FromStr for Locale {
    type Err = ParseLocaleError;

    /// ASCII case-insensitive, `_` read as `-`: `en`, `en-us`, `en-gb`, `zh-hans`, `zh-cn`, `zh`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let tag = s.trim().to_ascii_lowercase().replace('_', "-");
        match tag.as_str() {
            "en" | "en-us" | "en-gb" => Ok(Locale::En),
            "zh-hans" | "zh-cn" | "zh" => Ok(Locale::ZhHans),
            _ => Err(ParseLocaleError(s.to_owned())),
        }
    }
}
