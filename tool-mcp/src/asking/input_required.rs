//! MCP 2026-07-28's multi round-trip requests (SEP-2322): a server of
//! that protocol sends the client no request of its own, so what a tool
//! asks while it runs (the person, with `ctx.elicit`; the client's
//! model, with `ctx.sample`; its roots, with `ctx.roots`) is the call's
//! answer instead: `input_required`, with `inputRequests` keyed by name
//! and a `requestState`. The client calls again with `inputResponses`
//! under the same keys and the state, and the tool runs again from its
//! start: what it asked before is answered at once from the responses,
//! and it goes on to its result or to its next questions.
//!
//! The state carries every answer given so far, sealed with an HMAC
//! (rmcp's `RequestStateCodec`: the server's keys, the newest signing,
//! each opening) and bound to the caller, the tool and its arguments, so
//! that a state altered, made up, or replayed for another call is
//! refused; it expires after [`STATE_TTL`], and is at most
//! [`MAX_STATE_BYTES`]. Nothing is kept in the process: the retry may
//! reach any replica that holds the keys.
//!
//! Sources: SEP-2322 (<https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2322>),
//! MCP 2026-07-28, Basic, "Multi round-trip requests": only
//! `elicitation/create`, `sampling/createMessage` and `roots/list` may be
//! asked, each only of a client that declared it; a response that is
//! missing or malformed is asked for again; unknown keys are ignored; a
//! state that fails its check is an error.

#![allow(deprecated)]

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    CreateMessageRequest, ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, ListRootsRequest, RequestStateCodec,
    SealOptions,
};
use serde_json::Value;
use tokio::sync::Notify;
use tool_core::BoxFuture;
use tool_core::client::{ClientError, ClientRequests, Root, SampleRequest, Sampled};
use tool_core::elicit::{Answer, Asker, ElicitError, Question};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};

use crate::asking::approval::approval_question;
use crate::asking::client_requests::{Takes, not_taken, roots_of, sampled, sampling_params};

/// How long a `requestState` may be brought back: an hour.
pub(crate) const STATE_TTL: Duration = Duration::from_secs(3600);

/// The largest `requestState` a call's answers may make: 64 KiB.
pub(crate) const MAX_STATE_BYTES: usize = 64 * 1024;

/// One round of a call: the answers the client has given, and what the run
/// asks that they do not answer.
pub(crate) struct Round {
    /// What its state is bound to: the caller, the tool, the arguments.
    binding: Vec<u8>,
    takes: Takes,
    answers: BTreeMap<String, Value>,
    asked: Mutex<Asked>,
    /// Rings when the run asks something not answered.
    waiting: Notify,
}

#[derive(Default)]
struct Asked {
    requests: InputRequests,
    /// How many of each kind the run has made, for the names of those the
    /// tool did not name.
    made: BTreeMap<&'static str, usize>,
    /// The keys whose answers the run has read: one asked again did not
    /// fit, and is asked of the client anew.
    read: BTreeSet<String>,
    /// Who takes the run's questions once its call went on as a task.
    then: Option<Arc<dyn Asker>>,
}

/// What a round makes of something the run asks.
enum Reply {
    /// The client's answer, given in this round or one before.
    Given(Value),
    /// Asked of the client: the round's answer is `input_required`.
    Asked,
    /// The call went on as a task: the question is this asker's.
    HandedOn(Arc<dyn Asker>),
}

impl Round {
    /// The round of a request: the answers in its sealed `state` (an error
    /// when it fails its check) and its `responses`, which replace them
    /// key by key.
    pub(crate) fn open(
        codec: &RequestStateCodec,
        binding: Vec<u8>,
        takes: Takes,
        state: Option<&str>,
        responses: Option<&InputResponses>,
    ) -> Result<Self, ErrorData> {
        let mut answers: BTreeMap<String, Value> = match state {
            Some(state) => codec.open_json_with(state, &binding).map_err(|error| {
                ErrorData::invalid_params(
                    format!("the requestState is refused ({error}): call again without it, to start over"),
                    None,
                )
            })?,
            None => BTreeMap::new(),
        };
        for (key, response) in responses.into_iter().flatten() {
            answers.insert(key.clone(), response.clone());
        }
        Ok(Self {
            binding,
            takes,
            answers,
            asked: Mutex::new(Asked::default()),
            waiting: Notify::new(),
        })
    }

    /// Whether the client takes elicitation.
    pub(crate) fn takes_elicitation(&self) -> bool {
        self.takes.elicitation
    }

    /// Waits until the run asks something not answered.
    pub(crate) async fn asked(&self) {
        self.waiting.notified().await;
    }

