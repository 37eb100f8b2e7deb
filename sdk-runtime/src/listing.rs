//! One provider's listings: cached by the parts of the context the provider reads, fetched once
//! at a time with a timeout, kept while a new one is on its way, and retried with backoff when
//! they fail, so a slow, hung or failing provider costs its own tools and nobody else's calls.

use crate::cache::{Bounded, bounded};
use crate::context_parts::{ContextParts, ContextView};
use crate::guard::{self, Guarded};
use crate::provider::{DirectCall, ToolProvider};
use crate::strict_arguments::DialectForms;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;
use toolhook::{BoxFuture, Locale, ToolAvailabilityContext, ToolError, ToolSpec, Visibility};

/// How listings are fetched and retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ListingSettings {
    /// The longest one listing may take before it counts as failed.
    pub(crate) timeout: Duration,
    /// The wait before the first retry of a failed listing; doubled per failure.
    pub(crate) backoff: Duration,
    /// The longest wait between retries.
    pub(crate) max_backoff: Duration,
    /// Distinct contexts cached per provider.
    pub(crate) capacity: usize,
}

/// The tools one listing returned (enabled and not hidden), with an id no other listing shares.
#[derive(Debug)]
pub(crate) struct Listing {
    pub(crate) id: u64,
    pub(crate) specs: Vec<ToolSpec>,
    /// What is made of each spec on first use and shared by every name space built from this
    /// listing.
    made: Vec<Made>,
}

/// What a listing makes of one spec when it is first needed.
#[derive(Default)]
struct Made {
    /// The spec's listed copy under its own name.
    listed: OnceLock<ToolSpec>,
    /// How the tool is called.
    calling: OnceLock<Calling>,
}

/// What a call of one listed tool needs that depends only on the tool: worked out at its first
/// call, for every later one.
pub(crate) struct Calling {
    /// The provider's direct call of the tool, if it has one.
    pub(crate) direct: Option<Box<dyn DirectCall>>,
    /// What its arguments can hold of a strict or Gemini definition's forms, for the registry to
    /// undo (none when its provider undoes them itself): most tools hold none and skip it.
    pub(crate) forms: DialectForms,
}

impl std::fmt::Debug for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Made").field("listed", &self.listed.get().is_some()).finish_non_exhaustive()
    }
}

impl Listing {
    fn new(specs: Vec<ToolSpec>) -> Self {
        let made = specs.iter().map(|_| Made::default()).collect();
        Listing { id: next_listing_id(), specs, made }
    }

    /// The copy of spec `i` a registry lists under the spec's own name.
    pub(crate) fn listed(&self, i: usize, provider: &dyn ToolProvider) -> &ToolSpec {
        let spec = &self.specs[i];
        self.made[i]
            .listed
            .get_or_init(|| spec.__listed_copy(spec.name(), provider.provider_name(), provider.provider_type()))
    }

    /// How spec `i` is called: the provider's direct call and what the arguments need, worked
    /// out once per listing.
    #[inline]
    pub(crate) fn calling(&self, i: usize, provider: &dyn ToolProvider) -> &Calling {
        let spec = &self.specs[i];
        self.made[i].calling.get_or_init(|| Calling {
            direct: provider.__direct_call(spec),
            forms: if provider.__undoes_strict_forms() {
                DialectForms::default()
            } else {
                DialectForms::of(spec.parameters_schema())
            },
        })
    }
}

fn next_listing_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a caller gets when it asks for a provider's listing.
#[derive(Clone, Debug)]
pub(crate) enum Found {
    /// The current listing.
    Fresh(Arc<Listing>),
    /// The last good listing, while a new one is fetched or after the newest attempt failed.
    Stale(Arc<Listing>),
    /// The provider's first listing for this context is on its way.
    Pending(Arc<Flight>),
    /// Nothing to offer: the provider failed and waits for its retry (which runs in the background).
    Unavailable,
}

impl Found {
    /// The listing to route with now, if any.
    pub(crate) fn listing(&self) -> Option<&Arc<Listing>> {
        match self {
            Found::Fresh(listing) | Found::Stale(listing) => Some(listing),
            Found::Pending(_) | Found::Unavailable => None,
        }
    }
}

