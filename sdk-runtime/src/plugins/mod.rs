//! Compiled-in plugins: collecting their components, their states and lifecycle.

mod set;
mod state;

pub use set::{CollectedPlugin, CollectedTool, PluginProblem, PluginSet};
pub use state::PluginState;
