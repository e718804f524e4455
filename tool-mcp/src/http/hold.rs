//! A `tools/call`'s answer over HTTP held back until the call has its
//! result, or is seen to wait, so that a call answered at once goes out in
//! one write.
//!
//! rmcp answers a POST with an event stream: its head (status and
//! headers), a priming event (an event id and `retry`, for the client to
//! resume from), the answer, and the stream's end. hyper writes what it has
//! each time the body has nothing more yet, so a call answered within
//! microseconds took two or three writes (head and priming event, answer,
//! end), each a TCP segment of its own that wakes the client to read it.
//! [`McpServer::serve_http`](crate::McpServer::serve_http) hands hyper the
//! answer of a `tools/call` once its stream has ended, or once the call
//! lets its head go ([`HeadHold::release`]): when its tool does not end on
//! its first poll (it waits for something), when the call is not run at
//! once (a task, a question), or when the request is dropped unanswered.
//! The bytes are the same; a quick call's go in one write, and a slow
//! call's head and priming event go as soon as it is seen to wait.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::Response;
use hyper::body::{Body, Frame, SizeHint};
use hyper::header::CONTENT_TYPE;
use hyper::http::request::Parts;
use memchr::memmem::Finder;
use rmcp::RoleServer;
use rmcp::service::RequestContext;

type Answer = Response<BoxBody<Bytes, Infallible>>;

/// What keeps a `tools/call`'s answer from hyper ([`held`]), in the
/// request's extensions, which rmcp gives the handler with the request's
/// HTTP parts. Dropped (every clone of it) without [`keep`](Self::keep),
/// it lets the head go.
pub(crate) struct HeadHold(Arc<HoldState>);

/// What the handler and the front share: one allocation a call.
pub(crate) struct HoldState {
    /// Set once the head may go: by the call, or by its hold dropped
    /// unkept.
    released: AtomicBool,
    /// Set once the answer is on its way: dropping the request then lets
    /// nothing go, as the head goes with the answer.
    kept: AtomicBool,
    /// The [`HeadHold`]s alive: the last one dropped unkept releases.
    holds: AtomicUsize,
    /// The front's task, waiting.
    waiter: Mutex<Option<Waker>>,
}

impl HeadHold {
    /// A hold for a request whose body is `message`, if it is a
    /// `tools/call`, and the front's side of it.
    pub(crate) fn for_message(message: &[u8]) -> Option<(Self, Arc<HoldState>)> {
        if !is_tools_call(message) {
            return None;
        }
        let state = Arc::new(HoldState {
            released: AtomicBool::new(false),
            kept: AtomicBool::new(false),
            holds: AtomicUsize::new(1),
            waiter: Mutex::new(None),
        });
        Some((HeadHold(Arc::clone(&state)), state))
    }

    /// The hold of the request being handled, if its answer is held.
    pub(crate) fn of(request: &RequestContext<RoleServer>) -> Option<&HeadHold> {
        request
            .extensions
            .get::<Parts>()?
            .extensions
            .get::<HeadHold>()
    }

    /// Lets the head go now: the answer will not come at once.
    pub(crate) fn release(&self) {
        self.0.release();
    }

    /// The answer is on its way: the head waits for it, and the stream's
    /// end.
    pub(crate) fn keep(&self) {
        self.0.kept.store(true, Ordering::Release);
    }
}

// Extensions must be `Clone`: a clone holds as the original does.
impl Clone for HeadHold {
    fn clone(&self) -> Self {
        self.0.holds.fetch_add(1, Ordering::Relaxed);
        HeadHold(Arc::clone(&self.0))
    }
}

impl Drop for HeadHold {
    fn drop(&mut self) {
        // Dropped unanswered (refused before a handler, say): let it go.
        if self.0.holds.fetch_sub(1, Ordering::AcqRel) == 1 && !self.0.kept.load(Ordering::Acquire)
        {
            self.0.release();
        }
    }
}