    /// The answer `input_required`: what the run asked, and the answers so
    /// far sealed as the state to bring back.
    pub(crate) fn input_required(
        &self,
        codec: &RequestStateCodec,
    ) -> Result<InputRequiredResult, ErrorData> {
        let asked = self.lock();
        let answers: BTreeMap<&String, &Value> = self
            .answers
            .iter()
            .filter(|(key, _)| !asked.requests.contains_key(*key))
            .collect();
        let options = SealOptions::new()
            .associated_data(&self.binding)
            .ttl(STATE_TTL);
        let state = codec
            .seal_json_with(&answers, &options)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        if state.len() > MAX_STATE_BYTES {
            return Err(ErrorData::invalid_params(
                format!(
                    "the answers given so far make a requestState of {} bytes, more than the {MAX_STATE_BYTES} this server takes",
                    state.len()
                ),
                None,
            ));
        }
        Ok(InputRequiredResult::new(
            Some(asked.requests.clone()),
            Some(state),
        ))
    }

    /// Ends the round for a run that goes on as a task: what it asks from
    /// now goes to `then` (the registry, which the task's client answers
    /// through `tasks/update`). Refused, `false`, when the run has asked
    /// what the round does not answer: the call's answer is then
    /// `input_required`, and no task begins.
    pub(crate) fn hand_on(&self, then: Arc<dyn Asker>) -> bool {
        let mut asked = self.lock();
        if !asked.requests.is_empty() {
            return false;
        }
        asked.then = Some(then);
        true
    }

