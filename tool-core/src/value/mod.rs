//! Reading a tool's input out of a call's arguments: the one deserializer
//! every tool's input type is compiled against.
//!
//! It reads a [`Value`] either borrowed (strings copied) or taken (strings
//! moved out, for a call that will not read its arguments again), and keeps
//! the path it is at with keys borrowed from the value, so that a failure
//! says where without the cost of tracking it on every call. Its results and
//! messages are serde_json's own; its paths are serde_path_to_error's.
//!
//! One deserializer, not one for each way in, because every input type's
//! `Deserialize` impl is compiled once per deserializer it meets: with one,
//! a crate of many tools compiles each input once.

use serde::de::{self, Deserializer, Visitor};
use serde_json::{Error, Number, Value};

use crate::error::pointer::push_key;
use crate::error::tool_error::ToolError;
use crate::schema::validation::from_serde;

pub(crate) mod compound;
pub(super) mod key;

use crate::value::compound::{Map, Seq, Variant};

/// A value to read: borrowed, or taken (its strings move out).
pub(crate) enum Node<'a> {
    Read(&'a Value),
    Take(&'a mut Value),
}

/// Where a deserializer is in the arguments; after a failure, where it
/// failed. The first steps live inline: arguments rarely nest deeper, and a
/// call then tracks its path without allocating.
pub(crate) struct Path<'a> {
    inline: [Step<'a>; INLINE_STEPS],
    len: usize,
    deeper: Vec<Step<'a>>,
}

const INLINE_STEPS: usize = 8;

impl Default for Path<'_> {
    fn default() -> Self {
        Self {
            inline: [Step::Index(0); INLINE_STEPS],
            len: 0,
            deeper: Vec::new(),
        }
    }
}

impl<'a> Path<'a> {
    /// The deserializer of `node`, keeping its path here.
    #[inline]
    pub(crate) fn reader<'p>(&'p mut self, node: Node<'a>) -> PathDeserializer<'a, 'p> {
        PathDeserializer { node, path: self }
    }

    /// Steps into the object's `key`.
    #[inline]
    pub(crate) fn push_key(&mut self, key: &'a str) {
        self.push(Step::Key(key));
    }

    #[inline]
    fn push(&mut self, step: Step<'a>) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = step,
            None => self.deeper.push(step),
        }
        self.len += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len -= 1;
        if self.len >= INLINE_STEPS {
            self.deeper.pop();
        }
    }

    /// The JSON Pointer of where the path is.
    pub(crate) fn pointer(&self) -> String {
        let mut out = String::new();
        let inline = &self.inline[..self.len.min(INLINE_STEPS)];
        for step in inline.iter().chain(&self.deeper) {
            match step {
                Step::Key(key) => push_key(&mut out, key),
                Step::Index(index) => {
                    out.push('/');
                    out.push_str(&index.to_string());
                }
            }
        }
        out
    }

    /// What a deserializer's failure here tells the model.
    pub(crate) fn invalid(&self, tool: &str, error: &Error) -> ToolError {
        ToolError::InvalidArguments {
            tool: tool.to_owned(),
            violations: vec![from_serde(self.pointer(), error.to_string())],
        }
    }
}

