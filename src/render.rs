//! Render a normalized error as what goes on the wire.
//!
//! The options carry everything the five seed profiles need (profile, format,
//! spec revision, target, tool name, time, error id, output schema). The
//! `canonical` profile is rendered for every target; the seed profiles are
//! rejected with a typed error until they land.

use serde_json::{json, Map, Value};

use crate::normalized::Normalized;
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
}

/// Render `error` as JSON text according to `options`.
pub fn render(error: &Normalized, options: &RenderOptions) -> Result<String, Error> {
    let timestamp = match &options.now {
        Some(t) => Some(crate::time::format_rfc3339_seconds(crate::parse_now(t)?)),
        None => None,
    };
    if let Some(schema) = &options.output_schema {
        let parsed = crate::parse_json(schema)
            .map_err(|e| Error::InvalidOption(format!("output_schema: {}", e.detail())))?;
        if !parsed.is_object() {
            return Err(Error::InvalidOption(
                "output_schema must be a JSON object".to_string(),
            ));
        }
    }
    if options.profile != Profile::Canonical {
        return Err(Error::InvalidOption(format!(
            "profile {:?} is not implemented yet; use \"canonical\"",
            options.profile.name()
        )));
    }
    let ctx = Ctx {
        error,
        options,
        timestamp,
    };
    let value = match options.target {
        Target::ToolResult => ctx.tool_result(true),
        Target::SoftResult => ctx.tool_result(false),
        Target::ProtocolError => ctx.protocol_error(),
        Target::LogRecord => ctx.log_record(),
        Target::NeedsInput => {
            return Err(Error::InvalidOption(
                "target \"needs-input\" is not implemented yet".to_string(),
            ))
        }
    };
    Ok(value.to_string())
}

struct Ctx<'a> {
    error: &'a Normalized,
    options: &'a RenderOptions,
    timestamp: Option<String>,
}

impl Ctx<'_> {
    fn tool(&self) -> Option<&str> {
        self.options
            .tool_name
            .as_deref()
            .or(self.error.tool.as_deref())
    }

    /// The canonical error object: the normalized error without its evidence
    /// and upstream original (those are for logs), plus the tool, id and time.
    fn canonical_object(&self) -> Value {
        let e = self.error;
        let mut m = Map::new();
        m.insert("code".into(), json!(e.code));
        m.insert("category".into(), json!(e.category));
        m.insert("retryable".into(), json!(e.retryable));
        if let Some(ms) = e.retry_after_ms {
            m.insert("retry_after_ms".into(), json!(ms));
        }
        if let Some(s) = e.http_status {
            m.insert("http_status".into(), json!(s));
        }
        m.insert("message".into(), json!(e.message));
        if let Some(t) = self.tool() {
            m.insert("tool".into(), json!(t));
        }
        if let Some(c) = &e.app_code {
            m.insert("app_code".into(), json!(c));
        }
        if let Some(t) = &e.app_type {
            m.insert("app_type".into(), json!(t));
        }
        if let Some(d) = &e.details {
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
        Value::Object(m)
    }

    /// The human-readable text block.
    fn text(&self) -> String {
        let e = self.error;
        let mut out = format!("Error: {}\nCode: {}", e.message, e.code.name());
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
        out
    }

    fn tool_result(&self, is_error: bool) -> Value {
        let object = self.canonical_object();
        let json_text = serde_json::to_string_pretty(&object).unwrap_or_default();
        let text_block = json!({"type": "text", "text": self.text()});
        let json_block = json!({"type": "text", "text": json_text, "mimeType": "application/json"});
        let content = match self.options.format {
            Format::Markdown => vec![text_block],
            Format::Json => vec![json_block],
            Format::Both => vec![text_block, json_block],
        };
        let mut m = Map::new();
        if self.options.spec == SpecRevision::V20260728 {
            m.insert("resultType".into(), json!("complete"));
        }
        m.insert("content".into(), Value::Array(content));
        // A tool that declares an outputSchema gets no structuredContent in an
        // error result: clients validate it against that schema and throw.
        if self.options.output_schema.is_none() {
            m.insert("structuredContent".into(), object);
        }
        m.insert("isError".into(), json!(is_error));
        Value::Object(m)
    }

    fn protocol_error(&self) -> Value {
        let e = self.error;
        let mut data = Map::new();
        data.insert("code".into(), json!(e.code));
        data.insert("retryable".into(), json!(e.retryable));
        if let Some(ms) = e.retry_after_ms {
            data.insert("retry_after_ms".into(), json!(ms));
        }
        if let Some(id) = &self.options.error_id {
            data.insert("error_id".into(), json!(id));
        }
        json!({
            "code": e.code.info().jsonrpc_code,
            "message": e.message,
            "data": Value::Object(data),
        })
    }

    fn log_record(&self) -> Value {
        let e = self.error;
        let mut m = Map::new();
        m.insert("level".into(), json!("error"));
        if let Some(ts) = &self.timestamp {
            m.insert("timestamp".into(), json!(ts));
        }
        if let Some(id) = &self.options.error_id {
            m.insert("error_id".into(), json!(id));
        }
        if let Some(t) = self.tool() {
            m.insert("tool".into(), json!(t));
        }
        m.insert("code".into(), json!(e.code));
        m.insert("category".into(), json!(e.category));
        m.insert("retryable".into(), json!(e.retryable));
        if let Some(s) = e.http_status {
            m.insert("http_status".into(), json!(s));
        }
        m.insert("message".into(), json!(e.message));
        m.insert("evidence".into(), json!(e.evidence));
        Value::Object(m)
    }
}
