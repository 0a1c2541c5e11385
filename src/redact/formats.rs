//! Credential formats as data: `rules/credentials.json`, compiled by
//! `build.rs` into one text ([`formats`] reads it), every row with its documented source.
//!
//! A row is a literal prefix (case-sensitive), optionally a fixed number of
//! characters before it that belong to the key (Microsoft's identifiable
//! keys), then a body of one or more pieces: maximal runs of an alphabet of
//! an exact or least length, and literal separators; then an optional
//! suffix. A PEM block runs from its BEGIN line to its END line (or to the
//! end of the text). All prefixes are found in one pass (`text::Literals`);
//! each body is read forward without backtracking.

use std::sync::OnceLock;

/// One credential format.
pub(crate) struct Format {
    pub id: &'static str,
    /// 0 a token, 1 a credential-bearing URL (its host and path as the
    /// prefix), 2 a PEM block.
    pub kind: u8,
    pub prefix: &'static str,
    /// (alphabet, extra characters, length) of the characters just before
    /// the prefix that belong to the credential.
    pub before: Option<(u8, &'static str, u16)>,
    pub body: Vec<Piece>,
    pub suffix: &'static str,
    /// The credential (its look-back, else its prefix) must not follow a
    /// letter or digit.
    pub boundary: bool,
}

/// A piece of a body.
pub(crate) enum Piece {
    /// A maximal run of (alphabet, extra characters): exactly `n` long
    /// (`true`) or at least `n` long (`false`).
    Run(u8, &'static str, u16, bool),
    /// A literal separator.
    Sep(&'static str),
}

const PEM: u8 = 2;

include!(concat!(env!("OUT_DIR"), "/credentials.rs"));

/// The formats, read once from build.rs's `FORMAT_TEXT`: a line a format,
/// fields apart by U+0001 (id, kind, prefix, look-back, body, suffix,
/// boundary), pieces by U+0002, a piece's parts by U+0003 (a run: `=` exact
/// or `>` at least and its alphabet, its length, its extra characters; a
/// separator: `S` and its text).
fn formats() -> &'static [Format] {
    static FORMATS: OnceLock<Vec<Format>> = OnceLock::new();
    FORMATS.get_or_init(|| FORMAT_TEXT.lines().filter_map(format).collect())
}

fn format(line: &'static str) -> Option<Format> {
    let mut f = line.split('\u{1}');
    let mut next = || f.next();
    let id = next()?;
    let kind = next()?.parse().ok()?;
    let prefix = next()?;
    let before = next()?;
    let body = next()?;
    let suffix = next()?;
    let boundary = next()? == "1";
    let run = |head: &'static str| -> Option<(u8, u16, &'static str)> {
        let mut parts = head.split('\u{3}');
        Some((
            parts.next()?.parse().ok()?,
            parts.next()?.parse().ok()?,
            parts.next()?,
        ))
    };
    let before = match before {
        "" => None,
        b => run(b).map(|(a, n, extra)| (a, extra, n)),
    };
    let body = body
        .split('\u{2}')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_at(1) {
            ("S", sep) => Some(Piece::Sep(sep)),
            (how, rest) => run(rest).map(|(a, n, extra)| Piece::Run(a, extra, n, how == "=")),
        })
        .collect::<Option<Vec<Piece>>>()?;
    Some(Format {
        id,
        kind,
        prefix,
        before,
        body,
        suffix,
        boundary,
    })
}

/// Whether `b` is in alphabet `a` (the order of build.rs's `alphabet_index`)
/// or among `extra`.
fn in_alphabet(a: u8, extra: &str, b: u8) -> bool {
    let base = match a {
        0 => b.is_ascii_alphanumeric(),
        1 => b.is_ascii_alphanumeric() || b == b'_',
        2 => b.is_ascii_alphanumeric() || b == b'-',
        3 => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
        4 => b.is_ascii_alphanumeric() || b == b'+' || b == b'/',
        5 => b.is_ascii_hexdigit(),
        6 => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
        7 => b.is_ascii_uppercase() || b.is_ascii_digit(),
        8 => b.is_ascii_lowercase() || b.is_ascii_digit(),
        9 => b.is_ascii_digit(),
        _ => false,
    };
    base || extra.as_bytes().contains(&b)
}

fn prefixes() -> &'static crate::text::Literals {
    static SET: OnceLock<crate::text::Literals> = OnceLock::new();
    SET.get_or_init(|| crate::text::Literals::new(formats().iter().map(|f| f.prefix).collect()))
}

