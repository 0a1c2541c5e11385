//! Generic detectors: a secret no format lists is still caught by where it
//! stands.
//!
//! - **A credential name before a value**, in every syntax errors quote:
//!   `password=…`, `"api_key": "…"`, `api-key: …`, `<password>…</password>`,
//!   YAML, INI, HCL, TOML, `.env`, connection strings (`;Password=…;`),
//!   query strings, command-line flags (`--token …`, `--api-key=…`), and free
//!   text (`with password hunter2`, `mot de passe : …`). A name is a
//!   credential name when its last word is one ([`LAST_WORDS`]), its last two
//!   words are ([`LAST_PAIRS`]), or the credential table lists it
//!   (`keyword_only` in `rules/credentials.json`). The value is taken to its
//!   real end: a quoted value to its closing quote (escaped quotes too), an
//!   unquoted one to the end of its word.
//! - **`-u user:password`** (curl) and **`-pPASSWORD`** (mysql, when the text
//!   also runs mysql or mariadb).
//! - **An AWS secret access key**: 40 characters of base64 with upper and
//!   lower case, a digit and a `/` or `+`, standing alone.
//!
//! Every detector is one forward pass with bounded look-around.

use super::formats::CREDENTIAL_NAMES;

/// A name whose last word is one of these names a secret.
const LAST_WORDS: &str = lines![
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "apikey",
    "credential",
    "credentials",
    "authorization",
    "auth",
    "cookie",
    "signature",
    "sig",
    "sessionid",
    "session",
    "pat",
    "privatekey",
    "secretkey",
    "accesskey",
    "passwort",
    "kennwort",
    "contrasena",
    "contraseña",
    "senha",
    "wachtwoord",
    "parola",
    "motdepasse",
    // French "mot de passe"
    "passe",
];

/// A name's last word that ends in one of these names a secret too.
const LONG_ENDINGS: &str = lines![
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "credential",
    "credentials",
];

/// A name whose last two words are one of these names a secret.
const LAST_PAIRS: &str = lines![
    "api key",
    "access key",
    "secret key",
    "private key",
    "client key",
    "account key",
    "master key",
    "license key",
    "subscription key",
    "signing key",
    "encryption key",
    "app key",
    "auth key",
    "service key",
    "access id",
    "session id",
    "mot passe",
];

/// Words before `token` that make it no secret: a page, a cursor.
const NOT_SECRET_BEFORE: &str = lines![
    "page",
    "next",
    "prev",
    "previous",
    "pagination",
    "continuation",
    "cursor",
    "sync",
    "idempotency",
    "request",
    "trace",
    "max",
    "num",
    "total",
];

/// The words for a password, in the languages errors are written in.
const PASSWORD_WORDS: &str = lines![
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "passwort",
    "kennwort",
    "contrasena",
    "contraseña",
    "senha",
    "wachtwoord",
    "parola",
    "passe",
];

/// Whether a name stands in free text without a separator (`with password
/// hunter2`, `secret "db-password"`): the password words, `secret` and
/// `token`. The value must then look like a secret.
fn stands_in_free_text(word: &str) -> bool {
    crate::text::has_line(PASSWORD_WORDS, word) || word == "secret" || word == "token"
}

/// Values that say no secret is there.
const PLACEHOLDERS: &str = lines![
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "required",
    "missing",
    "empty",
    "invalid",
    "expired",
];

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// A name's words, lowercase: split at `_`, `-`, `.` and case changes.
fn name_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() && c.is_ascii() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit() || !c.is_ascii();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The stems every credential name holds one of (in any case): the last
/// words above, and the names the credential table lists (a test keeps
/// them so).
const STEMS: &[&str] = &[
    "pass", "pwd", "secret", "token", "key", "auth", "cred", "cookie", "sig", "session", "pat",
    "wort", "woord", "contras", "senha", "parola", "sid", "ssws", "team", "access",
];

