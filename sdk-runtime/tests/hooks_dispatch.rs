//! What firing a hook does beyond the vector cases: timeouts, panics, the circuit breaker over
//! time, observers, typed payloads, switches.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::{Instant, sleep};
use toolhook::Locale;
use toolhook::hooks::{ErrorPolicy, HookArgs, HookContext, HookMode, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{BreakerState, HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

fn args(value: Value) -> HookArgs {
    HookArgs::try_from(value).unwrap()
}

fn dispatcher(specs: Vec<HookSpec>) -> HookDispatcher {
    dispatcher_in(Locale::En, specs)
}

fn dispatcher_in(locale: Locale, specs: Vec<HookSpec>) -> HookDispatcher {
    let registry = HookSpecRegistry::new();
    for spec in specs {
        registry.register(spec).unwrap();
    }
    HookDispatcher::builder().specs(registry).locale(locale).build()
}

fn demo() -> Vec<HookSpec> {
    vec![HookSpec::new("demo.hook")]
}

/// A handler that sleeps `ms`, counting the calls that started and those whose future was dropped.
#[derive(Clone, Default)]
struct Sleeper {
    started: Arc<AtomicUsize>,
    dropped: Arc<AtomicUsize>,
    finished: Arc<AtomicUsize>,
    slow: Arc<AtomicBool>,
}

struct CountDrop(Arc<AtomicUsize>, bool);

impl Drop for CountDrop {
    fn drop(&mut self) {
        if !self.1 {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Sleeper {
    fn slow() -> Self {
        let sleeper = Sleeper::default();
        sleeper.slow.store(true, Ordering::SeqCst);
        sleeper
    }

    fn entry(&self, name: &str, ms: u64) -> HookHandlerEntry {
        let this = self.clone();
        HookHandlerEntry::new(name, "demo.hook", move |_: HookArgs, _: HookContext| {
            let this = this.clone();
            async move {
                this.started.fetch_add(1, Ordering::SeqCst);
                let mut guard = CountDrop(Arc::clone(&this.dropped), false);
                if this.slow.load(Ordering::SeqCst) {
                    sleep(Duration::from_millis(ms)).await;
                }
                guard.1 = true;
                this.finished.fetch_add(1, Ordering::SeqCst);
            }
        })
    }
}

// ---- timeouts and panics ------------------------------------------------------------------------

/// Panics with `payload` (typed `()`, so an async block calling it is a unit handler).
fn explode<P: std::any::Any + Send + 'static>(payload: P) {
    std::panic::panic_any(payload)
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_handler_is_dropped_and_the_next_one_runs() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    let fast = Sleeper::default();
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow.entry("h", 1000).timeout(Duration::from_millis(50))])
        .unwrap();
    d.register_plugin("p.z", Source::ThirdParty, vec![fast.entry("f", 0)]).unwrap();

    let start = Instant::now();
    let result = d.invoke("demo.hook", args(json!({"n": 1}))).await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_millis(50));
    assert_eq!(result.errors, ["HookHandler p.slow.h timed out after 50 ms"]);
    assert_eq!(slow.dropped.load(Ordering::SeqCst), 1);
    assert_eq!(slow.finished.load(Ordering::SeqCst), 0);
    assert_eq!(fast.finished.load(Ordering::SeqCst), 1);
}

/// Sets its flag when dropped.
struct Flag(Arc<AtomicBool>);

impl Drop for Flag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn handlers_of_every_future_size_run_in_turn_and_each_lets_go_of_its_state_when_it_ends() {
    // The dispatch's handlers put their futures in one box one after another: futures of other
    // sizes, a typed handler, a panic and an error between them change nothing of what each sees.
    let d = dispatcher(demo());
    let released = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&released);
    let holds_state = HookHandlerEntry::new("a_holds_state", "demo.hook", move |mut a: HookArgs, _: HookContext| {
        let state = Flag(Arc::new(AtomicBool::new(false)));
        let flag = Arc::clone(&flag);
        async move {
            // Swapped in: the handler's own state is dropped when it ends.
            let _state = Flag(flag);
            drop(state);
            a.insert("trail", "a");
            HookOutcome::modify(a)
        }
    });
    let seen = Arc::clone(&released);
    let checks_release = HookHandlerEntry::new("b_checks", "demo.hook", move |mut a: HookArgs, _: HookContext| {
        let released = seen.load(Ordering::SeqCst);
        async move {
            a.insert("a_released", released);
            HookOutcome::modify(a)
        }
    });
    let large = HookHandlerEntry::new("c_large", "demo.hook", |mut a: HookArgs, _: HookContext| async move {
        let block = [7u8; 4096];
        tokio::task::yield_now().await;
        let trail = format!("{}c{}", a.get("trail").and_then(Value::as_str).unwrap_or(""), block[4095]);
        a.insert("trail", trail);
        HookOutcome::modify(a)
    });
    let panics = HookHandlerEntry::new("d_panics", "demo.hook", |_: HookArgs, _: HookContext| async {
        tokio::task::yield_now().await;
        explode("mid-way")
    });
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Trail {
        trail: String,
    }
    let typed = HookHandlerEntry::typed("e_typed", "demo.hook", |mut t: Trail, _: HookContext| async move {
        t.trail.push('e');
        HookOutcome::modify(t)
    });
    let fails = HookHandlerEntry::new("f_fails", "demo.hook", |_: HookArgs, _: HookContext| async {
        Err::<HookOutcome, _>("no luck".to_owned())
    });
    let small = HookHandlerEntry::new("g_small", "demo.hook", |mut a: HookArgs, _: HookContext| async move {
        let trail = format!("{}g", a.get("trail").and_then(Value::as_str).unwrap_or(""));
        a.insert("trail", trail);
        HookOutcome::modify(a)
    });
    d.register_plugin("p.sizes", Source::ThirdParty, vec![holds_state, checks_release, large, panics]).unwrap();
    d.register_plugin("p.sizes2", Source::ThirdParty, vec![typed, fails, small]).unwrap();

    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.kwargs.get("trail"), Some(&json!("ac7eg")));
    assert_eq!(result.kwargs.get("a_released"), Some(&json!(true)));
    assert_eq!(
        result.errors,
        ["HookHandler p.sizes.d_panics failed: panic: mid-way", "HookHandler p.sizes2.f_fails failed: no luck"]
    );
    assert!(released.load(Ordering::SeqCst));
}

