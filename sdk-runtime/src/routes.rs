//! The routes of a registry: every available tool under one name space, with the provider that
//! serves it. Names are assigned here: duplicates under the registry's policy, and names no model
//! API accepts made into ones they all accept.

use crate::cache::{Bounded, bounded};
use crate::listing::Listing;
use crate::provider::ToolProvider;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use toolhook::{Dialect, Locale, ToolSpec};

/// What to do when two providers offer tools with the same name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicatePolicy {
    /// The first tool keeps the name; later ones are not listed (a warning names both sources).
    #[default]
    Skip,
    /// Later tools are renamed `{provider_type}_{source}_{name}`.
    Rename,
}

/// The longest tool name every model API accepts.
pub(crate) const MAX_NAME_LEN: usize = 64;

/// The longest piece of a name (or any other text a model or provider sent) echoed back in an
/// error or a log line.
const MAX_ECHO_CHARS: usize = 128;

/// Registry name → provider and listed copy, in order.
#[derive(Debug)]
pub(crate) struct Routes {
    pub(crate) order: Vec<Route>,
    pub(crate) index: HashMap<String, usize>,
    /// Tools the caller's access rules hide, and the rule that does (for the host, never the model).
    pub(crate) denied: HashMap<String, &'static str>,
    /// The definitions of these tools as JSON text, per dialect and locale, rendered on first
    /// request. A change of the tools makes a new name space, so these never go stale.
    rendered: Mutex<Vec<Rendered>>,
}

/// Definitions rendered for one dialect and locale.
type Rendered = ((Dialect, Locale), Arc<str>);

pub(crate) struct Route {
    pub(crate) provider: Arc<dyn ToolProvider>,
    pub(crate) original_name: String,
    pub(crate) listed: ToolSpec,
    /// Whether the provider lists this original name more than once (then the call must say
    /// which one it means).
    pub(crate) ambiguous: bool,
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Route")
            .field("provider", &self.provider.provider_name())
            .field("name", &self.listed.name())
            .field("original_name", &self.original_name)
            .finish()
    }
}

impl Routes {
    pub(crate) fn get(&self, name: &str) -> Option<&Route> {
        self.index.get(name).map(|&i| &self.order[i])
    }

    /// The definitions rendered for a dialect and locale, made by `render` on first request.
    pub(crate) fn rendered(&self, dialect: Dialect, locale: Locale, render: impl FnOnce() -> Arc<str>) -> Arc<str> {
        let key = (dialect, locale);
        let cached = |rendered: &[Rendered]| rendered.iter().find(|(k, _)| *k == key).map(|(_, text)| text.clone());
        if let Some(text) = cached(&self.rendered.lock().unwrap_or_else(|p| p.into_inner())) {
            return text;
        }
        // Rendered without the lock: two first requests may both render; both get equal text.
        let text = render();
        let mut rendered = self.rendered.lock().unwrap_or_else(|p| p.into_inner());
        match cached(&rendered) {
            Some(text) => text,
            None => {
                rendered.push((key, text.clone()));
                text
            }
        }
    }

    /// The access rule (`platform`, `scope`, `permission`) that hides a tool from this caller.
    pub(crate) fn denied_by(&self, name: &str) -> Option<&'static str> {
        self.denied.get(name).copied()
    }
}

/// Warnings logged once per registry for each (provider, tool) pair, remembered up to a bound.
pub(crate) struct Warnings(Bounded<(String, String), ()>);

impl Warnings {
    pub(crate) fn new() -> Self {
        Warnings(bounded(4096))
    }

    /// Whether this is the first time `what` is said of this tool (so the caller logs it).
    fn first(&self, what: &str, provider: &str, tool: &str) -> bool {
        let key = (format!("{what}:{provider}"), tool.to_owned());
        if self.0.get(&key).is_some() {
            return false;
        }
        self.0.insert(key, ());
        true
    }
}

