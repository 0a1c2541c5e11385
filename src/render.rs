//! Render a normalized error as what goes on the wire.
//!
//! A *profile* picks the error's shape (the project's `canonical` superset or
//! one of the five seed contracts), a *format* picks the content blocks of a
//! tool result, a *spec revision* the MCP schema to satisfy, and a *target*
//! what to produce: a tool result, a soft (successful) result, a JSON-RPC
//! protocol error, a `needsInput:v1` elicitation or a log record.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::json::{key, Lit, Obj, J};
use crate::normalized::Normalized;
use crate::taxonomy::{rpc_envelope_code, Code};
use crate::Error;

macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident $label:literal { $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )* } default $default:ident) => {
        $(#[$meta])*
        ///
        /// More values may come (new profiles, revisions, targets): match with a wildcard arm.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$( $name::$variant, )*];

            /// The public name (as used by the CLIs and the WIT contract).
            pub fn name(self) -> &'static str {
                match self { $( $name::$variant => $text, )* }
            }

            /// Parse a public name.
            pub fn from_name(s: &str) -> Result<Self, Error> {
                match s {
                    $( $text => Ok($name::$variant), )*
                    _ => Err(Error::InvalidOption(format!(
                        concat!("unknown ", $label, " {}; expected one of: {}"),
                        crate::json::quoted(s),
                        Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
                    ))),
                }
            }
        }

        impl Default for $name {
            fn default() -> Self { $name::$default }
        }
    };
}

named_enum! {
    /// Which wire contract to produce.
    Profile "profile" {
        /// The project's own superset shape.
        Canonical = "canonical",
        /// Seed 000: `{kind:"toolError:v1", code, message, retryable?, details?}`.
        ToolErrorV1 = "tool-error-v1",
        /// Seed 001: `{code, message, retriable, original?}`.
        McpToolError = "mcp-tool-error",
        /// Seed 002: `Error:` / `Code:` / `Details:` / `Suggestions:` / `Retryable:` lines.
        Text = "text",
        /// Seed 003: `{"error":{type, message, details, cluster?, tool}}`.
        ErrorObject = "error-object",
        /// Seed 004: `success:false, error_type, jsonrpc_error_code, …`.
        RpcEnvelope = "rpc-envelope",
    } default Canonical
}

named_enum! {
    /// Which content blocks a tool result carries.
    Format "format" {
        /// One human-readable text block, no JSON block.
        Markdown = "markdown",
        /// Only the JSON block.
        Json = "json",
        /// The text block, then the JSON block.
        Both = "both",
    } default Markdown
}

named_enum! {
    /// The MCP protocol revision whose schema the output must satisfy.
    SpecRevision "spec revision" {
        /// 2025-06-18.
        V20250618 = "2025-06-18",
        /// 2025-11-25.
        V20251125 = "2025-11-25",
        /// 2026-07-28: `resultType` is required on results.
        V20260728 = "2026-07-28",
    } default V20251125
}

named_enum! {
    /// What to render.
    Target "target" {
        /// A `CallToolResult` with `isError: true`.
        ToolResult = "tool-result",
        /// A `CallToolResult` with `isError: false` whose JSON carries the error.
        SoftResult = "soft-result",
        /// A JSON-RPC error object `{code, message, data}`.
        ProtocolError = "protocol-error",
        /// A `needsInput:v1` elicitation result (seed 000).
        NeedsInput = "needs-input",
        /// A structured record for the server's own log.
        LogRecord = "log-record",
    } default ToolResult
}

/// The `tool-error-v1` codes (seed 000), in the seed's order.
pub const TOOL_ERROR_V1_CODES: &[&str] = &[
    "NETWORK_ERROR",
    "SERVER_ERROR",
    "CLIENT_ERROR",
    "NOT_FOUND",
    "AUTHENTICATION_ERROR",
    "UNKNOWN_ERROR",
];

/// The `mcp-tool-error` codes (seed 001), in the seed's order.
pub const MCP_TOOL_ERROR_CODES: &[&str] = &[
    "BAD_REQUEST",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "NOT_FOUND",
    "GONE",
    "RATE_LIMITED",
    "UPSTREAM_ERROR",
    "NETWORK_ERROR",
    "TIMEOUT",
    "INTERNAL_ERROR",
];

/// Options for [`render`]. `Default` gives the documented defaults.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RenderOptions {
    /// The wire contract.
    pub profile: Profile,
    /// Which content blocks a tool result carries.
    pub format: Format,
    /// The MCP revision to satisfy.
    pub spec: SpecRevision,
    /// What to render.
    pub target: Target,
    /// The tool's name; falls back to the error's own `tool`.
    pub tool_name: Option<String>,
    /// The time of the error, RFC 3339.
    pub now: Option<String>,
    /// A host-chosen error id.
    pub error_id: Option<String>,
    /// The tool's declared `outputSchema`, as JSON text.
    pub output_schema: Option<String>,
    /// A JSON object whose members are added at the top level of the profile
    /// object (beside `error` in `error-object`, e.g. `{"metrics_available":false}`).
    pub extra_fields: Option<String>,
    /// Mask unexpected errors: unless the error is `expected`, the model sees
    /// a sentence saying what kind of failure happened, with the error id
    /// ("The tool hit an internal error (error id 1a2b3c4d)."), instead of the
    /// message, and no details or upstream original. Log records are never
    /// masked.
    pub mask: bool,
    /// The sentence a masked error shows instead of the code's own ("The
    /// weather service failed"); the error id is added to it as for the
    /// code's sentence.
    pub masked_message: Option<String>,
    /// Bounds on the message, details, original and the whole output.
    pub limits: crate::Limits,
    /// The user's recognizer rules, for [`crate::classify_render`].
    pub rules: crate::UserRules,
    /// Also write the proposed machine-readable failure (SEP-3313, open) on a
    /// tool result: `_meta["io.modelcontextprotocol/toolFailure"]` with
    /// `class`, `code` (the canonical code), `retryable` and `retryNotBefore`
    /// (`now` + the delay, epoch ms) for a reliability failure, and
    /// `correlationId` (the error id, when there is one). Off by default
    /// while it is a proposal.
    pub tool_failure: bool,
}

