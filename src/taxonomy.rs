//! The canonical taxonomy: one declarative table. Everything else reads it.
//!
//! Each row gives a code its category, HTTP status, gRPC code, JSON-RPC code,
//! default retryability, one documentation line, and its code in each render
//! profile. Modelled on `google.rpc.Code` and AIP-193/194: `RATE_LIMITED` is
//! retryable after a delay, `QUOTA_EXHAUSTED` is not.

use serde::{Deserialize, Serialize};

macro_rules! taxonomy {
    ($(
        $variant:ident = $name:literal, doc: $doc:literal {
            category: $cat:ident, http: $http:literal, grpc: $grpc:literal, jsonrpc: $rpc:literal,
            retryable: $retry:literal,
            tool_error_v1: $tev1:literal, mcp_tool_error: $mte:literal,
            error_object: $eo:literal, rpc_envelope: $rpce:literal,
        }
    )*) => {
        /// A canonical error code. More codes may come: match with a wildcard arm.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum Code {
            $( #[doc = $doc] #[serde(rename = $name)] $variant, )*
        }

        /// The taxonomy table, one row per code, in declaration order.
        pub static TABLE: &[CodeInfo] = &[
            $( CodeInfo {
                code: Code::$variant,
                name: $name,
                category: Category::$cat,
                http_status: $http,
                grpc_code: $grpc,
                jsonrpc_code: $rpc,
                retryable: $retry,
                doc: $doc,
                profiles: ProfileCodes {
                    tool_error_v1: $tev1,
                    mcp_tool_error: $mte,
                    error_object: $eo,
                    rpc_envelope: $rpce,
                },
            }, )*
        ];
    };
}

