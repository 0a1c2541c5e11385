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
use crate::rules::{
    LEXICON_LONG_WINDOWS, LEXICON_MIN_WEIGHT, LEXICON_NEGATORS, LEXICON_PATTERNS, LEXICON_REFINE,
    LEXICON_RETRY_INVITATIONS, LEXICON_RUNS, LEXICON_SHORT_WINDOWS, LEXICON_WEIGHTS,
};
use crate::taxonomy::{Code, TABLE};
use crate::text::Literals;

/// At most this many bytes of an error's text are read: the words that name
/// a failure come early, and a long page says nothing more.
const MAX_TEXT: usize = 16 * 1024;
/// How deep into a body the reader looks for texts.
const MAX_DEPTH: usize = 8;
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

    /// The other code the words name as heavily, when they are heavy enough
    /// to decide but tied.
    pub(crate) fn tied_with(&self) -> Option<Code> {
        if self.weight < LEXICON_MIN_WEIGHT || self.weight != self.rival {
            return None;
        }
        let own = index(self.code)?;
        (0..TABLE.len())
            .find(|&i| i != own && self.scores[i] == self.rival)
            .map(|i| TABLE[i].code)
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

/// The lexicon's rows: (pattern, code index, weight, retry verdict: 0 no,
/// 1 yes, −1 none), joined once from build.rs's text, weights and runs (the
/// rows up to each run's end share its code and verdict).
fn rows() -> &'static [(&'static str, u8, u8, i8)] {
    static ROWS: OnceLock<Vec<(&'static str, u8, u8, i8)>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut runs = LEXICON_RUNS.iter().peekable();
        LEXICON_PATTERNS
            .split('\n')
            .zip(LEXICON_WEIGHTS)
            .enumerate()
            .filter_map(|(i, (p, &w))| {
                while runs.next_if(|run| usize::from(run.0) <= i).is_some() {}
                let &&(_, c, r) = runs.peek()?;
                Some((p, c, w, r))
            })
            .collect()
    })
}

fn phrases() -> &'static Literals {
    static SET: OnceLock<Literals> = OnceLock::new();
    SET.get_or_init(|| Literals::new(rows().iter().map(|r| r.0).collect()))
}

/// The lexicon's gapped phrases (`no _ found`): each row's head (` no`) and
/// tail (`found `).
fn gapped() -> &'static [(usize, &'static str, &'static str)] {
    static SET: OnceLock<Vec<(usize, &'static str, &'static str)>> = OnceLock::new();
    SET.get_or_init(|| {
        rows()
            .iter()
            .enumerate()
            .filter_map(|(row, r)| crate::text::split_once(r.0, " _ ").map(|(h, t)| (row, h, t)))
            .collect()
    })
}

/// Where the gapped phrases are in `words`: the head as a whole word, one to
/// four words of any kind, and the tail, all within one text.
fn find_gapped(words: &str, hits: &mut Vec<(usize, usize, usize)>) {
    for &(row, head, tail) in gapped() {
        let mut from = 0;
        while let Some(at) = crate::text::find(&words[from..], head) {
            let start = from + at;
            from = start + 1;
            let mut pos = start + head.len();
            if !words[pos..].starts_with(' ') {
                continue;
            }
            for _ in 0..4 {
                // Skip one word (and the space after it); never past a text's end.
                let rest = &words[pos + 1..];
                let Some(len) = rest.find(' ') else { break };
                if len == 0 || rest[..len].contains(BREAK) {
                    break;
                }
                pos += 1 + len;
                if words[pos + 1..].starts_with(tail) {
                    hits.push((start, pos + 1 + tail.len(), row));
                    break;
                }
            }
        }
    }
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
        // Letters outside ASCII are small letters here (capitals of Latin-1,
        // Greek and Cyrillic become them, `form::small_letter`).
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
    // A URL's query string (`?status=suspended&per=day`) names what was
    // asked for, not what failed: its words are not read (`unread`). The
    // path is, unless it stands alone (below).
    let (mut in_url, mut unread) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_whitespace() || matches!(c, '"' | '<' | '>' | '`') {
            (in_url, unread) = (false, false);
        } else if !in_url
            && (c == 'h' || c == 'H')
            && (i == 0 || !chars[i - 1].is_ascii_alphanumeric())
        {
            // `http://` or `https://`, in any case, without a copy.
            let at = |k: usize, want: char| {
                chars
                    .get(i + k)
                    .is_some_and(|c| c.eq_ignore_ascii_case(&want))
            };
            let from = |k: usize, s: &str| s.chars().enumerate().all(|(n, w)| at(k + n, w));
            in_url = from(0, "http") && (from(4, "://") || from(4, "s://"));
        } else if in_url && c == '?' {
            unread = true;
        } else if !in_url
            && c == '/'
            && (i == 0 || chars[i - 1].is_ascii_whitespace())
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric())
            && chars[i + 1..]
                .iter()
                .take_while(|n| !n.is_ascii_whitespace())
                .any(|&n| n == '/')
        {
            // A path on its own, two segments or more (`with url:
            // /v2/aggs/range/1/day/…`, as urllib3 writes it), names what was
            // asked for, not what failed; `10000 /day` is still read.
            (in_url, unread) = (true, true);
        }
        if c == '\'' || c == '’' {
            continue;
        }
        let k = if unread { Class::Other } else { class(c) };
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
        out.push(crate::rules::form::small_letter(c));
        prev = k;
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
}

