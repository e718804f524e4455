use tool_core::prompt::Prompts;
use tool_core::resource::Resources;
use tool_core::{prompt, resource, ToolContext};

/// The notes.
#[resource(uri = "notes://{day}", mime = "text/plain")]
fn notes(day: String) -> String {
    day
}

/// Review a change.
#[prompt(title = "Review")]
async fn review(ctx: &ToolContext<u8>, diff: String) -> String {
    let _ = ctx;
    diff
}

fn main() {
    // Only the errors above: the types are there to add.
    let resources: Resources<u8> = Resources::new().with(Notes);
    let prompts: Prompts<u8> = Prompts::new().with(Review);
    let _ = (resources, prompts);
}
