//! Stress test of one shared `ToolRegistry`: 10,000 calls from 100 tasks on
//! a multi-thread runtime, to tools that succeed, fail, panic, time out, run
//! one call at a time, or run in the background (computing their result,
//! panicking, timing out, having it delivered, or never getting it).
//!
//! Every call must end with exactly one final result, the one its call
//! number predicts; no pending call may be left behind; and the whole run
//! must finish within a minute, so that a deadlock fails instead of hanging.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::mpsc;
use tool_core::observe::{CallFinished, CallObserver, CallStarted};
use tool_core::policy::ApproveAll;
use tool_core::registry::DeliveryError;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult, tool};

const TASKS: u64 = 100;
const CALLS_PER_TASK: u64 = 100;
const TOTAL: u64 = TASKS * CALLS_PER_TASK;
/// The `timeout` of `stall` and `background_stall`.
const TOOL_TIMEOUT: Duration = Duration::from_millis(20);
/// How long a deferred result may take to be delivered: far more than the
/// deliverer needs even on a loaded machine (some tens of milliseconds),
/// while the undelivered calls of a task time out together.
const PENDING_TIMEOUT: Duration = Duration::from_millis(500);
/// The limit on the whole run.
const DEADLINE: Duration = Duration::from_secs(60);

/// The state every call sees.
struct App {
    /// Where `handed_off` sends its call id and number for the deliverer.
    jobs: mpsc::UnboundedSender<Job>,
    /// Calls of `exclusive` running right now.
    exclusive_running: AtomicUsize,
}

/// A deferred call for the deliverer: its id, its number, when it was handed
/// off.
type Job = (String, u64, Instant);

/// Doubles a number.
#[tool(tier = Observe, concurrency_safe)]
async fn double(n: u64) -> u64 {
    tokio::task::yield_now().await;
    n * 2
}

/// Fails. A `Confirm` tool: it runs through the approval hook.
#[tool(concurrency_safe)]
async fn fail(n: u64) -> Result<u64, String> {
    tokio::task::yield_now().await;
    Err(format!("failure {n}"))
}

/// Panics.
#[tool(tier = Observe, concurrency_safe)]
async fn boom(n: u64) -> u64 {
    tokio::task::yield_now().await;
    panic!("boom {n}")
}

/// Sleeps far past its timeout.
#[tool(tier = Observe, concurrency_safe, timeout = "20ms")]
async fn stall(n: u64) -> u64 {
    tokio::time::sleep(Duration::from_secs(10)).await;
    n
}

/// Not `concurrency_safe`: the registry runs one call at a time, which the
/// tool checks.
#[tool(tier = Observe)]
async fn exclusive(ctx: &ToolContext<App>, n: u64) -> Result<u64, String> {
    let running = &ctx.state().exclusive_running;
    let others = running.fetch_add(1, Ordering::SeqCst);
    tokio::task::yield_now().await;
    running.fetch_sub(1, Ordering::SeqCst);
    if others == 0 {
        Ok(n * 3)
    } else {
        Err(format!(
            "call {n} of `exclusive` ran beside {others} others"
        ))
    }
}

/// Computes its result in the background.
#[tool(tier = Observe, concurrency_safe, long_running)]
async fn background(n: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(1)).await;
    n + 1
}

/// Panics in the background.
#[tool(tier = Observe, concurrency_safe, long_running)]
async fn background_boom(n: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(1)).await;
    panic!("boom {n}")
}

/// Sleeps in the background far past its timeout.
#[tool(tier = Observe, concurrency_safe, long_running, timeout = "20ms")]
async fn background_stall(n: u64) -> u64 {
    tokio::time::sleep(Duration::from_secs(10)).await;
    n
}

/// Hands the call to the deliverer and defers its result. A `Confirm` tool.
#[tool(concurrency_safe, long_running)]
async fn handed_off(ctx: &ToolContext<App>, n: u64) -> ToolResult {
    let Some(id) = ctx.call_id() else {
        return ToolResult::error(format!("call {n} has no id"));
    };
    match ctx.state().jobs.send((id.to_owned(), n, Instant::now())) {
        Ok(()) => ToolResult::deferred(),
        Err(_) => ToolResult::error(format!("call {n}: the deliverer is gone")),
    }
}

/// Defers its result, which nobody ever delivers.
#[tool(tier = Observe, concurrency_safe, long_running)]
async fn forgotten(n: u64) -> ToolResult {
    let _ = n;
    ToolResult::deferred()
}

/// What a call is, by its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Double,
    Fail,
    Boom,
    Stall,
    Exclusive,
    Background,
    BackgroundBoom,
    BackgroundStall,
    HandedOff,
    Forgotten,
}

