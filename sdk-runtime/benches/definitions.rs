//! The definitions of 1,000 tools as the JSON text a model API receives, against a deep clone of
//! the same definitions as values, in the same run (compare the medians; goal ≤ 0.02×).
//!
//! A host sends the same definitions on every model request while its tools do not change; the
//! deep clone is what keeping them as values and handing each request its own copy costs.
//!
//! `cargo bench -p toolhook-runtime --bench definitions`

use divan::{Bencher, black_box};
use serde_json::Value;
use toolhook::{
    BoxFuture, Dialect, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolParamType, ToolParameterInfo, ToolSpec,
};
use toolhook_runtime::{ContextParts, ToolProvider, ToolRegistry};

fn main() {
    divan::main();
}

const TOOLS: usize = 1000;

/// A provider serving `TOOLS` tools, context-free.
struct Many(Vec<ToolSpec>);

fn spec(i: usize) -> ToolSpec {
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
        Box::pin(std::future::ready(Ok(self.0.clone())))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(std::future::ready(Ok(ToolExecutionResult::success(call.tool_name, "ok"))))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(Many((0..TOOLS).map(spec).collect()));
    registry
}

/// The definitions as the JSON text a model API receives.
async fn definitions_json(registry: &ToolRegistry) -> impl AsRef<str> {
    registry.llm_definitions_json(None, Dialect::OpenAiChat).await
}

#[divan::bench]
fn baseline_deep_clone(b: Bencher<'_, '_>) {
    let rt = runtime();
    let definitions: Vec<Value> = rt.block_on(registry().get_llm_definitions(None, Dialect::OpenAiChat));
    assert_eq!(definitions.len(), TOOLS);
    b.bench_local(|| black_box(&definitions).clone());
}

#[divan::bench]
fn registry_json(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    assert!(rt.block_on(definitions_json(&registry)).as_ref().starts_with("[{"));
    b.bench_local(|| rt.block_on(definitions_json(&registry)));
}