impl HoldState {
    fn release(&self) {
        self.released.store(true, Ordering::Release);
        if let Some(waiter) = self.lock().take() {
            waiter.wake();
        }
    }

    /// Whether the head may go; else `cx` is woken when it may.
    fn poll_released(&self, cx: &Context<'_>) -> bool {
        let mut waiter = self.lock();
        // Read under the lock that `release` takes to wake: never missed.
        if self.released.load(Ordering::Acquire) {
            return true;
        }
        match &mut *waiter {
            Some(known) if known.will_wake(cx.waker()) => {}
            _ => *waiter = Some(cx.waker().clone()),
        }
        false
    }

    fn lock(&self) -> MutexGuard<'_, Option<Waker>> {
        self.waiter.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Whether `message` is a `tools/call`: its `"method"` is the string
/// `"tools/call"` (with any whitespace JSON allows between them).
fn is_tools_call(message: &[u8]) -> bool {
    static CALL: std::sync::LazyLock<Finder<'static>> =
        std::sync::LazyLock::new(|| Finder::new(b"\"tools/call\""));
    CALL.find_iter(message).any(|at| {
        let before = message[..at].trim_ascii_end();
        before
            .strip_suffix(b":")
            .is_some_and(|key| key.trim_ascii_end().ends_with(b"\"method\""))
    })
}

/// `answer` with its events read already while `hold` holds it, when it
/// is an event stream: all of them when the stream ends first, else those
/// that came before the head was let go.
pub(crate) async fn held(answer: Answer, hold: Option<Arc<HoldState>>) -> Answer {
    let Some(hold) = hold else {
        return answer;
    };
    let is_stream = answer
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"));
    if !is_stream {
        return answer;
    }
    let (parts, mut body) = answer.into_parts();
    let mut frames = Frames::default();
    let ended = loop {
        let next = std::future::poll_fn(|cx| match Pin::new(&mut body).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(Some(frame)),
            Poll::Pending if hold.poll_released(cx) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        })
        .await;
        match next {
            Some(Some(Ok(frame))) => frames.push(frame),
            Some(Some(Err(never))) => match never {},
            Some(None) => break true,
            None => break false,
        }
    };
    let rest = (!ended).then_some(body);
    Response::from_parts(parts, Held { frames, rest }.boxed())
}

/// A body whose first frames were read already.
struct Held {
    frames: Frames,
    rest: Option<BoxBody<Bytes, Infallible>>,
}

/// The frames read while an answer was held, in order. Most answers are
/// a few (the priming event, the answer, a notification or two before
/// it): kept in place, without an allocation.
#[derive(Default)]
struct Frames {
    first: [Option<Frame<Bytes>>; 4],
    /// How many of `first` were put, and taken.
    put: usize,
    taken: usize,
    /// Those past `first`.
    more: VecDeque<Frame<Bytes>>,
}

impl Frames {
    fn push(&mut self, frame: Frame<Bytes>) {
        match self.first.get_mut(self.put) {
            Some(slot) => {
                *slot = Some(frame);
                self.put += 1;
            }
            None => self.more.push_back(frame),
        }
    }

    fn pop(&mut self) -> Option<Frame<Bytes>> {
        if self.taken < self.put {
            self.taken += 1;
            return self.first.get_mut(self.taken - 1).and_then(Option::take);
        }
        self.more.pop_front()
    }

    fn is_empty(&self) -> bool {
        self.taken == self.put && self.more.is_empty()
    }
}

