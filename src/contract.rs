//! The host contract: what every host's converter and facade share, defined
//! once here (beside the WIT and the taxonomy table).
//!
//! `tests/contract.rs` generates `npm/src/contract.ts` and
//! `bindings/python/src/mcp_errors/_contract.py` from this module, the
//! taxonomy and the option enums, and fails when the checked-in files differ
//! (`MCP_ERRORS_UPDATE_API=1` rewrites them). The hosts import their enums,
//! limit names and defaults, hint names and conversion bounds from those files
//! and define none of them by hand.

use crate::redact;

/// The raw-error fields a tool author sets directly (hints), in the order a
/// host adds them: the raw field (snake_case) and its camelCase name in the
/// TypeScript API.
pub const HINTS: [(&str, &str); 9] = [
    ("tool", "tool"),
    ("app_code", "appCode"),
    ("app_type", "appType"),
    ("details", "details"),
    ("suggestions", "suggestions"),
    ("expected", "expected"),
    ("retryable", "retryable"),
    ("retry_after_ms", "retryAfterMs"),
    // The framework validated the caller's arguments before the tool ran: a
    // validation error the tool raises is then about other data.
    ("input_validated", "inputValidated"),
];

/// Each limit: its option name (snake_case), default, and accepted range.
pub const LIMITS: [(&str, usize, usize, usize); 5] = {
    // In `Limits::RANGES`' order.
    let defaults = [
        redact::MAX_MESSAGE_CHARS,
        redact::MAX_STRING_CHARS,
        redact::MAX_VALUE_DEPTH,
        redact::MAX_MEMBERS,
        redact::MAX_RENDERED_BYTES,
    ];
    let mut out = [("", 0, 0, 0); 5];
    let mut i = 0;
    while i < 5 {
        let (name, lo, hi) = redact::Limits::RANGES[i];
        out[i] = (name, defaults[i], lo, hi);
        i += 1;
    }
    out
};

/// What each limit bounds, in [`LIMITS`]' order (the generated declarations'
/// documentation adds the default and range).
pub const LIMIT_DOCS: [&str; 5] = [
    "The longest message, in characters.",
    "The longest string in details and the upstream original (the body excerpt), in characters.",
    "The deepest nesting kept in details and the upstream original.",
    "The most members kept per object or array in details and the upstream original.",
    "The largest rendered output, in bytes; past it, details and the original are dropped and a note says so.",
];

/// How deep a host's converter follows a native error's values and causes.
pub const CONVERT_MAX_DEPTH: usize = 16;
/// The most members or items a host's converter copies from one object or array.
pub const CONVERT_MAX_ITEMS: usize = 100;
/// The longest string a host's converter copies, in UTF-16 units (JavaScript)
/// or code points (Python); longer ones end in `…[truncated]`.
pub const CONVERT_MAX_STRING: usize = 64 * 1024;

/// Properties of a native error a host's converter never copies: stacks are
/// not shown, and request configurations carry credentials.
pub const NEVER_COPIED: [&str; 4] = ["stack", "traceback", "config", "request"];

/// Failures that may have had effects before they happened (the call may
/// have done its work and the answer was lost, or done part of it): the retry
/// helpers call again after one of these only when the tool's annotations say
/// calling again is safe (`readOnlyHint` or `idempotentHint`), when they know
/// the annotations. Any other retryable failure is a refusal before any work.
pub const MAY_HAVE_HAD_EFFECTS: [&str; 4] =
    ["TIMEOUT", "NETWORK_ERROR", "UPSTREAM_ERROR", "UNAVAILABLE"];

