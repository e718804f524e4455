//! A server run as a child process, its stdio tapped below rmcp: its
//! output scanned one line (one message) at a time (`lines.rs`) and read
//! for [`Heard::note`](super::heard::Heard::note), its input closed and
//! the process ended when rmcp lets it go.

use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::mpsc;

use super::heard::Heard;
use super::lines::Lines;

/// How long a server whose input is closed has to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(3);

/// A server's output, read by rmcp and scanned here one line (one message)
/// at a time.
pub(crate) struct ChildOutput {
    stdout: ChildStdout,
    lines: Lines,
    /// What rmcp is to read before the next read of the output.
    after: Vec<u8>,
    heard: Heard,
}

impl ChildOutput {
    pub(crate) fn new(stdout: ChildStdout, heard: Heard) -> Self {
        Self {
            stdout,
            lines: Lines::default(),
            after: Vec::new(),
            heard,
        }
    }
}

impl AsyncRead for ChildOutput {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        loop {
            // What the scan put after a read goes first, in order.
            if !this.after.is_empty() {
                let given = this.after.len().min(buf.remaining());
                buf.put_slice(&this.after[..given]);
                this.after.drain(..given);
                return Poll::Ready(Ok(()));
            }
            let before = buf.filled().len();
            ready!(Pin::new(&mut this.stdout).poll_read(cx, buf))?;
            let read = buf.filled().len() - before;
            if read == 0 {
                return Poll::Ready(Ok(()));
            }
            let kept = this.lines.scan(
                &mut buf.filled_mut()[before..],
                &this.heard,
                &mut this.after,
            );
            buf.set_filled(before + kept);
            // Nothing given would read as the output's end: read on.
            if kept > 0 {
                return Poll::Ready(Ok(()));
            }
        }
    }
}

/// A mount's hold on what it runs: the task that follows the server holds
/// one, and each child process one until it has exited and been reaped.
#[derive(Clone)]
pub(crate) struct Alive(
    #[expect(dead_code, reason = "held for its drop, never read")] mpsc::Sender<()>,
);

/// What waits for every [`Alive`] of a mount to be let go of.
pub(crate) struct ChildGone(mpsc::Receiver<()>);

/// A mount's first hold, and what waits for its last.
pub(crate) fn alive() -> (Alive, ChildGone) {
    // Nothing is ever sent: the channel closes when the last hold goes.
    let (alive, ended) = mpsc::channel(1);
    (Alive(alive), ChildGone(ended))
}

impl ChildGone {
    /// Until every hold is let go of.
    pub(crate) async fn wait(mut self) {
        let _ = self.0.recv().await;
    }
}

/// A server's input, which owns the server: dropped with the connection,
/// it closes the input, gives the server [`EXIT_GRACE`] to exit, then
/// kills it, and waits for it, so that no process is left behind, running
/// or a zombie; then lets go of its [`Alive`].
pub(crate) struct ChildInput {
    stdin: Option<ChildStdin>,
    child: Option<Child>,
    alive: Option<Alive>,
}

impl ChildInput {
    pub(crate) fn new(stdin: ChildStdin, child: Child, alive: Alive) -> Self {
        Self {
            stdin: Some(stdin),
            child: Some(child),
            alive: Some(alive),
        }
    }

    fn stdin(&mut self) -> std::io::Result<Pin<&mut ChildStdin>> {
        match &mut self.stdin {
            Some(stdin) => Ok(Pin::new(stdin)),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }
}

impl AsyncWrite for ChildInput {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.get_mut().stdin()?.poll_write(cx, bytes)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().stdin()?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().stdin()?.poll_shutdown(cx)
    }
}

impl Drop for ChildInput {
    fn drop(&mut self) {
        // Its input closed, a server following MCP's stdio rules exits.
        drop(self.stdin.take());
        let (Some(mut child), Ok(runtime)) =
            (self.child.take(), tokio::runtime::Handle::try_current())
        else {
            // Without a runtime, the child is killed as it is dropped
            // (`kill_on_drop`), and tokio reaps it.
            return;
        };
        let alive = self.alive.take();
        runtime.spawn(async move {
            if tokio::time::timeout(EXIT_GRACE, child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
            drop(alive);
        });
    }
}
