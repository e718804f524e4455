//! The Restate service made at run time from a registry's tools: its
//! manifest (one handler per tool, with the tool's schemas and retry
//! policy) and the dispatcher that runs an invocation's handler.
//!
//! The SDK's macros make a service from a Rust `impl` block known at
//! compile time, each handler's schema from one Rust type. A registry's
//! tools are known only at run time, each with a schema of its own, so this
//! file does by hand what the macros' expansion does: it implements
//! `restate_sdk::service::Service`, builds the `discovery::Service`
//! manifest, and joins the two with
//! `restate_sdk::service::macro_support::service_definition`. That module
//! is `#[doc(hidden)]` (the SDK says it may change in any release), which
//! is why the crate pins `restate-sdk = "=0.13.0"`, the version this file
//! was checked against (its `restate-sdk-macros/src/struct_generator.rs`
//! generates the same calls). Everything else of the SDK used here is its
//! public API.

use std::sync::Arc;

use restate_sdk::discovery::{
    Handler, HandlerName, HandlerType, InputPayload, OutputPayload, Service as Manifest,
    ServiceName, ServiceType,
};
use restate_sdk::endpoint::{
    ContextInternal, Error as EndpointError, HandlerOptions, ServiceOptions,
};
use restate_sdk::errors::HandlerError;
use restate_sdk::prelude::{Context, Json};
use restate_sdk::service::macro_support::{ServiceBoxFuture, service_definition};
use restate_sdk::service::{Service, ServiceDefinition};
use serde_json::{Value, json};
use tool_core::ToolRegistry;
use tool_core::registry::ToolInfo;

use crate::handler::{ContextFn, call_tool};
use crate::retry::RetryPolicy;
use crate::timeout;

/// Why a registry cannot be served as a Restate service.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The service's name is not one Restate accepts.
    #[error("`{name}` cannot name a Restate service: {reason}")]
    ServiceName {
        /// The name given.
        name: String,
        /// What Restate said of it.
        reason: String,
    },
    /// A tool's name is not one Restate accepts as a handler's.
    #[error("tool `{name}` cannot name a Restate handler: {reason}")]
    HandlerName {
        /// The tool's name.
        name: String,
        /// What Restate said of it.
        reason: String,
    },
}

/// The service's manifest and dispatcher, ready to bind to an endpoint.
pub(crate) fn definition<Ctx: Send + Sync + 'static>(
    name: &str,
    registry: &Arc<ToolRegistry<Ctx>>,
    context: &Arc<ContextFn<Ctx>>,
) -> Result<ServiceDefinition, DefinitionError> {
    let mut handlers = Vec::with_capacity(registry.tools().len());
    let mut options = ServiceOptions::new();
    for tool in registry.tools() {
        handlers.push(handler(&tool)?);
        let limit = timeout::of_call(registry, &tool.definition.name);
        options = options.handler(
            tool.definition.name.clone(),
            timeout::apply(
                limit,
                RetryPolicy::of(tool.metadata).apply(HandlerOptions::new()),
            ),
        );
    }
    let manifest = manifest(ServiceType::Service, name, handlers)?;
    let dispatcher = Dispatcher {
        registry: Arc::clone(registry),
        context: Arc::clone(context),
    };
    Ok(service_definition(dispatcher, manifest).options(options))
}

/// A service's manifest, as Restate discovers it: its kind, name and
/// handlers, every setting left to Restate's defaults or to the
/// [`ServiceOptions`] bound beside it.
///
/// # Errors
///
/// When `name` is not one Restate accepts.
pub(crate) fn manifest(
    ty: ServiceType,
    name: &str,
    handlers: Vec<Handler>,
) -> Result<Manifest, DefinitionError> {
    let service_name =
        ServiceName::try_from(name.to_owned()).map_err(|error| DefinitionError::ServiceName {
            name: name.to_owned(),
            reason: error.to_string(),
        })?;
    Ok(Manifest {
        ty,
        name: service_name,
        handlers,
        documentation: None,
        metadata: Default::default(),
        abort_timeout: None,
        inactivity_timeout: None,
        journal_retention: None,
        idempotency_retention: None,
        enable_lazy_state: None,
        ingress_private: None,
        retry_policy_initial_interval: None,
        retry_policy_max_interval: None,
        retry_policy_max_attempts: None,
        retry_policy_exponentiation_factor: None,
        retry_policy_on_max_attempts: None,
    })
}

