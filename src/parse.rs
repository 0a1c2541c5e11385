//! `parse`: a failed tool call, as an MCP server sent it back, read into the
//! canonical error. The reverse of `render`, for clients, agent loops,
//! gateways and eval harnesses.
//!
//! The input is a `CallToolResult`, a JSON-RPC response, or a bare JSON-RPC
//! error object. What the result states outright is taken as stated: this
//! project's own profiles (from `structuredContent`, else the JSON block, else
//! the text), the proposed `toolFailure` `_meta` and `RateLimited` (−32023)
//! error, a JSON-RPC code. Whatever it does not state is decided by the same
//! signals `classify` reads, from the text and any JSON the result carries.
//! A successful result is `None`, unless its payload is one of this project's
//! error objects (seed 003's `NewJSONResult` sends those with `isError: false`).
//!
//! The input is untrusted: it is bounded like any raw error, and the error
//! that comes out is redacted and bounded like any `classify` output.

use std::borrow::Cow;

use serde_json::Value as Json;

use crate::classify::{classify_unsanitized, ClassifyOptions};
use crate::input::{Map, Value};
use crate::taxonomy::Code;
use crate::{Error, Normalized, Profile};

/// The `_meta` key of the proposed machine-readable tool failure (SEP-3313).
pub const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// [`TOOL_FAILURE_KEY`] as the writer's literal key (the same text, checked
/// at compile time).
pub(crate) const TOOL_FAILURE: &crate::json::Lit =
    crate::json::key!("io.modelcontextprotocol/toolFailure");
const _: () = assert!(crate::text::const_same(TOOL_FAILURE.name, TOOL_FAILURE_KEY));

/// The proposed `RateLimited` JSON-RPC error code (SEP-3304).
pub const RATE_LIMITED_RPC_CODE: i64 = -32023;
/// How many content blocks are read.
const MAX_BLOCKS: usize = 16;

/// Parse a result given as JSON text: the canonical error, or `None` when
/// the result is not an error.
pub fn parse_result(raw: &str, opts: &ClassifyOptions) -> Result<Option<Normalized>, Error> {
    opts.limits.checked()?;
    let value = crate::parse_input(raw)?;
    let Value::Object(top) = &value else {
        return Err(not_a_result());
    };
    let envelope = top.contains_key("jsonrpc") || top.contains_key("id");
    let reading = match (top.get("error"), top.get("result")) {
        // A JSON-RPC response.
        (Some(Value::Object(e)), _) if envelope || !top.contains_key("content") => {
            // A whole response sent as the error (Automattic's wordpress-mcp:
            // `"error": {"jsonrpc", "id", "error": {code, message, data}}`):
            // the inner error, once.
            match e.get("error") {
                Some(Value::Object(inner))
                    if !e.contains_key("code") && !e.contains_key("message") =>
                {
                    rpc_error(inner)
                }
                _ => rpc_error(e),
            }
        }
        (None, Some(Value::Object(r))) if envelope => return tool_result(r, opts, false),
        _ if envelope => return Err(not_a_result()),
        // A bare JSON-RPC error object.
        _ if top.get("code").is_some_and(is_number)
            && text(top, "message").is_some()
            && !top.contains_key("content") =>
        {
            rpc_error(top)
        }
        _ => return tool_result(top, opts, false),
    };
    Ok(Some(reading.finish(opts)))
}

/// [`parse_result`] with the error as canonical JSON text, `None` for a non-error.
pub fn parse_result_json(raw: &str, opts: &ClassifyOptions) -> Result<Option<String>, Error> {
    Ok(parse_result(raw, opts)?.map(|n| n.to_json()))
}

fn not_a_result() -> Error {
    Error::InvalidInput(
        "expected a CallToolResult, a JSON-RPC response or a JSON-RPC error object".into(),
    )
}

fn is_number(v: &Value<'_>) -> bool {
    matches!(v, Value::Number(_))
}

fn text<'v>(m: &'v Map<'_>, key: &str) -> Option<&'v str> {
    m.get(key).and_then(Value::as_str)
}

fn boolean(m: &Map<'_>, key: &str) -> Option<bool> {
    match m.get(key) {
        Some(Value::Bool(b)) => Some(*b),
        _ => None,
    }
}

fn object<'v, 'a>(m: &'v Map<'a>, key: &str) -> Option<&'v Map<'a>> {
    m.get(key).and_then(Value::as_object)
}

