//! The agent example with `--restate` (`examples/agent/durable.rs`), its
//! binary run as `cargo run --example agent -- --restate` runs it: each
//! turn a `TurnWorkflow` on a `restate-server` the example starts, the
//! approvals given through the workflow's `approve` handler. It prints the
//! transcript the loop prints in process (`agent_example.rs`), with one
//! line more, saying where the turns run; and without the server, it says
//! how to get one.
//!
//! Needs Restate's server: `scripts/test` installs it under
//! `target/restate` and names it in `TOOL_RESTATE_SERVER`.

use std::path::PathBuf;
use std::process::{Command, Output};

const QUESTION: &str =
    "What is the weather in Paris, and how much are 100 EUR and 5000 EUR in US dollars?";
const ANSWER: &str = "In Paris it is 21.5 °C, sunny with a light breeze. \
     100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first.";
const WEATHER: &str =
    r#"{"city":"Paris","temperature":21.5,"summary":"sunny with a light breeze"}"#;
const CONVERTED: &str = "100 EUR = 108.00 USD";
const REFUSED: &str = "the call to tool `convert_currency` was denied: \
     amounts over 1000 need a person to approve them";

/// The `agent` example's binary, which `cargo test` builds beside the test
/// binaries.
fn agent_example() -> PathBuf {
    let built = || {
        let deps = std::env::current_exe().ok()?.parent()?.to_path_buf();
        let example = deps.parent()?.join("examples").join("agent");
        example.exists().then_some(example)
    };
    built().unwrap_or_else(|| {
        panic!(
            "the `agent` example was not built beside this test: run `cargo test` \
             (which builds the examples) or `cargo build --example agent` first"
        )
    })
}

/// The example run with `args`, against its scripted model (no key, no
/// base URL in its environment).
fn run_example(args: &[&str]) -> Output {
    let mut command = Command::new(agent_example());
    command.args(args);
    for api in ["OPENAI", "ANTHROPIC", "GEMINI"] {
        for var in ["API_KEY", "BASE_URL", "MODEL"] {
            command.env_remove(format!("{api}_{var}"));
        }
    }
    let output = command.output().expect("the example runs");
    assert!(
        output.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `text` with every loopback port written `PORT` and the conversation's
/// process id `PID`, which change from run to run.
fn steady(text: &str) -> String {
    let ports = digits_after(text, "127.0.0.1:", "PORT");
    digits_after(&ports, "/Turn/agent-", "PID")
}

/// `text` with the digits after each `marker` written `name`.
fn digits_after(text: &str, marker: &str, name: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(marker) {
        let (head, tail) = rest.split_at(at + marker.len());
        out.push_str(head);
        let number = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if number > 0 {
            out.push_str(name);
        }
        rest = &tail[number..];
    }
    out.push_str(rest);
    out
}

/// The server `scripts/test` installs; a plain `cargo test` has none.
fn need_server() {
    if std::env::var_os("TOOL_RESTATE_SERVER").is_none() {
        panic!(
            "this test needs Restate's server: run scripts/test, which installs \
             @restatedev/restate-server 1.7.12 (tests/restate) under target/restate, or set \
             TOOL_RESTATE_SERVER to a restate-server 1.7 binary"
        );
    }
}

/// The provider's run read whole, with and without `--restate`: the same
/// transcript, but for the line that says where the turns run.
fn same_transcript_on_restate(provider: &str, key: &str, [base, path]: [&str; 2], weather: &str) {
    need_server();
    let plain = run_example(&["--provider", provider, "--no-stream"]);
    let durable = run_example(&["--provider", provider, "--no-stream", "--restate"]);

    let plain = steady(&String::from_utf8_lossy(&plain.stdout));
    let durable = steady(&String::from_utf8_lossy(&durable.stdout));
    let steps = format!(
        "user   {QUESTION}\n\
         call   get_weather({weather})\n  \
         -> [ok] {WEATHER}\n\
         call   convert_currency({{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
         -> [ok] {CONVERTED}\n\
         call   convert_currency({{\"amount\":5000,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
         -> [error] {REFUSED}\n\
         answer (2 requests): {ANSWER}\n"
    );
    let scripted =
        format!("{key} is not set: talking to a scripted model at http://127.0.0.1:PORT{base}\n");
    let post = format!("POST http://127.0.0.1:PORT{path}\n");
    assert_eq!(plain, format!("{scripted}{post}{steps}"), "{provider}");
    assert_eq!(
        durable,
        format!(
            "{scripted}\
             each turn runs on Restate: POST http://127.0.0.1:PORT/Turn/agent-PID-<n>/run\n\
             {post}{steps}"
        ),
        "{provider}"
    );
}

#[test]
fn openai_on_restate_prints_the_transcript_of_the_loop_in_process() {
    same_transcript_on_restate(
        "openai",
        "OPENAI_API_KEY",
        ["/v1", "/v1/chat/completions"],
        r#"{"city":"Paris","units":null}"#,
    );
}

#[test]
fn anthropic_on_restate_prints_the_transcript_of_the_loop_in_process() {
    same_transcript_on_restate(
        "anthropic",
        "ANTHROPIC_API_KEY",
        ["", "/v1/messages"],
        r#"{"city":"Paris"}"#,
    );
}

#[test]
fn gemini_on_restate_prints_the_transcript_of_the_loop_in_process() {
    same_transcript_on_restate(
        "gemini",
        "GEMINI_API_KEY",
        ["", "/v1beta/models/gemini-2.5-flash:generateContent"],
        r#"{"city":"Paris"}"#,
    );
}

#[test]
fn cargo_run_example_agent_restate_streams_and_ends_with_the_transcript() {
    need_server();
    let output = run_example(&["--restate"]);

    // Streamed, the model's text and each call's start and end (with its
    // time) come first; the transcript ends it.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("\neach turn runs on Restate: POST http://127.0.0.1:"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "call   get_weather({{\"city\":\"Paris\",\"units\":null}})\n  \
             -> [ok] {WEATHER}\n\
             call   convert_currency({{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
             -> [ok] {CONVERTED}\n\
             call   convert_currency({{\"amount\":5000,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
             -> [error] {REFUSED}\n\
             answer (2 requests): {ANSWER}\n"
        )),
        "{stdout}"
    );
}

#[test]
fn without_the_server_it_says_how_to_get_one() {
    let output = Command::new(agent_example())
        .args(["--restate", "--no-stream"])
        .env_remove("TOOL_RESTATE_SERVER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .output()
        .expect("the example runs");

    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(
            "error: cannot run the turns on Restate: `--restate` starts Restate's server, \
             and TOOL_RESTATE_SERVER does not name it: set it to a restate-server 1.7 binary, \
             as the one `scripts/test` installs"
        ),
        "{stderr}"
    );
}