impl RenderOptions {
    /// Check every option as the core reads it, by rendering an empty error
    /// with them (at a fixed time when they give none, so that a profile that
    /// needs one is checked like the others): a mistake is found where the
    /// options are set up, as the typed error a first failure would meet.
    pub fn check(&self) -> Result<(), Error> {
        let mut probe = self.clone();
        probe
            .now
            .get_or_insert_with(|| "2000-01-01T00:00:00Z".into());
        crate::classify_render("{}", &probe).map(|_| ())
    }

    /// `now` in milliseconds since the epoch, parsed once per call.
    pub(crate) fn now_ms(&self) -> Result<Option<i64>, Error> {
        self.now.as_deref().map(crate::parse_now).transpose()
    }

    /// Parse options given as a JSON object with the fields in snake_case
    /// (`{"profile":"tool-error-v1","format":"both","now":"…","mask":true}`);
    /// `output_schema` and `extra_fields` may be objects or JSON text. For
    /// hosts whose bindings pay per typed field; unknown keys are an error.
    pub fn from_json(text: &str) -> Result<RenderOptions, Error> {
        use crate::input::Value;
        // The classifier's parser: hosts send options with every call.
        let value = crate::parse_input(text)
            .map_err(|e| Error::InvalidOption(format!("render options: {}", e.detail())))?;
        let Value::Object(map) = value else {
            return Err(Error::InvalidOption(
                "render options must be a JSON object".into(),
            ));
        };
        let mut o = RenderOptions::default();
        for (key, v) in map.iter() {
            if v.is_null() {
                continue;
            }
            let text = || match v {
                Value::String(s) => Ok(s.to_string()),
                _ => Err(Error::InvalidOption(format!(
                    "render option {} must be a string",
                    crate::json::quoted(key)
                ))),
            };
            let json_text = || match v {
                Value::String(s) => s.to_string(),
                other => crate::json::value_text(&other.to_serde()),
            };
            match key {
                "profile" => o.profile = Profile::from_name(&text()?)?,
                "format" => o.format = Format::from_name(&text()?)?,
                "spec" => o.spec = SpecRevision::from_name(&text()?)?,
                "target" => o.target = Target::from_name(&text()?)?,
                "tool_name" => o.tool_name = Some(text()?),
                "now" => o.now = Some(text()?),
                "error_id" => o.error_id = Some(text()?),
                "masked_message" => o.masked_message = Some(text()?),
                "output_schema" => o.output_schema = Some(json_text()),
                "extra_fields" => o.extra_fields = Some(json_text()),
                "limits" => o.limits = crate::Limits::from_json_value(&v.to_serde())?,
                // An array of rules, or its JSON text.
                "rules" => {
                    o.rules = match v {
                        Value::String(text) => crate::rules::parse_user_rules(text)?,
                        other => crate::UserRules::from_value(&other.to_serde())?,
                    }
                }
                "mask" | "tool_failure" => {
                    let Value::Bool(b) = v else {
                        return Err(Error::InvalidOption(format!(
                            "render option {} must be a boolean",
                            crate::json::quoted(key)
                        )));
                    };
                    let slot = if key == "mask" {
                        &mut o.mask
                    } else {
                        &mut o.tool_failure
                    };
                    *slot = *b;
                }
                other => {
                    return Err(Error::InvalidOption(format!(
                        "unknown render option {}",
                        crate::json::quoted(other)
                    )))
                }
            }
        }
        Ok(o)
    }
}

/// Render `error` as JSON text according to `options`.
pub fn render(error: &Normalized, options: &RenderOptions) -> Result<String, Error> {
    render_value(error.clone(), options)
}

/// [`render`] taking the error by value: no copy of it is made.
pub fn render_value(error: Normalized, options: &RenderOptions) -> Result<String, Error> {
    let limits = options.limits.checked()?;
    render_owned(error, options, &limits, options.now_ms()?)
}

