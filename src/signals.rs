//! The signals one node of a raw error gives, and the lookup tables behind them.
//!
//! Strengths order the signals: an explicit canonical code beats a provider's
//! specific reason in the body, which beats a library's error code, which beats
//! an exception class name, which beats a bare HTTP status, which beats a guess
//! from the message text.

use crate::text::{find_key, parse_decimal, TrimFast};
use std::borrow::Cow;

use crate::input::{Map, Value};

/// Member lookup on objects and on values (`None` for a non-object).
pub(crate) trait Field<'a> {
    fn field(&self, key: &str) -> Option<&Value<'a>>;
}

impl<'a> Field<'a> for Map<'a> {
    #[inline(always)]
    fn field(&self, key: &str) -> Option<&Value<'a>> {
        self.get(key)
    }
}

impl<'a> Field<'a> for Value<'a> {
    #[inline(always)]
    fn field(&self, key: &str) -> Option<&Value<'a>> {
        self.get(key)
    }
}

use crate::gather::{parse_retry_after, ClassifyOptions, Gathered};
use crate::taxonomy::{Code, GRPC_NAMES};

pub(crate) use crate::gather::Strength;

const EXPLICIT: Strength = 100;
pub(crate) const VALIDATION: Strength = 85;
const BODY_SPECIFIC: Strength = 82;
const BODY_REASON: Strength = 80;
const PROVIDER: Strength = 78;
const SYS_CODE: Strength = 70;
const RPC_CODE: Strength = 62;
/// JSON-RPC −32602 "Invalid params": a JSON-RPC code, which the words of a
/// refusal may move ([`crate::classify`]).
pub(crate) const RPC_PARAMS: Strength = 61;
const NAME: Strength = 60;
const RATELIMIT_HEADER: Strength = 55;
const MESSAGE_CODE: Strength = 52;
const HTTP: Strength = 50;
/// A status stated in a message ("Request failed with status code 429").
const STATUS_TEXT: Strength = 48;
const HTTP_FROM_BODY: Strength = 45;
pub(crate) const SDK_STATUS: Strength = 45;
const WRAPPER: Strength = 30;
const MESSAGE_GUESS: Strength = 20;
const WEAK: Strength = 15;
const GENERIC: Strength = 10;

use Code::*;

// The lookup tables, from `rules/signals/*.json` (build.rs): `SYS_CODES`,
// `WEAK_CODES`, `TLS_CODES`, `TLS_MESSAGES`, `ERRNO`, `NAMES`, `DOTTED`,
// `AWS`, `PROVIDER_CODES`, `K8S`, `GOOGLE_REASONS`, `REASONS`, with each
// table's providers (`AWS_PROVIDERS`, …) for the leave-one-provider-out
// evaluation.
include!(concat!(env!("OUT_DIR"), "/signal_tables.rs"));

/// A provider's catch-all error type (Anthropic's `api_error`, "an unexpected
/// error internal to Anthropic's systems"; OpenAI's `server_error`) says no
/// more than a 5xx: a generic signal, which the status and the words refine.
/// Every other provider code is specific.
fn provider_strength(code: &str, specific: Strength) -> Strength {
    if PROVIDER_CATCH_ALLS.contains(&code) {
        GENERIC
    } else {
        specific
    }
}

/// A keyed table of `rules/signals/` as build.rs writes it: the keys as one
/// text and where each ends, the values, and an open-addressing index
/// (`slots[hash(key)]` is row + 1, probed linearly): a lookup is one hash and
/// a compare or two, and the component holds no pointer per row.
struct Table<T: 'static, const M: usize> {
    keys: &'static str,
    ends: &'static [u16],
    values: &'static [T],
    slots: [u8; M],
    /// The providers whose knowledge the table is (space-separated; empty
    /// for general knowledge), for the leave-one-provider-out evaluation:
    /// only its build carries them.
    #[cfg(feature = "leave-out")]
    providers: &'static str,
}

impl<T: Copy, const M: usize> Table<T, M> {
    fn key(&self, i: usize) -> &'static str {
        let start = i.checked_sub(1).map_or(0, |p| usize::from(self.ends[p]));
        &self.keys[start..usize::from(self.ends[i])]
    }

    /// The row of `key`, unless the table's providers are left out.
    fn row(&self, key: &str) -> Option<usize> {
        #[cfg(feature = "leave-out")]
        if crate::leave_out::off(self.providers) {
            return None;
        }
        find_key(&self.slots, key, |i| self.key(i))
    }

    fn get(&self, key: &str) -> Option<T> {
        self.row(key).map(|i| self.values[i])
    }
}

/// The system codes of a host name that does not resolve (libuv's
/// `ENOTFOUND` for getaddrinfo's `EAI_NONAME` and `EAI_NODATA`: Node's
/// lib/internal/errors.js `dnsException`): a network failure that calling
/// again will not fix, unlike `EAI_AGAIN` ("temporary failure in name
/// resolution").
const UNRESOLVED: [&str; 3] = ["ENOTFOUND", "EAI_NONAME", "EAI_NODATA"];

/// A system code's candidate; a name that does not resolve is noted (never
/// retryable, as a TLS certificate failure).
fn push_sys(
    g: &mut Gathered,
    name: &str,
    code: Code,
    strength: Strength,
    depth: usize,
    evidence: String,
) {
    if UNRESOLVED.contains(&name) && g.unresolved.is_none() {
        g.unresolved = Some([&evidence, ": the host name does not resolve"].concat());
    }
    g.push(code, strength, depth, evidence);
}

/// How much an AWS code says: one that only restates an HTTP status
/// (`BadRequestException`, `InternalServerError`) is as generic as the
/// status, and the error's words may refine it; any other is the service's
/// own code.
fn aws_strength(code: &str) -> Strength {
    if AWS_RESTATES_A_STATUS.contains(&code) {
        HTTP
    } else {
        PROVIDER
    }
}

/// The row of [`NAMES`] whose name is `key`.
fn names_row(key: &str) -> Option<usize> {
    NAMES.row(key)
}

/// How much a JSON-RPC code says: −32603 ("Internal error") is the catch-all
/// the MCP SDKs send for any failure of a handler (mcp-go's handler errors,
/// servers that throw), so it is no stronger than an unrecognized code: the
/// message's words decide, and INTERNAL is the fallback. −32602 says what
/// went wrong unless its words name a refusal ([`RPC_PARAMS`]); every other
/// code says what went wrong. (−32000 says nothing at all: [`from_jsonrpc`].)
fn rpc_strength(code: i64, strength: Strength) -> Strength {
    // −32600 ("Invalid Request") is about the JSON-RPC envelope, yet
    // servers answer refusals with it (the C# SDK's authorization filter,
    // missing API keys). −32001 and
    // −32002 are the MCP SDKs' request timeout and resources/read's "not
    // found", yet in a tool's answer they are the server's own choice in
    // that range: a status its text states, or its words, say more.
    match code {
        -32603 | -32001 | -32002 | -32600 => WEAK,
        // In a result's text, −32602 is the SDKs' wrapping of an error a tool
        // threw as "invalid params" (servers throw it for anything: a failed
        // upstream call, a disabled tool): a catch-all there.
        -32602 if strength == MESSAGE_CODE => WEAK,
        -32602 => RPC_PARAMS,
        _ => strength,
    }
}

/// The JSON-RPC / MCP error code mapping.
pub(crate) fn from_jsonrpc(code: i64) -> Option<Code> {
    Some(match code {
        -32700 | -32600 | -32602 => InvalidArgument,
        -32601 => Unimplemented,
        -32603 => Internal,
        // −32000 is the MCP SDKs' ConnectionClosed and any server's generic
        // error: alone it says nothing, its words decide ("Connection closed").
        -32000 => return None,
        // MCP SDKs: RequestTimeout; MCP: resource not found, URL elicitation required.
        -32001 => Timeout,
        -32002 => NotFound,
        -32042 => FailedPrecondition,
        // LSP-style request cancelled / content modified.
        -32800 => Cancelled,
        -32801 => Conflict,
        _ => return None,
    })
}

fn as_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => {
            let t = s.trim_fast();
            if !t.is_empty()
                && t.len() <= 6
                && t.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            {
                t.parse().ok()
            } else {
                None
            }
        }
        _ => None,
    }
}

fn status_of(v: Option<&Value>) -> Option<u16> {
    let n = as_i64(v?)?;
    if (100..=599).contains(&n) {
        Some(n as u16)
    } else {
        None
    }
}

