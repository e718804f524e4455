//! A served registry that shows its tools as a search finds them
//! ([`McpConfig::with_search`](crate::McpConfig::with_search)): what each
//! caller's searches found, which `tools/list` shows it beside the tools
//! up front.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Mutex, PoisonError};

use tool_core::ToolResult;
use tool_core::output::Part;

use crate::tasks::TaskOwner;

/// The callers remembered at most: past it the oldest are forgotten, and a
/// caller forgotten searches again.
const MAX_CALLERS: usize = 10_000;

/// The tools each caller's searches found.
#[derive(Default)]
pub(crate) struct SearchFinds(Mutex<FindsByCaller>);

#[derive(Default)]
struct FindsByCaller {
    found: HashMap<TaskOwner, HashSet<String>>,
    /// In the order they first found something, for forgetting.
    order: VecDeque<TaskOwner>,
}

impl SearchFinds {
    /// Whether `caller`'s searches found the tool `name`.
    pub(crate) fn has(&self, caller: &TaskOwner, name: &str) -> bool {
        self.lock()
            .found
            .get(caller)
            .is_some_and(|found| found.contains(name))
    }

    /// Takes in the tools `result` points to (a search's); whether any is
    /// new to the caller, who is told apart only when there are some.
    pub(crate) fn take(&self, caller: impl FnOnce() -> TaskOwner, result: &ToolResult) -> bool {
        let names: Vec<&str> = result
            .as_parts()
            .into_iter()
            .flatten()
            .filter_map(|part| match part {
                Part::Tool(tool) => Some(tool.name()),
                _ => None,
            })
            .collect();
        if names.is_empty() {
            return false;
        }
        let caller = caller();
        let mut callers = self.lock();
        if !callers.found.contains_key(&caller) {
            if callers.order.len() >= MAX_CALLERS
                && let Some(oldest) = callers.order.pop_front()
            {
                callers.found.remove(&oldest);
            }
            callers.order.push_back(caller.clone());
        }
        let found = callers.found.entry(caller).or_default();
        let mut new = false;
        for name in names {
            new |= found.insert(name.to_owned());
        }
        new
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FindsByCaller> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