/// Keys whose values name or describe a failure.
fn is_text_key(key: &str) -> bool {
    const PARTS: &str = lines![
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
    const NEVER: &str = lines![
        "stack", "trace", "url", "uri", "href", "path", "request", "hostname", "username", "file",
        "tool", "suggest",
    ];
    // Short or foreign names of a message, matched whole: Go's `err`, the
    // `info` of apilayer's APIs, a CLI's `stderr`, Spanish and Portuguese
    // APIs' `descripcion`, `mensaje`, `mensagem`, `erro`, and the `content`
    // of a body that says it failed (zen-mcp-server's `{"status": "error",
    // "content": "Model 'gpt-5' is not available …"}`).
    const WHOLE: &str = lines![
        "err",
        "info",
        "hint",
        "note",
        "stderr",
        "descripcion",
        "mensaje",
        "mensagem",
        "erro",
        "content",
    ];
    let k = key.to_ascii_lowercase();
    let has = |p: &str| crate::text::contains(&k, p);
    (PARTS.split_terminator('\n').any(has) || crate::text::has_line(WHOLE, &k))
        && !NEVER.split_terminator('\n').any(has)
}

/// Keys whose object maps fields to their messages (Rails' and Laravel's
/// `errors: {email: ["has already been taken"]}`): every text in it is read,
/// whatever its field is called.
fn is_errors_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    matches!(
        k.as_str(),
        "errors" | "field_errors" | "fielderrors" | "validation_errors" | "validationerrors"
    )
}

/// Keys the reader does not descend into.
fn is_skipped(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    matches!(
        k.as_str(),
        "headers" | "stack" | "traceback" | "config" | "request" | "suggestions" | "original"
    )
}

/// The words of an error, identifiers first: a code, type, reason or class
/// name (one token, no spaces) says more than prose, and its phrases of
/// weight 2 or more weigh double.
pub(crate) struct Words {
    ids: String,
    prose: String,
}

impl Words {
    fn new() -> Words {
        Words {
            ids: String::from(" "),
            prose: String::from(" "),
        }
    }

    fn full(&self) -> bool {
        self.ids.len() + self.prose.len() >= MAX_TEXT
    }

    /// Push a text found under `key`. A class name (`name`, `exception`)
    /// counts as prose: `ServerError`, `HTTPError` name a family, not a
    /// failure.
    fn push(&mut self, text: &str, key: Option<&str>) {
        let t = text.trim();
        let class = key.is_some_and(|k| {
            let k = k.to_ascii_lowercase();
            k == "name"
                || k == "type"
                || crate::text::contains(&k, "exception")
                || crate::text::contains(&k, "class")
        });
        let identifier =
            !class && !t.is_empty() && t.len() <= 64 && !t.contains(char::is_whitespace);
        let out = if identifier {
            &mut self.ids
        } else {
            &mut self.prose
        };
        push_words(t, out);
        out.push(BREAK);
        out.push(' ');
    }
}

