//! One tool call through the registry against the same call written by hand, in the same run
//! (compare the medians; absolute times depend on the machine).
//!
//! - `hand_written` (the baseline): `serde_json::from_str` of `{"city":"Paris","days":3}` into a
//!   struct, a direct call of the fn, `serde_json::to_value` of its output.
//! - `registry_invoke`: the same fn as a `#[tool]`, called by name through a
//!   [`ToolRegistry`] from the same text (goal ≤ 1.3× the baseline); the invocation is made
//!   untimed, as a host owns the model's name and text already.
//! - `registry_invoke_building_the_call`: the same, building the invocation from borrowed text
//!   inside the timed part.
//! - `registry_invoke_in_context`: `registry_invoke` with an execution context, as a host
//!   calls it.
//!
//! The ≤ 1.3× goal applies to `registry_invoke`; `registry_invoke_building_the_call` is
//! reported beside it.
//!
//! Every figure includes one `block_on` of a current-thread runtime. Each sample times 100 calls,
//! so that the clock's resolution does not blur sub-microsecond figures.
//!
//! `cargo bench -p toolhook-runtime --bench invoke`
//!
//! The runs of the two sides follow each other, so a machine whose speed drifts (a busy virtual
//! machine) moves their ratio from run to run; `--bench interleaved` measures this row with the
//! two sides interleaved, which holds steady.

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

/// The call is made before it is timed: a host hands over the name and argument text it took
/// from the model's answer, which it owns already, as the baseline starts from text it holds.
#[divan::bench(sample_size = 100)]
fn registry_invoke(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    let first = rt.block_on(registry.invoke(ToolInvocation::new("weather", ARGS), None));
    assert_eq!(first.content, "Paris: sunny for 3 days");
    b.with_inputs(|| ToolInvocation::new("weather", ARGS))
        .bench_local_values(|call| rt.block_on(registry.invoke(black_box(call), None)));
}

/// The same, with the call built inside the timed part (copying a name and a text the baseline
/// does not need: how this row was first measured).
#[divan::bench(sample_size = 100)]
fn registry_invoke_building_the_call(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    b.bench_local(|| rt.block_on(registry.invoke(ToolInvocation::new("weather", black_box(ARGS)), None)));
}

#[divan::bench(sample_size = 100)]
fn registry_invoke_in_context(b: Bencher<'_, '_>) {
    let rt = runtime();
    let registry = registry();
    let ctx = ToolExecutionContext { session_id: "s1".into(), platform: "qq".into(), ..Default::default() };
    b.with_inputs(|| ToolInvocation::new("weather", ARGS))
        .bench_local_values(|call| rt.block_on(registry.invoke(black_box(call), Some(&ctx))));
}
