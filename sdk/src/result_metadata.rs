//! A tool result's metadata: a JSON object whose entry naming the result's origin (a plugin's
//! `plugin_id`, an MCP server's `server_name`) is shared by every result of that origin.

use serde::ser::SerializeMap;
use serde_json::{Map, Value};
use std::sync::Arc;

/// One metadata entry made once and shared by many results: the `plugin_id` of every result
/// of a plugin's tools, the `server_name` of every result from an MCP server. Cloning it is a
/// reference count, so naming a result's origin costs no allocation.
///
/// ```
/// use toolhook::{SharedEntry, ToolExecutionResult};
///
/// let origin = SharedEntry::new("plugin_id", "acme.weather");
/// let mut result = ToolExecutionResult::success("weather", "sunny");
/// result.metadata.share(origin.clone());
/// assert_eq!(result.metadata["plugin_id"], "acme.weather");
/// ```
#[derive(Clone, PartialEq)]
pub struct SharedEntry(Arc<(String, Value)>);

impl SharedEntry {
    /// The entry `key: value`.
    pub fn new(key: impl Into<String>, value: impl Into<Value>) -> Self {
        SharedEntry(Arc::new((key.into(), value.into())))
    }

    /// Its key.
    pub fn key(&self) -> &str {
        &self.0.0
    }

    /// Its value.
    pub fn value(&self) -> &Value {
        &self.0.1
    }

    /// The key and value, owned (copied when the entry is still shared).
    fn into_parts(self) -> (String, Value) {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| (*shared).clone())
    }
}

impl std::fmt::Debug for SharedEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entry(&self.key(), self.value()).finish()
    }
}

/// The metadata of a [`ToolExecutionResult`](crate::ToolExecutionResult): a JSON object, read and
/// written like `serde_json`'s [`Map`], serialized as one.
///
/// What sets it apart is one [shared entry](SharedEntry), which providers use to name where a
/// result comes from (`plugin_id`, `server_name`) without allocating per result. The shared entry
/// is an entry like the others to every reader: [`get`](Self::get), [`iter`](Self::iter) (where
/// it comes last), indexing and serialization all include it, and [`insert`](Self::insert) or
/// [`remove`](Self::remove) of its key replace or remove it. Keys are unique across both parts.
///
/// Indexing with a key that is not there gives [`Value::Null`], as indexing a [`Value`] does,
/// rather than panicking.
///
/// ```
/// use serde_json::json;
/// use toolhook::{ResultMetadata, SharedEntry};
///
/// let mut metadata = ResultMetadata::new();
/// metadata.insert("cached".into(), json!(true));
/// metadata.share(SharedEntry::new("server_name", "brave"));
/// assert_eq!(metadata["server_name"], "brave");
/// assert_eq!(metadata["missing"], json!(null));
/// assert_eq!(serde_json::to_string(&metadata).unwrap(), r#"{"cached":true,"server_name":"brave"}"#);
///
/// // Writing the shared key makes the entry the result's own.
/// metadata.insert("server_name".into(), json!("other"));
/// assert!(metadata.shared().is_none());
/// assert_eq!(metadata.len(), 2);
/// ```
#[derive(Clone, Default)]
pub struct ResultMetadata {
    /// Entries of this result alone (boxed: most results have none, and results move often).
    own: Option<Box<Map<String, Value>>>,
    /// The entry shared with other results; its key is never also in `own`.
    shared: Option<SharedEntry>,
}

static NULL: Value = Value::Null;

impl ResultMetadata {
    /// No entries.
    pub const fn new() -> Self {
        ResultMetadata { own: None, shared: None }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match &self.shared {
            Some(shared) if shared.key() == key => Some(shared.value()),
            _ => self.own.as_deref()?.get(key),
        }
    }

