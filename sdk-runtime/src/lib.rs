//! Collect, expose and run the tools and hooks declared with [`toolhook`].
//!
//! `toolhook-runtime` is what a bot host depends on. A [`ToolRegistry`] merges the tools of
//! several [providers](ToolProvider) — compiled-in plugins ([`PluginToolProvider`]), the host's
//! built-ins ([`BuiltinToolProvider`], with [`tool_search`](DeferredTools)), your own — under one
//! name space, renders their definitions for every major model API, checks access rules, and runs
//! calls with one result model: errors, panics and timeouts are failed results a model can act on,
//! never crashes.
//!
//! ```
//! use toolhook::{Dialect, ToolExecutionContext, ToolInvocation, tool};
//! use toolhook_runtime::{BuiltinToolProvider, PluginToolProvider, ToolRegistry, split_tool_result};
//!
//! /// Look up the weather for a city.
//! #[tool(core_tool = true)]
//! async fn weather(city: String, #[param(default = 1)] days: u8) -> String {
//!     format!("{city}: sunny for {days} day(s)")
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let builtin = BuiltinToolProvider::new();
//! let deferred = builtin.deferred().clone();
//! let registry = ToolRegistry::default();
//! registry.register_provider(builtin);
//! registry.register_provider(PluginToolProvider::from_declared());
//!
//! // What the model is offered this round (visible tools, discovered deferred ones).
//! let ctx = ToolExecutionContext::for_session("session-1");
//! let round = deferred.prepare_round(&registry, &ctx).await;
//! let definitions = round.definitions(Dialect::OpenAiChat);
//! assert!(definitions.iter().any(|d| d["function"]["name"] == "weather"));
//!
//! // A call the model made, and the history it sees next.
//! let call = ToolInvocation::new("weather", r#"{"city": "Paris"}"#).with_call_id("call_1");
//! let result = deferred.invoke(&registry, call, &ctx).await;
//! let history = split_tool_result("call_1", &result.tool_name, &result, registry.locale());
//! assert_eq!(history.tool_message, "Paris: sunny for 1 day(s)");
//! # });
//! ```
#![deny(missing_docs)]

mod access;
mod command;
mod deferred;
pub mod hooks;
pub mod manifest;
mod plugins;
mod provider;
mod registry;
mod results;
mod source;
pub mod testing;

pub use command::{CommandError, CommandReply, CommandSet, CommandSpec, ListItem, TokenKind};
pub use deferred::{DeferredTools, RoundTools, TOOL_SEARCH};
pub use hooks::{
    BreakerConfig, BreakerState, BreakerStatus, HookDispatchResult, HookDispatcher, HookDispatcherBuilder, HookError,
    HookErrorKind, HookHandlerEntry, HookHandlerManifest, HookSpec, HookSpecError, HookSpecRegistry,
    build_object_schema,
};
pub use plugins::{
    BoxError, CollectedPlugin, CollectedTool, ConfigError, ConfigSource, ConfigUpdateError, HostClassification,
    LoadOutcome, MemoryConfigSource, NormalisedConfig, PluginHost, PluginHostBuilder, PluginProblem, PluginSet,
    PluginState, normalise, rebuild,
};
pub use provider::builtin::{BuiltinTool, BuiltinToolProvider, ChatScopeFilter, PhaseFilter};
pub use provider::plugin::{PluginToolProvider, PluginToolsSpec};
pub use provider::{RegistryLink, ToolProvider};
pub use registry::{CloseErrors, DuplicatePolicy, RegistryConfig, ToolRegistry};
pub use results::{HistoryMessage, ToolResultHistory, ToolResultMedia, batch_history, split_tool_result};
pub use source::Source;
