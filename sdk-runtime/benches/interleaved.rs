//! The invoke and hooks rows measured interleaved: each round times a batch of the baseline and
//! a batch of the candidate back to back (in alternating order), and the figure is the median of
//! the rounds' ratios. Both sides of a round see the machine in the same state, so the ratio
//! holds steady on a busy or throttled machine where the `invoke` and `hooks` benches, which
//! run one side to its end before the other, can drift. Inputs are made and outputs dropped
//! outside the timed batches, as those benches do.
//!
//! - `invoke`: `ToolRegistry::invoke` of `weather` from `{"city":"Paris","days":3}` against the
//!   hand-written call (parse, call, `to_value`), one `block_on` per call on both sides
//!   (goal ≤ 1.3×).
//! - `hooks`: a dispatch to 10 blocking handlers against awaiting the same fn 10 times with its
//!   own copy of the arguments, one `block_on` per dispatch on both sides (goal ≤ 1.5×): the
//!   handlers as closures a host registers (`HookHandlerEntry::new`), each call's future boxed
//!   (in one box that the dispatch's handlers reuse), and as `#[hook_handler]`s, whose bodies never wait, called in place.
//!
//! `cargo bench -p toolhook-runtime --bench interleaved` (`ROUNDS=…` to change the 3,000 rounds,
//! `ROW=invoke` or `ROW=hooks` to run one row, as under a profiler).

use std::hint::black_box;
use std::time::Instant;
use toolhook::ToolInvocation;
use toolhook_runtime::hooks::HookHandlerEntry;
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

#[path = "common/weather.rs"]
#[allow(dead_code)]
mod weather;

#[path = "common/hooks.rs"]
mod hooks;
use hooks::{handler, kwargs};

/// Calls per batch.
const BATCH: usize = 20;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// One row: per round, `prepare` (untimed: the candidate's inputs, dropping both sides'
/// outputs), then `baseline` and `candidate` timed, in alternating order.
fn row(name: &str, rounds: usize, mut prepare: impl FnMut(), mut baseline: impl FnMut(), mut candidate: impl FnMut()) {
    let time = |f: &mut dyn FnMut()| {
        let started = Instant::now();
        f();
        started.elapsed().as_nanos() as f64
    };
    let (mut ratios, mut base, mut cand) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        prepare();
        let (b, c) = if round % 2 == 0 {
            let b = time(&mut baseline);
            (b, time(&mut candidate))
        } else {
            let c = time(&mut candidate);
            (time(&mut baseline), c)
        };
        ratios.push(c / b);
        base.push(b / BATCH as f64);
        cand.push(c / BATCH as f64);
    }
    prepare();
    println!(
        "{name}: {:.3}× the baseline (median of {rounds} rounds; per call: baseline {:.0} ns, toolhook {:.0} ns)",
        median(ratios),
        median(base),
        median(cand)
    );
}

fn main() {
    let rounds = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3000);
    let only = std::env::var("ROW").ok();
    let runs = |row: &str| only.as_deref().is_none_or(|only| only == row);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");

    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let first = rt.block_on(registry.invoke(ToolInvocation::new("weather", weather::ARGS), None));
    assert_eq!(first.content, "Paris: sunny for 3 days");
    let calls = std::cell::RefCell::new(Vec::with_capacity(BATCH));
    if runs("invoke") {
        let results = std::cell::RefCell::new(Vec::with_capacity(BATCH));
        let values = std::cell::RefCell::new(Vec::with_capacity(BATCH));
        row(
            "invoke",
            rounds,
            || {
                values.borrow_mut().clear();
                results.borrow_mut().clear();
                let mut calls = calls.borrow_mut();
                calls.clear();
                calls.extend((0..BATCH).map(|_| ToolInvocation::new("weather", weather::ARGS)));
            },
            || {
                let mut values = values.borrow_mut();
                for _ in 0..BATCH {
                    values.push(rt.block_on(async {
                        let args: weather::Args =
                            serde_json::from_str(black_box(weather::ARGS)).expect("valid arguments");
                        serde_json::to_value(weather::forecast(&args.city, args.days)).expect("a value")
                    }));
                }
            },
            || {
                let mut results = results.borrow_mut();
                for call in calls.borrow_mut().drain(..) {
                    results.push(rt.block_on(registry.invoke(black_box(call), None)));
                }
            },
        );
    }

    if !runs("hooks") {
        return;
    }
    hooks_row("hooks (10 blocking handlers)", rounds, &rt, hooks::HOOK, hooks::closures());
    hooks_row("hooks (10 declared blocking handlers)", rounds, &rt, hooks::DECLARED_HOOK, hooks::declared());
}

/// The hooks row for one set of 10 handlers of `hook`.
fn hooks_row(name: &str, rounds: usize, rt: &tokio::runtime::Runtime, hook: &str, entries: Vec<HookHandlerEntry>) {
    let dispatcher = hooks::dispatcher_with(hook, entries);
    let args = kwargs();
    let first = rt.block_on(dispatcher.invoke(hook, args.clone())).expect("a dispatch");
    assert!(first.errors.is_empty() && !first.aborted, "{:?}", first.errors);
    let inputs = std::cell::RefCell::new(Vec::with_capacity(BATCH));
    let fired = std::cell::RefCell::new(Vec::with_capacity(BATCH));
    row(
        name,
        rounds,
        || {
            fired.borrow_mut().clear();
            let mut inputs = inputs.borrow_mut();
            inputs.clear();
            inputs.extend((0..BATCH).map(|_| args.clone()));
        },
        || {
            for _ in 0..BATCH {
                rt.block_on(async {
                    for _ in 0..10 {
                        let _ = black_box(handler(black_box(args.clone())).await);
                    }
                });
            }
        },
        || {
            let mut fired = fired.borrow_mut();
            for args in inputs.borrow_mut().drain(..) {
                fired.push(rt.block_on(dispatcher.invoke(hook, args)).expect("a dispatch"));
            }
        },
    );
}
