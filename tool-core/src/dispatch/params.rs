//! A `#[tool]` function's parameters, read one by one out of the model's
//! arguments, with no input struct and no `Deserialize` impl per tool.
//!
//! Each parameter is a [`Param<T>`]: its name, its doc comment, and the
//! functions that read it and describe it, taken for `T` once, where the
//! `static` that holds it is made. Those functions are generic over the
//! parameter's type only, so a crate of a hundred tools whose parameters are
//! `String`s and numbers compiles a handful of them, not a hundred
//! `visit_map`s; what a tool compiles of its own is the list of its
//! parameters.
//!
//! Reading follows serde's derive for a struct with `deny_unknown_fields`,
//! message for message and in its order: keys as the object lists them (an
//! unknown key refused at once, each value read as it comes), then every
//! parameter not given, read from nothing (an `Option` becomes `None`, the
//! rest are "missing field"). A parameter is required in the schema exactly
//! when reading it from nothing fails.

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Error, Value};

use crate::ToolError;
use crate::dispatch::input::{Node, Path, unexpected};
use crate::dispatch::runner::Arguments;

/// One parameter of a `#[tool]` function, as its expansion describes it in
/// a `static`.
#[doc(hidden)]
pub struct Param<T> {
    name: &'static str,
    read: for<'a> fn(Node<'a>, &mut Path<'a>) -> Result<T, Error>,
    missing: fn(&'static str) -> Result<T, Error>,
    /// `None` when the tool's schema is written by hand.
    #[cfg(feature = "schemars")]
    schema: Option<Described>,
}

/// What a parameter's property in a derived schema is made of.
#[cfg(feature = "schemars")]
struct Described {
    title: &'static str,
    description: &'static str,
    schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
}

/// A parameter whose schema is derived: `title` and `description` are its
/// doc comment as schemars splits it. A function, not a method, so that a
/// type that cannot be a parameter is reported at the type the expansion
/// passes, with the trait's note.
#[doc(hidden)]
pub const fn param<T: crate::__private::Parameter>(
    name: &'static str,
    title: &'static str,
    description: &'static str,
) -> Param<T> {
    #[cfg(not(feature = "schemars"))]
    let _ = (title, description);
    Param {
        name,
        read: read::<T>,
        missing: missing::<T>,
        #[cfg(feature = "schemars")]
        schema: Some(Described {
            title,
            description,
            schema: schemars::SchemaGenerator::subschema_for::<T>,
        }),
    }
}

/// A parameter of a tool whose schema is written by hand.
#[doc(hidden)]
pub const fn param_described_by_hand<T: crate::__private::SerdeParameter>(
    name: &'static str,
) -> Param<T> {
    Param {
        name,
        read: read::<T>,
        missing: missing::<T>,
        #[cfg(feature = "schemars")]
        schema: None,
    }
}

fn read<'a, T: DeserializeOwned>(node: Node<'a>, path: &mut Path<'a>) -> Result<T, Error> {
    T::deserialize(path.reader(node))
}

fn missing<T: DeserializeOwned>(name: &'static str) -> Result<T, Error> {
    T::deserialize(Missing(name))
}

/// A parameter's value while the arguments are read.
#[doc(hidden)]
pub struct Field<T: 'static> {
    param: &'static Param<T>,
    value: Option<T>,
}

impl<T> Field<T> {
    pub fn new(param: &'static Param<T>) -> Self {
        Self { param, value: None }
    }

    /// The value read; `None` only if the arguments were not read.
    pub fn take(self) -> Option<T> {
        self.value
    }
}

/// A field whatever its type: what the reading loop, compiled once, sees.
/// Generated code names it only to make `&mut dyn Slot`s; its methods take
/// this crate's private types, so nothing outside can call or implement
/// them.
#[doc(hidden)]
#[allow(private_interfaces)]
pub trait Slot {
    fn name(&self) -> &'static str;
    fn is_read(&self) -> bool;
    fn read<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error>;
    fn read_missing(&mut self) -> Result<(), Error>;
}

#[allow(private_interfaces)]
impl<T> Slot for Field<T> {
    fn name(&self) -> &'static str {
        self.param.name
    }

    fn is_read(&self) -> bool {
        self.value.is_some()
    }

    fn read<'a>(&mut self, node: Node<'a>, path: &mut Path<'a>) -> Result<(), Error> {
        self.value = Some((self.param.read)(node, path)?);
        Ok(())
    }

    fn read_missing(&mut self) -> Result<(), Error> {
        self.value = Some((self.param.missing)(self.param.name)?);
        Ok(())
    }
}

impl Arguments<'_> {
    /// Reads every parameter into its field, then passes the gate. `names`
    /// are the fields' names in order, for the message about an unknown
    /// key; `expecting` says what the arguments should have been when they
    /// are no object.
    pub fn read_fields(
        self,
        fields: &mut [&mut dyn Slot],
        names: &'static [&'static str],
        expecting: &'static str,
    ) -> Result<(), ToolError> {
        let (node, tool, gate) = self.into_parts();
        let mut path = Path::default();
        match read_object(node, &mut path, fields, names, expecting) {
            Ok(()) => gate(),
            Err(error) => Err(path.invalid(tool, &error)),
        }
    }
}

