//! The measured tools' shapes: their arguments, the text each must return,
//! the types their parameters share across the frameworks, and the raw
//! baseline of each (`serde_json::from_str::<Args>`, then the body).

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The application's state: what `lookup` reads (tool-core's
/// `ToolContext<App>`, rmcp's server, the raw baseline's reference).
#[derive(Debug)]
pub struct App {
    pub settings: HashMap<String, String>,
}

impl App {
    pub fn new() -> Self {
        let settings = [
            ("timezone", "Europe/Paris"),
            ("currency", "EUR"),
            ("locale", "fr-FR"),
            ("theme", "dark"),
        ];
        App {
            settings: settings
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }
}

/// `get_weather`'s units.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Celsius,
    Fahrenheit,
}

/// `create_event`'s time slot.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct Slot {
    /// The day, as `YYYY-MM-DD`.
    pub date: String,
    /// The hour it starts, 0 to 23.
    pub start_hour: u8,
    /// How long it lasts.
    pub duration_minutes: u16,
}

/// One line of an order.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct Item {
    /// The product's code.
    pub sku: String,
    /// How many.
    pub quantity: u32,
}

/// The bodies every framework's tool runs, so that each does the same work.
pub mod body {
    use super::{App, Item, Slot, Units};

    pub fn add_note(title: &str, body: &str, priority: u8) -> String {
        format!("added note `{title}` (priority {priority}): {body}")
    }

    pub fn get_weather(city: &str, units: Option<Units>) -> String {
        match units.unwrap_or(Units::Celsius) {
            Units::Celsius => format!("{city}: 21 °C"),
            Units::Fahrenheit => format!("{city}: 70 °F"),
        }
    }

    pub fn create_event(title: &str, when: &Slot) -> String {
        format!(
            "event `{title}` on {} at {:02}:00 for {} minutes",
            when.date, when.start_hour, when.duration_minutes
        )
    }

    pub fn add_items(order_id: u64, items: &[Item]) -> String {
        let units: u32 = items.iter().map(|item| item.quantity).sum();
        format!("order {order_id}: {} lines, {units} units", items.len())
    }

    pub fn lookup(app: &App, key: &str) -> String {
        match app.settings.get(key) {
            Some(value) => format!("{key} = {value}"),
            None => format!("{key} is not set"),
        }
    }

    pub fn search_docs(query: &str, limit: Option<u32>) -> String {
        format!("{} results for `{query}`", limit.unwrap_or(10))
    }
}

/// A measured tool's shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shape {
    /// `add_note(title: String, body: String, priority: u8)`, sync,
    /// `concurrency_safe`.
    Note,
    /// `async fn get_weather(city: String, units: Option<Units>)`.
    Weather,
    /// `create_event(title: String, when: Slot)`.
    Event,
    /// `add_items(order_id: u64, items: Vec<Item>)`.
    Items,
    /// `async fn lookup(ctx: &ToolContext<App>, key: String)`.
    Lookup,
    /// `#[tool] struct SearchDocs { query: String, limit: Option<u32> }`.
    Search,
}

impl Shape {
    pub const ALL: [Shape; 6] = [
        Shape::Note,
        Shape::Weather,
        Shape::Event,
        Shape::Items,
        Shape::Lookup,
        Shape::Search,
    ];