/// [`render`] taking the error by value (no copy), with `options.limits`
/// already checked by the caller.
pub(crate) fn render_owned(
    mut error: Normalized,
    options: &RenderOptions,
    limits: &crate::Limits,
    now_ms: Option<i64>,
) -> Result<String, Error> {
    // Whatever the host passed in is redacted and bounded again; model-facing
    // output also loses local file paths.
    let for_model = options.target != Target::LogRecord;
    if for_model {
        // Only log records show the evidence: not worth sanitizing otherwise.
        error.evidence.clear();
    }
    let mut sanitized = error.sanitized_with(for_model, limits);
    if options.mask && !sanitized.expected && for_model {
        // Bounded like any message, so that a masked result read back and
        // rendered again is the same.
        let sentence = options
            .masked_message
            .as_deref()
            .unwrap_or_else(|| masked_sentence(sanitized.code));
        let message = masked_message(sentence, options.error_id.as_deref());
        // The author's sentence is text like any other: redacted and bounded,
        // so that a masked result read back and rendered again is the same.
        sanitized.message = crate::redact::bounded_owned(message, true, limits.max_message_chars);
        sanitized.details = None;
        sanitized.original = None;
    }
    let out = render_sanitized(&sanitized, options, now_ms)?;
    if out.len() <= limits.max_rendered_bytes {
        return Ok(out);
    }
    // Too large: drop the details and the upstream original, and say so.
    let mut note = Map::new();
    note.insert(
        "truncated".into(),
        json!(format!(
            "details and upstream original dropped: the result exceeded {} bytes",
            limits.max_rendered_bytes
        )),
    );
    // Bounded like any details, so that the result read back and rendered
    // again is the same.
    sanitized.details =
        match crate::redact::sanitize_value_with(&Value::Object(note), for_model, limits) {
            Value::Object(m) => Some(m),
            _ => None,
        };
    sanitized.original = None;
    render_sanitized(&sanitized, options, now_ms)
}

/// What a masked error says happened, by its code: the kind of failure, in
/// the words of the tool's user, not the classifier's.
fn masked_sentence(code: Code) -> &'static str {
    match code {
        Code::Cancelled => "The tool call was cancelled",
        Code::Timeout => "The tool timed out",
        Code::InvalidArgument => "The tool's input was invalid",
        Code::PayloadTooLarge => "The tool's input was too large",
        Code::NotFound => "Something the tool looked for does not exist",
        Code::Gone => "Something the tool looked for is gone",
        Code::AlreadyExists => "What the tool tried to create already exists",
        Code::Conflict => "The tool's change conflicted with the current state",
        Code::FailedPrecondition => "The tool cannot do this in the current state",
        Code::Unauthenticated => "The tool could not authenticate",
        Code::PermissionDenied => "The tool is not allowed to do this",
        Code::RateLimited => "The tool was rate limited",
        Code::QuotaExhausted => "The tool's quota is used up",
        Code::Unimplemented => "The tool does not support this",
        Code::Unavailable => "A service the tool needs is unavailable",
        Code::NetworkError => "The tool could not reach a service it needs",
        Code::UpstreamError => "A service the tool called failed",
        Code::Internal => "The tool hit an internal error",
        _ => "The tool failed",
    }
}

/// A masked error's message: the sentence, its final stop dropped, then the
/// error id in parentheses when there is one, then a full stop.
fn masked_message(sentence: &str, error_id: Option<&str>) -> String {
    let sentence = sentence.trim().trim_end_matches('.');
    match error_id {
        Some(id) => [sentence, " (error id ", id, ")."].concat(),
        None => [sentence, "."].concat(),
    }
}

/// `now_ms` is `options.now`, parsed once by the caller.
fn render_sanitized(
    error: &Normalized,
    options: &RenderOptions,
    now_ms: Option<i64>,
) -> Result<String, Error> {
    if options.profile == Profile::RpcEnvelope
        && options.target != Target::NeedsInput
        && now_ms.is_none()
    {
        return Err(Error::InvalidOption(
            "the rpc-envelope profile needs `now`: its `timestamp` is required".into(),
        ));
    }
    let schema = match &options.output_schema {
        Some(text) => Some(Value::Object(object_option("output_schema", text)?)),
        None => None,
    };
    let extra = match &options.extra_fields {
        Some(text) => object_option("extra_fields", text)?,
        None => Map::new(),
    };
    let ctx = Ctx {
        error,
        options,
        now_ms,
        schema,
        extra,
        message: clean_message(&error.message, error.code),
    };
    let mut out = String::with_capacity(1024);
    match options.target {
        Target::ToolResult => ctx.tool_result(true).write(&mut out),
        Target::SoftResult => ctx.tool_result(false).write(&mut out),
        Target::ProtocolError => J::Obj(ctx.protocol_error()).write_compact(&mut out),
        Target::NeedsInput => ctx.needs_input().write(&mut out),
        Target::LogRecord => J::Obj(ctx.log_record()).write_compact(&mut out),
    }
    Ok(out)
}

/// A `CallToolResult`, written as it is (not built as a JSON tree first: the
/// common result costs no allocation beyond its text). Its members come in
/// this order: `resultType` (2026-07-28), `content`, `structuredContent`,
/// `isError`, `_meta`.
struct ToolResult<'s> {
    result_type: bool,
    /// The text blocks: (text, `mimeType`).
    blocks: [Option<(Cow<'s, str>, Option<&'s str>)>; 2],
    structured: Option<J<'s>>,
    is_error: bool,
    /// `_meta`, holding the tool-failure object.
    meta: Option<J<'s>>,
}

