//! The command line: which API and dialect, where the model is, what the
//! user asks, and how long a request may take.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::provider::Provider;

use super::QUESTION;

/// The three APIs the example speaks, as `--provider` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    OpenAi,
    Anthropic,
    Gemini,
}

impl Api {
    /// The registry's view of the API. Anthropic's strict tool use needs a
    /// beta header and Chat Completions' strict mode does not, hence the
    /// difference.
    pub(crate) fn provider(self) -> Provider {
        match self {
            Api::OpenAi => Provider::OpenAiChat { strict: true },
            Api::Anthropic => Provider::Anthropic { strict: false },
            Api::Gemini => Provider::Gemini { openapi: false },
        }
    }

    /// The variables that point the example at a real endpoint: the key,
    /// the base URL, the model.
    pub(crate) fn env_names(self) -> [&'static str; 3] {
        match self {
            Api::OpenAi => ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"],
            Api::Anthropic => ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL"],
            Api::Gemini => ["GEMINI_API_KEY", "GEMINI_BASE_URL", "GEMINI_MODEL"],
        }
    }

    pub(crate) fn default_base_url(self) -> &'static str {
        match self {
            Api::OpenAi => "https://api.openai.com/v1",
            Api::Anthropic => "https://api.anthropic.com",
            Api::Gemini => "https://generativelanguage.googleapis.com",
        }
    }

    pub(crate) fn default_model(self) -> &'static str {
        match self {
            Api::OpenAi => "gpt-4o-mini",
            Api::Anthropic => "claude-sonnet-4-5",
            Api::Gemini => "gemini-2.5-flash",
        }
    }

    /// The user's question as the conversation's first entry.
    pub(crate) fn first_message(self, question: &str) -> Value {
        match self {
            Api::OpenAi | Api::Anthropic => json!({"role": "user", "content": question}),
            Api::Gemini => json!({"role": "user", "parts": [{"text": question}]}),
        }
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
            Api::Gemini => "gemini",
        })
    }
}

impl FromStr for Api {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "openai" => Ok(Api::OpenAi),
            "anthropic" => Ok(Api::Anthropic),
            "gemini" => Ok(Api::Gemini),
            _ => Err(format!(
                "unknown provider `{}`; expected one of: openai, anthropic, gemini, {}",
                name.escape_debug(),
                LOCAL.map(|local| local.name).join(", ")
            )),
        }
    }
}

/// A server of one's own that speaks Chat Completions in a dialect the
/// library knows: it needs no key, and listens on this machine unless
/// `--base-url` says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Local {
    /// As `--provider` names it.
    pub(crate) name: &'static str,
    pub(crate) provider: Provider,
    /// Where the server listens by default.
    pub(crate) base_url: &'static str,
    /// A model the server is often started with; `--model` names another.
    pub(crate) model: &'static str,
}

/// The local dialects: vLLM's server (strict tools, as vLLM holds the
/// model to them), Ollama's OpenAI-compatible `/v1`, and any other
/// server that speaks Chat Completions, without strict mode (llama.cpp's
/// `llama-server` listens on 8080).
pub(crate) const LOCAL: [Local; 3] = [
    Local {
        name: "vllm",
        provider: Provider::Vllm { strict: true },
        base_url: "http://localhost:8000/v1",
        model: "Qwen/Qwen2.5-1.5B-Instruct",
    },
    Local {
        name: "ollama",
        provider: Provider::Ollama,
        base_url: "http://localhost:11434/v1",
        model: "llama3.2",
    },
    Local {
        name: "openai-compatible",
        provider: Provider::OpenAiChat { strict: false },
        base_url: "http://localhost:8080/v1",
        model: "default",
    },
];

/// How long one request may take, from sending it to its last byte.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(120);

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) api: Api,
    /// The tools wait behind the built-in search.
    pub(crate) search: bool,
    /// Whether the model's turns are read whole (`--no-stream`).
    pub(crate) whole: bool,
    /// A server of one's own (`--provider vllm`, ...), which speaks
    /// [`Api::OpenAi`].
    pub(crate) local: Option<Local>,
    /// What the user asks (`--prompt`).
    pub(crate) prompt: String,
    /// Where the API is (`--base-url`): with it, no key is needed.
    pub(crate) base_url: Option<String>,
    /// The model to ask (`--model`).
    pub(crate) model: Option<String>,
    /// How long one request may take (`--timeout-secs`).
    pub(crate) timeout: Duration,
    /// How long a stream may send nothing (`--stall-secs`).
    pub(crate) stall: Duration,
    /// More model requests than this and the loop stops (`--max-requests`).
    pub(crate) max_requests: usize,
    /// Each turn a Restate workflow (`--restate`).
    pub(crate) restate: bool,
    /// `--help`: print the usage and stop.
    pub(crate) help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            api: Api::OpenAi,
            search: false,
            whole: false,
            local: None,
            prompt: QUESTION.to_owned(),
            base_url: None,
            model: None,
            timeout: TIMEOUT,
            stall: super::streaming::STALL,
            max_requests: super::MAX_REQUESTS,
            restate: false,
            help: false,
        }
    }
}

