//! What the benchmarks that write their own table in BENCHMARKS.md share:
//! the machine, as every table says it, what a command prints (the commit
//! and the date a table says), and the table put between its markers.

use std::path::Path;

/// The median of the rounds' figures.
pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The machine: its cores, its CPU and the compiler.
pub(crate) fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| {
            Some(
                line.strip_prefix("model name")?
                    .split_once(':')?
                    .1
                    .trim()
                    .to_owned(),
            )
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let rustc = shell("rustc", &["--version"]);
    format!("Machine: {cores} cores ({model}), {rustc}.")
}

/// What a command prints, trimmed; empty if it cannot run.
pub(crate) fn shell(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Puts `table` between `<!-- marker:start -->` and `<!-- marker:end -->`
/// in `benchmarks` (BENCHMARKS.md).
pub(crate) fn write_table(benchmarks: &Path, marker: &str, table: &str) {
    let text = std::fs::read_to_string(benchmarks).expect("BENCHMARKS.md");
    let (start, end) = (
        format!("<!-- {marker}:start -->"),
        format!("<!-- {marker}:end -->"),
    );
    let (Some(from), Some(to)) = (text.find(&start), text.find(&end)) else {
        panic!("BENCHMARKS.md has no {start} ... {end}");
    };
    let written = format!("{}{start}\n{table}\n{}", &text[..from], &text[to..]);
    std::fs::write(benchmarks, written).expect("BENCHMARKS.md written");
    println!("written into BENCHMARKS.md between {start} and {end}");
}
