//! The raw error as the classifier reads it: a JSON tree that borrows its
//! strings from the input text.
//!
//! Parsing into `serde_json::Value` copied every key and string into its own
//! allocation and hashed every member into an index map, and the tree was
//! dropped again right after classification: a fifth of a call. [`parse`]
//! allocates once per object or array (strings with escapes aside) and keeps
//! members in a plain vector.
//!
//! It accepts exactly what `serde_json::from_str::<Value>` accepts and means
//! the same by it: numbers become the same `serde_json::Number`, a repeated key
//! keeps its first place and takes its last value (as the `preserve_order` map
//! does), and nesting is limited to serde_json's 128. Whatever this parser
//! rejects is handed to serde_json, which gives the error message (or, should
//! this parser be stricter than serde_json somewhere, the value). Tested
//! against serde_json on generated and mutated texts in `tests/properties.rs`.

use std::borrow::Cow;

use serde_json::Number;

use crate::text::find_json_special;

/// One JSON value, borrowing from the text it was parsed from (or from a
/// `serde_json::Value`, see [`Value::from_serde`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Map<'a>),
}

/// An object: members in their first place, each key once.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Map<'a> {
    members: Vec<(Cow<'a, str>, Value<'a>)>,
    /// One bit per key (see [`key_bit`]): a key whose bit is not set is absent.
    keys: u64,
}

/// A key's bit in [`Map::keys`], from its length and its first and last bytes.
fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let (first, last) = match b {
        [] => (0, 0),
        [f, .., l] => (*f, *l),
        [f] => (*f, *f),
    };
    1 << ((b.len() + usize::from(first) + 3 * usize::from(last)) % 64)
}

impl<'a> Map<'a> {
    pub(crate) fn new() -> Self {
        Map::default()
    }

    fn from_members(members: Vec<(Cow<'a, str>, Value<'a>)>) -> Self {
        let keys = members.iter().fold(0, |bits, (k, _)| bits | key_bit(k));
        Map { members, keys }
    }

    /// A one-member object (a message or a code read as an error).
    pub(crate) fn single(key: &'a str, value: Value<'a>) -> Self {
        Map::from_members(vec![(Cow::Borrowed(key), value)])
    }

    /// The classifier asks each node for some forty keys, most of them
    /// absent: the key's bit rules most of those out at once, and a length
    /// and a first byte rule out nearly every member before the bytes are
    /// compared (a call to a byte loop inside the component).
    pub(crate) fn get(&self, key: &str) -> Option<&Value<'a>> {
        if self.keys & key_bit(key) == 0 {
            return None;
        }
        let first = key.as_bytes().first();
        self.members
            .iter()
            .find(|(k, _)| {
                k.len() == key.len() && k.as_bytes().first() == first && k.as_ref() == key
            })
            .map(|(_, v)| v)
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The same object as a `serde_json` map (what the normalized error keeps).
    pub(crate) fn to_serde(&self) -> serde_json::Map<String, serde_json::Value> {
        self.members
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_serde()))
            .collect()
    }
}

