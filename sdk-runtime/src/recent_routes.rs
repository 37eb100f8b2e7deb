//! The name spaces each thread routed its last calls with.
//!
//! Finding a call's name space through the registry's shared caches takes the provider set's
//! lock, each provider's listing slot and a hashed lookup in the bounded name-space cache: a
//! handful of atomic read-modify-writes on memory every thread shares, which cost more than the
//! rest of the lookup together and contend when many threads call at once. Calls come in runs
//! from the same few kinds of caller, so each thread keeps the name spaces of its last few
//! callers and finds them again by comparing, with no lock and no allocation.
//!
//! An entry stands for one registry at one generation (the count of changes that can change a
//! name space: providers registered or removed, providers announcing new tools) and one caller,
//! told apart by every part of the context that any provider's listing or any access rule reads.
//! It holds its name space weakly: one the registry's cache let go of is not kept alive here,
//! and whatever it holds (providers, listings) is freed as it would be without this memo.

use crate::context_parts::{ContextParts, ContextView};
use crate::recent::{self, Recent};
use crate::routes::Routes;
use std::cell::RefCell;
use std::sync::{Arc, Weak};
use toolhook::{Locale, ToolAvailabilityContext};

struct Entry {
    registry: u64,
    generation: u64,
    /// The parts of the context the caller is told apart by.
    parts: ContextParts,
    /// The caller's context projected on `parts` in the locale it was routed in; `None` for a
    /// caller without a context.
    caller: Option<ToolAvailabilityContext>,
    routes: Weak<Routes>,
}

impl Entry {
    fn serves(&self, registry: u64, generation: u64, ctx: Option<ContextView<'_>>, locale: Locale) -> bool {
        self.registry == registry
            && self.generation == generation
            && match (&self.caller, ctx) {
                (None, None) => true,
                (Some(caller), Some(ctx)) => self.parts.projects_to(ctx, locale, caller),
                _ => false,
            }
    }
}

thread_local! {
    static RECENT: RefCell<Recent<Entry>> = const { RefCell::new(Recent::new()) };
}

/// The name space this thread last routed such a caller with in this registry at this
/// generation, if the registry still has it.
#[inline]
pub(crate) fn find(
    registry: u64,
    generation: u64,
    ctx: Option<ContextView<'_>>,
    locale: Locale,
) -> Option<Arc<Routes>> {
    recent::find(&RECENT, |e| e.serves(registry, generation, ctx, locale), |e| e.routes.upgrade())
}

/// Remembers the name space a caller was routed with, replacing this thread's oldest entry.
pub(crate) fn remember(
    registry: u64,
    generation: u64,
    parts: ContextParts,
    ctx: Option<ContextView<'_>>,
    locale: Locale,
    routes: &Arc<Routes>,
) {
    recent::remember(&RECENT, || {
        let caller = ctx.map(|ctx| parts.project(ctx, locale));
        Entry { registry, generation, parts, caller, routes: Arc::downgrade(routes) }
    });
}
