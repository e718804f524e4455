//! Step 7 of a call, the output: a deferred result only from a tool that
//! may defer, media within the limit, and structured content checked
//! against the tool's output schema.

use crate::dispatch::entry::Entry;
use crate::dispatch::settings::Settings;
use crate::{Part, ToolError, ToolOutput, ToolResult};

/// The end of a call that ran: a deferred result from a tool that cannot
/// defer is an error; otherwise step 7.
pub(crate) fn finish<Ctx: 'static>(
    entry: &Entry<Ctx>,
    result: ToolResult,
    settings: &Settings,
) -> ToolResult {
    if result.is_deferred() {
        let name = &*entry.name;
        return ToolError::Execution {
            tool: name.to_owned(),
            message: format!(
                "tool `{name}` left its result to be delivered, but it is not `long_running`"
            )
            .into(),
        }
        .into();
    }
    if let Some(error) = oversized(&entry.name, &result, settings.max_media_bytes) {
        return error.into();
    }
    shape_output(entry, result)
}

/// Step 7 for media: a part over the limit withholds the result.
pub(crate) fn bound_media(tool: &str, result: ToolResult, limit: usize) -> ToolResult {
    match oversized(tool, &result, limit) {
        Some(error) => error.into(),
        None => result,
    }
}

/// The error of a result with a media part over the limit. Looks, and
/// moves nothing, for the results that hold no parts: nearly all.
#[inline]
fn oversized(tool: &str, result: &ToolResult, limit: usize) -> Option<ToolError> {
    let media = result
        .as_parts()?
        .iter()
        .filter_map(Part::as_media)
        .find(|media| media.len() > limit)?;
    Some(ToolError::MediaTooLarge {
        tool: tool.to_owned(),
        media_type: media.media_type().to_owned(),
        size: media.len(),
        limit,
    })
}

/// Step 7: structured content for a tool with an output schema, checked
/// against it.
fn shape_output<Ctx: 'static>(entry: &Entry<Ctx>, result: ToolResult) -> ToolResult {
    let (Some(check), Some(schema)) = (&entry.schemas.output_check, &entry.schemas.output_schema)
    else {
        return result;
    };
    if result.is_error() {
        return result;
    }
    let ToolOutput::Json(value) = result.output() else {
        return result;
    };
    let violations = check.check(schema, value);
    if violations.is_empty() {
        let value = value.clone();
        result.with_structured_content(value)
    } else {
        ToolError::InvalidOutput {
            tool: entry.name.to_string(),
            violations,
        }
        .into()
    }
}
