//! A corpus of tools whose argument types hold every red flag of
//! docs/providers.md 6.7: what schemars derives and some provider refuses, each
//! at least once, and (in `shapes.rs`) every shape schemars writes inside
//! another. `schemas.rs` turns it into every provider's definitions, which
//! `schema_checker/` checks; `sdk.rs` has the providers' own SDKs check them.
//!
//! What each tool covers is said beside it; the bodies only echo their
//! arguments, since what is checked here is the schemas.

mod arguments;
mod shapes;

pub(crate) use arguments::{full_arguments, minimal_arguments};

use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::{ToolRegistry, tool};

/// The arguments back as JSON: the tools here exist for their schemas.
fn echo(arguments: impl Serialize) -> String {
    serde_json::to_string(&arguments).unwrap_or_default()
}

/// A place on Earth.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Location {
    /// City name, e.g. "Paris".
    city: String,
    /// ISO 3166-1 alpha-2 country code.
    #[schemars(length(min = 2, max = 2))]
    country: Option<String>,
}

/// Temperature unit.
#[derive(Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// A shape to draw: an externally tagged enum with struct, newtype and unit
/// variants.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shape {
    /// A circle around the origin.
    Circle {
        /// Radius, in points.
        radius: f64,
    },
    /// An axis-aligned rectangle.
    Rectangle {
        /// Width, in points.
        width: f64,
        /// Height, in points.
        height: f64,
    },
    /// A square of this side, in points.
    Square(f64),
    /// A single dot.
    Dot,
}

/// Something to do: an internally tagged enum.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Action {
    /// Move to a position.
    Move {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// Say something.
    Say {
        /// What to say.
        #[schemars(length(max = 280))]
        text: String,
    },
    /// Wait a turn.
    Wait,
}

/// Who or what to find: an untagged enum.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
enum Target {
    /// A numeric id.
    Id(u64),
    /// A name.
    Name(String),
    /// A point.
    Point {
        /// Latitude, in degrees.
        #[schemars(range(min = -90.0, max = 90.0))]
        lat: f64,
        /// Longitude, in degrees.
        #[schemars(range(min = -180.0, max = 180.0))]
        lon: f64,
    },
}

/// A node of a tree: a recursive type.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Node {
    /// The node's label.
    label: String,
    /// Its children, in order.
    #[serde(default)]
    children: Vec<Node>,
}

/// Result order, each variant documented (which makes schemars write a
/// `oneOf` of `const`s rather than an `enum`).
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum SortOrder {
    /// Best match first.
    Relevance,
    /// Newest first.
    NewestFirst,
}

/// Which page of results: flattened into the search's arguments.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Paging {
    /// Page number, from 0.
    #[serde(default)]
    page: u32,
    /// Results per page.
    #[serde(default = "ten")]
    #[schemars(range(min = 1, max = 100))]
    per_page: u8,
}

fn ten() -> u8 {
    10
}

fn one() -> u32 {
    1
}

/// A person to reach.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Contact {
    /// Full name.
    #[schemars(length(min = 1, max = 80))]
    name: String,
    /// E-mail address.
    #[schemars(email)]
    email: String,
    /// Home page.
    #[schemars(url)]
    homepage: Option<String>,
    /// Phone number, digits and spaces, an optional leading `+`.
    #[schemars(regex(pattern = r"^\+?[0-9 ]{6,20}$"))]
    phone: Option<String>,
}

/// Get the current weather for a place.
///
/// Covers: a nested documented struct (`$ref` with a description beside
/// it), `Option` of a unit-only enum, `u8`, `#[serde(default)]` on a
/// non-`Option` field, `range`; a title and every hint (MCP's
/// annotations).
#[tool(
    tier = Observe,
    title = "Weather",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_weather(
    /// Where to look.
    location: Location,
    /// Units of the temperatures; Celsius when omitted.
    units: Option<Units>,
    /// Days ahead, 0 for today.
    #[serde(default)]
    #[schemars(range(max = 14))]
    days: u8,
) -> String {
    echo((location, units, days))
}

