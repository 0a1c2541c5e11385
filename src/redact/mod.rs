//! Redaction and bounds: nothing secret reaches the model or the log, and
//! nothing unbounded reaches the wire.
//!
//! Every function here runs in time linear in its input: a single forward scan
//! with fixed look-ahead, no regular expressions, no backtracking. What is
//! removed is replaced by a marker that says what it was, e.g.
//! `[REDACTED:github-token]`.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::text::find_bytes;

mod formats;
mod keywords;

/// The longest message kept, in characters (the default of [`Limits::max_message_chars`]).
pub const MAX_MESSAGE_CHARS: usize = 2_000;
/// The longest string kept inside details and upstream bodies, in characters
/// (the default of [`Limits::max_string_chars`]).
pub const MAX_STRING_CHARS: usize = 4_000;
/// The deepest nesting kept inside details and upstream bodies (the default of
/// [`Limits::max_depth`]).
pub const MAX_VALUE_DEPTH: usize = 8;
/// The most members kept per object or array inside details and bodies (the
/// default of [`Limits::max_members`]).
pub const MAX_MEMBERS: usize = 100;
/// How every cut text ends: `…[truncated N chars]` or `…[truncated; N bytes in all]`.
const TRUNCATION_MARK: &str = "…[truncated";
/// The largest rendered output aimed at (the default of
/// [`Limits::max_rendered_bytes`]): past it, details and the upstream original
/// are dropped (and said to be).
pub const MAX_RENDERED_BYTES: usize = 64 * 1024;

/// Bounds on what is kept and rendered. `Default` gives the documented
/// defaults; every field has an accepted range ([`Limits::RANGES`]) and a
/// value outside it is an [`Error::InvalidOption`](crate::Error), never a
/// silent change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest message, in characters. Default 2 000; 16 to 100 000.
    pub max_message_chars: usize,
    /// The longest string inside details and the upstream original (the body
    /// excerpt), in characters. Default 4 000; 16 to 1 000 000.
    pub max_string_chars: usize,
    /// The deepest nesting kept inside details and the upstream original.
    /// Default 8; 1 to 32.
    pub max_depth: usize,
    /// The most members kept per object or array inside details and the
    /// upstream original. Default 100; 1 to 10 000.
    pub max_members: usize,
    /// The largest rendered output, in bytes: past it, details and the
    /// upstream original are dropped and a note says so. Default 65 536;
    /// 1 024 to 16 777 216.
    pub max_rendered_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_chars: MAX_MESSAGE_CHARS,
            max_string_chars: MAX_STRING_CHARS,
            max_depth: MAX_VALUE_DEPTH,
            max_members: MAX_MEMBERS,
            max_rendered_bytes: MAX_RENDERED_BYTES,
        }
    }
}

impl Limits {
    /// Each field's public name (snake_case, as in JSON options) and its
    /// accepted range, in declaration order.
    pub const RANGES: [(&'static str, usize, usize); 5] = [
        ("max_message_chars", 16, 100_000),
        ("max_string_chars", 16, 1_000_000),
        ("max_depth", 1, 32),
        ("max_members", 1, 10_000),
        ("max_rendered_bytes", 1_024, 16 * 1024 * 1024),
    ];

    fn fields_mut(&mut self) -> [&mut usize; 5] {
        [
            &mut self.max_message_chars,
            &mut self.max_string_chars,
            &mut self.max_depth,
            &mut self.max_members,
            &mut self.max_rendered_bytes,
        ]
    }

    /// Set the field named `name` (snake_case), checking its range.
    pub fn set(&mut self, name: &str, value: u64) -> Result<(), crate::Error> {
        let Some(i) = Self::RANGES.iter().position(|(n, _, _)| *n == name) else {
            return Err(crate::Error::InvalidOption(format!(
                "unknown limit {}; expected one of: {}",
                crate::json::quoted(name),
                Self::RANGES.map(|(n, _, _)| n).join(", ")
            )));
        };
        Self::check(i, value)?;
        *self.fields_mut()[i] = value as usize;
        Ok(())
    }

    /// Whether `value` is in the range of field `i` of [`Limits::RANGES`].
    fn check(i: usize, value: u64) -> Result<(), crate::Error> {
        let (name, lo, hi) = Self::RANGES[i];
        if value < lo as u64 || value > hi as u64 {
            return Err(crate::Error::InvalidOption(format!(
                "limit {} is {value}; it must be from {lo} to {hi}",
                crate::json::quoted(name)
            )));
        }
        Ok(())
    }

    /// These limits if every field is in range, else the typed error for the
    /// first that is not.
    pub fn checked(self) -> Result<Limits, crate::Error> {
        let mut me = self;
        for (i, value) in me.fields_mut().into_iter().enumerate() {
            Self::check(i, *value as u64)?;
        }
        Ok(self)
    }

    /// These limits with every field pulled into its range (for the
    /// infallible entry points).
    pub fn clamped(self) -> Limits {
        let mut me = self;
        for (i, value) in me.fields_mut().into_iter().enumerate() {
            let (_, lo, hi) = Self::RANGES[i];
            *value = (*value).clamp(lo, hi);
        }
        me
    }

    /// Parse limits given as a JSON object in snake_case
    /// (`{"max_message_chars":500}`); absent or null fields keep their defaults.
    pub fn from_json_value(v: &Value) -> Result<Limits, crate::Error> {
        let Value::Object(map) = v else {
            return Err(crate::Error::InvalidOption(
                "\"limits\" must be a JSON object".into(),
            ));
        };
        let mut out = Limits::default();
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            let n = value.as_u64().ok_or_else(|| {
                crate::Error::InvalidOption(format!(
                    "limit {} must be a non-negative integer",
                    crate::json::quoted(key)
                ))
            })?;
            out.set(key, n)?;
        }
        Ok(out)
    }
}

