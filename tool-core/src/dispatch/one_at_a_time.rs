//! A tool's turn: what each call of a tool that is not `concurrency_safe`
//! holds while the tool runs, so that its calls run one at a time.
//!
//! Most calls find the turn free, and a turn taken and given back with no
//! one waiting costs one compare-and-swap each way. Calls that wait queue
//! in a fair `tokio::sync::Mutex`: the first in line marks the turn wanted,
//! and whoever gives it back hands it to that call rather than freeing it,
//! so a call that comes later and finds the turn free cannot pass one that
//! waits for longer than one run. (`tokio::sync::Mutex` alone does the
//! same, but gives a turn back under a lock of its own, three atomic
//! operations more on every call.)

use std::sync::atomic::{AtomicU8, Ordering};

use tokio::sync::{Mutex, Notify};

/// No call holds the turn.
const FREE: u8 = 0;
/// A call holds the turn.
const HELD: u8 = 1;
/// With [`HELD`]: the first call in line waits to be handed the turn.
const WANTED: u8 = 2;

/// The turn of one tool, shared by every version of a registry that holds
/// the tool.
#[derive(Debug, Default)]
pub(crate) struct OneAtATime {
    /// `FREE`, `HELD`, or `HELD | WANTED`.
    state: AtomicU8,
    /// The calls that wait, in the order they came: only the first in line
    /// watches the state.
    line: Mutex<()>,
    /// Wakes the first in line when the turn is handed to it.
    handed: Notify,
}

/// A held turn, given back when dropped.
#[must_use = "the turn is given back when the guard is dropped"]
pub(crate) struct OneAtATimeGuard<'a>(&'a OneAtATime);

impl Drop for OneAtATimeGuard<'_> {
    fn drop(&mut self) {
        self.0.give_back();
    }
}

impl OneAtATime {
    /// The turn, if it is free and no call waits for it.
    #[inline]
    pub(crate) fn try_take(&self) -> Option<OneAtATimeGuard<'_>> {
        self.state
            .compare_exchange(FREE, HELD, Ordering::Acquire, Ordering::Relaxed)
            .ok()
            .map(|_| OneAtATimeGuard(self))
    }

    /// The turn, once the calls before this one have had theirs. Dropping
    /// the future gives up the place in line, or the turn if it was handed
    /// over meanwhile.
    pub(crate) async fn take(&self) -> OneAtATimeGuard<'_> {
        if let Some(turn) = self.try_take() {
            return turn;
        }
        // Dropped after `waiting`, so that a call that gives up still
        // holds the line while it undoes its mark.
        let _first_in_line = self.line.lock().await;
        let mut waiting = InLine {
            turn: self,
            marked: false,
        };
        loop {
            // Enabled before the state is read: a hand-over after the read
            // still wakes this call.
            let handed = self.handed.notified();
            tokio::pin!(handed);
            handed.as_mut().enable();
            let state = self.state.load(Ordering::Acquire);
            if waiting.marked {
                // Only this call marks the turn, and only a hand-over to it
                // clears the mark.
                if state & WANTED == 0 {
                    waiting.marked = false;
                    return OneAtATimeGuard(self);
                }
            } else if state == FREE {
                if let Some(turn) = self.try_take() {
                    return turn;
                }
                continue;
            } else if self
                .state
                .compare_exchange(HELD, HELD | WANTED, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                waiting.marked = true;
            } else {
                // Given back between the read and the mark.
                continue;
            }
            handed.await;
        }
    }

    /// Frees the turn, or hands it to the first call in line.
    fn give_back(&self) {
        loop {
            if self
                .state
                .compare_exchange(HELD, FREE, Ordering::Release, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
            if self
                .state
                .compare_exchange(HELD | WANTED, HELD, Ordering::Release, Ordering::Relaxed)
                .is_ok()
            {
                self.handed.notify_one();
                return;
            }
            // The call in line gave up between the two: free it again.
        }
    }
}

/// The first call in line, while it waits: its mark undone if it gives up.
struct InLine<'a> {
    turn: &'a OneAtATime,
    /// Whether this call marked the turn wanted and has not been handed it.
    marked: bool,
}

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        if !self.marked {
            return;
        }
        let unmarked = self.turn.state.compare_exchange(
            HELD | WANTED,
            HELD,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
        if unmarked.is_err() {
            // Handed over as this call gave up: pass it on.
            self.turn.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::{Future, poll_fn};
    use std::pin::Pin;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Poll;
    use std::time::Duration;

    use super::OneAtATime;

    /// Polls `future` once: whether it is still pending.
    async fn pending<F: Future>(future: Pin<&mut F>) -> bool {
        let mut future = Some(future);
        poll_fn(|cx| {
            let future = future.take().expect("polled once");
            Poll::Ready(future.poll(cx).is_pending())
        })
        .await
    }

    /// Many tasks on many threads, each taking the turn, some giving up
    /// while they wait: never two holders at once, and every call that
    /// did not give up had its turn.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn one_holder_at_a_time_and_no_call_lost() {
        let turn = Arc::new(OneAtATime::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let runs = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for task in 0..32 {
            let (turn, inside, runs) = (turn.clone(), inside.clone(), runs.clone());
            tasks.push(tokio::spawn(async move {
                for call in 0..200 {
                    let guard = if (task + call) % 7 == 0 {
                        // Gives up if the turn does not come at once.
                        match tokio::time::timeout(Duration::from_micros(1), turn.take()).await {
                            Ok(guard) => guard,
                            Err(_) => continue,
                        }
                    } else if call % 3 == 0 {
                        match turn.try_take() {
                            Some(guard) => guard,
                            None => turn.take().await,
                        }
                    } else {
                        turn.take().await
                    };
                    assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "two holders");
                    // Held across a yield: other calls come and wait.
                    if call % 2 == 0 {
                        tokio::task::yield_now().await;
                    }
                    inside.fetch_sub(1, Ordering::SeqCst);
                    runs.fetch_add(1, Ordering::SeqCst);
                    drop(guard);
                }
            }));
        }
        for task in tasks {
            task.await.expect("no task panics");
        }
        // Every call that did not give up ran, and no call ran twice.
        let sure = (0..32)
            .flat_map(|task| (0..200).map(move |call| (task + call) % 7 != 0))
            .filter(|&waits_for_it| waits_for_it)
            .count();
        let ran = runs.load(Ordering::SeqCst);
        assert!((sure..=32 * 200).contains(&ran), "{ran} runs, {sure} sure");
        // Nothing left held or marked: the turn is free.
        assert!(turn.try_take().is_some(), "the turn is free at the end");
    }

    /// A call that waits is handed the turn before a call that comes later
    /// and finds it just given back; one that gives up its place after the
    /// turn was handed to it passes the turn on.
    #[tokio::test]
    async fn a_waiting_call_is_handed_the_turn() {
        for gives_up in [false, true] {
            let turn = OneAtATime::default();
            let held = turn.try_take().expect("free at first");
            {
                let waiting = turn.take();
                tokio::pin!(waiting);
                // Polled once: first in line, the turn marked.
                assert!(pending(waiting.as_mut()).await);
                drop(held);
                assert!(turn.try_take().is_none(), "handed over, not freed");
                if !gives_up {
                    let _mine = waiting.await;
                    assert!(turn.try_take().is_none(), "held by the waiter");
                }
                // Dropped here: given back, or given up without a poll.
            }
            assert!(turn.try_take().is_some(), "the turn is free again");
        }
    }
}
