//! One tool, called through tool-core, rmcp and rig, against the raw
//! baseline, in one process with interleaved timing.
//!
//! The tool: `add_note(title: String, body: String, priority: u8)`, returning
//! ``added note `{title}` (priority {priority}): {body}``. Each framework
//! registers it with 99 other tools of the same shape (98 plain functions
//! `note_1` .. `note_98` and `add_note_async`, the measured tool as an
//! `async fn`), 100 in all. Every call gets its arguments as the JSON string
//! [`ARGS`], as a model sends them, and ends with the result's text.
//!
//! - `raw`: `serde_json::from_str::<Args>`, then the function.
//! - `tool-core`: `ToolRegistry::call` with `Value::String(ARGS.to_owned())`
//!   (OpenAI's arguments, an object in a JSON string), validation on (the
//!   default) and off; the text by `ToolResult::as_text`.
//! - `rmcp`: the `#[tool_router]` router, built once; per call the string
//!   parsed into a `JsonObject` (an MCP request carries an object), a
//!   `ToolCallContext` made as rmcp's generated `call_tool` makes it, and
//!   `ToolRouter::call`; the text of the first content block.
//! - `rig`: `ToolSet::execute(name, args, &mut ToolContext)`, the set built
//!   once; the text by `ToolOutput::as_text`.
//!
//! Each round times, for every variant (in alternating order), a block of
//! `calls` calls and a block of raw calls next to it (which goes first
//! alternates too); a pair's ratio is variant time / raw time, so a change
//! in the machine's speed between pairs cancels. A first round warms up and
//! is not counted.
//!
//! Usage: `peers-bench [--rounds R] [--calls N] [--write]` (defaults 15
//! and 2,000); `--write` also puts the report in BENCHMARKS.md, between
//! `<!-- peers-table:start -->` and `<!-- peers-table:end -->`.

use std::fmt::Write as _;
use std::future::Future;
use std::hint::black_box;
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;

/// The arguments of every call.
const ARGS: &str = r#"{"title":"Groceries","body":"milk, eggs","priority":2}"#;

/// What every variant must return for [`ARGS`].
const EXPECTED: &str = "added note `Groceries` (priority 2): milk, eggs";

/// The measured tool's name in every framework.
const NAME: &str = "add_note";

/// Its `async fn` twin's name.
const NAME_ASYNC: &str = "add_note_async";

/// The baseline's argument struct.
#[derive(serde::Deserialize)]
struct Args {
    title: String,
    body: String,
    priority: u8,
}

/// The baseline: the arguments deserialized straight from the string, the
/// function called directly.
fn raw(args: &str) -> String {
    let Args {
        title,
        body,
        priority,
    } = serde_json::from_str(args).expect("valid arguments");
    format!("added note `{title}` (priority {priority}): {body}")
}

