//! The clock that times tool calls and hook handlers.
//!
//! Every call and handler is timed from its start: the deadline counts from there, and a call
//! that blocks its thread past its limit before it returns is a timeout too. That takes a clock
//! reading at the start and one after each poll. A precise reading of the monotonic clock costs
//! tens of nanoseconds (around 40 ns in common virtual machines), a large share of a fast tool
//! call and more of a hook dispatch, which reads it once per handler.
//!
//! So on Linux a call whose limit is long next to the clock's resolution is measured with the
//! kernel's coarse monotonic clock (`CLOCK_MONOTONIC_COARSE`), which is read in a few nanoseconds
//! and advances once per kernel tick (1–10 ms, 4 ms on most distributions). A coarse interval is
//! the true one give or take a tick, and the guard takes the error in the call's favour: a call
//! counts as over its limit only when it is over by more than [`TOLERANCE_TICKS`] ticks, which
//! also covers a timekeeping tick that comes late (a busy virtual machine). So a call is never
//! failed before its limit, and one that blocked past it may be let through when it returns
//! within three ticks of it. Only limits of at least [`COARSE_TICKS`] ticks (256 ms on a 250 Hz
//! kernel) are measured this way, so that margin is at most 3/64 of the limit; shorter limits use
//! the precise clock, as do calls that wait (a waiting call's timer is set on tokio's clock, which
//! a test can pause).
//!
//! Where there is no coarse clock (other systems, or a sandbox that refuses it), every call is
//! timed on tokio's clock, as it always was.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A call's limit must be at least this many ticks of the coarse clock for the call to be
/// measured with it.
pub(crate) const COARSE_TICKS: u32 = 64;

/// How many ticks over its limit a coarse interval must be for the call to count as over it.
pub(crate) const TOLERANCE_TICKS: u64 = 2;

/// A reading of the coarse clock: nanoseconds since an unspecified point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Coarse(u64);

impl Coarse {
    /// Reads the coarse clock; only when [`available`].
    #[inline]
    pub(crate) fn now() -> Coarse {
        Coarse(source::read())
    }

    /// The first reading at which a call that started at this one is surely over `limit` (one
    /// above zero): [`at_least`] of the time since then reaches the limit. Saturates at the
    /// clock's last reading, some 584 years of uptime.
    #[inline]
    pub(crate) fn surely_over(self, limit: Duration) -> Coarse {
        let tolerance = resolution().unwrap_or(0).saturating_mul(TOLERANCE_TICKS);
        Coarse(self.0.saturating_add(nanos(limit)).saturating_add(tolerance))
    }