#[tokio::test(start_paused = true)]
async fn the_timeout_is_the_handlers_then_the_specs_then_the_dispatchers() {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec { default_timeout_ms: 2000, ..HookSpec::new("demo.spec") }).unwrap();
    specs.register(HookSpec::new("demo.plain")).unwrap();
    let d = HookDispatcher::builder().specs(specs).default_timeout(Duration::from_secs(7)).build();
    let seen: Arc<Mutex<Vec<(String, Duration)>>> = Arc::default();
    let record = |name: &str, hook: &str| {
        let seen = Arc::clone(&seen);
        HookHandlerEntry::new(name, hook, move |_: HookArgs, ctx: HookContext| {
            seen.lock().unwrap().push((ctx.full_name().to_owned(), ctx.timeout()));
            async {}
        })
    };
    d.register_plugin(
        "p",
        Source::ThirdParty,
        vec![
            record("own", "demo.spec").timeout(Duration::from_millis(1234)),
            record("spec", "demo.spec"),
            record("default", "demo.plain"),
        ],
    )
    .unwrap();
    d.invoke("demo.spec", HookArgs::new()).await.unwrap();
    d.invoke("demo.plain", HookArgs::new()).await.unwrap();
    let seen = seen.lock().unwrap().clone();
    let expected = [("p.own", 1234), ("p.spec", 2000), ("p.default", 7000)];
    assert_eq!(seen, expected.map(|(name, ms)| (name.to_owned(), Duration::from_millis(ms))));
}

