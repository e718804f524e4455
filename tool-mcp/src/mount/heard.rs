//! What the mount reads from a server's messages below rmcp, whatever the
//! transport (`child.rs` over stdio, `tap.rs` over HTTP), and the most of
//! one message it reads.

use std::sync::Arc;

use super::deep::TooDeep;
use super::progress::Reports;
use super::questions::Desk;
use super::task_tools::TaskTools;

/// What the mount reads from one connection's messages: which of the
/// server's tools run as tasks, the progress of its calls, and which
/// tools are nested too deep to read.
#[derive(Clone)]
pub(crate) struct Heard {
    pub(crate) tasks: Arc<TaskTools>,
    pub(crate) reports: Arc<Reports>,
    /// The tools left out of a listing as nested too deep to read.
    pub(crate) too_deep: Arc<TooDeep>,
    /// The calls running, to which the server's questions go.
    pub(crate) desk: Arc<Desk>,
}

impl Heard {
    /// Reads one whole message from the server, before rmcp does.
    pub(crate) fn note(&self, message: &[u8]) {
        self.tasks.note(message);
        self.reports.note(message);
    }
}

/// The bytes of one message read for [`Heard::note`] at most, as rmcp
/// bounds a line of stdio: a longer one is not read, and, over stdio, an
/// error answers for it (`lines.rs`).
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;