fn strings(m: &Map<'_>, key: &str) -> Vec<String> {
    match m.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// What one result says, and where.
#[derive(Default)]
struct Reading<'v> {
    /// The dialect, first line of the evidence.
    dialect: Cow<'static, str>,
    /// One of this project's profiles: every field is as stated, absent
    /// ones included; only what the profile cannot show is classified.
    own: bool,
    /// What classification reads: a message, a code, a status, a body.
    message: Option<Cow<'v, str>>,
    code: Option<Value<'v>>,
    status: Option<u16>,
    body: Option<Value<'v>>,
    /// A canonical code the result names.
    explicit: Option<Code>,
    /// A profile's own code (`CLIENT_ERROR`, `KubernetesError`): the
    /// canonical code must be one that renders as it.
    profile_code: Option<(Profile, &'v str)>,
    /// A JSON-RPC code the result carries: the canonical code must map to it.
    rpc: Option<i32>,
    retryable: Option<bool>,
    /// The delay, when the result has a place for one (`Some(None)`: it
    /// says there is none).
    delay: Option<Option<u64>>,
    http_status: Option<u16>,
    tool: Option<&'v str>,
    app_code: Option<&'v str>,
    app_type: Option<&'v str>,
    details: Option<serde_json::Map<String, Json>>,
    suggestions: Vec<String>,
    original: Option<Json>,
    /// The message as stated, even when the reading is not one of ours (a
    /// JSON-RPC error's `message`).
    exact_message: bool,
    /// A profile's code that is the author's own or else the canonical one
    /// (`text`'s `code`, `rpc-envelope`'s `error_code`).
    app_or_code: Option<&'v str>,
    /// The proposal's failure class, when nothing else decides the code.
    class: Option<&'v str>,
    evidence: Vec<String>,
}

impl<'v> Reading<'v> {
    fn new(dialect: impl Into<Cow<'static, str>>) -> Self {
        Reading {
            dialect: dialect.into(),
            ..Reading::default()
        }
    }

    fn finish(self, opts: &ClassifyOptions) -> Normalized {
        let mut members: Vec<(Cow<'v, str>, Value<'v>)> = Vec::with_capacity(4);
        if let Some(m) = &self.message {
            members.push((Cow::Borrowed("message"), Value::String(m.clone())));
        }
        if let Some(c) = self.code {
            members.push((Cow::Borrowed("code"), c));
        }
        if let Some(s) = self.status {
            members.push((Cow::Borrowed("status"), Value::Number(s.into())));
        }
        if let Some(b) = self.body {
            members.push((Cow::Borrowed("body"), b));
        }
        let raw = Value::Object(Map::from_members(members));
        let mut n = classify_unsanitized(raw, opts, true);
        let classified = n.code;
        let fits = |c: Code| {
            self.profile_code
                .is_none_or(|(p, v)| profile_code(c, p) == v)
                && self.rpc.is_none_or(|r| c.info().jsonrpc_code == r)
        };
        // A profile type the named code does not render as is the author's own.
        let mut app_type = self.app_type;
        if let (Some(c), Some((p, v))) = (self.explicit, self.profile_code) {
            if profile_code(c, p) != v {
                app_type = Some(v);
            }
        }
        n.code = match self.explicit {
            Some(c) => c,
            None if !fits(n.code) => representative(self.profile_code, self.retryable, &fits),
            None if n.code == Code::Unknown && self.class.and_then(class_code).is_some() => {
                let class = self.class.unwrap_or_default();
                n.evidence.insert(0, ["toolFailure class ", class].concat());
                class_code(class).unwrap_or(n.code)
            }
            None => n.code,
        };
        let info = n.code.info();
        n.category = info.category;
        if n.code != classified {
            n.retryable = info.retryable;
        }
        if let Some(r) = self.retryable {
            n.retryable = r;
        }
        if let Some(d) = self.delay {
            n.retry_after_ms = d;
        }
        // What a server already showed is safe to show again: rendering a
        // parsed error with `mask` keeps its message.
        n.expected = true;
        if self.own || self.exact_message {
            n.message = self.message.map(Cow::into_owned).unwrap_or_default();
        }
        if self.own {
            n.http_status = self.http_status;
            n.details = self.details;
            n.original = self.original;
            n.suggestions = self.suggestions;
        } else {
            if self.details.is_some() {
                n.details = self.details;
            }
            if !self.suggestions.is_empty() {
                n.suggestions = self.suggestions;
            }
            if self.http_status.is_some() {
                n.http_status = self.http_status;
            }
            n.original = None;
        }
        if self.own || self.tool.is_some() {
            n.tool = self.tool.map(str::to_string);
        }
        if self.own || self.app_code.is_some() {
            n.app_code = self.app_code.map(str::to_string);
        }
        if self.own || app_type.is_some() {
            n.app_type = app_type.map(str::to_string);
        }
        let mut evidence = Vec::with_capacity(n.evidence.len() + 2 + self.evidence.len());
        evidence.push(["dialect ", &self.dialect].concat());
        // What the result named outright decided comes first; then what
        // classification read in its text (its "no signal" or tie of words is no news then).
        let named = match (self.explicit, self.profile_code) {
            (Some(c), _) => Some(["code ", c.name()].concat()),
            (None, Some((_, v))) if n.code != classified => Some(["profile code ", v].concat()),
            _ => None,
        };
        if let Some(line) = named {
            evidence.push(line);
            n.evidence
                .retain(|e| e != "no signal" && !e.starts_with("words tie "));
        }
        evidence.extend(self.evidence);
        evidence.append(&mut n.evidence);
        n.evidence = evidence;
        n.sanitized_with(false, &opts.limits)
    }
}

/// A code's name in a profile (the canonical name in the others).
fn profile_code(code: Code, profile: Profile) -> &'static str {
    let p = &code.info().profiles;
    match profile {
        Profile::ToolErrorV1 => p.tool_error_v1,
        Profile::McpToolError => p.mcp_tool_error,
        Profile::ErrorObject => p.error_object,
        Profile::RpcEnvelope => p.rpc_envelope,
        _ => code.name(),
    }
}

