//! # mcp-errors
//!
//! Turn any failure inside an MCP tool into one canonical error ([`classify_str`])
//! and render it as the exact result shape an MCP client expects ([`render()`]).
//!
//! This crate is the pure core: no I/O, no clock, no wasm code. The same code
//! runs natively, inside the WebAssembly component (`bindings/component`), and
//! therefore in every host of that component.
//!
//! ```
//! use mcp_errors::{classify_str, ClassifyOptions, Code};
//! let n = classify_str(r#"{"status": 429, "headers": {"Retry-After": "30"}}"#,
//!                      &ClassifyOptions::default()).unwrap();
//! assert_eq!(n.code, Code::RateLimited);
//! assert!(n.retryable);
//! assert_eq!(n.retry_after_ms, Some(30_000));
//! ```

/// A list of short texts as one static text, a line each (`lines!["a", "b"]`
/// is `"a\nb\n"`), read with `split_terminator('\n')` or `text::has_line`: a
/// table of string slices costs the component a pointer and a length per
/// entry, which compress worse than the texts (BENCHMARKS.md, component
/// size). A list read on every call stays a slice (the known input fields) or
/// is split once (the status leads): splitting costs time.
macro_rules! lines {
    ($($s:literal),* $(,)?) => {
        concat!($($s, "\n"),*)
    };
}

mod classify;
pub mod cli;
pub mod contract;
mod error;
mod float;
mod gather;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
mod input;
mod json;
#[cfg(feature = "leave-out")]
pub mod leave_out;
#[cfg(not(feature = "leave-out"))]
mod leave_out;
mod lexicon;
mod normalized;
pub mod parse;
pub mod proxy;
pub mod redact;
pub mod render;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub mod rules;
mod signals;
mod sort;
pub mod taxonomy;
mod text;
pub mod time;

pub use classify::{classify_str, classify_value, ClassifyOptions, MAX_DEPTH, MAX_NODES};
pub use error::Error;
/// The crate's own parser and writer, for its property tests only
/// (`tests/properties.rs` turns the `internal-testing` feature on through a
/// dev-dependency on this crate); not in the published API.
#[cfg(feature = "internal-testing")]
pub use input::parse_to_serde as input_parse_to_serde;
#[cfg(feature = "internal-testing")]
pub use json::agrees_with_serde as json_writer_agrees_with_serde;
pub use normalized::Normalized;
pub use parse::{parse_result, parse_result_json};
pub use redact::Limits;
pub use render::{
    render, render_value, schema, Format, Profile, RenderOptions, SpecRevision, Target,
};
pub use rules::UserRules;
pub use taxonomy::{Category, Code, CodeInfo, TABLE};
#[cfg(feature = "internal-testing")]
pub use text::find_json_special;

/// The largest raw input accepted, in bytes (16 MiB).
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Parse JSON input with the library's limits, as a typed error on failure.
/// Accepts what `serde_json::from_str` accepts, with the same value and the
/// same error message.
pub fn parse_json(raw: &str) -> Result<serde_json::Value, Error> {
    parse_input(raw).map(|v| v.to_serde())
}

/// A JSON value's compact text: byte for byte `serde_json::to_string`, by the
/// crate's own writer (the component uses it to keep serde's serializer out).
pub fn json_text(value: &serde_json::Value) -> String {
    json::value_text(value)
}

/// [`parse_json`] into the borrowed tree the classifier reads.
pub(crate) fn parse_input(raw: &str) -> Result<input::Value<'_>, Error> {
    within_size(raw)?;
    input::parse(raw).map_err(|e| Error::InvalidJson(e.to_string()))
}

fn within_size(raw: &str) -> Result<(), Error> {
    if raw.len() > MAX_INPUT_BYTES {
        return Err(Error::InvalidInput(format!(
            "input is {} bytes; the limit is {MAX_INPUT_BYTES}",
            raw.len()
        )));
    }
    Ok(())
}

/// Classify a raw error and render it in one call.
pub fn classify_render(raw: &str, options: &RenderOptions) -> Result<String, Error> {
    // Only a log record shows the evidence.
    let (normalized, limits, now_ms) =
        classified(raw, options, options.target == Target::LogRecord)?;
    render::render_owned(normalized, options, &limits, now_ms)
}

/// The options' time and limits checked, and the raw error classified for
/// rendering with them. Rendering redacts and bounds the error itself, so the
/// classification is handed over unsanitized: the work is done once.
fn classified(
    raw: &str,
    options: &RenderOptions,
    evidence: bool,
) -> Result<(Normalized, Limits, Option<i64>), Error> {
    let now_ms = options.now_ms()?;
    let limits = options.limits.checked()?;
    let value = parse_input(raw)?;
    let classify = ClassifyOptions {
        now_ms,
        limits,
        rules: options.rules.clone(),
    };
    let normalized = classify::classify_unsanitized(value, &classify, evidence);
    Ok((normalized, limits, now_ms))
}

/// Classify a raw error once and render it twice from that one normalized
/// error: the server's log record (target `log-record`, never masked) and the
/// result `options` ask for. Each is byte for byte what [`classify_render`]
/// gives for its target; the wrappers use this so that a failure is
/// classified once.
pub fn classify_render_with_log(
    raw: &str,
    options: &RenderOptions,
) -> Result<(String, String), Error> {
    let (normalized, limits, now_ms) = classified(raw, options, true)?;
    let log_options = RenderOptions {
        target: Target::LogRecord,
        ..options.clone()
    };
    let log = render::render_owned(normalized.clone(), &log_options, &limits, now_ms)?;
    let result = render::render_owned(normalized, options, &limits, now_ms)?;
    Ok((log, result))
}

/// [`classify_render_with_log`] with options as JSON.
pub fn classify_render_with_log_json(raw: &str, options: &str) -> Result<(String, String), Error> {
    classify_render_with_log(raw, &RenderOptions::from_json(options)?)
}

/// Render a normalized error given as canonical JSON, with options as JSON
/// (see [`RenderOptions::from_json`]). The category always follows the code.
pub fn render_json(normalized: &str, options: &str) -> Result<String, Error> {
    let n = Normalized::from_input(&parse_input(normalized)?)
        .map_err(|e| Error::InvalidInput(format!("not a normalized error: {e}")))?;
    let options = RenderOptions::from_json(options)?;
    let limits = options.limits.checked()?;
    render::render_owned(n, &options, &limits, options.now_ms()?)
}

/// Classify a raw error and render it, with options as JSON.
pub fn classify_render_json(raw: &str, options: &str) -> Result<String, Error> {
    classify_render(raw, &RenderOptions::from_json(options)?)
}

/// Parse a host-supplied RFC 3339 time, as a typed option error on failure.
pub fn parse_now(t: &str) -> Result<i64, Error> {
    time::parse_rfc3339(t).ok_or_else(|| {
        Error::InvalidOption(format!(
            "`now` is not an RFC 3339 time: {}",
            json::quoted(t)
        ))
    })
}
