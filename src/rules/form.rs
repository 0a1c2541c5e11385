//! The one form of a recognizer rule, as JSON, its parser, and the tables
//! it compiles to.
//!
//! The rules the library ships (`rules/*.json`, compiled into static tables
//! by `build.rs`) and the rules a user passes (the `rules` option) are read
//! by this same parser into these same tables; it depends on nothing but
//! `serde_json`, so the build script includes it as it is and prints what it
//! parsed as statics.
//!
//! A rule is a matcher and a verdict:
//!
//! ```json
//! {"id": "slow-down",
//!  "when": {"path": "body.fault.kind", "equals": "SLOW_DOWN"},
//!  "code": "RATE_LIMITED", "retryable": true,
//!  "retry_after": {"path": "body.fault.wait", "unit": "s"}}
//! ```
//!
//! A table is many rules that differ in one value: `at` names where the
//! value is, `rows` maps each value to its verdict, `when` holds for all.
//!
//! ```json
//! {"id": "sqlstate", "at": ["code", "pgcode"],
//!  "rows": {"23505": {"code": "ALREADY_EXISTS"},
//!           "40001": {"code": "CONFLICT", "retryable": true}}}
//! ```

use std::borrow::Cow;

use serde_json::Value;

pub type S = Cow<'static, str>;

/// One step of a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg<'p> {
    /// An object member.
    Key(&'p str),
    /// Each element of the array in this member (the first 16).
    Each(&'p str),
}

/// A location in a node of the raw error: a checked path (`check_path`),
/// `body.errors[].code`, kept as its text and read a segment at a time. The
/// first segment is read from the node, except `body` (the node's upstream
/// body, JSON inside a string parsed) and `headers` (`headers.NAME`, the
/// node's and its response's, any case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc(pub S);

impl Loc {
    /// A checked path (`check_path`).
    pub fn parse(path: &str) -> Loc {
        Loc(Cow::Owned(path.to_string()))
    }

    /// The path's first segment and the path after it.
    pub fn head(path: &str) -> Option<(Seg<'_>, &str)> {
        if path.is_empty() {
            return None;
        }
        let (seg, rest) = match path.bytes().position(|b| b == b'.') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => (path, ""),
        };
        Some((
            match seg.strip_suffix("[]") {
                Some(k) => Seg::Each(k),
                None => Seg::Key(seg),
            },
            rest,
        ))
    }

    /// The member the location starts at.
    pub fn first(&self) -> &str {
        match Loc::head(&self.0) {
            Some((Seg::Key(k) | Seg::Each(k), _)) => k,
            None => "",
        }
    }

    /// The location is exactly this one member.
    fn is(&self, key: &str) -> bool {
        self.0 == key
    }

    /// The location is one member, read from the node itself (not `body`,
    /// not `headers`).
    pub fn is_member(&self) -> bool {
        !self.0.contains('.') && !self.0.ends_with("[]") && !matches!(&*self.0, "body" | "headers")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// Equals one of these lines (strings; numbers and booleans as their
    /// JSON text).
    In(S),
    /// A class name, whole or its last segment, is one of these lines.
    NameIn(S),
    /// Text containing this phrase (lowercase), any case, at a word start.
    Contains(S),
    /// Text starting with this, any case.
    Prefix(S),
    /// The value is present (`true`) or absent (`false`).
    Exists(bool),
}

/// A condition that must hold for a rule to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// The HTTP status is in one of these inclusive ranges.
    Status(Cow<'static, [(u16, u16)]>),
    /// The value at the location passes the test.
    At(Loc, Test),
}

/// Where a row's retry delay is, and its unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delay {
    pub at: Loc,
    /// Milliseconds per unit of the value: 1000 for seconds, 1 for milliseconds.
    pub scale_ms: u32,
}

