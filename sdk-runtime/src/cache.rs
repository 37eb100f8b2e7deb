//! The bounded caches the runtime keeps (listings, name spaces, discovery state, warnings): one
//! kind, with a fast hasher, so every cache has a size limit and costs little to read.

use quick_cache::UnitWeighter;
use quick_cache::sync::{Cache, DefaultLifecycle};
use rustc_hash::FxBuildHasher;

/// A concurrent cache of at most about `capacity` entries (least useful ones evicted first).
pub(crate) type Bounded<K, V> = Cache<K, V, UnitWeighter, FxBuildHasher, DefaultLifecycle<K, V>>;

/// A cache of about `capacity` entries (at least one).
pub(crate) fn bounded<K: Eq + std::hash::Hash, V: Clone>(capacity: usize) -> Bounded<K, V> {
    let capacity = capacity.max(1);
    Cache::with(capacity, capacity as u64, UnitWeighter, FxBuildHasher, DefaultLifecycle::default())
}
