//! Recognizer rules: provider and library knowledge as data.
//!
//! The rules the library ships live in `rules/*.json` at the repository root,
//! one file per family, each rule with its documented source. `build.rs`
//! reads them with `form` (the parser user rules go through too) and
//! compiles them into the static tables below, sorted for lookup; the
//! sources stay in the JSON. A user's rules (the `rules` option) become the
//! same tables at run time. Adding a provider is adding rows and vectors.

// Shared with build.rs, which uses the parts the matcher does not (reading
// whole files, the filter's seeds, a location's first member).
#[allow(dead_code)]
pub(crate) mod form;

use std::borrow::Cow;

use crate::input::{Map, Value};
use crate::taxonomy::Code;
use crate::text::TrimFast;

pub(crate) use form::Take;
pub(crate) use form::{Cond, Delay, Loc, Row, Seg, Table, Test, View};

/// A row's canonical code (the parser gives its index in the taxonomy).
fn code_of(row: &Row) -> Code {
    crate::taxonomy::TABLE
        .get(row.code as usize)
        .map_or(Code::Unknown, |i| i.code)
}

/// The canonical code names, for the parser.
pub(crate) fn code_names() -> Vec<&'static str> {
    crate::taxonomy::TABLE.iter().map(|i| i.name).collect()
}

/// A user rule set, parsed and compiled: JSON text (an array of rules).
/// A bad rule is an `invalid_option` error that names it.
pub fn parse_user_rules(text: &str) -> Result<UserRules, crate::Error> {
    let value: serde_json::Value = crate::parse_json(text)
        .map_err(|e| crate::Error::InvalidOption(format!("rules: {}", e.detail())))?;
    UserRules::from_value(&value)
}

/// Rules a user passes: beat every built-in signal, in their order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserRules(pub(crate) std::sync::Arc<[Table]>);

impl UserRules {
    /// From a parsed JSON value (an array of rules, or `{"rules": [...]}`).
    pub fn from_value(value: &serde_json::Value) -> Result<UserRules, crate::Error> {
        let tables =
            form::parse_rules(value, &code_names()).map_err(crate::Error::InvalidOption)?;
        Ok(UserRules(tables.into()))
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many rules (tables) there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

// ---------------------------------------------------------------- matching

/// What a node offers the rules.
pub(crate) struct Ctx<'n, 'a> {
    pub node: &'n Map<'a>,
    pub body: Option<&'n Value<'a>>,
    pub headers: &'n [(String, String)],
    pub status: Option<u16>,
}

/// A rule's verdict on a node.
pub(crate) struct Hit<'t> {
    pub table: View<'t>,
    pub row: &'t Row,
    /// The value that matched, for evidence (a row key or nothing).
    pub key: Option<&'t str>,
}

impl Hit<'_> {
    /// The row's canonical code.
    pub(crate) fn code(&self) -> Code {
        code_of(self.row)
    }

    /// Where the row's retry delay is, if it names one.
    pub(crate) fn delay(&self) -> Option<&Delay> {
        (self.row.delay as usize)
            .checked_sub(1)
            .and_then(|i| self.table.delays.get(i))
    }
}

impl Ctx<'_, '_> {
    /// Visit the values at `loc`; stop (and answer true) when `f` does.
    fn visit(&self, l: &Loc, f: &mut dyn FnMut(&Value<'_>) -> bool) -> bool {
        let Some((first, rest)) = Loc::head(&l.0) else {
            return false;
        };
        match first {
            Seg::Key("body") => match self.body {
                Some(b) => walk(b, rest, f),
                None => false,
            },
            Seg::Each("body") => match self.body {
                Some(Value::Array(a)) => a.iter().take(16).any(|v| walk(v, rest, f)),
                _ => false,
            },
            Seg::Key("headers") => {
                let Some((Seg::Key(name), "")) = Loc::head(rest) else {
                    return false;
                };
                self.headers
                    .iter()
                    .filter(|(h, _)| h.eq_ignore_ascii_case(name))
                    .any(|(_, v)| f(&Value::String(Cow::Borrowed(v.as_str()))))
            }
            Seg::Key(k) => match self.node.get(k) {
                Some(v) => walk(v, rest, f),
                None => false,
            },
            Seg::Each(k) => match self.node.get(k) {
                Some(Value::Array(a)) => a.iter().take(16).any(|v| walk(v, rest, f)),
                _ => false,
            },
        }
    }

    fn holds(&self, c: &Cond) -> bool {
        match c {
            Cond::Status(ranges) => self
                .status
                .is_some_and(|s| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&s))),
            Cond::At(l, Test::Exists(want)) => {
                let found = self.visit(l, &mut |v| !v.is_null());
                found == *want
            }
            Cond::At(l, t) => self.visit(l, &mut |v| test(t, v)),
        }
    }
}

