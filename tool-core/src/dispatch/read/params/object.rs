//! A `#[tool]` function's arguments as its start function walks them: key
//! by key, each matched to a parameter's [`Slot`], then the parameters not
//! given read from nothing and the gate passed.

use serde::de;
use serde_json::{Error, Value};

use crate::dispatch::read::params::Slot;
use crate::dispatch::read::text::Scan;
use crate::dispatch::read::{ArgumentSource, Arguments, Checks, PolicyCheck};
use crate::error::tool_error::ToolError;
use crate::value::{Node, Path, unexpected};

impl<'a> Arguments<'a> {
    /// The arguments as the object a function's parameters are read out
    /// of; `expecting` says what they should have been when they are no
    /// object, which [`Object::finish`] reports (the object then has no
    /// keys). Never an error here: the object is made in place, not moved
    /// out of a `Result`.
    #[inline]
    pub fn object(self, expecting: &'static str) -> Object<'a> {
        let (source, tool, gate) = self.into_parts();
        let entries = match source {
            ArgumentSource::Node(Node::Read(Value::Object(map))) => Entries::Read(map.iter()),
            ArgumentSource::Node(Node::Take(Value::Object(map))) => Entries::Take(map.iter_mut()),
            ArgumentSource::Node(Node::Read(value)) => Entries::NotAnObject(value),
            ArgumentSource::Node(Node::Take(value)) => Entries::NotAnObject(value),
            ArgumentSource::Text(text, failed) => Entries::Text(Scan::new(text, failed)),
        };
        Object {
            entries,
            pending: None,
            path: Path::default(),
            read: 0,
            tool,
            gate,
            expecting,
        }
    }
}

/// The arguments of a `#[tool]` function while its start function reads
/// them, key by key as the object lists them: the function matches each
/// key to a parameter (or calls [`Object::unknown`]) and reads its value
/// with [`Object::read`], then [`Object::finish`] reads the parameters not
/// given and passes the gate. The loop and the match are the function's
/// own, so the keys are compared as constants and each read is a direct
/// call; what they call is compiled once.
#[doc(hidden)]
pub struct Object<'a> {
    entries: Entries<'a>,
    /// The value of the key `next_key` gave.
    pending: Option<Node<'a>>,
    path: Path<'a>,
    /// Which parameters have been read, one bit each.
    read: u64,
    tool: &'a str,
    gate: PolicyCheck<'a>,
    expecting: &'static str,
}

impl<'a> Object<'a> {
    /// The next key; on the path until its value is read, so that a
    /// problem with either is reported at it.
    #[inline]
    pub fn next_key(&mut self) -> Option<&'a str> {
        let Some((key, node)) = self.entries.next() else {
            return match &mut self.entries {
                Entries::Text(scan) => scan.next_key(),
                _ => None,
            };
        };
        self.path.push_key(key);
        self.pending = Some(node);
        Some(key)
    }

    /// Reads the value of the last key into the parameter at `index`.
    #[inline(always)]
    pub fn read(&mut self, index: u32, field: &mut dyn Slot) -> Result<(), ToolError> {
        let bit = 1u64 << (index % 64);
        match self.pending.take() {
            Some(node) if self.read & bit == 0 => match field.read(node, &mut self.path) {
                Ok(()) => {
                    self.read |= bit;
                    self.path.pop();
                    Ok(())
                }
                Err(error) => Err(self.invalid(&error)),
            },
            // A key of the text has no pending value: its value is read
            // where the scan is.
            None if let Entries::Text(scan) = &mut self.entries => {
                if self.read & bit == 0 && field.read_text(scan) {
                    self.read |= bit;
                    return Ok(());
                }
                Err(scan.unread(self.tool))
            }
            _ => Err(self.invalid(&de::Error::custom("a key read twice"))),
        }
    }

    /// The last key is no parameter's: serde's words, with the names.
    #[cold]
    pub fn unknown(&mut self, key: &str, names: &'static [&'static str]) -> ToolError {
        if let Entries::Text(scan) = &mut self.entries {
            return scan.unread(self.tool);
        }
        self.invalid(&de::Error::unknown_field(key, names))
    }

    /// Reads each parameter the arguments did not give from nothing, then
    /// passes the gate.
    pub fn finish(mut self, fields: &mut [&mut dyn Slot]) -> Result<(), ToolError> {
        self.read_rest(fields)?;
        (self.gate)()
    }

    /// [`finish`](Object::finish) without the gate, for a tool with checks
    /// of its own, which run first.
    pub fn finish_unchecked(
        mut self,
        fields: &mut [&mut dyn Slot],
    ) -> Result<Checks<'a>, ToolError> {
        self.read_rest(fields)?;
        Ok(Checks {
            tool: self.tool,
            gate: self.gate,
        })
    }

    /// Refuses arguments that are no object, then reads each parameter
    /// they did not give from nothing. Always inlined: as a call of its
    /// own it cost `finish` 15 instructions a call (callgrind).
    #[inline(always)]
    fn read_rest(&mut self, fields: &mut [&mut dyn Slot]) -> Result<(), ToolError> {
        match &mut self.entries {
            Entries::NotAnObject(value) => {
                return Err(not_an_object(self.tool, value, self.expecting));
            }
            Entries::Text(scan) if !scan.complete() => return Err(scan.unread(self.tool)),
            _ => {}
        }
        if self.read.count_ones() as usize != fields.len() {
            for (index, field) in fields.iter_mut().enumerate() {
                if self.read & (1u64 << (index % 64)) == 0
                    && let Err(error) = field.read_missing()
                {
                    return Err(self.missing(&error));
                }
            }
        }
        Ok(())
    }

    /// A parameter left out that cannot be. From the text, the call goes
    /// the whole way, so that the schema's check says so in its words.
    #[cold]
    fn missing(&mut self, error: &Error) -> ToolError {
        if let Entries::Text(scan) = &mut self.entries {
            return scan.unread(self.tool);
        }
        self.invalid(error)
    }

    #[cold]
    fn invalid(&self, error: &Error) -> ToolError {
        self.path.invalid(self.tool, error)
    }
}

#[cold]
fn not_an_object(tool: &str, value: &Value, expecting: &'static str) -> ToolError {
    let error: Error = de::Error::invalid_type(unexpected(value), &expecting);
    Path::default().invalid(tool, &error)
}

enum Entries<'a> {
    Read(serde_json::map::Iter<'a>),
    Take(serde_json::map::IterMut<'a>),
    /// Arguments that are no object: no keys.
    NotAnObject(&'a Value),
    /// The arguments' text, read as it is walked.
    Text(Scan<'a>),
}

impl<'a> Entries<'a> {
    #[inline]
    fn next(&mut self) -> Option<(&'a str, Node<'a>)> {
        match self {
            Entries::Read(entries) => entries.next().map(|(k, v)| (k.as_str(), Node::Read(v))),
            Entries::Take(entries) => entries.next().map(|(k, v)| (k.as_str(), Node::Take(v))),
            Entries::NotAnObject(_) | Entries::Text(_) => None,
        }
    }
}
