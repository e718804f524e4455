//! The measurements, the markdown report made of them, and its place in
//! BENCHMARKS.md.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use crate::run::{Clock, Way};
use crate::shapes::Shape;

const START_MARKER: &str = "<!-- peers-table:start -->";
const END_MARKER: &str = "<!-- peers-table:end -->";
include!("../../report.rs");

/// The targets, for tool-core with validation on and string arguments.
const MAX_OF_RMCP: f64 = 0.8;
const MAX_OF_RAW: f64 = 2.5;
const MAX_MEAN_OF_RMCP: f64 = 0.6;
/// The target for tool-core given the arguments as a `Value`.
const MAX_VALUE_OF_RMCP: f64 = 0.6;

/// Per variant, one entry a counted round: its pair's ratio (variant ÷
/// raw) and its ns a call; per shape (under `Way::Raw`), the raw blocks' ns.
pub struct Results {
    rounds: usize,
    calls: u32,
    clock: Clock,
    ratios: HashMap<(Shape, Way), Vec<f64>>,
    ns: HashMap<(Shape, Way), Vec<f64>>,
}

impl Results {
    pub fn new(rounds: usize, calls: u32, clock: Clock) -> Self {
        Results {
            rounds,
            calls,
            clock,
            ratios: HashMap::new(),
            ns: HashMap::new(),
        }
    }

    /// A pair: `way`'s block took `t`, the raw block beside it `raw`.
    pub fn add(&mut self, shape: Shape, way: Way, t: Duration, raw: Duration) {
        let per_call = |d: Duration| d.as_secs_f64() * 1e9 / f64::from(self.calls);
        let (t_ns, raw_ns) = (per_call(t), per_call(raw));
        let ratio = t.as_secs_f64() / raw.as_secs_f64();
        self.ratios.entry((shape, way)).or_default().push(ratio);
        self.ns.entry((shape, way)).or_default().push(t_ns);
        self.ns.entry((shape, Way::Raw)).or_default().push(raw_ns);
    }

    fn ratios(&self, shape: Shape, way: Way) -> &[f64] {
        self.ratios.get(&(shape, way)).map_or(&[], Vec::as_slice)
    }

    fn ns(&self, shape: Shape, way: Way) -> f64 {
        median(self.ns.get(&(shape, way)).map_or(&[], Vec::as_slice))
    }

    /// Per round, `a`'s ratio divided by `b`'s (both ÷ the same shape's raw).
    fn quotient(&self, shape: Shape, a: Way, b: Way) -> Vec<f64> {
        let (a, b) = (self.ratios(shape, a), self.ratios(shape, b));
        a.iter().zip(b).map(|(a, b)| a / b).collect()
    }

    /// Per round, the geometric mean across every shape of `per_shape`.
    fn geometric_mean(&self, per_shape: impl Fn(Shape) -> Vec<f64>) -> Vec<f64> {
        let all: Vec<Vec<f64>> = Shape::ALL.iter().map(|&s| per_shape(s)).collect();
        (0..self.rounds)
            .map(|r| {
                let logs: f64 = all.iter().map(|v| v[r].ln()).sum();
                (logs / all.len() as f64).exp()
            })
            .collect()
    }
}

/// What the summary shows per shape: tool-core (validation on, string)
/// ÷ rmcp, ÷ raw, and ÷ itself given a `Value`; validation off ÷ rmcp;
/// tool-core given the parsed `Value` ÷ rmcp given the parsed object, the
/// parse in the time of both, then out of it.
fn summary_columns(results: &Results, shape: Shape) -> [Vec<f64>; 6] {
    [
        results.quotient(shape, Way::TcString, Way::Rmcp),
        results.ratios(shape, Way::TcString).to_vec(),
        results.quotient(shape, Way::TcString, Way::TcValue),
        results.quotient(shape, Way::TcNoValidation, Way::Rmcp),
        results.quotient(shape, Way::TcValue, Way::Rmcp),
        results.quotient(shape, Way::TcHeld, Way::RmcpHeld),
    ]
}