/// Whether `name` holds one of [`STEMS`], without case: only at a byte
/// some stem starts with is a stem compared.
fn might_name_a_credential(name: &str) -> bool {
    let b = name.as_bytes();
    (0..b.len()).any(|i| {
        let mut starting = STEM_STARTS[usize::from(b[i])];
        while starting != 0 {
            let stem = STEMS[starting.trailing_zeros() as usize].as_bytes();
            starting &= starting - 1;
            if b.get(i..i + stem.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(stem))
            {
                return true;
            }
        }
        false
    })
}

/// By byte, the stems (bit `j`: `STEMS[j]`) that start with it, in any case.
static STEM_STARTS: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut j = 0;
    while j < STEMS.len() {
        let first = STEMS[j].as_bytes()[0];
        t[first as usize] |= 1 << j;
        t[first.to_ascii_uppercase() as usize] |= 1 << j;
        j += 1;
    }
    t
};

/// Whether `name` (a field, header, variable, flag or word) names a secret.
pub(crate) fn is_credential_name(name: &str) -> bool {
    // Most words of a text hold none of the stems a credential name has:
    // they are passed over without being split.
    if !might_name_a_credential(name) {
        return false;
    }
    let words = name_words(name);
    let Some(last) = words.last() else {
        return false;
    };
    let before = words.len().checked_sub(2).map(|i| words[i].as_str());
    if last == "token" && before.is_some_and(|b| crate::text::has_line(NOT_SECRET_BEFORE, b)) {
        return false;
    }
    if crate::text::has_line(LAST_WORDS, last) {
        return true;
    }
    // One word that ends in a long credential word: `PGPASSWORD`, `bearertoken`.
    if LONG_ENDINGS
        .split_terminator('\n')
        .any(|w| last.len() > w.len() && last.ends_with(w))
    {
        return true;
    }
    if let Some(b) = before {
        if LAST_PAIRS
            .split_terminator('\n')
            .any(|p| p.split_once(' ') == Some((b, last)))
        {
            return true;
        }
    }
    let joined: String = words.concat();
    CREDENTIAL_NAMES.lines().any(|n| n == joined)
}

/// Whether a value standing in free text looks like a secret rather than a
/// word: four characters or more with a digit, a symbol or a capital after a
/// small letter; or a long run of high entropy ([`high_entropy`]), such as a
/// random lowercase token. The stop that ends a sentence is not part of the
/// word, and letters outside ASCII are letters: "Token invalid." and "Token
/// inválido." say that a token is wrong, not what it is.
fn looks_secret(v: &str) -> bool {
    let v = v.trim_end_matches(['.', ',', ';', '!', '?']);
    if v.chars().count() < 4 {
        return false;
    }
    let b = v.as_bytes();
    b.iter()
        .any(|c| c.is_ascii_digit() || c.is_ascii_punctuation())
        || has_capital_after_small(b)
        || high_entropy(b)
}

/// Whether a capital follows a small letter somewhere in `b` (`aB`): mixed
/// case inside one word, as generated tokens have and words do not.
pub(crate) fn has_capital_after_small(b: &[u8]) -> bool {
    b.windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// The shortest value the entropy test judges, in bytes.
const ENTROPY_MIN_LEN: usize = 16;
/// The least Shannon entropy, in bits per byte, of a random-looking value:
/// English words stay under it (about 3 to 3.3 for 16 to 20 letters), random
/// tokens of 16 characters or more from 26 letters or more exceed it.
const ENTROPY_MIN_BITS: f64 = 3.6;

/// Whether `v` is long and varied enough to be a random token.
fn high_entropy(v: &[u8]) -> bool {
    if v.len() < ENTROPY_MIN_LEN {
        return false;
    }
    let mut counts = [0u32; 256];
    for &b in v {
        counts[usize::from(b)] += 1;
    }
    let n = v.len() as f64;
    let bits: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum();
    bits >= ENTROPY_MIN_BITS
}

/// Whether `rest` starts another `Name=` pair (a connection string's next
/// member), or nothing: then a `;` ended the value.
fn next_is_pair(rest: &[u8]) -> bool {
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    let n = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'_' | b'-' | b'.'))
        .count();
    rest.is_empty() || rest[0].is_ascii_whitespace() || (n > 0 && rest.get(n) == Some(&b'='))
}

