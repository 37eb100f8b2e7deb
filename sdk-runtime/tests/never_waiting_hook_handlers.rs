//! Blocking `#[hook_handler]`s whose body never waits (no `.await` in it) run to their end in
//! place, without a boxed future: they change and stop a dispatch as any other handler, time out
//! when they block their thread past their limit, fail with their panic without stopping the
//! handlers after them, and fail loudly (never hang) when a macro hides an await.

use std::time::Duration;
use toolhook::DeclaredHookHandler;
use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

/// Marks the arguments.
#[hook_handler("ready.change", custom = true, order = "early")]
async fn mark(mut args: HookArgs) -> HookOutcome<HookArgs> {
    args.insert("marked", true);
    HookOutcome::modify(args)
}

/// Marks them again, after waiting.
#[hook_handler("ready.change", custom = true)]
async fn mark_after_waiting(mut args: HookArgs) -> HookOutcome<HookArgs> {
    tokio::task::yield_now().await;
    args.insert("waited", true);
    HookOutcome::modify(args)
}

/// Stops the dispatch.
#[hook_handler("ready.change", custom = true, order = "late")]
async fn stop(_args: HookArgs) -> HookOutcome<HookArgs> {
    HookOutcome::abort()
}

/// Watches.
#[hook_handler("ready.change", custom = true, mode = "observe")]
async fn watch(args: HookArgs) {
    let _ = args;
}

/// Blocks its thread past its limit.
#[hook_handler("ready.block", custom = true, timeout_ms = 20)]
async fn blocks(mut args: HookArgs) -> HookOutcome<HookArgs> {
    std::thread::sleep(Duration::from_millis(60));
    args.insert("late", true);
    HookOutcome::modify(args)
}

/// Always panics.
#[hook_handler("ready.panic", custom = true, order = "early")]
async fn explodes(_args: HookArgs) -> HookOutcome<HookArgs> {
    panic!("boom")
}

/// Runs after the panic.
#[hook_handler("ready.panic", custom = true, order = "late")]
async fn after(mut args: HookArgs) -> HookOutcome<HookArgs> {
    args.insert("after", true);
    HookOutcome::modify(args)
}

mod hidden {
    use toolhook::hooks::{HookArgs, HookOutcome};

    // A macro that takes the name of a standard one and awaits: `#[hook_handler]` cannot see the
    // await.
    macro_rules! format {
        ($e:expr) => {
            $e.await
        };
    }

    /// Waits for ever behind a macro.
    #[toolhook::hook_handler("ready.hidden", custom = true, timeout_ms = 60_000)]
    pub(crate) async fn hidden_wait(_args: HookArgs) -> HookOutcome<HookArgs> {
        format!(std::future::pending::<HookOutcome<HookArgs>>())
    }
}

fn declared(name: &str) -> DeclaredHookHandler {
    DeclaredHookHandler::all().into_iter().find(|h| h.name() == name).expect("declared")
}

/// A dispatcher with the declared handlers of `hook`.
fn dispatcher(hook: &str) -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec::new(hook)).expect("a valid spec");
    let dispatcher = HookDispatcher::builder().specs(specs).build();
    let entries = DeclaredHookHandler::all()
        .into_iter()
        .filter(|h| h.hook() == hook)
        .map(|h| HookHandlerEntry::from_declared(h, None))
        .collect();
    dispatcher.register_plugin(env!("CARGO_PKG_NAME"), Source::ThirdParty, entries).expect("a valid batch");
    dispatcher
}

fn error_of(full_name: &str) -> impl Fn(&String) -> bool + '_ {
    move |error: &String| error.contains(full_name)
}

#[test]
fn only_blocking_handlers_without_an_await_are_called_in_place() {
    for name in ["mark", "stop", "blocks", "explodes"] {
        assert!(declared(name).registration().ready.is_some(), "{name}");
    }
    for name in ["mark_after_waiting", "watch"] {
        assert!(declared(name).registration().ready.is_none(), "{name}");
    }
}

#[tokio::test]
async fn a_handler_that_never_waits_changes_and_stops_a_dispatch_as_any_other() {
    let d = dispatcher("ready.change");
    for _ in 0..3 {
        let result = d.invoke_and_wait("ready.change", HookArgs::new()).await.unwrap();
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        assert_eq!(result.kwargs.get("marked"), Some(&true.into()));
        assert_eq!(result.kwargs.get("waited"), Some(&true.into()), "the waiting handler ran after it");
        assert!(result.aborted, "the last one stopped the dispatch");
    }
}

#[tokio::test]
async fn a_handler_that_never_waits_and_blocks_past_its_limit_times_out() {
    let d = dispatcher("ready.block");
    let result = d.invoke("ready.block", HookArgs::new()).await.unwrap();
    let full = declared("blocks").full_name();
    assert_eq!(result.errors, [format!("HookHandler {full} timed out after 20 ms")]);
    assert_eq!(result.kwargs.get("late"), None, "a late change is not applied");
}

#[tokio::test]
async fn a_handler_that_never_waits_and_panics_fails_and_the_next_one_runs() {
    let d = dispatcher("ready.panic");
    let result = d.invoke("ready.panic", HookArgs::new()).await.unwrap();
    let full = declared("explodes").full_name();
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    assert!(result.errors.iter().any(error_of(&full)), "{:?}", result.errors);
    assert!(result.errors[0].contains("boom"), "{:?}", result.errors);
    assert_eq!(result.kwargs.get("after"), Some(&true.into()));
}

#[tokio::test]
async fn a_handler_whose_await_a_macro_hides_fails_at_once_instead_of_hanging() {
    let d = dispatcher("ready.hidden");
    let result = tokio::time::timeout(Duration::from_secs(10), d.invoke("ready.hidden", HookArgs::new()))
        .await
        .expect("the dispatch does not hang")
        .unwrap();
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    assert!(result.errors[0].contains("waited although its body has no `.await`"), "{:?}", result.errors);
}
