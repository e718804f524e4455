//! The mount's transports, tapped below rmcp: each message the server sends
//! is read whole and in order, before rmcp reads it ([`Heard`]).
//!
//! rmcp's model of a listed tool has no `execution`, so which tools run as
//! tasks is read from the server's raw `tools/list` answers; and rmcp hands
//! each notification to the client in a task of its own, so a call's
//! progress is read here, where it stays in order with the call's answer.
//! Over stdio, the child's output is scanned line by line
//! (`child.rs`); over HTTP, each server-sent event, and for a server
//! that answers `tools/list` with plain JSON, that answer read again
//! ([`TappedHttp`]), here: given on without its tools nested too deep
//! when rmcp could not read it for them. Only messages that name what is looked for are
//! parsed; the rest pass through untouched.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use futures_core::Stream;
use futures_core::stream::BoxStream;
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::Sse;

use super::heard::{Heard, MAX_MESSAGE_BYTES};
use super::oversized::stand_in_for;
use super::questions::key_of;

/// The redirects one request follows at most.
const MAX_REDIRECTS: usize = 10;

/// rmcp's HTTP client, with each server-sent event it receives, and each
/// plain JSON answer to `tools/list`, read for [`Heard::note`].
#[derive(Clone)]
pub(crate) struct TappedHttp {
    client: reqwest::Client,
    heard: Heard,
}

impl TappedHttp {
    /// Built as rmcp builds its own: no idle connections kept (reusing
    /// one whose last answer was not read to its end stalls on delayed
    /// ACKs), and only redirects that keep the request whole (307, 308)
    /// to the same origin followed, so that neither the message nor the
    /// session and its headers go elsewhere.
    pub(crate) fn new(heard: Heard) -> Result<Self, String> {
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if keeps_body && same_origin && attempt.previous().len() <= MAX_REDIRECTS {
                attempt.follow()
            } else {
                attempt.stop()
            }
        });
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(redirects)
            .build()
            .map_err(|error| format!("no HTTP client: {error}"))?;
        Ok(Self { client, heard })
    }

    /// `tools/list` sent again as it was, its plain JSON answer read for
    /// [`TaskTools::note`]: rmcp's client gives that answer only parsed.
    /// Listing changes nothing on the server; a failure here only leaves
    /// the tools called as they are listed, not as tasks.
    async fn list_again(&self, again: Again) {
        if let Some(body) = self.fetch(again).await {
            self.heard.tasks.note(&body);
        }
    }

    /// `tools/list` sent again as it was, when rmcp could not read its
    /// plain JSON answer: the answer without its tools nested too deep to
    /// read (each remembered, for `refused`), read for [`TaskTools::note`]
    /// too; `None` if that was not why.
    async fn read_too_deep(&self, again: Again) -> Option<ServerJsonRpcMessage> {
        let body = self.fetch(again).await?;
        let body = self.heard.too_deep.rewrite(&body)?;
        self.heard.tasks.note(&body);
        serde_json::from_slice(&body).ok()
    }

    /// The plain JSON answer to `again`, if the server answers it with
    /// one within [`MAX_MESSAGE_BYTES`].
    async fn fetch(&self, again: Again) -> Option<bytes::Bytes> {
        let Again {
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
        } = again;
        let body = serde_json::to_vec(&message).ok()?;
        let mut request = self
            .client
            .post(&*uri)
            .header(
                reqwest::header::ACCEPT,
                "application/json, text/event-stream",
            )
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            request = request.header(name, value);
        }
        if let Some(session) = session_id {
            request = request.header("mcp-session-id", &*session);
        }
        let response = request.send().await.ok()?;
        let json = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
        let small = response
            .content_length()
            .is_some_and(|length| length <= MAX_MESSAGE_BYTES as u64);
        if !(response.status().is_success() && json && small) {
            return None;
        }
        response.bytes().await.ok()
    }
}

/// A request for a page of `tools/list`, kept to be sent again.
struct Again {
    uri: Arc<str>,
    message: ClientJsonRpcMessage,
    session_id: Option<Arc<str>>,
    auth_header: Option<String>,
    custom_headers: HashMap<HeaderName, HeaderValue>,
}

/// Whether `message` asks for a page of `tools/list`.
fn lists_tools(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::ListToolsRequest(_)))
}

