//! The words search compares: a tool's name, description and parameters,
//! and a query, cut the same way into the stems of their words.

use std::collections::HashMap;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

/// English's Porter 2 stemmer, made once: "issues" and "issue", "running"
/// and "run" are one word to search.
static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Words that tell one tool from another no better than chance: articles,
/// pronouns, auxiliaries, and what every request says ("please", "want").
const STOP: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could",
    "do", "does", "for", "from", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its",
    "me", "my", "need", "of", "on", "or", "our", "please", "should", "so", "some", "that", "the",
    "their", "them", "then", "there", "these", "this", "those", "to", "us", "want", "was", "we",
    "what", "when", "where", "which", "who", "will", "with", "would", "you", "your",
];

/// What a word of a request stands for in the words tools are described
/// with, by their stems: the abbreviations of software's vocabulary, and
/// the everyday verbs for what tools' names call otherwise. Searched at a
/// lower weight beside the word itself.
const STANDS_FOR: &[(&str, &[&str])] = &[
    ("pr", &["pull", "request"]),
    ("prs", &["pull", "request"]),
    ("repo", &["repositori"]),
    ("db", &["databas"]),
    ("dir", &["directori"]),
    ("folder", &["directori"]),
    ("env", &["environ"]),
    ("config", &["configur"]),
    ("msg", &["messag"]),
    ("doc", &["document"]),
    ("k8s", &["kubernet"]),
    ("ado", &["azur", "devop"]),
    ("renam", &["move"]),
    ("remov", &["delet"]),
    ("drop", &["delet"]),
    ("eras", &["delet"]),
    ("kill", &["delet", "stop", "termin"]),
    ("forget", &["delet"]),
    ("make", &["creat"]),
    ("new", &["creat"]),
    ("show", &["get", "list"]),
    ("view", &["get"]),
    ("see", &["get", "list"]),
    ("fetch", &["get"]),
    ("look", &["search", "get"]),
    ("find", &["search"]),
    ("tag", &["label"]),
    ("attach", &["upload"]),
    ("post", &["send", "creat"]),
];

/// [`STANDS_FOR`] by word, made once: a long query asks it of each of its
/// words.
static MEANINGS: LazyLock<HashMap<&str, &[&str]>> =
    LazyLock::new(|| STANDS_FOR.iter().copied().collect());

/// The stems a word's stem stands for ([`STANDS_FOR`]), if any.
pub(super) fn stands_for(stem: &str) -> &'static [&'static str] {
    MEANINGS.get(stem).copied().unwrap_or_default()
}

/// The stems of the words in `text`, in order: its [`words`], each
/// [`stem`]med.
pub(super) fn stems(text: &str, mut each: impl FnMut(String)) {
    words(text, |word| each(stem(word)));
}

/// The words of `text` search compares, in order: its [`pieces`],
/// [`lowered`], [`STOP`] words left out.
pub(super) fn words(text: &str, mut each: impl FnMut(&str)) {
    let mut lower = String::new();
    pieces(text, |piece| {
        if lowered(piece, &mut lower) {
            each(&lower);
        }
    });
}

/// The words of `text` as written: split at anything that is not a
/// letter or a digit, inside a word where its case turns (`createIssue`,
/// `HTTPServer`; not where letters meet digits, so that `k8s` and `ec2`
/// stay words) and where it passes into or out of a script written without
/// spaces (`Stripe에`, `Supabase项目`); a run of such a script is its pairs
/// of neighbouring characters (`项目里` is `项目` and `目里`), as no space
/// says where its words end; other words of one letter left out.
pub(super) fn pieces<'a>(text: &'a str, mut each: impl FnMut(&'a str)) {
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        parts(word, |part| {
            if part.chars().next().is_some_and(unspaced) {
                pairs(part, &mut each);
            } else if part.chars().nth(1).is_some() {
                each(part);
            }
        });
    }
}

