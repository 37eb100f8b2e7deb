//! The circuit breaker: one per dispatcher, keyed by plugin id. A plugin whose
//! handlers keep timing out or panicking is skipped for a cooldown that doubles each time it
//! trips, then probed by one call.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// When the breaker trips and how long it stays open.
///
/// ```
/// use std::time::Duration;
/// use toolhook_runtime::hooks::BreakerConfig;
///
/// let config = BreakerConfig::default().threshold(5).cooldown(Duration::from_secs(30));
/// # let _ = config;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakerConfig {
    threshold: u32,
    cooldown: Duration,
    max_cooldown: Duration,
    level_reset_after: Duration,
    skip_log_interval: Duration,
}

impl Default for BreakerConfig {
    /// Threshold 3, cooldown 60 s doubling up to 300 s, level reset 600 s after a recovery, a
    /// skip logged at most every 30 s.
    fn default() -> Self {
        BreakerConfig {
            threshold: 3,
            cooldown: Duration::from_secs(60),
            max_cooldown: Duration::from_secs(300),
            level_reset_after: Duration::from_secs(600),
            skip_log_interval: Duration::from_secs(30),
        }
    }
}

impl BreakerConfig {
    /// Consecutive counted failures (timeouts, panics) that open the breaker (at least 1).
    pub fn threshold(mut self, failures: u32) -> Self {
        self.threshold = failures.max(1);
        self
    }

    /// The first cooldown; each later one doubles it.
    pub fn cooldown(mut self, cooldown: Duration) -> Self {
        self.cooldown = cooldown;
        self
    }

    /// The longest cooldown.
    pub fn max_cooldown(mut self, max: Duration) -> Self {
        self.max_cooldown = max;
        self
    }

    /// How long after a recovery the doubling starts over.
    pub fn level_reset_after(mut self, after: Duration) -> Self {
        self.level_reset_after = after;
        self
    }

    /// How often a skipped plugin is logged at most.
    pub fn skip_log_interval(mut self, interval: Duration) -> Self {
        self.skip_log_interval = interval;
        self
    }

    fn cooldown_at(&self, level: u32) -> Duration {
        let factor = 2u32.checked_pow(level).unwrap_or(u32::MAX);
        self.cooldown.checked_mul(factor).unwrap_or(Duration::MAX).min(self.max_cooldown)
    }
}

/// Open or half-open (closed plugins are not listed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakerState {
    /// Skipped until the cooldown ends.
    Open,
    /// The cooldown has ended: the next call is a probe.
    HalfOpen,
}

impl BreakerState {
    /// `"open"` or `"half_open"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            BreakerState::Open => "open",
            BreakerState::HalfOpen => "half_open",
        }
    }
}

/// The breaker of one plugin that is not closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakerStatus {
    /// The plugin.
    pub plugin_id: String,
    /// Open, or half-open (also an open breaker whose cooldown has passed).
    pub state: BreakerState,
    /// Time left of the cooldown (zero when half-open).
    pub remaining: Duration,
    /// How many times it has opened since the last level reset.
    pub level: u32,
    /// Whether a probe call is running.
    pub probe_in_flight: bool,
}

/// How a granted call ended, for the breaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The handler returned (`Ok` or `Err`): the plugin is alive.
    Success,
    /// Timeout or panic.
    Failure,
    /// The handler was not called (its payload did not decode).
    Neutral,
}

#[derive(Clone, Copy, Debug)]
enum State {
    Closed,
    Open { until: Instant },
    HalfOpen { probe_in_flight: bool },
}

#[derive(Debug)]
struct PluginBreaker {
    state: State,
    consecutive: u32,
    level: u32,
    recovered_at: Option<Instant>,
    last_skip_log: Option<Instant>,
}

impl Default for PluginBreaker {
    fn default() -> Self {
        PluginBreaker { state: State::Closed, consecutive: 0, level: 0, recovered_at: None, last_skip_log: None }
    }
}

/// The answer to a call that wants to run.
#[derive(Debug)]
pub(crate) enum Permit {
    /// Run it; `probe` when it decides a half-open breaker.
    Granted { probe: bool },
    /// Skip it; `log` when this skip should be logged (at most every `skip_log_interval`).
    Denied { log: bool },
}

#[derive(Debug)]
pub(crate) struct Breaker {
    config: BreakerConfig,
    /// Only plugins with something to remember: closed plugins without failures are absent.
    plugins: Mutex<HashMap<String, PluginBreaker>>,
    /// `plugins.len()`, read without the lock: while every plugin is healthy, calls skip the lock.
    tracked: AtomicUsize,
}

impl Breaker {
    pub(crate) fn new(config: BreakerConfig) -> Self {
        Breaker { config, plugins: Mutex::new(HashMap::new()), tracked: AtomicUsize::new(0) }
    }

