//! The progress a server reports of each call on one connection, handed to
//! the call whole and in the order it was sent.
//!
//! rmcp hands each notification to the client's handler in a task of its
//! own, while a request's answer goes straight to the request: a report
//! sent just before the answer could reach the call after it had ended,
//! when no one listened any more, and two reports could swap places (the
//! first then too late to advance, and dropped as stale). So the reports
//! are read where the server's messages are read (`child.rs`, `tap.rs`), in order, and
//! each is in its call's queue before rmcp has read the message after it:
//! when the answer reaches the call, every report sent before it waits in
//! the queue.
//!
//! A call learns its progress token only once rmcp has sent the request;
//! a report for a token no call listens to yet is kept while a call is
//! being sent ([`Reports::expect`]), and handed over when that call
//! listens ([`Expecting::listen`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use serde::Deserialize;
use tokio::sync::mpsc;

/// The reports one call's queue holds at most: a server that reports
/// faster than the call relays them loses the reports past it.
const QUEUE: usize = 256;

/// The reports kept at most for calls being sent, before their tokens are
/// known: the oldest go first.
const EARLY: usize = 64;

/// One connection's calls that listen to their progress, by token.
#[derive(Debug, Default)]
pub(crate) struct Reports(Mutex<Routes>);

#[derive(Debug, Default)]
struct Routes {
    calls: HashMap<ProgressToken, mpsc::Sender<ProgressNotificationParam>>,
    /// Calls sent, or being sent, whose token is not known yet.
    expecting: usize,
    /// Reports for no call heard while some call was expected.
    early: VecDeque<ProgressNotificationParam>,
}

impl Reports {
    fn lock(&self) -> MutexGuard<'_, Routes> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads one message from the server: a progress notification goes to
    /// the queue of the call it names.
    pub(crate) fn note(&self, message: &[u8]) {
        // Built once: every message from the server is searched. Within a
        // JSON string the quotes would be escaped: only a method matches.
        static METHOD: LazyLock<memchr::memmem::Finder<'static>> =
            LazyLock::new(|| memchr::memmem::Finder::new(b"\"notifications/progress\""));
        if METHOD.find(message).is_none() {
            return;
        }
        #[derive(Deserialize)]
        struct Notification {
            method: String,
            params: ProgressNotificationParam,
        }
        // Anything else (a request of that name, garbage) is rmcp's to
        // read or refuse.
        let Ok(notification) = serde_json::from_slice::<Notification>(message) else {
            return;
        };
        if notification.method == "notifications/progress" {
            self.route(notification.params);
        }
    }

    fn route(&self, report: ProgressNotificationParam) {
        let mut routes = self.lock();
        if let Some(queue) = routes.calls.get(&report.progress_token) {
            if queue.try_send(report).is_err() {
                tracing::debug!("a progress report dropped: its call's queue is full");
            }
        } else if routes.expecting > 0 {
            if routes.early.len() == EARLY {
                routes.early.pop_front();
            }
            routes.early.push_back(report);
        }
    }

    /// A call is about to be sent: reports for tokens no call listens to
    /// are kept until it listens (or is dropped).
    pub(crate) fn expect(self: &Arc<Self>) -> Expecting {
        self.lock().expecting += 1;
        Expecting(Arc::clone(self))
    }
}

/// A call being sent, whose reports are kept until it knows its token.
pub(crate) struct Expecting(Arc<Reports>);

impl Expecting {
    /// The call's reports, from those that came before it listened on.
    pub(crate) fn listen(self, token: ProgressToken) -> Listening {
        let (queue, receiver) = mpsc::channel(QUEUE);
        {
            let mut routes = self.0.lock();
            let early = std::mem::take(&mut routes.early);
            for report in early {
                if report.progress_token == token {
                    let _ = queue.try_send(report);
                } else {
                    routes.early.push_back(report);
                }
            }
            routes.calls.insert(token.clone(), queue);
        }
        Listening {
            reports: Arc::clone(&self.0),
            token,
            receiver,
        }
    }
}

