//! Arguments a model could send to each tool of the corpus: every
//! property given, or only what is required.

use serde_json::{Value, json};

/// Arguments a model could send to each tool, every property at every level
/// given (so that they also fit OpenAI's strict form, where every property
/// is required), one example per variant of each enum.
pub(crate) fn full_arguments() -> Vec<(&'static str, Value)> {
    let mut all = full_arguments_of_places_and_choices();
    all.extend(full_arguments_of_collections_and_records());
    all.extend(super::shapes::full_arguments());
    all
}

/// [`full_arguments`] of the tools of places, and of enums and unions.
fn full_arguments_of_places_and_choices() -> Vec<(&'static str, Value)> {
    let paris = json!({"city": "Paris", "country": "FR"});
    vec![
        (
            "get_weather",
            json!({"location": paris, "units": "celsius", "days": 3}),
        ),
        (
            "plan_route",
            json!({"origin": paris, "destination": {"city": "Lyon", "country": "FR"},
                   "stops": [{"city": "Dijon", "country": "FR"}], "avoid_tolls": true}),
        ),
        (
            "draw_shape",
            json!({"shape": {"circle": {"radius": 2.0}}, "outline": "dot", "scale": 1.5}),
        ),
        (
            "draw_shape",
            json!({"shape": {"rectangle": {"width": 2.0, "height": 1.0}}, "outline": {"square": 3.0}, "scale": 1}),
        ),
        (
            "perform_action",
            json!({"action": {"kind": "move", "x": -1, "y": 2}, "repeat": 20}),
        ),
        (
            "perform_action",
            json!({"action": {"kind": "say", "text": "hello"}, "repeat": 1}),
        ),
        (
            "perform_action",
            json!({"action": {"kind": "wait"}, "repeat": 2}),
        ),
        ("find_target", json!({"target": 42, "fallback": "Bob"})),
        (
            "find_target",
            json!({"target": {"lat": 48.85, "lon": 2.35}, "fallback": 7}),
        ),
    ]
}

/// [`full_arguments`] of the tools of maps, lists, tuples, any JSON value
/// and recursive types, and of those of plain fields.
fn full_arguments_of_collections_and_records() -> Vec<(&'static str, Value)> {
    vec![
        (
            "set_counters",
            json!({"counters": {"a": 1, "b": -2}, "weights": {"a": 0.5}}),
        ),
        (
            "tag_items",
            json!({"tags": ["red", "blue"], "exclude": ["x"]}),
        ),
        (
            "place_marker",
            json!({"position": [3, "home"], "offset": [0.5, -1.0]}),
        ),
        (
            "store_value",
            json!({"key": "k", "value": {"any": [1, "thing"]}, "metadata": null}),
        ),
        (
            "render_tree",
            json!({"tree": {"label": "root", "children": [{"label": "leaf", "children": []}]}, "max_depth": 2}),
        ),
        (
            "outline",
            json!({"title": "Intro", "sections": [{"title": "Why", "sections": []}]}),
        ),
        (
            "search_documents",
            json!({"q": "rust", "page": 1, "perPage": 20, "includeArchived": false,
                   "sortOrder": "NEWEST_FIRST", "format": "pdf"}),
        ),
        (
            "create_issue",
            json!({"title": "Crash on start", "body": "It crashes.", "priority": 1,
                   "labels": ["bug"], "parent": "CORE-12"}),
        ),
        (
            "add_contact",
            json!({"contact": {"name": "Ada", "email": "ada@example.com",
                               "homepage": "https://example.com", "phone": "+33 1 23 45 67"},
                   "invite": true}),
        ),
        (
            "allow_address",
            json!({"address": "2001:db8::1", "gateway": "10.0.0.1"}),
        ),
        (
            "convert_quantity",
            json!({"value": 1.5, "ratio": 0.25, "places": -2, "batch": 500, "offset": -7,
                   "limit": 1000, "unit_index": 3}),
        ),
        ("ping", json!({})),
    ]
}

/// Arguments with only what is required, for the dialects where optional
/// properties stay optional.
pub(crate) fn minimal_arguments() -> Vec<(&'static str, Value)> {
    let mut all = vec![
        ("get_weather", json!({"location": {"city": "Paris"}})),
        (
            "plan_route",
            json!({"destination": {"city": "Lyon"}, "stops": []}),
        ),
        ("draw_shape", json!({"shape": "dot", "scale": 1.0})),
        ("perform_action", json!({"action": {"kind": "wait"}})),
        ("find_target", json!({"target": "Bob"})),
        ("set_counters", json!({"counters": {}})),
        ("tag_items", json!({"tags": []})),
        ("place_marker", json!({"position": [0, ""]})),
        ("store_value", json!({"key": "k", "value": null})),
        ("render_tree", json!({"tree": {"label": "root"}})),
        ("outline", json!({"title": "Intro"})),
        ("search_documents", json!({"q": "rust"})),
        (
            "create_issue",
            json!({"title": "Crash", "priority": 5, "labels": []}),
        ),
        (
            "add_contact",
            json!({"contact": {"name": "Ada", "email": "ada@example.com"}}),
        ),
        ("allow_address", json!({"address": "10.0.0.1"})),
        (
            "convert_quantity",
            json!({"value": 1, "ratio": 1, "places": 0, "batch": 0, "offset": 0, "limit": 0, "unit_index": 0}),
        ),
        ("ping", json!({})),
    ];
    all.extend(super::shapes::minimal_arguments());
    all
}
