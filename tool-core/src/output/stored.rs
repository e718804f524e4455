//! The stored form of a [`ToolResult`]: what its `Serialize` writes and its
//! `Deserialize` reads, for a result kept in a store and read back by
//! another process.
//!
//! The form is made of private types here rather than of derives on the
//! public types, so that it is decided in one place: a public type can
//! change its fields without changing the records already written. Every
//! record carries its version, `"v": 1`, which is read before the rest, so
//! that a later form can still read the records of this one.
//!
//! ```text
//! {"v":1,"output":{"text":"sunny"}}
//! {"v":1,"output":{"json":{"temp":21}},"structured":{"temp":21}}
//! {"v":1,"output":{"parts":[{"text":"The chart:"},{"media":{"media_type":"image/png","data":"iVBORw==","name":"chart.png"}}]}}
//! {"v":1,"output":{"text":"tool `slow` did not finish within 30s and was stopped"},"is_error":true,"error":{"timeout":{"tool":"slow","after":{"secs":30}}}}
//! {"v":1,"output":{"text":"..."},"state":{"pending":"call-1"}}
//! {"v":1,"output":{"text":""},"state":"deferred"}
//! ```

pub(crate) mod error;
pub(crate) mod forms;
#[cfg(test)]
mod tests;

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::output::result::ToolResult;
use crate::output::stored::error::ErrorForm;
use crate::output::stored::forms::{OutputForm, StateForm};

/// The version this build writes, and the only one it reads.
const VERSION: u64 = 1;

/// The fields of a record, in the order they are written.
const FIELDS: &[&str] = &["v", "output", "is_error", "error", "structured", "state"];

/// A record as written: borrowed from the result, but for the bytes of
/// media, which are shared, not copied.
#[derive(Serialize)]
#[serde(rename = "ToolResult")]
struct ResultRecord<'a> {
    v: u64,
    output: OutputForm<'a>,
    #[serde(skip_serializing_if = "is_false")]
    is_error: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorForm<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured: Option<&'a Value>,
    #[serde(skip_serializing_if = "StateForm::is_done")]
    state: StateForm<'a>,
}

fn is_false(value: &bool) -> bool {
    !value
}

/// Writes the stored form: `{"v":1,"output":{"text":"sunny"}}`, with
/// `is_error`, `error`, `structured` and `state` beside `output` when they
/// are not the default. Media bytes are written in standard base64.
///
/// A tool's own failure ([`ToolError::Execution`](crate::ToolError::Execution))
/// is written as its text: the error it came from, its
/// [`source`](crate::error::ErrorMessage::source), is an object that cannot
/// be written, and is not read back.
///
/// ```
/// use tool_core::ToolResult;
///
/// let stored = serde_json::to_string(&ToolResult::text("sunny"))?;
/// assert_eq!(stored, r#"{"v":1,"output":{"text":"sunny"}}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for ToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ResultRecord {
            v: VERSION,
            output: OutputForm::of(self.output()),
            is_error: self.is_error(),
            error: self.tool_error().map(ErrorForm::of),
            structured: self.structured_content(),
            state: StateForm::of(self.state()),
        }
        .serialize(serializer)
    }
}

/// Reads the stored form that `Serialize` writes, in any self-describing
/// format (JSON, for one). The result equals the one written, except that
/// a tool's own failure has no [`source`](crate::error::ErrorMessage::source)
/// any more, only its text; two
/// [`ErrorMessage`](crate::error::ErrorMessage)s are equal when their texts
/// are, so the results still compare equal.
///
/// A record of a version other than 1, one that is not of the form, or
/// base64 that does not decode, is an error of the format, never a panic.
///
/// ```
/// use tool_core::ToolResult;
///
/// let read: ToolResult = serde_json::from_str(r#"{"v":1,"output":{"text":"sunny"}}"#)?;
/// assert_eq!(read, ToolResult::text("sunny"));
///
/// let newer = serde_json::from_str::<ToolResult>(r#"{"v":2,"output":{"text":"sunny"}}"#);
/// assert!(newer.unwrap_err().to_string().contains("version 2"));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de> Deserialize<'de> for ToolResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("ToolResult", FIELDS, RecordVisitor)
    }
}

struct RecordVisitor;

impl<'de> Visitor<'de> for RecordVisitor {
    type Value = ToolResult;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a stored ToolResult: a map with its version `v`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolResult, A::Error> {
        let mut fields = StoredFields::default();
        let mut version = None;
        // The fields met before `v`, kept as JSON until the version says
        // what they are. This build writes `v` first, so there are none,
        // but a store that orders keys its own way (sorted, say) moves it.
        let mut early: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "v" {
                if version.is_some() {
                    return Err(de::Error::duplicate_field("v"));
                }
                version = Some(check_version(map.next_value()?)?);
                for (key, value) in early.drain(..) {
                    fields.set::<A>(&key, FieldSource::Read(value))?;
                }
            } else if version.is_none() {
                early.push((key, map.next_value()?));
            } else {
                fields.set(&key, FieldSource::Input(&mut map))?;
            }
        }
        if version.is_none() {
            return Err(de::Error::missing_field("v"));
        }
        fields.into_result()
    }
}

fn check_version<E: de::Error>(version: u64) -> Result<u64, E> {
    if version == VERSION {
        Ok(version)
    } else {
        Err(E::custom(format_args!(
            "a stored ToolResult of version {version}, which this tool-core cannot read (it reads version {VERSION})"
        )))
    }
}

/// Where a field's value is: still in the input, or read already as JSON
/// because it came before the version.
enum FieldSource<'m, A> {
    Input(&'m mut A),
    Read(Value),
}

impl<'de, A: MapAccess<'de>> FieldSource<'_, A> {
    fn take<T: DeserializeOwned>(self) -> Result<T, A::Error> {
        match self {
            FieldSource::Input(map) => map.next_value(),
            FieldSource::Read(value) => T::deserialize(value).map_err(de::Error::custom),
        }
    }
}

/// The fields of a version 1 record, as they are read.
#[derive(Default)]
struct StoredFields {
    output: Option<OutputForm<'static>>,
    is_error: Option<bool>,
    error: Option<ErrorForm<'static>>,
    structured: Option<Value>,
    state: Option<StateForm<'static>>,
}

impl StoredFields {
    fn set<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        source: FieldSource<'_, A>,
    ) -> Result<(), A::Error> {
        match key {
            "output" => fill(&mut self.output, "output", source),
            "is_error" => fill(&mut self.is_error, "is_error", source),
            "error" => fill(&mut self.error, "error", source),
            "structured" => fill(&mut self.structured, "structured", source),
            "state" => fill(&mut self.state, "state", source),
            _ => Err(de::Error::unknown_field(key, FIELDS)),
        }
    }

    fn into_result<E: de::Error>(self) -> Result<ToolResult, E> {
        let output = self.output.ok_or_else(|| E::missing_field("output"))?;
        Ok(ToolResult::from_stored(
            output.into_output(),
            self.is_error.unwrap_or(false),
            self.error.map(ErrorForm::into_error),
            self.structured,
            self.state.unwrap_or_default().into_state(),
        ))
    }
}

fn fill<'de, T: DeserializeOwned, A: MapAccess<'de>>(
    slot: &mut Option<T>,
    name: &'static str,
    source: FieldSource<'_, A>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(source.take()?);
    Ok(())
}
