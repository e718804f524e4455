//! Every form `ToolContext::progress` takes: integers of any width and
//! floats for `done` and `total`, `None` or `Some` of an `f64` for a total
//! not known or known, a `&str`, `String`, `&String` or `Option<&str>`
//! message, or `None`.

use tool_core::{tool, ToolContext};

/// Copy the files.
#[tool]
async fn copy(ctx: &ToolContext, files: Vec<String>) -> usize {
    ctx.progress(1, 3, format!("{} files", files.len()));
    ctx.progress(2u64, None, "x");
    ctx.progress(2.5, Some(3.0), None);
    ctx.progress(files.len(), files.len(), &files[0]);
    ctx.progress(4u8, 5i64, files.first().map(String::as_str));
    ctx.progress(5usize, 6u128, std::borrow::Cow::Borrowed("cow"));
    ctx.progress(6.0f32, 7usize, String::from("owned"));
    files.len()
}

fn main() {}