/// Visit the values at `path` (the rest of a location) under `v`.
fn walk(v: &Value<'_>, path: &str, f: &mut dyn FnMut(&Value<'_>) -> bool) -> bool {
    match Loc::head(path) {
        None => f(v),
        Some((Seg::Key(k), rest)) => match v.get(k) {
            Some(x) => walk(x, rest, f),
            None => false,
        },
        Some((Seg::Each(k), rest)) => match v.get(k) {
            Some(Value::Array(a)) => a.iter().take(16).any(|x| walk(x, rest, f)),
            _ => false,
        },
    }
}

/// A scalar as the text keys are compared with. An integer is written into
/// `digits`: no allocation.
fn scalar<'v>(v: &'v Value<'_>, digits: &'v mut [u8; 21]) -> Option<Cow<'v, str>> {
    match v {
        Value::String(s) => Some(Cow::Borrowed(s.trim_fast())),
        Value::Number(n) => Some(match n.as_i64() {
            Some(i) => Cow::Borrowed(crate::text::decimal(i < 0, i.unsigned_abs(), digits)),
            None => Cow::Owned(n.to_string()),
        }),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// The last segment of a class name: after `.`, `:` or `$`.
pub(crate) fn last_segment(name: &str) -> &str {
    match name.bytes().rposition(|b| matches!(b, b'.' | b':' | b'$')) {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

fn test(t: &Test, v: &Value<'_>) -> bool {
    let mut digits = [0u8; 21];
    let Some(s) = scalar(v, &mut digits) else {
        return false;
    };
    match t {
        Test::In(list) => list.split('\n').any(|k| crate::text::same(k, &s)),
        Test::NameIn(list) => {
            let last = last_segment(&s);
            list.split('\n')
                .any(|k| crate::text::same(k, &s) || crate::text::same(k, last))
        }
        Test::Contains(p) => phrase_at(&s, p).is_some(),
        Test::Prefix(p) => s
            .as_bytes()
            .get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes())),
        Test::Exists(want) => *want,
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// In [`BYTE_CLASS`]: an ASCII letter or digit.
const ALNUM: u8 = 1;
/// In [`BYTE_CLASS`]: a word byte ([`is_word`]).
const WORD: u8 = 2;

/// Each byte's [`ALNUM`] and [`WORD`] bits: one load a byte in the phrase scan.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = ALNUM | WORD;
        } else if c == b'_' {
            t[b] = WORD;
        }
        b += 1;
    }
    t
};

