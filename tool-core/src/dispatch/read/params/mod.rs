//! A `#[tool]` function's parameters, read one by one out of the model's
//! arguments, with no input struct and no `Deserialize` impl per tool.
//!
//! Each parameter is a [`Field<T>`] on the start function's stack, described
//! by a [`Param`] (its name and doc comment) in a `static`. The start
//! function walks the keys with an `Object` (`object.rs`) and matches each
//! to a field; what a field does (read its value, read it from nothing, describe
//! itself) is its [`Slot`] impl, compiled once per parameter type, not per
//! tool: a crate of a hundred tools whose parameters are `String`s and
//! numbers compiles a handful of them instead of a hundred `visit_map`s. The
//! schema's assembly is compiled once.
//!
//! Reading follows serde's derive for a struct with `deny_unknown_fields`,
//! message for message and in its order: keys as the object lists them (an
//! unknown key refused at once, each value read as it comes), then every
//! parameter not given, read from nothing (an `Option` becomes `None`, the
//! rest are "missing field"). A parameter is required in the schema exactly
//! when reading it from nothing fails.

use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Error, Value};

use crate::dispatch::read::text::{Scan, read_text};
use crate::value::{Node, Path};

pub(crate) mod object;

/// What a `#[tool]` function says of one parameter, in a `static`: its
/// name, and its doc comment as schemars splits a field's.
#[doc(hidden)]
pub struct Param {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
}

/// What a parameter type of a `#[tool]` function must be when the schema is
/// derived. The expansion checks it once per parameter, at the parameter's
/// type, so a type that does not fit is reported there (once per trait it
/// lacks), with a note, and nowhere else.
///
/// No `Serialize`: a parameter is only read. (schemars writes a
/// `#[serde(default)]`'s value into the schema when the type is
/// `Serialize`, and leaves it out when it is not.)
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "the model's arguments are deserialized into this type, and the input schema derived from it",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for `{Self}`, or write the tool's whole schema with `#[tool(schema = ...)]`"
)]
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub trait Parameter: DeserializeOwned + schemars::JsonSchema {}

#[cfg(feature = "schemars")]
impl<T: DeserializeOwned + schemars::JsonSchema> Parameter for T {}

#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "the model's arguments are deserialized into this type",
    note = "derive `serde::Deserialize` for `{Self}`"
)]
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
pub trait Parameter: DeserializeOwned {}

#[cfg(not(feature = "schemars"))]
impl<T: DeserializeOwned> Parameter for T {}

/// The same for a tool whose schema is written by hand: no `JsonSchema`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "the model's arguments are deserialized into this type",
    note = "derive `serde::Deserialize` for `{Self}`"
)]
#[doc(hidden)]
pub trait SerdeParameter: DeserializeOwned {}

impl<T: DeserializeOwned> SerdeParameter for T {}

/// A parameter's value while the arguments are read. `K` says how the
/// tool's schema is made: [`Derived`] (the parameter's type describes
/// itself) or [`ByHand`] (the tool's schema is written by hand, so the type
/// needs no `JsonSchema`).
#[doc(hidden)]
pub struct Field<T, K = Derived> {
    param: &'static Param,
    value: Option<T>,
    kind: PhantomData<K>,
}

#[doc(hidden)]
pub struct Derived;

#[doc(hidden)]
pub struct ByHand;

impl<T, K> Field<T, K> {
    #[inline]
    pub fn new(param: &'static Param) -> Self {
        Self {
            param,
            value: None,
            kind: PhantomData,
        }
    }

    /// The value read; `None` only if the arguments were not read.
    #[inline]
    pub fn take(self) -> Option<T> {
        self.value
    }

    fn read_value<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error>
    where
        T: DeserializeOwned,
    {
        self.value = Some(T::deserialize(path.reader(node))?);
        Ok(())
    }

    fn read_nothing(&mut self) -> Result<(), Error>
    where
        T: DeserializeOwned,
    {
        self.value = Some(T::deserialize(Missing(self.param.name))?);
        Ok(())
    }
}

/// A field whatever its type: what the reading loop and the schema's
/// assembly, compiled once, see. The expansion makes each `Field` one with
/// [`slot`] (or [`slot_by_hand`]), turbofished with the parameter's type,
/// in the start function and in the schema function alike: a type that
/// cannot be a parameter is one error at the type, the same at both, so
/// rustc reports it once. Its methods take this crate's private types, so
/// nothing outside can call or implement them.
#[doc(hidden)]
#[allow(private_interfaces)]
pub trait Slot {
    fn read<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error>;
    /// Reads the value at the scan; `false` when the type has no reader
    /// of text or the read fails (the scan is then marked failed).
    fn read_text(&mut self, scan: &mut Scan<'_>) -> bool;
    fn read_missing(&mut self) -> Result<(), Error>;
    /// Adds the parameter to `schema` as schemars' derive adds a field: its
    /// schema with its doc comment, required unless it can be left out.
    #[cfg(feature = "schemars")]
    fn describe(&self, generator: &mut schemars::SchemaGenerator, schema: &mut schemars::Schema);
}

#[allow(private_interfaces)]
impl<T: Parameter> Slot for Field<T, Derived> {
    fn read<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error> {
        self.read_value(node, path)
    }

