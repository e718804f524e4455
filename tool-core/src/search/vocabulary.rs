//! The words an index holds, sorted, each numbered by its place: a word is
//! found by a binary search, and the words one or two typos from a word no
//! tool holds among the few that could be (those of its first letter, its
//! length give or take, and nearly its letters), so that correcting a
//! word costs the same whatever the query around it.

/// The indexed words, in byte order; a word's number is its place here.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    words: Vec<Box<str>>,
    /// Each word's letters, as a set ([`letters`]).
    letters: Vec<u32>,
}

/// A word's letters as a set of 32 bits, each letter its code point's bit
/// modulo 32. A bit one word has and another lacks stands for a letter of
/// the one the other lacks, which takes an edit: the bits one has alone
/// count edits at least, however letters share bits.
fn letters(word: &str) -> u32 {
    word.chars().fold(0, |set, c| set | 1 << (c as u32 % 32))
}

/// Whether `word` could be a typo [`Vocabulary::nearest`] fixes: not a
/// number nor a name with digits, and of four letters at least.
pub(super) fn could_be_a_typo(word: &str) -> bool {
    word.chars().nth(3).is_some() && !word.chars().any(|c| c.is_ascii_digit())
}

impl Vocabulary {
    /// The vocabulary of `words`, which are sorted and each once.
    pub(super) fn new(words: Vec<Box<str>>) -> Self {
        let letters = words.iter().map(|word| letters(word)).collect();
        Self { words, letters }
    }

    /// How many words it holds.
    pub(super) fn len(&self) -> usize {
        self.words.len()
    }

    /// The number of `word`, if the vocabulary holds it.
    pub(super) fn find(&self, word: &str) -> Option<u32> {
        let at = self
            .words
            .binary_search_by(|held| (**held).cmp(word))
            .ok()?;
        u32::try_from(at).ok()
    }

    /// The number of the indexed word nearest `word` in spelling (edits
    /// counted with transpositions, as typos are): one edit away (two for
    /// a word of eight letters or more), with the same first letter (a typo
    /// rarely changes it); of those nearest, the one `holding` counts more
    /// tools for, then the first in byte order. Numbers
    /// and names with digits are no typos, and words under four letters
    /// too short to tell.
    pub(super) fn nearest(&self, word: &str, holding: impl Fn(u32) -> usize) -> Option<u32> {
        let first = word.chars().next()?;
        if !could_be_a_typo(word) {
            return None;
        }
        let length = word.chars().count();
        let allowed = if length >= 8 { 2 } else { 1 };
        let own = letters(word);
        // The words of the same first letter lie together, in byte order.
        let start = self
            .words
            .partition_point(|held| held.chars().next() < Some(first));
        let end = start + self.words[start..].partition_point(|held| held.starts_with(first));
        let mut best: Option<(usize, usize, u32)> = None;
        for at in start..end {
            let held = &self.words[at];
            if held.len().abs_diff(word.len()) > allowed {
                continue;
            }
            let set = self.letters[at];
            if (set & !own).count_ones() as usize > allowed
                || (own & !set).count_ones() as usize > allowed
            {
                continue;
            }
            let distance = strsim::osa_distance(held, word);
            if distance > allowed {
                continue;
            }
            let Ok(number) = u32::try_from(at) else {
                break;
            };
            let count = holding(number);
            // Nearer first, then commoner; a tie keeps the first in byte
            // order, met first.
            let better = best.is_none_or(|(near, common, _)| {
                distance < near || (distance == near && count > common)
            });
            if better {
                best = Some((distance, count, number));
            }
        }
        best.map(|(_, _, number)| number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary(words: &[&str]) -> Vocabulary {
        let mut words: Vec<Box<str>> = words.iter().map(|word| (*word).into()).collect();
        words.sort();
        Vocabulary::new(words)
    }

    #[test]
    fn a_word_is_found_by_its_number() {
        let held = vocabulary(&["repositori", "issu", "creat"]);
        assert_eq!(held.find("creat"), Some(0));
        assert_eq!(held.find("issu"), Some(1));
        assert_eq!(held.find("repositori"), Some(2));
        assert_eq!(held.find("pull"), None);
        assert_eq!(held.len(), 3);
    }

    #[test]
    fn a_typo_finds_the_word_one_edit_away_two_when_long() {
        let held = vocabulary(&["deploy", "delet", "repositori", "rename", "renam"]);
        let once = |_| 1;
        // A swap of two letters is one edit.
        assert_eq!(held.find("deploy"), held.nearest("depoly", once));
        // Two edits in a long word; not in a short one.
        assert_eq!(held.find("repositori"), held.nearest("reposiotry", once));
        assert_eq!(held.nearest("dlte", once), None);
        // Another first letter, a short word, digits: no typo.
        assert_eq!(held.nearest("teploy", once), None);
        assert_eq!(held.nearest("dep", once), None);
        assert_eq!(held.nearest("delet2", once), None);
    }

    #[test]
    fn of_the_nearest_the_commoner_wins_then_the_first_in_byte_order() {
        let held = vocabulary(&["label", "lapel", "lable"]);
        let (label, lapel) = (held.find("label"), held.find("lapel"));
        // `lanel` is one edit from `label` and from `lapel`, two from `lable`.
        assert_eq!(held.nearest("lanel", |_| 1), label);
        let commoner = |word| if Some(word) == lapel { 5 } else { 1 };
        assert_eq!(held.nearest("lanel", commoner), lapel);
        // Nearer wins over commoner: `lapek` is one edit from `lapel` alone.
        assert_eq!(
            held.nearest("lapek", |word| if Some(word) == label { 5 } else { 1 }),
            lapel
        );
    }
}