/// Whether every model API accepts `name` as a tool name: 1 to 64 of `A-Z a-z 0-9 _ -`, not
/// starting with a digit or `-` (Gemini's rule, the strictest).
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_NAME_LEN
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
}

/// `text` cut to a length fit for an error message or a log line.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
    }
}

/// Every character outside `[A-Za-z0-9_-]` replaced by one `_`.
fn sanitise(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// The first 12 hex digits of SHA-256 of `input`.
fn hash12(input: &str) -> String {
    Sha256::digest(input.as_bytes()).iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// Assigns registry names to every candidate, in order (the candidates are already filtered:
/// enabled, not hidden, permitted in the context).
pub(crate) fn assign(policy: DuplicatePolicy, candidates: &[Candidate<'_>], warnings: &Warnings) -> Routes {
    let reserved: HashSet<&str> = candidates.iter().map(|c| c.spec().name()).collect();
    let mut per_provider: HashMap<(*const (), &str), usize> =
        HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
    for candidate in candidates {
        let provider = Arc::as_ptr(candidate.provider).cast::<()>();
        *per_provider.entry((provider, candidate.spec().name())).or_default() += 1;
    }
    let mut order: Vec<Route> = Vec::with_capacity(candidates.len());
    let mut index: HashMap<String, usize> = HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
    // Original names already claimed, and by whom: a name made valid is matched against these
    // too, so `web search` and `web_search` do not both become `web_search`.
    let mut claimed: HashMap<&str, usize> = HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
    for candidate in candidates {
        let (provider, spec) = (candidate.provider, candidate.spec());
        let original = spec.name();
        let name = if is_valid_tool_name(original) {
            Cow::Borrowed(original)
        } else {
            match make_valid(provider.as_ref(), original, &index, &reserved) {
                Some(valid) => {
                    if warnings.first("name", provider.provider_name(), original) {
                        tracing::warn!(
                            provider = provider.provider_name(),
                            tool = %shown(original),
                            renamed = %valid,
                            "tool name is not accepted by every model API; listed under a valid name"
                        );
                    }
                    Cow::Owned(valid)
                }
                None => continue,
            }
        };
        let registry_name = match claimed.get(original).or_else(|| index.get(name.as_ref())) {
            None => name.into_owned(),
            Some(&winner) => match policy {
                DuplicatePolicy::Skip => {
                    let winner = order[winner].provider.provider_name();
                    if warnings.first("skip", provider.provider_name(), original) {
                        tracing::warn!(
                            tool = %shown(original),
                            skipped_provider = provider.provider_name(),
                            winning_provider = winner,
                            "duplicate tool name: provider {}'s {} is skipped, {winner}'s keeps the name",
                            provider.provider_name(),
                            shown(original),
                        );
                    }
                    continue;
                }
                DuplicatePolicy::Rename => match rename(provider.as_ref(), spec, &index, &reserved) {
                    Some(name) => name,
                    None => continue,
                },
            },
        };
        let listed = candidate.listing.listed(candidate.index, &registry_name, provider.as_ref());
        claimed.entry(original).or_insert(order.len());
        index.insert(registry_name, order.len());
        let ambiguous = per_provider.get(&(Arc::as_ptr(provider).cast::<()>(), original)).is_some_and(|n| *n > 1);
        order.push(Route { provider: provider.clone(), original_name: original.to_owned(), listed, ambiguous });
    }
    Routes { order, index, denied: HashMap::default(), rendered: Mutex::default() }
}

/// A valid name for a tool whose own is not: sanitised, `_` in front of a leading digit or
/// `-`, and hashed when too long or taken. `None` (logged) when even that is taken.
fn make_valid(
    provider: &dyn ToolProvider,
    name: &str,
    index: &HashMap<String, usize>,
    reserved: &HashSet<&str>,
) -> Option<String> {
    let mut candidate = sanitise(name);
    if !candidate.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        candidate.insert(0, '_');
    }
    let taken = |candidate: &str| index.contains_key(candidate) || reserved.contains(candidate);
    if candidate.len() > MAX_NAME_LEN || taken(&candidate) {
        let hash = hash12(&format!("{}::{name}", provider.provider_name()));
        candidate = format!("{}_{hash}", &candidate[..candidate.len().min(51)]);
    }
    if taken(&candidate) {
        tracing::error!(
            provider = provider.provider_name(),
            tool = %shown(name),
            "cannot give the tool a valid unique name; it is not listed"
        );
        return None;
    }
    Some(candidate)
}

/// The renaming rule of [`DuplicatePolicy::Rename`].
fn rename(
    provider: &dyn ToolProvider,
    spec: &ToolSpec,
    index: &HashMap<String, usize>,
    reserved: &HashSet<&str>,
) -> Option<String> {
    let name = spec.name();
    let meta = |key: &str| spec.metadata().get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let source = meta("server_name").or_else(|| meta("plugin_id")).unwrap_or(provider.provider_name());
    let provider_type = provider.provider_type();
    let prefix = if source == provider_type { source.to_owned() } else { format!("{provider_type}_{source}") };
    let taken = |candidate: &str| index.contains_key(candidate) || reserved.contains(candidate);
    let mut candidate = sanitise(&format!("{prefix}_{name}"));
    if candidate.len() > MAX_NAME_LEN || taken(&candidate) {
        let hash = hash12(&format!("{}:{source}:{name}", provider.provider_name()));
        candidate = format!("{}_{hash}", &candidate[..candidate.len().min(51)]);
    }
    if taken(&candidate) {
        tracing::error!(
            "cannot assign a unique name to duplicate tool {}/{}/{}",
            provider.provider_name(),
            shown(source),
            shown(name)
        );
        return None;
    }
    Some(candidate)
}

/// Each provider in order, with the listing it contributes (none when it is unavailable).
pub(crate) type Contributions = [(Arc<dyn ToolProvider>, Option<Arc<Listing>>)];

/// One spec of one provider's listing that may get a name.
pub(crate) struct Candidate<'a> {
    provider: &'a Arc<dyn ToolProvider>,
    listing: &'a Listing,
    index: usize,
}

impl Candidate<'_> {
    fn spec(&self) -> &ToolSpec {
        &self.listing.specs[self.index]
    }
}

