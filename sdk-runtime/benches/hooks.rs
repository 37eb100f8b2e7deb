//! What the dispatcher costs: a hook with 10 blocking handlers against awaiting the same 10 fns
//! directly (the baseline, same group; each sample times 50 dispatches), and the fan-out of one
//! hook to 100 observers.
//!
//! The ≤ 1.5× goal applies to `dispatcher`, whose event arguments are made untimed, as the
//! baseline's are; `dispatcher_with_the_events_copy` (the copy timed too) is reported beside it.
//! Those handlers are closures a host registers, whose futures are boxed (in one box that the
//! dispatch's handlers reuse); `declared_handlers`
//! runs the same body declared with `#[hook_handler]`, which the dispatcher calls in place (its
//! body never waits).
//!
//! `cargo bench -p toolhook-runtime --bench hooks`
//!
//! The runs of the two sides follow each other, so a machine whose speed drifts (a busy virtual
//! machine) moves their ratio from run to run; `--bench interleaved` measures this row with the
//! two sides interleaved, which holds steady.

use divan::Bencher;
use std::hint::black_box;
use toolhook::hooks::{HookArgs, HookContext, HookMode};
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry};

#[path = "common/hooks.rs"]
mod hooks;
use hooks::{DECLARED_HOOK, HOOK, dispatcher_with, handler, kwargs};

fn main() {
    divan::main();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime")
}

#[divan::bench_group(sample_size = 50)]
mod ten_blocking_handlers {
    use super::*;

    /// The baseline: the same fn awaited 10 times, each with its own copy of the arguments.
    #[divan::bench]
    fn direct_awaits(bencher: Bencher<'_, '_>) {
        let runtime = runtime();
        let args = kwargs();
        bencher.bench_local(|| {
            runtime.block_on(async {
                for _ in 0..10 {
                    let _ = black_box(handler(black_box(args.clone())).await);
                }
            })
        });
    }

    /// `invoke` with 10 blocking handlers calling that fn. The event's arguments are made
    /// before each call, untimed, as the baseline's are: a host builds them for the event and
    /// hands them over, and the dispatcher gives each handler its copy, as the baseline does.
    #[divan::bench]
    fn dispatcher(bencher: Bencher<'_, '_>) {
        let runtime = runtime();
        let dispatcher = ten_handlers();
        let args = kwargs();
        bencher
            .with_inputs(|| args.clone())
            .bench_local_values(|args| runtime.block_on(async { black_box(dispatcher.invoke(HOOK, args).await) }));
    }

    /// The same, with the copy of the event's arguments timed too (how this row was first
    /// measured: one copy more than the baseline makes).
    #[divan::bench]
    fn dispatcher_with_the_events_copy(bencher: Bencher<'_, '_>) {
        let runtime = runtime();
        let dispatcher = ten_handlers();
        let args = kwargs();
        bencher.bench_local(|| {
            runtime.block_on(async { black_box(dispatcher.invoke(HOOK, black_box(args.clone())).await) })
        });
    }

    /// `dispatcher`, with the handlers declared with `#[hook_handler]`.
    #[divan::bench]
    fn declared_handlers(bencher: Bencher<'_, '_>) {
        let runtime = runtime();
        let dispatcher = dispatcher_with(DECLARED_HOOK, hooks::declared());
        let args = kwargs();
        bencher.with_inputs(|| args.clone()).bench_local_values(|args| {
            runtime.block_on(async { black_box(dispatcher.invoke(DECLARED_HOOK, args).await) })
        });
    }

    fn ten_handlers() -> HookDispatcher {
        dispatcher_with(HOOK, hooks::closures())
    }
}

/// `invoke` with 100 observers, until all have run.
#[divan::bench]
fn observer_fan_out_100(bencher: Bencher<'_, '_>) {
    let runtime = runtime();
    let entries = (0..100)
        .map(|i| {
            HookHandlerEntry::new(format!("o{i:03}"), HOOK, |args: HookArgs, _: HookContext| async move {
                black_box(args.len());
            })
            .mode(HookMode::Observe)
        })
        .collect();
    let dispatcher = dispatcher_with(HOOK, entries);
    let args = kwargs();
    bencher.bench_local(|| {
        runtime.block_on(async { black_box(dispatcher.invoke_and_wait(HOOK, black_box(args.clone())).await) })
    });
}
