//! One `tools/call` seen from the tool: the [`Interaction`] behind its context. Progress and logs
//! go to the client as notifications; questions go to the client as requests on protocol
//! 2025-11-25, and on 2026-07-28 are gathered into an "input required" result (the call is then
//! run again with the answers).
#![allow(deprecated)] // rmcp marks the logging, sampling and roots APIs as superseded; MCP still has them.

use super::questions;
use rmcp::model::{
    CreateMessageRequestParams, ElicitRequestParams, LoggingLevel, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProgressToken,
};
use rmcp::{Peer, RoleServer};
use serde_json::{Map, Value, json};
use std::sync::Mutex;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use toolhook::{
    BoxFuture, Capabilities, Elicitation, ElicitationReply, InputKind, Interaction, InteractionError, LogLevel,
    Progress, Root, RootsRequest, SamplingReply, SamplingRequest,
};

/// The interaction of one call.
pub(crate) struct McpCall {
    peer: Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    cancel: CancellationToken,
    capabilities: Capabilities,
    /// Log messages at this level and above go out; none when the client did not ask.
    log_level: Option<LogLevel>,
    mode: Mode,
    /// The first kind of question the tool asked that the client did not declare it can answer.
    missing: Mutex<Option<InputKind>>,
}

enum Mode {
    /// 2025-11-25 and earlier: questions are requests to the client, answered in the call.
    InCall,
    /// 2026-07-28: questions are gathered and answered between rounds.
    Rounds { rounds: Box<Mutex<Rounds>>, needed: watch::Sender<bool> },
}

/// The answers a round was given and what it still needs.
#[derive(Default)]
pub(crate) struct Rounds {
    /// Answers from earlier rounds (the request state) and this one (`inputResponses`).
    given: Map<String, Value>,
    /// The answers the tool used: carried on in the next request state.
    used: Map<String, Value>,
    /// Questions asked and not answered: the next `inputRequests`.
    pending: Map<String, Value>,
    /// Questions asked so far per kind, for default keys.
    asked: [u32; 3],
}

impl Rounds {
    pub(crate) fn new(given: Map<String, Value>) -> Self {
        Rounds { given, ..Rounds::default() }
    }

    /// The key of a question: its own, or its kind and position in the run.
    fn key(&mut self, kind: InputKind, own: Option<&String>) -> String {
        let slot = match kind {
            InputKind::Elicitation => 0,
            InputKind::Sampling => 1,
            _ => 2,
        };
        self.asked[slot] += 1;
        own.cloned().unwrap_or_else(|| format!("{kind}_{}", self.asked[slot]))
    }

    /// The pending questions and the answers to carry on, once the run stopped for input.
    pub(crate) fn into_parts(self) -> (Map<String, Value>, Map<String, Value>) {
        (self.pending, self.used)
    }
}

impl McpCall {
    pub(crate) fn in_call(
        peer: Peer<RoleServer>,
        progress_token: Option<ProgressToken>,
        cancel: CancellationToken,
        capabilities: Capabilities,
        log_level: Option<LogLevel>,
    ) -> Self {
        McpCall { peer, progress_token, cancel, capabilities, log_level, mode: Mode::InCall, missing: Mutex::new(None) }
    }

    pub(crate) fn in_rounds(
        peer: Peer<RoleServer>,
        progress_token: Option<ProgressToken>,
        cancel: CancellationToken,
        capabilities: Capabilities,
        log_level: Option<LogLevel>,
        rounds: Rounds,
    ) -> Self {
        let mode = Mode::Rounds { rounds: Box::new(Mutex::new(rounds)), needed: watch::Sender::new(false) };
        McpCall { peer, progress_token, cancel, capabilities, log_level, mode, missing: Mutex::new(None) }
    }

    /// Resolves once the tool asked a question this round has no answer for (never on
    /// 2025-11-25, where questions are answered in the call).
    pub(crate) async fn input_needed(&self) {
        match &self.mode {
            Mode::Rounds { needed, .. } => {
                let _ = needed.subscribe().wait_for(|needed| *needed).await;
            }
            Mode::InCall => std::future::pending().await,
        }
    }

    /// The questions of a run that stopped for input, and the answers to carry on.
    pub(crate) fn take_rounds(&self) -> Option<Rounds> {
        match &self.mode {
            Mode::Rounds { rounds, .. } => Some(std::mem::take(&mut *lock(rounds))),
            Mode::InCall => None,
        }
    }

    /// The kind of question the tool asked although the client cannot answer it.
    pub(crate) fn missing_capability(&self) -> Option<InputKind> {
        *lock(&self.missing)
    }

    fn not_supported(&self, kind: InputKind) -> InteractionError {
        lock(&self.missing).get_or_insert(kind);
        InteractionError::NotSupported(kind)
    }

