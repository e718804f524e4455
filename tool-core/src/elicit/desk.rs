//! The registry's questions, parked in its store until the application
//! answers them ([`ToolRegistry::answer`](crate::ToolRegistry::answer)),
//! from this process or any other sharing the store: the asker of a tool
//! marked `asks` whose context names no one else.
//!
//! A question is one record, `question:<id>`: open, then answered (which
//! the asking process takes, and deletes) or withdrawn. Each change is made
//! from the record as read, so a question is answered once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::ask::now_ms;
use super::{Answer, AnswerError, Asker, ElicitError, Question};
use crate::BoxFuture;
use crate::schema::validation::SchemaCheck;
use crate::store::{Store, When};

/// How long a question's record outlives its deadline: the time to take
/// an answer given at the last moment.
const MARGIN: Duration = Duration::from_secs(5);

/// How many questions a slow [`Questions`] reader may fall behind by.
const BACKLOG: usize = 256;

/// A question as the store keeps it.
#[derive(Serialize, Deserialize)]
struct Record {
    v: u8,
    question: Question,
    #[serde(flatten)]
    state: State,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum State {
    Open,
    Answered { answer: Answer },
    Withdrawn { reason: String },
}

fn key(question_id: &str) -> String {
    format!("question:{question_id}")
}

/// The registry's questions: kept in its store, and those of this
/// process told to whoever listens ([`Questions`]).
pub(crate) struct Desk {
    records: Records,
    open: Arc<Mutex<HashMap<String, Question>>>,
    asked: broadcast::Sender<Question>,
}

/// The questions' records, changed once each from any process.
#[derive(Clone)]
struct Records {
    store: Arc<dyn Store>,
}

impl Desk {
    pub(crate) fn new(store: Arc<dyn Store>) -> Self {
        Self {
            records: Records { store },
            open: Arc::default(),
            asked: broadcast::channel(BACKLOG).0,
        }
    }

    /// The person's answer to the question `id` ([`Records::answer`]).
    pub(crate) async fn answer(&self, id: &str, answer: Answer) -> Result<(), AnswerError> {
        self.records.answer(id, answer).await
    }

    /// Withdraws the question `id` ([`Records::withdraw`]).
    pub(crate) async fn withdraw(&self, id: &str, reason: &str) -> Result<(), AnswerError> {
        self.records.withdraw(id, reason).await
    }

    /// The questions of this process that wait for an answer.
    pub(crate) fn open(&self) -> Vec<Question> {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let mut questions: Vec<Question> = open.values().cloned().collect();
        questions.sort_by_key(|question| question.deadline_ms);
        questions
    }

    /// Each question this process asks from now on.
    pub(crate) fn listen(&self) -> Questions {
        Questions(self.asked.subscribe())
    }
}

impl Records {
    /// Reads the question `id`, open, for a change.
    async fn open_record(&self, id: &str) -> Result<(Vec<u8>, Record), AnswerError> {
        let failed = |error| AnswerError::Store {
            question_id: id.to_owned(),
            error,
        };
        let bytes = self.store.get(&key(id)).await.map_err(failed)?;
        let unknown = || AnswerError::UnknownQuestion {
            question_id: id.to_owned(),
        };
        let bytes = bytes.ok_or_else(unknown)?;
        let record: Record = serde_json::from_slice(&bytes).map_err(|_| unknown())?;
        let why = match &record.state {
            State::Open if now_ms() < record.question.deadline_ms => return Ok((bytes, record)),
            State::Open => "no answer came in time".to_owned(),
            State::Answered { .. } => "it was answered".to_owned(),
            State::Withdrawn { reason } => format!("it was withdrawn: {reason}"),
        };
        Err(AnswerError::NotOpen {
            question_id: id.to_owned(),
            why,
        })
    }

    /// Changes the open question `id` to `state`, once.
    async fn close(
        &self,
        id: &str,
        state: impl Fn(&Record) -> Result<State, AnswerError>,
    ) -> Result<(), AnswerError> {
        loop {
            let (read, record) = self.open_record(id).await?;
            let state = state(&record)?;
            let ttl = Duration::from_millis(record.question.deadline_ms.saturating_sub(now_ms()))
                + MARGIN;
            let closed = Record { state, ..record };
            let bytes = serde_json::to_vec(&closed).unwrap_or_default();
            let written = self
                .store
                .put(&key(id), bytes, ttl, When::Equals(&read))
                .await
                .map_err(|error| AnswerError::Store {
                    question_id: id.to_owned(),
                    error,
                })?;
            if written {
                return Ok(());
            }
        }
    }