impl Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(frame) = self.frames.pop() {
            return Poll::Ready(Some(Ok(frame)));
        }
        match &mut self.rest {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty() && self.rest.as_ref().is_none_or(Body::is_end_stream)
    }

    // An event stream's length is never known ahead: sent chunked, as rmcp
    // sends it.
    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::*;

    /// An event stream's body, fed by the test.
    struct Fed(mpsc::UnboundedReceiver<&'static str>);

    impl Body for Fed {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            self.0
                .poll_recv(cx)
                .map(|event| event.map(|event| Ok(Frame::data(Bytes::from(event)))))
        }
    }

    fn stream() -> (mpsc::UnboundedSender<&'static str>, Answer) {
        let (events, fed) = mpsc::unbounded_channel();
        let answer = Response::builder()
            .header(CONTENT_TYPE, "text/event-stream")
            .body(Fed(fed).boxed())
            .expect("a response");
        (events, answer)
    }

    fn call() -> (HeadHold, Arc<HoldState>) {
        HeadHold::for_message(br#"{"method":"tools/call"}"#).expect("a tools/call")
    }

    async fn text(answer: Answer) -> String {
        let body = answer.into_body().collect().await.expect("read");
        String::from_utf8(body.to_bytes().to_vec()).expect("UTF-8")
    }

    #[tokio::test]
    async fn a_stream_that_ends_is_handed_on_whole() {
        let (events, answer) = stream();
        let (hold, front) = call();
        let holding = tokio::spawn(held(answer, Some(front)));
        events.send("priming ").expect("sent");
        events.send("answer").expect("sent");
        // The answer is on its way: its request dropped lets nothing go.
        hold.keep();
        drop(hold);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(!holding.is_finished(), "held until the stream ends");
        drop(events);
        let answer = holding.await.expect("held");
        assert_eq!(text(answer).await, "priming answer");
    }

    #[tokio::test]
    async fn a_released_stream_goes_with_what_came_and_the_rest_follows() {
        let (events, answer) = stream();
        let (hold, front) = call();
        events.send("priming ").expect("sent");
        let holding = tokio::spawn(held(answer, Some(front)));
        tokio::task::yield_now().await;
        hold.release();
        let answer = holding.await.expect("held");
        events.send("answer").expect("sent");
        drop(events);
        assert_eq!(text(answer).await, "priming answer");
    }

    #[tokio::test]
    async fn a_request_dropped_unanswered_lets_its_head_go() {
        let (events, answer) = stream();
        let (hold, front) = call();
        let holding = tokio::spawn(held(answer, Some(front)));
        drop(hold);
        let answer = holding.await.expect("held");
        drop(events);
        assert_eq!(text(answer).await, "");
    }

    #[tokio::test]
    async fn what_is_not_a_held_stream_goes_as_it_is() {
        let (_events, answer) = stream();
        let answer = held(answer, None).await;
        assert!(!answer.body().is_end_stream());
        let json = Response::new(http_body_util::Full::new(Bytes::from("{}")).boxed());
        let (_hold, front) = call();
        assert_eq!(text(held(json, Some(front)).await).await, "{}");
    }

    #[tokio::test]
    async fn many_frames_come_in_order() {
        let (events, answer) = stream();
        let (hold, front) = call();
        let holding = tokio::spawn(held(answer, Some(front)));
        let sent = ["a", "b", "c", "d", "e", "f", "g"];
        for event in sent {
            events.send(event).expect("sent");
        }
        hold.keep();
        drop(hold);
        drop(events);
        let answer = holding.await.expect("held");
        assert_eq!(text(answer).await, sent.concat());
    }

    #[tokio::test]
    async fn a_clone_holds_until_every_hold_is_dropped() {
        let (events, answer) = stream();
        let (hold, front) = call();
        let clone = hold.clone();
        let holding = tokio::spawn(held(answer, Some(front)));
        drop(hold);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(!holding.is_finished(), "the clone holds");
        drop(clone);
        let answer = holding.await.expect("held");
        drop(events);
        assert_eq!(text(answer).await, "");
    }

    #[test]
    fn only_a_tools_call_is_held() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}"#;
        assert!(is_tools_call(call));
        let spaced = br#"{"jsonrpc": "2.0", "id": 1, "method" : "tools/call", "params": {}}"#;
        assert!(is_tools_call(spaced));
        let mentioned =
            br#"{"id":1,"method":"prompts/get","params":{"arguments":{"a":"tools/call"}}}"#;
        assert!(!is_tools_call(mentioned));
        assert!(!is_tools_call(br#"{"id":1,"method":"tools/list"}"#));
    }
}