/// A listing on its way; callers may wait for it.
#[derive(Debug)]
pub(crate) struct Flight {
    done: watch::Sender<bool>,
}

impl Flight {
    fn new() -> Arc<Self> {
        Arc::new(Flight { done: watch::Sender::new(false) })
    }

    /// Resolves when the listing finished (or was abandoned).
    pub(crate) async fn finished(&self) {
        let mut done = self.done.subscribe();
        let _ = done.wait_for(|done| *done).await;
    }

    fn finish(&self) {
        self.done.send_replace(true);
    }
}

#[derive(Debug)]
enum State {
    Empty,
    Ready { listing: Arc<Listing>, epoch: u64 },
    Fetching { flight: Arc<Flight>, stale: Option<Arc<Listing>>, retry: bool },
    Failed { epoch: u64, stale: Option<Arc<Listing>> },
}

/// The most listings of one provider on their way at once: a provider that lists per session
/// and hangs must not gather a task per session.
const MAX_FLIGHTS: usize = 8;

/// How the provider's listings have been going, across all contexts: one that fails or hangs
/// for one context is left alone for every context until its backoff has passed.
#[derive(Debug, Default)]
struct Health {
    /// Failures in a row.
    failures: u32,
    /// No new listing starts before this.
    retry_at: Option<Instant>,
    /// Listings on their way.
    flights: usize,
}

#[derive(Debug)]
struct Slot {
    state: Mutex<State>,
}

