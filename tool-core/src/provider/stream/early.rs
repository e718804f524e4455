//! A turn whose calls start while the model is still streaming: each call
//! is run through the registry the moment its arguments are whole, under
//! the registry's [`Batch`] rules (by default, a call of a tool that is
//! neither `read_only` nor `concurrency_safe` waits for every call before
//! it, and the calls after it wait for it), and the turn is built, once
//! the stream ends, exactly as [`Provider::respond`] builds it.

use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::selector::Provider;
use crate::provider::stream::event::StreamEvent;
use crate::provider::stream::reader::{StreamError, StreamReader};
use crate::provider::turn::Turn;
use crate::registry::batch::Batch;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool::context::ToolContext;

/// A streamed turn: feed it the response's bytes, and it starts each call
/// as soon as it is whole; [`StreamedTurn::finish`] gives the [`Turn`].
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use tool_core::provider::Provider;
/// use tool_core::provider::stream::StreamedTurn;
/// use tool_core::{tool, ToolContext, ToolRegistry};
///
/// /// Add two numbers.
/// #[tool(read_only)]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = Arc::new(ToolRegistry::new().with(Add));
/// let mut turn = StreamedTurn::new(Provider::OpenAiChat { strict: false }, registry, ToolContext::new(()));
/// turn.feed(concat!(
///     "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,",
///     "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":1,\\\"b\\\":2}\"}}]},",
///     "\"finish_reason\":\"tool_calls\"}]}\n\n",
/// ).as_bytes())?;
/// // The call has started already; the rest of the stream ends the turn.
/// turn.feed(b"data: [DONE]\n\n")?;
/// let turn = turn.finish().await?;
/// assert_eq!(turn.results()[0].model_text(), "3");
/// # Ok::<(), tool_core::provider::stream::StreamError>(())
/// # }).unwrap();
/// ```
pub struct StreamedTurn<Ctx> {
    reader: StreamReader,
    registry: Arc<ToolRegistry<Ctx>>,
    ctx: ToolContext<Ctx>,
    /// Each call started, in the model's order, and when it is over.
    started: Vec<StartedCall>,
    /// The last call that runs alone: the calls after it wait for it.
    last_alone: Option<usize>,
}

struct StartedCall {
    name: String,
    run: JoinHandle<ToolResult>,
    over: watch::Receiver<bool>,
}

impl<Ctx> std::fmt::Debug for StreamedTurn<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamedTurn")
            .field("reader", &self.reader)
            .field("started", &self.started.len())
            .finish_non_exhaustive()
    }
}

impl<Ctx: Send + Sync + 'static> StreamedTurn<Ctx> {
    /// A turn of `provider`'s streamed response, whose calls run through
    /// `registry` in `ctx`. Needs a Tokio runtime: each call runs in a
    /// task of its own. The reader refuses arguments past the registry's
    /// `max_argument_bytes` as they arrive.
    pub fn new(
        provider: Provider,
        registry: Arc<ToolRegistry<Ctx>>,
        ctx: ToolContext<Ctx>,
    ) -> Self {
        let reader = provider
            .stream_reader()
            .with_max_argument_bytes(registry.max_argument_bytes());
        Self {
            reader,
            registry,
            ctx,
            started: Vec::new(),
            last_alone: None,
        }
    }

    /// Reads `bytes`, the next of the stream, starting each call they make
    /// whole: the events, as [`StreamReader::feed`] gives them.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<StreamEvent>, StreamError> {
        let events = self.reader.feed(bytes)?;
        self.start_whole(&events);
        Ok(events)
    }

    /// The bytes are over: the events of what the last of them hold, as
    /// [`StreamReader::end`] gives them, starting each call they make
    /// whole. [`finish`](Self::finish) reads them too, if this was not
    /// called.
    pub fn end(&mut self) -> Result<Vec<StreamEvent>, StreamError> {
        let events = self.reader.end()?;
        self.start_whole(&events);
        Ok(events)
    }

    /// Starts each call `events` make whole.
    fn start_whole(&mut self, events: &[StreamEvent]) {
        for event in events {
            if let StreamEvent::CallComplete { call, .. } = event {
                self.start(call);
            }
        }
    }

    /// The reader, for [`StreamReader::partial_arguments`].
    pub fn reader(&self) -> &StreamReader {
        &self.reader
    }

    /// Starts `call` once the calls it must follow are over.
    fn start(&mut self, call: &ProviderCall) {
        let alone = match self.registry.batch() {
            Batch::Parallel => false,
            Batch::Sequential => true,
            Batch::Auto => !self.registry.may_overlap(call.name()),
        };
        // What it waits for: every call before it when it runs alone (or
        // the calls run one by one), else the last call that ran alone.
        let waits: Vec<watch::Receiver<bool>> =
            match (alone, self.registry.batch(), self.last_alone) {
                (_, Batch::Parallel, _) => Vec::new(),
                (true, _, _) => self
                    .started
                    .iter()
                    .map(|started| started.over.clone())
                    .collect(),
                (false, _, Some(last)) => vec![self.started[last].over.clone()],
                (false, _, None) => Vec::new(),
            };
        let (done, over) = watch::channel(false);
        let registry = Arc::clone(&self.registry);
        let tool = call.to_tool_call();
        let ctx = tool.context_in(&self.ctx).into_owned();
        let run = tokio::spawn(async move {
            for mut wait in waits {
                // A call whose task ended (or panicked) is over too.
                let _ = wait.wait_for(|over| *over).await;
            }
            let result = registry.call(&ctx, &tool.name, tool.arguments).await;
            let _ = done.send(true);
            result
        });
        if alone {
            self.last_alone = Some(self.started.len());
        }
        self.started.push(StartedCall {
            name: call.name().to_owned(),
            run,
            over,
        });
    }

    /// The turn, once the stream has ended: each call's result in the
    /// model's order (waiting for those still running), the reply in the
    /// provider's shape, exactly as [`Provider::respond`] gives them for
    /// the whole response.
    pub async fn finish(mut self) -> Result<Turn, StreamError> {
        let provider = self.reader.provider();
        // A call in an event the stream did not end with a blank line
        // starts here, as it would have in `feed`.
        self.end()?;
        let response = self.reader.finish()?;
        let parse_error = |error: crate::provider::selector::ParseError| StreamError {
            provider,
            offset: 0,
            message: format!("the whole response does not read: {}", error.message),
        };
        let calls = provider.parse_calls(&response).map_err(parse_error)?;
        let model_turn = provider.model_turn(&response).map_err(parse_error)?;
        let mut started = self.started.into_iter().peekable();
        let mut results = Vec::with_capacity(calls.len());
        for call in &calls {
            // A call started early is the one in its place with its name; a
            // call the stream never made whole takes none of theirs.
            let result = match started.next_if(|started| started.name == call.name()) {
                Some(started) => match started.run.await {
                    Ok(result) => result,
                    Err(error) => ToolResult::from(ToolError::Panicked {
                        tool: started.name,
                        message: error.to_string(),
                    }),
                },
                // A call the stream never made whole (a provider that
                // gives calls only in its whole response): run now.
                _ => {
                    let tool = call.to_tool_call();
                    let ctx = tool.context_in(&self.ctx);
                    self.registry.call(&ctx, &tool.name, tool.arguments).await
                }
            };
            results.push(result);
        }
        Ok(provider.turn(calls, results, model_turn))
    }
}
