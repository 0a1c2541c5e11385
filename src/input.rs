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
//! the same by it: numbers become the same `serde_json::Number` (floats
//! correctly rounded, see [`crate::float`]), a repeated key keeps its first
//! place and takes its last value (as the `preserve_order` map does), and
//! nesting is limited to serde_json's 128. What it rejects, it rejects with
//! serde_json's message at serde_json's line and column, so the component
//! carries no second JSON parser. Tested against serde_json on generated and
//! mutated texts in `tests/properties.rs`.

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
#[inline(always)]
pub(crate) const fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let (first, last) = match b {
        [] => (0, 0),
        [f, .., l] => (*f, *l),
        [f] => (*f, *f),
    };
    1 << ((b.len() + first as usize + 3 * last as usize) % 64)
}

impl<'a> Map<'a> {
    pub(crate) fn new() -> Self {
        Map::default()
    }

    pub(crate) fn from_members(members: Vec<(Cow<'a, str>, Value<'a>)>) -> Self {
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
    ///
    /// Inlined in native builds: with the key a literal, as at nearly every
    /// call, its bit is a constant and an absent key costs a test. The
    /// component keeps it a call: inlined at every call it cost 1.1 KB
    /// gzipped (BENCHMARKS.md).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn get(&self, key: &str) -> Option<&Value<'a>> {
        if self.keys & key_bit(key) == 0 {
            return None;
        }
        self.find(key)
    }

    /// The member named `key`, by comparing keys.
    fn find(&self, key: &str) -> Option<&Value<'a>> {
        self.members
            .iter()
            .find(|(k, _)| crate::text::same(k, key))
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
        self.to_serde_except(&[])
    }

    /// [`Map::to_serde`] without the members named in `skip`.
    pub(crate) fn to_serde_except(
        &self,
        skip: &[&str],
    ) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::with_capacity(self.members.len());
        for (k, v) in &self.members {
            if !skip.contains(&k.as_ref()) {
                m.insert(k.to_string(), v.to_serde());
            }
        }
        m
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
    #[inline(always)]
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
}

/// Parse JSON text (no size limit here: see [`crate::parse_json`]).
pub(crate) fn parse(text: &str) -> Result<Value<'_>, ParseError> {
    let mut p = Parser::new(text);
    p.document().map_err(|f| ParseError::at(text.as_bytes(), f))
}

/// Why a text is not JSON: serde_json's wording, and its place (a line from 1,
/// and a column that is the byte count from the line's start to the byte that
/// ended the parse, as serde_json counts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    code: Syntax,
    line: usize,
    column: usize,
}

impl ParseError {
    fn at(s: &[u8], fail: Fail) -> Self {
        let before = &s[..fail.at];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        ParseError {
            code: fail.code,
            line: 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count(),
            column: fail.at - line_start,
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, column) = (self.line, self.column);
        write!(f, "{} at line {line} column {column}", self.code.message())
    }
}

/// serde_json's syntax errors (the ones a text can cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
}

impl Syntax {
    fn message(self) -> &'static str {
        use Syntax::*;
        match self {
            EofWhileParsingList => "EOF while parsing a list",
            EofWhileParsingObject => "EOF while parsing an object",
            EofWhileParsingString => "EOF while parsing a string",
            EofWhileParsingValue => "EOF while parsing a value",
            ExpectedColon => "expected `:`",
            ExpectedListCommaOrEnd => "expected `,` or `]`",
            ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            ExpectedSomeIdent => "expected ident",
            ExpectedSomeValue => "expected value",
            InvalidEscape => "invalid escape",
            InvalidNumber => "invalid number",
            NumberOutOfRange => "number out of range",
            ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            KeyMustBeAString => "key must be a string",
            LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            TrailingComma => "trailing comma",
            TrailingCharacters => "trailing characters",
            UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            RecursionLimitExceeded => "recursion limit exceeded",
        }
    }
}

/// A failed parse: the error and the byte offset its place is counted to.
#[derive(Debug, Clone, Copy)]
struct Fail {
    code: Syntax,
    at: usize,
}

type Parsed<T> = Result<T, Fail>;

/// A container's closing bracket, and its errors at the end of the text and
/// at a byte that neither closes it nor separates elements.
struct Brackets {
    close: u8,
    eof: Syntax,
    expected: Syntax,
}