#[tokio::test]
async fn panics_are_failures_that_carry_their_message() {
    let d = dispatcher_in(Locale::ZhHans, demo());
    let entries = vec![
        HookHandlerEntry::new("string", "demo.hook", |_: HookArgs, _: HookContext| async {
            explode(String::from("kaput"))
        })
        .error_policy(ErrorPolicy::Log),
        HookHandlerEntry::new("str", "demo.hook", |_: HookArgs, _: HookContext| async { explode("bang") }),
        HookHandlerEntry::new("number", "demo.hook", |_: HookArgs, _: HookContext| async { explode(7u8) }),
        HookHandlerEntry::new("before_await", "demo.hook", |_: HookArgs, _: HookContext| -> std::future::Ready<()> {
            panic!("too early")
        }),
    ];
    // One plugin each: three panics of one plugin would open its breaker.
    for (i, entry) in entries.into_iter().enumerate() {
        d.register_plugin(&format!("p.weird{i}"), Source::ThirdParty, vec![entry]).unwrap();
    }
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(
        result.errors,
        [
            "HookHandler p.weird0.string 执行失败: panic: kaput",
            "HookHandler p.weird1.str 执行失败: panic: bang",
            "HookHandler p.weird2.number 执行失败: panic",
            "HookHandler p.weird3.before_await 执行失败: panic: too early",
        ]
    );
    assert!(!result.aborted);
}

// ---- the circuit breaker ------------------------------------------------------------------------

async fn trip(d: &HookDispatcher) {
    for _ in 0..3 {
        let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
        assert_eq!(result.errors, ["HookHandler p.slow.h timed out after 50 ms"]);
    }
}

#[tokio::test(start_paused = true)]
async fn the_breaker_opens_after_three_timeouts_and_a_successful_probe_closes_it() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow.entry("h", 1000).timeout(Duration::from_millis(50))])
        .unwrap();
    trip(&d).await;

    let skipped = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!((skipped.errors.len(), skipped.skipped.clone()), (0, vec!["p.slow.h".to_owned()]));
    assert_eq!(slow.started.load(Ordering::SeqCst), 3);
    let status = &d.breaker_statuses()[0];
    assert_eq!((status.plugin_id.as_str(), status.state, status.level), ("p.slow", BreakerState::Open, 1));

    tokio::time::advance(Duration::from_secs(60)).await;
    assert_eq!(d.breaker_statuses()[0].state, BreakerState::HalfOpen);
    slow.slow.store(false, Ordering::SeqCst);
    let probe = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert!(probe.errors.is_empty() && probe.skipped.is_empty());
    assert!(d.breaker_statuses().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_probe_that_times_out_reopens_for_twice_as_long() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow.entry("h", 1000).timeout(Duration::from_millis(50))])
        .unwrap();
    trip(&d).await;
    tokio::time::advance(Duration::from_secs(60)).await;
    let probe = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(probe.errors, ["HookHandler p.slow.h timed out after 50 ms"]);
    let status = &d.breaker_statuses()[0];
    assert_eq!((status.state, status.level, status.remaining.as_secs()), (BreakerState::Open, 2, 120));
}

#[tokio::test]
async fn handler_errors_keep_the_breaker_closed() {
    let d = dispatcher(demo());
    let entry = HookHandlerEntry::new("h", "demo.hook", |_: HookArgs, _: HookContext| async { Err::<(), _>("no") });
    d.register_plugin("p.err", Source::ThirdParty, vec![entry]).unwrap();
    for _ in 0..5 {
        let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
        assert_eq!(result.errors, ["HookHandler p.err.h failed: no"]);
    }
    assert!(d.breaker_statuses().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_probe_is_released() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow.entry("h", 1000).timeout(Duration::from_millis(50))])
        .unwrap();
    trip(&d).await;
    tokio::time::advance(Duration::from_secs(60)).await;
    // The caller gives up while the probe runs: dropping `invoke` cancels the handler.
    let cancelled = tokio::time::timeout(Duration::from_millis(10), d.invoke("demo.hook", HookArgs::new())).await;
    assert!(cancelled.is_err());
    assert_eq!(slow.dropped.load(Ordering::SeqCst), 4);
    assert!(!d.breaker_statuses()[0].probe_in_flight);
    slow.slow.store(false, Ordering::SeqCst);
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert!(d.breaker_statuses().is_empty());
}

// ---- observers ------------------------------------------------------------------------------------