impl Options {
    /// The library's dialect of the API: a local server's, or the API's.
    pub(crate) fn provider(&self) -> Provider {
        self.local
            .map_or_else(|| self.api.provider(), |local| local.provider)
    }
}

/// The usage line, which an unknown argument is answered with.
pub(crate) const USAGE: &str = "usage: agent [--provider NAME] [--base-url URL] [--model NAME] \
     [--prompt TEXT] [--timeout-secs N] [--stall-secs N] [--max-requests N] \
     [--search] [--no-stream] [--restate] [--help]";

/// What `--help` prints.
pub(crate) const HELP: &str = "\
usage: agent [OPTIONS]

Runs the quickstart's tools in a whole agent loop over HTTP.

  --provider NAME     openai (the default; Chat Completions, strict tools),
                      anthropic, gemini; or a server of your own, with no key:
                      vllm (http://localhost:8000/v1),
                      ollama (http://localhost:11434/v1),
                      openai-compatible (http://localhost:8080/v1, tools not strict)
  --base-url URL      where the API is (else $OPENAI_BASE_URL, ...); with it,
                      no key is needed
  --model NAME        the model to ask (else $OPENAI_MODEL, ...)
  --prompt TEXT       what the user asks (else a question for all three tools)
  --timeout-secs N    how long one request may take (120)
  --stall-secs N      how long a stream may send nothing (30)
  --max-requests N    requests to the model before the loop gives up (10)
  --search            the tools wait behind the built-in search tool
  --no-stream         read each response whole
  --restate           run each turn as a Restate workflow, on a restate-server
                      it starts ($TOOL_RESTATE_SERVER), approvals given
                      through the workflow
  --help              print this

With no key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) and no base
URL, a scripted model on 127.0.0.1 answers.
";

/// Reads `--provider NAME` or `--provider=NAME` (OpenAI when absent),
/// `--search`, `--no-stream`, `--restate`, and the settings of [`HELP`], each as
/// `--name VALUE` or `--name=VALUE`.
pub(crate) fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--search" => options.search = true,
            "--no-stream" => options.whole = true,
            "--restate" => options.restate = true,
            "--help" | "-h" => options.help = true,
            _ => {
                let (flag, inline) = match arg.split_once('=') {
                    Some((flag, value)) => (flag, Some(value.to_owned())),
                    None => (arg.as_str(), None),
                };
                let mut value = |needs: &str| {
                    inline
                        .clone()
                        .or_else(|| args.next())
                        .ok_or_else(|| format!("`{flag}` needs {needs}"))
                };
                match flag {
                    "--provider" => {
                        let name = value(
                            "a name: openai, anthropic, gemini, vllm, ollama or openai-compatible",
                        )?;
                        match LOCAL.into_iter().find(|local| local.name == name) {
                            Some(local) => {
                                options.api = Api::OpenAi;
                                options.local = Some(local);
                            }
                            None => {
                                options.api = name.parse()?;
                                options.local = None;
                            }
                        }
                    }
                    "--prompt" => options.prompt = value("the user's question")?,
                    "--base-url" => options.base_url = Some(value("a URL")?),
                    "--model" => options.model = Some(value("a model's name")?),
                    "--timeout-secs" => options.timeout = seconds(flag, &value("seconds")?)?,
                    "--stall-secs" => options.stall = seconds(flag, &value("seconds")?)?,
                    "--max-requests" => {
                        options.max_requests = value("a number")?
                            .parse()
                            .ok()
                            .filter(|&count| count > 0)
                            .ok_or_else(|| format!("`{flag}` takes a whole number, at least 1"))?;
                    }
                    _ => {
                        return Err(format!(
                            "unknown argument `{}`; {USAGE}",
                            arg.escape_debug()
                        ));
                    }
                }
            }
        }
    }
    if options.restate && options.search {
        return Err("`--restate` runs every tool as it is; it does not take `--search`".into());
    }
    Ok(options)
}

/// A whole number of seconds, at least one.
fn seconds(flag: &str, text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(Duration::from_secs(seconds)),
        _ => Err(format!(
            "`{flag}` takes a whole number of seconds, at least 1; got `{}`",
            text.escape_debug()
        )),
    }
}
