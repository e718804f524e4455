//! Asking: [`ToolContext::elicit`], and [`Asker`], whoever puts a question
//! to the person (an MCP client, the registry's parked questions, answers
//! given in a test).

#[cfg(feature = "schemars")]
use std::future::{Future, IntoFuture};
#[cfg(feature = "schemars")]
use std::marker::PhantomData;
#[cfg(feature = "schemars")]
use std::pin::Pin;
#[cfg(feature = "schemars")]
use std::sync::PoisonError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[cfg(feature = "schemars")]
use serde_json::Value;

#[cfg(feature = "schemars")]
use super::Elicit;
#[cfg(feature = "schemars")]
use crate::elicit::Elicitation;
#[cfg(feature = "schemars")]
use crate::error::tool_error::{Violation, Violations};
#[cfg(feature = "schemars")]
use crate::schema::validation::{SchemaCheck, from_serde};
#[cfg(feature = "schemars")]
use crate::tool::ask::error::ElicitError;
use crate::tool::ask::question::Answer;
#[cfg(feature = "schemars")]
use crate::tool::ask::question::Question;
use crate::tool::ask::{Asker, Given, NoOne};
use crate::tool::context::ToolContext;
#[cfg(feature = "schemars")]
use crate::value::{Node, Path};

/// How many times a question whose answers do not fit is asked, in all.
pub const ASKS: u32 = 3;

/// How long a question waits for its answer unless
/// [`Ask::timeout`] says otherwise: ten minutes.
pub const DEFAULT_QUESTION_TIMEOUT: Duration = Duration::from_secs(600);

impl<Ctx> ToolContext<Ctx> {
    /// Asks the person `message`, for an answer of the form `T` (a struct
    /// that derives [`Elicit`](macro@crate::elicit::Elicit)): their answer,
    /// or that they declined or closed the question, each a value the tool
    /// matches on; an [`ElicitError`] when no answer can come (no one to
    /// ask, no answer in time, the call cancelled).
    ///
    /// Over MCP the person is asked through the client (elicitation, in
    /// form mode); in a registry's call with no client to ask, the
    /// question is parked until the application answers it with
    /// [`Questions::answer`](crate::registry::Questions::answer), from any
    /// process sharing the registry's store. The tool must be marked
    /// `asks` (`#[tool(asks)]`). An answer is checked against `T`'s schema
    /// and read as `T`, as a tool's arguments are; one that does not fit is
    /// asked again, saying why in the words a model reads for arguments
    /// that do not fit (``expected one of `single`, `double`, got
    /// `suite` ``), up to [`ASKS`] times in all. The time a question
    /// waits does not count against the tool's own `timeout`; it waits
    /// [`DEFAULT_QUESTION_TIMEOUT`] unless [`Ask::timeout`] says otherwise.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use std::time::Duration;
    /// use tool_core::elicit::{Answer, Elicit, ElicitError, Elicitation};
    /// use tool_core::ToolContext;
    ///
    /// /// What the guest chooses.
    /// #[derive(Deserialize, JsonSchema, Elicit)]
    /// struct Booking {
    ///     /// The room.
    ///     room: Room,
    ///     /// Breakfast included.
    ///     #[serde(default)]
    ///     breakfast: bool,
    /// }
    ///
    /// #[derive(Deserialize, JsonSchema, Elicit)]
    /// #[serde(rename_all = "snake_case")]
    /// enum Room { Single, Double }
    ///
    /// async fn book(ctx: &ToolContext) -> Result<String, ElicitError> {
    ///     let asked = ctx.elicit::<Booking>("Which room?").timeout(Duration::from_secs(300));
    ///     Ok(match asked.await? {
    ///         Elicitation::Accept(b) => format!("booked a {} room", match b.room {
    ///             Room::Single => "single",
    ///             Room::Double => "double",
    ///         }),
    ///         Elicitation::Decline => "the guest declined to book; do not ask again".to_owned(),
    ///         Elicitation::Cancel => "the guest closed the question".to_owned(),
    ///     })
    /// }
    ///
    /// let ctx = ToolContext::builder(()).answers([Answer::accept(&serde_json::json!({"room": "double"}))?]).build();
    /// assert_eq!(book(&ctx).await?, "booked a double room");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    #[cfg(feature = "schemars")]
    pub fn elicit<T: Elicit>(&self, message: impl Into<String>) -> Ask<'_, Ctx, T> {
        Ask {
            ctx: self,
            message: message.into(),
            timeout: DEFAULT_QUESTION_TIMEOUT,
            key: None,
            answer: PhantomData,
        }
    }

    /// What [`ContextBuilder::asker`](crate::context::ContextBuilder::asker) sets.
    pub(crate) fn with_asker(mut self, asker: impl Asker) -> Self {
        self.set_asker(Arc::new(asker));
        self
    }

    /// What [`ContextBuilder::no_one_to_ask`](crate::context::ContextBuilder::no_one_to_ask) sets.
    pub(crate) fn with_no_one_to_ask(self, reason: impl Into<String>) -> Self {
        self.with_asker(NoOne(reason.into()))
    }

    /// What [`ContextBuilder::answers`](crate::context::ContextBuilder::answers) sets.
    pub(crate) fn with_answers(self, answers: impl IntoIterator<Item = Answer>) -> Self {
        let answers: Vec<Answer> = answers.into_iter().collect();
        self.with_asker(Given(Mutex::new(answers.into_iter())))
    }
}