/// Keys whose values are secrets wherever they appear (compared without case,
/// `-` or `_`): an exact match, or a name that contains one of `SENSITIVE_PARTS`.
const SENSITIVE_KEYS: &str = lines![
    "authorization",
    "proxyauthorization",
    "cookie",
    "setcookie",
    "xapikey",
    "apikey",
    "key",
    "password",
    "passwd",
    "pwd",
    "secret",
    "clientsecret",
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "session",
    "sessionid",
    "csrf",
    "xsrf",
    "csrftoken",
    "xcsrftoken",
    "privatekey",
    "credentials",
    "credential",
    "signature",
    "sig",
    "xamzsignature",
    "xamzcredential",
    "xamzsecuritytoken",
];
const SENSITIVE_PARTS: &str = lines![
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "authorization",
    "cookie",
    "session",
    "csrf",
    "xsrf",
    "privatekey",
    "credential",
    "signature",
];

/// `k` without case, `-`, `_` or spaces, in a stack buffer (keys past 64 bytes are never sensitive).
fn normalize_key(k: &str, buf: &mut [u8; 64]) -> Option<usize> {
    let mut n = 0;
    for b in k.bytes() {
        if matches!(b, b'-' | b'_' | b' ') {
            continue;
        }
        *buf.get_mut(n)? = b.to_ascii_lowercase();
        n += 1;
    }
    Some(n)
}

/// Whether a field or header name holds a secret.
pub fn is_sensitive_key(k: &str) -> bool {
    let mut buf = [0u8; 64];
    let Some(n) = normalize_key(k, &mut buf) else {
        return false;
    };
    let key = &buf[..n];
    SENSITIVE_KEYS
        .split_terminator('\n')
        .any(|s| s.as_bytes() == key)
        || SENSITIVE_PARTS
            .split_terminator('\n')
            .any(|p| find_bytes(key, p.as_bytes()).is_some())
        || keywords::is_credential_name(k)
}

/// Whether a `name=value` pair holds a credential: a sensitive key, or the
/// `auth` parameter (too short a word to count as a key anywhere else).
fn is_sensitive_param(k: &str) -> bool {
    let mut buf = [0u8; 64];
    is_sensitive_key(k) || normalize_key(k, &mut buf).is_some_and(|n| &buf[..n] == b"auth")
}

fn is_token_char(b: u8) -> bool {
    TOKEN_CHARS[usize::from(b)]
}

/// `[A-Za-z0-9_-]` as a table: redaction asks for every byte of every word.
static TOKEN_CHARS: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    t
};

// Classes of [`REDACT_CLASS`].
const PLAIN_WORD: u8 = 0;
const PLAIN_OTHER: u8 = 1;
const LOOK: u8 = 2;

/// For `redact_cow`: the word bytes that no token shape (`secret_at`) or
/// credential scheme (`bearer `, `basic `, `token `) starts with
/// (`PLAIN_WORD`), the other bytes but `:` and `=` (`PLAIN_OTHER`), and the
/// rest, which are looked at closely (`LOOK`).
static REDACT_CLASS: [u8; 256] = {
    let mut t = [PLAIN_OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if TOKEN_CHARS[b] {
            t[b] = PLAIN_WORD;
        }
        if starts_a_shape(c) || matches!(c, b'b' | b'B' | b't' | b'T' | b':' | b'=') {
            t[b] = LOOK;
        }
        b += 1;
    }
    t
};

/// The length of the run at `s[i..]` of bytes that satisfy `f`.
fn run_len(s: &[u8], i: usize, f: impl Fn(u8) -> bool) -> usize {
    let mut j = i;
    while j < s.len() && f(s[j]) {
        j += 1;
    }
    j - i
}

/// Whether some token shape of `secret_at` starts with the byte `c`.
const fn starts_a_shape(c: u8) -> bool {
    matches!(
        c,
        b'A' | b'g' | b'x' | b'h' | b'H' | b's' | b'r' | b'w' | b'n' | b'e' | b'-'
    )
}