/// The canonical code a result's codes stand for when nothing more specific
/// is known: the one named like the profile's code, else the most general
/// that renders as the result did, retryable by default when the result
/// says it is retryable (a `CLIENT_ERROR` worth calling again is a rate
/// limit), not when it says it is not.
fn representative(
    profile: Option<(Profile, &str)>,
    retryable: Option<bool>,
    fits: &dyn Fn(Code) -> bool,
) -> Code {
    const GENERAL: [Code; 8] = [
        Code::Internal,
        Code::Unknown,
        Code::InvalidArgument,
        Code::NotFound,
        Code::Unauthenticated,
        Code::Unavailable,
        Code::Timeout,
        Code::UpstreamError,
    ];
    let candidates = || {
        profile
            .and_then(|(_, v)| Code::from_name(v))
            .into_iter()
            .chain(GENERAL)
            .chain(crate::TABLE.iter().map(|i| i.code))
    };
    retryable
        .and_then(|r| candidates().find(|&c| fits(c) && c.info().retryable == r))
        .or_else(|| candidates().find(|&c| fits(c)))
        .unwrap_or(Code::Unknown)
}

/// Whether a profile has a code of this name (what makes its object its own).
fn is_profile_code(profile: Profile, value: &str) -> bool {
    crate::TABLE
        .iter()
        .any(|i| profile_code(i.code, profile) == value)
}

/// SEP-3313's classes, for a failure nothing else classifies.
fn class_code(class: &str) -> Option<Code> {
    match class {
        "capability" => Some(Code::Unimplemented),
        "reliability" => Some(Code::Unavailable),
        "governance" => Some(Code::PermissionDenied),
        _ => None,
    }
}

/// Which of this project's profiles an object is, if any.
fn own_profile(m: &Map<'_>) -> Option<Profile> {
    let code = text(m, "code");
    if text(m, "kind") == Some("toolError:v1") {
        Some(Profile::ToolErrorV1)
    } else if boolean(m, "success") == Some(false)
        && text(m, "error_type").is_some()
        && text(m, "error_code").is_some()
    {
        Some(Profile::RpcEnvelope)
    } else if object(m, "error")
        .is_some_and(|e| text(e, "type").is_some() && text(e, "message").is_some())
    {
        Some(Profile::ErrorObject)
    } else if code.and_then(Code::from_name).is_some()
        && text(m, "category").is_some()
        && boolean(m, "retryable").is_some()
        && text(m, "message").is_some()
    {
        Some(Profile::Canonical)
    } else if code.is_some_and(|c| is_profile_code(Profile::McpToolError, c))
        && boolean(m, "retriable").is_some()
        && text(m, "message").is_some()
    {
        Some(Profile::McpToolError)
    } else if code.is_some() && text(m, "error").is_some() && boolean(m, "retryable").is_some() {
        Some(Profile::Text)
    } else {
        None
    }
}

