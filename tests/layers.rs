//! tool-core's top-level modules sit in layers, each importing only the
//! ones below it: the vocabulary at the bottom, the pipeline above it, the
//! registry, toolsets and providers on top (docs/contributing.md, "The
//! layers"). A file that names a module above its own (`crate::registry`
//! from `dispatch/`, say) fails here, naming the file and both modules.

use std::fs;
use std::path::{Path, PathBuf};

/// tool-core's top-level modules, bottom first: each may name only those
/// before it.
const LAYERS: [&str; 18] = [
    "error", "output", "store", "tool", "schema", "value", "context", "observe", "policy",
    "resource", "prompt", "client", "elicit", "dispatch", "registry", "toolset", "provider",
    "search",
];

/// Every `.rs` file under `dir`, tests aside (they may reach anywhere).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a folder of tool-core's source")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The file's code: comments dropped, and its `#[cfg(test)]` module, which
/// comes last in a file, cut off.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a file names through `crate::`.
fn named(code: &str) -> Vec<&str> {
    code.match_indices("crate::")
        .filter(|(at, _)| {
            // Not `tool_core::crate::` nor a longer identifier ending in `crate`.
            code[..*at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
        })
        .map(|(at, prefix)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn each_module_of_tool_core_imports_only_the_layers_below_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tool-core/src");
    let mut problems = Vec::new();
    for (layer, module) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        let folder = root.join(module);
        if folder.is_dir() {
            sources(&folder, &mut files);
        } else {
            files.push(root.join(format!("{module}.rs")));
        }
        for file in files {
            let text = fs::read_to_string(&file).expect("a source file");
            for other in named(&code(&text)) {
                let Some(at) = LAYERS.iter().position(|m| m == &other) else {
                    continue;
                };
                if at > layer {
                    let file = file.strip_prefix(&root).unwrap_or(&file).display();
                    problems.push(format!(
                        "tool-core/src/{file}: `{module}` names `{other}`, which sits above it"
                    ));
                }
            }
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_top_level_module_of_tool_core_has_its_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tool-core/src");
    let mut missing = Vec::new();
    for entry in fs::read_dir(&root).expect("tool-core's source") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_stem()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let is_module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if is_module && !["lib", "private"].contains(&name) && !LAYERS.contains(&name) {
            missing.push(name.to_owned());
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "modules with no layer: {missing:?}");
}

#[test]
fn a_module_naming_one_above_it_is_found() {
    let code = code("use crate::registry::ToolRegistry;\n// crate::provider in a comment\n");
    assert_eq!(named(&code), ["registry"]);
    assert_eq!(
        named("tool_core::crate::x; mycrate::y; (crate::error::Echo)"),
        ["error"]
    );
}
