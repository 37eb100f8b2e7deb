//! [`HookArgs`]: the JSON object a hook is fired with.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt;
use std::ops::{Deref, DerefMut};

/// The arguments ("kwargs") a hook is fired with: a JSON object.
///
/// A handler that takes `HookArgs` gets a copy of the current arguments; returning
/// [`HookOutcome::modify(args)`](super::HookOutcome::modify) replaces them entirely, so a handler can
/// add, change and remove keys. It dereferences to the underlying [`serde_json::Map`], so every map
/// method is available.
///
/// ```
/// use serde_json::json;
/// use toolhook::hooks::HookArgs;
///
/// let mut args = HookArgs::new();
/// args.insert("text", "hi");
/// args.insert("count", 2);
/// assert_eq!(args.get("text"), Some(&json!("hi")));
/// assert_eq!(args.get_as::<u32>("count")?, Some(2));
/// assert_eq!(args.get_as::<u32>("missing")?, None);
/// assert!(args.get_as::<u32>("text").is_err());
///
/// args.remove("count");
/// assert_eq!(serde_json::to_string(&args)?, r#"{"text":"hi"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct HookArgs(Map<String, Value>);

impl HookArgs {
    /// Empty arguments.
    pub fn new() -> Self {
        HookArgs(Map::new())
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// The value of `key` deserialised into `T`: `Ok(None)` when the key is absent, `Err` naming the
    /// key when the value does not fit `T`.
    pub fn get_as<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, HookArgError> {
        match self.0.get(key) {
            None => Ok(None),
            Some(value) => {
                T::deserialize(value).map(Some).map_err(|e| HookArgError { key: key.to_owned(), reason: e.to_string() })
            }
        }
    }

    /// Sets `key` to `value`, returning the previous value.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) -> Option<Value> {
        self.0.insert(key.into(), value.into())
    }

    /// Removes `key`, keeping the order of the other keys; returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.shift_remove(key)
    }

    /// Serialises `value`; `None` unless it serialises to a JSON object.
    ///
    /// ```
    /// use toolhook::hooks::HookArgs;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Reply { text: String }
    ///
    /// let args = HookArgs::from_serialize(&Reply { text: "hi".into() }).unwrap();
    /// assert_eq!(args.get_as::<String>("text").unwrap().as_deref(), Some("hi"));
    /// assert!(HookArgs::from_serialize(&5).is_none());
    /// ```
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Option<Self> {
        match serde_json::to_value(value) {
            Ok(Value::Object(map)) => Some(HookArgs(map)),
            _ => None,
        }
    }

    /// Deserialises the whole object into `P`, as a typed `#[hook_handler]` receives it. The error
    /// names the JSON path of the first value that does not fit (`a.b[2]`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolhook::hooks::HookArgs;
    ///
    /// #[derive(Debug, serde::Deserialize)]
    /// struct Message { text: String }
    ///
    /// let args = HookArgs::try_from(json!({"text": "hi", "extra": 1})).unwrap();
    /// assert_eq!(args.parse::<Message>().unwrap().text, "hi");
    ///
    /// let args = HookArgs::try_from(json!({"text": 5})).unwrap();
    /// let error = args.parse::<Message>().unwrap_err();
    /// assert_eq!(error.path(), "text");
    /// assert_eq!(error.to_string(), "invalid payload: text: invalid type: integer `5`, expected a string");
    /// ```
    pub fn parse<P: DeserializeOwned>(&self) -> Result<P, PayloadError> {
        serde_path_to_error::deserialize(&self.0).map_err(PayloadError::from_path_error)
    }

    /// Like [`parse`](Self::parse), consuming the arguments (no copies of their strings).
    pub fn into_payload<P: DeserializeOwned>(self) -> Result<P, PayloadError> {
        serde_path_to_error::deserialize(self.0).map_err(PayloadError::from_path_error)
    }

    /// The underlying map.
    pub fn into_inner(self) -> Map<String, Value> {
        self.0
    }
}

