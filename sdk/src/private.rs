//! Support for the code `toolhook-macros` generates. Not a public API: everything here may change
//! in any release.
//!
//! Generated code names everything through `::toolhook::__private`, so a plugin crate needs no
//! direct `serde`, `schemars` or `inventory` dependency.

pub use crate::args;
pub use crate::output::Structured;
pub use crate::registration::{
    AsyncInvoker, Invoker, PluginInstance, ReadyInvoker, SyncInvoker, ToolKind, ToolRegistration,
};
pub use crate::rust_schema::{RustParam, SchemaCx, ValueCheck, array_of, compose, map_of, static_schema};
pub use inventory;
pub use schemars;
pub use serde;
pub use serde_json;

use crate::{IntoToolResult, Locale, SharedEntries, ToolExecutionContext, ToolExecutionResult};

/// The execution context a tool asked for, or an empty one when the call has none.
pub fn context_or_default(ctx: Option<&ToolExecutionContext>) -> std::borrow::Cow<'_, ToolExecutionContext> {
    match ctx {
        Some(ctx) => std::borrow::Cow::Borrowed(ctx),
        None => std::borrow::Cow::Owned(ToolExecutionContext::default()),
    }
}

/// Converts a tool's return value (already wrapped by the macro where needed), naming its
/// origin (the plugin's `plugin_id` entry) when the caller gives one.
#[inline]
pub fn into_result<R: IntoToolResult>(value: R, locale: Locale, origin: Option<SharedEntries>) -> ToolExecutionResult {
    let mut result = value.into_tool_result(locale);
    if let Some(origin) = origin {
        result.metadata.share(origin);
    }
    result
}

/// Runs the future of an `async fn` tool whose body can never wait (`#[tool]` found no `.await`
/// in it, and no macro that could expand to one) to its end, in one poll, on the caller's stack.
/// A future that waits all the same (a standard macro's name taken by one that awaits) is
/// cancelled, and the call fails saying so.
#[inline]
pub fn run_ready<F: std::future::Future>(future: F) -> Result<F::Output, crate::ToolError> {
    poll_once(future).ok_or_else(|| {
        crate::ToolError::new(
            "Internal",
            "the tool waited although its body has no `.await`: a macro it uses expands to one; report it to toolhook",
        )
    })
}

/// [`run_ready`] for a blocking `#[hook_handler]` whose body can never wait.
pub fn run_hook_ready<F: std::future::Future>(future: F) -> Result<F::Output, crate::hooks::HookHandlerError> {
    poll_once(future).ok_or_else(|| {
        crate::hooks::HookHandlerError::Failed(
            "the handler waited although its body has no `.await`: a macro it uses expands to one; report it to toolhook"
                .to_owned(),
        )
    })
}

/// Polls a future once, on the caller's stack, with a waker that does nothing; `None` (the
/// future dropped) when it did not finish.
#[inline]
fn poll_once<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(output) => Some(output),
        std::task::Poll::Pending => None,
    }
}

/// Names a tool's result after the call, with the call's own name: no copy of it is made.
#[inline]
pub fn named(mut result: ToolExecutionResult, tool_name: String) -> ToolExecutionResult {
    result.tool_name = tool_name;
    result
}

/// The output schema of a `Json<T>` return type.
pub fn output_schema<T: schemars::JsonSchema>(cx: &mut SchemaCx) -> serde_json::Value {
    cx.schema::<T>()
}

/// Checks that a JSON value deserialises into `T` (`default` and `enum` values of types the macro
/// could not check).
pub fn check_value<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<(), String> {
    serde_json::from_value::<T>(value.clone()).map(drop).map_err(|e| e.to_string())
}

// ---- parameters of types the macro does not know --------------------------------------------
//
// Such a type `T` needs `JsonSchema` and `Deserialize`. Each parameter is checked once, at its
// type: `assert_parameter` asks for `JsonSchema`; only when that holds does
// `Needs::check_parameter` ask for `Deserialize` (so a type without either derive gets one
// error), and only when both hold does `Needs::check_whole` ask for the whole parameter type's
// `Deserialize` (`HashSet<T>` also needs `T: Eq + Hash`). Every other use of the type goes through a `Probe` that takes the type's impls
// when it has them and a stand-in otherwise, so it repeats none of these errors; a stand-in never
// runs, as the check has failed the build.

/// Carries the first bound a parameter of a type the macro does not know must meet.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: derive `schemars::JsonSchema` and `serde::Deserialize` for it",
    label = "this type needs `JsonSchema` and `Deserialize`",
    note = "derive them through the re-exports: #[derive(toolhook::schemars::JsonSchema, toolhook::serde::Deserialize)] with #[serde(crate = \"toolhook::serde\")] and #[schemars(crate = \"toolhook::schemars\")]"
)]
pub trait ToolParameter {}

