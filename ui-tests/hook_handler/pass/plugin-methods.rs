//! Hook handlers as `#[plugin]` methods: they register under the plugin's id and need its instance.

use std::sync::atomic::{AtomicUsize, Ordering};
use toolhook::hooks::{HookArgs, HookContext, HookOutcome, payload::ChatReceiveBeforeProcess};
use toolhook::{DeclaredHookHandler, hook_handler, plugin};

#[derive(Default)]
struct Counter {
    seen: AtomicUsize,
}

#[plugin(id = "acme.counter")]
impl Counter {
    /// Counts messages.
    #[hook_handler("chat.receive.before_process", mode = "observe")]
    async fn count(&self, _payload: &ChatReceiveBeforeProcess, _ctx: &HookContext) {
        self.seen.fetch_add(1, Ordering::Relaxed);
    }

    #[hook_handler("send_service.before_send", name = "tag", order = "late", error_policy = "log")]
    async fn tag_outgoing(&self, mut args: HookArgs) -> Result<HookOutcome, String> {
        args.insert("seen", self.seen.load(Ordering::Relaxed) as u64);
        Ok(HookOutcome::modify(args))
    }
}

fn main() {
    let handlers: Vec<DeclaredHookHandler> = DeclaredHookHandler::all();
    let names: Vec<String> = handlers.iter().map(|h| h.full_name()).collect();
    assert_eq!(names, ["acme.counter.count", "acme.counter.tag"]);
    assert!(handlers.iter().all(|h| h.is_method()));
    assert_eq!(handlers[0].description(), "Counts messages.");
    assert!(handlers[0].payload_schema().is_some());
}
