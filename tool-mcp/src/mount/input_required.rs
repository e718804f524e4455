//! A call the server answers with 2026-07-28's `input_required`: what it
//! needs answered first is asked through the call's context (`asked.rs`),
//! and the call is made again with the answers and the state the server
//! gave, until it ends.

use std::time::Duration;

use rmcp::model::{InputRequiredResult, InputResponses};
use tool_core::ToolContext;

use super::asked::{self, ServerAsks, Takes};

/// The most times one call is made again: a server asking without end is
/// not followed forever.
pub(crate) const MAX_ROUNDS: u32 = 16;

/// How long the mount waits before making a call again that the server
/// answered with its state only (no question): doubled each such round,
/// up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(50);
const LONGEST_WAIT: Duration = Duration::from_secs(2);

/// The rounds of one call so far.
#[derive(Default)]
pub(crate) struct Rounds {
    made: u32,
    /// How many rounds in a row brought no question.
    waiting: u32,
}

/// What the call is made again with.
pub(crate) struct Answered {
    pub(crate) responses: Option<InputResponses>,
    pub(crate) state: Option<String>,
}

impl Rounds {
    /// The answers to what `needed` asks (the person's, or the client's,
    /// as the mount `takes` them), or what the model reads when the call
    /// cannot go on: `shown` is the tool's name as the model knows it,
    /// `server` the server's.
    pub(crate) async fn answer<Ctx: Send + Sync>(
        &mut self,
        ctx: &ToolContext<Ctx>,
        (server, shown): (&str, &str),
        takes: Takes,
        needed: InputRequiredResult,
    ) -> Result<Answered, String> {
        self.made += 1;
        if self.made > MAX_ROUNDS {
            return Err(format!(
                "the MCP server `{server}` asked for more input {MAX_ROUNDS} times during the \
                 call of `{shown}` without ending it"
            ));
        }
        let requests = needed.input_requests.unwrap_or_default();
        if requests.is_empty() {
            if needed.request_state.is_none() {
                return Err(format!(
                    "the MCP server `{server}` answered the call of `{shown}` with \
                     `input_required`, asking nothing"
                ));
            }
            let wait = FIRST_WAIT.saturating_mul(1 << self.waiting.min(6));
            tokio::time::sleep(wait.min(LONGEST_WAIT)).await;
            self.waiting += 1;
        } else {
            self.waiting = 0;
        }
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            let Some(request) = ServerAsks::of_input(request) else {
                return Err(format!(
                    "the MCP server `{server}` asked for an input this mount does not know \
                     during the call of `{shown}`"
                ));
            };
            let answer = asked::answer(ctx, takes, request).await.map_err(|error| {
                format!(
                    "the MCP server `{server}` asked the client something during the call of \
                     `{shown}`, and no answer came: {}",
                    error.message
                )
            })?;
            responses.insert(key, answer);
        }
        Ok(Answered {
            responses: (!responses.is_empty()).then_some(responses),
            state: needed.request_state,
        })
    }
}
