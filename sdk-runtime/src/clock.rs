//! The clock that times tool calls and hook handlers.
//!
//! Every call and handler is timed from its start: the deadline counts from there, and a call
//! that blocks its thread past its limit before it returns is a timeout too. That takes a clock
//! reading at the start and one after each poll. A precise reading of the monotonic clock costs
//! tens of nanoseconds (around 50 ns in common virtual machines), a large share of a fast tool
//! call and more of a hook dispatch, which reads it once per handler.
//!
//! So a call whose limit is long next to the clock's resolution is measured with the kernel's
//! coarse monotonic clock (`CLOCK_MONOTONIC_COARSE` on Linux, Android and FreeBSD), which is read
//! in a few nanoseconds and advances once per kernel tick (1–10 ms, 4 ms on most distributions).
//! A coarse interval is the true one give or take one tick, and the guard takes the error in the
//! call's favour: a call is never failed before its limit, and one that blocked may be noticed
//! up to two ticks after it. Only limits of at least [`COARSE_TICKS`] ticks (256 ms on a 250 Hz
//! kernel) are measured this way, so that error is at most 1/32 of the limit; shorter limits
//! use the precise clock, as do calls that wait (a waiting call's timer is set on tokio's clock,
//! which a test can pause).
//!
//! Elsewhere there is no coarse clock, and the precise one stands in for it with a resolution
//! of zero.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A call's limit must be at least this many ticks of the coarse clock for the call to be
/// measured with it.
pub(crate) const COARSE_TICKS: u32 = 64;

/// A reading of the coarse clock: nanoseconds since an unspecified point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Coarse(u64);

impl Coarse {
    /// Reads the coarse clock.
    #[inline]
    pub(crate) fn now() -> Coarse {
        Coarse(read())
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

/// The coarse clock's resolution in nanoseconds: how far one of its intervals may be from the
/// true one.
#[inline]
pub(crate) fn resolution() -> u64 {
    static RESOLUTION: AtomicU64 = AtomicU64::new(u64::MAX);
    match RESOLUTION.load(Ordering::Relaxed) {
        u64::MAX => {
            let resolution = read_resolution();
            RESOLUTION.store(resolution, Ordering::Relaxed);
            resolution
        }
        resolution => resolution,
    }
}

/// Whether a call with this limit is measured with the coarse clock.
#[inline]
pub(crate) fn coarse_enough(limit: Duration) -> bool {
    static LEAST: OnceLock<Duration> = OnceLock::new();
    let least = LEAST.get_or_init(|| match resolution().checked_mul(u64::from(COARSE_TICKS)) {
        Some(least) => Duration::from_nanos(least),
        None => Duration::MAX,
    });
    limit >= *least
}

/// The shortest a coarse interval of `measured` nanoseconds can be in truth.
#[inline]
pub(crate) fn at_least(measured: u64) -> u64 {
    measured.saturating_sub(resolution())
}

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
mod source {
    use rustix::time::{ClockId, Timespec, clock_getres, clock_gettime};

    #[inline]
    fn nanos(time: Timespec) -> u64 {
        // The kernel's monotonic clocks are never negative.
        let (secs, nanos) = (u64::try_from(time.tv_sec).unwrap_or(0), u64::try_from(time.tv_nsec).unwrap_or(0));
        secs.saturating_mul(1_000_000_000).saturating_add(nanos)
    }

    #[inline]
    pub(super) fn read() -> u64 {
        nanos(clock_gettime(ClockId::MonotonicCoarse))
    }

    #[cold]
    pub(super) fn read_resolution() -> u64 {
        nanos(clock_getres(ClockId::MonotonicCoarse)).min(u64::MAX - 1)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
mod source {
    use std::sync::OnceLock;
    use std::time::Instant;

    pub(super) fn read() -> u64 {
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        super::nanos(ORIGIN.get_or_init(Instant::now).elapsed())
    }

    pub(super) fn read_resolution() -> u64 {
        0
    }
}

use source::{read, read_resolution};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coarse_clock_keeps_up_with_the_precise_one_within_its_resolution() {
        let (coarse, precise) = (Coarse::now(), std::time::Instant::now());
        std::thread::sleep(Duration::from_millis(30));
        let (measured, elapsed) = (Coarse::now().nanos_since(coarse), nanos(precise.elapsed()));
        // Both intervals cover the same sleep; the coarse one may be off by one tick either way,
        // plus the moments between the two readings.
        let slack = resolution() + 2_000_000;
        assert!(measured + slack >= elapsed, "coarse {measured:?}, precise {elapsed:?}, slack {slack:?}");
        assert!(measured <= elapsed + slack, "coarse {measured:?}, precise {elapsed:?}, slack {slack:?}");
        assert!(at_least(measured) <= elapsed);
    }

    #[test]
    fn only_limits_of_many_ticks_are_measured_coarsely() {
        let tick = resolution();
        let least = Duration::from_nanos(tick * u64::from(COARSE_TICKS));
        assert!(coarse_enough(least));
        if tick > 0 {
            assert!(!coarse_enough(least - Duration::from_nanos(1)));
            assert!(!coarse_enough(Duration::from_nanos(tick)));
        }
        assert!(coarse_enough(Duration::from_secs(60)), "a one-minute limit on a {tick} ns clock");
    }

    #[test]
    fn an_interval_never_runs_backwards() {
        let (earlier, later) = (Coarse(5), Coarse::now());
        assert_eq!(earlier.nanos_since(later), 0);
    }
}
