//! The general reader: the words of an error, read against one lexicon of
//! error language (`rules/lexicon.json`).
//!
//! Every text an error carries (messages, and identifiers such as codes,
//! types, reasons and class names) is turned into words: identifiers are split
//! at case changes, `_`, `-` and `.` (`TableCapacityExceededException` →
//! `table capacity exceeded exception`, `document_not_found` → `document not
//! found`), letters and digits are parted, and punctuation drops out. One
//! Aho–Corasick automaton finds every lexicon phrase among the words; a
//! phrase inside a longer one that matched, or right after a negator (`not
//! rate limited`), does not count. Each code sums its phrases' weights; the
//! heaviest code decides when it reaches the least deciding weight and no
//! other code ties it. Classification (`classify.rs`) lets the verdict decide
//! only against a generic signal, and only toward a code that signal may be
//! refined to (`refine` in the lexicon).

use std::sync::OnceLock;

use crate::input::{Map, Value};
use crate::rules::{LEXICON, LEXICON_MIN_WEIGHT, LEXICON_NEGATORS, LEXICON_REFINE};
use crate::taxonomy::{Code, TABLE};
use crate::text::Literals;

/// At most this many bytes of an error's text are read: the words that name
/// a failure come early, and a long page says nothing more.
const MAX_TEXT: usize = 16 * 1024;
/// How deep into a body the reader looks for texts.
const MAX_DEPTH: usize = 6;
/// Where one text ends and the next begins: no phrase crosses it.
const BREAK: char = '\u{1}';

/// What the words say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub code: Code,
    /// The code's summed weight, and every other code's best.
    pub weight: u32,
    pub rival: u32,
    /// The heaviest phrase of the code, for the evidence.
    pub phrase: &'static str,
    /// The lexicon's retry verdict for that phrase's group, if it has one.
    pub retry: Option<bool>,
    /// The weight the words give each code (by taxonomy index).
    scores: Vec<u32>,
}

impl Verdict {
    /// The weight the words give `code`.
    pub(crate) fn weight_of(&self, code: Code) -> u32 {
        TABLE
            .iter()
            .position(|i| i.code == code)
            .and_then(|i| self.scores.get(i).copied())
            .unwrap_or(0)
    }

    /// Whether the verdict may stand alone: heavy enough, and not tied.
    pub(crate) fn decides(&self) -> bool {
        self.weight >= LEXICON_MIN_WEIGHT && self.weight > self.rival
    }
}

/// Whether words may move a generic signal's `from` to `to`.
pub(crate) fn refines(from: Code, to: Code) -> bool {
    let (Some(f), Some(t)) = (index(from), index(to)) else {
        return false;
    };
    LEXICON_REFINE
        .get(f)
        .is_some_and(|list| list.contains(&(t as u8)))
}

fn index(code: Code) -> Option<usize> {
    TABLE.iter().position(|i| i.code == code)
}

fn phrases() -> &'static Literals {
    static SET: OnceLock<Literals> = OnceLock::new();
    SET.get_or_init(|| Literals::new(LEXICON.iter().map(|r| r.0)))
}

/// Append `text` to `out` as words: lowercase, identifiers split, one space
/// between words, punctuation gone. Apostrophes join (`can't` → `cant`).
pub(crate) fn push_words(text: &str, out: &mut String) {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Lower,
        Upper,
        Digit,
        Other,
    }
    let chars: Vec<char> = text.chars().take(MAX_TEXT).collect();
    let class = |c: char| {
        // Letters outside ASCII are read as they are, as small letters.
        if c.is_ascii_lowercase() || !c.is_ascii() {
            Class::Lower
        } else if c.is_ascii_uppercase() {
            Class::Upper
        } else if c.is_ascii_digit() {
            Class::Digit
        } else {
            Class::Other
        }
    };
    let mut prev = Class::Other;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\'' || c == '’' {
            continue;
        }
        let k = class(c);
        if k == Class::Other {
            if !out.ends_with(' ') {
                out.push(' ');
            }
            prev = k;
            continue;
        }
        let next = chars.get(i + 1).map_or(Class::Other, |&n| class(n));
        let split = match (prev, k) {
            (Class::Lower, Class::Upper) => true,
            // `HTTPError`: the last capital of a run starts the next word.
            (Class::Upper, Class::Upper) => next == Class::Lower,
            (Class::Digit, Class::Lower | Class::Upper)
            | (Class::Lower | Class::Upper, Class::Digit) => true,
            _ => false,
        };
        if split && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
        prev = k;
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
}