impl Drop for Expecting {
    fn drop(&mut self) {
        let mut routes = self.0.lock();
        routes.expecting -= 1;
        if routes.expecting == 0 {
            routes.early.clear();
        }
    }
}

/// A call's queue of reports; dropped, the call listens no more.
pub(crate) struct Listening {
    reports: Arc<Reports>,
    token: ProgressToken,
    receiver: mpsc::Receiver<ProgressNotificationParam>,
}

impl Listening {
    /// The next report, when it comes.
    pub(crate) async fn next(&mut self) -> Option<ProgressNotificationParam> {
        self.receiver.recv().await
    }

    /// The next report already in the queue, if any.
    pub(crate) fn try_next(&mut self) -> Option<ProgressNotificationParam> {
        self.receiver.try_recv().ok()
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let removed = self.reports.lock().calls.remove(&self.token);
        // Dropped after the lock is let go of.
        drop(removed);
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    fn token(n: i64) -> ProgressToken {
        ProgressToken(NumberOrString::Number(n))
    }

    fn line(token: i64, progress: u32) -> Vec<u8> {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":{progress},"total":9,"message":"step {progress}"}}}}"#
        )
        .into_bytes()
    }

    fn drained(listening: &mut Listening) -> Vec<(f64, Option<String>)> {
        std::iter::from_fn(|| listening.try_next())
            .map(|report| (report.progress, report.message))
            .collect()
    }

    #[test]
    fn each_report_reaches_its_own_call_in_order() {
        let reports = Arc::new(Reports::default());
        let mut first = reports.expect().listen(token(0));
        let mut second = reports.expect().listen(token(1));
        reports.note(&line(0, 1));
        reports.note(&line(1, 1));
        reports.note(&line(0, 2));
        // A token no one listens to, a result that mentions the method, a
        // request of that name: nowhere.
        reports.note(&line(7, 1));
        reports.note(br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"\"notifications/progress\""}]}}"#);
        reports.note(br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"notifications/progress"}}"#);
        assert_eq!(
            drained(&mut first),
            [(1.0, Some("step 1".into())), (2.0, Some("step 2".into()))]
        );
        assert_eq!(drained(&mut second), [(1.0, Some("step 1".into()))]);
        drop(first);
        reports.note(&line(0, 3));
        assert!(
            reports.lock().calls.len() == 1,
            "the first call listens no more"
        );
    }

    #[test]
    fn a_report_that_comes_before_its_call_knows_its_token_is_kept_for_it() {
        let reports = Arc::new(Reports::default());
        let expecting = reports.expect();
        // The server was quick: its report came before rmcp's send ended.
        reports.note(&line(5, 1));
        reports.note(&line(6, 1));
        let mut listening = expecting.listen(token(5));
        reports.note(&line(5, 2));
        assert_eq!(
            drained(&mut listening),
            [(1.0, Some("step 1".into())), (2.0, Some("step 2".into()))]
        );
        // No call is expected any more: what was kept is let go of.
        assert!(reports.lock().early.is_empty());
        // And with none expected, nothing is kept.
        reports.note(&line(8, 1));
        assert!(reports.lock().early.is_empty());
    }

    #[test]
    fn what_is_kept_and_queued_is_bounded() {
        let reports = Arc::new(Reports::default());
        let expecting = reports.expect();
        for progress in 0..100 {
            reports.note(&line(9, progress));
        }
        assert_eq!(reports.lock().early.len(), EARLY);
        let mut listening = expecting.listen(token(9));
        for progress in 100..1000 {
            reports.note(&line(9, progress));
        }
        let heard = drained(&mut listening);
        assert_eq!(heard.len(), QUEUE);
        assert_eq!(heard[0].0, 36.0, "the oldest kept went first");
    }
}
