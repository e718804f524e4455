//! Every framework built once, and one block of calls of one variant: a
//! shape called one way.

use std::future::Future;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::runtime::Runtime;

use crate::shapes::{App, Shape};
use crate::{rg, rm, tc};

/// How a shape's tool is called.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Way {
    /// `serde_json::from_str::<Args>`, then the body.
    Raw,
    /// tool-core, validation on, the arguments as `Value::String`.
    TcString,
    /// tool-core, validation on, the arguments parsed into a `Value`
    /// (the object) for each call.
    TcValue,
    /// tool-core, validation on, given the arguments' object parsed
    /// before the block's time starts: a caller that holds a `Value`
    /// (an MCP server's request, a provider's object arguments).
    TcHeld,
    /// tool-core, validation off, the arguments as `Value::String`.
    TcNoValidation,
    /// tool-core, `add_note_async`, validation on, `Value::String`.
    TcAsync,
    /// rmcp's `ToolRouter::call`.
    Rmcp,
    /// rmcp's `ToolRouter::call`, given the object parsed before the
    /// block's time starts, as its server is.
    RmcpHeld,
    /// rmcp, `add_note_async`.
    RmcpAsync,
    /// rig's `ToolSet::execute`.
    Rig,
    /// rig, `add_note_async`.
    RigAsync,
}

impl Way {
    /// The ways every shape is measured, beside `Raw`.
    pub const EVERY_SHAPE: [Way; 6] = [
        Way::TcString,
        Way::TcValue,
        Way::TcNoValidation,
        Way::Rmcp,
        Way::TcHeld,
        Way::RmcpHeld,
    ];

    /// The ways only `add_note` is measured, beside `Raw`.
    pub const NOTE_ONLY: [Way; 4] = [Way::TcAsync, Way::RmcpAsync, Way::Rig, Way::RigAsync];

    pub fn label(self) -> &'static str {
        match self {
            Way::Raw => "raw serde_json::from_str + fn",
            Way::TcString => "tool-core, validation on, string",
            Way::TcValue => "tool-core, validation on, Value",
            Way::TcHeld => "tool-core, validation on, held Value",
            Way::TcNoValidation => "tool-core, validation off, string",
            Way::TcAsync => "tool-core, async fn, validation on, string",
            Way::Rmcp => "rmcp ToolRouter::call",
            Way::RmcpHeld => "rmcp ToolRouter::call, held object",
            Way::RmcpAsync => "rmcp ToolRouter::call, async fn",
            Way::Rig => "rig ToolSet::execute",
            Way::RigAsync => "rig ToolSet::execute, async fn",
        }
    }

    /// The name of the tool this way calls for `shape`.
    fn tool(self, shape: Shape) -> &'static str {
        match self {
            Way::TcAsync | Way::RmcpAsync | Way::RigAsync => "add_note_async",
            _ => shape.name(),
        }
    }
}

/// What a block's time is read from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Clock {
    /// The time that passed (`Instant`).
    Wall,
    /// The CPU time of the thread that runs the calls
    /// (`CLOCK_THREAD_CPUTIME_ID`): the time other processes hold the core
    /// is left out. Every call runs on that thread (a current-thread
    /// runtime, nothing waits for I/O).
    Thread,
}

impl Clock {
    /// The clock's reading now.
    fn now(self) -> Duration {
        match self {
            Clock::Wall => {
                static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
                ORIGIN.get_or_init(Instant::now).elapsed()
            }
            Clock::Thread => {
                let mut now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                // SAFETY: `now` is a valid `timespec` for the call to write.
                let done = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
                assert_eq!(done, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
                let secs = u64::try_from(now.tv_sec).expect("a positive time");
                let nanos = u32::try_from(now.tv_nsec).expect("under a second");
                Duration::new(secs, nanos)
            }
        }
    }
}

/// Whether a block checks one call's text or times calls.
#[derive(Clone, Copy)]
pub enum Block {
    /// One call, its text returned.
    Check,
    /// This many calls, timed by the clock.
    Time(u32, Clock),
}

/// Everything built once, before any timing.
pub struct Frameworks {
    /// The raw baseline's state (what `lookup` reads).
    pub app: App,
    pub tc_validation: tool_core::ToolRegistry<App>,
    pub tc_no_validation: tool_core::ToolRegistry<App>,
    pub tc_ctx: tool_core::ToolContext<App>,
    pub rmcp_router: rmcp::handler::server::router::tool::ToolRouter<rm::Server>,
    pub rmcp_service: rm::Server,
    /// The peer every `RequestContext` holds: rmcp makes one only for a
    /// running service (`Peer::new` is crate-private), so a service is
    /// served directly (no handshake) on an in-memory pipe nobody writes to.
    pub rmcp_peer: rmcp::service::Peer<rmcp::RoleServer>,
    pub rig_set: rig_agent::tool::ToolSet,
}

impl Frameworks {
    pub fn build(rt: &Runtime) -> Self {
        let service = rm::Server {
            app: Arc::new(App::new()),
        };
        let (server_end, client_end) = tokio::io::duplex(4096);
        // The client end is kept open for the whole run, so the service
        // never sees end of input.
        std::mem::forget(client_end);
        let running = {
            let _guard = rt.enter();
            rmcp::service::serve_directly::<rmcp::RoleServer, _, _, _, _>(
                service.clone(),
                server_end,
                None,
            )
        };
        let rmcp_peer = running.peer().clone();
        // The service task lives as long as the process.
        std::mem::forget(running);
        Frameworks {
            app: App::new(),
            tc_validation: tc::registry(),
            tc_no_validation: tool_core::registry::RegistryBuilder::from(tc::registry())
                .validation(tool_core::registry::Validation::Off)
                .build(),
            tc_ctx: tool_core::ToolContext::new(App::new()),
            rmcp_router: rm::router(),
            rmcp_service: service,
            rmcp_peer,
            rig_set: rg::toolset(),
        }
    }