/// A question being asked ([`ToolContext::elicit`]): await it, after
/// setting its time limit if need be.
#[cfg(feature = "schemars")]
#[must_use = "a question is asked only when awaited"]
pub struct Ask<'c, Ctx, T> {
    ctx: &'c ToolContext<Ctx>,
    message: String,
    timeout: Duration,
    key: Option<String>,
    answer: PhantomData<fn() -> T>,
}

#[cfg(feature = "schemars")]
impl<Ctx, T> Ask<'_, Ctx, T> {
    /// Waits at most `limit` for the answer (each time it is asked), then
    /// ends in [`ElicitError::TimedOut`].
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = limit;
        self
    }

    /// Names the question, for a client that answers several at once:
    /// over MCP 2026-07-28, the key of its `inputRequests` entry, which the
    /// client answers under (`"user_name"`). Unnamed, a question is the
    /// `elicitation-1`, `elicitation-2`, ... of its call, in the order
    /// asked.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

#[cfg(feature = "schemars")]
impl<'c, Ctx: Send + Sync + 'c, T: Elicit> IntoFuture for Ask<'c, Ctx, T> {
    type Output = Result<Elicitation<T>, ElicitError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'c>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(ask(self))
    }
}

#[cfg(feature = "schemars")]
async fn ask<Ctx: Send + Sync, T: Elicit>(
    asked: Ask<'_, Ctx, T>,
) -> Result<Elicitation<T>, ElicitError> {
    let Ask {
        ctx,
        message,
        timeout,
        key,
        ..
    } = asked;
    let schema = T::requested_schema()?;
    let whole = Whole::of::<T>();
    let put = Put {
        message,
        schema: Value::clone(&schema),
        timeout,
        key,
    };
    put.to(ctx, |content| read_answer::<T>(&whole, content))
        .await
}

/// A question as it is put to the person, whatever reads its answer.
#[cfg(feature = "schemars")]
pub(crate) struct Put {
    pub(crate) message: String,
    /// What the form shows.
    pub(crate) schema: Value,
    pub(crate) timeout: Duration,
    pub(crate) key: Option<String>,
}

