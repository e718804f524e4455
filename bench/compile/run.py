#!/usr/bin/env python3
"""Compile-time benchmark: 100 tools written with tool-core, rig and rmcp.

What it measures
----------------
The cost, to the crate that defines them, of writing 100 LLM-agent tools with
a tool framework rather than without one. The same 100 tools (3 documented
arguments each, types cycling through String, u8, i64, f64, bool,
Option<String>, Vec<String>, a nested documented struct and a unit enum;
trivial bodies that format their arguments) are generated four ways, each as
a library crate `tools100` in a cargo workspace of its own:

  baseline   argument structs deriving serde's Deserialize and schemars'
             JsonSchema, and plain async functions; no framework
  tool-core  `#[tool(tier = Observe)]` on each function, all of them
             registered in one `ToolRegistry` (this repository, by path)
  rig        rig-core 0.44's `#[rig_tool]`, all registered in one
             rig-agent `ToolSet`
  rmcp       rmcp 3.9's `#[tool]` methods in one `#[tool_router]` impl, over
             argument structs like the baseline's

The workspaces live in `target/compile-bench/<variant>/`, each with its own
`Cargo.lock` and target directory. Dependencies are built once per variant;
each timed run touches `src/lib.rs`, so only `tools100` is compiled again.

Modes, each the wall-clock time of the whole cargo process and its CPU time
(user + system of cargo and every process it waited for, rustc among them:
the growth of getrusage(RUSAGE_CHILDREN) over the run):

  build        CARGO_INCREMENTAL=0 cargo build -j 2   (debug)
  check        CARGO_INCREMENTAL=0 cargo check -j 2
  incremental  CARGO_INCREMENTAL=1 cargo build -j 2, after an untimed
               incremental build of the same (touched) crate
  rlib         size of target/debug/deps/libtools100-*.rlib after `build`

How
---
Paired rounds: every round measures the baseline and each framework variant
in every mode, in the order baseline, tool-core, rig, rmcp in even rounds and
the reverse in odd ones. Each variant's time is divided by the baseline's of
the same round, its wall-clock time and its CPU time each; the report gives
the median ratio, its min-max spread over the rounds and the number of
rounds, and the median absolute figures.

A timed run in which cargo compiled anything besides `tools100` (tool-core's
sources changed, say) starts the rounds again from the first. Each timed run
waits for other cargo and rustc processes on the machine to finish (up to
QUIET_WAIT seconds), and the report counts the runs that one overlapped
anyway.

Usage
-----
  python3 bench/compile/run.py                   # 5 rounds, print the table
  python3 bench/compile/run.py --quick           # 1 round
  python3 bench/compile/run.py --rounds 9 --variants tool-core,rig
  python3 bench/compile/run.py --commit HEAD     # tool-core as of a commit
  python3 bench/compile/run.py --write           # also update BENCHMARKS.md
  python3 bench/compile/run.py --timings         # cargo --timings and
                                                 # cargo llvm-lines, tool-core
  python3 bench/compile/run.py --tokens          # tokens of the definitions,
                                                 # tool-core's and rmcp's
  python3 bench/compile/run.py --registry        # building the 100-tool
                                                 # collection and its
                                                 # definitions: time, heap,
                                                 # peak RSS (release builds)
  python3 bench/compile/run.py --all --write     # every table: compile,
                                                 # --tokens, --registry,
                                                 # bench/peers, bench/mcp-load
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tarfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BENCH_DIR = REPO / "target" / "compile-bench"
BENCHMARKS_MD = REPO / "BENCHMARKS.md"
# The checkout whose tool-core is measured: this repository's working tree,
# or with --commit a snapshot of one commit under BENCH_DIR/tool-core-src/.
TOOL_CORE_CHECKOUT = REPO
SNAPSHOT_COMMIT: str | None = None
START_MARKER = "<!-- compile-table:start -->"
END_MARKER = "<!-- compile-table:end -->"

JOBS = "2"
N_TOOLS = 100
ARGS_PER_TOOL = 3
VARIANTS = ["baseline", "tool-core", "rig", "rmcp"]
FRAMEWORKS = VARIANTS[1:]
MODES = ["build", "check", "incremental"]
# On a shared machine, how long a timed run waits for other compilations to end.
QUIET_WAIT = 120.0

# Targets for tool-core's row: column -> (limit, aim), as ratios to the baseline.
TARGETS = {"build": (1.3, 1.2), "check": (1.2, None), "incremental": (1.3, None), "rlib": (2.0, None)}

# Packages whose resolved versions the report names, read from Cargo.lock.
REPORTED_PACKAGES = ["rig-core", "rig-derive", "rig-agent", "rmcp", "rmcp-macros",
                     "serde", "serde_json", "schemars"]


# --------------------------------------------------------------------------
# The 100 tools
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Arg:
    name: str
    ty: str
    doc: str
    fmt: str  # how the body formats it


# One argument kind per type; tool i takes kinds (i, i+4, i+8) mod 9, so the
# 300 arguments use every type about equally, in nine different signatures.
ARG_KINDS = [
    Arg("query", "String", "The text to search for.", "{query}"),
    Arg("limit", "u8", "The most results to return, from 1 to 100.", "{limit}"),
    Arg("offset", "i64", "How many results to skip; negative counts from the end.", "{offset}"),
    Arg("threshold", "f64", "The lowest score a result may have, from 0.0 to 1.0.", "{threshold}"),
    Arg("verbose", "bool", "Whether to include every detail.", "{verbose}"),
    Arg("note", "Option<String>", "A note to attach, if any.", "{note:?}"),
    Arg("tags", "Vec<String>", "Only results with all of these tags.", "{tags:?}"),
    Arg("address", "Address", "Where the result is delivered.", "{address:?}"),
    Arg("units", "Units", "The units measurements are given in.", "{units:?}"),
]

VERBS = ["Look up", "Count", "Summarize", "Archive", "Translate",
         "Rank", "Export", "Validate", "Forecast", "Schedule"]
NOUNS = ["orders", "invoices", "tickets", "documents", "sensor readings",
         "shipments", "contacts", "calendar events", "reports", "files"]


@dataclass(frozen=True)
class ToolSpec:
    index: int
    args: tuple[Arg, ...]

    @property
    def fn(self) -> str:
        return f"tool_{self.index}"

    @property
    def pascal(self) -> str:
        # tool-macros' and rig-derive's PascalCase: `tool_0` -> `Tool0`.
        return f"Tool{self.index}"

    @property
    def args_struct(self) -> str:
        return f"Args{self.index}"

    @property
    def doc(self) -> str:
        verb, noun = VERBS[self.index % 10], NOUNS[self.index // 10]
        return f"{verb} the {noun} that match the arguments (tool {self.index})."

    @property
    def body(self) -> str:
        shown = " ".join(arg.fmt for arg in self.args)
        return f'format!("{self.fn}: {shown}")'

    @property
    def names(self) -> str:
        return ", ".join(arg.name for arg in self.args)


def tool_specs() -> list[ToolSpec]:
    return [
        ToolSpec(i, tuple(ARG_KINDS[(i + 4 * j) % len(ARG_KINDS)] for j in range(ARGS_PER_TOOL)))
        for i in range(N_TOOLS)
    ]


# --------------------------------------------------------------------------
# The four crates
# --------------------------------------------------------------------------

SHARED_TYPES = """\
/// A postal address.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Address {
    /// Street and house number.
    pub street: String,
    /// City.
    pub city: String,
}

/// Units of measure.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    /// Degrees Celsius, kilometres.
    Celsius,
    /// Degrees Fahrenheit, miles.
    Fahrenheit,
}
"""

SERDE_DEPS = """\
serde = { version = "1", features = ["derive"] }
schemars = "1"
"""


def manifest(dependencies: str) -> str:
    return f"""\
# Generated by bench/compile/run.py; a workspace of its own.
[package]
name = "tools100"
version = "0.0.0"
edition = "2024"
publish = false

[lib]
path = "src/lib.rs"

