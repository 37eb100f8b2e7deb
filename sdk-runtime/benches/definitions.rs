//! The definitions of 1,000 tools as the JSON text a model API receives, against a deep clone of
//! the same definitions as values, in the same run (compare the medians; goal ≤ 0.02×).
//!
//! A host sends the same definitions on every model request while its tools do not change; the
//! deep clone is what keeping them as values and handing each request its own copy costs.
//!
//! `cargo bench -p toolhook-runtime --bench definitions`

use divan::{Bencher, black_box};
use serde_json::Value;
use toolhook::Dialect;
use toolhook_runtime::ToolRegistry;

#[path = "common/many.rs"]
mod many;

use many::{Many, spec};

fn main() {
    divan::main();
}

const TOOLS: usize = 1000;

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
