//! Handler names kept for the life of the process.
//!
//! Every handler call hands its handler a [`HookContext`](toolhook::hooks::HookContext) naming
//! the hook and the handler. Shared by reference count, that is two atomic read-modify-writes
//! per call (one to hand it over, one when the handler is done), about a tenth of what the
//! dispatcher adds to a small handler. A program registers a handful of distinct handler names,
//! each usually for as long as it runs, so the names of a registered handler are kept once for
//! the life of the process instead, and a call's context copies a pointer.
//!
//! What is kept is bounded: once [`MAX_KEPT`] distinct names are kept (a host that makes up
//! handler names as it goes), further handlers share theirs by reference count, as before.
//! Registering the same names again keeps nothing new.

use rustc_hash::FxHashSet as HashSet;
use std::sync::{Arc, Mutex};
use toolhook::hooks::{HookNames, SharedNames};

/// The most distinct handler names kept for the life of the process.
pub(crate) const MAX_KEPT: usize = 4096;

/// The names kept so far.
static KEPT: Mutex<Option<HashSet<&'static HookNames>>> = Mutex::new(None);

/// `names`, kept for the life of the process unless [`MAX_KEPT`] distinct names already are.
pub(crate) fn keep(names: HookNames) -> SharedNames {
    let mut kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
    let kept = kept.get_or_insert_with(HashSet::default);
    if let Some(&same) = kept.get(&names) {
        return SharedNames::Static(same);
    }
    if kept.len() >= MAX_KEPT {
        return SharedNames::Counted(Arc::new(names));
    }
    // Kept on purpose for the rest of the process, like a `static`: bounded above.
    let names: &'static HookNames = Box::leak(Box::new(names));
    kept.insert(names);
    SharedNames::Static(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_names_are_kept_once() {
        let one = keep(HookNames::new("names.test", "acme.names", "once"));
        let two = keep(HookNames::new("names.test", "acme.names", "once"));
        match (one, two) {
            (SharedNames::Static(one), SharedNames::Static(two)) => assert!(std::ptr::eq(one, two)),
            // Another test of this binary may have filled the store: then both are counted.
            (one, two) => assert_eq!(one, two),
        }
    }

    #[test]
    fn past_the_bound_names_are_counted() {
        // Fill the store with names no other test uses, then one more.
        for i in 0..MAX_KEPT {
            let _ = keep(HookNames::new("names.bound", "acme.names", format!("h{i}")));
        }
        let extra = keep(HookNames::new("names.bound", "acme.names", "one_too_many"));
        assert!(matches!(extra, SharedNames::Counted(_)), "{extra:?}");
        assert_eq!(extra.full_name().as_ref(), "acme.names.one_too_many");
        assert!(KEPT.lock().unwrap().as_ref().unwrap().len() <= MAX_KEPT);
    }
}