impl<T: schemars::JsonSchema> ToolParameter for T {}

/// Asserts at compile time that `T` has a schema (spanned at the parameter's type).
pub const fn assert_parameter<T: ToolParameter>() {}

/// Carries the second bound, asked for only when the first holds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: derive `schemars::JsonSchema` and `serde::Deserialize` for it",
    label = "this type needs `JsonSchema` and `Deserialize`",
    note = "derive them through the re-exports: #[derive(toolhook::schemars::JsonSchema, toolhook::serde::Deserialize)] with #[serde(crate = \"toolhook::serde\")] and #[schemars(crate = \"toolhook::schemars\")]"
)]
pub trait DecodableParameter {}

impl<T: serde::de::DeserializeOwned> DecodableParameter for T {}

/// Carries the bound on a whole parameter type around a type the macro does not know.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it does not implement `serde::Deserialize`",
    label = "the model's arguments cannot be read into this type"
)]
pub trait DecodableWhole {}

impl<T: serde::de::DeserializeOwned> DecodableWhole for T {}

/// What a probe passes on when the earlier checks hold: `T` is checked next.
#[derive(Debug)]
pub struct Needs<T>(std::marker::PhantomData<fn() -> T>);

impl<T> Needs<T> {
    /// Asserts that the parameter type `T` deserialises.
    pub fn check_parameter(self)
    where
        T: DecodableParameter,
    {
    }

    /// Asserts that the whole parameter type `T` deserialises.
    pub fn check_whole(self)
    where
        T: DecodableWhole,
    {
    }
}

/// What a probe passes on when an earlier check has failed: nothing more to require.
#[derive(Debug)]
pub struct Reported;

impl Reported {
    /// Nothing to check.
    pub fn check_parameter(self) {}

    /// Nothing to check.
    pub fn check_whole(self) {}
}

/// Picks by autoref what generated code does with a type: `Probe::<T>::new()` then one of the
/// methods below, `(&probe).method()`, with the traits imported `as _`.
#[derive(Debug)]
pub struct Probe<T: ?Sized>(std::marker::PhantomData<fn() -> T>);

impl<T: ?Sized> Probe<T> {
    /// The probe.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Probe(std::marker::PhantomData)
    }
}

/// Chosen when `T` has a schema.
pub trait SchemaProbe<T> {
    /// `T`'s schema.
    fn schema_fn(&self) -> fn(&mut SchemaCx) -> serde_json::Value;
    /// Passes `T` on to [`Needs::check_parameter`].
    fn after_schema(&self) -> Needs<T>;
}

impl<T: schemars::JsonSchema> SchemaProbe<T> for Probe<T> {
    fn schema_fn(&self) -> fn(&mut SchemaCx) -> serde_json::Value {
        SchemaCx::schema::<T>
    }
    fn after_schema(&self) -> Needs<T> {
        Needs(std::marker::PhantomData)
    }
}

/// Chosen otherwise.
pub trait NoSchemaProbe {
    /// A stand-in.
    fn schema_fn(&self) -> fn(&mut SchemaCx) -> serde_json::Value;
    /// Nothing more to check.
    fn after_schema(&self) -> Reported;
}

impl<T: ?Sized> NoSchemaProbe for &Probe<T> {
    fn schema_fn(&self) -> fn(&mut SchemaCx) -> serde_json::Value {
        |_| serde_json::Value::Null
    }
    fn after_schema(&self) -> Reported {
        Reported
    }
}

/// Chosen when `T` deserialises.
pub trait DecodeProbe<T> {
    /// How a `Plain<T>` is read.
    fn plain_decoder(&self) -> args::PlainDecode<T>;
    /// Checks `default` and `enum` values.
    fn value_check(&self) -> ValueCheck;
}

impl<T: serde::de::DeserializeOwned> DecodeProbe<T> for Probe<T> {
    fn plain_decoder(&self) -> args::PlainDecode<T> {
        args::plain_decode::<T>
    }
    fn value_check(&self) -> ValueCheck {
        check_value::<T>
    }
}

/// Chosen otherwise.
pub trait NoDecodeProbe<T> {
    /// A stand-in.
    fn plain_decoder(&self) -> args::PlainDecode<T>;
    /// A stand-in.
    fn value_check(&self) -> ValueCheck;
}