taxonomy! {
    Cancelled = "CANCELLED", doc: "The operation was cancelled, typically by the caller." {
        category: Cancelled, http: 499, grpc: 1, jsonrpc: -32603, retryable: false,
        tool_error_v1: "UNKNOWN_ERROR", mcp_tool_error: "TIMEOUT",
        error_object: "KubernetesError", rpc_envelope: "timeout_error",
    }
    Timeout = "TIMEOUT", doc: "The deadline expired before the operation could complete." {
        category: Transient, http: 504, grpc: 4, jsonrpc: -32603, retryable: true,
        tool_error_v1: "NETWORK_ERROR", mcp_tool_error: "TIMEOUT",
        error_object: "ExternalServiceUnavailable", rpc_envelope: "timeout_error",
    }
    InvalidArgument = "INVALID_ARGUMENT", doc: "The caller supplied an invalid argument; fix the input, do not retry as is." {
        category: Client, http: 400, grpc: 3, jsonrpc: -32602, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "BAD_REQUEST",
        error_object: "ValidationError", rpc_envelope: "validation_error",
    }
    PayloadTooLarge = "PAYLOAD_TOO_LARGE", doc: "The request or its payload is larger than the callee accepts." {
        category: Client, http: 413, grpc: 3, jsonrpc: -32602, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "BAD_REQUEST",
        error_object: "ValidationError", rpc_envelope: "validation_error",
    }
    NotFound = "NOT_FOUND", doc: "The requested resource does not exist." {
        category: Client, http: 404, grpc: 5, jsonrpc: -32603, retryable: false,
        tool_error_v1: "NOT_FOUND", mcp_tool_error: "NOT_FOUND",
        error_object: "KubernetesError", rpc_envelope: "not_found_error",
    }
    Gone = "GONE", doc: "The requested resource existed once and is gone for good." {
        category: Client, http: 410, grpc: 5, jsonrpc: -32603, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "GONE",
        error_object: "KubernetesError", rpc_envelope: "not_found_error",
    }
    AlreadyExists = "ALREADY_EXISTS", doc: "The resource the caller tried to create already exists." {
        category: Client, http: 409, grpc: 6, jsonrpc: -32603, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "BAD_REQUEST",
        error_object: "KubernetesError", rpc_envelope: "validation_error",
    }
    Conflict = "CONFLICT", doc: "The request conflicts with the current state (concurrent modification, version mismatch)." {
        category: Client, http: 409, grpc: 10, jsonrpc: -32603, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "BAD_REQUEST",
        error_object: "KubernetesError", rpc_envelope: "validation_error",
    }
    FailedPrecondition = "FAILED_PRECONDITION", doc: "The system is not in the state the operation requires." {
        category: Client, http: 400, grpc: 9, jsonrpc: -32603, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "BAD_REQUEST",
        error_object: "FeatureDisabled", rpc_envelope: "validation_error",
    }
    Unauthenticated = "UNAUTHENTICATED", doc: "The caller is not authenticated (missing, invalid or expired credentials)." {
        category: Auth, http: 401, grpc: 16, jsonrpc: -32603, retryable: false,
        tool_error_v1: "AUTHENTICATION_ERROR", mcp_tool_error: "UNAUTHORIZED",
        error_object: "KubernetesError", rpc_envelope: "validation_error",
    }
    PermissionDenied = "PERMISSION_DENIED", doc: "The caller is authenticated but not allowed to do this." {
        category: Auth, http: 403, grpc: 7, jsonrpc: -32603, retryable: false,
        tool_error_v1: "AUTHENTICATION_ERROR", mcp_tool_error: "FORBIDDEN",
        error_object: "KubernetesError", rpc_envelope: "validation_error",
    }
    RateLimited = "RATE_LIMITED", doc: "Too many requests in a short time; retry after a delay." {
        category: Limit, http: 429, grpc: 8, jsonrpc: -32603, retryable: true,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "RATE_LIMITED",
        error_object: "KubernetesError", rpc_envelope: "server_error",
    }
    QuotaExhausted = "QUOTA_EXHAUSTED", doc: "A quota or budget is used up; retrying soon will not help." {
        category: Limit, http: 429, grpc: 8, jsonrpc: -32603, retryable: false,
        tool_error_v1: "CLIENT_ERROR", mcp_tool_error: "RATE_LIMITED",
        error_object: "KubernetesError", rpc_envelope: "server_error",
    }
    Unimplemented = "UNIMPLEMENTED", doc: "The operation is not implemented or not supported." {
        category: Server, http: 501, grpc: 12, jsonrpc: -32601, retryable: false,
        tool_error_v1: "SERVER_ERROR", mcp_tool_error: "UPSTREAM_ERROR",
        error_object: "FeatureDisabled", rpc_envelope: "server_error",
    }
    Unavailable = "UNAVAILABLE", doc: "The service is temporarily unavailable (overloaded, down for maintenance)." {
        category: Transient, http: 503, grpc: 14, jsonrpc: -32603, retryable: true,
        tool_error_v1: "SERVER_ERROR", mcp_tool_error: "UPSTREAM_ERROR",
        error_object: "ExternalServiceUnavailable", rpc_envelope: "server_error",
    }
    NetworkError = "NETWORK_ERROR", doc: "The network failed before a response arrived (refused, reset, DNS, TLS)." {
        category: Transient, http: 502, grpc: 14, jsonrpc: -32603, retryable: true,
        tool_error_v1: "NETWORK_ERROR", mcp_tool_error: "NETWORK_ERROR",
        error_object: "ExternalServiceUnavailable", rpc_envelope: "server_error",
    }
    UpstreamError = "UPSTREAM_ERROR", doc: "An upstream service answered with an error of its own (HTTP 5xx, bad response)." {
        category: Server, http: 502, grpc: 13, jsonrpc: -32603, retryable: true,
        tool_error_v1: "SERVER_ERROR", mcp_tool_error: "UPSTREAM_ERROR",
        error_object: "KubernetesError", rpc_envelope: "library_error",
    }
    Internal = "INTERNAL", doc: "A bug or invariant violation inside the tool itself." {
        category: Server, http: 500, grpc: 13, jsonrpc: -32603, retryable: false,
        tool_error_v1: "SERVER_ERROR", mcp_tool_error: "INTERNAL_ERROR",
        error_object: "KubernetesError", rpc_envelope: "server_error",
    }
    Unknown = "UNKNOWN", doc: "Nothing identified the failure." {
        category: Unknown, http: 500, grpc: 2, jsonrpc: -32603, retryable: false,
        tool_error_v1: "UNKNOWN_ERROR", mcp_tool_error: "INTERNAL_ERROR",
        error_object: "KubernetesError", rpc_envelope: "server_error",
    }
}

