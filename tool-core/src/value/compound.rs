//! The arrays, objects and enum variants of a call's arguments, as serde
//! reads them: each element, entry or variant through the one deserializer
//! (`PathDeserializer`), the path kept as it goes.

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde_json::Error;

use crate::value::{Entries, Items, Node, Path, PathDeserializer, Step};

pub(super) struct Seq<'a, 'p> {
    pub(super) items: Items<'a>,
    pub(super) path: &'p mut Path<'a>,
}

impl<'de, 'a> SeqAccess<'de> for Seq<'a, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some((index, node)) = self.items.next() else {
            return Ok(None);
        };
        self.path.push(Step::Index(index));
        let element = seed.deserialize(PathDeserializer {
            node,
            path: &mut *self.path,
        })?;
        self.path.pop();
        Ok(Some(element))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

pub(super) struct Map<'a, 'p> {
    pub(super) entries: Entries<'a>,
    pub(super) pending: Option<Node<'a>>,
    pub(super) path: &'p mut Path<'a>,
}

impl<'a> Map<'a, '_> {
    /// The next key, its value kept for `next_value_seed`: what every key
    /// seed needs, compiled once.
    fn next_key(&mut self) -> Option<&'a str> {
        let (key, node) = self.entries.next()?;
        // On the path while it is read: an unknown key is reported at it.
        self.path.push(Step::Key(key));
        self.pending = Some(node);
        Some(key)
    }
}

impl<'de, 'a> MapAccess<'de> for Map<'a, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.next_key() {
            // Read as serde_json reads a key: `"1"` is a `u32` key too.
            Some(key) => match seed.deserialize(super::key::MapKey(key)) {
                Ok(key) => Ok(Some(key)),
                Err(error) => Err(error),
            },
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some(node) = self.pending.take() else {
            return Err(de::Error::custom("a value without a key"));
        };
        let value = seed.deserialize(PathDeserializer {
            node,
            path: &mut *self.path,
        })?;
        self.path.pop();
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

pub(super) struct Variant<'a, 'p> {
    pub(super) name: &'a str,
    pub(super) value: Option<Node<'a>>,
    pub(super) path: &'p mut Path<'a>,
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
            Some(node) => {
                self.path.push(Step::Key(self.name));
                <() as serde::Deserialize>::deserialize(PathDeserializer {
                    node,
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
            Some(node) => {
                let inner = seed.deserialize(PathDeserializer {
                    node,
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
            Some(node) => {
                let inner = PathDeserializer {
                    node,
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
