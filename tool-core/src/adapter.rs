//! The bridge from a [`TypedTool`] to a [`Tool`]: deserialize, then execute.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

use crate::dispatch::{Args, Prepare, Started};
use crate::validation::from_serde;
use crate::{BoxFuture, Tool, ToolContext, ToolError, ToolMetadata, ToolResult, TypedTool};

/// A [`TypedTool`] seen as an untyped [`Tool`].
///
/// Reads the tool's schemas once, when it is built. A call deserializes the
/// arguments into the tool's input first; when that fails the tool is not
/// run and the call returns an error result naming the tool, the JSON Pointer
/// of the bad value and the deserializer's message.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::{tool, Tool, ToolContext, TypedToolAdapter};
///
/// /// Add two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
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
    // Shared with the futures of calls that wait.
    tool: Arc<T>,
    input_schema: Value,
    output_schema: Option<Value>,
    context: PhantomData<fn(&Ctx)>,
}

impl<T: TypedTool<Ctx>, Ctx> TypedToolAdapter<T, Ctx> {
    /// Wraps a typed tool, reading its schemas once.
    pub fn new(tool: T) -> Self {
        let input_schema = tool.input_schema();
        let output_schema = tool.output_schema();
        Self {
            tool: Arc::new(tool),
            input_schema,
            output_schema,
            context: PhantomData,
        }
    }

    /// The wrapped tool.
    pub fn inner(&self) -> &T {
        &self.tool
    }
}

impl<Ctx, T> Tool<Ctx> for TypedToolAdapter<T, Ctx>
where
    T: TypedTool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn name(&self) -> &str {
        self.tool.name()
    }

    fn description(&self) -> &str {
        self.tool.description()
    }

    fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    fn metadata(&self) -> ToolMetadata {
        self.tool.metadata()
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.tool.check_available(ctx)
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            match deserialize_arguments::<T::Input>(self.tool.name(), &args) {
                Ok(input) => self.tool.execute(ctx, input).await,
                Err(error) => error.into(),
            }
        })
    }
}

impl<Ctx, T> Prepare<Ctx> for TypedToolAdapter<T, Ctx>
where
    T: TypedTool<Ctx>,
    Ctx: Send + Sync + 'static,
{
    fn uses_context(&self) -> bool {
        self.tool.uses_context()
    }

    fn start(
        &self,
        ctx: Cow<'_, ToolContext<Ctx>>,
        args: Args<'_>,
        gate: &dyn Fn() -> Result<(), ToolError>,
        run_now: bool,
    ) -> Result<Started, ToolError> {
        let name = self.tool.name();
        let input = match args {
            Args::Kept(args) => deserialize_arguments::<T::Input>(name, args)?,
            // Strings move into the input instead of being copied.
            Args::Taken(args) => crate::drain::take::<T::Input>(args)
                .map_err(|(pointer, error)| invalid_arguments(name, pointer, &error))?,
        };
        gate()?;
        let now = if run_now {
            self.tool.execute_now(&ctx, input)
        } else {
            Err(input)
        };
        match now {
            Ok(result) => Ok(Started::Done(result)),
            Err(input) => {
                let tool = Arc::clone(&self.tool);
                let ctx = ctx.into_owned();
                Ok(Started::Later(Box::pin(async move {
                    tool.execute(&ctx, input).await
                })))
            }
        }
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
    // The common case without the cost of tracking the path; the path only
    // when there is an error to report.
    if let Ok(input) = I::deserialize(args) {
        return Ok(input);
    }
    serde_path_to_error::deserialize::<_, I>(args)
        .map_err(|error| invalid_arguments(tool, json_pointer(error.path()), error.inner()))
}

/// What a deserializer's complaint at `pointer` tells the model.
fn invalid_arguments(tool: &str, pointer: String, error: &serde_json::Error) -> ToolError {
    ToolError::InvalidArguments {
        tool: tool.to_owned(),
        violations: vec![from_serde(pointer, error.to_string())],
    }
}

/// Appends `/key` to a JSON Pointer, escaped as RFC 6901 says.
pub(crate) fn push_key(pointer: &mut String, key: &str) {
    pointer.push('/');
    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// The RFC 6901 pointer of a deserializer's path, for tests elsewhere.
#[cfg(test)]
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    json_pointer(path)
}

/// The RFC 6901 pointer of a deserializer's path: `/location/city`, `/tags/2`.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => push_key(&mut pointer, key),
            Segment::Unknown => pointer.push_str("/?"),
        }
    }
    pointer
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
