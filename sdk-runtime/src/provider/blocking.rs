//! Sync tools run on tokio's blocking pool, where nothing can stop them: a call that times out
//! keeps its thread until the fn returns. Limits per tool and per plugin keep one stuck tool from
//! taking every blocking thread, and the calls still running after their caller gave up are
//! reported.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many calls of sync tools may occupy blocking threads at once.
///
/// A call beyond a limit waits for a slot (within its timeout). Tokio's blocking pool has 512
/// threads by default; keep `per_plugin × plugins` below it.
///
/// ```
/// use toolhook_runtime::BlockingLimits;
///
/// let limits = BlockingLimits::default().per_tool(2).per_plugin(8);
/// assert_eq!((limits.tool_limit(), limits.plugin_limit()), (2, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockingLimits {
    per_tool: usize,
    per_plugin: usize,
}

impl Default for BlockingLimits {
    /// 8 per tool, 32 per plugin.
    fn default() -> Self {
        BlockingLimits { per_tool: 8, per_plugin: 32 }
    }
}

impl BlockingLimits {
    /// Sets the limit per tool (at least 1).
    #[must_use]
    pub fn per_tool(mut self, limit: usize) -> Self {
        self.per_tool = limit.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// Sets the limit per plugin (at least 1).
    #[must_use]
    pub fn per_plugin(mut self, limit: usize) -> Self {
        self.per_plugin = limit.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// The limit per tool.
    pub fn tool_limit(&self) -> usize {
        self.per_tool
    }

    /// The limit per plugin.
    pub fn plugin_limit(&self) -> usize {
        self.per_plugin
    }
}

/// A sync tool call that is still running although its caller stopped waiting (it timed out,
/// or the caller went away). Its thread and its slots stay taken until the fn returns.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StuckCall {
    /// The plugin.
    pub plugin_id: String,
    /// The tool's name.
    pub tool: String,
    /// How long it has been running.
    pub running_for: Duration,
}

/// One call's state, shared by the waiting caller and the blocking thread.
struct Call {
    plugin_id: String,
    tool: String,
    started: Instant,
    /// Finished on its thread.
    finished: bool,
    /// The caller stopped waiting.
    abandoned: bool,
}

/// The blocking calls of one plugin provider: the slots, and the calls left running.
#[derive(Default)]
pub(crate) struct BlockingCalls {
    limits: BlockingLimits,
    next: AtomicU64,
    calls: Mutex<HashMap<u64, Call>>,
}

impl std::fmt::Debug for BlockingCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockingCalls").field("limits", &self.limits).finish_non_exhaustive()
    }
}

/// Ends a call's record: from the caller's side when it stops waiting, from the thread's side
/// when the fn returns. Whichever comes second removes it.
pub(crate) struct Tracked {
    calls: Arc<BlockingCalls>,
    id: u64,
    caller: bool,
}

impl BlockingCalls {
    pub(crate) fn new(limits: BlockingLimits) -> Self {
        BlockingCalls { limits, next: AtomicU64::new(0), calls: Mutex::new(HashMap::new()) }
    }

    pub(crate) fn limits(&self) -> BlockingLimits {
        self.limits
    }

    fn calls(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Call>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot under the tool's and the plugin's limit (waits for one).
    pub(crate) async fn slots(
        tool: &Arc<Semaphore>,
        plugin: &Arc<Semaphore>,
    ) -> Option<(OwnedSemaphorePermit, OwnedSemaphorePermit)> {
        let tool = Arc::clone(tool).acquire_owned().await.ok()?;
        let plugin = Arc::clone(plugin).acquire_owned().await.ok()?;
        Some((tool, plugin))
    }

    /// Records a call about to start; the two handles go to the caller and to the thread.
    pub(crate) fn track(self: &Arc<Self>, plugin_id: &str, tool: &str) -> (Tracked, Tracked) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.calls().insert(
            id,
            Call {
                plugin_id: plugin_id.to_owned(),
                tool: tool.to_owned(),
                started: Instant::now(),
                finished: false,
                abandoned: false,
            },
        );
        (Tracked { calls: Arc::clone(self), id, caller: true }, Tracked { calls: Arc::clone(self), id, caller: false })
    }

    /// The calls still running after their caller stopped waiting.
    pub(crate) fn stuck(&self) -> Vec<StuckCall> {
        let mut stuck: Vec<StuckCall> = self
            .calls()
            .values()
            .filter(|c| c.abandoned && !c.finished)
            .map(|c| StuckCall {
                plugin_id: c.plugin_id.clone(),
                tool: c.tool.clone(),
                running_for: c.started.elapsed(),
            })
            .collect();
        stuck.sort_by_key(|call| std::cmp::Reverse(call.running_for));
        stuck
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut calls = self.calls.calls();
        let Some(call) = calls.get_mut(&self.id) else { return };
        if self.caller {
            if call.finished {
                calls.remove(&self.id);
            } else {
                call.abandoned = true;
                tracing::warn!(
                    plugin = %call.plugin_id,
                    tool = %call.tool,
                    running_ms = call.started.elapsed().as_millis() as u64,
                    "a sync tool is still running after its caller stopped waiting; it keeps its blocking thread until it returns"
                );
            }
        } else if call.abandoned {
            tracing::info!(
                plugin = %call.plugin_id,
                tool = %call.tool,
                running_ms = call.started.elapsed().as_millis() as u64,
                "an abandoned sync tool call returned; its result was discarded"
            );
            calls.remove(&self.id);
        } else {
            call.finished = true;
        }
    }
}
