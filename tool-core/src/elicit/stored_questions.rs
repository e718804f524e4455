//! The registry's questions, parked in its store until the application
//! answers them ([`Questions::answer`](crate::registry::Questions::answer)),
//! from this process or any other sharing the store: the asker of a tool
//! marked `asks` whose context names no one else.
//!
//! A question is one record, `question:<id>`: open, then answered (which
//! the asking process takes, and deletes) or withdrawn. Each change is made
//! from the record as read, so a question is answered once. Each caller's
//! questions are indexed (`questions:<caller>`), so that any process lists
//! them and hears them asked.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::BoxFuture;
use crate::elicit::ask::now_ms;
use crate::schema::validation::SchemaCheck;
use crate::store::watch::Watch;
use crate::store::{Store, StoreError, When};
use crate::tool::ask::Asker;
use crate::tool::ask::error::{AnswerError, ElicitError};
use crate::tool::ask::question::{Answer, Question};
use crate::tool::call_id::Scope;

/// How long a question's record outlives its deadline: the time to take
/// an answer given at the last moment.
const MARGIN: Duration = Duration::from_secs(5);

/// A question as the store keeps it.
#[derive(Serialize, Deserialize)]
struct QuestionRecord {
    v: u8,
    question: Question,
    #[serde(flatten)]
    state: QuestionState,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum QuestionState {
    Open,
    Answered { answer: Answer },
    Withdrawn { reason: String },
}

fn key(question_id: &str) -> String {
    format!("question:{question_id}")
}

/// The index of a caller's questions: a set of `<asked at>:<id>`.
fn index(caller: Option<&str>) -> String {
    format!("questions:{}", Scope::caller_key(caller))
}

/// The registry's questions, kept in its store.
pub(crate) struct StoredQuestions {
    records: QuestionRecords,
}

/// The questions' records, changed once each from any process.
#[derive(Clone)]
struct QuestionRecords {
    store: Arc<dyn Store>,
}

impl StoredQuestions {
    pub(crate) fn new(store: Arc<dyn Store>) -> Self {
        Self {
            records: QuestionRecords { store },
        }
    }

    /// The person's answer to the question `id` ([`QuestionRecords::answer`]).
    pub(crate) async fn answer(&self, id: &str, answer: Answer) -> Result<(), AnswerError> {
        self.records.answer(id, answer).await
    }

    /// Withdraws the question `id` ([`QuestionRecords::withdraw`]).
    pub(crate) async fn withdraw(&self, id: &str, reason: &str) -> Result<(), AnswerError> {
        self.records.withdraw(id, reason).await
    }

    /// `caller`'s questions that wait for an answer, asked in any
    /// process sharing the store.
    pub(crate) async fn open(&self, caller: Option<&str>) -> Result<Vec<Question>, StoreError> {
        self.records.open(caller).await
    }

    /// `caller`'s questions as they wait: those open now, then each as it
    /// is asked, in any process sharing the store.
    pub(crate) fn listen(&self, caller: Option<&str>) -> QuestionStream {
        let caller = caller.map(str::to_owned);
        QuestionStream {
            watch: self.records.store.watch(&index(caller.as_deref())),
            records: self.records.clone(),
            caller,
            told: HashSet::new(),
            ready: VecDeque::new(),
        }
    }
}

impl QuestionRecords {
    /// `caller`'s open questions, the soonest to run out of time first.
    async fn open(&self, caller: Option<&str>) -> Result<Vec<Question>, StoreError> {
        let mut questions = Vec::new();
        for member in self.store.members(&index(caller)).await? {
            let Some((_, id)) = member.split_once(':') else {
                continue;
            };
            let Some(bytes) = self.store.get(&key(id)).await? else {
                continue;
            };
            let Ok(record) = serde_json::from_slice::<QuestionRecord>(&bytes) else {
                continue;
            };
            if matches!(record.state, QuestionState::Open)
                && record.question.caller.as_deref() == caller
                && now_ms() < record.question.deadline_ms
            {
                questions.push(record.question);
            }
        }
        questions.sort_by_key(|question| question.deadline_ms);
        Ok(questions)
    }

