//! The bridge from a [`TypedTool`] to a [`Tool`]: deserialize, then execute.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::dispatch::read::Arguments;
use crate::dispatch::read::value::Node;
use crate::dispatch::runner::{Prepare, Started};
use crate::{
    BoxFuture, ExecuteOutput, Tool, ToolContext, ToolError, ToolMetadata, ToolResult, TypedTool,
};

/// A [`TypedTool`] seen as an untyped [`Tool`].
///
/// Reads the tool's schemas once, when it is built. A call deserializes the
/// arguments into the tool's input first; when that fails the tool is not
/// run and the call returns an error result naming the tool, the JSON Pointer
/// of the bad value and the deserializer's message.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde::Deserialize;
/// use serde_json::{json, Value};
/// use tool_core::{Tool, ToolContext, ToolResult, TypedTool, TypedToolAdapter};
///
/// #[derive(Deserialize)]
/// struct Pair { a: i64, b: i64 }
///
/// struct Add;
///
/// impl TypedTool for Add {
///     type Input = Pair;
///     type Output = ToolResult;
///     fn name(&self) -> &str { "add" }
///     fn description(&self) -> &str { "Add two numbers." }
///     fn input_schema(&self) -> Value { json!({"type": "object"}) }
///     async fn execute(&self, _ctx: &ToolContext, input: Pair) -> ToolResult {
///         ToolResult::json(json!(input.a + input.b))
///     }
/// }
///
/// let tool = TypedToolAdapter::new(Add);
/// let ctx = ToolContext::new(());
/// assert_eq!(tool.call(&ctx, json!({"a": 2, "b": 3})).await.model_text(), "5");
///
/// let bad = tool.call(&ctx, json!({"a": 2, "b": "three"})).await;
/// assert!(bad.is_error());
/// assert_eq!(
///     bad.model_text(),
///     "invalid arguments for tool `add`: argument `b` at `/b`: invalid type: string \"three\", \
///      expected i64. Correct the arguments and call the tool again."
/// );
/// # });
/// ```
pub struct TypedToolAdapter<T, Ctx = ()> {
    tool: TypedRunner<T, Ctx>,
    input_schema: Value,
    output_schema: Option<Value>,
}

impl<T: TypedTool<Ctx>, Ctx> TypedToolAdapter<T, Ctx> {
    /// Wraps a typed tool, reading its schemas once.
    pub fn new(tool: T) -> Self {
        let input_schema = tool.input_schema();
        let output_schema = tool.output_schema();
        Self {
            tool: TypedRunner::new(tool),
            input_schema,
            output_schema,
        }
    }

    /// The wrapped tool.
    pub fn inner(&self) -> &T {
        &self.tool.tool
    }
}

impl<Ctx, T> Tool<Ctx> for TypedToolAdapter<T, Ctx>
where
    T: TypedTool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn name(&self) -> &str {
        self.inner().name()
    }

    fn description(&self) -> &str {
        self.inner().description()
    }

    fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    fn metadata(&self) -> ToolMetadata {
        self.inner().metadata()
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.inner().check_available(ctx)
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult> {
        let mut args = args;
        let arguments = Arguments::new(Node::Take(&mut args), self.name(), &|| Ok(()), true);
        let started = self.tool.start(Cow::Borrowed(ctx), arguments);
        Box::pin(async move {
            match started {
                Ok(Started::Done(result)) => result,
                Ok(Started::Call(run)) => run(),
                Ok(Started::Wait(run)) => run.await,
                Err(error) => error.into(),
            }
        })
    }
}

/// A typed tool as the registry runs it: its input read, then its run, at
/// once when it can and may.
pub(crate) struct TypedRunner<T, Ctx> {
    // Shared with the runs of calls that wait.
    tool: Arc<T>,
    context: PhantomData<fn(&Ctx)>,
}

impl<T, Ctx> TypedRunner<T, Ctx> {
    pub(crate) fn new(tool: T) -> Self {
        Self {
            tool: Arc::new(tool),
            context: PhantomData,
        }
    }
}

impl<Ctx, T> Prepare<Ctx> for TypedRunner<T, Ctx>
where
    T: TypedTool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn start(
        &self,
        ctx: Cow<'_, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started, ToolError> {
        let input =
            args.read_checked::<T::Input>(false, |input| self.tool.validate(&ctx, input))?;
        let tool = Arc::clone(&self.tool);
        let ctx = ctx.into_owned();
        Ok(Started::wait(async move {
            let output = tool.execute(&ctx, input).await;
            output.into_tool_result(tool.name())
        }))
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.tool.check_available(ctx)
    }
}

/// An untyped tool as the registry runs it: its arguments are its own
/// business.
pub(crate) struct UntypedAdapter<T>(pub(crate) Arc<T>);

impl<Ctx, T> Prepare<Ctx> for UntypedAdapter<T>
where
    T: Tool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn start(
        &self,
        ctx: Cow<'_, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started, ToolError> {
        let args = args.into_value()?;
        let tool = Arc::clone(&self.0);
        let ctx = ctx.into_owned();
        Ok(Started::wait(async move { tool.call(&ctx, args).await }))
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.0.check_available(ctx)
    }
}

/// Deserializes a tool's arguments, reporting where they went wrong.
///
/// ```
/// use serde::Deserialize;
/// use serde_json::json;
/// use tool_core::{deserialize_arguments, ToolError, Violation};
///
/// #[derive(Deserialize, Debug)]
/// struct Args { city: String }
///
/// let error = deserialize_arguments::<Args>("weather", &json!({"city": 7})).unwrap_err();
/// assert_eq!(
///     error,
///     ToolError::InvalidArguments {
///         tool: "weather".into(),
///         violations: vec![Violation::new("/city", "invalid type: integer `7`, expected a string")],
///     }
/// );
/// ```
pub fn deserialize_arguments<I: DeserializeOwned>(
    tool: &str,
    args: &Value,
) -> Result<I, ToolError> {
    Arguments::new(Node::Read(args), tool, &|| Ok(()), true).read()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
        #[serde(rename = "a/b~c")]
        odd: Option<u8>,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        n: u8,
    }

    fn pointer_of(args: Value) -> String {
        match deserialize_arguments::<Outer>("t", &args) {
            Err(ToolError::InvalidArguments { mut violations, .. }) if violations.len() == 1 => {
                violations.remove(0).pointer
            }
            other => panic!("expected one violation, got {other:?}"),
        }
    }

    #[test]
    fn pointers_name_array_indexes_and_escape_keys() {
        assert_eq!(
            pointer_of(json!({"items": [{"n": 1}, {"n": 300}]})),
            "/items/1/n"
        );
        assert_eq!(pointer_of(json!({"items": [], "a/b~c": -1})), "/a~1b~0c");
        assert_eq!(pointer_of(json!({})), "");
    }
}
