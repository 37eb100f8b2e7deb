//! Building a registry over 10,000 tools (register the provider, then the first lookup, which
//! lists and names every tool) against a plain map of the same specs by name, in the same run
//! (compare the medians; goal ≤ 2×).
//!
//! `cargo bench -p toolhook-runtime --bench registry_build`

use divan::{Bencher, black_box};
use std::collections::HashMap;
use toolhook::{
    BoxFuture, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolParamType, ToolParameterInfo, ToolSpec,
};
use toolhook_runtime::{ContextParts, ToolProvider, ToolRegistry};

fn main() {
    divan::main();
}

const TOOLS: usize = 10_000;

/// A provider over shared specs, context-free.
struct Many(std::sync::Arc<[ToolSpec]>);

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

fn specs() -> std::sync::Arc<[ToolSpec]> {
    (0..TOOLS).map(spec).collect()
}

#[divan::bench]
fn baseline_plain_map(b: Bencher<'_, '_>) {
    let specs = specs();
    b.bench_local(|| specs.iter().map(|s| (s.name().to_owned(), s.clone())).collect::<HashMap<String, ToolSpec>>());
}

#[divan::bench]
fn registry_build(b: Bencher<'_, '_>) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let specs = specs();
    b.bench_local(|| {
        let registry = ToolRegistry::default();
        registry.register_provider(Many(specs.clone()));
        assert!(rt.block_on(registry.has_tool(black_box("tool_09999"), None)));
        registry
    });
}
