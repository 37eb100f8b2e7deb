//! Declare LLM tools and chat hooks for a bot host with attribute macros.
//!
//! `toolhook` is what a plugin author depends on. `#[tool]` turns a function into a tool a model
//! can call: its JSON Schema and its parameter docs (English and Simplified Chinese) are rendered
//! **at compile time** from the signature, the doc comments and `#[param]` attributes, and the tool
//! registers itself, so the host finds it without any glue code. Hosts collect, expose and run the
//! tools with `toolhook-runtime`.
//!
//! ```
//! use toolhook::{DeclaredTool, Dialect, Locale, tool};
//!
//! /// Look up the weather forecast for a city.
//! ///
//! /// Forecasts beyond five days are unreliable.
//! #[tool(core_tool = true)]
//! async fn city_weather(
//!     /// City name, e.g. "Paris".
//!     city: String,
//!     /// Temperature unit.
//!     #[param(enum = ["celsius", "fahrenheit"], default = "celsius")]
//!     unit: String,
//!     /// Days ahead.
//!     days: Option<u8>,
//! ) -> String {
//!     format!("{city}: sunny, 21 degrees {unit}, {} day(s) ahead", days.unwrap_or(1))
//! }
//!
//! let weather = DeclaredTool::all().into_iter().find(|t| t.name() == "city_weather").unwrap().spec()?;
//! assert_eq!(weather.description(Locale::En), "Look up the weather forecast for a city.");
//! assert_eq!(
//!     weather.detailed_description(Locale::En),
//!     "Parameter details:\n\
//!      - city: string, required. City name, e.g. \"Paris\"\n\
//!      - unit: string, optional. Temperature unit. Allowed values: celsius, fahrenheit. Default: celsius\n\
//!      - days: integer, optional. Days ahead\n\
//!      \n\
//!      Forecasts beyond five days are unreliable."
//! );
//! assert_eq!(
//!     weather.detailed_description(Locale::ZhHans).lines().nth(2),
//!     Some("- unit：string，可选。Temperature unit. 可选值：celsius、fahrenheit。 默认值：celsius。")
//! );
//! let definition = weather.llm_definition(Dialect::OpenAiChat, Locale::En)?;
//! assert_eq!(definition["function"]["parameters"]["required"], serde_json::json!(["city"]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is rendered when
//!
//! When every parameter has a standard type (strings, integers, floats, `bool`, `Option`,
//! sequences, string-keyed maps and `serde_json` values, however nested) and `enum`/`default` are
//! literals, `#[tool]` renders the schema and both locales' texts itself and embeds them as
//! `&'static str` data. A parameter of any other type (your own structs and enums deriving
//! [`schemars::JsonSchema`] and [`serde::Deserialize`], type aliases) is described by schemars when
//! a registry is built, once; so is the output schema of a [`Json<T>`] return. Both paths share
//! one implementation of the rules, which [`ToolSpec::builder`] also runs.
//!
//! # Crate map
//!
//! - [`ToolSpec`], [`ToolSpecBuilder`], [`ToolParameterInfo`]: the tool model and the run-time builder.
//! - [`Dialect`]: definitions for OpenAI (chat, responses, strict), Anthropic, Gemini and MCP.
//! - [`ToolInvocation`], [`ToolExecutionContext`], [`ToolExecutionResult`], [`ToolOutput`],
//!   [`ToolContentItem`]: calls and results.
//! - [`ActionInfo`], [`ToolSpec::from_action`]: legacy actions.
//! - [`args`]: how a model's arguments are decoded, and the errors it reports.
//! - [`Interaction`], [`Progress`], [`Elicitation`], [`SamplingRequest`]: what a running tool can do
//!   with its caller (see the [long-running tools guide](guides::long_running_tools)).
//!
//! # Dependencies of a plugin crate
//!
//! A crate whose tools use only std and `serde_json` types depends on `toolhook` alone. Its own
//! parameter types derive through the re-exports:
//!
//! ```
//! use toolhook::{schemars, serde};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! #[serde(crate = "toolhook::serde")]
//! #[schemars(crate = "toolhook::schemars")]
//! struct Filter {
//!     /// Field to match.
//!     field: String,
//! }
//! ```
//!
//! # Key order, and why `serde_json`'s `preserve_order` is on
//!
//! `toolhook` turns on `serde_json`'s `preserve_order` feature (and schemars'), and Cargo's
//! feature unification turns it on for every crate of the build: their `serde_json::Map`s keep
//! insertion order (an `IndexMap`) instead of sorting their keys (a `BTreeMap`). It stays on
//! because order is part of what toolhook promises:
//!
//! - A schema lists parameters in the order the author wrote them, and models fill arguments in
//!   schema order: a `reasoning` parameter written before `answer` is produced before it.
//!   Sorted, every tool's parameters would be alphabetical.
//! - Definitions, parameter docs and results are byte-stable texts, which hosts cache, diff and
//!   send to model APIs whose prompt caches key on exact bytes; hook arguments and metadata come
//!   back in the order the host sent them.
//!
//! Keeping the order without the feature would mean toolhook's own map and value types in every
//! public signature (schemas, hook arguments, metadata, results) instead of `serde_json`'s, which
//! every host and plugin already uses. A host whose own code needs sorted keys can sort them
//! (`map.sort_keys()`), or collect into a `BTreeMap`.
//!
//! ```
//! use toolhook::{ToolParamType, ToolParameterInfo, ToolSpec};
//!
//! let spec = ToolSpec::builder("answer")
//!     .parameters(vec![
//!         ToolParameterInfo::new("reasoning", ToolParamType::String),
//!         ToolParameterInfo::new("answer", ToolParamType::String),
//!     ])
//!     .build()?;
//! let properties = spec.parameters_schema()["properties"].as_object().unwrap();
//! assert_eq!(properties.keys().collect::<Vec<_>>(), ["reasoning", "answer"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Exact numbers, and why `serde_json`'s `float_roundtrip` is on
//!
//! `toolhook` also turns on `serde_json`'s `float_roundtrip` feature, for every crate of the
//! build in the same way. Without it, `serde_json` reads some floats one unit in the last place
//! off. With it, a number written as JSON reads back as the same `f64`. This covers a model's
//! arguments, and a schema's defaults and bounds. A schema's text that `#[tool]` rendered at
//! compile time is then the same bytes as the schema a registry parses from it, so the
//! definitions' JSON text can copy it unparsed. The price is slower float parsing, about 2×
//! for floats alone.
//!
//! ```
//! let text = "6.785721717737062e-143";
//! let value: serde_json::Value = serde_json::from_str(text)?;
//! assert_eq!(value.to_string(), text);
//! # Ok::<(), serde_json::Error>(())
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[path = "shared/mod.rs"]
mod shared;

