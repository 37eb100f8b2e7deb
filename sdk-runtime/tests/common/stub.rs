//! A scripted tool provider for the registry tests (included with `#[path]` by the tests that
//! need it): fixed specs, and one function answering every call.

use std::future::Future;
use std::sync::Arc;
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec,
};
use toolhook_runtime::ToolProvider;

/// What a [`Stub`] answers every call with.
type Answer = Arc<dyn Fn(ToolInvocation) -> BoxFuture<'static, Result<ToolExecutionResult, ToolError>> + Send + Sync>;

/// A provider listing fixed specs and answering every call with one function.
pub(crate) struct Stub {
    name: &'static str,
    kind: &'static str,
    specs: Vec<ToolSpec>,
    answer: Answer,
}

impl Stub {
    /// A provider whose calls succeed with `{provider} ran {tool}`.
    pub(crate) fn new(name: &'static str, kind: &'static str, specs: impl IntoIterator<Item = ToolSpec>) -> Self {
        Self::answering(name, kind, specs, move |call| async move {
            let content = format!("{name} ran {}", call.tool_name);
            Ok(ToolExecutionResult::success(call.tool_name, content))
        })
    }

    pub(crate) fn answering<F, Fut>(
        name: &'static str,
        kind: &'static str,
        specs: impl IntoIterator<Item = ToolSpec>,
        answer: F,
    ) -> Self
    where
        F: Fn(ToolInvocation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, ToolError>> + Send + 'static,
    {
        let answer: Answer = Arc::new(move |call| Box::pin(answer(call)));
        Stub { name, kind, specs: specs.into_iter().collect(), answer }
    }
}

impl ToolProvider for Stub {
    fn provider_name(&self) -> &str {
        self.name
    }
    fn provider_type(&self) -> &str {
        self.kind
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        Box::pin(std::future::ready(Ok(self.specs.clone())))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        (self.answer)(call)
    }
}