    /// The value of `key`, to change it (a shared entry becomes this result's own first).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.shared.as_ref().is_some_and(|s| s.key() == key) {
            self.unshare();
        }
        self.own.as_deref_mut()?.get_mut(key)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`, giving the value it had.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        let previous = self.shared.take_if(|s| s.key() == key).map(|shared| shared.into_parts().1);
        let own = self.own.get_or_insert_default().insert(key, value);
        previous.or(own)
    }

    /// Removes `key`, giving its value (the other entries keep their order).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        if let Some(shared) = self.shared.take_if(|s| s.key() == key) {
            return Some(shared.into_parts().1);
        }
        self.own.as_deref_mut()?.shift_remove(key)
    }

    /// Makes `entry` the shared entry, replacing an entry with its key (shared or own). A shared
    /// entry with another key stays, as this result's own: one result can name both the server
    /// that answered and the plugin that passed the answer on.
    pub fn share(&mut self, entry: SharedEntry) {
        if self.shared.as_ref().is_some_and(|s| s.key() != entry.key()) {
            self.unshare();
        }
        if let Some(own) = self.own.as_deref_mut() {
            own.shift_remove(entry.key());
        }
        self.shared = Some(entry);
    }

    /// The shared entry, if any.
    pub fn shared(&self) -> Option<&SharedEntry> {
        self.shared.as_ref()
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.own.as_deref().map_or(0, Map::len) + usize::from(self.shared.is_some())
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries: this result's own in the order they were inserted, then the shared one.
    pub fn iter(&self) -> ResultMetadataIter<'_> {
        ResultMetadataIter { own: self.own.as_deref().map(Map::iter), shared: self.shared.as_ref() }
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
    /// (`entry`, `retain`, `iter_mut`, …). The shared entry becomes this result's own (the last
    /// entry) first.
    pub fn as_map_mut(&mut self) -> &mut Map<String, Value> {
        self.unshare();
        self.own.get_or_insert_default()
    }

    /// Keeps the entries for which `keep` says so, asking in [`iter`](Self::iter)'s order. A
    /// shared entry that `keep` changes becomes this result's own.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        if let Some(own) = self.own.as_deref_mut() {
            own.retain(&mut keep);
        }
        if let Some(shared) = self.shared.take() {
            let (key, mut value) = (shared.key().to_owned(), shared.value().clone());
            if !keep(&key, &mut value) {
                return;
            }
            if &value == shared.value() {
                self.shared = Some(shared);
            } else {
                self.own.get_or_insert_default().insert(key, value);
            }
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        *self = ResultMetadata::new();
    }

    /// The entries as a plain JSON object.
    pub fn into_map(self) -> Map<String, Value> {
        let mut map = self.own.map(|own| *own).unwrap_or_default();
        if let Some(shared) = self.shared {
            let (key, value) = shared.into_parts();
            map.insert(key, value);
        }
        map
    }

    /// Moves the shared entry among this result's own.
    fn unshare(&mut self) {
        if let Some(shared) = self.shared.take() {
            let (key, value) = shared.into_parts();
            self.own.get_or_insert_default().insert(key, value);
        }
    }
}

/// The entries of a [`ResultMetadata`], its own first, then the shared one.
#[derive(Clone, Debug)]
pub struct ResultMetadataIter<'a> {
    own: Option<serde_json::map::Iter<'a>>,
    shared: Option<&'a SharedEntry>,
}

impl<'a> Iterator for ResultMetadataIter<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(entry) = self.own.as_mut().and_then(Iterator::next) {
            return Some(entry);
        }
        self.own = None;
        self.shared.take().map(|shared| (&shared.0.0, &shared.0.1))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.own.as_ref().map_or(0, ExactSizeIterator::len) + usize::from(self.shared.is_some());
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
        m.share(SharedEntry::new("plugin_id", "p"));
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
        m.share(SharedEntry::new("plugin_id", "real"));
        assert_eq!(m["plugin_id"], "real");
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn writing_or_removing_the_shared_key_leaves_the_other_results_alone() {
        let entry = SharedEntry::new("plugin_id", "p");
        let mut a = ResultMetadata::new();
        a.share(entry.clone());
        let mut b = a.clone();
        assert_eq!(b.insert("plugin_id".into(), json!("q")), Some(json!("p")));
        assert_eq!((b.len(), &b["plugin_id"]), (1, &json!("q")));
        *a.get_mut("plugin_id").unwrap() = json!("r");
        assert!(a.shared().is_none());
        assert_eq!(entry.value(), "p");
        let mut c = ResultMetadata::new();
        c.share(entry.clone());
        assert_eq!(c.remove("plugin_id"), Some(json!("p")));
        assert!(c.is_empty() && c.get("plugin_id").is_none());
        assert_eq!(c["plugin_id"], Value::Null);
    }

    #[test]
    fn sharing_another_key_keeps_the_first_as_an_own_entry() {
        let mut m = ResultMetadata::new();
        m.share(SharedEntry::new("server_name", "brave"));
        m.share(SharedEntry::new("plugin_id", "p"));
        assert_eq!(serde_json::to_value(&m).unwrap(), json!({"server_name": "brave", "plugin_id": "p"}));
        assert_eq!(m.shared().map(SharedEntry::key), Some("plugin_id"));
        m.share(SharedEntry::new("plugin_id", "q"));
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
    fn reads_back_what_it_wrote() {
        let text = serde_json::to_string(&shared()).unwrap();
        let back: ResultMetadata = serde_json::from_str(&text).unwrap();
        assert_eq!(back, shared());
        assert!(back.shared().is_none());
        assert_eq!(ResultMetadata::from(Map::new()), ResultMetadata::new());
    }
}
