//! What the registry benches share: a context-free provider over many tools, and the specs it
//! serves (included with `#[path]` by each bench that needs it).

use std::sync::Arc;
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolParamType, ToolParameterInfo, ToolSpec,
};
use toolhook_runtime::{ContextParts, ToolProvider};

/// A provider over shared specs, context-free.
pub(crate) struct Many(pub(crate) Arc<[ToolSpec]>);

/// The `i`th tool: two parameters, visible.
pub(crate) fn spec(i: usize) -> ToolSpec {
    ToolSpec::builder(format!("tool_{i:05}"))
        .brief_description(format!("Tool number {i}"))
        .parameters(vec![
            ToolParameterInfo::new("query", ToolParamType::String).description("What to look for"),
            ToolParameterInfo::new("limit", ToolParamType::Integer).default(5).required(false),
        ])
        .core_tool(true)
        .build()
        .expect("a valid spec")
}

impl ToolProvider for Many {
    fn provider_name(&self) -> &str {
        "many"
    }
    fn provider_type(&self) -> &str {
        "bench"
    }
    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::NONE
    }
    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        Box::pin(std::future::ready(Ok(self.0.to_vec())))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "ok"))))
    }
}
