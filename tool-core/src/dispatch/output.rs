//! Step 7 of a call, the output: a deferred result only from a tool that
//! may defer, media within the limit, and structured content checked
//! against the tool's output schema.

use crate::dispatch::entry::Entry;
use crate::dispatch::settings::Settings;
use crate::error::tool_error::ToolError;
use crate::output::media::Part;
use crate::output::result::{ToolOutput, ToolResult};

/// The end of a call that ran: a deferred result from a tool that cannot
/// defer is an error; otherwise step 7. In place: a result that passes,
/// nearly every one, is not moved.
pub(crate) fn finish<Ctx: 'static>(
    entry: &Entry<Ctx>,
    result: &mut ToolResult,
    settings: &Settings,
) {
    if result.is_deferred() {
        let name = &*entry.name;
        *result = ToolError::Execution {
            tool: name.to_owned(),
            message: format!(
                "tool `{name}` left its result to be delivered, but it is not `long_running`"
            )
            .into(),
        }
        .into();
        return;
    }
    if let Some(error) = oversized(&entry.name, result, settings.max_media_bytes) {
        *result = error.into();
        return;
    }
    shape_output(entry, result);
}

/// [`finish`], for a result that is moved anyway.
pub(crate) fn finished<Ctx: 'static>(
    entry: &Entry<Ctx>,
    mut result: ToolResult,
    settings: &Settings,
) -> ToolResult {
    finish(entry, &mut result, settings);
    result
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
fn shape_output<Ctx: 'static>(entry: &Entry<Ctx>, result: &mut ToolResult) {
    let (Some(check), Some(schema)) = (&entry.schemas.output_check, &entry.schemas.output_schema)
    else {
        return;
    };
    if result.is_error() {
        return;
    }
    let ToolOutput::Json(value) = result.output() else {
        return;
    };
    let violations = check.check(schema, value);
    if violations.is_empty() {
        let value = value.clone();
        result.set_structured_content(value);
    } else {
        *result = ToolError::InvalidOutput {
            tool: entry.name.to_string(),
            violations,
        }
        .into();
    }
}
