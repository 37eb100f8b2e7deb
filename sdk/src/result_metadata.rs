//! A tool result's metadata: a JSON object whose entries naming the result's origin (a plugin's
//! `plugin_id`, an MCP server's `server_name` and session) are shared by every result of that
//! origin.

use serde::ser::SerializeMap;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Metadata entries made once and shared by many results: the `plugin_id` of every result of a
/// plugin's tools; the `server_name`, `protocol_version` and `session_id` of every result from
/// one connection to an MCP server. Cloning them is a reference count, so naming a result's
/// origin costs no allocation.
///
/// ```
/// use toolhook::{SharedEntries, ToolExecutionResult};
///
/// let origin = SharedEntries::new("plugin_id", "acme.weather");
/// let mut result = ToolExecutionResult::success("weather", "sunny");
/// result.metadata.share(origin.clone());
/// assert_eq!(result.metadata["plugin_id"], "acme.weather");
///
/// let server = SharedEntries::from_entries([("server_name", "brave"), ("protocol_version", "2025-11-25")]);
/// assert_eq!(server.len(), 2);
/// assert_eq!(server.get("server_name").and_then(|v| v.as_str()), Some("brave"));
/// ```
#[derive(Clone)]
pub struct SharedEntries(Entries);

/// How [`SharedEntries`] are held.
#[derive(Clone)]
enum Entries {
    /// Shared by reference count.
    Counted(Arc<[(String, Value)]>),
    /// Kept for the life of the process: a copy is a copy of a pointer.
    Kept(&'static [(String, Value)]),
}

impl std::ops::Deref for Entries {
    type Target = [(String, Value)];

    #[inline]
    fn deref(&self) -> &[(String, Value)] {
        match self {
            Entries::Counted(entries) => entries,
            Entries::Kept(entries) => entries,
        }
    }
}

impl PartialEq for SharedEntries {
    fn eq(&self, other: &Self) -> bool {
        *self.0 == *other.0
    }
}

/// The most distinct entry groups [`SharedEntries::kept`] keeps for the life of the process.
const MAX_KEPT: usize = 1024;

impl SharedEntries {
    /// The one entry `key: value`.
    pub fn new(key: impl Into<String>, value: impl Into<Value>) -> Self {
        SharedEntries(Entries::Counted(Arc::new([(key.into(), value.into())])))
    }

    /// The one entry `key: value`, kept for the life of the process (once per distinct entry),
    /// so that sharing it with a result copies a pointer instead of counting a reference (two
    /// atomic operations per result, one when it is made and one when it is dropped). For the
    /// few origins a program has, a plugin's `plugin_id` say; once 1,024 distinct ones are kept,
    /// further ones are counted as [`new`](Self::new) makes them.
    #[doc(hidden)]
    pub fn kept(key: &str, value: &str) -> Self {
        static KEPT: std::sync::Mutex<Vec<&'static [(String, Value)]>> = std::sync::Mutex::new(Vec::new());
        let mut kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        let same = |entries: &&&'static [(String, Value)]| matches!(entries, [(k, Value::String(v))] if k == key && v == value);
        if let Some(&entries) = kept.iter().find(same) {
            return SharedEntries(Entries::Kept(entries));
        }
        if kept.len() >= MAX_KEPT {
            return SharedEntries::new(key, value);
        }
        // Kept on purpose for the rest of the process, like a `static`: bounded above.
        let entries: &'static [(String, Value)] = Box::leak(Box::new([(key.to_owned(), Value::from(value))]));
        kept.push(entries);
        SharedEntries(Entries::Kept(entries))
    }

    /// Several entries, in order; a key given twice keeps its first place and its last value.
    pub fn from_entries<K: Into<String>, V: Into<Value>>(entries: impl IntoIterator<Item = (K, V)>) -> Self {
        let mut unique: Vec<(String, Value)> = Vec::new();
        for (key, value) in entries {
            let (key, value) = (key.into(), value.into());
            match unique.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => unique.push((key, value)),
            }
        }
        SharedEntries(Entries::Counted(unique.into()))
    }

