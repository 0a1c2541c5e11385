// Generated from the Rust core (src/taxonomy.rs, src/render.rs, src/contract.rs) by tests/contract.rs; do not edit. `MCP_ERRORS_UPDATE_API=1 cargo test --test contract` rewrites it.

/** Every canonical error code, in taxonomy order. */
export const ERROR_CODES = [
  'CANCELLED', // The operation was cancelled, typically by the caller.
  'TIMEOUT', // The deadline expired before the operation could complete.
  'INVALID_ARGUMENT', // The caller supplied an invalid argument; fix the input, do not retry as is.
  'PAYLOAD_TOO_LARGE', // The request or its payload is larger than the callee accepts.
  'NOT_FOUND', // The requested resource does not exist.
  'GONE', // The requested resource existed once and is gone for good.
  'ALREADY_EXISTS', // The resource the caller tried to create already exists.
  'CONFLICT', // The request conflicts with the current state (concurrent modification, version mismatch).
  'FAILED_PRECONDITION', // The system is not in the state the operation requires.
  'UNAUTHENTICATED', // The caller is not authenticated (missing, invalid or expired credentials).
  'PERMISSION_DENIED', // The caller is authenticated but not allowed to do this.
  'RATE_LIMITED', // Too many requests in a short time; retry after a delay.
  'QUOTA_EXHAUSTED', // A quota or budget is used up; retrying soon will not help.
  'UNIMPLEMENTED', // The operation is not implemented or not supported.
  'UNAVAILABLE', // The service is temporarily unavailable (overloaded, down for maintenance).
  'NETWORK_ERROR', // The network failed before a response arrived (refused, reset, DNS, TLS).
  'UPSTREAM_ERROR', // An upstream service answered with an error of its own (HTTP 5xx, bad response).
  'INTERNAL', // A bug or invariant violation inside the tool itself.
  'UNKNOWN', // Nothing identified the failure.
] as const;
/** A canonical error code (see the taxonomy in the README). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every category, in declaration order. */
export const CATEGORIES = ['cancelled', 'client', 'auth', 'limit', 'transient', 'server', 'unknown'] as const;
/** What kind of action can fix an error. */
export type Category = (typeof CATEGORIES)[number];

/** Every Profile name, in declaration order. */
export const PROFILES = ['canonical', 'tool-error-v1', 'mcp-tool-error', 'text', 'error-object', 'rpc-envelope'] as const;
/** Which wire contract to produce. */
export type Profile = (typeof PROFILES)[number];

/** Every Format name, in declaration order. */
export const FORMATS = ['markdown', 'json', 'both'] as const;
/** Which content blocks a tool result carries. */
export type Format = (typeof FORMATS)[number];

/** Every SpecRevision name, in declaration order. */
export const SPEC_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
/** The MCP revision whose schema the output satisfies. */
export type SpecRevision = (typeof SPEC_REVISIONS)[number];

/** Every Target name, in declaration order. */
export const TARGETS = ['tool-result', 'soft-result', 'protocol-error', 'needs-input', 'log-record'] as const;
/** What to render. */
export type Target = (typeof TARGETS)[number];

/** Each limit: its option name, its snake_case name in JSON options, its default and range. */
export const LIMITS = [
  { name: 'maxMessageChars', json: 'max_message_chars', default: 2000, min: 16, max: 100000 },
  { name: 'maxStringChars', json: 'max_string_chars', default: 4000, min: 16, max: 1000000 },
  { name: 'maxDepth', json: 'max_depth', default: 8, min: 1, max: 32 },
  { name: 'maxMembers', json: 'max_members', default: 100, min: 1, max: 10000 },
  { name: 'maxRenderedBytes', json: 'max_rendered_bytes', default: 65536, min: 1024, max: 16777216 },
] as const;
/** The names of the limits, in the core's order. */
export const LIMIT_NAMES = ['maxMessageChars', 'maxStringChars', 'maxDepth', 'maxMembers', 'maxRenderedBytes'] as const;

/** Bounds on what is kept and rendered; an absent field takes its default, a value out of range is an `invalid_option` error. */
export interface Limits {
  /** The longest message, in characters. Default 2000; 16 to 100000. */
  maxMessageChars?: number;
  /** The longest string in details and the upstream original (the body excerpt), in characters. Default 4000; 16 to 1000000. */
  maxStringChars?: number;
  /** The deepest nesting kept in details and the upstream original. Default 8; 1 to 32. */
  maxDepth?: number;
  /** The most members kept per object or array in details and the upstream original. Default 100; 1 to 10000. */
  maxMembers?: number;
  /** The largest rendered output, in bytes; past it, details and the original are dropped and a note says so. Default 65536; 1024 to 16777216. */
  maxRenderedBytes?: number;
}

/** Each hint (its option name) and its raw-error field, in the order they are added. */
export const HINT_FIELDS = [
  ['tool', 'tool'],
  ['appCode', 'app_code'],
  ['appType', 'app_type'],
  ['details', 'details'],
  ['suggestions', 'suggestions'],
  ['expected', 'expected'],
  ['retryable', 'retryable'],
  ['retryAfterMs', 'retry_after_ms'],
  ['inputValidated', 'input_validated'],
] as const;

/** How deep the converter follows a thrown value's properties and causes. */
export const CONVERT_MAX_DEPTH = 16;
/** The most members or items the converter copies from one object or array. */
export const CONVERT_MAX_ITEMS = 100;
/** The longest string the converter copies, in UTF-16 units. */
export const CONVERT_MAX_STRING = 65536;
/** Properties the converter never copies: stacks are not shown, request configurations carry credentials. */
export const NEVER_COPIED = ['stack', 'traceback', 'config', 'request'] as const;

/** Failures that may have had effects: called again only for a read-only or idempotent tool, when its annotations are known. */
export const MAY_HAVE_HAD_EFFECTS = ['TIMEOUT', 'NETWORK_ERROR', 'UPSTREAM_ERROR', 'UNAVAILABLE'] as const;
/** HTTP statuses that refuse a request before any work: an UNAVAILABLE with one is retried for any tool. */
export const REFUSAL_STATUSES = [429, 503] as const;
/** How a text block starts when it reports a failure (quotes and white space aside): parsed even without isError. */
export const FAILURE_PREFIXES = ['Error:', 'Error ', 'ERROR:', 'Failed to ', 'failed to ', 'Request failed', 'Operation failed', 'Unable to ', 'Cannot ', 'Could not ', 'Couldn\'t ', 'Bad Request:', 'Unauthorized:', 'Forbidden:', 'Not Found:', 'Conflict:', 'Too Many Requests', 'Internal Server Error', 'Bad Gateway', 'Service Unavailable', 'Gateway Timeout', 'Permission Denied:', 'Access Denied:', 'Validation Error:', 'An error occurred', 'Ran into an error', 'Search failed:', '❌'] as const;
/** What, starting a line of a text block, marks it a failure: parsed even without isError. */
export const FAILURE_MARKS = ['<error>'] as const;

/** The proxy's usage text for the Streamable HTTP form the CLI serves; `{host}` is the CLI's name. */
export const PROXY_HTTP_USAGE = "\nThis CLI ({host}) also serves a remote server over Streamable HTTP:\n  mcp-errors proxy [options] --listen HOST:PORT --upstream URL\nClients connect to http://HOST:PORT with the upstream URL's path; every\nrequest and response passes as it came (Authorization included, never logged),\nand failed tools/call answers are rewritten as above, in JSON bodies and in\nserver-sent events alike.\n";
