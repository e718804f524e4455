//! The turn's workflow as the Restate SDK binds it: its manifest (a
//! workflow with the handlers `run`, `approve`, `deliver`, `answer` and
//! `questions`) and the dispatcher
//! that runs them, made by hand as `src/definition.rs` makes the tool
//! service (see there why, and the pinned SDK it was checked against).

use std::sync::Arc;

use restate_sdk::discovery::{Handler, HandlerType, ServiceType};
use restate_sdk::endpoint::{
    ContextInternal, Error as EndpointError, HandlerOptions, ServiceOptions,
};
use restate_sdk::errors::{HandlerError, TerminalError};
use restate_sdk::prelude::{
    ContextPromises, ContextReadState, Json, SharedWorkflowContext, WorkflowContext,
};
use restate_sdk::service::macro_support::{ServiceBoxFuture, service_definition};
use restate_sdk::service::{Service, ServiceDefinition};
use serde_json::{Value, json};
use tool_core::context::CancellationToken;
use tool_core::elicit::Answer;
use tool_core::provider::Provider;
use tool_core::{ToolRegistry, ToolResult};

use crate::definition::{DefinitionError, handler_manifest, manifest};
use crate::handler::ContextFn;
use crate::timeout;
use crate::turn::ask::{QUESTION_PREFIX, answer_promise, question_state};
use crate::turn::step::Step;
use crate::turn::wait::{promise_name, result_promise_name};

/// The handler that runs the turn, once per workflow key.
pub(crate) const RUN: &str = "run";
/// The handler that gives a parked call's decision.
pub(crate) const APPROVE: &str = "approve";
/// The handler that gives the result of a call run elsewhere.
pub(crate) const DELIVER: &str = "deliver";
/// The handler that answers a tool's question.
pub(crate) const ANSWER: &str = "answer";
/// The handler that lists the questions waiting for an answer.
pub(crate) const QUESTIONS: &str = "questions";

/// The workflow's manifest and dispatcher, ready to bind to an endpoint.
pub(crate) fn definition<Ctx: Send + Sync + 'static>(
    name: &str,
    registry: &Arc<ToolRegistry<Ctx>>,
    context: &Arc<ContextFn<Ctx>>,
) -> Result<ServiceDefinition, DefinitionError> {
    let handlers = vec![
        handler(
            RUN,
            HandlerType::Workflow,
            "Runs the tool calls of a model's response, each a durable step; its output is the turn, with the reply in the provider's shape.",
            json!({"type": "object", "properties": {
                "provider": {"type": "string"},
                "response": {}
            }, "required": ["provider", "response"]}),
        )?,
        handler(
            APPROVE,
            HandlerType::Shared,
            "Decides a call of the turn parked for approval: runs it (with edited arguments, if given) or denies it.",
            json!({"type": "object", "properties": {
                "call": {"type": "string"},
                "approve": {"type": "boolean"},
                "arguments": {"type": "object"},
                "reason": {"type": "string"}
            }, "required": ["call", "approve"]}),
        )?,
        handler(
            DELIVER,
            HandlerType::Shared,
            "Gives the result of a call of the turn run elsewhere (a long-running tool's, which the client runs): a text, or a tool result in its stored form.",
            json!({"type": "object", "properties": {
                "call": {"type": "string"},
                "result": {}
            }, "required": ["call", "result"]}),
        )?,
        handler(
            ANSWER,
            HandlerType::Shared,
            "Answers the question a tool of the turn asked the person, which `questions` lists: accept (with the content its schema asks for), decline or cancel, as MCP elicitation's result.",
            json!({"type": "object", "properties": {
                "call": {"type": "string"},
                "answer": {"type": "object", "properties": {
                    "action": {"enum": ["accept", "decline", "cancel"]},
                    "content": {"type": "object"}
                }, "required": ["action"]}
            }, "required": ["call", "answer"]}),
        )?,
        handler_manifest(
            QUESTIONS,
            Some(HandlerType::Shared),
            Some(
                "The questions the turn's tools asked the person that wait for an answer."
                    .to_owned(),
            ),
            (json!({"type": "object"}), false),
            None,
        )?,
    ];
    let manifest = manifest(ServiceType::Workflow, name, handlers)?;
    let dispatcher = Dispatcher {
        registry: Arc::clone(registry),
        context: Arc::clone(context),
    };
    // A step of the turn may take as long as the slowest tool may run.
    let options = ServiceOptions::new().handler(
        RUN,
        timeout::apply(timeout::longest(registry), HandlerOptions::new()),
    );
    Ok(service_definition(dispatcher, manifest).options(options))
}

