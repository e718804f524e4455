//! What a registry takes: a `#[tool]`, a hand-written `TypedTool`, or a
//! `Tool`, each turned into the registration the registry keeps.

use std::sync::Arc;

use crate::dispatch::adapter::{TypedRunner, UntypedAdapter};
use crate::dispatch::runner::SchemaSource;
use crate::dispatch::runner::{Registration, Runner};
use crate::tool::{Tool, TypedTool};

/// A tool a [`ToolRegistry<Ctx>`](crate::ToolRegistry) can take: a `#[tool]` (its generated
/// unit struct), a [`TypedTool`], or a [`Tool`].
///
/// `Kind` tells the three apart and is always inferred: write
/// `registry.with(GetWeather)`, never the kind.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool for a registry of `ToolContext<{Ctx}>`",
    note = "put `#[tool]` on a function or a struct, or implement `TypedTool<{Ctx}>` or `Tool<{Ctx}>`; a `#[tool]` with a `&ToolContext<C>` parameter (or `context = C`) is a tool for a `ToolRegistry<C>` only"
)]
pub trait IntoTool<Ctx, Kind>: Sized {
    /// The tool as the registry holds it.
    #[doc(hidden)]
    fn into_registration(self) -> Registration<Ctx>;
}

/// The [`IntoTool`] kind of a [`TypedTool`].
#[doc(hidden)]
pub enum Typed {}

/// The [`IntoTool`] kind of a [`Tool`].
#[doc(hidden)]
pub enum Untyped {}

/// The [`IntoTool`] kind of a `#[tool]`.
#[doc(hidden)]
pub enum Generated {}

impl<Ctx, T> IntoTool<Ctx, Typed> for T
where
    T: TypedTool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn into_registration(self) -> Registration<Ctx> {
        // The schemas move into the registration: read once, kept once.
        Registration {
            name: self.name().to_owned().into(),
            description: self.description().to_owned().into(),
            schemas: SchemaSource::Given {
                input: self.input_schema(),
                output: self.output_schema(),
            },
            metadata: self.metadata(),
            uses_context: true,
            runner: Runner::Dyn(Arc::new(TypedRunner::new(self))),
        }
    }
}

impl<Ctx, T> IntoTool<Ctx, Untyped> for T
where
    T: Tool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn into_registration(self) -> Registration<Ctx> {
        Registration {
            name: self.name().to_owned().into(),
            description: self.description().to_owned().into(),
            schemas: SchemaSource::Given {
                input: self.input_schema(),
                output: self.output_schema(),
            },
            metadata: self.metadata(),
            uses_context: true,
            runner: Runner::Dyn(Arc::new(UntypedAdapter(Arc::new(self)))),
        }
    }
}