impl Slot {
    fn empty() -> Arc<Self> {
        Arc::new(Slot { state: Mutex::new(State::Empty) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Key of a cached listing: the projected context, `None` when the caller gave none.
type Key = Option<ToolAvailabilityContext>;

/// One registered provider and its listings.
pub(crate) struct ProviderListings {
    pub(crate) provider: Arc<dyn ToolProvider>,
    /// Bumped by the provider (through its `RegistryLink`) when its tools change.
    pub(crate) epoch: Arc<AtomicU64>,
    parts: ContextParts,
    settings: ListingSettings,
    slots: Bounded<Key, Arc<Slot>>,
    /// A provider whose listings read no part of the context has one for calls without a context
    /// and one per locale for calls with one (its context carries the locale). They live here
    /// rather than in `slots`, so the call path finds them without hashing a key.
    fixed: Option<[Arc<Slot>; FIXED_SLOTS]>,
    health: Mutex<Health>,
}

impl std::fmt::Debug for ProviderListings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderListings")
            .field("provider", &self.provider.provider_name())
            .field("parts", &self.parts)
            .finish_non_exhaustive()
    }
}

/// The fixed slots of a provider whose listings read no part of the context.
const FIXED_SLOTS: usize = 1 + Locale::ALL.len();

/// The fixed slot of a listing: 0 without a context, else the context's locale's.
fn fixed_slot(context_locale: Option<Locale>) -> usize {
    context_locale.map_or(0, |locale| 1 + Locale::ALL.iter().position(|&l| l == locale).unwrap_or(0))
}

/// The outcome of one fetch.
type Fetched = Guarded<Result<Vec<ToolSpec>, ToolError>>;

impl ProviderListings {
    pub(crate) fn new(provider: Arc<dyn ToolProvider>, epoch: Arc<AtomicU64>, settings: ListingSettings) -> Self {
        let parts = provider.listing_depends_on();
        ProviderListings {
            provider,
            epoch,
            parts,
            settings,
            slots: bounded(settings.capacity),
            fixed: (parts == ContextParts::NONE).then(|| std::array::from_fn(|_| Slot::empty())),
            health: Mutex::new(Health::default()),
        }
    }

    pub(crate) fn name(&self) -> &str {
        self.provider.provider_name()
    }

    /// The parts of the context the provider's listings read.
    pub(crate) fn parts(&self) -> ContextParts {
        self.parts
    }

    fn slot(&self, key: &Key) -> Arc<Slot> {
        if let Some(fixed) = &self.fixed {
            return fixed[fixed_slot(key.as_ref().map(|ctx| ctx.locale))].clone();
        }
        if let Some(slot) = self.slots.get(key) {
            return slot;
        }
        let slot = Slot::empty();
        match self.slots.get_or_insert_with(key, || Ok::<_, ()>(slot.clone())) {
            Ok(slot) => slot,
            Err(()) => slot,
        }
    }

    fn health(&self) -> std::sync::MutexGuard<'_, Health> {
        self.health.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a flight slot unless the provider is in its backoff or has too many listings on
    /// their way; `Some(true)` when the provider has been failing (callers then do not wait
    /// for this listing).
    fn may_fetch(&self, now: Instant) -> Option<bool> {
        let mut health = self.health();
        if health.retry_at.is_some_and(|at| now < at) || health.flights >= MAX_FLIGHTS {
            return None;
        }
        health.flights += 1;
        Some(health.failures > 0)
    }

    /// The id of the cached listing for a context when it is current: the call path's way in,
    /// which never fetches (a miss goes through [`lookup`](Self::lookup)), and reads the id
    /// without taking a reference to the listing.
    pub(crate) fn fresh(&self, ctx: Option<ContextView<'_>>, locale: Locale) -> Option<u64> {
        let found;
        let slot = match &self.fixed {
            Some(fixed) => &fixed[fixed_slot(ctx.map(|_| locale))],
            None => {
                found = self.slots.get(&ctx.map(|ctx| self.parts.project(ctx, locale)))?;
                &found
            }
        };
        let epoch = self.epoch.load(Ordering::Acquire);
        match &*slot.lock() {
            State::Ready { listing, epoch: at } if *at == epoch => Some(listing.id),
            _ => None,
        }
    }

    /// The listing for a context, listed in `locale`: cached, or fetched now.
    /// A fetch that does not finish on its first poll continues in the background; the caller
    /// then gets the previous listing, or the flight to wait for when there is none.
    pub(crate) async fn lookup(self: &Arc<Self>, ctx: Option<ContextView<'_>>, locale: Locale) -> Found {
        let key: Key = ctx.map(|ctx| self.parts.project(ctx, locale));
        let slot = self.slot(&key);
        let epoch = self.epoch.load(Ordering::Acquire);
        let flight = {
            let mut state = slot.lock();
            let (stale, retry) = match &*state {
                State::Ready { listing, epoch: at } if *at == epoch => return Found::Fresh(listing.clone()),
                State::Fetching { flight, stale, retry } => {
                    return match stale {
                        Some(listing) => Found::Stale(listing.clone()),
                        None if !retry => Found::Pending(flight.clone()),
                        None => Found::Unavailable,
                    };
                }
                State::Ready { listing, .. } => (Some(listing.clone()), false),
                State::Failed { stale, .. } => (stale.clone(), true),
                State::Empty => (None, false),
            };
            // A listing that changed since (a new epoch) is worth asking for at once; otherwise a
            // failing provider waits out its backoff.
            let changed = matches!(&*state, State::Failed { epoch: at, .. } if *at != epoch);
            let now = Instant::now();
            if changed {
                self.health().retry_at = None;
            }
            let Some(failing) = self.may_fetch(now) else {
                return stale.map_or(Found::Unavailable, Found::Stale);
            };
            let flight = Flight::new();
            *state = State::Fetching { flight: flight.clone(), stale, retry: retry || failing };
            flight
        };
        self.fetch(&slot, key, epoch).await;
        flight.finish_if_done(&slot)
    }

    /// Fetches one listing: polled once here, continued on a task when it has to wait.
    async fn fetch(self: &Arc<Self>, slot: &Arc<Slot>, key: Key, epoch: u64) {
        let provider = self.provider.clone();
        let listing: BoxFuture<'static, Result<Vec<ToolSpec>, ToolError>> =
            Box::pin(async move { provider.list_tools(key.as_ref()).await });
        let mut run: BoxFuture<'static, Fetched> =
            Box::pin(guard::run(listing, Some(self.settings.timeout), guard::Stamp::precise()));
        let first = std::future::poll_fn(|cx| std::task::Poll::Ready(run.as_mut().poll(cx))).await;
        match first {
            std::task::Poll::Ready(fetched) => self.settle(slot, epoch, fetched),
            std::task::Poll::Pending => match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    let this = self.clone();
                    let slot = slot.clone();
                    handle.spawn(async move {
                        let fetched = run.await;
                        this.settle(&slot, epoch, fetched);
                    });
                }
                Err(_) => {
                    drop(run);
                    self.settle(slot, epoch, Guarded::NoTimer(guard::NoTimer::NoRuntime));
                }
            },
        }
    }

