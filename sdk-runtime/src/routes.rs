//! The routes of a registry: every available tool under one name space, with the provider that
//! serves it. Names are assigned here: duplicates under the registry's policy, and names no model
//! API accepts made into ones they all accept.

use crate::cache::{Bounded, bounded};
use crate::listing::{Calling, Listing};
use crate::provider::ToolProvider;
use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock};
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
///
/// Built without copying a spec: a route points into the listing it came from, names are
/// borrowed from the listed specs (only a renamed tool owns its name), and each listed copy is
/// made on first use and shared through its listing by every name space built from it.
pub(crate) struct Routes {
    /// The providers that contributed a listing, in registration order.
    sources: Sources,
    /// What kind each source's provider is.
    kinds: Vec<ProviderKind>,
    order: Vec<Route>,
    /// Positions in `order`, found by the route's registry name.
    index: HashTable<u32>,
    /// Positions in `order` of tools listed under a valid name because their own is not one
    /// model APIs accept, found by their own name (a host may still call them by it).
    own_names: HashTable<u32>,
    /// Tools the caller's access rules hide, and the rule that does (for the host, never the model).
    pub(crate) denied: HashMap<String, &'static str>,
    /// The definitions of these tools as JSON text, per dialect and locale, rendered on first
    /// request. A change of the tools makes a new name space, so these never go stale.
    rendered: Mutex<Vec<Rendered>>,
}

/// Definitions rendered for one dialect and locale.
type Rendered = ((Dialect, Locale), Arc<str>);

/// The kinds of provider whose calls the registry routes differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProviderKind {
    /// `provider_type() == "mcp"`: every call names the server its tool comes from.
    Mcp,
    /// `provider_type() == "plugin"`: a call names its plugin when two plugins list the name.
    Plugin,
    /// Any other.
    Other,
}

impl ProviderKind {
    fn of(provider: &dyn ToolProvider) -> Self {
        match provider.provider_type() {
            "mcp" => ProviderKind::Mcp,
            "plugin" => ProviderKind::Plugin,
            _ => ProviderKind::Other,
        }
    }
}

/// One listed tool: which source's spec, under which name.
struct Route {
    source: u32,
    spec: u32,
    /// Whether the provider lists this original name more than once (then the call must say
    /// which one it means).
    ambiguous: bool,
    /// The registry name when it is not the tool's own, and the listed copy under it.
    renamed: Option<Box<(String, OnceLock<ToolSpec>)>>,
}

/// A route with the name space it belongs to.
#[derive(Clone, Copy)]
pub(crate) struct RouteRef<'a> {
    routes: &'a Routes,
    route: &'a Route,
}

impl<'a> RouteRef<'a> {
    fn source(&self) -> &'a (Arc<dyn ToolProvider>, Arc<Listing>) {
        &self.routes.sources[self.route.source as usize]
    }

    /// The provider that serves the tool.
    pub(crate) fn provider(&self) -> &'a Arc<dyn ToolProvider> {
        &self.source().0
    }

    /// The spec as its provider listed it (its own name, without the registry's stamps).
    pub(crate) fn spec(&self) -> &'a ToolSpec {
        &self.source().1.specs[self.route.spec as usize]
    }

    /// The provider's own name for the tool.
    pub(crate) fn original_name(&self) -> &'a str {
        self.spec().name()
    }

    /// The tool's name in this name space.
    #[inline]
    pub(crate) fn name(&self) -> &'a str {
        route_name(&self.routes.sources, self.route)
    }

    /// Whether the provider lists the original name more than once.
    pub(crate) fn ambiguous(&self) -> bool {
        self.route.ambiguous
    }

    /// Whether the registry lists the tool under another name than its own.
    pub(crate) fn renamed(&self) -> bool {
        self.route.renamed.is_some()
    }

    /// What kind of provider serves the tool, as far as routing a call cares.
    pub(crate) fn kind(&self) -> ProviderKind {
        self.routes.kinds[self.route.source as usize]
    }

    /// How the tool is called: its provider's direct call and what its arguments need (worked
    /// out at the first call).
    #[inline]
    pub(crate) fn calling(&self) -> &'a Calling {
        let (provider, listing) = self.source();
        listing.calling(self.route.spec as usize, provider.as_ref())
    }

    /// The copy the registry lists: renamed, with the provider's identity and
    /// `metadata.registry_original_name`.
    pub(crate) fn listed(&self) -> &'a ToolSpec {
        let (provider, listing) = self.source();
        let index = self.route.spec as usize;
        match &self.route.renamed {
            None => listing.listed(index, provider.as_ref()),
            Some(renamed) => renamed.1.get_or_init(|| {
                listing.specs[index].__listed_copy(&renamed.0, provider.provider_name(), provider.provider_type())
            }),
        }
    }
}

