//! The lifecycle states of a plugin.

use std::fmt;

/// Where a plugin is in its lifecycle.
///
/// `Registered` → `Disabled` | `Failed` | `Loading` → `Loaded` | `Failed`; `Loaded` →
/// `Unloading` → `Unloaded`. Tools are listed while `Loading` or `Loaded`, and run only when
/// `Loaded`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PluginState {
    /// Collected, not yet loaded.
    Registered,
    /// Switched off by its config (`plugin.enabled = false`).
    Disabled,
    /// Could not be collected or loaded.
    Failed,
    /// `on_load` is running: tools are listed but calls fail with `PluginNotLoaded`.
    Loading,
    /// Running.
    Loaded,
    /// `on_unload` is running.
    Unloading,
    /// Stopped.
    Unloaded,
}

impl PluginState {
    /// The serde name, e.g. `"loaded"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PluginState::Registered => "registered",
            PluginState::Disabled => "disabled",
            PluginState::Failed => "failed",
            PluginState::Loading => "loading",
            PluginState::Loaded => "loaded",
            PluginState::Unloading => "unloading",
            PluginState::Unloaded => "unloaded",
        }
    }
}

impl fmt::Display for PluginState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
