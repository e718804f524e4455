//! Talking to the model over HTTP: the key each API wants, and what goes
//! wrong on the way, said with the provider's own words.

use std::time::Duration;

use serde_json::Value;
use tool_core::provider::ParseError;
use tool_core::registry::RegistryError;

use super::{Api, Endpoint, Transcript};

impl Endpoint {
    /// The request with the API's key, if there is one.
    pub(crate) fn authorized(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        let Some(key) = &self.api_key else {
            return request;
        };
        match self.api {
            Api::OpenAi => request.bearer_auth(key),
            Api::Anthropic => request
                .header("x-api-key", key)
                .header("anthropic-version", "2023-06-01"),
            Api::Gemini => request.header("x-goog-api-key", key),
        }
    }
}

/// What went wrong talking to the model. A tool that fails is not here: its
/// error goes back to the model, which reads it and carries on.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    #[error("cannot make the HTTP client: {0}")]
    Client(String),
    #[error("cannot start the scripted model: {0}")]
    Serve(#[from] std::io::Error),
    #[error("the tools cannot be given to this provider: {0}")]
    Definitions(#[from] RegistryError),
    #[error("no answer from {url}: {message}")]
    Send { url: String, message: String },
    #[error("{url} answered {status}: {message}")]
    Status {
        url: String,
        status: String,
        message: String,
    },
    #[error("{url} answered with a body that is not JSON: {message}")]
    NotJson { url: String, message: String },
    #[error("{url} sent nothing for {after:?}: its stream stalled")]
    Stalled { url: String, after: Duration },
    #[error(transparent)]
    Stream(#[from] tool_core::provider::stream::StreamError),
    #[error(transparent)]
    Response(#[from] ParseError),
    #[error("cannot run the turns on Restate: {0}")]
    Restate(String),
    /// With the calls made so far, for the application to show.
    #[error(
        "the model was still calling tools after {} requests; stopped there",
        .0.requests
    )]
    TooManyRequests(Box<Transcript>),
}

/// An error and its causes on one line: reqwest's own message alone
/// ("error sending request") does not say that the connection was refused.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

/// The message of an error response: the providers all put it at
/// `error.message`; otherwise the body itself, cut short.
pub(crate) fn error_message(body: &[u8]) -> String {
    const MAX_CHARS: usize = 500;
    let json: Option<Value> = serde_json::from_slice(body).ok();
    if let Some(message) = json
        .as_ref()
        .and_then(|json| json["error"]["message"].as_str())
    {
        return message.to_owned();
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        return "(an empty body)".to_owned();
    }
    match text.char_indices().nth(MAX_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
