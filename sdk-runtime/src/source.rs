//! Whether a plugin ships with the host or comes from a third party.

use std::fmt;

/// The source rank of a plugin: built-in plugins sort first in hook dispatch and win contested
/// tool names. The host decides; a plugin cannot declare itself built-in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Ships with the host.
    Builtin,
    /// Everything else (the default).
    #[default]
    ThirdParty,
}

impl Source {
    /// `"builtin"` or `"third_party"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Builtin => "builtin",
            Source::ThirdParty => "third_party",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
