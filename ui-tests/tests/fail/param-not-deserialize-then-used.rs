use tool_core::{tool, ToolRegistry};

#[derive(schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// Measure the distance of a point from the origin.
#[tool]
fn distance(point: Point) -> f64 {
    (point.x * point.x + point.y * point.y).sqrt()
}

fn main() {
    // The parameter's error is the only one: the tool still registers.
    let _registry = ToolRegistry::<()>::new().with(Distance);
}