/// A route's registry name.
fn route_name<'a>(sources: &'a Sources, route: &'a Route) -> &'a str {
    match &route.renamed {
        Some(renamed) => &renamed.0,
        None => sources[route.source as usize].1.specs[route.spec as usize].name(),
    }
}

impl std::fmt::Debug for Routes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter().map(|r| (r.provider().provider_name(), r.name()))).finish()
    }
}

impl Routes {
    fn hash(name: &str) -> u64 {
        FxBuildHasher.hash_one(name)
    }

    fn at(&self, position: u32) -> RouteRef<'_> {
        RouteRef { routes: self, route: &self.order[position as usize] }
    }

    /// The route of a registry name, or of the own name of a tool listed under a valid name
    /// because its own is not one.
    pub(crate) fn get(&self, name: &str) -> Option<RouteRef<'_>> {
        let hash = Self::hash(name);
        let found = self
            .index
            .find(hash, |&i| self.at(i).name() == name)
            .or_else(|| self.own_names.find(hash, |&i| self.at(i).original_name() == name))?;
        Some(self.at(*found))
    }

    /// Whether a registry name is taken.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every route, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = RouteRef<'_>> {
        self.order.iter().map(move |route| RouteRef { routes: self, route })
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

/// The providers that contributed a listing, in order.
pub(crate) type Sources = Vec<(Arc<dyn ToolProvider>, Arc<Listing>)>;

/// How often an original name is listed, and the route that claimed it.
struct Seen {
    count: u32,
    claimed: Option<u32>,
}

