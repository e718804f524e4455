//! A call's id in a registry, which is whose the call is: made fresh for
//! every call, or, for the call a provider named within a conversation the
//! application named, the same each time that call is asked for (a retried
//! request, a replica that picks up the same turn). And the content hash,
//! the same for the same tool and arguments, for what correlates calls by
//! what they ask.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Whose a call is: the caller and the conversation a context names
/// ([`ContextBuilder::caller`](crate::context::ContextBuilder::caller),
/// [`ContextBuilder::conversation`](crate::context::ContextBuilder::conversation)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    pub(crate) caller: Option<Arc<str>>,
    pub(crate) conversation: Option<Arc<str>>,
}

impl Scope {
    /// The caller, as the application named it.
    pub(crate) fn caller(&self) -> Option<&str> {
        self.caller.as_deref()
    }

    /// The conversation, as the application named it.
    pub(crate) fn conversation(&self) -> Option<&str> {
        self.conversation.as_deref()
    }

    /// The caller as part of a store's key: a hash of fixed length
    /// whatever the caller's key holds, `anyone` for a context that names
    /// none.
    pub(crate) fn caller_key(caller: Option<&str>) -> String {
        match caller {
            Some(caller) => hex(&Sha256::digest(caller.as_bytes())[..16]),
            None => "anyone".to_owned(),
        }
    }

    /// The id of a call of `tool` with `arguments` in this scope: the
    /// same for the same provider's id (`given`) with the same arguments in
    /// a named conversation (a request asked again), and 128 fresh random
    /// bits otherwise. Never the same for two callers or two
    /// conversations, nor for a provider's id reused with other arguments
    /// (a client that numbers its requests anew).
    pub(crate) fn call_id<'a>(
        &self,
        given: Option<&str>,
        tool: &str,
        arguments: impl FnOnce() -> &'a Value,
    ) -> String {
        match (self.conversation.as_deref(), given) {
            (Some(conversation), Some(given)) => {
                let content = content_hash(tool, arguments());
                let mut hash = Sha256::new();
                // Each part with its length before it, so that no two
                // scopes write the same bytes.
                for part in [
                    self.caller.as_deref().unwrap_or_default(),
                    conversation,
                    tool,
                    given,
                    &content,
                ] {
                    hash.update((part.len() as u64).to_le_bytes());
                    hash.update(part.as_bytes());
                }
                hash.update([u8::from(self.caller.is_some())]);
                hex(&hash.finalize()[..16])
            }
            _ => random_id(),
        }
    }
}

/// 128 random bits in lowercase hex: an id that is what answers a
/// question or decides a call, so that no one finds it by guessing.
pub(crate) fn random_id() -> String {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let mut bytes = [0_u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No system randomness (it never fails on the systems Tokio runs
        // on): the time, the process and a count, hashed.
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos());
        let mut hash = Sha256::new();
        hash.update(nanos.to_le_bytes());
        hash.update(std::process::id().to_le_bytes());
        hash.update(MADE.fetch_add(1, Ordering::Relaxed).to_le_bytes());
        bytes.copy_from_slice(&hash.finalize()[..16]);
    }
    hex(&bytes)
}

/// The content hash of a call of `tool` with `arguments`: the SHA-256, in
/// lowercase hex, of the canonical JSON of `{"arguments": ..., "name": ...}`
/// (keys sorted at every level, no whitespace). The same tool and
/// arguments give the same hash, whatever the provider, the key order or
/// the whitespace.
///
/// It is not a call's id: two calls with the same arguments are two calls,
/// each with an id of its own ([`ToolContext::call_id`]), since they may be
/// two people's. Use the hash to compare or cache calls by what they ask.
///
/// [`ToolContext::call_id`]: crate::ToolContext::call_id
///
/// ```
/// use serde_json::json;
///
/// let a = tool_core::context::content_hash("get_weather", &json!({"city": "Paris", "days": 2}));
/// let b = tool_core::context::content_hash("get_weather", &json!({"days": 2, "city": "Paris"}));
/// assert_eq!(a, b);
/// // the SHA-256 of {"arguments":{"city":"Paris","days":2},"name":"get_weather"}
/// assert_eq!(a, "f7d3a4c2dc21ec15bdf0fec3ca554d535281bc3657e9416295a387ec96a8bb49");
/// ```
pub fn content_hash(tool: &str, arguments: &Value) -> String {
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

pub(crate) fn hex(bytes: &[u8]) -> String {
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
    fn the_hash_is_the_sha256_of_the_canonical_call() {
        let canonical = br#"{"arguments":{"city":"Paris","days":2},"name":"get_weather"}"#;
        let expected = hex(&Sha256::digest(canonical));
        assert_eq!(
            content_hash("get_weather", &json!({"days": 2, "city": "Paris"})),
            expected
        );
        assert_ne!(
            content_hash("get_weather", &json!({"days": 3, "city": "Paris"})),
            expected
        );
        assert_ne!(
            content_hash("get_climate", &json!({"days": 2, "city": "Paris"})),
            expected
        );
    }

    static ARGS: Value = Value::Null;

    fn scope(caller: Option<&str>, conversation: Option<&str>) -> Scope {
        Scope {
            caller: caller.map(Arc::from),
            conversation: conversation.map(Arc::from),
        }
    }

    #[test]
    fn a_provider_call_in_a_named_conversation_has_the_same_id_each_time() {
        let alice = scope(Some("alice"), Some("c1"));
        let id = alice.call_id(Some("toolu_1"), "send_money", || &ARGS);
        assert_eq!(id.len(), 32);
        assert_eq!(alice.call_id(Some("toolu_1"), "send_money", || &ARGS), id);
        // Another call, tool, conversation or caller: another id.
        assert_ne!(alice.call_id(Some("toolu_2"), "send_money", || &ARGS), id);
        assert_ne!(alice.call_id(Some("toolu_1"), "get_balance", || &ARGS), id);
        assert_ne!(
            scope(Some("alice"), Some("c2")).call_id(Some("toolu_1"), "send_money", || &ARGS),
            id
        );
        assert_ne!(
            scope(Some("bob"), Some("c1")).call_id(Some("toolu_1"), "send_money", || &ARGS),
            id
        );
        assert_ne!(
            scope(None, Some("c1")).call_id(Some("toolu_1"), "send_money", || &ARGS),
            scope(Some(""), Some("c1")).call_id(Some("toolu_1"), "send_money", || &ARGS),
        );
        // The same provider's id with other arguments: another call.
        let other = json!({"cents": 1});
        assert_ne!(alice.call_id(Some("toolu_1"), "send_money", || &other), id);
        // Parts are not run together.
        assert_ne!(
            scope(Some("ab"), Some("c")).call_id(Some("x"), "t", || &ARGS),
            scope(Some("a"), Some("bc")).call_id(Some("x"), "t", || &ARGS),
        );
    }

    #[test]
    fn without_a_conversation_or_a_provider_id_every_call_is_its_own() {
        let named = scope(Some("alice"), Some("c1"));
        let unnamed = scope(Some("alice"), None);
        assert_ne!(
            unnamed.call_id(Some("toolu_1"), "t", || &ARGS),
            unnamed.call_id(Some("toolu_1"), "t", || &ARGS)
        );
        assert_ne!(
            named.call_id(None, "t", || &ARGS),
            named.call_id(None, "t", || &ARGS)
        );
        assert_eq!(random_id().len(), 32);
    }
}
