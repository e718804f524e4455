//! Which of a server's tools run as tasks (`execution.taskSupport` of MCP
//! 2025-11-25), read from its `tools/list` answers as they arrive.
//!
//! rmcp's model of a listed tool has no `execution`: the field is gone once
//! rmcp has parsed the answer. So the mount's transports are tapped below
//! rmcp: over stdio, the child's output is scanned line by line
//! ([`ChildOutput`]); over HTTP, each server-sent event, and for a server
//! that answers `tools/list` with plain JSON, that answer read again
//! ([`TappedHttp`]). Only messages that name `taskSupport` are parsed; the
//! rest pass through untouched.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use futures_core::Stream;
use futures_core::stream::BoxStream;
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use serde::Deserialize;
use sse_stream::Sse;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// The bytes of one message read for [`TaskTools::note`] at most, as rmcp
/// bounds a line of stdio: a longer one passes through unread.
const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// The redirects one request follows at most.
const MAX_REDIRECTS: usize = 10;

/// How long a server whose input is closed has to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(3);

/// The tools of one server whose listing said they run as tasks
/// (`"required"` or `"optional"`).
#[derive(Debug, Default)]
pub(crate) struct TaskTools(Mutex<HashSet<String>>);

impl TaskTools {
    /// Forgets what the last listing said, before the next one.
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    /// Whether the listing said `tool` runs as a task.
    pub(crate) fn contains(&self, tool: &str) -> bool {
        self.lock().contains(tool)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads one message from the server, if it is a page of `tools/list`
    /// that names `taskSupport`.
    pub(crate) fn note(&self, message: &[u8]) {
        // Built once: every message from the server is searched.
        static FIELD: LazyLock<memchr::memmem::Finder<'static>> =
            LazyLock::new(|| memchr::memmem::Finder::new(b"\"taskSupport\""));
        if FIELD.find(message).is_none() {
            return;
        }
        #[derive(Deserialize)]
        struct Page {
            result: Listing,
        }
        #[derive(Deserialize)]
        struct Listing {
            tools: Vec<Listed>,
        }
        #[derive(Deserialize)]
        struct Listed {
            name: String,
            #[serde(default)]
            execution: Option<Execution>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Execution {
            #[serde(default)]
            task_support: Option<String>,
        }
        // Anything else (a call's result that mentions the word, garbage)
        // is rmcp's to read or refuse.
        let Ok(page) = serde_json::from_slice::<Page>(message) else {
            return;
        };
        let mut tools = self.lock();
        for listed in page.result.tools {
            let support = listed
                .execution
                .and_then(|execution| execution.task_support);
            if matches!(support.as_deref(), Some("required" | "optional")) {
                tools.insert(listed.name);
            }
        }
    }
}

/// A server's output, read by rmcp and scanned here one line (one message)
/// at a time.
pub(crate) struct ChildOutput {
    stdout: ChildStdout,
    lines: Lines,
    tasks: Arc<TaskTools>,
}

impl ChildOutput {
    pub(crate) fn new(stdout: ChildStdout, tasks: Arc<TaskTools>) -> Self {
        Self {
            stdout,
            lines: Lines::default(),
            tasks,
        }
    }
}

/// The line being read, across reads.
#[derive(Default)]
struct Lines {
    line: Vec<u8>,
    /// The current line is over [`MAX_MESSAGE_BYTES`]: not kept.
    overlong: bool,
}

impl Lines {
    /// Takes in what was read, and notes each line it ends.
    fn scan(&mut self, mut read: &[u8], tasks: &TaskTools) {
        while !read.is_empty() {
            let (part, ends) = match memchr::memchr(b'\n', read) {
                Some(at) => (&read[..at], Some(at + 1)),
                None => (read, None),
            };
            if !self.overlong {
                if self.line.len() + part.len() > MAX_MESSAGE_BYTES {
                    self.overlong = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(part);
                }
            }
            let Some(rest) = ends else { return };
            if !self.overlong {
                tasks.note(&self.line);
            }
            self.line.clear();
            self.overlong = false;
            read = &read[rest..];
        }
    }
}

impl AsyncRead for ChildOutput {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.stdout).poll_read(cx, buf))?;
        this.lines.scan(&buf.filled()[before..], &this.tasks);
        Poll::Ready(Ok(()))
    }
}

/// A server's input, which owns the server: dropped with the connection,
/// it closes the input, gives the server [`EXIT_GRACE`] to exit, then
/// kills it, and waits for it, so that no process is left behind, running
/// or a zombie.
pub(crate) struct ChildInput {
    stdin: Option<ChildStdin>,
    child: Option<Child>,
}

impl ChildInput {
    pub(crate) fn new(stdin: ChildStdin, child: Child) -> Self {
        Self {
            stdin: Some(stdin),
            child: Some(child),
        }
    }

    fn stdin(&mut self) -> std::io::Result<Pin<&mut ChildStdin>> {
        match &mut self.stdin {
            Some(stdin) => Ok(Pin::new(stdin)),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }
}

impl AsyncWrite for ChildInput {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.get_mut().stdin()?.poll_write(cx, bytes)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().stdin()?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().stdin()?.poll_shutdown(cx)
    }
}

