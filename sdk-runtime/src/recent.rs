//! A thread's last few entries of a memo: what the per-thread memos of name spaces
//! ([`recent_routes`](crate::recent_routes)) and of prepared hooks (`hooks::recent`) keep.
//!
//! A handful of entries, replaced oldest first, found by comparing: no lock, no hashing, no
//! allocation. A memo that is in use (a lookup that calls back into it) or being torn down with
//! its thread answers nothing, which its callers take as a miss.

use std::cell::RefCell;
use std::thread::LocalKey;

/// Entries kept per thread and memo.
const ENTRIES: usize = 4;

/// One thread's entries of one memo.
pub(crate) struct Recent<T> {
    entries: [Option<T>; ENTRIES],
    /// The entry the next one replaces.
    next: usize,
}

impl<T> Recent<T> {
    /// No entries.
    pub(crate) const fn new() -> Self {
        Recent { entries: [const { None }; ENTRIES], next: 0 }
    }
}

/// `take` of this thread's first entry that `matches`.
#[inline]
pub(crate) fn find<T: 'static, R>(
    memo: &'static LocalKey<RefCell<Recent<T>>>,
    matches: impl FnMut(&&T) -> bool,
    take: impl FnOnce(&T) -> Option<R>,
) -> Option<R> {
    memo.try_with(|recent| take(recent.try_borrow().ok()?.entries.iter().flatten().find(matches)?)).ok().flatten()
}

/// Keeps `entry`, replacing this thread's oldest.
pub(crate) fn remember<T: 'static>(memo: &'static LocalKey<RefCell<Recent<T>>>, entry: impl FnOnce() -> T) {
    let _ = memo.try_with(|recent| {
        let Ok(mut recent) = recent.try_borrow_mut() else { return };
        let at = recent.next;
        recent.next = (at + 1) % ENTRIES;
        recent.entries[at] = Some(entry());
    });
}