impl<T> NoDecodeProbe<T> for &Probe<T> {
    fn plain_decoder(&self) -> args::PlainDecode<T> {
        |_| {
            Err(args::PlainError {
                path: String::new(),
                message: "this parameter cannot be decoded".to_owned(),
                got: String::new(),
            })
        }
    }
    fn value_check(&self) -> ValueCheck {
        |_| Err("this parameter cannot be decoded".to_owned())
    }
}

/// Chosen when the leaf type `L` of a parameter has a schema and deserialises (`Probe<(L, W)>`).
pub trait LeafProbe<W> {
    /// Passes the whole type `W` on to [`Needs::check_whole`].
    fn after_leaf(&self) -> Needs<W>;
}

impl<L: schemars::JsonSchema + serde::de::DeserializeOwned, W> LeafProbe<W> for Probe<(L, W)> {
    fn after_leaf(&self) -> Needs<W> {
        Needs(std::marker::PhantomData)
    }
}

/// Chosen otherwise.
pub trait NoLeafProbe {
    /// Nothing more to check.
    fn after_leaf(&self) -> Reported;
}

impl<T> NoLeafProbe for &Probe<T> {
    fn after_leaf(&self) -> Reported {
        Reported
    }
}

// ---- compile-time warnings ------------------------------------------------------------------
//
// A proc macro cannot warn on stable Rust; naming a deprecated item can. The macros name these
// from a hidden `const`, spanned at what the warning is about. The crate root re-exports them
// (hidden) so that the warning shows `toolhook::…` rather than this module.

/// Named for a `#[tool]` without a description.
#[deprecated(
    note = "this tool has no description, and the model reads one to decide when to call it: write a doc comment on the fn, or `#[tool(description = \"…\")]`"
)]
pub const fn undocumented_tool() {}

/// Named for a `#[tool]` parameter without a description.
#[deprecated(
    note = "this parameter has no description, and the model reads one to know what to pass: write a doc comment on the parameter, or `#[param(description = \"…\")]`"
)]
pub const fn undocumented_parameter() {}

/// Asserts at compile time that an async tool's future is `Send`.
pub fn assert_send<F: std::future::Future + Send>(future: F) -> F {
    future
}

/// Python's `str()` of a JSON value, for the runtime's history texts.
pub fn py_str(value: &serde_json::Value) -> String {
    crate::shared::py::py_str(value)
}

/// JSON truthiness as Python reads it.
pub fn is_truthy(value: &serde_json::Value) -> bool {
    crate::shared::py::is_truthy(value)
}

// ---- #[hook_handler] ------------------------------------------------------------------------

pub use crate::hook_registration::{HookHandlerFn, HookHandlerRegistration, ReadyHookHandlerFn};
pub use crate::hooks::handler::json_type;

use crate::hooks::{BlockingHookResult, HandlerOutcome, HookArgs, HookHandlerError, ObserveHookResult};

/// Carries the bound every typed hook payload must meet.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a hook payload; it must implement serde::Serialize and serde::de::DeserializeOwned",
    label = "not a hook payload",
    note = "take `HookArgs` for the raw arguments, or derive them through the re-exports: #[derive(toolhook::serde::Serialize, toolhook::serde::Deserialize)] with #[serde(crate = \"toolhook::serde\")]; the type must also be Send + 'static"
)]
pub trait HookPayload: serde::Serialize + serde::de::DeserializeOwned + Send + 'static {}

impl<T: serde::Serialize + serde::de::DeserializeOwned + Send + 'static> HookPayload for T {}

/// Asserts at compile time that `P` can be a hook payload (spanned at the parameter's type).
pub const fn assert_hook_payload<P: HookPayload>() {}

/// Decodes a typed handler's payload from the arguments.
pub fn hook_payload<P: HookPayload>(args: HookArgs) -> Result<P, HookHandlerError> {
    args.into_payload::<P>().map_err(HookHandlerError::InvalidPayload)
}

/// Converts a blocking handler's return value (spanned at the return type).
pub fn blocking_outcome<R: BlockingHookResult>(value: R) -> Result<HandlerOutcome, HookHandlerError> {
    value.into_handler_outcome()
}

/// Converts an observe handler's return value (spanned at the return type).
pub fn observe_outcome<R: ObserveHookResult>(value: R) -> Result<HandlerOutcome, HookHandlerError> {
    value.into_observe_result().map(|()| HandlerOutcome::proceed())
}

/// The failure of a method handler called without its plugin's instance.
pub fn hook_plugin_not_loaded(plugin_id: &str) -> HookHandlerError {
    HookHandlerError::PluginNotLoaded(plugin_id.to_owned())
}

/// Picks a typed payload's schema by autoref: [`PayloadSchemaOf`] for `P: JsonSchema`, else
/// [`NoPayloadSchema`] (`(&PayloadSchema::<P>::new()).payload_schema()` in generated code).
#[derive(Debug)]
pub struct PayloadSchema<P>(std::marker::PhantomData<fn() -> P>);

