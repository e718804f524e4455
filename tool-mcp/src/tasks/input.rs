//! What a task's tool asks while it runs, as the tasks extension shows it
//! (SEP-2663): the questions it parked in the registry are the task's
//! `inputRequests`, its status `input_required` while one waits; the
//! client's `tasks/update` answers them, by key, from any replica (the
//! questions are kept in the registry's store).

use rmcp::model::{DetailedTask, InputRequests, InputResponses, TaskPayload};
use tool_core::ToolContext;
use tool_core::elicit::Question;

use super::record::TaskRecord;
use crate::asking::input_required::{answer_of, elicitation_request};
use crate::server::McpServer;

/// The key a question goes by: the one its tool gave, else its id.
fn key(question: &Question) -> &str {
    question.key().unwrap_or(question.id())
}

/// The questions of the task's call that wait for an answer.
async fn waiting<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    record: &TaskRecord,
    ctx: &ToolContext<Ctx>,
) -> Vec<Question> {
    let Some(call_id) = record.call_id.as_deref() else {
        return Vec::new();
    };
    let registry = &server.current.get().registry;
    match registry.questions().open(ctx).await {
        Ok(open) => open
            .into_iter()
            .filter(|question| question.call_id() == call_id)
            .collect(),
        Err(error) => {
            tracing::warn!(%error, "the questions of a task could not be read");
            Vec::new()
        }
    }
}

/// The task as `tasks/get` shows it: `input_required`, with what its
/// tool asks, while a question of a working task waits.
pub(crate) async fn detailed<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    record: &TaskRecord,
    task_id: &str,
    ctx: &ToolContext<Ctx>,
) -> DetailedTask {
    let detailed = record.to_detailed(task_id);
    if record.is_terminal() {
        return detailed;
    }
    let mut input_requests = InputRequests::new();
    for question in waiting(server, record, ctx).await {
        match elicitation_request(&question) {
            Ok(request) => {
                input_requests.insert(key(&question).to_owned(), request);
            }
            Err(error) => tracing::warn!(%error, "a task's question MCP cannot carry"),
        }
    }
    if input_requests.is_empty() {
        return detailed;
    }
    DetailedTask::new(detailed.task, TaskPayload::InputRequired { input_requests })
}

/// Answers the task's waiting questions named in `responses`; a key no
/// question goes by, or a response that is not an elicitation result, is
/// passed over, and an answer that does not fit leaves its question
/// waiting.
pub(crate) async fn answer<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    record: &TaskRecord,
    responses: &InputResponses,
    ctx: &ToolContext<Ctx>,
) {
    let registry = &server.current.get().registry;
    for question in waiting(server, record, ctx).await {
        let Some(answer) = responses.get(key(&question)).and_then(answer_of) else {
            continue;
        };
        if let Err(error) = registry.questions().answer(question.id(), answer).await {
            tracing::debug!(%error, "a task's answer was refused");
        }
    }
}