/// A tool's handler in the manifest: its name, description and schemas.
/// Restate publishes the schemas (its admin API, the service's OpenAPI)
/// but checks no request against them (restate-server 1.7.12 passed
/// `{"amount":"abc"}` on to a handler whose schema asks for an integer,
/// checking only the content type); the registry does.
fn handler(tool: &ToolInfo<'_>) -> Result<Handler, DefinitionError> {
    let definition = tool.definition;
    let documentation =
        (!definition.description.is_empty()).then(|| definition.description.clone());
    // A tool without arguments may be called with no body.
    let input = (definition.input_schema.clone(), false);
    let output = Some(result_schema(tool.output_schema));
    handler_manifest(&definition.name, None, documentation, input, output)
}

/// A handler in a manifest, JSON in and out: its name (checked as Restate
/// checks it), its kind (a workflow's), its documentation, its input's
/// schema and whether a body is required, its output's schema; every
/// other setting left to Restate's defaults.
pub(crate) fn handler_manifest(
    name: &str,
    ty: Option<HandlerType>,
    documentation: Option<String>,
    (input, required): (Value, bool),
    output: Option<Value>,
) -> Result<Handler, DefinitionError> {
    let checked =
        HandlerName::try_from(name.to_owned()).map_err(|error| DefinitionError::HandlerName {
            name: name.to_owned(),
            reason: error.to_string(),
        })?;
    Ok(Handler {
        name: checked,
        input: Some(InputPayload {
            content_type: Some("application/json".to_owned()),
            json_schema: Some(input),
            required: Some(required),
        }),
        output: Some(OutputPayload {
            content_type: Some("application/json".to_owned()),
            json_schema: output,
            set_content_type_if_empty: Some(false),
        }),
        ty,
        documentation,
        metadata: Default::default(),
        abort_timeout: None,
        inactivity_timeout: None,
        journal_retention: None,
        idempotency_retention: None,
        workflow_completion_retention: None,
        enable_lazy_state: None,
        ingress_private: None,
        retry_policy_initial_interval: None,
        retry_policy_max_interval: None,
        retry_policy_max_attempts: None,
        retry_policy_exponentiation_factor: None,
        retry_policy_on_max_attempts: None,
    })
}

/// The schema of a handler's output: a [`ToolResult`](tool_core::ToolResult)
/// in its stored form, whose `structured` content is the tool's output
/// schema, when it declares one.
fn result_schema(output_schema: Option<&Value>) -> Value {
    let mut properties = json!({
        "v": {"const": 1},
        "output": {"type": "object"},
        "is_error": {"type": "boolean"},
        "error": {"type": "object"},
        "state": {},
    });
    if let (Some(schema), Some(properties)) = (output_schema, properties.as_object_mut()) {
        properties.insert("structured".to_owned(), schema.clone());
    }
    json!({"type": "object", "properties": properties, "required": ["v", "output"]})
}

/// Runs an invocation's handler: the tool of the same name.
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
            let tool = ctx.handler_name().to_owned();
            if registry.info(&tool).is_none() {
                return Err(EndpointError::unknown_handler(
                    ctx.service_name(),
                    ctx.handler_name(),
                ));
            }
            let (input, metadata) = ctx.input::<Option<Json<Value>>>().await;
            let restate: Context<'_> = (&ctx, metadata).into();
            let arguments = input.map_or_else(|| json!({}), Json::into_inner);
            let result = call_tool(&restate, &registry, &context, &tool, arguments).await;
            ctx.handle_handler_result(result.map_err(HandlerError::from));
            ctx.end();
            Ok(())
        })
    }
}