    /// The time from `earlier` to this reading, in nanoseconds (zero when `earlier` is later).
    #[inline]
    pub(crate) fn nanos_since(self, earlier: Coarse) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// A duration in nanoseconds, saturating (585 years).
#[inline]
pub(crate) fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Not probed yet.
const UNKNOWN: u64 = u64::MAX;
/// Probed: there is no coarse clock.
const ABSENT: u64 = u64::MAX - 1;

/// The coarse clock's resolution in nanoseconds (how far one of its intervals may be from the
/// true one), or `None` when there is none. Probed once.
#[inline]
pub(crate) fn resolution() -> Option<u64> {
    static RESOLUTION: AtomicU64 = AtomicU64::new(UNKNOWN);
    let resolution = match RESOLUTION.load(Ordering::Relaxed) {
        UNKNOWN => {
            let probed = source::probe().map_or(ABSENT, |resolution| resolution.min(ABSENT - 1));
            RESOLUTION.store(probed, Ordering::Relaxed);
            probed
        }
        known => known,
    };
    (resolution != ABSENT).then_some(resolution)
}

/// Whether the coarse clock can be read here.
#[inline]
pub(crate) fn available() -> bool {
    resolution().is_some()
}

/// Whether a call with this limit is measured with the coarse clock.
#[inline]
pub(crate) fn coarse_enough(limit: Duration) -> bool {
    static LEAST: OnceLock<Duration> = OnceLock::new();
    let least = LEAST.get_or_init(|| {
        match resolution().and_then(|resolution| resolution.checked_mul(u64::from(COARSE_TICKS))) {
            Some(least) => Duration::from_nanos(least),
            None => Duration::MAX,
        }
    });
    limit >= *least
}

/// The shortest a coarse interval of `measured` nanoseconds can be in truth, with the
/// tolerance for late ticks.
#[inline]
pub(crate) fn at_least(measured: u64) -> u64 {
    measured.saturating_sub(resolution().unwrap_or(0).saturating_mul(TOLERANCE_TICKS))
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod source {
    use rustix::time::{ClockId, DynamicClockId, Timespec, clock_getres, clock_gettime, clock_gettime_dynamic};

    #[inline]
    fn nanos(time: Timespec) -> u64 {
        // The kernel's monotonic clocks are never negative.
        let (secs, nanos) = (u64::try_from(time.tv_sec).unwrap_or(0), u64::try_from(time.tv_nsec).unwrap_or(0));
        secs.saturating_mul(1_000_000_000).saturating_add(nanos)
    }

    /// Reads the clock, once [`probe`] found it: it cannot fail then.
    #[inline]
    pub(super) fn read() -> u64 {
        nanos(clock_gettime(ClockId::MonotonicCoarse))
    }

    /// The clock's resolution, when the kernel (or the sandbox around the process) lets it be
    /// read: a reading that fails means no coarse clock, never a panic.
    #[cold]
    pub(super) fn probe() -> Option<u64> {
        clock_gettime_dynamic(DynamicClockId::Known(ClockId::MonotonicCoarse)).ok()?;
        let resolution = nanos(clock_getres(ClockId::MonotonicCoarse));
        // A tick is a millisecond or more; a resolution that claims less is not a tick.
        (resolution >= 100_000).then_some(resolution)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod source {
    pub(super) fn read() -> u64 {
        0
    }

    pub(super) fn probe() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coarse_clock_keeps_up_with_the_precise_one_within_its_resolution() {
        let Some(tick) = resolution() else { return };
        let (coarse, precise) = (Coarse::now(), std::time::Instant::now());
        std::thread::sleep(Duration::from_millis(30));
        let (measured, elapsed) = (Coarse::now().nanos_since(coarse), nanos(precise.elapsed()));
        // Both intervals cover the same sleep; the coarse one may be off by a tick either way,
        // plus the moments between the two readings.
        let slack = tick + 2_000_000;
        assert!(measured + slack >= elapsed, "coarse {measured}, precise {elapsed}, slack {slack}");
        assert!(measured <= elapsed + slack, "coarse {measured}, precise {elapsed}, slack {slack}");
        assert!(at_least(measured) <= elapsed);
    }

    #[test]
    fn a_call_is_surely_over_its_limit_exactly_when_its_least_time_reaches_it() {
        let Some(tick) = resolution() else { return };
        let started = Coarse(1_000_000_000);
        let limit = Duration::from_nanos(tick * u64::from(COARSE_TICKS));
        let over = started.surely_over(limit);
        assert!(at_least(over.nanos_since(started)) >= nanos(limit));
        assert!(at_least(over.nanos_since(started) - 1) < nanos(limit));
        assert_eq!(Coarse(u64::MAX - 5).surely_over(limit), Coarse(u64::MAX), "saturates");
    }

    #[test]
    fn only_limits_of_many_ticks_are_measured_coarsely() {
        match resolution() {
            Some(tick) => {
                let least = Duration::from_nanos(tick * u64::from(COARSE_TICKS));
                assert!(coarse_enough(least));
                assert!(!coarse_enough(least - Duration::from_nanos(1)));
                assert!(!coarse_enough(Duration::from_nanos(tick)));
                assert!(coarse_enough(Duration::from_secs(60)), "a one-minute limit on a {tick} ns clock");
            }
            None => assert!(!coarse_enough(Duration::MAX - Duration::from_nanos(1))),
        }
    }

    #[test]
    fn an_interval_never_runs_backwards() {
        let (earlier, later) = (Coarse(5), Coarse(1_000));
        assert_eq!(earlier.nanos_since(later), 0);
        assert_eq!(later.nanos_since(earlier), 995);
    }
}
