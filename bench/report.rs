// What the benchmarks under bench/ that write a table into BENCHMARKS.md
// share: medians and spreads, the machine, and the write between markers.
// Included (`include!`) by bench/peers and bench/mcp-load, which are cargo
// workspaces of their own.

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// `median (min–max)` with `decimals` decimals.
fn spread(values: &[f64], decimals: usize) -> String {
    if values.is_empty() {
        return "n/a".into();
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!(
        "{:.decimals$} ({lo:.decimals$}–{hi:.decimals$})",
        median(values)
    )
}

/// The output of a command run in the benchmark's directory, trimmed;
/// empty if it fails.
fn output(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Replaces the part of BENCHMARKS.md between `start` and `end` with
/// `text`, or appends it as a section under `heading`.
fn write_benchmarks(start: &str, end: &str, heading: &str, text: &str) -> std::io::Result<()> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../BENCHMARKS.md");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    let block = format!("{start}\n{}\n{end}", text.trim());
    let updated = match (current.find(start), current.find(end)) {
        (Some(at), Some(to)) if to > at => {
            format!("{}{block}{}", &current[..at], &current[to + end.len()..])
        }
        _ => format!(
            "{}\n\n## {heading}\n\n{block}\n",
            current.trim_end_matches('\n')
        ),
    };
    std::fs::write(path, updated)
}
