//! What a registry call costs over a direct call, in instructions (and a
//! call through a `RegistryHandle`, for a registry that may change): each
//! variant runs under `valgrind --tool=callgrind`, which counts the
//! instructions executed. Unlike time on a shared machine, the count is the
//! same from run to run, so the ratios can be compared across changes.
//!
//! Run with `cargo bench --bench instructions` (needs valgrind; without it
//! the benchmark says so and does nothing).

mod support;

use std::hint::black_box;
use std::process::Command;

use tool_core::registry::Validation;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry};

use support::{AddNote, EXPECTED, arguments, direct};

/// Calls per measured run.
const CALLS: u32 = 20_000;

/// The variants, as the child process takes them.
const VARIANTS: [&str; 4] = [
    "baseline",
    "registry_no_validation",
    "registry_validation",
    "handle_no_validation",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [mode, variant, calls] if mode == "run" => run(variant, calls.parse().expect("a count")),
        _ => measure(),
    }
}

/// The child: `calls` calls of one variant.
fn run(variant: &str, calls: u32) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let ctx = ToolContext::new(());
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(AddNote)
        .validation(if variant == "registry_validation" {
            Validation::Auto
        } else {
            Validation::Off
        })
        .build();
    // The same registry behind a handle, as one that may change.
    let handle = RegistryHandle::new(registry);
    let registry = handle.current();
    let args = arguments();
    // Each variant's loop of its own: no test of the variant per call.
    runtime.block_on(async {
        match variant {
            "baseline" => {
                for _ in 0..calls {
                    black_box(direct(black_box(&args).clone()));
                }
            }
            "handle_no_validation" => {
                for _ in 0..calls {
                    let result = handle
                        .call(&ctx, "add_note", black_box(&args).clone())
                        .await;
                    assert_eq!(result.as_text(), Some(EXPECTED));
                    black_box(result);
                }
            }
            _ => {
                for _ in 0..calls {
                    let result = registry
                        .call(&ctx, "add_note", black_box(&args).clone())
                        .await;
                    assert_eq!(result.as_text(), Some(EXPECTED));
                    black_box(result);
                }
            }
        }
    });
}

/// The parent: every variant under callgrind, with and without the calls,
/// so that start-up (building the runtime and the registry) cancels out.
fn measure() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("instructions: valgrind is not installed; nothing measured");
        return;
    }
    let me = std::env::current_exe().expect("the benchmark's own path");
    let count = |variant: &str, calls: u32| -> u64 {
        let output = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&me)
            .args(["run", variant, &calls.to_string()])
            .output()
            .expect("valgrind runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{variant}: {stderr}");
        stderr
            .lines()
            .find_map(|line| line.split("Collected : ").nth(1))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no instruction count in:\n{stderr}"))
    };
    let per_call: Vec<(&str, f64)> = VARIANTS
        .iter()
        .map(|variant| {
            let total = count(variant, CALLS);
            let start_up = count(variant, 0);
            (*variant, (total - start_up) as f64 / f64::from(CALLS))
        })
        .collect();
    let baseline = per_call[0].1;
    println!("instructions per call ({CALLS} calls, callgrind):");
    for (variant, instructions) in per_call {
        println!(
            "  {variant:<24} {instructions:>8.0}  {:.2}x",
            instructions / baseline
        );
    }
}
