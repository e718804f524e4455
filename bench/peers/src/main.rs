//! Tools of six shapes, each called through tool-core, rmcp (and, for
//! `add_note`, rig) against its raw baseline, in one process with
//! interleaved timing.
//!
//! The shapes (see [`shapes::Shape`]): `add_note` (three scalars, a sync
//! `concurrency_safe` function), `get_weather` (`async`, an optional enum),
//! `create_event` (a nested struct), `add_items` (a `Vec` of three structs),
//! `lookup` (`async`, reads the application's state from its context) and
//! `search_docs` (`#[tool]` on a struct). Each framework registers them with
//! fillers of `add_note`'s shape, 100 tools in all. Every call starts from
//! the shape's arguments as a JSON string, as a model sends them, and ends
//! with the result's text.
//!
//! - `raw`: `serde_json::from_str::<Args>`, then the body.
//! - `tool-core`: `ToolRegistry::call` with `Value::String(args.to_owned())`
//!   (OpenAI's arguments, an object in a JSON string), validation on (the
//!   default) and off, and with the string parsed into a `Value` for each
//!   call, validation on; the text by `ToolResult::as_text`.
//! - `rmcp`: the `#[tool_router]` router, built once; per call the string
//!   parsed into a `JsonObject` (an MCP request carries an object), a
//!   `ToolCallContext` made as rmcp's generated `call_tool` makes it, and
//!   `ToolRouter::call`; the text of the first content block.
//! - `rig` (`add_note` only): `ToolSet::execute(name, args, &mut
//!   ToolContext)`, the set built once; the text by `ToolOutput::as_text`.
//!
//! Each round times, for every variant (in alternating order), a block of
//! `calls` calls and a block of its shape's raw calls next to it (which goes
//! first alternates too); a pair's ratio is variant time / raw time, so a
//! change in the machine's speed between pairs cancels. A first round warms
//! up and is not counted.
//!
//! Usage: `peers-bench [--rounds R] [--calls N] [--clock wall|thread]
//! [--write]` (defaults 15, 2,000 and `thread`: each block timed by the CPU
//! time of the thread that runs it, leaving out the time other processes
//! hold the core; `wall` times it by the clock on the wall); `--write` also
//! puts the report in BENCHMARKS.md, between `<!-- peers-table:start -->`
//! and `<!-- peers-table:end -->`.

/// Invokes `$m!` with the fillers every framework registers beside the
/// measured tools (function name, then the unit struct tool-core's
/// `#[tool]` and rig's `#[rig_tool]` make of it), in brackets, followed by
/// whatever else is given.
macro_rules! with_fillers {
    ($m:ident $($more:tt)*) => {
        $m! {
            [
            note_1 Note1, note_2 Note2, note_3 Note3, note_4 Note4, note_5 Note5, note_6 Note6,
            note_7 Note7, note_8 Note8, note_9 Note9, note_10 Note10, note_11 Note11,
            note_12 Note12, note_13 Note13, note_14 Note14, note_15 Note15, note_16 Note16,
            note_17 Note17, note_18 Note18, note_19 Note19, note_20 Note20, note_21 Note21,
            note_22 Note22, note_23 Note23, note_24 Note24, note_25 Note25, note_26 Note26,
            note_27 Note27, note_28 Note28, note_29 Note29, note_30 Note30, note_31 Note31,
            note_32 Note32, note_33 Note33, note_34 Note34, note_35 Note35, note_36 Note36,
            note_37 Note37, note_38 Note38, note_39 Note39, note_40 Note40, note_41 Note41,
            note_42 Note42, note_43 Note43, note_44 Note44, note_45 Note45, note_46 Note46,
            note_47 Note47, note_48 Note48, note_49 Note49, note_50 Note50, note_51 Note51,
            note_52 Note52, note_53 Note53, note_54 Note54, note_55 Note55, note_56 Note56,
            note_57 Note57, note_58 Note58, note_59 Note59, note_60 Note60, note_61 Note61,
            note_62 Note62, note_63 Note63, note_64 Note64, note_65 Note65, note_66 Note66,
            note_67 Note67, note_68 Note68, note_69 Note69, note_70 Note70, note_71 Note71,
            note_72 Note72, note_73 Note73, note_74 Note74, note_75 Note75, note_76 Note76,
            note_77 Note77, note_78 Note78, note_79 Note79, note_80 Note80, note_81 Note81,
            note_82 Note82, note_83 Note83, note_84 Note84, note_85 Note85, note_86 Note86,
            note_87 Note87, note_88 Note88, note_89 Note89, note_90 Note90, note_91 Note91,
            note_92 Note92, note_93 Note93,
            ]
            $($more)*
        }
    };
}

