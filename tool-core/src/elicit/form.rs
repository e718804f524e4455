//! Asking with a form given as a schema rather than derived from a type
//! ([`ToolContext::elicit_form`]): what another MCP server asks through a
//! mounted tool, put to the person as a local tool's question is.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::time::Duration;

use serde_json::{Map, Value};

use super::ask::{DEFAULT_QUESTION_TIMEOUT, Put};
use crate::elicit::Elicitation;
use crate::error::tool_error::Violation;
use crate::schema::validation::SchemaCheck;
use crate::tool::ask::error::ElicitError;
use crate::tool::context::ToolContext;

impl<Ctx> ToolContext<Ctx> {
    /// Asks the person `message` with the form `schema` describes (MCP
    /// elicitation's requested schema: an object whose properties are each
    /// a string, a number, an integer, a boolean or a choice), for a tool
    /// whose questions are not Rust types: a mounted server's. The answer
    /// comes as JSON: a property the person left out that has a `default`
    /// in `schema` is given its default, then the answer is checked against
    /// `schema`; one that does not fit is asked again, saying why, as
    /// [`ToolContext::elicit`] does. Everything else is as
    /// [`ToolContext::elicit`] says: the tool must be marked `asks`.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::elicit::{Answer, ElicitError, Elicitation};
    /// use tool_core::ToolContext;
    ///
    /// let ctx = ToolContext::builder(()).answers([Answer::Accept(json!({"name": "Ada"}))]).build();
    /// let form = json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "name": {"type": "string"},
    ///         "guests": {"type": "integer", "default": 2}
    ///     },
    ///     "required": ["name"]
    /// });
    /// let answer = ctx.elicit_form("Who is booking?", form).await?;
    /// assert_eq!(answer, Elicitation::Accept(json!({"name": "Ada", "guests": 2})));
    /// # Ok::<(), ElicitError>(())
    /// # }).unwrap();
    /// ```
    pub fn elicit_form(&self, message: impl Into<String>, schema: Value) -> AskForm<'_, Ctx> {
        AskForm {
            ctx: self,
            put: Put {
                message: message.into(),
                schema,
                timeout: DEFAULT_QUESTION_TIMEOUT,
                key: None,
            },
        }
    }
}

/// A question with a form given as a schema being asked
/// ([`ToolContext::elicit_form`]): await it, after setting its time limit
/// if need be.
#[must_use = "a question is asked only when awaited"]
pub struct AskForm<'c, Ctx> {
    ctx: &'c ToolContext<Ctx>,
    put: Put,
}

impl<Ctx> AskForm<'_, Ctx> {
    /// Waits at most `limit` for the answer (each time it is asked), then
    /// ends in [`ElicitError::TimedOut`].
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.put.timeout = limit;
        self
    }

    /// Names the question, as [`Ask::key`](crate::elicit::Ask::key) does.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.put.key = Some(key.into());
        self
    }
}

impl<'c, Ctx: Send + Sync + 'c> IntoFuture for AskForm<'c, Ctx> {
    type Output = Result<Elicitation<Value>, ElicitError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'c>>;

    fn into_future(self) -> Self::IntoFuture {
        let AskForm { ctx, put } = self;
        Box::pin(async move {
            // A schema that does not compile is still shown; its answers
            // are then taken as they come.
            let check = SchemaCheck::new(&put.schema).ok();
            let schema = put.schema.clone();
            put.to(ctx, |content| read_answer(&schema, check.as_ref(), content))
                .await
        })
    }
}

/// The answer with the defaults of what it leaves out, checked against
/// `schema`.
fn read_answer(
    schema: &Value,
    check: Option<&SchemaCheck>,
    content: &Value,
) -> Result<Value, Vec<Violation>> {
    let mut answer = content.clone();
    if let (Value::Object(fields), Some(properties)) = (
        &mut answer,
        schema.get("properties").and_then(Value::as_object),
    ) {
        with_defaults(fields, properties);
    }
    match check {
        Some(check) => {
            let violations = check.check(schema, &answer);
            if violations.is_empty() {
                Ok(answer)
            } else {
                Err(violations)
            }
        }
        None => Ok(answer),
    }
}

/// Each property `fields` leaves out that has a default, given it.
fn with_defaults(fields: &mut Map<String, Value>, properties: &Map<String, Value>) {
    for (name, property) in properties {
        if let Some(default) = property.get("default")
            && !fields.contains_key(name)
        {
            fields.insert(name.clone(), default.clone());
        }
    }
}
