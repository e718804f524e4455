//! Typed and untyped tools as the registry runs them: a typed one's input
//! deserialized, then executed; an untyped one given its arguments.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::dispatch::read::Arguments;
use crate::dispatch::runner::{Prepare, Started};
use crate::error::tool_error::ToolError;
use crate::output::result::ExecuteOutput;
use crate::tool::context::ToolContext;
use crate::tool::{Tool, TypedTool};

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
    fn start<'c>(
        &self,
        ctx: Cow<'c, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started<'c>, ToolError> {
        let now = args.now();
        let input =
            args.read_checked::<T::Input>(false, |input| self.tool.validate(&ctx, input))?;
        let tool = Arc::clone(&self.tool);
        Ok(Started::wait(now, async move {
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
    fn start<'c>(
        &self,
        ctx: Cow<'c, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started<'c>, ToolError> {
        let now = args.now();
        let args = args.into_value()?;
        let tool = Arc::clone(&self.0);
        Ok(Started::wait(
            now,
            async move { tool.call(&ctx, args).await },
        ))
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.0.check_available(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Node;
    use serde::Deserialize;
    use serde::de::DeserializeOwned;
    use serde_json::{Value, json};

    /// Deserializes a tool's arguments, reporting where they went wrong.
    fn deserialize_arguments<I: DeserializeOwned>(
        tool: &str,
        args: &Value,
    ) -> Result<I, ToolError> {
        Arguments::new(
            Node::Read(args),
            tool,
            &|| Ok(()),
            crate::dispatch::read::RunAtOnce::LATER,
        )
        .read()
    }

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
