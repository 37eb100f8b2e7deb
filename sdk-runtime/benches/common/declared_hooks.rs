//! Ten blocking handlers declared with `#[hook_handler]` on one hook, each the benches' typical
//! small handler (it reads an argument and continues); their bodies never wait, so the
//! dispatcher calls them in place (included with `#[path]` by each bench that needs it).

use toolhook::DeclaredHookHandler;
use toolhook::hook_handler;
use toolhook::hooks::{HookArgs, HookOutcome};
use toolhook_runtime::hooks::HookHandlerEntry;

/// The hook they subscribe to.
pub(crate) const HOOK: &str = "bench.declared";

macro_rules! handlers {
    ($($name:ident),*) => {$(
        #[hook_handler("bench.declared", custom = true)]
        async fn $name(args: HookArgs) -> HookOutcome {
            if args.get("text").and_then(|t| t.as_str()).is_some_and(str::is_empty) {
                return HookOutcome::abort();
            }
            HookOutcome::proceed()
        }
    )*};
}

handlers!(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9);

/// Their entries, for a dispatcher with a spec of [`HOOK`].
pub(crate) fn entries() -> Vec<HookHandlerEntry> {
    let entries: Vec<HookHandlerEntry> = DeclaredHookHandler::all()
        .into_iter()
        .filter(|h| h.hook() == HOOK)
        .map(|h| HookHandlerEntry::from_declared(h, None))
        .collect();
    assert_eq!(entries.len(), 10);
    entries
}