    /// The tool's name in every framework.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Note => "add_note",
            Shape::Weather => "get_weather",
            Shape::Event => "create_event",
            Shape::Items => "add_items",
            Shape::Lookup => "lookup",
            Shape::Search => "search_docs",
        }
    }

    /// What the table calls it.
    pub fn label(self) -> &'static str {
        match self {
            Shape::Note => "`add_note`: 3 scalars, sync, `concurrency_safe`",
            Shape::Weather => "`get_weather`: `async`, `Option<enum>`",
            Shape::Event => "`create_event`: a nested struct",
            Shape::Items => "`add_items`: `Vec` of 3 structs",
            Shape::Lookup => "`lookup`: `async`, reads the context's state",
            Shape::Search => "`search_docs`: `#[tool]` on a struct",
        }
    }

    /// The arguments of every call, as the model sends them.
    pub fn args(self) -> &'static str {
        match self {
            Shape::Note => r#"{"title":"Groceries","body":"milk, eggs","priority":2}"#,
            Shape::Weather => r#"{"city":"Paris","units":"celsius"}"#,
            Shape::Event => {
                r#"{"title":"Standup","when":{"date":"2026-03-02","start_hour":9,"duration_minutes":15}}"#
            }
            Shape::Items => {
                r#"{"order_id":1042,"items":[{"sku":"A-100","quantity":2},{"sku":"B-200","quantity":1},{"sku":"C-300","quantity":5}]}"#
            }
            Shape::Lookup => r#"{"key":"timezone"}"#,
            Shape::Search => r#"{"query":"rate limits","limit":3}"#,
        }
    }

    /// What every variant must return for [`Shape::args`].
    pub fn expected(self) -> &'static str {
        match self {
            Shape::Note => "added note `Groceries` (priority 2): milk, eggs",
            Shape::Weather => "Paris: 21 °C",
            Shape::Event => "event `Standup` on 2026-03-02 at 09:00 for 15 minutes",
            Shape::Items => "order 1042: 3 lines, 8 units",
            Shape::Lookup => "timezone = Europe/Paris",
            Shape::Search => "3 results for `rate limits`",
        }
    }

    /// The raw baseline of this shape.
    pub fn raw(self) -> fn(&App, &str) -> String {
        match self {
            Shape::Note => raw::add_note,
            Shape::Weather => raw::get_weather,
            Shape::Event => raw::create_event,
            Shape::Items => raw::add_items,
            Shape::Lookup => raw::lookup,
            Shape::Search => raw::search_docs,
        }
    }
}

/// The baselines: each shape's argument struct deserialized straight from
/// the string, then the body.
mod raw {
    use serde::Deserialize;

    use super::{App, Item, Slot, Units, body};

    #[derive(Deserialize)]
    struct NoteArgs {
        title: String,
        body: String,
        priority: u8,
    }

    pub fn add_note(_: &App, args: &str) -> String {
        let a: NoteArgs = serde_json::from_str(args).expect("valid arguments");
        body::add_note(&a.title, &a.body, a.priority)
    }

    #[derive(Deserialize)]
    struct WeatherArgs {
        city: String,
        units: Option<Units>,
    }

    pub fn get_weather(_: &App, args: &str) -> String {
        let a: WeatherArgs = serde_json::from_str(args).expect("valid arguments");
        body::get_weather(&a.city, a.units)
    }

    #[derive(Deserialize)]
    struct EventArgs {
        title: String,
        when: Slot,
    }

    pub fn create_event(_: &App, args: &str) -> String {
        let a: EventArgs = serde_json::from_str(args).expect("valid arguments");
        body::create_event(&a.title, &a.when)
    }

    #[derive(Deserialize)]
    struct ItemsArgs {
        order_id: u64,
        items: Vec<Item>,
    }

    pub fn add_items(_: &App, args: &str) -> String {
        let a: ItemsArgs = serde_json::from_str(args).expect("valid arguments");
        body::add_items(a.order_id, &a.items)
    }

    #[derive(Deserialize)]
    struct LookupArgs {
        key: String,
    }

    pub fn lookup(app: &App, args: &str) -> String {
        let a: LookupArgs = serde_json::from_str(args).expect("valid arguments");
        body::lookup(app, &a.key)
    }

    #[derive(Deserialize)]
    struct SearchArgs {
        query: String,
        limit: Option<u32>,
    }

    pub fn search_docs(_: &App, args: &str) -> String {
        let a: SearchArgs = serde_json::from_str(args).expect("valid arguments");
        body::search_docs(&a.query, a.limit)
    }
}
