//! Collect, expose and run the tools and hooks declared with [`toolhook`].
//!
//! `toolhook-runtime` is what a bot host depends on. A [`ToolRegistry`] merges the tools of
//! several [providers](ToolProvider) — compiled-in plugins (loaded by a [`PluginHost`]), the
//! host's built-ins ([`BuiltinToolProvider`], with [`tool_search`](DeferredTools)), your own —
//! under one name space, renders their definitions for every major model API, checks access
//! rules, and runs calls with one result model: errors, panics and timeouts are failed results a
//! model can act on, never crashes.
//!
//! The quickest start is a [`Host`], which wires all of it in one builder:
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let host = toolhook_runtime::Host::builder().build().await.unwrap_or_else(|problems| {
//!     eprintln!("{problems}"); // every plugin, component or server that failed, one per line
//!     problems.into_host()
//! });
//! # host.shutdown().await;
//! # });
//! ```
//!
//! Below, the same pieces wired by hand, for hosts that need another arrangement:
//!
//! ```
//! use std::sync::Mutex;
//! use toolhook::{Dialect, ToolExecutionContext, ToolInvocation, plugin, tool};
//! use toolhook_runtime::{BuiltinToolProvider, PluginHost, PluginState, ToolRegistry, split_tool_result};
//!
//! /// Look up the weather for a city.
//! #[tool(core_tool = true)]
//! async fn weather(city: String, #[param(default = 1)] days: u8) -> String {
//!     format!("{city}: sunny for {days} day(s)")
//! }
//!
//! /// Keeps notes.
//! #[derive(Default)]
//! struct Notes {
//!     saved: Mutex<Vec<String>>,
//! }
//!
//! #[plugin(id = "acme.notes")]
//! impl Notes {
//!     /// Save a note.
//!     #[tool(core_tool = true)]
//!     async fn save_note(&self, text: String) -> String {
//!         let mut saved = self.saved.lock().unwrap();
//!         saved.push(text);
//!         format!("{} note(s) saved", saved.len())
//!     }
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let builtin = BuiltinToolProvider::new();
//! let deferred = builtin.deferred().clone();
//! let registry = ToolRegistry::default();
//! registry.register_provider(builtin);
//! // Every plugin linked in: each `#[plugin]`, and each package's free `#[tool]`s (its default
//! // plugin). `PluginToolProvider::from_declared()` would serve the free tools only.
//! let host = PluginHost::builder().registry(&registry).build();
//! let _outcomes = host.load_all().await;
//! assert_eq!(host.state("acme.notes"), Some(PluginState::Loaded));
//!
//! // What the model is offered this round (visible tools, discovered deferred ones).
//! let ctx = ToolExecutionContext::for_session("session-1");
//! let round = deferred.prepare_round(&registry, &ctx).await;
//! let definitions = round.definitions(Dialect::OpenAiChat);
//! for name in ["tool_search", "weather", "save_note"] {
//!     assert!(definitions.iter().any(|d| d["function"]["name"] == name), "{name}");
//! }
//!
//! // Calls the model made, and the history it sees next.
//! let call = ToolInvocation::new("weather", r#"{"city": "Paris"}"#).with_call_id("call_1");
//! let result = deferred.invoke(&registry, call, &ctx).await;
//! let history = split_tool_result("call_1", &result.tool_name, &result, registry.locale());
//! assert_eq!(history.tool_message, "Paris: sunny for 1 day(s)");
//! let call = ToolInvocation::new("save_note", r#"{"text": "buy milk"}"#).with_call_id("call_2");
//! let result = deferred.invoke(&registry, call, &ctx).await;
//! assert_eq!(result.content, "1 note(s) saved");
//!
//! host.shutdown().await;
//! # });
//! ```
//!
//! A host that serves deferred tools sends, each round, [`RoundTools::definitions`] and
//! [`RoundTools::reminder`], as above; [`ToolRegistry::get_llm_definitions`] lists every available
//! tool, deferred ones included, for a host that does not. A definition's description is a tool's
//! brief; set
//! [`RegistryConfig::include_detailed_description`](field@RegistryConfig::include_detailed_description)
//! to append its generated parameter docs and the rest of its doc comment.
//!
//! # Crate map
//!
//! - [`Host`]: all of the below wired and loaded by one builder, with the handles of a chat loop.
//! - [`ToolRegistry`], [`RegistryConfig`], [`DuplicatePolicy`]: one name space over every
//!   [`ToolProvider`]; listing, definitions per [`Dialect`](toolhook::Dialect), invocation.
//! - [`PluginToolProvider`], [`BuiltinToolProvider`], [`BuiltinTool`]: the providers shipped here
//!   ([`PluginHost`] builds the plugin one; [`PluginToolProvider::from_declared`] serves only free
//!   `#[tool]`s); implement [`ToolProvider`] for your own (an MCP client, a remote service).
//! - [`DeferredTools`], [`RoundTools`]: deferred tools, their per-session discovery and
//!   [`tool_search`](TOOL_SEARCH).
//! - [`split_tool_result`], [`batch_history`]: the history messages a model sees after a call.
//! - [`PluginHost`], [`PluginSet`], [`ConfigSource`]: collecting `#[plugin]`s, their lifecycle and
//!   config.
//! - [`HookDispatcher`], [`HookSpecRegistry`]: hook points and running their handlers.
//! - [`CommandSet`]: tools as chat commands, with help text.
//! - [`manifest`]: every plugin and component as JSON, for hosts in other languages.
//! - [`testing`]: invoke a declared tool in a unit test in one line.
//!
//! # Choices
//!
//! Where toolhook deliberately differs from the Python plugin SDK it replaces (duplicate names are
//! skipped rather than renamed by default, access rules and timeouts are enforced by the registry,
//! a failing provider is skipped, …), the [compatibility page](toolhook::guides::compatibility)
//! lists it. Beyond that, toolhook chose:
//!
//! - **Limits**: calls time out after 60 s unless the tool or [`RegistryConfig::default_timeout`]
//!   says otherwise, counted from the call (finding the tool and code that blocks its thread
//!   count too); argument text is refused over 1 MiB or 64 levels of nesting. A call that
//!   finishes on its first poll needs no timer, so it works on any executor; one that has to
//!   wait needs tokio with timers, and says so in its result otherwise.
//! - **Timing precision**: a precise clock reading costs tens of nanoseconds, a large share of a
//!   fast call, so on Linux calls and hook handlers whose limit is at least 64 ticks of the
//!   kernel's coarse clock (256 ms on a 250 Hz kernel) are timed with that clock until they
//!   first wait. Such a call is never failed before its limit; one that blocks its thread past
//!   the limit and then returns may be let through when it returns within three ticks of it (at
//!   most 3/64 of the limit), and one that waits may get up to 1/64 of its limit more. Shorter
//!   limits, calls once they wait, and every call on other systems are timed to the
//!   nanosecond on tokio's clock (which a test can pause).
//! - **Bodies that never wait**: an `async fn` `#[tool]`, or a blocking `#[hook_handler]`, whose
//!   body has no `.await` (nor any macro that could expand to one) is called to its end in
//!   place, with no boxed future: most small tools and filters cost little more than the direct
//!   call. Such a call is timed, and its panic caught, as any other; like any code that blocks
//!   its thread, it cannot be interrupted, so one that runs past its limit is timed out when it
//!   returns. A handler a host registers as a closure ([`hooks::HookHandlerEntry::new`]) is
//!   always boxed: its future's type is not known to be ready.
//! - **Access rules fail closed**: a tool limited to platforms or scopes is hidden and refused
//!   when the context does not say which platform or scope it is called from.
//! - **Plugin routing**: a call routed to the plugin provider names its `plugin_id` only when two
//!   plugins list the same tool name (or the caller set one), so the common call path does no
//!   extra lookup.
//! - **Argument errors** quote the offending value as compact JSON (`days: expected integer, got
//!   string "three"`, `2.50` as `2.5`), except a number a float cannot hold exactly
//!   (`18446744073709551617`): that one is quoted as the model wrote it, not as the float it was
//!   read as (`1.8446744073709552e+19`). Your own parameter types decode exactly as their
//!   `Deserialize` says (no lenient scalars inside them), and errors name the full JSON path.
//! - **Built-in tools** a host adds always receive an execution context; a call without one
//!   gets an empty context in the provider's locale. `tool_search` gets the call's context as
//!   it came: without one, it searches every deferred tool.
//! - **Config**: missing keys are filled from the config type's `Default` at every level, not just
//!   the top; [`CollectedPlugin::config_schema`] gives a host UI the JSON Schema of the form.
//! - **Plugin selection**: [`PluginSet::only`] and [`PluginSet::retain`] let a host (or a test)
//!   load a subset of the plugins linked into it.
//!
//! # Running for months
//!
//! Every wait has a timeout, every cache and queue a bound, and one faulty component costs only
//! itself:
//!
//! - **Listings** are cached per provider by the parts of the context the provider declares it
//!   reads ([`ToolProvider::listing_depends_on`], in at most
//!   [`RegistryConfig::listing_cache_capacity`] contexts), and name spaces by the listings and the
//!   caller's access facts (at most [`RegistryConfig::route_cache_capacity`]). A call costs the
//!   same with one tool or ten thousand, and memory stays flat however many sessions call.
//! - **A slow, hung or failing provider**: a listing may take [`RegistryConfig::listing_timeout`]
//!   (10 s); a failed one is retried after [`RegistryConfig::listing_backoff`], doubling up to a
//!   minute, while the provider's last good listing keeps serving; at most a few listings of one
//!   provider are on their way at once. A call never waits for another provider's listing when
//!   its own tool is known.
//! - **Panics** while a handler runs, while its future is created or dropped, become failed
//!   results; the registry keeps serving.
//! - **Sync tools** run on tokio's blocking pool, at most [`BlockingLimits`] per tool and per
//!   plugin; a call that timed out keeps its thread until the fn returns and is listed by
//!   [`PluginHost::stuck_calls`].
//! - **Plugin lifecycle hooks** have a timeout
//!   ([`PluginHostBuilder::lifecycle_timeout`], 30 s): a plugin whose `on_load` fails, times out
//!   or is cancelled ends `Failed` with its tools and handlers withdrawn; shutdown always
//!   completes.
//! - **Observers** wait in a bounded queue; what does not fit is dropped under an
//!   [`ObserverOverflow`] policy, logged, and counted by
//!   [`HookDispatcher::dropped_observer_runs`].
//! - **Model input**: tool names no model API accepts are listed under valid ones (a host may
//!   still call such a tool by its own name); texts echoed in errors (tool names, string
//!   values, command tokens) are cut short; integers are read exactly or refused; `tool_search`
//!   queries are at most 256 characters, and their first 16 distinct terms are scored (each as
//!   often as the query repeats it); the [`DeferredTools`] discovery state keeps the 10,000
//!   most recent sessions.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod access;
mod cache;
mod clock;
mod command;
mod context_parts;
mod deferred;
mod guard;
pub mod guides;
pub mod hooks;
mod host;
mod listing;
pub mod manifest;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
mod plugins;
mod provider;
mod recent;
mod recent_routes;
mod registry;
mod results;
mod routes;
mod source;
mod strict_arguments;
pub mod testing;
mod tool_search;

pub use command::{CommandError, CommandReply, CommandSet, CommandSpec, ListItem, TokenKind};
pub use context_parts::ContextParts;
pub use deferred::{DeferredTools, RoundTools, TOOL_SEARCH};
pub use hooks::{
    BreakerConfig, BreakerState, BreakerStatus, HookDispatchResult, HookDispatcher, HookDispatcherBuilder, HookError,
    HookErrorKind, HookHandlerEntry, HookHandlerManifest, HookSpec, HookSpecError, HookSpecRegistry, ObserverOverflow,
    build_object_schema,
};
pub use host::{Host, HostBuilder, HostError, HostProblem};
pub use plugins::{
    BoxError, CollectedPlugin, CollectedTool, ConfigError, ConfigSource, ConfigUpdateError, HostClassification,
    LoadError, LoadOutcome, LoadReport, MemoryConfigSource, NormalisedConfig, PluginHost, PluginHostBuilder,
    PluginProblem, PluginSet, PluginState, normalise, rebuild,
};
pub use provider::blocking::{BlockingLimits, StuckCall};
pub use provider::builtin::{BuiltinTool, BuiltinToolProvider, ChatScopeFilter, PhaseFilter};
pub use provider::plugin::{PluginToolProvider, PluginToolsSpec};
pub use provider::{RegistryLink, ToolProvider};
pub use registry::{CloseErrors, MAX_ARGUMENT_DEPTH, RegistryChanges, RegistryConfig, ToolRegistry};
pub use results::{HistoryMessage, ToolResultHistory, ToolResultMedia, batch_history, split_tool_result};
pub use routes::DuplicatePolicy;
pub use source::Source;

/// The README's examples (plugins and hosts), compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
