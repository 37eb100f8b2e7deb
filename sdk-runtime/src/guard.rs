//! Running code the runtime does not control (a provider's call or listing, a hook handler, a
//! plugin's lifecycle hook) so that it can neither crash the host nor hold a caller past its
//! deadline: panics while polling and while dropping are caught, the deadline counts from the
//! start of the call (a first poll that blocks counts too), and a missing timer is an answer,
//! not a panic.

use crate::clock::{self, Coarse};
use futures_util::FutureExt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Instant;
use toolhook::{BoxFuture, ToolError};

/// How a guarded future ended.
#[derive(Debug)]
pub(crate) enum Guarded<T> {
    /// It finished within its deadline.
    Finished(T),
    /// It panicked; the payload's text when it is a string.
    Panicked(Option<String>),
    /// The deadline passed first; the future was dropped.
    TimedOut(TimedOut),
    /// It had to wait, and waiting with a deadline needs a tokio runtime with its time driver.
    NoTimer(NoTimer),
}

/// A deadline that passed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimedOut {
    /// The time the call was given.
    pub(crate) limit: Duration,
    /// Set when one poll alone took longer than the limit: the code blocked its executor thread,
    /// so the deadline could only be noticed afterwards.
    pub(crate) blocked_for: Option<Duration>,
}

/// Why no timer could be armed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoTimer {
    /// Not inside a tokio runtime (another executor, or none).
    NoRuntime,
    /// A tokio runtime built without `enable_time`, or shutting down.
    TimersDisabled,
}

impl NoTimer {
    /// The error a call gets.
    pub(crate) fn into_tool_error(self) -> ToolError {
        match self {
            NoTimer::NoRuntime => ToolError::new(
                "Runtime",
                "the call had to wait, and waiting with a timeout needs a tokio runtime; run the host on tokio",
            ),
            NoTimer::TimersDisabled => ToolError::new(
                "Runtime",
                "the call had to wait, and the tokio runtime has no timers; build it with enable_time() or enable_all()",
            ),
        }
    }
}

/// The text of a panic payload, when it is a string.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| payload.downcast_ref::<String>().cloned())
}

/// A `Panic` error with the payload's text (when it is a string).
pub(crate) fn panic_error(payload: Box<dyn std::any::Any + Send>) -> ToolError {
    ToolError::panic(panic_message(&*payload).unwrap_or_default())
}

/// Creates a future (or runs a call that never waits) by calling untrusted code, catching a
/// panic meanwhile.
pub(crate) fn create<R>(make: impl FnOnce() -> R) -> Result<R, Box<dyn std::any::Any + Send>> {
    catch_unwind(AssertUnwindSafe(make))
}

/// A future run under a [`Clock`]: polled and dropped with panics caught.
pub(crate) trait Guard {
    /// What the future gives.
    type Output;
    /// The future, until it finished or was released.
    fn running(&mut self) -> Option<std::pin::Pin<&mut (dyn Future<Output = Self::Output> + Send + '_)>>;
    /// The future finished: let go of what it holds, if anything.
    fn finished(&mut self);
    /// Drops the future now (cancelling it), catching a panic in its `Drop`.
    fn release(&mut self);

    /// Polls the future, catching a panic (after which the future is dropped, guarded).
    fn poll_guarded(&mut self, cx: &mut Context<'_>) -> Poll<Result<Self::Output, Payload>> {
        let Some(future) = self.running() else { return Poll::Pending };
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Ready(value)) => {
                self.finished();
                Poll::Ready(Ok(value))
            }
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => {
                self.release();
                Poll::Ready(Err(payload))
            }
        }
    }
}

/// Drops `future`, catching and logging a panic in its `Drop`.
fn drop_guarded<F>(future: F) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(future))) {
        tracing::error!(
            panic = panic_message(&*payload).unwrap_or_default(),
            "a cancelled future panicked while it was dropped; the panic was contained"
        );
    }
}

/// Owns a future and drops it with a panic caught: a future whose `Drop` panics (after a
/// timeout, or when the caller goes away) cannot take the caller down with it.
pub(crate) struct DropGuard<'a, T> {
    future: Option<BoxFuture<'a, T>>,
}