/// A coarse grouping of codes by what can fix the failure. More may come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The caller stopped the work.
    Cancelled,
    /// The request itself must change.
    Client,
    /// Credentials or permissions must change.
    Auth,
    /// A rate limit or quota stands in the way.
    Limit,
    /// A passing failure: retrying may work.
    Transient,
    /// The callee or an upstream failed.
    Server,
    /// Nothing identified the failure.
    Unknown,
}

impl Category {
    /// Every category, in declaration order.
    pub const ALL: [Category; 7] = [
        Category::Cancelled,
        Category::Client,
        Category::Auth,
        Category::Limit,
        Category::Transient,
        Category::Server,
        Category::Unknown,
    ];

    /// The wire name (`snake_case`).
    pub fn name(self) -> &'static str {
        match self {
            Category::Cancelled => "cancelled",
            Category::Client => "client",
            Category::Auth => "auth",
            Category::Limit => "limit",
            Category::Transient => "transient",
            Category::Server => "server",
            Category::Unknown => "unknown",
        }
    }
}

/// A code's name in each seed profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileCodes {
    /// `tool-error-v1` (seed 000) `code`.
    pub tool_error_v1: &'static str,
    /// `mcp-tool-error` (seed 001) `code`.
    pub mcp_tool_error: &'static str,
    /// `error-object` (seed 003) `error.type`.
    pub error_object: &'static str,
    /// `rpc-envelope` (seed 004) `error_type`.
    pub rpc_envelope: &'static str,
}

/// The `rpc-envelope` profile's (seed 004) `error_type`s and the
/// `jsonrpc_error_code` each carries. An `error_type` not listed here (a tool
/// author's own) takes the code of the error's canonical `error_type`.
pub static RPC_ENVELOPE_TYPES: &[(&str, i32)] = &[
    ("validation_error", -32000),
    ("not_found_error", -32001),
    ("infeasibility_error", -32002),
    ("library_error", -32003),
    ("database_error", -32004),
    ("timeout_error", -32005),
    // Not numbered by the seed: the standard JSON-RPC internal error.
    ("server_error", -32603),
];

/// The `jsonrpc_error_code` of an `rpc-envelope` `error_type`.
pub fn rpc_envelope_code(error_type: &str) -> Option<i32> {
    RPC_ENVELOPE_TYPES
        .iter()
        .find(|(t, _)| *t == error_type)
        .map(|(_, c)| *c)
}

/// One row of the taxonomy table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code.
    pub code: Code,
    /// Its wire name, e.g. `RATE_LIMITED`.
    pub name: &'static str,
    /// Its category.
    pub category: Category,
    /// The HTTP status it corresponds to.
    pub http_status: u16,
    /// The gRPC status code it corresponds to.
    pub grpc_code: u8,
    /// The JSON-RPC code used when it must go out as a protocol error.
    pub jsonrpc_code: i32,
    /// Retryable unless the error says otherwise.
    pub retryable: bool,
    /// One line of documentation.
    pub doc: &'static str,
    /// Its code in each render profile.
    pub profiles: ProfileCodes,
}