/// One row of a table, six bytes: its key is the bytes of the table's
/// `keys` from the previous row's `end` to its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub end: u16,
    /// 1 + the index of the row's delay in the table's `delays`; 0: none.
    pub delay: u16,
    /// The canonical code, as its index in the taxonomy (the `codes` the
    /// parser was given, in order).
    pub code: u8,
    pub retryable: Option<bool>,
}

/// A compiled rule or table. Rows are sorted by key (byte order; phrase
/// keys are lowercase), so a key is found by binary search. A single rule
/// (no `at`) has one row with an empty key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// What evidence calls it: a family tag (`postgres`) or `rule ID`.
    pub tag: S,
    /// The providers whose knowledge the rule is, space-separated (a shipped
    /// rule's `providers`, by default its file's tag; none for a user's
    /// rule): the leave-one-provider-out evaluation turns it off for them.
    pub providers: S,
    /// Where the key is: the first location that holds a value gives it.
    pub at: Cow<'static, [Loc]>,
    pub take: Take,
    pub when: Cow<'static, [Cond]>,
    pub strength: u8,
    /// The rows' keys, one after the other.
    pub keys: S,
    pub rows: Cow<'static, [Row]>,
    pub delays: Cow<'static, [Delay]>,
}

/// A table as the matcher reads it: plain slices. The built-in tables are
/// these, as statics (`build.rs`); a parsed [`Table`] gives one with
/// [`Table::view`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<'t> {
    pub tag: &'t str,
    /// Only the evaluation's build reads which providers a rule knows
    /// (`leave_out`); no other build carries them.
    #[cfg(feature = "leave-out")]
    pub providers: &'t str,
    pub at: &'t [Loc],
    pub take: Take,
    pub when: &'t [Cond],
    pub strength: u8,
    pub keys: &'t str,
    pub rows: &'t [Row],
    pub delays: &'t [Delay],
}

impl Table {
    pub fn view(&self) -> View<'_> {
        View {
            tag: &self.tag,
            #[cfg(feature = "leave-out")]
            providers: &self.providers,
            at: &self.at,
            take: self.take,
            when: &self.when,
            strength: self.strength,
            keys: &self.keys,
            rows: &self.rows,
            delays: &self.delays,
        }
    }
}

impl<'t> View<'t> {
    /// Where row `i`'s key is in the table's keys: from the previous row's
    /// end to its own.
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        let start = match i.checked_sub(1) {
            Some(p) => self.rows[p].end as usize,
            None => 0,
        };
        start..self.rows[i].end as usize
    }

    /// Row `i`'s key, as bytes (what lookups compare: no character
    /// boundaries to check).
    pub fn key(&self, i: usize) -> &'t [u8] {
        self.keys.as_bytes().get(self.span(i)).unwrap_or(b"")
    }

    /// Row `i`'s key, as text (for evidence).
    pub fn key_str(&self, i: usize) -> &'t str {
        self.keys.get(self.span(i)).unwrap_or("")
    }
}

/// How a located value is compared with the rows' keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// The value (a string, or a number or boolean as its JSON text) equals the key.
    Exact,
    /// An error class name: the whole name or its last segment (after `.`,
    /// `:` or `$`) equals the key.
    Name,
    /// The text contains the key, in any ASCII case, starting at a word.
    Phrase,
    /// The text's first word (up to a space or `:`) equals the key.
    FirstWord,
    /// The value's first two characters equal the key (SQLSTATE classes).
    Prefix2,
}

