//! Searches over the short texts errors are made of.
//!
//! Every search for a string in a string goes through here ([`find`],
//! [`rfind`], [`split_once`], [`rsplit_once`], [`split`], [`contains`]),
//! on the `memchr` crate's `memmem` (linear in the haystack, whatever a
//! hostile input holds), never through the standard library's string
//! patterns: their Two-Way searcher is 3.3 KB of the component (2026-11-27,
//! BENCHMARKS.md). Byte scans for the bytes a JSON string must escape, in
//! the parser and the writer, go eight bytes at a time ([`find_by_words`],
//! [`find_json_special`]). The phrases a message is classified by are looked
//! for all at once, in one pass ([`PhraseGroups`]).
//!
//! `memchr` costs the component 2.8 KB gzipped against the hand-written
//! first-byte scan and Knuth–Morris–Pratt searcher it replaced (3.1 KB on
//! the stable build, 2026-11-27): refused while the component was at its
//! budget, taken once the nightly build made room (BENCHMARKS.md).

/// Whether `key` is a whole line of `list`, a list kept as one text
/// ([`lines!`](crate)).
pub(crate) fn has_line(list: &str, key: &str) -> bool {
    list.split_terminator('\n').any(|l| l == key)
}

/// The byte offset of the first `needle` in `hay`, as `str::find` gives it.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    find_bytes(hay.as_bytes(), needle.as_bytes())
}

/// The byte offset of the last `needle` in `hay`, as `str::rfind` gives it.
pub(crate) fn rfind(hay: &str, needle: &str) -> Option<usize> {
    memchr::memmem::rfind(hay.as_bytes(), needle.as_bytes())
}

/// The offset of the first `needle` in the bytes `hay`. An empty needle is
/// at 0.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// Whether `needle` is in `hay` as whole words: where it starts and ends is
/// the text's start or end, or a space.
pub(crate) fn contains_words(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let mut from = 0;
    while let Some(at) = h.get(from..).and_then(|rest| find_bytes(rest, n)) {
        let (at, end) = (from + at, from + at + n.len());
        if (at == 0 || h[at - 1] == b' ') && h.get(end).is_none_or(|&b| b == b' ') {
            return true;
        }
        from = at + 1;
    }
    false
}

/// `hay.split(sep)` for a non-empty string separator, as a list.
pub(crate) fn split<'a>(hay: &'a str, sep: &str) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let mut from = 0;
    if !sep.is_empty() {
        for at in memchr::memmem::find_iter(hay.as_bytes(), sep.as_bytes()) {
            parts.push(&hay[from..at]);
            from = at + sep.len();
        }
    }
    parts.push(&hay[from..]);
    parts
}