/// Whether a credential may start at `i`: not after a letter or digit,
/// except the letter of an escape (`\n`, `\t`, `\r`: a JSON string's line
/// break right before it).
pub(crate) fn at_boundary(s: &[u8], i: usize) -> bool {
    if i == 0 || !s[i - 1].is_ascii_alphanumeric() {
        return true;
    }
    i >= 2 && s[i - 2] == b'\\' && matches!(s[i - 1], b'n' | b't' | b'r')
}

/// The span of format `f` whose prefix starts at `start`, if the text holds one there.
fn match_at(s: &[u8], start: usize, f: &Format) -> Option<(usize, usize)> {
    let mut from = start;
    if let Some((a, extra, n)) = f.before {
        from = start.checked_sub(usize::from(n))?;
        if !s[from..start].iter().all(|&b| in_alphabet(a, extra, b)) {
            return None;
        }
        if from > 0 && in_alphabet(a, extra, s[from - 1]) {
            return None;
        }
    }
    if f.boundary && f.kind != PEM && !at_boundary(s, from) {
        return None;
    }
    let mut i = start + f.prefix.len();
    if f.kind == PEM {
        let end = crate::text::find_bytes(&s[i..], f.suffix.as_bytes())
            .map_or(s.len(), |e| i + e + f.suffix.len());
        return Some((from, end));
    }
    for p in &f.body {
        match *p {
            Piece::Run(a, extra, n, exact) => {
                let mut j = i;
                while j < s.len() && in_alphabet(a, extra, s[j]) {
                    j += 1;
                }
                let (len, n) = (j - i, usize::from(n));
                if len < n || (exact && len != n) {
                    return None;
                }
                // Base64's padding follows the run, uncounted.
                if a == 4 {
                    let mut pad = 0;
                    while pad < 2 && s.get(j) == Some(&b'=') {
                        j += 1;
                        pad += 1;
                    }
                }
                i = j;
            }
            Piece::Sep(sep) => {
                if !s[i..].starts_with(sep.as_bytes()) {
                    return None;
                }
                i += sep.len();
            }
        }
    }
    if !f.suffix.is_empty() {
        if !s[i..].starts_with(f.suffix.as_bytes()) {
            return None;
        }
        i += f.suffix.len();
    }
    Some((from, i))
}

/// Every credential of a listed format in `text`, left to right, not
/// overlapping: (start, end, format id).
pub(crate) fn find(text: &str) -> Vec<(usize, usize, &'static str)> {
    let s = text.as_bytes();
    // Each prefix found: (start, -prefix length, row); tried in that order.
    let mut hits: Vec<(usize, std::cmp::Reverse<usize>, usize)> = prefixes()
        .find_all(text)
        .into_iter()
        .map(|(start, _, row)| (start, std::cmp::Reverse(formats()[row].prefix.len()), row))
        .collect();
    crate::sort::sort_by_key(&mut hits, |&h| h);
    let mut out = Vec::new();
    let mut cursor = 0;
    for (start, _, row) in hits {
        if start < cursor {
            continue;
        }
        let f = &formats()[row];
        if let Some((from, end)) = match_at(s, start, f) {
            // A look-back into what was already taken, or a cut inside a
            // character, is no match.
            if from >= cursor && text.is_char_boundary(from) && text.is_char_boundary(end) {
                out.push((from, end, f.id));
                cursor = end;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_large_and_every_prefix_is_found() {
        assert!(formats().len() >= 200, "{} formats", formats().len());
        assert_eq!(
            formats().len(),
            FORMAT_TEXT.lines().count(),
            "every line reads as a format"
        );
        assert!(CREDENTIAL_NAMES.lines().count() >= 50);
        let spans = find("key ghp_0123456789abcdefghijABCDEFGHIJklmnop here");
        assert_eq!(spans.len(), 1, "{spans:?}");
        assert_eq!(
            &"key ghp_0123456789abcdefghijABCDEFGHIJklmnop here"[spans[0].0..spans[0].1],
            "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
        );
    }

    #[test]
    fn a_prefix_inside_a_word_or_with_a_short_body_is_no_credential() {
        assert!(find("the task-sk-1 failed").is_empty());
        assert!(find("ghp_short").is_empty());
        assert!(find("").is_empty());
    }

    #[test]
    fn a_pem_block_runs_to_its_end_line_or_the_end_of_the_text() {
        let t = "x -----BEGIN RSA PRIVATE KEY-----\\nMIIabc\\n-----END RSA PRIVATE KEY----- y";
        let spans = find(t);
        assert_eq!(spans.len(), 1);
        assert!(t[spans[0].1..].starts_with(" y"));
        let cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIabc";
        assert_eq!(find(cut)[0].1, cut.len());
    }
}
