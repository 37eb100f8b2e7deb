//! Tools run by the registry, checked against the written rules: how a sync `#[tool]` is run. The
//! expected behaviour comes from the rules alone.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ThreadId;
use std::time::Duration;
use toolhook::{ToolInvocation, tool};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

/// Where the sync tool ran: its thread, and whether a tokio runtime was at hand there.
static RAN_ON: Mutex<Option<(ThreadId, bool)>> = Mutex::new(None);
/// Set when the sync tool returns.
static NAP_OVER: AtomicBool = AtomicBool::new(false);

/// Blocks its thread for a while.
#[tool]
fn fp5_blocking_nap(
    /// How long, in milliseconds.
    ms: u64,
) -> String {
    let in_runtime = tokio::runtime::Handle::try_current().is_ok();
    *RAN_ON.lock().unwrap() = Some((std::thread::current().id(), in_runtime));
    std::thread::sleep(Duration::from_millis(ms));
    NAP_OVER.store(true, Ordering::SeqCst);
    "rested".to_owned()
}

// "The generated invoker declares whether the tool is sync or async; the runtime runs a sync tool
// with `tokio::task::spawn_blocking` and awaits it": on a single-threaded runtime the tool runs
// on another thread (the blocking pool, inside the runtime's context), and the caller's runtime
// goes on serving other tasks while the tool blocks its own thread.
#[tokio::test]
async fn a_sync_tool_runs_on_the_blocking_pool_while_the_runtime_serves_other_tasks() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let caller = std::thread::current().id();
    let ticker = async {
        for _ in 0..5 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The ticks passed while the tool still slept.
        NAP_OVER.load(Ordering::SeqCst)
    };
    let (result, over_when_ticked) =
        tokio::join!(registry.invoke(ToolInvocation::new("fp5_blocking_nap", r#"{"ms": 600}"#), None), ticker);
    assert!(result.success, "{}", result.error_message);
    assert_eq!(result.content, "rested");
    assert!(!over_when_ticked, "the runtime was blocked while the sync tool ran");
    let (thread, in_runtime) = RAN_ON.lock().unwrap().expect("the tool ran");
    assert_ne!(thread, caller, "the sync tool ran on the caller's thread");
    assert!(in_runtime, "the sync tool ran outside the runtime's blocking pool");
}
