//! Which plugins the host treats as built-in.

use crate::source::Source;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

type IdPredicate = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The host's verdict on which plugins are built-in: they sort first in hook dispatch and win
/// contested tool names. A plugin cannot declare itself built-in.
///
/// ```
/// use toolhook_runtime::{HostClassification, Source};
///
/// let classes = HostClassification::default().builtin(["acme.core"]).builtin_if(|id| id.starts_with("host."));
/// assert_eq!(classes.classify("acme.core"), Source::Builtin);
/// assert_eq!(classes.classify("host.audit"), Source::Builtin);
/// assert_eq!(classes.classify("someone.else"), Source::ThirdParty);
/// ```
#[derive(Clone, Default)]
pub struct HostClassification {
    ids: BTreeSet<String>,
    predicates: Vec<IdPredicate>,
}

impl fmt::Debug for HostClassification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostClassification")
            .field("builtin", &self.ids)
            .field("predicates", &self.predicates.len())
            .finish()
    }
}

impl HostClassification {
    /// These plugin ids are built-in.
    pub fn builtin<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.ids.extend(ids.into_iter().map(Into::into));
        self
    }

    /// Plugins whose id satisfies the predicate are built-in.
    pub fn builtin_if(mut self, predicate: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        self.predicates.push(Arc::new(predicate));
        self
    }

    /// The source rank of a plugin.
    pub fn classify(&self, id: &str) -> Source {
        if self.ids.contains(id) || self.predicates.iter().any(|p| p(id)) {
            Source::Builtin
        } else {
            Source::ThirdParty
        }
    }
}