#[cfg(feature = "schemars")]
impl Put {
    /// Puts the question to whoever `ctx` asks through, and reads an
    /// accepted answer with `read`; one that does not fit is asked again,
    /// saying why, up to [`ASKS`] times in all.
    pub(crate) async fn to<Ctx: Send + Sync, R>(
        self,
        ctx: &ToolContext<Ctx>,
        read: impl Fn(&Value) -> Result<R, Vec<Violation>>,
    ) -> Result<Elicitation<R>, ElicitError> {
        let Put {
            message,
            schema,
            timeout,
            key,
        } = self;
        let call = ctx.shared_call();
        let (asks, desk) = call.map_or((false, None), |call| call.desk());
        // A registry's call may ask only for a tool that says it does.
        if let Some(call) = call
            && !asks
        {
            return Err(ElicitError::Undeclared {
                tool: call.tool().to_owned(),
            });
        }
        let Some(asker) = ctx.asker().or(desk).map(Arc::clone) else {
            return Err(ElicitError::Unsupported {
                reason: "this context is not a registry call's, and has no answers given \
                         (ContextBuilder::answers)"
                    .to_owned(),
            });
        };
        let mut question = Question {
            id: new_question_id(),
            call_id: ctx.call_id().unwrap_or_default().to_owned(),
            tool: call.map_or("", |call| call.tool()).to_owned(),
            message: message.clone(),
            schema,
            deadline_ms: 0,
            asks_left: ASKS,
            caller: ctx.caller().map(str::to_owned),
            conversation: ctx.conversation().map(str::to_owned),
            key,
        };
        loop {
            question.deadline_ms = now_ms().saturating_add(millis(timeout));
            if let Some(call) = call {
                call.question_asked();
            }
            let answered = tokio::select! {
                answered = tokio::time::timeout(timeout, asker.ask(&question)) => answered,
                () = ctx.cancellation().cancelled() => {
                    if let Some(call) = call { call.question_ended(); }
                    return Err(ElicitError::Cancelled);
                }
            };
            if let Some(call) = call {
                call.question_ended();
            }
            let answer = answered.map_err(|_| ElicitError::TimedOut { after: timeout })??;
            let content = match answer {
                Answer::Decline => return Ok(Elicitation::Decline),
                Answer::Cancel => return Ok(Elicitation::Cancel),
                Answer::Accept(content) => content,
            };
            let violations = match read(&content) {
                Ok(answer) => return Ok(Elicitation::Accept(answer)),
                Err(violations) => violations,
            };
            let asked = ASKS - question.asks_left + 1;
            if question.asks_left <= 1 {
                return Err(ElicitError::InvalidAnswer { asked, violations });
            }
            question.asks_left -= 1;
            question.id = new_question_id();
            question.message = format!(
                "Your answer did not fit: {}\n\n{message}",
                Violations(&violations)
            );
        }
    }
}

/// A question type's whole schema (with what a form cannot show, a
/// `pattern`, a `format`), and its check.
#[cfg(feature = "schemars")]
struct Whole {
    schema: Value,
    check: Option<SchemaCheck>,
}

/// Every question type's whole schema and check made so far in this
/// process, by type: derived and compiled once, not at every question.
#[cfg(feature = "schemars")]
static WHOLE: Mutex<std::collections::BTreeMap<std::any::TypeId, Arc<Whole>>> =
    Mutex::new(std::collections::BTreeMap::new());

#[cfg(feature = "schemars")]
impl Whole {
    fn of<T: Elicit>() -> Arc<Self> {
        let made = WHOLE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&std::any::TypeId::of::<T>())
            .cloned();
        if let Some(made) = made {
            return made;
        }
        // Made outside the lock, as a type's requested schema is.
        let schema = crate::schema::input_schema_for::<T>();
        // A derived schema is one; were it not, reading the answer still
        // checks its types.
        let check = SchemaCheck::new(&schema).ok();
        let made = Arc::new(Self { schema, check });
        WHOLE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(std::any::TypeId::of::<T>(), Arc::clone(&made));
        made
    }
}

/// The answer read as `T`, as a tool's arguments are: checked against the
/// type's whole schema, then deserialized. What does not fit, every
/// violation at once, in the words and paths a model reads for arguments.
#[cfg(feature = "schemars")]
fn read_answer<T: Elicit>(whole: &Whole, content: &Value) -> Result<T, Vec<Violation>> {
    if let Some(check) = &whole.check {
        let violations = check.check(&whole.schema, content);
        if !violations.is_empty() {
            return Err(violations);
        }
    }
    // A hand-written `Deserialize` may take less than its schema says.
    let mut path = Path::default();
    T::deserialize(path.reader(Node::Read(content)))
        .map_err(|error| vec![from_serde(path.pointer(), error.to_string())])
}

/// A question's id: 128 random bits, since the id is what answers it.
#[cfg(feature = "schemars")]
fn new_question_id() -> String {
    crate::tool::call_id::random_id()
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