/// A profile's object read as stated.
fn read_own<'v>(m: &'v Map<'v>, profile: Profile) -> Reading<'v> {
    let mut r = Reading::new(profile.name());
    r.own = true;
    r.message = text(m, "message").map(Cow::Borrowed);
    r.retryable = boolean(m, "retryable");
    r.details = object(m, "details").map(Map::to_serde);
    r.suggestions = strings(m, "suggestions");
    // A code that is the author's own (`text`, `rpc-envelope`), else canonical.
    let own_code = |r: &mut Reading<'v>, code: Option<&'v str>| {
        r.app_or_code = code;
        match code.map(|c| (c, Code::from_name(c))) {
            Some((_, Some(c))) => r.explicit = Some(c),
            Some((c, None)) => r.app_code = Some(c),
            None => {}
        }
    };
    match profile {
        Profile::Canonical => {
            r.explicit = text(m, "code").and_then(Code::from_name);
            r.delay = Some(m.get("retry_after_ms").and_then(Value::as_u64));
            r.http_status = m
                .get("http_status")
                .and_then(Value::as_u64)
                .and_then(|s| u16::try_from(s).ok());
            r.status = r.http_status;
            r.tool = text(m, "tool");
            r.app_code = text(m, "app_code");
            r.app_type = text(m, "app_type");
        }
        Profile::ToolErrorV1 => {
            r.profile_code = text(m, "code").map(|c| (profile, c));
            // `statusCode` leads the details when the error had a status.
            if let Some(Value::Object(d)) = m.get("details") {
                let first = d.iter().next();
                if let Some(("statusCode", s)) = first {
                    r.http_status = s.as_u64().and_then(|s| u16::try_from(s).ok());
                }
                let status = r.http_status.is_some();
                rendering_fields(&mut r, profile, d, status);
            }
            r.status = r.http_status;
        }
        Profile::McpToolError => {
            r.profile_code = text(m, "code").map(|c| (profile, c));
            r.retryable = boolean(m, "retriable");
            if let Some(o) = m.get("original") {
                r.original = Some(o.to_serde());
                r.status = o
                    .get("status")
                    .and_then(Value::as_u64)
                    .and_then(|s| u16::try_from(s).ok());
                r.body = o.get("body").cloned();
            }
        }
        Profile::Text => {
            r.message = text(m, "error").map(Cow::Borrowed);
            own_code(&mut r, text(m, "code"));
            if let Some(d) = object(m, "details") {
                rendering_fields(&mut r, profile, d, false);
            }
        }
        Profile::ErrorObject => {
            let Some(inner) = object(m, "error") else {
                return r;
            };
            r.message = text(inner, "message").map(Cow::Borrowed);
            read_type(&mut r, text(inner, "type"), profile);
            // The same shape is many providers' error body (Anthropic's and
            // OpenAI's `{"error":{"type","message"}}`): read as one, so that a
            // provider's type decides when it is not one of the profile's.
            r.body = Some(Value::Object(m.clone()));
            r.tool = text(inner, "tool");
            // `details` (text) is the error's `details.value`, written first.
            let mut details = serde_json::Map::new();
            let mut skip = ["type", "message", "tool", "value", "details"].as_slice();
            match inner.get("details") {
                Some(v @ Value::String(_)) => {
                    details.insert("value".into(), v.to_serde());
                }
                _ => skip = &skip[..4],
            }
            details.extend(inner.to_serde_except(skip));
            r.details = Some(details).filter(|d| !d.is_empty());
        }
        Profile::RpcEnvelope => {
            read_type(&mut r, text(m, "error_type"), profile);
            own_code(&mut r, text(m, "error_code"));
            r.tool = text(m, "tool_name").filter(|t| *t != "unknown");
            if let Some(d) = object(m, "details") {
                rendering_fields(&mut r, profile, d, false);
            }
        }
    }
    r
}

/// The retry delay and the error id a profile with an open `details` carries
/// there (`render` writes them first): the delay read back, the id named in
/// the evidence, neither kept as a detail of the error (nor `statusCode`,
/// when the profile's reading took the status from it).
fn rendering_fields<'v>(r: &mut Reading<'v>, profile: Profile, d: &Map<'v>, status: bool) {
    let (delay, id) = match profile {
        Profile::ToolErrorV1 => ("retryAfterMs", "errorId"),
        _ => ("retry_after_ms", "error_id"),
    };
    if let Some(ms) = d.get(delay).and_then(Value::as_u64) {
        r.delay = Some(Some(ms));
    }
    if let Some(error_id) = text(d, id) {
        r.evidence.push(["error id ", error_id].concat());
    }
    let skip = [delay, id, "statusCode"];
    let skip = if status { &skip[..] } else { &skip[..2] };
    r.details = Some(d.to_serde_except(skip)).filter(|d| !d.is_empty());
}

/// A profile's error type: one of its own names a code, any other is the author's.
fn read_type<'v>(r: &mut Reading<'v>, error_type: Option<&'v str>, profile: Profile) {
    match error_type {
        Some(t) if is_profile_code(profile, t) => r.profile_code = Some((profile, t)),
        t => r.app_type = t,
    }
}

/// The names JSON-RPC 2.0 gives its own error codes (§5.1), which SDKs send
/// as the message of any failure of that code.
const RPC_CODE_NAMES: &[&str] = &[
    "Parse error",
    "Invalid Request",
    "Method not found",
    "Invalid params",
    "Internal error",
    "Server error",
];