impl<'a, T> DropGuard<'a, T> {
    pub(crate) fn new(future: BoxFuture<'a, T>) -> Self {
        DropGuard { future: Some(future) }
    }
}

impl<T> Guard for DropGuard<'_, T> {
    type Output = T;

    fn running(&mut self) -> Option<std::pin::Pin<&mut (dyn Future<Output = T> + Send + '_)>> {
        self.future.as_mut().map(|future| future.as_mut() as _)
    }

    /// Its box is let go at once.
    fn finished(&mut self) {
        self.release();
    }

    fn release(&mut self) {
        if let Some(future) = self.future.take() {
            drop_guarded(future);
        }
    }
}

impl<T> Drop for DropGuard<'_, T> {
    fn drop(&mut self) {
        self.release();
    }
}

/// A future kept in a box that the next one reuses (see [`put`]).
pub(crate) type Reused<T> = tokio_util::sync::ReusableBoxFuture<'static, T>;

/// Puts `future` in `slot`, in the allocation of the future there before when it has the same
/// size and alignment. The future there must be finished or absent: it is dropped here, outside
/// the guard, and a finished `async` block (boxed or not) has nothing left to drop that could
/// panic.
pub(crate) fn put<T>(slot: &mut Option<Reused<T>>, future: impl Future<Output = T> + Send + 'static) {
    match slot {
        Some(reused) => reused.set(future),
        None => *slot = Some(Reused::new(future)),
    }
}

/// Runs the future in a slot ([`put`] there), leaving it there when it finishes, so that the
/// next future put there reuses its allocation; one that panics or is cancelled is taken out and
/// dropped with a panic caught.
pub(crate) struct SlotGuard<'s, T> {
    slot: &'s mut Option<Reused<T>>,
    finished: bool,
}

impl<T> Guard for SlotGuard<'_, T> {
    type Output = T;

    fn running(&mut self) -> Option<std::pin::Pin<&mut (dyn Future<Output = T> + Send + '_)>> {
        self.slot.as_mut().filter(|_| !self.finished).map(|future| future.get_pin())
    }

    /// It stays in the slot, for the next future to take its allocation over.
    fn finished(&mut self) {
        self.finished = true;
    }

    fn release(&mut self) {
        if !self.finished {
            self.finished = true;
            if let Some(future) = self.slot.take() {
                drop_guarded(future);
            }
        }
    }
}

impl<T> Drop for SlotGuard<'_, T> {
    fn drop(&mut self) {
        self.release();
    }
}

/// Where a call's time starts counting.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stamp {
    /// A reading of the coarse clock: a call whose limit is long enough is measured with it
    /// (see [`crate::clock`]); one with a shorter limit starts on tokio's clock when it is run.
    Coarse(Coarse),
    /// A reading of tokio's clock (which a test can pause).
    Precise(Instant),
}

impl Stamp {
    /// Now, on the coarse clock where there is one: a call's start before its limit is known.
    #[inline]
    pub(crate) fn now() -> Stamp {
        if clock::available() { Stamp::Coarse(Coarse::now()) } else { Stamp::precise() }
    }

    /// Now, on tokio's clock.
    pub(crate) fn precise() -> Stamp {
        Stamp::Precise(Instant::now())
    }
}

/// Runs `future` until it finishes, panics, or `limit` (counted from `started`) passes.
///
/// The first poll happens without a timer: most calls finish on it, and they need neither a
/// timer nor a tokio runtime. A result that arrives after the deadline (because a poll blocked
/// the thread) is a timeout all the same. The first poll is measured from `started` (one clock
/// read less per call; what ran before it counts as blocking, as it does against the deadline).
/// A long limit is measured on the coarse clock until the call first waits (see
/// [`crate::clock`]): a call is then never failed before its limit, and a call that blocked
/// past it may be let through when it returns within two ticks of it.
pub(crate) fn run<'a, T: Send + 'a>(
    future: BoxFuture<'a, T>,
    limit: Option<Duration>,
    started: Stamp,
) -> impl Future<Output = Guarded<T>> + Send + 'a {
    run_timed(future, limit, started).map(|(outcome, _)| outcome)
}

