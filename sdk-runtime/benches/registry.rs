//! Registry speed, each figure next to a baseline measured in the same run (compare the medians).
//!
//! - `invoke_three_params`: a `#[tool]` with three parameters called through the registry from
//!   JSON text, vs `serde_json::from_str` into the same struct + a direct call + serialising the
//!   output (goal ≤ 1.3×).
//! - `invoke_with_many_tools`: the same call with 1 vs 1,000 tools registered (goal ≤ 1.1×).
//! - `definitions_1000`: OpenAI definitions of 1,000 tools per call, vs building the same JSON by
//!   hand from the specs.
//!
//! Building a registry over 10,000 tools is `benches/registry_build.rs`.
//!
//! Run with `cargo bench -p toolhook-runtime --bench registry`.

use divan::{Bencher, black_box};
use serde_json::{Value, json};
use toolhook::{Dialect, Locale, ToolExecutionContext, ToolInvocation, ToolSpec, tool};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

#[path = "common/many.rs"]
mod many;

use many::{Many, spec};

fn main() {
    divan::main();
}

const ARGS: &str = r#"{"query": "rust async runtimes", "limit": 5, "exact": false}"#;

fn search_impl(query: &str, limit: u32, exact: bool) -> String {
    format!("{limit} results for {query}{}", if exact { " (exact)" } else { "" })
}

/// Search with three parameters.
#[tool(core_tool = true)]
async fn search3(
    /// Search keywords.
    query: String,
    /// Maximum number of results.
    limit: u32,
    /// Match the keywords exactly.
    exact: bool,
) -> String {
    search_impl(&query, limit, exact)
}

#[derive(serde::Deserialize)]
struct Args {
    query: String,
    limit: u32,
    exact: bool,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

mod invoke_three_params {
    use super::*;

    #[divan::bench]
    fn baseline_hand_written(b: Bencher<'_, '_>) {
        let rt = runtime();
        b.bench_local(|| {
            rt.block_on(async {
                let args: Args = serde_json::from_str(black_box(ARGS)).unwrap();
                let out = search_impl(&args.query, args.limit, args.exact);
                serde_json::to_string(&out).unwrap()
            })
        });
    }

    #[divan::bench]
    fn registry_invoke(b: Bencher<'_, '_>) {
        let rt = runtime();
        let registry = ToolRegistry::default();
        registry.register_provider(PluginToolProvider::from_declared());
        b.bench_local(|| {
            rt.block_on(async {
                let result = registry.invoke(ToolInvocation::new("search3", black_box(ARGS)), None).await;
                serde_json::to_string(&result.content).unwrap()
            })
        });
    }
}

/// A provider of `n` tools, `tool_00000` onwards.
fn many(n: usize) -> Many {
    Many((0..n).map(spec).collect())
}

mod invoke_with_many_tools {
    use super::*;

    fn bench(b: Bencher<'_, '_>, n: usize) {
        let rt = runtime();
        let registry = ToolRegistry::default();
        registry.register_provider(many(n));
        let ctx = ToolExecutionContext { session_id: "s".into(), platform: "qq".into(), ..Default::default() };
        b.bench_local(|| rt.block_on(registry.invoke(ToolInvocation::new("tool_00000", black_box(ARGS)), Some(&ctx))));
    }

    #[divan::bench]
    fn baseline_one_tool(b: Bencher<'_, '_>) {
        bench(b, 1);
    }

    #[divan::bench]
    fn thousand_tools(b: Bencher<'_, '_>) {
        bench(b, 1000);
    }
}

mod definitions_1000 {
    use super::*;

    #[divan::bench]
    fn baseline_by_hand(b: Bencher<'_, '_>) {
        let specs: Vec<ToolSpec> = (0..1000).map(spec).collect();
        b.bench_local(|| {
            specs
                .iter()
                .map(|s| {
                    json!({"type": "function", "function": {
                        "name": s.name(), "description": s.description(Locale::En), "parameters": s.parameters_schema().clone()}})
                })
                .collect::<Vec<Value>>()
        });
    }

    #[divan::bench]
    fn registry_definitions(b: Bencher<'_, '_>) {
        let rt = runtime();
        let registry = ToolRegistry::default();
        registry.register_provider(many(1000));
        b.bench_local(|| rt.block_on(registry.get_llm_definitions(None, Dialect::OpenAiChat)));
    }
}

/// What a `block_on` and a ready `timeout` cost on their own: every figure above includes one
/// `block_on`.
mod calibration {
    use super::*;

    #[divan::bench]
    fn block_on_empty(b: Bencher<'_, '_>) {
        let rt = runtime();
        b.bench_local(|| rt.block_on(async { black_box(1) }));
    }

    #[divan::bench]
    fn timeout_ready(b: Bencher<'_, '_>) {
        let rt = runtime();
        b.bench_local(|| {
            rt.block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(60), async { black_box(1) }).await
            })
        });
    }
}
