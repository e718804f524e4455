//! Crates outside this workspace that depend on tool-core by path, built
//! with cargo the way their authors would build them.
//!
//! They are not workspace members for two reasons. Cargo unifies features
//! across a workspace: the root package uses tool-core with its default
//! `schemars` feature, so a member asking for `default-features = false`
//! would get schemars anyway and could not show what happens without it. And
//! a newcomer's crate is outside any workspace: it reaches tool-core only
//! through its public API and its own dependencies, which is what the README
//! example has to work with.
//!
//! Each fixture under `tests/outside/` has an empty `[workspace]` table, so
//! that cargo does not take it for a member of this workspace, and its own
//! `Cargo.lock`. They share one target directory under this workspace's, so
//! only the first run compiles their dependencies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

/// The message of `__tool_derive_json_schema` with schemars off.
const NEEDS_SCHEMA: &str = "this tool needs a schema: tool-core's `schemars` feature is off, so write one with `#[tool(schema = ...)]` or turn the feature on";

/// The README example: descriptions from doc comments, an optional
/// parameter, a call through the registry.
#[test]
fn readme_example_runs_outside_the_workspace() {
    let (run, definition, text) = definition_and_text("readme-crate");

    assert_eq!(definition["name"], "get_weather", "{run}");
    assert_eq!(
        definition["description"], "Get the current weather for a city.",
        "{run}"
    );
    let properties = &definition["input_schema"]["properties"];
    assert_eq!(
        properties["city"]["description"], "City name, e.g. \"Paris\".",
        "{run}"
    );
    assert_eq!(
        properties["days"]["description"], "Number of days to forecast.",
        "{run}"
    );
    let required = definition["input_schema"]["required"]
        .as_array()
        .unwrap_or_else(|| panic!("`input_schema.required` is not an array\n{run}"));
    assert!(
        required.contains(&Value::from("city")),
        "`city` is not required\n{run}"
    );
    assert!(
        !required.contains(&Value::from("days")),
        "`days` is an `Option` but required\n{run}"
    );

    assert_eq!(text, "sunny in Paris for 1 days", "{run}");
}

/// A parameter whose type is a qualified path, `<Metric as Units>::Value`:
/// the expansion compiles without warnings outside the workspace, derives the
/// parameter's schema and passes the argument through.
#[test]
fn qualified_path_parameter_runs_outside_the_workspace() {
    let (run, definition, text) = definition_and_text("qualified-path");

    assert_eq!(definition["name"], "convert", "{run}");
    let amount = &definition["input_schema"]["properties"]["amount"];
    assert_eq!(amount["type"], "number", "{run}");
    assert_eq!(
        amount["description"], "The distance in kilometres.",
        "{run}"
    );

    assert_eq!(text, "1500.0", "{run}");
}

/// With schemars off, a tool that writes its schema by hand compiles.
#[test]
fn hand_written_schema_compiles_without_schemars() {
    let check = cargo("no-schemars", &["check", "--quiet"]);
    assert!(
        check.output.status.success(),
        "`cargo check` failed\n{check}"
    );
    assert_no_warnings(&check);
}

/// With schemars off, a tool that leaves its schema to be derived is one
/// error that says what to do, not a cascade of unresolved `JsonSchema`s.
#[test]
fn derived_schema_without_schemars_is_one_error() {
    let check = cargo(
        "no-schemars",
        &["check", "--quiet", "--features", "derived"],
    );
    assert!(
        !check.output.status.success(),
        "`cargo check --features derived` succeeded without schemars\n{check}"
    );
    let stderr = String::from_utf8_lossy(&check.output.stderr);
    assert!(
        stderr.contains(NEEDS_SCHEMA),
        "the error does not say the tool needs a schema\n{check}"
    );
    let errors = stderr
        .lines()
        .filter(|line| line.starts_with("error") && !line.starts_with("error: could not compile"))
        .count();
    assert_eq!(errors, 1, "expected exactly one error\n{check}");
}