impl ToolResult<'_> {
    fn write(&self, out: &mut String) {
        out.push('{');
        if self.result_type {
            out.push_str("\"resultType\":\"complete\",");
        }
        out.push_str("\"content\":[");
        for (i, (text, mime)) in self.blocks.iter().flatten().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"type\":\"text\",\"text\":");
            crate::json::write_str(text, out);
            if let Some(m) = mime {
                out.push_str(",\"mimeType\":");
                crate::json::write_str(m, out);
            }
            out.push('}');
        }
        out.push(']');
        if let Some(object) = &self.structured {
            out.push_str(",\"structuredContent\":");
            object.write_compact(out);
        }
        out.push_str(if self.is_error {
            ",\"isError\":true"
        } else {
            ",\"isError\":false"
        });
        if let Some(meta) = &self.meta {
            out.push_str(",\"_meta\":");
            meta.write_compact(out);
        }
        out.push('}');
    }
}

/// The JSON Schema (draft-07) of a profile's error object, as the seeds export
/// theirs (seed 001 via zod-to-json-schema). `canonical` describes the canonical object.
pub fn schema(profile: Profile) -> String {
    // Written as text (not built as a `Value`): the same bytes, a fraction of
    // the component's code. `@` stands for the profile's code list.
    let (text, codes): (&str, &[&str]) = match profile {
        Profile::Canonical => (
            concat!(
                r#"{"type":"object","properties":{"code":{"type":"string","enum":@},"#,
                r#""category":{"type":"string","enum":["cancelled","client","auth","limit","transient","server","unknown"]},"#,
                r#""retryable":{"type":"boolean"},"retry_after_ms":{"type":"integer","minimum":0},"#,
                r#""http_status":{"type":"integer"},"message":{"type":"string","minLength":1},"#,
                r#""tool":{"type":"string"},"app_code":{"type":"string"},"app_type":{"type":"string"},"#,
                r#""details":{"type":"object"},"suggestions":{"type":"array","items":{"type":"string"}},"#,
                r#""error_id":{"type":"string"},"timestamp":{"type":"string"}},"#,
                r#""required":["code","category","retryable","message"]"#,
            ),
            &CANONICAL_CODES,
        ),
        Profile::ToolErrorV1 => (
            concat!(
                r#"{"type":"object","properties":{"kind":{"type":"string","const":"toolError:v1"},"#,
                r#""code":{"type":"string","enum":@},"message":{"type":"string"},"#,
                r#""retryable":{"type":"boolean"},"details":{"type":"object","additionalProperties":{}}},"#,
                r#""required":["kind","code","message"]"#,
            ),
            TOOL_ERROR_V1_CODES,
        ),
        Profile::McpToolError => (
            concat!(
                r#"{"type":"object","properties":{"code":{"type":"string","enum":@},"#,
                r#""message":{"type":"string","minLength":1},"#,
                r#""retriable":{"type":"boolean","default":false},"original":{}},"#,
                r#""required":["code","message"],"additionalProperties":false"#,
            ),
            MCP_TOOL_ERROR_CODES,
        ),
        Profile::Text => (
            concat!(
                r#"{"type":"object","properties":{"error":{"type":"string"},"code":{"type":"string"},"#,
                r#""details":{},"suggestions":{"type":"array","items":{"type":"string"}},"#,
                r#""retryable":{"type":"boolean"}},"required":["error"]"#,
            ),
            &[],
        ),
        Profile::ErrorObject => (
            concat!(
                r#"{"type":"object","properties":{"error":{"type":"object","properties":{"#,
                r#""type":{"type":"string"},"message":{"type":"string"},"details":{"type":"string"},"#,
                r#""cluster":{"type":"string"},"tool":{"type":"string"}},"required":["type","message"]}},"#,
                r#""required":["error"]"#,
            ),
            &[],
        ),
        Profile::RpcEnvelope => (
            concat!(
                r#"{"type":"object","properties":{"success":{"type":"boolean","const":false},"#,
                r#""error_type":{"type":"string"},"#,
                r#""jsonrpc_error_code":{"type":"integer","maximum":-32000,"minimum":-32768},"#,
                r#""error_code":{"type":"string","pattern":"^[A-Z][A-Z0-9_]*$"},"#,
                r#""message":{"type":"string"},"details":{"type":"object"},"#,
                r#""suggestions":{"type":"array","items":{"type":"string"}},"#,
                r#""tool_name":{"type":"string"},"timestamp":{"type":"string"}},"#,
                r#""required":["success","error_type","jsonrpc_error_code","error_code","message","tool_name","timestamp"]"#,
            ),
            &[],
        ),
    };
    let list = J::Arr(codes.iter().map(|c| J::from(*c)).collect()).compact();
    let mut out = text.replacen('@', &list, 1);
    out.push_str(r#","$schema":"http://json-schema.org/draft-07/schema#"}"#);
    out
}

/// Every canonical code name, in the table's order.
const CANONICAL_CODES: [&str; crate::TABLE.len()] = {
    let mut names = [""; crate::TABLE.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = crate::TABLE[i].name;
        i += 1;
    }
    names
};

fn object_option(name: &str, text: &str) -> Result<Map<String, Value>, Error> {
    match crate::parse_json(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(Error::InvalidOption(format!(
            "{name} must be a JSON object"
        ))),
        Err(e) => Err(Error::InvalidOption(format!("{name}: {}", e.detail()))),
    }
}

/// Collapse prefixes that wrappers doubled: `MCP error -32602: MCP error -32602: x`
/// and `Error executing tool t: Error executing tool t: x` keep one copy.
/// A message with nothing left falls back to the code's documentation line.
fn clean_message(message: &str, code: Code) -> Cow<'_, str> {
    let mut m = message.trim();
    while let Some(prefix) = wrapper_prefix(m) {
        let rest = m[prefix.len()..].trim_start();
        if !rest.starts_with(prefix.trim_end()) {
            break;
        }
        m = rest;
    }
    if m.is_empty() {
        Cow::Borrowed(code.info().doc)
    } else {
        Cow::Borrowed(m)
    }
}

