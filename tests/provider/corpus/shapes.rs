//! The corpus, continued: shapes schemars writes inside other shapes, where
//! a dialect's rewrite has to reach them. Tuples in every position, maps of
//! structs (keyed by strings, integers and enums), optionals within
//! optionals, enums with data inside arrays (every tagging), recursion
//! reached through a map, and the odd primitives (`char`, non-zero and
//! 128-bit integers, a `Box`).
//!
//! What each tool covers is said beside it; the bodies only echo their
//! arguments.

use std::collections::{BTreeMap, HashMap};
use std::num::{NonZeroI32, NonZeroU64};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::{ToolRegistry, tool};

use super::{Action, Location, Shape, Target, Units, echo};

/// A point on the canvas.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Point {
    /// Column, in points.
    x: f64,
    /// Row, in points.
    y: f64,
}

/// A colour: red, green and blue, a tuple struct.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Rgb(u8, u8, u8);

/// How a line is drawn: a unit variant and a tuple variant.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Stroke {
    /// One unbroken line.
    Solid,
    /// Dashes: the length of a dash, then of a gap.
    Dashed(u32, u32),
}

/// Draw a path on the canvas.
///
/// Covers tuples in every position: in an array, as a map's values, of
/// structs, in a tuple, of one item, as a struct of its own (`$defs`), in
/// an enum's variant.
#[tool(tier = Observe)]
fn draw_path(
    /// The points, each x then y.
    points: Vec<(f64, f64)>,
    /// Labels by text, each at a row and a column.
    labels: HashMap<String, (i32, i32)>,
    /// Where the path starts and ends.
    ends: (Point, Point),
    /// The bounding box: its top-left and bottom-right corners, each row
    /// then column.
    bounds: ((i32, i32), (i32, i32)),
    /// The path's name, alone in a tuple.
    name: (String,),
    /// The line's colour.
    color: Rgb,
    /// How the line is drawn; solid when omitted.
    stroke: Option<Stroke>,
) -> String {
    let labels: BTreeMap<_, _> = labels.into_iter().collect();
    echo((points, labels, ends, bounds, name, color, stroke))
}

/// Index places for search.
///
/// Covers maps of structs: keyed by strings (`additionalProperties` a
/// `$ref`), of arrays of structs, optional with optional values, keyed by
/// integers (`patternProperties`) and by a unit enum (`properties`, closed).
#[tool(tier = Observe)]
fn index_places(
    /// Places by name.
    places: HashMap<String, Location>,
    /// Routes by name, each its stops in order.
    routes: BTreeMap<String, Vec<Location>>,
    /// Places by postcode, `null` for a postcode without one.
    by_postcode: Option<HashMap<String, Option<Location>>>,
    /// Places by numeric id.
    by_id: BTreeMap<u32, Location>,
    /// A reference temperature in each unit.
    by_unit: BTreeMap<Units, f64>,
) -> String {
    let places: BTreeMap<_, _> = places.into_iter().collect();
    let by_postcode = by_postcode.map(|map| map.into_iter().collect::<BTreeMap<_, _>>());
    echo((places, routes, by_postcode, by_id, by_unit))
}

/// Where someone lives.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Address {
    /// Street and number.
    street: String,
    /// A second line, e.g. a flat.
    line2: Option<String>,
    /// Where it is on the map, when known.
    geo: Option<Geo>,
}

/// A position on the map, each coordinate optional.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Geo {
    /// Latitude, in degrees.
    lat: Option<f64>,
    /// Longitude, in degrees.
    lon: Option<f64>,
}

/// Update a user's profile.
///
/// Covers nested optionals: `Option<Option<T>>`, an optional struct whose
/// fields are optional structs with optional fields, optional items in an
/// optional array, optional structs in an array.
#[tool(tier = Observe)]
fn update_profile(
    /// The new nickname.
    nickname: Option<Option<String>>,
    /// The new address.
    address: Option<Address>,
    /// Other names; `null` for a name withheld.
    aliases: Option<Vec<Option<String>>>,
    /// The emergency contacts' addresses, `null` where unknown.
    contacts: Vec<Option<Address>>,
) -> String {
    echo((nickname.flatten(), address, aliases, contacts))
}

/// An input event: an adjacently tagged enum.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum Event {
    /// A click.
    Click {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A key press: the key's character.
    Key(char),
    /// Nothing for a while.
    Idle,
}

/// Run a script of steps.
///
/// Covers enums with data inside arrays: internally, externally and
/// adjacently tagged, and untagged inside an optional array.
#[tool(tier = Observe)]
fn run_script(
    /// The steps, in order.
    steps: Vec<Action>,
    /// Shapes to draw on the way.
    shapes: Vec<Shape>,
    /// Targets to find; none when omitted.
    targets: Option<Vec<Target>>,
    /// Input events to replay.
    events: Vec<Event>,
) -> String {
    echo((steps, shapes, targets, events))
}

/// A directory: its entries by name.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Directory {
    /// The entries, by name.
    entries: BTreeMap<String, Entry>,
}

/// An entry of a directory.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Entry {
    /// A file of this many bytes.
    File {
        /// Size, in bytes.
        size: u64,
    },
    /// A directory.
    Directory(Directory),
}

/// Browse a tree of files.
///
/// Covers a recursive type reached through a map of an enum
/// (`Directory` -> `entries` -> `Entry` -> `Directory`).
#[tool(tier = Observe)]
fn browse_files(
    /// The tree.
    root: Directory,
    /// Names to skip.
    skip: Option<Vec<String>>,
) -> String {
    echo((root, skip))
}

