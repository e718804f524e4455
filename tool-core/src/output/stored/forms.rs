//! The stored forms of a result's content and state: text, JSON, parts,
//! media (base64), links, tool references.
//!
//! Each form borrows from the public value it is written from, and owns
//! what it reads (a `Cow` is read owned), so that one type serves both.

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::output::media::{Link, Media, Part, ToolRef};
use crate::output::result::ResultState;
use crate::output::result::ToolOutput;

/// `{"text":"sunny"}`, `{"json":{"temp":21}}`, `{"parts":[...]}`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum OutputForm<'a> {
    Text(Cow<'a, str>),
    Json(Cow<'a, Value>),
    Parts(Vec<PartForm<'a>>),
}

impl<'a> OutputForm<'a> {
    pub(super) fn of(output: &'a ToolOutput) -> Self {
        match output {
            ToolOutput::Text(text) => OutputForm::Text(Cow::Borrowed(text)),
            ToolOutput::Json(value) => OutputForm::Json(Cow::Borrowed(value)),
            ToolOutput::Parts(parts) => OutputForm::Parts(parts.iter().map(PartForm::of).collect()),
        }
    }

    pub(super) fn into_output(self) -> ToolOutput {
        match self {
            OutputForm::Text(text) => ToolOutput::Text(text.into_owned()),
            OutputForm::Json(value) => ToolOutput::Json(value.into_owned()),
            OutputForm::Parts(parts) => {
                ToolOutput::Parts(parts.into_iter().map(PartForm::into_part).collect())
            }
        }
    }
}

/// `{"text":"..."}`, `{"json":...}`, `{"media":{...}}`, `{"link":{...}}`,
/// `{"tool":{...}}`. Not the MCP block `Part`'s own `Serialize` writes:
/// that one turns JSON and tool references into text, and reads back as
/// something else.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum PartForm<'a> {
    Text(Cow<'a, str>),
    Json(Cow<'a, Value>),
    Media(MediaForm<'a>),
    Link(LinkForm<'a>),
    Tool(ToolRefForm<'a>),
}

impl<'a> PartForm<'a> {
    fn of(part: &'a Part) -> Self {
        match part {
            Part::Text(text) => PartForm::Text(Cow::Borrowed(text)),
            Part::Json(value) => PartForm::Json(Cow::Borrowed(value)),
            Part::Media(media) => PartForm::Media(MediaForm {
                media_type: Cow::Borrowed(media.media_type()),
                data: Data(media.data().clone()),
                name: media.name().map(Cow::Borrowed),
            }),
            Part::Link(link) => PartForm::Link(LinkForm {
                uri: Cow::Borrowed(link.uri()),
                name: Cow::Borrowed(link.name()),
                media_type: link.media_type().map(Cow::Borrowed),
                description: link.description().map(Cow::Borrowed),
            }),
            Part::Tool(tool) => PartForm::Tool(ToolRefForm {
                name: Cow::Borrowed(tool.name()),
                description: Cow::Borrowed(tool.description()),
                input_schema: tool.input_schema().map(Cow::Borrowed),
            }),
        }
    }

    fn into_part(self) -> Part {
        match self {
            PartForm::Text(text) => Part::Text(text.into_owned()),
            PartForm::Json(value) => Part::Json(value.into_owned()),
            PartForm::Media(form) => {
                let media = Media::new(form.media_type.into_owned(), form.data.0);
                Part::Media(match form.name {
                    Some(name) => media.named(name.into_owned()),
                    None => media,
                })
            }
            PartForm::Link(form) => {
                let mut link = Link::new(form.uri.into_owned(), form.name.into_owned());
                if let Some(media_type) = form.media_type {
                    link = link.with_media_type(media_type.into_owned());
                }
                if let Some(description) = form.description {
                    link = link.with_description(description.into_owned());
                }
                Part::Link(link)
            }
            PartForm::Tool(form) => {
                let tool = ToolRef::new(form.name.into_owned(), form.description.into_owned());
                Part::Tool(match form.input_schema {
                    Some(schema) => tool.with_input_schema(schema.into_owned()),
                    None => tool,
                })
            }
        }
    }
}

/// `{"media_type":"image/png","data":"iVBORw==","name":"chart.png"}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MediaForm<'a> {
    media_type: Cow<'a, str>,
    data: Data,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<Cow<'a, str>>,
}

/// `{"uri":"...","name":"...","media_type":"...","description":"..."}`,
/// the last two when given.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LinkForm<'a> {
    uri: Cow<'a, str>,
    name: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    media_type: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<Cow<'a, str>>,
}

/// `{"name":"...","description":"...","input_schema":{...}}`, the schema
/// when given.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ToolRefForm<'a> {
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input_schema: Option<Cow<'a, Value>>,
}

/// Media bytes as a standard base64 string: a third larger than the bytes,
/// where a JSON array of numbers would be up to four times. Written
/// straight into the output, and read straight from the input's string.
pub(super) struct Data(Bytes);

impl Serialize for Data {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Base64Display::new(&self.0, &BASE64))
    }
}

impl<'de> Deserialize<'de> for Data {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(DataVisitor)
    }
}

struct DataVisitor;

impl Visitor<'_> for DataVisitor {
    type Value = Data;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes in standard base64")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Data, E> {
        match BASE64.decode(text) {
            Ok(bytes) => Ok(Data(Bytes::from(bytes))),
            Err(error) => Err(E::custom(format_args!("media data is not base64: {error}"))),
        }
    }
}

/// Left out when done; `{"pending":"call-1"}`; `"deferred"`;
/// `{"parked":"call-1"}`.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum StateForm<'a> {
    #[default]
    Done,
    Pending(Cow<'a, str>),
    Deferred,
    Parked(Cow<'a, str>),
}

impl<'a> StateForm<'a> {
    pub(super) fn of(state: &'a ResultState) -> Self {
        match state {
            ResultState::Done => StateForm::Done,
            ResultState::Pending(call_id) => StateForm::Pending(Cow::Borrowed(call_id)),
            ResultState::Deferred => StateForm::Deferred,
            ResultState::Parked(call_id) => StateForm::Parked(Cow::Borrowed(call_id)),
        }
    }

    pub(super) fn is_done(&self) -> bool {
        matches!(self, StateForm::Done)
    }

    pub(super) fn into_state(self) -> ResultState {
        match self {
            StateForm::Done => ResultState::Done,
            StateForm::Pending(call_id) => ResultState::Pending(call_id.into()),
            StateForm::Deferred => ResultState::Deferred,
            StateForm::Parked(call_id) => ResultState::Parked(call_id.into()),
        }
    }
}