/// `hay.rsplit_once(sep)`.
pub(crate) fn rsplit_once<'a>(hay: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    let at = rfind(hay, sep)?;
    Some((&hay[..at], &hay[at + sep.len()..]))
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
    let mut at = from;
    while let Some(word) = s.get(at..at + 8) {
        // Eight bytes: the default is never taken.
        let hit = flags(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if hit != 0 {
            return Some(at + (hit.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    while at < s.len() {
        if wanted(s[at]) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// Groups of phrases (lowercase ASCII, two bytes or more, 64 in all at
/// most) looked for in a text all at once, in any ASCII case: what
/// `contains(&text.to_ascii_lowercase(), phrase)` answers for each, in one
/// pass and without the lowercased copy.
///
/// A byte's low five bits are the same in both cases of a letter, so
/// `pairs` marks which (first, second) byte pairs, five bits each, some
/// phrase starts with, and `first` which phrases start with a given first
/// byte's five bits. Most positions of a text stop at the pair test, most
/// of the rest at the test of the third byte (`triples`); the others compare
/// the phrases the first byte names, by their first eight bytes first.
pub(crate) struct PhraseGroups<const N: usize> {
    phrases: [(&'static [u8], u8); N],
    /// Each phrase's head (`form::head`): most candidates differ there, and
    /// one compare tells.
    heads: [u64; N],
    first: [u64; 32],
    pairs: [u32; 32],
    /// A bit per (first, second, third) five bits of a phrase (see
    /// [`triple`]; a two-byte phrase sets its pair's bit for every third
    /// byte): a pair that begins a phrase is looked at only when the third
    /// byte may continue one, or at the end of the text.
    triples: [u64; 16],
}

/// The bit of [`PhraseGroups::triples`] for three bytes' five bits.
#[inline(always)]
const fn triple(a: u8, b: u8, c: u8) -> usize {
    ((a as usize) * 331 + (b as usize) * 32 + (c as usize)) & 1023
}

use crate::rules::form::{head, head_mask};

impl<const N: usize> PhraseGroups<N> {
    /// The phrases, each with its group (below 32). Evaluated at compile
    /// time: a phrase that is not lowercase ASCII of two bytes or more, a
    /// group past 31 or more than 64 phrases stop the build.
    pub(crate) const fn new(phrases: [(&'static str, u8); N]) -> Self {
        assert!(N <= 64, "at most 64 phrases");
        let mut out = PhraseGroups {
            phrases: [(b"", 0); N],
            heads: [0; N],
            first: [0; 32],
            pairs: [0; 32],
            triples: [0; 16],
        };
        let mut k = 0;
        while k < N {
            let (p, group) = phrases[k];
            let b = p.as_bytes();
            assert!(
                b.len() >= 2 && group < 32,
                "a phrase of two bytes or more, a group below 32"
            );
            let mut j = 0;
            while j < b.len() {
                assert!(
                    b[j].is_ascii() && !b[j].is_ascii_uppercase(),
                    "lowercase ASCII"
                );
                j += 1;
            }
            let a = (b[0] & 31) as usize;
            out.first[a] |= 1 << k;
            out.pairs[a] |= 1 << (b[1] & 31);
            let mut c = 0;
            while c < 32 {
                if b.len() == 2 || c == b[2] & 31 {
                    let t = triple(b[0] & 31, b[1] & 31, c);
                    out.triples[t / 64] |= 1 << (t % 64);
                }
                c += 1;
            }
            out.phrases[k] = (b, group);
            out.heads[k] = head(b);
            k += 1;
        }
        out
    }

    /// The groups (as bits: group `g` is `1 << g`) with a phrase in `hay`.
    pub(crate) fn scan(&self, hay: &[u8]) -> u32 {
        let mut found = 0u32;
        let Some((&first, rest)) = hay.split_first() else {
            return 0;
        };
        let mut a = first & 31;
        for (i, &b) in rest.iter().enumerate() {
            let b = b & 31;
            if self.pairs[usize::from(a)] >> b & 1 != 0 {
                let t = hay.get(i + 2).map(|&c| triple(a, b, c & 31));
                if t.is_none_or(|t| self.triples[t / 64] >> (t % 64) & 1 != 0) {
                    found |= self.at(&hay[i..], a, found);
                }
            }
            a = b;
        }
        found
    }

    /// The groups not in `found` with a phrase at the start of `hay`, whose
    /// first byte has the five bits `a`.
    #[inline(never)]
    fn at(&self, hay: &[u8], a: u8, found: u32) -> u32 {
        let mut more = 0;
        let mut candidates = self.first[usize::from(a)];
        let hay_head = head(hay);
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            let (phrase, group) = self.phrases[k];
            candidates &= candidates - 1;
            if (found | more) >> group & 1 == 0
                && hay_head & head_mask(phrase.len()) == self.heads[k]
                && hay
                    .get(..phrase.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(phrase))
            {
                more |= 1 << group;
            }
        }
        more
    }
}

/// `a == b`, the lengths and first bytes compared before the rest: names are
/// searched one candidate at a time (an object's keys, the signal tables),
/// and most candidates differ there.
#[inline(always)]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.as_bytes().first() == b.as_bytes().first()
        && eq_bytes(a.as_bytes(), b.as_bytes())
}

/// `a == b` for slices of one length, eight bytes at a time: the names
/// compared are short, and in the component a `memcmp` call is a byte loop
/// behind a call.
#[inline]
fn eq_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Fixed-size pieces compare as words, without a `memcmp` call.
    let w8 = |c: &[u8], i: usize| u64::from_le_bytes(c[i..i + 8].try_into().unwrap_or_default());
    let w4 = |c: &[u8], i: usize| u32::from_le_bytes(c[i..i + 4].try_into().unwrap_or_default());
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if w8(a, i) != w8(b, i) {
                return false;
            }
            i += 8;
        }
        // The last eight bytes, overlapping the words before.
        w8(a, n - 8) == w8(b, n - 8)
    } else if n >= 4 {
        w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
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

/// The first `/` or `\\` in `s` (a path has one), eight bytes at a time.
pub(crate) fn find_slash(s: &[u8]) -> Option<usize> {
    let flags = |x: u64| {
        let y = x ^ (ONES * u64::from(b'/'));
        let z = x ^ (ONES * u64::from(b'\\'));
        (y.wrapping_sub(ONES) & !y | z.wrapping_sub(ONES) & !z) & HIGH
    };
    find_by_words(s, 0, flags, |c| c == b'/' || c == b'\\')
}

/// The first `4` or `5` from `from` (where an HTTP 4xx or 5xx status can start),
/// eight bytes at a time.
pub(crate) fn find_4_or_5(s: &[u8], from: usize) -> Option<usize> {
    let flags = |x: u64| {
        let y = x ^ (ONES * u64::from(b'4'));
        let z = x ^ (ONES * u64::from(b'5'));
        (y.wrapping_sub(ONES) & !y | z.wrapping_sub(ONES) & !z) & HIGH
    };
    find_by_words(s, from, flags, |c| c == b'4' || c == b'5')
}

/// The first byte from `from` that a JSON string cannot hold as it is: a
/// quote, a backslash or a control byte (what the parser stops at and the
/// writer escapes). Eight bytes at a time.
pub fn find_json_special(s: &[u8], from: usize) -> Option<usize> {
    // "Has a byte below 0x20", "has a zero byte" (after xor with `"` or
    // `\\`: `(y - 0x01…01) & !y` marks the high bit of a zero byte of `y`,
    // and since a borrow only carries upwards the lowest mark is a true one).
    // `!x` serves all three: the xors change bits below the high ones only.
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

/// An integer (`-` when `negative`, then `magnitude`) in decimal, written
/// into the end of `buf`: `to_string` without an allocation or the
/// formatting machinery.
pub(crate) fn decimal(negative: bool, magnitude: u64, buf: &mut [u8; 21]) -> &str {
    let mut m = magnitude;
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    // Only ASCII was written.
    std::str::from_utf8(&buf[i..]).unwrap_or("0")
}

/// `a == b`, at compile time.
pub(crate) const fn const_same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The row of `key` in a table indexed by open addressing: each slot holds a
/// row's number plus one, or 0, at `form::key_hash(key)` and probed
/// linearly (build.rs writes the slots of `rules/signals/`' tables; `key_of`
/// gives a row's key): the first row with that key, as a linear `find` gives
/// it.
#[inline]
pub(crate) fn find_key<const M: usize>(
    slots: &[u8; M],
    key: &str,
    key_of: impl Fn(usize) -> &'static str,
) -> Option<usize> {
    let mut at = crate::rules::form::key_hash(key.as_bytes()) as usize & (M - 1);
    loop {
        let s = slots[at];
        if s == 0 {
            return None;
        }
        let i = usize::from(s) - 1;
        if same(key_of(i), key) {
            return Some(i);
        }
        at = (at + 1) & (M - 1);
    }
}

/// A set of literal patterns (the lexicon's phrases, the credential
/// prefixes), found by their first three bytes: a position whose first two
/// bytes start no pattern is passed over at once; else the patterns with its
/// three-byte head (sorted) are compared whole.
/// Linear in the text for sets whose patterns rarely share a head.
///
/// Written here rather than taken from the `aho-corasick` crate because of a
/// measurement: the crate (its smallest kind, no prefilter) made the
/// component 51.5 KB larger (21.7 KB gzipped), past its budget of 400 000
/// bytes and 160 KB gzipped (BENCHMARKS.md).
pub(crate) struct Literals {
    patterns: Vec<&'static str>,
    /// Each pattern's first three bytes and its index, sorted.
    heads: Vec<([u8; 3], u16)>,
    /// By first byte, the range of `heads` that starts with it.
    by_first: Vec<(u16, u16)>,
    /// Bit `b0 * 256 + b1` is set when some pattern starts with `b0 b1`.
    pairs: Vec<u64>,
}

impl Literals {
    /// Every pattern must have three bytes or more (`build.rs` checks the
    /// shipped ones).
    /// Not generic over its patterns' iterator, so the component holds one
    /// copy of it for its three callers (−842 bytes gzipped, BENCHMARKS.md).
    #[inline(never)]
    pub(crate) fn new(patterns: Vec<&'static str>) -> Literals {
        let mut heads: Vec<([u8; 3], u16)> = patterns
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let b = p.as_bytes();
                Some((
                    [*b.first()?, *b.get(1)?, *b.get(2)?],
                    u16::try_from(i).ok()?,
                ))
            })
            .collect();
        crate::sort::sort_by_key(&mut heads, |&h| h);
        let mut by_first = vec![(0u16, 0u16); 256];
        for (i, (h, _)) in heads.iter().enumerate() {
            let r = &mut by_first[usize::from(h[0])];
            if r.1 == 0 {
                r.0 = i as u16;
            }
            r.1 = i as u16 + 1;
        }
        let mut pairs = vec![0u64; 65536 / 64];
        for (h, _) in &heads {
            let bit = usize::from(h[0]) * 256 + usize::from(h[1]);
            pairs[bit / 64] |= 1 << (bit % 64);
        }
        Literals {
            patterns,
            heads,
            by_first,
            pairs,
        }
    }

    /// Every occurrence of every pattern, overlapping, by start:
    /// (start, end, pattern index).
    pub(crate) fn find_all(&self, hay: &str) -> Vec<(usize, usize, usize)> {
        let h = hay.as_bytes();
        let mut out = Vec::new();
        for i in 0..h.len().saturating_sub(2) {
            let bit = usize::from(h[i]) * 256 + usize::from(h[i + 1]);
            if self.pairs[bit / 64] >> (bit % 64) & 1 == 0 {
                continue;
            }
            let (lo, hi) = self.by_first[usize::from(h[i])];
            let head = [h[i], h[i + 1], h[i + 2]];
            let range = &self.heads[usize::from(lo)..usize::from(hi)];
            let from = range.partition_point(|(k, _)| *k < head);
            for &(k, p) in &range[from..] {
                if k != head {
                    break;
                }
                let pat = self.patterns[usize::from(p)].as_bytes();
                if h[i..].starts_with(pat) {
                    out.push((i, i + pat.len(), usize::from(p)));
                }
            }
        }
        out
    }
}

/// A non-negative decimal (`26`, `1.5`, `.25`, `3.`) times `10^scale`, the
/// digits past the scale dropped; saturates instead of overflowing. No sign,
/// exponent, `inf` or `NaN`: delays are written plainly. Exact where a float
/// would round, and it keeps the float parser out of the component.
pub(crate) fn parse_decimal(s: &str, scale: u32) -> Option<u64> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    let mut n: u64 = 0;
    for b in int.bytes() {
        n = n.saturating_mul(10).saturating_add(u64::from(b - b'0'));
    }
    let mut frac = frac.bytes();
    for _ in 0..scale {
        let d = frac.next().map_or(0, |b| u64::from(b - b'0'));
        n = n.saturating_mul(10).saturating_add(d);
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `form::head` is the first eight bytes lowercased, whatever the bytes.
    #[test]
    fn head_lowercases_every_byte() {
        let naive = |b: &[u8]| {
            let mut h = [0u8; 8];
            for (d, s) in h.iter_mut().zip(b) {
                *d = s.to_ascii_lowercase();
            }
            u64::from_le_bytes(h)
        };
        for c in 0..=255u8 {
            for len in 0..=9 {
                let b = vec![c; len];
                assert_eq!(head(&b), naive(&b), "{c:#x} x{len}");
            }
            let mixed = [c, b'A', c.wrapping_add(1), b'z', b'@', b'[', c, 0x80 | c, c];
            assert_eq!(head(&mixed), naive(&mixed), "{c:#x}");
        }
    }

    /// `decimal` is `to_string`, at the ends of the range too.
    #[test]
    fn decimal_is_to_string() {
        let mut buf = [0u8; 21];
        for n in [
            0,
            7,
            -1,
            -111,
            10,
            1_000_000,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            assert_eq!(decimal(n < 0, n.unsigned_abs(), &mut buf), n.to_string());
        }
        assert_eq!(decimal(false, u64::MAX, &mut buf), u64::MAX.to_string());
    }

    /// `same` is `==`: every length to 40, one byte changed at every place
    /// (in a word and in the tail), and lengths that differ.
    #[test]
    fn same_is_equality() {
        for len in 0..=40usize {
            let a: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            assert!(same(&a, &a.clone()));
            for at in 0..len {
                let mut b = a.clone().into_bytes();
                b[at] = b'Z';
                let b = String::from_utf8(b).unwrap();
                assert!(!same(&a, &b), "{a} {b}");
            }
            assert!(!same(&a, &format!("{a}x")));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// `trim_fast` is `str::trim`: white space of every kind at either end,
        /// ASCII and not.
        #[test]
        fn trims_what_the_standard_library_trims(s in "[ \t\n\r\x0b\x0c\x1c\u{85}\u{a0}\u{2003}\u{3000}aé!~]{0,12}") {
            prop_assert_eq!(s.trim_fast(), s.trim());
        }

        /// The word-at-a-time byte search finds what `str::find` finds.
        #[test]
        fn finds_what_the_standard_library_finds(
            hay in "[abé:\\x00\\x7f /.0\\\\\\[\\]]{0,40}",
            needle in "[abé: ]{1,3}",
        ) {
            prop_assert_eq!(find(&hay, &needle), hay.find(&needle));
            let slash = hay.bytes().position(|c| c == b'/' || c == b'\\');
            prop_assert_eq!(find_slash(hay.as_bytes()), slash);
        }

        /// The string searches are the standard library's, for needles short
        /// and long, periodic ones
        /// included, and for an empty needle.
        #[test]
        fn searches_as_the_standard_library_does(
            hay in "[ab]{0,60}|[abé\n:]{0,40}",
            needle in "[ab]{0,3}|[ab]{17,22}|(ab){8,10}a?|[abé\n:]{1,4}",
        ) {
            prop_assert_eq!(find(&hay, &needle), hay.find(needle.as_str()));
            prop_assert_eq!(rfind(&hay, &needle), hay.rfind(needle.as_str()));
            prop_assert_eq!(split_once(&hay, &needle), hay.split_once(needle.as_str()));
            prop_assert_eq!(rsplit_once(&hay, &needle), hay.rsplit_once(needle.as_str()));
            prop_assert_eq!(contains(&hay, &needle), hay.contains(needle.as_str()));
            if !needle.is_empty() {
                prop_assert_eq!(split(&hay, &needle), hay.split(needle.as_str()).collect::<Vec<_>>());
            }
            // A long needle in a long haystack of its own bytes: linear.
            let long_hay = hay.repeat(40);
            prop_assert_eq!(find(&long_hay, &needle), long_hay.find(needle.as_str()));
            prop_assert_eq!(rfind(&long_hay, &needle), long_hay.rfind(needle.as_str()));
        }

        /// `contains_words` is a search of the space-padded texts.
        #[test]
        fn finds_whole_words_as_padded_texts_do(hay in "[ab ]{0,24}", needle in "[ab]{1,3}( [ab]{1,2})?") {
            let padded = [" ", hay.as_str(), " "].concat().contains(&[" ", needle.as_str(), " "].concat());
            prop_assert_eq!(contains_words(&hay, &needle), padded);
        }

        /// `find_4_or_5` is the naive scan, next to the digits and bytes around them.
        #[test]
        fn finds_each_4_and_5(hay in "[345a6\\x00\\x7fé]{0,40}", from in 0usize..41) {
            let from = from.min(hay.len());
            let naive = hay.as_bytes()[from..].iter().position(|&c| c == b'4' || c == b'5').map(|p| from + p);
            prop_assert_eq!(find_4_or_5(hay.as_bytes(), from), naive);
        }
    }

    /// Phrases over a small alphabet, so that they overlap and repeat.
    const PLAIN: PhraseGroups<7> = PhraseGroups::new([
        ("ab", 0),
        ("abc", 1),
        ("b[a", 2),
        ("ba", 2),
        ("[c", 3),
        ("ac", 4),
        ("{a", 5),
    ]);

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// A group is found exactly when one of its phrases is in the
        /// lowercased text; bytes that share a letter's five bits
        /// (`{`, `;`, `A`, `!`, `\x01`) are never taken for it.
        #[test]
        fn finds_the_groups_a_lowercased_search_finds(hay in "[aAbBcC\\[{;!\x01é]{0,24}") {
            let lower = hay.to_ascii_lowercase();
            let mut plain = 0u32;
            for (p, g) in [("ab", 0), ("abc", 1), ("b[a", 2), ("ba", 2), ("[c", 3), ("ac", 4), ("{a", 5)] {
                if lower.contains(p) {
                    plain |= 1 << g;
                }
            }
            prop_assert_eq!(PLAIN.scan(hay.as_bytes()), plain);
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
