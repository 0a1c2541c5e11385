//! Render a normalized error as what goes on the wire.
//!
//! A *profile* picks the error's shape (the project's `canonical` superset or
//! one of the five seed contracts), a *format* picks the content blocks of a
//! tool result, a *spec revision* the MCP schema to satisfy, and a *target*
//! what to produce: a tool result, a soft (successful) result, a JSON-RPC
//! protocol error, a `needsInput:v1` elicitation or a log record.

use serde_json::{json, Map, Value};

use crate::normalized::Normalized;
use crate::taxonomy::{rpc_envelope_code, Code};
use crate::Error;

macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident $label:literal { $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )* } default $default:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
                        concat!("unknown ", $label, " {:?}; expected one of: {}"),
                        s,
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
    /// the code's documentation line instead of the message, and no details
    /// or upstream original. Log records are never masked.
    pub mask: bool,
    /// Bounds on the message, details, original and the whole output.
    pub limits: crate::Limits,
}

impl RenderOptions {
    /// Parse options given as a JSON object with the fields in snake_case
    /// (`{"profile":"tool-error-v1","format":"both","now":"…","mask":true}`);
    /// `output_schema` and `extra_fields` may be objects or JSON text. For
    /// hosts whose bindings pay per typed field; unknown keys are an error.
    pub fn from_json(text: &str) -> Result<RenderOptions, Error> {
        let value = crate::parse_json(text)
            .map_err(|e| Error::InvalidOption(format!("render options: {}", e.detail())))?;
        let Value::Object(map) = value else {
            return Err(Error::InvalidOption(
                "render options must be a JSON object".into(),
            ));
        };
        let mut o = RenderOptions::default();
        for (key, v) in &map {
            if v.is_null() {
                continue;
            }
            let text = || match v {
                Value::String(s) => Ok(s.clone()),
                _ => Err(Error::InvalidOption(format!(
                    "render option {key:?} must be a string"
                ))),
            };
            let json_text = || match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            match key.as_str() {
                "profile" => o.profile = Profile::from_name(&text()?)?,
                "format" => o.format = Format::from_name(&text()?)?,
                "spec" => o.spec = SpecRevision::from_name(&text()?)?,
                "target" => o.target = Target::from_name(&text()?)?,
                "tool_name" => o.tool_name = Some(text()?),
                "now" => o.now = Some(text()?),
                "error_id" => o.error_id = Some(text()?),
                "output_schema" => o.output_schema = Some(json_text()),
                "extra_fields" => o.extra_fields = Some(json_text()),
                "limits" => o.limits = crate::Limits::from_json_value(v)?,
                "mask" => {
                    o.mask = v.as_bool().ok_or_else(|| {
                        Error::InvalidOption("render option \"mask\" must be a boolean".into())
                    })?
                }
                other => {
                    return Err(Error::InvalidOption(format!(
                        "unknown render option {other:?}"
                    )))
                }
            }
        }
        Ok(o)
    }
}

/// Render `error` as JSON text according to `options`.
pub fn render(error: &Normalized, options: &RenderOptions) -> Result<String, Error> {
    render_owned(error.clone(), options, &options.limits.checked()?)
}

/// [`render`] taking the error by value (no copy), with `options.limits`
/// already checked by the caller.
pub(crate) fn render_owned(
    error: Normalized,
    options: &RenderOptions,
    limits: &crate::Limits,
) -> Result<String, Error> {
    // Whatever the host passed in is redacted and bounded again; model-facing
    // output also loses local file paths.
    let for_model = options.target != Target::LogRecord;
    let mut sanitized = error.sanitized_with(for_model, limits);
    if options.mask && !sanitized.expected && for_model {
        sanitized.message = sanitized.code.info().doc.to_string();
        sanitized.details = None;
        sanitized.original = None;
    }
    let out = render_sanitized(&sanitized, options)?;
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
    sanitized.details = Some(note);
    sanitized.original = None;
    render_sanitized(&sanitized, options)
}

fn render_sanitized(error: &Normalized, options: &RenderOptions) -> Result<String, Error> {
    let timestamp = match &options.now {
        Some(t) => Some(crate::time::format_rfc3339_seconds(crate::parse_now(t)?)),
        None => None,
    };
    if options.profile == Profile::RpcEnvelope
        && options.target != Target::NeedsInput
        && timestamp.is_none()
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
        timestamp,
        schema,
        extra,
        message: clean_message(&error.message, error.code),
    };
    let value = match options.target {
        Target::ToolResult => ctx.tool_result(true),
        Target::SoftResult => ctx.tool_result(false),
        Target::ProtocolError => ctx.protocol_error(),
        Target::NeedsInput => ctx.needs_input(),
        Target::LogRecord => ctx.log_record(),
    };
    Ok(value.to_string())
}

