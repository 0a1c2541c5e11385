//! The Rust host: a Rust error as the raw-error input, the [`ToolError`] a
//! tool returns for a failure the model should read, and a tool result that
//! never fails. Conversion only: what an error means is decided by
//! [`crate::classify_render`], as in every other host.

use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::{Code, RenderOptions};

/// How deep a chain of `source()`s is followed.
const MAX_CAUSES: usize = 16;

/// A deliberate failure of a tool: its message is safe to show the model and
/// is never masked. Carry your own canonical code, type, details, recovery
/// suggestions and retry verdict.
///
/// ```
/// use mcp_errors::host::ToolError;
/// use mcp_errors::Code;
///
/// let err = ToolError::new("No city named Atlantis")
///     .code(Code::NotFound)
///     .app_code("CITY_NOT_FOUND")
///     .suggestion("Check the spelling");
/// assert_eq!(err.to_string(), "No city named Atlantis");
/// ```
#[derive(Debug, Default)]
pub struct ToolError {
    message: String,
    code: Option<Code>,
    app_code: Option<String>,
    app_type: Option<String>,
    details: Map<String, Value>,
    suggestions: Vec<String>,
    retryable: Option<bool>,
    retry_after_ms: Option<u64>,
    source: Option<Box<dyn StdError + Send + Sync + 'static>>,
}

impl ToolError {
    /// A deliberate failure with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            ..ToolError::default()
        }
    }

    /// The canonical code, when the author knows it (it beats every inference).
    pub fn code(mut self, code: Code) -> Self {
        self.code = Some(code);
        self
    }

    /// The author's own code (`CITY_NOT_FOUND`), kept beside the canonical one.
    pub fn app_code(mut self, code: impl Into<String>) -> Self {
        self.app_code = Some(code.into());
        self
    }

    /// The author's own error type.
    pub fn app_type(mut self, kind: impl Into<String>) -> Self {
        self.app_type = Some(kind.into());
        self
    }

    /// One member of the details (redacted and bounded like everything else).
    pub fn detail(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.details.insert(key.into(), value.into());
        self
    }

    /// A recovery suggestion for the model.
    pub fn suggestion(mut self, text: impl Into<String>) -> Self {
        self.suggestions.push(text.into());
        self
    }

    /// Whether calling again may succeed, when the author knows it.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// How long to wait before calling again, when the author knows it.
    pub fn retry_after(mut self, wait: Duration) -> Self {
        self.retry_after_ms = Some(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX));
        self
    }

    /// The error that caused this one (its message and chain go to the log
    /// record and may refine the verdict).
    pub fn source(mut self, cause: impl StdError + Send + Sync + 'static) -> Self {
        self.source = Some(Box::new(cause));
        self
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl StdError for ToolError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn StdError + 'static))
    }
}

