// The resources and prompts tool-mcp-server serves beside its tools
// (`McpServer::with_resources`, `McpServer::with_prompts`), so that the
// calls are measured with them there: a notebook's index and its
// template of notes, and two prompts. The load calls only tools; before
// each run it checks that these are listed and read
// (`Session::check_served`). Included in tool-mcp-server, whose imports
// (`ToolContext`) it uses.

use tool_core::prompt::{
    Prompt, PromptArgument, PromptArguments, PromptError, PromptMessage, Prompts,
};
use tool_core::resource::{Resource, ResourceContents, ResourceError, ResourceRead, Resources};
use tool_core::BoxFuture;

/// The notebook's resources.
fn resources() -> Resources {
    Resources::new().with(Index).with(Note)
}

/// The notebook's prompts.
fn prompts() -> Prompts {
    Prompts::new().with(Summarize).with(Draft)
}

/// The notebook's index: one fixed text.
struct Index;

impl Resource for Index {
    fn uri(&self) -> &str {
        "notes://index"
    }

    fn name(&self) -> &str {
        "index"
    }

    fn description(&self) -> &str {
        "The titles of the notes in the notebook."
    }

    fn mime_type(&self) -> Option<&str> {
        Some("text/plain")
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
        let contents = ResourceContents::text(read.uri(), "Groceries\nBooks to read\n")
            .with_mime_type("text/plain");
        Box::pin(async move { Ok(vec![contents]) })
    }
}

/// A note by its title: a template.
struct Note;

impl Resource for Note {
    fn uri(&self) -> &str {
        "notes://note/{title}"
    }

    fn name(&self) -> &str {
        "note"
    }

    fn description(&self) -> &str {
        "A note of the notebook, by its title."
    }

    fn mime_type(&self) -> Option<&str> {
        Some("text/plain")
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
        let title = read.param("title").unwrap_or_default();
        let contents = ResourceContents::text(read.uri(), format!("{title}: milk, eggs"))
            .with_mime_type("text/plain");
        Box::pin(async move { Ok(vec![contents]) })
    }

    fn complete(&self, parameter: &str, prefix: &str) -> Vec<String> {
        if parameter != "title" {
            return Vec::new();
        }
        ["Groceries", "Books to read"]
            .into_iter()
            .filter(|title| title.starts_with(prefix))
            .map(str::to_owned)
            .collect()
    }
}

type Messages<'a> = BoxFuture<'a, Result<Vec<PromptMessage>, PromptError>>;

/// A prompt without arguments.
struct Summarize;

impl Prompt for Summarize {
    fn name(&self) -> &str {
        "summarize_notebook"
    }

    fn description(&self) -> &str {
        "Summarize the notebook."
    }

    fn get<'a>(&'a self, _: &'a ToolContext, _: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async { Ok(vec![PromptMessage::user("Summarize my notes.")]) })
    }
}

/// A prompt of one argument.
struct Draft;

impl Prompt for Draft {
    fn name(&self) -> &str {
        "draft_note"
    }

    fn description(&self) -> &str {
        "Draft a note on a topic."
    }

    fn arguments(&self) -> Vec<PromptArgument> {
        vec![PromptArgument::required("topic", "What the note is about")]
    }

    fn get<'a>(&'a self, _: &'a ToolContext, arguments: &'a PromptArguments) -> Messages<'a> {
        let topic = arguments.get("topic").cloned().unwrap_or_default();
        Box::pin(async move { Ok(vec![PromptMessage::user(format!("Draft a note about {topic}."))]) })
    }
}