/// The JSON Schema (draft-07) of a profile's error object, as the seeds export
/// theirs (seed 001 via zod-to-json-schema). `canonical` describes the canonical object.
pub fn schema(profile: Profile) -> String {
    let codes: Vec<&str> = crate::TABLE.iter().map(|i| i.name).collect();
    let value = match profile {
        Profile::Canonical => json!({
            "type": "object",
            "properties": {
                "code": {"type": "string", "enum": codes},
                "category": {"type": "string", "enum": ["cancelled", "client", "auth", "limit", "transient", "server", "unknown"]},
                "retryable": {"type": "boolean"},
                "retry_after_ms": {"type": "integer", "minimum": 0},
                "http_status": {"type": "integer"},
                "message": {"type": "string", "minLength": 1},
                "tool": {"type": "string"},
                "app_code": {"type": "string"},
                "app_type": {"type": "string"},
                "details": {"type": "object"},
                "suggestions": {"type": "array", "items": {"type": "string"}},
                "error_id": {"type": "string"},
                "timestamp": {"type": "string"}
            },
            "required": ["code", "category", "retryable", "message"],
        }),
        Profile::ToolErrorV1 => json!({
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "toolError:v1"},
                "code": {"type": "string", "enum": TOOL_ERROR_V1_CODES},
                "message": {"type": "string"},
                "retryable": {"type": "boolean"},
                "details": {"type": "object", "additionalProperties": {}}
            },
            "required": ["kind", "code", "message"],
        }),
        Profile::McpToolError => json!({
            "type": "object",
            "properties": {
                "code": {"type": "string", "enum": MCP_TOOL_ERROR_CODES},
                "message": {"type": "string", "minLength": 1},
                "retriable": {"type": "boolean", "default": false},
                "original": {}
            },
            "required": ["code", "message"],
            "additionalProperties": false,
        }),
        Profile::Text => json!({
            "type": "object",
            "properties": {
                "error": {"type": "string"},
                "code": {"type": "string"},
                "details": {},
                "suggestions": {"type": "array", "items": {"type": "string"}},
                "retryable": {"type": "boolean"}
            },
            "required": ["error"],
        }),
        Profile::ErrorObject => json!({
            "type": "object",
            "properties": {
                "error": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string"},
                        "message": {"type": "string"},
                        "details": {"type": "string"},
                        "cluster": {"type": "string"},
                        "tool": {"type": "string"}
                    },
                    "required": ["type", "message"]
                }
            },
            "required": ["error"],
        }),
        Profile::RpcEnvelope => json!({
            "type": "object",
            "properties": {
                "success": {"type": "boolean", "const": false},
                "error_type": {"type": "string"},
                "jsonrpc_error_code": {"type": "integer", "maximum": -32000, "minimum": -32768},
                "error_code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
                "message": {"type": "string"},
                "details": {"type": "object"},
                "suggestions": {"type": "array", "items": {"type": "string"}},
                "tool_name": {"type": "string"},
                "timestamp": {"type": "string"}
            },
            "required": ["success", "error_type", "jsonrpc_error_code", "error_code", "message", "tool_name", "timestamp"],
        }),
    };
    let mut m = match value {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    m.insert(
        "$schema".into(),
        json!("http://json-schema.org/draft-07/schema#"),
    );
    Value::Object(m).to_string()
}

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
fn clean_message(message: &str, code: Code) -> String {
    let mut m = message.trim();
    while let Some(prefix) = wrapper_prefix(m) {
        let rest = m[prefix.len()..].trim_start();
        if !rest.starts_with(prefix.trim_end()) {
            break;
        }
        m = rest;
    }
    if m.is_empty() {
        code.info().doc.to_string()
    } else {
        m.to_string()
    }
}

/// The wrapper prefix a message starts with (`MCP error -32602: `,
/// `Error executing tool x: `), including its trailing space.
fn wrapper_prefix(m: &str) -> Option<&str> {
    for start in ["MCP error ", "Error executing tool "] {
        if let Some(rest) = m.strip_prefix(start) {
            let end = rest.find(": ")?;
            return Some(&m[..start.len() + end + 2]);
        }
    }
    None
}

/// Every `MCP error -N: ` prefix removed: a client adds its own to protocol errors.
fn strip_mcp_prefixes(m: &str) -> &str {
    let mut m = m;
    while let Some(rest) = m.strip_prefix("MCP error ") {
        match rest.split_once(": ") {
            Some((n, tail)) if n.parse::<i64>().is_ok() => m = tail,
            _ => break,
        }
    }
    m
}