/// How a text block starts when it reports a failure, quotes and leading
/// white space aside: `parse` reads a result whose one block starts so as a
/// failure even without `isError: true` (the Python SDK sends `false` for
/// every value a tool returns), and the hosts' fast paths leave such a
/// result to the core. Besides the words of an error, a failure's title: an
/// HTTP error's reason phrase (RFC 9110 §15) or a kind of refusal, followed
/// by a colon, as servers write `${statusText}: ${message}` ("Not Found: Work
/// item '99999' not found"). A sentence that says the call could not be
/// done starts as one too ("Cannot create document: Directory … does not
/// exist", "Could not find …"), and so does one that says an error happened
/// ("An error occurred while …", ramp-mcp's "Ran into an error: …",
/// mcp-everything-search's "Search failed: …"), and the cross mark servers
/// that write for a model open a failure with ("❌ Update operations require
/// authentication. Please set THINGS_AUTH_TOKEN …").
pub const FAILURE_PREFIXES: [&str; 28] = [
    "Error:",
    "Error ",
    "ERROR:",
    "Failed to ",
    "failed to ",
    "Request failed",
    "Operation failed",
    "Unable to ",
    "Cannot ",
    "Could not ",
    "Couldn't ",
    "Bad Request:",
    "Unauthorized:",
    "Forbidden:",
    "Not Found:",
    "Conflict:",
    "Too Many Requests",
    "Internal Server Error",
    "Bad Gateway",
    "Service Unavailable",
    "Gateway Timeout",
    "Permission Denied:",
    "Access Denied:",
    "Validation Error:",
    "An error occurred",
    "Ran into an error",
    "Search failed:",
    "❌",
];

/// Marks that, starting a line of a text block of a result not flagged
/// `isError` (the text's first, white space aside, or one after a line
/// break), say it reports a failure: the `<error>` element servers that write
/// for a model wrap a failure in (mcp-run-python's `<status>run-error</status>
/// <error>…</error>`, fetcher-mcp's `<error>Failed to retrieve …`). An
/// indented one is a fetched page's content.
pub const FAILURE_MARKS: [&str; 1] = ["<error>"];

/// What the npm and Python CLIs add to the proxy's usage text: the Streamable
/// HTTP form they serve (the native CLI refuses `--listen`). `{host}` is the
/// CLI's name ("npm", "Python").
pub const PROXY_HTTP_USAGE: &str = "
This CLI ({host}) also serves a remote server over Streamable HTTP:
  mcp-errors proxy [options] --listen HOST:PORT --upstream URL
Clients connect to http://HOST:PORT with the upstream URL's path; every
request and response passes as it came (Authorization included, never logged),
and failed tools/call answers are rewritten as above, in JSON bodies and in
server-sent events alike.
";

/// HTTP statuses that refuse a request before any work (429 Too Many Requests,
/// 503 Service Unavailable, RFC 9110 §15.6.4): an `UNAVAILABLE` with one of
/// them is retried for any tool.
pub const REFUSAL_STATUSES: [u16; 2] = [429, 503];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_name_retryable_codes() {
        for name in MAY_HAVE_HAD_EFFECTS {
            let code = crate::Code::from_name(name).expect("a code");
            assert!(code.info().retryable, "{name}");
        }
    }

    #[test]
    fn limits_are_the_defaults_and_ranges() {
        let d = redact::Limits::default();
        let mut fresh = redact::Limits::default();
        for (name, default, lo, hi) in LIMITS {
            // Setting the default changes nothing; the range is the one `set` checks.
            fresh.set(name, default as u64).unwrap();
            assert!(fresh.set(name, lo as u64).is_ok() && fresh.set(name, hi as u64).is_ok());
            assert!(fresh.set(name, lo as u64 - 1).is_err(), "{name}");
            assert!(fresh.set(name, hi as u64 + 1).is_err(), "{name}");
            fresh.set(name, default as u64).unwrap();
        }
        assert_eq!(fresh, d);
        let names: Vec<_> = LIMITS.iter().map(|l| l.0).collect();
        let ranges: Vec<_> = redact::Limits::RANGES.iter().map(|r| r.0).collect();
        assert_eq!(names, ranges);
    }

    #[test]
    fn hints_are_fields_the_classifier_reads() {
        for (field, camel) in HINTS {
            assert!(crate::classify::KNOWN_FIELDS.contains(&field), "{field}");
            let snake: String = camel
                .chars()
                .flat_map(|c| {
                    if c.is_ascii_uppercase() {
                        vec!['_', c.to_ascii_lowercase()]
                    } else {
                        vec![c]
                    }
                })
                .collect();
            assert_eq!(snake, field);
        }
    }
}
