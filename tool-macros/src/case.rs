//! Identifier case conversions: `get_weather` <-> `GetWeather`.

/// `get_weather` -> `GetWeather`, `r#type` -> `Type`.
pub(crate) fn pascal_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = true;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `WebSearch` -> `web_search`, `HTTPGet` -> `http_get`.
pub(crate) fn snake_case(pascal: &str) -> String {
    let chars: Vec<char> = pascal.chars().collect();
    let mut out = String::with_capacity(pascal.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal() {
        assert_eq!(pascal_case("get_weather"), "GetWeather");
        assert_eq!(pascal_case("add"), "Add");
        assert_eq!(pascal_case("fetch_url_2"), "FetchUrl2");
        assert_eq!(pascal_case("_private_tool"), "PrivateTool");
    }

    #[test]
    fn snake() {
        assert_eq!(snake_case("WebSearch"), "web_search");
        assert_eq!(snake_case("HTTPGet"), "http_get");
        assert_eq!(snake_case("Add"), "add");
        assert_eq!(snake_case("GetV2Data"), "get_v2_data");
        assert_eq!(snake_case("Web_Search"), "web_search");
    }
}
