//! The agent's turn streamed: the request asks for a stream, its bytes are
//! read as they arrive, the model's text is shown as it is written, and
//! each call starts the moment its arguments are whole (`StreamedTurn`),
//! while the model writes the rest.

use std::time::Duration;

use tool_core::provider::stream::{StreamError, StreamEvent};

use super::http::{Error, chain, error_message};
use super::{Api, Endpoint};

/// What reads a stream's bytes as they come: a `StreamedTurn`'s or a
/// `StreamReader`'s `feed`.
pub(crate) type Feed<'f> = dyn FnMut(&[u8]) -> Result<Vec<StreamEvent>, StreamError> + 'f;

/// How long a stream may send nothing before it is taken for stalled.
pub(crate) const STALL: Duration = Duration::from_secs(30);

impl Endpoint {
    /// Posts one request asking for a stream and gives each piece of the
    /// body, as it arrives, to `feed`; `show` sees each event. A status
    /// other than 2xx is an error carrying the provider's own message, and
    /// a stream silent for [`STALL`] (or what `stalling_after` set) ends in
    /// [`Error::Stalled`].
    pub(crate) async fn post_streamed(
        &self,
        client: &reqwest::Client,
        body: &serde_json::Value,
        feed: &mut Feed<'_>,
        show: &dyn Fn(&StreamEvent),
    ) -> Result<(), Error> {
        let url = self.url();
        let mut request = client.post(&url).json(body);
        request = self.authorized(request);
        let failed = |error: reqwest::Error| Error::Send {
            url: url.clone(),
            message: chain(&error.without_url()),
        };
        let mut response = request.send().await.map_err(failed)?;
        let status = response.status();
        if !status.is_success() {
            let bytes = response.bytes().await.map_err(failed)?;
            return Err(Error::Status {
                url,
                status: status.to_string(),
                message: error_message(&bytes),
            });
        }
        loop {
            let chunk = tokio::time::timeout(self.stall, response.chunk())
                .await
                .map_err(|_| Error::Stalled {
                    url: url.clone(),
                    after: self.stall,
                })?
                .map_err(failed)?;
            let Some(chunk) = chunk else {
                return Ok(());
            };
            for event in feed(&chunk)? {
                show(&event);
            }
        }
    }

    /// The URL of a streamed turn: Gemini streams from a method of its own.
    pub(crate) fn streamed_url(&self) -> Option<String> {
        (self.api == Api::Gemini).then(|| {
            format!(
                "{}/v1beta/models/{}:streamGenerateContent?alt=sse",
                self.base_url.trim_end_matches('/'),
                self.model
            )
        })
    }
}

/// What the example prints of a streamed turn as it comes: the model's
/// text as it is written. (Each call's start and end are the registry's
/// to tell: [`PrintCalls`].)
pub(crate) fn print_event(event: &StreamEvent) {
    use std::io::Write as _;
    let end_line = end_text_line;
    match event {
        StreamEvent::Text(text) => {
            if !MID_LINE.with(|mid| mid.replace(true)) {
                print!("model  ");
            }
            print!("{text}");
            let _ = std::io::stdout().flush();
        }
        StreamEvent::Done => end_line(),
        _ => {}
    }
}

/// Prints each call as it starts (while the model may still be writing)
/// and as it ends, beside the stream's text.
pub(crate) struct PrintCalls;

impl tool_core::observe::CallObserver for PrintCalls {
    fn call_started(&self, event: &tool_core::observe::CallStarted<'_>) {
        end_text_line();
        println!(
            "start  {} (call {})",
            event.tool,
            &event.call_id[..8.min(event.call_id.len())]
        );
    }

    fn call_finished(&self, event: &tool_core::observe::CallFinished<'_>) {
        println!(
            "end    {} [{}] after {} ms",
            event.tool,
            event.outcome(),
            event.duration.as_millis()
        );
    }
}

std::thread_local! {
    /// Whether the model's text has left a line open.
    static MID_LINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ends the line the model's text left open, if it did.
fn end_text_line() {
    if MID_LINE.with(|mid| mid.replace(false)) {
        println!();
    }
}