/// Assigns registry names to every spec of `sources` the access rules admit, in order; the
/// names the rules hide are kept with the rule (unless another tool took the name).
pub(crate) fn assign(
    policy: DuplicatePolicy,
    sources: Sources,
    facts: &crate::access::AccessFacts,
    warnings: &Warnings,
) -> Routes {
    let total = sources.iter().map(|(_, listing)| listing.specs.len()).sum();
    let mut candidates: Vec<(u32, u32)> = Vec::with_capacity(total);
    let mut denied: HashMap<String, &'static str> = HashMap::default();
    for (source, (_, listing)) in sources.iter().enumerate() {
        for (index, spec) in listing.specs.iter().enumerate() {
            match facts.permits(spec) {
                Ok(()) => candidates.push((source as u32, index as u32)),
                Err(rule) => {
                    tracing::debug!(tool = %shown(spec.name()), rule, "tool denied by its access rules");
                    denied.insert(spec.name().to_owned(), rule);
                }
            }
        }
    }
    let mut order: Vec<Route> = Vec::with_capacity(candidates.len());
    let mut index: HashTable<u32> = HashTable::with_capacity(candidates.len());
    let mut own_names: HashTable<u32> = HashTable::new();
    {
        let spec_of = |source: u32, spec: u32| &sources[source as usize].1.specs[spec as usize];
        // Original names, each with how often it is listed and the route that claimed it: a name
        // made valid or renamed is matched against these too, so `web search` and `web_search`
        // do not both become `web_search`. Keyed by the same hash as the route index.
        let mut seen: HashTable<(&str, Seen)> = HashTable::with_capacity(candidates.len());
        let mut listed_twice = false;
        for &(source, spec) in &candidates {
            let name = spec_of(source, spec).name();
            let hash = Routes::hash(name);
            match seen.find_mut(hash, |(seen, _)| *seen == name) {
                Some((_, seen)) => {
                    seen.count += 1;
                    listed_twice = true;
                }
                None => {
                    seen.insert_unique(hash, (name, Seen { count: 1, claimed: None }), |(name, _)| Routes::hash(name));
                }
            }
        }
        let find_seen = |seen: &HashTable<(&str, Seen)>, name: &str, hash: u64| {
            seen.find(hash, |(seen, _)| *seen == name).map(|(_, seen)| (seen.count, seen.claimed))
        };
        // Names one provider lists more than once; counted only when some name is listed twice.
        let mut per_provider: HashMap<(u32, &str), u32> = HashMap::default();
        if listed_twice {
            for &(source, spec) in &candidates {
                let name = spec_of(source, spec).name();
                if find_seen(&seen, name, Routes::hash(name)).is_some_and(|(count, _)| count > 1) {
                    *per_provider.entry((source, name)).or_default() += 1;
                }
            }
        }
        for &(source, spec_index) in &candidates {
            let provider = &sources[source as usize].0;
            let spec = spec_of(source, spec_index);
            let original = spec.name();
            let original_hash = Routes::hash(original);
            let routed = |name: &str, hash: u64| {
                index.find(hash, |&i| route_name(&sources, &order[i as usize]) == name).copied()
            };
            let taken = |name: &str| {
                let hash = Routes::hash(name);
                find_seen(&seen, name, hash).is_some() || routed(name, hash).is_some()
            };
            let made_valid = !is_valid_tool_name(original);
            let name = if !made_valid {
                Cow::Borrowed(original)
            } else {
                match make_valid(provider.as_ref(), original, &taken) {
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
            let (count, claimed) = find_seen(&seen, original, original_hash).unwrap_or((1, None));
            let hash = if name == original { original_hash } else { Routes::hash(&name) };
            let winner = claimed.or_else(|| routed(&name, hash));
            let (registry_name, hash) = match winner {
                None => (name, hash),
                Some(winner) => match policy {
                    DuplicatePolicy::Skip => {
                        let winner = sources[order[winner as usize].source as usize].0.provider_name();
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
                    DuplicatePolicy::Rename => match rename(provider.as_ref(), spec, &taken) {
                        Some(name) => {
                            let hash = Routes::hash(&name);
                            (Cow::Owned(name), hash)
                        }
                        None => continue,
                    },
                },
            };
            let position = u32::try_from(order.len()).expect("fewer than 2^32 routes");
            // Only a name listed more than once can be claimed again.
            if count > 1
                && let Some((_, seen)) = seen.find_mut(original_hash, |(seen, _)| *seen == original)
            {
                seen.claimed.get_or_insert(position);
            }
            let ambiguous = count > 1 && per_provider.get(&(source, original)).is_some_and(|n| *n > 1);
            let renamed = match registry_name {
                Cow::Borrowed(_) => None,
                Cow::Owned(name) => Some(Box::new((name, OnceLock::new()))),
            };
            order.push(Route { source, spec: spec_index, ambiguous, renamed });
            index.insert_unique(hash, position, |&i| Routes::hash(route_name(&sources, &order[i as usize])));
            // An invalid name is never a registry name; the first tool listed under it keeps it
            // as its second name.
            let spec_name = |i: u32| spec_of(order[i as usize].source, order[i as usize].spec).name();
            if made_valid && own_names.find(original_hash, |&i| spec_name(i) == original).is_none() {
                own_names.insert_unique(original_hash, position, |&i| Routes::hash(spec_name(i)));
            }
        }
    }
    let kinds = sources.iter().map(|(provider, _)| ProviderKind::of(provider.as_ref())).collect();
    let mut routes =
        Routes { sources, kinds, order, index, own_names, denied: HashMap::default(), rendered: Mutex::default() };
    // A denied name that another tool took is not denied.
    denied.retain(|name, _| !routes.contains(name));
    routes.denied = denied;
    routes
}

/// A valid name for a tool whose own is not: sanitised, `_` in front of a leading digit or
/// `-`, and hashed when too long or taken. `None` (logged) when even that is taken.
fn make_valid(provider: &dyn ToolProvider, name: &str, taken: &dyn Fn(&str) -> bool) -> Option<String> {
    let mut candidate = sanitise(name);
    if !candidate.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        candidate.insert(0, '_');
    }
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
fn rename(provider: &dyn ToolProvider, spec: &ToolSpec, taken: &dyn Fn(&str) -> bool) -> Option<String> {
    let name = spec.name();
    let meta = |key: &str| spec.metadata().get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let source = meta("server_name").or_else(|| meta("plugin_id")).unwrap_or(provider.provider_name());
    let provider_type = provider.provider_type();
    let prefix = if source == provider_type { source.to_owned() } else { format!("{provider_type}_{source}") };
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