#[tokio::test(start_paused = true)]
async fn slow_and_panicking_observers_neither_delay_nor_fail_the_hook() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    let panicking = HookHandlerEntry::new("panics", "demo.hook", |_: HookArgs, _: HookContext| async {
        explode("observer exploded")
    })
    .mode(HookMode::Observe);
    d.register_plugin(
        "p.obs",
        Source::ThirdParty,
        vec![slow.entry("slow", 10_000).mode(HookMode::Observe).timeout(Duration::from_secs(1)), panicking],
    )
    .unwrap();

    let start = Instant::now();
    let result = d.invoke("demo.hook", args(json!({"x": 1}))).await.unwrap();
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert!(result.errors.is_empty());
    d.wait_observers().await;
    assert_eq!(start.elapsed(), Duration::from_secs(1), "the slow observer timed out");
    assert_eq!(slow.dropped.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn changes_returned_by_an_observer_closure_are_ignored() {
    let d = dispatcher(demo());
    let meddler = HookHandlerEntry::new("meddler", "demo.hook", |_: HookArgs, _: HookContext| async {
        HookOutcome::abort_with(HookArgs::new())
    })
    .mode(HookMode::Observe);
    d.register_plugin("p", Source::ThirdParty, vec![meddler]).unwrap();
    let result = d.invoke_and_wait("demo.hook", args(json!({"keep": true}))).await.unwrap();
    assert_eq!(result.kwargs, args(json!({"keep": true})));
    assert!(!result.aborted);
}

#[tokio::test(start_paused = true)]
async fn at_most_max_concurrent_observers_run_at_once_and_their_timeout_starts_with_them() {
    let registry = HookSpecRegistry::new();
    registry.register(HookSpec::new("demo.hook")).unwrap();
    let d = HookDispatcher::builder().specs(registry).max_concurrent_observers(2).build();
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicUsize::new(0));
    let observers = (0..5)
        .map(|i| {
            let (running, peak, finished) = (Arc::clone(&running), Arc::clone(&peak), Arc::clone(&finished));
            HookHandlerEntry::new(format!("o{i}"), "demo.hook", move |_: HookArgs, _: HookContext| {
                let (running, peak, finished) = (Arc::clone(&running), Arc::clone(&peak), Arc::clone(&finished));
                async move {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    sleep(Duration::from_millis(100)).await;
                    running.fetch_sub(1, Ordering::SeqCst);
                    finished.fetch_add(1, Ordering::SeqCst);
                }
            })
            .mode(HookMode::Observe)
            .timeout(Duration::from_millis(150))
        })
        .collect();
    d.register_plugin("p", Source::ThirdParty, observers).unwrap();

    let start = Instant::now();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(start.elapsed(), Duration::ZERO, "invoke never waits for permits");
    d.wait_observers().await;
    assert_eq!(peak.load(Ordering::SeqCst), 2);
    assert_eq!(finished.load(Ordering::SeqCst), 5, "none timed out while waiting for a slot");
    assert_eq!(start.elapsed(), Duration::from_millis(300));
}

/// An observer that records the `n` of every event it sees, slowly.
fn recording_observer(seen: &Arc<Mutex<Vec<u64>>>) -> HookHandlerEntry {
    let seen = Arc::clone(seen);
    HookHandlerEntry::new("recorder", "demo.hook", move |a: HookArgs, _: HookContext| {
        let seen = Arc::clone(&seen);
        async move {
            sleep(Duration::from_millis(50)).await;
            seen.lock().unwrap().push(a.get("n").and_then(Value::as_u64).unwrap());
        }
    })
    .mode(HookMode::Observe)
}

fn backlog_dispatcher(overflow: toolhook_runtime::hooks::ObserverOverflow) -> HookDispatcher {
    let registry = HookSpecRegistry::new();
    registry.register(HookSpec::new("demo.hook")).unwrap();
    HookDispatcher::builder()
        .specs(registry)
        .max_concurrent_observers(1)
        .max_queued_observers(10)
        .observer_overflow(overflow)
        .build()
}