impl fmt::Debug for HookArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// Compact JSON, as `serde_json::to_string` writes it.
impl fmt::Display for HookArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match serde_json::to_string(&self.0) {
            Ok(text) => f.write_str(&text),
            Err(_) => Err(fmt::Error),
        }
    }
}

impl Deref for HookArgs {
    type Target = Map<String, Value>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for HookArgs {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl From<Map<String, Value>> for HookArgs {
    fn from(map: Map<String, Value>) -> Self {
        HookArgs(map)
    }
}

impl From<HookArgs> for Map<String, Value> {
    fn from(args: HookArgs) -> Self {
        args.0
    }
}

impl From<HookArgs> for Value {
    fn from(args: HookArgs) -> Self {
        Value::Object(args.0)
    }
}

/// Accepts a JSON object; any other value is given back as the error.
impl TryFrom<Value> for HookArgs {
    type Error = Value;
    fn try_from(value: Value) -> Result<Self, Value> {
        match value {
            Value::Object(map) => Ok(HookArgs(map)),
            other => Err(other),
        }
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for HookArgs {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        HookArgs(iter.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> Extend<(K, V)> for HookArgs {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(|(k, v)| (k.into(), v.into())));
    }
}

impl IntoIterator for HookArgs {
    type Item = (String, Value);
    type IntoIter = serde_json::map::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a HookArgs {
    type Item = (&'a String, &'a Value);
    type IntoIter = serde_json::map::Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// A value of [`HookArgs`] that does not fit the type [`HookArgs::get_as`] asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("argument `{key}`: {reason}")]
pub struct HookArgError {
    key: String,
    reason: String,
}

impl HookArgError {
    /// The key whose value did not fit.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// serde's reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// Hook arguments that do not deserialise into a typed payload.
///
/// Its `Display` is the English handler failure text: `invalid payload: {path}: {reason}`, or
/// `invalid payload: {reason}` for an error at the document root. The dispatcher words it in its
/// own locale from [`path`](Self::path) and [`reason`](Self::reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadError {
    path: String,
    reason: String,
}

impl PayloadError {
    /// An error at `path` (`""` for the root).
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        PayloadError { path: path.into(), reason: reason.into() }
    }

    fn from_path_error(error: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let path = error.path().to_string();
        let path = if path == "." { String::new() } else { path };
        PayloadError { path, reason: error.into_inner().to_string() }
    }

    /// The JSON path of the value that did not fit (`a.b[2]`), `""` at the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// serde's reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// `{path}: {reason}`, or `{reason}` at the root: the part after `invalid payload: `.
    pub fn detail(&self) -> String {
        if self.path.is_empty() { self.reason.clone() } else { format!("{}: {}", self.path, self.reason) }
    }
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid payload: {}", self.detail())
    }
}

impl std::error::Error for PayloadError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Nested {
        a: Inner,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        b: Vec<u8>,
    }

    fn args(value: Value) -> HookArgs {
        HookArgs::try_from(value).unwrap()
    }

    #[test]
    fn payload_errors_name_the_path_of_the_bad_value() {
        let error = args(json!({"a": {"b": [1, 2, "x"]}})).parse::<Nested>().unwrap_err();
        assert_eq!(error.path(), "a.b[2]");
        assert!(error.to_string().starts_with("invalid payload: a.b[2]: invalid type: string"), "{error}");
    }

    #[test]
    fn payload_errors_at_the_root_have_no_path() {
        let error = args(json!({})).into_payload::<Nested>().unwrap_err();
        assert_eq!(error.path(), "");
        assert_eq!(error.to_string(), "invalid payload: missing field `a`");
    }

    #[test]
    fn remove_keeps_the_order_of_the_other_keys() {
        let mut a = args(json!({"x": 1, "y": 2, "z": 3}));
        a.remove("x");
        assert_eq!(a.to_string(), r#"{"y":2,"z":3}"#);
    }

    #[test]
    fn serialises_as_the_bare_object() {
        let a: HookArgs = serde_json::from_str(r#"{"b":1,"a":2}"#).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"b":1,"a":2}"#);
        assert!(serde_json::from_str::<HookArgs>("[1]").is_err());
    }
}