/// The first of `n` sorted items that is not `below` (a binary search).
fn lower_bound(n: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Whether a phrase may start at `i` in `t`: a letter or digit after no
/// word byte.
fn word_start(t: &[u8], i: usize) -> bool {
    t[i].is_ascii_alphanumeric() && (i == 0 || !is_word(t[i - 1]))
}

/// Where `phrase` (lowercase) starts in `text`, any case, at a word start.
fn phrase_at(text: &str, phrase: &str) -> Option<usize> {
    let t = text.as_bytes();
    let p = phrase.as_bytes();
    let first = *p.first()?;
    let mut i = 0;
    while i + p.len() <= t.len() {
        if t[i].eq_ignore_ascii_case(&first)
            && (i == 0 || !is_word(t[i - 1]) || !is_word(first))
            && t[i..i + p.len()].eq_ignore_ascii_case(p)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

impl<'t> View<'t> {
    /// The first row whose key is not `below` (the rows are sorted).
    fn lower_bound(&self, below: impl Fn(&[u8]) -> bool) -> usize {
        lower_bound(self.rows.len(), |i| below(self.key(i)))
    }

    fn row(&self, key: &str) -> Option<usize> {
        let key = key.as_bytes();
        let i = self.lower_bound(|k| k < key);
        (i < self.rows.len() && self.key(i) == key).then_some(i)
    }

    /// The row whose phrase starts at a word of `text`, any case; the
    /// earliest in the text. A phrase starts with a letter or digit; keys
    /// (lowercase, two bytes or more) that start with the text's next two
    /// bytes are a range of the sorted rows.
    fn phrase_row(&self, text: &str) -> Option<usize> {
        let t = text.as_bytes();
        for i in (0..t.len().saturating_sub(1)).filter(|&i| word_start(t, i)) {
            let p = [t[i].to_ascii_lowercase(), t[i + 1].to_ascii_lowercase()];
            let lo = self.lower_bound(|k| k.get(..2).unwrap_or(b"") < &p[..]);
            for r in lo..self.rows.len() {
                let k = self.key(r);
                if k.get(..2) != Some(&p[..]) {
                    break;
                }
                if t.len() - i >= k.len() && t[i..i + k.len()].eq_ignore_ascii_case(k) {
                    return Some(r);
                }
            }
        }
        None
    }

    /// The row a node's value at `at` selects.
    fn keyed(&self, cx: &Ctx<'_, '_>) -> Option<usize> {
        let mut hit: Option<usize> = None;
        for l in self.at.iter() {
            cx.visit(l, &mut |v| {
                let mut digits = [0u8; 21];
                let Some(s) = scalar(v, &mut digits) else {
                    return false;
                };
                hit = match self.take {
                    Take::Exact => self.row(&s),
                    Take::Name => self.row(&s).or_else(|| {
                        let last = last_segment(&s);
                        (last.len() < s.len()).then(|| self.row(last)).flatten()
                    }),
                    Take::FirstWord => self.row(first_word(&s)),
                    Take::Prefix2 => s.get(..2).and_then(|p| self.row(p)),
                    Take::Phrase => self.phrase_row(&s),
                };
                hit.is_some()
            });
            if hit.is_some() {
                return hit;
            }
        }
        None
    }

    /// The table's verdict with row `i` found, if `when` holds.
    fn hit_row(self, cx: &Ctx<'_, '_>, i: usize) -> Option<Hit<'t>> {
        self.when.iter().all(|c| cx.holds(c)).then(|| self.hit(i))
    }

    /// The verdict of row `i`, naming its key.
    fn hit(self, i: usize) -> Hit<'t> {
        Hit {
            table: self,
            row: &self.rows[i],
            key: Some(self.key_str(i)),
        }
    }

    /// This table's verdict on a node, if a row matches and `when` holds.
    pub(crate) fn matches(self, cx: &Ctx<'_, '_>) -> Option<Hit<'t>> {
        // The conditions first: most cost less than finding the key.
        if !self.when.iter().all(|c| cx.holds(c)) {
            return None;
        }
        if self.at.is_empty() {
            return Some(Hit {
                table: self,
                row: self.rows.first()?,
                key: None,
            });
        }
        self.keyed(cx).map(|i| self.hit(i))
    }
}

/// A delay stated at `d` in the node: a non-negative number or numeric
/// text, in the delay's unit; fractions of a millisecond round up.
pub(crate) fn delay_ms(cx: &Ctx<'_, '_>, d: &Delay) -> Option<u64> {
    let mut out = None;
    cx.visit(&d.at, &mut |v| {
        let mut digits = [0u8; 21];
        out = scalar(v, &mut digits).and_then(|s| scaled(s.as_ref(), d.scale_ms));
        out.is_some()
    });
    out
}