/// A handler of the workflow: JSON in, with a body required.
fn handler(
    name: &'static str,
    ty: HandlerType,
    doc: &str,
    input: Value,
) -> Result<Handler, DefinitionError> {
    handler_manifest(name, Some(ty), Some(doc.to_owned()), (input, true), None)
}

/// Runs an invocation of the workflow's handlers.
struct Dispatcher<Ctx> {
    registry: Arc<ToolRegistry<Ctx>>,
    context: Arc<ContextFn<Ctx>>,
}

impl<Ctx: Send + Sync + 'static> Service for Dispatcher<Ctx> {
    type Future = ServiceBoxFuture;

    fn handle(&self, ctx: ContextInternal) -> Self::Future {
        let registry = Arc::clone(&self.registry);
        let context = Arc::clone(&self.context);
        Box::pin(async move {
            match ctx.handler_name() {
                RUN => {
                    let (Json(input), metadata) = ctx.input::<Json<Value>>().await;
                    let restate: WorkflowContext<'_> = (&ctx, metadata).into();
                    let step = Step {
                        restate: &restate,
                        registry: &registry,
                        context: &context,
                        order: tokio::sync::Mutex::new(()),
                        cancel: CancellationToken::new(),
                    };
                    let result = run(&step, &input).await;
                    ctx.handle_handler_result(result.map_err(HandlerError::from));
                }
                APPROVE => {
                    let (Json(input), metadata) = ctx.input::<Json<Value>>().await;
                    let restate: SharedWorkflowContext<'_> = (&ctx, metadata).into();
                    let result = approve(&restate, &input);
                    ctx.handle_handler_result(result.map_err(HandlerError::from));
                }
                DELIVER => {
                    let (Json(input), metadata) = ctx.input::<Json<Value>>().await;
                    let restate: SharedWorkflowContext<'_> = (&ctx, metadata).into();
                    let result = deliver(&restate, &input);
                    ctx.handle_handler_result(result.map_err(HandlerError::from));
                }
                ANSWER => {
                    let (Json(input), metadata) = ctx.input::<Json<Value>>().await;
                    let restate: SharedWorkflowContext<'_> = (&ctx, metadata).into();
                    let result = answer(&restate, &input).await;
                    ctx.handle_handler_result(result.map_err(HandlerError::from));
                }
                QUESTIONS => {
                    let (_, metadata) = ctx.input::<Option<Json<Value>>>().await;
                    let restate: SharedWorkflowContext<'_> = (&ctx, metadata).into();
                    let result = questions(&restate).await;
                    ctx.handle_handler_result(result.map_err(HandlerError::from));
                }
                _ => {
                    return Err(EndpointError::unknown_handler(
                        ctx.service_name(),
                        ctx.handler_name(),
                    ));
                }
            }
            ctx.end();
            Ok(())
        })
    }
}

