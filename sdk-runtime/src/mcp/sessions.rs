//! Session ids a load balancer can route by: every id an instance hands out starts with the
//! instance's tag, so the `Mcp-Session-Id` of later requests says which instance holds the
//! session.

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, LocalSessionManagerError};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use std::sync::Arc;

/// A session's event stream.
type SseStream = std::pin::Pin<Box<dyn futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static>>;

/// rmcp's in-memory sessions, with ids `{tag}.{id}`.
pub(crate) struct TaggedSessions {
    tag: String,
    inner: LocalSessionManager,
}

impl TaggedSessions {
    pub(crate) fn new(tag: &str) -> Self {
        TaggedSessions { tag: format!("{tag}."), inner: LocalSessionManager::default() }
    }

    /// The inner id of one of ours; a foreign id maps to one that does not exist.
    fn inner(&self, id: &SessionId) -> SessionId {
        id.strip_prefix(&self.tag).unwrap_or_default().into()
    }
}

impl SessionManager for TaggedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        Ok((format!("{}{id}", self.tag).into(), transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(&self.inner(id), message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(&self.inner(id)).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.inner.close_session(&self.inner(id)).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let inner = self.inner(id);
        let stream = self.inner.create_stream(&inner, message).await?;
        Ok(Box::pin(stream) as SseStream)
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        self.inner.accept_message(&self.inner(id), message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let inner = self.inner(id);
        let stream = self.inner.create_standalone_stream(&inner).await?;
        Ok(Box::pin(stream) as SseStream)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let inner = self.inner(id);
        let stream = self.inner.resume(&inner, last_event_id).await?;
        Ok(Box::pin(stream) as SseStream)
    }

    async fn restore_session(&self, id: SessionId) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(self.inner(&id)).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}