    fn plugins(&self) -> std::sync::MutexGuard<'_, HashMap<String, PluginBreaker>> {
        self.plugins.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `plugin_id` may run a handler now (and whether that run is the probe). Inline
    /// while no plugin has failed: every handler call asks.
    #[inline]
    pub(crate) fn acquire(&self, plugin_id: &str) -> Permit {
        if self.tracked.load(Ordering::Acquire) == 0 {
            return Permit::Granted { probe: false };
        }
        self.acquire_tracked(plugin_id)
    }

    #[inline(never)]
    fn acquire_tracked(&self, plugin_id: &str) -> Permit {
        let mut plugins = self.plugins();
        let Some(breaker) = plugins.get_mut(plugin_id) else { return Permit::Granted { probe: false } };
        let now = Instant::now();
        match breaker.state {
            State::Closed => Permit::Granted { probe: false },
            State::Open { until } if now < until => Permit::Denied { log: self.log_skip(breaker, now) },
            State::Open { .. } | State::HalfOpen { probe_in_flight: false } => {
                breaker.state = State::HalfOpen { probe_in_flight: true };
                Permit::Granted { probe: true }
            }
            State::HalfOpen { probe_in_flight: true } => Permit::Denied { log: self.log_skip(breaker, now) },
        }
    }

    fn log_skip(&self, breaker: &mut PluginBreaker, now: Instant) -> bool {
        let due = breaker.last_skip_log.is_none_or(|last| now.duration_since(last) >= self.config.skip_log_interval);
        if due {
            breaker.last_skip_log = Some(now);
        }
        due
    }

    /// Records how a call ended. Inline while no plugin has failed and the call did not either.
    #[inline]
    pub(crate) fn record(&self, plugin_id: &str, probe: bool, verdict: Verdict) {
        if verdict != Verdict::Failure && self.tracked.load(Ordering::Acquire) == 0 {
            return;
        }
        self.record_tracked(plugin_id, probe, verdict);
    }

    #[inline(never)]
    fn record_tracked(&self, plugin_id: &str, probe: bool, verdict: Verdict) {
        let mut plugins = self.plugins();
        let breaker = match (plugins.get_mut(plugin_id), verdict) {
            (Some(breaker), _) => breaker,
            // Nothing to remember about a healthy plugin.
            (None, Verdict::Success | Verdict::Neutral) => return,
            (None, Verdict::Failure) => plugins.entry(plugin_id.to_owned()).or_default(),
        };
        let now = Instant::now();
        if verdict != Verdict::Neutral
            && let Some(recovered) = breaker.recovered_at
            && now.duration_since(recovered) >= self.config.level_reset_after
        {
            breaker.level = 0;
            breaker.recovered_at = None;
        }
        match (verdict, probe) {
            (Verdict::Neutral, true) => {
                if let State::HalfOpen { probe_in_flight } = &mut breaker.state {
                    *probe_in_flight = false;
                }
            }
            (Verdict::Neutral, false) => {}
            (Verdict::Success, true) => {
                breaker.state = State::Closed;
                breaker.consecutive = 0;
                breaker.recovered_at = Some(now);
            }
            (Verdict::Failure, true) => self.open(breaker, now),
            (Verdict::Success, false) => {
                if let State::Closed = breaker.state {
                    breaker.consecutive = 0;
                }
            }
            (Verdict::Failure, false) => {
                if let State::Closed = breaker.state {
                    breaker.consecutive += 1;
                    if breaker.consecutive >= self.config.threshold {
                        self.open(breaker, now);
                    }
                }
            }
        }
        if matches!(breaker.state, State::Closed)
            && breaker.consecutive == 0
            && breaker.level == 0
            && breaker.recovered_at.is_none()
        {
            plugins.remove(plugin_id);
        }
        self.tracked.store(plugins.len(), Ordering::Release);
    }

    fn open(&self, breaker: &mut PluginBreaker, now: Instant) {
        let cooldown = self.config.cooldown_at(breaker.level);
        // A configured cooldown too long for the clock means "practically forever", never a panic.
        let until = now.checked_add(cooldown).or_else(|| now.checked_add(Duration::from_secs(100 * 365 * 24 * 3600)));
        breaker.state = State::Open { until: until.unwrap_or(now) };
        breaker.level = breaker.level.saturating_add(1);
        breaker.consecutive = 0;
    }

    pub(crate) fn statuses(&self) -> Vec<BreakerStatus> {
        let now = Instant::now();
        let mut statuses: Vec<BreakerStatus> = self
            .plugins()
            .iter()
            .filter_map(|(plugin_id, breaker)| {
                let (state, remaining, probe_in_flight) = match breaker.state {
                    State::Closed => return None,
                    State::Open { until } if now < until => (BreakerState::Open, until - now, false),
                    State::Open { .. } => (BreakerState::HalfOpen, Duration::ZERO, false),
                    State::HalfOpen { probe_in_flight } => (BreakerState::HalfOpen, Duration::ZERO, probe_in_flight),
                };
                Some(BreakerStatus {
                    plugin_id: plugin_id.clone(),
                    state,
                    remaining,
                    level: breaker.level,
                    probe_in_flight,
                })
            })
            .collect();
        statuses.sort_by(|a, b| a.plugin_id.cmp(&b.plugin_id));
        statuses
    }
}

