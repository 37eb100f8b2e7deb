//! One tool call through the registry against the same call written by hand, in the same run
//! (compare the medians; absolute times depend on the machine).
//!
//! - `hand_written` (the baseline): `serde_json::from_str` of `{"city":"Paris","days":3}` into a
//!   struct, a direct call of the fn, `serde_json::to_value` of its output.
//! - `registry_invoke`: the same fn as a `#[tool]`, called by name through a
//!   [`ToolRegistry`] from the same text (goal ≤ 1.3× the baseline).
//! - `registry_invoke_in_context`: the same with an execution context, as a host calls it.
//!
//! Every figure includes one `block_on` of a current-thread runtime. Each sample times 100 calls,
//! so that the clock's resolution does not blur sub-microsecond figures.
//!
//! `cargo bench -p toolhook-runtime --bench invoke`

use divan::{Bencher, black_box};
use toolhook::{ToolExecutionContext, ToolInvocation};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

fn main() {
    divan::main();
}

#[path = "common/weather.rs"]
mod weather;

use weather::{ARGS, runtime};

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

#[divan::bench(sample_size = 100)]
fn hand_written(b: Bencher<'_, '_>) {
    weather::hand_written(b);
}

#[divan::bench(sample_size = 100)]
fn registry_invoke(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    let first = rt.block_on(registry.invoke(ToolInvocation::new("weather", ARGS), None));
    assert_eq!(first.content, "Paris: sunny for 3 days");
    b.bench_local(|| rt.block_on(registry.invoke(ToolInvocation::new("weather", black_box(ARGS)), None)));
}

#[divan::bench(sample_size = 100)]
fn registry_invoke_in_context(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    let ctx = ToolExecutionContext { session_id: "s1".into(), platform: "qq".into(), ..Default::default() };
    b.bench_local(|| rt.block_on(registry.invoke(ToolInvocation::new("weather", black_box(ARGS)), Some(&ctx))));
}
