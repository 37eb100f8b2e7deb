//! What the hooks benches dispatch: the event's arguments, the typical small blocking handler
//! (it reads an argument and continues) that the baselines await, and ten handlers running it,
//! as closures a host registers (their futures are boxed, in one box a dispatch reuses) and
//! declared with `#[hook_handler]` (their bodies never wait, so the dispatcher calls them in
//! place). Included with `#[path]` by each bench that needs it.

use toolhook::DeclaredHookHandler;
use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookContext, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

/// The hook of the closures.
pub(crate) const HOOK: &str = "bench.hook";

/// The hook of the declared handlers.
pub(crate) const DECLARED_HOOK: &str = "bench.declared";

/// The event's arguments.
pub(crate) fn kwargs() -> HookArgs {
    HookArgs::try_from(serde_json::json!({"text": "hi", "session_id": "s1", "count": 3})).expect("an object")
}

/// What the handler decides.
fn verdict(args: &HookArgs) -> HookOutcome {
    if args.get("text").and_then(|t| t.as_str()).is_some_and(str::is_empty) {
        return HookOutcome::abort();
    }
    HookOutcome::proceed()
}

/// The handler, as the baselines await it.
pub(crate) async fn handler(args: HookArgs) -> HookOutcome {
    verdict(&args)
}

macro_rules! declared {
    ($($name:ident),*) => {$(
        #[hook_handler("bench.declared", custom = true)]
        async fn $name(args: HookArgs) -> HookOutcome {
            verdict(&args)
        }
    )*};
}

declared!(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9);

/// Ten closures calling [`handler`], on [`HOOK`].
pub(crate) fn closures() -> Vec<HookHandlerEntry> {
    (0..10)
        .map(|i| HookHandlerEntry::new(format!("h{i}"), HOOK, |args: HookArgs, _: HookContext| handler(args)))
        .collect()
}

/// The ten declared handlers, on [`DECLARED_HOOK`].
pub(crate) fn declared() -> Vec<HookHandlerEntry> {
    let entries: Vec<HookHandlerEntry> = DeclaredHookHandler::all()
        .into_iter()
        .filter(|h| h.hook() == DECLARED_HOOK)
        .map(|h| HookHandlerEntry::from_declared(h, None))
        .collect();
    assert_eq!(entries.len(), 10);
    entries
}

/// A dispatcher with `entries` on `hook`, room for 128 observers at once.
pub(crate) fn dispatcher_with(hook: &str, entries: Vec<HookHandlerEntry>) -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec::new(hook)).expect("a valid spec");
    let dispatcher = HookDispatcher::builder().specs(specs).max_concurrent_observers(128).build();
    dispatcher.register_plugin("bench.plugin", Source::ThirdParty, entries).expect("a valid batch");
    dispatcher
}
