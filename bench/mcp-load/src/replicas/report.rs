//! The `--replicas` table, as markdown: medians over the rounds with
//! (min–max), the ratios to `memory ×1` taken per round, Redis's commands
//! by name, and what the rows measure on this machine.

use std::fmt::Write as _;

use super::{Row, Sample, TOOLS};
use crate::{Options, median, spread};

/// The markers of the generated part of BENCHMARKS.md's section.
pub(crate) const START: &str = "<!-- mcp-replicas-table:start -->";
pub(crate) const END: &str = "<!-- mcp-replicas-table:end -->";

/// The section the table goes in when BENCHMARKS.md has no markers yet.
pub(crate) const HEADING: &str = "MCP across replicas (`bench/mcp-load --replicas`)";

/// `samples[row][tool]`, one per round.
pub(crate) fn report(options: &Options, samples: &[[Vec<Sample>; 2]]) -> String {
    let mut out = String::new();
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let _ = writeln!(
        out,
        "{} timed `tools/call`s a run for each tool, after {} warm-up calls of it, from {} \
         clients with one call in flight each; client `c`'s `j`-th call goes to replica \
         `(c + j) mod n`, no proxy; every answer checked. Replicas are `tool-mcp-server \
         --stateless` processes (no HTTP sessions), on one Redis for the rows on Redis (the \
         registry's calls and the server's tasks in one `RedisStore`). {} rounds, each with a \
         fresh `redis-server` started empty (`--save \"\" --appendonly no`), the rows' order \
         rotated by one and the tools' reversed every other round. Medians over the rounds, \
         (min–max), n = {}. Latency as the client sees it, nearest rank; CPU from \
         `/proc/PID/task/*/schedstat`, summed over the replicas; Redis's from `INFO cpu` \
         (`used_cpu_sys` + `used_cpu_user`) and its commands from `INFO commandstats` (the \
         commands a script runs are counted as well as its `EVALSHA`), over the timed calls.\n",
        options.calls, options.warmup, options.clients, options.rounds, options.rounds,
    );
    let _ = writeln!(
        out,
        "| store | replicas | tool | calls/s | p50 ms | p99 ms | replicas' CPU µs/call | Redis \
         CPU µs/call | Redis commands/call |\n|---|---:|---|---:|---:|---:|---:|---:|---:|"
    );
    for (row, runs) in Row::ALL.iter().zip(samples) {
        for (tool, runs) in TOOLS.iter().zip(runs) {
            let column = |f: &dyn Fn(&Sample) -> Option<f64>, decimals| {
                spread(&runs.iter().filter_map(f).collect::<Vec<_>>(), decimals)
            };
            let redis = |f: fn(&crate::redis::RedisUse) -> f64, decimals| {
                if row.redis {
                    column(&|s| s.redis.as_ref().map(f), decimals)
                } else {
                    "–".to_owned()
                }
            };
            let _ = writeln!(
                out,
                "| {} | {} | `{tool}` | {} | {} | {} | {} | {} | {} |",
                row.store(),
                row.replicas,
                column(&|s| Some(s.calls_per_s), 0),
                column(&|s| Some(s.p50_ms), 2),
                column(&|s| Some(s.p99_ms), 2),
                column(&|s| s.cpu_us, 0),
                redis(|r| r.cpu_us, 0),
                redis(|r| r.commands, 2),
            );
        }
    }

    let _ = writeln!(
        out,
        "\n| ÷ memory ×1, same tool, same round | calls/s | p99 | replicas' CPU/call | \
         replicas' + Redis CPU/call |\n|---|---:|---:|---:|---:|"
    );
    let base = &samples[0];
    for (row, runs) in Row::ALL.iter().zip(samples).skip(1) {
        for (t, tool) in TOOLS.iter().enumerate() {
            let paired = |f: &dyn Fn(&Sample) -> Option<f64>| -> String {
                let ratios: Vec<f64> = runs[t]
                    .iter()
                    .zip(&base[t])
                    .filter_map(|(ours, memory)| Some(f(ours)? / f(memory)?))
                    .collect();
                spread(&ratios, 2)
            };
            let total = |s: &Sample| Some(s.cpu_us? + s.redis.as_ref().map_or(0.0, |r| r.cpu_us));
            let _ = writeln!(
                out,
                "| {}, `{tool}` | {} | {} | {} | {} |",
                row.name(),
                paired(&|s| Some(s.calls_per_s)),
                paired(&|s| Some(s.p99_ms)),
                paired(&|s| s.cpu_us),
                paired(&total),
            );
        }
    }

    let _ = writeln!(
        out,
        "\nRedis's commands per call, by name (median over the rounds; a script's own \
         commands counted under their names too):\n"
    );
    for (row, runs) in Row::ALL.iter().zip(samples) {
        if !row.redis {
            continue;
        }
        for (tool, runs) in TOOLS.iter().zip(runs) {
            let _ = writeln!(out, "- {}, `{tool}`: {}", row.name(), by_name(runs));
        }
    }

    let _ = writeln!(
        out,
        "\nOn this machine every replica, Redis and the loader share the same {cores} cores: \
         a second or third replica adds no core to serve with, only processes taking turns on \
         them. So the rows measure what sharing a store and spreading the requests over \
         processes cost, not scaling, and no speed-up from replicas is claimed here."
    );
    let _ = writeln!(
        out,
        "\nMachine: {cores} cores ({}), shared with other work, {}. Command: `(cd bench/mcp-load \
         && cargo run --release -- {})`, at `{}`, {}.",
        crate::cpu_model(),
        crate::output("rustc", &["--version"]),
        options.args.join(" "),
        crate::output("git", &["rev-parse", "--short", "HEAD"]),
        crate::output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    );
    out
}

/// `name median, ...` of the commands per call over `runs`, most first;
/// a command a round did not run counts 0 in it.
fn by_name(runs: &[Sample]) -> String {
    let mut names: Vec<&str> = runs
        .iter()
        .filter_map(|s| s.redis.as_ref())
        .flat_map(|r| r.by_name.iter().map(|(name, _)| name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut medians: Vec<(&str, f64)> = names
        .into_iter()
        .map(|name| {
            let values: Vec<f64> = runs
                .iter()
                .filter_map(|s| s.redis.as_ref())
                .map(|r| {
                    r.by_name
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or(0.0, |(_, per_call)| *per_call)
                })
                .collect();
            (name, median(&values))
        })
        .filter(|(_, per_call)| *per_call >= 0.005)
        .collect();
    medians.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    if medians.is_empty() {
        return "none".into();
    }
    medians
        .iter()
        .map(|(name, per_call)| format!("{name} {per_call:.2}"))
        .collect::<Vec<_>>()
        .join(", ")
}