/// The mix, by `n % 20`.
const MIX: [Kind; 20] = {
    use Kind::*;
    [
        Double,
        Double,
        Double,
        Double,
        Double,
        Fail,
        Fail,
        Boom,
        Stall,
        Exclusive,
        Exclusive,
        Background,
        Background,
        BackgroundBoom,
        BackgroundStall,
        HandedOff,
        HandedOff,
        HandedOff,
        Forgotten,
        Forgotten,
    ]
};

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Success,
    Delivered,
    Failed,
    Panicked,
    TimedOut,
    PendingTimedOut,
}

impl Kind {
    fn of(n: u64) -> Self {
        MIX[(n % 20) as usize]
    }

    fn tool(self) -> &'static str {
        match self {
            Kind::Double => "double",
            Kind::Fail => "fail",
            Kind::Boom => "boom",
            Kind::Stall => "stall",
            Kind::Exclusive => "exclusive",
            Kind::Background => "background",
            Kind::BackgroundBoom => "background_boom",
            Kind::BackgroundStall => "background_stall",
            Kind::HandedOff => "handed_off",
            Kind::Forgotten => "forgotten",
        }
    }

    fn long_running(self) -> bool {
        matches!(
            self,
            Kind::Background
                | Kind::BackgroundBoom
                | Kind::BackgroundStall
                | Kind::HandedOff
                | Kind::Forgotten
        )
    }

    fn outcome(self) -> Outcome {
        match self {
            Kind::Double | Kind::Exclusive | Kind::Background => Outcome::Success,
            Kind::HandedOff => Outcome::Delivered,
            Kind::Fail => Outcome::Failed,
            Kind::Boom | Kind::BackgroundBoom => Outcome::Panicked,
            Kind::Stall | Kind::BackgroundStall => Outcome::TimedOut,
            Kind::Forgotten => Outcome::PendingTimedOut,
        }
    }

    /// The text of a successful result.
    fn success_text(self, n: u64) -> String {
        match self {
            Kind::Double => (n * 2).to_string(),
            Kind::Exclusive => (n * 3).to_string(),
            Kind::Background => (n + 1).to_string(),
            _ => format!("delivered {n}"),
        }
    }
}

/// Counts the observer's events.
#[derive(Default)]
struct Counts {
    started: AtomicUsize,
    finished: AtomicUsize,
    finished_pending: AtomicUsize,
}

/// The observer the registry holds, sharing its counts with the test.
struct Observer(Arc<Counts>);

impl CallObserver for Observer {
    fn call_started(&self, _: &CallStarted<'_>) {
        self.0.started.fetch_add(1, Ordering::Relaxed);
    }