/// A JSON-RPC error object.
fn rpc_error<'v>(e: &'v Map<'v>) -> Reading<'v> {
    let data = object(e, "data");
    let message = text(e, "message");
    let code = e.get("code").and_then(|c| match c {
        Value::Number(n) => n.as_i64(),
        _ => None,
    });
    // Only a code some canonical code renders as constrains the reading.
    let rpc = code
        .and_then(|c| i32::try_from(c).ok())
        .filter(|c| crate::TABLE.iter().any(|i| i.jsonrpc_code == *c));
    if let Some(d) = data {
        if let Some(profile) = own_profile(d).filter(|p| *p != Profile::Canonical) {
            let mut r = read_own(d, profile);
            r.dialect = Cow::Owned(format!("jsonrpc {}", profile.name()));
            r.rpc = rpc;
            return r;
        }
    }
    let mut r = Reading::new("jsonrpc");
    // −32603 ("Internal error") is what the SDKs send for any failure of a
    // handler, and −32602 ("Invalid params") for a result that fails its
    // own output schema too: neither constrains what the words say.
    r.rpc = rpc.filter(|&c| c == -32601);
    r.exact_message = true;
    r.message = message.map(Cow::Borrowed);
    // A text in `data` says what failed, where the message may only name
    // the code (the Ruby SDK's "Invalid params" with "Tool not found: …"),
    // and so does the `message` of a `data` object when the message is only
    // the code's name (mcp-lite's "Internal error" with `data: {message:
    // "fetch failed", stack}`).
    let names_the_code = message.is_some_and(|m| {
        RPC_CODE_NAMES
            .iter()
            .any(|n| m.trim().eq_ignore_ascii_case(n))
    });
    let detail = text(e, "data").or_else(|| {
        data.filter(|_| names_the_code)
            .and_then(|d| text(d, "message"))
    });
    if let (Some(m), Some(d)) = (message, detail) {
        if !d.trim().is_empty() && !crate::text::contains(m, d) {
            r.message = Some(Cow::Owned([m, ": ", d].concat()));
        }
    }
    r.code = e.get("code").cloned();
    // The canonical profile's data: {code, retryable, retry_after_ms?, details?, error_id?}.
    let canonical = data.and_then(|d| {
        let c = text(d, "code").and_then(Code::from_name)?;
        Some((d, c, boolean(d, "retryable")?))
    });
    if let Some((d, c, retryable)) = canonical {
        r.dialect = Cow::Borrowed("jsonrpc canonical");
        r.own = true;
        r.explicit = Some(c);
        r.retryable = Some(retryable);
        r.delay = Some(d.get("retry_after_ms").and_then(Value::as_u64));
        r.details = object(d, "details").map(Map::to_serde);
    } else if code == Some(RATE_LIMITED_RPC_CODE) {
        // SEP-3304: `data.retryAfterMs` is required with −32023.
        r.dialect = Cow::Borrowed("jsonrpc RateLimited");
        r.explicit = Some(Code::RateLimited);
        r.retryable = Some(true);
        r.delay = data
            .and_then(|d| d.get("retryAfterMs"))
            .and_then(Value::as_u64)
            .map(Some);
        r.details = data.map(Map::to_serde);
    } else {
        r.body = e.get("data").filter(|d| !d.is_null()).cloned();
        r.details = data.map(Map::to_serde);
    }
    r
}

