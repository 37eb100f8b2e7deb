//! A dispatch runs the handlers and follows the spec as they are now: after handlers are
//! registered or removed and after a spec changes, on the thread that dispatched before too, for
//! each dispatcher; and removed handlers are let go, whichever threads dispatched to them.

use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use toolhook::hooks::{HookArgs, HookContext, HookOutcome};
use toolhook_runtime::Source;
use toolhook_runtime::hooks::{HookDispatcher, HookHandlerEntry, HookSpec, HookSpecRegistry};

const HOOK: &str = "fresh.hook";

fn dispatcher() -> HookDispatcher {
    let specs = HookSpecRegistry::new();
    specs.register(HookSpec::new(HOOK)).unwrap();
    HookDispatcher::builder().specs(specs).build()
}

/// A handler that appends its name to the `seen` list of the arguments.
fn marker(name: &'static str) -> HookHandlerEntry {
    HookHandlerEntry::new(name, HOOK, move |mut args: HookArgs, _: HookContext| async move {
        let mut seen = args.get("seen").and_then(|s| s.as_array()).cloned().unwrap_or_default();
        seen.push(json!(name));
        args.insert("seen", seen);
        HookOutcome::modify(args)
    })
}

async fn seen(dispatcher: &HookDispatcher) -> Vec<String> {
    let fired = dispatcher.invoke_with(HOOK, &json!({})).await.unwrap();
    let seen = fired.kwargs.get("seen").and_then(|s| s.as_array()).cloned().unwrap_or_default();
    seen.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()
}

#[tokio::test]
async fn handlers_registered_or_removed_are_seen_by_the_next_dispatch() {
    let dispatcher = dispatcher();
    dispatcher.register_plugin("acme.one", Source::ThirdParty, vec![marker("first")]).unwrap();
    for _ in 0..3 {
        assert_eq!(seen(&dispatcher).await, ["first"]);
    }
    dispatcher.register_plugin("acme.two", Source::ThirdParty, vec![marker("second")]).unwrap();
    assert_eq!(seen(&dispatcher).await, ["first", "second"]);
    assert!(dispatcher.unregister_plugin("acme.one"));
    assert_eq!(seen(&dispatcher).await, ["second"]);
    assert!(dispatcher.unregister_plugin("acme.two"));
    assert!(seen(&dispatcher).await.is_empty());
}

#[tokio::test]
async fn a_spec_changed_after_a_dispatch_rules_the_next_one() {
    let dispatcher = dispatcher();
    dispatcher.register_plugin("acme.one", Source::ThirdParty, vec![marker("first")]).unwrap();
    for _ in 0..3 {
        assert_eq!(seen(&dispatcher).await, ["first"]);
    }
    // The same hook, now refusing changes to its arguments.
    let mut strict = HookSpec::new(HOOK);
    strict.allow_kwargs_mutation = false;
    dispatcher.specs().register(strict).unwrap();
    let fired = dispatcher.invoke_with(HOOK, &json!({})).await.unwrap();
    assert!(fired.kwargs.get("seen").is_none(), "{fired:?}");
    assert_eq!(fired.errors.len(), 1, "{fired:?}");
    // And back.
    dispatcher.specs().register(HookSpec::new(HOOK)).unwrap();
    assert_eq!(seen(&dispatcher).await, ["first"]);
}

#[tokio::test]
async fn two_dispatchers_on_one_thread_keep_to_their_own_handlers() {
    let (one, two) = (dispatcher(), dispatcher());
    one.register_plugin("acme.one", Source::ThirdParty, vec![marker("in_one")]).unwrap();
    two.register_plugin("acme.two", Source::ThirdParty, vec![marker("in_two")]).unwrap();
    for _ in 0..3 {
        assert_eq!(seen(&one).await, ["in_one"]);
        assert_eq!(seen(&two).await, ["in_two"]);
    }
}

#[tokio::test]
async fn removed_handlers_are_let_go() {
    struct Flag(Arc<AtomicBool>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::new(Flag(dropped.clone()));
    let dispatcher = dispatcher();
    let entry = HookHandlerEntry::new("holder", HOOK, move |args: HookArgs, _: HookContext| {
        let _held = Arc::clone(&flag);
        async move { HookOutcome::modify(args) }
    });
    dispatcher.register_plugin("acme.holder", Source::ThirdParty, vec![entry]).unwrap();
    for _ in 0..3 {
        assert!(dispatcher.invoke_with(HOOK, &json!({})).await.unwrap().errors.is_empty());
    }
    assert!(!dropped.load(Ordering::SeqCst));
    assert!(dispatcher.unregister_plugin("acme.holder"));
    assert!(dropped.load(Ordering::SeqCst), "the handler outlived its unregistration");
}
