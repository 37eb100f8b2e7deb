//! The HTTP client of a Streamable HTTP connection to an MCP server: reqwest, set up as rmcp
//! sets up its own, which also keeps the session id the server assigns, so that every result
//! can name the session it ran in.

use futures_util::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Redirects followed for one request, at most.
const MAX_REDIRECTS: usize = 10;

/// A reqwest client that remembers the session id of the server's last answer naming one.
#[derive(Clone, Debug)]
pub(crate) struct SessionClient {
    http: reqwest::Client,
    session: Arc<Mutex<Option<String>>>,
    /// How many times the session id changed (rmcp starts a new session by itself when the
    /// server forgets the old one): a result's cached session entry is stale when this moved.
    changes: Arc<AtomicU64>,
}

impl SessionClient {
    /// A client without idle connection pooling (a reused connection whose last answer was not
    /// read to its end stalls), following only redirects that keep the request's method, body
    /// and origin: anything else would lose the message or hand the session to another host.
    pub(crate) fn new() -> Result<Self, String> {
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt.previous().first().is_some_and(|first| first.origin() == attempt.url().origin());
            if !keeps_body || !same_origin {
                attempt.stop()
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        });
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(redirects)
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))?;
        Ok(SessionClient { http, session: Arc::default(), changes: Arc::default() })
    }

    /// The session id the server assigned, once it has answered `initialize` (`None` for a
    /// server without sessions), and the count of changes it is the result of.
    pub(crate) fn session(&self) -> (Option<String>, u64) {
        let session = self.session.lock().unwrap_or_else(|p| p.into_inner());
        (session.clone(), self.changes.load(Ordering::Acquire))
    }

    /// How many times the session id changed.
    pub(crate) fn changes(&self) -> u64 {
        self.changes.load(Ordering::Acquire)
    }

    fn record<E>(&self, answer: &Result<StreamableHttpPostResponse, E>) {
        let assigned = match answer {
            Ok(StreamableHttpPostResponse::Json(_, Some(id)) | StreamableHttpPostResponse::Sse(_, Some(id))) => id,
            _ => return,
        };
        let mut session = self.session.lock().unwrap_or_else(|p| p.into_inner());
        if session.as_deref() != Some(assigned.as_str()) {
            *session = Some(assigned.clone());
            self.changes.fetch_add(1, Ordering::Release);
        }
    }
}

impl StreamableHttpClient for SessionClient {
    type Error = reqwest::Error;

    /// Not called by rmcp's transport, which always passes its limits; the default limits here.
    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, limits).await
    }

    /// Not called by rmcp's transport either; the default limits with this event size.
    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, limits).await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let answer = self
            .http
            .post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, limits)
            .await;
        self.record(&answer);
        answer
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.http.delete_session(uri, session_id, auth_header, custom_headers).await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.http.get_stream(uri, session_id, last_event_id, auth_header, custom_headers).await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.http
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}