/// `26`, `1.5`, `64.57` times `scale_ms`, rounded up to a whole millisecond.
pub(crate) fn scaled(s: &str, scale_ms: u32) -> Option<u64> {
    // Six decimals are enough for microseconds of a second.
    let micro = crate::text::parse_decimal(s.trim_fast(), 6)?;
    let ms_x1000 = micro.saturating_mul(u64::from(scale_ms));
    Some(ms_x1000 / 1_000_000 + u64::from(ms_x1000 % 1_000_000 != 0))
}

include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));

/// The built-in rule is turned off: the leave-one-provider-out evaluation
/// scores one of its providers (only its build has the tags).
fn left_out(table: &View<'_>) -> bool {
    #[cfg(feature = "leave-out")]
    return crate::leave_out::off(table.providers);
    #[cfg(not(feature = "leave-out"))]
    {
        let _ = table;
        false
    }
}

/// The rule tables the library ships (the tests compare them with the files).
#[cfg(test)]
pub(crate) fn builtin() -> &'static [View<'static>] {
    BUILTIN
}

/// The shipped families: (family, tag, number of rows), in file order (each
/// file names its sources; they stay out of the binary).
pub fn families() -> &'static [(&'static str, &'static str, usize)] {
    FAMILIES
}

/// The built-in tables that may match at one member of a node (or at
/// `body` / `headers`), in order; the masks (bit `j` is `tables[j]`) screen
/// them (see `each_match`).
struct Anchor {
    member: &'static str,
    tables: &'static [u16],
    /// Keyed at members only (or needing the member's value in a list), by
    /// take, with the filter's seed for this member and take: passed over
    /// when the member's value has none of its forms in the key filter.
    keyed: &'static [(Take, u64, u32)],
    /// Keyed at members and at `body` or `headers`: screened the same way
    /// when the node has neither.
    keyed_bare: &'static [(Take, u64, u32)],
    /// Phrase tables at this member, found through its phrase index.
    phrased: u64,
}

/// Whether a built-in table keyed at a member by `take` (`seed`:
/// `form::filter_seed(member, take)`) may hold a key for the member's value
/// `s`: a form `take` looks up has all its bits in the key filter.
/// A value's key screens, with the hash of the whole value computed once for
/// every take that needs it (`exact` and `name` both do).
struct Screen<'s> {
    s: &'s str,
    full: Option<u32>,
}

impl Screen<'_> {
    // Inlined in the component, where `opt-level = "z"` keeps it a call.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn passes(&mut self, seed: u32, take: Take) -> bool {
        let passes = |hash: u32| {
            form::filter_bits(hash, seed)
                .iter()
                .all(|&b| KEY_FILTER[b / 64] >> (b % 64) & 1 != 0)
        };
        let s = self.s;
        match take {
            Take::Exact => passes(self.full()),
            Take::Name => {
                let last = last_segment(s);
                passes(self.full())
                    || (last.len() < s.len() && passes(form::key_hash(last.as_bytes())))
            }
            Take::FirstWord => passes(form::key_hash(first_word(s).as_bytes())),
            Take::Prefix2 => s
                .get(..2)
                .is_some_and(|p| passes(form::key_hash(p.as_bytes()))),
            Take::Phrase => true,
        }
    }

    // Inlined in the component, where `opt-level = "z"` keeps it a call.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn full(&mut self) -> u32 {
        *self
            .full
            .get_or_insert_with(|| form::key_hash(self.s.as_bytes()))
    }
}

/// The text up to its first space or `:`.
fn first_word(s: &str) -> &str {
    let end = s
        .bytes()
        .position(|b| b == b':' || b.is_ascii_whitespace())
        .unwrap_or(s.len());
    &s[..end]
}