mod rg;
mod rm;
mod run;
mod shapes;
mod table;
mod tc;

use run::{Block, Clock, Frameworks, Way, block};
use shapes::Shape;
use table::Results;

/// The command line.
struct Options {
    rounds: usize,
    calls: u32,
    clock: Clock,
    /// Replace the marked section of BENCHMARKS.md with the report.
    write: bool,
    /// The arguments as given, for the command shown with the report.
    args: Vec<String>,
    /// Instead of the report: tool-core's calls of this shape only.
    profile: Option<String>,
    /// With `--profile`: the way the shape is called (`--way string`,
    /// the default; `value`; `rmcp`).
    profile_way: Way,
}

const USAGE: &str = "usage: peers-bench [--rounds R] [--calls N] [--clock wall|thread] [--write] [--profile TOOL [--way string|value|held|rmcp|rmcp-held]]";

fn options() -> Options {
    let given: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        rounds: 15,
        calls: 2_000,
        clock: Clock::Thread,
        write: false,
        args: given.clone(),
        profile: None,
        profile_way: Way::TcString,
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
            "--clock" if value == "wall" => options.clock = Clock::Wall,
            "--clock" if value == "thread" => options.clock = Clock::Thread,
            "--profile" => options.profile = Some(value),
            "--way" if value == "string" => options.profile_way = Way::TcString,
            "--way" if value == "value" => options.profile_way = Way::TcValue,
            "--way" if value == "held" => options.profile_way = Way::TcHeld,
            "--way" if value == "rmcp" => options.profile_way = Way::Rmcp,
            "--way" if value == "rmcp-held" => options.profile_way = Way::RmcpHeld,
            _ => panic!("{USAGE}"),
        }
    }
    assert!(
        options.rounds > 0 && options.calls > 0,
        "rounds and calls must be positive"
    );
    options
}

/// Every variant compared with its shape's raw baseline, in the order of
/// the table.
fn measured() -> Vec<(Shape, Way)> {
    let mut measured = Vec::new();
    for shape in Shape::ALL {
        measured.extend(Way::EVERY_SHAPE.map(|way| (shape, way)));
        if shape == Shape::Note {
            measured.extend(Way::NOTE_ONLY.map(|way| (shape, way)));
        }
    }
    measured
}

/// 100 tools in each framework, and every variant (the raw baselines
/// included) returns its shape's expected text.
fn check(rt: &tokio::runtime::Runtime, fw: &Frameworks) {
    assert_eq!(fw.tc_validation.tools().len(), 100, "tool-core registry");
    assert_eq!(fw.rmcp_router.list_all().len(), 100, "rmcp router");
    assert_eq!(fw.rig_set.len(), 100, "rig tool set");
    let raws = Shape::ALL.map(|shape| (shape, Way::Raw));
    for (shape, way) in raws.into_iter().chain(measured()) {
        let (_, got) = block(rt, fw, shape, way, Block::Check);
        assert_eq!(
            got.as_deref(),
            Some(shape.expected()),
            "{} must return the expected text for {}",
            way.label(),
            shape.name()
        );
    }
}

/// The timed rounds: each variant's block next to a block of its shape's
/// raw baseline, the order of variants and of each pair alternating.
fn measure(rt: &tokio::runtime::Runtime, fw: &Frameworks, options: &Options) -> Results {
    let (rounds, calls, clock) = (options.rounds, options.calls, options.clock);
    let measured = measured();
    let mut results = Results::new(rounds, calls, clock);
    for round in 0..=rounds {
        let mut order: Vec<usize> = (0..measured.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for (step, &i) in order.iter().enumerate() {
            let (shape, way) = measured[i];
            let time = |way| block(rt, fw, shape, way, Block::Time(calls, clock)).0;
            let (t, b) = if (round + step) % 2 == 0 {
                let b = time(Way::Raw);
                (time(way), b)
            } else {
                let t = time(way);
                (t, time(Way::Raw))
            };
            if round > 0 {
                results.add(shape, way, t, b); // round 0 warms up
            }
        }
    }
    results
}

fn main() {
    let options = options();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let fw = Frameworks::build(&rt);
    check(&rt, &fw);
    if let Some(shape) = &options.profile {
        // One way's calls of one shape, for a profiler to watch.
        let shape = Shape::ALL
            .into_iter()
            .find(|each| each.name() == shape)
            .expect("--profile takes a shape's tool name");
        let calls = options.calls.saturating_mul(options.rounds as u32);
        run::block(&rt, &fw, shape, options.profile_way, Block::Time(calls, options.clock));
        return;
    }
    let results = measure(&rt, &fw, &options);
    let out = table::render(&results, &options.args);
    println!("{out}");
    if options.write {
        table::write(&out);
    }
}