/// The wrapper prefix a message starts with (`MCP error -32602: `,
/// `Error executing tool x: `), including its trailing space.
fn wrapper_prefix(m: &str) -> Option<&str> {
    for start in ["MCP error ", "Error executing tool "] {
        if let Some(rest) = m.strip_prefix(start) {
            let end = crate::text::find(rest, ": ")?;
            return Some(&m[..start.len() + end + 2]);
        }
    }
    None
}

/// Every `MCP error -N: ` prefix removed: a client adds its own to protocol errors.
fn strip_mcp_prefixes(m: &str) -> &str {
    let mut m = m;
    while let Some(rest) = m.strip_prefix("MCP error ") {
        match crate::text::split_once(rest, ": ") {
            Some((n, tail)) if n.parse::<i64>().is_ok() => m = tail,
            _ => break,
        }
    }
    m
}

struct Ctx<'a> {
    error: &'a Normalized,
    options: &'a RenderOptions,
    /// The host's time; written as text only where a result shows it.
    now_ms: Option<i64>,
    schema: Option<Value>,
    extra: Map<String, Value>,
    message: Cow<'a, str>,
}

/// How a profile's content blocks look.
struct Style {
    /// `mimeType` of the human block, when the seed shows one.
    text_mime: Option<&'static str>,
    /// Whether the JSON block is pretty (2 spaces) or compact.
    pretty: bool,
    /// `mimeType` of the JSON block, when the profile uses one.
    json_mime: Option<&'static str>,
    /// Whether the profile carries its object in `structuredContent`.
    structured: bool,
}

impl<'a> Ctx<'a> {
    /// `now` as the `timestamp` the canonical and rpc-envelope objects and
    /// log records show.
    fn timestamp(&self) -> Option<String> {
        self.now_ms.map(crate::time::format_rfc3339_seconds)
    }

    fn profile(&self) -> Profile {
        self.options.profile
    }