    /// Asks a question: in the call, or by gathering it for the next round.
    async fn ask(&self, kind: InputKind, key: Option<&String>, params: Value) -> Result<Value, InteractionError> {
        let declared = match kind {
            InputKind::Elicitation => self.capabilities.elicitation,
            InputKind::Sampling => self.capabilities.sampling,
            _ => self.capabilities.roots,
        };
        match &self.mode {
            Mode::Rounds { rounds, needed } => {
                {
                    let mut rounds = lock(rounds);
                    let key = rounds.key(kind, key);
                    if let Some(answer) = rounds.given.get(&key).cloned()
                        && answers(kind, &answer)
                    {
                        rounds.used.insert(key, answer.clone());
                        return Ok(answer);
                    }
                    if !declared {
                        drop(rounds);
                        return Err(self.not_supported(kind));
                    }
                    rounds.pending.insert(key, json!({"method": questions::method(kind), "params": params}));
                }
                needed.send_replace(true);
                // The run stops here; the call answers "input required" and runs again.
                std::future::pending().await
            }
            Mode::InCall if !declared => Err(self.not_supported(kind)),
            Mode::InCall => {
                let failed =
                    |e: &dyn std::fmt::Display| InteractionError::Failed(format!("the client could not answer: {e}"));
                let invalid =
                    |e: serde_json::Error| InteractionError::Failed(format!("the question is not valid MCP: {e}"));
                let request = async {
                    match kind {
                        InputKind::Elicitation => {
                            let params: ElicitRequestParams = serde_json::from_value(params).map_err(invalid)?;
                            let answer = self.peer.create_elicitation(params).await.map_err(|e| failed(&e))?;
                            serde_json::to_value(answer).map_err(|e| failed(&e))
                        }
                        InputKind::Sampling => {
                            let params: CreateMessageRequestParams = serde_json::from_value(params).map_err(invalid)?;
                            let answer = self.peer.create_message(params).await.map_err(|e| failed(&e))?;
                            serde_json::to_value(answer).map_err(|e| failed(&e))
                        }
                        _ => {
                            let answer = self.peer.list_roots().await.map_err(|e| failed(&e))?;
                            serde_json::to_value(answer).map_err(|e| failed(&e))
                        }
                    }
                };
                tokio::select! {
                    answer = request => answer,
                    () = self.cancel.cancelled() => Err(InteractionError::Cancelled),
                }
            }
        }
    }
}

/// Whether a given answer answers this kind of question.
fn answers(kind: InputKind, answer: &Value) -> bool {
    match kind {
        InputKind::Elicitation => questions::elicitation_reply(answer).is_some(),
        InputKind::Sampling => questions::sampling_reply(answer).is_some(),
        _ => questions::roots_reply(answer).is_some(),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

fn unreadable(kind: InputKind) -> InteractionError {
    InteractionError::Failed(format!("the client's answer to the {kind} request could not be read"))
}

impl Interaction for McpCall {
    fn report_progress(&self, progress: Progress) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let Some(token) = &self.progress_token else { return };
            let mut param = ProgressNotificationParam::new(token.clone(), progress.progress);
            if let Some(total) = progress.total {
                param = param.with_total(total);
            }
            if let Some(message) = progress.message {
                param = param.with_message(message);
            }
            if let Err(error) = self.peer.notify_progress(param).await {
                tracing::debug!(%error, "progress notification not delivered");
            }
        })
    }

    fn log(&self, level: LogLevel, logger: Option<&str>, data: Value) -> BoxFuture<'_, ()> {
        let logger = logger.map(str::to_owned);
        Box::pin(async move {
            if self.log_level.is_none_or(|threshold| level < threshold) {
                return;
            }
            let Ok(level) = serde_json::from_value::<LoggingLevel>(Value::from(level.as_str())) else { return };
            let mut param = LoggingMessageNotificationParam::new(level, data);
            if let Some(logger) = logger {
                param = param.with_logger(logger);
            }
            if let Err(error) = self.peer.notify_logging_message(param).await {
                tracing::debug!(%error, "log notification not delivered");
            }
        })
    }

    fn capabilities(&self) -> Capabilities {
        self.capabilities
    }

    fn elicit(&self, question: Elicitation) -> BoxFuture<'_, Result<ElicitationReply, InteractionError>> {
        Box::pin(async move {
            let kind = InputKind::Elicitation;
            let answer = self.ask(kind, question.key.as_ref(), questions::elicitation_params(&question)).await?;
            questions::elicitation_reply(&answer).ok_or_else(|| unreadable(kind))
        })
    }

    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<SamplingReply, InteractionError>> {
        Box::pin(async move {
            let kind = InputKind::Sampling;
            let answer = self.ask(kind, request.key.as_ref(), questions::sampling_params(&request)).await?;
            questions::sampling_reply(&answer).ok_or_else(|| unreadable(kind))
        })
    }

    fn list_roots(&self, request: RootsRequest) -> BoxFuture<'_, Result<Vec<Root>, InteractionError>> {
        Box::pin(async move {
            let kind = InputKind::Roots;
            let answer = self.ask(kind, request.key.as_ref(), json!({})).await?;
            questions::roots_reply(&answer).ok_or_else(|| unreadable(kind))
        })
    }

    fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.cancel.cancelled())
    }
}
