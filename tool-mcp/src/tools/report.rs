//! What a call reports of its progress, on its way to the client: as
//! `notifications/progress`, or as its task's status message.

use tool_core::observe::CallProgress;

/// A report of the call's, on its way to the client.
pub(crate) struct Report {
    pub(crate) done: f64,
    pub(crate) total: Option<f64>,
    pub(crate) message: Option<String>,
}

impl Report {
    /// The report as a task's status message: `2/5: indexing b.txt`.
    pub(crate) fn status(&self) -> String {
        let mut status = match self.total {
            Some(total) => format!("{}/{}", self.done, total),
            None => self.done.to_string(),
        };
        if let Some(message) = &self.message {
            status.push_str(": ");
            status.push_str(message);
        }
        status
    }
}

impl From<&CallProgress<'_>> for Report {
    fn from(event: &CallProgress<'_>) -> Self {
        Self {
            done: event.done,
            total: event.total,
            message: event.message.map(str::to_owned),
        }
    }
}