impl Drop for ChildInput {
    fn drop(&mut self) {
        // Its input closed, a server following MCP's stdio rules exits.
        drop(self.stdin.take());
        let (Some(mut child), Ok(runtime)) =
            (self.child.take(), tokio::runtime::Handle::try_current())
        else {
            // Without a runtime, the child is killed as it is dropped
            // (`kill_on_drop`), and tokio reaps it.
            return;
        };
        runtime.spawn(async move {
            if tokio::time::timeout(EXIT_GRACE, child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
        });
    }
}

/// rmcp's HTTP client, with each server-sent event it receives, and each
/// plain JSON answer to `tools/list`, read for [`TaskTools::note`].
#[derive(Clone)]
pub(crate) struct TappedHttp {
    client: reqwest::Client,
    tasks: Arc<TaskTools>,
}

impl TappedHttp {
    /// Built as rmcp builds its own: no idle connections kept (reusing
    /// one whose last answer was not read to its end stalls on delayed
    /// ACKs), and only redirects that keep the request whole (307, 308)
    /// to the same origin followed, so that neither the message nor the
    /// session and its headers go elsewhere.
    pub(crate) fn new(tasks: Arc<TaskTools>) -> Result<Self, String> {
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
        Ok(Self { client, tasks })
    }

    /// `tools/list` sent again as it was, its plain JSON answer read for
    /// [`TaskTools::note`]: rmcp's client gives that answer only parsed.
    /// Listing changes nothing on the server; a failure here only leaves
    /// the tools called as they are listed, not as tasks.
    async fn list_again(&self, again: Again) {
        let Again {
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
        } = again;
        let mut request = self
            .client
            .post(&*uri)
            .header(
                reqwest::header::ACCEPT,
                "application/json, text/event-stream",
            )
            .header(reqwest::header::CONTENT_TYPE, "application/json");
        match serde_json::to_vec(&message) {
            Ok(body) => request = request.body(body),
            Err(_) => return,
        }
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            request = request.header(name, value);
        }
        if let Some(session) = session_id {
            request = request.header("mcp-session-id", &*session);
        }
        let Ok(response) = request.send().await else {
            return;
        };
        let json = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
        let small = response
            .content_length()
            .is_some_and(|length| length <= MAX_MESSAGE_BYTES as u64);
        if response.status().is_success()
            && json
            && small
            && let Ok(body) = response.bytes().await
        {
            self.tasks.note(&body);
        }
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
        let answer = self
            .client
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(match answer {
            StreamableHttpPostResponse::Sse(events, session) => {
                StreamableHttpPostResponse::Sse(self.tap(events), session)
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
        Box::pin(TappedEvents {
            events,
            tasks: Arc::clone(&self.tasks),
        })
    }
}

/// A stream of server-sent events, each read for [`TaskTools::note`] as it
/// passes.
struct TappedEvents {
    events: BoxStream<'static, Result<Sse, SseError>>,
    tasks: Arc<TaskTools>,
}

impl Stream for TappedEvents {
    type Item = Result<Sse, SseError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let event = ready!(this.events.as_mut().poll_next(cx));
        if let Some(Ok(Sse {
            data: Some(data), ..
        })) = &event
        {
            this.tasks.note(data.as_bytes());
        }
        Poll::Ready(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_names_task_support_marks_its_tools() {
        let tasks = TaskTools::default();
        tasks.note(
            br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[
                {"name":"research","inputSchema":{},"execution":{"taskSupport":"required"}},
                {"name":"maybe","inputSchema":{},"execution":{"taskSupport":"optional"}},
                {"name":"never","inputSchema":{},"execution":{"taskSupport":"forbidden"}},
                {"name":"echo","inputSchema":{}}]}}"#,
        );
        assert!(tasks.contains("research") && tasks.contains("maybe"));
        assert!(!tasks.contains("never") && !tasks.contains("echo"));
        tasks.clear();
        assert!(!tasks.contains("research"));
    }

    #[test]
    fn anything_else_is_left_alone() {
        let tasks = TaskTools::default();
        tasks.note(br#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"\"taskSupport\""}]}}"#);
        tasks.note(br#"{"tools":[{"name":"x","execution":{"taskSupport":"required"}}]"#);
        assert!(tasks.0.lock().unwrap().is_empty());
    }

    #[test]
    fn lines_are_read_whole_across_reads() {
        let tasks = TaskTools::default();
        let mut lines = Lines::default();
        let page = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"research","inputSchema":{},"execution":{"taskSupport":"required"}}]}}"#;
        let mut stream = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n".to_vec();
        stream.extend_from_slice(page);
        stream.push(b'\n');
        for chunk in stream.chunks(7) {
            lines.scan(chunk, &tasks);
        }
        assert!(tasks.contains("research"));
        assert!(lines.line.is_empty(), "nothing left over at a line's end");
    }
}