/// [`run`], also giving the clock reading taken when it ended, so that a caller running several
/// futures one after another starts the next from it: one clock read per future, not two.
pub(crate) fn run_timed<T>(
    future: BoxFuture<'_, T>,
    limit: Option<Duration>,
    started: Stamp,
) -> GuardedRun<DropGuard<'_, T>> {
    run_on(future, Clock::new(limit, started))
}

/// [`run_timed`] on a clock made before the future was created.
pub(crate) fn run_on<T>(future: BoxFuture<'_, T>, clock: Clock) -> GuardedRun<DropGuard<'_, T>> {
    GuardedRun { guard: DropGuard::new(future), clock, timer: None }
}

/// [`run_on`] for the future in `slot` (see [`SlotGuard`]).
pub(crate) fn run_in<T>(slot: &mut Option<Reused<T>>, clock: Clock) -> GuardedRun<SlotGuard<'_, T>> {
    GuardedRun { guard: SlotGuard { slot, finished: false }, clock, timer: None }
}

/// The future of [`run_timed`]: written by hand rather than as an `async fn`, so that awaiting
/// it moves one small struct instead of a state machine around a `poll_fn`.
pub(crate) struct GuardedRun<G> {
    guard: G,
    clock: Clock,
    /// Boxed when armed: only a call that waits arms it, and a waiting call costs far more than
    /// the allocation, while a timer kept inline would make every call's future larger (and
    /// every move of it dearer), whether it waits or not.
    timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<G: Guard + Unpin> Future for GuardedRun<G> {
    type Output = (Guarded<G::Output>, Stamp);

    // Always inline: its output (an outcome and a clock reading) is read back by the caller
    // right after it returns, and written and read through memory in different widths it
    // stalled each hook handler's call on a store-forwarding miss.
    #[inline(always)]
    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // Every field is `Unpin`: the guarded future and the timer are boxed.
        let this = self.get_mut();
        this.clock.poll(&mut this.guard, &mut this.timer, cx).map(|outcome| (outcome, this.clock.ended))
    }
}

/// How a guarded run is timed, and when its last poll ended.
pub(crate) struct Clock {
    timing: Timing,
    /// The reading taken when the last poll ended (the start before the first).
    ended: Stamp,
}

#[derive(Clone, Copy)]
enum Timing {
    /// No limit: nothing to measure.
    Unlimited,
    /// A long limit, before the call first waits: on the coarse clock. `over_at` is the first
    /// reading at which the call is surely over its limit, worked out once.
    Coarse { limit: Duration, started: Coarse, over_at: Coarse },
    /// On tokio's clock: a short limit, or a call that has waited. The next poll is measured
    /// from `from` when it is set (the start), else from when it begins.
    Precise { limit: Duration, deadline: Instant, from: Option<Instant> },
}

type Payload = Box<dyn std::any::Any + Send>;

impl Clock {
    /// The clock of a call with this limit that started at `started`. A short limit is read on
    /// the precise clock from now on: create it before the call starts.
    #[inline]
    pub(crate) fn new(limit: Option<Duration>, started: Stamp) -> Self {
        let precise =
            |limit, from: Instant| Timing::Precise { limit, deadline: deadline_after(from, limit), from: Some(from) };
        let timing = match (limit, started) {
            (None, _) => Timing::Unlimited,
            (Some(limit), Stamp::Coarse(started)) if clock::coarse_enough(limit) => {
                Timing::Coarse { limit, started, over_at: started.surely_over(limit) }
            }
            // A short limit starts on the precise clock now: only the registry's own lookup has
            // run since the coarse reading.
            (Some(limit), Stamp::Coarse(_)) => precise(limit, Instant::now()),
            (Some(limit), Stamp::Precise(from)) => precise(limit, from),
        };
        Clock { timing, ended: started }
    }

    /// The reading taken when the call last ended (its start before it ran; see
    /// [`settle`](Self::settle) for a call without a limit, which reads no clock).
    pub(crate) fn ended(&self) -> Stamp {
        self.ended
    }

