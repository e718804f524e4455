//! rig: `#[rig_tool]` functions in one `ToolSet`, measured on `add_note`
//! only: `add_note`, `add_note_async` and 98 fillers (the common ones and
//! five more in place of the other shapes' tools), 100 in all.

// `#[rig_tool]` also makes a static instance of each tool, unused here.
#![allow(dead_code)]

use rig_agent::tool::ToolSet;
use rig_core::rig_tool;
use rig_core::tool::ToolExecutionError;

use crate::shapes::body;

/// Add a note to the user's notebook.
#[rig_tool]
pub fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> Result<String, ToolExecutionError> {
    Ok(body::add_note(&title, &body, priority))
}

/// Add a note to the user's notebook.
#[rig_tool]
pub async fn add_note_async(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> Result<String, ToolExecutionError> {
    Ok(body::add_note(&title, &body, priority))
}

/// The fillers named in the invocation, and the set of every tool.
macro_rules! rg_tools {
    ([$($name:ident $unit:ident),* $(,)?] $($more:ident $more_unit:ident),* $(,)?) => {
        $(
            /// Add a note to another notebook.
            #[rig_tool]
            pub fn $name(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> Result<String, ToolExecutionError> {
                Ok(format!("{}: `{title}` (priority {priority}): {body}", stringify!($name)))
            }
        )*
        $(
            /// Add a note to another notebook.
            #[rig_tool]
            pub fn $more(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> Result<String, ToolExecutionError> {
                Ok(format!("{}: `{title}` (priority {priority}): {body}", stringify!($more)))
            }
        )*

        /// Every tool, in one set.
        pub fn toolset() -> ToolSet {
            let mut set = ToolSet::default();
            set.add_tool(AddNote);
            set.add_tool(AddNoteAsync);
            $(set.add_tool($unit);)*
            $(set.add_tool($more_unit);)*
            set
        }
    };
}

with_fillers!(rg_tools note_94 Note94, note_95 Note95, note_96 Note96, note_97 Note97, note_98 Note98);
