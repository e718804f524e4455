//! The person's answers to the questions of tools marked `asks`, given
//! through the registry when no client asks them: the questions as they
//! are asked, and the answer to each, from any process sharing the
//! registry's store.

use std::sync::Arc;

use crate::elicit::stored_questions::QuestionStream;
use crate::registry::handle::registry_handle;
use crate::store::StoreError;
use crate::tool::ask::Asker;
use crate::tool::ask::error::AnswerError;
use crate::tool::ask::question::{Answer, Question};
use crate::tool::context::ToolContext;

registry_handle!(
    /// The questions the registry's `asks` tools put to the person when no
    /// client asks them ([`Questions::listen`](crate::registry::Questions::listen)): heard as they are
    /// asked, listed, answered or withdrawn, from any process sharing the
    /// registry's store.
    Questions,
    /// The questions its tools ask that no client puts to the person.
    questions
);

impl<Ctx: Send + Sync + 'static> Questions<'_, Ctx> {
    /// Answers the question `question_id` that a tool asked
    /// ([`ToolContext::elicit`](crate::ToolContext::elicit)) and parked
    /// here, there being no one else to ask (no MCP client that takes
    /// elicitation): `Answer::Accept` with the person's answer, checked
    /// against the question's schema first (an answer that does not fit is
    /// refused, and the question still waits), `Answer::Decline` or
    /// `Answer::Cancel`. Each question is answered once, in this process
    /// or any other sharing the registry's
    /// [store](crate::registry::RegistryBuilder::store).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::Arc;
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use serde_json::json;
    /// use tool_core::elicit::{Answer, Elicit, ElicitError, Elicitation};
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// How many guests.
    /// #[derive(Deserialize, JsonSchema, Elicit)]
    /// struct Party {
    ///     /// How many.
    ///     guests: u8,
    /// }
    ///
    /// /// Book a table, asking the guest for how many.
    /// #[tool(asks)]
    /// async fn book_table(ctx: &ToolContext) -> Result<String, ElicitError> {
    ///     Ok(match ctx.elicit::<Party>("For how many?").await? {
    ///         Elicitation::Accept(party) => format!("a table for {}", party.guests),
    ///         Elicitation::Decline | Elicitation::Cancel => "no table".to_owned(),
    ///     })
    /// }
    ///
    /// let registry = Arc::new(ToolRegistry::new().with(BookTable));
    /// let mut questions = registry.questions().listen(&ToolContext::new(()));
    /// let call = tokio::spawn({
    ///     let registry = Arc::clone(&registry);
    ///     async move { registry.call(&ToolContext::new(()), "book_table", json!({})).await }
    /// });
    /// // The application shows the question to the person, and answers.
    /// let question = questions.next().await;
    /// assert_eq!(question.message(), "For how many?");
    /// let wrong = registry.questions().answer(question.id(), Answer::Accept(json!({"guests": "four"}))).await;
    /// assert!(wrong.is_err(), "refused: the question still waits");
    /// registry.questions().answer(question.id(), Answer::Accept(json!({"guests": 4}))).await.unwrap();
    /// assert_eq!(call.await.unwrap().model_text(), "a table for 4");
    /// # });
    /// ```
    pub async fn answer(self, question_id: &str, answer: Answer) -> Result<(), AnswerError> {
        self.registry
            .pipeline
            .pending
            .desk()
            .answer(question_id, answer)
            .await
    }

    /// Withdraws the question `question_id`: its tool is told that the
    /// person could not be asked, for `reason`
    /// ([`ElicitError::Unsupported`](crate::elicit::ElicitError::Unsupported)).
    pub async fn withdraw(self, question_id: &str, reason: &str) -> Result<(), AnswerError> {
        self.registry
            .pipeline
            .pending
            .desk()
            .withdraw(question_id, reason)
            .await
    }

    /// The registry's own asker, which parks each question put to it here,
    /// as it parks the question of an `asks` tool whose context names no
    /// one else to ask: for an [`Asker`] of the application's that hands
    /// some questions on to the registry (a client's asker, once the
    /// client can be asked no more). The question is answered with
    /// [`Questions::answer`], from any process sharing the registry's
    /// [store](crate::registry::RegistryBuilder::store).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::Arc;
    /// use tool_core::elicit::{Answer, Asker, ElicitError, Question};
    /// use tool_core::{BoxFuture, ToolContext, ToolRegistry};
    ///
    /// /// Answers what it can; hands the rest to the registry.
    /// struct Kiosk {
    ///     registry: Arc<dyn Asker>,
    /// }
    ///
    /// impl Asker for Kiosk {
    ///     fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
    ///         match question.key() {
    ///             Some("terms") => Box::pin(async { Ok(Answer::Accept(serde_json::json!({}))) }),
    ///             _ => self.registry.ask(question),
    ///         }
    ///     }
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new();
    /// let kiosk = Kiosk { registry: registry.questions().asker() };
    /// let ctx = ToolContext::builder(()).asker(kiosk).build();
    /// # let _ = ctx;
    /// # });
    /// ```
    pub fn asker(self) -> Arc<dyn Asker> {
        Arc::clone(self.registry.pipeline.pending.desk()) as Arc<dyn Asker>
    }

    /// The questions of `ctx`'s caller ([`ContextBuilder::caller`](crate::context::ContextBuilder::caller)) as
    /// they wait for an answer, for the application to put to the person:
    /// those open now, then each as it is asked, by this registry's tools
    /// in this process or any other sharing its
    /// [store](crate::registry::RegistryBuilder::store). Another caller's questions are
    /// never told.
    pub fn listen(self, ctx: &ToolContext<Ctx>) -> QuestionStream {
        self.registry.pipeline.pending.desk().listen(ctx.caller())
    }

    /// The questions of `ctx`'s caller that wait for an answer now, asked
    /// in this process or any other sharing the registry's
    /// [store](crate::registry::RegistryBuilder::store), the soonest to run out of time
    /// first.
    pub async fn open(self, ctx: &ToolContext<Ctx>) -> Result<Vec<Question>, StoreError> {
        self.registry
            .pipeline
            .pending
            .desk()
            .open(ctx.caller())
            .await
    }
}