impl<P> PayloadSchema<P> {
    /// The probe.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        PayloadSchema(std::marker::PhantomData)
    }
}

/// Chosen when the payload type implements `JsonSchema`.
pub trait PayloadSchemaOf {
    /// The cleaned schema of the payload type.
    fn payload_schema(&self) -> Option<serde_json::Value>;
}

impl<P: schemars::JsonSchema> PayloadSchemaOf for PayloadSchema<P> {
    fn payload_schema(&self) -> Option<serde_json::Value> {
        Some(crate::hook_registration::schema_of::<P>())
    }
}

/// Chosen otherwise: no schema.
pub trait NoPayloadSchema {
    /// `None`.
    fn payload_schema(&self) -> Option<serde_json::Value>;
}

impl<P> NoPayloadSchema for &PayloadSchema<P> {
    fn payload_schema(&self) -> Option<serde_json::Value> {
        None
    }
}

// ---- #[plugin], #[action], #[command] -------------------------------------------------------

pub use crate::plugin_registration::*;

/// The component attributes, glob-imported beside a `#[plugin]` impl block. The attributes
/// `#[plugin]` handles stay on their methods, marked as handled, and must resolve: through the
/// user's own import when there is one (it shadows the glob, and is used), else through this.
pub mod component_attributes {
    pub use crate::{action, command, hook_handler, tool};
}

/// The catalogue hooks a handler may not abort: they fire after the fact, or where stopping
/// would leave the host without a request or a reply.
const NOT_ABORTABLE: [&str; 8] = [
    crate::hooks::CHAT_COMMAND_AFTER_EXECUTE,
    crate::hooks::SEND_SERVICE_AFTER_SEND,
    crate::hooks::MAISAKA_PLANNER_BEFORE_REQUEST,
    crate::hooks::MAISAKA_PLANNER_AFTER_RESPONSE,
    crate::hooks::MAISAKA_REPLYER_BEFORE_REQUEST,
    crate::hooks::MAISAKA_REPLYER_BEFORE_MODEL_REQUEST,
    crate::hooks::MAISAKA_REPLYER_AFTER_RESPONSE,
    crate::hooks::MAISAKA_REPLY_BEFORE_POST_PROCESS,
];

/// Whether two strings are equal, in const context (the macros' compile-time checks).
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn listed(list: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `name` is a hook of the built-in catalogue (a `#[hook_handler]` naming its hook by a
/// constant is checked with this at compile time).
pub const fn is_catalogue_hook(name: &str) -> bool {
    listed(&crate::hooks::ALL, name)
}

/// Whether handlers of this hook may abort it; hooks outside the catalogue are the host's to say.
pub const fn hook_allows_abort(name: &str) -> bool {
    !listed(&NOT_ABORTABLE, name)
}

/// Implemented by the catalogue's typed payloads: the hook each belongs to, for the compile-time
/// check that a handler takes the payload of the hook it subscribes to.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is named like a catalogue payload but is not one",
    note = "a handler parameter named like a `toolhook::hooks` payload struct is taken for one; rename your type"
)]
pub trait CataloguePayload {
    /// The hook name.
    const HOOK: &'static str;
}

macro_rules! catalogue_payloads {
    ($($ty:ident),* $(,)?) => {
        $(impl CataloguePayload for crate::hooks::payload::$ty {
            const HOOK: &'static str = crate::hooks::payload::$ty::HOOK;
        })*
    };
}

catalogue_payloads!(
    ChatReceiveBeforeProcess,
    ChatReceiveAfterProcess,
    ChatCommandBeforeExecute,
    ChatCommandAfterExecute,
    EmojiMaisakaBeforeSelect,
    EmojiMaisakaAfterSelect,
    EmojiRegisterAfterBuildDescription,
    JargonExtractBeforePersist,
    JargonInferenceBeforeFinalize,
    ExpressionSelectBeforeSelect,
    ExpressionSelectAfterSelection,
    ExpressionLearnAfterExtract,
    ExpressionLearnBeforeUpsert,
    SendServiceAfterBuildMessage,
    SendServiceBeforeSend,
    SendServiceAfterSend,
    MaisakaPlannerBeforeRequest,
    MaisakaPlannerAfterResponse,
    MaisakaReplyerBeforeRequest,
    MaisakaReplyerBeforeModelRequest,
    MaisakaReplyerAfterResponse,
    MaisakaReplyBeforePostProcess,
);

pub use crate::plugin::{attach_context, context_at, detach_context};
