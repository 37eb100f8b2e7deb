//! What `#[tool]` registers through `inventory`, and the list of declared tools.

use crate::{
    BoxFuture, Locale, SharedEntries, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
    ToolSpecError,
};
use std::any::Any;
use std::sync::Arc;

/// The plugin instance a method tool runs against (`None` for free fns).
pub type PluginInstance = Option<Arc<dyn Any + Send + Sync>>;

/// Calls an `async fn` tool; the result shares the given entry (its plugin's `plugin_id`).
pub type AsyncInvoker = for<'a> fn(
    PluginInstance,
    ToolInvocation,
    Option<&'a ToolExecutionContext>,
    Locale,
    Option<SharedEntries>,
) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>>;

/// Calls a plain `fn` tool; the result shares the given entry (its plugin's `plugin_id`).
pub type SyncInvoker = fn(
    PluginInstance,
    ToolInvocation,
    Option<ToolExecutionContext>,
    Locale,
    Option<SharedEntries>,
) -> Result<ToolExecutionResult, ToolError>;

/// Runs an `async fn` tool whose body can never wait (no `.await` in it) to its end in place,
/// in one poll; the result shares the given entry (its plugin's `plugin_id`).
pub type ReadyInvoker = for<'a> fn(
    PluginInstance,
    ToolInvocation,
    Option<&'a ToolExecutionContext>,
    Locale,
    Option<SharedEntries>,
) -> Result<ToolExecutionResult, ToolError>;

/// How the runtime calls a tool: an async fn is polled; a sync fn runs on a blocking thread.
#[derive(Clone, Copy, Debug)]
pub enum Invoker {
    /// An `async fn` tool.
    Async(AsyncInvoker),
    /// A plain `fn` tool.
    Sync(SyncInvoker),
}

/// A `#[tool]` or a legacy `#[action]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolKind {
    /// Declared with `#[tool]`.
    Tool,
    /// Declared with the deprecated `#[action]`.
    LegacyAction,
}

/// One declared tool, as `#[tool]` submits it to `inventory`.
#[derive(Debug)]
pub struct ToolRegistration {
    /// The tool's name.
    pub name: &'static str,
    /// The plugin it belongs to: a `#[plugin]` id, or the package name for free fns.
    pub plugin_id: &'static str,
    /// The declaring package's name (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// The declaring package's version.
    pub package_version: &'static str,
    /// Whether it is a method of a `#[plugin]` type (needs the plugin instance).
    pub is_method: bool,
    /// Tool or legacy action.
    pub kind: ToolKind,
    /// Declared parameters the runtime fills from the context when the model leaves them empty.
    pub context_params: &'static [&'static str],
    /// Builds the spec (from compile-time data, or composed with run-time schemas).
    pub compose: fn() -> Result<ToolSpec, ToolSpecError>,
    /// Calls the tool.
    pub invoker: Invoker,
    /// Runs an `async fn` tool whose body can never wait to its end in place, without boxing its
    /// future (what [`invoker`](Self::invoker) does in one poll); `None` for any other tool.
    pub ready: Option<ReadyInvoker>,
    /// Where it was declared (`file:line`), for diagnostics.
    pub location: &'static str,
}

inventory::collect!(ToolRegistration);

/// A tool declared with `#[tool]` somewhere in the program.
///
/// Hosts collect tools through `toolhook-runtime`; this is the plain list, for tests, docs
/// generators and the like.
///
/// ```
/// use toolhook::{DeclaredTool, tool};
///
/// /// Say hello.
/// #[tool]
/// fn hello(
///     /// Who to greet.
///     name: String,
/// ) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "hello").unwrap();
/// assert_eq!(tool.spec()?.description(toolhook::Locale::En), "Say hello.");
/// # Ok::<(), toolhook::ToolSpecError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DeclaredTool {
    registration: &'static ToolRegistration,
}

impl DeclaredTool {
    /// Every tool linked into the program, sorted by name (then plugin id, for a name declared
    /// twice).
    pub fn all() -> Vec<DeclaredTool> {
        let mut all: Vec<DeclaredTool> =
            inventory::iter::<ToolRegistration>.into_iter().map(|registration| DeclaredTool { registration }).collect();
        all.sort_by_key(|t| (t.registration.name, t.registration.plugin_id));
        all
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.registration.name
    }

    /// The plugin it belongs to.
    pub fn plugin_id(&self) -> &'static str {
        self.registration.plugin_id
    }

    /// Tool or legacy action.
    pub fn kind(&self) -> ToolKind {
        self.registration.kind
    }

    /// Builds its spec (compile-time data, or schemas composed now for user types).
    pub fn spec(&self) -> Result<ToolSpec, ToolSpecError> {
        (self.registration.compose)()
    }

    /// The registration itself.
    #[doc(hidden)]
    pub fn registration(&self) -> &'static ToolRegistration {
        self.registration
    }
}