fn summary(out: &mut String, results: &Results) {
    let _ = writeln!(
        out,
        "| shape | tool-core ÷ rmcp | tool-core ÷ raw | string ÷ `Value` | validation off ÷ rmcp | `Value` ÷ rmcp, parse timed | held `Value` ÷ rmcp held |\n\
         |---|---:|---:|---:|---:|---:|---:|"
    );
    for shape in Shape::ALL {
        let [rmcp, raw, value, off, value_rmcp, held] = summary_columns(results, shape);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            shape.label(),
            spread(&rmcp, 3),
            spread(&raw, 2),
            spread(&value, 3),
            spread(&off, 3),
            spread(&value_rmcp, 3),
            spread(&held, 3)
        );
    }
    let mean =
        |column: usize| results.geometric_mean(|s| summary_columns(results, s)[column].clone());
    let _ = writeln!(
        out,
        "| geometric mean of the {} shapes | {} | {} | {} | {} | {} | {} |",
        Shape::ALL.len(),
        spread(&mean(0), 3),
        spread(&mean(1), 2),
        spread(&mean(2), 3),
        spread(&mean(3), 3),
        spread(&mean(4), 3),
        spread(&mean(5), 3)
    );
    let _ = writeln!(out, "\n{}", verdict(results, median(&mean(0))));
}

/// Whether the medians meet the targets, and which shapes do not.
fn verdict(results: &Results, mean_of_rmcp: f64) -> String {
    let over = |test: &dyn Fn(Shape) -> bool| -> String {
        let names: Vec<&str> = Shape::ALL
            .into_iter()
            .filter(|&s| !test(s))
            .map(Shape::name)
            .collect();
        if names.is_empty() {
            "met".into()
        } else {
            format!("**not met** ({})", names.join(", "))
        }
    };
    let of_rmcp = over(&|s| median(&results.quotient(s, Way::TcString, Way::Rmcp)) <= MAX_OF_RMCP);
    let of_raw = over(&|s| median(results.ratios(s, Way::TcString)) <= MAX_OF_RAW);
    let value = over(&|s| median(&results.quotient(s, Way::TcString, Way::TcValue)) <= 1.0);
    let mean = if mean_of_rmcp <= MAX_MEAN_OF_RMCP {
        "met"
    } else {
        "**not met**"
    };
    let held = over(&|s| median(&results.quotient(s, Way::TcHeld, Way::RmcpHeld)) <= MAX_VALUE_OF_RMCP);
    let parsed = over(&|s| median(&results.quotient(s, Way::TcValue, Way::Rmcp)) <= MAX_VALUE_OF_RMCP);
    format!(
        "Targets, tool-core with validation on and string arguments, on the medians: \
         every shape at most {MAX_OF_RMCP}x rmcp: {of_rmcp}; at most {MAX_OF_RAW}x raw: {of_raw}; \
         geometric mean at most {MAX_MEAN_OF_RMCP}x rmcp: {mean}; no shape slower with the \
         string than with a `Value` (string ÷ `Value` at most 1): {value}. Given a `Value`, \
         every shape at most {MAX_VALUE_OF_RMCP}x rmcp: held (the parse out of both times): \
         {held}; the parse in both times: {parsed}."
    )
}

/// Per shape, each variant's median ns a call and median ratio to raw.
fn per_call(out: &mut String, results: &Results) {
    let ways = [
        Way::TcString,
        Way::TcValue,
        Way::TcNoValidation,
        Way::Rmcp,
        Way::TcHeld,
        Way::RmcpHeld,
    ];
    let _ = write!(out, "| ns/call (× raw) | raw |");
    for way in ways {
        let _ = write!(out, " {} |", way.label());
    }
    let _ = writeln!(out, "\n|---|---:|{}", "---:|".repeat(ways.len()));
    for shape in Shape::ALL {
        let _ = write!(
            out,
            "| `{}` | {:.0} |",
            shape.name(),
            results.ns(shape, Way::Raw)
        );
        for way in ways {
            let ratio = median(results.ratios(shape, way));
            let _ = write!(out, " {:.0} ({ratio:.2}) |", results.ns(shape, way));
        }
        let _ = writeln!(out);
    }
}