impl Take {
    pub const ALL: [(&'static str, Take); 5] = [
        ("exact", Take::Exact),
        ("name", Take::Name),
        ("phrase", Take::Phrase),
        ("first_word", Take::FirstWord),
        ("prefix2", Take::Prefix2),
    ];
}

/// The built-in key filter's hash of a key: FNV-1a of its bytes. A key
/// looked up at the node member `m` by `take` sets (and a value tests) the
/// bits `filter_bits(key_hash(key), filter_seed(m, take))`, so a value is
/// hashed once for every member and take it is screened under.
pub const fn key_hash(key: &[u8]) -> u32 {
    let mut h = 0x811c_9dc5_u32;
    let mut i = 0;
    while i < key.len() {
        h ^= key[i] as u32;
        h = h.wrapping_mul(16_777_619);
        i += 1;
    }
    h
}

/// What a member and a take mix into a key's hash.
pub const fn filter_seed(member: &str, take: Take) -> u32 {
    key_hash(member.as_bytes())
        .wrapping_add(take as u32)
        .wrapping_mul(0x2545_f491)
}

/// The three bits (of 4096) a key's hash sets under a seed.
pub const fn filter_bits(hash: u32, seed: u32) -> [usize; 3] {
    let h = (hash ^ seed).wrapping_mul(0x9e37_79b1);
    [
        (h >> 20) as usize,
        ((h >> 8) & 4095) as usize,
        ((h.rotate_left(7) ^ hash) & 4095) as usize,
    ]
}

/// The first eight bytes of `b` (fewer when it is shorter, the rest zero),
/// lowercased, little-endian: a phrase's head, compared with a text's in one
/// step before the rest.
pub const fn head(b: &[u8]) -> u64 {
    let mut h = [0u8; 8];
    let n = if b.len() < 8 { b.len() } else { 8 };
    let mut i = 0;
    while i < n {
        h[i] = b[i];
        i += 1;
    }
    // ASCII capitals to lowercase, the eight bytes at once: a byte below
    // 0x80 is a capital when adding 0x3f carries into its high bit and
    // adding 0x25 does not (no carry crosses a byte).
    const ONES: u64 = 0x0101_0101_0101_0101;
    let w = u64::from_le_bytes(h);
    let low7 = w & (ONES * 0x7f);
    let from_a = low7.wrapping_add(ONES * (0x80 - b'A' as u64));
    let past_z = low7.wrapping_add(ONES * (0x80 - b'Z' as u64 - 1));
    let capital = from_a & !past_z & !w & (ONES * 0x80);
    w | (capital >> 2)
}

/// The bytes of a head (`head`) that a phrase of `len` bytes fills.
pub const fn head_mask(len: usize) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * len)) - 1
    }
}

/// The row of a phrase index's `starts` for a phrase's first byte (a
/// letter or digit, any case): 0 to 25 for letters, 26 to 35 for digits.
pub const fn start_class(b: u8) -> u8 {
    if b.is_ascii_digit() {
        26 + (b - b'0')
    } else {
        (b | 0x20).wrapping_sub(b'a') % 36
    }
}

/// A letter as the lexicon reads it: ASCII, Latin-1, Greek and Cyrillic
/// capitals as small letters, every other character as it is. The words of
/// an error (`lexicon::push_words`) and the lexicon's phrases (`build.rs`)
/// both go through it, so "Доступ запрещен" and "ДОСТУП ЗАПРЕЩЕН" read as
/// the phrase "доступ запрещен".
pub const fn small_letter(c: char) -> char {
    let u = c as u32;
    let small = match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE | 0x391..=0x3A1 | 0x3A3..=0x3AB | 0x410..=0x42F => {
            u + 0x20
        }
        0x400..=0x40F => u + 0x50,
        _ => u,
    };
    match char::from_u32(small) {
        Some(c) => c,
        None => c,
    }
}

/// The tiers a rule may name, strongest first (see `signals` for the numbers).
pub const TIERS: [&str; 10] = [
    "user",
    "refine",
    "body",
    "provider",
    "code",
    "code_class",
    "name",
    "status",
    "message",
    "wrapper",
];

/// The strength of a user's rule: above every built-in signal, below an
/// explicit canonical code (100).
pub const USER_STRENGTH: u8 = 99;