    /// Reads the question `id`, open, for a change.
    async fn open_record(&self, id: &str) -> Result<(Vec<u8>, QuestionRecord), AnswerError> {
        let failed = |error| AnswerError::Store {
            question_id: id.to_owned(),
            error,
        };
        let bytes = self.store.get(&key(id)).await.map_err(failed)?;
        let unknown = || AnswerError::UnknownQuestion {
            question_id: id.to_owned(),
        };
        let bytes = bytes.ok_or_else(unknown)?;
        let record: QuestionRecord = serde_json::from_slice(&bytes).map_err(|_| unknown())?;
        let why = match &record.state {
            QuestionState::Open if now_ms() < record.question.deadline_ms => {
                return Ok((bytes, record));
            }
            QuestionState::Open => "no answer came in time".to_owned(),
            QuestionState::Answered { .. } => "it was answered".to_owned(),
            QuestionState::Withdrawn { reason } => format!("it was withdrawn: {reason}"),
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
        state: impl Fn(&QuestionRecord) -> Result<QuestionState, AnswerError>,
    ) -> Result<(), AnswerError> {
        loop {
            let (read, record) = self.open_record(id).await?;
            let state = state(&record)?;
            let ttl = Duration::from_millis(record.question.deadline_ms.saturating_sub(now_ms()))
                + MARGIN;
            let closed = QuestionRecord { state, ..record };
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
            Ok(QuestionState::Answered {
                answer: answer.clone(),
            })
        })
        .await
    }

    /// Withdraws the question `id`: the tool is told it could not ask,
    /// for `reason`.
    pub(crate) async fn withdraw(&self, id: &str, reason: &str) -> Result<(), AnswerError> {
        self.close(id, |_| {
            Ok(QuestionState::Withdrawn {
                reason: reason.to_owned(),
            })
        })
        .await
    }
}

impl Asker for StoredQuestions {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        let store = &self.records.store;
        Box::pin(async move {
            let key = key(&question.id);
            let lost = |reason: String| ElicitError::Lost { reason };
            let ttl = Duration::from_millis(question.deadline_ms.saturating_sub(now_ms())) + MARGIN;
            let mut watch = store.watch(&key);
            let record = QuestionRecord {
                v: 1,
                question: question.clone(),
                state: QuestionState::Open,
            };
            let bytes = serde_json::to_vec(&record).unwrap_or_default();
            let recorded = |error| lost(format!("it could not be recorded: {error}"));
            store
                .put(&key, bytes, ttl, When::Absent)
                .await
                .map_err(recorded)?;
            let _open = OpenQuestion {
                records: self.records.clone(),
                id: question.id.clone(),
            };
            // Listed, and heard, from any process until it is closed.
            let member = format!("{:016x}:{}", now_ms(), question.id);
            let until = question
                .deadline_ms
                .saturating_add(MARGIN.as_millis() as u64);
            store
                .add_member(&index(question.caller.as_deref()), &member, until)
                .await
                .map_err(recorded)?;
            tracing::info!(
                tool = question.tool,
                call_id = question.call_id,
                question_id = question.id,
                "tool question"
            );
            loop {
                match store.get(&key).await {
                    Ok(Some(bytes)) => match serde_json::from_slice::<QuestionRecord>(&bytes) {
                        Ok(QuestionRecord {
                            state: QuestionState::Answered { answer },
                            ..
                        }) => {
                            let _ = store.delete(&key).await;
                            return Ok(answer);
                        }
                        Ok(QuestionRecord {
                            state: QuestionState::Withdrawn { reason },
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

/// A question of this process while it waits: withdrawn when the asking
/// stops before an answer (its time ran out, its call was cancelled), so
/// that a late answer is refused.
struct OpenQuestion {
    records: QuestionRecords,
    id: String,
}

impl Drop for OpenQuestion {
    fn drop(&mut self) {
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

/// One caller's questions as they wait for an answer, asked by the
/// registry's tools in any process sharing its store
/// ([`Questions::listen`](crate::registry::Questions::listen)): those
/// open when it was made, then each as it is asked, once each.
pub struct QuestionStream {
    records: QuestionRecords,
    caller: Option<String>,
    /// Woken by each question the caller's tools ask.
    watch: Watch,
    /// The questions told already that are still open: a question is told
    /// once, and the set holds no more than the open ones.
    told: HashSet<String>,
    ready: VecDeque<Question>,
}

impl QuestionStream {
    /// The next question, waiting until one is asked. A store that cannot
    /// be reached is read again when it is back.
    pub async fn next(&mut self) -> Question {
        loop {
            if let Some(question) = self.ready.pop_front() {
                return question;
            }
            if let Ok(open) = self.records.open(self.caller.as_deref()).await {
                let ids: HashSet<&str> = open.iter().map(|question| question.id.as_str()).collect();
                self.told.retain(|id| ids.contains(id.as_str()));
                for question in open {
                    if self.told.insert(question.id.clone()) {
                        self.ready.push_back(question);
                    }
                }
                if !self.ready.is_empty() {
                    continue;
                }
            }
            self.watch.changed().await;
        }
    }
}

impl std::fmt::Debug for QuestionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuestionStream")
            .field("caller", &self.caller)
            .finish_non_exhaustive()
    }
}
