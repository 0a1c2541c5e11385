"""Generated from the Rust core (src/taxonomy.rs, src/render.rs, src/contract.rs) by tests/contract.rs; do not edit. `MCP_ERRORS_UPDATE_API=1 cargo test --test contract` rewrites it."""

from __future__ import annotations

from enum import Enum
from typing import Literal


class ErrorCode(str, Enum):
    """The canonical codes (see the taxonomy in the README)."""

    #: The operation was cancelled, typically by the caller.
    CANCELLED = "CANCELLED"
    #: The deadline expired before the operation could complete.
    TIMEOUT = "TIMEOUT"
    #: The caller supplied an invalid argument; fix the input, do not retry as is.
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    #: The request or its payload is larger than the callee accepts.
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    #: The requested resource does not exist.
    NOT_FOUND = "NOT_FOUND"
    #: The requested resource existed once and is gone for good.
    GONE = "GONE"
    #: The resource the caller tried to create already exists.
    ALREADY_EXISTS = "ALREADY_EXISTS"
    #: The request conflicts with the current state (concurrent modification, version mismatch).
    CONFLICT = "CONFLICT"
    #: The system is not in the state the operation requires.
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    #: The caller is not authenticated (missing, invalid or expired credentials).
    UNAUTHENTICATED = "UNAUTHENTICATED"
    #: The caller is authenticated but not allowed to do this.
    PERMISSION_DENIED = "PERMISSION_DENIED"
    #: Too many requests in a short time; retry after a delay.
    RATE_LIMITED = "RATE_LIMITED"
    #: A quota or budget is used up; retrying soon will not help.
    QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED"
    #: The operation is not implemented or not supported.
    UNIMPLEMENTED = "UNIMPLEMENTED"
    #: The service is temporarily unavailable (overloaded, down for maintenance).
    UNAVAILABLE = "UNAVAILABLE"
    #: The network failed before a response arrived (refused, reset, DNS, TLS).
    NETWORK_ERROR = "NETWORK_ERROR"
    #: An upstream service answered with an error of its own (HTTP 5xx, bad response).
    UPSTREAM_ERROR = "UPSTREAM_ERROR"
    #: A bug or invariant violation inside the tool itself.
    INTERNAL = "INTERNAL"
    #: Nothing identified the failure.
    UNKNOWN = "UNKNOWN"


class Category(str, Enum):
    """What kind of action can fix an error."""

    CANCELLED = "cancelled"
    CLIENT = "client"
    AUTH = "auth"
    LIMIT = "limit"
    TRANSIENT = "transient"
    SERVER = "server"
    UNKNOWN = "unknown"


#: Which wire contract to produce.
Profile = Literal["canonical", "tool-error-v1", "mcp-tool-error", "text", "error-object", "rpc-envelope"]

#: Which content blocks a tool result carries.
Format = Literal["markdown", "json", "both"]

#: The MCP revision whose schema the output satisfies.
SpecRevision = Literal["2025-06-18", "2025-11-25", "2026-07-28"]

#: What to render.
Target = Literal["tool-result", "soft-result", "protocol-error", "needs-input", "log-record"]

#: Each limit: its name, default and range.
LIMITS = (
    ("max_message_chars", 2000, 16, 100000),
    ("max_string_chars", 4000, 16, 1000000),
    ("max_depth", 8, 1, 32),
    ("max_members", 100, 1, 10000),
    ("max_rendered_bytes", 65536, 1024, 16777216),
)
#: The names of the limits, in the core's order.
LIMIT_NAMES = ("max_message_chars", "max_string_chars", "max_depth", "max_members", "max_rendered_bytes")

#: The hints (raw-error fields a tool author sets), in the order they are added.
HINTS = ("tool", "app_code", "app_type", "details", "suggestions", "expected", "retryable", "retry_after_ms", "input_validated")

#: How deep the converter follows an exception's values and causes.
CONVERT_MAX_DEPTH = 16
#: The most members or items the converter copies from one mapping or sequence.
CONVERT_MAX_ITEMS = 100
#: The longest string the converter copies, in code points.
CONVERT_MAX_STRING = 65536
#: Attributes the converter never copies: stacks are not shown, request configurations carry credentials.
NEVER_COPIED = ("stack", "traceback", "config", "request")

#: Failures that may have had effects: called again only for a read-only or idempotent tool, when its annotations are known.
MAY_HAVE_HAD_EFFECTS = ("TIMEOUT", "NETWORK_ERROR", "UPSTREAM_ERROR", "UNAVAILABLE")
#: HTTP statuses that refuse a request before any work: an UNAVAILABLE with one is retried for any tool.
REFUSAL_STATUSES = (429, 503)
#: How a text block starts when it reports a failure (quotes and white space aside): parsed even without isError.
FAILURE_PREFIXES = ("Error:", "Error ", "ERROR:", "Failed to ", "failed to ", "Request failed", "Operation failed", "Unable to ", "Cannot ", "Could not ", "Couldn't ", "Bad Request:", "Unauthorized:", "Forbidden:", "Not Found:", "Conflict:", "Too Many Requests", "Internal Server Error", "Bad Gateway", "Service Unavailable", "Gateway Timeout", "Permission Denied:", "Access Denied:", "Validation Error:", "An error occurred", "Ran into an error", "Search failed:", "❌")
#: What, starting a line of a text block, marks it a failure: parsed even without isError.
FAILURE_MARKS = ("<error>",)

#: The proxy's usage text for the Streamable HTTP form the CLI serves; `{host}` is the CLI's name.
PROXY_HTTP_USAGE = "\nThis CLI ({host}) also serves a remote server over Streamable HTTP:\n  mcp-errors proxy [options] --listen HOST:PORT --upstream URL\nClients connect to http://HOST:PORT with the upstream URL's path; every\nrequest and response passes as it came (Authorization included, never logged),\nand failed tools/call answers are rewritten as above, in JSON bodies and in\nserver-sent events alike.\n"
