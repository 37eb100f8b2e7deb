//! Compiled-in plugins: collecting their components, their states, config and lifecycle.

mod classification;
mod config;
mod host;
mod load_report;
mod set;
mod state;
mod unavailable;

pub use classification::HostClassification;
pub use config::{BoxError, ConfigError, ConfigSource, MemoryConfigSource, NormalisedConfig, normalise, rebuild};
pub use host::{ConfigUpdateError, PluginHost, PluginHostBuilder};
pub use load_report::{LoadError, LoadOutcome, LoadReport};
pub use set::{CollectedPlugin, CollectedTool, PluginProblem, PluginSet};
pub use state::PluginState;
pub(crate) use unavailable::Unavailable;