/// The strength of a tier: higher wins. The classifier's own signals sit
/// between (explicit code 100, validation 85, HTTP status 50, message words 20).
pub fn tier_strength(tier: &str) -> u8 {
    match tier {
        "user" => USER_STRENGTH,
        // A rule that narrows a provider's code by context (a 413 whose body
        // says rate_limit_exceeded is a request too large).
        "refine" => 84,
        "body" => 82,
        "provider" => 78,
        "code" => 70,
        "code_class" => 66,
        "name" => 60,
        "status" => 48,
        "wrapper" => 30,
        // message: never above a structured signal or the HTTP status
        _ => 40,
    }
}

/// A rule's tier when it names none: from where its key is, else from its
/// first path condition, else (status only) `status`.
fn default_tier(take: Take, at: &[Loc], when: &[Cond]) -> &'static str {
    let first = at.first().or_else(|| {
        when.iter().find_map(|c| match c {
            Cond::At(l, _) => Some(l),
            Cond::Status(_) => None,
        })
    });
    let Some(l) = first else {
        return "status";
    };
    match take {
        Take::Prefix2 => "code_class",
        Take::Phrase => "message",
        _ if match Loc::head(&l.0) {
            Some((Seg::Key("body"), _)) => true,
            Some((Seg::Key("headers"), rest)) => !rest.is_empty(),
            _ => false,
        } =>
        {
            "body"
        }
        _ if l.is("name") => "name",
        _ if l.is("message") => "message",
        _ => "code",
    }
}

/// The most rules (tables) and rows a user rule set may hold: matching stays small.
pub const MAX_USER_RULES: usize = 256;
pub const MAX_USER_ROWS: usize = 4096;

/// A member of a rule object. A linear scan, not the map's hashed lookup:
/// rule objects are small, and each inlined hash costs code in the
/// component (this parser is its coldest code).
#[inline(never)]
fn get<'v>(m: &'v serde_json::Map<String, Value>, key: &str) -> Option<&'v Value> {
    m.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// A bad rule's message: `rule "ID": what`. Error paths build their text
/// here, in one place (each `format_args!` at a call site costs code).
#[cold]
#[inline(never)]
fn err(id: &str, what: &str) -> String {
    if id.is_empty() {
        format!("rule: {what}")
    } else {
        format!("rule {}: {what}", quote(id))
    }
}