    /// Records a finished fetch and wakes whoever waits for it.
    fn settle(&self, slot: &Slot, epoch: u64, fetched: Fetched) {
        let provider = self.name();
        let error = match fetched {
            Guarded::Finished(Ok(specs)) => {
                let failures = {
                    let mut health = self.health();
                    health.flights = health.flights.saturating_sub(1);
                    health.retry_at = None;
                    std::mem::take(&mut health.failures)
                };
                if failures > 0 {
                    tracing::info!(provider, failures, "provider listing recovered");
                }
                let specs = specs.into_iter().filter(|s| s.enabled() && s.visibility() != Visibility::Hidden).collect();
                let listing = Arc::new(Listing::new(specs));
                let previous = std::mem::replace(&mut *slot.lock(), State::Ready { listing, epoch });
                if let State::Fetching { flight, .. } = previous {
                    flight.finish();
                }
                return;
            }
            Guarded::Finished(Err(error)) => error,
            Guarded::Panicked(message) => ToolError::panic(message.unwrap_or_default()),
            Guarded::TimedOut(timed_out) => {
                ToolError::new("Timeout", format!("listing took longer than {} ms", timed_out.limit.as_millis()))
            }
            Guarded::NoTimer(missing) => missing.into_tool_error(),
        };
        let (failures, wait) = {
            let mut health = self.health();
            health.flights = health.flights.saturating_sub(1);
            health.failures = health.failures.saturating_add(1);
            let wait = backoff(self.settings.backoff, self.settings.max_backoff, health.failures);
            health.retry_at = Some(guard::deadline_after(Instant::now(), wait));
            (health.failures, wait)
        };
        let mut state = slot.lock();
        let stale = match &mut *state {
            State::Fetching { stale, .. } => stale.take(),
            _ => None,
        };
        tracing::warn!(
            provider,
            %error,
            failures,
            retry_in_ms = wait.as_millis() as u64,
            serving_previous_listing = stale.is_some(),
            "provider listing failed; its tools are unavailable until a retry succeeds"
        );
        let previous = std::mem::replace(&mut *state, State::Failed { epoch, stale });
        drop(state);
        if let State::Fetching { flight, .. } = previous {
            flight.finish();
        }
    }
}

impl Flight {
    /// What the caller that started the fetch gets once the first poll is over.
    fn finish_if_done(self: Arc<Self>, slot: &Slot) -> Found {
        match &*slot.lock() {
            State::Ready { listing, .. } => Found::Fresh(listing.clone()),
            State::Fetching { stale: Some(listing), .. } | State::Failed { stale: Some(listing), .. } => {
                Found::Stale(listing.clone())
            }
            State::Fetching { retry: false, .. } => Found::Pending(self),
            State::Fetching { .. } | State::Failed { .. } | State::Empty => Found::Unavailable,
        }
    }
}

/// `initial × 2^(failures - 1)`, at most `max`.
fn backoff(initial: Duration, max: Duration, failures: u32) -> Duration {
    let factor = 1u32.checked_shl(failures.saturating_sub(1)).unwrap_or(u32::MAX);
    initial.saturating_mul(factor).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_ceiling() {
        let s = Duration::from_secs(1);
        let max = Duration::from_secs(60);
        assert_eq!(backoff(s, max, 1), s);
        assert_eq!(backoff(s, max, 2), 2 * s);
        assert_eq!(backoff(s, max, 4), 8 * s);
        assert_eq!(backoff(s, max, 7), max);
        assert_eq!(backoff(s, max, 400), max);
    }
}