const ARRAY: Brackets = Brackets {
    close: b']',
    eof: Syntax::EofWhileParsingList,
    expected: Syntax::ExpectedListCommaOrEnd,
};

const OBJECT: Brackets = Brackets {
    close: b'}',
    eof: Syntax::EofWhileParsingObject,
    expected: Syntax::ExpectedObjectCommaOrEnd,
};

/// serde_json's nesting limit: the 128th nested array or object is refused.
const MAX_NESTING: usize = 127;

/// A recursive-descent parser that fails where serde_json fails, with its
/// error at its place: serde_json places an error either at the byte it just
/// read ([`Parser::fail`]) or at the byte it looked at ([`Parser::fail_ahead`]).
struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            s: text.as_bytes(),
            text,
            i: 0,
            depth: 0,
        }
    }

    /// An error at the byte just read (or at the end).
    #[cold]
    fn fail(&self, code: Syntax) -> Fail {
        Fail { code, at: self.i }
    }

    /// An error at the byte at `self.i`, looked at but not read.
    #[cold]
    fn fail_ahead(&self, code: Syntax) -> Fail {
        Fail {
            code,
            at: self.s.len().min(self.i + 1),
        }
    }

    fn document(&mut self) -> Parsed<Value<'a>> {
        let v = self.value()?;
        match self.skip_ws() {
            None => Ok(v),
            Some(_) => Err(self.fail_ahead(Syntax::TrailingCharacters)),
        }
    }

    /// Skip whitespace; the next byte.
    // Inlined in the component, where `opt-level = "z"` keeps it a call.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
        self.peek()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn value(&mut self) -> Parsed<Value<'a>> {
        match self.skip_ws() {
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b't') => self.word(b"true", Value::Bool(true)),
            Some(b'f') => self.word(b"false", Value::Bool(false)),
            Some(b'n') => self.word(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.fail_ahead(Syntax::ExpectedSomeValue)),
            None => Err(self.fail_ahead(Syntax::EofWhileParsingValue)),
        }
    }

    fn word(&mut self, w: &[u8], v: Value<'a>) -> Parsed<Value<'a>> {
        for &expected in w {
            let Some(b) = self.peek() else {
                return Err(self.fail(Syntax::EofWhileParsingValue));
            };
            self.i += 1;
            if b != expected {
                return Err(self.fail(Syntax::ExpectedSomeIdent));
            }
        }
        Ok(v)
    }

    fn enter(&mut self) -> Parsed<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.fail_ahead(Syntax::RecursionLimitExceeded));
        }
        self.depth += 1;
        self.i += 1; // the opening bracket
        Ok(())
    }

    /// Before an element: whether there is one (`false` at the closing
    /// bracket, which is then read). `first` is for the first element.
    // Inlined in the component, where `opt-level = "z"` keeps it a call.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn more(&mut self, brackets: &Brackets, first: bool) -> Parsed<bool> {
        let close = brackets.close;
        match self.skip_ws() {
            None => Err(self.fail_ahead(brackets.eof)),
            Some(b) if b == close => {
                self.i += 1;
                Ok(false)
            }
            Some(_) if first => Ok(true),
            Some(b',') => {
                self.i += 1;
                match self.skip_ws() {
                    Some(b) if b == close => Err(self.fail_ahead(Syntax::TrailingComma)),
                    Some(_) => Ok(true),
                    None => Err(self.fail_ahead(Syntax::EofWhileParsingValue)),
                }
            }
            Some(_) => Err(self.fail_ahead(brackets.expected)),
        }
    }

    fn array(&mut self) -> Parsed<Value<'a>> {
        self.enter()?;
        let mut items = Vec::new();
        let mut first = true;
        while self.more(&ARRAY, first)? {
            if first {
                // Room for four: what the first push would take, without growing.
                items = Vec::with_capacity(4);
            }
            first = false;
            items.push(self.value()?);
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> Parsed<Value<'a>> {
        self.enter()?;
        // An error's objects hold a few members each: room for eight, given
        // back below when most of it went unused (a body of many small
        // objects must not take several times its size).
        let mut members = Vec::with_capacity(8);
        let mut first = true;
        // The keys' bits as they come: a key whose bit is new is no repeat,
        // so most objects need no search for repeated keys.
        let mut keys = 0u64;
        let mut collided = false;
        while self.more(&OBJECT, first)? {
            first = false;
            if self.peek() != Some(b'"') {
                return Err(self.fail_ahead(Syntax::KeyMustBeAString));
            }
            let k = self.string()?;
            let bit = key_bit(&k);
            collided |= keys & bit != 0;
            keys |= bit;
            match self.skip_ws() {
                Some(b':') => self.i += 1,
                Some(_) => return Err(self.fail_ahead(Syntax::ExpectedColon)),
                None => return Err(self.fail_ahead(Syntax::EofWhileParsingObject)),
            }
            let v = self.value()?;
            members.push((k, v));
        }
        self.depth -= 1;
        if members.capacity() > 2 * members.len() + 2 {
            members.shrink_to_fit();
        }
        if collided && has_repeats(&members) {
            return Ok(Value::Object(Map::from_members(without_repeats(members))));
        }
        Ok(Value::Object(Map { members, keys }))
    }

    /// A string; the opening quote is at `self.i`.
    #[inline(always)]
    fn string(&mut self) -> Parsed<Cow<'a, str>> {
        self.i += 1;
        let start = self.i;
        // Every byte found is ASCII: the slices below cut at char boundaries.
        self.i = self.special()?;
        if self.s[self.i] == b'"' {
            self.i += 1;
            return Ok(Cow::Borrowed(&self.text[start..self.i - 1]));
        }
        let mut out = String::with_capacity(self.i - start + 16);
        out.push_str(&self.text[start..self.i]);
        loop {
            match self.s[self.i] {
                b'"' => {
                    self.i += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => out.push(self.escape()?),
                _ => {
                    self.i += 1;
                    return Err(self.fail(Syntax::ControlCharacterWhileParsingString));
                }
            }
            let run = self.i;
            self.i = self.special()?;
            out.push_str(&self.text[run..self.i]);
        }
    }

    /// The next quote, backslash or control byte in a string.
    fn special(&mut self) -> Parsed<usize> {
        find_json_special(self.s, self.i).ok_or_else(|| {
            self.i = self.s.len();
            self.fail(Syntax::EofWhileParsingString)
        })
    }

    /// The next byte of an escape.
    fn escape_byte(&mut self) -> Parsed<u8> {
        let b = self
            .peek()
            .ok_or_else(|| self.fail(Syntax::EofWhileParsingString))?;
        self.i += 1;
        Ok(b)
    }

    /// The character an escape stands for; the backslash is at `self.i`.
    fn escape(&mut self) -> Parsed<char> {
        self.i += 1;
        Ok(match self.escape_byte()? {
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
                        // A surrogate pair, as serde_json requires it.
                        for expected in [b'\\', b'u'] {
                            if self.escape_byte()? != expected {
                                return Err(self.fail(Syntax::UnexpectedEndOfHexEscape));
                            }
                        }
                        let lo = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return Err(self.fail(Syntax::LoneLeadingSurrogateInHexEscape));
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    0xDC00..=0xDFFF => {
                        return Err(self.fail(Syntax::LoneLeadingSurrogateInHexEscape))
                    }
                    c => c,
                };
                // Every value left is a scalar value.
                char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            _ => return Err(self.fail(Syntax::InvalidEscape)),
        })
    }

    fn hex4(&mut self) -> Parsed<u32> {
        let Some(h) = self.s.get(self.i..self.i + 4) else {
            self.i = self.s.len();
            return Err(self.fail(Syntax::EofWhileParsingString));
        };
        self.i += 4;
        let mut n = 0;
        for b in h {
            let d = char::from(*b).to_digit(16);
            n = n * 16 + d.ok_or_else(|| self.fail(Syntax::InvalidEscape))?;
        }
        Ok(n)
    }

    /// A number, as serde_json reads it: an integer that fits `u64` (or
    /// `i64` when negative) stays one; anything else is the nearest `f64`,
    /// and one past `f64`'s range is an error.
    fn number(&mut self) -> Parsed<Value<'a>> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let int_start = self.i;
        match self.peek() {
            None => return Err(self.fail(Syntax::EofWhileParsingValue)),
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.fail_ahead(Syntax::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            Some(_) => {
                self.i += 1;
                return Err(self.fail(Syntax::InvalidNumber));
            }
        }
        let int = &self.s[int_start..self.i];
        let mut frac: &[u8] = &[];
        if self.peek() == Some(b'.') {
            self.i += 1;
            let frac_start = self.i;
            self.digits();
            if self.i == frac_start {
                return Err(match self.peek() {
                    Some(_) => self.fail_ahead(Syntax::InvalidNumber),
                    None => self.fail_ahead(Syntax::EofWhileParsingValue),
                });
            }
            frac = &self.s[frac_start..self.i];
        }
        let mut exp = 0i64;
        let has_exp = matches!(self.peek(), Some(b'e' | b'E'));
        if has_exp {
            self.i += 1;
            let exp_negative = self.peek() == Some(b'-');
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            match self.peek() {
                None => return Err(self.fail(Syntax::EofWhileParsingValue)),
                Some(b'0'..=b'9') => {}
                Some(_) => {
                    self.i += 1;
                    return Err(self.fail(Syntax::InvalidNumber));
                }
            }
            // serde_json reads the exponent into an `i32`: past that, a
            // nonzero number with a positive exponent is out of range at the
            // digit that overflowed, and anything else is zero.
            let mut overflow_at = None;
            while let Some(d @ b'0'..=b'9') = self.peek() {
                self.i += 1;
                let next = exp * 10 + i64::from(d - b'0');
                if next > i64::from(i32::MAX) {
                    overflow_at.get_or_insert(self.i);
                } else {
                    exp = next;
                }
            }
            if let Some(at) = overflow_at {
                let zero = int.iter().chain(frac).all(|&d| d == b'0');
                if !zero && !exp_negative {
                    return Err(Fail {
                        code: Syntax::NumberOutOfRange,
                        at,
                    });
                }
                return Ok(float(if negative { -0.0 } else { 0.0 }));
            }
            if exp_negative {
                exp = -exp;
            }
        }
        if frac.is_empty() && !has_exp {
            if let Some(magnitude) = integer(int) {
                if !negative {
                    return Ok(Value::Number(magnitude.into()));
                }
                // serde_json reads `-0` as a float, and so must this.
                if magnitude != 0 && magnitude <= 1 << 63 {
                    return Ok(Value::Number((magnitude as i64).wrapping_neg().into()));
                }
            }
        }
        let f = crate::float::decimal_to_f64(int, frac, exp - frac.len() as i64);
        if f.is_infinite() {
            return Err(self.fail(Syntax::NumberOutOfRange));
        }
        Ok(float(if negative { -f } else { f }))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }
}