    fn call_finished(&self, event: &CallFinished<'_>) {
        self.0.finished.fetch_add(1, Ordering::Relaxed);
        if event.result.is_pending() {
            self.0.finished_pending.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// How call `n` ended, checked against what its number predicts.
fn classify(n: u64, kind: Kind, id: Option<&str>, result: &ToolResult) -> Result<Outcome, String> {
    let tool = kind.tool();
    let outcome = match result.tool_error() {
        _ if result.is_pending() => return Err(format!("a second pending result: {result:?}")),
        None if !result.is_error() => {
            let text = result.model_text();
            if text != kind.success_text(n) {
                return Err(format!("unexpected success {text:?}"));
            }
            if kind == Kind::HandedOff {
                Outcome::Delivered
            } else {
                Outcome::Success
            }
        }
        Some(ToolError::Execution { tool: t, message })
            if t == tool && *message == format!("failure {n}") =>
        {
            Outcome::Failed
        }
        Some(ToolError::Panicked { tool: t, message })
            if t == tool && *message == format!("boom {n}") =>
        {
            Outcome::Panicked
        }
        Some(ToolError::Timeout { tool: t, after }) if t == tool && *after == TOOL_TIMEOUT => {
            Outcome::TimedOut
        }
        Some(ToolError::PendingTimeout {
            tool: t,
            call_id,
            after,
        }) if t == tool && Some(call_id.as_str()) == id && *after == PENDING_TIMEOUT => {
            Outcome::PendingTimedOut
        }
        _ => return Err(format!("unexpected result {result:?}")),
    };
    if outcome == kind.outcome() {
        Ok(outcome)
    } else {
        Err(format!("{outcome:?} instead of {:?}", kind.outcome()))
    }
}

/// Call `n` after its first result: ended, or pending under an id.
enum Started {
    Ended(Result<Outcome, String>),
    Pending(String),
}

/// Whether the issuing task waits for pending call `n` only after making
/// all its calls (then the result is usually there before anyone waits), or
/// right away (then the wait usually comes first). An undelivered call is
/// always waited for later, so that the pending timeouts of a task's calls
/// run out together instead of one after the other.
fn waits_later(n: u64) -> bool {
    n % 2 == 1 || Kind::of(n) == Kind::Forgotten
}

/// Makes call `n`.
async fn start_call(registry: &ToolRegistry<App>, ctx: &ToolContext<App>, n: u64) -> Started {
    let kind = Kind::of(n);
    let args = json!({"n": n});
    let first = registry.call(ctx, kind.tool(), args.clone()).await;
    if !kind.long_running() {
        return Started::Ended(classify(n, kind, None, &first));
    }
    match first.pending_call_id() {
        Some(id) if id.len() == 32 => Started::Pending(id.to_owned()),
        Some(id) => Started::Ended(Err(format!("pending under the id {id}"))),
        None => Started::Ended(Err(format!("not pending: {first:?}"))),
    }
}

/// Waits for the final result of pending call `n`.
async fn finish_call(registry: &ToolRegistry<App>, n: u64, id: &str) -> Result<Outcome, String> {
    let Some(result) = registry.pending().wait(id).await else {
        return Err(format!("the result of pending call {id} is lost"));
    };
    let outcome = classify(n, Kind::of(n), Some(id), &result);
    // One final result per call: it is gone once taken.
    if let Some(again) = registry.pending().wait(id).await {
        return Err(format!("a second final result: {again:?}"));
    }
    match registry
        .pending()
        .deliver(id, ToolResult::text("late"))
        .await
    {
        Err(DeliveryError::UnknownCall { .. }) => outcome,
        other => Err(format!("a delivery after the end gave {other:?}")),
    }
}

/// A call's number, and how it ended: its outcome, or what went wrong.
type Ended = (u64, Result<Outcome, String>);

/// Makes calls `first..first + CALLS_PER_TASK` one after the other, waits
/// for the pending ones, and says how each ended.
async fn issue(registry: Arc<ToolRegistry<App>>, ctx: ToolContext<App>, first: u64) -> Vec<Ended> {
    let mut ended = Vec::with_capacity(CALLS_PER_TASK as usize);
    let mut later = Vec::new();
    for n in first..first + CALLS_PER_TASK {
        match start_call(&registry, &ctx, n).await {
            Started::Ended(end) => ended.push((n, end)),
            Started::Pending(id) if waits_later(n) => later.push((n, id)),
            Started::Pending(id) => ended.push((n, finish_call(&registry, n, &id).await)),
        }
    }
    for (n, id) in later {
        ended.push((n, finish_call(&registry, n, &id).await));
    }
    ended
}

/// Delivers the result of every handed-off call; returns how many it
/// delivered, the longest hand-off-to-delivery time, and what went wrong.
async fn deliver_all(
    registry: Arc<ToolRegistry<App>>,
    mut jobs: mpsc::UnboundedReceiver<Job>,
) -> (usize, Duration, Vec<String>) {
    let mut delivered = 0;
    let mut slowest = Duration::ZERO;
    let mut problems = Vec::new();
    while let Some((id, n, handed_off)) = jobs.recv().await {
        slowest = slowest.max(handed_off.elapsed());
        match registry
            .pending()
            .deliver(&id, ToolResult::text(format!("delivered {n}")))
            .await
        {
            Ok(()) => delivered += 1,
            Err(error) => problems.push(format!("delivering call {n}: {error}")),
        }
        if let Ok(()) = registry
            .pending()
            .deliver(&id, ToolResult::text("twice"))
            .await
        {
            problems.push(format!("call {n} took a second delivery"));
        }
    }
    (delivered, slowest, problems)
}

/// The run, under the deadline.
async fn run() -> Vec<String> {
    let (jobs, job_queue) = mpsc::unbounded_channel();
    let ctx = ToolContext::new(App {
        jobs,
        exclusive_running: AtomicUsize::new(0),
    });
    let counts = Arc::new(Counts::default());
    let registry = Arc::new(
        ToolRegistry::<App>::builder()
            .with(Double)
            .with(Fail)
            .with(Boom)
            .with(Stall)
            .with(Exclusive)
            .with(Background)
            .with(BackgroundBoom)
            .with(BackgroundStall)
            .with(HandedOff)
            .with(Forgotten)
            .approval(ApproveAll)
            .observer(Observer(Arc::clone(&counts)))
            .pending_timeout(PENDING_TIMEOUT)
            .build(),
    );
    let deliverer = tokio::spawn(deliver_all(Arc::clone(&registry), job_queue));

    // Task `t` makes calls 100 t to 100 t + 99: five rounds of the mix.
    let tasks: Vec<_> = (0..TASKS)
        .map(|t| {
            let first = t * CALLS_PER_TASK;
            tokio::spawn(issue(Arc::clone(&registry), ctx.clone(), first))
        })
        .collect();
    drop(ctx);

    let mut problems = Vec::new();
    let ends = collect_ends(tasks, &mut problems).await;
    check_deliveries(deliverer.await, &mut problems);
    check_outcomes(&ends, &mut problems);
    check_observer(&registry, &counts, &mut problems);
    problems
}

/// Each call's outcome, by call number, from the issuing tasks; a call that
/// ended twice, or not as expected, is a problem.
async fn collect_ends(
    tasks: Vec<tokio::task::JoinHandle<Vec<Ended>>>,
    problems: &mut Vec<String>,
) -> Vec<Option<Outcome>> {
    let mut ends: Vec<Option<Outcome>> = vec![None; TOTAL as usize];
    for task in tasks {
        let ended = match task.await {
            Ok(ended) => ended,
            Err(error) => {
                problems.push(format!("an issuing task failed: {error}"));
                continue;
            }
        };
        for (n, end) in ended {
            match end {
                Ok(outcome) => match &mut ends[n as usize] {
                    Some(_) => problems.push(format!("call {n} ended twice")),
                    slot => *slot = Some(outcome),
                },
                Err(problem) => problems.push(format!("call {n} ({:?}): {problem}", Kind::of(n))),
            }
        }
    }
    ends
}

/// The deliverer's count against the handed-off calls of the mix.
fn check_deliveries(
    deliverer: Result<(usize, Duration, Vec<String>), tokio::task::JoinError>,
    problems: &mut Vec<String>,
) {
    // The deliverer stops once every context, the background calls' too, is
    // gone.
    match deliverer {
        Ok((delivered, slowest, trouble)) => {
            let expected = (0..TOTAL)
                .filter(|&n| Kind::of(n) == Kind::HandedOff)
                .count();
            if delivered != expected {
                problems.push(format!("{delivered} deliveries, {expected} expected"));
            }
            problems.extend(trouble);
            eprintln!("slowest delivery: {slowest:?} after the hand-off");
        }
        Err(error) => problems.push(format!("the deliverer failed: {error}")),
    }
}

/// Every call ended once, and the outcomes add up to the mix.
fn check_outcomes(ends: &[Option<Outcome>], problems: &mut Vec<String>) {
    let missing = ends.iter().filter(|end| end.is_none()).count();
    if missing > 0 {
        problems.push(format!("{missing} calls have no final result"));
    }
    let mut expected: BTreeMap<Outcome, usize> = BTreeMap::new();
    for n in 0..TOTAL {
        *expected.entry(Kind::of(n).outcome()).or_default() += 1;
    }
    let mut actual: BTreeMap<Outcome, usize> = BTreeMap::new();
    for outcome in ends.iter().flatten() {
        *actual.entry(*outcome).or_default() += 1;
    }
    let sum: usize = actual.values().sum();
    if sum as u64 != TOTAL || actual != expected {
        problems.push(format!(
            "outcomes {actual:?} (sum {sum}), expected {expected:?} (sum {TOTAL})"
        ));
    }
    eprintln!("outcomes: {actual:?}");
}

/// Nothing left pending, and the observer saw every start and finish.
fn check_observer(registry: &ToolRegistry<App>, counts: &Counts, problems: &mut Vec<String>) {
    let pending = registry.pending().ids();
    if !pending.is_empty() {
        problems.push(format!("{} calls still pending at the end", pending.len()));
    }
    let long_running = (0..TOTAL).filter(|&n| Kind::of(n).long_running()).count();
    let started = counts.started.load(Ordering::Relaxed);
    let finished = counts.finished.load(Ordering::Relaxed);
    let finished_pending = counts.finished_pending.load(Ordering::Relaxed);
    if (started, finished, finished_pending)
        != (TOTAL as usize, TOTAL as usize + long_running, long_running)
    {
        problems.push(format!(
            "observer: {started} started, {finished} finished ({finished_pending} pending); \
             expected {TOTAL}, {} ({long_running})",
            TOTAL as usize + long_running
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_thousand_calls_end_exactly_once() {
    // Thousands of tools panic on purpose: keep those quiet, and report any
    // other panic as usual.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let expected = info
            .payload()
            .downcast_ref::<String>()
            .is_some_and(|message| message.starts_with("boom "));
        if !expected {
            report(info);
        }
    }));

    let start = Instant::now();
    let problems = tokio::time::timeout(DEADLINE, run())
        .await
        .unwrap_or_else(|_| panic!("not finished within {DEADLINE:?}: a deadlock?"));
    eprintln!("{TOTAL} calls in {:?}", start.elapsed());
    assert!(
        problems.is_empty(),
        "{} problems, the first ones:\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
}