/// Whether `c` is of a script written without spaces between its words
/// (Han, kana) or whose words carry their particles (Hangul: `Stripe에`).
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF // Hangul's letters
        | 0x3040..=0x30FF // hiragana and katakana
        | 0x3130..=0x318F // Hangul's compatibility letters
        | 0x3400..=0x4DBF // Han, extension A
        | 0x4E00..=0x9FFF // Han
        | 0xAC00..=0xD7AF // Hangul's syllables
        | 0xF900..=0xFAFF // Han, compatibility
        | 0x20000..=0x2FA1F) // Han, the supplementary planes
}

/// The pairs of neighbouring characters of `run`, in order; a run of one
/// character is itself, as one Han character may be a word (`书`, a book).
fn pairs<'a>(run: &'a str, each: &mut impl FnMut(&'a str)) {
    let starts: Vec<usize> = run
        .char_indices()
        .map(|(at, _)| at)
        .chain([run.len()])
        .collect();
    if starts.len() == 2 {
        each(run);
    }
    for window in starts.windows(3) {
        each(&run[window[0]..window[2]]);
    }
}

/// Puts `piece` lowercased in `lower`, and says whether it is a word to
/// search, not one of the [`STOP`] words.
pub(super) fn lowered(piece: &str, lower: &mut String) -> bool {
    lower.clear();
    if piece.is_ascii() {
        lower.push_str(piece);
        lower.make_ascii_lowercase();
    } else {
        // `str::to_lowercase`, for a final sigma's form.
        lower.push_str(&piece.to_lowercase());
    }
    STOP.binary_search(&lower.as_str()).is_err()
}

/// The stem of a lowercased word.
pub(super) fn stem(word: &str) -> String {
    STEMMER.stem(word).into_owned()
}

/// The parts of one word, cut where its case turns and where it passes
/// into or out of a script written without spaces.
fn parts<'a>(word: &'a str, mut each: impl FnMut(&'a str)) {
    let mut start = 0;
    let mut before: Option<char> = None;
    let mut chars = word.char_indices().peekable();
    while let Some((at, here)) = chars.next() {
        if let Some(before) = before {
            let next = chars.peek().map(|&(_, c)| c);
            let turns = unspaced(before) != unspaced(here)
                || (before.is_lowercase() && here.is_uppercase())
                // The last capital of a run that starts a word: `HTTPServer`.
                || (before.is_uppercase()
                    && here.is_uppercase()
                    && next.is_some_and(char::is_lowercase));
            if turns {
                each(&word[start..at]);
                start = at;
            }
        }
        before = Some(here);
    }
    each(&word[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        stems(text, |stem| out.push(stem));
        out
    }

    #[test]
    fn the_stop_words_are_sorted_for_the_binary_search() {
        assert!(STOP.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn names_are_cut_where_a_person_reads_words() {
        assert_eq!(all("github_create_issue"), ["github", "creat", "issu"]);
        assert_eq!(all("createPullRequest"), ["creat", "pull", "request"]);
        assert_eq!(all("HTTPServer-v2"), ["http", "server", "v2"]);
        assert_eq!(all("list-k8s-pods"), ["list", "k8s", "pod"]);
    }

    #[test]
    fn words_are_lowercased_as_their_language_writes_them() {
        let mut out = Vec::new();
        words("Straße ΟΔΟΣ createIssue", |word| {
            out.push(word.to_owned())
        });
        // A final sigma lowercased as one.
        assert_eq!(
            out,
            ["straße", "\u{3bf}\u{3b4}\u{3bf}\u{3c2}", "create", "issue"]
        );
    }

    #[test]
    fn a_script_without_spaces_is_searched_by_its_pairs_of_characters() {
        let mut out = Vec::new();
        words(
            "Stripe에 쿠폰 만들어줘, Supabase项目里 3个书 书",
            |word| out.push(word.to_owned()),
        );
        // A run of one character is a word: `에` (a particle), `书` (a book).
        assert_eq!(
            out,
            [
                "stripe", "에", "쿠폰", "만들", "들어", "어줘", "supabase", "项目", "目里", "个书",
                "书"
            ]
        );
    }

    #[test]
    fn a_request_keeps_the_words_that_tell_tools_apart() {
        assert_eq!(
            all("Could you please open an issue about the failing deploys?"),
            ["open", "issu", "fail", "deploy"]
        );
    }
}