/// Keys whose values name or describe a failure.
fn is_text_key(key: &str) -> bool {
    const PARTS: &[&str] = &[
        "message",
        "msg",
        "error",
        "reason",
        "code",
        "type",
        "name",
        "status",
        "title",
        "detail",
        "description",
        "text",
        "fault",
        "cause",
        "summary",
        "exception",
        "kind",
        "result",
    ];
    const NEVER: &[&str] = &[
        "stack", "trace", "url", "uri", "href", "path", "request", "hostname", "username", "file",
        "tool", "suggest",
    ];
    let k = key.to_ascii_lowercase();
    PARTS.iter().any(|p| k.contains(p)) && !NEVER.iter().any(|n| k.contains(n))
}

/// Keys the reader does not descend into.
fn is_skipped(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    matches!(
        k.as_str(),
        "headers" | "stack" | "traceback" | "config" | "request" | "suggestions" | "original"
    )
}

/// Gather the texts of a value: strings under text keys, every string of a
/// `message`-like array, and string bodies.
fn gather(v: &Value<'_>, key: Option<&str>, depth: usize, out: &mut String) {
    if out.len() >= MAX_TEXT || depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::String(s) => {
            let t = s.trim_start();
            if (t.starts_with('{') || t.starts_with('[')) && s.len() <= MAX_TEXT {
                if let Ok(inner) = crate::input::parse(s) {
                    gather(&inner, key, depth + 1, out);
                    return;
                }
            }
            if key.is_none_or(is_text_key) {
                push_words(s, out);
                out.push(BREAK);
                out.push(' ');
            }
        }
        Value::Array(items) => {
            for item in items.iter().take(16) {
                gather(item, key, depth + 1, out);
            }
        }
        Value::Object(m) => gather_map(m, depth, out),
        _ => {}
    }
}

fn gather_map(m: &Map<'_>, depth: usize, out: &mut String) {
    for (k, v) in m.iter() {
        if !is_skipped(k) {
            let key = if k == "body" || k == "data" || k == "response" {
                None
            } else {
                Some(k)
            };
            gather(v, key, depth + 1, out);
        }
    }
}

/// The words of a raw error, its causes and members, and its body.
pub(crate) fn words(root: &Map<'_>) -> String {
    let mut out = String::from(" ");
    gather_map(root, 0, &mut out);
    out
}