/// A `CallToolResult`.
/// `nested`: `r` came out of another result's text (read once, not again).
fn tool_result(
    r: &Map<'_>,
    opts: &ClassifyOptions,
    nested: bool,
) -> Result<Option<Normalized>, Error> {
    // The flag on a block rather than on the result (`{"type": "text",
    // "text": "…", "isError": true}`): what the server meant, unless the
    // result's own flag says otherwise.
    let is_error = boolean(r, "isError").unwrap_or_else(|| match r.get("content") {
        Some(Value::Array(items)) => items
            .iter()
            .take(MAX_BLOCKS)
            .any(|b| matches!(b.get("isError"), Some(Value::Bool(true)))),
        _ => false,
    });
    let failure = object(r, "_meta").and_then(|m| object(m, TOOL_FAILURE_KEY));
    let blocks: Vec<&str> = match r.get("content") {
        Some(Value::Array(items)) => items
            .iter()
            .take(MAX_BLOCKS)
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect(),
        Some(_) => return Err(not_a_result()),
        None => Vec::new(),
    };
    if r.get("content").is_none()
        && !r.contains_key("structuredContent")
        && !r.contains_key("isError")
    {
        return Err(not_a_result());
    }
    // The blocks that are JSON objects; the JSON block is the first that is
    // one of the profiles' objects, else the first (a message may itself
    // look like JSON, before the profile's block).
    let parsed: Vec<(usize, Value<'_>)> = blocks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.trim_start().starts_with('{'))
        .filter_map(|(i, t)| crate::input::parse(t).ok().map(|v| (i, v)))
        .filter(|(_, v)| v.as_object().is_some())
        .collect();
    // A failed result sent as the text of another (a server that returns the
    // result object its framework then wraps again): the inner one, once.
    if let ([_], [(_, Value::Object(inner))]) = (&blocks[..], &parsed[..]) {
        if boolean(inner, "isError") == Some(true) && inner.get("content").is_some() && !nested {
            return tool_result(inner, opts, true);
        }
    }
    let own_at = parsed
        .iter()
        .position(|(_, v)| v.as_object().and_then(own_profile).is_some());
    let (json_at, json_block) = match parsed.get(own_at.unwrap_or(0)) {
        Some((i, v)) => (Some(*i), v.as_object()),
        None => (None, None),
    };
    let structured = object(r, "structuredContent");
    let own = structured
        .and_then(|s| own_profile(s).map(|p| (s, p)))
        .or_else(|| json_block.and_then(|s| own_profile(s).map(|p| (s, p))));
    let human: Vec<&str> = blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != json_at || json_block.is_none())
        .map(|(_, t)| *t)
        .collect();
    let mut reading = match own {
        Some((m, p)) => {
            let mut reading = read_own(m, p);
            // The mirror text says what the object may not: whether and
            // when to retry, and (mcp-tool-error) the tool and suggestions.
            if let Some(mirror) = human.iter().find_map(|t| mirror(t)) {
                if p == Profile::McpToolError {
                    // Seed 001 calls an abort a retriable TIMEOUT; the text
                    // says what the error itself said.
                    if reading.retryable == Some(true)
                        && !mirror.retryable
                        && reading.profile_code.is_some_and(|(_, c)| c == "TIMEOUT")
                    {
                        reading.explicit = Some(Code::Cancelled);
                    }
                    reading.retryable = Some(mirror.retryable);
                    reading.tool = mirror.tool;
                    reading.suggestions = mirror.suggestions;
                }
                reading.retryable.get_or_insert(mirror.retryable);
                reading.delay.get_or_insert(mirror.delay);
            }
            reading
        }
        // A result not flagged `isError` (the flag missing, or `false`, the
        // Python SDK's default for any returned value) whose one block says
        // it failed: a JSON object that says so by its own fields (Notion's
        // server relays the API's error object as it came), or a text that
        // starts as a failure does ("Error: relation \"x\" does not exist",
        // "Failed to create coupon: …").
        None if !is_error
            && failure.is_none()
            && !(blocks.len() == 1
                && (json_block.is_some_and(says_it_failed)
                    || starts_with_error(blocks[0])
                    || marked_as_failure(blocks[0]))) =>
        {
            return Ok(None)
        }
        None => match human
            .first()
            .and_then(|t| text_profile(t).or_else(|| mirror_alone(t)))
        {
            Some(reading) => reading,
            // With no other text, the JSON block is the message, exactly as the
            // server wrote it (its members are read as a body all the same).
            None if human.is_empty() && json_block.is_some() => {
                let mut r = foreign(&blocks, json_block);
                r.exact_message = true;
                r
            }
            None => foreign(&human, json_block.or(structured)),
        },
    };
    if let Some(f) = failure {
        tool_failure(&mut reading, f, opts);
    }
    Ok(Some(reading.finish(opts)))
}

/// Whether a text starts as an error message does: `Error: …`, `Error
/// executing tool …`, `ERROR: …`, `Failed to …`, `Request failed: …`
/// (quoted or not; the contract's `FAILURE_PREFIXES`).
fn starts_with_error(t: &str) -> bool {
    let t = t.trim_start().trim_start_matches('"');
    crate::contract::FAILURE_PREFIXES
        .iter()
        .any(|p| t.starts_with(p))
}

/// Whether a line of a text starts with a failure's mark, as servers that
/// write for a model mark one: an `<error>` element (the contract's
/// `FAILURE_MARKS`), first (after other elements only: mcp-run-python's
/// `<status>run-error</status>`) or with a failure's words inside
/// (fetcher-mcp's `<error>Failed to retrieve …` after its page header).
/// Otherwise it is content: the fetch server ends a page cut short with
/// `<error>Content truncated. …</error>`; indented, it is a page's own.
fn marked_as_failure(t: &str) -> bool {
    let element = |l: &str| l.starts_with('<') && l.trim_end().ends_with('>');
    crate::contract::FAILURE_MARKS.iter().any(|m| {
        let mut first = true;
        t.trim_start().lines().any(|l| {
            let marked = l
                .strip_prefix(m)
                .is_some_and(|rest| first || starts_with_error(rest));
            first &= element(l);
            marked
        })
    })
}

/// Whether an object says, by its own fields, that it is a failure: `ok` or
/// `success` false, an `errorMessage` (AWS Lambda's function error), a
/// `status` of "error" or "failed" beside a message, an `object` that is
/// "error", an HTTP error status beside a message or code, or an `error`
/// (object or text) or non-empty `errors` list with no `data` or `result`.
fn says_it_failed(m: &Map<'_>) -> bool {
    let word = |key: &str, words: &[&str]| {
        text(m, key).is_some_and(|v| words.iter().any(|w| v.eq_ignore_ascii_case(w)))
    };
    let has = |key: &str| !matches!(m.get(key), None | Some(Value::Null));
    let status = m
        .get("status")
        .and_then(Value::as_u64)
        .and_then(|n| i64::try_from(n).ok())
        .is_some_and(Code::is_http_error_status);
    // .NET's PascalCase `{"Error": "ValidationError", "Message": …}` too.
    let error = match m.get("error").or_else(|| m.get("Error")) {
        Some(Value::Object(_)) => true,
        Some(Value::String(e)) => !e.trim().is_empty(),
        _ => false,
    };
    let errors = matches!(m.get("errors"), Some(Value::Array(e)) if !e.is_empty());
    boolean(m, "ok") == Some(false)
        || boolean(m, "success") == Some(false)
        // AWS Lambda's function error: {"errorMessage", "errorType", "stackTrace"}.
        || has("errorMessage")
        // A status beside words of its own (JSend's `{"status": "error",
        // "message": …}`); alone, as SonarQube's quality gate `"status":
        // "ERROR"` beside its conditions, it is data the call returned.
        || (word("status", &["error", "failed", "failure", "fail"])
            && ["message", "error", "msg", "detail", "reason", "content"]
                .iter()
                .any(|k| has(k)))
        || word("object", &["error"])
        || (status && (has("message") || has("code")))
        || ((error || errors) && !has("data") && !has("result"))
}

/// What the mirror text the canonical, mcp-tool-error and rpc-envelope
/// profiles write beside their object says, read from the end: `Tool: …`?,
/// `Suggestions:` and `- …` lines?, `Retryable: no | yes | yes, after 26s`,
/// `Error ID: …`?.
struct Mirror<'v> {
    tool: Option<&'v str>,
    suggestions: Vec<String>,
    retryable: bool,
    delay: Option<u64>,
}

