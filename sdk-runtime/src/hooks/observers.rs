//! Observer tasks (hooks.md §7.7): each its own tokio task, tracked so callers can wait for them
//! or abort them, and at most `max_concurrent` running at once (first come, first served).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::{Semaphore, watch};
use tokio::task::{AbortHandle, JoinHandle};

#[derive(Debug, Default)]
struct Tasks {
    next_id: u64,
    /// Every live task; the abort handle is filled in right after spawning.
    live: HashMap<u64, Option<AbortHandle>>,
}

#[derive(Debug)]
pub(crate) struct Observers {
    permits: Arc<Semaphore>,
    tasks: Mutex<Tasks>,
    /// The number of live tasks.
    count: watch::Sender<usize>,
}

/// Unregisters a task when its future completes or is dropped (aborted).
struct Done {
    observers: Arc<Observers>,
    id: u64,
}

impl Drop for Done {
    fn drop(&mut self) {
        self.observers.tasks().live.remove(&self.id);
        self.observers.count.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl Observers {
    pub(crate) fn new(max_concurrent: usize) -> Self {
        Observers {
            permits: Arc::new(Semaphore::new(max_concurrent.clamp(1, Semaphore::MAX_PERMITS))),
            tasks: Mutex::new(Tasks::default()),
            count: watch::Sender::new(0),
        }
    }

    fn tasks(&self) -> std::sync::MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Spawns `run` as a tracked task that first waits for a permit; never waits itself.
    pub(crate) fn spawn(self: &Arc<Self>, run: impl Future<Output = ()> + Send + 'static) -> JoinHandle<()> {
        let id = {
            let mut tasks = self.tasks();
            let id = tasks.next_id;
            tasks.next_id += 1;
            tasks.live.insert(id, None);
            id
        };
        self.count.send_modify(|n| *n += 1);
        let done = Done { observers: Arc::clone(self), id };
        let permits = Arc::clone(&self.permits);
        let handle = tokio::spawn(async move {
            let _done = done;
            let Ok(_permit) = permits.acquire_owned().await else { return };
            run.await;
        });
        if let Some(slot) = self.tasks().live.get_mut(&id) {
            *slot = Some(handle.abort_handle());
        }
        handle
    }

    /// Resolves when no tracked task is running or waiting for a permit.
    pub(crate) async fn wait_all(&self) {
        let mut count = self.count.subscribe();
        // The sender lives in `self`, so the channel cannot close while we wait.
        let _ = count.wait_for(|n| *n == 0).await;
    }

    /// Aborts every tracked task and waits until they are gone.
    pub(crate) async fn abort_all(&self) {
        let handles: Vec<AbortHandle> = self.tasks().live.values().flatten().cloned().collect();
        for handle in handles {
            handle.abort();
        }
        self.wait_all().await;
    }
}