#[tokio::test(start_paused = true)]
async fn an_observer_backlog_is_bounded_and_drops_the_oldest_runs() {
    let d = backlog_dispatcher(toolhook_runtime::hooks::ObserverOverflow::DropOldest);
    let seen = Arc::new(Mutex::new(Vec::new()));
    d.register_plugin("p", Source::ThirdParty, vec![recording_observer(&seen)]).unwrap();
    for n in 0..5_000u64 {
        d.invoke("demo.hook", args(json!({"n": n}))).await.unwrap();
    }
    // One running, ten waiting: everything else was dropped and counted.
    assert_eq!(d.dropped_observer_runs(), 5_000 - 11);
    d.wait_observers().await;
    let seen = seen.lock().unwrap().clone();
    let newest: Vec<u64> = (4_990..5_000).collect();
    assert_eq!(seen[0], 0, "the run already going finishes");
    assert_eq!(seen[1..], newest[..], "the newest events are kept");
}

#[tokio::test(start_paused = true)]
async fn an_observer_backlog_can_drop_the_newest_runs_instead() {
    let d = backlog_dispatcher(toolhook_runtime::hooks::ObserverOverflow::DropNewest);
    let seen = Arc::new(Mutex::new(Vec::new()));
    d.register_plugin("p", Source::ThirdParty, vec![recording_observer(&seen)]).unwrap();
    for n in 0..1_000u64 {
        d.invoke("demo.hook", args(json!({"n": n}))).await.unwrap();
    }
    assert_eq!(d.dropped_observer_runs(), 1_000 - 11);
    d.wait_observers().await;
    assert_eq!(*seen.lock().unwrap(), (0..11).collect::<Vec<u64>>());
}

#[tokio::test]
async fn a_handler_that_blocks_its_thread_past_its_timeout_times_out_and_counts_against_its_plugin() {
    let d = dispatcher(demo());
    let blocking = HookHandlerEntry::new("blocks", "demo.hook", |_: HookArgs, _: HookContext| async {
        std::thread::sleep(Duration::from_millis(60));
        HookOutcome::<HookArgs>::proceed()
    })
    .timeout(Duration::from_millis(20));
    d.register_plugin("p", Source::ThirdParty, vec![blocking]).unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.blocks timed out after 20 ms"]);
    for _ in 0..10 {
        d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    }
    assert!(
        d.breaker_statuses().iter().any(|s| s.plugin_id == "p"),
        "the timeouts opened the plugin's breaker: {:?}",
        d.breaker_statuses()
    );
}

#[tokio::test]
async fn a_handler_that_blocks_while_its_future_is_made_times_out_too() {
    let d = dispatcher(demo());
    let blocking = HookHandlerEntry::new("blocks_early", "demo.hook", |_: HookArgs, _: HookContext| {
        std::thread::sleep(Duration::from_millis(60));
        async { HookOutcome::<HookArgs>::proceed() }
    })
    .timeout(Duration::from_millis(20));
    d.register_plugin("p", Source::ThirdParty, vec![blocking]).unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.blocks_early timed out after 20 ms"]);
}

#[tokio::test]
async fn each_blocking_handler_is_timed_from_its_own_start_not_from_the_dispatch() {
    let d = dispatcher(demo());
    // Three handlers that each block for 100 ms, under 250 ms each: together they take 300 ms,
    // more than any one's timeout, and none of them is late.
    let entries = (0..3)
        .map(|i| {
            HookHandlerEntry::new(format!("b{i}"), "demo.hook", |_: HookArgs, _: HookContext| async {
                std::thread::sleep(Duration::from_millis(100));
                HookOutcome::<HookArgs>::proceed()
            })
            .timeout(Duration::from_millis(250))
        })
        .collect();
    d.register_plugin("p", Source::ThirdParty, entries).unwrap();
    let started = std::time::Instant::now();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(result.errors.is_empty(), "{:?}", result.errors);
}