[dependencies]
{dependencies}
[workspace]
"""


def args_struct(tool: ToolSpec) -> str:
    fields = "".join(f"    /// {a.doc}\n    pub {a.name}: {a.ty},\n" for a in tool.args)
    return (f"/// The arguments of `{tool.fn}`.\n"
            f"#[derive(serde::Deserialize, schemars::JsonSchema)]\n"
            f"pub struct {tool.args_struct} {{\n{fields}}}\n")


def params(tool: ToolSpec, indent: str) -> str:
    """Documented function parameters, one per line."""
    return "".join(f"{indent}/// {a.doc}\n{indent}{a.name}: {a.ty},\n" for a in tool.args)


def render_baseline(tools: list[ToolSpec]) -> tuple[str, str]:
    parts = ["//! 100 tools without a tool framework.\n\n", SHARED_TYPES]
    for t in tools:
        parts.append(f"\n{args_struct(t)}\n"
                     f"/// {t.doc}\n"
                     f"pub async fn {t.fn}(args: {t.args_struct}) -> String {{\n"
                     f"    let {t.args_struct} {{ {t.names} }} = args;\n"
                     f"    {t.body}\n}}\n")
    return manifest(SERDE_DEPS), "".join(parts)


def render_tool_core(tools: list[ToolSpec]) -> tuple[str, str]:
    deps = (f'tool-core = {{ path = "{TOOL_CORE_CHECKOUT / "tool-core"}" }}\n'
            + SERDE_DEPS + 'serde_json = "1"\n')
    parts = ["//! 100 tools written with tool-core's `#[tool]`.\n\n",
             "use tool_core::tool;\n\n", SHARED_TYPES]
    for t in tools:
        parts.append(f"\n/// {t.doc}\n"
                     f"#[tool(tier = Observe)]\n"
                     f"pub async fn {t.fn}(\n{params(t, '    ')}) -> String {{\n"
                     f"    {t.body}\n}}\n")
    registered = "".join(f"\n        .with({t.pascal})" for t in tools)
    parts.append(f"\n/// Every tool, in one registry.\n"
                 f"pub fn registry() -> tool_core::ToolRegistry {{\n"
                 f"    tool_core::ToolRegistry::new(){registered}\n}}\n")
    return manifest(deps), "".join(parts)


def render_rig(tools: list[ToolSpec]) -> tuple[str, str]:
    # `#[rig_tool]` is rig-derive's, re-exported by rig-core behind its `derive`
    # feature; `ToolSet` moved to rig-agent in 0.40. rig-derive is named only
    # to pin it to the same release.
    deps = ('rig-core = { version = "=0.44.0", default-features = false, features = ["derive"] }\n'
            'rig-agent = { version = "=0.44.0", default-features = false }\n'
            'rig-derive = "=0.44.0"\n' + SERDE_DEPS)
    parts = ["//! 100 tools written with rig's `#[rig_tool]`.\n\n",
             "use rig_core::rig_tool;\nuse rig_core::tool::ToolExecutionError;\n\n",
             SHARED_TYPES]
    for t in tools:
        parts.append(f"\n/// {t.doc}\n"
                     f"#[rig_tool]\n"
                     f"pub async fn {t.fn}(\n{params(t, '    ')}) -> Result<String, ToolExecutionError> {{\n"
                     f"    Ok({t.body})\n}}\n")
    added = "".join(f"    tools.add_tool({t.pascal});\n" for t in tools)
    parts.append(f"\n/// Every tool, in one set.\n"
                 f"pub fn registry() -> rig_agent::tool::ToolSet {{\n"
                 f"    let mut tools = rig_agent::tool::ToolSet::default();\n"
                 f"{added}    tools\n}}\n")
    return manifest(deps), "".join(parts)


def render_rmcp(tools: list[ToolSpec]) -> tuple[str, str]:
    # rmcp's `#[tool]` takes the description from the doc comment when it has
    # no `description = ...`; rmcp-macros is named only to pin it.
    deps = ('rmcp = { version = "=3.9.0", features = ["server", "macros", "schemars"] }\n'
            'rmcp-macros = "=3.9.0"\n' + SERDE_DEPS)
    parts = ["//! 100 tools written with rmcp's `#[tool_router]` and `#[tool]`.\n\n",
             "use rmcp::handler::server::router::tool::ToolRouter;\n"
             "use rmcp::handler::server::wrapper::Parameters;\n"
             "use rmcp::{tool, tool_router};\n\n",
             SHARED_TYPES]
    for t in tools:
        parts.append(f"\n{args_struct(t)}")
    parts.append("\n/// The server whose methods are the tools.\n"
                 "#[derive(Debug, Clone, Default)]\npub struct Tools;\n\n"
                 "#[tool_router]\nimpl Tools {\n")
    methods = []
    for t in tools:
        methods.append(f"    /// {t.doc}\n"
                       f"    #[tool]\n"
                       f"    async fn {t.fn}(&self, Parameters(args): Parameters<{t.args_struct}>) -> String {{\n"
                       f"        let {t.args_struct} {{ {t.names} }} = args;\n"
                       f"        {t.body}\n    }}\n")
    parts.append("\n".join(methods))
    parts.append("}\n\n/// Every tool, in one router.\n"
                 "pub fn registry() -> ToolRouter<Tools> {\n    Tools::tool_router()\n}\n")
    return manifest(deps), "".join(parts)


RENDERERS = {"baseline": render_baseline, "tool-core": render_tool_core,
             "rig": render_rig, "rmcp": render_rmcp}


# --------------------------------------------------------------------------
# --tokens: what the definitions cost a model request
# --------------------------------------------------------------------------

# Tokens in o200k_base (GPT-4o's and later OpenAI models' encoding), of each
# tool's definition as compact JSON, as it goes into the request (or, for
# MCP, into `tools/list`). tiktoken-rs ships its encodings: no download.
TOKENS_DEV_DEPS = """
[dev-dependencies]
tiktoken-rs = "=0.12.1"
serde_json = "1"
"""

# Each example prints, per dialect, a line: its name, the tokens of the 100
# definitions and the first definition, separated by tabs.
TOKENS_EXAMPLES = {
    "tool-core": """\
//! Tokens of the 100 tools' definitions, for every provider tool-core writes.

use tool_core::provider::Provider;

fn main() {
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
    let registry = tools100::registry();
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        // Gemini's list is one `functionDeclarations` entry holding them all.
        let tools = match provider {
            Provider::Gemini { .. } => &definitions.as_json()[0]["functionDeclarations"],
            _ => definitions.as_json(),
        };
        let tools = tools.as_array().expect("a list of tools");
        let total: usize = tools
            .iter()
            .map(|tool| bpe.encode_ordinary(&serde_json::to_string(tool).unwrap()).len())
            .sum();
        println!("{provider}\\t{total}\\t{}", serde_json::to_string(&tools[0]).unwrap());
    }
}
""",
    "rmcp": """\
//! Tokens of the 100 tools' `tools/list` entries, as rmcp serializes them.

fn main() {
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
    let tools = tools100::registry().list_all();
    let total: usize = tools
        .iter()
        .map(|tool| bpe.encode_ordinary(&serde_json::to_string(tool).unwrap()).len())
        .sum();
    println!("rmcp mcp\\t{total}\\t{}", serde_json::to_string(&tools[0]).unwrap());
}
""",
}


TOKENS_START = "<!-- tokens-table:start -->"
TOKENS_END = "<!-- tokens-table:end -->"
# The share of rmcp's `tools/list` tokens each provider's definitions aim at.
TOKENS_TARGET = 0.8
# What each provider's definitions are, beside its name.
TOKENS_LABELS = {
    "mcp": "`mcp` (`tools/list`)",
    "openai": "`openai` (Chat)",
    "openai-strict": "`openai-strict` (Chat)",
    "openai-responses": "`openai-responses` (strict)",
    "gemini": "`gemini` (`parametersJsonSchema`)",
    "gemini-openapi": "`gemini-openapi` (`parameters`)",
}


def tokens(show: bool, write: bool = False) -> None:
    """Count the definitions' tokens of tool-core (every provider) and rmcp
    (its `tools/list`), and print each beside rmcp's as a ratio; with
    `write`, also put the table in BENCHMARKS.md between its markers."""
    counts: dict[str, int] = {}
    firsts: dict[str, str] = {}
    roots = {}
    for variant in ["rmcp", "tool-core"]:
        root = roots[variant] = generate(variant, tokens=True)
        log(f"counting {variant}'s definitions (cargo run --example tokens)")
        command = ["cargo", "run", "-q", "-j", JOBS, "--example", "tokens"]
        done = subprocess.run(command, cwd=root, env=cargo_env(root, incremental=False),
                              capture_output=True, text=True)
        if done.returncode != 0:
            log(done.stderr)
            raise SystemExit(f"{shlex.join(command)} failed in {root}")
        for line in done.stdout.splitlines():
            dialect, count, first = line.split("\t", 2)
            counts[dialect], firsts[dialect] = int(count), first
    rmcp = counts.pop("rmcp mcp")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    command = shlex.join(["python3", "bench/compile/run.py", *sys.argv[1:]])
    lowest = min(counts, key=counts.get)
    met = [d for d, count in counts.items() if count / rmcp <= TOKENS_TARGET]
    verdict = (f"met by {', '.join(f'`{d}`' for d in met)}" if met else
               f"**not met** by any (the lowest, `{lowest}`, is {counts[lowest] / rmcp:.3f}x)")
    rows = [f"| rmcp 3.9.0, `tools/list` | {rmcp:,} | 1.000 |"]
    rows += [f"| {TOKENS_LABELS.get(d, f'`{d}`')} | {count:,} | **{count / rmcp:.3f}** |"
             for d, count in counts.items()]
    table = "\n".join(rows)
    text = f"""\