/// Classify a taxon and its descendants.
///
/// Covers a struct tool that contains itself through a map (`"$ref": "#"`
/// in `additionalProperties`).
#[tool(tier = Observe)]
#[derive(Deserialize, Serialize, JsonSchema)]
pub(crate) struct Taxon {
    /// The taxon's name.
    name: String,
    /// Its children, by name.
    #[serde(default)]
    children: BTreeMap<String, Taxon>,
}

impl Taxon {
    fn run(self) -> String {
        echo(self)
    }
}

/// Tune the engine.
///
/// Covers `char` (a string of one character), `NonZeroI32` (`not`),
/// `NonZeroU64` (`minimum: 1`), 128-bit integers, a boxed struct, a
/// fixed-size array.
#[tool(tier = Observe)]
fn tune_engine(
    /// The gear, one letter.
    gear: char,
    /// Trim, any whole number but 0.
    trim: NonZeroI32,
    /// Serial number, from 1.
    serial: NonZeroU64,
    /// A checksum.
    checksum: u128,
    /// A signed offset.
    offset: i128,
    /// Where the engine sits.
    mount: Box<Point>,
    /// The torque of each of the four bolts.
    torques: [u16; 4],
) -> String {
    echo((gear, trim, serial, checksum, offset, mount, torques))
}

/// The number of tools [`register`] adds.
pub(crate) const TOOLS: usize = 7;

/// The registry with these tools added.
pub(crate) fn register(registry: ToolRegistry) -> ToolRegistry {
    registry
        .with(DrawPath)
        .with(IndexPlaces)
        .with(UpdateProfile)
        .with(RunScript)
        .with(BrowseFiles)
        .with(TaxonTool)
        .with(TuneEngine)
}

/// Arguments with every property at every level given.
pub(crate) fn full_arguments() -> Vec<(&'static str, Value)> {
    let paris = json!({"city": "Paris", "country": "FR"});
    let lyon = json!({"city": "Lyon", "country": "FR"});
    let address = json!({"street": "1 Rue de Rivoli", "line2": "Flat 2",
                         "geo": {"lat": 48.86, "lon": 2.35}});
    vec![
        (
            "draw_path",
            json!({"points": [[0.0, 1.0], [2.5, 3.0]], "labels": {"start": [0, 1]},
                   "ends": [{"x": 0.0, "y": 0.0}, {"x": 1.0, "y": 1.0}],
                   "bounds": [[0, 0], [10, 20]], "name": ["route"], "color": [255, 128, 0], "stroke": {"dashed": [4, 2]}}),
        ),
        (
            "draw_path",
            json!({"points": [], "labels": {}, "ends": [{"x": 0, "y": 0}, {"x": 0, "y": 0}],
                   "bounds": [[0, 0], [0, 0]], "name": [""], "color": [0, 0, 0],
                   "stroke": "solid"}),
        ),
        (
            "index_places",
            json!({"places": {"home": paris}, "routes": {"south": [paris, lyon]},
                   "by_postcode": {"75001": paris, "00000": null}, "by_id": {"1": lyon},
                   "by_unit": {"celsius": 20.0, "fahrenheit": 68.0}}),
        ),
        (
            "update_profile",
            json!({"nickname": "Ada", "address": address, "aliases": ["A", null],
                   "contacts": [address, null]}),
        ),
        (
            "run_script",
            json!({"steps": [{"kind": "move", "x": 1, "y": 2}, {"kind": "say", "text": "hi"},
                             {"kind": "wait"}],
                   "shapes": [{"circle": {"radius": 1.0}}, "dot", {"square": 2.0}],
                   "targets": [42, "Bob", {"lat": 1.0, "lon": 2.0}],
                   "events": [{"type": "click", "data": {"x": 1, "y": 2}},
                              {"type": "key", "data": "q"}, {"type": "idle"}]}),
        ),
        (
            "browse_files",
            json!({"root": {"entries": {
                       "a.txt": {"file": {"size": 10}},
                       "src": {"directory": {"entries": {"main.rs": {"file": {"size": 1}}}}}
                   }},
                   "skip": ["target"]}),
        ),
        (
            "taxon",
            json!({"name": "Animalia", "children": {
                "Chordata": {"name": "Chordata", "children": {}}
            }}),
        ),
        (
            "tune_engine",
            json!({"gear": "D", "trim": -3, "serial": 12, "checksum": 12345, "offset": -5,
                   "mount": {"x": 0.5, "y": 1.5}, "torques": [10, 10, 12, 12]}),
        ),
    ]
}

/// Arguments with only what is required.
pub(crate) fn minimal_arguments() -> Vec<(&'static str, Value)> {
    vec![
        (
            "draw_path",
            json!({"points": [], "labels": {}, "ends": [{"x": 0, "y": 0}, {"x": 1, "y": 1}],
                   "bounds": [[0, 0], [1, 1]], "name": ["p"], "color": [1, 2, 3]}),
        ),
        (
            "index_places",
            json!({"places": {}, "routes": {}, "by_id": {}, "by_unit": {}}),
        ),
        ("update_profile", json!({"contacts": []})),
        (
            "run_script",
            json!({"steps": [], "shapes": [], "events": []}),
        ),
        ("browse_files", json!({"root": {"entries": {}}})),
        ("taxon", json!({"name": "Animalia"})),
        (
            "tune_engine",
            json!({"gear": "N", "trim": 1, "serial": 1, "checksum": 0, "offset": 0,
                   "mount": {"x": 0, "y": 0}, "torques": [0, 0, 0, 0]}),
        ),
    ]
}
