//! The person's answers to the questions of tools marked `asks`, given
//! through the registry when no client asks them: the questions as they
//! are asked, and the answer to each, from any process sharing the
//! registry's store.

use crate::ToolRegistry;
use crate::elicit::{Answer, AnswerError, Question, Questions};

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Answers the question `question_id` that a tool asked
    /// ([`ToolContext::elicit`](crate::ToolContext::elicit)) and parked
    /// here, there being no one else to ask (no MCP client that takes
    /// elicitation): `Answer::Accept` with the person's answer, checked
    /// against the question's schema first (an answer that does not fit is
    /// refused, and the question still waits), `Answer::Decline` or
    /// `Answer::Cancel`. Each question is answered once, in this process
    /// or any other sharing the registry's
    /// [store](ToolRegistry::with_store).
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
    /// let mut questions = registry.questions();
    /// let call = tokio::spawn({
    ///     let registry = Arc::clone(&registry);
    ///     async move { registry.call(&ToolContext::new(()), "book_table", json!({})).await }
    /// });
    /// // The application shows the question to the person, and answers.
    /// let question = questions.next().await.unwrap();
    /// assert_eq!(question.message(), "For how many?");
    /// let wrong = registry.answer(question.id(), Answer::Accept(json!({"guests": "four"}))).await;
    /// assert!(wrong.is_err(), "refused: the question still waits");
    /// registry.answer(question.id(), Answer::Accept(json!({"guests": 4}))).await.unwrap();
    /// assert_eq!(call.await.unwrap().model_text(), "a table for 4");
    /// # });
    /// ```
    pub async fn answer(&self, question_id: &str, answer: Answer) -> Result<(), AnswerError> {
        self.pipeline
            .pending
            .desk()
            .answer(question_id, answer)
            .await
    }

    /// Withdraws the question `question_id`: its tool is told that the
    /// person could not be asked, for `reason`
    /// ([`ElicitError::Unsupported`](crate::elicit::ElicitError::Unsupported)).
    pub async fn withdraw(&self, question_id: &str, reason: &str) -> Result<(), AnswerError> {
        self.pipeline
            .pending
            .desk()
            .withdraw(question_id, reason)
            .await
    }

    /// The questions this registry's tools ask in this process from now
    /// on, as they are asked, for the application to put to the person.
    pub fn questions(&self) -> Questions {
        self.pipeline.pending.desk().listen()
    }

    /// The questions asked in this process that wait for an answer, the
    /// soonest to run out of time first.
    pub fn open_questions(&self) -> Vec<Question> {
        self.pipeline.pending.desk().open()
    }
}