struct Ctx<'a> {
    error: &'a Normalized,
    options: &'a RenderOptions,
    timestamp: Option<String>,
    schema: Option<Value>,
    extra: Map<String, Value>,
    message: String,
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

impl Ctx<'_> {
    fn profile(&self) -> Profile {
        self.options.profile
    }

    fn tool(&self) -> Option<&str> {
        self.options
            .tool_name
            .as_deref()
            .or(self.error.tool.as_deref())
    }

    fn codes(&self) -> &'static crate::taxonomy::ProfileCodes {
        &self.error.code.info().profiles
    }

    fn details(&self) -> Option<&Map<String, Value>> {
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

    fn rpc_envelope_type_and_code(&self) -> (String, i32) {
        let table_type = self.codes().rpc_envelope;
        let error_type = self
            .error
            .app_type
            .clone()
            .unwrap_or_else(|| table_type.to_string());
        let code = rpc_envelope_code(&error_type)
            .or_else(|| rpc_envelope_code(table_type))
            .unwrap_or(-32603);
        (error_type, code)
    }

    /// The profile's error object, with the host's extra fields at its top level.
    fn object(&self) -> Value {
        let e = self.error;
        let mut m = Map::new();
        match self.profile() {
            Profile::Canonical => {
                self.insert_classification(&mut m);
                m.insert("message".into(), json!(self.message));
                if let Some(t) = self.tool() {
                    m.insert("tool".into(), json!(t));
                }
                if let Some(c) = &e.app_code {
                    m.insert("app_code".into(), json!(c));
                }
                if let Some(t) = &e.app_type {
                    m.insert("app_type".into(), json!(t));
                }
                if let Some(d) = self.details() {
                    m.insert("details".into(), Value::Object(d.clone()));
                }
                if !e.suggestions.is_empty() {
                    m.insert("suggestions".into(), json!(e.suggestions));
                }
                if let Some(id) = &self.options.error_id {
                    m.insert("error_id".into(), json!(id));
                }
                if let Some(ts) = &self.timestamp {
                    m.insert("timestamp".into(), json!(ts));
                }
            }
            Profile::ToolErrorV1 => {
                m.insert("kind".into(), json!("toolError:v1"));
                m.insert("code".into(), json!(self.codes().tool_error_v1));
                m.insert("message".into(), json!(self.message));
                m.insert("retryable".into(), json!(e.retryable));
                let mut details = Map::new();
                if let Some(s) = e.http_status {
                    details.insert("statusCode".into(), json!(s));
                }
                if let Some(d) = self.details() {
                    for (k, v) in d {
                        details.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                if !details.is_empty() {
                    m.insert("details".into(), Value::Object(details));
                }
            }
            Profile::McpToolError => {
                m.insert("code".into(), json!(self.codes().mcp_tool_error));
                m.insert("message".into(), json!(self.message));
                m.insert("retriable".into(), json!(e.retryable));
                if let Some(o) = &e.original {
                    m.insert("original".into(), o.clone());
                }
            }
            Profile::Text => {
                m.insert("error".into(), json!(self.text_error_line()));
                m.insert("code".into(), json!(self.app_or_canonical_code()));
                if let Some(d) = self.details() {
                    m.insert("details".into(), Value::Object(d.clone()));
                }
                if !e.suggestions.is_empty() {
                    m.insert("suggestions".into(), json!(e.suggestions));
                }
                m.insert("retryable".into(), json!(e.retryable));
            }
            Profile::ErrorObject => {
                let mut inner = Map::new();
                let error_type = e
                    .app_type
                    .clone()
                    .unwrap_or_else(|| self.codes().error_object.to_string());
                inner.insert("type".into(), json!(error_type));
                inner.insert("message".into(), json!(self.message));
                let details = self.details();
                let text = |key: &str| {
                    details
                        .and_then(|d| d.get(key))
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                if let Some(d) = text("value") {
                    inner.insert("details".into(), json!(d));
                }
                if let Some(c) = text("cluster") {
                    inner.insert("cluster".into(), json!(c));
                }
                if let Some(t) = self.tool() {
                    inner.insert("tool".into(), json!(t));
                }
                for (k, v) in details.into_iter().flatten() {
                    if !inner.contains_key(k) && k != "value" {
                        inner.insert(k.clone(), v.clone());
                    }
                }
                m.insert("error".into(), Value::Object(inner));
            }
            Profile::RpcEnvelope => {
                let (error_type, code) = self.rpc_envelope_type_and_code();
                m.insert("success".into(), json!(false));
                m.insert("error_type".into(), json!(error_type));
                m.insert("jsonrpc_error_code".into(), json!(code));
                m.insert("error_code".into(), json!(self.app_or_canonical_code()));
                m.insert("message".into(), json!(self.message));
                if let Some(d) = self.details() {
                    m.insert("details".into(), Value::Object(d.clone()));
                }
                if !e.suggestions.is_empty() {
                    m.insert("suggestions".into(), json!(e.suggestions));
                }
                m.insert("tool_name".into(), json!(self.tool().unwrap_or("unknown")));
                if let Some(ts) = &self.timestamp {
                    m.insert("timestamp".into(), json!(ts));
                }
            }
        }
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }

    /// `code`, `category`, `retryable`, `retry_after_ms`?, `http_status`?.
    fn insert_classification(&self, m: &mut Map<String, Value>) {
        let e = self.error;
        m.insert("code".into(), json!(e.code));
        m.insert("category".into(), json!(e.category));
        m.insert("retryable".into(), json!(e.retryable));
        if let Some(ms) = e.retry_after_ms {
            m.insert("retry_after_ms".into(), json!(ms));
        }
        if let Some(s) = e.http_status {
            m.insert("http_status".into(), json!(s));
        }
    }

    fn app_or_canonical_code(&self) -> String {
        self.error
            .app_code
            .clone()
            .unwrap_or_else(|| self.error.code.name().to_string())
    }

    /// The message without a leading `Error: ` (the text profile adds its own).
    fn text_error_line(&self) -> String {
        let m = self
            .message
            .strip_prefix("Error: ")
            .unwrap_or(&self.message);
        m.to_string()
    }

    /// The human-readable text block.
    fn human_text(&self, object: &Value) -> String {
        let e = self.error;
        match self.profile() {
            Profile::ToolErrorV1 | Profile::ErrorObject => self.message.clone(),
            // Seed 002's createToolError: one line per present field.
            Profile::Text => {
                let mut lines = vec![format!("Error: {}", self.text_error_line())];
                lines.push(format!("Code: {}", self.app_or_canonical_code()));
                if let Some(d) = self.details() {
                    lines.push(format!("Details: {}", Value::Object(d.clone())));
                }
                if !e.suggestions.is_empty() {
                    lines.push(format!("Suggestions: {}", e.suggestions.join(", ")));
                }
                lines.push(format!("Retryable: {}", e.retryable));
                lines.join("\n")
            }
            // The structured error mirrored as text, for clients that drop structuredContent.
            Profile::Canonical | Profile::McpToolError | Profile::RpcEnvelope => {
                let code = match self.profile() {
                    Profile::McpToolError => {
                        object["code"].as_str().unwrap_or_default().to_string()
                    }
                    Profile::RpcEnvelope => self.app_or_canonical_code(),
                    _ => e.code.name().to_string(),
                };
                let mut out = format!("Error: {}\nCode: {code}", self.message);
                if let Some(t) = self.tool() {
                    out.push_str(&format!("\nTool: {t}"));
                }
                if !e.suggestions.is_empty() {
                    out.push_str("\nSuggestions:");
                    for s in &e.suggestions {
                        out.push_str(&format!("\n- {s}"));
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
                    out.push_str(&format!("\nError ID: {id}"));
                }
                out
            }
        }
    }

    fn text_block(text: String, mime: Option<&str>) -> Value {
        let mut b = Map::new();
        b.insert("type".into(), json!("text"));
        b.insert("text".into(), json!(text));
        if let Some(m) = mime {
            b.insert("mimeType".into(), json!(m));
        }
        Value::Object(b)
    }

    fn json_text(&self, object: &Value, style: &Style) -> String {
        if style.pretty {
            serde_json::to_string_pretty(object).unwrap_or_default()
        } else {
            object.to_string()
        }
    }

    /// A `CallToolResult` carrying `object`, gated by the format. With
    /// `json_first`, the default format gives the JSON block alone.
    fn result(
        &self,
        object: Value,
        human: String,
        style: &Style,
        is_error: bool,
        json_first: bool,
    ) -> Value {
        let human_block = Self::text_block(human, style.text_mime);
        let json_block = Self::text_block(self.json_text(&object, style), style.json_mime);
        let structured = style.structured
            && match &self.schema {
                None => true,
                Some(schema) => schema_accepts(schema, &object),
            };
        let mut content = match (self.options.format, json_first) {
            (Format::Markdown, false) => vec![human_block],
            (Format::Markdown, true) | (Format::Json, _) => vec![json_block.clone()],
            (Format::Both, _) => vec![human_block, json_block.clone()],
        };
        // The tool's outputSchema rules structuredContent out: keep the
        // structured error in the content instead, so it still reaches the model.
        if style.structured && !structured && !content.contains(&json_block) {
            content.push(json_block);
        }
        let mut m = Map::new();
        if self.options.spec == SpecRevision::V20260728 {
            m.insert("resultType".into(), json!("complete"));
        }
        m.insert("content".into(), Value::Array(content));
        if structured {
            m.insert("structuredContent".into(), object);
        }
        m.insert("isError".into(), json!(is_error));
        Value::Object(m)
    }

    fn tool_result(&self, is_error: bool) -> Value {
        let object = self.object();
        let human = self.human_text(&object);
        // A soft result is data: with the default format it is the JSON alone.
        self.result(object, human, &self.style(), is_error, !is_error)
    }

    /// Seed 000's elicitation: missing or ambiguous input, not a failure.
    fn needs_input(&self) -> Value {
        let mut m = Map::new();
        m.insert("kind".into(), json!("needsInput:v1"));
        m.insert("message".into(), json!(self.message));
        if let Some(d) = self.details() {
            m.insert("details".into(), Value::Object(d.clone()));
        }
        if !self.error.suggestions.is_empty() {
            m.insert("suggestions".into(), json!(self.error.suggestions));
        }
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        let style = Style {
            text_mime: Some("text/markdown"),
            pretty: true,
            json_mime: Some("application/json"),
            structured: true,
        };
        self.result(Value::Object(m), self.message.clone(), &style, false, false)
    }

    /// A JSON-RPC error object: for unknown tools and malformed requests only.
    fn protocol_error(&self) -> Value {
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
                let mut data = Map::new();
                data.insert("code".into(), json!(e.code));
                data.insert("retryable".into(), json!(e.retryable));
                if let Some(ms) = e.retry_after_ms {
                    data.insert("retry_after_ms".into(), json!(ms));
                }
                if let Some(d) = self.details() {
                    data.insert("details".into(), Value::Object(d.clone()));
                }
                if let Some(id) = &self.options.error_id {
                    data.insert("error_id".into(), json!(id));
                }
                Some(Value::Object(data))
            }
            // Seed 002: McpError(code, message, data) with the author's data.
            Profile::Text => self.details().map(|d| Value::Object(d.clone())),
            _ => Some(self.object()),
        };
        let mut m = Map::new();
        m.insert("code".into(), json!(code));
        m.insert("message".into(), json!(message));
        if let Some(d) = data {
            m.insert("data".into(), d);
        }
        Value::Object(m)
    }

    fn log_record(&self) -> Value {
        let e = self.error;
        let mut m = Map::new();
        if let Some(ts) = &self.timestamp {
            m.insert("timestamp".into(), json!(ts));
        }
        if self.profile() == Profile::RpcEnvelope {
            // Seed 004's log entry, without a stack trace.
            let (error_type, code) = self.rpc_envelope_type_and_code();
            m.insert("level".into(), json!("ERROR"));
            m.insert("tool_name".into(), json!(self.tool().unwrap_or("unknown")));
            m.insert("error_type".into(), json!(error_type));
            m.insert("jsonrpc_error_code".into(), json!(code));
            m.insert("error_code".into(), json!(self.app_or_canonical_code()));
            m.insert("message".into(), json!(self.message));
            if let Some(d) = self.details() {
                m.insert("details".into(), Value::Object(d.clone()));
            }
            if let Some(id) = &self.options.error_id {
                m.insert("error_id".into(), json!(id));
            }
            return Value::Object(m);
        }
        m.insert("level".into(), json!("error"));
        if let Some(id) = &self.options.error_id {
            m.insert("error_id".into(), json!(id));
        }
        if let Some(t) = self.tool() {
            m.insert("tool".into(), json!(t));
        }
        self.insert_classification(&mut m);
        m.insert("message".into(), json!(self.message));
        if let Some(c) = &e.app_code {
            m.insert("app_code".into(), json!(c));
        }
        if self.profile() != Profile::Canonical {
            m.insert("profile".into(), json!(self.profile().name()));
            m.insert("rendered".into(), self.object());
        }
        m.insert("evidence".into(), json!(e.evidence));
        Value::Object(m)
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
    const UNDERSTOOD: &[&str] = &[
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
    if schema.keys().any(|k| !UNDERSTOOD.contains(&k.as_str())) {
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
