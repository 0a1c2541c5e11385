//! Searches over the short texts errors are made of.
//!
//! `str::contains` / `find` with a string pattern set up a Two-Way searcher on
//! every call. That is the right algorithm for long texts, but classify
//! searches a dozen phrases in messages of a few dozen bytes, and inside the
//! component (no SIMD fast path) the set-up was a tenth of a call. Below
//! [`SHORT`] bytes this scans for the needle's first byte and compares.
//! Byte scans go eight bytes at a time ([`find_by_words`]): for the needle's
//! first byte here, and for the bytes a JSON string must escape, in the
//! parser and the writer ([`find_json_special`]).

/// Texts longer than this use the standard library's search (linear time).
const SHORT: usize = 1024;

/// The byte offset of the first `needle` in `hay`, as `str::find` gives it.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    if hay.len() > SHORT || needle.is_empty() {
        return hay.find(needle);
    }
    find_bytes(hay.as_bytes(), needle.as_bytes())
}

/// The offset of the first `needle` in the bytes `hay`: each occurrence of
/// the needle's first byte, then a comparison. An empty needle is at 0.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some(&first) = needle.first() else {
        return Some(0);
    };
    let last = hay.len().checked_sub(needle.len())?;
    let mut i = 0;
    while i <= last {
        i = find_byte(&hay[..=last], i, first)?;
        if &hay[i..i + needle.len()] == needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The first byte from `from` that `wanted` holds, eight bytes at a time:
/// `flags` marks, in a word of eight bytes (the first lowest), the high bit
/// of bytes that may be wanted, and its lowest mark must be a true one. The
/// last few bytes are tested one by one.
fn find_by_words(
    s: &[u8],
    from: usize,
    flags: impl Fn(u64) -> u64,
    wanted: impl Fn(u8) -> bool,
) -> Option<usize> {
    let rest = s.get(from..)?;
    let mut words = rest.chunks_exact(8);
    let mut at = from;
    for word in &mut words {
        // Every chunk has eight bytes: the default is never taken.
        let hit = flags(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if hit != 0 {
            return Some(at + (hit.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&c| wanted(c))
        .map(|p| at + p)
}

/// The first `b` in `s` from `from`: "has a zero byte" after xor with `b`,
/// which is exact for "any", and since a borrow only carries upwards, the
/// lowest flagged byte is a true one.
fn find_byte(s: &[u8], from: usize, b: u8) -> Option<usize> {
    let flags = |x: u64| {
        let y = x ^ (ONES * u64::from(b));
        y.wrapping_sub(ONES) & !y & HIGH
    };
    find_by_words(s, from, flags, |c| c == b)
}

/// Whether `hay` contains `word` (lowercase ASCII) in any ASCII case: the
/// bytes that are the word's first letter in either case, eight at a time
/// (setting bit 5 folds the case of a letter and makes nothing else one),
/// then a comparison.
pub(crate) fn contains_ignore_ascii_case(hay: &[u8], word: &[u8]) -> bool {
    let Some(&first) = word.first() else {
        return true;
    };
    let Some(last) = hay.len().checked_sub(word.len()) else {
        return false;
    };
    let flags = |x: u64| {
        let y = (x | (ONES * 0x20)) ^ (ONES * u64::from(first));
        y.wrapping_sub(ONES) & !y & HIGH
    };
    let mut from = 0;
    while let Some(at) = find_by_words(&hay[..=last], from, flags, |c| c | 0x20 == first) {
        if hay[at..at + word.len()].eq_ignore_ascii_case(word) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether `hay` contains `needle`.
pub(crate) fn contains(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// `hay.split_once(sep)`.
pub(crate) fn split_once<'a>(hay: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    let at = find(hay, sep)?;
    Some((&hay[..at], &hay[at + sep.len()..]))
}

/// The first byte from `from` that a JSON string cannot hold as it is: a
/// quote, a backslash or a control byte (what the parser stops at and the
/// writer escapes). Eight bytes at a time.
pub fn find_json_special(s: &[u8], from: usize) -> Option<usize> {
    // "Has a byte below 0x20", "has a zero byte" (after xor with `"` or
    // `\\`), as in `find_byte`. `!x` serves all three: the xors change bits
    // below the high ones only.
    let flags = |x: u64| {
        (x.wrapping_sub(ONES * 0x20)
            | (x ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES)
            | (x ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES))
            & !x
            & HIGH
    };
    find_by_words(s, from, flags, |b| b < 0x20 || b == b'"' || b == b'\\')
}

/// `str::trim`, answered at once when both ends are visible ASCII (no white
/// space under any definition), which is nearly every message and code the
/// classifier trims some twenty times a call.
pub(crate) trait TrimFast {
    fn trim_fast(&self) -> &str;
}

impl TrimFast for str {
    fn trim_fast(&self) -> &str {
        match (self.as_bytes().first(), self.as_bytes().last()) {
            (Some(f), Some(l)) if f.is_ascii_graphic() && l.is_ascii_graphic() => self,
            _ => self.trim(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// `trim_fast` is `str::trim`: white space of every kind at either end,
        /// ASCII and not.
        #[test]
        fn trims_what_the_standard_library_trims(s in "[ \t\n\r\x0b\x0c\x1c\u{85}\u{a0}\u{2003}\u{3000}aé!~]{0,12}") {
            prop_assert_eq!(s.trim_fast(), s.trim());
        }

        /// The case-folding search answers as a plain scan of every window.
        #[test]
        fn finds_words_in_any_case(
            hay in "[cCeErRtThH\\x03\\x23\\x43\\x63é ]{0,40}",
            word in prop::sample::select(vec!["certificate", "hostname", "c", "ch", "cert"]),
        ) {
            let plain = hay.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word.as_bytes()));
            prop_assert_eq!(contains_ignore_ascii_case(hay.as_bytes(), word.as_bytes()), plain);
            let planted = format!("{hay}{}{hay}", word.to_ascii_uppercase());
            prop_assert!(contains_ignore_ascii_case(planted.as_bytes(), word.as_bytes()));
        }

        /// The word-at-a-time byte search finds what `str::find` finds.
        #[test]
        fn finds_what_the_standard_library_finds(
            hay in "[abé:\\x00\\x7f ]{0,40}",
            needle in "[abé: ]{1,3}",
            from in 0usize..41,
        ) {
            prop_assert_eq!(find(&hay, &needle), hay.find(&needle));
            let b = needle.as_bytes()[0];
            let from = from.min(hay.len());
            let naive = hay.as_bytes()[from..].iter().position(|&c| c == b).map(|p| from + p);
            prop_assert_eq!(find_byte(hay.as_bytes(), from, b), naive);
        }
    }

    #[test]
    fn agrees_with_the_standard_library() {
        let hays = [
            "",
            "a",
            "rate limit exceeded",
            "aaab",
            "Error: Error: x",
            "ümlaut: ä: ö",
            "[Errno 104] Connection reset",
            "x".repeat(2000).as_str().to_owned().leak(),
        ];
        let needles = [
            "",
            "a",
            "ab",
            "aab",
            ": ",
            "limit",
            "ä",
            "[Errno ",
            "x".repeat(5).leak(),
            "zz",
        ];
        for hay in hays {
            for needle in needles {
                assert_eq!(find(hay, needle), hay.find(needle), "{hay:?} {needle:?}");
                assert_eq!(
                    find_bytes(hay.as_bytes(), needle.as_bytes()),
                    hay.find(needle)
                );
                assert_eq!(split_once(hay, needle), hay.split_once(needle));
            }
        }
    }
}