mod annotation;
pub mod args;
mod content;
mod context;
mod dialect;
mod error;
pub mod guides;
mod hook_registration;
pub mod hooks;
mod icon;
mod interaction;
mod invocation;
mod output;
mod plugin;
mod plugin_registration;
mod registration;
mod result;
mod result_metadata;
mod rust_schema;
mod spec;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The items the macros name to warn, at the path their warnings show.
#[doc(hidden)]
#[allow(deprecated)]
pub use __private::{legacy_action, undocumented_parameter, undocumented_tool};

pub use annotation::ToolAnnotation;
pub use content::{ContentType, ToolContentItem};
pub use context::{Phase, ToolAvailabilityContext, ToolExecutionContext};
pub use dialect::{Dialect, ParseDialectError, ProjectionError};
pub use error::ToolError;
pub use hook_registration::DeclaredHookHandler;
pub use icon::ToolIcon;
pub use interaction::{
    Capabilities, Elicitation, ElicitationAction, ElicitationReply, InputKind, Interaction, InteractionError,
    InteractionHandle, LogLevel, Progress, Role, Root, RootsRequest, SamplingMessage, SamplingReply, SamplingRequest,
};
pub use invocation::{ToolArguments, ToolInvocation};
pub use output::{IntoToolResult, Json, ToolOutput};
pub use plugin::{ConfigScope, LegacyActionContext, PluginContext, Services};
pub use registration::{DeclaredTool, ToolKind};
pub use result::ToolExecutionResult;
pub use result_metadata::{ResultMetadata, ResultMetadataIter, SharedEntries};
pub use shared::access::{ChatScope, ParseAccessError, PermissionLevel};
pub use shared::action::{ActionInfo, ActivationType, ChatMode};
pub use shared::error::ToolSpecError;
pub use shared::locale::{Locale, ParseLocaleError};
pub use shared::param::{ToolParamType, ToolParameterInfo};
pub use shared::visibility::{ParseVisibilityError, Visibility};
pub use spec::{ToolSpec, ToolSpecBuilder};

pub use toolhook_macros::{action, command, hook_handler, plugin, tool, workflow_step};

/// Re-exported so plugin crates can derive `JsonSchema` without depending on schemars
/// (`#[schemars(crate = "toolhook::schemars")]`).
pub use schemars;
/// Re-exported so plugin crates can derive `Deserialize` without depending on serde
/// (`#[serde(crate = "toolhook::serde")]`).
pub use serde;
/// Re-exported so plugin crates can name `serde_json::Value` (hook arguments, config documents,
/// untyped parameters) without depending on serde_json.
pub use serde_json;

/// A boxed, `Send` future: what providers and generated invokers return.
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// The examples of the `#[tool]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/tool.md")]
pub struct ToolMacroDoctests;

/// The examples of the `#[plugin]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/plugin.md")]
pub struct PluginMacroDoctests;

/// The examples of the `#[action]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/action.md")]
pub struct ActionMacroDoctests;

/// The examples of the `#[command]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/command.md")]
pub struct CommandMacroDoctests;

/// The examples of the `#[hook_handler]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/hook_handler.md")]
pub struct HookHandlerMacroDoctests;

/// The examples of the `#[workflow_step]` reference, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../sdk-macros/docs/workflow_step.md")]
pub struct WorkflowStepMacroDoctests;