impl<'a> Value<'a> {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&Map<'a>> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub(crate) fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// A member of an object; `None` for anything else.
    pub(crate) fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`.
    pub(crate) fn to_serde(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(items) => items.iter().map(Value::to_serde).collect(),
            Value::Object(m) => serde_json::Value::Object(m.to_serde()),
        }
    }

    /// A view of a `serde_json::Value`, borrowing its strings. Nesting past
    /// what JSON text may hold (see [`MAX_NESTING`]) reads as `null`: nothing
    /// that deep is ever read or kept (the cause chain is followed 16 levels,
    /// details and the original keep 32), and the view stays as shallow as a
    /// parsed one.
    pub(crate) fn from_serde(v: &'a serde_json::Value) -> Value<'a> {
        Value::from_serde_at(v, 0)
    }

    fn from_serde_at(v: &'a serde_json::Value, depth: usize) -> Value<'a> {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(Cow::Borrowed(s)),
            _ if depth >= MAX_NESTING => Value::Null,
            serde_json::Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|v| Value::from_serde_at(v, depth + 1))
                    .collect(),
            ),
            serde_json::Value::Object(m) => Value::Object(Map::from_members(
                m.iter()
                    .map(|(k, v)| {
                        (
                            Cow::Borrowed(k.as_str()),
                            Value::from_serde_at(v, depth + 1),
                        )
                    })
                    .collect(),
            )),
        }
    }

    /// [`Value::from_serde`], owning everything.
    fn from_serde_owned(v: serde_json::Value) -> Value<'static> {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n),
            serde_json::Value::String(s) => Value::String(Cow::Owned(s)),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from_serde_owned).collect())
            }
            serde_json::Value::Object(m) => Value::Object(Map::from_members(
                m.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Value::from_serde_owned(v)))
                    .collect(),
            )),
        }
    }
}

/// Parse JSON text (no size limit here: see [`crate::parse_json`]). The error
/// is serde_json's own message.
pub(crate) fn parse(text: &str) -> Result<Value<'_>, serde_json::Error> {
    let mut p = Parser::new(text);
    match p.document() {
        Some(v) => Ok(v),
        // Rejected here: serde_json decides, and words the error.
        None => serde_json::from_str::<serde_json::Value>(text).map(Value::from_serde_owned),
    }
}

/// serde_json's nesting limit: the 128th nested array or object is refused.
const MAX_NESTING: usize = 127;

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
    /// Array elements being read, for every open array (one allocation for all).
    items: Vec<Value<'a>>,
    /// Object members being read, for every open object.
    members: Vec<(Cow<'a, str>, Value<'a>)>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            s: text.as_bytes(),
            text,
            i: 0,
            depth: 0,
            items: Vec::new(),
            members: Vec::new(),
        }
    }

    fn document(&mut self) -> Option<Value<'a>> {
        let v = self.value()?;
        self.skip_ws();
        (self.i == self.s.len()).then_some(v)
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn value(&mut self) -> Option<Value<'a>> {
        self.skip_ws();
        match self.peek()? {
            b'"' => Some(Value::String(self.string()?)),
            b'{' => self.object(),
            b'[' => self.array(),
            b't' => self.word(b"true", Value::Bool(true)),
            b'f' => self.word(b"false", Value::Bool(false)),
            b'n' => self.word(b"null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn word(&mut self, w: &[u8], v: Value<'a>) -> Option<Value<'a>> {
        if self.s[self.i..].starts_with(w) {
            self.i += w.len();
            Some(v)
        } else {
            None
        }
    }

    fn enter(&mut self) -> Option<()> {
        if self.depth >= MAX_NESTING {
            return None;
        }
        self.depth += 1;
        self.i += 1; // the opening bracket
        Some(())
    }

    /// Just after `[` or `{`: whether the container closes at once (then the
    /// bracket is read).
    fn closes(&mut self, close: u8) -> bool {
        self.skip_ws();
        let closes = self.peek() == Some(close);
        if closes {
            self.i += 1;
        }
        closes
    }

    /// After an element: a comma (`false`) or the closing bracket (`true`).
    fn comma_or_close(&mut self, close: u8) -> Option<bool> {
        self.skip_ws();
        let b = self.peek()?;
        if b != b',' && b != close {
            return None;
        }
        self.i += 1;
        Some(b == close)
    }

    fn array(&mut self) -> Option<Value<'a>> {
        self.enter()?;
        let start = self.items.len();
        let mut closed = self.closes(b']');
        while !closed {
            let v = self.value()?;
            self.items.push(v);
            closed = self.comma_or_close(b']')?;
        }
        self.depth -= 1;
        Some(Value::Array(self.items.drain(start..).collect()))
    }

    fn object(&mut self) -> Option<Value<'a>> {
        self.enter()?;
        let start = self.members.len();
        let mut closed = self.closes(b'}');
        while !closed {
            self.skip_ws();
            if self.peek()? != b'"' {
                return None;
            }
            let k = self.string()?;
            self.skip_ws();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            let v = self.value()?;
            self.members.push((k, v));
            closed = self.comma_or_close(b'}')?;
        }
        self.depth -= 1;
        if has_repeats(&self.members[start..]) {
            // Rare: serde_json's map decides which place and value a repeated
            // key keeps.
            return None;
        }
        Some(Value::Object(Map::from_members(
            self.members.drain(start..).collect(),
        )))
    }

    /// A string; the opening quote is at `self.i`.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.i += 1;
        let start = self.i;
        // Every byte found is ASCII: the slices below cut at char boundaries.
        self.i = find_json_special(self.s, self.i)?;
        if self.s[self.i] == b'"' {
            self.i += 1;
            return Some(Cow::Borrowed(&self.text[start..self.i - 1]));
        }
        let mut out = String::with_capacity(self.i - start + 16);
        out.push_str(&self.text[start..self.i]);
        loop {
            match self.s[self.i] {
                b'"' => {
                    self.i += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => out.push(self.escape()?),
                _ => return None, // a control byte
            }
            let run = self.i;
            self.i = find_json_special(self.s, self.i)?;
            out.push_str(&self.text[run..self.i]);
        }
    }

    /// The character an escape stands for; the backslash is at `self.i`.
    fn escape(&mut self) -> Option<char> {
        let e = *self.s.get(self.i + 1)?;
        self.i += 2;
        Some(match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4()?;
                let c = match hi {
                    0xD800..=0xDBFF => {
                        // A surrogate pair; a lone half goes to serde_json.
                        if self.s.get(self.i..self.i + 2)? != b"\\u" {
                            return None;
                        }
                        self.i += 2;
                        let lo = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return None;
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return None,
                    c => c,
                };
                char::from_u32(c)?
            }
            _ => return None,
        })
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.i..self.i + 4)?;
        let mut n = 0;
        for b in h {
            n = n * 16 + char::from(*b).to_digit(16)?;
        }
        self.i += 4;
        Some(n)
    }

    /// A number: integers that fit 64 bits directly, anything else (fraction,
    /// exponent, more digits) through serde_json, so the `Number` is the one
    /// serde_json makes (an `f64`, or an error when it is out of range).
    fn number(&mut self) -> Option<Value<'a>> {
        let start = self.i;
        let negative = self.s[self.i] == b'-';
        if negative {
            self.i += 1;
        }
        let digits = self.i;
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => self.digits()?,
            _ => return None,
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.i += 1;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            self.digits()?;
        }
        // After a number serde_json wants a delimiter; a digit after a lone
        // `0` ("01") is its error too.
        if let Some(b'0'..=b'9') = self.peek() {
            return None;
        }
        let text = &self.text[start..self.i];
        if integer && self.i - digits <= 19 {
            let magnitude: u64 = self.text[digits..self.i].parse().ok()?;
            if !negative {
                return Some(Value::Number(magnitude.into()));
            }
            // serde_json reads `-0` as a float, and so must this.
            if magnitude != 0 && magnitude <= 1 << 63 {
                return Some(Value::Number((magnitude as i64).wrapping_neg().into()));
            }
        }
        // Through `Value` (not `Number`): one serde_json parser in the component.
        match serde_json::from_str(text) {
            Ok(serde_json::Value::Number(n)) => Some(Value::Number(n)),
            _ => None,
        }
    }

    fn digits(&mut self) -> Option<()> {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        (self.i > start).then_some(())
    }
}

/// Objects with more members than this are left to serde_json, whose map
/// finds repeated keys by hashing; below it a pairwise check is cheaper.
const MAX_PAIRWISE: usize = 32;

/// Whether an object's members repeat a key (or are too many to tell cheaply).
fn has_repeats(members: &[(Cow<'_, str>, Value<'_>)]) -> bool {
    members.len() > MAX_PAIRWISE
        || members
            .iter()
            .enumerate()
            .any(|(i, (k, _))| members[..i].iter().any(|(other, _)| other == k))
}

/// For the property tests: this parser's own value as a `serde_json::Value`,
/// or `None` when it hands the text to serde_json.
pub fn parse_own(text: &str) -> Option<serde_json::Value> {
    let mut p = Parser::new(text);
    p.document().map(|v| v.to_serde())
}

/// For the property tests: the parse the classifier uses, as a `serde_json` result, to compare
/// with `serde_json::from_str` (value, or error message).
pub fn parse_to_serde(text: &str) -> Result<serde_json::Value, String> {
    parse(text).map(|v| v.to_serde()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key bits and the length and first-byte checks only ever skip
    /// members that a plain comparison would skip.
    #[test]
    fn get_finds_what_a_plain_search_finds() {
        let keys = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "aa",
            "code",
            "cause",
            "message",
            "status",
            "statusCode",
            "status_code",
            "errors",
            "Error",
            "é",
            "éa",
            "retry_after_ms",
            "x",
            "xx",
            "name",
        ];
        for n in 0..keys.len() {
            let members: Vec<_> = keys[..n]
                .iter()
                .map(|k| (Cow::Borrowed(*k), Value::Bool(true)))
                .collect();
            let map = Map::from_members(members);
            for k in keys.iter().chain(&["c", "codes", "mess", "Status", "zzz"]) {
                let plain = map.members.iter().find(|(m, _)| m == k).map(|(_, v)| v);
                assert_eq!(map.get(k), plain, "{k:?} in {:?}", &keys[..n]);
            }
        }
    }
}