/// `s` in double quotes for an error message, JSON-escaped (this file is
/// also compiled into build.rs, which has no `crate::json`): `"` and `\`
/// after a backslash, control characters as `\u00XX`, the rest as it is.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                for shift in [4, 0] {
                    out.push(char::from(b"0123456789abcdef"[(c as usize >> shift) & 15]));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `err` with a value in the text: `before`, the value (quoted, as JSON
/// and Rust quote strings, when `quoted`), `after`.
#[cold]
#[inline(never)]
fn err_with(id: &str, before: &str, value: &str, quoted: bool, after: &str) -> String {
    let value = if quoted {
        quote(value)
    } else {
        value.to_string()
    };
    err(id, &[before, &value, after].concat())
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// One value or a non-empty list of them, each read by `f`; `None` when
/// the list is empty or one is not readable.
fn one_or_list<T>(v: &Value, f: impl Fn(&Value) -> Option<T>) -> Option<Vec<T>> {
    let items = match v {
        Value::Array(a) => &a[..],
        one => std::slice::from_ref(one),
    };
    let mut out = Vec::with_capacity(items.len());
    for v in items {
        out.push(f(v)?);
    }
    (!out.is_empty()).then_some(out)
}

/// One value or a non-empty list of them, as one text of lines (what
/// [`Test::In`] and [`Test::NameIn`] read).
fn texts(id: &str, key: &str, v: &Value) -> Result<S, String> {
    match one_or_list(v, text) {
        Some(l) if l.iter().all(|t| !t.contains('\n')) => Ok(Cow::Owned(l.join("\n"))),
        Some(_) => Err(err_with(
            id,
            "`",
            key,
            false,
            "` values must not contain a line break",
        )),
        None => Err(err_with(
            id,
            "`",
            key,
            false,
            "` must be a string, number or boolean, or a non-empty list of them",
        )),
    }
}

/// A location: `code`, `body.error.code`, `body.errors[].extensions.code`,
/// `headers.retry-after`, `cause.name`. Segments are non-empty; `[]` only
/// ends a segment.
pub fn check_path(id: &str, p: &str) -> Result<(), String> {
    if p.is_empty() || p.len() > 256 {
        return Err(err_with(id, "path ", p, true, " must have 1 to 256 bytes"));
    }
    for seg in p.split('.') {
        let name = seg.strip_suffix("[]").unwrap_or(seg);
        if name.is_empty() || name.contains('[') || name.contains(']') {
            return Err(err_with(
                id,
                "path ",
                p,
                true,
                " has an empty or malformed segment",
            ));
        }
    }
    if p.starts_with("headers.") && p.split('.').count() != 2 {
        return Err(err_with(
            id,
            "path ",
            p,
            true,
            ": a header path is `headers.NAME`",
        ));
    }
    Ok(())
}

fn status_ranges(id: &str, v: &Value) -> Result<Cow<'static, [(u16, u16)]>, String> {
    let one = |v: &Value| -> Option<(u16, u16)> {
        match v {
            Value::Number(n) => {
                let n = n.as_u64().filter(|n| (100..=599).contains(n))? as u16;
                Some((n, n))
            }
            Value::String(s) if s.len() == 3 && s.ends_with("xx") => {
                let d = s.as_bytes()[0];
                (b'1'..=b'5')
                    .contains(&d)
                    .then(|| (u16::from(d - b'0') * 100, u16::from(d - b'0') * 100 + 99))
            }
            _ => None,
        }
    };
    match one_or_list(v, one) {
        Some(l) => Ok(l.into()),
        None => Err(err(
            id,
            "`status` must be an HTTP status (100-599), a class such as \"5xx\", or a list of them",
        )),
    }
}

/// One `when` object: every key in it is a condition, all must hold.
fn conditions(id: &str, v: &Value, out: &mut Vec<Cond>) -> Result<(), String> {
    let Value::Object(m) = v else {
        return Err(err(id, "`when` must be an object or a list of objects"));
    };
    let path = match get(m, "path") {
        Some(Value::String(p)) => {
            check_path(id, p)?;
            Some(p.as_str())
        }
        Some(_) => return Err(err(id, "`path` must be a string")),
        None => None,
    };
    let mut tests = 0;
    for (k, v) in m {
        let k = k.as_str();
        let (at, test) = match k {
            "path" => continue,
            "status" => {
                out.push(Cond::Status(status_ranges(id, v)?));
                continue;
            }
            "name" => ("name", Test::NameIn(texts(id, k, v)?)),
            "code" => ("code", Test::In(texts(id, k, v)?)),
            "message" => ("message", Test::Contains(phrase(id, k, v)?)),
            "equals" | "in" | "contains" | "prefix" | "exists" => {
                tests += 1;
                let Some(p) = path else {
                    return Err(err_with(id, "`", k, false, "` needs a `path`"));
                };
                let test = match k {
                    "contains" => Test::Contains(phrase(id, k, v)?),
                    "prefix" => Test::Prefix(phrase(id, k, v)?),
                    "exists" => match v {
                        Value::Bool(b) => Test::Exists(*b),
                        _ => return Err(err(id, "`exists` must be true or false")),
                    },
                    _ => Test::In(texts(id, k, v)?),
                };
                (p, test)
            }
            other => {
                return Err(err_with(id, "unknown condition ", other, true, " (status, name, code, message, path with equals / in / contains / prefix / exists)"))
            }
        };
        out.push(Cond::At(Loc::parse(at), test));
    }
    if path.is_some() && tests != 1 {
        return Err(err(
            id,
            "a `path` takes exactly one of equals, in, contains, prefix, exists",
        ));
    }
    Ok(())
}

fn phrase(id: &str, key: &str, v: &Value) -> Result<S, String> {
    match v {
        Value::String(s) if !s.trim().is_empty() && s.len() <= 256 => {
            Ok(Cow::Owned(s.to_ascii_lowercase()))
        }
        _ => Err(err_with(
            id,
            "`",
            key,
            false,
            "` must be a non-empty string of at most 256 bytes",
        )),
    }
}

fn delay(id: &str, v: &Value) -> Result<Delay, String> {
    let bad = || {
        err(
            id,
            "`retry_after` must be {\"path\": \"…\", \"unit\": \"s\" or \"ms\"}",
        )
    };
    let Value::Object(m) = v else {
        return Err(bad());
    };
    let at = match get(m, "path") {
        Some(Value::String(p)) => {
            check_path(id, p)?;
            Loc::parse(p)
        }
        _ => return Err(bad()),
    };
    let scale_ms = match get(m, "unit").and_then(Value::as_str) {
        None | Some("s") => 1000,
        Some("ms") => 1,
        Some(_) => return Err(bad()),
    };
    if m.keys().any(|k| k != "path" && k != "unit") {
        return Err(bad());
    }
    Ok(Delay { at, scale_ms })
}

/// A row's verdict, from the row's object (a table) or the rule's (a single
/// rule): the code's index, retryable, and the delay if it names one.
type Verdict = (u8, Option<bool>, Option<Delay>);

fn verdict(
    id: &str,
    m: &serde_json::Map<String, Value>,
    codes: &[&str],
) -> Result<Verdict, String> {
    let code = match get(m, "code") {
        Some(Value::String(c)) => match codes.iter().position(|k| k == c) {
            Some(i) => i as u8,
            None => {
                return Err(err_with(
                    id,
                    "unknown code ",
                    c,
                    true,
                    &[" (one of ", &codes.join(", "), ")"].concat(),
                ))
            }
        },
        _ => return Err(err(id, "`code` (a canonical code) is required")),
    };
    let retryable = match get(m, "retryable") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return Err(err(id, "`retryable` must be true or false")),
    };
    let retry_after = get(m, "retry_after").map(|v| delay(id, v)).transpose()?;
    Ok((code, retryable, retry_after))
}