fn str_of<'a>(node: &'a Map<'_>, key: &str) -> Option<&'a str> {
    match node.field(key)? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// Headers as lower-cased (name, value) pairs, from an object or a list of pairs.
pub(crate) fn headers_of(v: Option<&Value>) -> Vec<(String, String)> {
    fn text(v: &Value) -> Option<String> {
        match v {
            Value::String(s) => Some(s.to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Array(a) => Some(a.iter().filter_map(text).collect::<Vec<_>>().join(", ")),
            _ => None,
        }
    }
    let mut out = Vec::new();
    match v {
        Some(Value::Object(m)) => {
            for (k, v) in m.iter().take(1000) {
                if let Some(t) = text(v) {
                    out.push((k.to_ascii_lowercase(), t));
                }
            }
        }
        Some(Value::Array(a)) => {
            for pair in a.iter().take(1000) {
                match pair {
                    Value::Array(p) if p.len() == 2 => {
                        if let (Some(Value::String(k)), Some(t)) =
                            (p.first(), p.get(1).and_then(text))
                        {
                            out.push((k.to_ascii_lowercase(), t));
                        }
                    }
                    Value::Object(o) => {
                        if let (Some(Value::String(k)), Some(t)) =
                            (o.field("name"), o.field("value").and_then(text))
                        {
                            out.push((k.to_ascii_lowercase(), t));
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim_fast())
}

/// The body: a JSON value, or a string that holds JSON (parsed, borrowing
/// from the string).
fn body_value<'b>(v: &'b Value<'_>) -> Option<Cow<'b, Value<'b>>> {
    match v {
        Value::String(s) => {
            let t = s.trim_start();
            if (t.starts_with('{') || t.starts_with('[')) && s.len() <= crate::MAX_INPUT_BYTES {
                crate::input::parse(s).ok().map(Cow::Owned)
            } else {
                None
            }
        }
        Value::Null => None,
        // A body that is a list of one error object (Google's streaming
        // endpoints answer `[{"error": {…}}]`) is that object.
        Value::Array(a)
            if a.len() == 1 && a[0].as_object().is_some_and(|o| o.contains_key("error")) =>
        {
            Some(Cow::Borrowed(&a[0]))
        }
        other => Some(Cow::Borrowed(other)),
    }
}

/// The response-like object of a node: `response` (axios, requests, httpx) or `original`.
fn response_of<'b, 'a>(node: &'b Map<'a>) -> Option<&'b Map<'a>> {
    match node.field("response").or_else(|| node.field("original")) {
        Some(Value::Object(r)) => Some(r),
        _ => None,
    }
}

/// The HTTP status a node carries: its own `status` / `statusCode` /
/// `status_code` / `http_status` (or `httpStatus`, `HTTP-Status-Code`,
/// `http_code`: a tool's own summary of the upstream's answer, `{"errorCode":
/// "UPSTREAM_404", "httpStatus": 404}`), its response's, or AWS SDK `$metadata`.
fn http_status_of(node: &Map<'_>, response: Option<&Map<'_>>) -> Option<u16> {
    let own = |m: &Map<'_>| {
        status_of(m.field("status"))
            .or_else(|| status_of(m.field("statusCode")))
            .or_else(|| status_of(m.field("status_code")))
    };
    own(node)
        .or_else(|| status_of(member(node, &["httpstatus", "httpstatuscode", "httpcode"])))
        .or_else(|| {
            response.and_then(|r| {
                own(r).or_else(|| match r.field("ResponseMetadata") {
                    // botocore ClientError.response
                    Some(Value::Object(m)) => status_of(m.field("HTTPStatusCode")),
                    _ => None,
                })
            })
        })
        .or_else(|| match node.field("$metadata") {
            Some(Value::Object(m)) => status_of(m.field("httpStatusCode")),
            _ => None,
        })
}

/// Read one node of the raw error.
pub(crate) fn read_node(
    node: &Map<'_>,
    depth: usize,
    path: &str,
    opts: &ClassifyOptions,
    g: &mut Gathered,
) {
    // Evidence is formatted once, with its path, straight into one string.
    let quiet = g.quiet;
    let ev = |s: std::fmt::Arguments<'_>| {
        use std::fmt::Write as _;
        if quiet {
            return String::new();
        }
        let mut out = String::with_capacity(path.len() + 48);
        if !path.is_empty() {
            out.push_str(path);
            out.push_str(": ");
        }
        match s.as_str() {
            Some(literal) => out.push_str(literal),
            None => {
                let _ = out.write_fmt(s);
            }
        }
        out
    };
    let response = response_of(node);

    // HTTP status.
    let status = http_status_of(node, response);
    if let Some(s) = status {
        if g.http_status.is_none() {
            g.http_status = Some(s);
        }
        if let Some(code) = Code::from_http(s) {
            g.push(code, HTTP, depth, ev(format_args!("http {s}")));
        }
    }

    // Headers.
    let mut headers = headers_of(node.field("headers"));
    if let Some(r) = response {
        headers.extend(headers_of(r.field("headers")));
    }
    read_headers(&headers, status, depth, &ev, opts, g);

    // Explicit and library codes.
    if let Some(code) = node.field("code") {
        read_code(code, status, node, depth, &ev, g);
    }
    if let Some(errno) = node.field("errno").and_then(as_i64) {
        // libuv reports negated errno values (-104), Python positive ones (104);
        // Python's socket.gaierror carries getaddrinfo's EAI_* codes (glibc's
        // netdb.h: -2 EAI_NONAME, -3 EAI_AGAIN, -5 EAI_NODATA), not errno.
        let gai = str_of(node, "name").is_some_and(|n| n.ends_with("gaierror"));
        let abs = errno.checked_abs().unwrap_or(0);
        let found = if gai {
            [(2, "EAI_NONAME"), (3, "EAI_AGAIN"), (5, "EAI_NODATA")]
                .iter()
                .find(|(n, _)| *n == abs)
                .map(|(_, s)| *s)
        } else {
            ERRNO.iter().find(|(n, _)| *n == abs).map(|(_, s)| *s)
        };
        if let Some(name) = found {
            if let Some(code) = SYS_CODES.get(name) {
                let evidence = ev(format_args!("errno {errno} {name}"));
                push_sys(g, name, code, SYS_CODE, depth, evidence);
            }
        }
    }

    // Class name.
    let name = str_of(node, "name").map(|s| s.trim_fast()).unwrap_or("");
    if !name.is_empty() {
        read_name(name, node, depth, &ev, g);
    }

    // Body (the node's own, or its response's data/body).
    let body = node.field("body").and_then(body_value).or_else(|| {
        response.and_then(|r| body_value(r.field("data").or_else(|| r.field("body"))?))
    });
    // botocore's ClientError.response is the parsed body itself.
    let botocore = response.filter(|r| {
        body.is_none()
            && r.field("data").is_none()
            && r.field("body").is_none()
            && r.contains_key("Error")
    });
    let had_body_message = g.body_message.is_some();
    let before_body = g.candidates.len();
    match body.as_deref() {
        Some(Value::Object(b)) => read_body(b, status, depth, &ev, opts, g),
        None if botocore.is_none() => {
            let text = node
                .field("body")
                .or_else(|| response.and_then(|r| r.field("data").or_else(|| r.field("body"))));
            match text.and_then(Value::as_str).and_then(xml_error) {
                // An XML error document, read as AWS's `{"Error": {"Code", "Message"}}`.
                Some((code, message)) => {
                    if let Some(c) = AWS.get(code) {
                        g.push(c, aws_strength(code), depth, ev(format_args!("aws {code}")));
                    }
                    set_body_message(g, message.as_deref());
                }
                None => set_body_message(g, text.and_then(text_body)),
            }
        }
        _ => {
            if let Some(b) = botocore {
                read_body(b, status, depth, &ev, opts, g);
            }
        }
    }
    // Recognizer rules: the user's, then the shipped tables (rules/*.json).
    read_rules(node, body.as_deref(), &headers, status, depth, &ev, opts, g);
    // A node that is itself a provider body (e.g. the OpenAI SDK's `error` field copied up).
    if depth == 0 || (body.is_none() && botocore.is_none()) {
        if let Some(Value::Object(inner)) = node.field("error") {
            read_body_error(inner, node, depth, &ev, g);
        }
    }
    if let Some(Value::Array(issues)) = node.field("issues") {
        validation_errors(issues, "path", "message", "zod issues", depth, &ev, g);
    }
    // pydantic's own `ValidationError.errors()`: [{"type", "loc", "msg"}, …].
    if let Some(Value::Array(items)) = node.field("errors") {
        read_loc_msg(items, "pydantic errors", depth, &ev, g);
    }

    // Message text: the node's, and what its upstream body said.
    if let Some(m) = str_of(node, "message") {
        read_message(m, status, depth, &ev, g);
    }
    if !had_body_message {
        if let Some(m) = g.body_message.clone() {
            if str_of(node, "message") != Some(m.as_str()) {
                // A body that named a provider code: its words add a delay, a window.
                let body_coded = g.candidates[before_body..]
                    .iter()
                    .any(|c| c.strength >= PROVIDER && c.depth == depth);
                if body_coded {
                    read_delay_and_window(&m, &ev, g);
                } else {
                    read_message(&m, status, depth, &ev, g);
                }
            }
        }
    }

    // Author hints on retryability.
    if depth == 0 {
        // A deliberate, expected error that nothing else identifies is a
        // domain rule the request ran into: the state does not allow it.
        if let Some(Value::Bool(true)) = node.field("expected") {
            g.push(FailedPrecondition, GENERIC, depth, "hint expected".into());
        }
        if let Some(Value::Bool(b)) = node.field("retryable") {
            g.verdict(*b, format!("hint retryable {b}"), 3);
        }
        if let Some(ms) = node.field("retry_after_ms").and_then(Value::as_u64) {
            g.retry_after(ms, format!("hint retry_after_ms {ms}"));
        }
    }
    // Last, a delay field no rule names, by its name, at any depth of the
    // body, else among the error's own members (SmallRye Fault Tolerance's
    // `RateLimitException.retryAfterMillis`).
    if g.retry_after.is_none() {
        if let Some(b) = body.as_deref() {
            if let Some((name, ms)) = delay_field(b, 0) {
                g.retry_after(ms, ev(format_args!("body {name} {}", fmt_delay(ms))));
            }
        }
    }
    if g.retry_after.is_none() {
        // At the deepest depth: the members themselves, nothing under them.
        if let Some((name, ms)) = delay_member(node, MAX_DELAY_DEPTH) {
            g.retry_after(ms, ev(format_args!("{name} {}", fmt_delay(ms))));
        }
    }
}

/// How deep in a body a delay field is looked for.
const MAX_DELAY_DEPTH: usize = 5;

/// The names of retry-delay fields, compared without case, `_` or `-`: in
/// seconds, or in milliseconds when the name ends in `ms` or `millis`.
const DELAY_FIELDS: &str = lines![
    "retryafter",
    "retryafterseconds",
    "retryaftersecs",
    "retryafterms",
    "retryaftermillis",
    "retryin",
    "retryinseconds",
    "retryinms",
    "retrydelay",
    "retrydelayms",
    "retrydelayseconds",
    "waitseconds",
    "waittime",
    "cooldownseconds",
    "backoffseconds",
    "backoffms",
];

/// The first delay field of a body (depth first, bounded): its name and the
/// delay in milliseconds. A number, or text holding a number or a duration
/// (`"30"`, `"1.5s"`, `"2 minutes"`).
fn delay_field<'v>(v: &'v Value<'_>, depth: usize) -> Option<(&'v str, u64)> {
    if depth > MAX_DELAY_DEPTH {
        return None;
    }
    match v {
        Value::Object(m) => delay_member(m, depth),
        Value::Array(items) => items
            .iter()
            .take(16)
            .find_map(|i| delay_field(i, depth + 1)),
        _ => None,
    }
}

/// The first delay field among an object's members, or under them while
/// `depth` allows.
fn delay_member<'v>(m: &'v Map<'_>, depth: usize) -> Option<(&'v str, u64)> {
    for (k, val) in m.iter() {
        if let Some(scale) = delay_scale(k) {
            let text = match val {
                Value::String(s) => Some(s.trim_fast().to_string()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            };
            let ms = text.and_then(|text| {
                parse_decimal(&text, scale).or_else(|| parse_text_duration(&text))
            });
            if let Some(ms) = ms {
                return Some((k, ms));
            }
        }
        if let Some(found) = delay_field(val, depth + 1) {
            return Some(found);
        }
    }
    None
}

/// Whether a member's name is one of [`DELAY_FIELDS`], and its scale: 0
/// for milliseconds, 3 for seconds.
fn delay_scale(name: &str) -> Option<u32> {
    // Every name of the list has seven letters or more and starts with r,
    // w, c or b: most members (`message`, `name`, `code`, `errno`) are passed
    // over at once, as an error's own members are looked at for every error.
    let first = name.as_bytes().first()?.to_ascii_lowercase();
    if name.len() < 7 || !matches!(first, b'r' | b'w' | b'c' | b'b') {
        return None;
    }
    let mut key = [0u8; 32];
    let mut n = 0;
    for b in name.bytes().filter(|b| !matches!(b, b'_' | b'-')) {
        *key.get_mut(n)? = b.to_ascii_lowercase();
        n += 1;
    }
    let key = std::str::from_utf8(&key[..n]).ok()?;
    crate::text::has_line(DELAY_FIELDS, key).then_some(
        if key.ends_with("ms") || key.ends_with("millis") {
            0
        } else {
            3
        },
    )
}

fn read_headers(
    headers: &[(String, String)],
    status: Option<u16>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    opts: &ClassifyOptions,
    g: &mut Gathered,
) {
    if headers.is_empty() {
        return;
    }
    // A retry-after header under its provider's own name: `retry-after-ms`
    // and Azure's `x-ms-retry-after-ms` (milliseconds), OpenSky's
    // `X-Rate-Limit-Retry-After-Seconds`, an `X-Retry-After` (seconds). The
    // standard `Retry-After` is read below (seconds or an HTTP-date). Names
    // are lowercase here (`headers_of`).
    for (n, v) in headers {
        let scale = match n.strip_suffix("-seconds").unwrap_or(n) {
            _ if n == "retry-after" => continue,
            m if m.ends_with("retry-after") => 1000,
            m if m.ends_with("retry-after-ms") => 1,
            _ => continue,
        };
        if let Some(ms) = crate::rules::scaled(v, scale) {
            g.retry_after(ms, ev(format_args!("{n} {}", fmt_delay(ms))));
            break;
        }
    }
    if let Some(v) = header(headers, "retry-after") {
        match parse_retry_after(v, opts.now_ms) {
            Ok(ms) => g.retry_after(ms, ev(format_args!("retry-after {}", fmt_delay(ms)))),
            Err(crate::gather::RetryAfter::Unreadable) => {
                if g.ignored_delay.is_none() && !g.quiet {
                    g.ignored_delay = Some(ev(format_args!(
                        "retry-after ignored: not seconds or a real HTTP-date"
                    )));
                }
            }
            Err(crate::gather::RetryAfter::NoNow) => {
                if g.ignored_delay.is_none() && !g.quiet {
                    g.ignored_delay = Some(ev(format_args!(
                        "retry-after ignored: an HTTP-date, and no `now` to count from"
                    )));
                }
            }
        }
    }
    // Rate-limit reset headers say when the window resets; on a refusal
    // that is the delay. Seconds from now, or epoch seconds (GitHub).
    let none_left = header(headers, "x-ratelimit-remaining")
        .or_else(|| header(headers, "x-rate-limit-remaining"))
        .or_else(|| header(headers, "ratelimit-remaining"))
        .is_some_and(|v| v.trim_fast() == "0");
    let limited = status == Some(429) || none_left;
    if limited {
        // urlscan.io's hyphenated `x-rate-limit-reset-after` (seconds).
        // Not `x-rate-limit-reset`: X's API sends epoch seconds in it,
        // Prisjakt milliseconds (eval: prisjakt-429-reset-in-ms).
        for name in [
            "x-ratelimit-reset-after",
            "x-rate-limit-reset-after",
            "ratelimit-reset",
            "x-ratelimit-reset",
            "x-ratelimit-reset-requests",
        ] {
            let Some(v) = header(headers, name) else {
                continue;
            };
            let ms = match crate::rules::scaled(v, 1000) {
                // Epoch seconds: a time, not a delay.
                Some(ms) if ms >= 1_000_000_000_000 => {
                    opts.now_ms.map(|now| ms.saturating_sub(now.max(0) as u64))
                }
                Some(ms) => Some(ms),
                // OpenAI: "6m0s", "1s".
                None => parse_text_duration(v).filter(|_| v.ends_with('s')),
            };
            if let Some(ms) = ms {
                g.retry_after(ms, ev(format_args!("{name} {}", fmt_delay(ms))));
                break;
            }
        }
        // IETF draft `RateLimit: "api";r=0;t=55` (Hugging Face), and its
        // earlier form `limit=100, remaining=0, reset=5` (Close).
        if let Some(t) = header(headers, "ratelimit").and_then(|v| {
            crate::text::split_once(v, ";t=")
                .or_else(|| crate::text::split_once(v, "reset="))
                .map(|(_, t)| t)
        }) {
            let t = t.split([';', ',']).next().unwrap_or(t);
            if let Some(ms) = crate::rules::scaled(t, 1000) {
                g.retry_after(ms, ev(format_args!("ratelimit t={}", fmt_delay(ms))));
            }
        }
    }
    for name in ["x-should-retry", "stripe-should-retry"] {
        if let Some(v) = header(headers, name) {
            match v.to_ascii_lowercase().as_str() {
                "true" => g.verdict(true, ev(format_args!("{name} true")), 2),
                "false" => g.verdict(false, ev(format_args!("{name} false")), 2),
                _ => {}
            }
        }
    }
    if none_left && matches!(status, None | Some(403) | Some(429)) {
        g.push(
            RateLimited,
            RATELIMIT_HEADER,
            depth,
            ev(format_args!("x-ratelimit-remaining 0")),
        );
    }
}

/// A delay for evidence: whole seconds as `26s`, otherwise milliseconds.
pub(crate) fn fmt_delay(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

fn read_code(
    code: &Value,
    status: Option<u16>,
    node: &Map<'_>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    match code {
        Value::String(s) => {
            let s = s.trim_fast();
            if let Some(c) = Code::from_name(s) {
                let strength = if c == Unknown { GENERIC } else { EXPLICIT };
                g.push(c, strength, depth, ev(format_args!("code {s}")));
            } else if TLS_CODES.contains(&s) {
                g.push(NetworkError, SYS_CODE, depth, ev(format_args!("code {s}")));
                g.tls
                    .get_or_insert_with(|| ev(format_args!("tls certificate {s}")));
            } else if let Some(c) = SYS_CODES.get(s) {
                push_sys(g, s, c, SYS_CODE, depth, ev(format_args!("code {s}")));
            } else if let Some(c) = WEAK_CODES.get(s) {
                g.push(c, WEAK, depth, ev(format_args!("code {s}")));
            } else if let Some(c) = Code::from_grpc_name(s) {
                // gRPC's UNKNOWN (Firebase's `unknown`) says nothing more than
                // that it failed: the words decide.
                let strength = if c == Unknown { GENERIC } else { RPC_CODE };
                g.push(c, strength, depth, ev(format_args!("grpc {s}")));
            } else if let Some(c) = AWS.get(s) {
                g.push(c, aws_strength(s), depth, ev(format_args!("aws {s}")));
            } else if let Some(c) = PROVIDER_CODES.get(s) {
                g.push(c, BODY_SPECIFIC, depth, ev(format_args!("error code {s}")));
            } else if let Some(n) = as_i64(code) {
                read_numeric_code(n, status, node, depth, ev, g);
            }
        }
        Value::Number(_) => {
            if let Some(n) = as_i64(code) {
                read_numeric_code(n, status, node, depth, ev, g);
            }
        }
        _ => {}
    }
}

fn read_numeric_code(
    n: i64,
    status: Option<u16>,
    node: &Map<'_>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    if (-32768..=-32000).contains(&n) || n == -32800 || n == -32801 {
        if let Some(c) = from_jsonrpc(n) {
            g.push(
                c,
                rpc_strength(n, RPC_CODE),
                depth,
                ev(format_args!("jsonrpc {n}")),
            );
        }
    } else if (1..=16).contains(&n) && status.is_none() {
        // A gRPC status code (grpc-js and grpcio put it in `code`, beside the
        // status's `details` and `metadata`). A small number alone is any
        // library's code (kafkajs 3 is UNKNOWN_TOPIC_OR_PARTITION, a
        // CalledProcessError's 1 an exit status): it says nothing then, and
        // the error's other fields and words decide.
        let grpc = node.field("details").is_some() || node.field("metadata").is_some();
        if let (true, Some(c)) = (grpc, Code::from_grpc(n)) {
            g.push(
                c,
                RPC_CODE,
                depth,
                ev(format_args!("grpc {n} {}", GRPC_NAMES[n as usize])),
            );
        }
    } else if Code::is_http_error_status(n) && status.is_none_or(|s| (200..300).contains(&s)) {
        if g.http_status.is_none() {
            g.http_status = Some(n as u16);
        }
        if let Some(c) = Code::from_http(n as u16) {
            g.push(c, HTTP_FROM_BODY, depth, ev(format_args!("http {n}")));
        }
    }
}

fn read_name(
    name: &str,
    node: &Map<'_>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    let hit = DOTTED
        .get(name)
        .or_else(|| {
            // The first row that is the full name or its last segment.
            let full = names_row(name);
            let row = if last.len() == name.len() {
                full
            } else {
                match (full, names_row(last)) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            };
            row.map(|i| NAMES.values[i])
        })
        .or_else(|| AWS.get(last).map(|c| (c, aws_strength(last))));
    let message = str_of(node, "message").unwrap_or("");
    match hit {
        // A TypeError from fetch is a network failure, not a bug.
        Some((_, GENERIC)) if last == "TypeError" && is_network_message(message) => {
            g.push(
                NetworkError,
                WRAPPER,
                depth,
                ev(format_args!("name {name} ({})", message.trim_fast())),
            );
        }
        Some((code, strength)) => {
            // pydantic / zod validation errors carry their members.
            let strength =
                if last == "ValidationError" && node.field("errors").is_some_and(Value::is_array) {
                    VALIDATION
                } else {
                    strength
                };
            g.validation_class |= strength == VALIDATION;
            g.push(code, strength, depth, ev(format_args!("name {name}")));
        }
        None => {}
    }
    // `text::find`, not `str::contains`: no two-way searcher set up per call.
    let has = |word: &str| crate::text::find(last, word).is_some();
    if has("SSLCertVerificationError") || (has("SSLError") && is_tls_message(message)) {
        g.tls
            .get_or_insert_with(|| ev(format_args!("tls certificate {last}")));
    }
}

/// What browsers' and Node's `fetch` say, whole, when the network failed.
pub(crate) const NETWORK_MESSAGES: &[&str] = &[
    "fetch failed",
    "failed to fetch",
    "network error",
    "networkerror when attempting to fetch resource.",
    "load failed",
    "network request failed",
];

/// Whether the whole message (trimmed, any case) is one of [`NETWORK_MESSAGES`].
pub(crate) fn is_network_message(m: &str) -> bool {
    let m = m.trim_fast();
    // Most are written as listed: equal bytes first.
    NETWORK_MESSAGES
        .iter()
        .any(|w| m.len() == w.len() && (m == *w || m.eq_ignore_ascii_case(w)))
}

fn is_tls_message(m: &str) -> bool {
    MESSAGE_PHRASES.scan(m.as_bytes()) & TLS != 0
}

// Groups of [`MESSAGE_PHRASES`].
const RATE_LIMIT: u32 = 1;
const QUOTA: u32 = 1 << 1;
const EXHAUSTED: u32 = 1 << 2;
const TIMEOUT: u32 = 1 << 3;
const OVERLOADED: u32 = 1 << 4;
const TLS: u32 = 1 << 5;
// Searched for in any case here; the signal wants them as written, so a
// message with one is searched again (rarely).
const LARGER_THAN_MAX: u32 = 1 << 6;
const ERRNO_TEXT: u32 = 1 << 7;
/// A long quota window: a rate limit that names one is a spent quota.
const WINDOW: u32 = 1 << 8;
/// A stated delay may follow ([`DELAY_LEADS`]).
const DELAY: u32 = 1 << 9;
/// A status may follow ([`STATUS_LEADS`]).
const STATUS_LEAD: u32 = 1 << 10;

/// Everything a message is searched for, in any case, in one pass.
static MESSAGE_PHRASES: crate::text::PhraseGroups<58> = crate::text::PhraseGroups::new([
    ("rate limit", 0),
    ("too many requests", 0),
    ("ratelimit", 0),
    ("quota", 1),
    ("exceeded", 2),
    ("exhausted", 2),
    ("exceeding", 2),
    ("timed out", 3),
    ("timeout", 3),
    ("deadline exceeded", 3),
    ("overloaded", 4),
    (TLS_MESSAGES[0], 5),
    (TLS_MESSAGES[1], 5),
    (TLS_MESSAGES[2], 5),
    (TLS_MESSAGES[3], 5),
    (TLS_MESSAGES[4], 5),
    (TLS_MESSAGES[5], 5),
    (TLS_MESSAGES[6], 5),
    (TLS_MESSAGES[7], 5),
    (TLS_MESSAGES[8], 5),
    ("message larger than max", 6),
    ("[errno ", 7),
    ("per day", 8),
    ("perday", 8),
    ("per-day", 8),
    ("per month", 8),
    ("permonth", 8),
    ("daily", 8),
    ("monthly", 8),
    ("billing", 8),
    ("spend limit", 8),
    ("hard limit", 8),
    ("(rpd)", 8),
    ("(tpd)", 8),
    ("credits", 8),
    ("try again", 9),
    // "retry in", "retry after", "retry again", "retry this request in": the
    // leads are looked for once this is seen.
    ("retry", 9),
    // "wait for", "please wait", "wait at least", "wait until".
    ("wait ", 9),
    ("reset in", 9),
    ("available in", 9),
    ("this after", 9),
    ("try after", 9),
    // "request in", "request after".
    ("request ", 9),
    ("suspended for", 9),
    ("availability: ", 9),
    ("remaining period", 9),
    ("/ month", 8),
    ("/month", 8),
    ("/ day", 8),
    // Every lead of [`STATUS_LEADS`] contains one of these.
    // "response code", "response", "resp".
    ("resp", 10),
    // "client error '", "server error '", "error", "erro".
    ("erro", 10),
    ("http", 10),
    // "status code", "status", "statuscode", "status_code", "status] => ".
    ("status", 10),
    // "returned", "returns".
    ("return", 10),
    (", got ", 10),
    ("failed", 10),
    ("too many ", 10),
    // "code: ", "code = ", "code=", "code ".
    ("code", 10),
]);

/// `m.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))`, by bytes:
/// a character that is not a word byte ends a word, however many bytes it
/// has (its continuation bytes start none).
fn words(m: &str) -> impl Iterator<Item = &str> {
    let b = m.as_bytes();
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let end = from
            + b[from..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                .count();
        let mut next = end + 1;
        while next < b.len() && b[next] & 0xC0 == 0x80 {
            next += 1;
        }
        start = (end < b.len()).then_some(next);
        Some(&m[from..end])
    })
}

/// A stated delay and a long quota window in a message.
fn delay_and_window(
    m: &str,
    phrases: u32,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    if phrases & WINDOW != 0 && g.quota_window.is_none() {
        g.quota_window = Some(ev(format_args!("message quota window")));
    }
    if phrases & DELAY != 0 {
        if let Some(ms) = delay_in_text(m, g.now_ms) {
            g.retry_after(ms, ev(format_args!("message delay {}", fmt_delay(ms))));
        }
    }
}

fn read_delay_and_window(
    m: &str,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    delay_and_window(m, MESSAGE_PHRASES.scan(m.as_bytes()), ev, g);
}

fn read_message(
    m: &str,
    status: Option<u16>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    let m = m.trim_fast();
    let phrases = MESSAGE_PHRASES.scan(m.as_bytes());
    delay_and_window(m, phrases, ev, g);
    // Status text inside an exception's message counts as a status.
    if status.is_none() {
        let stated = if phrases & STATUS_LEAD != 0 {
            status_in_text(m)
        } else {
            status_by_reason(m)
        };
        if let Some(s) = stated {
            g.http_status.get_or_insert(s);
            if let Some(c) = Code::from_http(s) {
                g.push(c, STATUS_TEXT, depth, ev(format_args!("message http {s}")));
            }
        }
    }
    // The class or code in front: "14 UNAVAILABLE: …", "ConnectionResetError: …".
    let head = crate::text::split_once(m, ": ").map(|(head, _)| head);
    // "MCP error -32001: Request timed out"
    if let Some(rest) = m.strip_prefix("MCP error ") {
        if let Some(n) = rest
            .split(':')
            .next()
            .and_then(|n| n.trim_fast().parse::<i64>().ok())
        {
            if let Some(c) = from_jsonrpc(n) {
                let strength = rpc_strength(n, MESSAGE_CODE);
                g.push(c, strength, depth, ev(format_args!("message jsonrpc {n}")));
            }
        }
    }
    // grpc-js: "14 UNAVAILABLE: No connection established"
    if let Some(head) = head {
        if let Some((num, name)) = head.split_once(' ') {
            if let Ok(n) = num.parse::<usize>() {
                if GRPC_NAMES.get(n) == Some(&name) {
                    if let Some(c) = Code::from_grpc(n as i64) {
                        g.push(
                            c,
                            MESSAGE_CODE,
                            depth,
                            ev(format_args!("message grpc {n} {name}")),
                        );
                    }
                }
            }
        }
    }
    // grpc-dotnet's RpcException: 'Status(StatusCode="Unavailable", Detail="…")'.
    if let Some((_, rest)) = crate::text::split_once(m, "Status(StatusCode=\"") {
        let name = rest.split('"').next().unwrap_or("");
        if let Some(c) = Code::from_grpc_name(name) {
            g.push(
                c,
                MESSAGE_CODE,
                depth,
                ev(format_args!("message grpc {name}")),
            );
        }
    }
    // grpc-js: "8 RESOURCE_EXHAUSTED: Received message larger than max (5000000 vs. 4194304)".
    if phrases & LARGER_THAN_MAX != 0 && crate::text::contains(m, "message larger than max") {
        g.push(
            PayloadTooLarge,
            SYS_CODE,
            depth,
            ev(format_args!("message larger than max")),
        );
    }
    // botocore: "An error occurred (ThrottlingException) when calling the Query operation: …"
    if let Some(rest) = m.strip_prefix("An error occurred (") {
        if let Some((code, _)) = rest.split_once(')') {
            if let Some(c) = AWS.get(code) {
                g.push(
                    c,
                    aws_strength(code),
                    depth,
                    ev(format_args!("message aws {code}")),
                );
            }
        }
    }
    // Python's str(exc) with the class in front: "ConnectionResetError: [Errno 104] …".
    if let Some(head) = head {
        let last = head.rsplit('.').next().unwrap_or(head);
        if let Some(&(c, strength)) = names_row(last).map(|i| &NAMES.values[i]) {
            g.push(
                c,
                strength.min(MESSAGE_CODE),
                depth,
                ev(format_args!("message {last}")),
            );
        }
    }
    // Python OSError text: "[Errno 111] Connection refused".
    let errno_text = (phrases & ERRNO_TEXT != 0)
        .then(|| crate::text::split_once(m, "[Errno "))
        .flatten();
    if let Some((_, rest)) = errno_text {
        let n = rest
            .split(']')
            .next()
            .and_then(|n| n.trim_fast().parse::<i64>().ok());
        // Negative: `socket.gaierror`, whose numbers are getaddrinfo's EAI_*
        // codes (CPython socketmodule.c set_gaierror; glibc netdb.h: −2
        // EAI_NONAME, −3 EAI_AGAIN, …), not errnos: a name that did not resolve.
        if let Some(n) = n.filter(|n| (-11..0).contains(n)) {
            // −2 EAI_NONAME and −5 EAI_NODATA: the name does not resolve.
            let name = match n {
                -2 => "EAI_NONAME",
                -5 => "EAI_NODATA",
                _ => "",
            };
            let evidence = ev(format_args!("message gaierror {n}"));
            push_sys(g, name, NetworkError, MESSAGE_CODE, depth, evidence);
        } else if let Some(name) = n
            .and_then(|n| ERRNO.iter().find(|(e, _)| *e == n))
            .map(|(_, s)| *s)
        {
            if let Some(c) = SYS_CODES.get(name) {
                let evidence = ev(format_args!("message errno {name}"));
                push_sys(g, name, c, MESSAGE_CODE, depth, evidence);
            }
        }
    }
    if phrases & TLS != 0 {
        g.push(
            NetworkError,
            MESSAGE_CODE,
            depth,
            ev(format_args!("message tls certificate")),
        );
        g.tls
            .get_or_insert_with(|| ev(format_args!("tls certificate")));
    }
    // Node system errors spell their code in the message: "connect ECONNREFUSED 127.0.0.1:80".
    // (A code word starts with `E`: a message without one has none.)
    let words = m.as_bytes().contains(&b'E').then(|| words(m).take(64));
    for word in words.into_iter().flatten() {
        if word.len() >= 5
            && word.starts_with('E')
            && word.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        {
            if let Some(c) = SYS_CODES.get(word) {
                let evidence = ev(format_args!("message {word}"));
                push_sys(g, word, c, MESSAGE_GUESS + 20, depth, evidence);
                break;
            }
        }
    }
    if phrases & RATE_LIMIT != 0 {
        // A 403 that says "rate limit" is a rate limit (GitHub); a 429 already is one.
        let strength = if status == Some(403) {
            RATELIMIT_HEADER
        } else {
            MESSAGE_GUESS
        };
        g.push(
            RateLimited,
            strength,
            depth,
            ev(format_args!("message rate limit")),
        );
    } else if phrases & QUOTA != 0 && phrases & EXHAUSTED != 0 {
        let strength = if matches!(status, Some(403) | Some(429)) {
            RATELIMIT_HEADER
        } else {
            MESSAGE_GUESS
        };
        g.push(
            QuotaExhausted,
            strength,
            depth,
            ev(format_args!("message quota")),
        );
    } else if phrases & TIMEOUT != 0 {
        g.push(
            Timeout,
            MESSAGE_GUESS,
            depth,
            ev(format_args!("message timeout")),
        );
    } else if phrases & OVERLOADED != 0 {
        g.push(
            Unavailable,
            MESSAGE_GUESS,
            depth,
            ev(format_args!("message overloaded")),
        );
    }
}

fn read_body(
    b: &Map<'_>,
    status: Option<u16>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    opts: &ClassifyOptions,
    g: &mut Gathered,
) {
    // Kubernetes Status.
    if str_of(b, "kind") == Some("Status") {
        if let Some(reason) = str_of(b, "reason") {
            if let Some(c) = K8S.get(reason) {
                g.push(
                    c,
                    BODY_REASON,
                    depth,
                    ev(format_args!("k8s reason {reason}")),
                );
            }
        }
        if status.is_none() {
            if let Some(s) = status_of(b.field("code")) {
                g.http_status.get_or_insert(s);
                if let Some(c) = Code::from_http(s) {
                    g.push(c, HTTP_FROM_BODY, depth, ev(format_args!("http {s}")));
                }
            }
        }
        if let Some(Value::Object(d)) = b.field("details") {
            if let Some(secs) = d.field("retryAfterSeconds").and_then(Value::as_u64) {
                g.retry_after(
                    secs.saturating_mul(1000),
                    ev(format_args!("retryAfterSeconds {secs}")),
                );
            }
        }
        set_body_message(g, str_of(b, "message"));
        return;
    }
    // A body that states the status its error had (RFC 9457 problem details,
    // Spring Boot's `{"status": 404, "error": "Not Found"}`, NestJS's
    // `{"statusCode": 409}`, a tool's `{"httpStatus": 404}`), when nothing
    // else gave one.
    if status.is_none() && g.http_status.is_none() {
        if let Some(s) = nested_status(b, 0) {
            g.http_status = Some(s);
            if let Some(c) = Code::from_http(s) {
                g.push(c, HTTP_FROM_BODY, depth, ev(format_args!("body http {s}")));
            }
        }
    }
    // RFC 9457 problem details.
    if b.contains_key("title") || (b.contains_key("type") && b.contains_key("detail")) {
        set_body_message(g, str_of(b, "detail").or_else(|| str_of(b, "title")));
    }
    // FastAPI / pydantic 422: {"detail": [{"loc": …, "msg": …, "type": …}]}
    if let Some(Value::Array(items)) = b.field("detail") {
        read_loc_msg(items, "validation errors", depth, ev, g);
    }
    // AWS JSON protocols.
    for key in ["__type", "Code", "code"] {
        if let Some(t) = str_of(b, key) {
            let t = t.rsplit('#').next().unwrap_or(t);
            let t = t.split(':').next().unwrap_or(t);
            if let Some(c) = AWS.get(t) {
                g.push(c, aws_strength(t), depth, ev(format_args!("aws {t}")));
                set_body_message(g, str_of(b, "message").or_else(|| str_of(b, "Message")));
                break;
            }
        }
    }
    if let Some(Value::Object(e)) = b.field("Error") {
        if let Some(t) = str_of(e, "Code") {
            if let Some(c) = AWS.get(t) {
                g.push(c, aws_strength(t), depth, ev(format_args!("aws {t}")));
            }
        }
        set_body_message(g, str_of(e, "Message"));
    }
    // Google, OpenAI, Anthropic, Stripe, JSON-RPC: {"error": {…}}.
    if let Some(Value::Object(e)) = b.field("error") {
        read_body_error(e, b, depth, ev, g);
    } else if let Some(Value::String(e)) = b.field("error") {
        // {"error": "invalid_grant", "error_description": "…"} (OAuth) and friends.
        if let Some(c) = PROVIDER_CODES.get(e) {
            // A generic one (`api_error`) as generic here as in an object.
            let strength = provider_strength(e, BODY_SPECIFIC);
            g.push(c, strength, depth, ev(format_args!("error {e}")));
        } else if matches!(
            &**e,
            "invalid_grant" | "invalid_token" | "invalid_client" | "unauthorized_client"
        ) {
            g.push(
                Unauthenticated,
                BODY_SPECIFIC,
                depth,
                ev(format_args!("oauth {e}")),
            );
        } else if e == "insufficient_scope" || e == "access_denied" {
            g.push(
                PermissionDenied,
                BODY_SPECIFIC,
                depth,
                ev(format_args!("oauth {e}")),
            );
        }
        set_body_message(
            g,
            str_of(b, "error_description")
                .or_else(|| str_of(b, "message"))
                .or(Some(e)),
        );
    } else {
        // A JSON-RPC error object given directly, or a bare {code, message}
        // (a 2xx response's body may carry the HTTP status it means: QWeather's
        // `{"code": "402"}`).
        if let Some(n) = b.field("code").and_then(as_i64) {
            read_numeric_code(n, status, b, depth, ev, g);
        }
        set_body_message(
            g,
            str_of(b, "message")
                .or_else(|| str_of(b, "detail").filter(|_| !b.contains_key("title")))
                .or_else(|| message_member(b)),
        );
    }
    // A list of errors (JSON:API's `errors[].detail` / `title`, GraphQL's
    // `errors[].message`, Rails' `{"errors": ["Subject cannot be blank"]}`,
    // a list of `messages`): the first one's words are the message, so a
    // delay they state is read.
    if let Some(Value::Array(items)) = b.field("errors").or_else(|| b.field("messages")) {
        set_body_message(
            g,
            match items.first() {
                Some(Value::Object(e)) => str_of(e, "detail")
                    .or_else(|| str_of(e, "message"))
                    .or_else(|| str_of(e, "title"))
                    .or_else(|| str_of(e, "text")),
                Some(Value::String(s)) => Some(s),
                _ => None,
            },
        );
    }
    if let Some(Value::Array(_)) = b.field("issues") {
        g.push(
            InvalidArgument,
            VALIDATION,
            depth,
            ev(format_args!("zod issues")),
        );
    }
    let _ = opts;
}

/// Validation errors as pydantic gives them (`loc`, `msg`): INVALID_ARGUMENT,
/// and the one-line summary of the items as the message.
fn read_loc_msg(
    items: &[Value],
    label: &str,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    if items
        .iter()
        .any(|i| i.field("loc").is_some() && i.field("msg").is_some())
    {
        validation_errors(items, "loc", "msg", label, depth, ev, g);
    }
}

/// A list of validation errors: INVALID_ARGUMENT, named by `label` in the
/// evidence, and the one-line summary of the items as the message.
fn validation_errors(
    items: &[Value],
    path_key: &str,
    msg_key: &str,
    label: &str,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    g.push(
        InvalidArgument,
        VALIDATION,
        depth,
        ev(format_args!("{label}")),
    );
    set_body_message(g, issues_summary(items, path_key, msg_key).as_deref());
}

/// "city: Required; body.date: Invalid date" from zod issues (`path`, `message`)
/// or pydantic / FastAPI errors (`loc`, `msg`); at most five, then a count.
fn issues_summary(items: &[Value], path_key: &str, msg_key: &str) -> Option<String> {
    const SHOWN: usize = 5;
    let parts: Vec<String> = items
        .iter()
        .filter_map(|item| {
            let msg = item.get(msg_key)?.as_str()?.trim_fast();
            let path = match item.get(path_key) {
                Some(Value::Array(p)) => p
                    .iter()
                    .filter_map(|s| match s {
                        Value::String(s) => Some(s.to_string()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("."),
                Some(Value::String(p)) => p.to_string(),
                _ => String::new(),
            };
            Some(if path.is_empty() {
                msg.to_string()
            } else {
                format!("{path}: {msg}")
            })
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    let mut out = parts[..parts.len().min(SHOWN)].join("; ");
    if parts.len() > SHOWN {
        out.push_str(&format!("; and {} more", parts.len() - SHOWN));
    }
    Some(out)
}

/// A body's message under another common name (`errorMessage`,
/// `error_message`, `longMessage`, `msg`, `description`, `desc`, `errmsg`),
/// compared without case, `_` or `-`.
fn message_member<'m>(b: &'m Map<'_>) -> Option<&'m str> {
    const NAMES: [&str; 7] = [
        "errormessage",
        "longmessage",
        "msg",
        "description",
        // Keybase's `{"code": 218, "desc": …}`; WeChat's `errmsg`.
        "desc",
        "errmsg",
        "errormsg",
    ];
    NAMES
        .iter()
        .find_map(|n| member(b, &[n]).and_then(Value::as_str))
}

/// The 4xx or 5xx status a body states, in its own members or an object
/// under it, two levels down at most (`{"error": {"status_code": 401}}`,
/// Musixmatch's `{"message": {"header": {"status_code": 401}}}`,
/// `{"meta": {"status_code": 403}}`); lists are not entered (a batch's
/// items have statuses of their own).
fn nested_status(b: &Map<'_>, level: usize) -> Option<u16> {
    http_status_of(b, None).filter(|&s| s >= 400).or_else(|| {
        (level < 2)
            .then(|| {
                b.iter().find_map(|(_, v)| match v {
                    Value::Object(m) => nested_status(m, level + 1),
                    _ => None,
                })
            })
            .flatten()
    })
}

/// The first of `names` (lowercase, without `_` or `-`) that names a
/// member of `b` in any case and with any `_` or `-`: its value.
fn member<'m, 'a>(b: &'m Map<'a>, names: &[&str]) -> Option<&'m Value<'a>> {
    names.iter().find_map(|want| {
        b.iter().find_map(|(k, v)| {
            let key = k.bytes().filter(|c| *c != b'_' && *c != b'-');
            let same = key.clone().count() == want.len()
                && key
                    .zip(want.bytes())
                    .all(|(a, w)| a.to_ascii_lowercase() == w);
            same.then_some(v)
        })
    })
}

/// The code and message of an XML error document, as AWS's query and REST
/// protocols (`<ErrorResponse><Error><Code>…</Code><Message>…`, S3's
/// `<Error>`, EC2's `<Errors>`), Azure Storage and Google Cloud Storage's XML
/// API send it: the first `<Code>` and `<Message>` elements' text.
pub(crate) fn xml_error(t: &str) -> Option<(&str, Option<String>)> {
    let t = t.trim_fast();
    if !t.starts_with('<') {
        return None;
    }
    let element = |open: &str, close: &str| {
        let from = crate::text::find(t, open)? + open.len();
        let len = crate::text::find(&t[from..], close)?;
        let text = t[from..from + len].trim_fast();
        (!text.is_empty() && !text.contains('<')).then_some(text)
    };
    let code = element("<Code>", "</Code>")?;
    let message = element("<Message>", "</Message>").map(|m| {
        // The entities XML predefines, `&apos;` aside (left as written: the
        // component is at its size budget).
        let mut out = String::with_capacity(m.len());
        let mut rest = m;
        while let Some(at) = rest.find('&') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let (c, len) = [
                ("&amp;", '&'),
                ("&lt;", '<'),
                ("&gt;", '>'),
                ("&quot;", '"'),
            ]
            .iter()
            .find(|(e, _)| rest.starts_with(e))
            .map_or(('&', 1), |(e, c)| (*c, e.len()));
            out.push(c);
            rest = &rest[len..];
        }
        out.push_str(rest);
        out
    });
    Some((code, message))
}

/// A body that is text, not JSON: its words are the upstream's message
/// (an HTML page is not).
fn text_body<'b>(v: &'b Value<'_>) -> Option<&'b str> {
    let t = v.as_str()?.trim_fast();
    (!t.is_empty()
        && !t.starts_with('<')
        && !t.starts_with('{')
        && !t.starts_with('[')
        && t.len() <= 2048)
        .then_some(t)
}

fn set_body_message(g: &mut Gathered, m: Option<&str>) {
    if g.body_message.is_none() {
        // A flag or a number (`"error": "1"`) is no message: a word is.
        let worded = |m: &&str| m.bytes().any(|b| b.is_ascii_alphabetic() || b >= 0x80);
        if let Some(m) = m.map(|s| s.trim_fast()).filter(worded) {
            g.body_message = Some(m.to_string());
        }
    }
}

/// `{"error": {…}}` bodies: Google (status, details), OpenAI / Anthropic / Stripe
/// (type, code), JSON-RPC (numeric code).
fn read_body_error(
    e: &Map<'_>,
    outer: &Map<'_>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    g: &mut Gathered,
) {
    let _ = outer;
    // Google: {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [...]}}
    // A remote service's INTERNAL is its bug: an upstream error to the tool.
    let google_status = str_of(e, "status").and_then(|s| {
        Code::from_grpc_name(s).map(|c| (s, if c == Internal { UpstreamError } else { c }))
    });
    let mut quota_failure = false;
    let mut retry_info = false;
    if let Some(Value::Array(details)) = e.field("details") {
        for d in details.iter().take(32) {
            let Some(d) = d.as_object() else { continue };
            let ty = str_of(d, "@type").unwrap_or("");
            if ty.ends_with("google.rpc.RetryInfo") {
                if let Some(ms) = d.field("retryDelay").and_then(parse_duration) {
                    retry_info = true;
                    g.retry_after(ms, ev(format_args!("RetryInfo {}", fmt_delay(ms))));
                }
            } else if ty.ends_with("google.rpc.QuotaFailure") {
                quota_failure = true;
                // Which window: `quotaId` "…PerDay…" / "…PerMinute…", or the metric's words.
                if let Some(Value::Array(vs)) = d.field("violations") {
                    for v in vs.iter().take(8) {
                        for key in ["quotaId", "quotaMetric", "description"] {
                            let Some(text) = v.field(key).and_then(Value::as_str) else {
                                continue;
                            };
                            if MESSAGE_PHRASES.scan(text.as_bytes()) & WINDOW != 0 {
                                g.window_structured =
                                    Some((true, ev(format_args!("QuotaFailure {key} {text}"))));
                            } else if g.window_structured.is_none()
                                && (crate::text::contains(text, "PerMinute")
                                    || find_ci(text, "per minute").is_some())
                            {
                                g.window_structured =
                                    Some((false, ev(format_args!("QuotaFailure {key} {text}"))));
                            }
                        }
                    }
                }
            } else if ty.ends_with("google.rpc.ErrorInfo") {
                if let Some(reason) = str_of(d, "reason") {
                    if let Some(c) = GOOGLE_REASONS.get(reason) {
                        g.push(
                            c,
                            BODY_SPECIFIC,
                            depth,
                            ev(format_args!("ErrorInfo {reason}")),
                        );
                    }
                }
            }
        }
    }
    if let Some((s, c)) = google_status {
        g.push(c, BODY_REASON, depth, ev(format_args!("google status {s}")));
    }
    if quota_failure {
        // A per-minute quota says when to come back (RetryInfo); a spent budget does not.
        let c = match &g.window_structured {
            Some((long, _)) if *long => QuotaExhausted,
            Some(_) => RateLimited,
            None if retry_info => RateLimited,
            None => QuotaExhausted,
        };
        g.push(c, BODY_SPECIFIC, depth, ev(format_args!("QuotaFailure")));
    }
    if let Some(Value::Array(errors)) = e.field("errors") {
        for item in errors.iter().take(8) {
            if let Some(reason) = item.field("reason").and_then(Value::as_str) {
                if let Some(c) = GOOGLE_REASONS.get(reason) {
                    g.push(
                        c,
                        BODY_SPECIFIC,
                        depth,
                        ev(format_args!("google reason {reason}")),
                    );
                    break;
                }
            }
        }
    }
    // OpenAI / Anthropic / Stripe.
    if let Some(code) = str_of(e, "code") {
        if let Some(c) = PROVIDER_CODES.get(code) {
            let strength = provider_strength(code, BODY_SPECIFIC);
            g.push(c, strength, depth, ev(format_args!("error code {code}")));
        }
    }
    if let Some(ty) = str_of(e, "type") {
        if let Some(c) = PROVIDER_CODES.get(ty) {
            let strength = provider_strength(ty, BODY_REASON);
            g.push(c, strength, depth, ev(format_args!("error type {ty}")));
        }
    }
    // JSON-RPC error object, or a Google numeric HTTP code.
    if let Some(n) = e.field("code").and_then(as_i64) {
        if let Some(c) = from_jsonrpc(n) {
            g.push(
                c,
                rpc_strength(n, RPC_CODE),
                depth,
                ev(format_args!("jsonrpc {n}")),
            );
        } else if Code::is_http_error_status(n) {
            g.http_status.get_or_insert(n as u16);
            if let Some(c) = Code::from_http(n as u16) {
                g.push(c, HTTP_FROM_BODY, depth, ev(format_args!("http {n}")));
            }
        }
    }
    set_body_message(g, str_of(e, "message"));
}

/// A protobuf JSON Duration (`"26s"`, `"1.5s"`) or `{seconds, nanos}`, in milliseconds.
fn parse_duration(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => {
            let secs = s.trim_fast().strip_suffix('s')?;
            // Nanosecond precision at most: round the milliseconds.
            let ms = parse_decimal(secs, 4)?;
            Some(ms / 10 + u64::from(ms % 10 >= 5))
        }
        Value::Object(o) => {
            let secs = o.field("seconds").and_then(as_i64).unwrap_or(0).max(0) as u64;
            let nanos = o.field("nanos").and_then(as_i64).unwrap_or(0).max(0) as u64;
            Some(secs.saturating_mul(1000).saturating_add(nanos / 1_000_000))
        }
        _ => None,
    }
}

/// The author's hints at the top of the raw error.
#[derive(Debug, Default)]
pub(crate) struct Hints {
    pub tool: Option<String>,
    pub app_code: Option<String>,
    pub app_type: Option<String>,
    pub suggestions: Vec<String>,
    pub expected: bool,
}

pub(crate) fn hints(root: &Map<'_>) -> Hints {
    fn text(v: Option<&Value>) -> Option<String> {
        match v? {
            Value::String(s) if !s.trim_fast().is_empty() => Some(s.trim_fast().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }
    let suggestions = match root.field("suggestions") {
        Some(Value::Array(a)) => a.iter().filter_map(|v| text(Some(v))).collect(),
        Some(v) => text(Some(v)).into_iter().collect(),
        None => Vec::new(),
    };
    Hints {
        tool: text(root.field("tool")),
        app_code: text(root.field("app_code")),
        app_type: text(root.field("app_type")),
        suggestions,
        expected: matches!(root.field("expected"), Some(Value::Bool(true))),
    }
}

/// The upstream response `{status, body}`, when the error carried one.
pub(crate) fn original(root: &Map<'_>) -> Option<serde_json::Value> {
    let response = response_of(root);
    let status = http_status_of(root, response);
    let body = root
        .field("body")
        .or_else(|| response.and_then(|r| r.field("data").or_else(|| r.field("body"))))
        .filter(|b| !b.is_null());
    if status.is_none() && body.is_none() {
        return None;
    }
    let mut m = serde_json::Map::new();
    if let Some(s) = status {
        m.insert("status".into(), serde_json::Value::from(s));
    }
    if let Some(b) = body {
        m.insert("body".into(), b.to_serde());
    }
    Some(serde_json::Value::Object(m))
}

/// Run the recognizer rules on a node: the user's, then the shipped ones.
/// A message that starts with a class name (`java.net.UnknownHostException:
/// …`) is also read as that name, no stronger than a code in a message.
#[allow(clippy::too_many_arguments)]
fn read_rules(
    node: &Map<'_>,
    body: Option<&Value<'_>>,
    headers: &[(String, String)],
    status: Option<u16>,
    depth: usize,
    ev: &dyn Fn(std::fmt::Arguments<'_>) -> String,
    opts: &ClassifyOptions,
    g: &mut Gathered,
) {
    let cx = crate::rules::Ctx {
        node,
        body,
        headers,
        status,
    };
    let push = |h: crate::rules::Hit<'_>, g: &mut Gathered| {
        let evidence = match h.key {
            Some(k) => ev(format_args!("{} {k}", h.table.tag)),
            None => ev(format_args!("{}", h.table.tag)),
        };
        if let Some(d) = h.delay() {
            if let Some(ms) = crate::rules::delay_ms(&cx, d) {
                g.retry_after(
                    ms,
                    ev(format_args!("{} delay {}", h.table.tag, fmt_delay(ms))),
                );
            }
        }
        g.push_rule(h.code(), h.table.strength, depth, evidence, h.row.retryable);
    };
    crate::rules::each_match(&cx, &opts.rules.0, &mut |h| push(h, g));
    // "java.net.SocketTimeoutException: Read timed out": the class in front.
    if let Some(m) = str_of(node, "message") {
        if let Some((head, _)) = crate::text::split_once(m.trim_fast(), ": ") {
            let classy = head.len() <= 160
                && head.contains('.')
                && head
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'$'));
            if classy && str_of(node, "name") != Some(head) {
                let named = Map::single("name", Value::String(Cow::Borrowed(head)));
                let cx = crate::rules::Ctx {
                    node: &named,
                    body: None,
                    headers: &[],
                    status,
                };
                crate::rules::each_match(&cx, &[], &mut |h| {
                    let strength = h.table.strength.min(MESSAGE_CODE);
                    let evidence = ev(format_args!(
                        "message {} {}",
                        h.table.tag,
                        h.key.unwrap_or("")
                    ));
                    g.push_rule(h.code(), strength, depth, evidence, h.row.retryable);
                });
            }
        }
    }
}

/// Phrases an HTTP client puts right before the status it got: axios
/// "Request failed with status code 429", Go "unexpected status code: 503",
/// got "Response code 429 (Too Many Requests)", httpx "Client error '404 Not
/// Found' for url …". Spaces, `:` and `=` after a lead are skipped ("status:
/// 503", "status=503", "status code: 429", "returns  429").
static STATUS_LEADS: &str = lines![
    // "status=503", "Status: 502", "received status 403", "error occurred:
    // status 500", "http status 404".
    "status",
    // A JSON body quoted in a message ('{"status_code":401,…}', '"status": 503').
    "status\"",
    "status_code\"",
    "statuscode\"",
    // ws "Unexpected server response: 502", cabal-install "Unexpected response
    // 503 for http://…", Dulwich "unexpected http resp 502 for https://…"
    "response",
    "resp",
    "client error '",
    "server error '",
    // git: "RPC failed; HTTP 413 curl 22 …", "(HTTP 429)", "HTTP 502"
    "http",
    // "SonarQube answered with Error 404 on …", "error 503", curl's "(22) The
    // requested URL returned error: 403", loki-mcp's "HTTP error: 401 - no org
    // id"; Portuguese "ERRO 400 : …"
    "error",
    "erro",
    // "Aiven API Error (400): Service name must …"
    "error (",
    // "BrowserStack returned 404 while …", "the API returned 500", "Server
    // returned a 503" (a Scryfall client), "…/api/history/… returns 429"
    "returned",
    "returned a ",
    "returns",
    // cargo: "failed to get 200 response from `…`, got 502"
    ", got ",
    // "API request failed: 401 {…}", dbt's "API request failed (404) for GET …"
    "failed",
    "failed (",
    // urllib3's ResponseError: "too many 500 error responses"
    "too many ",
    // Every "… code" before a status: axios "Request failed with status code
    // 429", got "Response code 429", Java's HttpURLConnection "Server returned
    // HTTP response code: 403 for URL: …", the OpenAI Python SDK's "Error
    // code: 429 - {…}", curl through a proxy "Received HTTP code 403", key=value
    // logs ("httpStatusCode=401", "status_code: 429"), Swift's SignalR
    // "webError(statusCode: 500)", "failed with the code: 401", Starscream
    // "WSError(… code: 429)", "code = 400", opam "curl: code 404 while …"
    "code",
    // PHP's print_r of a response, "Array ( [HTTP Status] => 500 …"
    "status] => ",
];

/// The HTTP status an exception's text states (4xx and 5xx only): after one
/// of [`STATUS_LEADS`], or as a number followed by its reason phrase ("404
/// Not Found", "429 Client Error: Too Many Requests", "429 (Too Many
/// Requests)", aiohttp's "429, message='Too Many Requests'").
pub(crate) fn status_in_text(m: &str) -> Option<u16> {
    let b = m.as_bytes();
    let three = |i: usize| status_digits(b, i);
    // No 4 or 5, no 4xx or 5xx status (the common case), without a scan
    // for every lead.
    if !b.iter().any(|&c| c == b'4' || c == b'5') {
        return None;
    }
    // The leads, split once: this runs on every message that names a status.
    static LEADS: std::sync::OnceLock<Vec<&str>> = std::sync::OnceLock::new();
    for lead in LEADS.get_or_init(|| STATUS_LEADS.split_terminator('\n').collect()) {
        let mut from = 0;
        while let Some(at) = find_ci(&m[from..], lead) {
            let i = from + at + lead.len();
            let i = i + b[i..]
                .iter()
                .take_while(|c| matches!(c, b' ' | b':' | b'='))
                .count();
            if let Some(n) = three(i) {
                return Some(n);
            }
            from += at + 1;
        }
    }
    status_by_reason(m)
}

/// Whether `phrase` is the standard reason phrase of `status` ([`REASONS`]),
/// or whole words of it ("unprocessable" of "unprocessable entity", "server
/// error" of "internal server error"): the status already said it. Status
/// 0: of any status.
pub(crate) fn is_reason_of(status: u16, phrase: &str) -> bool {
    REASONS
        .iter()
        .any(|(s, p)| (*s == status || status == 0) && crate::text::contains_words(p, phrase))
}

/// A 4xx or 5xx number followed by its reason phrase ("404 Not Found", "422:
/// Unprocessable Entity"), as in [`status_in_text`],
/// or one that ends the text after a colon ("Failed to fetch API: 404").
fn status_by_reason(m: &str) -> Option<u16> {
    let b = m.as_bytes();
    let three = |i: usize| status_digits(b, i);
    // "Failed to fetch API: 404"; "401 {\"error\": …}", the body it came with.
    if let Some(n) = b
        .len()
        .checked_sub(3)
        .filter(|&i| b[..i].ends_with(b": "))
        .and_then(three)
        .or_else(|| three(0).filter(|_| b.get(3..5) == Some(b" {")))
    {
        return Some(n);
    }
    let mut from = 0;
    // A 4xx or 5xx status starts with 4 or 5: the bytes between are skipped a word at a time.
    while let Some(i) = crate::text::find_4_or_5(b, from) {
        if i + 3 >= b.len() {
            break;
        }
        from = i + 1;
        if let Some(n) = three(i) {
            let rest = &m[i + 3..];
            let rest = rest
                .strip_prefix(", message='")
                .or_else(|| rest.strip_prefix(" ("))
                .or_else(|| rest.strip_prefix(": "))
                .or_else(|| rest.strip_prefix([' ', ':']));
            if let Some(rest) = rest {
                let rest = rest.as_bytes();
                // The phrase as words ("Not Found") or as .NET's
                // `HttpStatusCode` names it ("[404:NotFound]").
                let starts = |p: &str| {
                    let joined = p.bytes().filter(|&c| c != b' ');
                    let n = joined.clone().count();
                    rest.get(..p.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()))
                        || (rest.len() >= n
                            && rest
                                .iter()
                                .zip(joined)
                                .all(|(a, b)| a.eq_ignore_ascii_case(&b))
                            && !rest.get(n).is_some_and(u8::is_ascii_alphanumeric))
                };
                let generic = if n < 500 {
                    "client error"
                } else {
                    "server error"
                };
                if starts(generic)
                    || REASONS
                        .iter()
                        .any(|(code, phrase)| *code == n && starts(phrase))
                {
                    return Some(n);
                }
            }
            from = i + 3;
        }
    }
    None
}

/// An HTTP error status ([`Code::is_http_error_status`]) written as three
/// digits at `i`: a whole word (`500ms` is no status).
fn status_digits(b: &[u8], i: usize) -> Option<u16> {
    let d = b.get(i..i + 3)?;
    if !d.iter().all(u8::is_ascii_digit) || b.get(i + 3).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.') {
        return None;
    }
    let n = d.iter().fold(0u16, |n, c| n * 10 + u16::from(c - b'0'));
    Code::is_http_error_status(i64::from(n)).then_some(n)
}

/// `hay.find(needle)` in any ASCII case; `needle` lowercase.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if n.is_empty() || h.len() < n.len() {
        return None;
    }
    (0..=h.len() - n.len()).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Phrases after which a message states how long to wait: OpenAI "Please
/// try again in 20s" / "in 1m2.5s" / "in 6ms", Azure "Please retry after 42
/// seconds", "retry in 30 seconds". Not "retrying in": a client's log of
/// its own schedule ("Job not found … retrying in 32.138s"), no wait the
/// failure asks for.
static DELAY_LEADS: &str = lines![
    "try again in ",
    "try again after ",
    "retry in ",
    "retry after ",
    "retry again in ",
    "wait for ",
    "please wait ",
    "reset in ",
    // "Retry-After: 30" quoted in a message, or a header map printed in one
    // (Descope's `{'Retry-After': 10}`)
    "retry-after: ",
    "retry-after': ",
    "retry-after\": ",
    // "Please wait at least 30 seconds", "wait 2 minutes"
    "wait at least ",
    "wait ",
    // "Expected available in 18 seconds"
    "available in ",
    // "you can only request this after 42 seconds"
    "this after ",
    // Akamai "Retry after: 21 seconds", "Please try after <time>"
    "retry after: ",
    "try after ",
    // Slack "you may retry this request in 7 seconds"; Akamai "submit the
    // request after 49 seconds"
    "request in ",
    "request after ",
    // AWS "Wait until 2023-12-29T12:51:32Z UTC and try again"
    "wait until ",
    // TronGrid "the query server is suspended for 5 s"; Codecov "Expected time
    // to availability: 1009s."; Home Connect "Requests are blocked during the
    // remaining period of 50460 seconds."
    "suspended for ",
    "availability: ",
    "remaining period of ",
];

/// A delay a message states, in milliseconds (fractions rounded up): a
/// duration after a lead, or a time (RFC 3339) after one, counted from `now`.
pub(crate) fn delay_in_text(m: &str, now_ms: Option<i64>) -> Option<u64> {
    for lead in DELAY_LEADS.split_terminator('\n') {
        let mut from = 0;
        while let Some(at) = find_ci(&m[from..], lead) {
            let after = from + at + lead.len();
            if let Some(ms) = parse_text_duration(&m[after..]) {
                return Some(ms);
            }
            if let Some(ms) = now_ms.and_then(|now| time_in_text(&m[after..], now)) {
                return Some(ms);
            }
            // The header's own form: bare seconds (RFC 9110 §10.2.3).
            let rest = &m.as_bytes()[after..];
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if lead.starts_with("retry-after")
                && digits > 0
                && !rest
                    .get(digits)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.')
            {
                if let Some(ms) = crate::rules::scaled(&m[after..after + digits], 1000) {
                    return Some(ms);
                }
            }
            from = after;
        }
    }
    None
}

/// How long until the RFC 3339 time at the start of `s` (ended by a space or
/// the end, a final stop or comma aside), from `now`; none for a time past.
fn time_in_text(s: &str, now: i64) -> Option<u64> {
    let token = s.split(|c: char| c.is_whitespace()).next()?;
    let token = token.trim_end_matches(['.', ',', ';', ')']);
    let at = crate::time::parse_rfc3339(token)?;
    u64::try_from(at.checked_sub(now)?)
        .ok()
        .filter(|&ms| ms > 0)
}

/// Numbers a delay is written in as words, each with the space after it.
static NUMBER_WORDS: &[(&str, &str)] = &[
    ("a ", "1"),
    ("an ", "1"),
    ("one ", "1"),
    ("two ", "2"),
    ("three ", "3"),
    ("four ", "4"),
    ("five ", "5"),
    ("ten ", "10"),
    ("fifteen ", "15"),
    ("thirty ", "30"),
];

/// The unit words and abbreviations of a stated delay, each line's in
/// milliseconds.
static TIME_UNITS: [(&str, u32); 5] = [
    ("ms msec msecs millisecond milliseconds", 1),
    ("s sec secs second seconds", 1000),
    ("m min mins minute minutes", 60_000),
    ("h hr hrs hour hours", 3_600_000),
    ("day days", 86_400_000),
];

/// A duration at the start of `s`: Go's form (`1m2.5s`, `59.977s`, `6ms`,
/// `1h30m`), or a number and a unit word (`42 seconds`, `2 minutes`,
/// `500 milliseconds`, `1.5 sec`, `a minute`, `one hour`).
pub(crate) fn parse_text_duration(s: &str) -> Option<u64> {
    // Azure quotes the number: "Please try again after '6' seconds".
    let unquoted: String;
    // "a minute", "an hour", "one minute", "five minutes": a number in words.
    let worded = NUMBER_WORDS.iter().find_map(|&(w, n)| {
        s.get(..w.len())
            .filter(|h| h.eq_ignore_ascii_case(w))
            .map(|_| (n, &s[w.len()..]))
    });
    let s = match (worded, s.as_bytes().first()) {
        (Some((n, unit)), _) => {
            unquoted = [n, " ", unit].concat();
            unquoted.as_str()
        }
        (_, Some(b'\'' | b'"')) => {
            let rest = &s[1..];
            unquoted = match rest.bytes().position(|c| c == b'\'' || c == b'"') {
                Some(q) => [&rest[..q], &rest[q + 1..]].concat(),
                None => rest.to_string(),
            };
            unquoted.as_str()
        }
        _ => s,
    };
    let b = s.as_bytes();
    let mut i = 0;
    let mut total: u64 = 0;
    let mut parts = 0;
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
            i += 1;
        }
        if i == start {
            break;
        }
        let num = &s[start..i];
        // A space between the number and a unit word.
        let spaced = b.get(i) == Some(&b' ');
        let j = if spaced { i + 1 } else { i };
        let unit_end = j + b[j.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        let unit = &s[j..unit_end];
        let Some(&(_, scale)) = TIME_UNITS
            .iter()
            .find(|(units, _)| units.split(' ').any(|u| u.eq_ignore_ascii_case(unit)))
        else {
            break;
        };
        // Go's compact form has no spaces; words come alone.
        if spaced && parts > 0 {
            break;
        }
        total = total.saturating_add(crate::rules::scaled(num, scale)?);
        parts += 1;
        i = unit_end;
        if spaced {
            break;
        }
    }
    (parts > 0).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table's index finds what a pass over its rows finds: for every
    /// key (a key given twice keeps its first row) and for keys that are not
    /// there.
    #[test]
    fn indexes_find_what_a_linear_search_finds() {
        fn probes(keys: &[&str]) -> Vec<String> {
            let mut out = vec![String::new(), "x".into(), "Error".into()];
            for k in keys {
                out.push(k.to_string());
                out.push(format!("{k}x"));
                out.push(k.to_ascii_lowercase());
                out.push(k[..k.len() - 1].to_string());
            }
            out
        }
        // Every key, and keys near them, found as a linear search over the
        // keys finds them (the first row of a key), in every table.
        fn check<T: Copy + PartialEq + std::fmt::Debug, const M: usize>(t: &Table<T, M>) {
            let keys: Vec<&str> = (0..t.ends.len()).map(|i| t.key(i)).collect();
            assert_eq!(keys.concat(), t.keys);
            for p in probes(&keys) {
                let linear = keys.iter().position(|k| *k == p);
                assert_eq!(t.row(&p), linear, "{p:?}");
                assert_eq!(t.get(&p), linear.map(|i| t.values[i]), "{p:?}");
            }
        }
        check(&SYS_CODES);
        check(&WEAK_CODES);
        check(&AWS);
        check(&PROVIDER_CODES);
        check(&K8S);
        check(&GOOGLE_REASONS);
        check(&NAMES);
        check(&DOTTED);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { failure_persistence: None, ..Default::default() })]

        /// Any text, non-ASCII of every width included.
        #[test]
        fn words_split_as_str_split_does_on_any_text(m in "[aE_ :.é😀\u{7ff}\u{800}]{0,16}") {
            let split: Vec<&str> = m.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
            proptest::prop_assert_eq!(words(&m).collect::<Vec<_>>(), split);
        }
    }

    #[test]
    fn words_split_as_str_split_does() {
        let split = |m: &str| -> Vec<String> {
            m.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map(str::to_string)
                .collect()
        };
        for m in [
            "",
            "a",
            " ",
            "connect ECONNREFUSED 127.0.0.1:8080",
            "é",
            "aé",
            "éa",
            "a ééb😀_c",
            "EPIPE:",
            "::",
            "x\u{10FFFF}y",
            "日本語 ENOENT 😀",
        ] {
            assert_eq!(
                words(m).map(str::to_string).collect::<Vec<_>>(),
                split(m),
                "{m:?}"
            );
        }
    }

    #[test]
    fn stated_delays_in_every_documented_form() {
        for (text, ms) in [
            ("Please try again in 20s.", 20_000),
            ("Please try again in 1m2.5s.", 62_500),
            ("Please try again in 6ms.", 6),
            ("try again in 59.977s", 59_977),
            ("Please retry after 42 seconds.", 42_000),
            ("Retry after 372 seconds", 372_000),
            ("rate limit exceeded, retry in 30 seconds", 30_000),
            ("Please try again after '6' seconds", 6_000),
            ("[rate reset in 14m02s]", 842_000),
            ("try again in 114h18m0s", 411_480_000),
            (
                "Rate limit detected. Wait 300 seconds before trying again.",
                300_000,
            ),
            ("Please wait 30 seconds for the quota to reset", 30_000),
            ("quota exceeded. Retry-After: 30", 30_000),
            ("{'rate_limit_parameters': {'Retry-After': 10}}", 10_000),
            (r#"{"Retry-After": 7, "limit": 5}"#, 7_000),
            ("the query server is suspended for 5 s", 5_000),
            (
                "Rate limit reached. Expected time to availability: 1009s.",
                1_009_000,
            ),
            (
                "Requests are blocked during the remaining period of 50460 seconds.",
                50_460_000,
            ),
        ] {
            assert_eq!(delay_in_text(text, None), Some(ms), "{text}");
        }
        assert_eq!(delay_in_text("try again later", None), None);
        assert_eq!(delay_in_text("retry in a few minutes", None), None);
        // Bare seconds only after the header's name, and only a whole number.
        assert_eq!(delay_in_text("Retry-After: 30x", None), None);
        assert_eq!(delay_in_text("retry after 30", None), None);
        // A client's log of its own schedule.
        assert_eq!(
            delay_in_text("Job not found -- retrying in 32.138s", None),
            None
        );
    }

    #[test]
    fn every_status_lead_passes_the_message_scan() {
        for lead in STATUS_LEADS.split_terminator('\n') {
            let text = format!("x {lead}503");
            assert_ne!(
                MESSAGE_PHRASES.scan(text.as_bytes()) & STATUS_LEAD,
                0,
                "{lead}"
            );
        }
    }

    #[test]
    fn statuses_stated_in_exception_text() {
        for (text, status) in [
            ("Request failed with status code 429", Some(429)),
            ("unexpected status code: 503", Some(503)),
            ("Response code 429 (Too Many Requests)", Some(429)),
            (
                "Client error '404 Not Found' for url 'https://x'",
                Some(404),
            ),
            (
                "429 Client Error: Too Many Requests for url: https://x",
                Some(429),
            ),
            (
                "429, message='Too Many Requests', url='https://x'",
                Some(429),
            ),
            (
                "Response status code does not indicate success: 429 (Too Many Requests).",
                Some(429),
            ),
            ("[GET] \"https://x\": 404 Not Found", Some(404)),
            // Sonarr's HttpException: .NET's `HttpStatusCode` name.
            (
                "HTTP request failed: [404:NotFound] [GET] at [https://x]",
                Some(404),
            ),
            ("HTTP request failed: [429:TooManyRequests]", Some(429)),
            // openai-python's APIStatusError, when only its text is kept.
            ("Error code: 503 - {'error': {'message': 'x'}}", Some(503)),
            ("error code: 40408", None),
            ("item 404:NotFoundation", None),
            ("listening on port 4040 Not Found", None),
            ("took 429 ms", None),
            ("error 1404 Not Found", None),
            ("SonarQube answered with Error 503 on https://x", Some(503)),
            ("BrowserStack returned 404 while preparing", Some(404)),
            (
                "failed to get 200 response from `https://x`, got 502",
                Some(502),
            ),
            ("API request failed: 401 {\"error\": {}}", Some(401)),
            ("too many 500 error responses", Some(500)),
            ("Failed to fetch API: 404", Some(404)),
            (
                "Error executing API call (422: Unprocessable Entity): Your account is suspended.",
                Some(422),
            ),
            ("API request failed (404) for GET /api/v2/runs/", Some(404)),
            (
                "401 {\"error\":{\"message\":\"Invalid API Key\"}}",
                Some(401),
            ),
            (
                "The API request failed with the code: 401, after 3 attempts.",
                Some(401),
            ),
            ("Subject 'x' not found; error code: 40401", None),
            ("ü: 404", Some(404)),
            ("aü4", None),
            // Not statuses: a duration, another protocol's reply code, a count.
            ("timeout error 500ms", None),
            ("550 Failed to open file: error 550", None),
            (
                "Starscream.WSError(type: upgradeError, code: 429)",
                Some(429),
            ),
            (
                "error = Incorrect CRC value, code = 400, extra = undefined",
                Some(400),
            ),
            ("curl: code 404 while downloading https://x", Some(404)),
            ("openapi error: code=429002", None),
            ("https://x/api/history/1  returns  429", Some(429)),
            (
                "Array ( [HTTP Status] => 500 [Requested URI] => x )",
                Some(500),
            ),
            ("ERRO 400 : CobOperacaoInvalida", Some(400)),
            ("exit code 1", None),
            (
                "unexpected http resp 502 for https://x/info/refs",
                Some(502),
            ),
        ] {
            assert_eq!(status_in_text(text), status, "{text}");
        }
    }

    #[test]
    fn decimals_are_exact_and_never_overflow() {
        assert_eq!(parse_decimal("26", 3), Some(26_000));
        assert_eq!(parse_decimal("1.5", 3), Some(1_500));
        assert_eq!(parse_decimal(".25", 3), Some(250));
        assert_eq!(parse_decimal("3.", 3), Some(3_000));
        assert_eq!(parse_decimal("0.0005", 4), Some(5));
        assert_eq!(parse_decimal("1.23456", 3), Some(1_234)); // digits past the scale dropped
        assert_eq!(parse_decimal("99999999999999999999999", 3), Some(u64::MAX));
        for bad in ["", ".", "1.2.3", "-1", "+1", " 1", "1e3", "inf", "NaN", "١"] {
            assert_eq!(parse_decimal(bad, 3), None, "{bad:?}");
        }
    }

    /// `is_tls_message` looks for these two words before the phrases.
    #[test]
    fn every_tls_phrase_names_a_certificate_or_a_hostname() {
        for p in TLS_MESSAGES {
            assert!(p.contains("certificate") || p.contains("hostname"), "{p}");
            assert!(is_tls_message(&p.to_uppercase()), "{p}");
        }
        assert!(!is_tls_message("connect ECONNREFUSED 127.0.0.1:8080"));
    }
}