/// The phrases of a member's phrase tables in its text: for each table (by
/// index), the row found at the earliest word, as `phrase_row` finds it.
/// One pass over the text for all the tables: at a word's start, the
/// member's `starts` (a bit per first letter or digit and second byte)
/// passes most words at once; else the merged keys are searched.
fn phrase_hits(member: &str, text: &str) -> Vec<(u16, u16)> {
    let mut hits: Vec<(u16, u16)> = Vec::new();
    let Some(index) = PHRASE_INDEX
        .iter()
        .find(|p| crate::text::same(p.member, member))
    else {
        return hits;
    };
    let rows = index.rows;
    let key = |(table, row): (u16, u16)| BUILTIN[usize::from(table)].key(usize::from(row));
    let t = text.as_bytes();
    // Word starts only (`word_start`): the next letter or digit, which
    // starts a word unless a word byte is before it; then past its word.
    let last = t.len().saturating_sub(1);
    let mut from = 0;
    while from < last {
        let Some(skip) = t[from..last]
            .iter()
            .position(|&x| BYTE_CLASS[usize::from(x)] & ALNUM != 0)
        else {
            break;
        };
        let i = from + skip;
        from = i
            + 1
            + t[i + 1..]
                .iter()
                .position(|&x| BYTE_CLASS[usize::from(x)] & WORD == 0)
                .unwrap_or(t.len() - i - 1);
        if i > 0 && BYTE_CLASS[usize::from(t[i - 1])] & WORD != 0 {
            continue;
        }
        let a = t[i];
        let b = t[i + 1].to_ascii_lowercase();
        if index.starts[usize::from(form::start_class(a))] >> (b & 31) & 1 == 0 {
            continue;
        }
        // Keys are two bytes or more: their first two, as a number.
        let p = u16::from_be_bytes([a.to_ascii_lowercase(), b]);
        let lo = index.pairs.partition_point(|&q| q < p);
        let hi = lo + index.pairs[lo..].iter().take_while(|&&q| q == p).count();
        // The text's head against each key's: one compare passes over most
        // candidates.
        let next = form::head(&t[i..]);
        let heads = index.heads[lo..hi].iter().zip(&index.lens[lo..hi]);
        for (&(table, row), (&head, &len)) in rows[lo..hi].iter().zip(heads) {
            if next & form::head_mask(usize::from(len)) != head {
                continue;
            }
            let k = key((table, row));
            if t.len() - i >= k.len()
                && (k.len() <= 8 || t[i + 8..i + k.len()].eq_ignore_ascii_case(&k[8..]))
                && !hits.iter().any(|h| h.0 == table)
            {
                hits.push((table, row));
            }
        }
    }
    hits
}

/// A member's phrase index: every key of its phrase tables, sorted, as
/// (table, row), and the (first, second) byte pairs the keys start with:
/// as a filter by first byte class and second byte, and as one number per
/// row (`pairs`, beside `rows`), searched without reading the keys.
struct PhraseIndex {
    member: &'static str,
    starts: [u32; 36],
    rows: &'static [(u16, u16)],
    pairs: &'static [u16],
    /// Beside `rows`: each key's head (`form::head`) and (`lens`) how many
    /// bytes of it the key fills.
    heads: &'static [u64],
    lens: &'static [u8],
}

