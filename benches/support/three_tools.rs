//! What `streamed_call` and `turn` share: three tools of the shapes people
//! write (three scalars, a nested struct, a `Vec` of structs), their
//! registry, each one's arguments, and a cell of paired rounds.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::{ToolRegistry, tool};

#[path = "table.rs"]
mod table;

pub(crate) use table::{machine, write_table};

/// Add a note to the user's notebook.
#[tool]
fn add_note(title: String, body: String, priority: u8) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// When an event happens.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Slot {
    date: String,
    start_hour: u8,
    duration_minutes: u16,
}

/// Put an event in the calendar.
#[tool]
fn create_event(title: String, when: Slot) -> String {
    format!(
        "event `{title}` on {} at {:02}:00 for {} minutes",
        when.date, when.start_hour, when.duration_minutes
    )
}

/// A line of an order.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Item {
    sku: String,
    quantity: u32,
}

/// Add lines to an order.
#[tool]
fn add_items(order_id: u64, items: Vec<Item>) -> String {
    let units: u32 = items.iter().map(|item| item.quantity).sum();
    format!("order {order_id}: {} lines, {units} units", items.len())
}

/// Each tool's name and arguments.
pub(crate) fn shapes() -> [(&'static str, Value); 3] {
    [
        (
            "add_note",
            json!({"title": "Groceries", "body": "milk, eggs", "priority": 2}),
        ),
        (
            "create_event",
            json!({"title": "Standup", "when": {"date": "2026-03-02", "start_hour": 9, "duration_minutes": 15}}),
        ),
        (
            "add_items",
            json!({"order_id": 1042, "items": [
                {"sku": "A-1", "quantity": 2}, {"sku": "B-7", "quantity": 5}, {"sku": "C-3", "quantity": 1}
            ]}),
        ),
    ]
}

/// The three tools in one registry.
pub(crate) fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(AddNote)
        .with(CreateEvent)
        .with(AddItems)
}

/// One cell of a table: `rounds` rounds (after one warm-up) of a block of
/// `calls` the way measured (`block(true)`) and one of its baseline
/// (`block(false)`), the order alternating; the median of the ratio
/// measured ÷ baseline (min–max), then the ns a call of the way measured.
pub(crate) fn paired(
    rounds: usize,
    calls: usize,
    mut block: impl FnMut(bool) -> Duration,
) -> String {
    let (mut ratios, mut ns) = (Vec::new(), Vec::new());
    for round in 0..=rounds {
        let (measured, baseline) = if round % 2 == 0 {
            let measured = block(true);
            (measured, block(false))
        } else {
            let baseline = block(false);
            (block(true), baseline)
        };
        if round > 0 {
            ratios.push(measured.as_secs_f64() / baseline.as_secs_f64());
            ns.push(measured.as_secs_f64() * 1e9 / calls as f64);
        }
    }
    let (low, high) = ratios.iter().fold((f64::MAX, f64::MIN), |(low, high), &r| {
        (low.min(r), high.max(r))
    });
    format!(
        " {:.2} ({low:.2}–{high:.2}); {:.0} ns |",
        table::median(ratios),
        table::median(ns)
    )
}
