//! The stored form of a [`ToolError`]: one variant a key, in snake case,
//! its fields beside it (`{"timeout":{"tool":"slow","after":{"secs":30}}}`).
//!
//! The conversions match every variant by name, so a variant added to
//! `ToolError` does not compile until it has a form here.

use std::borrow::Cow;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::message::ErrorMessage;
use crate::error::tool_error::ToolError;
use crate::error::tool_error::Violation;

type Text<'a> = Cow<'a, str>;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum ErrorForm<'a> {
    UnknownTool {
        name: Text<'a>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suggestion: Option<Text<'a>>,
        available: Cow<'a, [String]>,
    },
    ArgumentsTooLarge {
        tool: Text<'a>,
        size: usize,
        limit: usize,
    },
    MalformedArguments {
        tool: Text<'a>,
        problem: Text<'a>,
    },
    InvalidArguments {
        tool: Text<'a>,
        violations: Vec<ViolationForm<'a>>,
    },
    Unavailable {
        tool: Text<'a>,
        reason: Text<'a>,
    },
    MissingScope {
        tool: Text<'a>,
        scope: Text<'a>,
    },
    Denied {
        tool: Text<'a>,
        reason: Text<'a>,
    },
    /// The message's text: its source error is not kept.
    Execution {
        tool: Text<'a>,
        message: Text<'a>,
    },
    Timeout {
        tool: Text<'a>,
        #[serde(with = "exact")]
        after: Duration,
    },
    Cancelled {
        tool: Text<'a>,
    },
    Panicked {
        tool: Text<'a>,
        message: Text<'a>,
    },
    PendingTimeout {
        tool: Text<'a>,
        call_id: Text<'a>,
        #[serde(with = "exact")]
        after: Duration,
    },
    Lost {
        tool: Text<'a>,
        call_id: Text<'a>,
        reason: Text<'a>,
    },
    MediaTooLarge {
        tool: Text<'a>,
        media_type: Text<'a>,
        size: usize,
        limit: usize,
    },
    InvalidOutput {
        tool: Text<'a>,
        violations: Vec<ViolationForm<'a>>,
    },
}

/// `{"pointer":"/units","message":"..."}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ViolationForm<'a> {
    pointer: Text<'a>,
    message: Text<'a>,
}

fn violations_of(violations: &[Violation]) -> Vec<ViolationForm<'_>> {
    violations
        .iter()
        .map(|violation| ViolationForm {
            pointer: Cow::Borrowed(&violation.pointer),
            message: Cow::Borrowed(&violation.message),
        })
        .collect()
}

fn into_violations(forms: Vec<ViolationForm<'_>>) -> Vec<Violation> {
    forms
        .into_iter()
        .map(|form| Violation::new(form.pointer, form.message))
        .collect()
}

fn text(text: &str) -> Text<'_> {
    Cow::Borrowed(text)
}

impl<'a> ErrorForm<'a> {
    pub(super) fn of(error: &'a ToolError) -> Self {
        match error {
            ToolError::UnknownTool {
                name,
                suggestion,
                available,
            } => ErrorForm::UnknownTool {
                name: text(name),
                suggestion: suggestion.as_deref().map(text),
                available: Cow::Borrowed(available),
            },
            ToolError::ArgumentsTooLarge { tool, size, limit } => ErrorForm::ArgumentsTooLarge {
                tool: text(tool),
                size: *size,
                limit: *limit,
            },
            ToolError::MalformedArguments { tool, problem } => ErrorForm::MalformedArguments {
                tool: text(tool),
                problem: text(problem),
            },
            ToolError::InvalidArguments { tool, violations } => ErrorForm::InvalidArguments {
                tool: text(tool),
                violations: violations_of(violations),
            },
            ToolError::Unavailable { tool, reason } => ErrorForm::Unavailable {
                tool: text(tool),
                reason: text(reason),
            },
            ToolError::MissingScope { tool, scope } => ErrorForm::MissingScope {
                tool: text(tool),
                scope: text(scope),
            },
            ToolError::Denied { tool, reason } => ErrorForm::Denied {
                tool: text(tool),
                reason: text(reason),
            },
            ToolError::Execution { tool, message } => ErrorForm::Execution {
                tool: text(tool),
                message: text(message.as_str()),
            },
            ToolError::Timeout { tool, after } => ErrorForm::Timeout {
                tool: text(tool),
                after: *after,
            },
            ToolError::Cancelled { tool } => ErrorForm::Cancelled { tool: text(tool) },
            ToolError::Panicked { tool, message } => ErrorForm::Panicked {
                tool: text(tool),
                message: text(message),
            },
            ToolError::PendingTimeout {
                tool,
                call_id,
                after,
            } => ErrorForm::PendingTimeout {
                tool: text(tool),
                call_id: text(call_id),
                after: *after,
            },
            ToolError::Lost {
                tool,
                call_id,
                reason,
            } => ErrorForm::Lost {
                tool: text(tool),
                call_id: text(call_id),
                reason: text(reason),
            },
            ToolError::MediaTooLarge {
                tool,
                media_type,
                size,
                limit,
            } => ErrorForm::MediaTooLarge {
                tool: text(tool),
                media_type: text(media_type),
                size: *size,
                limit: *limit,
            },
            ToolError::InvalidOutput { tool, violations } => ErrorForm::InvalidOutput {
                tool: text(tool),
                violations: violations_of(violations),
            },
        }
    }