/// Visit every table that may match `cx`: the user's (all, in order), then
/// the built-ins anchored at one of the node's members (or at `body` /
/// `headers` when the node has them), each once, then those anchored
/// nowhere. A built-in keyed at members is passed over at once when the
/// member's value cannot be one of its keys (`Screen`); the phrase
/// tables at a member are searched together (`phrase_hits`): a call does
/// not search every table for every value.
pub(crate) fn each_match(cx: &Ctx<'_, '_>, user: &[Table], f: &mut dyn FnMut(Hit<'_>)) {
    for t in user {
        if let Some(h) = t.view().matches(cx) {
            f(h);
        }
    }
    let bare = cx.body.is_none() && cx.headers.is_empty();
    let mut done = [0u64; BUILTIN_WORDS];
    let mut run = |anchor: &str, value: Option<&Value<'_>>, f: &mut dyn FnMut(Hit<'_>)| {
        let bit = crate::input::key_bit(anchor);
        if ANCHOR_BITS & bit == 0 {
            return;
        }
        // The anchor its bit names, checked; the few bits two anchors share are searched.
        let a = match ANCHOR_BY_BIT[bit.trailing_zeros() as usize] {
            SHARED_BIT => ANCHORS.iter().find(|a| crate::text::same(a.member, anchor)),
            i => Some(&ANCHORS[usize::from(i)]).filter(|a| crate::text::same(a.member, anchor)),
        };
        let Some(a) = a else {
            return;
        };
        let mut active: u64 = u64::MAX >> (64 - a.tables.len());
        let mut digits = [0u8; 21];
        let text = value.and_then(|v| scalar(v, &mut digits));
        let mut phrases: Vec<(u16, u16)> = Vec::new();
        match &text {
            Some(s) => {
                let mut hashes = Screen { s, full: None };
                let mut screen = |list: &[(Take, u64, u32)]| {
                    for &(take, mask, seed) in list {
                        if active & mask != 0 && !hashes.passes(seed, take) {
                            active &= !mask;
                        }
                    }
                };
                screen(a.keyed);
                if bare {
                    screen(a.keyed_bare);
                }
                if active & a.phrased != 0 {
                    phrases = phrase_hits(anchor, s);
                    // A phrase table none of whose phrases is in the text
                    // cannot match: passed over without a look.
                    let mut found = 0u64;
                    for &(t, _) in &phrases {
                        if let Some(j) = a.tables.iter().position(|&x| x == t) {
                            found |= 1 << j;
                        }
                    }
                    active &= !a.phrased | found;
                }
            }
            // A value that is no text: the member-keyed tables cannot match
            // through it.
            None if value.is_some() => {
                active &= !(a.phrased | a.keyed.iter().fold(0, |m, k| m | k.1));
            }
            None => {}
        }
        while active != 0 {
            let j = active.trailing_zeros() as usize;
            active &= active - 1;
            let t = usize::from(a.tables[j]);
            if done[t / 64] >> (t % 64) & 1 != 0 {
                continue;
            }
            done[t / 64] |= 1 << (t % 64);
            let table = BUILTIN[t];
            if left_out(&table) {
                continue;
            }
            let hit = if a.phrased >> j & 1 != 0 {
                // The table's row is among the member's hits, or it has none.
                phrases
                    .iter()
                    .find(|h| usize::from(h.0) == t)
                    .and_then(|&(_, row)| table.hit_row(cx, usize::from(row)))
            } else {
                table.matches(cx)
            };
            if let Some(h) = hit {
                f(h);
            }
        }
    };
    for (k, v) in cx.node.iter() {
        if k != "headers" && k != "body" {
            run(k, Some(v), f);
        }
    }
    if cx.body.is_some() {
        run("body", None, f);
    }
    if !cx.headers.is_empty() {
        run("headers", None, f);
    }
    for &t in UNANCHORED {
        let table = BUILTIN[t as usize];
        if left_out(&table) {
            continue;
        }
        if let Some(h) = table.matches(cx) {
            f(h);
        }
    }
}

/// Every anchor's bit as the parser's key sets have it: most members of a
/// node are no anchor, and are passed over at once.
const ANCHOR_BITS: u64 = {
    let mut bits = 0;
    let mut i = 0;
    while i < ANCHOR_NAMES.len() {
        bits |= crate::input::key_bit(ANCHOR_NAMES[i]);
        i += 1;
    }
    bits
};

/// In [`ANCHOR_BY_BIT`]: two anchors share the bit.
const SHARED_BIT: u8 = u8::MAX;