- Machine: {cpus} CPUs (`nproc`), {cpu_model()}; {run_text(["rustc", "--version"])}
- Date: {datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
- Command: `{command}`
- tool-core: {tool_core_commit()}
- Resolved: {resolved_versions(roots)}, tiktoken-rs 0.12.1 (`o200k_base`)

o200k_base tokens of the 100 tools' definitions, each tool's as compact
JSON, summed; counted once (the count is deterministic).

| definitions | tokens | × rmcp |
|---|---:|---:|
{table}

Target: each provider's definitions at most {TOKENS_TARGET}x rmcp's `tools/list`: {verdict}.
"""
    print(text)
    if show:
        print("The first tool's definition, as counted:\n")
        print(f"rmcp mcp: {firsts['rmcp mcp']}")
        for dialect in counts:
            print(f"{dialect}: {firsts[dialect]}")
    if write:
        write_marked(text, TOKENS_START, TOKENS_END)
        log(f"wrote the tokens table to {BENCHMARKS_MD}")


# --------------------------------------------------------------------------
# --registry: what holding the 100 tools costs
# --------------------------------------------------------------------------

# The example's sources: common.rs (the counting allocator, the timings, the
# process modes) followed by the framework's part (`build`, `list`, `parts`).
REGISTRY_SOURCES = Path(__file__).resolve().parent / "registry"
REGISTRY_DEV_DEPS = {
    # The validator tool-core compiles each schema into, measured on its own.
    "tool-core": '\n[dev-dependencies]\njsonschema = { version = "=0.60.2", default-features = false }\n',
    "rmcp": '\n[dev-dependencies]\nserde_json = "1"\n',
    "rig": "",
}


# In-process repetitions of each timing in one `registry time` run.
REGISTRY_REPS = 101
# How long each measured process waits for other compilations to end.
REGISTRY_QUIET_WAIT = 10.0
REGISTRY_START = "<!-- registry-table:start -->"
REGISTRY_END = "<!-- registry-table:end -->"
REGISTRY_HEADING = "## Registry and definitions: 100 tools"


def run_example(binary: Path, args: list[str]) -> tuple[dict[str, float], bool]:
    """Run the built example once; its `key\tvalue` lines, and whether
    another compilation was running around it."""
    wait_for_quiet(REGISTRY_QUIET_WAIT)
    busy = others_compiling()
    done = subprocess.run([str(binary), *args], capture_output=True, text=True)
    busy = others_compiling() or busy
    if done.returncode != 0:
        log(done.stdout + done.stderr)
        raise SystemExit(f"{binary} {shlex.join(args)} failed (exit {done.returncode})")
    values = {}
    for line in done.stdout.splitlines():
        key, value = line.split("\t")
        values[key] = float(value)
    return values, busy


@dataclass
class RegistryResults:
    variants: list[str]
    commit: str
    rounds: int = 0
    # samples[variant]: one dict a round, of every figure the processes printed
    samples: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    binary_bytes: dict[str, int] = field(default_factory=dict)
    # sections[variant]: an ELF section's name -> its size, from `size -A`
    sections: dict[str, dict[str, int]] = field(default_factory=dict)
    runs: int = 0
    busy_runs: int = 0

    def values(self, variant: str, key: str) -> list[float]:
        return [sample[key] for sample in self.samples[variant] if key in sample]

    def median(self, variant: str, key: str) -> float | None:
        values = self.values(variant, key)
        return statistics.median(values) if values else None

    def ratios(self, key: str, ours: str = "tool-core", peer: str = "rmcp") -> list[float]:
        return [a[key] / b[key] for a, b in zip(self.samples.get(ours, []), self.samples.get(peer, []))
                if key in a and key in b and b[key]]


def elf_sections(binary: Path) -> dict[str, int]:
    """Section sizes of a binary from binutils' `size -A`; empty without it."""
    sizes = {}
    for line in run_text(["size", "-A", str(binary)]).splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def registry_measure(variants: list[str], rounds: int) -> RegistryResults:
    """Build each variant's example in release mode, then the paired rounds:
    each round runs every variant's processes (the timings, then the three
    peak-RSS runs), in alternating order."""
    binaries = {}
    for variant in variants:
        root = generate(variant, registry=True)
        log(f"building {variant}'s registry example in {root.relative_to(REPO)} "
            "(release; the first time, every dependency)")
        seconds, _ = cargo(root, ["build", "--release", "-j", JOBS, "--example", "registry"])
        log(f"    {seconds:.1f} s")
        binaries[variant] = root / "target" / "release" / "examples" / "registry"
    results = RegistryResults(variants, commit=tool_core_commit())
    results.samples = {v: [] for v in variants}
    results.binary_bytes = {v: b.stat().st_size for v, b in binaries.items()}
    results.sections = {v: elf_sections(b) for v, b in binaries.items()}
    for r in range(rounds):
        order = variants if r % 2 == 0 else variants[::-1]
        log(f"round {r + 1}/{rounds}: {', '.join(order)}")
        for variant in order:
            sample, busy = run_example(binaries[variant], ["time", str(REGISTRY_REPS)])
            results.runs += 1
            results.busy_runs += busy
            for mode in RSS_MODES:
                status, busy = run_example(binaries[variant], ["rss", mode])
                results.runs += 1
                results.busy_runs += busy
                sample.update({f"rss_{mode}_{key}": value for key, value in status.items()})
            for part in RSS_PARTS.get(variant, []):
                status, busy = run_example(binaries[variant], ["rss", part])
                results.runs += 1
                results.busy_runs += busy
                sample.update({f"rss_{part}_{key}": value for key, value in status.items()})
            results.samples[variant].append(sample)
            log(f"    {variant:<9} first build {sample['build_first_in_process_us']:8.0f} µs, "
                f"new thread {sample['build_cold_us']:8.0f} µs, "
                f"warm {sample['build_warm_us']:8.0f} µs, heap {sample['heap_bytes'] / 1e3:7.1f} KB, "
                f"peak RSS {sample['rss_build_vmhwm_kb'] / 1e3:5.1f} MB "
                f"(empty {sample['rss_empty_vmhwm_kb'] / 1e3:4.1f} MB)"
                + ("   (another compilation was running)" if busy else ""))
        results.rounds = r + 1
    return results


RSS_MODES = ["empty", "build", "list"]
# Pieces of registration run alone, each in a process of its own.
RSS_PARTS = {"tool-core": ["meta", "validator"]}

# The table's rows: label, key, unit (how a value is shown), and the target
# on tool-core's median ratio to rmcp's, or None. The first two are what a
# registry costs to hold: a new process's first build, and the memory a
# process grows by per tool it registers.
REGISTRY_ROWS = [
    ("cold build: the first build in a new process, µs", "cold_build_us", "us", 1.0),
    ("memory per registered tool: peak RSS a new process grows by building, "
     "over the empty process, ÷ 100, KB", "rss_per_tool_kb", "kb_tool", 1.2),
    ("build on a new thread, per-process schemas forgotten, µs", "build_cold_us", "us", 1.0),
    ("build again on the same thread, µs", "build_warm_us", "us", 1.0),
    ("MCP list, first, µs", "list_first_us", "us", None),
    ("MCP list, again, µs", "list_again_us", "us", None),
    ("heap held per tool, bytes", "heap_per_tool", "bytes", None),
    ("heap held per tool with the MCP list, bytes", "heap_with_list_per_tool", "bytes", None),
    ("heap held per tool by a second collection of the same tools, bytes", "heap_again_per_tool", "bytes", None),
    ("allocations per tool, building", "allocs_per_tool", "count", None),
    ("heap peak in a process that builds it once, MB", "rss_build_heap_peak_bytes", "mb", None),
    ("peak RSS, collection built, MB", "rss_build_vmhwm_kb", "kb", None),
    ("peak RSS, built and listed, MB", "rss_list_vmhwm_kb", "kb", None),
    ("peak RSS, empty process, MB", "rss_empty_vmhwm_kb", "kb", None),
    ("peak RSS over the empty process, built, MB", "rss_build_over_empty_kb", "kb", None),
    ("peak RSS over the empty process, built and listed, MB", "rss_list_over_empty_kb", "kb", None),
]


def derive_registry_figures(results: RegistryResults) -> None:
    """Figures computed from the printed ones, added to each sample."""
    for samples in results.samples.values():
        for s in samples:
            s["heap_per_tool"] = s["heap_bytes"] / N_TOOLS
            s["heap_with_list_per_tool"] = s["heap_with_list_bytes"] / N_TOOLS
            s["heap_again_per_tool"] = s["heap_again_bytes"] / N_TOOLS
            s["allocs_per_tool"] = s["heap_allocs"] / N_TOOLS
            s["rss_build_over_empty_kb"] = s["rss_build_vmhwm_kb"] - s["rss_empty_vmhwm_kb"]
            s["rss_per_tool_kb"] = s["rss_build_over_empty_kb"] / N_TOOLS
            # A new process's first build, timed in each of the round's
            # three processes that build: the median of them.
            firsts = [s[key] for key in ("build_first_in_process_us", "rss_build_build_first_us",
                                         "rss_list_build_first_us") if key in s]
            s["cold_build_us"] = statistics.median(firsts)
            s["rss_list_over_empty_kb"] = s["rss_list_vmhwm_kb"] - s["rss_empty_vmhwm_kb"]
            for mode in RSS_MODES:
                s[f"rss_{mode}_smaps_rest_kb"] = (s.get(f"rss_{mode}_smaps_stack_kb", 0)
                                                  + s.get(f"rss_{mode}_smaps_other_kb", 0))


def shown(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "us":
        return f"{value:,.0f}" if value >= 100 else f"{value:.2f}" if value >= 1 else f"{value:.3f}"
    if unit == "kb":
        return f"{value / 1e3:.2f}"
    if unit == "mb":
        return f"{value / 1e6:.2f}"
    if unit == "count":
        return f"{value:.1f}"
    if unit == "kb_tool":
        return f"{value:.1f}"
    return f"{value:,.0f}"


def spread_cell(values: list[float], decimals: int = 2) -> str:
    if not values:
        return "n/a"
    if len(values) == 1:
        return f"{values[0]:.{decimals}f}"
    return (f"{statistics.median(values):.{decimals}f} "
            f"({min(values):.{decimals}f}–{max(values):.{decimals}f})")


def registry_table(results: RegistryResults) -> tuple[str, list[str]]:
    """The markdown table, and the target rows tool-core misses."""
    peers = [v for v in ["tool-core", "rmcp", "rig"] if v in results.variants]
    paired = "tool-core" in peers and "rmcp" in peers
    header = ["measure", *[f"`{v}`" for v in peers]]
    if paired:
        header += ["tool-core ÷ rmcp", "target", "met?"]
    lines = ["| " + " | ".join(header) + " |",
             "|---|" + "---:|" * len(peers) + ("---:|---:|---|" if paired else "")]
    missed = []
    for label, key, unit, target in REGISTRY_ROWS:
        cells = [label] + [shown(results.median(v, key), unit) for v in peers]
        if paired:
            ratios = results.ratios(key)
            cells.append(spread_cell(ratios))
            cells.append(f"≤ {target:.1f}" if target is not None else "")
            verdict = ""
            if target is not None and ratios:
                met = statistics.median(ratios) <= target
                verdict = "yes" if met else "**no**"
                if not met:
                    name = label.split(":")[0] if ":" in label else label.rsplit(",", 1)[0]
                    missed.append(f"{name} ({statistics.median(ratios):.2f}x, target ≤ {target:.1f}x)")
            cells.append(verdict)
        lines.append("| " + " | ".join(cells) + " |")
    sizes = " | ".join(f"{results.binary_bytes[v] / 1e6:.2f}" for v in peers)
    ratio = (f" | {results.binary_bytes['tool-core'] / results.binary_bytes['rmcp']:.2f} | "
             if paired else "")
    lines.append(f"| release binary of the example, MB | {sizes}{ratio}" + (" | |" if paired else ""))
    return "\n".join(lines), missed


def provider_table(results: RegistryResults) -> str:
    if "tool-core" not in results.variants:
        return ""
    first = {k.split(":", 1)[1] for k in results.samples["tool-core"][0] if k.startswith("provider_first_us:")}
    names = [k.split(":", 1)[1] for k in results.samples["tool-core"][0] if k.startswith("provider_first_us:")]
    assert set(names) == first
    lines = ["| tool-core provider | first, µs | cached, µs |", "|---|---:|---:|"]
    for name in names:
        lines.append(f"| `{name}` | {shown(results.median('tool-core', f'provider_first_us:{name}'), 'us')} | "
                     f"{shown(results.median('tool-core', f'provider_again_us:{name}'), 'us')} |")
    if "rmcp" in results.variants:
        lines.append(f"| rmcp `list_all()` (made on every call) | "
                     f"{shown(results.median('rmcp', 'list_first_us'), 'us')} | "
                     f"{shown(results.median('rmcp', 'list_again_us'), 'us')} |")
    return "\n".join(lines)


def class_table(results: RegistryResults) -> str:
    """Live blocks and bytes per size class, for the collection."""
    peers = [v for v in ["tool-core", "rmcp"] if v in results.variants]
    classes = sorted({int(k.split("_")[2]) for v in peers for k in results.samples[v][0]
                      if k.startswith("heap_class_") and k.endswith("_bytes")})
    header = "| block size | " + " | ".join(f"`{v}` blocks | `{v}` bytes" for v in peers) + " |"
    lines = [header, "|---|" + "---:|---:|" * len(peers)]
    for upper in classes:
        cells = [f"≤ {upper:,}"]
        for v in peers:
            blocks = results.median(v, f"heap_class_{upper}_blocks") or 0
            size = results.median(v, f"heap_class_{upper}_bytes") or 0
            cells += [f"{blocks:,.0f}", f"{size:,.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


SMAPS_ROWS = [
    ("the binary's code (`r-x`)", "smaps_exe_code_kb"),
    ("the binary's read-only data (`r--`, relocated at start)", "smaps_exe_readonly_kb"),
    ("the binary's writable data", "smaps_exe_data_kb"),
    ("heap (`[heap]` and anonymous)", "smaps_heap_kb"),
    ("shared libraries (libc, ...)", "smaps_libraries_kb"),
    ("stack and the rest", "smaps_rest_kb"),
    ("all (`VmRSS`)", "vmrss_kb"),
]


def mapping_table(results: RegistryResults) -> str:
    """The resident set of the `rss empty` and `rss build` runs by mapping."""
    peers = [v for v in ["tool-core", "rmcp", "rig"] if v in results.variants]
    header = "| resident, MB | " + " | ".join(f"`{v}` empty | `{v}` built" for v in peers) + " |"
    lines = [header, "|---|" + "---:|---:|" * len(peers)]
    for label, key in SMAPS_ROWS:
        cells = [label]
        for v in peers:
            cells += [shown(results.median(v, f"rss_{mode}_{key}"), "kb") for mode in ("empty", "build")]
        lines.append("| " + " | ".join(cells) + " |")
    sections = [".text", ".rodata", ".data.rel.ro", ".rela.dyn", ".eh_frame"]
    if all(results.sections.get(v) for v in peers):
        lines += ["", "| binary, MB | " + " | ".join(f"`{v}`" for v in peers) + " |",
                  "|---|" + "---:|" * len(peers)]
        lines.append("| file | " + " | ".join(f"{results.binary_bytes[v] / 1e6:.2f}" for v in peers) + " |")
        for name in sections:
            lines.append(f"| `{name}` | "
                         + " | ".join(f"{results.sections[v].get(name, 0) / 1e6:.2f}" for v in peers) + " |")
    return "\n".join(lines)


def registry_findings(results: RegistryResults) -> str:
    """What the measurements say about where tool-core's cost goes beside
    rmcp's: heap, time, peak RSS."""
    if not {"tool-core", "rmcp"} <= set(results.variants):
        return ""
    m = results.median
    tc_heap, rm_heap = m("tool-core", "heap_bytes"), m("rmcp", "heap_bytes")
    tc_list = m("tool-core", "heap_with_list_bytes") - tc_heap
    tc_again_heap, rm_again_heap = m("tool-core", "heap_again_bytes"), m("rmcp", "heap_again_bytes")
    validators = m("tool-core", "part_validators_bytes")
    tc_schemas, rm_schemas = m("tool-core", "part_schemas_bytes"), m("rmcp", "part_schemas_bytes")
    rest_heap = tc_heap - tc_schemas
    if validators <= rest_heap:
        held = (f" The 100 compiled `jsonschema` validators, made at registration, are "
                f"{validators / 1e3:,.1f} KB of that rest.")
    else:
        held = (f" It holds no compiled validator: a tool's `jsonschema` validator is made on "
                f"the first call whose arguments are checked against the schema; the 100 of them, "
                f"compiled on their own, hold {validators / 1e3:,.1f} KB, which a registry whose every "
                f"tool has had a call checked holds on top.")
    cold, warm = m("tool-core", "build_cold_us"), m("tool-core", "build_warm_us")
    rm_cold, rm_warm = m("rmcp", "build_cold_us"), m("rmcp", "build_warm_us")
    first, rm_first_build = m("tool-core", "cold_build_us"), m("rmcp", "cold_build_us")
    meta, compile_us = m("tool-core", "part_meta_us"), m("tool-core", "part_validators_us")
    clone = m("tool-core", "part_clone_us")
    tc_first, rm_first = m("tool-core", "list_first_us"), m("rmcp", "list_first_us")
    tc_again, rm_again = m("tool-core", "list_again_us"), m("rmcp", "list_again_us")
    line = {}
    for v in ("tool-core", "rmcp"):
        empty, built = m(v, "rss_empty_vmhwm_kb"), m(v, "rss_build_vmhwm_kb")
        peak, live = m(v, "rss_build_heap_peak_bytes"), m(v, "rss_build_heap_live_bytes")
        kept = m(v, "rss_build_heap_retained_bytes") - m(v, "rss_empty_heap_retained_bytes")
        line[v] = (f"empty {empty / 1e3:.2f} MB (release binary {results.binary_bytes[v] / 1e6:.2f} MB), "
                   f"built {built / 1e3:.2f} MB; the heap peaks at {peak / 1e6:.2f} MB during the "
                   f"first build, {live / 1e6:.2f} MB live once built, of which {kept / 1e6:.2f} MB "
                   f"stays when the collection is dropped (made once per process)")
    def resident(v: str, key: str) -> float:
        return m(v, f"rss_build_{key}") or 0.0
    gap = resident("tool-core", "vmrss_kb") - resident("rmcp", "vmrss_kb")
    parts = [(label, resident("tool-core", key) - resident("rmcp", key))
             for label, key in SMAPS_ROWS[:-1]]
    parts = [(label, kb) for label, kb in parts if abs(kb) >= 50]
    rss_cause = (f"Of the {gap / 1e3:.2f} MB more that tool-core's built process holds (`VmRSS`, "
                 "by mapping from `/proc/self/smaps`, table below): "
                 + ", ".join(f"{label} {kb / 1e3:+.2f} MB" for label, kb in parts) + ".")
    meta_code = m("tool-core", "rss_meta_smaps_exe_code_kb")
    if meta_code is not None:
        empty_code = m("tool-core", "rss_empty_smaps_exe_code_kb")
        built_code = m("tool-core", "rss_build_smaps_exe_code_kb")
        rm_code = m("rmcp", "rss_build_smaps_exe_code_kb") - m("rmcp", "rss_empty_smaps_exe_code_kb")
        # Registration ran no `jsonschema` code if a build pages in less
        # code than one meta-schema check alone does.
        untouched = built_code - empty_code < meta_code - empty_code
        rss_cause += (
            f" A build adds {(built_code - empty_code) / 1e3:.2f} MB of tool-core's code to the "
            f"resident set (rmcp's {rm_code / 1e3:.2f} MB)"
            + (": schemars, serde_json and the registry" if untouched else "") + ". "
            f"Registration reads each schema against the meta-schema's rules itself and gives "
            f"`jsonschema` only one it cannot read so (another draft, an `$id` or anchor, a "
            f"value of the wrong shape, which then gets `jsonschema`'s own error)"
            + (": none of these 100, so no `jsonschema` code runs. " if untouched else
               ": some of these 100, whose check pages its code in. ")
            + f"A process that checks one schema with "
            f"`jsonschema::meta::validate` (`rss meta`, no registry) has "
            f"{(meta_code - empty_code) / 1e3:.2f} MB of code resident over the empty process and "
            f"peaks at {m('tool-core', 'rss_meta_vmhwm_kb') / 1e3:.2f} MB; its first check takes "
            f"{m('tool-core', 'rss_meta_meta_first_us'):,.0f} µs (building the meta-schema's "
            f"validator), which a registration that ran it would add to the cold build.")
    validator_code = m("tool-core", "rss_validator_smaps_exe_code_kb")
    if meta_code is not None and validator_code is not None:
        rss_cause += (
            f" That code comes at a tool's first call whose arguments are checked against its "
            f"schema: a process that only compiles one schema into the validator that call makes "
            f"(`rss validator`) has {(validator_code - empty_code) / 1e3:.2f} MB of code resident "
            f"over the empty process and peaks at {m('tool-core', 'rss_validator_vmhwm_kb') / 1e3:.2f} MB. "
            f"A `#[tool]` whose reading checks all its schema says checks only a call whose "
            f"reading fails. Validating arguments against the schema is what rmcp does not do, "
            f"and most of the larger binary ({results.binary_bytes['tool-core'] / 1e6:.2f} against "
            f"{results.binary_bytes['rmcp'] / 1e6:.2f} MB), whose relocated read-only data is most "
            f"of the empty process's difference: that is in every process, with or without a "
            f"registry, and so not in the memory per registered tool.")
    return f"""\
Where it goes, measured by the same binaries (`parts` in the example: the
registry's input schemas taken out with `ToolRegistry::info`, then each
step of registration done on its own, with the same counting allocator;
the RSS processes also print the heap's live and peak bytes):

- Heap: tool-core's registry holds {tc_heap / 1e3:,.1f} KB ({tc_heap / N_TOOLS:,.0f} B a tool), rmcp's
  router {rm_heap / 1e3:,.1f} KB ({rm_heap / N_TOOLS:,.0f} B a tool). Of tool-core's, the 100 input
  schemas as `serde_json::Value`s are {tc_schemas / 1e3:,.1f} KB (rmcp's, as `JsonObject`s:
  {rm_schemas / 1e3:,.1f} KB, nearly all of its router), and the rest, {rest_heap / 1e3:,.1f} KB, is the
  entries, names, index and per-tool null handling.{held} A second
  collection of the same tools, built while the first lives, holds {tc_again_heap / 1e3:,.1f} KB
  ({tc_again_heap / N_TOOLS:,.0f} B a tool; rmcp's {rm_again_heap / 1e3:,.1f} KB): each shares the schemas
  it made for the first. The cached MCP
  definitions add {tc_list / 1e3:,.1f} KB to the registry; rmcp makes its list anew on
  each call.
- Time: the cold build, a new process's first, is {first:,.0f} µs for tool-core against
  {rm_first_build:,.0f} µs for rmcp, each generating every schema with schemars; built
  again on a new thread with the per-process schemas forgotten, {cold:,.0f} µs against
  {rm_cold:,.0f} µs. Of tool-core's, merely copying the 100 schema values is {clone:,.0f} µs
  ({clone / cold:.0%} of the latter; making them, as the tools' schema functions do, costs
  at least that). Each schema is checked against the meta-schema's rules by
  reading it, in the registry; `jsonschema::meta::validate` of the 100, which it
  is not given, would be {meta:,.0f} µs more, after building the meta-schema's
  validator once per process (below). Compiling the 100 validators would be
  {compile_us:,.0f} µs more{" (done on each tool's first checked call instead)" if validators > rest_heap else ""}.
  Warm, each takes what it made before: rmcp its schemas from its
  per-thread cache ({rm_warm:,.0f} µs), tool-core each `#[tool]`'s definition and
  checked schemas from its per-process one ({warm:,.0f} µs).
- Definitions: tool-core's MCP list costs {tc_first:,.0f} µs the first time (each schema
  through the provider's dialect) and {tc_again * 1e3:,.0f} ns cached; rmcp's `list_all()`
  {rm_first:,.1f} µs the first time and {rm_again:,.1f} µs each time after (clones of the
  100 `Tool`s, the schemas shared).
- Peak RSS: tool-core {line["tool-core"]}; rmcp {line["rmcp"]}.
  {rss_cause}
"""


def registry_section(results: RegistryResults, command: str) -> tuple[str, bool]:
    derive_registry_figures(results)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    table, missed = registry_table(results)
    n = results.rounds
    verdict = ("**Met**: tool-core's median ratio is within its target in every target row."
               if not missed else
               f"**Not met** in {len(missed)} target row{'s' if len(missed) != 1 else ''}: "
               + "; ".join(missed) + ".")
    if any(row.startswith("memory") for row in missed):
        verdict += " Where the memory goes, measured, is under \"Peak RSS\" below."
    text = f"""\
{REGISTRY_HEADING}

What holding the same 100 tools as the compile-time table costs at run
time, in a release build: the time to build the collection (tool-core's
`ToolRegistry::new().with(Tool0)..`, rmcp's `Tools::tool_router()`, rig's
`ToolSet` with `add_tool`, as context), the time to make the MCP list of
definitions (tool-core's `Provider::Mcp.definitions(&registry)`, made once
and then cached in the registry until a tool is added; rmcp's
`ToolRouter::list_all()`, made on every call; rig's descriptors), the heap
the collection holds, and the process's peak RSS. Each workspace's
`examples/registry.rs` (`bench/compile/registry/`) counts the heap with a
`#[global_allocator]` around the system allocator and times each step over
{REGISTRY_REPS} repetitions in one process (the median), the collection dropped
between: "on a new thread" builds each on a new thread, so that rmcp's
per-thread schema cache starts empty, after tool-core has forgotten the
definitions and checked schemas it keeps per process for each `#[tool]`
(`tool_core::__private::forget_schemas`); "again on the same thread"
reuses rmcp's per-thread schemas and tool-core's per-process ones. The heap
is the live bytes after a build on a new thread minus before, with the
thread gone (what is kept per process counted); a second collection is
built while the first lives. Peak RSS is `VmHWM` of a separate process
that builds the collection once (and once its list), beside the same
binary building nothing. Each round runs every framework's processes, in
alternating order; the ratio is tool-core's over rmcp's of the same round:
median (min–max), n = {n}; the other cells are medians over the rounds.

What a registry costs to hold is the first two rows. The **cold build** is
the first build in a new process, everything the process makes once
included (meta-schemas, generator settings, code paged in): timed in each
of the round's three processes that build (`time`, `rss build`, `rss
list`), the round's figure the median of the three. The **memory per
registered tool** is the peak RSS (`VmHWM`) a process grows by when it
builds the collection, over the same binary building nothing, divided by
the 100 tools: heap and code alike, what the process would not hold
without the registry.

- Machine: {cpus} CPUs (`nproc`), {cpu_model()}; {run_text(["rustc", "--version"])}
- Date: {datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
- Command: `{command}`
- tool-core: {results.commit}
- Machine load: {quiet_note(results)}

Targets for tool-core, on the median ratio to rmcp's: a cold build at most
rmcp's (≤ 1.0), memory per registered tool at most 1.2x rmcp's, and the
builds on a thread at most rmcp's. {verdict}

{table}

{provider_table(results)}

{registry_findings(results)}
Resident set by mapping at the end of the `rss empty` and `rss build` runs
(medians of the rounds), and the binaries' largest sections (`size -A`):

{mapping_table(results)}

Live heap blocks of each collection by size (median of the rounds):

{class_table(results)}
"""
    return text, not missed


def registry(args: argparse.Namespace) -> None:
    variants = [v for v in args.variants if v != "baseline"]
    command = shlex.join(["python3", "bench/compile/run.py", *sys.argv[1:]])
    results = registry_measure(variants, args.rounds)
    text, _ = registry_section(results, command)
    print(text)
    if args.write:
        write_marked(text, REGISTRY_START, REGISTRY_END)
        log(f"wrote the registry section to {BENCHMARKS_MD}")


def write_if_changed(path: Path, text: str) -> None:
    """Write only on a change, so an unchanged crate is not rebuilt."""
    if path.exists() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def generate(variant: str, tokens: bool = False, registry: bool = False) -> Path:
    """Write the variant's crate; with `tokens`, also the example that counts
    its definitions' tokens, with `registry` the one that measures holding
    the tools (and the dev-dependencies they need), which a plain `cargo
    build` of the library never compiles."""
    root = BENCH_DIR / variant
    cargo_toml, lib_rs = RENDERERS[variant](tool_specs())
    if tokens:
        cargo_toml += TOKENS_DEV_DEPS
        write_if_changed(root / "examples" / "tokens.rs", TOKENS_EXAMPLES[variant])
    # An example of another mode would not build without its dev-dependencies.
    for name, wanted in (("tokens", tokens), ("registry", registry)):
        stale = root / "examples" / f"{name}.rs"
        if not wanted and stale.exists():
            stale.unlink()
    if registry:
        cargo_toml += REGISTRY_DEV_DEPS[variant]
        example = REGISTRY_SOURCES / "common.rs"
        write_if_changed(root / "examples" / "registry.rs",
                         example.read_text() + (REGISTRY_SOURCES / f"{variant}.rs").read_text())
    write_if_changed(root / "Cargo.toml", cargo_toml)
    write_if_changed(root / "src" / "lib.rs", lib_rs)
    return root


# --------------------------------------------------------------------------
# Running cargo
# --------------------------------------------------------------------------

def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cargo_env(root: Path, incremental: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.update(CARGO_INCREMENTAL="1" if incremental else "0",
               CARGO_TARGET_DIR=str(root / "target"),
               CARGO_TERM_COLOR="never")
    return env


def cargo(root: Path, args: list[str], incremental: bool = False) -> tuple[float, str]:
    """Run `cargo args` in `root`; return (wall-clock seconds, stderr).

    A failure ends the benchmark with cargo's output.
    """
    seconds, _, stderr = cargo_timed(root, args, incremental)
    return seconds, stderr


def children_cpu() -> float:
    """User + system seconds of every child process waited for so far, and
    of every process each of them waited for in turn."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cargo_timed(root: Path, args: list[str], incremental: bool = False) -> tuple[float, float, str]:
    """Run `cargo args` in `root`; return (wall-clock seconds, CPU seconds,
    stderr). The CPU time is cargo's and that of the processes it waited
    for (every rustc, build scripts): nothing else runs as our child
    meanwhile, so the growth of RUSAGE_CHILDREN over the run is theirs.

    A failure ends the benchmark with cargo's output.
    """
    command = ["cargo", *args]
    env = cargo_env(root, incremental)
    cpu_before = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    cpu = children_cpu() - cpu_before
    if done.returncode != 0:
        log(f"\n`CARGO_INCREMENTAL={env['CARGO_INCREMENTAL']} {shlex.join(command)}` "
            f"failed in {root} (exit {done.returncode}):\n")
        log(done.stdout + done.stderr)
        raise SystemExit(1)
    return seconds, cpu, done.stderr


COMPILED = re.compile(r"^\s*(?:Compiling|Checking) (\S+) v", re.MULTILINE)


def others_compiling() -> bool:
    """Whether a cargo or rustc process is running; called between our own
    runs, so any such process belongs to someone else on the machine."""
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() in ("cargo", "rustc"):
                return True
        except OSError:
            pass
    return False


def wait_for_quiet(limit: float = QUIET_WAIT) -> None:
    """Wait, up to `limit` seconds, until nobody else is compiling."""
    deadline = time.monotonic() + limit
    if others_compiling():
        log("    (waiting for another cargo or rustc process to finish)")
    while others_compiling() and time.monotonic() < deadline:
        time.sleep(1)


def touch(root: Path) -> None:
    (root / "src" / "lib.rs").touch()


def mode_args(mode: str) -> tuple[list[str], bool]:
    """Cargo's arguments for a mode, and whether incremental is on."""
    return {
        "build": (["build", "-j", JOBS], False),
        "check": (["check", "-j", JOBS], False),
        "incremental": (["build", "-j", JOBS], True),
    }[mode]


class DependencyChanged(Exception):
    """Cargo compiled more than `tools100`: a dependency (tool-core) changed
    on disk, so the rounds measured so far are of another version."""


def timed(root: Path, mode: str) -> tuple[float, float, bool]:
    """Wall-clock and CPU seconds for `touch src/lib.rs && <mode's cargo
    command>`, and whether another compilation was running on the machine
    before or after it.
    """
    args, incremental = mode_args(mode)
    if mode == "incremental":
        touch(root)
        _, stderr = cargo(root, args, incremental)  # the warm-up
        check_only_tools100(root, stderr)
    wait_for_quiet()
    touch(root)
    busy = others_compiling()
    seconds, cpu, stderr = cargo_timed(root, args, incremental)
    busy = others_compiling() or busy
    check_only_tools100(root, stderr)
    return seconds, cpu, busy


def check_only_tools100(root: Path, stderr: str) -> None:
    others = sorted(set(COMPILED.findall(stderr)) - {"tools100"})
    if others:
        raise DependencyChanged(f"{root.name}: cargo also compiled {', '.join(others)}")


def rlib_size(root: Path) -> int:
    rlibs = list((root / "target" / "debug" / "deps").glob("libtools100-*.rlib"))
    if not rlibs:
        raise SystemExit(f"{root.name}: no libtools100-*.rlib after the build")
    return max(rlibs, key=lambda p: p.stat().st_mtime).stat().st_size


def prebuild(variant: str) -> Path:
    """Generate the crate and build its dependencies in every mode once."""
    root = generate(variant)
    log(f"preparing {variant} in {root.relative_to(REPO)}: building what is not built "
        "(the first time, every dependency)")
    for mode in MODES:
        args, incremental = mode_args(mode)
        seconds, _ = cargo(root, args, incremental)
        log(f"    {mode}: {seconds:.1f} s")
    return root


# --------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------

@dataclass
class Results:
    variants: list[str]
    commit: str  # of tool-core, when the rounds started
    rounds: int = 0
    # seconds[mode][variant] (wall clock), cpu[mode][variant] and
    # sizes[variant]: one entry per round
    seconds: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    cpu: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    sizes: dict[str, list[int]] = field(default_factory=dict)
    # timed runs, and those that another compilation on the machine overlapped
    runs: int = 0
    busy_runs: int = 0

    def absolute(self, column: str, variant: str) -> list[float]:
        """A column's figures: a mode's wall-clock seconds (`build`), its CPU
        seconds (`build cpu`), or the rlib's bytes (`rlib`)."""
        if column == "rlib":
            return [float(s) for s in self.sizes[variant]]
        if column.endswith(CPU_SUFFIX):
            return self.cpu[column.removesuffix(CPU_SUFFIX)][variant]
        return self.seconds[column][variant]

    def ratios(self, column: str, variant: str) -> list[float]:
        base = self.absolute(column, "baseline")
        return [v / b for v, b in zip(self.absolute(column, variant), base)]


def measure(roots: dict[str, Path], rounds: int, attempts: int = 3) -> Results:
    """The rounds, started again from the first, with every dependency built
    again, when a dependency changes on disk during them."""
    for _ in range(attempts):
        try:
            return measure_once(roots, rounds)
        except DependencyChanged as changed:
            log(f"{changed}; its sources changed, so the rounds start again")
            for variant in roots:
                prebuild(variant)
    raise SystemExit("the dependencies keep changing on disk; run the benchmark again later")


def measure_once(roots: dict[str, Path], rounds: int) -> Results:
    variants = list(roots)
    results = Results(variants, commit=tool_core_commit())
    results.seconds = {mode: {v: [] for v in variants} for mode in MODES}
    results.cpu = {mode: {v: [] for v in variants} for mode in MODES}
    results.sizes = {v: [] for v in variants}
    for r in range(rounds):
        order = variants if r % 2 == 0 else variants[::-1]
        log(f"round {r + 1}/{rounds}: {', '.join(order)}")
        for mode in MODES:
            for variant in order:
                seconds, cpu, busy = timed(roots[variant], mode)
                results.seconds[mode][variant].append(seconds)
                results.cpu[mode][variant].append(cpu)
                results.runs += 1
                results.busy_runs += busy
                line = f"    {mode:<11} {variant:<9} {seconds:6.2f} s   cpu {cpu:6.2f} s"
                if mode == "build":
                    size = rlib_size(roots[variant])
                    results.sizes[variant].append(size)
                    line += f"   rlib {size / 1e6:.1f} MB"
                log(line + ("   (another compilation was running)" if busy else ""))
        results.rounds = r + 1
    return results


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------

def run_text(command: list[str], cwd: Path = REPO) -> str:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def tool_core_commit() -> str:
    if SNAPSHOT_COMMIT:
        return f"{SNAPSHOT_COMMIT} (a snapshot of the commit, `--commit`)"
    commit = run_text(["git", "rev-parse", "--short", "HEAD"])
    dirty = run_text(["git", "status", "--porcelain", "--", "tool-core", "tool-macros", "Cargo.toml"])
    return f"{commit} (with uncommitted changes to tool-core)" if dirty not in ("", "unknown") else commit


def resolved_versions(roots: dict[str, Path]) -> str:
    """`name version` of the reported packages, from each variant's Cargo.lock."""
    found: dict[str, dict[str, list[str]]] = {}
    for variant, root in roots.items():
        lock = tomllib.loads((root / "Cargo.lock").read_text())
        for package in lock.get("package", []):
            if package["name"] in REPORTED_PACKAGES:
                found.setdefault(package["name"], {}).setdefault(package["version"], []).append(variant)
    parts = []
    for name in REPORTED_PACKAGES:
        for version, variants in found.get(name, {}).items():
            where = "" if len(found[name]) == 1 else f" ({', '.join(variants)})"
            parts.append(f"{name} {version}{where}")
    return ", ".join(parts)


def ratio_cell(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


COLUMNS = ["build", "check", "incremental", "rlib"]
CPU_SUFFIX = " cpu"
# The table's columns: each mode's wall-clock time, then its CPU time; the
# targets (COLUMNS) are on wall-clock time and size.
TABLE_COLUMNS = [c for mode in MODES for c in (mode, mode + CPU_SUFFIX)] + ["rlib"]


def column_heading(column: str, unit: str) -> str:
    """`build ×base`, `build CPU ×base`; `build s`, `build CPU s`."""
    if column.endswith(CPU_SUFFIX):
        return f"{column.removesuffix(CPU_SUFFIX)} CPU {unit}"
    return f"{column} {unit}"


def met_cell(results: Results) -> str:
    """Whether tool-core's row meets the targets, and is ahead of the peers."""
    median = {c: statistics.median(results.ratios(c, "tool-core")) for c in COLUMNS}
    missed = [c for c in COLUMNS if median[c] > TARGETS[c][0]]
    verdicts = ["yes: every target" if not missed else f"no: {', '.join(missed)} over target"]
    # Peers with the same standing share one clause: "behind rig and rmcp in ...".
    standing: dict[str, list[str]] = {}
    for peer in ("rig", "rmcp"):
        if peer not in results.variants:
            continue
        behind = [c for c in COLUMNS
                  if median[c] >= statistics.median(results.ratios(c, peer))]
        where = ("ahead of {}" if not behind
                 else "behind {} in every column" if len(behind) == len(COLUMNS)
                 else "behind {} in " + ", ".join(behind))
        standing.setdefault(where, []).append(peer)
    verdicts += [where.format(" and ".join(peers)) for where, peers in standing.items()]
    return "; ".join(verdicts)


def table(results: Results) -> str:
    has_tool_core = "tool-core" in results.variants
    header = ["variant", *(column_heading(c, "×base") for c in TABLE_COLUMNS)]
    if has_tool_core:
        header.append("met?")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for variant in results.variants:
        cells = [f"`{variant}`"]
        for column in TABLE_COLUMNS:
            cells.append("1.00" if variant == "baseline" else ratio_cell(results.ratios(column, variant)))
        if has_tool_core:
            cells.append(met_cell(results) if variant == "tool-core" else "")
        lines.append("| " + " | ".join(cells) + " |")
    if has_tool_core:
        limits = ", ".join(
            f"{c} ≤ {limit}x" + (f" (aim {aim}x)" if aim else "")
            for c, (limit, aim) in TARGETS.items())
        lines.append("")
        lines.append(f"Targets for tool-core: {limits}; ahead of rig and rmcp "
                     "(a lower median ratio in every column).")

    units = [column_heading(c, "MB" if c == "rlib" else "s") for c in TABLE_COLUMNS]
    lines += ["", "Median absolute figures:", "",
              "| variant | " + " | ".join(units) + " |",
              "|" + "---|" * (len(units) + 1)]
    for variant in results.variants:
        cells = [f"`{variant}`"]
        for column in TABLE_COLUMNS:
            value = statistics.median(results.absolute(column, variant))
            cells.append(f"{value / 1e6:.1f}" if column == "rlib" else f"{value:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def quiet_note(results: Results) -> str:
    if results.busy_runs == 0:
        return f"no other cargo or rustc process seen around any of the {results.runs} timed runs"
    return (f"another cargo or rustc process was running around {results.busy_runs} of the "
            f"{results.runs} timed runs; those figures are less reliable")


def section(results: Results, roots: dict[str, Path], command: str) -> str:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    base = {c: statistics.median(results.absolute(c, "baseline")) for c in TABLE_COLUMNS}
    return f"""\
## Compile time: 100 tools

The same 100 tools (3 documented arguments each: String, u8, i64, f64, bool,
`Option<String>`, `Vec<String>`, a nested documented struct and a unit enum;
trivial bodies) written without a framework (`baseline`: argument structs
deriving `Deserialize` and `JsonSchema`, plain async functions), with
tool-core's `#[tool(tier = Observe)]` and one `ToolRegistry`, with rig's
`#[rig_tool]` and one `ToolSet`, and with rmcp's `#[tool]` methods in one
`#[tool_router]` impl. Each is the library crate `tools100` in a workspace of
its own with its dependencies built; every run touches `src/lib.rs`, so only
that crate is compiled. Whole-process wall-clock time and CPU time (user +
system of cargo and the rustc it runs) of
`CARGO_INCREMENTAL=0 cargo build -j 2` (debug), `CARGO_INCREMENTAL=0 cargo
check -j 2`, and `CARGO_INCREMENTAL=1 cargo build -j 2` after one incremental
build; size of the debug `libtools100-*.rlib`. Each round runs every variant
in every mode, in alternating order; each figure is the variant's over the
baseline's of the same round: median (min–max) over {results.rounds} round{'s' if results.rounds != 1 else ''}.
`bench/compile/README.md` says more.

- Machine: {cpus} CPUs (`nproc`), {cpu_model()}; {run_text(["rustc", "--version"])}
- Date: {datetime.date.today().isoformat()}
- Command: `{command}`
- tool-core: {results.commit}
- Resolved: {resolved_versions(roots)}
- Machine load: {quiet_note(results)}
- Baseline medians: build {base['build']:.2f} s (CPU {base['build cpu']:.2f} s), check {base['check']:.2f} s (CPU {base['check cpu']:.2f} s), incremental {base['incremental']:.2f} s (CPU {base['incremental cpu']:.2f} s), rlib {base['rlib'] / 1e6:.1f} MB

{table(results)}
"""


def write_section(text: str) -> None:
    """Replace the compile table's section of BENCHMARKS.md, or append it."""
    write_marked(text, START_MARKER, END_MARKER)


def write_marked(text: str, start_marker: str, end_marker: str) -> None:
    """Replace what is between the markers in BENCHMARKS.md, or append the
    markers and the text at the end."""
    block = f"{start_marker}\n{text.strip()}\n{end_marker}"
    current = BENCHMARKS_MD.read_text() if BENCHMARKS_MD.exists() else ""
    start, end = current.find(start_marker), current.find(end_marker)
    if start != -1 and end > start:
        updated = current[:start] + block + current[end + len(end_marker):]
    else:
        updated = current.rstrip("\n") + ("\n\n" if current else "") + block + "\n"
    BENCHMARKS_MD.write_text(updated)


def snapshot(revision: str) -> None:
    """Measure tool-core as of `revision`: the repository at that commit,
    extracted with `git archive` (once) under BENCH_DIR/tool-core-src/."""
    global TOOL_CORE_CHECKOUT, SNAPSHOT_COMMIT
    commit = run_text(["git", "rev-parse", "--short", f"{revision}^{{commit}}"])
    if commit == "unknown":
        raise SystemExit(f"--commit {revision}: not a commit of {REPO}")
    dest = BENCH_DIR / "tool-core-src" / commit
    if not (dest / "tool-core" / "Cargo.toml").exists():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=REPO,
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                tar.extractall(dest, filter="data")
            else:
                tar.extractall(dest)
    TOOL_CORE_CHECKOUT, SNAPSHOT_COMMIT = dest, commit
    log(f"tool-core as of {commit}, from {dest.relative_to(REPO)}")


# --------------------------------------------------------------------------
# --timings: where the time goes
# --------------------------------------------------------------------------

def timings() -> None:
    root = prebuild("tool-core")
    target = root / "target"
    touch(root)
    log("cargo build --timings (tool-core variant)")
    cargo(root, ["build", "-j", JOBS, "--timings"])
    print(f"cargo --timings report: {target / 'cargo-timings' / 'cargo-timing.html'}")

    if subprocess.run(["cargo", "llvm-lines", "--version"], capture_output=True).returncode != 0:
        print("cargo llvm-lines is not installed; `cargo install cargo-llvm-lines`, then run again.")
        return
    log("cargo llvm-lines --lib (tool-core variant)")
    done = subprocess.run(["cargo", "llvm-lines", "--lib"], cwd=root, capture_output=True,
                          text=True, env=cargo_env(root, incremental=False))
    if done.returncode != 0:
        log(done.stderr)
        raise SystemExit(1)
    out = root / "llvm-lines.txt"
    out.write_text(done.stdout)
    print(f"cargo llvm-lines output: {out}")
    print("\n".join(done.stdout.splitlines()[:25]))


# --------------------------------------------------------------------------

def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds (default 5)")
    parser.add_argument("--quick", action="store_true", help="one round, to try it out")
    parser.add_argument("--variants", default=",".join(FRAMEWORKS),
                        help=f"comma-separated subset of {','.join(FRAMEWORKS)} "
                             "(the baseline is always measured)")
    parser.add_argument("--write", action="store_true",
                        help=f"replace the section between {START_MARKER} and {END_MARKER} "
                             "in BENCHMARKS.md (appended if absent)")
    parser.add_argument("--commit", metavar="REV",
                        help="measure tool-core as of this git commit (a snapshot under "
                             "target/compile-bench/tool-core-src/) instead of the working tree")
    parser.add_argument("--timings", action="store_true",
                        help="only run `cargo build --timings` and `cargo llvm-lines` "
                             "on the tool-core variant and say where the outputs are")
    parser.add_argument("--tokens", action="store_true",
                        help="instead of timing builds: count the o200k_base tokens of the "
                             "100 definitions, tool-core's for every provider and rmcp's "
                             "`tools/list`")
    parser.add_argument("--registry", action="store_true",
                        help="instead of timing builds: the time to build the 100-tool "
                             "collection and its definitions, the heap it holds and the peak "
                             "RSS, tool-core's beside rmcp's and rig's, in paired rounds")
    parser.add_argument("--all", action="store_true",
                        help="every table in turn: the compile table, --tokens, --registry, "
                             "bench/peers and bench/mcp-load (with --write, each into its "
                             "section of BENCHMARKS.md)")
    parser.add_argument("--dry-run", action="store_true",
                        help="with --all, only list the steps it would run")
    parser.add_argument("--show", action="store_true",
                        help="with --tokens, also print the first tool's definition as counted")
    args = parser.parse_args()
    chosen = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in chosen if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; choose from {', '.join(FRAMEWORKS)}")
    args.variants = [v for v in VARIANTS if v == "baseline" or v in chosen]
    if args.quick:
        args.rounds = 1
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def compile_table(args: argparse.Namespace) -> None:
    """The compile-time table: paired rounds of builds, checks and
    incremental builds; with --write, into BENCHMARKS.md."""
    command = shlex.join(["python3", "bench/compile/run.py", *sys.argv[1:]])
    roots = {variant: prebuild(variant) for variant in args.variants}
    results = measure(roots, args.rounds)
    text = section(results, roots, command)
    print(text)
    if args.write:
        write_section(text)
        log(f"wrote the section to {BENCHMARKS_MD}")


# --------------------------------------------------------------------------
# --all: every table, in one run
# --------------------------------------------------------------------------

def sdk_python() -> Path:
    """The venv with the providers' Python SDKs (the MCP SDK among them),
    `target/sdk-venv`, made as .ci/run makes it when it is missing or its
    requirements changed."""
    venv = REPO / "target" / "sdk-venv"
    requirements = REPO / "tests" / "sdk" / "requirements.txt"
    installed = venv / "installed-requirements.txt"
    if not installed.exists() or installed.read_bytes() != requirements.read_bytes():
        log(f"making {venv.relative_to(REPO)} from {requirements.relative_to(REPO)}")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet",
                        "--disable-pip-version-check", "-r", str(requirements)], check=True)
        installed.write_bytes(requirements.read_bytes())
    return venv / "bin" / "python"


def redis_server() -> Path:
    """The redis-server the store's benchmarks start: TOOL_REDIS_SERVER, or
    the one scripts/test unpacks into target/redis (run for it when
    missing)."""
    named = os.environ.get("TOOL_REDIS_SERVER")
    server = Path(named) if named else REPO / "target" / "redis" / "redis-server"
    if not server.exists():
        log(f"unpacking redis-server into {server.parent} (scripts/test --no-run)")
        subprocess.run([str(REPO / "scripts" / "test"), "--no-run"], cwd=REPO, check=True)
    os.environ["TOOL_REDIS_SERVER"] = str(server)
    return server


def cargo_bench(package: str, bench: str, write: list[str]) -> None:
    """`cargo bench -p PACKAGE --bench BENCH`, in the workspace: a bench of
    its own harness, which writes its table with --write."""
    command = ["cargo", "bench", "-j", JOBS, "-p", package, "--bench", bench, "--", *write]
    log(shlex.join(command))
    done = subprocess.run(command, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"`{shlex.join(command)}` failed (exit {done.returncode})")


def bench_crate(directory: str, args: list[str]) -> None:
    """`cargo run --release -- args` in bench/<directory>, whose
    .cargo/config.toml names its target directory (so a CARGO_TARGET_DIR
    from the environment is left out); its report goes to the terminal."""
    env = {k: v for k, v in os.environ.items() if k != "CARGO_TARGET_DIR"}
    command = ["cargo", "run", "--release", "-j", JOBS, "--", *args]
    log(f"(cd bench/{directory} && {shlex.join(command)})")
    done = subprocess.run(command, cwd=REPO / "bench" / directory, env=env)
    if done.returncode != 0:
        raise SystemExit(f"bench/{directory}: `{shlex.join(command)}` failed (exit {done.returncode})")


def all_steps(args: argparse.Namespace) -> list[tuple[str, object]]:
    """Every table, in the order BENCHMARKS.md is written: name and run.
    With --quick, one round of each."""
    write = ["--write"] if args.write else []
    into = (lambda marker: f", into <!-- {marker}:start/end -->") if args.write else (lambda _: "")
    rounds = f"{args.rounds} paired round{'s' if args.rounds != 1 else ''}"
    peers = (["--rounds", "1"] if args.quick else []) + write
    load = ["--rounds", "1" if args.quick else "25"] + write
    # A p99 of 10,000 calls a run, tool-mcp beside rmcp: the steadier figure.
    long_load = (["--only", "tool-mcp,rmcp", "--calls", "10000", "--rounds", "1" if args.quick else "15"]
                 + write)
    # Tools/call on 1, 2 and 3 replicas sharing one Redis, beside one in memory.
    replicas = ["--replicas", "--calls", "10000", "--rounds", "1" if args.quick else "15"] + write
    return [
        (f"compile table: {rounds} of {', '.join(args.variants)}{into('compile-table')}",
         lambda: compile_table(args)),
        (f"context cost: --tokens{into('tokens-table')}",
         lambda: tokens(False, args.write)),
        (f"registry and definitions: --registry, {rounds}{into('registry-table')}",
         lambda: registry(args)),
        (f"dispatch beside rmcp and rig: (cd bench/peers && {shlex.join(['cargo', 'run', '--release', '--', *peers])})",
         lambda: bench_crate("peers", peers)),
        (f"MCP under load: (cd bench/mcp-load && {shlex.join(['cargo', 'run', '--release', '--', *load])}), "
         "with target/sdk-venv (made when missing)",
         lambda: (sdk_python(), bench_crate("mcp-load", load))),
        (f"MCP under load, 10,000 calls a run: (cd bench/mcp-load && "
         f"{shlex.join(['cargo', 'run', '--release', '--', *long_load])}){into('mcp-load-table-10000')}",
         lambda: bench_crate("mcp-load", long_load)),
        (f"reading a stream: {shlex.join(['cargo', 'bench', '-p', 'tool-core', '--bench', 'stream', '--', *write])}"
         f"{into('stream-read-table')}",
         lambda: cargo_bench("tool-core", "stream", write)),
        (f"calls started while the model streams: {shlex.join(['cargo', 'bench', '--bench', 'early_start', '--', *write])}"
         f"{into('early-start-table')}",
         lambda: cargo_bench("tool-workspace", "early_start", write)),
        (f"calls kept in a store: {shlex.join(['cargo', 'bench', '-p', 'tool-redis', '--bench', 'waiting', '--', *write])}"
         f"{into('store-waiting-table')}, with target/redis (made when missing)",
         lambda: (redis_server(), cargo_bench("tool-redis", "waiting", write))),
        (f"MCP across replicas: (cd bench/mcp-load && {shlex.join(['cargo', 'run', '--release', '--', *replicas])})"
         f"{into('mcp-replicas-table')}",
         lambda: (redis_server(), bench_crate("mcp-load", replicas))),
    ]


def run_all(args: argparse.Namespace) -> None:
    steps = all_steps(args)
    if args.dry_run:
        for i, (name, _) in enumerate(steps, 1):
            print(f"{i}. {name}")
        return
    for i, (name, run) in enumerate(steps, 1):
        log(f"\n=== {i}/{len(steps)} {name}")
        run()


def main() -> None:
    args = parse_args()
    if args.commit:
        snapshot(args.commit)
    if args.all:
        run_all(args)
        return
    if args.timings:
        timings()
        return
    if args.tokens:
        tokens(args.show, args.write)
        return
    if args.registry:
        registry(args)
        return
    compile_table(args)


if __name__ == "__main__":
    main()