/// ASCII digits as a `u64`, if they fit.
fn integer(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// A finite float as a number value.
fn float(f: f64) -> Value<'static> {
    Value::Number(Number::from_f64(f).unwrap_or_else(|| 0.into()))
}

/// Objects with more members than this are checked for repeated keys by
/// sorting; below, pairwise.
const MAX_PAIRWISE: usize = 32;

/// Whether an object's members may repeat a key (large objects: see
/// [`without_repeats`]).
fn has_repeats(members: &[(Cow<'_, str>, Value<'_>)]) -> bool {
    members.len() > MAX_PAIRWISE
        || members
            .iter()
            .enumerate()
            .any(|(i, (k, _))| members[..i].iter().any(|(other, _)| other == k))
}

/// The members with each key once, as serde_json's `preserve_order` map keeps
/// them: a repeated key keeps its first place and takes its last value.
/// Sorting member indices by key puts a key's members side by side (in
/// input order, the sort being stable): O(n log n) for any input.
fn without_repeats<'a>(
    mut members: Vec<(Cow<'a, str>, Value<'a>)>,
) -> Vec<(Cow<'a, str>, Value<'a>)> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    crate::sort::merge_sort(&mut order, &|a, b| members[a].0 <= members[b].0);
    let mut keep = vec![true; members.len()];
    let mut group = 0;
    for j in 1..=order.len() {
        if j < order.len() && members[order[j]].0 == members[order[group]].0 {
            keep[order[j]] = false;
            continue;
        }
        // `order[group..j]` share a key: the first place takes the last value.
        let (first, last) = (order[group], order[j - 1]);
        if first != last {
            let v = std::mem::replace(&mut members[last].1, Value::Null);
            members[first].1 = v;
        }
        group = j;
    }
    let mut keep = keep.into_iter();
    members.retain(|_| keep.next().unwrap_or(false));
    members
}

/// For the property tests: the parse the classifier uses, as a `serde_json` result, to compare
/// with `serde_json::from_str` (value, or error message).
#[cfg(any(test, feature = "internal-testing"))]
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