/// Each key bit's anchor (its index in `ANCHORS`, which `ANCHOR_NAMES` follows), or
/// [`SHARED_BIT`]; a bit no anchor has is never looked up (`ANCHOR_BITS`).
const ANCHOR_BY_BIT: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut seen = 0u64;
    let mut i = 0;
    while i < ANCHOR_NAMES.len() {
        let bit = crate::input::key_bit(ANCHOR_NAMES[i]);
        let at = bit.trailing_zeros() as usize;
        table[at] = if seen & bit != 0 { SHARED_BIT } else { i as u8 };
        seen |= bit;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_anchor_is_found_by_its_bit() {
        assert!(ANCHOR_NAMES.len() < usize::from(SHARED_BIT));
        for (i, name) in ANCHOR_NAMES.iter().enumerate() {
            assert_eq!(ANCHORS[i].member, *name);
            let by_bit = ANCHOR_BY_BIT[crate::input::key_bit(name).trailing_zeros() as usize];
            assert!(by_bit == SHARED_BIT || usize::from(by_bit) == i, "{name}");
        }
    }

    fn shipped() -> Vec<form::File> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
            // The lexicon and the credential formats are not recognizer files.
            .filter(|v: &serde_json::Value| v.get("rules").is_some())
            .map(|v| form::parse_file(&v, &code_names()).unwrap())
            .collect()
    }

    /// One form: the shipped files, read by the parser user rules go
    /// through and compiled at run time, are exactly the built-in tables.
    #[test]
    fn shipped_rules_are_the_user_form_compiled() {
        let parsed: Vec<Table> = shipped().into_iter().flat_map(|f| f.rules).collect();
        assert_eq!(parsed.len(), builtin().len());
        for (a, b) in parsed.iter().zip(builtin()) {
            assert_eq!(&a.view(), b, "{}", a.tag);
        }
        let files: Vec<_> = shipped().iter().map(|f| f.tag.clone()).collect();
        let tags: Vec<_> = families().iter().map(|f| f.1.to_string()).collect();
        assert_eq!(files, tags);
    }

    /// Every rule names where it comes from: its file's source, and its own
    /// (or its table's) when the file lists several.
    #[test]
    fn every_shipped_rule_has_a_source() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                continue;
            }
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(
                v["source"].as_str().is_some_and(|s| s.len() > 10),
                "{path:?}"
            );
        }
        // The lookup tables (rules/signals/): a source on every row.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/signals");
        let mut rows = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for row in v["rows"].as_array().unwrap() {
                assert!(
                    row["source"].as_str().is_some_and(|s| s.len() > 10),
                    "{path:?}: {row}"
                );
                rows += 1;
            }
        }
        assert!(rows > 350, "{rows}");
    }

    #[test]
    fn phrases_match_at_word_starts_in_any_case() {
        assert_eq!(
            phrase_at(
                "dial tcp: connect: Connection Refused",
                "connection refused"
            ),
            Some(19)
        );
        assert_eq!(
            phrase_at("reconnection refused", "connection refused"),
            None
        );
        assert_eq!(phrase_at("x509: certificate", "x509: certificate"), Some(0));
        assert_eq!(phrase_at("", "a"), None);
        let t = form::parse_rule(
            &serde_json::json!({"id": "t", "at": "message", "take": "phrase", "rows": {
                "connection reset": {"code": "NETWORK_ERROR"},
                "broken pipe": {"code": "NETWORK_ERROR"},
                "context canceled": {"code": "NETWORK_ERROR"},
                "connection refused": {"code": "NETWORK_ERROR"}}}),
            0,
            &code_names(),
            Some("t"),
        )
        .unwrap();
        let key = |m: &str| {
            t.view()
                .phrase_row(m)
                .map(|i| String::from_utf8(t.view().key(i).to_vec()).unwrap())
        };
        assert_eq!(
            key("read: CONNECTION RESET by peer").as_deref(),
            Some("connection reset")
        );
        assert_eq!(key("context canceled").as_deref(), Some("context canceled"));
        assert_eq!(
            key("write: broken pipe; connection refused").as_deref(),
            Some("broken pipe")
        );
        assert_eq!(key("reconnection reset"), None);
        assert_eq!(key("c"), None);
    }

    #[test]
    fn delays_scale_and_round_up() {
        assert_eq!(scaled("64.57", 1000), Some(64_570));
        assert_eq!(scaled("50.597142857", 1000), Some(50_598));
        assert_eq!(scaled("500", 1), Some(500));
        assert_eq!(scaled("0.5", 1), Some(1));
        assert_eq!(scaled("-1", 1000), None);
        assert_eq!(scaled("soon", 1000), None);
    }

    /// The key filter never passes over a table that holds the key: every
    /// key of every screened table (and every value a listed condition
    /// names) passes its anchor's screen.
    #[test]
    fn the_key_filter_passes_every_key_it_was_built_from() {
        let mut checked = 0;
        for a in ANCHORS {
            for list in [a.keyed, a.keyed_bare] {
                for &(take, mask, seed) in list {
                    for (j, &t) in a.tables.iter().enumerate() {
                        if mask >> j & 1 == 0 {
                            continue;
                        }
                        let table = BUILTIN[usize::from(t)];
                        let mut keys: Vec<String> = (0..table.rows.len())
                            .map(|i| String::from_utf8(table.key(i).to_vec()).unwrap())
                            .filter(|k| !k.is_empty())
                            .collect();
                        if let Some(Cond::At(_, Test::In(list) | Test::NameIn(list))) =
                            table.when.first()
                        {
                            if table.at.is_empty() {
                                keys.extend(list.split('\n').map(|k| k.to_string()));
                            }
                        }
                        assert!(!keys.is_empty(), "{} at {}", table.tag, a.member);
                        for k in keys {
                            // As a value: a class name's last segment (or
                            // the whole name, for a dotted key), a code's
                            // first word or two bytes are the key.
                            let value = match take {
                                Take::Name if k.contains('.') => k.clone(),
                                Take::Name => format!("com.example.{k}"),
                                Take::FirstWord => format!("{k}: more words"),
                                Take::Prefix2 => format!("{k}001"),
                                _ => k.clone(),
                            };
                            assert!(
                                Screen {
                                    s: &value,
                                    full: None
                                }
                                .passes(seed, take),
                                "{} at {}: {value:?} screened out",
                                table.tag,
                                a.member
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// The merged phrase index finds, for each phrase table at a member,
    /// the row the table's own search finds, on every message of the
    /// classify vectors and on each phrase itself in a sentence.
    #[test]
    fn phrase_index_finds_what_each_table_finds() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/vectors/classify.json"
        ))
        .unwrap();
        let mut messages: Vec<String> = Vec::new();
        fn collect(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s) => out.push(s.clone()),
                serde_json::Value::Array(a) => a.iter().for_each(|v| collect(v, out)),
                serde_json::Value::Object(m) => m.values().for_each(|v| collect(v, out)),
                _ => {}
            }
        }
        collect(&serde_json::from_str(&text).unwrap(), &mut messages);
        for index in PHRASE_INDEX {
            for &(t, row) in index.rows {
                let k = String::from_utf8(BUILTIN[usize::from(t)].key(usize::from(row)).to_vec());
                let k = k.unwrap();
                messages.push(format!("error: {k} (while connecting)"));
                messages.push(k.to_ascii_uppercase());
            }
        }
        let mut found = 0;
        for index in PHRASE_INDEX {
            let tables: Vec<u16> = {
                let mut t: Vec<u16> = index.rows.iter().map(|r| r.0).collect();
                t.sort();
                t.dedup();
                t
            };
            for m in &messages {
                let hits = phrase_hits(index.member, m);
                for &t in &tables {
                    let own = BUILTIN[usize::from(t)].phrase_row(m);
                    let merged = hits.iter().find(|h| h.0 == t).map(|h| usize::from(h.1));
                    assert_eq!(merged, own, "table {t} on {m:?}");
                    found += usize::from(own.is_some());
                }
            }
        }
        assert!(found > 100, "{found}");
    }

    /// A user's table may hold 64 KiB of keys; past that is a typed error.
    #[test]
    fn a_table_past_64_kib_of_keys_is_refused() {
        let table = |n: usize| {
            let rows: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|i| {
                    (
                        format!("{i:0>250}"),
                        serde_json::json!({"code": "INTERNAL"}),
                    )
                })
                .collect();
            serde_json::json!([{"id": "big", "at": "code", "rows": rows}])
        };
        assert!(UserRules::from_value(&table(262)).is_ok());
        let e = UserRules::from_value(&table(263)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid option: rule \"big\": its row keys come to more than 65535 bytes"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { failure_persistence: None, ..Default::default() })]

        /// The parser's sort sorts.
        #[test]
        fn heap_sort_sorts(mut v in proptest::collection::vec(0u16..50, 0..200)) {
            let mut want = v.clone();
            want.sort();
            form::heap_sort(&mut v, |a, b| a < b);
            proptest::prop_assert_eq!(v, want);
        }
    }
}
