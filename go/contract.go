// Generated from the Rust core (src/taxonomy.rs, src/render.rs, src/contract.rs) by tests/contract.rs; do not edit. `MCP_ERRORS_UPDATE_API=1 cargo test --test contract` rewrites it.

package mcperrors

// mayHaveHadEffects are the failures that may have had effects: called
// again only for a read-only or idempotent tool, when its annotations are known.
var mayHaveHadEffects = []Code{"TIMEOUT", "NETWORK_ERROR", "UPSTREAM_ERROR", "UNAVAILABLE"}

// refusalStatuses are the HTTP statuses that refuse a request before any
// work: an UNAVAILABLE with one is retried for any tool.
var refusalStatuses = []int{429, 503}

// failurePrefixes are how a text block starts when it reports a failure
// (quotes and white space aside): parsed even without isError.
var failurePrefixes = []string{"Error:", "Error ", "ERROR:", "Failed to ", "failed to ", "Request failed", "Operation failed", "Unable to ", "Cannot ", "Could not ", "Couldn't ", "Bad Request:", "Unauthorized:", "Forbidden:", "Not Found:", "Conflict:", "Too Many Requests", "Internal Server Error", "Bad Gateway", "Service Unavailable", "Gateway Timeout", "Permission Denied:", "Access Denied:", "Validation Error:", "An error occurred", "Ran into an error", "Search failed:", "❌"}

// failureMarks, starting a line of a text block, mark it a failure:
// parsed even without isError.
var failureMarks = []string{"<error>"}
