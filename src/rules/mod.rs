//! Recognizer rules: provider and library knowledge as data.
//!
//! The rules the library ships live in `rules/*.json` at the repository root,
//! one file per family, each rule with its documented source. `build.rs`
//! reads them with [`form`] (the parser user rules go through too) and
//! compiles them into the static tables below, sorted for lookup; the
//! sources stay in the JSON. A user's rules (the `rules` option) become the
//! same tables at run time. Adding a provider is adding rows and vectors.

pub mod form;

use std::borrow::Cow;

use crate::input::{Map, Value};
use crate::taxonomy::Code;
use crate::text::TrimFast;

pub use form::Take;

type S = Cow<'static, str>;

/// One step of a location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object member.
    Key(S),
    /// Each element of the array in this member (the first 16).
    Each(S),
}

/// A location in a node of the raw error. The first segment is read from
/// the node, except `body` (the node's upstream body, JSON inside a string
/// parsed) and `headers` (`headers.NAME`, the node's and its response's,
/// any case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Loc(pub Cow<'static, [Seg]>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Test {
    In(Cow<'static, [S]>),
    NameIn(Cow<'static, [S]>),
    Contains(S),
    Prefix(S),
    Exists(bool),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cond {
    Status(Cow<'static, [(u16, u16)]>),
    At(Loc, Test),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Delay {
    pub at: Loc,
    pub scale_ms: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    pub key: Option<S>,
    pub code: Code,
    pub retryable: Option<bool>,
    pub delay: Option<Delay>,
}

/// A compiled rule or table. Rows are sorted by key (byte order; phrase
/// keys are lowercase), so a key is found by binary search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    /// What evidence calls it: a family tag (`postgres`) or `rule ID`.
    pub tag: S,
    pub at: Cow<'static, [Loc]>,
    pub take: Take,
    pub when: Cow<'static, [Cond]>,
    pub strength: u8,
    pub rows: Cow<'static, [Row]>,
}

// ---------------------------------------------------------------- parsing

fn loc(path: &str) -> Loc {
    Loc(path
        .split('.')
        .map(|s| match s.strip_suffix("[]") {
            Some(k) => Seg::Each(Cow::Owned(k.to_string())),
            None => Seg::Key(Cow::Owned(s.to_string())),
        })
        .collect::<Vec<_>>()
        .into())
}

fn owned_list(l: &[String]) -> Cow<'static, [S]> {
    Cow::Owned(l.iter().map(|s| Cow::Owned(s.clone())).collect())
}

/// A parsed spec as a table; `user` tables are named `rule ID` in evidence
/// and all have the user tier.
pub(crate) fn compile(spec: &form::TableSpec, tag: &str, user: bool) -> Table {
    let code = |c: &str| Code::from_name(c).unwrap_or(Code::Unknown);
    let mut rows: Vec<Row> = spec
        .rows
        .iter()
        .map(|r| Row {
            key: r.key.clone().map(Cow::Owned),
            code: code(&r.code),
            retryable: r.retryable,
            delay: r.retry_after.as_ref().map(|d| Delay {
                at: loc(&d.path),
                scale_ms: d.scale_ms,
            }),
        })
        .collect();
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    let tier = if user {
        "user"
    } else {
        spec.tier
            .as_deref()
            .unwrap_or_else(|| form::default_tier(spec))
    };
    Table {
        tag: Cow::Owned(if user {
            format!("rule {}", spec.id)
        } else {
            tag.to_string()
        }),
        at: spec.at.iter().map(|p| loc(p)).collect::<Vec<_>>().into(),
        take: spec.take,
        when: spec
            .when
            .iter()
            .map(|c| match c {
                form::CondSpec::Status(r) => Cond::Status(Cow::Owned(r.clone())),
                form::CondSpec::Path { path, test } => Cond::At(
                    loc(path),
                    match test {
                        form::TestSpec::In(l) => Test::In(owned_list(l)),
                        form::TestSpec::NameIn(l) => Test::NameIn(owned_list(l)),
                        form::TestSpec::Contains(p) => Test::Contains(Cow::Owned(p.clone())),
                        form::TestSpec::Prefix(p) => Test::Prefix(Cow::Owned(p.clone())),
                        form::TestSpec::Exists(b) => Test::Exists(*b),
                    },
                ),
            })
            .collect::<Vec<_>>()
            .into(),
        strength: form::tier_strength(tier),
        rows: rows.into(),
    }
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
        let specs = form::parse_rules(value, &code_names()).map_err(crate::Error::InvalidOption)?;
        Ok(UserRules(
            specs.iter().map(|s| compile(s, &s.id, true)).collect(),
        ))
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
    pub table: &'t Table,
    pub row: &'t Row,
    /// The value that matched, for evidence (a row key or nothing).
    pub key: Option<&'t str>,
}

impl Ctx<'_, '_> {
    /// Visit the values at `loc`; stop (and answer true) when `f` does.
    fn visit(&self, l: &Loc, f: &mut dyn FnMut(&Value<'_>) -> bool) -> bool {
        let segs = &l.0[..];
        let Some((first, rest)) = segs.split_first() else {
            return false;
        };
        match first {
            Seg::Key(k) if k == "body" => match self.body {
                Some(b) => walk(b, rest, f),
                None => false,
            },
            Seg::Each(k) if k == "body" => match self.body {
                Some(Value::Array(a)) => a.iter().take(16).any(|v| walk(v, rest, f)),
                _ => false,
            },
            Seg::Key(k) if k == "headers" => {
                let Some(Seg::Key(name)) = rest.first() else {
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

fn walk(v: &Value<'_>, segs: &[Seg], f: &mut dyn FnMut(&Value<'_>) -> bool) -> bool {
    match segs.split_first() {
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

/// A scalar as the text keys are compared with.
fn scalar<'v>(v: &'v Value<'_>) -> Option<Cow<'v, str>> {
    match v {
        Value::String(s) => Some(Cow::Borrowed(s.trim_fast())),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// The last segment of a class name: after `.`, `:` or `$`.
pub(crate) fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '$']).next().unwrap_or(name)
}

fn test(t: &Test, v: &Value<'_>) -> bool {
    let Some(s) = scalar(v) else {
        return false;
    };
    match t {
        Test::In(list) => list.iter().any(|k| crate::text::same(k, &s)),
        Test::NameIn(list) => {
            let last = last_segment(&s);
            list.iter()
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

impl Table {
    fn row(&self, key: &str) -> Option<&Row> {
        let rows = &self.rows[..];
        rows.binary_search_by(|r| r.key.as_deref().unwrap_or("").cmp(key))
            .ok()
            .map(|i| &rows[i])
    }

    /// The row whose phrase starts at a word of `text`, any case; the
    /// earliest in the text. Keys (lowercase, two bytes or more) that start
    /// with the text's next two bytes are a range of the sorted rows.
    fn phrase_row(&self, text: &str) -> Option<&Row> {
        let t = text.as_bytes();
        let rows = &self.rows[..];
        fn key(r: &Row) -> &[u8] {
            r.key.as_deref().unwrap_or("").as_bytes()
        }
        for i in 0..t.len().saturating_sub(1) {
            if i > 0 && is_word(t[i - 1]) && is_word(t[i]) {
                continue;
            }
            let p = [t[i].to_ascii_lowercase(), t[i + 1].to_ascii_lowercase()];
            let lo = rows.partition_point(|r| key(r).get(..2).unwrap_or(b"") < &p[..]);
            for r in &rows[lo..] {
                let k = key(r);
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
    fn keyed<'t>(&'t self, cx: &Ctx<'_, '_>) -> Option<(&'t Row, &'t str)> {
        let mut hit: Option<&Row> = None;
        for l in self.at.iter() {
            cx.visit(l, &mut |v| {
                let Some(s) = scalar(v) else { return false };
                hit = match self.take {
                    Take::Exact => self.row(&s),
                    Take::Name => self.row(&s).or_else(|| self.row(last_segment(&s))),
                    Take::FirstWord => self.row(
                        s.split(|c: char| c == ':' || c.is_ascii_whitespace())
                            .next()
                            .unwrap_or(""),
                    ),
                    Take::Prefix2 => s.get(..2).and_then(|p| self.row(p)),
                    Take::Phrase => self.phrase_row(&s),
                };
                hit.is_some()
            });
            if let Some(r) = hit {
                return Some((r, r.key.as_deref().unwrap_or("")));
            }
        }
        None
    }

    /// This table's verdict on a node, if a row matches and `when` holds.
    pub(crate) fn matches<'t>(&'t self, cx: &Ctx<'_, '_>) -> Option<Hit<'t>> {
        let (row, key) = if self.at.is_empty() {
            (self.rows.first()?, None)
        } else {
            let (r, k) = self.keyed(cx)?;
            (r, Some(k))
        };
        if !self.when.iter().all(|c| cx.holds(c)) {
            return None;
        }
        Some(Hit {
            table: self,
            row,
            key,
        })
    }
}

/// A delay stated at `d` in the node: a non-negative number or numeric
/// text, in the delay's unit; fractions of a millisecond round up.
pub(crate) fn delay_ms(cx: &Ctx<'_, '_>, d: &Delay) -> Option<u64> {
    let mut out = None;
    cx.visit(&d.at, &mut |v| {
        out = scalar(v).and_then(|s| scaled(s.as_ref(), d.scale_ms));
        out.is_some()
    });
    out
}

/// `26`, `1.5`, `64.57` times `scale_ms`, rounded up to a whole millisecond.
pub(crate) fn scaled(s: &str, scale_ms: u32) -> Option<u64> {
    // Six decimals are enough for microseconds of a second.
    let micro = crate::signals::parse_decimal(s.trim_fast(), 6)?;
    let ms_x1000 = micro.saturating_mul(u64::from(scale_ms));
    Some(ms_x1000 / 1_000_000 + u64::from(ms_x1000 % 1_000_000 != 0))
}

include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));

/// The rule tables the library ships (the tests compare them with the files).
#[cfg(test)]
pub(crate) fn builtin() -> &'static [Table] {
    BUILTIN
}

/// The shipped families: (family, tag, source, number of rows), in file order.
pub fn families() -> &'static [(&'static str, &'static str, &'static str, usize)] {
    FAMILIES
}

/// Visit every table that may match `cx`: the user's (all, in order), then
/// the built-ins anchored at one of the node's keys (or at `body` /
/// `headers` when the node has them), then those anchored nowhere.
pub(crate) fn each_match(cx: &Ctx<'_, '_>, user: &[Table], f: &mut dyn FnMut(Hit<'_>)) {
    for t in user {
        if let Some(h) = t.matches(cx) {
            f(h);
        }
    }
    let run = |anchor: &str, f: &mut dyn FnMut(Hit<'_>)| {
        if let Ok(i) = ANCHORS.binary_search_by(|(a, _)| (*a).cmp(anchor)) {
            for &t in ANCHORS[i].1 {
                if let Some(h) = BUILTIN[t as usize].matches(cx) {
                    f(h);
                }
            }
        }
    };
    for (k, _) in cx.node.iter() {
        if k != "headers" && k != "body" {
            run(k, f);
        }
    }
    if cx.body.is_some() {
        run("body", f);
    }
    if !cx.headers.is_empty() {
        run("headers", f);
    }
    for &t in UNANCHORED {
        if let Some(h) = BUILTIN[t as usize].matches(cx) {
            f(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Vec<form::FileSpec> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                form::parse_file(&v, &code_names()).unwrap()
            })
            .collect()
    }

    /// One form: the shipped files, read by the parser user rules go
    /// through and compiled at run time, are exactly the built-in tables.
    #[test]
    fn shipped_rules_are_the_user_form_compiled() {
        let compiled: Vec<Table> = shipped()
            .iter()
            .flat_map(|f| {
                f.rules
                    .iter()
                    .map(|r| compile(r, &f.tag, false))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(compiled.len(), builtin().len());
        for (a, b) in compiled.iter().zip(builtin()) {
            assert_eq!(a, b, "{}", a.tag);
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
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(
                v["source"].as_str().is_some_and(|s| s.len() > 10),
                "{path:?}"
            );
        }
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
        let t = Table {
            tag: Cow::Borrowed("t"),
            at: Cow::Owned(vec![]),
            take: Take::Phrase,
            when: Cow::Owned(vec![]),
            strength: 40,
            rows: Cow::Owned(
                [
                    "broken pipe",
                    "connection refused",
                    "connection reset",
                    "context canceled",
                ]
                .iter()
                .map(|k| Row {
                    key: Some(Cow::Borrowed(*k)),
                    code: Code::NetworkError,
                    retryable: None,
                    delay: None,
                })
                .collect(),
            ),
        };
        let key = |m: &str| {
            t.phrase_row(m)
                .and_then(|r| r.key.as_deref().map(str::to_string))
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
}
