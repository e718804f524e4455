//! JSON objects built from values already made. serde_json's `json!`
//! writes every value it is given out and reads it back (`to_value`), a
//! deep copy of each: for the messages of every turn (the model's content,
//! the results) that was more than the call itself cost
//! (`cargo bench --bench turn`).

use serde_json::{Map, Value};

/// An object of `entries`, in their order, each value moved in as it is.
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut object = Map::new();
    for (key, value) in entries {
        object.insert(key.to_owned(), value);
    }
    Value::Object(object)
}
