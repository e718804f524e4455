//! A mount's HTTP client behind OAuth: rmcp's [`AuthClient`] (the token on
//! each request, refreshed when it expires or is refused) around the
//! tapped client, and around both, what rmcp leaves to its caller: a 401
//! its refresh cannot answer authorizes and sends the request again; a
//! 403 `insufficient_scope` asks for the scope and sends it again, a
//! bounded number of times.

use std::collections::HashMap;
use std::sync::Arc;

use futures_core::stream::BoxStream;
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ErrorCode, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::AuthClient;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::Sse;

use super::super::tap::TappedHttp;
use super::Authorizer;

/// How many times one request authorizes whole after a 401: once with the
/// tokens a store keeps, once more through the browser.
const MAX_AUTHORIZATIONS: u32 = 2;

type Failed = StreamableHttpError<reqwest::Error>;

/// The tapped client, authorized.
#[derive(Clone)]
pub(crate) struct OAuthHttp {
    client: AuthClient<TappedHttp>,
    flow: Arc<Authorizer>,
    max_step_ups: u32,
}

impl OAuthHttp {
    pub(crate) fn new(
        client: AuthClient<TappedHttp>,
        flow: Arc<Authorizer>,
        max_step_ups: u32,
    ) -> Self {
        Self {
            client,
            flow,
            max_step_ups,
        }
    }

    /// `call` sent, and again after each authorization its refusal asks
    /// for, within the limits.
    async fn authorized<T, F, Fut>(&self, call: F) -> Result<T, Failed>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, Failed>>,
    {
        let (mut authorizations, mut step_ups) = (0, 0);
        loop {
            let seen = self.flow.generation();
            match call().await {
                Err(StreamableHttpError::AuthRequired(refused))
                    if authorizations < MAX_AUTHORIZATIONS =>
                {
                    authorizations += 1;
                    self.flow
                        .authorize(&refused.www_authenticate_header, seen, authorizations == 1)
                        .await?;
                }
                // Counted here, per request: rmcp's own count of step-ups
                // starts again at each token it receives, so a server that
                // never grants the scope would be asked for it forever.
                Err(StreamableHttpError::InsufficientScope(refused)) => {
                    if step_ups >= self.max_step_ups {
                        let header = &refused.www_authenticate_header;
                        return Err(self.flow.too_many_step_ups(header, step_ups).into());
                    }
                    step_ups += 1;
                    self.flow
                        .step_up(&refused.www_authenticate_header, seen)
                        .await?;
                }
                answer => return answer,
            }
        }
    }

    /// `message` sent, authorized; a request whose authorization failed is
    /// answered with an error saying why: rmcp's transport would end the
    /// whole connection on the failure, where only this request failed.
    async fn post<F, Fut>(
        &self,
        message: &ClientJsonRpcMessage,
        send: F,
    ) -> Result<StreamableHttpPostResponse, Failed>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<StreamableHttpPostResponse, Failed>>,
    {
        let answer = self.authorized(send).await;
        let refused = matches!(
            answer,
            Err(StreamableHttpError::Auth(_)
                | StreamableHttpError::AuthRequired(_)
                | StreamableHttpError::InsufficientScope(_))
        );
        let ClientJsonRpcMessage::Request(request) = message else {
            return answer;
        };
        match answer {
            Err(error) if refused => {
                let why = match self.flow.failure() {
                    Some(failure) => failure.to_string(),
                    None => error.to_string(),
                };
                let error = ErrorData::new(
                    ErrorCode::INVALID_REQUEST,
                    format!("authorization failed: {why}"),
                    None,
                );
                let answer = ServerJsonRpcMessage::error(error, Some(request.id.clone()));
                Ok(StreamableHttpPostResponse::Json(answer, None))
            }
            answer => answer,
        }
    }
}

impl StreamableHttpClient for OAuthHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        self.post(&message, || {
            self.client.post_message(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        self.post(&message, || {
            self.client.post_message_with_max_sse_event_size(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failed> {
        // Ending a session is not worth a person's authorization.
        self.client
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failed> {
        self.authorized(|| {
            self.client.get_stream(
                Arc::clone(&uri),
                session_id.clone(),
                last_event_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failed> {
        self.authorized(|| {
            self.client.get_stream_with_max_sse_event_size(
                Arc::clone(&uri),
                session_id.clone(),
                last_event_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
