//! Which call a mounted server's request of the client belongs to: its
//! question to the person (MCP elicitation) or, where the mount takes
//! them, its request of the client's model (sampling) or roots, each
//! answered through the context of the call that made it (`asked.rs`).
//!
//! A server's question comes to the mount's client on its own, not with
//! the call it belongs to, so each call takes a seat at the [`Desk`] for
//! as long as it runs, and each question is passed to the seat of its
//! call: over HTTP, the call whose stream of events carried the question
//! (`tap.rs` relates the two); otherwise, the only call running. A
//! question no call can be found for is refused, never put to another
//! caller's person.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::RequestId;
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};

use super::asked::{ServerAsks, Takes};

/// How long a question waits for the call it belongs to to take its seat:
/// a server may ask as soon as the call reaches it, before the mount has
/// seen the call sent.
const SEATING: Duration = Duration::from_secs(2);

/// The most questions relations kept between a server's request and the
/// call it came with: each is forgotten once its question is passed on,
/// so only a server asking without end reaches it.
const MAX_RELATIONS: usize = 1024;

/// A request the server made of the client during a call, and where its
/// answer goes.
pub(crate) struct Asked {
    pub(crate) request: ServerAsks,
    pub(crate) reply: oneshot::Sender<Result<Value, McpError>>,
}

/// The calls running on one connection, each ready to take its
/// questions, and what the mount takes of them.
#[derive(Default)]
pub(crate) struct Desk {
    state: Mutex<DeskState>,
    seated: Notify,
    pub(crate) takes: Takes,
}

#[derive(Default)]
struct DeskState {
    next: u64,
    seats: HashMap<u64, Seat>,
    /// The call each of the server's questions came with: the ids, as
    /// JSON, of the server's request and of the call's.
    came_with: HashMap<String, String>,
}

struct Seat {
    /// The call's request id, as JSON, once it is sent.
    request: Option<String>,
    questions: mpsc::UnboundedSender<Asked>,
}

/// A call's seat at the [`Desk`], left when dropped.
pub(crate) struct Seated {
    desk: Arc<Desk>,
    key: u64,
}

impl Desk {
    pub(crate) fn new(takes: Takes) -> Self {
        Self {
            takes,
            ..Self::default()
        }
    }

    /// A seat for a call about to be sent, and the questions that come to
    /// it.
    pub(crate) fn seat(self: &Arc<Self>) -> (Seated, mpsc::UnboundedReceiver<Asked>) {
        let (questions, asked) = mpsc::unbounded_channel();
        let mut state = self.lock();
        state.next += 1;
        let key = state.next;
        state.seats.insert(
            key,
            Seat {
                request: None,
                questions,
            },
        );
        drop(state);
        self.seated.notify_waiters();
        (
            Seated {
                desk: Arc::clone(self),
                key,
            },
            asked,
        )
    }

    /// The server's request `question` came on the stream of events
    /// answering the call `call`.
    pub(crate) fn relate(&self, question: String, call: String) {
        let mut state = self.lock();
        if state.came_with.len() < MAX_RELATIONS {
            state.came_with.insert(question, call);
        }
        drop(state);
        self.seated.notify_waiters();
    }

    /// Passes `asked`, the server's request `id`, to the seat of the call
    /// it belongs to; gives it back if there is none.
    pub(crate) async fn pass(&self, id: &RequestId, asked: Asked) -> Result<(), Asked> {
        let question = key_of(id);
        let deadline = tokio::time::Instant::now() + SEATING;
        loop {
            let waiting = self.seated.notified();
            match self.find(&question) {
                Found::Seat(questions) => {
                    return questions.send(asked).map_err(|unsent| unsent.0);
                }
                Found::None => return Err(asked),
                Found::NotYet => {}
            }
            if tokio::time::timeout_at(deadline, waiting).await.is_err() {
                return Err(asked);
            }
        }
    }

    fn find(&self, question: &str) -> Found {
        let mut state = self.lock();
        if let Some(call) = state.came_with.get(question).cloned() {
            let seat = state
                .seats
                .values()
                .find(|seat| seat.request.as_deref() == Some(call.as_str()));
            return match seat {
                Some(seat) => {
                    let questions = seat.questions.clone();
                    state.came_with.remove(question);
                    Found::Seat(questions)
                }
                None => Found::NotYet,
            };
        }
        let mut seats = state.seats.values();
        match (seats.next(), seats.next()) {
            // The only call running asked, unless the server named another.
            (Some(seat), None) => Found::Seat(seat.questions.clone()),
            (Some(_), Some(_)) => Found::None,
            (None, _) => Found::NotYet,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DeskState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

enum Found {
    Seat(mpsc::UnboundedSender<Asked>),
    /// No call can be told to have asked: several run.
    None,
    /// The call may not have taken its seat yet.
    NotYet,
}

impl Seated {
    /// The call was sent as the request `id`.
    pub(crate) fn sent_as(&self, id: &RequestId) {
        let mut state = self.desk.lock();
        if let Some(seat) = state.seats.get_mut(&self.key) {
            seat.request = Some(key_of(id));
        }
        drop(state);
        self.desk.seated.notify_waiters();
    }
}

impl Drop for Seated {
    fn drop(&mut self) {
        self.desk.lock().seats.remove(&self.key);
    }
}

/// A request id as JSON: `7`, `"a"`, as [`Value::to_string`] writes it.
pub(crate) fn key_of(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// What a server asking no call can be found for is answered.
pub(crate) fn unplaced(server: &str) -> McpError {
    McpError::invalid_request(
        format!(
            "the client mounting `{server}` cannot tell which of its calls this question \
             belongs to, so it is put to no one"
        ),
        None,
    )
}