    fn read_text(&mut self, scan: &mut Scan<'_>) -> bool {
        self.value = scan.value(read_text::<T>);
        self.value.is_some()
    }

    fn read_missing(&mut self) -> Result<(), Error> {
        self.read_nothing()
    }

    #[cfg(feature = "schemars")]
    fn describe(&self, generator: &mut schemars::SchemaGenerator, schema: &mut schemars::Schema) {
        let required = T::deserialize(Missing(self.param.name)).is_err();
        add_property(schema, self.param, generator.subschema_for::<T>(), required);
    }
}

#[allow(private_interfaces)]
impl<T: SerdeParameter> Slot for Field<T, ByHand> {
    fn read<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error> {
        self.read_value(node, path)
    }

    /// A schema written by hand may say what the type does not: such a
    /// tool's arguments always go the whole way.
    fn read_text(&mut self, scan: &mut Scan<'_>) -> bool {
        scan.fail();
        false
    }

    fn read_missing(&mut self) -> Result<(), Error> {
        self.read_nothing()
    }

    /// The tool's schema is the one written by hand.
    #[cfg(feature = "schemars")]
    fn describe(&self, _: &mut schemars::SchemaGenerator, _: &mut schemars::Schema) {}
}

/// `field` as a [`Slot`]: where a parameter type is checked.
#[doc(hidden)]
pub fn slot<T: Parameter>(field: &mut Field<T, Derived>) -> &mut dyn Slot {
    field
}

/// The same for a tool whose schema is written by hand.
#[doc(hidden)]
pub fn slot_by_hand<T: SerdeParameter>(field: &mut Field<T, ByHand>) -> &mut dyn Slot {
    field
}

#[cfg(feature = "schemars")]
fn add_property(
    schema: &mut schemars::Schema,
    param: &Param,
    mut property: schemars::Schema,
    required: bool,
) {
    for (key, text) in [("title", param.title), ("description", param.description)] {
        if !text.is_empty() {
            property.insert(key.into(), text.into());
        }
    }
    let object = schema.ensure_object();
    if let Some(properties) = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()
    {
        properties.insert(param.name.into(), property.into());
    }
    if required
        && let Some(list) = object
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
    {
        list.push(param.name.into());
    }
}

/// What a parameter the arguments do not give is read from: `None` for an
/// `Option`, serde's "missing field" for the rest, as serde's derive does.
struct Missing(&'static str);

impl<'de> Deserializer<'de> for Missing {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

/// The input schema of a `#[tool]` function's parameters: what schemars
/// derives for a struct of them with `deny_unknown_fields`, key for key.
#[doc(hidden)]
pub fn input_schema(fields: &mut [&mut dyn Slot]) -> Value {
    #[cfg(feature = "schemars")]
    {
        crate::schema::root_schema(
            |generator| {
                let mut schema = schemars::json_schema!({
                    "type": "object",
                    "additionalProperties": false,
                });
                for field in fields.iter() {
                    field.describe(generator, &mut schema);
                }
                schema
            },
            "ToolInput",
        )
    }
    #[cfg(not(feature = "schemars"))]
    {
        let _ = fields;
        Value::Null
    }
}

#[cfg(all(test, feature = "schemars"))]
mod tests {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::dispatch::read::Arguments;
    use crate::error::tool_error::ToolError;

    // The struct `#[tool]` derives for parameters with attributes, here for
    // the same parameters as the statics below (undocumented, as it is).
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    #[serde(
        deny_unknown_fields,
        expecting = "the arguments of tool `t` as a JSON object"
    )]
    #[schemars(rename = "ToolInput")]
    struct Args {
        /// The title.
        title: String,
        /// # Tags
        ///
        /// What to file it under.
        tags: Vec<String>,
        units: Option<Units>,
        /// How many.
        count: u8,
        /// Where.
        at: Address,
        extra: Option<Value>,
    }

    #[derive(Deserialize, JsonSchema, Debug, PartialEq, serde::Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Units {
        Celsius,
        Fahrenheit,
    }

    /// A place.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq, serde::Serialize)]
    struct Address {
        /// The street.
        street: String,
        number: Option<u16>,
    }

    const fn param(name: &'static str, title: &'static str, description: &'static str) -> Param {
        Param {
            name,
            title,
            description,
        }
    }

    static TITLE: Param = param("title", "", "The title.");
    static TAGS: Param = param("tags", "Tags", "What to file it under.");
    static UNITS: Param = param("units", "", "");
    static COUNT: Param = param("count", "", "How many.");
    static AT: Param = param("at", "", "Where.");
    static EXTRA: Param = param("extra", "", "");
    const NAMES: &[&str] = &["title", "tags", "units", "count", "at", "extra"];

