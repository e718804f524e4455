//! A tool's input struct read straight out of the arguments' text, refusing
//! a key that is none of its fields: what `Root` (`runner.rs`) does for a
//! value, for text. serde's derive without `deny_unknown_fields` skips such
//! a key; a `#[tool]` refuses it, the same for text as for a value.
//!
//! Any refusal here only sends the call the whole way (`text.rs`), where
//! the value's reader says it in its words: the errors of this file are
//! never read.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Error;

/// Reads `T` from the whole text; `closed`, a struct read there refuses a
/// key that is none of its fields.
pub(crate) fn read_input_text<T: DeserializeOwned>(text: &str, closed: bool) -> Result<T, Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let input = if closed {
        T::deserialize(Closed(&mut reader))?
    } else {
        T::deserialize(&mut reader)?
    };
    reader.end()?;
    Ok(input)
}

/// The text's deserializer, closing the struct read at its root.
struct Closed<D>(D);

macro_rules! forward {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Closed<D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let visitor = Fields { visitor, fields };
        self.0.deserialize_struct(name, fields, visitor)
    }
}

/// The struct's visitor, handed the object's entries with their keys
/// checked.
struct Fields<V> {
    visitor: V,
    fields: &'static [&'static str],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Fields<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.visitor.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(Entries {
            map,
            fields: self.fields,
        })
    }
}

struct Entries<A> {
    map: A,
    fields: &'static [&'static str],
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(Key {
            seed,
            fields: self.fields,
        })
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// A key, refused unless it is one of the fields, then read by the
/// struct's own seed.
struct Key<K> {
    seed: K,
    fields: &'static [&'static str],
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Key<K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for Key<K> {
    type Value = K::Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<K::Value, E> {
        if !self.fields.contains(&key) {
            return Err(de::Error::unknown_field(key, self.fields));
        }
        self.seed
            .deserialize(de::value::StrDeserializer::<E>::new(key))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::read_input_text;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Search {
        query: String,
        limit: Option<u32>,
    }

    #[test]
    fn a_closed_struct_refuses_a_key_it_does_not_know() {
        let read = |text, closed| read_input_text::<Search>(text, closed).ok();
        let search = Search {
            query: "q".to_owned(),
            limit: Some(2),
        };
        assert_eq!(
            read(r#"{"query":"q","limit":2}"#, true).as_ref(),
            Some(&search)
        );
        assert_eq!(
            read(r#" {"limit":2, "query":"q"} "#, true).as_ref(),
            Some(&search)
        );
        assert!(read(r#"{"query":"q","colour":1}"#, true).is_none());
        assert!(read(r#"{"query":"q","colour":1}"#, false).is_some());
        assert!(read(r#"{"query":"q"} x"#, true).is_none());
        assert!(read(r#"{"query":"q","query":"r"}"#, true).is_none());
    }
}
