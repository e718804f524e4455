//! Doc comments as text: a tool's description, and a parameter's title and
//! description as schemars reads a field's.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use crate::ctxt::Errors;

/// Whether the attribute is a doc comment (`///` or `#[doc = ...]`).
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The text of the doc comments among `attrs`: one leading space trimmed
/// from each line (as rustdoc does), leading and trailing blank lines
/// dropped, markdown kept. `None` when there are none.
pub(crate) fn doc_text(attrs: &[Attribute], errors: &mut Errors) -> Option<String> {
    doc_text_of(attrs, "#[tool]", errors)
}

/// [`doc_text`] of an item `attribute` (`#[tool]`, `#[prompt]`) goes on,
/// which a doc comment that is not a literal is reported for.
pub(crate) fn doc_text_of(
    attrs: &[Attribute],
    attribute: &str,
    errors: &mut Errors,
) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|attr| is_doc(attr)) {
        match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => {
                    let text = text.value();
                    if text.trim().is_empty() {
                        // `///` alone: a paragraph break.
                        lines.push(String::new());
                    } else {
                        lines.extend(text.lines().map(|line| {
                            line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned()
                        }));
                    }
                }
                other => {
                    let bare = attribute.trim_start_matches("#[").trim_end_matches(']');
                    errors.spanned(
                        other,
                        format!("`{attribute}` reads descriptions from literal doc comments only; write the text out or use `#[{bare}(description = \"...\")]`"),
                    );
                }
            },
            // `#[doc(hidden)]` and friends say nothing about the tool.
            Meta::List(_) | Meta::Path(_) => {}
        }
    }
    while lines.first().is_some_and(|line| line.is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        None
    } else {
        Some(lines.join("\n"))
    }
}

/// A parameter's `title` and `description` from its doc comments, as
/// schemars' derive reads a field's: the lines joined with one leading
/// space trimmed from each, then, when the text starts with `#`, its first
/// line the title; empty when there is none. `None` when an attribute is
/// not a literal doc comment (schemars' derive is left to read it).
pub(crate) fn field_title_and_description(attrs: &[Attribute]) -> Option<(String, String)> {
    let mut lines = Vec::new();
    for attr in attrs {
        match &attr.meta {
            Meta::NameValue(nv) if is_doc(attr) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => {
                    let text = text.value();
                    lines.push(match text.strip_prefix(' ') {
                        Some(trimmed) => trimmed.to_owned(),
                        None => text,
                    });
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    let doc = lines.join("\n");
    let doc = doc.trim_matches(|c: char| c.is_ascii_whitespace());
    if let Some(heading) = doc.strip_prefix('#') {
        let (title, description) = heading.split_once('\n').unwrap_or((heading, ""));
        let title = title.trim_start_matches('#');
        let trim = |text: &str| {
            text.trim_matches(|c: char| c.is_ascii_whitespace())
                .to_owned()
        };
        Some((trim(title), trim(description)))
    } else {
        Some((String::new(), doc.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn text(attrs: Vec<Attribute>) -> Option<String> {
        let mut errors = Errors::default();
        let text = doc_text(&attrs, &mut errors);
        assert!(errors.finish().is_ok());
        text
    }

    #[test]
    fn keeps_paragraphs_and_markdown_and_trims_one_space() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = " Get the weather."]),
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = "   - indented item"]),
            parse_quote!(#[doc = " `code`"]),
            parse_quote!(#[doc = ""]),
        ];
        assert_eq!(
            text(attrs).as_deref(),
            Some("Get the weather.\n\n  - indented item\n`code`")
        );
    }

    #[test]
    fn no_docs_is_none() {
        assert_eq!(
            text(vec![parse_quote!(#[doc = "  "]), parse_quote!(#[inline])]),
            None
        );
        assert_eq!(text(vec![parse_quote!(#[doc(hidden)])]), None);
    }

    #[test]
    fn non_literal_doc_is_an_error() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[doc = include_str!("x.md")])];
        let mut errors = Errors::default();
        doc_text(&attrs, &mut errors);
        let message = errors.finish().unwrap_err().to_string();
        assert!(message.contains("literal doc comments only"), "{message}");
    }

    fn field(attrs: Vec<Attribute>) -> Option<(String, String)> {
        field_title_and_description(&attrs)
    }

    #[test]
    fn field_docs_split_as_schemars_splits_them() {
        let pair = |t: &str, d: &str| Some((t.to_owned(), d.to_owned()));
        assert_eq!(field(vec![]), pair("", ""));
        assert_eq!(
            field(vec![
                parse_quote!(#[doc = " City name."]),
                parse_quote!(#[doc = "  e.g. Paris "])
            ]),
            pair("", "City name.\n e.g. Paris")
        );
        assert_eq!(
            field(vec![
                parse_quote!(#[doc = " ## The city"]),
                parse_quote!(#[doc = ""]),
                parse_quote!(#[doc = " Where to look."]),
            ]),
            pair("The city", "Where to look.")
        );
        assert_eq!(
            field(vec![parse_quote!(#[doc = "# Only a title"])]),
            pair("Only a title", "")
        );
        assert_eq!(field(vec![parse_quote!(#[serde(default)])]), None);
        assert_eq!(
            field(vec![parse_quote!(#[doc = include_str!("x.md")])]),
            None
        );
    }
}
