//! The stable id of a call: the same tool and arguments give the same id,
//! whatever the provider, the key order or the whitespace.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The id of a call of `tool` with `arguments`: the SHA-256, in lowercase
/// hex, of the canonical JSON of `{"arguments": ..., "name": ...}`: keys
/// sorted at every level, no whitespace.
///
/// ```
/// use serde_json::json;
///
/// let a = tool_core::context::call_id("get_weather", &json!({"city": "Paris", "days": 2}));
/// let b = tool_core::context::call_id("get_weather", &json!({"days": 2, "city": "Paris"}));
/// assert_eq!(a, b);
/// // the SHA-256 of {"arguments":{"city":"Paris","days":2},"name":"get_weather"}
/// assert_eq!(a, "f7d3a4c2dc21ec15bdf0fec3ca554d535281bc3657e9416295a387ec96a8bb49");
/// ```
pub fn call_id(tool: &str, arguments: &Value) -> String {
    let mut canonical = Vec::with_capacity(64);
    canonical.extend_from_slice(b"{\"arguments\":");
    write_canonical(arguments, &mut canonical);
    canonical.extend_from_slice(b",\"name\":");
    write_string(tool, &mut canonical);
    canonical.push(b'}');
    hex(&Sha256::digest(&canonical))
}

/// Compact JSON with every object's keys in sorted order.
fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                write_canonical(value, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        // Scalars have one compact form already.
        scalar => {
            // Writing to a Vec cannot fail.
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

fn write_string(text: &str, out: &mut Vec<u8>) {
    let _ = serde_json::to_writer(&mut *out, text);
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 0xf)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_form_sorts_keys_at_every_level_without_whitespace() {
        let mut out = Vec::new();
        write_canonical(
            &json!({"b": [{"z": 1, "a": null}], "a": "é\"\n", "c": 1.5}),
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a":"é\"\n","b":[{"a":null,"z":1}],"c":1.5}"#
        );
    }

    #[test]
    fn the_id_is_the_sha256_of_the_canonical_call() {
        let canonical = br#"{"arguments":{"city":"Paris","days":2},"name":"get_weather"}"#;
        let expected = hex(&Sha256::digest(canonical));
        assert_eq!(
            call_id("get_weather", &json!({"days": 2, "city": "Paris"})),
            expected
        );
        assert_ne!(
            call_id("get_weather", &json!({"days": 3, "city": "Paris"})),
            expected
        );
        assert_ne!(
            call_id("get_climate", &json!({"days": 2, "city": "Paris"})),
            expected
        );
    }
}