fn mirror(t: &str) -> Option<Mirror<'_>> {
    let body = t.strip_prefix("Error: ")?;
    let (head, rest) = crate::text::rsplit_once(body, "\nRetryable: ")?;
    let (retryable, delay) =
        match crate::text::split_once(rest, "\nError ID: ").map_or(rest, |(r, _)| r) {
            "no" => (false, None),
            "yes" => (true, None),
            l => (
                true,
                Some(crate::signals::parse_text_duration(
                    l.strip_prefix("yes, after ")?,
                )?),
            ),
        };
    let mut m = Mirror {
        tool: None,
        suggestions: Vec::new(),
        retryable,
        delay,
    };
    let mut head = head;
    if let Some((before, list)) = crate::text::rsplit_once(head, "\nSuggestions:\n- ") {
        m.suggestions = crate::text::split(list, "\n- ")
            .into_iter()
            .map(str::to_string)
            .collect();
        head = before;
    }
    if let Some((_, tool)) =
        crate::text::rsplit_once(head, "\nTool: ").filter(|(_, t)| !t.contains('\n'))
    {
        m.tool = Some(tool);
    }
    Some(m)
}

/// The mirror text alone, with a canonical code on its `Code:` line: what a
/// client keeps of a result when it passes on only the first text block (the
/// `ToolError` FastMCP's client raises). Read as stated: the message, the
/// code, whether and when to retry, the tool and the suggestions.
fn mirror_alone(t: &str) -> Option<Reading<'_>> {
    let m = mirror(t)?;
    let (message, rest) = crate::text::rsplit_once(t.strip_prefix("Error: ")?, "\nCode: ")?;
    let code = Code::from_name(rest.split('\n').next()?)?;
    let mut r = Reading::new("canonical text");
    r.own = true;
    r.explicit = Some(code);
    r.message = Some(Cow::Borrowed(message));
    r.retryable = Some(m.retryable);
    r.delay = Some(m.delay);
    r.tool = m.tool;
    r.suggestions = m.suggestions;
    Some(r)
}

