//! `$ref`s replaced by the schemas they point to.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::walk::children;
use crate::schema::dialect::Unfit;

/// Which `$ref`s [`inline`] replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inline {
    /// Every one. Where a type refers back to itself, the inner reference
    /// becomes a schema of any value that says it has the same shape as
    /// the enclosing one (Google's own SDK cuts recursion the same way):
    /// the model sees one level, and the registry still validates every
    /// level against the tool's own schema.
    CutRecursion,
    /// Only those with sibling keywords (a field's description beside the
    /// `$ref` of its type); a recursive one is wrapped as `anyOf: [{$ref}]`
    /// so that its siblings stay valid.
    WithSiblings,
    /// Every one; a recursive type is an error.
    All,
}

/// Rewrites the `$ref`s of `schema` as `mode` says. The `$defs` that are
/// still referenced afterwards are kept (rewritten the same way); the others
/// go. Every reference that cannot be rewritten (one that resolves to
/// nothing, a recursive one with [`Inline::All`]) is added to `unfit`.
pub(crate) fn inline(mut schema: Value, mode: Inline, unfit: &mut Vec<Unfit>) -> Value {
    let Some(root) = schema.as_object_mut() else {
        return schema;
    };
    let mut table = BTreeMap::new();
    for container in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = root.remove(container) {
            for (name, def) in defs {
                table.insert(format!("#/{container}/{name}"), (container, name, def));
            }
        }
    }
    let recursive = recursive_refs(
        table
            .iter()
            .map(|(reference, (_, _, def))| (reference.as_str(), def)),
    );
    let mut inliner = Inliner {
        table: &table,
        recursive,
        mode,
        kept: BTreeSet::new(),
        unfit,
    };
    inliner.node(&mut schema, "", &mut Vec::new());

    let mut done = BTreeSet::new();
    let mut kept_defs: BTreeMap<&str, Map<String, Value>> = BTreeMap::new();
    while let Some(reference) = inliner
        .kept
        .iter()
        .find(|r| !done.contains(*r) && table.contains_key(*r))
        .cloned()
    {
        done.insert(reference.clone());
        let Some((container, name, def)) = table.get(&reference) else {
            continue;
        };
        let mut def = def.clone();
        let at = format!("/{container}/{name}");
        inliner.node(&mut def, &at, &mut vec![reference.clone()]);
        kept_defs
            .entry(container)
            .or_default()
            .insert(name.clone(), def);
    }
    if let Some(root) = schema.as_object_mut() {
        for (container, defs) in kept_defs {
            root.insert(container.to_owned(), Value::Object(defs));
        }
    }
    schema
}

/// Each definition by the `$ref` that points to it: its container
/// (`$defs` or `definitions`), its name, its schema.
pub(crate) type Table = BTreeMap<String, (&'static str, String, Value)>;

struct Inliner<'t, 'u> {
    table: &'t Table,
    /// The definitions that reach themselves.
    recursive: BTreeSet<String>,
    mode: Inline,
    /// The references left in place.
    kept: BTreeSet<String>,
    /// The references that could not be rewritten, and where.
    unfit: &'u mut Vec<Unfit>,
}

impl Inliner<'_, '_> {
    fn node(&mut self, node: &mut Value, at: &str, stack: &mut Vec<String>) {
        let Value::Object(map) = node else {
            return;
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            let reference = reference.clone();
            let siblings = map.len() > 1;
            let Some((_, name, target)) = self.table.get(&reference) else {
                if reference == "#" {
                    return self.recursion(map, at, &reference, "input");
                }
                self.unfit.push(Unfit::new(
                    at,
                    format!("`$ref` to `{reference}`, which is not a definition of this schema"),
                ));
                return;
            };
            if self.mode == Inline::WithSiblings && !siblings {
                self.kept.insert(reference);
                return;
            }
            let recursive = match self.mode {
                Inline::CutRecursion => stack.contains(&reference),
                _ => self.recursive.contains(&reference) || stack.contains(&reference),
            };
            if recursive {
                let name = name.clone();
                return self.recursion(map, at, &reference, &name);
            }
            map.remove("$ref");
            if let Value::Object(target) = target {
                write_definition(map, target);
            }
            stack.push(reference);
            self.node(node, at, stack);
            stack.pop();
            return;
        }
        children(map, at, &mut |child, pointer| {
            self.node(child, pointer, stack)
        });
    }

    /// A reference into a recursive type, as the mode says.
    fn recursion(&mut self, map: &mut Map<String, Value>, at: &str, reference: &str, name: &str) {
        match self.mode {
            Inline::All if reference == "#" => self.unfit.push(Unfit::new(
                at,
                "the input contains itself (a recursive type), which this dialect cannot express",
            )),
            Inline::All => self.unfit.push(Unfit::new(
                at,
                format!("`{name}` is a recursive type, which this dialect cannot express"),
            )),
            Inline::CutRecursion => {
                map.remove("$ref");
                let note = if reference == "#" {
                    "a value of the same shape as the tool's whole input".to_owned()
                } else {
                    format!("a value of the same shape as the enclosing `{name}`")
                };
                let description = match map.get("description").and_then(Value::as_str) {
                    Some(text) if !text.is_empty() => format!("{text} ({note})"),
                    _ => note,
                };
                map.retain(|keyword, _| keyword == "default");
                map.insert("description".into(), Value::String(description));
            }
            Inline::WithSiblings => {
                if map.len() > 1 {
                    map.remove("$ref");
                    map.insert("anyOf".into(), serde_json::json!([{"$ref": reference}]));
                }
                self.kept.insert(reference.to_owned());
            }
        }
    }
}

/// Writes a definition into the node that referred to it (its `$ref`
/// already removed). The node's own keywords (a field's `default`, say) win;
/// where both have a description (a field's and its type's), both are
/// kept, the field's first.
pub(crate) fn write_definition(node: &mut Map<String, Value>, definition: &Map<String, Value>) {
    for (keyword, value) in definition {
        match node.get_mut(keyword) {
            None => {
                node.insert(keyword.clone(), value.clone());
            }
            Some(Value::String(own)) if keyword == "description" => {
                if let Value::String(type_words) = value
                    && !type_words.is_empty()
                    && type_words != own
                {
                    if own.is_empty() {
                        own.clone_from(type_words);
                    } else {
                        own.push_str("\n\n");
                        own.push_str(type_words);
                    }
                }
            }
            Some(_) => {}
        }
    }
}

/// The definitions (each by the `$ref` that points to it) from which a
/// chain of references leads back to them.
pub(crate) fn recursive_refs<'a>(
    definitions: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> BTreeSet<String> {
    let edges: BTreeMap<&str, Vec<String>> = definitions
        .into_iter()
        .map(|(reference, def)| (reference, refs_in(def)))
        .collect();
    let mut recursive = BTreeSet::new();
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = edges[start].iter().map(String::as_str).collect();
        while let Some(next) = todo.pop() {
            if next == *start {
                recursive.insert((*start).to_owned());
                break;
            }
            if seen.insert(next)
                && let Some(more) = edges.get(next)
            {
                todo.extend(more.iter().map(String::as_str));
            }
        }
    }
    recursive
}

/// Every `$ref` in a schema.
pub(crate) fn refs_in(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(Value::String(reference)) = schema.get("$ref") {
        found.push(reference.clone());
    }
    super::walk::each_subschema_of(schema, "", &mut |node, _| {
        if let Some(Value::String(reference)) = node.get("$ref") {
            found.push(reference.clone());
        }
    });
    found
}