    fn tool(&self) -> Option<&'a str> {
        self.options
            .tool_name
            .as_deref()
            .or(self.error.tool.as_deref())
    }

    fn codes(&self) -> &'static crate::taxonomy::ProfileCodes {
        &self.error.code.info().profiles
    }

    fn details(&self) -> Option<&'a Map<String, Value>> {
        self.error.details.as_ref()
    }

    fn style(&self) -> Style {
        let (text_mime, pretty, json_mime, structured) = match self.profile() {
            Profile::Canonical | Profile::McpToolError | Profile::RpcEnvelope => {
                (None, true, Some("application/json"), true)
            }
            Profile::ToolErrorV1 => (Some("text/markdown"), true, Some("application/json"), true),
            Profile::Text => (None, true, Some("application/json"), false),
            // NewErrorResult / NewJSONResult (mcp-go): plain text, compact JSON.
            Profile::ErrorObject => (None, false, None, false),
        };
        Style {
            text_mime,
            pretty,
            json_mime,
            structured,
        }
    }

    fn rpc_envelope_type_and_code(&self) -> (&'a str, i32) {
        let table_type = self.codes().rpc_envelope;
        let error_type = self.error.app_type.as_deref().unwrap_or(table_type);
        let code = rpc_envelope_code(error_type)
            .or_else(|| rpc_envelope_code(table_type))
            .unwrap_or(-32603);
        (error_type, code)
    }

    /// The profile's error object, with the host's extra fields at its top level.
    fn object(&self) -> Obj<'_> {
        let e = self.error;
        let mut m = Obj::new();
        match self.profile() {
            Profile::Canonical => {
                self.error.insert_classification(&mut m);
                m.set(key!("message"), &self.message);
                if let Some(t) = self.tool() {
                    m.set(key!("tool"), t);
                }
                if let Some(c) = &e.app_code {
                    m.set(key!("app_code"), c);
                }
                if let Some(t) = &e.app_type {
                    m.set(key!("app_type"), t);
                }
                if let Some(d) = self.details() {
                    m.set(key!("details"), J::Map(d));
                }
                if !e.suggestions.is_empty() {
                    m.set(key!("suggestions"), J::Strs(&e.suggestions));
                }
                if let Some(id) = &self.options.error_id {
                    m.set(key!("error_id"), id);
                }
                if let Some(ts) = self.timestamp() {
                    m.set(key!("timestamp"), ts);
                }
            }
            Profile::ToolErrorV1 => {
                m.set(key!("kind"), "toolError:v1");
                m.set(key!("code"), self.codes().tool_error_v1);
                m.set(key!("message"), &self.message);
                m.set(key!("retryable"), e.retryable);
                // Most errors have none: no room taken until a member comes.
                let mut details = Obj::default();
                if let Some(s) = e.http_status {
                    details.set(key!("statusCode"), i64::from(s));
                }
                self.open_details(&mut details, key!("retryAfterMs"), key!("errorId"));
                if !details.is_empty() {
                    m.set(key!("details"), details);
                }
            }
            Profile::McpToolError => {
                m.set(key!("code"), self.codes().mcp_tool_error);
                m.set(key!("message"), &self.message);
                // Seed 001: an abort is its TIMEOUT, and its TIMEOUT is retriable.
                m.set(key!("retriable"), e.retryable || e.code == Code::Cancelled);
                if let Some(o) = &e.original {
                    m.set(key!("original"), J::Val(o));
                }
            }
            Profile::Text => {
                m.set(key!("error"), self.text_error_line());
                m.set(key!("code"), self.app_or_canonical_code());
                let mut details = Obj::default();
                self.open_details(&mut details, key!("retry_after_ms"), key!("error_id"));
                if !details.is_empty() {
                    m.set(key!("details"), details);
                }
                if !e.suggestions.is_empty() {
                    m.set(key!("suggestions"), J::Strs(&e.suggestions));
                }
                m.set(key!("retryable"), e.retryable);
            }
            Profile::ErrorObject => {
                let mut inner = Obj::new();
                let error_type = e.app_type.as_deref().unwrap_or(self.codes().error_object);
                inner.set(key!("type"), error_type);
                inner.set(key!("message"), &self.message);
                let details = self.details();
                let text = |key: &str| details.and_then(|d| d.get(key)).and_then(Value::as_str);
                if let Some(d) = text("value") {
                    inner.set(key!("details"), d);
                }
                if let Some(c) = text("cluster") {
                    inner.set(key!("cluster"), c);
                }
                if let Some(t) = self.tool() {
                    inner.set(key!("tool"), t);
                }
                for (k, v) in details.into_iter().flatten() {
                    if k != "value" {
                        inner.set_host_absent(k, J::Val(v));
                    }
                }
                m.set(key!("error"), inner);
            }
            Profile::RpcEnvelope => {
                let (error_type, code) = self.rpc_envelope_type_and_code();
                m.set(key!("success"), false);
                m.set(key!("error_type"), error_type);
                m.set(key!("jsonrpc_error_code"), i64::from(code));
                m.set(key!("error_code"), self.app_or_canonical_code());
                m.set(key!("message"), &self.message);
                let mut details = Obj::default();
                self.open_details(&mut details, key!("retry_after_ms"), key!("error_id"));
                if !details.is_empty() {
                    m.set(key!("details"), details);
                }
                if !e.suggestions.is_empty() {
                    m.set(key!("suggestions"), J::Strs(&e.suggestions));
                }
                m.set(key!("tool_name"), self.tool().unwrap_or("unknown"));
                if let Some(ts) = self.timestamp() {
                    m.set(key!("timestamp"), ts);
                }
            }
        }
        self.add_extra(&mut m);
        m
    }

    /// An open `details` object's members: the retry delay and the error id
    /// under the profile's names (a masked error keeps both: neither says
    /// anything about the failure that must not be shown), then the error's
    /// own details.
    fn open_details<'s>(&'s self, into: &mut Obj<'s>, delay: &'static Lit, id: &'static Lit) {
        if let Some(ms) = self.error.retry_after_ms {
            into.set(delay, J::UInt(ms));
        }
        if let Some(error_id) = &self.options.error_id {
            into.set(id, error_id.as_str());
        }
        for (k, v) in self.details().into_iter().flatten() {
            into.set_host_absent(k, J::Val(v));
        }
    }

    /// The host's extra fields: a key already present takes the new value in place.
    fn add_extra<'s>(&'s self, m: &mut Obj<'s>) {
        for (k, v) in &self.extra {
            m.set_host(k, J::Val(v));
        }
    }

    fn app_or_canonical_code(&self) -> &'a str {
        self.error
            .app_code
            .as_deref()
            .unwrap_or_else(|| self.error.code.name())
    }

    /// The message without a leading `Error: ` (the text profile adds its own).
    fn text_error_line(&self) -> &str {
        self.message
            .strip_prefix("Error: ")
            .unwrap_or(&self.message)
    }

    /// Room for the human-readable text: its parts and 96 bytes of labels,
    /// code and delay, so that it is written without growing.
    fn text_room(&self) -> usize {
        let e = self.error;
        let lines: usize = e.suggestions.iter().map(|s| s.len() + 3).sum();
        self.message.len()
            + lines
            + self.tool().map_or(0, str::len)
            + self.details().map_or(0, |_| 256)
            + self.options.error_id.as_deref().map_or(0, str::len)
            + 96
    }

    /// The human-readable text block.
    fn human_text(&self, object: &Obj<'_>) -> Cow<'_, str> {
        let e = self.error;
        Cow::Owned(match self.profile() {
            Profile::ToolErrorV1 | Profile::ErrorObject => return Cow::Borrowed(&self.message),
            // Seed 002's createToolError: one line per present field.
            Profile::Text => {
                let mut out = String::with_capacity(self.text_room());
                out.push_str("Error: ");
                out.push_str(self.text_error_line());
                out.push_str("\nCode: ");
                out.push_str(self.app_or_canonical_code());
                if let Some(d) = object.get("details") {
                    out.push_str("\nDetails: ");
                    out.push_str(&d.compact());
                }
                if !e.suggestions.is_empty() {
                    out.push_str("\nSuggestions: ");
                    out.push_str(&e.suggestions.join(", "));
                }
                out.push_str("\nRetryable: ");
                out.push_str(if e.retryable { "true" } else { "false" });
                out
            }
            // The structured error mirrored as text, for clients that drop structuredContent.
            Profile::Canonical | Profile::McpToolError | Profile::RpcEnvelope => {
                let code = match self.profile() {
                    Profile::McpToolError => match object.get("code") {
                        Some(J::Str(s)) => s,
                        Some(J::Val(Value::String(s))) => s.as_str(),
                        _ => "",
                    },
                    Profile::RpcEnvelope => self.app_or_canonical_code(),
                    _ => e.code.name(),
                };
                let mut out = String::with_capacity(self.text_room());
                out.push_str("Error: ");
                out.push_str(&self.message);
                out.push_str("\nCode: ");
                out.push_str(code);
                if let Some(t) = self.tool() {
                    out.push_str("\nTool: ");
                    out.push_str(t);
                }
                if !e.suggestions.is_empty() {
                    out.push_str("\nSuggestions:");
                    for s in &e.suggestions {
                        out.push_str("\n- ");
                        out.push_str(s);
                    }
                }
                out.push_str("\nRetryable: ");
                match (e.retryable, e.retry_after_ms) {
                    (true, Some(ms)) => {
                        out.push_str("yes, after ");
                        out.push_str(&crate::signals::fmt_delay(ms));
                    }
                    (true, None) => out.push_str("yes"),
                    (false, _) => out.push_str("no"),
                }
                if let Some(id) = &self.options.error_id {
                    out.push_str("\nError ID: ");
                    out.push_str(id);
                }
                out
            }
        })
    }

    /// A `CallToolResult` carrying `object`, gated by the format. With
    /// `json_first`, the default format gives the JSON block alone.
    fn result<'s>(
        &'s self,
        object: Obj<'s>,
        human: Cow<'s, str>,
        style: &Style,
        is_error: bool,
        json_first: bool,
    ) -> ToolResult<'s> {
        let object = J::Obj(object);
        let structured = style.structured
            && match &self.schema {
                None => true,
                Some(schema) => schema_accepts(schema, &object.to_value()),
            };
        let (human_block, json_block) = match (self.options.format, json_first) {
            (Format::Markdown, false) => (true, false),
            (Format::Markdown, true) | (Format::Json, _) => (false, true),
            (Format::Both, _) => (true, true),
        };
        // The tool's outputSchema rules structuredContent out: keep the
        // structured error in the content instead, so it still reaches the model.
        let json_block = json_block || (style.structured && !structured);
        let human = human_block.then_some((human, style.text_mime));
        let json = json_block.then(|| {
            let text = if style.pretty {
                object.pretty()
            } else {
                object.compact()
            };
            (Cow::Owned(text), style.json_mime)
        });
        ToolResult {
            result_type: self.options.spec == SpecRevision::V20260728,
            blocks: [human, json],
            structured: structured.then_some(object),
            is_error,
            meta: None,
        }
    }

    fn tool_result(&self, is_error: bool) -> ToolResult<'_> {
        let object = self.object();
        let human = self.human_text(&object);
        // A soft result is data: with the default format it is the JSON alone.
        let mut r = self.result(object, human, &self.style(), is_error, !is_error);
        // A success result of a tool with an output schema must carry structured
        // content that fits it (clients check): when the schema rules the error
        // object out, only an error result is valid.
        if !is_error && self.schema.is_some() && r.structured.is_none() {
            r.is_error = true;
        }
        if is_error && self.options.tool_failure {
            let mut meta = Obj::new();
            meta.set(crate::parse::TOOL_FAILURE, self.tool_failure());
            r.meta = Some(J::Obj(meta));
        }
        r
    }

    /// SEP-3313's failure object. The class follows the category: the
    /// caller's input or the tool's abilities are `capability`, auth and a
    /// spent quota `governance`, everything else `reliability`, the only
    /// class that says whether to retry.
    fn tool_failure(&self) -> Obj<'_> {
        use crate::taxonomy::Category as C;
        let e = self.error;
        let class = match (e.category, e.code) {
            (_, Code::Unimplemented) | (C::Client, _) => "capability",
            (C::Auth, _) | (_, Code::QuotaExhausted) => "governance",
            _ => "reliability",
        };
        let mut f = Obj::new();
        f.set(key!("class"), class);
        f.set(key!("code"), e.code.name());
        if class == "reliability" {
            f.set(key!("retryable"), e.retryable);
            if let (true, Some(ms), Some(now)) = (e.retryable, e.retry_after_ms, self.now_ms) {
                let at = now.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
                f.set(key!("retryNotBefore"), at);
            }
        }
        if let Some(id) = &self.options.error_id {
            f.set(key!("correlationId"), id);
        }
        f
    }

    /// Seed 000's elicitation: missing or ambiguous input, not a failure.
    fn needs_input(&self) -> ToolResult<'_> {
        let mut m = Obj::new();
        m.set(key!("kind"), "needsInput:v1");
        m.set(key!("message"), &self.message);
        if let Some(d) = self.details() {
            m.set(key!("details"), J::Map(d));
        }
        if !self.error.suggestions.is_empty() {
            m.set(key!("suggestions"), J::Strs(&self.error.suggestions));
        }
        self.add_extra(&mut m);
        let style = Style {
            text_mime: Some("text/markdown"),
            pretty: true,
            json_mime: Some("application/json"),
            structured: true,
        };
        self.result(m, Cow::Borrowed(&self.message), &style, false, false)
    }

    /// A JSON-RPC error object: for unknown tools and malformed requests only.
    fn protocol_error(&self) -> Obj<'_> {
        let e = self.error;
        let mut code = match self.profile() {
            Profile::RpcEnvelope => self.rpc_envelope_type_and_code().1,
            _ => e.code.info().jsonrpc_code,
        };
        // 2026-07-28 reserves -32020…-32099 for the protocol's own errors.
        if self.options.spec == SpecRevision::V20260728 && (-32099..=-32020).contains(&code) {
            code = -32603;
        }
        let message = strip_mcp_prefixes(&self.message);
        let message = if message.trim().is_empty() {
            e.code.info().doc
        } else {
            message
        };
        let data = match self.profile() {
            Profile::Canonical => {
                let mut data = Obj::new();
                data.set(key!("code"), e.code.name());
                data.set(key!("retryable"), e.retryable);
                if let Some(ms) = e.retry_after_ms {
                    data.set(key!("retry_after_ms"), J::UInt(ms));
                }
                if let Some(d) = self.details() {
                    data.set(key!("details"), J::Map(d));
                }
                if let Some(id) = &self.options.error_id {
                    data.set(key!("error_id"), id);
                }
                Some(J::Obj(data))
            }
            // Seed 002: McpError(code, message, data) with the author's data.
            Profile::Text => self.details().map(J::Map),
            _ => Some(J::Obj(self.object())),
        };
        let mut m = Obj::new();
        m.set(key!("code"), i64::from(code));
        m.set(key!("message"), message);
        if let Some(d) = data {
            m.set(key!("data"), d);
        }
        m
    }

    fn log_record(&self) -> Obj<'_> {
        let e = self.error;
        let mut m = Obj::new();
        if let Some(ts) = self.timestamp() {
            m.set(key!("timestamp"), ts);
        }
        if self.profile() == Profile::RpcEnvelope {
            // Seed 004's log entry, without a stack trace.
            let (error_type, code) = self.rpc_envelope_type_and_code();
            m.set(key!("level"), "ERROR");
            m.set(key!("tool_name"), self.tool().unwrap_or("unknown"));
            m.set(key!("error_type"), error_type);
            m.set(key!("jsonrpc_error_code"), i64::from(code));
            m.set(key!("error_code"), self.app_or_canonical_code());
            m.set(key!("message"), &self.message);
            if let Some(d) = self.details() {
                m.set(key!("details"), J::Map(d));
            }
            if let Some(id) = &self.options.error_id {
                m.set(key!("error_id"), id);
            }
            return m;
        }
        m.set(key!("level"), "error");
        if let Some(id) = &self.options.error_id {
            m.set(key!("error_id"), id);
        }
        if let Some(t) = self.tool() {
            m.set(key!("tool"), t);
        }
        self.error.insert_classification(&mut m);
        m.set(key!("message"), &self.message);
        if let Some(c) = &e.app_code {
            m.set(key!("app_code"), c);
        }
        if self.profile() != Profile::Canonical {
            m.set(key!("profile"), self.profile().name());
            m.set(key!("rendered"), self.object());
        }
        m.set(key!("evidence"), J::Strs(&e.evidence));
        m
    }
}

