//! A complete agent loop over HTTP: the quickstart's tools, a model behind
//! a real endpoint, and `respond` / `append_to` until the model answers
//! without calling a tool.
//!
//! ```text
//! cargo run --example agent                          # OpenAI Chat Completions
//! cargo run --example agent -- --provider anthropic  # Anthropic Messages
//! cargo run --example agent -- --provider gemini     # Gemini generateContent
//! cargo run --example agent -- --search              # the tools behind a search
//! cargo run --example agent -- --restate             # each turn a Restate workflow
//! cargo run --example agent -- --provider vllm --model Qwen/Qwen2.5-1.5B-Instruct
//! cargo run --example agent -- --help                # every flag
//! ```
//!
//! With `--search` the tools wait to be found: the model is shown the
//! built-in search tool (`search_tools`) and finds them with it; for
//! Anthropic they are loaded by the `tool_reference`s the search answers
//! with, for the others they are shown from the next request on.
//!
//! With `--restate` each turn runs as tool-restate's `TurnWorkflow` on a
//! `restate-server` the example starts (`TOOL_RESTATE_SERVER` names it),
//! each call a durable step, and the approvals are given through the
//! workflow's `approve` handler, as from anywhere else (`durable.rs`).
//!
//! With the provider's key in the environment (`OPENAI_API_KEY`,
//! `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`) it talks to the provider;
//! `OPENAI_BASE_URL` (or `--base-url`) points it at any server that speaks
//! Chat Completions, and `OPENAI_MODEL` (`ANTHROPIC_MODEL`, `GEMINI_MODEL`,
//! or `--model`) picks the model. A server of one's own needs no key:
//! `--provider vllm`, `ollama` or `openai-compatible` speaks that server's
//! dialect, on this machine unless `--base-url` says otherwise. `--prompt`
//! asks something else; `--timeout-secs` and `--stall-secs` give a slow
//! model (one on a CPU) the time it needs.
//! Without a key or a base URL it starts a scripted model on loopback that answers in the
//! provider's own shapes and refuses, with an HTTP error, a request that
//! does not carry the tools and the results as the provider wants them.

use std::fmt;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::provider::stream::{StreamEvent, StreamedTurn};
use tool_core::provider::{Listing, Provider, Search, Turn};
use tool_core::registry::RegistryBuilder;
use tool_core::search::SearchTool;
use tool_core::toolset::{Compose, Select, View};
use tool_core::{ToolContext, ToolRegistry};

#[path = "../quickstart.rs"]
#[allow(dead_code)]
pub(crate) mod quickstart;

#[path = "durable.rs"]
mod durable;
#[path = "http.rs"]
mod http;
#[path = "node.rs"]
mod node;
#[path = "options.rs"]
mod options;
pub(crate) use options::{Api, Options, parse_args};
#[path = "scripted.rs"]
pub(crate) mod scripted;
pub(crate) use http::Error;
use http::{chain, error_message};
#[path = "streaming.rs"]
mod streaming;

/// What the user asks: a call that runs, one the approval hook lets
/// through and one it refuses.
pub(crate) const QUESTION: &str =
    "What is the weather in Paris, and how much are 100 EUR and 5000 EUR in US dollars?";

/// More model requests than this and the loop stops: a model that keeps
/// calling tools must not run up a bill unattended.
pub(crate) const MAX_REQUESTS: usize = 10;

/// Where the model is: the API and its dialect, the server, the model's
/// name and the key, and how long a request may take.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    api: Api,
    provider: Provider,
    base_url: String,
    model: String,
    api_key: Option<String>,
    /// Whether each turn is asked streamed (the default) or whole.
    stream: bool,
    /// Whether a streamed turn is printed as it comes.
    print: bool,
    /// How long a stream may send nothing.
    stall: Duration,
    /// How long one request may take.
    timeout: Duration,
    /// More model requests than this and the loop stops.
    max_requests: usize,
    /// Where each turn runs when not in this process (`--restate`).
    restate: Option<Arc<durable::Turns>>,
}