/// Plan a route between places.
///
/// Covers: `Option` of a struct, a `Vec` of structs, a defaulted `bool`.
#[tool(tier = Observe)]
fn plan_route(
    /// Where to start; the user's position when omitted.
    origin: Option<Location>,
    /// Where to go.
    destination: Location,
    /// Places to pass through, in order.
    stops: Vec<Location>,
    /// Avoid toll roads.
    #[serde(default)]
    avoid_tolls: bool,
) -> String {
    echo((origin, destination, stops, avoid_tolls))
}

/// Draw a shape.
///
/// Covers: an externally tagged data enum (`oneOf` of single-key objects
/// and a `const`), `Option` of it, `f64`.
#[tool(tier = Observe)]
fn draw_shape(
    /// The shape.
    shape: Shape,
    /// A second shape drawn as the outline.
    outline: Option<Shape>,
    /// Scale factor.
    scale: f64,
) -> String {
    echo((shape, outline, scale))
}

/// Perform an action in the game.
///
/// Covers: an internally tagged enum (`kind` as a `const` in each branch),
/// `u32`, `range(min = 1, max = 20)`, `#[serde(default = "...")]`.
#[tool(tier = Observe)]
fn perform_action(
    /// What to do.
    action: Action,
    /// How many times.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 20))]
    repeat: u32,
) -> String {
    echo((action, repeat))
}

/// Find a target by id, name or position.
///
/// Covers: an untagged enum (`anyOf` of integer, string and object), and
/// `Option` of it.
#[tool(tier = Observe)]
fn find_target(
    /// What to find.
    target: Target,
    /// What to find when the target is not found.
    fallback: Option<Target>,
) -> String {
    echo((target, fallback))
}

/// Set named counters.
///
/// Covers: `HashMap<String, i64>` (`additionalProperties` as a schema) and
/// `Option` of a map.
#[tool(tier = Observe)]
fn set_counters(
    /// Counter values by name.
    counters: HashMap<String, i64>,
    /// Weights by counter name.
    weights: Option<HashMap<String, f64>>,
) -> String {
    let mut counters: Vec<_> = counters.into_iter().collect();
    counters.sort();
    echo((counters, weights.map(|w| w.len())))
}

/// Tag items.
///
/// Covers: `BTreeSet<String>` and a defaulted `HashSet<String>`
/// (`uniqueItems`).
#[tool(tier = Observe)]
fn tag_items(
    /// The tags to add.
    tags: BTreeSet<String>,
    /// Items to leave alone.
    #[serde(default)]
    exclude: HashSet<String>,
) -> String {
    echo((tags, exclude.len()))
}

/// Place a marker on the map.
///
/// Covers: a tuple `(i32, String)` (`prefixItems`), `Option` of a tuple.
#[tool(tier = Observe)]
fn place_marker(
    /// Row and label.
    position: (i32, String),
    /// Offset from the position, x then y.
    offset: Option<(f64, f64)>,
) -> String {
    echo((position, offset))
}

/// Store any JSON value under a key.
///
/// Covers: `serde_json::Value` (the schema `true`), `Option<Value>`.
#[tool(tier = Observe)]
fn store_value(
    /// The key.
    key: String,
    /// The value, any JSON.
    value: Value,
    /// Metadata kept beside the value.
    metadata: Option<Value>,
) -> String {
    echo((key, value, metadata))
}

/// Render a tree.
///
/// Covers: a recursive type reached through `$defs` (`children:
/// Vec<Node>`).
#[tool(tier = Observe)]
fn render_tree(
    /// The tree's root.
    tree: Node,
    /// Levels to render; all when omitted.
    max_depth: Option<u32>,
) -> String {
    echo((tree, max_depth))
}

/// Write an outline of sections.
///
/// Covers: a recursive struct tool (`"$ref": "#"`), a property named
/// `title`, `#[serde(default)]` on a `Vec`.
#[tool(tier = Observe)]
#[derive(Deserialize, Serialize, JsonSchema)]
pub(crate) struct Outline {
    /// The section's title.
    title: String,
    /// Its subsections.
    #[serde(default)]
    sections: Vec<Outline>,
}

impl Outline {
    fn run(self) -> String {
        echo(self)
    }
}

