// A parameter is only read: it needs no `Serialize`, whether it is read one
// by one, through the input struct an attribute makes, or with a schema
// written by hand.
use tool_core::{tool, ToolRegistry};

#[derive(Default, serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// Measure the distance of a point from the origin.
#[tool]
fn distance(point: Point) -> f64 {
    point.x.hypot(point.y)
}

/// Measure the distance of a point from the origin, the origin by default.
#[tool]
fn distance_or_zero(#[serde(default)] point: Point) -> f64 {
    point.x.hypot(point.y)
}

/// Measure the distance of a point from the origin, described by hand.
#[tool(schema = serde_json::json!({"type": "object", "properties": {"point": {}}}))]
fn distance_by_hand(point: Point) -> f64 {
    point.x.hypot(point.y)
}

fn main() {
    let registry: ToolRegistry = ToolRegistry::new()
        .with(Distance)
        .with(DistanceOrZero)
        .with(DistanceByHand);
    assert_eq!(registry.tools().len(), 3);
}