impl Endpoint {
    /// The real endpoint when the API's key is set (an empty one counts as
    /// unset), a base URL is given (`--base-url` or the environment) or
    /// the provider is a server of one's own; the base URL and model from
    /// the command line, else the environment, else the defaults.
    pub(crate) fn from_options(options: &Options) -> Option<Endpoint> {
        let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        let api = options.api;
        let [key, base_url, model] = api.env_names();
        let api_key = var(key);
        let base_url = options.base_url.clone().or_else(|| var(base_url));
        let (default_base_url, default_model) = match options.local {
            Some(local) => (local.base_url, local.model),
            None if api_key.is_none() && base_url.is_none() => return None,
            None => (api.default_base_url(), api.default_model()),
        };
        Some(Endpoint {
            api,
            provider: options.provider(),
            api_key,
            base_url: base_url.unwrap_or_else(|| default_base_url.to_owned()),
            model: (options.model.clone())
                .or_else(|| var(model))
                .unwrap_or_else(|| default_model.to_owned()),
            stream: true,
            print: false,
            stall: options.stall,
            timeout: options.timeout,
            max_requests: options.max_requests,
            restate: None,
        })
    }

    /// The same endpoint asked for whole responses (`--no-stream`).
    pub(crate) fn whole(mut self) -> Endpoint {
        self.stream = false;
        self
    }

    /// A server on this machine, without a key: the scripted model.
    pub(crate) fn local(api: Api, base_url: impl Into<String>) -> Endpoint {
        Endpoint {
            api,
            provider: api.provider(),
            base_url: base_url.into(),
            model: api.default_model().to_owned(),
            api_key: None,
            stream: true,
            print: false,
            stall: streaming::STALL,
            timeout: options::TIMEOUT,
            max_requests: MAX_REQUESTS,
            restate: None,
        }
    }

    /// The same endpoint with the limits of `options` (`--timeout-secs`,
    /// `--stall-secs`, `--max-requests`).
    pub(crate) fn limited(mut self, options: &Options) -> Endpoint {
        self.timeout = options.timeout;
        self.stall = options.stall;
        self.max_requests = options.max_requests;
        self
    }

    /// The same endpoint taking a stream silent for `after` for stalled.
    #[allow(dead_code, reason = "the tests set it; the example keeps the default")]
    pub(crate) fn stalling_after(mut self, after: Duration) -> Endpoint {
        self.stall = after;
        self
    }

    /// The same endpoint printing each streamed turn as it comes.
    pub(crate) fn printing(mut self) -> Endpoint {
        self.print = true;
        self
    }

    /// The same endpoint running each turn on Restate, as `turns` do.
    pub(crate) fn on_restate(mut self, turns: durable::Turns) -> Endpoint {
        self.restate = Some(Arc::new(turns));
        self
    }

    /// The URL a turn is posted to.
    pub(crate) fn url(&self) -> String {
        if self.stream
            && let Some(url) = self.streamed_url()
        {
            return url;
        }
        let base = self.base_url.trim_end_matches('/');
        match self.api {
            Api::OpenAi => format!("{base}/chat/completions"),
            Api::Anthropic => format!("{base}/v1/messages"),
            Api::Gemini => format!("{base}/v1beta/models/{}:generateContent", self.model),
        }
    }

    /// The request body: the conversation so far and the tools, and
    /// `"stream": true` when streamed (Gemini says so in its URL).
    pub(crate) fn body(&self, conversation: &[Value], tools: &Value) -> Value {
        let mut body = self.whole_body(conversation, tools);
        if self.stream && self.api != Api::Gemini {
            body["stream"] = true.into();
        }
        body
    }

    fn whole_body(&self, conversation: &[Value], tools: &Value) -> Value {
        match self.api {
            Api::OpenAi => json!({"model": self.model, "messages": conversation, "tools": tools}),
            Api::Anthropic => json!({
                "model": self.model,
                "max_tokens": 1024,
                "messages": conversation,
                "tools": tools,
            }),
            Api::Gemini => json!({"contents": conversation, "tools": tools}),
        }
    }

    /// The client for this endpoint. A server on this machine is reached
    /// directly, whatever proxy the environment names.
    pub(crate) fn client(&self) -> Result<reqwest::Client, Error> {
        let builder = reqwest::Client::builder().timeout(self.timeout);
        let builder = if self.api_key.is_none() {
            builder.no_proxy()
        } else {
            builder
        };
        builder
            .build()
            .map_err(|error| Error::Client(chain(&error)))
    }