impl Code {
    /// This code's row in the table.
    pub fn info(self) -> &'static CodeInfo {
        // The table is declared in the same order as the enum.
        &TABLE[self as usize]
    }

    /// The wire name, e.g. `RATE_LIMITED`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Look a code up by its wire name (exact, upper case).
    pub fn from_name(name: &str) -> Option<Code> {
        TABLE
            .iter()
            .find(|row| row.name == name)
            .map(|row| row.code)
    }

    /// The canonical code for a gRPC status code (0 is OK and has none).
    pub fn from_grpc(code: i64) -> Option<Code> {
        Some(match code {
            1 => Code::Cancelled,
            2 => Code::Unknown,
            3 => Code::InvalidArgument,
            4 => Code::Timeout,
            5 => Code::NotFound,
            6 => Code::AlreadyExists,
            7 => Code::PermissionDenied,
            8 => Code::RateLimited,
            9 => Code::FailedPrecondition,
            10 => Code::Conflict,
            11 => Code::InvalidArgument,
            12 => Code::Unimplemented,
            13 => Code::Internal,
            14 => Code::Unavailable,
            15 => Code::Internal,
            16 => Code::Unauthenticated,
            _ => return None,
        })
    }

    /// The canonical code for a gRPC / google.rpc status name such as `UNAVAILABLE`
    /// or `RESOURCE_EXHAUSTED` (also `StatusCode.UNAVAILABLE`, any case).
    pub fn from_grpc_name(name: &str) -> Option<Code> {
        let name = name.strip_prefix("StatusCode.").unwrap_or(name);
        // `DEADLINE_EXCEEDED`, or grpc-dotnet's `DeadlineExceeded`.
        let bare = |s: &'static str| s.bytes().filter(|&b| b != b'_');
        GRPC_NAMES
            .iter()
            .position(|n| {
                bare(n).eq(name
                    .bytes()
                    .filter(|&b| b != b'_')
                    .map(|b| b.to_ascii_uppercase()))
            })
            .and_then(|i| Code::from_grpc(i as i64))
    }

    /// Whether `n` is an HTTP error status servers send: the registered 4xx
    /// and 5xx (RFC 9110 §15, the IANA status code registry: 400–431, 451,
    /// 500–511) and the common unregistered ones (nginx 499, Cloudflare
    /// 520–527, Anthropic's 529, 598). Any other three-digit number in the
    /// range is another protocol's reply code when a `code` field or a text
    /// gives it: FTP's 530 and 550, SMTP's 550 to 554 (RFC 959, RFC 5321).
    pub(crate) fn is_http_error_status(n: i64) -> bool {
        matches!(n, 400..=431 | 451 | 499 | 500..=511 | 520..=527 | 529 | 598)
    }

    /// The canonical code for an HTTP error status (4xx, 5xx and the common
    /// non-standard ones). `None` for anything else.
    pub fn from_http(status: u16) -> Option<Code> {
        Some(match status {
            400 | 406 | 414 | 415 | 416 | 417 | 421 | 422 | 431 => Code::InvalidArgument,
            401 | 407 => Code::Unauthenticated,
            402 => Code::QuotaExhausted,
            403 => Code::PermissionDenied,
            404 => Code::NotFound,
            408 => Code::Timeout,
            409 => Code::Conflict,
            410 => Code::Gone,
            411 | 412 | 423 | 424 | 428 => Code::FailedPrecondition,
            413 => Code::PayloadTooLarge,
            425 => Code::Unavailable,
            429 => Code::RateLimited,
            // 509 "Bandwidth Limit Exceeded" (Apache, cPanel) and 507
            // "Insufficient Storage" (RFC 4918 §11.5; MinIO's full disk,
            // Basecamp's project limit): a spent allowance.
            507 | 509 => Code::QuotaExhausted,
            451 => Code::PermissionDenied,
            499 => Code::Cancelled,
            405 | 501 | 505 => Code::Unimplemented,
            // 529: Anthropic "overloaded"; 503: unavailable.
            503 | 529 => Code::Unavailable,
            504 | 522 | 524 | 598 => Code::Timeout,
            500..=599 => Code::UpstreamError,
            400..=499 => Code::InvalidArgument,
            _ => return None,
        })
    }
}

/// gRPC status names by numeric code.
pub const GRPC_NAMES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `Category::ALL` lists every category once, in declaration order (the
    /// match fails to compile when a category is added).
    #[test]
    fn every_category_is_in_all() {
        for (i, c) in Category::ALL.iter().enumerate() {
            let index = match c {
                Category::Cancelled => 0,
                Category::Client => 1,
                Category::Auth => 2,
                Category::Limit => 3,
                Category::Transient => 4,
                Category::Server => 5,
                Category::Unknown => 6,
            };
            assert_eq!(index, i, "{c:?}");
        }
    }

    #[test]
    fn names_round_trip_and_every_code_has_a_doc() {
        // The order is checked against the WIT contract (tests/docs.rs).
        for row in TABLE {
            assert_eq!(Code::from_name(row.name), Some(row.code));
            assert!(!row.doc.is_empty());
        }
        assert_eq!(TABLE.len(), 19);
    }

    #[test]
    fn rate_limited_retries_quota_does_not() {
        assert!(Code::RateLimited.info().retryable);
        assert!(!Code::QuotaExhausted.info().retryable);
    }

    #[test]
    fn grpc_names_round_trip() {
        assert_eq!(Code::from_grpc_name("UNAVAILABLE"), Some(Code::Unavailable));
        assert_eq!(
            Code::from_grpc_name("StatusCode.DEADLINE_EXCEEDED"),
            Some(Code::Timeout)
        );
        assert_eq!(Code::from_grpc_name("OK"), None);
    }
}