/// A secret that starts at byte `i`: its length and its kind.
fn secret_at(s: &[u8], i: usize) -> Option<(usize, &'static str)> {
    let rest = &s[i..];
    let starts =
        |p: &str| rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p.as_bytes());
    // A token must start at a word boundary, with a byte some shape starts with.
    if i > 0 && is_token_char(s[i - 1]) {
        return None;
    }
    if !starts_a_shape(rest[0]) {
        return None;
    }
    let alnum = |b: u8| b.is_ascii_alphanumeric();
    let tok = |b: u8| is_token_char(b);
    const AWS: &[&str] = &[
        "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA",
    ];
    if AWS.iter().any(|p| rest.starts_with(p.as_bytes())) {
        let n = run_len(s, i, |b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if n == 20 {
            return Some((n, "aws-access-key"));
        }
    }
    // One of `prefixes`, then at least `min` alphanumerics: the whole length.
    let prefixed = |prefixes: &[&str], min: usize| {
        prefixes.iter().find_map(|p| {
            if !rest.starts_with(p.as_bytes()) {
                return None;
            }
            let n = p.len() + run_len(s, i + p.len(), alnum);
            (n >= p.len() + min).then_some(n)
        })
    };
    if let Some(n) = prefixed(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], 30) {
        return Some((n, "github-token"));
    }
    if rest.starts_with(b"github_pat_") {
        let n = run_len(s, i, |b| b.is_ascii_alphanumeric() || b == b'_');
        if n >= 40 {
            return Some((n, "github-token"));
        }
    }
    for p in [
        "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xapp-",
    ] {
        if rest.starts_with(p.as_bytes()) {
            let n = run_len(s, i, tok);
            if n >= p.len() + 10 {
                return Some((n, "slack-token"));
            }
        }
    }
    if starts("https://hooks.slack.com/") {
        let n = run_len(s, i, |b| {
            !b.is_ascii_whitespace() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b')')
        });
        return Some((n, "slack-webhook"));
    }
    if let Some(n) = prefixed(
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
        10,
    ) {
        return Some((n, "stripe-key"));
    }
    if rest.starts_with(b"sk-") {
        // OpenAI (sk-…, sk-proj-…) and Anthropic (sk-ant-…) keys.
        let n = run_len(s, i, tok);
        if n >= 23 {
            let kind = if rest.starts_with(b"sk-ant-") {
                "anthropic-key"
            } else {
                "openai-key"
            };
            return Some((n, kind));
        }
    }
    if rest.starts_with(b"AIza") {
        let n = run_len(s, i, tok);
        if n >= 35 {
            return Some((n, "google-api-key"));
        }
    }
    if rest.starts_with(b"glpat-") {
        let n = run_len(s, i, tok);
        if n >= 26 {
            return Some((n, "gitlab-token"));
        }
    }
    if let Some(n) = prefixed(&["npm_"], 36) {
        return Some((n, "npm-token"));
    }
    if rest.starts_with(b"eyJ") {
        // header.payload[.signature], base64url.
        let b64 = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'=');
        let h = run_len(s, i, b64);
        if h >= 10 && s.get(i + h) == Some(&b'.') {
            let p = run_len(s, i + h + 1, b64);
            if p >= 4 {
                let mut n = h + 1 + p;
                if s.get(i + n) == Some(&b'.') {
                    n += 1 + run_len(s, i + n + 1, b64);
                }
                return Some((n, "jwt"));
            }
        }
    }
    if rest.starts_with(b"-----BEGIN ") {
        let line_end = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
        let header = &rest[..line_end.min(80)];
        if find_bytes(header, b"PRIVATE KEY").is_some() {
            let end = find_bytes(rest, b"-----END ")
                .map(|e| {
                    let after = &rest[e + 9..];
                    e + 9 + find_bytes(after, b"-----").map_or(after.len(), |x| x + 5)
                })
                .unwrap_or(rest.len());
            return Some((end, "private-key"));
        }
    }
    None
}

/// Redact secrets in free text: known token shapes, `Bearer` / `Basic`
/// credentials, URL userinfo, credential query parameters and `key=value`
/// pairs with a sensitive key.
pub fn redact_text(text: &str) -> String {
    redact_cow(text).into_owned()
}

/// [`redact_text`], borrowing the text when nothing is redacted (most texts):
/// the built-in token shapes, schemes, userinfo and `name=value` pairs
/// first, then every format of `rules/credentials.json`, then the generic
/// detectors (a credential name before a value, flags, AWS secret keys).
fn redact_cow(text: &str) -> Cow<'_, str> {
    let listed = replace_spans(Cow::Borrowed(text), formats::find, true);
    let shaped = match listed {
        Cow::Borrowed(t) => redact_shapes(t),
        Cow::Owned(t) => Cow::Owned(redact_shapes(&t).into_owned()),
    };
    replace_spans(shaped, keywords::find, false)
}

