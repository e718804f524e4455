//! Deserializing a tool's input out of a call's arguments, for a call that
//! will not read them again: strings move out of the value instead of being
//! copied, and the path of a failure is kept with keys borrowed from the
//! value, so that the common case allocates nothing extra and a failure
//! still says where.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde_json::{Error, Value};

/// One step into the arguments.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Deserializes `T` out of `value`, which is left drained (strings emptied).
/// On failure, the JSON Pointer of the value that failed, and the error.
pub(crate) fn take<T: DeserializeOwned>(value: &mut Value) -> Result<T, (String, Error)> {
    let mut path = Vec::new();
    let result = T::deserialize(Drain {
        value,
        path: &mut path,
    });
    result.map_err(|error| (pointer(&path), error))
}

fn pointer(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) => crate::adapter::push_key(&mut out, key),
            Step::Index(index) => {
                out.push('/');
                out.push_str(&index.to_string());
            }
        }
    }
    out
}

struct Drain<'a, 'p> {
    value: &'a mut Value,
    path: &'p mut Vec<Step<'a>>,
}

impl<'de, 'a, 'p> Deserializer<'de> for Drain<'a, 'p> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => n.clone().deserialize_any(visitor),
            Value::String(s) => visitor.visit_string(std::mem::take(s)),
            Value::Array(items) => visitor.visit_seq(Seq {
                items: items.iter_mut().enumerate(),
                path: self.path,
            }),
            Value::Object(map) => visitor.visit_map(Map {
                entries: map.iter_mut(),
                pending: None,
                path: self.path,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let Drain { value, path } = self;
        match value {
            Value::String(variant) => {
                let variant: &'a String = variant;
                visitor.visit_enum(Variant {
                    name: variant.as_str(),
                    value: None,
                    path,
                })
            }
            Value::Object(map) => {
                // serde_json's own words for these.
                let single =
                    || de::Error::invalid_value(de::Unexpected::Map, &"map with a single key");
                if map.len() != 1 {
                    return Err(single());
                }
                let Some((name, value)) = map.iter_mut().next() else {
                    return Err(single());
                };
                visitor.visit_enum(Variant {
                    name: name.as_str(),
                    value: Some(value),
                    path,
                })
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => de::Unexpected::Unsigned(u),
            (_, Some(i), _) => de::Unexpected::Signed(i),
            (_, _, Some(f)) => de::Unexpected::Float(f),
            _ => de::Unexpected::Other("number"),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct Seq<'a, 'p> {
    items: std::iter::Enumerate<std::slice::IterMut<'a, Value>>,
    path: &'p mut Vec<Step<'a>>,
}

impl<'de, 'a> SeqAccess<'de> for Seq<'a, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some((index, value)) = self.items.next() else {
            return Ok(None);
        };
        self.path.push(Step::Index(index));
        let element = seed.deserialize(Drain {
            value,
            path: &mut *self.path,
        })?;
        self.path.pop();
        Ok(Some(element))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'a, 'p> {
    entries: serde_json::map::IterMut<'a>,
    pending: Option<&'a mut Value>,
    path: &'p mut Vec<Step<'a>>,
}

impl<'de, 'a> MapAccess<'de> for Map<'a, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        // On the path while it is read: an unknown key is reported at it.
        self.path.push(Step::Key(key));
        let key = seed.deserialize(key.as_str().into_deserializer())?;
        self.pending = Some(value);
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some(value) = self.pending.take() else {
            return Err(de::Error::custom("a value without a key"));
        };
        let value = seed.deserialize(Drain {
            value,
            path: &mut *self.path,
        })?;
        self.path.pop();
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct Variant<'a, 'p> {
    name: &'a str,
    value: Option<&'a mut Value>,
    path: &'p mut Vec<Step<'a>>,
}

impl<'de, 'a, 'p> EnumAccess<'de> for Variant<'a, 'p> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(self.name.into_deserializer())?;
        Ok((variant, self))
    }
}

impl<'de, 'a, 'p> VariantAccess<'de> for Variant<'a, 'p> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None => Ok(()),
            Some(value) => {
                self.path.push(Step::Key(self.name));
                <() as serde::Deserialize>::deserialize(Drain {
                    value,
                    path: &mut *self.path,
                })?;
                self.path.pop();
                Ok(())
            }
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        // The variant is on the path, as serde_path_to_error puts it.
        self.path.push(Step::Key(self.name));
        match self.value {
            Some(value) => {
                let inner = seed.deserialize(Drain {
                    value,
                    path: &mut *self.path,
                })?;
                self.path.pop();
                Ok(inner)
            }
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.struct_like(visitor, "tuple variant")
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.struct_like(visitor, "struct variant")
    }
}

impl<'a> Variant<'a, '_> {
    fn struct_like<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        expected: &'static str,
    ) -> Result<V::Value, Error> {
        self.path.push(Step::Key(self.name));
        match self.value {
            Some(value) => {
                let inner = Drain {
                    value,
                    path: &mut *self.path,
                }
                .deserialize_any(visitor)?;
                self.path.pop();
                Ok(inner)
            }
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &expected,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Args {
        title: String,
        tags: Vec<String>,
        units: Option<Units>,
        shape: Option<Shape>,
        #[serde(default)]
        count: u8,
        extra: Option<Value>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Units {
        Celsius,
        Fahrenheit,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    enum Shape {
        Circle(f64),
        Rect { w: u8, h: u8 },
    }

    /// The drained result and error are those of serde_json's own
    /// deserializer, with the path serde_path_to_error would give.
    fn same_as_serde_json(args: Value) {
        let expected = serde_path_to_error::deserialize::<_, Args>(&args).map_err(|e| {
            (
                crate::adapter::pointer_of(e.path()),
                e.into_inner().to_string(),
            )
        });
        let mut drained = args.clone();
        let actual = take::<Args>(&mut drained).map_err(|(pointer, e)| (pointer, e.to_string()));
        assert_eq!(actual, expected, "{args}");
    }

    #[test]
    fn drained_values_deserialize_as_serde_json_does() {
        for args in [
            json!({"title": "t", "tags": ["a", "b"], "units": "celsius", "shape": {"Rect": {"w": 1, "h": 2}}, "extra": {"x": [1, "y"]}}),
            json!({"title": "t", "tags": [], "shape": {"Circle": 1.5}, "count": 3}),
            json!({"title": "t", "tags": [], "units": null, "shape": null}),
            json!({"title": 1, "tags": []}),
            json!({"title": "t", "tags": ["a", 2]}),
            json!({"title": "t", "tags": [], "units": "kelvin"}),
            json!({"title": "t", "tags": [], "count": 300}),
            json!({"title": "t", "tags": [], "town": "x"}),
            json!({"tags": []}),
            json!({"title": "t", "tags": [], "shape": {"Rect": {"w": 1, "h": "2"}}}),
            json!({"title": "t", "tags": [], "shape": {"Square": 1}}),
            json!({"title": "t", "tags": [], "shape": "Circle"}),
            json!({"title": "t", "tags": [], "shape": "Rect"}),
            json!({"title": "t", "tags": [], "shape": {"Circle": 1, "Rect": 2}}),
            json!({"title": "t", "tags": [], "units": {"celsius": 1}}),
            json!({"title": "t", "tags": [], "units": 3}),
            json!({"title": "t", "tags": [], "extra": "\u{e9}"}),
            json!(["t"]),
            json!("t"),
        ] {
            same_as_serde_json(args);
        }
    }

    #[test]
    fn strings_move_out() {
        let mut args = json!({"title": "long title", "tags": ["x"], "units": null});
        let parsed = take::<Args>(&mut args).expect("valid");
        assert_eq!(parsed.title, "long title");
        assert_eq!(args["title"], "", "moved, not copied");
    }
}