/// A granted call's duty to report how it ended; a ticket dropped unreported (the call was
/// cancelled) releases a probe as neutral, so no plugin stays blocked.
#[derive(Debug)]
pub(crate) struct Ticket<'a> {
    breaker: &'a Breaker,
    plugin_id: &'a str,
    probe: bool,
    reported: bool,
}

impl<'a> Ticket<'a> {
    pub(crate) fn new(breaker: &'a Breaker, plugin_id: &'a str, probe: bool) -> Self {
        Ticket { breaker, plugin_id, probe, reported: false }
    }

    #[inline]
    pub(crate) fn report(mut self, verdict: Verdict) {
        self.reported = true;
        self.breaker.record(self.plugin_id, self.probe, verdict);
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        if !self.reported && self.probe {
            self.breaker.record(self.plugin_id, true, Verdict::Neutral);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn granted(permit: Permit) -> bool {
        matches!(permit, Permit::Granted { .. })
    }

    fn fail_three_times(breaker: &Breaker) {
        for _ in 0..3 {
            assert!(granted(breaker.acquire("p")));
            breaker.record("p", false, Verdict::Failure);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn three_counted_failures_open_for_a_minute() {
        let breaker = Breaker::new(BreakerConfig::default());
        fail_three_times(&breaker);
        assert!(matches!(breaker.acquire("p"), Permit::Denied { log: true }));
        assert!(matches!(breaker.acquire("p"), Permit::Denied { log: false }));
        let status = &breaker.statuses()[0];
        assert_eq!((status.state, status.level, status.remaining), (BreakerState::Open, 1, Duration::from_secs(60)));
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!(breaker.statuses()[0].state, BreakerState::HalfOpen);
    }

    #[tokio::test(start_paused = true)]
    async fn a_successful_probe_closes_and_a_failed_one_doubles_the_cooldown() {
        let breaker = Breaker::new(BreakerConfig::default());
        fail_three_times(&breaker);
        tokio::time::advance(Duration::from_secs(60)).await;
        assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
        assert!(matches!(breaker.acquire("p"), Permit::Denied { .. }), "one probe at a time");
        breaker.record("p", true, Verdict::Failure);
        let status = &breaker.statuses()[0];
        assert_eq!((status.state, status.level, status.remaining), (BreakerState::Open, 2, Duration::from_secs(120)));
        tokio::time::advance(Duration::from_secs(120)).await;
        assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
        breaker.record("p", true, Verdict::Success);
        assert!(breaker.statuses().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn cooldowns_stop_doubling_at_five_minutes_and_reset_ten_minutes_after_a_recovery() {
        let breaker = Breaker::new(BreakerConfig::default());
        fail_three_times(&breaker);
        for expected in [120, 240, 300, 300] {
            tokio::time::advance(Duration::from_secs(300)).await;
            assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
            breaker.record("p", true, Verdict::Failure);
            assert_eq!(breaker.statuses()[0].remaining, Duration::from_secs(expected));
        }
        tokio::time::advance(Duration::from_secs(300)).await;
        assert!(granted(breaker.acquire("p")));
        breaker.record("p", true, Verdict::Success);
        tokio::time::advance(Duration::from_secs(600)).await;
        fail_three_times(&breaker);
        let status = &breaker.statuses()[0];
        assert_eq!((status.level, status.remaining), (1, Duration::from_secs(60)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_neutral_probe_is_released_and_an_unreported_ticket_too() {
        let breaker = Breaker::new(BreakerConfig::default());
        fail_three_times(&breaker);
        tokio::time::advance(Duration::from_secs(60)).await;
        assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
        Ticket::new(&breaker, "p", true).report(Verdict::Neutral);
        assert!(!breaker.statuses()[0].probe_in_flight);
        assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
        drop(Ticket::new(&breaker, "p", true));
        assert!(matches!(breaker.acquire("p"), Permit::Granted { probe: true }));
    }

    #[test]
    fn handler_errors_reset_the_count() {
        let breaker = Breaker::new(BreakerConfig::default());
        breaker.record("p", false, Verdict::Failure);
        breaker.record("p", false, Verdict::Failure);
        breaker.record("p", false, Verdict::Success);
        breaker.record("p", false, Verdict::Failure);
        breaker.record("p", false, Verdict::Failure);
        assert!(breaker.statuses().is_empty());
    }
}