/// Search the documents.
///
/// Covers: `rename_all = "camelCase"`, `#[serde(rename = "q")]`,
/// `#[serde(flatten)]` of a struct, `#[serde(default)]` fields, an enum of
/// documented unit variants (`oneOf` of `const`s), a property named
/// `format`.
#[tool(tier = Observe)]
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchDocuments {
    /// The query.
    #[serde(rename = "q")]
    query: String,
    /// Which page.
    #[serde(flatten)]
    paging: Paging,
    /// Include archived documents.
    #[serde(default)]
    include_archived: bool,
    /// Order of the results.
    sort_order: Option<SortOrder>,
    /// File format to restrict to, e.g. "pdf".
    format: Option<String>,
}

impl SearchDocuments {
    fn run(self) -> String {
        echo(self)
    }
}

/// Open an issue in the tracker.
///
/// Covers: `length(min, max)` on a string and an array, `range(min, max)`
/// on a `u8`, `regex(pattern = ...)`, a parameter named `title`.
#[tool(tier = Observe)]
fn create_issue(
    /// A one-line summary.
    #[schemars(length(min = 1, max = 80))]
    title: String,
    /// The details, in markdown.
    #[schemars(length(max = 5000))]
    body: Option<String>,
    /// 1 (urgent) to 5 (someday).
    #[schemars(range(min = 1, max = 5))]
    priority: u8,
    /// Labels, at most 10.
    #[schemars(length(max = 10))]
    labels: Vec<String>,
    /// The parent issue's key, e.g. "CORE-12".
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+$"))]
    parent: Option<String>,
) -> String {
    echo((title, body, priority, labels, parent))
}

/// Add a contact to the address book.
///
/// Covers: `email` and `url` formats, `regex`, a struct with
/// `deny_unknown_fields`.
#[tool(tier = Observe)]
fn add_contact(
    /// Who.
    contact: Contact,
    /// Also send them an invitation.
    invite: Option<bool>,
) -> String {
    echo((contact, invite))
}

/// Allow an address through the firewall.
///
/// Covers: `IpAddr` (format `ip`, unknown to OpenAI) and `Ipv4Addr` (format
/// `ipv4`, known).
#[tool(tier = Observe)]
fn allow_address(
    /// The address to allow.
    address: IpAddr,
    /// The gateway to route it through.
    gateway: Option<Ipv4Addr>,
) -> String {
    echo((address, gateway))
}

/// Convert a quantity.
///
/// Covers: the numeric formats of every integer width and float, signed
/// and unsigned.
#[tool(tier = Observe)]
fn convert_quantity(
    /// The quantity.
    value: f64,
    /// Conversion ratio.
    ratio: f32,
    /// Decimal places, -8 to 8.
    #[schemars(range(min = -8, max = 8))]
    places: i8,
    /// Batch size.
    batch: u16,
    /// Offset to add.
    offset: i64,
    /// Upper bound of the result.
    limit: u64,
    /// Index of the unit in the table.
    unit_index: usize,
) -> String {
    echo((value, ratio, places, batch, offset, limit, unit_index))
}

/// Check that the service answers.
///
/// Covers: a tool without parameters, with an output schema (MCP's
/// `outputSchema`).
#[tool(
    tier = Observe,
    output_schema = json!({
        "type": "object",
        "properties": {"reply": {"type": "string", "description": "Always `pong`."}},
        "required": ["reply"]
    })
)]
fn ping() -> Value {
    json!({"reply": "pong"})
}

/// The number of tools [`registry`] holds.
pub(crate) const TOOLS: usize = 17 + shapes::TOOLS;

/// Every tool of the corpus, in a registry.
pub(crate) fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new()
        .with(GetWeather)
        .with(PlanRoute)
        .with(DrawShape)
        .with(PerformAction)
        .with(FindTarget)
        .with(SetCounters)
        .with(TagItems)
        .with(PlaceMarker)
        .with(StoreValue)
        .with(RenderTree)
        .with(OutlineTool)
        .with(SearchDocumentsTool)
        .with(CreateIssue)
        .with(AddContact)
        .with(AllowAddress)
        .with(ConvertQuantity)
        .with(Ping);
    shapes::register(registry)
}