/// The turn: the response parsed as its provider's, its calls run under
/// the registry's batch rules, each as durable steps; the turn, whole, is
/// the output.
async fn run<Ctx: Send + Sync + 'static>(
    step: &Step<'_, Ctx>,
    input: &Value,
) -> Result<Json<Value>, TerminalError> {
    let provider: Provider = input["provider"]
        .as_str()
        .ok_or_else(|| bad_input("`provider` must name a provider (\"anthropic\", ...)"))?
        .parse()
        .map_err(|error| bad_input(&format!("{error}")))?;
    let turn = provider
        .respond_with(step.registry, &input["response"], |at, call| {
            step.run(at, call)
        })
        .await
        .map_err(|error| {
            bad_input(&format!(
                "the response is not {}'s: {error}",
                provider.name()
            ))
        })?;
    serde_json::to_value(&turn)
        .map(Json)
        .map_err(|error| TerminalError::new(format!("the turn cannot be written: {error}")))
}

/// A decision on a parked call, resolving the promise its step waits on.
fn approve(restate: &SharedWorkflowContext<'_>, input: &Value) -> Result<(), TerminalError> {
    let call = input["call"]
        .as_str()
        .ok_or_else(|| bad_input("`call` must be the call's id, as the provider gave it"))?;
    let Some(approve) = input["approve"].as_bool() else {
        return Err(bad_input("`approve` must be true or false"));
    };
    if approve
        && input
            .get("arguments")
            .is_some_and(|a| !a.is_object() && !a.is_null())
    {
        return Err(bad_input("`arguments`, if given, must be an object"));
    }
    restate.resolve_promise(&promise_name(call), Json(input.clone()));
    Ok(())
}

/// The result of a call run elsewhere, resolving the promise its step
/// waits on: a text, or a [`ToolResult`] in its stored form.
fn deliver(restate: &SharedWorkflowContext<'_>, input: &Value) -> Result<(), TerminalError> {
    let call = input["call"]
        .as_str()
        .ok_or_else(|| bad_input("`call` must be the call's id, as the provider gave it"))?;
    let result = match &input["result"] {
        Value::String(text) => ToolResult::text(text.clone()),
        stored => serde_json::from_value(stored.clone()).map_err(|error| {
            bad_input(&format!(
                "`result` must be a text or a tool result in its stored form: {error}"
            ))
        })?,
    };
    restate.resolve_promise(&result_promise_name(call), Json(result));
    Ok(())
}

/// The answer to the question a call's tool asked, resolving the promise
/// its step waits on: the open question of the call is read from the
/// workflow's state, so an answer given when none waits is refused.
async fn answer(restate: &SharedWorkflowContext<'_>, input: &Value) -> Result<(), TerminalError> {
    let call = input["call"]
        .as_str()
        .ok_or_else(|| bad_input("`call` must be the call's id, as the provider gave it"))?;
    let answer: Answer = serde_json::from_value(input["answer"].clone()).map_err(|error| {
        bad_input(&format!(
            "`answer` must be {{\"action\": \"accept\", \"content\": {{..}}}}, \
             {{\"action\": \"decline\"}} or {{\"action\": \"cancel\"}}: {error}"
        ))
    })?;
    let open = restate
        .get::<Json<Value>>(&question_state(call))
        .await?
        .map(Json::into_inner);
    let Some(id) = open.as_ref().and_then(|question| question["id"].as_str()) else {
        return Err(TerminalError::new_with_code(
            404,
            format!("no question of the call `{call}` waits for an answer"),
        ));
    };
    restate.resolve_promise(&answer_promise(id), Json(answer));
    Ok(())
}

/// The questions that wait for an answer: each asking call's open one.
async fn questions(restate: &SharedWorkflowContext<'_>) -> Result<Json<Value>, TerminalError> {
    let mut open = Vec::new();
    for key in restate.get_keys().await? {
        if key.starts_with(QUESTION_PREFIX)
            && let Some(Json(question)) = restate.get::<Json<Value>>(&key).await?
        {
            open.push(question);
        }
    }
    Ok(Json(Value::Array(open)))
}

/// A request that can never succeed: not retried.
fn bad_input(message: &str) -> TerminalError {
    TerminalError::new_with_code(400, message)
}