/// `text` with each span `find` gives replaced by a marker: `[REDACTED:ID]`
/// with `named`, else `[REDACTED]`; borrowed when there is none.
fn replace_spans<'t>(
    text: Cow<'t, str>,
    find: fn(&str) -> Vec<(usize, usize, &'static str)>,
    named: bool,
) -> Cow<'t, str> {
    let spans = find(&text);
    if spans.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (start, end, id) in spans {
        out.push_str(&text[copied..start]);
        out.push_str("[REDACTED");
        if named {
            out.push(':');
            out.push_str(id);
        }
        out.push(']');
        copied = end;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// The built-in token shapes, `Bearer` / `Basic` credentials, URL userinfo
/// and `name=value` pairs with a sensitive name.
fn redact_shapes(text: &str) -> Cow<'_, str> {
    let s = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0; // bytes of `text` already in `out`
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        // What the checks below would do with most bytes, at once: a word
        // that starts with a byte no shape or scheme starts with is skipped
        // whole, a byte that is neither a word byte, `:` nor `=` is passed.
        match REDACT_CLASS[usize::from(b)] {
            PLAIN_WORD => {
                i += run_len(s, i, is_token_char);
                continue;
            }
            PLAIN_OTHER => {
                i += 1;
                while i < s.len() && !text.is_char_boundary(i) {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        let at = i;
        // Known token shapes.
        if b.is_ascii_alphanumeric() || b == b'-' {
            if let Some((n, kind)) = secret_at(s, i) {
                out.push_str(&text[copied..i]);
                out.push_str("[REDACTED:");
                out.push_str(kind);
                out.push(']');
                i += n;
                copied = i;
                continue;
            }
        }
        // `Bearer <credential>` / `Basic <credential>`.
        let schemes: &[&str] = match b {
            b'b' | b'B' => &["bearer ", "basic "],
            b't' | b'T' => &["token "],
            _ => &[],
        };
        for scheme in schemes {
            let rest = &s[i..];
            if rest.len() > scheme.len()
                && rest[..scheme.len()].eq_ignore_ascii_case(scheme.as_bytes())
                && (i == 0 || !is_token_char(s[i - 1]))
            {
                let start = i + scheme.len();
                let n = run_len(s, start, |b| {
                    is_token_char(b) || matches!(b, b'.' | b'=' | b'+' | b'/' | b'~')
                });
                // A sentence's stop ends the credential, and a short word of
                // letters is no credential: "Token invalid." says a token is wrong.
                let v = s[start..start + n].trim_ascii_end();
                let v = v.strip_suffix(b".").unwrap_or(v);
                let word = v.len() < 20
                    && v.iter().all(u8::is_ascii_alphabetic)
                    && !keywords::has_capital_after_small(v);
                if n >= 8 && !word {
                    out.push_str(&text[copied..start]);
                    out.push_str("[REDACTED:credential]");
                    i = start + n;
                    copied = i;
                }
            }
        }
        if i >= s.len() {
            break;
        }
        // Every shape above starts at a word boundary: the rest of a word
        // that matched nothing cannot hold one, and the checks below look at
        // `:` and `=`, which are not word bytes.
        if i == at && is_token_char(b) {
            i += run_len(s, i, is_token_char);
            continue;
        }
        // URL userinfo: scheme://user:pass@host.
        if b == b':' && s[i..].starts_with(b"://") {
            let start = i + 3;
            let n = run_len(s, start, |b| {
                !matches!(
                    b,
                    b'/' | b'@' | b' ' | b'"' | b'\'' | b'?' | b'#' | b'\n' | b'<' | b'>'
                )
            });
            if s.get(start + n) == Some(&b'@') && n > 0 {
                out.push_str(&text[copied..start]);
                out.push_str("[REDACTED:userinfo]");
                i = start + n;
                copied = i;
                continue;
            }
        }
        // name=value in a query string or form body (after `?` or `&`) with a
        // sensitive name: the value ends at the next `&`. Elsewhere (`.env`,
        // logfmt, configuration) the generic detectors take the value to its
        // real end.
        if s[i] == b'=' && i > 0 {
            let name_len = s[..i]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
                .count();
            let name = &text[i - name_len..i];
            let in_query = i > name_len && matches!(s[i - name_len - 1], b'?' | b'&');
            if name_len > 0 && in_query && is_sensitive_param(name) {
                let start = i + 1;
                let n = run_len(s, start, |b| {
                    !matches!(
                        b,
                        b'&' | b' '
                            | b'"'
                            | b'\''
                            | b'\n'
                            | b'\r'
                            | b'\t'
                            | b','
                            | b';'
                            | b'<'
                            | b'>'
                            | b'#'
                    )
                });
                let value = &text[start..start + n];
                let numeric = value.bytes().all(|b| b.is_ascii_digit());
                if n > 0 && !numeric && !value.starts_with("[REDACTED") {
                    out.push_str(&text[copied..start]);
                    out.push_str("[REDACTED]");
                    i = start + n;
                    copied = i;
                    continue;
                }
            }
        }
        i += 1;
        while i < s.len() && !text.is_char_boundary(i) {
            i += 1;
        }
    }
    finish(text, out, copied)
}

/// The text with its replacements: `out` holds `text[..copied]` rewritten;
/// borrowed when nothing was replaced.
fn finish(text: &str, mut out: String, copied: usize) -> Cow<'_, str> {
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Cut a string to `max` characters, saying how much was cut.
/// A text already cut to `max` keeps its marker: cutting twice must not
/// count the first marker as the text it dropped.
pub fn truncate(text: &str, max: usize) -> String {
    // Every character is at least one byte.
    if text.len() <= max {
        return text.to_string();
    }
    // A mark ends the text with `]`.
    if let Some(at) = text
        .ends_with(']')
        .then(|| crate::text::rfind(text, TRUNCATION_MARK))
        .flatten()
    {
        let tail = &text[at + TRUNCATION_MARK.len()..];
        let count = |t: &str, unit: &str| {
            t.strip_suffix(unit)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let is_mark = tail.strip_prefix(' ').is_some_and(|t| count(t, " chars]"))
            || tail
                .strip_prefix("; ")
                .is_some_and(|t| count(t, " bytes in all]"));
        if is_mark && text[..at].chars().count() <= max {
            return text.to_string();
        }
    }
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) => {
            let dropped = text[cut..].chars().count();
            format!("{}{TRUNCATION_MARK} {dropped} chars]", &text[..cut])
        }
    }
}

/// [`truncate`] keeping the string itself when it is short enough (no copy).
pub(crate) fn truncate_owned(text: String, max: usize) -> String {
    if text.len() <= max {
        text
    } else {
        truncate(&text, max)
    }
}

/// [`bounded`] keeping the string itself when there is nothing to redact,
/// mask or cut (most strings: no copy).
pub(crate) fn bounded_owned(s: String, for_model: bool, max: usize) -> String {
    let unchanged = s.len() <= max
        && matches!(redact_cow(&s), Cow::Borrowed(_))
        && (!for_model || matches!(mask_cow(&s), Cow::Borrowed(_)));
    if unchanged {
        s
    } else {
        bounded(&s, for_model, max)
    }
}

/// [`strip_stack`] keeping the message itself (trimmed in place) when it is
/// one line (most messages: no copy).
pub(crate) fn strip_stack_owned(mut message: String) -> String {
    if message.contains('\n')
        || crate::text::contains(&message, "Traceback (most recent call last):")
    {
        return strip_stack(&message);
    }
    // One line: `lines()` gives it whole (less a trailing `\r`, which the
    // final `trim_end` drops anyway); a frame goes, anything else is trimmed.
    let t = message.trim_start();
    if message.len() > t.len() && t.starts_with("at ") && (t.ends_with(')') || t.contains(':')) {
        return String::new();
    }
    let end = message.trim_end().len();
    message.truncate(end);
    message
}

/// Stack traces out of a message: JavaScript `    at f (file:1:2)` frames and
/// Python `Traceback (most recent call last):` blocks (keeping its last line,
/// the exception itself).
pub fn strip_stack(message: &str) -> String {
    if let Some(pos) = crate::text::find(message, "Traceback (most recent call last):") {
        let before = message[..pos].trim_end();
        // The exception is the last line that is not a frame: by preference
        // one that starts with its class (`NameError: …`), not markup or
        // text a server wrote after the traceback (`</error>`).
        let (mut last, mut class) = ("", None);
        for l in message[pos..].lines() {
            if !l.trim().is_empty() && !l.starts_with(' ') {
                last = l;
                if names_a_class(l) {
                    class = Some(l);
                }
            }
        }
        let last = class.unwrap_or(last).trim();
        return match (before.is_empty(), last.starts_with("Traceback")) {
            (true, false) => last.to_string(),
            (false, false) => format!("{before}: {last}"),
            (_, true) => before.to_string(),
        };
    }
    let mut kept: Vec<&str> = Vec::new();
    for line in message.lines() {
        let t = line.trim_start();
        if line.len() > t.len() && t.starts_with("at ") && (t.ends_with(')') || t.contains(':')) {
            continue;
        }
        kept.push(line);
    }
    kept.join("\n").trim_end().to_string()
}

/// Whether a line starts with a (dotted) class name, alone or before a
/// colon, as Python's last traceback line does (`KeyError: 'id'`,
/// `requests.exceptions.ConnectionError: …`).
fn names_a_class(line: &str) -> bool {
    let name = line.split(':').next().unwrap_or("");
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Local file paths in model-facing text become `[path]`.
pub fn mask_paths(text: &str) -> String {
    mask_cow(text).into_owned()
}

/// [`mask_paths`], borrowing the text when no path is found (most texts).
fn mask_cow(text: &str) -> Cow<'_, str> {
    const PREFIXES: &str = lines![
        "/home/",
        "/Users/",
        "/root/",
        "/tmp/",
        "/var/",
        "/etc/",
        "/opt/",
        "/usr/",
        "/srv/",
        "/mnt/",
        "/proc/",
        "/private/",
        "/app/",
        "/workspace/",
        "/work/",
        "/data/",
        "~/",
        "file://",
    ];
    let s = text.as_bytes();
    // Every prefix has a `/`, a drive path a `\\`: most texts stop here.
    if crate::text::find_slash(s).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0
            || matches!(
                s[i - 1],
                b' ' | b'\'' | b'"' | b'(' | b'\n' | b'\t' | b'=' | b',' | b'['
            );
        let rest = &text[i..];
        let path = boundary
            && match s[i] {
                b'/' | b'~' | b'f' => PREFIXES.split_terminator('\n').any(|p| rest.starts_with(p)),
                b => {
                    b.is_ascii_alphabetic()
                        && s.len() > i + 2
                        && s[i + 1] == b':'
                        && s[i + 2] == b'\\'
                }
            };
        if path {
            let n = run_len(s, i, |b| {
                !matches!(b, b' ' | b'\'' | b'"' | b')' | b'\n' | b'\t' | b',' | b']')
            });
            out.push_str(&text[copied..i]);
            out.push_str("[path]");
            i += n;
            copied = i;
            continue;
        }
        // Inside a word no byte follows a boundary byte: skip the word.
        if is_token_char(s[i]) {
            i += run_len(s, i, is_token_char);
            continue;
        }
        i += 1;
        while i < s.len() && !text.is_char_boundary(i) {
            i += 1;
        }
    }
    finish(text, out, copied)
}

