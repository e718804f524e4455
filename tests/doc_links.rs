//! Every link between the repository's documents leads somewhere: each
//! relative link of the README, the guide (`docs/guide/`) and the
//! contributor notes names a file that exists and, after a `#`, a heading
//! in it (as GitHub makes a heading's anchor).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The documents whose links are checked, from the repository's root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut documents = vec![root.join("README.md"), root.join("docs/contributing.md")];
    let guide = fs::read_dir(root.join("docs/guide")).expect("the guide's folder");
    let mut chapters: Vec<PathBuf> = guide
        .map(|entry| entry.expect("a chapter").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    chapters.sort();
    documents.extend(chapters);
    documents
}

/// The targets of a document's inline links, `[text](target)`, outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Code spans hold what only looks like a link.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(at, _)| at % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            links.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    links
}

/// The anchors of a document's headings, as GitHub makes them: lower
/// case, punctuation but `-` and `_` dropped, spaces made `-`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if in_block {
            continue;
        }
        let title = heading.trim_start_matches('#').trim();
        let anchor: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        anchors.insert(anchor);
    }
    anchors
}

#[test]
fn every_link_between_the_documents_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents(root) {
        let text = fs::read_to_string(&document).expect("readable");
        let folder = document.parent().expect("a folder");
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                document.clone()
            } else {
                folder.join(path)
            };
            let shown = document.strip_prefix(root).unwrap_or(&document).display();
            if !target.exists() {
                broken.push(format!("{shown}: `{link}`: no such file"));
                continue;
            }
            if !anchor.is_empty() {
                let target_text = fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&target_text).contains(anchor) {
                    broken.push(format!("{shown}: `{link}`: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked >= 20,
        "only {checked} links found: the reading is broken"
    );
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# Registry and definitions: 100 tools\n## `#[tool(...)]` reference\n";
    assert_eq!(
        anchors(text),
        BTreeSet::from([
            "registry-and-definitions-100-tools".to_owned(),
            "tool-reference".to_owned()
        ])
    );
    assert_eq!(
        links("see [a](b.md#c) and `[not](a link)`\n```\n[x](y)\n```\n"),
        ["b.md#c"]
    );
}