    struct Fields {
        title: Field<String>,
        tags: Field<Vec<String>>,
        units: Field<Option<Units>>,
        count: Field<u8>,
        at: Field<Address>,
        extra: Field<Option<Value>>,
    }

    fn fields() -> Fields {
        Fields {
            title: Field::new(&TITLE),
            tags: Field::new(&TAGS),
            units: Field::new(&UNITS),
            count: Field::new(&COUNT),
            at: Field::new(&AT),
            extra: Field::new(&EXTRA),
        }
    }

    fn by_params(node: Node<'_>) -> Result<Args, ToolError> {
        let Fields {
            mut title,
            mut tags,
            mut units,
            mut count,
            mut at,
            mut extra,
        } = fields();
        // What the expansion generates.
        let expecting = "the arguments of tool `t` as a JSON object";
        let mut object = Arguments::new(
            node,
            "t",
            &|| Ok(()),
            crate::dispatch::read::RunAtOnce::LATER,
        )
        .object(expecting);
        while let Some(key) = object.next_key() {
            match key {
                "title" => object.read(0, slot(&mut title))?,
                "tags" => object.read(1, slot(&mut tags))?,
                "units" => object.read(2, slot(&mut units))?,
                "count" => object.read(3, slot(&mut count))?,
                "at" => object.read(4, slot(&mut at))?,
                "extra" => object.read(5, slot(&mut extra))?,
                _ => return Err(object.unknown(key, NAMES)),
            }
        }
        object.finish(&mut [
            slot(&mut title),
            slot(&mut tags),
            slot(&mut units),
            slot(&mut count),
            slot(&mut at),
            slot(&mut extra),
        ])?;
        Ok(Args {
            title: title.take().expect("read"),
            tags: tags.take().expect("read"),
            units: units.take().expect("read"),
            count: count.take().expect("read"),
            at: at.take().expect("read"),
            extra: extra.take().expect("read"),
        })
    }

    fn by_derive(node: Node<'_>) -> Result<Args, ToolError> {
        Arguments::new(
            node,
            "t",
            &|| Ok(()),
            crate::dispatch::read::RunAtOnce::LATER,
        )
        .read()
    }

    #[test]
    fn parameters_read_as_serde_derives_a_struct_of_them() {
        let full = json!({
            "title": "T", "tags": ["a"], "units": "celsius", "count": 3,
            "at": {"street": "Main", "number": 4}, "extra": {"k": [1]}
        });
        let cases = [
            full.clone(),
            json!({"at": {"street": "Main"}, "count": 0, "tags": [], "title": ""}),
            json!({"title": "T", "tags": ["a"], "count": 3, "at": {"street": "S"}, "units": null}),
            // Missing: the first missing one in parameter order.
            json!({"tags": ["a"]}),
            json!({}),
            // Unknown keys, before and after a bad value.
            json!({"town": "Paris", "title": 1}),
            json!({"title": 1, "town": "Paris"}),
            // Bad values, at every depth, in key order.
            json!({"count": 300, "title": 1}),
            json!({"title": "T", "tags": ["a", 2], "count": 3, "at": {"street": "S"}}),
            json!({"title": "T", "tags": [], "count": 3, "at": {"street": "S", "number": -1}}),
            json!({"title": "T", "tags": [], "count": 3, "at": {"street": "S", "floor": 2}}),
            json!({"title": "T", "tags": [], "count": 3, "at": "Main"}),
            json!({"title": "T", "tags": [], "count": 3, "at": {"street": "S"}, "units": "kelvin"}),
            // Not an object.
            json!("title"),
            json!(["T", ["a"], null, 3, {"street": "S"}, null]),
            json!(null),
            json!(7),
        ];
        for args in cases {
            let expected = by_derive(Node::Read(&args));
            assert_eq!(by_params(Node::Read(&args)), expected, "{args}");
            let mut taken = args.clone();
            assert_eq!(by_params(Node::Take(&mut taken)), expected, "taken: {args}");
        }
    }

    #[test]
    fn parameters_give_the_schema_schemars_derives_for_a_struct_of_them() {
        let Fields {
            mut title,
            mut tags,
            mut units,
            mut count,
            mut at,
            mut extra,
        } = fields();
        let ours = input_schema(&mut [
            &mut title, &mut tags, &mut units, &mut count, &mut at, &mut extra,
        ]);
        let derived = crate::schema::input_schema_for::<Args>();
        assert_eq!(ours, derived);
        // Key for key, in order.
        assert_eq!(ours.to_string(), derived.to_string());
        assert_eq!(ours["required"], json!(["title", "tags", "count", "at"]));
        assert_eq!(ours["properties"]["tags"]["title"], "Tags");
    }

    #[test]
    fn a_hand_described_parameter_adds_nothing_to_a_schema() {
        static CITY: Param = param("city", "", "The city.");
        let mut city = Field::<String, ByHand>::new(&CITY);
        let schema = input_schema(&mut [&mut city]);
        assert!(schema.get("properties").is_none(), "{schema}");
        assert!(schema.get("required").is_none(), "{schema}");
    }
}
