//! Observer runs: at most `max_running` at once, the rest waiting in a queue of at most
//! `max_queued`; what does not fit is dropped under the [`ObserverOverflow`] policy, counted and
//! logged. Memory stays bounded however fast events arrive and however slow an observer is.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, watch};
use tokio::task::AbortHandle;

/// What the dispatcher does with an observer run when the queue of waiting runs is full.
///
/// ```
/// use toolhook_runtime::hooks::{HookDispatcher, ObserverOverflow};
///
/// let dispatcher = HookDispatcher::builder()
///     .max_concurrent_observers(8)
///     .max_queued_observers(100)
///     .observer_overflow(ObserverOverflow::DropNewest)
///     .build();
/// assert_eq!(dispatcher.dropped_observer_runs(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ObserverOverflow {
    /// The oldest waiting run is dropped to make room: observers keep up with the newest events
    /// (the default).
    #[default]
    DropOldest,
    /// The new run is dropped: observers see events in order, and miss the newest ones.
    DropNewest,
}

type Run = Pin<Box<dyn Future<Output = ()> + Send>>;

/// One observer run waiting or running; dropping it (run, dropped or aborted) releases its place
/// and tells whoever waits for it.
struct Job {
    run: Run,
    handler: Arc<str>,
    observers: Arc<Observers>,
    _done: Option<oneshot::Sender<()>>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.observers.pending.send_modify(|n| *n = n.saturating_sub(1));
    }
}

#[derive(Default)]
struct Queue {
    running: usize,
    waiting: VecDeque<Job>,
    workers: HashMap<u64, AbortHandle>,
    next_worker: u64,
}

pub(crate) struct Observers {
    max_running: usize,
    max_queued: usize,
    overflow: ObserverOverflow,
    queue: Mutex<Queue>,
    /// Runs submitted and not yet finished or dropped.
    pending: watch::Sender<usize>,
    dropped: AtomicU64,
}

impl std::fmt::Debug for Observers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observers")
            .field("max_running", &self.max_running)
            .field("max_queued", &self.max_queued)
            .field("overflow", &self.overflow)
            .field("dropped", &self.dropped.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Observers {
    pub(crate) fn new(max_running: usize, max_queued: usize, overflow: ObserverOverflow) -> Self {
        Observers {
            max_running: max_running.max(1),
            max_queued,
            overflow,
            queue: Mutex::new(Queue::default()),
            pending: watch::Sender::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs dropped so far (queue full, or no runtime to run them on).
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    fn record_drop(&self, handler: &str, why: &'static str) {
        let total = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
        // Logged on the 1st, 2nd, 4th, 8th … drop: loud, never a flood.
        if total.is_power_of_two() {
            tracing::warn!(handler, total_dropped = total, "observer run dropped: {why}");
        }
    }

    /// Submits one run; never waits. The receiver resolves (with `Ok` or `Err`) once the run
    /// finished or was dropped.
    pub(crate) fn submit(
        self: &Arc<Self>,
        handler: Arc<str>,
        run: impl Future<Output = ()> + Send + 'static,
    ) -> oneshot::Receiver<()> {
        let (done, finished) = oneshot::channel();
        self.pending.send_modify(|n| *n += 1);
        let job = Job { run: Box::pin(run), handler, observers: Arc::clone(self), _done: Some(done) };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.record_drop(&job.handler, "observers need a tokio runtime to run on");
            return finished;
        };
        let mut queue = self.queue();
        if queue.running < self.max_running {
            queue.running += 1;
            let id = queue.next_worker;
            queue.next_worker += 1;
            let this = Arc::clone(self);
            let handle = runtime.spawn(async move { this.work(id, job).await });
            queue.workers.insert(id, handle.abort_handle());
            return finished;
        }
        if queue.waiting.len() < self.max_queued {
            queue.waiting.push_back(job);
            return finished;
        }
        let dropped = match self.overflow {
            ObserverOverflow::DropOldest => match queue.waiting.pop_front() {
                Some(oldest) => {
                    queue.waiting.push_back(job);
                    oldest
                }
                None => job,
            },
            ObserverOverflow::DropNewest => job,
        };
        drop(queue);
        self.record_drop(&dropped.handler, "the observer queue is full");
        finished
    }

    /// A worker: runs its first job, then whatever waits, until the queue is empty.
    async fn work(self: Arc<Self>, id: u64, first: Job) {
        let mut next = Some(first);
        while let Some(mut job) = next.take() {
            (&mut job.run).await;
            drop(job);
            let mut queue = self.queue();
            next = queue.waiting.pop_front();
            if next.is_none() {
                queue.running = queue.running.saturating_sub(1);
                queue.workers.remove(&id);
            }
        }
    }

    /// Resolves when no run is running or waiting.
    pub(crate) async fn wait_all(&self) {
        let mut pending = self.pending.subscribe();
        // The sender lives in `self`, so the channel cannot close while we wait.
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// Drops every waiting run, aborts the running ones and waits until they are gone.
    pub(crate) async fn abort_all(&self) {
        let (waiting, workers) = {
            let mut queue = self.queue();
            let waiting = std::mem::take(&mut queue.waiting);
            let workers: Vec<AbortHandle> = queue.workers.drain().map(|(_, handle)| handle).collect();
            queue.running = 0;
            (waiting, workers)
        };
        drop(waiting);
        for worker in workers {
            worker.abort();
        }
        self.wait_all().await;
    }
}