/// Sort in place, in O(n log n) and a few hundred bytes of code (the
/// standard sorts cost kilobytes in the component).
pub(crate) fn heap_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let sift = |v: &mut [T], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            break;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            break;
        }
        v.swap(root, child);
        root = child;
    };
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift(v, i, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

/// One rule or table. `codes` are the canonical code names in taxonomy
/// order. `family` is the tag of a shipped file's rule; a user's rule
/// (`None`) is called `rule ID` and has the user strength. A rule with no
/// `id` takes its position, `#N`.
pub fn parse_rule(
    v: &Value,
    index: usize,
    codes: &[&str],
    family: Option<&str>,
) -> Result<Table, String> {
    let Value::Object(m) = v else {
        return Err(format!("rule #{index}: a rule must be a JSON object"));
    };
    let id = match get(m, "id") {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 128 => s.clone(),
        Some(_) => {
            return Err(format!(
                "rule #{index}: `id` must be a string of 1 to 128 bytes"
            ))
        }
        None => format!("#{index}"),
    };
    let id = id.as_str();
    let providers = match (get(m, "providers"), family) {
        (None, f) => f.unwrap_or("").to_string(),
        (Some(Value::Array(list)), Some(_)) if !list.is_empty() => {
            let mut out = Vec::with_capacity(list.len());
            for p in list {
                match p.as_str() {
                    Some(s) if is_slug(s) => out.push(s),
                    _ => {
                        return Err(err(
                            id,
                            "`providers` holds lowercase kebab slugs (`aws-s3`)",
                        ))
                    }
                }
            }
            out.join(" ")
        }
        (Some(_), Some(_)) => return Err(err(id, "`providers` must be a non-empty list of slugs")),
        // A user's rule is the user's own knowledge: no provider to leave out.
        (Some(_), None) => return Err(err_with(id, "unknown field ", "providers", true, "")),
    };
    const KEYS: [&str; 12] = [
        "id",
        "source",
        "providers",
        "when",
        "at",
        "take",
        "tier",
        "rows",
        "code",
        "retryable",
        "retry_after",
        "note",
    ];
    if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(err_with(id, "unknown field ", k, true, ""));
    }
    let mut when = Vec::new();
    match get(m, "when") {
        None => {}
        Some(Value::Array(list)) => {
            for c in list {
                conditions(id, c, &mut when)?;
            }
        }
        Some(c) => conditions(id, c, &mut when)?,
    }
    let bad_at = || err(id, "`at` must be a path or a list of 1 to 8 paths");
    let at: Vec<&str> = match get(m, "at") {
        None => Vec::new(),
        Some(Value::String(p)) => vec![p.as_str()],
        Some(Value::Array(a)) if !a.is_empty() && a.len() <= 8 => {
            let mut out = Vec::with_capacity(a.len());
            for p in a {
                out.push(p.as_str().ok_or_else(bad_at)?);
            }
            out
        }
        Some(_) => return Err(bad_at()),
    };
    for p in &at {
        check_path(id, p)?;
    }
    let take = match get(m, "take") {
        None => Take::Exact,
        Some(Value::String(t)) => Take::ALL
            .iter()
            .find(|(n, _)| n == t)
            .map(|(_, t)| *t)
            .ok_or_else(|| err_with(id, "unknown `take` ", t, true, ""))?,
        Some(_) => return Err(err(id, "`take` must be a string")),
    };
    let tier = match get(m, "tier") {
        None => None,
        Some(Value::String(t)) if TIERS.contains(&t.as_str()) && t != "user" => Some(t.as_str()),
        Some(_) => {
            return Err(err_with(
                id,
                "`tier` must be one of ",
                &TIERS[1..].join(", "),
                false,
                "",
            ))
        }
    };
    // (key, verdict) per row; a single rule has one, keyed "".
    let mut rows: Vec<(String, Verdict)> = match (get(m, "rows"), at.is_empty()) {
        (Some(Value::Object(rows)), false) => {
            if get(m, "code").is_some() || get(m, "retryable").is_some() {
                return Err(err(id, "a table gives `code` and `retryable` per row"));
            }
            if rows.is_empty() {
                return Err(err(id, "`rows` is empty"));
            }
            let mut out = Vec::with_capacity(rows.len());
            for (key, row) in rows {
                let Value::Object(r) = row else {
                    return Err(err_with(id, "row ", key, true, " must be an object"));
                };
                if let Some(k) = r.keys().find(|k| {
                    !["code", "retryable", "retry_after", "note", "source"].contains(&k.as_str())
                }) {
                    return Err(err_with(
                        id,
                        "row ",
                        key,
                        true,
                        &format!(": unknown field {}", quote(k)),
                    ));
                }
                let key = if take == Take::Phrase {
                    key.to_ascii_lowercase()
                } else {
                    key.clone()
                };
                if key.is_empty() || key.len() > 256 {
                    return Err(err(id, "a row key must have 1 to 256 bytes"));
                }
                if take == Take::Phrase
                    && (key.len() < 2 || !key.as_bytes()[0].is_ascii_alphanumeric())
                {
                    return Err(err(
                        id,
                        "a phrase key has two bytes or more and starts with a letter or digit",
                    ));
                }
                let mut verdict = verdict(id, r, codes)?;
                if verdict.2.is_none() {
                    verdict.2 = get(m, "retry_after").map(|v| delay(id, v)).transpose()?;
                }
                out.push((key, verdict));
            }
            out
        }
        (None, true) => {
            if when.is_empty() {
                return Err(err(id, "`when` must hold at least one condition"));
            }
            vec![(String::new(), verdict(id, m, codes)?)]
        }
        (Some(_), true) => return Err(err(id, "`rows` needs `at`")),
        (_, false) => return Err(err(id, "`at` needs `rows` (an object of value -> verdict)")),
    };
    heap_sort(&mut rows, |a, b| a.0 < b.0);
    if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(err_with(id, "row ", &w[0].0, true, " twice"));
    }
    // The keys one after the other; each row its end and its delay's index.
    let mut keys = String::new();
    let mut delays: Vec<Delay> = Vec::new();
    let rows: Vec<Row> = rows
        .into_iter()
        .map(|(key, (code, retryable, delay))| {
            keys.push_str(&key);
            let delay = delay.map_or(0, |d| {
                let i = delays.iter().position(|x| *x == d).unwrap_or_else(|| {
                    delays.push(d);
                    delays.len() - 1
                });
                // At most MAX_USER_ROWS delays in a user's table: fits.
                i as u16 + 1
            });
            Row {
                // Checked below: the keys fit in 64 KiB.
                end: keys.len() as u16,
                delay,
                code,
                retryable,
            }
        })
        .collect();
    if keys.len() > usize::from(u16::MAX) {
        return Err(err(id, "its row keys come to more than 65535 bytes"));
    }
    let at: Vec<Loc> = at.iter().map(|p| Loc::parse(p)).collect();
    let (tag, strength) = match family {
        None => (format!("rule {id}"), USER_STRENGTH),
        Some(f) => (
            f.to_string(),
            tier_strength(tier.unwrap_or_else(|| default_tier(take, &at, &when))),
        ),
    };
    Ok(Table {
        tag: Cow::Owned(tag),
        providers: Cow::Owned(providers),
        at: at.into(),
        take,
        when: when.into(),
        strength,
        keys: Cow::Owned(keys),
        rows: rows.into(),
        delays: delays.into(),
    })
}