    /// Settles a call that ran to its end in place (a tool or hook handler that never waits) as
    /// its first poll would have been: a finished call, or a timeout when it blocked past its
    /// limit. Sets [`ended`](Self::ended) to the reading taken, except for a call without a
    /// limit, which reads no clock (hook handlers always have one).
    pub(crate) fn settle<T>(&mut self, value: T) -> Guarded<T> {
        match self.ended_in_time() {
            Ok(()) => Guarded::Finished(value),
            Err(timed_out) => Guarded::TimedOut(timed_out),
        }
    }

    /// [`settle`](Self::settle) without the outcome, which the caller keeps where it is (a
    /// tool's result is not moved through a `Guarded` on every call): `Err` when the call
    /// blocked past its limit.
    #[inline]
    pub(crate) fn ended_in_time(&mut self) -> Result<(), TimedOut> {
        match self.timing {
            Timing::Unlimited => Ok(()),
            Timing::Coarse { limit, started, over_at } => self.coarse_end(limit, started, over_at).map(|_| ()),
            Timing::Precise { limit, deadline, from } => {
                let after = self.precise_now();
                if after > deadline { Err(timed_out(limit, from.unwrap_or(after), after)) } else { Ok(()) }
            }
        }
    }

    /// Reads the coarse clock at the end of the first poll: the reading, or the call's time out
    /// when it is surely over its limit (the interval is true to a tick either way, and a call
    /// counts as over only when it surely is).
    #[inline]
    fn coarse_end(&mut self, limit: Duration, started: Coarse, over_at: Coarse) -> Result<Coarse, TimedOut> {
        let after = Coarse::now();
        self.ended = Stamp::Coarse(after);
        if after >= over_at {
            return Err(TimedOut { limit, blocked_for: Some(Duration::from_nanos(after.nanos_since(started))) });
        }
        Ok(after)
    }

    #[inline]
    fn precise_now(&mut self) -> Instant {
        let now = Instant::now();
        self.ended = Stamp::Precise(now);
        now
    }

    /// Polls the guarded future once, and its timer when it waits. Written as one fn, with the
    /// first poll's common end (finished in time) first: it runs for every call and handler.
    fn poll<T>(
        &mut self,
        guard: &mut impl Guard<Output = T>,
        timer: &mut Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
        cx: &mut Context<'_>,
    ) -> Poll<Guarded<T>> {
        let panicked = |payload: Payload| Guarded::Panicked(panic_message(&*payload));
        let (limit, deadline) = match self.timing {
            Timing::Unlimited => {
                let polled = guard.poll_guarded(cx);
                if polled.is_ready() {
                    self.ended = Stamp::now();
                }
                return polled.map(|outcome| outcome.map_or_else(panicked, Guarded::Finished));
            }
            Timing::Coarse { limit, started, over_at } => {
                let polled = guard.poll_guarded(cx);
                let surely = self.coarse_end(limit, started, over_at);
                match (polled, surely) {
                    (Poll::Ready(Err(payload)), _) => return Poll::Ready(panicked(payload)),
                    (Poll::Ready(Ok(value)), Ok(_)) => return Poll::Ready(Guarded::Finished(value)),
                    (Poll::Ready(Ok(_)), Err(blocked)) => return Poll::Ready(Guarded::TimedOut(blocked)),
                    (Poll::Pending, Err(blocked)) => {
                        guard.release();
                        return Poll::Ready(Guarded::TimedOut(blocked));
                    }
                    // It waits: from here on it is timed on tokio's clock, from its start as
                    // surely measured. A first poll shorter than 1/64 of the limit is not taken
                    // off (the call may get that much more): it would mix the real time of the
                    // poll with tokio's clock, which a test may have paused.
                    (Poll::Pending, Ok(after)) => {
                        let surely = Duration::from_nanos(clock::at_least(after.nanos_since(started)));
                        let now = self.precise_now();
                        let surely = if surely * clock::COARSE_TICKS < limit { Duration::ZERO } else { surely };
                        let deadline = deadline_after(now.checked_sub(surely).unwrap_or(now), limit);
                        self.timing = Timing::Precise { limit, deadline, from: None };
                        (limit, deadline)
                    }
                }
            }
            Timing::Precise { limit, deadline, from } => {
                let before = from.unwrap_or_else(Instant::now);
                self.timing = Timing::Precise { limit, deadline, from: None };
                let polled = guard.poll_guarded(cx);
                let after = self.precise_now();
                match polled {
                    Poll::Ready(Err(payload)) => return Poll::Ready(panicked(payload)),
                    Poll::Ready(Ok(_)) if after > deadline => {
                        return Poll::Ready(Guarded::TimedOut(timed_out(limit, before, after)));
                    }
                    Poll::Ready(Ok(value)) => return Poll::Ready(Guarded::Finished(value)),
                    Poll::Pending if after >= deadline => {
                        guard.release();
                        return Poll::Ready(Guarded::TimedOut(timed_out(limit, before, after)));
                    }
                    Poll::Pending => (limit, deadline),
                }
            }
        };
        if timer.is_none() {
            match arm(deadline) {
                Ok(sleep) => *timer = Some(Box::pin(sleep)),
                Err(missing) => {
                    guard.release();
                    return Poll::Ready(Guarded::NoTimer(missing));
                }
            }
        }
        let Some(sleep) = timer.as_mut().map(|sleep| sleep.as_mut()) else { return Poll::Pending };
        match catch_unwind(AssertUnwindSafe(|| sleep.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(())) => {
                // The deadline passed while the call waited: no poll blocked past the limit.
                guard.release();
                Poll::Ready(Guarded::TimedOut(TimedOut { limit, blocked_for: None }))
            }
            Err(_) => {
                guard.release();
                Poll::Ready(Guarded::NoTimer(NoTimer::TimersDisabled))
            }
        }
    }
}

