//! The WebAssembly component: wit-bindgen glue and type conversion only.
//! Every decision lives in the `mcp-errors` core crate.

#[cfg(target_arch = "wasm32")]
mod alloc;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: alloc::Classes = alloc::Classes::new();

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-errors",
});

use exports::mcp_errors::core::api::Guest;
use exports::mcp_errors::core::cli;
use exports::mcp_errors::core::proxy;
use exports::mcp_errors::core::types as wit;

struct Component;

export!(Component);

impl Guest for Component {
    fn classify(
        raw: String,
        options: wit::ClassifyOptions,
    ) -> Result<wit::NormalizedError, wit::Error> {
        let opts = classify_options(&options)?;
        let n = mcp_errors::classify_str(&raw, &opts).map_err(to_wit_error)?;
        Ok(to_wit_normalized(n))
    }

    fn classify_json(raw: String, options: wit::ClassifyOptions) -> Result<String, wit::Error> {
        test_trap(&raw);
        let opts = classify_options(&options)?;
        mcp_errors::classify_str(&raw, &opts)
            .map(|n| n.to_json())
            .map_err(to_wit_error)
    }

    fn parse_json(raw: String, options: wit::ClassifyOptions) -> Result<String, wit::Error> {
        test_trap(&raw);
        let opts = classify_options(&options)?;
        mcp_errors::parse_result_json(&raw, &opts)
            .map(|n| n.unwrap_or_else(|| "null".into()))
            .map_err(to_wit_error)
    }

    fn render(
        error: wit::NormalizedError,
        options: wit::RenderOptions,
    ) -> Result<String, wit::Error> {
        let n = from_wit_normalized(error)?;
        mcp_errors::render_value(n, &render_options(options)?).map_err(to_wit_error)
    }

    fn classify_render(raw: String, options: wit::RenderOptions) -> Result<String, wit::Error> {
        test_trap(&raw);
        mcp_errors::classify_render(&raw, &render_options(options)?).map_err(to_wit_error)
    }

    fn taxonomy() -> Vec<wit::CodeInfo> {
        mcp_errors::TABLE
            .iter()
            .map(|info| wit::CodeInfo {
                code: to_wit_code(info.code),
                name: info.name.to_string(),
                category: to_wit_category(info.category),
                http_status: info.http_status,
                grpc_code: info.grpc_code,
                jsonrpc_code: info.jsonrpc_code,
                retryable: info.retryable,
                doc: info.doc.to_string(),
            })
            .collect()
    }

    fn classify_render_json(raw: String, options: String) -> Result<String, wit::Error> {
        test_trap(&raw);
        mcp_errors::classify_render_json(&raw, &options).map_err(to_wit_error)
    }

    fn classify_render_with_log(
        raw: String,
        options: wit::RenderOptions,
    ) -> Result<(String, String), wit::Error> {
        test_trap(&raw);
        mcp_errors::classify_render_with_log(&raw, &render_options(options)?).map_err(to_wit_error)
    }

    fn classify_render_with_log_json(
        raw: String,
        options: String,
    ) -> Result<(String, String), wit::Error> {
        test_trap(&raw);
        mcp_errors::classify_render_with_log_json(&raw, &options).map_err(to_wit_error)
    }

    fn render_json(normalized: String, options: String) -> Result<String, wit::Error> {
        mcp_errors::render_json(&normalized, &options).map_err(to_wit_error)
    }

    fn schema(p: wit::Profile) -> String {
        mcp_errors::schema(profile(p))
    }
}

impl exports::mcp_errors::core::proxy::Guest for Component {
    fn start(args: Vec<String>) -> proxy::Plan {
        match mcp_errors::proxy::start(&args) {
            mcp_errors::proxy::Start::Finish(f) => proxy::Plan::Finish(to_wit_finish(f)),
            mcp_errors::proxy::Start::Run(run) => {
                let mcp_errors::proxy::Run {
                    relay,
                    log,
                    command,
                } = *run;
                let handle = RELAYS.with(|r| {
                    let mut r = r.borrow_mut();
                    r.push(Some(relay));
                    r.len() as u32
                });
                proxy::Plan::Run(proxy::Run {
                    relay: handle,
                    log,
                    command,
                })
            }
        }
    }

    fn from_client(relay: u32, line: String) -> String {
        with_relay(relay, |r| r.from_client(&line)).unwrap_or(line)
    }