/// The candidates of a set of listings, in order: each listed spec with its provider, when the
/// access rules admit it; and the names the rules hide, with the rule.
pub(crate) fn candidates<'a>(
    listings: &'a Contributions,
    facts: &crate::access::AccessFacts,
) -> (Vec<Candidate<'a>>, HashMap<String, &'static str>) {
    let mut out = Vec::new();
    let mut denied = HashMap::default();
    for (provider, listing) in listings {
        let Some(listing) = listing else { continue };
        for (index, spec) in listing.specs.iter().enumerate() {
            match facts.permits(spec) {
                Ok(()) => out.push(Candidate { provider, listing, index }),
                Err(rule) => {
                    tracing::debug!(tool = %shown(spec.name()), rule, "tool denied by its access rules");
                    denied.insert(spec.name().to_owned(), rule);
                }
            }
        }
    }
    (out, denied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names_are_what_every_model_api_accepts() {
        for name in ["weather", "get_weather", "web-fetch", "_private", "A1", &"a".repeat(64)] {
            assert!(is_valid_tool_name(name), "{name}");
        }
        for name in ["", "web search", "line\nbreak", "9lives", "-dash", "dotted.name", "名字", &"a".repeat(65)] {
            assert!(!is_valid_tool_name(name), "{name:?}");
        }
    }

    #[test]
    fn echoes_are_bounded() {
        assert_eq!(shown("short"), "short");
        let long = "x".repeat(10_000);
        let echoed = shown(&long);
        assert_eq!(echoed.chars().count(), MAX_ECHO_CHARS + 1);
        assert!(echoed.ends_with('…'));
    }
}