/// A call over its limit at the end of the poll that began at `before` (precise clock).
/// Whether it blocked its thread past its limit is only worked out here: only the last poll can
/// have taken longer than the limit, since every poll before it ended before the deadline, which
/// is the limit after the start. So no duration is computed for a call that finishes in time or
/// goes on waiting.
fn timed_out(limit: Duration, before: Instant, after: Instant) -> TimedOut {
    let this_poll = after.saturating_duration_since(before);
    TimedOut { limit, blocked_for: (this_poll > limit).then_some(this_poll) }
}

/// `from + limit`, or a time too far ahead to matter when that is past what the clock holds.
pub(crate) fn deadline_after(from: Instant, limit: Duration) -> Instant {
    const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    from.checked_add(limit).or_else(|| from.checked_add(FAR)).unwrap_or(from)
}

/// A timer for `deadline`, or why there is none (checked without panicking where tokio allows,
/// and with the panic caught where it does not).
fn arm(deadline: Instant) -> Result<tokio::time::Sleep, NoTimer> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(NoTimer::NoRuntime);
    }
    catch_unwind(|| tokio::time::sleep_until(deadline)).map_err(|_| NoTimer::TimersDisabled)
}

/// Waits for `future` until `deadline`; `None` when the deadline passed (or no timer exists).
/// For the runtime's own waits (a listing in flight), which do not panic.
pub(crate) async fn wait_until<F: Future>(future: F, deadline: Instant) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    if let Poll::Ready(value) = std::future::poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await {
        return Some(value);
    }
    let sleep = arm(deadline).ok()?;
    tokio::select! {
        biased;
        value = future => Some(value),
        () = sleep => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct PanicsOnDrop;
    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("drop exploded");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_future_that_panics_when_dropped_after_its_timeout_is_contained() {
        let future: BoxFuture<'static, ()> = Box::pin(async {
            let _bomb = PanicsOnDrop;
            std::future::pending::<()>().await;
        });
        let outcome = run(future, Some(Duration::from_millis(10)), Stamp::precise()).await;
        assert!(matches!(outcome, Guarded::TimedOut(TimedOut { blocked_for: None, .. })), "{outcome:?}");
    }

    #[test]
    fn waiting_outside_tokio_is_an_answer_not_a_panic() {
        let future: BoxFuture<'static, ()> = Box::pin(std::future::pending());
        let outcome = futures_executor::block_on(run(future, Some(Duration::from_millis(10)), Stamp::precise()));
        assert!(matches!(outcome, Guarded::NoTimer(NoTimer::NoRuntime)), "{outcome:?}");
        // A call that needs no wait works on any executor.
        let ready: BoxFuture<'static, u8> = Box::pin(async { 7 });
        let outcome = futures_executor::block_on(run(ready, Some(Duration::from_millis(10)), Stamp::precise()));
        assert!(matches!(outcome, Guarded::Finished(7)));
    }

    #[test]
    fn waiting_on_a_runtime_without_timers_is_an_answer_not_a_panic() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let outcome = rt.block_on(async {
            let future: BoxFuture<'static, ()> = Box::pin(std::future::pending());
            run(future, Some(Duration::from_millis(10)), Stamp::precise()).await
        });
        assert!(matches!(outcome, Guarded::NoTimer(NoTimer::TimersDisabled)), "{outcome:?}");
    }

    /// Runs a call that blocks its thread for 60 ms in one poll under a 20 ms limit, and checks
    /// that it timed out as a call that blocked for at least that long.
    async fn assert_reported_as_blocking(future: BoxFuture<'static, u8>) {
        let outcome = run(future, Some(Duration::from_millis(20)), Stamp::precise()).await;
        match outcome {
            Guarded::TimedOut(TimedOut { blocked_for: Some(blocked), .. }) => {
                assert!(blocked >= Duration::from_millis(60), "{blocked:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_first_poll_that_blocks_past_the_limit_is_a_timeout() {
        assert_reported_as_blocking(Box::pin(async {
            std::thread::sleep(Duration::from_millis(60));
            1
        }))
        .await;
    }

    #[tokio::test]
    async fn a_poll_that_blocks_and_then_waits_is_reported_as_blocking() {
        assert_reported_as_blocking(Box::pin(async {
            std::thread::sleep(Duration::from_millis(60));
            std::future::pending::<u8>().await
        }))
        .await;
    }

    #[tokio::test]
    async fn a_later_poll_that_blocks_past_the_limit_is_reported_as_blocking() {
        assert_reported_as_blocking(Box::pin(async {
            tokio::task::yield_now().await;
            std::thread::sleep(Duration::from_millis(60));
            1
        }))
        .await;
    }

    /// The coarse clock's tick here, when there is one.
    fn tick() -> u64 {
        clock::resolution().unwrap_or(0)
    }

    /// The shortest limit measured on the coarse clock here.
    fn long_limit() -> Duration {
        Duration::from_nanos(tick() * u64::from(clock::COARSE_TICKS)).max(Duration::from_millis(1))
    }

    #[tokio::test]
    async fn a_long_limit_catches_a_first_poll_that_blocks_past_it() {
        let limit = long_limit();
        // Past the limit by more than the coarse clock's tolerance.
        let block = limit + Duration::from_nanos((clock::TOLERANCE_TICKS + 1) * tick()) + Duration::from_millis(20);
        let future: BoxFuture<'static, u8> = Box::pin(async move {
            std::thread::sleep(block);
            1
        });
        match run(future, Some(limit), Stamp::now()).await {
            Guarded::TimedOut(TimedOut { blocked_for: Some(blocked), .. }) => {
                assert!(blocked + Duration::from_nanos(tick()) >= block, "{blocked:?} < {block:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_long_limit_lets_a_call_that_finishes_within_it_through() {
        let limit = long_limit();
        let future: BoxFuture<'static, u8> = Box::pin(async move {
            std::thread::sleep(Duration::from_millis(5));
            tokio::task::yield_now().await;
            7
        });
        assert!(matches!(run(future, Some(limit), Stamp::now()).await, Guarded::Finished(7)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_with_a_long_limit_that_waits_times_out_at_its_limit() {
        let started = Instant::now();
        let future: BoxFuture<'static, ()> = Box::pin(std::future::pending());
        let outcome = run(future, Some(Duration::from_secs(60)), Stamp::now()).await;
        assert!(matches!(outcome, Guarded::TimedOut(TimedOut { blocked_for: None, .. })), "{outcome:?}");
        assert_eq!(started.elapsed(), Duration::from_secs(60));
    }

    #[tokio::test]
    async fn a_call_that_only_waits_past_its_limit_did_not_block() {
        let future: BoxFuture<'static, u8> = Box::pin(async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            1
        });
        let outcome = run(future, Some(Duration::from_millis(20)), Stamp::precise()).await;
        assert!(matches!(outcome, Guarded::TimedOut(TimedOut { blocked_for: None, .. })), "{outcome:?}");
    }
}