/// A provider tool-core does not ship, its `Family` implemented outside
/// the crate: its definitions, calls, turn and errors come through the same
/// entry points as the shipped providers', in its own shapes and the
/// registry's words.
#[test]
fn a_family_of_ones_own_runs_a_turn_outside_the_workspace() {
    let run = cargo("own-provider", &["run", "--quiet"]);
    assert!(run.output.status.success(), "`cargo run` failed\n{run}");
    assert_no_warnings(&run);
    let stdout = String::from_utf8_lossy(&run.output.stdout).into_owned();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("a line is not JSON: {error}\n{run}"))
        })
        .collect();
    let [
        definitions,
        calls,
        reply,
        text,
        wrong,
        not_parrots,
        choice,
        name,
        stream,
    ] = &lines[..]
    else {
        panic!("expected nine lines\n{run}");
    };

    let [definition] = definitions
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    else {
        panic!("expected one definition\n{run}");
    };
    assert_eq!(definition["tool"], "add", "{run}");
    assert_eq!(definition["about"], "Add two numbers.", "{run}");
    assert_eq!(definition["takes"]["required"], json!(["a", "b"]), "{run}");
    assert_eq!(
        definition["takes"]["properties"]["a"],
        json!({"type": "integer", "format": "int64", "description": "The first."}),
        "{run}"
    );

    assert_eq!(
        *calls,
        json!([["r1", "add", {"a": 2, "b": 3}], ["r2", "add", {"a": 40, "b": 2}]]),
        "{run}"
    );
    assert_eq!(
        *reply,
        json!([{"role": "results", "items": [{"ref": "r1", "ok": "5"}, {"ref": "r2", "ok": "42"}]}]),
        "{run}"
    );
    assert_eq!(*text, json!("Adding."), "{run}");
    assert_eq!(
        *wrong,
        json!([{"role": "results", "items": [
            {"ref": "r3", "failed": "unknown tool `subtract`. Available tools: `add`."},
            {"ref": "r4", "failed": "invalid arguments for tool `add`: missing argument `b`; argument `a` at `/a`: expected an integer, got a string `two`. Correct the arguments and call the tool again."}
        ]}]),
        "{run}"
    );
    assert_eq!(
        *not_parrots,
        json!("cannot read the tool calls of this Parrot reply: `actions` is not an array"),
        "{run}"
    );
    assert_eq!(
        *choice,
        json!("Parrot takes no such tool choice: a parrot says what it likes"),
        "{run}"
    );
    assert_eq!(
        *name,
        json!("tool name `add2` is rejected by Parrot: Parrot cannot say digits"),
        "{run}"
    );
    assert_eq!(
        *stream,
        json!(
            "the parrot stream could not be read at byte 0: parrot does not stream its responses"
        ),
        "{run}"
    );
}

/// `cargo run` of a crate that prints a tool's definition, then the text of
/// a call: the run (built without warnings), the definition and the text.
fn definition_and_text(dir: &str) -> (Run, Value, String) {
    let run = cargo(dir, &["run", "--quiet"]);
    assert!(run.output.status.success(), "`cargo run` failed\n{run}");
    assert_no_warnings(&run);
    let stdout = String::from_utf8_lossy(&run.output.stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    let [definition, text] = lines[..] else {
        panic!("expected two lines, a definition and a call's text\n{run}");
    };
    let definition: Value = serde_json::from_str(definition)
        .unwrap_or_else(|error| panic!("the first line is not JSON: {error}\n{run}"));
    let text = text.to_owned();
    (run, definition, text)
}

/// A finished cargo command and what it was, for failure messages.
struct Run {
    command: String,
    output: Output,
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "command: {}", self.command)?;
        writeln!(f, "status: {}", self.output.status)?;
        writeln!(
            f,
            "--- stdout ---\n{}",
            String::from_utf8_lossy(&self.output.stdout)
        )?;
        write!(
            f,
            "--- stderr ---\n{}",
            String::from_utf8_lossy(&self.output.stderr)
        )
    }
}

/// Runs cargo with `args` in the fixture `tests/outside/<fixture>`.
fn cargo(fixture: &str, args: &[&str]) -> Run {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/outside")
        .join(fixture);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let command = format!(
        "{} {} (in {})",
        cargo.to_string_lossy(),
        args.join(" "),
        dir.display()
    );
    let output = Command::new(&cargo)
        .args(args)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target_dir())
        // Plain text: the checks read stderr line by line.
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap_or_else(|error| panic!("cannot run `{command}`: {error}"));
    Run { command, output }
}

/// Where the fixtures build: inside this workspace's target directory
/// (ignored by git), shared between runs and between fixtures.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside-crates")
}

/// A crate that compiles compiles cleanly: no warnings from the fixture,
/// nor from the code `#[tool]` generates in it, nor from tool-core (a path
/// dependency, so its warnings are not capped).
fn assert_no_warnings(run: &Run) {
    let stderr = String::from_utf8_lossy(&run.output.stderr);
    assert!(
        !stderr.lines().any(|line| line.starts_with("warning")),
        "the build has warnings\n{run}"
    );
}