    /// The answer under `key` (the tool's name, else the next of `kind`),
    /// read for the first time; or, when there is none or it was read
    /// already (the answer did not fit), `request` asked of the client.
    fn answer_or_ask(
        &self,
        key: Option<&str>,
        kind: &'static str,
        request: impl FnOnce() -> Result<InputRequest, ClientError>,
        read: impl Fn(&Value) -> bool,
    ) -> Result<Reply, ClientError> {
        let mut asked = self.lock();
        if let Some(then) = &asked.then {
            return Ok(Reply::HandedOn(Arc::clone(then)));
        }
        let key = match key {
            Some(key) => key.to_owned(),
            None => {
                let made = asked.made.entry(kind).or_default();
                *made += 1;
                format!("{kind}-{made}")
            }
        };
        if !asked.read.contains(&key)
            && let Some(answer) = self.answers.get(&key).filter(|answer| read(answer))
        {
            asked.read.insert(key);
            return Ok(Reply::Given(answer.clone()));
        }
        asked.requests.insert(key, request()?);
        drop(asked);
        self.waiting.notify_one();
        Ok(Reply::Asked)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Asked> {
        self.asked.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `run` in `round`, if any: its output, or, when it asks what the
/// round does not answer, the `input_required` answer.
pub(crate) async fn run_or_ask<F: Future>(
    round: Option<&Round>,
    codec: &RequestStateCodec,
    run: F,
) -> Result<Result<F::Output, InputRequiredResult>, ErrorData> {
    let mut run = std::pin::pin!(run);
    tokio::select! {
        biased;
        output = &mut run => Ok(Ok(output)),
        () = asked(round) => match (poll_once(run.as_mut()).await, round) {
            (Some(output), _) => Ok(Ok(output)),
            (None, Some(round)) => round.input_required(codec).map(Err),
            (None, None) => Err(ErrorData::internal_error("a question with no round", None)),
        },
    }
}

/// Waits until the round's run asks something not answered; never,
/// without a round.
pub(crate) async fn asked(round: Option<&Round>) {
    match round {
        Some(round) => round.asked().await,
        None => std::future::pending().await,
    }
}

/// The run's output if it is ready now: polled once more after it asked,
/// so that what it asks at once (a join of questions) goes in the same
/// round.
pub(crate) async fn poll_once<F: Future>(mut run: Pin<&mut F>) -> Option<F::Output> {
    std::future::poll_fn(|cx| match run.as_mut().poll(cx) {
        Poll::Ready(output) => Poll::Ready(Some(output)),
        Poll::Pending => Poll::Ready(None),
    })
    .await
}

/// What the tool's questions go to in a round: the client's answers, or
/// the round's requests.
pub(crate) struct RoundAsker(pub(crate) Arc<Round>);

impl Asker for RoundAsker {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        Box::pin(async move {
            if !self.0.takes.elicitation {
                return Err(ElicitError::Unsupported {
                    reason: "the MCP client does not take elicitation (it declared no \
                             `elicitation` capability)"
                        .to_owned(),
                });
            }
            let request = || elicitation_request(question).map_err(failed);
            let reads = |answer: &Value| serde_json::from_value::<Answer>(answer.clone()).is_ok();
            match self
                .0
                .answer_or_ask(question.key(), "elicitation", request, reads)
            {
                Ok(Reply::Given(answer)) => {
                    serde_json::from_value(answer).map_err(|error| ElicitError::Unsupported {
                        reason: error.to_string(),
                    })
                }
                Ok(Reply::Asked) => std::future::pending().await,
                Ok(Reply::HandedOn(then)) => then.ask(question).await,
                Err(error) => Err(ElicitError::Unsupported {
                    reason: error.to_string(),
                }),
            }
        })
    }
}

/// Approves a `Confirm` tool's call in a round: the person is asked
/// (elicitation with nothing to fill in, under the key `approval`), and
/// accepting approves.
pub(crate) struct RoundApproval(pub(crate) Arc<Round>);

impl<Ctx: Send + Sync> ApprovalHook<Ctx> for RoundApproval {
    async fn approve(&self, request: &ApprovalRequest<'_, Ctx>) -> Approval {
        let ask = || {
            Ok(InputRequest::Elicitation(ElicitRequest::new(
                ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: approval_question(request.tool, request.arguments),
                    // Nothing to fill in: the answer is the action.
                    requested_schema: ElicitationSchema::new(Default::default()),
                },
            )))
        };
        let reads = |answer: &Value| answer_of(answer).is_some();
        match self
            .0
            .answer_or_ask(Some("approval"), "approval", ask, reads)
        {
            Ok(Reply::Given(answer)) => match answer_of(&answer) {
                Some(Answer::Accept(_)) => Approval::Approve,
                Some(Answer::Decline) => Approval::deny("the person at the client declined it"),
                _ => Approval::deny("the person at the client dismissed the question"),
            },
            Ok(Reply::Asked) => std::future::pending().await,
            // A call is approved before it runs, so before any task: never
            // asked once the round has ended.
            Ok(Reply::HandedOn(_)) | Err(_) => {
                Approval::deny("the person at the client could not be asked")
            }
        }
    }
}

/// The client in a round: sampling and roots answered, or asked.
pub(crate) struct RoundClient(pub(crate) Arc<Round>);

impl ClientRequests for RoundClient {
    fn sample<'a>(
        &'a self,
        request: &'a SampleRequest,
    ) -> BoxFuture<'a, Result<Sampled, ClientError>> {
        Box::pin(async move {
            if !self.0.takes.sampling {
                return Err(not_taken("sampling"));
            }
            let ask = || {
                sampling_params(request)
                    .map(|params| InputRequest::CreateMessage(CreateMessageRequest::new(params)))
            };
            let reads = |answer: &Value| sampled(answer).is_some();
            match self
                .0
                .answer_or_ask(request.key_name(), "sampling", ask, reads)?
            {
                Reply::Given(answer) => {
                    sampled(&answer).ok_or_else(|| failed("unreadable".to_owned()))
                }
                Reply::Asked => std::future::pending().await,
                Reply::HandedOn(_) => Err(handed_on("sampling")),
            }
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ClientError>> {
        Box::pin(async move {
            if !self.0.takes.roots {
                return Err(not_taken("roots"));
            }
            let ask = || Ok(InputRequest::ListRoots(ListRootsRequest::default()));
            let reads = |answer: &Value| roots_of(answer).is_some();
            match self.0.answer_or_ask(None, "roots", ask, reads)? {
                Reply::Given(answer) => {
                    roots_of(&answer).ok_or_else(|| failed("unreadable".to_owned()))
                }
                Reply::Asked => std::future::pending().await,
                Reply::HandedOn(_) => Err(handed_on("roots")),
            }
        })
    }
}

/// A question as MCP's `elicitation/create` in form mode, or why MCP
/// cannot carry it.
pub(crate) fn elicitation_request(question: &Question) -> Result<InputRequest, String> {
    let Value::Object(schema) = question.schema().clone() else {
        return Err("its schema is not an object".to_owned());
    };
    let requested_schema = ElicitationSchema::from_json_schema(schema)
        .map_err(|error| format!("MCP cannot carry its schema: {error}"))?;
    Ok(InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question.message().to_owned(),
            requested_schema,
        },
    )))
}

/// An `ElicitResult` as an answer: an accept with no content is an
/// accept of nothing (an empty form, an approval).
pub(crate) fn answer_of(result: &Value) -> Option<Answer> {
    match result.get("action")?.as_str()? {
        "accept" => Some(Answer::Accept(match result.get("content") {
            Some(content @ Value::Object(_)) => content.clone(),
            None | Some(Value::Null) => Value::Object(Default::default()),
            Some(_) => return None,
        })),
        "decline" => Some(Answer::Decline),
        "cancel" => Some(Answer::Cancel),
        _ => None,
    }
}

/// What a task's run is told when it asks the client for `what`: a task
/// waits only for the person's answers.
fn handed_on(what: &str) -> ClientError {
    ClientError::Unsupported {
        reason: format!(
            "the call went on as a task, and a task's client is asked only for the person's \
             answers (elicitation), not for {what}: ask before the task begins"
        ),
    }
}

fn failed(message: String) -> ClientError {
    ClientError::Failed { message }
}