/// `add_note` through every way, rig and the `async fn` twins included,
/// and tool-core against each peer per round.
fn note(out: &mut String, results: &Results) {
    let n = Shape::Note;
    let _ = writeln!(
        out,
        "| `add_note` | × raw, median (min–max) | n | ns/call |\n|---|---:|---:|---:|\n\
         | {} | 1.00 | {} | {:.0} |",
        Way::Raw.label(),
        results.ns.get(&(n, Way::Raw)).map_or(0, Vec::len),
        results.ns(n, Way::Raw)
    );
    for way in Way::EVERY_SHAPE.into_iter().chain(Way::NOTE_ONLY) {
        let ratios = results.ratios(n, way);
        let (spread, len, ns) = (spread(ratios, 2), ratios.len(), results.ns(n, way));
        let _ = writeln!(out, "| {} | {spread} | {len} | {ns:.0} |", way.label());
    }
    let pairs = [
        ("validation off ÷ rmcp", Way::TcNoValidation, Way::Rmcp),
        ("validation on ÷ rmcp", Way::TcString, Way::Rmcp),
        ("`async fn` ÷ rmcp `async fn`", Way::TcAsync, Way::RmcpAsync),
        ("validation off ÷ rig", Way::TcNoValidation, Way::Rig),
        ("validation on ÷ rig", Way::TcString, Way::Rig),
        ("`async fn` ÷ rig `async fn`", Way::TcAsync, Way::RigAsync),
    ];
    let _ = writeln!(
        out,
        "\n| `add_note`, tool-core ÷ peer, per round | median (min–max) | n |\n|---|---:|---:|"
    );
    for (label, ours, peer) in pairs {
        let q = results.quotient(n, ours, peer);
        let _ = writeln!(out, "| {label} | {} | {} |", spread(&q, 3), q.len());
    }
}

/// The whole report, as markdown; `args` are the command line's.
pub fn render(results: &Results, args: &[String]) -> String {
    let (rounds, calls) = (results.rounds, results.calls);
    let clock = match results.clock {
        Clock::Wall => "the wall clock (`--clock wall`)",
        Clock::Thread => "the CPU time of the thread that runs the calls",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Six tools of different shapes among 100 in each framework, their arguments as a JSON \
         string, their result's text out; {rounds} rounds (after one warm-up round) of blocks \
         of {calls} calls, each variant's block timed next to a block of its shape's raw \
         baseline (`serde_json::from_str::<Args>` and the body), the order alternating, \
         timed by {clock}. \
         tool-core is validation on with the string (`Value::String`) unless said otherwise. \
         Each cell: the median over rounds (min–max) of that round's ratio; a ratio of two \
         variants is the quotient of their ratios to raw in the same round. \
         `bench/peers/README.md` says what each variant does per call.\n"
    );
    summary(&mut out, results);
    out.push('\n');
    per_call(&mut out, results);
    out.push('\n');
    note(&mut out, results);
    let command = std::iter::once("cargo run --release --")
        .chain(args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let _ = writeln!(
        out,
        "\nMachine: {} cores ({}), {}. Command: `(cd bench/peers && {})`, at `{}`, {}.",
        std::thread::available_parallelism().map_or(0, usize::from),
        cpu_model(),
        output("rustc", &["--version"]),
        command.trim_end_matches(" --"),
        output("git", &["rev-parse", "--short", "HEAD"]),
        output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    );
    out
}

/// Puts the report in BENCHMARKS.md between the markers.
pub fn write(out: &str) {
    write_benchmarks(
        START_MARKER,
        END_MARKER,
        "Dispatch beside rmcp and rig",
        out,
    )
    .expect("BENCHMARKS.md written");
    eprintln!("written to BENCHMARKS.md between {START_MARKER} and {END_MARKER}");
}