/// A Rust error as the raw-error input: its message, its `source()` chain as
/// `cause`s, a [`ToolError`]'s code and hints (and `expected`), an
/// `std::io::Error`'s kind as the system code it stands for and its OS errno.
pub fn raw_error(err: &(dyn StdError + 'static)) -> Value {
    raw(err, 0)
}

fn raw(err: &(dyn StdError + 'static), depth: usize) -> Value {
    let mut m = Map::new();
    m.insert("message".into(), json!(err.to_string()));
    if let Some(t) = err.downcast_ref::<ToolError>() {
        m.insert("name".into(), json!("ToolError"));
        if let Some(c) = t.code {
            m.insert("code".into(), json!(c.name()));
        }
        let hints = [
            ("app_code", t.app_code.as_ref().map(|s| json!(s))),
            ("app_type", t.app_type.as_ref().map(|s| json!(s))),
            (
                "details",
                (!t.details.is_empty()).then(|| Value::Object(t.details.clone())),
            ),
            (
                "suggestions",
                (!t.suggestions.is_empty()).then(|| json!(t.suggestions)),
            ),
            ("retryable", t.retryable.map(Value::Bool)),
            ("retry_after_ms", t.retry_after_ms.map(|ms| json!(ms))),
        ];
        for (k, v) in hints {
            if let Some(v) = v {
                m.insert(k.into(), v);
            }
        }
        m.insert("expected".into(), Value::Bool(true));
    } else if let Some(io) = err.downcast_ref::<std::io::Error>() {
        m.insert("name".into(), json!("std::io::Error"));
        if let Some(code) = io_code(io.kind()) {
            m.insert("code".into(), json!(code));
        }
        if let Some(n) = io.raw_os_error() {
            m.insert("errno".into(), json!(n));
        }
    }
    if depth < MAX_CAUSES {
        if let Some(cause) = err.source() {
            m.insert("cause".into(), raw(cause, depth + 1));
        }
    }
    Value::Object(m)
}

/// The system code an `io::ErrorKind` stands for (std's `decode_error_kind`
/// on Unix, read backwards).
fn io_code(kind: std::io::ErrorKind) -> Option<&'static str> {
    use std::io::ErrorKind as K;
    Some(match kind {
        K::NotFound => "ENOENT",
        K::PermissionDenied => "EACCES",
        K::ConnectionRefused => "ECONNREFUSED",
        K::ConnectionReset => "ECONNRESET",
        K::ConnectionAborted => "ECONNABORTED",
        K::HostUnreachable => "EHOSTUNREACH",
        K::NetworkUnreachable => "ENETUNREACH",
        K::NetworkDown => "ENETDOWN",
        K::BrokenPipe => "EPIPE",
        K::AlreadyExists => "EEXIST",
        K::WouldBlock => "EAGAIN",
        K::InvalidInput => "EINVAL",
        K::TimedOut => "ETIMEDOUT",
        K::StorageFull => "ENOSPC",
        K::ReadOnlyFilesystem => "EROFS",
        K::DirectoryNotEmpty => "ENOTEMPTY",
        K::ResourceBusy => "EBUSY",
        K::FileTooLarge => "EFBIG",
        K::ArgumentListTooLong => "E2BIG",
        K::InvalidFilename => "ENAMETOOLONG",
        _ => return None,
    })
}

/// Any error → a ready `CallToolResult` as JSON, rendered with `options`.
/// Never fails: when the error cannot be normalized, a minimal valid error
/// result says so. Unexpected errors are masked unless the options say
/// otherwise ([`ToolError`]s never are); `now` defaults to the clock.
pub fn tool_result(err: &(dyn StdError + 'static), options: &RenderOptions) -> Value {
    let mut options = options.clone();
    options.now.get_or_insert_with(now);
    let raw = raw_error(err).to_string();
    crate::classify_render(&raw, &options)
        .map_err(|e| e.to_string())
        .and_then(|out| serde_json::from_str(&out).map_err(|e| e.to_string()))
        .unwrap_or_else(|why| fallback_result(&why, &options))
}

/// The minimal valid error result used when the error itself could not be
/// normalized.
pub fn fallback_result(why: &str, options: &RenderOptions) -> Value {
    let text =
        format!("Error: the tool failed, and mcp-errors could not normalize the error ({why}).");
    let mut m = Map::new();
    if options.spec == crate::SpecRevision::V20260728 {
        m.insert("resultType".into(), json!("complete"));
    }
    m.insert("content".into(), json!([{"type": "text", "text": text}]));
    m.insert("isError".into(), Value::Bool(true));
    Value::Object(m)
}

/// The current time, RFC 3339 (the component is clock-free: hosts pass it).
pub fn now() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    crate::time::format_rfc3339_seconds(ms)
}

/// A new error id: 8 hex characters, for correlating a result with the log.
pub fn new_error_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // FNV-1a over the time, the counter and the process id: distinct ids,
    // no dependency for randomness.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in nanos
        .to_le_bytes()
        .into_iter()
        .chain(n.to_le_bytes())
        .chain(std::process::id().to_le_bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_error_carries_its_code_and_hints_and_is_shown() {
        let err = ToolError::new("No city named Atlantis")
            .code(Code::NotFound)
            .app_code("CITY_NOT_FOUND")
            .detail("city", "Atlantis")
            .suggestion("Check the spelling")
            .retryable(false);
        let raw = raw_error(&err);
        assert_eq!(raw["code"], "NOT_FOUND");
        assert_eq!(raw["expected"], true);
        let n = crate::classify_str(&raw.to_string(), &Default::default()).unwrap();
        assert_eq!(n.code, Code::NotFound);
        assert_eq!(n.app_code.as_deref(), Some("CITY_NOT_FOUND"));
        let r = tool_result(
            &err,
            &RenderOptions {
                mask: true,
                ..RenderOptions::default()
            },
        );
        assert_eq!(r["structuredContent"]["message"], "No city named Atlantis");
    }

    #[test]
    fn an_io_error_is_its_system_code_and_a_chain_is_followed() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connect failed");
        let err = ToolError::new("forecast upstream").source(io);
        let raw = raw_error(&err);
        assert_eq!(raw["cause"]["code"], "ECONNREFUSED");
        let plain = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let n = crate::classify_str(&raw_error(&plain).to_string(), &Default::default()).unwrap();
        assert_eq!(n.code, Code::NetworkError);
        // Unexpected, so masked by the caller's choice; the sentence says what happened.
        let r = tool_result(
            &plain,
            &RenderOptions {
                mask: true,
                error_id: Some("e1".into()),
                ..RenderOptions::default()
            },
        );
        assert_eq!(
            r["structuredContent"]["message"],
            "The tool could not reach a service it needs (error id e1)."
        );
    }

    #[test]
    fn error_ids_differ_and_the_clock_is_rfc3339() {
        assert_ne!(new_error_id(), new_error_id());
        assert_eq!(new_error_id().len(), 8);
        assert!(crate::time::parse_rfc3339(&now()).is_some());
    }

    #[test]
    fn a_bad_option_gives_the_minimal_result() {
        let r = tool_result(
            &ToolError::new("x"),
            &RenderOptions {
                profile: crate::Profile::RpcEnvelope,
                output_schema: Some("not json".into()),
                ..RenderOptions::default()
            },
        );
        assert_eq!(r["isError"], true);
        assert!(r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("could not normalize"));
    }
}
