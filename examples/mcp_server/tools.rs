//! The tools the example server adds to the quickstart's, one for each
//! thing MCP carries besides text: structured content checked against an
//! output schema, an image, progress, cancellation, a task, a tool only a
//! caller with a scope is shown, and a tool that asks the person a
//! question.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::output::{Image, Part};
use tool_core::{ToolContext, ToolRegistry, tool};

use crate::quickstart::{self, App};

#[path = "../support/png.rs"]
mod png;

/// What `sales_summary` returns: its `structuredContent`, whose schema the
/// tool's `output_schema` derives.
#[derive(Serialize, JsonSchema)]
struct Summary {
    total: u32,
    /// 1 for the first month given.
    best_month: usize,
    /// The month after which sales fell the most, if they ever fell.
    worst_drop_after: Option<usize>,
}

/// Sum up the monthly sales: the total, the best month, and the worst drop.
#[tool(read_only, output_schema)]
fn sales_summary(
    /// The sales of each month, in order.
    #[schemars(length(min = 1))]
    months: Vec<u32>,
) -> Summary {
    let best = (0..months.len()).max_by_key(|&at| months[at]).unwrap_or(0);
    let worst_drop_after = (1..months.len())
        .filter(|&at| months[at] < months[at - 1])
        .max_by_key(|&at| months[at - 1] - months[at]);
    Summary {
        total: months.iter().sum(),
        best_month: best + 1,
        worst_drop_after,
    }
}

/// Set every month's sales back to zero. Needs the `sales:admin` scope: a
/// caller without it is not shown the tool.
#[tool(scopes = ["sales:admin"])]
fn reset_sales() -> &'static str {
    "the sales were reset"
}

/// Draw the monthly sales as a bar chart (a PNG image).
#[tool(read_only)]
fn sales_chart(
    /// The chart's title, said beside the image.
    title: String,
    /// The sales of each month, in order.
    #[schemars(length(min = 1, max = 12))]
    months: Vec<u32>,
) -> Vec<Part> {
    let highest = u64::from(months.iter().copied().max().unwrap_or(0).max(1));
    // Each bar as high as its share of the best month, out of 100 pixels.
    let heights: Vec<u8> = months
        .iter()
        .map(|&sales| u8::try_from(u64::from(sales) * 100 / highest).unwrap_or(100))
        .collect();
    vec![
        format!("{title}: {} months.", months.len()).into(),
        Image::png(png::bars(&heights)).named("chart.png").into(),
    ]
}

/// Index the documents for search, reporting each as it is done.
#[tool(timeout = "1m")]
async fn index_documents(
    ctx: &ToolContext<App>,
    /// The documents' paths.
    documents: Vec<String>,
) -> String {
    let total = documents.len() as f64;
    for (done, document) in documents.iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(20)).await;
        ctx.progress((done + 1) as f64, Some(total), document.as_str());
    }
    format!("indexed {} documents", documents.len())
}

/// The watches the client cancelled, since the server started.
static STOPPED_WATCHES: AtomicUsize = AtomicUsize::new(0);

/// Watch a folder for changes until the call is cancelled.
#[tool(read_only, concurrency_safe, timeout = "10m")]
async fn watch_folder(
    ctx: &ToolContext<App>,
    /// The folder's path.
    folder: String,
) -> String {
    ctx.progress(0.0, None, format!("watching {folder}").as_str());
    ctx.cancellation().cancelled().await;
    STOPPED_WATCHES.fetch_add(1, Ordering::SeqCst);
    format!("stopped watching {folder}")
}

/// Count the folder watches stopped by cancelling their call.
#[tool(read_only)]
fn stopped_watches() -> usize {
    STOPPED_WATCHES.load(Ordering::SeqCst)
}

/// Render a video, one scene after another. Takes a while: a client that
/// takes tasks gets one, and reads the result when the video is done.
#[tool(long_running, concurrency_safe, timeout = "10m")]
async fn render_video(
    ctx: &ToolContext<App>,
    /// The video's name.
    name: String,
    /// How many scenes it has.
    #[schemars(range(min = 1, max = 1000))]
    scenes: u32,
) -> String {
    for scene in 1..=scenes {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(50)) => {}
            () = ctx.cancellation().cancelled() => return format!("stopped {name}"),
        }
        ctx.progress(f64::from(scene), Some(f64::from(scenes)), "scenes rendered");
    }
    format!("rendered {name}: {scenes} scenes")
}

/// What the guest chooses, asked by `book_room`.
#[derive(Deserialize, JsonSchema, Elicit)]
pub(crate) struct Booking {
    /// The room.
    room: Room,
    /// Breakfast included.
    #[serde(default)]
    breakfast: bool,
}

/// A room to choose.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Room {
    /// Single, one bed.
    Single,
    /// Double, two beds.
    Double,
}

/// Book a room for a night, asking the guest which room.
#[tool(asks)]
async fn book_room(
    ctx: &ToolContext<App>,
    /// The night, YYYY-MM-DD.
    night: String,
) -> Result<String, ElicitError> {
    Ok(
        match ctx
            .elicit::<Booking>(format!("Which room on {night}?"))
            .await?
        {
            Elicitation::Accept(booking) => {
                let room = match booking.room {
                    Room::Single => "single",
                    Room::Double => "double",
                };
                let breakfast = if booking.breakfast { "with" } else { "without" };
                format!("booked a {room} room on {night}, {breakfast} breakfast")
            }
            Elicitation::Decline => "the guest declined to book; do not ask again".to_owned(),
            Elicitation::Cancel => "the guest closed the question; ask in the chat".to_owned(),
        },
    )
}

/// The quickstart's tools and these.
pub(crate) fn registry() -> ToolRegistry<App> {
    quickstart::registry()
        .with(SalesSummary)
        .with(ResetSales)
        .with(SalesChart)
        .with(IndexDocuments)
        .with(WatchFolder)
        .with(StoppedWatches)
        .with(RenderVideo)
        .with(BookRoom)
}