/// Header names whose values name a failure (`x-amzn-ErrorType`,
/// `:exception-type`, `X-Rate-Limit-Problem`, `grpc-message`).
fn is_error_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "error",
        "exception",
        "problem",
        "reason",
        "grpc-message",
        "grpc-status-details",
    ]
    .iter()
    .any(|p| crate::text::contains(&n, p))
}

/// Gather the texts of a value: strings under text keys, every string of a
/// `message`-like array, and string bodies.
fn gather(v: &Value<'_>, key: Option<&str>, depth: usize, out: &mut Words) {
    if out.full() || depth > MAX_DEPTH {
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
            // An XML error document: its code and message, not its markup.
            if let Some((code, message)) = crate::signals::xml_error(t) {
                out.push(code, Some("code"));
                if let Some(m) = message {
                    out.push(&m, Some("message"));
                }
                return;
            }
            if key.is_none_or(is_text_key) {
                out.push(s, key);
            }
        }
        Value::Array(items) => {
            for item in items.iter().take(16) {
                gather(item, key, depth + 1, out);
            }
        }
        Value::Object(m) if key.is_some_and(is_errors_key) => {
            for (_, v) in m.iter().take(16) {
                gather(v, None, depth + 1, out);
            }
        }
        Value::Object(m) => gather_map(m, depth, out),
        _ => {}
    }
}

fn gather_map(m: &Map<'_>, depth: usize, out: &mut Words) {
    for (k, v) in m.iter() {
        if k.eq_ignore_ascii_case("headers") {
            gather_headers(v, out);
        } else if !is_skipped(k) {
            let key = if k == "body" || k == "data" || k == "response" {
                None
            } else {
                Some(k)
            };
            gather(v, key, depth + 1, out);
        }
    }
}