    /// The value of `key`, when it is one of these entries.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, value)| value)
    }

    /// Whether `key` is one of these entries.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &Value)> + '_ {
        self.0.iter().map(|(key, value)| (key, value))
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for SharedEntries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The metadata of a [`ToolExecutionResult`](crate::ToolExecutionResult): a JSON object, read and
/// written like `serde_json`'s [`Map`], serialized as one.
///
/// What sets it apart are [shared entries](SharedEntries), which providers use to name where a
/// result comes from (`plugin_id`; `server_name`, `protocol_version`, `session_id`) without
/// allocating per result. Shared entries are entries like the others to every reader:
/// [`get`](Self::get), [`iter`](Self::iter) (where they come last), indexing and serialization
/// all include them, and [`insert`](Self::insert) or [`remove`](Self::remove) of one of their keys
/// replaces or removes it. Keys are unique across both parts.
///
/// Indexing with a key that is not there gives [`Value::Null`], as indexing a [`Value`] does,
/// rather than panicking.
///
/// ```
/// use serde_json::json;
/// use toolhook::{ResultMetadata, SharedEntries};
///
/// let mut metadata = ResultMetadata::new();
/// metadata.insert("cached".into(), json!(true));
/// metadata.share(SharedEntries::new("server_name", "brave"));
/// assert_eq!(metadata["server_name"], "brave");
/// assert_eq!(metadata["missing"], json!(null));
/// assert_eq!(serde_json::to_string(&metadata).unwrap(), r#"{"cached":true,"server_name":"brave"}"#);
///
/// // Writing a shared key makes the shared entries the result's own.
/// metadata.insert("server_name".into(), json!("other"));
/// assert!(metadata.shared().is_none());
/// assert_eq!(metadata.len(), 2);
/// ```
#[derive(Clone, Default)]
pub struct ResultMetadata {
    /// Entries of this result alone (boxed: most results have none, and results move often).
    own: Option<Box<Map<String, Value>>>,
    /// The entries shared with other results; none of their keys is also in `own`.
    shared: Option<SharedEntries>,
}

static NULL: Value = Value::Null;

impl ResultMetadata {
    /// No entries.
    pub const fn new() -> Self {
        ResultMetadata { own: None, shared: None }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self.shared.as_ref().and_then(|shared| shared.get(key)) {
            Some(value) => Some(value),
            None => self.own.as_deref()?.get(key),
        }
    }

