//! Whether a tool is advertised to the model.

use std::fmt;
use std::str::FromStr;

/// Whether a tool is shown to the model directly, found through `tool_search`, or never exposed.
///
/// ```
/// use toolhook::Visibility;
///
/// assert_eq!(" VISIBLE ".parse::<Visibility>(), Ok(Visibility::Visible));
/// assert_eq!(Visibility::default(), Visibility::Deferred);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Always in the tool definitions sent to the model.
    Visible,
    /// Advertised only after `tool_search` found it in the session; callable by name at any time.
    #[default]
    Deferred,
    /// Never listed and never invocable.
    Hidden,
}

impl Visibility {
    /// The accepted spellings, for error messages.
    pub const NAMES: [&'static str; 3] = ["visible", "deferred", "hidden"];

    /// The serde name: `"visible"`, `"deferred"` or `"hidden"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Deferred => "deferred",
            Visibility::Hidden => "hidden",
        }
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown [`Visibility`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown visibility `{0}`; expected one of: visible, deferred, hidden")]
pub struct ParseVisibilityError(pub(crate) String);

impl FromStr for Visibility {
    type Err = ParseVisibilityError;

    /// Trims and lower-cases first: `" VISIBLE "` is [`Visibility::Visible`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "visible" => Ok(Visibility::Visible),
            "deferred" => Ok(Visibility::Deferred),
            "hidden" => Ok(Visibility::Hidden),
            _ => Err(ParseVisibilityError(s.to_owned())),
        }
    }
}