    /// rmcp's call as its generated `ServerHandler::call_tool` makes it,
    /// starting from the arguments' string.
    async fn rmcp_call(
        &self,
        name: &'static str,
        args: &str,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        use rmcp::model::JsonObject;

        let arguments: JsonObject = serde_json::from_str(args).expect("a JSON object");
        self.rmcp_call_held(name, arguments).await
    }

    /// [`rmcp_call`](Self::rmcp_call) from the parsed object.
    async fn rmcp_call_held(
        &self,
        name: &'static str,
        arguments: rmcp::model::JsonObject,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        use rmcp::handler::server::tool::ToolCallContext;
        use rmcp::model::{CallToolRequestParams, NumberOrString};
        use rmcp::service::RequestContext;

        let params = CallToolRequestParams::new(name).with_arguments(arguments);
        let request = RequestContext::new(NumberOrString::Number(1), self.rmcp_peer.clone());
        let context = ToolCallContext::new(&self.rmcp_service, params, request);
        self.rmcp_router.call(context).await
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

/// One block of `shape` called `way`: its time, and with [`Block::Check`]
/// the one call's text.
pub fn block(
    rt: &Runtime,
    fw: &Frameworks,
    shape: Shape,
    way: Way,
    block: Block,
) -> (Duration, Option<String>) {
    let args = shape.args();
    let name = way.tool(shape);
    rt.block_on(async {
        let clock = match block {
            Block::Time(_, clock) => clock,
            Block::Check => Clock::Wall,
        };
        // The objects a held way is given, parsed before its time starts.
        let held_count = match block {
            Block::Time(n, _) if matches!(way, Way::TcHeld | Way::RmcpHeld) => n as usize,
            Block::Check if matches!(way, Way::TcHeld | Way::RmcpHeld) => 1,
            _ => 0,
        };
        let held: Vec<serde_json::Map<String, Value>> = (0..held_count)
            .map(|_| serde_json::from_str(args).expect("a JSON object"))
            .collect();
        let start = clock.now();
        let text = match way {
            Way::Raw => {
                let raw = shape.raw();
                let app = &fw.app;
                let call = |args| async move { raw(app, args) };
                calls(block, args, call, raw_text).await
            }
            Way::TcString | Way::TcNoValidation | Way::TcAsync => {
                let registry = match way {
                    Way::TcNoValidation => &fw.tc_no_validation,
                    _ => &fw.tc_validation,
                };
                let call = |args: &str| {
                    registry.call(&fw.tc_ctx, black_box(name), Value::String(args.to_owned()))
                };
                calls(block, args, call, tc_text).await
            }
            Way::TcValue => {
                let call = |args: &str| {
                    let value = serde_json::from_str(args).expect("a JSON object");
                    fw.tc_validation.call(&fw.tc_ctx, black_box(name), value)
                };
                calls(block, args, call, tc_text).await
            }
            Way::TcHeld => {
                let call = |object| {
                    fw.tc_validation
                        .call(&fw.tc_ctx, black_box(name), Value::Object(object))
                };
                held_calls(block, held, call, tc_text).await
            }
            Way::RmcpHeld => {
                let call = |object| fw.rmcp_call_held(black_box(name), object);
                held_calls(block, held, call, rmcp_text).await
            }
            Way::Rmcp | Way::RmcpAsync => {
                let call = |args| fw.rmcp_call(black_box(name), args);
                calls(block, args, call, rmcp_text).await
            }
            Way::Rig | Way::RigAsync => {
                let call = |args| async move {
                    let mut ctx = rig_core::tool::ToolContext::default();
                    fw.rig_set.execute(black_box(name), args, &mut ctx).await
                };
                calls(block, args, call, rig_text).await
            }
        };
        (clock.now() - start, text)
    })
}

/// With [`Block::Time`], that many calls, each on the black-boxed `args`,
/// each result's text black-boxed before the result is dropped; with
/// [`Block::Check`], one call and its text.
async fn calls<F, Fut, R>(
    block: Block,
    args: &'static str,
    mut call: F,
    text: fn(&R) -> Option<&str>,
) -> Option<String>
where
    F: FnMut(&'static str) -> Fut,
    Fut: Future<Output = R>,
{
    match block {
        Block::Check => text(&call(args).await).map(str::to_owned),
        Block::Time(n, _) => {
            for _ in 0..n {
                let result = call(black_box(args)).await;
                black_box(text(&result));
            }
            None
        }
    }
}

/// [`calls`], each call given the next of the objects parsed before the
/// block's time started.
async fn held_calls<F, Fut, R>(
    block: Block,
    held: Vec<serde_json::Map<String, Value>>,
    mut call: F,
    text: fn(&R) -> Option<&str>,
) -> Option<String>
where
    F: FnMut(serde_json::Map<String, Value>) -> Fut,
    Fut: Future<Output = R>,
{
    let mut held = held.into_iter();
    match block {
        Block::Check => {
            let object = held.next().expect("one object to check");
            text(&call(object).await).map(str::to_owned)
        }
        Block::Time(..) => {
            for object in held {
                let result = call(black_box(object)).await;
                black_box(text(&result));
            }
            None
        }
    }
}
