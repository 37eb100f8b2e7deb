//! What a dispatch of a hook needs, prepared once per change and found again by each thread
//! without a lock.
//!
//! A dispatch needs the hook's handlers in order and its spec. Looking them up took the
//! dispatcher's state lock, the spec registry's lock and a search of its map, and counted a
//! reference to each: several atomic read-modify-writes on memory every thread shares, per
//! dispatch. Both change rarely (a plugin registered or removed, a spec registered), so the pair is
//! prepared once per change of either ([`Prepared`]) and each thread remembers the last few it
//! used, by dispatcher, generation and hook name.
//!
//! A remembered pair is held weakly: handlers that were unregistered (and whatever their closures
//! hold, a plugin instance say) are not kept alive by a thread that once dispatched to them.

use super::dispatcher::Handler;
use super::spec::HookSpec;
use crate::recent::{self, Recent};
use std::cell::RefCell;
use std::sync::{Arc, Weak};

/// A hook's handlers in dispatch order, and its spec.
pub(crate) struct Prepared {
    pub(crate) handlers: Arc<[Arc<Handler>]>,
    pub(crate) spec: Arc<HookSpec>,
}

/// The changes a [`Prepared`] is current for: the dispatcher's handlers' and the spec
/// registry's.
pub(crate) type Generation = (u64, u64);

struct Entry {
    dispatcher: u64,
    generation: Generation,
    hook: Arc<str>,
    prepared: Weak<Prepared>,
}

thread_local! {
    static RECENT: RefCell<Recent<Entry>> = const { RefCell::new(Recent::new()) };
}

/// The pair this thread last used for `hook` of this dispatcher at this generation, if it is
/// still current.
#[inline]
pub(crate) fn find(dispatcher: u64, generation: Generation, hook: &str) -> Option<Arc<Prepared>> {
    recent::find(
        &RECENT,
        |e| e.dispatcher == dispatcher && e.generation == generation && *e.hook == *hook,
        |e| e.prepared.upgrade(),
    )
}

/// Remembers the pair used for `hook`, replacing this thread's oldest entry.
pub(crate) fn remember(dispatcher: u64, generation: Generation, hook: Arc<str>, prepared: &Arc<Prepared>) {
    recent::remember(&RECENT, || Entry { dispatcher, generation, hook, prepared: Arc::downgrade(prepared) });
}