/// The values of headers that name a failure, as an object or `[name, value]` pairs.
fn gather_headers(v: &Value<'_>, out: &mut Words) {
    match v {
        Value::Object(m) => {
            for (name, value) in m.iter().take(64) {
                if let (true, Some(text)) = (is_error_header(name), value.as_str()) {
                    out.push(text, None);
                }
            }
        }
        Value::Array(pairs) => {
            for pair in pairs.iter().take(64) {
                if let Value::Array(p) = pair {
                    if let (Some(name), Some(text)) = (
                        p.first().and_then(Value::as_str),
                        p.get(1).and_then(Value::as_str),
                    ) {
                        if is_error_header(name) {
                            out.push(text, None);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// The words of a raw error, its causes and members, its body and the
/// headers that name a failure.
pub(crate) fn words(root: &Map<'_>) -> Words {
    let mut out = Words::new();
    gather_map(root, 0, &mut out);
    out
}

/// Whether the words name a window of a day or more (`per day`, `TPD`,
/// `24 hours`): a rate limit over it is a spent quota.
pub(crate) fn long_window(words: &Words) -> Option<&'static str> {
    static SET: OnceLock<Literals> = OnceLock::new();
    window(words, &SET, LEXICON_LONG_WINDOWS)
}

/// Whether the words name a window of minutes or less (`per minute`, `per
/// 100 seconds`): a quota over it refills soon, a rate limit.
pub(crate) fn short_window(words: &Words) -> Option<&'static str> {
    static SET: OnceLock<Literals> = OnceLock::new();
    window(words, &SET, LEXICON_SHORT_WINDOWS)
}

/// Whether the words invite the caller to call again ("Please try again",
/// "retry later"), and with which words.
pub(crate) fn retry_invitation(words: &Words) -> Option<&'static str> {
    static SET: OnceLock<Literals> = OnceLock::new();
    window(words, &SET, LEXICON_RETRY_INVITATIONS).or_else(|| {
        // "Please try again." ending a text invites a call as it was made
        // (Firestore's "Too much contention on these documents. Please try
        // again.", Notion's conflict_error); "Please try again with a valid
        // ID" asks for another input, and is not read.
        [&words.ids, &words.prose]
            .iter()
            .any(|t| {
                t.split(BREAK)
                    .any(|text| text.ends_with(" please try again "))
            })
            .then_some("please try again")
    })
}

/// The first of `list`'s windows the words name; `set` holds `list`'s index.
fn window(
    words: &Words,
    set: &OnceLock<Literals>,
    list: &'static [&'static str],
) -> Option<&'static str> {
    let set = set.get_or_init(|| Literals::new(list.to_vec()));
    [&words.ids, &words.prose]
        .iter()
        .find_map(|t| set.find_all(t).first().map(|&(_, _, i)| list[i].trim()))
}

/// What the lexicon reads in an error's words.
///
/// `status` is the HTTP status the error carries, if any: its own reason
/// phrase (`Forbidden` for 403, in a class name such as google-api-core's
/// `Forbidden`) restates it and is no evidence of its own. Status 0: any
/// reason phrase restates the signal read (a class named after a status,
/// `InternalServerError`, without the status itself).
pub(crate) fn read(words: &Words, status: Option<u16>) -> Option<Verdict> {
    let text = [words.ids.as_str(), words.prose.as_str()].concat();
    read_text(&text, words.ids.len(), status)
}

/// What the lexicon reads in `words` (as [`push_words`] gives them); a
/// phrase that starts before `ids_end` is in an identifier and weighs double.
fn read_text(words: &str, ids_end: usize, status: Option<u16>) -> Option<Verdict> {
    // Every phrase found, overlapping: (start, end, row).
    let mut hits = phrases().find_all(words);
    find_gapped(words, &mut hits);
    if let Some(s) = status {
        // Nor is a phrase that names the status ("429 error" of a 429).
        let rows = rows();
        hits.retain(|&(_, _, row)| {
            let phrase = rows[row].0.trim();
            !crate::signals::is_reason_of(s, phrase)
                && !phrase.split(' ').any(|w| w.parse() == Ok(s))
        });
    }
    if hits.is_empty() {
        return None;
    }
    // "no … found", "no … provided": what the gap names is missing, and a
    // phrase of another code in it that weighs as much says what that is
    // ("No API key found" is a missing credential, not a missing resource).
    let rows = rows();
    let mut i = 0;
    while let Some(&(s, e, row)) = hits.get(i) {
        let (pattern, code, weight, _) = rows[row];
        let vaguer = pattern.starts_with(" no _ ")
            && hits
                .iter()
                .any(|&(ps, pe, p)| ps >= s && pe <= e && rows[p].1 != code && rows[p].2 >= weight);
        if vaguer {
            hits.swap_remove(i);
        } else {
            i += 1;
        }
    }
    // A phrase inside a longer phrase found at the same place does not count:
    // by start, longest first, a hit is inside an earlier one when that one
    // ends after it, or ends with it but starts before it.
    crate::sort::sort_by_key(&mut hits, |&(s, e, row)| (s, std::cmp::Reverse(e), row));
    let mut reach: Option<(usize, usize)> = None; // (end, start) of the farthest-reaching hit so far
    hits.retain(|&(s, e, _)| {
        let inside = reach.is_some_and(|(re, rs)| re > e || (re == e && rs < s));
        if reach.is_none_or(|(re, _)| e > re) {
            reach = Some((e, s));
        }
        !inside
    });
    // Two phrases of one code over the same words count once (a gap's
    // `rate _ exceeded` over `rate limit exceeded`).
    hits.dedup_by_key(|&mut (s, e, row)| (s, e, rows[row].1));
    // Nor does a phrase right after a negator: ` not rate limited`.
    hits.retain(|&(s, _, _)| {
        let before = words[..s].trim_end_matches(' ');
        let last = before.rsplit([' ', BREAK]).next().unwrap_or("");
        !LEXICON_NEGATORS.contains(&last)
    });
    let mut scores = vec![0u32; TABLE.len()];
    // Each phrase counts once, however often it appears.
    let mut seen = vec![false; rows.len()];
    let mut best: Vec<Option<usize>> = vec![None; TABLE.len()];
    for &(start, _, row) in &hits {
        if std::mem::replace(&mut seen[row], true) {
            continue;
        }
        let (_, code, weight, _) = rows[row];
        let c = usize::from(code);
        // A supporting word (weight 1) never decides alone, not even in an identifier.
        let factor = if start < ids_end && weight > 1 { 2 } else { 1 };
        scores[c] += u32::from(weight) * factor;
        if best[c].is_none_or(|b| rows[b].2 < weight) {
            best[c] = Some(row);
        }
    }
    let (top, &weight) = scores
        .iter()
        .enumerate()
        .max_by_key(|&(i, w)| (*w, usize::MAX - i))?;
    let row = best[top]?;
    // Supporting words only support: a code with none but them is no rival
    // to one a clear phrase names ("connect" and "connection" beside "before
    // you can").
    let clear = |i: usize| best[i].is_some_and(|b| rows[b].2 > 1);
    let rival = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != top && (clear(i) || !clear(top)))
        .map(|(_, w)| *w)
        .max()
        .unwrap_or(0);
    let (pattern, _, _, retry) = rows[row];
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

    #[test]
    fn a_url_s_query_is_not_read() {
        assert_eq!(
            words_of("GET https://api.render.com/v1/services?suspended=suspended&limit=20 failed"),
            " get https api render com v 1 services failed "
        );
        // Its path is, and a question mark outside a URL ends nothing.
        assert_eq!(words_of("Why? Not found"), " why not found ");
        assert_eq!(
            words_of("(HTTPS://x.io/day?per=day) then day"),
            " https x io day then day "
        );
    }

    #[test]
    fn a_path_alone_is_not_read() {
        // urllib3's "Max retries exceeded with url: /path": a path of two
        // segments or more, after a space, names what was asked for.
        assert_eq!(
            words_of(
                "with url: /v2/aggs/range/1/day/2025 (Caused by too many 429 error responses)"
            ),
            " with url caused by too many 429 error responses "
        );
        // One segment is a word of its own ("10000 /day"), and a slash inside a word splits it.
        assert_eq!(words_of("10000 /day"), " 10000 day ");
        assert_eq!(
            words_of("requests/day and a/b/c"),
            " requests day and a b c "
        );
    }

    fn code_of(s: &str) -> Option<Code> {
        read_text(&words_of(s), 0, None)
            .filter(Verdict::decides)
            .map(|v| v.code)
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
        // A class name is prose; a code or a reason is an identifier.
        assert!(w.prose.contains(" gaxios error "), "{:?}", w.prose);
        assert!(w.ids.contains(" invalid grant "), "{:?}", w.ids);
        assert!(w.ids.contains(" no node "), "{:?}", w.ids);
        // `invalid grant` and `no node` weigh the same: a tie decides nothing.
        assert!(!read(&w, None).unwrap().decides());
    }

    #[test]
    fn a_type_is_prose_and_a_field_s_errors_are_read_whatever_the_field() {
        let root = crate::input::parse(
            r#"{"body": {"type": "invalid_state", "errors": {"email": ["has already been taken"], "id": 7}, "info": "Access Restricted", "referrer": "x y"}}"#,
        )
        .unwrap();
        let Value::Object(m) = root else { panic!() };
        let w = words(&m);
        assert!(w.prose.contains(" invalid state "), "{:?}", w.prose);
        assert!(!w.ids.contains(" invalid state "), "{:?}", w.ids);
        // Rails' and Laravel's map of a field to its messages, and an `info` text.
        assert!(
            w.prose.contains(" has already been taken "),
            "{:?}",
            w.prose
        );
        assert!(w.prose.contains(" access restricted "), "{:?}", w.prose);
        // A field of any other name is not a message.
        assert!(!w.prose.contains(" x y "), "{:?}", w.prose);
    }

    #[test]
    fn a_negated_or_contained_phrase_does_not_count() {
        assert_eq!(code_of("the request was not rate limited"), None);
        // "unauthorized" inside "unauthorized recipient" gives no UNAUTHENTICATED.
        let v = read_text(
            &words_of("Sandbox subdomains are for test purposes only: unauthorized recipient"),
            0,
            None,
        )
        .unwrap();
        assert_eq!(v.weight_of(Code::Unauthenticated), 0);
    }

    #[test]
    fn what_a_no_gap_names_says_what_is_missing() {
        // `no _ found` around "no api key": a missing credential.
        assert_eq!(
            code_of("No API key found in request"),
            Some(Code::Unauthenticated)
        );
        // A weaker word in the gap leaves the gap to decide.
        assert_eq!(code_of("No matching projects found"), Some(Code::NotFound));
    }

    #[test]
    fn a_gap_stands_for_one_to_four_words_of_one_text() {
        assert_eq!(code_of("No projects found"), Some(Code::NotFound));
        assert_eq!(
            code_of("No CloudWAN core networks found in the region"),
            Some(Code::NotFound)
        );
        // Five words between, or none: no match.
        assert_eq!(code_of("no one of these five words found"), None);
        assert_eq!(code_of("no found"), None);
        // Never across two texts.
        let mut w = String::from(" ");
        push_words("no modules", &mut w);
        w.push(BREAK);
        w.push(' ');
        push_words("found", &mut w);
        assert_eq!(read_text(&w, 0, None), None);
    }

    #[test]
    fn capitals_of_latin_greek_and_cyrillic_read_as_small_letters() {
        use crate::rules::form::small_letter;
        assert_eq!(small_letter('Д'), 'д');
        assert_eq!(small_letter('Ё'), 'ё');
        assert_eq!(small_letter('Ç'), 'ç');
        assert_eq!(small_letter('×'), '×');
        assert_eq!(small_letter('Σ'), 'σ');
        assert_eq!(small_letter('ł'), 'ł');
        assert_eq!(small_letter('已'), '已');
        for text in [
            "Доступ запрещен",
            "ДОСТУП ЗАПРЕЩЕН",
            "ошибка: доступ запрещен",
        ] {
            assert_eq!(code_of(text), Some(Code::PermissionDenied), "{text}");
        }
    }

    #[test]
    fn a_phrase_in_a_script_without_spaces_matches_inside_a_word() {
        // Zhipu's 1113: "insufficient balance or no resource package, please top up".
        assert_eq!(
            code_of("余额不足或无可用资源包,请充值。"),
            Some(Code::QuotaExhausted)
        );
        // Joined to an ASCII word: "Authorization Token已过期" (token expired).
        assert_eq!(
            code_of("Authorization Token已过期"),
            Some(Code::Unauthenticated)
        );
    }

    #[test]
    fn a_status_s_own_reason_phrase_is_no_evidence() {
        // google-api-core's `Forbidden` class under a 403 restates the status;
        // the message's words decide.
        let w = words_of("google api core exceptions forbidden 403 exceeded rate limits");
        assert_eq!(read_text(&w, 0, None).map(|v| v.decides()), Some(false));
        let v = read_text(&w, 0, Some(403)).unwrap();
        assert!(v.decides());
        assert_eq!(v.code, Code::RateLimited);
        // Nor does a phrase that names the status: ModelScope's "Error code:
        // 429 - {'error': …}" under a 429 reads "429 error".
        let w = words_of("Error code: 429 - {'error': {'message': 'insufficient balance'}}");
        assert_eq!(read_text(&w, 0, None).map(|v| v.decides()), Some(false));
        assert_eq!(
            read_text(&w, 0, Some(429)).unwrap().code,
            Code::QuotaExhausted
        );
    }

    #[test]
    fn a_gap_over_a_phrase_of_its_code_counts_once() {
        // `rate _ exceeded` and `rate limit exceeded` read the same words.
        let w = words_of("rate limit exceeded subscribe to a paid plan");
        let v = read_text(&w, 0, None).unwrap();
        assert_eq!(v.weight_of(Code::RateLimited), 3);
        let w = words_of("request rate threshold exceeded");
        assert_eq!(read_text(&w, 0, None).unwrap().code, Code::RateLimited);
    }

    #[test]
    fn refinement_follows_the_table() {
        assert!(refines(Code::InvalidArgument, Code::NotFound));
        assert!(refines(Code::PermissionDenied, Code::RateLimited));
        assert!(!refines(Code::NotFound, Code::InvalidArgument));
        assert!(!refines(Code::RateLimited, Code::InvalidArgument));
    }
}
