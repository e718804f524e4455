//! tool-core: `#[tool]` functions and a `#[tool]` struct in one
//! `ToolRegistry<App>`.

use tool_core::{ToolContext, ToolRegistry, tool};

use crate::shapes::{App, Item, Slot, Units, body};

/// Add a note to the user's notebook.
#[tool(tier = Observe, concurrency_safe)]
pub fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    body::add_note(&title, &body, priority)
}

/// Add a note to the user's notebook.
#[tool(tier = Observe, concurrency_safe)]
pub async fn add_note_async(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    body::add_note(&title, &body, priority)
}

/// Get the current weather for a city.
#[tool]
pub async fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Celsius unless told otherwise.
    units: Option<Units>,
) -> String {
    body::get_weather(&city, units)
}

/// Put an event in the calendar.
#[tool]
pub fn create_event(
    /// What the event is called.
    title: String,
    /// When it happens.
    when: Slot,
) -> String {
    body::create_event(&title, &when)
}

/// Add lines to an order.
#[tool]
pub fn add_items(
    /// The order's number.
    order_id: u64,
    /// The lines to add.
    items: Vec<Item>,
) -> String {
    body::add_items(order_id, &items)
}

/// Read one of the application's settings.
#[tool]
pub async fn lookup(
    ctx: &ToolContext<App>,
    /// The setting's name.
    key: String,
) -> String {
    body::lookup(ctx.state(), &key)
}

/// Search the documentation.
#[tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchDocs {
    /// What to look for.
    query: String,
    /// At most this many results (10 if not given).
    limit: Option<u32>,
}

impl SearchDocs {
    fn run(self) -> String {
        body::search_docs(&self.query, self.limit)
    }
}

/// The fillers named in the invocation, and the registry of every tool.
macro_rules! tc_tools {
    ([$($name:ident $unit:ident),* $(,)?]) => {
        $(
            /// Add a note to another notebook.
            #[tool(tier = Observe, concurrency_safe)]
            pub fn $name(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> String {
                format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
            }
        )*

        /// Every tool, in one registry.
        pub fn registry() -> ToolRegistry<App> {
            ToolRegistry::new()
                .with(AddNote)
                .with(AddNoteAsync)
                .with(GetWeather)
                .with(CreateEvent)
                .with(AddItems)
                .with(Lookup)
                .with(SearchDocsTool)
                $(.with($unit))*
        }
    };
}

with_fillers!(tc_tools);