    /// The value of `key`, to change it (shared entries become this result's own first).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.unshare_if_shares(key);
        self.own.as_deref_mut()?.get_mut(key)
    }

    /// Whether `key` has an entry.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`, giving the value it replaces. Setting a shared key makes the shared entries
    /// this result's own first; other results keep sharing them.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        self.unshare_if_shares(&key);
        self.own.get_or_insert_default().insert(key, value)
    }

    /// Removes `key`, giving its value. Removing a shared key makes the other shared entries
    /// this result's own.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.unshare_if_shares(key);
        self.own.as_deref_mut()?.shift_remove(key)
    }

    /// Shares `entries` with this result, replacing the entries of their keys (own or shared).
    /// Entries shared before become this result's own, unless `entries` has all their keys.
    #[inline]
    pub fn share(&mut self, entries: SharedEntries) {
        // A fresh result (what every tool call makes) has nothing to replace: decided in the
        // caller's code, without a call.
        if self.shared.is_some() || self.own.is_some() {
            self.make_room_for(&entries);
        }
        // An empty group shares nothing: `shared()` says so.
        self.shared = (!entries.is_empty()).then_some(entries);
    }

    /// Before [`share`](Self::share) replaces the shared group: the entries shared before become
    /// own ones unless `entries` has all their keys, and own entries of `entries`' keys go.
    fn make_room_for(&mut self, entries: &SharedEntries) {
        if let Some(before) = &self.shared
            && before.iter().any(|(key, _)| !entries.contains_key(key))
        {
            self.unshare();
        }
        if let Some(own) = self.own.as_deref_mut() {
            for (key, _) in entries.iter() {
                own.shift_remove(key);
            }
        }
    }

    /// The shared entries, if any.
    pub fn shared(&self) -> Option<&SharedEntries> {
        self.shared.as_ref()
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.own.as_deref().map_or(0, Map::len) + self.shared.as_ref().map_or(0, SharedEntries::len)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries: this result's own in the order they were inserted, then the shared ones.
    pub fn iter(&self) -> ResultMetadataIter<'_> {
        ResultMetadataIter {
            own: self.own.as_deref().map(Map::iter),
            shared: self.shared.as_ref().map_or(&[][..], |shared| &shared.0[..]).iter(),
        }
    }

    /// The keys, in [`iter`](Self::iter)'s order.
    pub fn keys(&self) -> impl Iterator<Item = &String> + '_ {
        self.iter().map(|(key, _)| key)
    }

    /// The values, in [`iter`](Self::iter)'s order.
    pub fn values(&self) -> impl Iterator<Item = &Value> + '_ {
        self.iter().map(|(_, value)| value)
    }

    /// Every entry as a plain, mutable JSON object, for whatever else a [`Map`] offers
    /// (`entry`, `retain`, `iter_mut`, …). The shared entries become this result's own (the
    /// last entries) first.
    pub fn as_map_mut(&mut self) -> &mut Map<String, Value> {
        self.unshare();
        self.own.get_or_insert_default()
    }

    /// Keeps the entries for which `keep` says so, asking in [`iter`](Self::iter)'s order. When
    /// `keep` drops or changes a shared entry, the shared entries become this result's own.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        if let Some(own) = self.own.as_deref_mut() {
            own.retain(&mut keep);
        }
        let Some(shared) = self.shared.take() else { return };
        let mut kept: Vec<(String, Value)> = Vec::with_capacity(shared.len());
        let mut unchanged = true;
        for (key, value) in shared.iter() {
            let mut value = value.clone();
            let original = shared.get(key);
            if keep(key, &mut value) {
                unchanged &= original == Some(&value);
                kept.push((key.clone(), value));
            } else {
                unchanged = false;
            }
        }
        if unchanged {
            self.shared = Some(shared);
        } else if !kept.is_empty() {
            self.own.get_or_insert_default().extend(kept);
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        *self = ResultMetadata::new();
    }

    /// The entries as a plain JSON object, in [`iter`](Self::iter)'s order.
    pub fn into_map(mut self) -> Map<String, Value> {
        self.unshare();
        self.own.map(|own| *own).unwrap_or_default()
    }

    /// Moves the shared entries among this result's own when `key` is one of them.
    fn unshare_if_shares(&mut self, key: &str) {
        if self.shared.as_ref().is_some_and(|shared| shared.contains_key(key)) {
            self.unshare();
        }
    }

    /// Moves the shared entries among this result's own (copied: other results still share them).
    fn unshare(&mut self) {
        if let Some(shared) = self.shared.take() {
            let own = self.own.get_or_insert_default();
            for (key, value) in shared.iter() {
                own.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The entries of a [`ResultMetadata`], its own first, then the shared ones.
#[derive(Clone, Debug)]
pub struct ResultMetadataIter<'a> {
    own: Option<serde_json::map::Iter<'a>>,
    shared: std::slice::Iter<'a, (String, Value)>,
}

impl<'a> Iterator for ResultMetadataIter<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(entry) = self.own.as_mut().and_then(Iterator::next) {
            return Some(entry);
        }
        self.own = None;
        self.shared.next().map(|(key, value)| (key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.own.as_ref().map_or(0, ExactSizeIterator::len) + self.shared.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for ResultMetadataIter<'_> {}

impl<'a> IntoIterator for &'a ResultMetadata {
    type Item = (&'a String, &'a Value);
    type IntoIter = ResultMetadataIter<'a>;

    fn into_iter(self) -> ResultMetadataIter<'a> {
        self.iter()
    }
}

impl std::fmt::Debug for ResultMetadata {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Equal when both have the same entries, in any order and whether shared or not (as two
/// [`Map`]s compare).
impl PartialEq for ResultMetadata {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|(key, value)| other.get(key) == Some(value))
    }
}

impl Eq for ResultMetadata {}

impl std::ops::Index<&str> for ResultMetadata {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl From<Map<String, Value>> for ResultMetadata {
    fn from(map: Map<String, Value>) -> Self {
        ResultMetadata { own: (!map.is_empty()).then(|| Box::new(map)), shared: None }
    }
}

impl From<ResultMetadata> for Map<String, Value> {
    fn from(metadata: ResultMetadata) -> Self {
        metadata.into_map()
    }
}

impl FromIterator<(String, Value)> for ResultMetadata {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(entries: I) -> Self {
        Map::from_iter(entries).into()
    }
}

impl IntoIterator for ResultMetadata {
    type Item = (String, Value);
    type IntoIter = serde_json::map::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl Extend<(String, Value)> for ResultMetadata {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, entries: I) {
        for (key, value) in entries {
            self.insert(key, value);
        }
    }
}

impl serde::Serialize for ResultMetadata {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, value) in self.iter() {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> serde::Deserialize<'de> for ResultMetadata {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Map::deserialize(deserializer).map(ResultMetadata::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shared() -> ResultMetadata {
        let mut m = ResultMetadata::from_iter([("a".to_owned(), json!(1)), ("b".to_owned(), json!(2))]);
        m.share(SharedEntries::new("plugin_id", "p"));
        m
    }

    #[test]
    fn the_shared_entry_reads_like_any_other_and_comes_last() {
        let m = shared();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get("plugin_id"), Some(&json!("p")));
        assert!(m.contains_key("a") && !m.contains_key("c"));
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "b", "plugin_id"]);
        assert_eq!(m.values().collect::<Vec<_>>(), [&json!(1), &json!(2), &json!("p")]);
        let owned: Vec<(String, Value)> = m.clone().into_iter().collect();
        assert_eq!(owned.last(), Some(&("plugin_id".to_owned(), json!("p"))));
        assert_eq!(serde_json::to_value(&m).unwrap(), json!({"a": 1, "b": 2, "plugin_id": "p"}));
        assert_eq!(m.clone().into_map(), json!({"a": 1, "b": 2, "plugin_id": "p"}).as_object().unwrap().clone());
    }

    #[test]
    fn sharing_replaces_an_own_entry_of_the_same_key() {
        let mut m = ResultMetadata::from_iter([("plugin_id".to_owned(), json!("forged")), ("x".to_owned(), json!(0))]);
        m.share(SharedEntries::new("plugin_id", "real"));
        assert_eq!(m["plugin_id"], "real");
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn writing_or_removing_the_shared_key_leaves_the_other_results_alone() {
        let entry = SharedEntries::new("plugin_id", "p");
        let mut a = ResultMetadata::new();
        a.share(entry.clone());
        let mut b = a.clone();
        assert_eq!(b.insert("plugin_id".into(), json!("q")), Some(json!("p")));
        assert_eq!((b.len(), &b["plugin_id"]), (1, &json!("q")));
        *a.get_mut("plugin_id").unwrap() = json!("r");
        assert!(a.shared().is_none());
        assert_eq!(entry.get("plugin_id"), Some(&json!("p")));
        let mut c = ResultMetadata::new();
        c.share(entry.clone());
        assert_eq!(c.remove("plugin_id"), Some(json!("p")));
        assert!(c.is_empty() && c.get("plugin_id").is_none());
        assert_eq!(c["plugin_id"], Value::Null);
    }

    #[test]
    fn sharing_another_key_keeps_the_first_as_an_own_entry() {
        let mut m = ResultMetadata::new();
        m.share(SharedEntries::new("server_name", "brave"));
        m.share(SharedEntries::new("plugin_id", "p"));
        assert_eq!(serde_json::to_value(&m).unwrap(), json!({"server_name": "brave", "plugin_id": "p"}));
        assert_eq!(m.shared().map(|s| s.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>()), Some(vec!["plugin_id"]));
        m.share(SharedEntries::new("plugin_id", "q"));
        assert_eq!((m.len(), &m["plugin_id"]), (2, &json!("q")));
    }

    #[test]
    fn map_operations_reach_every_entry() {
        let mut m = shared();
        let pairs: Vec<(&String, &Value)> = (&m).into_iter().collect();
        assert_eq!((pairs.len(), m.iter().len()), (3, 3));
        let mut asked = Vec::new();
        m.retain(|key, value| {
            asked.push(key.clone());
            if key == "plugin_id" {
                *value = json!("renamed");
            }
            key != "a"
        });
        assert_eq!(asked, ["a", "b", "plugin_id"]);
        assert_eq!(serde_json::to_value(&m).unwrap(), json!({"b": 2, "plugin_id": "renamed"}));
        assert!(m.shared().is_none());
        let mut n = shared();
        n.retain(|key, _| key != "plugin_id");
        assert_eq!(serde_json::to_value(&n).unwrap(), json!({"a": 1, "b": 2}));
        let mut o = shared();
        o.as_map_mut().entry("c").or_insert(json!(3));
        assert_eq!(o.keys().collect::<Vec<_>>(), ["a", "b", "plugin_id", "c"]);
        o.clear();
        assert!(o.is_empty());
    }

    #[test]
    fn equality_ignores_order_and_sharing() {
        let mut own = ResultMetadata::from_iter([("plugin_id".to_owned(), json!("p")), ("b".to_owned(), json!(2))]);
        own.insert("a".into(), json!(1));
        assert_eq!(own, shared());
        own.insert("a".into(), json!(0));
        assert_ne!(own, shared());
    }

    #[test]
    fn kept_entries_read_and_compare_as_counted_ones() {
        let kept = SharedEntries::kept("plugin_id", "acme.kept");
        let again = SharedEntries::kept("plugin_id", "acme.kept");
        assert_eq!(kept, SharedEntries::new("plugin_id", "acme.kept"));
        match (&kept.0, &again.0) {
            (Entries::Kept(one), Entries::Kept(two)) => assert!(std::ptr::eq(*one, *two), "kept twice"),
            _ => panic!("the entries were not kept"),
        }
        let mut metadata = ResultMetadata::new();
        metadata.share(kept);
        assert_eq!(metadata["plugin_id"], "acme.kept");
        assert_eq!(serde_json::to_string(&metadata).unwrap(), r#"{"plugin_id":"acme.kept"}"#);
        assert_ne!(SharedEntries::kept("plugin_id", "acme.other"), again);
    }

    #[test]
    fn reads_back_what_it_wrote() {
        let text = serde_json::to_string(&shared()).unwrap();
        let back: ResultMetadata = serde_json::from_str(&text).unwrap();
        assert_eq!(back, shared());
        assert!(back.shared().is_none());
        assert_eq!(ResultMetadata::from(Map::new()), ResultMetadata::new());
    }

    fn server() -> SharedEntries {
        SharedEntries::from_entries([
            ("server_name", json!("brave")),
            ("protocol_version", json!("2025-11-25")),
            ("session_id", json!("s-1")),
            ("server_name", json!("brave-2")),
        ])
    }

    #[test]
    fn several_shared_entries_read_like_own_ones_and_a_repeated_key_keeps_its_last_value() {
        let mut m = ResultMetadata::from_iter([("session_id".to_owned(), json!("forged")), ("x".to_owned(), json!(0))]);
        m.share(server());
        assert_eq!(m.len(), 4);
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            json!({"x": 0, "server_name": "brave-2", "protocol_version": "2025-11-25", "session_id": "s-1"})
        );
        assert_eq!(m.keys().collect::<Vec<_>>(), ["x", "server_name", "protocol_version", "session_id"]);
        assert_eq!(
            format!("{:?}", server()),
            r#"{"server_name": String("brave-2"), "protocol_version": String("2025-11-25"), "session_id": String("s-1")}"#
        );
    }

    #[test]
    fn changing_one_shared_entry_keeps_the_others_and_leaves_the_group_alone() {
        let group = server();
        let mut m = ResultMetadata::new();
        m.share(group.clone());
        assert_eq!(m.remove("session_id"), Some(json!("s-1")));
        assert!(m.shared().is_none());
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            json!({"server_name": "brave-2", "protocol_version": "2025-11-25"})
        );
        assert_eq!(group.get("session_id"), Some(&json!("s-1")));
        let mut n = ResultMetadata::new();
        n.share(group.clone());
        n.retain(|key, _| key != "protocol_version");
        assert_eq!(serde_json::to_value(&n).unwrap(), json!({"server_name": "brave-2", "session_id": "s-1"}));
        let mut o = ResultMetadata::new();
        o.share(group.clone());
        o.retain(|_, _| true);
        assert_eq!(o.shared(), Some(&group));
    }

    #[test]
    fn sharing_an_empty_group_shares_nothing() {
        let mut m = ResultMetadata::new();
        m.share(SharedEntries::from_entries(Vec::<(String, Value)>::new()));
        assert!(m.shared().is_none());
        m.share(SharedEntries::new("plugin_id", "p"));
        m.share(SharedEntries::from_entries(Vec::<(String, Value)>::new()));
        assert_eq!((m.shared(), m.len(), &m["plugin_id"]), (None, 1, &json!("p")));
    }

    #[test]
    fn sharing_a_group_with_every_key_of_the_last_replaces_it() {
        let mut m = ResultMetadata::new();
        m.share(SharedEntries::new("server_name", "old"));
        m.share(server());
        assert_eq!((m.len(), m.shared().map(SharedEntries::len)), (3, Some(3)));
        m.share(SharedEntries::new("plugin_id", "p"));
        assert_eq!(m.len(), 4);
        assert_eq!(m.shared().map(SharedEntries::len), Some(1));
    }
}
