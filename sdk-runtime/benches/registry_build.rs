//! Building a registry over 10,000 tools (register the provider, then the first lookup, which
//! lists and names every tool) against a plain map of the same specs by name, in the same run
//! (compare the medians; goal ≤ 2×).
//!
//! `cargo bench -p toolhook-runtime --bench registry_build`

use divan::{Bencher, black_box};
use std::collections::HashMap;
use toolhook::ToolSpec;
use toolhook_runtime::ToolRegistry;

#[path = "common/many.rs"]
mod many;

use many::{Many, spec};

fn main() {
    divan::main();
}

const TOOLS: usize = 10_000;

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