    pub(super) fn into_error(self) -> ToolError {
        match self {
            ErrorForm::UnknownTool {
                name,
                suggestion,
                available,
            } => ToolError::UnknownTool {
                name: name.into_owned(),
                suggestion: suggestion.map(Cow::into_owned),
                available: available.into_owned(),
            },
            ErrorForm::ArgumentsTooLarge { tool, size, limit } => ToolError::ArgumentsTooLarge {
                tool: tool.into_owned(),
                size,
                limit,
            },
            ErrorForm::MalformedArguments { tool, problem } => ToolError::MalformedArguments {
                tool: tool.into_owned(),
                problem: problem.into_owned(),
            },
            ErrorForm::InvalidArguments { tool, violations } => ToolError::InvalidArguments {
                tool: tool.into_owned(),
                violations: into_violations(violations),
            },
            ErrorForm::Unavailable { tool, reason } => ToolError::Unavailable {
                tool: tool.into_owned(),
                reason: reason.into_owned(),
            },
            ErrorForm::MissingScope { tool, scope } => ToolError::MissingScope {
                tool: tool.into_owned(),
                scope: scope.into_owned(),
            },
            ErrorForm::Denied { tool, reason } => ToolError::Denied {
                tool: tool.into_owned(),
                reason: reason.into_owned(),
            },
            ErrorForm::Execution { tool, message } => ToolError::Execution {
                tool: tool.into_owned(),
                message: ErrorMessage::new(message),
            },
            ErrorForm::Timeout { tool, after } => ToolError::Timeout {
                tool: tool.into_owned(),
                after,
            },
            ErrorForm::Cancelled { tool } => ToolError::Cancelled {
                tool: tool.into_owned(),
            },
            ErrorForm::Panicked { tool, message } => ToolError::Panicked {
                tool: tool.into_owned(),
                message: message.into_owned(),
            },
            ErrorForm::PendingTimeout {
                tool,
                call_id,
                after,
            } => ToolError::PendingTimeout {
                tool: tool.into_owned(),
                call_id: call_id.into_owned(),
                after,
            },
            ErrorForm::Lost {
                tool,
                call_id,
                reason,
            } => ToolError::Lost {
                tool: tool.into_owned(),
                call_id: call_id.into_owned(),
                reason: reason.into_owned(),
            },
            ErrorForm::MediaTooLarge {
                tool,
                media_type,
                size,
                limit,
            } => ToolError::MediaTooLarge {
                tool: tool.into_owned(),
                media_type: media_type.into_owned(),
                size,
                limit,
            },
            ErrorForm::InvalidOutput { tool, violations } => ToolError::InvalidOutput {
                tool: tool.into_owned(),
                violations: into_violations(violations),
            },
        }
    }
}

/// A duration exactly, as whole seconds and the nanoseconds beyond them:
/// `{"secs":30}`, `{"secs":1,"nanos":500000000}`. Milliseconds alone would
/// round a limit of 1.5 µs away.
mod exact {
    use std::time::Duration;

    use serde::de::{self, Deserializer};
    use serde::ser::Serializer;
    use serde::{Deserialize, Serialize};

    const NANOS_PER_SEC: u32 = 1_000_000_000;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Exact {
        secs: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        nanos: u32,
    }

    fn is_zero(nanos: &u32) -> bool {
        *nanos == 0
    }

    pub(super) fn serialize<S: Serializer>(
        duration: &Duration,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Exact {
            secs: duration.as_secs(),
            nanos: duration.subsec_nanos(),
        }
        .serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Duration, D::Error> {
        let Exact { secs, nanos } = Exact::deserialize(deserializer)?;
        // Below a second, `Duration::new` carries nothing into `secs`, and
        // so cannot overflow (it would panic).
        if nanos >= NANOS_PER_SEC {
            return Err(de::Error::custom(format_args!(
                "a duration's nanos must be under {NANOS_PER_SEC}, not {nanos}"
            )));
        }
        Ok(Duration::new(secs, nanos))
    }
}
