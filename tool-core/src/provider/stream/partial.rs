//! The best-effort object of a call's arguments while they stream, for an
//! interface that shows them as they grow: the JSON text so far, closed
//! where it was cut. A string cut short ends where it is; a key with no
//! value yet, a number or literal cut short, and a dangling comma or colon
//! are left out.

use serde_json::Value;

/// What the text so far would be, closed; `None` before it holds an
/// object's or an array's opening bracket.
pub(crate) fn partial_arguments(text: &str) -> Option<Value> {
    let text = text.trim_start();
    if !text.starts_with(['{', '[']) {
        return None;
    }
    // Where the text can be cut and closed: after each whole value or
    // opening bracket, with the closers open there.
    let mut stack: Vec<u8> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    // The last place it could be cut: its length, the closers then, and
    // whether a string is open there (whose text is kept).
    let mut cut: Option<(usize, Vec<u8>)> = None;
    // Whether the open string is a key (inside an object, before a colon).
    let mut expecting_key = false;
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
                if !expecting_key {
                    cut = Some((at + 1, stack.clone()));
                }
            }
            continue;
        }
        match byte {
            b'{' => {
                stack.push(b'}');
                expecting_key = true;
                cut = Some((at + 1, stack.clone()));
            }
            b'[' => {
                stack.push(b']');
                expecting_key = false;
                cut = Some((at + 1, stack.clone()));
            }
            b'}' | b']' => {
                stack.pop();
                expecting_key = false;
                cut = Some((at + 1, stack.clone()));
            }
            b'"' => in_string = true,
            b':' => expecting_key = false,
            b',' => expecting_key = stack.last() == Some(&b'}'),
            b'0'..=b'9'
            | b'-'
            | b'.'
            | b'e'
            | b'E'
            | b'+'
            | b't'
            | b'r'
            | b'u'
            | b'f'
            | b'a'
            | b'l'
            | b's'
            | b'n' => {
                // A number or literal: whole once the next byte is not one.
                let next = bytes.get(at + 1).copied();
                let ends = !matches!(
                    next,
                    Some(
                        b'0'..=b'9'
                            | b'-'
                            | b'.'
                            | b'e'
                            | b'E'
                            | b'+'
                            | b't'
                            | b'r'
                            | b'u'
                            | b'f'
                            | b'a'
                            | b'l'
                            | b's'
                            | b'n'
                    )
                );
                if ends && next.is_some() {
                    cut = Some((at + 1, stack.clone()));
                }
            }
            _ => {}
        }
    }
    // A value string cut short is kept as far as it goes.
    if in_string && !expecting_key {
        let mut closed = text.to_owned();
        if escaped {
            closed.pop();
        }
        closed.push('"');
        closed.push_str(&closers(&stack));
        if let Ok(value) = serde_json::from_str(&closed) {
            return Some(value);
        }
    }
    // Otherwise, or when that does not parse (a key whose value never
    // came): back to the last whole value.
    let (at, stack) = cut?;
    let mut closed = text[..at].trim_end().trim_end_matches(',').to_owned();
    closed.push_str(&closers(&stack));
    serde_json::from_str(&closed).ok()
}

fn closers(stack: &[u8]) -> String {
    stack.iter().rev().map(|&byte| byte as char).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::partial_arguments;

    #[test]
    fn arguments_so_far_are_closed_where_they_were_cut() {
        let whole = r#"{"city": "Paris", "days": 3, "units": ["c", "f"], "ok": true}"#;
        let expected = [
            (r#"{"#, json!({})),
            (r#"{"ci"#, json!({})),
            (r#"{"city": ""#, json!({"city": ""})),
            (r#"{"city": "Pa"#, json!({"city": "Pa"})),
            (r#"{"city": "Paris", "da"#, json!({"city": "Paris"})),
            (r#"{"city": "Paris", "days": 3"#, json!({"city": "Paris"})),
            (
                r#"{"city": "Paris", "days": 3,"#,
                json!({"city": "Paris", "days": 3}),
            ),
            (
                r#"{"city": "Paris", "days": 3, "units": ["c", "#,
                json!({"city": "Paris", "days": 3, "units": ["c"]}),
            ),
            (
                r#"{"city": "Paris", "days": 3, "units": ["c", "f"], "ok": tr"#,
                json!({"city": "Paris", "days": 3, "units": ["c", "f"]}),
            ),
            (
                whole,
                json!({"city": "Paris", "days": 3, "units": ["c", "f"], "ok": true}),
            ),
        ];
        for (prefix, value) in expected {
            assert!(whole.starts_with(prefix));
            assert_eq!(partial_arguments(prefix), Some(value), "{prefix:?}");
        }
        assert_eq!(partial_arguments(""), None);
        assert_eq!(partial_arguments("  "), None);
        // Every prefix gives an object, or nothing; never a panic.
        for at in 0..=whole.len() {
            let partial = partial_arguments(&whole[..at]);
            assert!(
                partial.as_ref().is_none_or(serde_json::Value::is_object),
                "{at}: {partial:?}"
            );
        }
        assert_eq!(
            partial_arguments(r#"{"note": "a \"quoted"#),
            Some(json!({"note": "a \"quoted"}))
        );
        assert_eq!(
            partial_arguments(r#"{"path": "C:\"#),
            Some(json!({"path": "C:"}))
        );
    }
}