/// Redact and bound a JSON value with the default [`Limits`]: sensitive keys
/// lose their values, strings are redacted and cut, nesting and member counts
/// are bounded. Recursion is bounded by the depth limit (at most 32), so no
/// input can exhaust the stack.
pub fn sanitize_value(v: &Value) -> Value {
    sanitize_value_with(v, false, &Limits::default())
}

/// [`sanitize_value`] for model-facing output: local paths masked too.
pub fn sanitize_value_for_model(v: &Value) -> Value {
    sanitize_value_with(v, true, &Limits::default())
}

/// [`sanitize_value`] with the given limits (pulled into range); with
/// `for_model`, local paths are masked too.
pub fn sanitize_value_with(v: &Value, for_model: bool, limits: &Limits) -> Value {
    let limits = limits.clamped();
    let max = limits.max_string_chars;
    sanitize(v, 0, &|s: &str| bounded(s, for_model, max), &limits)
}

/// A string redacted (and, for the model, path-masked) and cut to `max`
/// characters, saying so.
pub fn bounded(s: &str, for_model: bool, max: usize) -> String {
    let cut = pre_cut(s, max);
    let mut text = redact_cow(&cut);
    if for_model {
        if let Cow::Owned(masked) = mask_cow(&text) {
            text = Cow::Owned(masked);
        }
    }
    match cut {
        std::borrow::Cow::Borrowed(_) => truncate(&text, max),
        std::borrow::Cow::Owned(_) => {
            let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
            format!(
                "{}{TRUNCATION_MARK}; {} bytes in all]",
                &text[..end],
                s.len()
            )
        }
    }
}

