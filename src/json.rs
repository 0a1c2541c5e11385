//! A small JSON tree of borrowed parts and its writer, for rendering.
//!
//! Rendering used to build `serde_json::Value` trees: every key and string
//! copied, every object member hashed into an index map, then the tree
//! serialized twice. [`J`] borrows what it can, keeps members in a plain
//! vector (objects here have a dozen members at most) and is written straight
//! to text. The bytes are exactly serde_json's, compact and pretty alike
//! (tested against it in `tests/properties.rs` through
//! [`crate::json_writer_agrees_with_serde`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::{Map, Value};

/// A JSON value whose strings and sub-trees are borrowed where possible.
#[derive(Debug, Clone)]
pub(crate) enum J<'a> {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Str(Cow<'a, str>),
    /// A string array.
    Strs(&'a [String]),
    /// Any `serde_json` value, borrowed (details, the upstream original).
    Val(&'a Value),
    /// A `serde_json` object, borrowed.
    Map(&'a Map<String, Value>),
    Obj(Obj<'a>),
    Arr(Vec<J<'a>>),
}

impl<'a> From<&'a str> for J<'a> {
    fn from(s: &'a str) -> Self {
        J::Str(Cow::Borrowed(s))
    }
}

impl<'a> From<&'a String> for J<'a> {
    fn from(s: &'a String) -> Self {
        J::Str(Cow::Borrowed(s))
    }
}

impl<'a> From<&'a Cow<'_, str>> for J<'a> {
    fn from(s: &'a Cow<'_, str>) -> Self {
        J::Str(Cow::Borrowed(s))
    }
}

impl From<String> for J<'_> {
    fn from(s: String) -> Self {
        J::Str(Cow::Owned(s))
    }
}

impl From<bool> for J<'_> {
    fn from(b: bool) -> Self {
        J::Bool(b)
    }
}

impl From<i64> for J<'_> {
    fn from(n: i64) -> Self {
        J::Int(n)
    }
}

/// An object: members in insertion order, as serde_json's `preserve_order`
/// map keeps them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Obj<'a>(Vec<(Key<'a>, J<'a>)>);

/// One of this crate's literal keys (names like `code`), with its text as
/// the writer puts it: quoted, with the colon. Made by [`key!`], which
/// builds both at compile time, so the writer copies it in one piece and
/// looks for no bytes to escape.
#[derive(Debug)]
pub(crate) struct Lit {
    pub(crate) name: &'static str,
    pub(crate) quoted: &'static str,
}

/// A [`Lit`] for a literal key: `key!("code")`.
macro_rules! key {
    ($name:literal) => {
        &$crate::json::Lit {
            name: $name,
            quoted: concat!("\"", $name, "\":"),
        }
    };
}
pub(crate) use key;

/// A member's key: one of this crate's literal keys, or a key from the host
/// (extra fields, details), which the writer always escapes as needed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Key<'a> {
    Lit(&'static Lit),
    Host(&'a str),
}

impl Key<'_> {
    fn name(&self) -> &str {
        match self {
            Key::Lit(l) => l.name,
            Key::Host(k) => k,
        }
    }
}

impl<'a> Obj<'a> {
    pub(crate) fn new() -> Self {
        Obj(Vec::with_capacity(8))
    }

    /// Add a member under one of this crate's literal keys (see [`key!`]),
    /// last. The crate sets each literal key once, before any key from the
    /// host: no search for it.
    pub(crate) fn set(&mut self, key: &'static Lit, value: impl Into<J<'a>>) {
        debug_assert!(crate::text::find_json_special(key.name.as_bytes(), 0).is_none());
        debug_assert!(!self.contains(key.name), "{} set twice", key.name);
        self.0.push((Key::Lit(key), value.into()));
    }

    /// Set a member under a key from the host: an existing key keeps its
    /// place and takes the new value (as `IndexMap::insert` does), a new key
    /// goes last.
    pub(crate) fn set_host(&mut self, key: &'a str, value: impl Into<J<'a>>) {
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| k.name() == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((Key::Host(key), value)),
        }
    }

    /// Add a member under a key from the host, only when the key is not
    /// there yet.
    pub(crate) fn set_host_absent(&mut self, key: &'a str, value: impl Into<J<'a>>) {
        if !self.contains(key) {
            self.0.push((Key::Host(key), value.into()));
        }
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k.name() == key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&J<'a>> {
        self.0.iter().find(|(k, _)| k.name() == key).map(|(_, v)| v)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> From<Obj<'a>> for J<'a> {
    fn from(o: Obj<'a>) -> Self {
        J::Obj(o)
    }
}

impl J<'_> {
    /// Compact text, as `serde_json::to_string`. (A rendered result is
    /// usually under 1 KiB: one allocation.)
    pub(crate) fn compact(&self) -> String {
        let mut out = String::with_capacity(1024);
        write(self, &mut out, None);
        out
    }

    /// [`J::compact`] at the end of `out`.
    pub(crate) fn write_compact(&self, out: &mut String) {
        write(self, out, None);
    }

    /// Pretty text (two spaces), as `serde_json::to_string_pretty`.
    pub(crate) fn pretty(&self) -> String {
        let mut out = String::with_capacity(1024);
        write(self, &mut out, Some(0));
        out
    }

    /// The same value as a `serde_json::Value` (for the outputSchema check):
    /// written and read back, which costs less code in the component than
    /// copying borrowed `serde_json` maps (the check is not on the common
    /// path: only a tool with an `outputSchema` asks for it).
    pub(crate) fn to_value(&self) -> Value {
        crate::parse_json(&self.compact()).unwrap_or(Value::Null)
    }
}