    /// Posts one request and returns the response's JSON; a status other
    /// than 2xx is an error carrying the provider's own message.
    pub(crate) async fn post(
        &self,
        client: &reqwest::Client,
        body: &Value,
    ) -> Result<Value, Error> {
        let url = self.url();
        let request = self.authorized(client.post(&url).json(body));
        // The URL leads the message already.
        let failed = |error: reqwest::Error| Error::Send {
            url: url.clone(),
            message: chain(&error.without_url()),
        };
        let response = request.send().await.map_err(failed)?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(failed)?;
        if !status.is_success() {
            return Err(Error::Status {
                url,
                status: status.to_string(),
                message: error_message(&bytes),
            });
        }
        serde_json::from_slice(&bytes).map_err(|error| Error::NotJson {
            url,
            message: error.to_string(),
        })
    }
}

/// One tool call of the conversation and what the model was told.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    pub(crate) name: String,
    /// As the model sent them: OpenAI's are a JSON string.
    pub(crate) arguments: Value,
    pub(crate) result: String,
    pub(crate) is_error: bool,
}

/// A whole exchange: every call in order, the final answer, and the
/// conversation as it stands after it (ready for the user's next message).
#[derive(Clone, Debug)]
pub(crate) struct Transcript {
    pub(crate) steps: Vec<Step>,
    pub(crate) answer: String,
    // The tests hold it to the providers' shapes; the example prints the
    // steps instead.
    #[allow(dead_code)]
    pub(crate) conversation: Vec<Value>,
    pub(crate) requests: usize,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arguments = match &self.arguments {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let status = if self.is_error { "error" } else { "ok" };
        writeln!(f, "call   {}({arguments})", self.name)?;
        writeln!(f, "  -> [{status}] {}", self.result)
    }
}

impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            write!(f, "{step}")?;
        }
        writeln!(f, "answer ({} requests): {}", self.requests, self.answer)
    }
}

/// The loop: post the conversation with the tools, run the calls of the
/// response, append the model's turn and the results, until the model
/// answers without calling a tool.
pub(crate) async fn run(endpoint: &Endpoint, question: &str) -> Result<Transcript, Error> {
    let registry = quickstart::registry();
    // Printing, each call is shown as it starts and as it ends.
    let registry = if endpoint.print {
        RegistryBuilder::from(registry)
            .observer(streaming::PrintCalls)
            .build()
    } else {
        registry
    };
    run_with(
        endpoint,
        question,
        &Arc::new(registry),
        &quickstart::context(),
    )
    .await
}

/// [`run`] with the quickstart's tools waiting behind the built-in
/// search: the model searches, then calls what it found.
pub(crate) async fn run_searching(
    endpoint: &Endpoint,
    question: &str,
) -> Result<Transcript, Error> {
    let tools = Compose::new().defer().apply(quickstart::registry())?;
    let search = SearchTool::new(tools.tools());
    let registry = Arc::new(tools.with(search));
    run_listed(endpoint, question, &registry, &quickstart::context(), true).await
}

/// [`run`] with the tools of `registry`, in `ctx`: the gateway example's
/// tools, mounted from an MCP server.
pub(crate) async fn run_with<Ctx: Send + Sync + 'static>(
    endpoint: &Endpoint,
    question: &str,
    registry: &Arc<ToolRegistry<Ctx>>,
    ctx: &ToolContext<Ctx>,
) -> Result<Transcript, Error> {
    run_listed(endpoint, question, registry, ctx, false).await
}

/// The loop, each request showing the model every tool or, with `search`,
/// the tools up front and those found so far (for Anthropic: every tool,
/// those that wait deferred, loaded by what the search found).
async fn run_listed<Ctx: Send + Sync + 'static>(
    endpoint: &Endpoint,
    question: &str,
    registry: &Arc<ToolRegistry<Ctx>>,
    ctx: &ToolContext<Ctx>,
    search: bool,
) -> Result<Transcript, Error> {
    let provider = endpoint.provider;
    let client = endpoint.client()?;

    let mut conversation = vec![endpoint.api.first_message(question)];
    let mut steps = Vec::new();
    let mut found: Vec<String> = Vec::new();
    for requests in 1..=endpoint.max_requests {
        // Without a search of the provider's own, the model is shown (and
        // may call) the tools up front and those found so far.
        let shown = (search && endpoint.api != Api::Anthropic)
            .then(|| registry.view(Select::all().up_front().names(found.iter().cloned())));
        let tools = match (&shown, search) {
            (Some(view), _) => provider.definitions(view)?,
            (None, true) => {
                provider.definitions_with(&**registry, Listing::new().search(Search::Client))?
            }
            (None, false) => provider.definitions(&**registry)?,
        };
        let body = endpoint.body(&conversation, tools.as_json());
        let turn = if let Some(turns) = &endpoint.restate {
            let response = if endpoint.stream {
                streamed_response(endpoint, &client, &body).await?
            } else {
                endpoint.post(&client, &body).await?
            };
            turns.run(provider, &response, registry).await?
        } else if endpoint.stream {
            streamed_turn(endpoint, &client, &body, registry, ctx, shown.as_ref()).await?
        } else {
            let response = endpoint.post(&client, &body).await?;
            match &shown {
                Some(view) => provider.respond_in(view, ctx, &response).await?,
                None => provider.respond(registry, ctx, &response).await?,
            }
        };
        found.extend(turn.found().into_iter().map(str::to_owned));
        turn.append_to(&mut conversation);
        steps.extend(
            turn.calls()
                .iter()
                .zip(turn.results())
                .map(|(call, result)| Step {
                    name: call.name().to_owned(),
                    arguments: call.arguments().clone(),
                    result: result.model_text().into_owned(),
                    is_error: result.is_error(),
                }),
        );
        if turn.is_done() {
            return Ok(Transcript {
                steps,
                answer: turn.text().unwrap_or_default().to_owned(),
                conversation,
                requests,
            });
        }
    }
    Err(Error::TooManyRequests(Box::new(Transcript {
        steps,
        answer: String::new(),
        conversation,
        requests: endpoint.max_requests,
    })))
}