/// Whether a word reads as the name of a thing (`db-password`,
/// `default/slack-credentials`, `users.email`): lowercase letters joined by
/// `-`, `_`, `.` or `/`, no digit, and not one random run of letters.
fn looks_like_a_name(v: &str) -> bool {
    reference(v)
        || (v
            .bytes()
            .all(|b| b.is_ascii_lowercase() || matches!(b, b'-' | b'_' | b'.' | b'/'))
            && !(v.bytes().all(|b| b.is_ascii_lowercase()) && high_entropy(v.as_bytes())))
}

/// Whether a word names a resource elsewhere: an ARN, a URN, a URL.
fn reference(v: &str) -> bool {
    v.starts_with("arn:")
        || v.starts_with("urn:")
        || crate::text::contains(v, "://")
        || zone_like(v)
}

/// Capitalized words joined by `/` (`Mars/Olympus`, `America/New_York`): a
/// time zone's or a path's name, not a secret.
fn zone_like(v: &str) -> bool {
    v.contains('/')
        && v.split('/').all(|part| {
            let b = part.as_bytes();
            b.first().is_some_and(u8::is_ascii_uppercase)
                && b.iter().any(u8::is_ascii_lowercase)
                && b.iter()
                    .all(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'-')
        })
}

/// Kinds of keys that are no secret: `idempotency key 01HB…`.
const KEY_KINDS: &str = lines![
    "idempotency",
    "cache",
    "partition",
    "sort",
    "primary",
    "foreign",
    "object",
    "routing",
    "dedup",
    "deduplication",
    "row",
    "hash",
];

/// The word right before the name that starts at `start`, if any.
fn word_before(s: &[u8], start: usize) -> Option<&[u8]> {
    let end = start.checked_sub(1).filter(|&e| s[e] == b' ')?;
    let begin = s[..end]
        .iter()
        .rposition(|b| !b.is_ascii_alphanumeric())
        .map_or(0, |p| p + 1);
    (begin < end).then(|| &s[begin..end])
}

/// How a value ends once it began at `i` (after any opening quote `q`).
fn value_end(s: &[u8], i: usize, quote: Option<u8>, escaped: bool, query: bool) -> usize {
    let mut j = i;
    match quote {
        Some(q) => {
            while j < s.len() {
                if escaped
                    && s[j] == b'\\'
                    && s.get(j + 1..)
                        .is_some_and(|r| r.iter().find(|&&c| c != b'\\') == Some(&q))
                {
                    break;
                }
                if s[j] == b'\\' && !escaped {
                    j += 2;
                    continue;
                }
                if s[j] == q || s[j] == b'\n' {
                    break;
                }
                j += 1;
            }
        }
        None => {
            while j < s.len() {
                let c = s[j];
                // An escaped character belongs to the value (`\=` in Java
                // properties), but not an escaped line break or quote of the
                // JSON string the text sits in.
                if c == b'\\'
                    && !matches!(s.get(j + 1), None | Some(b'n' | b'r' | b't' | b'"' | b'\''))
                {
                    j += 2;
                    continue;
                }
                let stop = c.is_ascii_whitespace()
                    || (c >= 0xC2 && unicode_space_at(s, j))
                    || matches!(
                        c,
                        b'"' | b'\'' | b'<' | b'>' | b',' | b'}' | b']' | b')' | b'\\' | b'`'
                    )
                    || (c == b';' && !query && next_is_pair(&s[j + 1..]))
                    || (query && matches!(c, b'&' | b'#' | b';'));
                if stop {
                    break;
                }
                j += 1;
            }
        }
    }
    j.min(s.len())
}