#[tokio::test(start_paused = true)]
async fn invoke_and_wait_waits_only_for_the_observers_it_started() {
    let specs = vec![HookSpec::new("demo.hook"), HookSpec::new("other.hook")];
    let d = dispatcher(specs);
    let long = Sleeper::slow();
    let short = Sleeper::slow();
    let long_entry = HookHandlerEntry::new("long", "other.hook", {
        let long = long.clone();
        move |a: HookArgs, c: HookContext| {
            let long = long.clone();
            async move {
                long.started.fetch_add(1, Ordering::SeqCst);
                let _ = (a, c);
                sleep(Duration::from_secs(10)).await;
                long.finished.fetch_add(1, Ordering::SeqCst);
            }
        }
    })
    .mode(HookMode::Observe);
    d.register_plugin("p", Source::ThirdParty, vec![long_entry, short.entry("short", 10).mode(HookMode::Observe)])
        .unwrap();

    let start = Instant::now();
    d.invoke("other.hook", HookArgs::new()).await.unwrap();
    d.invoke_and_wait("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_millis(10));
    assert_eq!(short.finished.load(Ordering::SeqCst), 1);
    assert_eq!((long.started.load(Ordering::SeqCst), long.finished.load(Ordering::SeqCst)), (1, 0));
    d.wait_observers().await;
    assert_eq!(long.finished.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn shutdown_aborts_running_observers_and_stops_dispatching() {
    let d = dispatcher(demo());
    let slow = Sleeper::slow();
    d.register_plugin("p", Source::ThirdParty, vec![slow.entry("o", 10_000).mode(HookMode::Observe)]).unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    tokio::task::yield_now().await;
    assert_eq!(slow.started.load(Ordering::SeqCst), 1);

    let start = Instant::now();
    d.shutdown().await;
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert_eq!(slow.dropped.load(Ordering::SeqCst), 1);
    assert!(d.is_shut_down());
    let result = d.invoke("demo.hook", args(json!({"x": 1}))).await.unwrap();
    d.wait_observers().await;
    assert_eq!(slow.started.load(Ordering::SeqCst), 1);
    assert_eq!(result.kwargs, args(json!({"x": 1})));
}

#[tokio::test]
async fn observers_are_skipped_on_hooks_that_do_not_allow_them() {
    let registry = HookSpecRegistry::new();
    registry.register(HookSpec { allow_observe: false, ..HookSpec::new("demo.hook") }).unwrap();
    let d = HookDispatcher::builder().specs(registry).validate_hooks(false).build();
    let watcher = Sleeper::default();
    d.register_plugin("p", Source::ThirdParty, vec![watcher.entry("o", 0).mode(HookMode::Observe)]).unwrap();
    let result = d.invoke_and_wait("demo.hook", HookArgs::new()).await.unwrap();
    assert!(result.errors.is_empty());
    assert_eq!(watcher.started.load(Ordering::SeqCst), 0);
}

// ---- arguments -----------------------------------------------------------------------------------

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Text {
    text: String,
}

#[tokio::test]
async fn invoke_with_takes_any_value_that_serialises_to_an_object() {
    let d = dispatcher(demo());
    let result = d.invoke_with("demo.hook", &Text { text: "hi".into() }).await.unwrap();
    assert_eq!(result.kwargs_as::<Text>().unwrap(), Text { text: "hi".into() });
    assert_eq!(
        d.invoke_with("demo.hook", &[1, 2]).await.unwrap_err().to_string(),
        "Hook arguments must be a JSON object, got array"
    );
    assert_eq!(d.invoke_with("  ", &[1]).await.unwrap_err().to_string(), "Hook name must not be empty");
    let zh = dispatcher_in(Locale::ZhHans, demo());
    assert_eq!(zh.invoke(" ", HookArgs::new()).await.unwrap_err().to_string(), "Hook 名称不能为空");
    assert_eq!(zh.invoke_with("demo.hook", &5).await.unwrap_err().to_string(), "Hook 参数必须是字典，实际为 integer");
}

#[tokio::test]
async fn typed_payloads_that_do_not_decode_are_reported_in_the_dispatchers_locale() {
    let d = dispatcher_in(Locale::ZhHans, demo());
    let entry = HookHandlerEntry::typed("h", "demo.hook", |p: Text, _: HookContext| async move {
        HookOutcome::modify(Text { text: p.text.to_uppercase() })
    });
    d.register_plugin("p.t", Source::ThirdParty, vec![entry]).unwrap();
    let result = d.invoke("demo.hook", args(json!({"text": 5}))).await.unwrap();
    assert_eq!(
        result.errors,
        ["HookHandler p.t.h 执行失败: 载荷无效: text: invalid type: integer `5`, expected a string"]
    );
    let result = d.invoke("demo.hook", args(json!({"text": "a", "keep": [1]}))).await.unwrap();
    assert_eq!(result.kwargs.to_string(), r#"{"text":"A","keep":[1]}"#);
}

#[tokio::test]
async fn a_typed_modification_that_is_not_an_object_fails_the_handler() {
    let d = dispatcher(demo());
    let entry =
        HookHandlerEntry::typed("h", "demo.hook", |_: Value, _: HookContext| async { HookOutcome::modify(json!(5)) });
    d.register_plugin("p", Source::ThirdParty, vec![entry]).unwrap();
    let result = d.invoke("demo.hook", args(json!({"a": 1}))).await.unwrap();
    assert_eq!(
        result.errors,
        ["HookHandler p.h failed: the modified payload must serialise to a JSON object, not integer"]
    );
    assert_eq!(result.kwargs, args(json!({"a": 1})));
}

#[tokio::test]
async fn a_hook_that_forbids_mutation_keeps_its_arguments() {
    let registry = HookSpecRegistry::new();
    registry.register(HookSpec { allow_kwargs_mutation: false, ..HookSpec::new("demo.fixed") }).unwrap();
    let d = HookDispatcher::builder().specs(registry).build();
    let entry = HookHandlerEntry::new("h", "demo.fixed", |_: HookArgs, _: HookContext| async {
        HookOutcome::modify(HookArgs::new()).with_custom_result("still collected")
    });
    d.register_plugin("p", Source::ThirdParty, vec![entry]).unwrap();
    let result = d.invoke("demo.fixed", args(json!({"a": 1}))).await.unwrap();
    assert_eq!(result.errors, ["Hook demo.fixed does not allow modifying kwargs; ignored modified_kwargs from p.h"]);
    assert_eq!(result.kwargs, args(json!({"a": 1})));
    assert_eq!(result.custom_results, [json!("still collected")]);
}

#[tokio::test]
async fn an_empty_failure_message_is_left_out() {
    let d = dispatcher(demo());
    let entry = HookHandlerEntry::new("h", "demo.hook", |_: HookArgs, _: HookContext| async { Err::<(), _>("  ") });
    d.register_plugin("p", Source::ThirdParty, vec![entry]).unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler p.h failed"]);
}

// ---- switches ------------------------------------------------------------------------------------

#[tokio::test]
async fn disabled_handlers_never_run_until_switched_back_on() {
    let d = dispatcher(demo());
    let handler = Sleeper::default();
    d.register_plugin("p", Source::ThirdParty, vec![handler.entry("h", 0)]).unwrap();
    assert!(d.set_enabled("p.h", false));
    assert!(!d.set_enabled("p.nope", false));
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(handler.started.load(Ordering::SeqCst), 0);
    d.set_enabled("p.h", true);
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(handler.started.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn unregistering_a_plugin_removes_its_handlers() {
    let d = dispatcher(demo());
    let handler = Sleeper::default();
    d.register_plugin("p", Source::ThirdParty, vec![handler.entry("h", 0)]).unwrap();
    assert!(d.unregister_plugin("p"));
    assert!(!d.unregister_plugin("p"));
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(handler.started.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_plugin_marked_not_loaded_before_registration_fails_until_it_is_loaded() {
    let d = dispatcher(demo());
    let handler = Sleeper::default();
    d.set_plugin_loaded("acme.weather", false);
    d.register_plugin("acme.weather", Source::ThirdParty, vec![handler.entry("tag", 0)]).unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler acme.weather.tag failed: plugin acme.weather is not loaded"]);
    assert!(d.breaker_statuses().is_empty());
    d.set_plugin_loaded("acme.weather", true);
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert!(result.errors.is_empty());
    assert_eq!(handler.started.load(Ordering::SeqCst), 1);
}

// A `#[plugin]` method's registration, written out as the macro would.
fn method_handler(
    instance: Option<Arc<dyn std::any::Any + Send + Sync>>,
    _: HookArgs,
    _: HookContext,
) -> toolhook::BoxFuture<'static, Result<toolhook::hooks::HandlerOutcome, toolhook::hooks::HookHandlerError>> {
    Box::pin(async move {
        match instance.and_then(|i| i.downcast::<u32>().ok()) {
            Some(n) => Ok(toolhook::hooks::HandlerOutcome {
                custom_result: Some(Box::new(json!(*n))),
                ..toolhook::hooks::HandlerOutcome::proceed()
            }),
            None => Err(toolhook::__private::hook_plugin_not_loaded("acme.counter")),
        }
    })
}

toolhook::__private::inventory::submit! {
    toolhook::__private::HookHandlerRegistration {
        hook: "demo.hook",
        name: "count",
        plugin_id: "acme.counter",
        package: "hooks_dispatch",
        package_version: "0.0.0",
        is_method: true,
        description: "",
        mode: HookMode::Blocking,
        order: toolhook::hooks::HookOrder::Normal,
        timeout_ms: 0,
        error_policy: ErrorPolicy::Skip,
        metadata: "{}",
        payload_schema: || None,
        handler: method_handler,
        ready: None,
        location: "hooks_dispatch.rs",
    }
}

#[tokio::test]
async fn a_method_handler_runs_on_its_plugin_instance_and_without_one_is_not_loaded() {
    let declared = toolhook::DeclaredHookHandler::all().into_iter().find(|h| h.name() == "count").unwrap();
    let d = dispatcher(demo());
    d.register_plugin("acme.counter", Source::ThirdParty, vec![HookHandlerEntry::from_declared(declared, None)])
        .unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.errors, ["HookHandler acme.counter.count failed: plugin acme.counter is not loaded"]);

    let instance: Arc<dyn std::any::Any + Send + Sync> = Arc::new(7u32);
    d.register_plugin(
        "acme.counter",
        Source::ThirdParty,
        vec![HookHandlerEntry::from_declared(declared, Some(instance))],
    )
    .unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!((result.errors.len(), result.custom_results), (0, vec![json!(7)]));
}

#[test]
fn the_hook_types_can_be_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<HookDispatcher>();
    send_sync::<HookHandlerEntry>();
    send_sync::<HookSpecRegistry>();
    send_sync::<toolhook_runtime::hooks::HookDispatchResult>();
    send_sync::<toolhook_runtime::hooks::HookError>();
    send_sync::<HookArgs>();
    send_sync::<HookContext>();
    send_sync::<HookOutcome>();
    send_sync::<toolhook::DeclaredHookHandler>();
}

#[tokio::test(start_paused = true)]
async fn an_enormous_cooldown_keeps_the_plugin_skipped_without_panicking() {
    let registry = HookSpecRegistry::new();
    registry.register(HookSpec::new("demo.hook")).unwrap();
    let config = toolhook_runtime::hooks::BreakerConfig::default()
        .threshold(1)
        .cooldown(Duration::MAX)
        .max_cooldown(Duration::MAX);
    let d = HookDispatcher::builder().specs(registry).breaker(config).build();
    let slow = Sleeper::slow();
    d.register_plugin("p.slow", Source::ThirdParty, vec![slow.entry("h", 1000).timeout(Duration::from_millis(50))])
        .unwrap();
    d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    let result = d.invoke("demo.hook", HookArgs::new()).await.unwrap();
    assert_eq!(result.skipped, ["p.slow.h"]);
}

#[test]
fn dispatching_outside_tokio_or_without_timers_is_an_answer_not_a_panic() {
    struct PanicsOnDrop;
    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("dropped while pending");
        }
    }
    let d = dispatcher(demo());
    let waits = HookHandlerEntry::new("waits", "demo.hook", |_: HookArgs, _: HookContext| async {
        let _bomb = PanicsOnDrop;
        std::future::pending::<()>().await;
    });
    let observer =
        HookHandlerEntry::new("watches", "demo.hook", |_: HookArgs, _: HookContext| async {}).mode(HookMode::Observe);
    d.register_plugin("p", Source::ThirdParty, vec![waits, observer]).unwrap();

    let result = futures_executor::block_on(d.invoke("demo.hook", HookArgs::new())).unwrap();
    assert_eq!(result.errors.len(), 1, "{result:?}");
    assert!(result.errors[0].starts_with("HookHandler p.waits failed: the call had to wait"), "{result:?}");
    assert_eq!(d.dropped_observer_runs(), 1, "an observer with nothing to run on is dropped and counted");

    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let result = runtime.block_on(d.invoke("demo.hook", HookArgs::new())).unwrap();
    assert!(result.errors[0].contains("enable_time"), "{result:?}");
}