/// Write `j`; `indent` is `None` for compact output, else the current depth.
fn write(j: &J<'_>, out: &mut String, indent: Option<usize>) {
    match j {
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Int(n) => write_int(*n < 0, n.unsigned_abs(), out),
        J::UInt(n) => write_int(false, *n, out),
        J::Str(s) => write_str(s, out),
        J::Strs(list) => write_seq(list.iter(), list.len(), out, indent, |s, out, _| {
            write_str(s, out)
        }),
        J::Val(v) => write_value(v, out, indent),
        J::Map(m) => write_members(
            m.iter().map(|(k, v)| (Key::Host(k), v)),
            m.len(),
            out,
            indent,
            write_value,
        ),
        J::Obj(o) => write_members(
            o.0.iter().map(|(k, v)| (*k, v)),
            o.0.len(),
            out,
            indent,
            |v, out, i| write(v, out, i),
        ),
        J::Arr(items) => write_seq(items.iter(), items.len(), out, indent, |v, out, i| {
            write(v, out, i)
        }),
    }
}

/// Write a `serde_json::Value`, byte for byte as serde_json does.
pub(crate) fn write_value(v: &Value, out: &mut String, indent: Option<usize>) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // Integers by hand; a float through `Number`'s Display, which is
        // serde_json's own float formatting.
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => write_int(i < 0, i.unsigned_abs(), out),
            (None, Some(u)) => write_int(false, u, out),
            _ => {
                let _ = write!(out, "{n}");
            }
        },
        Value::String(s) => write_str(s, out),
        Value::Array(items) => write_seq(items.iter(), items.len(), out, indent, write_value),
        Value::Object(m) => write_members(
            m.iter().map(|(k, v)| (Key::Host(k), v)),
            m.len(),
            out,
            indent,
            write_value,
        ),
    }
}

/// A `serde_json::Value`'s compact text, as its `Display` writes it.
pub(crate) fn value_text(v: &Value) -> String {
    let mut out = String::new();
    write_value(v, &mut out, None);
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_seq<T>(
    items: impl Iterator<Item = T>,
    len: usize,
    out: &mut String,
    indent: Option<usize>,
    each: impl Fn(T, &mut String, Option<usize>),
) {
    write_container(['[', ']'], items, len, out, indent, each);
}

/// Members as `(key, value)`: a literal key (see [`Key`]) is copied as it
/// is, with its colon.
fn write_members<'v, T: 'v>(
    members: impl Iterator<Item = (Key<'v>, T)>,
    len: usize,
    out: &mut String,
    indent: Option<usize>,
    each: impl Fn(T, &mut String, Option<usize>),
) {
    write_container(
        ['{', '}'],
        members,
        len,
        out,
        indent,
        |(key, value), out, inner| {
            match key {
                Key::Lit(l) => out.push_str(l.quoted),
                Key::Host(k) => {
                    write_str(k, out);
                    out.push(':');
                }
            }
            if inner.is_some() {
                out.push(' ');
            }
            each(value, out, inner);
        },
    );
}

/// An array or object: `brackets` around the items, separated by commas; in
/// pretty output each item on its own line, one level deeper, and an empty
/// container as `[]` / `{}`.
fn write_container<T>(
    brackets: [char; 2],
    items: impl Iterator<Item = T>,
    len: usize,
    out: &mut String,
    indent: Option<usize>,
    each: impl Fn(T, &mut String, Option<usize>),
) {
    out.push(brackets[0]);
    if len == 0 {
        out.push(brackets[1]);
        return;
    }
    let inner = indent.map(|d| d + 1);
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if let Some(d) = inner {
            newline(out, d);
        }
        each(item, out, inner);
    }
    if let Some(d) = indent {
        newline(out, d);
    }
    out.push(brackets[1]);
}

/// A JSON string literal, escaped exactly as serde_json does: `"` and `\`,
/// the five short control escapes, other control characters as `\u00xx`;
/// everything else (`/`, DEL, non-ASCII) as is.
///
/// Inlined for the common case, a string with nothing to escape (keys,
/// codes, most messages): one search and one copy. (A call in the component
/// saves 196 bytes gzipped and costs `renderJson` about 0.5 µs: kept inline.)
#[inline(always)]
pub(crate) fn write_str(s: &str, out: &mut String) {
    match crate::text::find_json_special(s.as_bytes(), 0) {
        None => {
            out.reserve(s.len() + 2);
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Some(first) => write_escaped(s, first, out),
    }
}

/// [`write_str`] for a string with a byte to escape at `first`.
fn write_escaped(s: &str, first: usize, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut next = Some(first);
    while let Some(i) = next {
        // Every byte found is ASCII, so `i` and `i + 1` are char boundaries.
        out.push_str(&s[start..i]);
        let b = bytes[i];
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        start = i + 1;
        next = crate::text::find_json_special(bytes, start);
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// `s` as a JSON string literal: how error messages quote a value, the same
/// in every host (JavaScript's `JSON.stringify`, Python's `json.dumps` with
/// `ensure_ascii=False`), unlike Rust's `{:?}` (`\u{1}`).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str(s, &mut out);
    out
}

/// An integer in decimal, without the formatting machinery.
fn write_int(negative: bool, magnitude: u64, out: &mut String) {
    out.push_str(crate::text::decimal(negative, magnitude, &mut [0u8; 21]));
}

/// Whether the writer gives serde_json's bytes for `value`, compact and
/// pretty. For the property tests.
#[cfg(any(test, feature = "internal-testing"))]
pub fn agrees_with_serde(value: &Value) -> bool {
    let mut compact = String::new();
    write_value(value, &mut compact, None);
    let mut pretty = String::new();
    write_value(value, &mut pretty, Some(0));
    serde_json::to_string(value).ok() == Some(compact)
        && serde_json::to_string_pretty(value).ok() == Some(pretty)
}