/// One step into the arguments.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A node taken apart: what the deserializer dispatches on, compiled once.
enum Parts<'a> {
    Null,
    Bool(bool),
    Number(&'a Number),
    Str(&'a str),
    String(String),
    Array(Items<'a>),
    Object(Entries<'a>),
}

impl<'a> Node<'a> {
    #[inline]
    fn parts(self) -> Parts<'a> {
        match self {
            Node::Read(value) => match value {
                Value::Null => Parts::Null,
                Value::Bool(b) => Parts::Bool(*b),
                Value::Number(n) => Parts::Number(n),
                Value::String(s) => Parts::Str(s),
                Value::Array(items) => Parts::Array(Items::Read(items.iter().enumerate())),
                Value::Object(map) => Parts::Object(Entries::Read(map.iter())),
            },
            Node::Take(value) => match value {
                Value::Null => Parts::Null,
                Value::Bool(b) => Parts::Bool(*b),
                Value::Number(n) => Parts::Number(n),
                Value::String(s) => Parts::String(std::mem::take(s)),
                Value::Array(items) => Parts::Array(Items::Take(items.iter_mut().enumerate())),
                Value::Object(map) => Parts::Object(Entries::Take(map.iter_mut())),
            },
        }
    }

    pub(crate) fn value(&self) -> &Value {
        match self {
            Node::Read(value) => value,
            Node::Take(value) => value,
        }
    }
}

enum Items<'a> {
    Read(std::iter::Enumerate<std::slice::Iter<'a, Value>>),
    Take(std::iter::Enumerate<std::slice::IterMut<'a, Value>>),
}

impl<'a> Items<'a> {
    fn next(&mut self) -> Option<(usize, Node<'a>)> {
        match self {
            Items::Read(items) => items.next().map(|(i, v)| (i, Node::Read(v))),
            Items::Take(items) => items.next().map(|(i, v)| (i, Node::Take(v))),
        }
    }

    fn len(&self) -> usize {
        match self {
            Items::Read(items) => items.len(),
            Items::Take(items) => items.len(),
        }
    }
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

    fn len(&self) -> usize {
        match self {
            Entries::Read(entries) => entries.len(),
            Entries::Take(entries) => entries.len(),
        }
    }
}

/// The deserializer.
pub(crate) struct PathDeserializer<'a, 'p> {
    pub(crate) node: Node<'a>,
    path: &'p mut Path<'a>,
}

impl<'de, 'a, 'p> Deserializer<'de> for PathDeserializer<'a, 'p> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node.parts() {
            Parts::Null => visitor.visit_unit(),
            Parts::Bool(b) => visitor.visit_bool(b),
            Parts::Number(n) => n.deserialize_any(visitor),
            Parts::Str(s) => visitor.visit_str(s),
            Parts::String(s) => visitor.visit_string(s),
            Parts::Array(items) => visitor.visit_seq(Seq {
                items,
                path: self.path,
            }),
            Parts::Object(entries) => visitor.visit_map(Map {
                entries,
                pending: None,
                path: self.path,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node.value() {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    /// Only an object: a struct's argument is a JSON object, as its schema
    /// says (serde_json would also take an array of the fields in order).
    /// Each input type's visitor then meets one kind of value, and only that
    /// kind's code is compiled for it.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.into_map() {
            Ok(map) => visitor.visit_map(map),
            Err(value) => Err(de::Error::invalid_type(unexpected(value), &visitor)),
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
        let PathDeserializer { node, path } = self;
        if let Value::String(_) = node.value() {
            let name = match node {
                Node::Read(Value::String(name)) => name.as_str(),
                Node::Take(Value::String(name)) => name.as_str(),
                _ => unreachable!("matched a string above"),
            };
            return visitor.visit_enum(Variant {
                name,
                value: None,
                path,
            });
        }
        if !node.value().is_object() {
            let expected = &"string or map";
            return Err(de::Error::invalid_type(unexpected(node.value()), expected));
        }
        // serde_json's own words for these.
        let single = || de::Error::invalid_value(de::Unexpected::Map, &"map with a single key");
        let Parts::Object(mut entries) = node.parts() else {
            return Err(single());
        };
        if entries.len() != 1 {
            return Err(single());
        }
        let Some((name, value)) = entries.next() else {
            return Err(single());
        };
        visitor.visit_enum(Variant {
            name,
            value: Some(value),
            path,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map
        identifier ignored_any
    }
}

impl<'a, 'p> PathDeserializer<'a, 'p> {
    /// The entries of an object, or the value that is not one.
    fn into_map(self) -> Result<Map<'a, 'p>, &'a Value> {
        let entries = match self.node {
            Node::Read(Value::Object(map)) => Entries::Read(map.iter()),
            Node::Take(Value::Object(map)) => Entries::Take(map.iter_mut()),
            Node::Read(value) => return Err(value),
            Node::Take(value) => return Err(value),
        };
        Ok(Map {
            entries,
            pending: None,
            path: self.path,
        })
    }
}

pub(crate) fn unexpected(value: &Value) -> de::Unexpected<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde::de::DeserializeOwned;
    use serde_json::json;
    use serde_path_to_error::Segment;

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

    /// `T` read from `node`; on failure, the pointer and the message.
    fn read<T: DeserializeOwned>(node: Node<'_>) -> Result<T, (String, String)> {
        let mut path = Path::default();
        T::deserialize(path.reader(node)).map_err(|e| (path.pointer(), e.to_string()))
    }

    /// The pointer serde_path_to_error's path stands for.
    fn pointer_of(path: &serde_path_to_error::Path) -> String {
        let mut pointer = String::new();
        for segment in path.iter() {
            match segment {
                Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    push_key(&mut pointer, key)
                }
                Segment::Unknown => pointer.push_str("/?"),
            }
        }
        pointer
    }

    /// Read or taken, the result and error are those of serde_json's own
    /// deserializer, with the path serde_path_to_error would give.
    fn same_as_serde_json(args: Value) {
        let expected = serde_path_to_error::deserialize::<_, Args>(&args)
            .map_err(|e| (pointer_of(e.path()), e.into_inner().to_string()));
        let borrowed = read::<Args>(Node::Read(&args));
        assert_eq!(borrowed, expected, "read {args}");
        let mut drained = args.clone();
        let taken = read::<Args>(Node::Take(&mut drained));
        assert_eq!(taken, expected, "taken {args}");
    }

    #[test]
    fn inputs_deserialize_as_serde_json_does() {
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
            json!({"title": "t", "tags": [], "a/b~c": 1}),
            json!("t"),
        ] {
            same_as_serde_json(args);
        }
    }

    /// A chain of any depth.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Deep {
        n: u8,
        next: Option<Box<Deep>>,
    }

    #[test]
    fn paths_deeper_than_the_inline_steps_are_whole() {
        let mut args = json!({"n": 300});
        for _ in 0..(INLINE_STEPS + 3) {
            args = json!({"n": 1, "next": args});
        }
        let expected = serde_path_to_error::deserialize::<_, Deep>(&args)
            .map_err(|e| (pointer_of(e.path()), e.into_inner().to_string()));
        let actual = read::<Deep>(Node::Read(&args)).map(drop);
        assert_eq!(actual, expected.map(drop));
        let Err((pointer, _)) = actual else {
            panic!("300 is not a u8")
        };
        assert_eq!(pointer, format!("{}/n", "/next".repeat(INLINE_STEPS + 3)));
    }

    #[test]
    fn a_struct_is_an_object_not_an_array_of_its_fields() {
        let error = read::<Args>(Node::Read(&json!(["t", []])));
        assert_eq!(
            error,
            Err((
                "".into(),
                "invalid type: sequence, expected struct Args".into()
            ))
        );
    }

    #[test]
    fn taken_strings_move_out_and_read_ones_stay() {
        let mut args = json!({"title": "long title", "tags": ["x"], "units": null});
        let kept = args.clone();
        let parsed = read::<Args>(Node::Read(&args)).expect("valid");
        assert_eq!(parsed.title, "long title");
        assert_eq!(args, kept, "read, not taken");
        let parsed = read::<Args>(Node::Take(&mut args)).expect("valid");
        assert_eq!(parsed.title, "long title");
        assert_eq!(args["title"], "", "moved, not copied");
    }
}