/// A long string cut (with slack) before it is scanned, so a 10 MB body costs
/// what a few kilobytes do. `max` is the number of characters that will be
/// kept; the slack keeps a secret that straddles the final cut from being
/// half-scanned: whatever survives the final cut was scanned whole.
pub fn pre_cut(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    const SLACK: usize = 4 * 1024;
    let limit = max.saturating_mul(4).saturating_add(SLACK);
    if s.len() <= limit {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut cut = limit;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    std::borrow::Cow::Owned(s[..cut].to_string())
}

/// What a value nested past `max_depth` becomes.
const TOO_DEEP: &str = "[truncated: too deep]";

/// The key of the note an object cut to `max_members` carries.
const MEMBERS_NOTE: &str = "[truncated]";

/// Whether `s` is the note a cut list ends with: `[truncated N items]`.
fn is_items_note(s: &str) -> bool {
    s.strip_prefix("[truncated ")
        .and_then(|r| r.strip_suffix(" items]"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `s` is the value of an object's note: `N more members`.
fn is_members_note(s: &str) -> bool {
    s.strip_suffix(" more members")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn sanitize(v: &Value, depth: usize, text: &dyn Fn(&str) -> String, limits: &Limits) -> Value {
    let max_members = limits.max_members;
    match v {
        // A marker of an earlier cut is kept whole, whatever the string limit.
        Value::String(s) if s == TOO_DEEP => v.clone(),
        Value::String(s) => Value::String(text(s)),
        Value::Array(items) => {
            if depth >= limits.max_depth {
                return Value::String(TOO_DEEP.into());
            }
            // A header pair ["Authorization", "Bearer …"], or a flat list of
            // names and values ["X-Api-Key", "…", "Accept", "…"]: a value
            // right after a sensitive name is a secret.
            let secret_at: Vec<bool> = (0..items.len())
                .map(|i| {
                    i > 0
                        && matches!(&items[i], Value::String(_))
                        && matches!(&items[i - 1], Value::String(k) if is_sensitive_key(k))
                })
                .collect();

            // A list cut before ends with its note; it is carried, not counted.
            let (items, note) = match items.split_last() {
                Some((Value::String(s), rest)) if is_items_note(s) => (rest, Some(s)),
                _ => (items.as_slice(), None),
            };
            let mut out: Vec<Value> = items
                .iter()
                .zip(&secret_at)
                .take(max_members)
                .map(|(x, secret)| {
                    if *secret {
                        Value::String("[REDACTED]".into())
                    } else {
                        sanitize(x, depth + 1, text, limits)
                    }
                })
                .collect();
            if items.len() > max_members {
                out.push(Value::String(format!(
                    "[truncated {} items]",
                    items.len() - max_members
                )));
            } else if let Some(note) = note {
                out.push(Value::String(note.clone()));
            }
            Value::Array(out)
        }
        Value::Object(m) => {
            if depth >= limits.max_depth {
                return Value::String(TOO_DEEP.into());
            }
            // An object cut before carries its note; it is not counted.
            let note = m.get(MEMBERS_NOTE);
            let real = m.len() - usize::from(note.is_some());
            let mut out = Map::new();
            // A validation error about a credential field (pydantic's and
            // FastAPI's `{"loc": [..., "password"], "input": …}`) echoes it.
            let about_secret = match m.get("loc") {
                Some(Value::Array(loc)) => {
                    matches!(loc.last(), Some(Value::String(f)) if is_sensitive_key(f))
                }
                _ => false,
            };
            for (k, val) in m
                .iter()
                .filter(|(k, _)| k.as_str() != MEMBERS_NOTE)
                .take(max_members)
            {
                let redacted = (is_sensitive_key(k) || (about_secret && k == "input"))
                    && !matches!(val, Value::Number(_) | Value::Bool(_) | Value::Null);
                let key = truncate(k, 200);
                if redacted {
                    out.insert(key, Value::String("[REDACTED]".into()));
                } else {
                    out.insert(key, sanitize(val, depth + 1, text, limits));
                }
            }
            if real > max_members {
                out.insert(
                    MEMBERS_NOTE.into(),
                    Value::String(format!("{} more members", real - max_members)),
                );
            } else if let Some(note) = note {
                let carried = match note {
                    Value::String(n) if is_members_note(n) => note.clone(),
                    other => sanitize(other, depth + 1, text, limits),
                };
                out.insert(MEMBERS_NOTE.into(), carried);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// The owned variants keep a string only when the borrowed ones
        /// would give it back unchanged.
        #[test]
        fn owned_variants_agree_with_the_borrowed_ones(
            s in r"( |\t|\r|\n|x|é|at |\)|:|f\(a:1\)|Traceback \(most recent call last\):|token=abc123|/home/u/f|sk-[a-z]{20}|ghp_[A-Za-z0-9]{36}){0,12}",
            max in 16usize..40,
            for_model in any::<bool>(),
        ) {
            prop_assert_eq!(strip_stack_owned(s.clone()), strip_stack(&s));
            prop_assert_eq!(truncate_owned(s.clone(), max), truncate(&s, max));
            prop_assert_eq!(bounded_owned(s.clone(), for_model, max), bounded(&s, for_model, max));
        }
    }

    #[test]
    fn limits_from_json() {
        let l = Limits::from_json_value(&serde_json::json!({"max_depth": 3, "max_members": null}))
            .unwrap();
        assert_eq!(
            l,
            Limits {
                max_depth: 3,
                ..Limits::default()
            }
        );
        let err = |v: Value| Limits::from_json_value(&v).unwrap_err().to_string();
        assert_eq!(
            err(serde_json::json!({"max_dpeth": 3})),
            "invalid option: unknown limit \"max_dpeth\"; expected one of: max_message_chars, \
             max_string_chars, max_depth, max_members, max_rendered_bytes"
        );
        assert_eq!(
            err(serde_json::json!({"max_depth": -1})),
            "invalid option: limit \"max_depth\" must be a non-negative integer"
        );
        assert_eq!(
            err(serde_json::json!({"max_depth": 2.5})),
            "invalid option: limit \"max_depth\" must be a non-negative integer"
        );
        assert_eq!(
            err(serde_json::json!([1])),
            "invalid option: \"limits\" must be a JSON object"
        );
        assert_eq!(
            err(serde_json::json!({"max_members": 10_001})),
            "invalid option: limit \"max_members\" is 10001; it must be from 1 to 10000"
        );
        // Out of range in a struct built by hand: checked() refuses, clamped() pulls in.
        let wild = Limits {
            max_depth: 1_000,
            max_message_chars: 0,
            ..Limits::default()
        };
        assert!(wild.checked().is_err());
        assert_eq!(
            wild.clamped(),
            Limits {
                max_depth: 32,
                max_message_chars: 16,
                ..Limits::default()
            }
        );
        assert_eq!(Limits::default().checked(), Ok(Limits::default()));
    }

    #[test]
    fn a_token_prefix_cut_short_at_the_end_is_left_alone() {
        for t in [
            "x gh", "x ghp", "x ghp_", "x npm", "x npm_", "x sk_liv", "x whsec_", "x auth=",
        ] {
            assert_eq!(redact_text(t), t);
        }
        assert_eq!(redact_text("a?auth=hunter2"), "a?auth=[REDACTED]");
    }

    #[test]
    fn cutting_members_is_idempotent() {
        let l = Limits {
            max_members: 2,
            ..Limits::default()
        };
        let v = serde_json::json!({"a": [1, 2, 3, 4], "b": 1, "c": 2, "d": 3});
        let once = sanitize_value_with(&v, false, &l);
        assert_eq!(
            once,
            serde_json::json!({"a": [1, 2, "[truncated 2 items]"], "b": 1, "[truncated]": "2 more members"})
        );
        assert_eq!(sanitize_value_with(&once, false, &l), once);
    }

    #[test]
    fn token_shapes() {
        let cases = [
            // The formats of rules/credentials.json name their id.
            (
                "key AKIAIOSFODNN7EXAMPLE here",
                "[REDACTED:aws-akia-key-id]",
            ),
            (
                "ghp_1234567890abcdefghijklmnopqrstuvwxyz",
                "[REDACTED:github-pat-classic]",
            ),
            // A shape no row of the table takes keeps the built-in kind.
            (
                "sk-proj-abcdefghijklmnopqrstuvwxyz123456",
                "[REDACTED:openai-key]",
            ),
            (
                "sk-proj-abcdefghijklmnopqrstuvwxyz123456",
                "[REDACTED:openai-key]",
            ),
            (
                "Authorization: Bearer abc.def.ghi-jkl",
                "Bearer [REDACTED:credential]",
            ),
            (
                "https://bob:hunter2@db.example.com/x",
                "https://[REDACTED:userinfo]@db.example.com/x",
            ),
            (
                "https://x.io/a?user=1&access_token=abc123&b=2",
                "access_token=[REDACTED]&b=2",
            ),
        ];
        for (input, want) in cases {
            let got = redact_text(input);
            assert!(got.contains(want), "{input} → {got}");
        }
    }

    #[test]
    fn ordinary_text_is_untouched() {
        for t in [
            "Resource not found: /api/patterns/invalid-resource",
            "connect ECONNREFUSED 127.0.0.1:5432",
            "max_tokens must be at most 4096",
            "skeleton key",
            "ask-me-anything",
        ] {
            assert_eq!(redact_text(t), t);
        }
    }

    #[test]
    fn cutting_twice_keeps_the_first_count() {
        let once = truncate(&"m".repeat(100), 10);
        assert_eq!(once, format!("{}…[truncated 90 chars]", "m".repeat(10)));
        assert_eq!(truncate(&once, 10), once);
        let long = bounded(&"x".repeat(100_000), true, 10);
        assert_eq!(bounded(&long, true, 10), long);
        assert!(
            long.ends_with("…[truncated; 100000 bytes in all]"),
            "{long}"
        );
        // Only a real marker is kept: anything else after the mark is cut as usual.
        let fake = format!("abc…[truncated {}]", "y".repeat(50));
        assert_eq!(truncate(&fake, 10), "abc…[trunc…[truncated 56 chars]");
    }

    #[test]
    fn stacks_and_paths() {
        assert_eq!(
            strip_stack("TypeError: x is undefined\n    at f (/app/src/a.js:10:5)\n    at g (node:internal/x:1:2)"),
            "TypeError: x is undefined"
        );
        assert_eq!(
            strip_stack("Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in <module>\n    f()\nKeyError: 'id'"),
            "KeyError: 'id'"
        );
        // Markup a server wrote after the traceback is not the exception.
        assert_eq!(
            strip_stack("<status>run-error</status>\n<error>\nTraceback (most recent call last):\n  File \"main.py\", line 1, in <module>\n    print(unknown)\n          ^^^^^^^\nNameError: name 'unknown' is not defined\n\n</error>"),
            "<status>run-error</status>\n<error>: NameError: name 'unknown' is not defined"
        );
        assert_eq!(
            mask_paths("open '/home/bob/.aws/credentials'"),
            "open '[path]'"
        );
        assert_eq!(mask_paths("GET /api/v1/items"), "GET /api/v1/items");
    }
}
