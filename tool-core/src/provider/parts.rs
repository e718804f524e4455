//! What the providers share in writing results made of parts: which parts a
//! provider cannot carry, and the text that stands in for them.

use std::fmt;

use crate::output::media::AsText;
use crate::output::media::{Media, Part};
use crate::output::result::ToolResult;

/// The parts of a result made of parts; `None` for text and JSON, which
/// every provider writes as it always has.
pub(crate) fn parts_of(result: &ToolResult) -> Option<&[Part]> {
    if result.is_error() {
        return None;
    }
    result.as_parts()
}

/// The text that stands in for a part a provider cannot carry in a tool
/// result, so that the model knows something was there:
/// `[audio clip.wav (audio/wav, 1024 bytes) left out: Anthropic Messages
/// takes no audio/wav in a tool result]`.
pub(crate) struct LeftOut<'a> {
    pub(crate) part: &'a Part,
    pub(crate) api: &'static str,
}

impl fmt::Display for LeftOut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = AsText(self.part).to_string();
        let shown = shown.strip_suffix(']').unwrap_or(&shown);
        let what = match self.part {
            Part::Media(media) => media.media_type(),
            _ => "such link",
        };
        write!(
            f,
            "{shown} left out: {} takes no {what} in a tool result]",
            self.api
        )
    }
}

/// The image types Anthropic, OpenAI and Gemini all take, compared without
/// regard to case.
pub(crate) fn is_common_image(media_type: &str, also_gif: bool) -> bool {
    let lower = media_type.to_ascii_lowercase();
    matches!(lower.as_str(), "image/png" | "image/jpeg" | "image/webp")
        || (also_gif && lower == "image/gif")
}

/// The file name OpenAI is given for a document (Chat Completions' `file`,
/// Responses' `input_file`): its own, or `document` with the extension of
/// its type, by which OpenAI tells how to read it.
pub(crate) fn file_name(media: &Media) -> String {
    if let Some(name) = media.name() {
        return name.to_owned();
    }
    let extension = match media.media_type().to_ascii_lowercase().as_str() {
        "application/pdf" => ".pdf",
        "text/plain" => ".txt",
        "text/csv" => ".csv",
        "text/markdown" => ".md",
        "text/html" => ".html",
        "application/json" => ".json",
        _ => "",
    };
    format!("document{extension}")
}