    fn from_server(
        relay: u32,
        line: String,
        now: Option<String>,
        error_id: Option<String>,
    ) -> proxy::Forward {
        let stamp = || mcp_errors::proxy::Stamp { now, error_id };
        match with_relay(relay, |r| r.from_server(&line, stamp)) {
            Some(f) => proxy::Forward {
                line: f.line,
                log: f.log,
                warning: f.warning,
                retry: f.retry.map(|r| proxy::Retry {
                    id: r.id,
                    delay_ms: r.delay_ms,
                }),
            },
            None => proxy::Forward {
                line: Some(line),
                log: None,
                warning: None,
                retry: None,
            },
        }
    }

    fn resend(relay: u32, id: String) -> Option<String> {
        with_relay(relay, |r| r.resend(&id)).flatten()
    }

    fn server_gone(relay: u32) -> Vec<String> {
        with_relay(relay, |r| r.server_gone()).unwrap_or_default()
    }

    fn close(relay: u32) {
        RELAYS.with(|r| {
            if let Some(slot) = r.borrow_mut().get_mut((relay as usize).wrapping_sub(1)) {
                *slot = None;
            }
        });
    }
}

thread_local! {
    /// The open relays; handle `n` is slot `n - 1` (0 is never a handle).
    static RELAYS: std::cell::RefCell<Vec<Option<mcp_errors::proxy::Relay>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` on the relay with this handle, if it is open.
fn with_relay<T>(relay: u32, f: impl FnOnce(&mut mcp_errors::proxy::Relay) -> T) -> Option<T> {
    RELAYS.with(|r| {
        r.borrow_mut()
            .get_mut((relay as usize).wrapping_sub(1))
            .and_then(Option::as_mut)
            .map(f)
    })
}

/// What to print and the exit status, as the `cli` interface (and the proxy's
/// `plan`) carry it.
fn to_wit_finish(f: mcp_errors::cli::Finish) -> cli::Finish {
    cli::Finish {
        stdout: f.stdout,
        stderr: f.stderr,
        status: f.status,
    }
}

impl exports::mcp_errors::core::cli::Guest for Component {
    fn start(args: Vec<String>) -> cli::Plan {
        match mcp_errors::cli::start(&args) {
            mcp_errors::cli::Start::Finish(f) => cli::Plan::Finish(to_wit_finish(f)),
            mcp_errors::cli::Start::Lines(c) => {
                let text = c.text().to_string();
                COMMAND.with(|cached| *cached.borrow_mut() = Some(c));
                cli::Plan::Lines(text)
            }
        }
    }

    fn line(command: String, line: String, number: u64) -> Option<cli::OutputLine> {
        test_trap(&line);
        // The last command is kept, so its flags (rules, limits) are not read
        // again for every line.
        COMMAND.with(|cached| {
            let mut cached = cached.borrow_mut();
            if cached.as_ref().map(|c| c.text()) != Some(command.as_str()) {
                match mcp_errors::cli::Command::from_text(&command) {
                    Ok(c) => *cached = Some(c),
                    Err(e) => {
                        let bad = mcp_errors::cli::error_line(&e, number);
                        return Some(cli::OutputLine {
                            text: bad.text,
                            failed: bad.failed,
                        });
                    }
                }
            }
            let c = cached.as_ref()?;
            c.line(&line, number).map(|l| cli::OutputLine {
                text: l.text,
                failed: l.failed,
            })
        })
    }

    fn bad_line(skipped: u64, bytes: Vec<u8>, number: u64) -> cli::OutputLine {
        let l = mcp_errors::cli::bad_line(skipped, &bytes, number);
        cli::OutputLine {
            text: l.text,
            failed: l.failed,
        }
    }
}

thread_local! {
    static COMMAND: std::cell::RefCell<Option<mcp_errors::cli::Command>> =
        const { std::cell::RefCell::new(None) };
}

/// With the `test-trap` feature (test builds only), this exact input traps.
#[cfg(feature = "test-trap")]
fn test_trap(raw: &str) {
    if raw == "\"mcp-errors: trap now\"" {
        panic!("test-trap: deliberate trap");
    }
}

#[cfg(not(feature = "test-trap"))]
#[inline(always)]
fn test_trap(_raw: &str) {}

fn to_wit_error(e: mcp_errors::Error) -> wit::Error {
    // By kind: `Error` may gain kinds; one the WIT does not have yet is bad input.
    let detail = e.detail().to_string();
    match e.kind() {
        "invalid_json" => wit::Error::InvalidJson(detail),
        "invalid_option" => wit::Error::InvalidOption(detail),
        _ => wit::Error::InvalidInput(detail),
    }
}

fn classify_options(o: &wit::ClassifyOptions) -> Result<mcp_errors::ClassifyOptions, wit::Error> {
    let now_ms = match &o.now {
        Some(t) => Some(mcp_errors::parse_now(t).map_err(to_wit_error)?),
        None => None,
    };
    Ok(mcp_errors::ClassifyOptions {
        now_ms,
        limits: limits(o.limits.as_ref())?,
        rules: rules(o.rules.as_deref())?,
    })
}

/// The rule set, parsed by the core (absent: none).
fn rules(text: Option<&str>) -> Result<mcp_errors::UserRules, wit::Error> {
    match text {
        None => Ok(mcp_errors::UserRules::default()),
        Some(t) => mcp_errors::rules::parse_user_rules(t).map_err(to_wit_error),
    }
}

/// No record or absent fields keep the defaults; the core checks every range.
fn limits(l: Option<&wit::Limits>) -> Result<mcp_errors::Limits, wit::Error> {
    let mut out = mcp_errors::Limits::default();
    let Some(l) = l else {
        return Ok(out);
    };
    // The record's fields in declaration order, which is `Limits::RANGES`'s.
    let values = [
        l.max_message_chars,
        l.max_string_chars,
        l.max_depth,
        l.max_members,
        l.max_rendered_bytes,
    ];
    for ((name, _, _), value) in mcp_errors::Limits::RANGES.iter().zip(values) {
        if let Some(v) = value {
            out.set(name, u64::from(v)).map_err(to_wit_error)?;
        }
    }
    Ok(out)
}

fn profile(p: wit::Profile) -> mcp_errors::Profile {
    use mcp_errors::Profile;
    match p {
        wit::Profile::Canonical => Profile::Canonical,
        wit::Profile::ToolErrorV1 => Profile::ToolErrorV1,
        wit::Profile::McpToolError => Profile::McpToolError,
        wit::Profile::Text => Profile::Text,
        wit::Profile::ErrorObject => Profile::ErrorObject,
        wit::Profile::RpcEnvelope => Profile::RpcEnvelope,
    }
}

fn render_options(o: wit::RenderOptions) -> Result<mcp_errors::RenderOptions, wit::Error> {
    use mcp_errors::{Format, SpecRevision, Target};
    Ok(mcp_errors::RenderOptions {
        limits: limits(o.limits.as_ref())?,
        profile: profile(o.profile),
        format: match o.format {
            wit::Format::Markdown => Format::Markdown,
            wit::Format::Json => Format::Json,
            wit::Format::Both => Format::Both,
        },
        spec: match o.spec {
            wit::SpecRevision::V20250618 => SpecRevision::V20250618,
            wit::SpecRevision::V20251125 => SpecRevision::V20251125,
            wit::SpecRevision::V20260728 => SpecRevision::V20260728,
        },
        target: match o.target {
            wit::Target::ToolResult => Target::ToolResult,
            wit::Target::SoftResult => Target::SoftResult,
            wit::Target::ProtocolError => Target::ProtocolError,
            wit::Target::NeedsInput => Target::NeedsInput,
            wit::Target::LogRecord => Target::LogRecord,
        },
        tool_name: o.tool_name,
        now: o.now,
        error_id: o.error_id,
        output_schema: o.output_schema,
        extra_fields: o.extra_fields,
        mask: o.mask,
        masked_message: o.masked_message,
        rules: rules(o.rules.as_deref())?,
        tool_failure: o.tool_failure,
    })
}

/// One arm per code. `Code` is `#[non_exhaustive]`: a code added to the core
/// but not here maps to `unknown`, which the wasmtime harness's taxonomy test
/// catches (every row's WIT case must be its own name).
fn to_wit_code(c: mcp_errors::Code) -> wit::ErrorCode {
    use mcp_errors::Code as C;
    use wit::ErrorCode as W;
    match c {
        C::Cancelled => W::Cancelled,
        C::Timeout => W::Timeout,
        C::InvalidArgument => W::InvalidArgument,
        C::PayloadTooLarge => W::PayloadTooLarge,
        C::NotFound => W::NotFound,
        C::Gone => W::Gone,
        C::AlreadyExists => W::AlreadyExists,
        C::Conflict => W::Conflict,
        C::FailedPrecondition => W::FailedPrecondition,
        C::Unauthenticated => W::Unauthenticated,
        C::PermissionDenied => W::PermissionDenied,
        C::RateLimited => W::RateLimited,
        C::QuotaExhausted => W::QuotaExhausted,
        C::Unimplemented => W::Unimplemented,
        C::Unavailable => W::Unavailable,
        C::NetworkError => W::NetworkError,
        C::UpstreamError => W::UpstreamError,
        C::Internal => W::Internal,
        // A code the WIT does not have yet (see above).
        _ => W::Unknown,
    }
}

fn from_wit_code(c: wit::ErrorCode) -> mcp_errors::Code {
    use mcp_errors::Code as C;
    use wit::ErrorCode as W;
    match c {
        W::Cancelled => C::Cancelled,
        W::Timeout => C::Timeout,
        W::InvalidArgument => C::InvalidArgument,
        W::PayloadTooLarge => C::PayloadTooLarge,
        W::NotFound => C::NotFound,
        W::Gone => C::Gone,
        W::AlreadyExists => C::AlreadyExists,
        W::Conflict => C::Conflict,
        W::FailedPrecondition => C::FailedPrecondition,
        W::Unauthenticated => C::Unauthenticated,
        W::PermissionDenied => C::PermissionDenied,
        W::RateLimited => C::RateLimited,
        W::QuotaExhausted => C::QuotaExhausted,
        W::Unimplemented => C::Unimplemented,
        W::Unavailable => C::Unavailable,
        W::NetworkError => C::NetworkError,
        W::UpstreamError => C::UpstreamError,
        W::Internal => C::Internal,
        W::Unknown => C::Unknown,
    }
}

fn to_wit_category(c: mcp_errors::Category) -> wit::Category {
    use mcp_errors::Category as C;
    match c {
        C::Cancelled => wit::Category::Cancelled,
        C::Client => wit::Category::Client,
        C::Auth => wit::Category::Auth,
        C::Limit => wit::Category::Limit,
        C::Transient => wit::Category::Transient,
        C::Server => wit::Category::Server,
        // A category the WIT does not have yet; the harness's taxonomy test catches it.
        _ => wit::Category::Unknown,
    }
}

fn json_object(
    field: &str,
    text: Option<String>,
) -> Result<Option<serde_json::Map<String, serde_json::Value>>, wit::Error> {
    match text {
        None => Ok(None),
        Some(t) => match mcp_errors::parse_json(&t).map_err(to_wit_error)? {
            serde_json::Value::Object(m) => Ok(Some(m)),
            _ => Err(wit::Error::InvalidInput(format!(
                "`{field}` must be a JSON object"
            ))),
        },
    }
}

fn to_wit_normalized(n: mcp_errors::Normalized) -> wit::NormalizedError {
    wit::NormalizedError {
        code: to_wit_code(n.code),
        category: to_wit_category(n.category),
        retryable: n.retryable,
        retry_after_ms: n.retry_after_ms,
        http_status: n.http_status,
        message: n.message,
        tool: n.tool,
        app_code: n.app_code,
        app_type: n.app_type,
        expected: n.expected,
        details: n
            .details
            .map(|d| mcp_errors::json_text(&serde_json::Value::Object(d))),
        suggestions: n.suggestions,
        evidence: n.evidence,
        original: n.original.map(|o| mcp_errors::json_text(&o)),
    }
}

fn from_wit_normalized(e: wit::NormalizedError) -> Result<mcp_errors::Normalized, wit::Error> {
    let code = from_wit_code(e.code);
    let original = match e.original {
        None => None,
        Some(t) => Some(mcp_errors::parse_json(&t).map_err(to_wit_error)?),
    };
    Ok(mcp_errors::Normalized {
        code,
        // The category is the table's; a host cannot make them disagree.
        category: code.info().category,
        retryable: e.retryable,
        retry_after_ms: e.retry_after_ms,
        http_status: e.http_status,
        message: e.message,
        tool: e.tool,
        app_code: e.app_code,
        app_type: e.app_type,
        expected: e.expected,
        details: json_object("details", e.details)?,
        suggestions: e.suggestions,
        evidence: e.evidence,
        original,
    })
}