/// What the lexicon reads in `words` (as [`words`] or [`push_words`] give them).
pub(crate) fn read(words: &str) -> Option<Verdict> {
    // Every phrase found, overlapping: (start, end, row).
    let mut hits = phrases().find_all(words);
    if hits.is_empty() {
        return None;
    }
    // A phrase inside a longer phrase found at the same place does not count.
    let spans = hits.clone();
    hits.retain(|&(s, e, _)| {
        !spans
            .iter()
            .any(|&(s2, e2, _)| s2 <= s && e2 >= e && e2 - s2 > e - s)
    });
    // Nor does a phrase right after a negator: ` not rate limited`.
    hits.retain(|&(s, _, _)| {
        let before = words[..s].trim_end_matches(' ');
        let last = before.rsplit([' ', BREAK]).next().unwrap_or("");
        !LEXICON_NEGATORS.contains(&last)
    });
    let mut scores = vec![0u32; TABLE.len()];
    // Each phrase counts once, however often it appears.
    let mut seen: Vec<usize> = Vec::new();
    let mut best: Vec<Option<usize>> = vec![None; TABLE.len()];
    for &(_, _, row) in &hits {
        if seen.contains(&row) {
            continue;
        }
        seen.push(row);
        let (_, code, weight, _) = LEXICON[row];
        let c = usize::from(code);
        scores[c] += u32::from(weight);
        if best[c].is_none_or(|b| LEXICON[b].2 < weight) {
            best[c] = Some(row);
        }
    }
    let (top, &weight) = scores
        .iter()
        .enumerate()
        .max_by_key(|&(i, w)| (*w, usize::MAX - i))?;
    let rival = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != top)
        .map(|(_, w)| *w)
        .max()
        .unwrap_or(0);
    let row = best[top]?;
    let (pattern, _, _, retry) = LEXICON[row];
    Some(Verdict {
        code: TABLE[top].code,
        weight,
        rival,
        phrase: pattern.trim(),
        retry: match retry {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        },
        scores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(s: &str) -> String {
        let mut out = String::from(" ");
        push_words(s, &mut out);
        out
    }

    #[test]
    fn identifiers_are_split_into_words() {
        assert_eq!(
            words_of("TableCapacityExceededException"),
            " table capacity exceeded exception "
        );
        assert_eq!(words_of("document_not_found"), " document not found ");
        assert_eq!(words_of("LIMIT_REACHED"), " limit reached ");
        assert_eq!(
            words_of("net::ERR_NAME_NOT_RESOLVED"),
            " net err name not resolved "
        );
        assert_eq!(
            words_of("HTTPError: 30s exceeded"),
            " http error 30 s exceeded "
        );
        assert_eq!(words_of("can't connect"), " cant connect ");
        assert_eq!(words_of("NonexistentBucket"), " nonexistent bucket ");
    }

    fn code_of(s: &str) -> Option<Code> {
        read(&words_of(s)).filter(Verdict::decides).map(|v| v.code)
    }

    #[test]
    fn the_words_decide_a_code() {
        assert_eq!(
            code_of("TableCapacityExceededException"),
            Some(Code::RateLimited)
        );
        assert_eq!(code_of("document_not_found"), Some(Code::NotFound));
        assert_eq!(
            code_of("ResourceQuotaExhausted"),
            Some(Code::QuotaExhausted)
        );
        assert_eq!(code_of("Rate exceeded"), Some(Code::RateLimited));
        assert_eq!(
            code_of("Transaction (Process ID 52) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction."),
            Some(Code::Conflict)
        );
        assert_eq!(code_of("something happened"), None);
    }

    #[test]
    fn every_text_of_an_error_is_read() {
        let root = crate::input::parse(
            r#"{"name": "GaxiosError", "message": "invalid_grant", "body": {"error": {"type": "x", "reason": "NoNode"}}}"#,
        )
        .unwrap();
        let Value::Object(m) = root else { panic!() };
        let w = words(&m);
        assert!(w.contains(" gaxios error "), "{w:?}");
        assert!(w.contains(" invalid grant "), "{w:?}");
        assert!(w.contains(" no node "), "{w:?}");
        assert_eq!(read(&w).map(|v| v.code), Some(Code::Unauthenticated));
    }

    #[test]
    fn a_negated_or_contained_phrase_does_not_count() {
        assert_eq!(code_of("the request was not rate limited"), None);
        // "unauthorized" inside "unauthorized recipient" gives no UNAUTHENTICATED.
        let v = read(&words_of(
            "Sandbox subdomains are for test purposes only: unauthorized recipient",
        ))
        .unwrap();
        assert_eq!(v.weight_of(Code::Unauthenticated), 0);
    }

    #[test]
    fn refinement_follows_the_table() {
        assert!(refines(Code::InvalidArgument, Code::NotFound));
        assert!(refines(Code::PermissionDenied, Code::RateLimited));
        assert!(!refines(Code::NotFound, Code::InvalidArgument));
        assert!(!refines(Code::RateLimited, Code::InvalidArgument));
    }
}