/// Whether `schema` (a tool's `outputSchema`) surely accepts `value`. A
/// conservative subset of JSON Schema: anything it does not understand
/// (`$ref`, `anyOf`, `pattern`, …) counts as a rejection, so structured
/// content that might break the schema is never emitted.
pub fn schema_accepts(schema: &Value, value: &Value) -> bool {
    accepts(schema, value, 0)
}

fn accepts(schema: &Value, value: &Value, depth: usize) -> bool {
    const UNDERSTOOD: &str = lines![
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "description",
        "title",
        "default",
        "examples",
        "$schema",
        "$id",
        "$comment",
    ];
    if depth > 32 {
        return false;
    }
    let schema = match schema {
        Value::Bool(b) => return *b,
        Value::Object(s) => s,
        _ => return false,
    };
    if schema.keys().any(|k| !crate::text::has_line(UNDERSTOOD, k)) {
        return false;
    }
    if let Some(t) = schema.get("type") {
        let ok = match t {
            Value::String(t) => type_matches(t, value),
            Value::Array(ts) => ts
                .iter()
                .any(|t| t.as_str().is_some_and(|t| type_matches(t, value))),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    if let Some(c) = schema.get("const") {
        if c != value {
            return false;
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        if !options.contains(value) {
            return false;
        }
    }
    if let Value::Object(obj) = value {
        let props = match schema.get("properties") {
            Some(Value::Object(p)) => Some(p),
            Some(_) => return false,
            None => None,
        };
        if let Some(Value::Array(req)) = schema.get("required") {
            if !req
                .iter()
                .all(|r| r.as_str().is_some_and(|r| obj.contains_key(r)))
            {
                return false;
            }
        }
        for (k, v) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => {
                    if !accepts(s, v, depth + 1) {
                        return false;
                    }
                }
                None => match schema.get("additionalProperties") {
                    None | Some(Value::Bool(true)) => {}
                    Some(s) => {
                        if !accepts(s, v, depth + 1) {
                            return false;
                        }
                    }
                },
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items")) {
        if !items.iter().all(|i| accepts(s, i, depth + 1)) {
            return false;
        }
    }
    true
}

fn type_matches(t: &str, value: &Value) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => false,
    }
}