    /// The person's answer to the question `id`; an answer's content is
    /// checked against what was asked first, and one that does not fit is
    /// refused, the question left open.
    pub(crate) async fn answer(&self, id: &str, answer: Answer) -> Result<(), AnswerError> {
        self.close(id, |record| {
            if let Answer::Accept(content) = &answer {
                let schema = &record.question.schema;
                let violations = SchemaCheck::new(schema)
                    .map(|check| check.check(schema, content))
                    .unwrap_or_default();
                if !violations.is_empty() {
                    return Err(AnswerError::Invalid {
                        question_id: id.to_owned(),
                        violations,
                    });
                }
            }
            Ok(State::Answered {
                answer: answer.clone(),
            })
        })
        .await
    }

    /// Withdraws the question `id`: the tool is told it could not ask,
    /// for `reason`.
    pub(crate) async fn withdraw(&self, id: &str, reason: &str) -> Result<(), AnswerError> {
        self.close(id, |_| {
            Ok(State::Withdrawn {
                reason: reason.to_owned(),
            })
        })
        .await
    }
}

impl Asker for Desk {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        let store = &self.records.store;
        Box::pin(async move {
            let key = key(&question.id);
            let lost = |reason: String| ElicitError::Lost { reason };
            let ttl = Duration::from_millis(question.deadline_ms.saturating_sub(now_ms())) + MARGIN;
            let mut watch = store.watch(&key);
            let record = Record {
                v: 1,
                question: question.clone(),
                state: State::Open,
            };
            let bytes = serde_json::to_vec(&record).unwrap_or_default();
            store
                .put(&key, bytes, ttl, When::Absent)
                .await
                .map_err(|error| lost(format!("it could not be recorded: {error}")))?;
            let _open = OpenQuestion::new(self, question);
            tracing::info!(
                tool = question.tool,
                call_id = question.call_id,
                question_id = question.id,
                "tool question"
            );
            let _ = self.asked.send(question.clone());
            loop {
                match store.get(&key).await {
                    Ok(Some(bytes)) => match serde_json::from_slice::<Record>(&bytes) {
                        Ok(Record {
                            state: State::Answered { answer },
                            ..
                        }) => {
                            let _ = store.delete(&key).await;
                            return Ok(answer);
                        }
                        Ok(Record {
                            state: State::Withdrawn { reason },
                            ..
                        }) => return Err(ElicitError::Unsupported { reason }),
                        Ok(_) => {}
                        Err(error) => {
                            return Err(lost(format!("its record cannot be read: {error}")));
                        }
                    },
                    Ok(None) => {
                        return Err(lost(format!(
                            "its record is gone from the {} store, which was emptied or restarted",
                            store.kind()
                        )));
                    }
                    // Not reachable now: the watch wakes when it is back,
                    // and the question's time limit is the caller's.
                    Err(_) => {}
                }
                watch.changed().await;
            }
        })
    }
}

/// A question of this process, listed while it waits; withdrawn when the
/// asking stops before an answer (its time ran out, its call was
/// cancelled), so that a late answer is refused.
struct OpenQuestion {
    records: Records,
    open: Arc<Mutex<HashMap<String, Question>>>,
    id: String,
}

impl OpenQuestion {
    fn new(desk: &Desk, question: &Question) -> Self {
        desk.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(question.id.clone(), question.clone());
        Self {
            records: desk.records.clone(),
            open: Arc::clone(&desk.open),
            id: question.id.clone(),
        }
    }
}

impl Drop for OpenQuestion {
    fn drop(&mut self) {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let records = self.records.clone();
        let id = std::mem::take(&mut self.id);
        runtime.spawn(async move {
            // Answered and taken already, most often: nothing to withdraw.
            let _ = records
                .withdraw(
                    &id,
                    "the tool stopped waiting for it (its time ran out, or its call was cancelled)",
                )
                .await;
        });
    }
}

/// The questions a registry's tools ask in this process, as they are
/// asked ([`ToolRegistry::questions`](crate::ToolRegistry::questions)).
pub struct Questions(broadcast::Receiver<Question>);

impl Questions {
    /// The next question asked; `None` once the registry is gone.
    /// Questions asked while no one read are skipped past the last 256.
    pub async fn next(&mut self) -> Option<Question> {
        loop {
            match self.0.recv().await {
                Ok(question) => return Some(question),
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

impl std::fmt::Debug for Questions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Questions").finish_non_exhaustive()
    }
}
