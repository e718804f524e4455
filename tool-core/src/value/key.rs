//! An object's key, read as serde_json reads one: a string, or a number or
//! a boolean written in one (the keys of a `HashMap<u32, T>` or a
//! `BTreeMap<bool, T>`, which schemars describes with `patternProperties`).

use serde::de::{self, Deserializer, IntoDeserializer, Visitor};
use serde_json::Error;

/// The key of an object, for the map's key type to read.
pub(super) struct MapKey<'a>(pub(super) &'a str);

/// A number read from the whole key, as serde_json reads `{"1": ..}` into
/// an integer key: a key that does not start like a number, or has more
/// after it, is not one.
macro_rules! numeric {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                let spaced = self.0.ends_with(|c: char| c.is_ascii_whitespace());
                if spaced || !self.0.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                    return Err(self.not_a_number());
                }
                // From a reader: a number borrows nothing, whatever `'de` is.
                let mut reader = serde_json::Deserializer::from_reader(self.0.as_bytes());
                let value = reader.$method(visitor)?;
                reader.end().map_err(|_| self.not_a_number())?;
                Ok(value)
            }
        )*
    };
}

impl MapKey<'_> {
    /// serde_json's words for it.
    fn not_a_number(&self) -> Error {
        de::Error::custom("invalid value: expected key to be a number in quotes")
    }
}

impl<'de> Deserializer<'de> for MapKey<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str(self.0)
    }

    numeric! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Str(self.0),
                &"a boolean",
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0
            .into_deserializer()
            .deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fmt::Debug;

    use serde::Deserialize;
    use serde_json::{Map, Value};

    use super::*;

    /// `key` read as a `K` by [`MapKey`], and by serde_json as the key of a
    /// map: the two must agree, in the value or the message.
    #[track_caller]
    fn agree<K>(key: &str) -> Result<K, String>
    where
        K: for<'de> Deserialize<'de> + Ord + Debug,
    {
        let ours = K::deserialize(MapKey(key)).map_err(|e| e.to_string());
        let object = Value::Object(Map::from_iter([(key.to_owned(), Value::Null)]));
        let theirs = serde_json::from_value::<BTreeMap<K, ()>>(object)
            .map(|map| map.into_keys().next().expect("one key"))
            .map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "key {key:?}");
        ours
    }

    #[test]
    fn a_key_is_read_as_serde_json_reads_it() {
        assert_eq!(agree::<u32>("17"), Ok(17));
        assert_eq!(agree::<i64>("-3"), Ok(-3));
        assert_eq!(
            agree::<u128>("340282366920938463463374607431768211455"),
            Ok(u128::MAX)
        );
        assert_eq!(agree::<bool>("true"), Ok(true));
        assert_eq!(agree::<String>("17"), Ok("17".to_owned()));
        assert_eq!(
            agree::<u32>("x"),
            Err("invalid value: expected key to be a number in quotes".to_owned())
        );
        assert_eq!(
            agree::<u32>("1x"),
            Err("invalid value: expected key to be a number in quotes".to_owned())
        );
        assert!(agree::<u32>("1 ").is_err());
        assert!(agree::<u32>("-1").is_err());
        assert!(agree::<u32>("01").is_err());
        assert!(agree::<u32>("1.0").is_err());
        assert_eq!(
            agree::<bool>("yes"),
            Err("invalid type: string \"yes\", expected a boolean".to_owned())
        );
    }
}