fn read_object<'a>(
    node: Node<'a>,
    path: &mut Path<'a>,
    fields: &mut [&mut dyn Slot],
    names: &'static [&'static str],
    expecting: &'static str,
) -> Result<(), Error> {
    let mut entries = match node {
        Node::Read(Value::Object(map)) => Entries::Read(map.iter()),
        Node::Take(Value::Object(map)) => Entries::Take(map.iter_mut()),
        Node::Read(value) => return Err(not_an_object(value, expecting)),
        Node::Take(value) => return Err(not_an_object(value, expecting)),
    };
    while let Some((key, node)) = entries.next() {
        // On the path while it is read: an unknown key is reported at it.
        path.push_key(key);
        let Some(field) = fields.iter_mut().find(|field| field.name() == key) else {
            return Err(de::Error::unknown_field(key, names));
        };
        if field.is_read() {
            return Err(de::Error::duplicate_field(field.name()));
        }
        field.read(node, path)?;
        path.pop();
    }
    for field in fields.iter_mut().filter(|field| !field.is_read()) {
        field.read_missing()?;
    }
    Ok(())
}

fn not_an_object(value: &Value, expecting: &'static str) -> Error {
    de::Error::invalid_type(unexpected(value), &expecting)
}

enum Entries<'a> {
    Read(serde_json::map::Iter<'a>),
    Take(serde_json::map::IterMut<'a>),
}

impl<'a> Entries<'a> {
    fn next(&mut self) -> Option<(&'a str, Node<'a>)> {
        match self {
            Entries::Read(entries) => entries.next().map(|(k, v)| (k.as_str(), Node::Read(v))),
            Entries::Take(entries) => entries.next().map(|(k, v)| (k.as_str(), Node::Take(v))),
        }
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

/// A parameter whatever its type, as the input schema sees it.
#[doc(hidden)]
pub trait Property: Sync {
    #[cfg(feature = "schemars")]
    fn insert(&self, generator: &mut schemars::SchemaGenerator, schema: &mut schemars::Schema);
}

impl<T> Property for Param<T> {
    /// What schemars' derive inserts for a field: the field's schema with
    /// its doc comment, required unless it can be left out.
    #[cfg(feature = "schemars")]
    fn insert(&self, generator: &mut schemars::SchemaGenerator, schema: &mut schemars::Schema) {
        let Some(described) = &self.schema else {
            return;
        };
        let mut property = (described.schema)(generator);
        for (key, text) in [
            ("title", described.title),
            ("description", described.description),
        ] {
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
            properties.insert(self.name.into(), property.into());
        }
        if (self.missing)(self.name).is_err()
            && let Some(required) = object
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()))
                .as_array_mut()
        {
            required.push(self.name.into());
        }
    }
}

/// The input schema of a `#[tool]` function's parameters: what schemars
/// derives for a struct of them with `deny_unknown_fields`, key for key.
#[doc(hidden)]
pub fn input_schema(params: &[&dyn Property]) -> Value {
    #[cfg(feature = "schemars")]
    {
        crate::schema::root_schema(
            |generator| {
                let mut schema = schemars::json_schema!({
                    "type": "object",
                    "additionalProperties": false,
                });
                for param in params {
                    param.insert(generator, &mut schema);
                }
                schema
            },
            "ToolInput",
        )
    }
    #[cfg(not(feature = "schemars"))]
    {
        let _ = params;
        Value::Null
    }
}

#[cfg(all(test, feature = "schemars"))]
mod tests {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

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

    static TITLE: Param<String> = param("title", "", "The title.");
    static TAGS: Param<Vec<String>> = param("tags", "Tags", "What to file it under.");
    static UNITS: Param<Option<Units>> = param("units", "", "");
    static COUNT: Param<u8> = param("count", "", "How many.");
    static AT: Param<Address> = param("at", "", "Where.");
    static EXTRA: Param<Option<Value>> = param("extra", "", "");
    const NAMES: &[&str] = &["title", "tags", "units", "count", "at", "extra"];

    fn by_params(node: Node<'_>) -> Result<Args, ToolError> {
        let mut title = Field::new(&TITLE);
        let mut tags = Field::new(&TAGS);
        let mut units = Field::new(&UNITS);
        let mut count = Field::new(&COUNT);
        let mut at = Field::new(&AT);
        let mut extra = Field::new(&EXTRA);
        let expecting = "the arguments of tool `t` as a JSON object";
        Arguments::new(node, "t", &|| Ok(()), true).read_fields(
            &mut [
                &mut title, &mut tags, &mut units, &mut count, &mut at, &mut extra,
            ],
            NAMES,
            expecting,
        )?;
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
        Arguments::new(node, "t", &|| Ok(()), true).read()
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
        let params: [&dyn Property; 6] = [&TITLE, &TAGS, &UNITS, &COUNT, &AT, &EXTRA];
        let ours = input_schema(&params);
        let derived = crate::schema::input_schema_for::<Args>();
        assert_eq!(ours, derived);
        // Key for key, in order.
        assert_eq!(ours.to_string(), derived.to_string());
        assert_eq!(ours["required"], json!(["title", "tags", "count", "at"]));
        assert_eq!(ours["properties"]["tags"]["title"], "Tags");
    }

    #[test]
    fn a_hand_described_parameter_adds_nothing_to_a_schema() {
        static CITY: Param<String> = param_described_by_hand("city");
        let schema = input_schema(&[&CITY]);
        assert!(schema.get("properties").is_none(), "{schema}");
        assert!(schema.get("required").is_none(), "{schema}");
    }
}