/// The text profile's lines (seed 002's `createToolError`), read from the end:
/// `Error: …`, `Code: …`, `Details: {…}`?, `Suggestions: a, b`?, `Retryable: …`.
fn text_profile<'v>(t: &'v str) -> Option<Reading<'v>> {
    let rest = t.strip_prefix("Error: ")?;
    let (rest, retryable) = match rest.strip_suffix("\nRetryable: true") {
        Some(r) => (r, true),
        None => (rest.strip_suffix("\nRetryable: false")?, false),
    };
    let mut r = Reading::new("text");
    r.own = true;
    r.retryable = Some(retryable);
    let mut rest = rest;
    if let Some((a, s)) =
        crate::text::rsplit_once(rest, "\nSuggestions: ").filter(|(_, s)| !s.contains('\n'))
    {
        r.suggestions = crate::text::split(s, ", ")
            .into_iter()
            .map(str::to_string)
            .collect();
        rest = a;
    }
    if let Some((a, d)) =
        crate::text::rsplit_once(rest, "\nDetails: ").filter(|(_, d)| !d.contains('\n'))
    {
        if let Ok(Value::Object(m)) = crate::input::parse(d) {
            rendering_fields(&mut r, Profile::Text, &m, false);
            rest = a;
        }
    }
    let (message, code) =
        crate::text::rsplit_once(rest, "\nCode: ").filter(|(_, c)| !c.contains('\n'))?;
    r.message = Some(Cow::Borrowed(message));
    r.app_or_code = Some(code);
    match Code::from_name(code) {
        Some(c) => r.explicit = Some(c),
        None => r.app_code = Some(code),
    }
    Some(r)
}

/// Text and JSON from another server, read with `classify`'s signals. The
/// wrappers SDKs put around a tool's message name the tool.
fn foreign<'v>(human: &[&'v str], json: Option<&'v Map<'v>>) -> Reading<'v> {
    let mut r = Reading::new(if json.is_some() { "json" } else { "text" });
    let mut joined: Cow<'v, str> = match human {
        [] => Cow::Borrowed(""),
        [one] => Cow::Borrowed(one),
        many => Cow::Owned(many.join("\n")),
    };
    // Playwright's Markdown section.
    if let Some(rest) = joined.strip_prefix("### Error\n") {
        joined = Cow::Owned(rest.to_string());
    }
    if let Cow::Borrowed(t) = joined {
        r.tool = framework_tool(t);
    }
    if !joined.trim().is_empty() {
        r.message = Some(joined);
    }
    r.body = json.map(|m| Value::Object(m.clone()));
    r
}

/// The tool named by an SDK's wrapper: the Python SDK's `Error executing tool
/// NAME: …` and FastMCP's `Error calling tool 'NAME': …`.
fn framework_tool(t: &str) -> Option<&str> {
    if let Some(rest) = t.strip_prefix("Error executing tool ") {
        let end = rest
            .find(|c: char| c == ':' || c.is_whitespace())
            .unwrap_or(rest.len());
        return Some(&rest[..end]).filter(|n| !n.is_empty());
    }
    let rest = t.strip_prefix("Error calling tool '")?;
    rest.split_once('\'')
        .map(|(n, _)| n)
        .filter(|n| !n.is_empty())
}

/// SEP-3313's `toolFailure`: its code and retry verdict win over the text.
fn tool_failure<'v>(r: &mut Reading<'v>, f: &'v Map<'v>, opts: &ClassifyOptions) {
    if r.dialect != "text" && r.dialect != "json" {
        r.dialect = Cow::Owned(format!("{} toolFailure", r.dialect));
    } else {
        r.dialect = Cow::Borrowed("toolFailure");
    }
    match text(f, "code").map(|c| (c, Code::from_name(c))) {
        Some((_, Some(c))) => {
            // A profile code that is not the canonical one is the author's.
            if let Some(own) = r.app_or_code.filter(|o| *o != c.name()) {
                r.app_code = Some(own);
            }
            r.explicit = Some(c);
        }
        Some((c, None)) if r.app_code.is_none() && !r.own => r.app_code = Some(c),
        _ => {}
    }
    r.class = text(f, "class");
    if let Some(retryable) = boolean(f, "retryable") {
        r.retryable = Some(retryable);
    }
    if let (Some(at), Some(now)) = (f.get("retryNotBefore").and_then(Value::as_u64), opts.now_ms) {
        let wait = i64::try_from(at)
            .unwrap_or(i64::MAX)
            .saturating_sub(now)
            .max(0);
        r.delay = Some(Some(wait as u64));
    }
    if let Some(g) = text(f, "agentGuidance") {
        if r.suggestions.is_empty() && !r.own {
            r.suggestions.push(g.to_string());
        }
    }
    if let Some(id) = text(f, "correlationId") {
        r.evidence
            .push(format!("correlationId {}", crate::json::quoted(id)));
    }
}