/// A provider slug: lowercase letters, digits and single inner hyphens.
fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.as_bytes().windows(2).any(|w| w == b"--")
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A user rule set: a JSON array of rules (or `{"rules": [...]}`).
pub fn parse_rules(v: &Value, codes: &[&str]) -> Result<Vec<Table>, String> {
    let list = match v {
        Value::Array(a) => a,
        Value::Object(m) if m.len() == 1 => match get(m, "rules") {
            Some(Value::Array(a)) => a,
            _ => return Err("rules must be a JSON array of rules".into()),
        },
        _ => return Err("rules must be a JSON array of rules".into()),
    };
    if list.len() > MAX_USER_RULES {
        return Err(format!(
            "rules: {} rules; at most {MAX_USER_RULES}",
            list.len()
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    let mut rows = 0;
    for (i, r) in list.iter().enumerate() {
        let t = parse_rule(r, i, codes, None)?;
        rows += t.rows.len();
        if rows > MAX_USER_ROWS {
            return Err(format!("rules: more than {MAX_USER_ROWS} rows in all"));
        }
        out.push(t);
    }
    Ok(out)
}

/// A shipped rule file: `{"family", "tag", "source", "rules": [...]}`.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub family: String,
    pub tag: String,
    pub source: String,
    pub rules: Vec<Table>,
}

pub fn parse_file(v: &Value, codes: &[&str]) -> Result<File, String> {
    let field = |k: &str| -> Result<String, String> {
        v.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .ok_or_else(|| format!("a rule file needs a non-empty `{k}`"))
    };
    let (family, tag, source) = (field("family")?, field("tag")?, field("source")?);
    let Some(Value::Array(list)) = v.get("rules") else {
        return Err("a rule file needs `rules`, a list".into());
    };
    let rules = list
        .iter()
        .enumerate()
        .map(|(i, r)| parse_rule(r, i, codes, Some(&tag)).map_err(|e| format!("{tag}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(File {
        family,
        tag,
        source,
        rules,
    })
}