impl StreamableHttpClient for TappedHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.post_message_with_max_sse_event_size(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            MAX_MESSAGE_BYTES,
        )
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
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        // Only a listing's request is kept, for a plain JSON answer; what
        // is kept, and the second request, are boxed, so that every other
        // request's future (moved into a task of its own by rmcp) stays as
        // small as the client's own.
        let again = lists_tools(&message).then(|| {
            Box::new(Again {
                uri: Arc::clone(&uri),
                message: message.clone(),
                session_id: session_id.clone(),
                auth_header: auth_header.clone(),
                custom_headers: custom_headers.clone(),
            })
        });
        // What stands in for the answer, should it be too large to read.
        let too_large = stand_in_for(&message).map(Box::new);
        // The request the answer's events belong to: a question the server
        // asks among them belongs to its call.
        let answering = match &message {
            ClientJsonRpcMessage::Request(request) => Some(key_of(&request.id)),
            _ => None,
        };
        let answer = match self
            .client
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id.clone(),
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
        {
            Err(StreamableHttpError::ResponseBodyTooLarge { .. }) if too_large.is_some() => {
                let session = session_id.map(|session| session.to_string());
                return Ok(match too_large {
                    Some(stand_in) => StreamableHttpPostResponse::Json(stand_in.0, session),
                    None => StreamableHttpPostResponse::Accepted,
                });
            }
            // A listing with a tool nested too deep for rmcp to read, which
            // would fail it whole: read again here, it goes on without that
            // tool, as a server-sent event's would.
            Err(StreamableHttpError::UnexpectedServerResponse(why)) if again.is_some() => {
                let answer = match again {
                    Some(again) => Box::pin(self.read_too_deep(*again)).await,
                    None => None,
                };
                let session = session_id.map(|session| session.to_string());
                return match answer {
                    Some(answer) => Ok(StreamableHttpPostResponse::Json(answer, session)),
                    None => Err(StreamableHttpError::UnexpectedServerResponse(why)),
                };
            }
            answer => answer?,
        };
        Ok(match answer {
            StreamableHttpPostResponse::Sse(events, session) => {
                let too_large = too_large.map(|stand_in| stand_in.1);
                let answer = self.tap_answer(events, too_large, answering);
                StreamableHttpPostResponse::Sse(answer, session)
            }
            StreamableHttpPostResponse::Json(answer, session) => {
                if let Some(again) = again {
                    Box::pin(self.list_again(*again)).await;
                }
                StreamableHttpPostResponse::Json(answer, session)
            }
            accepted => accepted,
        })
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
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
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            MAX_MESSAGE_BYTES,
        )
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
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        let events = self
            .client
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.tap(events))
    }
}

impl TappedHttp {
    fn tap(
        &self,
        events: BoxStream<'static, Result<Sse, SseError>>,
    ) -> BoxStream<'static, Result<Sse, SseError>> {
        self.tap_answer(events, None, None)
    }

    /// `events`, tapped; `too_large`: the data of the event that stands in
    /// for one too large to read, which ends the stream; `answering`: the
    /// id of the request they answer.
    fn tap_answer(
        &self,
        events: BoxStream<'static, Result<Sse, SseError>>,
        too_large: Option<String>,
        answering: Option<String>,
    ) -> BoxStream<'static, Result<Sse, SseError>> {
        Box::pin(TappedEvents {
            events: Some(events),
            heard: self.heard.clone(),
            too_large,
            answering,
        })
    }
}

/// A stream of server-sent events, each read for [`Heard::note`] as it
/// passes.
struct TappedEvents {
    /// `None` once an event too large to read ended it.
    events: Option<BoxStream<'static, Result<Sse, SseError>>>,
    heard: Heard,
    too_large: Option<String>,
    /// The id of the request the events answer, if they answer one.
    answering: Option<String>,
}

impl Stream for TappedEvents {
    type Item = Result<Sse, SseError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let Some(events) = &mut this.events else {
            return Poll::Ready(None);
        };
        let event = ready!(events.as_mut().poll_next(cx));
        // rmcp's bound on an event, which it would read as the connection's
        // end: the request is answered with an error that says why.
        if let Some(Err(error)) = &event
            && error.to_string().contains("exceeded the maximum size")
            && let Some(data) = this.too_large.take()
        {
            this.events = None;
            return Poll::Ready(Some(Ok(Sse::default().data(data))));
        }
        let mut event = event;
        if let Some(Ok(Sse {
            data: Some(data), ..
        })) = &mut event
        {
            // A listing too deep for rmcp, which would drop it unread, goes
            // on without its tools nested too deep.
            if let Some(again) = this.heard.too_deep.rewrite(data.as_bytes())
                && let Ok(again) = String::from_utf8(again)
            {
                *data = again.trim_end().to_owned();
            }
            this.heard.note(data.as_bytes());
            if let Some(call) = &this.answering
                && let Some(question) = question_in(data)
            {
                this.heard.desk.relate(question, call.clone());
            }
        }
        Poll::Ready(event)
    }
}

/// The id of the server's question `data` holds, if it holds one: a
/// request the person answers.
fn question_in(data: &str) -> Option<String> {
    if !data.contains("\"elicitation/create\"") {
        return None;
    }
    let message: serde_json::Value = serde_json::from_str(data).ok()?;
    let id = message.get("id")?;
    (message.get("method")? == "elicitation/create").then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_listing_a_tool_too_deep_goes_on_without_it() {
        let deep = format!("{}{}", "[".repeat(999), "]".repeat(999));
        let page = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"fine","inputSchema":{{}}}},{{"name":"deep","inputSchema":{{"x":{deep}}}}}]}}}}"#
        );
        let heard = Heard {
            tasks: Arc::default(),
            reports: Arc::default(),
            too_deep: Arc::default(),
            desk: Arc::default(),
        };
        /// One event, then the end.
        struct One(Option<Sse>);
        impl Stream for One {
            type Item = Result<Sse, SseError>;
            fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
                Poll::Ready(self.get_mut().0.take().map(Ok))
            }
        }
        let events: BoxStream<'static, Result<Sse, SseError>> =
            Box::pin(One(Some(Sse::default().data(page))));
        let mut tapped = TappedEvents {
            events: Some(events),
            heard: heard.clone(),
            too_large: None,
            answering: None,
        };
        let waker = std::task::Waker::noop();
        let Poll::Ready(Some(Ok(event))) =
            Pin::new(&mut tapped).poll_next(&mut Context::from_waker(waker))
        else {
            panic!("an event");
        };
        let page: serde_json::Value =
            serde_json::from_str(event.data.as_deref().unwrap_or_default()).expect("readable");
        assert_eq!(page["result"]["tools"].as_array().map(Vec::len), Some(1));
        assert_eq!(heard.too_deep.take().len(), 1);
    }
}