/// One turn streamed: each call starts as soon as it is whole, through
/// the registry (through `view`'s tools, once the stream ends, when only
/// some are shown).
async fn streamed_turn<Ctx: Send + Sync + 'static>(
    endpoint: &Endpoint,
    client: &reqwest::Client,
    body: &Value,
    registry: &Arc<ToolRegistry<Ctx>>,
    ctx: &ToolContext<Ctx>,
    view: Option<&View<'_, Ctx>>,
) -> Result<Turn, Error> {
    let provider = endpoint.provider;
    let show = |event: &StreamEvent| {
        if endpoint.print {
            streaming::print_event(event);
        }
    };
    if let Some(view) = view {
        let response = streamed_response(endpoint, client, body).await?;
        return Ok(provider.respond_in(view, ctx, &response).await?);
    }
    let mut turn = StreamedTurn::new(provider, Arc::clone(registry), ctx.clone());
    endpoint
        .post_streamed(client, body, &mut |bytes| turn.feed(bytes), &show)
        .await?;
    // Gemini's stream has no last event: its end is the body's.
    show(&StreamEvent::Done);
    Ok(turn.finish().await?)
}

/// A response streamed, shown as it comes and read whole: its calls run
/// once it has ended.
async fn streamed_response(
    endpoint: &Endpoint,
    client: &reqwest::Client,
    body: &Value,
) -> Result<Value, Error> {
    let show = |event: &StreamEvent| {
        if endpoint.print {
            streaming::print_event(event);
        }
    };
    let mut reader = endpoint.provider.stream_reader();
    endpoint
        .post_streamed(client, body, &mut |bytes| reader.feed(bytes), &show)
        .await?;
    show(&StreamEvent::Done);
    Ok(reader.finish()?)
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    if options.help {
        print!("{}", options::HELP);
        return ExitCode::SUCCESS;
    }
    let api = options.api;
    let endpoint = match Endpoint::from_options(&options) {
        Some(endpoint) => endpoint,
        None => match scripted::serve(api).await {
            Ok(base_url) => {
                println!(
                    "{} is not set: talking to a scripted model at {base_url}",
                    api.env_names()[0]
                );
                Endpoint::local(api, base_url).limited(&options)
            }
            Err(error) => {
                eprintln!("error: {}", Error::Serve(error));
                return ExitCode::FAILURE;
            }
        },
    };
    let endpoint = if options.whole {
        endpoint.whole()
    } else {
        endpoint.printing()
    };
    let endpoint = if options.restate {
        match durable::Turns::start(&endpoint).await {
            Ok(turns) => {
                println!("each turn runs on Restate: POST {}", turns.url());
                endpoint.on_restate(turns)
            }
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        endpoint
    };
    let question = options.prompt.as_str();
    println!("POST {}\nuser   {question}", endpoint.url());
    let transcript = if options.search {
        run_searching(&endpoint, question).await
    } else {
        run(&endpoint, question).await
    };
    match transcript {
        Ok(transcript) => {
            print!("{transcript}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            if let Error::TooManyRequests(transcript) = &error {
                for step in &transcript.steps {
                    print!("{step}");
                }
            }
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