/// The value after a credential name ending at `end` (the name began at
/// `start`): its span, if one stands there.
fn value_after(text: &str, start: usize, end: usize, name: &str) -> Option<(usize, usize)> {
    let s = text.as_bytes();
    let mut i = end;
    // The name's closing quote (plain or escaped once or twice).
    while i < s.len() && matches!(s[i], b'"' | b'\'' | b'\\') && i - end < 6 {
        i += 1;
    }
    let gap_start = i;
    while i < s.len() && matches!(s[i], b' ' | b'\t') {
        i += 1;
    }
    let flag = name.starts_with('-');
    let xml = start > 0 && s[start - 1] == b'<';
    let query = start > 0 && matches!(s[start - 1], b'?' | b'&');
    let separator = match s.get(i) {
        Some(b'=') if s.get(i + 1) == Some(&b'>') => 2,
        Some(b':') if s.get(i + 1) == Some(&b'=') => 2,
        Some(b'=' | b':') => 1,
        Some(b'>') if xml => 1,
        _ => 0,
    };
    let spaced = i > gap_start;
    let quoted_name = start > 0 && matches!(s[start - 1], b'"' | b'\'');
    if separator == 0 && quoted_name {
        // A JSON pair of a header list, `["X-Api-Key", "…"]`, or an XML
        // attribute that follows the name, `key="ApiKey" value="…"`.
        let mut j = gap_start;
        // A validation error's location ending in the name, `"loc": [...,
        // "password"]`: the same object's `"input"` echoes the secret.
        if s.get(j) == Some(&b']') {
            let object_end = (j..s.len().min(j + 512))
                .find(|&k| s[k] == b'}')
                .unwrap_or(s.len().min(j + 512));
            let at = crate::text::find_bytes(&s[j..object_end], b"input")? + j + 5;
            let mut k = at;
            while k < object_end && matches!(s[k], b'"' | b'\\' | b'\'' | b' ' | b':') {
                k += 1;
            }
            let q = s[k - 1];
            if k > at && matches!(q, b'"' | b'\'') {
                let escaped = s[k - 2] == b'\\';
                let to = value_end(s, k, Some(q), escaped, false);
                return (to > k && text.is_char_boundary(k) && text.is_char_boundary(to))
                    .then_some((k, to));
            }
            return None;
        }
        if s.get(j) == Some(&b',') {
            j += 1;
            while j < s.len() && matches!(s[j], b' ' | b'\\') {
                j += 1;
            }
            if matches!(s.get(j), Some(b'"' | b'\'')) {
                let q = s[j];
                let escaped = s[j - 1] == b'\\';
                let to = value_end(s, j + 1, Some(q), escaped, false);
                return (to > j + 1 && text.is_char_boundary(to)).then_some((j + 1, to));
            }
        } else if spaced {
            let j = i;
            let n = s[j..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
                .count();
            if n > 0 && s.get(j + n) == Some(&b'=') {
                // The value's quote, plain or escaped (`valu=\"…\"`).
                let mut k = j + n + 1;
                while s.get(k) == Some(&b'\\') && k - (j + n + 1) < 4 {
                    k += 1;
                }
                if matches!(s.get(k), Some(b'"' | b'\'')) {
                    let q = s[k];
                    let escaped = k > j + n + 1;
                    let to = value_end(s, k + 1, Some(q), escaped, false);
                    return (to > k + 1 && text.is_char_boundary(to)).then_some((k + 1, to));
                }
            }
        }
    }
    let sep_at = i;
    // `for key correct-horse-battery-staple`: a bare `key` only before a long
    // value that looks like a secret.
    let bare_key = name.eq_ignore_ascii_case("key");
    if separator == 0 {
        // `--token VALUE`; free text `password hunter2`.
        let words = name_words(name);
        let free = words.last().is_some_and(|w| stands_in_free_text(w));
        if !(spaced && (flag || free || bare_key)) {
            return None;
        }
    } else {
        // Inside a colon-joined identifier (`arn:aws:…:secret:prod/db`) a
        // `:` separates parts, not a name from its value.
        if s[sep_at] == b':' && start > 0 && s[start - 1] == b':' {
            return None;
        }
        i += separator;
        // A `::` or a URL's `://` is no separator.
        if s.get(i) == Some(&b':') || s.get(i) == Some(&b'/') && separator == 1 && s[i - 1] == b':'
        {
            return None;
        }
        while i < s.len() && matches!(s[i], b' ' | b'\t') {
            i += 1;
        }
    }
    // The opening quote, plain or escaped.
    let mut escaped = false;
    let mut j = i;
    while j < s.len() && s[j] == b'\\' && j - i < 4 {
        j += 1;
        escaped = true;
    }
    let quote = match s.get(j) {
        Some(&q @ (b'"' | b'\'')) => Some(q),
        _ => None,
    };
    let from = if quote.is_some() { j + 1 } else { i };
    // An XML element's text runs to the next tag.
    let quote = if xml && separator == 1 && quote.is_none() {
        Some(b'<')
    } else {
        quote
    };
    if quote.is_none() {
        escaped = false;
    }
    // An `Authorization` value is its scheme and its credentials, and a
    // config line's value (`password = …`, `api_secret: …`: an unquoted name,
    // a separator with a space beside it, no quotes) is all of it: both run
    // to the end of the line.
    let whole_line = quote.is_none()
        && name_words(name)
            .last()
            .is_some_and(|w| w == "authorization");
    let config_line = quote.is_none()
        && separator == 1
        && !quoted_name
        && !xml
        && !query
        && !flag
        && (sep_at > gap_start || s.get(sep_at + 1) == Some(&b' '));
    let to = if whole_line || config_line {
        (from..s.len())
            .find(|&j| {
                matches!(s[j], b'\n' | b'\r') || (s[j] == b'\\' && s.get(j + 1) == Some(&b'n'))
            })
            .unwrap_or(s.len())
    } else {
        value_end(s, from, quote, escaped, query)
    };
    if to <= from || !text.is_char_boundary(from) || !text.is_char_boundary(to) {
        return None;
    }
    let value = &text[from..to];
    if whole_line && crate::text::contains(value, "[REDACTED") {
        return None;
    }
    let trimmed = value.trim_end_matches(['.', ':', ' ']);
    if trimmed.is_empty()
        || value.starts_with("[REDACTED")
        || value.bytes().all(|b| b == b'*' || b == b'x' || b == b'X')
        || PLACEHOLDERS
            .split_terminator('\n')
            .any(|p| trimmed.eq_ignore_ascii_case(p))
    {
        return None;
    }
    // In prose (no separator, or `name: value` after a space), the word must
    // look like a secret; a config line's first word too.
    let first_word = trimmed.split_whitespace().next().unwrap_or("");
    let prose = quote.is_none() && !xml && !flag && config_line;
    if prose && !looks_secret(first_word) {
        return None;
    }
    // Free text without a separator (`with password hunter2`, `secret
    // "db-password"`): a word that looks like a secret, not like a name.
    // Right after a password word the word is the password; after `secret`
    // or `token` it may name one (`secret "db-password"`).
    let password_word = name_words(name)
        .last()
        .is_some_and(|w| crate::text::has_line(PASSWORD_WORDS, w));
    if separator == 0
        && !flag
        && !bare_key
        && !(looks_secret(trimmed) && (password_word || !looks_like_a_name(trimmed)))
    {
        return None;
    }
    // `for key correct-horse-battery-staple`: a long secret-looking word,
    // not an idempotency, cache or database key.
    if bare_key
        && ((separator != 0 && (!quoted_name || looks_like_a_name(trimmed)))
            || trimmed.len() < 12
            || !looks_secret(trimmed)
            || reference(trimmed)
            || word_before(s, start).is_some_and(|w| {
                KEY_KINDS
                    .split_terminator('\n')
                    .any(|k| w.eq_ignore_ascii_case(k.as_bytes()))
            }))
    {
        return None;
    }
    Some((from, from + trimmed.len()))
}

/// The spans of secrets the generic detectors find in `text`, left to right,
/// not overlapping: (start, end, what).
pub(crate) fn find(text: &str) -> Vec<(usize, usize, &'static str)> {
    let s = text.as_bytes();
    let mut out: Vec<(usize, usize, &'static str)> = Vec::new();
    let mut i = 0;
    let mysql = crate::text::find_bytes(s, b"mysql").is_some()
        || crate::text::find_bytes(s, b"mariadb").is_some();
    while i < s.len() {
        if !is_name_byte(s[i]) && s[i] < 0x80 {
            i += 1;
            continue;
        }
        // A name: ASCII name bytes, or a word of another script.
        let start = i;
        while i < s.len()
            && (is_name_byte(s[i]) || s[i] >= 0x80)
            && !(s[i] >= 0x80 && is_space_char(text, i))
        {
            i += 1;
        }
        while !text.is_char_boundary(i) {
            i += 1;
        }
        if i == start {
            // White space outside ASCII (a no-break space): passed over.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        // A name right after an escape (`\nprivate_key_id`) starts after its letter.
        let start = if start > 0
            && s[start - 1] == b'\\'
            && matches!(s[start], b'n' | b't' | b'r')
            && i > start + 1
        {
            start + 1
        } else {
            start
        };
        let name = text[start..i].trim_end_matches('.');
        let end = start + name.len();
        if out.last().is_some_and(|&(_, e, _)| start < e) {
            continue;
        }
        if name == "-u" || name == "--user" {
            // curl -u user:password
            if let Some(span) = user_password(s, end) {
                out.push((span.0, span.1, "password"));
                i = span.1;
            }
            continue;
        }
        if mysql
            && name.starts_with("-p")
            && !name.starts_with("--")
            && start > 0
            && s[start - 1] == b' '
        {
            // `-psecret`, or `-p'secret'` as a shell quotes it.
            if name == "-p" && matches!(s.get(end), Some(b'"' | b'\'')) {
                let q = s[end];
                let close = (end + 1..s.len())
                    .rfind(|&j| s[j] == q && s.get(j + 1).is_none_or(|b| b.is_ascii_whitespace()));
                if let Some(close) = close.filter(|&c| c > end + 1) {
                    out.push((end + 1, close, "password"));
                    i = close;
                }
                continue;
            }
            if name.len() > 2 {
                out.push((start + 2, end, "password"));
                continue;
            }
        }
        if name.len() == 40
            && aws_secret_like(&s[start..end])
            && (start == 0 || !is_name_byte(s[start - 1]))
        {
            out.push((start, end, "aws-secret-key"));
            continue;
        }
        if is_credential_name(name) || name.eq_ignore_ascii_case("key") {
            if let Some((from, to)) = value_after(text, start, end, name) {
                out.push((from, to, "secret"));
                i = to;
            }
        }
    }
    out
}

/// Whether the bytes at `j` start a white-space character outside ASCII.
fn unicode_space_at(s: &[u8], j: usize) -> bool {
    let end = (j + 4).min(s.len());
    let chunk = &s[j..end];
    let valid = match std::str::from_utf8(chunk) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&chunk[..e.valid_up_to()]).unwrap_or(""),
    };
    valid.chars().next().is_some_and(char::is_whitespace)
}

/// Whether the character at byte `i` is white space (a no-break space, say).
fn is_space_char(text: &str, i: usize) -> bool {
    text.is_char_boundary(i) && text[i..].chars().next().is_some_and(char::is_whitespace)
}

/// After `-u `: the password of `user:password`.
fn user_password(s: &[u8], end: usize) -> Option<(usize, usize)> {
    let mut i = end;
    while i < s.len() && s[i] == b' ' {
        i += 1;
    }
    let quote = matches!(s.get(i), Some(b'"' | b'\'')).then(|| s[i]);
    if quote.is_some() {
        i += 1;
    }
    let word_end = (i..s.len())
        .find(|&j| match quote {
            Some(q) => s[j] == q,
            None => s[j].is_ascii_whitespace(),
        })
        .unwrap_or(s.len());
    let colon = (i..word_end).find(|&j| s[j] == b':')?;
    (word_end > colon + 1).then_some((colon + 1, word_end))
}

/// Forty characters of base64 with both cases, a digit and a `/` or `+`.
fn aws_secret_like(w: &[u8]) -> bool {
    w.iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'/' || *b == b'+')
        && w.iter().any(u8::is_ascii_uppercase)
        && w.iter().any(u8::is_ascii_lowercase)
        && w.iter().any(u8::is_ascii_digit)
        && w.iter().any(|b| *b == b'/' || *b == b'+')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(t: &str) -> String {
        let mut out = t.to_string();
        for (a, b, _) in find(t).into_iter().rev() {
            out.replace_range(a..b, "▮");
        }
        out
    }

    #[test]
    fn every_credential_name_holds_a_stem() {
        for w in LAST_WORDS
            .split_terminator('\n')
            .chain(CREDENTIAL_NAMES.lines())
        {
            assert!(might_name_a_credential(w), "{w}");
        }
        for pair in LAST_PAIRS.split_terminator('\n') {
            let (a, b) = pair.split_once(' ').unwrap();
            assert!(might_name_a_credential(&[a, b].concat()), "{a} {b}");
        }
    }

    #[test]
    fn names_are_read_by_their_last_words() {
        for n in [
            "password",
            "DB_PASSWORD",
            "aws_secret_access_key",
            "X-Api-Key",
            "clientSecret",
            "_authToken",
            "--api-key",
            "Ocp-Apim-Subscription-Key",
        ] {
            assert!(is_credential_name(n), "{n}");
        }
        for n in [
            "max_tokens",
            "next_page_token",
            "token_type",
            "keyboard",
            "passport",
            "user",
            "primary_key",
        ] {
            assert!(!is_credential_name(n), "{n}");
        }
    }

    #[test]
    fn values_are_taken_to_their_real_end() {
        assert_eq!(redacted("PASSWORD=a&b=c;d"), "PASSWORD=▮");
        assert_eq!(redacted("?api_key=abc123&page=2"), "?api_key=▮&page=2");
        assert_eq!(
            redacted(r#"{"client_secret": "s3cr\"et", "id": 1}"#),
            r#"{"client_secret": "▮", "id": 1}"#
        );
        assert_eq!(
            redacted(r#"{\"password\": \"hunter2\"}"#),
            r#"{\"password\": \"▮\"}"#
        );
        assert_eq!(
            redacted("Server=db;User Id=sa;Password=p@ss;Encrypt=true"),
            "Server=db;User Id=sa;Password=▮;Encrypt=true"
        );
        assert_eq!(
            redacted("<password>x y</password>"),
            "<password>▮</password>"
        );
        assert_eq!(
            redacted("login as admin with password hunter2 failed"),
            "login as admin with password ▮ failed"
        );
        assert_eq!(
            redacted("mysql -u root -psecret42 db"),
            "mysql -u root -p▮ db"
        );
        assert_eq!(
            redacted("curl -u deploy:Tr0ub4dor https://x"),
            "curl -u deploy:▮ https://x"
        );
        assert_eq!(redacted("tool --token abc.def run"), "tool --token ▮ run");
        assert_eq!(redacted("mot de passe : Sommer2026!"), "mot de passe : ▮");
    }

    #[test]
    fn white_space_outside_ascii_ends_a_name_and_the_scan_goes_on() {
        // A no-break space once stopped the scan from advancing.
        assert_eq!(
            redacted("a\u{a0}password=hunter2\u{2003}x"),
            "a\u{a0}password=▮\u{2003}x"
        );
        assert_eq!(redacted("\u{a0}"), "\u{a0}");
        assert_eq!(redacted("\u{a0}\u{3000}é"), "\u{a0}\u{3000}é");
    }

    #[test]
    fn a_random_token_of_small_letters_is_a_secret_a_long_word_is_not() {
        assert!(high_entropy(b"qwhdkzmfnbvlpeoritu"));
        assert!(!high_entropy(b"internationalization"));
        assert!(!high_entropy(b"short"));
        assert_eq!(
            redacted("login with token qwhdkzmfnbvlpeoritu refused"),
            "login with token ▮ refused"
        );
    }

    #[test]
    fn prose_and_look_alikes_are_left_alone() {
        for t in [
            "password is required",
            "token expired",
            "the password must be at least 8 characters",
            "Invalid pagination token: abc",
            "max_tokens: 4096",
            "token: invalid",
            "fatal: reference is not a tree: 189459c7825e1561f401e8f11f75c848d4e79383",
            "see https://example.com/a:b",
        ] {
            assert_eq!(redacted(t), t, "{t}");
        }
    }
}
