//! A registry served as a Restate service.

use std::future::Future;
use std::sync::Arc;

use restate_sdk::endpoint::Endpoint;
use restate_sdk::http_server::HttpServer;
use restate_sdk::service::ServiceDefinition;
use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry};

use crate::definition::{DefinitionError, definition};
use crate::handler::ContextFn;
use crate::invocation::Invocation;

/// The name a service takes unless given another.
const DEFAULT_NAME: &str = "Tools";

/// A [`ToolRegistry`] as a Restate service: each tool a handler of the
/// same name, each call a durable step.
///
/// See the [crate's documentation](crate) for what a call through Restate
/// does, and an example.
pub struct RestateService<Ctx> {
    served: Served<Ctx>,
}

impl<Ctx: Send + Sync + 'static> std::fmt::Debug for RestateService<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.served.debug("RestateService", f)
    }
}

/// What a service or workflow of a registry's tools holds: the registry,
/// what makes each call's context, and the name Restate knows it by.
pub(crate) struct Served<Ctx> {
    pub(crate) registry: Arc<ToolRegistry<Ctx>>,
    pub(crate) context: Arc<ContextFn<Ctx>>,
    pub(crate) name: String,
}

impl<Ctx: Send + Sync + 'static> Served<Ctx> {
    pub(crate) fn new(
        registry: impl Into<Arc<ToolRegistry<Ctx>>>,
        context: impl Fn(&Invocation<'_>) -> ToolContext<Ctx> + Send + Sync + 'static,
        name: &str,
    ) -> Self {
        Self {
            registry: registry.into(),
            context: Arc::new(context),
            name: name.to_owned(),
        }
    }

    /// The `Debug` of `kind`: its name and tools.
    pub(crate) fn debug(&self, kind: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(kind)
            .field("name", &self.name)
            .field("tools", &self.registry.names().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl<Ctx: Send + Sync + 'static> RestateService<Ctx> {
    /// The service of `registry`'s tools, named `Tools`; `context` makes
    /// each invocation's [`ToolContext`] (the application's state, the
    /// caller, ...). The call id it sets is replaced: see
    /// [`ToolContext::call_id`] in the [crate's documentation](crate).
    pub fn new(
        registry: impl Into<Arc<ToolRegistry<Ctx>>>,
        context: impl Fn(&Invocation<'_>) -> ToolContext<Ctx> + Send + Sync + 'static,
    ) -> Self {
        Self {
            served: Served::new(registry, context, DEFAULT_NAME),
        }
    }

    /// The same service under another name: its calls' path is
    /// `/<name>/<tool>` on Restate's ingress.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.served.name = name.into();
        self
    }

    /// The service as the Restate SDK binds it, to serve it beside others
    /// on one [`Endpoint`].
    ///
    /// # Errors
    ///
    /// When the service's name or a tool's is not one Restate accepts.
    pub fn definition(&self) -> Result<ServiceDefinition, DefinitionError> {
        let Served {
            registry,
            context,
            name,
        } = &self.served;
        definition(name, registry, context)
    }

    /// An endpoint serving this service alone.
    ///
    /// # Errors
    ///
    /// As [`definition`](RestateService::definition).
    pub fn endpoint(&self) -> Result<Endpoint, DefinitionError> {
        Ok(Endpoint::builder().bind(self.definition()?).build())
    }

    /// Serves the service on `listener` (HTTP/2 without TLS, as Restate
    /// calls a deployment) until `shutdown` completes, then lets the
    /// calls under way end (up to 10 seconds). Register its address with
    /// Restate (`POST /deployments` on the admin API) for it to be called.
    ///
    /// # Errors
    ///
    /// As [`definition`](RestateService::definition); nothing is served then.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), DefinitionError> {
        let endpoint = self.endpoint()?;
        HttpServer::new(endpoint)
            .serve_with_cancel(listener, shutdown)
            .await;
        Ok(())
    }
}
