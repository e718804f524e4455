//! The deserializer of a tool's arguments, as a value, as a whole.

use serde::de::{self, Deserializer, Visitor};
use serde_json::{Error, Value};

use crate::value::{Node, Path, PathDeserializer};

impl<'a> Path<'a> {
    /// The deserializer of the arguments as a whole: `closed`, a struct
    /// read there refuses a key that is none of its fields.
    #[inline]
    pub(crate) fn root_reader<'p>(&'p mut self, node: Node<'a>, closed: bool) -> Root<'a, 'p> {
        Root {
            drain: self.reader(node),
            closed,
        }
    }
}

/// The deserializer of a tool's arguments as a whole: `PathDeserializer`, except
/// that, `closed`, a struct read here refuses a key that is none of its
/// fields (serde's `FIELDS`, aliases included) in serde's words, as
/// `deny_unknown_fields` would: a `#[tool]` struct refuses unknown
/// arguments as a `#[tool]` function's parameters do, whatever its schema
/// says. A struct with `#[serde(flatten)]` is read as a map and keeps its
/// own rule. Nested values are read by `PathDeserializer` alone.
pub(crate) struct Root<'a, 'p> {
    drain: PathDeserializer<'a, 'p>,
    closed: bool,
}

impl<'de> Deserializer<'de> for Root<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.drain.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.drain.deserialize_option(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.closed
            && let Value::Object(map) = self.drain.node.value()
            && let Some(key) = map.keys().find(|key| !fields.contains(&key.as_str()))
        {
            // Said of the arguments as a whole, the key bounded as the
            // path would bound it.
            let key = crate::error::echo::Echo(key).to_string();
            return Err(de::Error::unknown_field(&key, fields));
        }
        self.drain.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.drain.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.drain.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map
        identifier ignored_any
    }
}