/// The three frameworks' tools: `add_note`, `add_note_async` and the 98
/// fillers named in the invocation below (function name, then the unit
/// struct tool-core's `#[tool]` and rig's `#[rig_tool]` make of it).
macro_rules! frameworks {
    ($($name:ident $unit:ident),* $(,)?) => {
        /// tool-core: `#[tool]` functions in one `ToolRegistry`.
        mod tc {
            use tool_core::{ToolRegistry, tool};

            /// Add a note to the user's notebook.
            #[tool(tier = Observe, concurrency_safe)]
            pub fn add_note(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> String {
                format!("added note `{title}` (priority {priority}): {body}")
            }

            /// Add a note to the user's notebook.
            #[tool(tier = Observe, concurrency_safe)]
            pub async fn add_note_async(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> String {
                format!("added note `{title}` (priority {priority}): {body}")
            }

            $(
                /// Add a note to another notebook.
                #[tool(tier = Observe, concurrency_safe)]
                pub fn $name(
                    /// The note's title.
                    title: String,
                    /// The note's text.
                    body: String,
                    /// 1 (highest) to 5.
                    priority: u8,
                ) -> String {
                    format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
                }
            )*

            /// Every tool, in one registry.
            pub fn registry() -> ToolRegistry {
                ToolRegistry::new().with(AddNote).with(AddNoteAsync)$(.with($unit))*
            }
        }

        /// rmcp: `#[tool]` methods in one `#[tool_router]` impl.
        mod rm {
            use rmcp::handler::server::router::tool::ToolRouter;
            use rmcp::handler::server::wrapper::Parameters;
            use rmcp::{tool, tool_router};

            /// The arguments of every tool.
            #[derive(serde::Deserialize, schemars::JsonSchema)]
            pub struct NoteArgs {
                /// The note's title.
                pub title: String,
                /// The note's text.
                pub body: String,
                /// 1 (highest) to 5.
                pub priority: u8,
            }

            /// The server whose methods are the tools.
            #[derive(Debug, Clone, Default)]
            pub struct Notes;

            impl rmcp::ServerHandler for Notes {}

            #[tool_router]
            impl Notes {
                /// Add a note to the user's notebook.
                #[tool]
                fn add_note(&self, Parameters(args): Parameters<NoteArgs>) -> String {
                    let NoteArgs { title, body, priority } = args;
                    format!("added note `{title}` (priority {priority}): {body}")
                }

                /// Add a note to the user's notebook.
                #[tool]
                async fn add_note_async(&self, Parameters(args): Parameters<NoteArgs>) -> String {
                    let NoteArgs { title, body, priority } = args;
                    format!("added note `{title}` (priority {priority}): {body}")
                }

                $(
                    /// Add a note to another notebook.
                    #[tool]
                    fn $name(&self, Parameters(args): Parameters<NoteArgs>) -> String {
                        let NoteArgs { title, body, priority } = args;
                        format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
                    }
                )*
            }

            /// Every tool, in one router.
            pub fn router() -> ToolRouter<Notes> {
                Notes::tool_router()
            }
        }

        /// rig: `#[rig_tool]` functions in one `ToolSet`.
        // `#[rig_tool]` also makes a static instance of each tool, unused here.
        #[allow(dead_code)]
        mod rg {
            use rig_agent::tool::ToolSet;
            use rig_core::rig_tool;
            use rig_core::tool::ToolExecutionError;

            /// Add a note to the user's notebook.
            #[rig_tool]
            pub fn add_note(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> Result<String, ToolExecutionError> {
                Ok(format!("added note `{title}` (priority {priority}): {body}"))
            }

            /// Add a note to the user's notebook.
            #[rig_tool]
            pub async fn add_note_async(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> Result<String, ToolExecutionError> {
                Ok(format!("added note `{title}` (priority {priority}): {body}"))
            }

            $(
                /// Add a note to another notebook.
                #[rig_tool]
                pub fn $name(
                    /// The note's title.
                    title: String,
                    /// The note's text.
                    body: String,
                    /// 1 (highest) to 5.
                    priority: u8,
                ) -> Result<String, ToolExecutionError> {
                    Ok(format!("{}: `{title}` (priority {priority}): {body}", stringify!($name)))
                }
            )*

            /// Every tool, in one set.
            pub fn toolset() -> ToolSet {
                let mut set = ToolSet::default();
                set.add_tool(AddNote);
                set.add_tool(AddNoteAsync);
                $(set.add_tool($unit);)*
                set
            }
        }
    };
}

frameworks! {
    note_1 Note1, note_2 Note2, note_3 Note3, note_4 Note4, note_5 Note5, note_6 Note6, note_7 Note7,
    note_8 Note8, note_9 Note9, note_10 Note10, note_11 Note11, note_12 Note12, note_13 Note13, note_14 Note14,
    note_15 Note15, note_16 Note16, note_17 Note17, note_18 Note18, note_19 Note19, note_20 Note20, note_21 Note21,
    note_22 Note22, note_23 Note23, note_24 Note24, note_25 Note25, note_26 Note26, note_27 Note27, note_28 Note28,
    note_29 Note29, note_30 Note30, note_31 Note31, note_32 Note32, note_33 Note33, note_34 Note34, note_35 Note35,
    note_36 Note36, note_37 Note37, note_38 Note38, note_39 Note39, note_40 Note40, note_41 Note41, note_42 Note42,
    note_43 Note43, note_44 Note44, note_45 Note45, note_46 Note46, note_47 Note47, note_48 Note48, note_49 Note49,
    note_50 Note50, note_51 Note51, note_52 Note52, note_53 Note53, note_54 Note54, note_55 Note55, note_56 Note56,
    note_57 Note57, note_58 Note58, note_59 Note59, note_60 Note60, note_61 Note61, note_62 Note62, note_63 Note63,
    note_64 Note64, note_65 Note65, note_66 Note66, note_67 Note67, note_68 Note68, note_69 Note69, note_70 Note70,
    note_71 Note71, note_72 Note72, note_73 Note73, note_74 Note74, note_75 Note75, note_76 Note76, note_77 Note77,
    note_78 Note78, note_79 Note79, note_80 Note80, note_81 Note81, note_82 Note82, note_83 Note83, note_84 Note84,
    note_85 Note85, note_86 Note86, note_87 Note87, note_88 Note88, note_89 Note89, note_90 Note90, note_91 Note91,
    note_92 Note92, note_93 Note93, note_94 Note94, note_95 Note95, note_96 Note96, note_97 Note97, note_98 Note98,
}

/// Everything built once, before any timing.
struct Frameworks {
    tc_validation: tool_core::ToolRegistry,
    tc_no_validation: tool_core::ToolRegistry,
    tc_ctx: tool_core::ToolContext,
    rmcp_router: rmcp::handler::server::router::tool::ToolRouter<rm::Notes>,
    rmcp_service: rm::Notes,
    /// The peer every `RequestContext` holds: rmcp makes one only for a
    /// running service (`Peer::new` is crate-private), so a service is
    /// served directly (no handshake) on an in-memory pipe nobody writes to.
    rmcp_peer: rmcp::service::Peer<rmcp::RoleServer>,
    rig_set: rig_agent::tool::ToolSet,
}

/// What is timed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Raw,
    ToolCore,
    ToolCoreNoValidation,
    ToolCoreAsync,
    Rmcp,
    RmcpAsync,
    Rig,
    RigAsync,
}

impl Variant {
    /// Every variant compared with `Raw`, in the order of the table.
    const MEASURED: [Variant; 7] = [
        Variant::ToolCore,
        Variant::ToolCoreNoValidation,
        Variant::ToolCoreAsync,
        Variant::Rmcp,
        Variant::RmcpAsync,
        Variant::Rig,
        Variant::RigAsync,
    ];

    fn label(self) -> &'static str {
        match self {
            Variant::Raw => "raw serde_json::from_str + fn",
            Variant::ToolCore => "tool-core, validation on",
            Variant::ToolCoreNoValidation => "tool-core, validation off",
            Variant::ToolCoreAsync => "tool-core, async fn, validation on",
            Variant::Rmcp => "rmcp ToolRouter::call",
            Variant::RmcpAsync => "rmcp ToolRouter::call, async fn",
            Variant::Rig => "rig ToolSet::execute",
            Variant::RigAsync => "rig ToolSet::execute, async fn",
        }
    }
}

// Each variant's text getter takes a reference to its own result type.
#[allow(clippy::ptr_arg)]
fn raw_text(result: &String) -> Option<&str> {
    Some(result)
}

fn tc_text(result: &tool_core::ToolResult) -> Option<&str> {
    if result.is_error() {
        return None;
    }
    result.as_text()
}

fn rmcp_text(result: &Result<rmcp::model::CallToolResponse, rmcp::ErrorData>) -> Option<&str> {
    match result {
        Ok(rmcp::model::CallToolResponse::Complete(result)) if result.is_error != Some(true) => {
            result
                .content
                .first()?
                .as_text()
                .map(|text| text.text.as_str())
        }
        _ => None,
    }
}

fn rig_text(result: &rig_core::tool::ToolResult) -> Option<&str> {
    if !result.is_success() {
        return None;
    }
    result.output().as_text()
}

impl Frameworks {
    fn build(rt: &Runtime) -> Self {
        let (server_end, client_end) = tokio::io::duplex(4096);
        // The client end is kept open for the whole run, so the service
        // never sees end of input.
        std::mem::forget(client_end);
        let running = {
            let _guard = rt.enter();
            rmcp::service::serve_directly::<rmcp::RoleServer, _, _, _, _>(
                rm::Notes,
                server_end,
                None,
            )
        };
        let rmcp_peer = running.peer().clone();
        // The service task lives as long as the process.
        std::mem::forget(running);
        Frameworks {
            tc_validation: tc::registry(),
            tc_no_validation: tc::registry().with_validation(tool_core::Validation::Off),
            tc_ctx: tool_core::ToolContext::new(()),
            rmcp_router: rm::router(),
            rmcp_service: rm::Notes,
            rmcp_peer,
            rig_set: rg::toolset(),
        }
    }

    /// One call of `variant` with `args`, through to the result's text,
    /// handed to `out`.
    async fn call(&self, variant: Variant, args: &str, out: &mut dyn FnMut(Option<&str>)) {
        match variant {
            Variant::Raw => out(Some(&raw(args))),
            Variant::ToolCore | Variant::ToolCoreNoValidation | Variant::ToolCoreAsync => {
                let registry = match variant {
                    Variant::ToolCoreNoValidation => &self.tc_no_validation,
                    _ => &self.tc_validation,
                };
                let name = if variant == Variant::ToolCoreAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                let result = registry
                    .call(
                        &self.tc_ctx,
                        name,
                        serde_json::Value::String(args.to_owned()),
                    )
                    .await;
                out(tc_text(&result));
            }
            Variant::Rmcp | Variant::RmcpAsync => {
                let name = if variant == Variant::RmcpAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                let result = self.rmcp_call(name, args).await;
                out(rmcp_text(&result));
            }
            Variant::Rig | Variant::RigAsync => {
                let name = if variant == Variant::RigAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                let mut ctx = rig_core::tool::ToolContext::default();
                let result = self.rig_set.execute(name, args, &mut ctx).await;
                out(rig_text(&result));
            }
        }
    }

    /// rmcp's call as its generated `ServerHandler::call_tool` makes it,
    /// starting from the arguments' string.
    async fn rmcp_call(
        &self,
        name: &'static str,
        args: &str,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        use rmcp::handler::server::tool::ToolCallContext;
        use rmcp::model::{CallToolRequestParams, JsonObject, NumberOrString};
        use rmcp::service::RequestContext;

        let arguments: JsonObject = serde_json::from_str(args).expect("a JSON object");
        let params = CallToolRequestParams::new(name).with_arguments(arguments);
        let request = RequestContext::new(NumberOrString::Number(1), self.rmcp_peer.clone());
        let context = ToolCallContext::new(&self.rmcp_service, params, request);
        self.rmcp_router.call(context).await
    }
}

/// `calls` calls of `variant`, timed inside one `block_on`.
fn time_block(rt: &Runtime, fw: &Frameworks, variant: Variant, calls: u32) -> Duration {
    rt.block_on(async {
        let start = Instant::now();
        match variant {
            Variant::Raw => timed(calls, |args| async move { raw(args) }, raw_text).await,
            Variant::ToolCore | Variant::ToolCoreNoValidation | Variant::ToolCoreAsync => {
                let registry = match variant {
                    Variant::ToolCoreNoValidation => &fw.tc_no_validation,
                    _ => &fw.tc_validation,
                };
                let name = if variant == Variant::ToolCoreAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                timed(
                    calls,
                    |args| {
                        registry.call(
                            &fw.tc_ctx,
                            black_box(name),
                            serde_json::Value::String(args.to_owned()),
                        )
                    },
                    tc_text,
                )
                .await
            }
            Variant::Rmcp | Variant::RmcpAsync => {
                let name = if variant == Variant::RmcpAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                timed(calls, |args| fw.rmcp_call(black_box(name), args), rmcp_text).await
            }
            Variant::Rig | Variant::RigAsync => {
                let name = if variant == Variant::RigAsync {
                    NAME_ASYNC
                } else {
                    NAME
                };
                timed(
                    calls,
                    |args| async move {
                        let mut ctx = rig_core::tool::ToolContext::default();
                        fw.rig_set.execute(black_box(name), args, &mut ctx).await
                    },
                    rig_text,
                )
                .await
            }
        }
        start.elapsed()
    })
}

/// `calls` calls, each on the black-boxed [`ARGS`], each result's text
/// black-boxed before the result is dropped.
async fn timed<F, Fut, R>(calls: u32, mut call: F, text: fn(&R) -> Option<&str>)
where
    F: FnMut(&'static str) -> Fut,
    Fut: Future<Output = R>,
{
    for _ in 0..calls {
        let result = call(black_box(ARGS)).await;
        black_box(text(&result));
    }
}

/// The command line.
struct Options {
    rounds: usize,
    calls: u32,
    /// Replace the marked section of BENCHMARKS.md with the report.
    write: bool,
    /// The arguments as given, for the command shown with the report.
    args: Vec<String>,
}

const USAGE: &str = "usage: peers-bench [--rounds R] [--calls N] [--write]";

fn options() -> Options {
    let given: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        rounds: 15,
        calls: 2_000,
        write: false,
        args: given.clone(),
    };
    let mut args = given.into_iter();
    while let Some(flag) = args.next() {
        if flag == "--write" {
            options.write = true;
            continue;
        }
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--rounds" => options.rounds = value.parse().expect("--rounds takes a number"),
            "--calls" => options.calls = value.parse().expect("--calls takes a number"),
            _ => panic!("{USAGE}"),
        }
    }
    assert!(
        options.rounds > 0 && options.calls > 0,
        "rounds and calls must be positive"
    );
    options
}

const START_MARKER: &str = "<!-- peers-table:start -->";
const END_MARKER: &str = "<!-- peers-table:end -->";
include!("../../report.rs");

fn main() {
    let options = options();
    let (rounds, calls) = (options.rounds, options.calls);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let fw = Frameworks::build(&rt);

    // 100 tools in each, and every variant returns the expected text.
    assert_eq!(fw.tc_validation.len(), 100, "tool-core registry");
    assert_eq!(fw.rmcp_router.list_all().len(), 100, "rmcp router");
    assert_eq!(fw.rig_set.len(), 100, "rig tool set");
    for variant in [Variant::Raw].into_iter().chain(Variant::MEASURED) {
        let mut got = None;
        rt.block_on(fw.call(variant, ARGS, &mut |text| got = text.map(str::to_owned)));
        assert_eq!(
            got.as_deref(),
            Some(EXPECTED),
            "{} must return the expected text",
            variant.label()
        );
    }

    // ratios[v][round], ns[v][round] for each measured variant; the raw
    // baseline's ns per call from every pair.
    let measured = Variant::MEASURED;
    let mut ratios = vec![Vec::new(); measured.len()];
    let mut ns = vec![Vec::new(); measured.len()];
    let mut raw_ns = Vec::new();
    let per_call = |d: Duration| d.as_secs_f64() * 1e9 / f64::from(calls);
    for round in 0..=rounds {
        let mut order: Vec<usize> = (0..measured.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for (step, &i) in order.iter().enumerate() {
            let variant = measured[i];
            let (t, b) = if (round + step) % 2 == 0 {
                let b = time_block(&rt, &fw, Variant::Raw, calls);
                (time_block(&rt, &fw, variant, calls), b)
            } else {
                let t = time_block(&rt, &fw, variant, calls);
                (t, time_block(&rt, &fw, Variant::Raw, calls))
            };
            if round == 0 {
                continue; // warm-up
            }
            ratios[i].push(t.as_secs_f64() / b.as_secs_f64());
            ns[i].push(per_call(t));
            raw_ns.push(per_call(b));
        }
    }

    // tool-core against each peer: per round, the quotient of the two
    // variants' raw-normalised ratios.
    let index = |v: Variant| measured.iter().position(|&m| m == v).expect("measured");
    let pairs = [
        (
            "validation off ÷ rmcp (the same work: neither checks a schema)",
            Variant::ToolCoreNoValidation,
            Variant::Rmcp,
        ),
        ("validation on ÷ rmcp", Variant::ToolCore, Variant::Rmcp),
        (
            "`async fn` ÷ rmcp `async fn`",
            Variant::ToolCoreAsync,
            Variant::RmcpAsync,
        ),
        (
            "validation off ÷ rig",
            Variant::ToolCoreNoValidation,
            Variant::Rig,
        ),
        ("validation on ÷ rig", Variant::ToolCore, Variant::Rig),
        (
            "`async fn` ÷ rig `async fn`",
            Variant::ToolCoreAsync,
            Variant::RigAsync,
        ),
    ];

    let mut out = String::new();
    let _ = writeln!(
        out,
        "One 3-argument tool among 100 in each framework, its arguments as a JSON string, \
         its result's text out; {rounds} rounds (after one warm-up round) of blocks of \
         {calls} calls, each variant's block timed next to a block of the raw baseline \
         (`serde_json::from_str::<Args>` and the function), the order alternating. \
         Per variant: the median of its pairs' ratios (variant ÷ raw), (min–max), n pairs, \
         and the median ns a call. `bench/peers/README.md` says what each variant does per call.\n"
    );
    let _ = writeln!(
        out,
        "| variant | × raw, median (min–max) | n | ns/call |\n|---|---:|---:|---:|"
    );
    let _ = writeln!(
        out,
        "| {} | 1.00 | {} | {:.0} |",
        Variant::Raw.label(),
        raw_ns.len(),
        median(&raw_ns)
    );
    for (i, variant) in measured.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.0} |",
            variant.label(),
            spread(&ratios[i], 2),
            ratios[i].len(),
            median(&ns[i])
        );
    }
    let _ = writeln!(
        out,
        "\n| tool-core ÷ peer, per round | median (min–max) | n |\n|---|---:|---:|"
    );
    for (label, ours, peer) in pairs {
        let q: Vec<f64> = ratios[index(ours)]
            .iter()
            .zip(&ratios[index(peer)])
            .map(|(a, b)| a / b)
            .collect();
        let _ = writeln!(out, "| {label} | {} | {} |", spread(&q, 3), q.len());
    }
    let command = std::iter::once("cargo run --release --")
        .chain(options.args.iter().map(String::as_str))
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
    println!("{out}");
    if options.write {
        write_benchmarks(
            START_MARKER,
            END_MARKER,
            "Dispatch beside rmcp and rig",
            &out,
        )
        .expect("BENCHMARKS.md written");
        eprintln!("written to BENCHMARKS.md between {START_MARKER} and {END_MARKER}");
    }
}
