//! rmcp: `#[tool]` methods of one server in one `#[tool_router]` impl, each
//! taking `Parameters<Args>` with `Args` deriving `Deserialize` and
//! `JsonSchema`; `lookup` reads the server's own state (`&self`).

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::shapes::{App, Item, Slot, Units, body};

/// `add_note`'s arguments and every filler's.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    /// The note's title.
    pub title: String,
    /// The note's text.
    pub body: String,
    /// 1 (highest) to 5.
    pub priority: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct WeatherArgs {
    /// City name, e.g. "Paris".
    pub city: String,
    /// Celsius unless told otherwise.
    pub units: Option<Units>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EventArgs {
    /// What the event is called.
    pub title: String,
    /// When it happens.
    pub when: Slot,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ItemsArgs {
    /// The order's number.
    pub order_id: u64,
    /// The lines to add.
    pub items: Vec<Item>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LookupArgs {
    /// The setting's name.
    pub key: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    /// At most this many results (10 if not given).
    pub limit: Option<u32>,
}

/// The server whose methods are the tools; its state is the application's.
#[derive(Debug, Clone)]
pub struct Server {
    pub app: Arc<App>,
}

impl rmcp::ServerHandler for Server {}

/// The fillers named in the invocation, with the measured tools, in one
/// `#[tool_router]` impl.
macro_rules! rm_tools {
    ([$($name:ident $unit:ident),* $(,)?]) => {
        #[tool_router]
        impl Server {
            /// Add a note to the user's notebook.
            #[tool]
            fn add_note(&self, Parameters(a): Parameters<NoteArgs>) -> String {
                body::add_note(&a.title, &a.body, a.priority)
            }

            /// Add a note to the user's notebook.
            #[tool]
            async fn add_note_async(&self, Parameters(a): Parameters<NoteArgs>) -> String {
                body::add_note(&a.title, &a.body, a.priority)
            }

            /// Get the current weather for a city.
            #[tool]
            async fn get_weather(&self, Parameters(a): Parameters<WeatherArgs>) -> String {
                body::get_weather(&a.city, a.units)
            }

            /// Put an event in the calendar.
            #[tool]
            fn create_event(&self, Parameters(a): Parameters<EventArgs>) -> String {
                body::create_event(&a.title, &a.when)
            }

            /// Add lines to an order.
            #[tool]
            fn add_items(&self, Parameters(a): Parameters<ItemsArgs>) -> String {
                body::add_items(a.order_id, &a.items)
            }

            /// Read one of the application's settings.
            #[tool]
            async fn lookup(&self, Parameters(a): Parameters<LookupArgs>) -> String {
                body::lookup(&self.app, &a.key)
            }

            /// Search the documentation.
            #[tool]
            fn search_docs(&self, Parameters(a): Parameters<SearchArgs>) -> String {
                body::search_docs(&a.query, a.limit)
            }

            $(
                /// Add a note to another notebook.
                #[tool]
                fn $name(&self, Parameters(a): Parameters<NoteArgs>) -> String {
                    let NoteArgs { title, body, priority } = a;
                    format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
                }
            )*
        }
    };
}

with_fillers!(rm_tools);

/// Every tool, in one router.
pub fn router() -> ToolRouter<Server> {
    Server::tool_router()
}
