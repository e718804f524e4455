//! The words a person reads when an answer does not fit the question: the
//! registry's own, as a model reads them for arguments that do not fit, on
//! every path an answer is refused: asked again, reported after the last
//! ask, and refused by `Questions::answer`.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_core::elicit::{Answer, Asker, Elicit, ElicitError, Elicitation, Question};
use tool_core::{BoxFuture, ToolContext, ToolRegistry, tool};

/// A table to book.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Table {
    /// How many guests.
    guests: u8,
    /// Where.
    room: Room,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Room {
    /// By the window.
    Single,
    /// In the back.
    Double,
}

/// Answers from a list, one a question, and keeps what each question said.
struct Recorded {
    answers: Mutex<VecDeque<Answer>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl Recorded {
    fn new(
        answers: impl IntoIterator<Item = serde_json::Value>,
    ) -> (Self, Arc<Mutex<Vec<String>>>) {
        let asked = Arc::default();
        let recorded = Recorded {
            answers: Mutex::new(answers.into_iter().map(Answer::Accept).collect()),
            asked: Arc::clone(&asked),
        };
        (recorded, asked)
    }
}

impl Asker for Recorded {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        self.asked
            .lock()
            .expect("unpoisoned")
            .push(question.message().to_owned());
        let next = self.answers.lock().expect("unpoisoned").pop_front();
        Box::pin(async move {
            next.ok_or_else(|| ElicitError::Unsupported {
                reason: "no answer left".to_owned(),
            })
        })
    }
}

const QUESTION: &str = "For how many, and where?";

#[tokio::test]
async fn an_answer_that_does_not_fit_is_asked_again_in_the_registrys_words() {
    let (recorded, asked) = Recorded::new([
        json!({"guests": "four", "room": "roof"}),
        json!({"guests": 300, "room": "single"}),
        json!({"guests": 4, "room": "double"}),
    ]);
    let ctx = ToolContext::builder(()).asker(recorded).build();
    let answer = ctx.elicit::<Table>(QUESTION).await.expect("answered");
    assert_eq!(
        answer,
        Elicitation::Accept(Table {
            guests: 4,
            room: Room::Double
        })
    );
    assert_eq!(
        *asked.lock().expect("unpoisoned"),
        [
            QUESTION.to_owned(),
            format!(
                "Your answer did not fit: argument `guests` at `/guests`: expected an integer, \
                 got a string `four`; argument `room` at `/room`: expected one of `single`, \
                 `double`, got `roof`\n\n{QUESTION}"
            ),
            format!(
                "Your answer did not fit: argument `guests` at `/guests`: must be at most 255, \
                 got 300\n\n{QUESTION}"
            ),
        ]
    );
}

#[tokio::test]
async fn the_last_answer_that_does_not_fit_is_reported_in_the_registrys_words() {
    let ctx = ToolContext::builder(())
        .answers([
            Answer::Accept(json!({"guests": 2})),
            Answer::Accept(json!({"guests": -1, "room": "single"})),
            Answer::Accept(json!({"guests": 2.5, "room": "suite"})),
        ])
        .build();
    let error = ctx.elicit::<Table>(QUESTION).await.expect_err("refused");
    assert_eq!(
        error.to_string(),
        "the person's answer did not fit, after 3 asks: argument `guests` at `/guests`: \
         expected an integer, got a number `2.5`; argument `room` at `/room`: expected one of \
         `single`, `double`, got `suite`"
    );
}

/// Book a table, asking the guest for how many and where.
#[tool(asks)]
async fn book_table(ctx: &ToolContext) -> Result<String, ElicitError> {
    Ok(match ctx.elicit::<Table>(QUESTION).await? {
        Elicitation::Accept(table) => format!("a table for {} ({:?})", table.guests, table.room),
        Elicitation::Decline | Elicitation::Cancel => "no table".to_owned(),
    })
}

#[tokio::test]
async fn an_answer_given_through_the_registry_is_refused_in_the_same_words() {
    let registry = Arc::new(ToolRegistry::new().with(BookTable));
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    let running = tokio::spawn({
        let registry = Arc::clone(&registry);
        async move {
            registry
                .call(&ToolContext::new(()), "book_table", json!({}))
                .await
        }
    });
    let question = questions.next().await;
    let refused = registry
        .questions()
        .answer(
            question.id(),
            Answer::Accept(json!({"guests": "four", "room": "roof"})),
        )
        .await
        .expect_err("refused");
    assert_eq!(
        refused.to_string(),
        format!(
            "the answer to question `{}` does not fit: argument `guests` at `/guests`: expected \
             an integer, got a string `four`; argument `room` at `/room`: expected one of \
             `single`, `double`, got `roof`",
            question.id()
        )
    );
    registry
        .questions()
        .answer(
            question.id(),
            Answer::Accept(json!({"guests": 4, "room": "single"})),
        )
        .await
        .expect("answered");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "a table for 4 (Single)"
    );
}
