// ---- dist/api.d.ts
/**
 * mcp-errors: turn any failure inside an MCP tool into one canonical error and
 * render it as the exact result shape an MCP client expects.
 *
 * ```ts
 * server.registerTool('weather', { inputSchema: { city: z.string() } },
 *   withErrors(async ({ city }) => ({ content: [{ type: 'text', text: await forecast(city) }] }),
 *              { toolName: 'weather' }));
 * ```
 */
import { McpErrorsError } from './engine.js';
import { toRawError, ToolError } from './convert.js';
import { LIMIT_NAMES } from './contract.js';
import type { CallToolResult, ClassifyOptions, CodeInfo, Hints, NormalizedError, Profile, RenderOptions } from './types.js';
export { McpErrorsError, ToolError, toRawError };
export type { McpErrorsErrorKind } from './engine.js';
export type * from './types.js';
export { LIMIT_NAMES };
/** Every code, category, profile, format, revision and target, in the core's order. */
export { CATEGORIES, ERROR_CODES, FORMATS, PROFILES, SPEC_REVISIONS, TARGETS } from './contract.js';
/** Classify raw-error JSON text; returns the canonical JSON text (the bytes every host prints). */
export declare function classifyJson(raw: string, options?: ClassifyOptions): string;
/**
 * Read a tool call's result back, as an MCP server sent it (JSON text of a `CallToolResult`,
 * a JSON-RPC response or a bare JSON-RPC error object): the canonical error as JSON text, or
 * `null` when the result is not an error. Throws `McpErrorsError` for input that is none of
 * those. `now` (default: the current time) turns a `toolFailure`'s `retryNotBefore` into a delay.
 */
export declare function parseResultJson(result: string, options?: ClassifyOptions): string | null;
/** Classify raw-error JSON text and render it; returns the rendered JSON text. */
export declare function renderJson(raw: string, options?: RenderOptions): string;
/** Classify any thrown value (with optional hints) into the canonical normalized error.
 * `now` defaults to the current time (as in `toolResult`), so an HTTP-date `Retry-After`
 * becomes a delay; `now: null` leaves the clock out (the evidence then says a date was not read). */
export declare function classify(err: unknown, hints?: Hints, options?: ClassifyOptions): NormalizedError;
/** Render a normalized error as the chosen profile, format, revision and target. */
export declare function render(error: NormalizedError, options?: RenderOptions): unknown;
/** The minimal valid error result used when the error itself could not be normalized. */
export declare function fallbackResult(reason: unknown, options?: RenderOptions): CallToolResult;
/**
 * Any thrown value → a ready `CallToolResult`. Never throws: if the error cannot be
 * normalized (or the component traps), a minimal valid error result says so.
 * Unexpected errors are masked by default (`mask: true`); `ToolError`s never are.
 */
export declare function toolResult(err: unknown, options?: RenderOptions & {
    hints?: Hints;
}): CallToolResult;
export interface WithErrorsOptions extends RenderOptions {
    hints?: Hints;
    /** Where the log record of each failure goes. Default: one JSON line on stderr. `false`: nowhere. */
    logger?: ((record: Record<string, unknown>) => void) | false;
    /** @deprecated The old name of `logger`. */
    log?: ((record: Record<string, unknown>) => void) | false;
    /** Error ids for correlation. Default: 8 random hex characters. */
    newErrorId?: () => string;
}
/**
 * Wrap a tool handler (e.g. for `McpServer.registerTool`) so anything it throws becomes a
 * normalized error result, with a log record (never masked) sharing the result's error id.
 * A protocol error (the SDKs' `McpError` / `ProtocolError`, URL elicitation included) is
 * thrown on, for the SDK to handle as it would without this wrapper. The options are checked
 * here: a mistake throws `McpErrorsError` (`invalid_option`) naming the option.
 */
export declare function withErrors<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>, options?: WithErrorsOptions): (...args: A) => Promise<R | CallToolResult>;
export interface ServerErrorsOptions extends WithErrorsOptions {
    /** Each tool's own options, by tool name, on top of the others. */
    tools?: Record<string, WithErrorsOptions>;
}
/**
 * Server-wide: apply `withErrors` to every tool of an `McpServer`, registered before this call
 * or after it, each named after itself, with `options` and its own `tools[name]` on top. For
 * `@modelcontextprotocol/sdk` 1.x's `McpServer` and `@modelcontextprotocol/server` 2.x's.
 * Returns the server.
 *
 * Each tool's declared output schema is read when it fails, so `structuredContent` never
 * breaks it; a tool with an input schema gets `hints.inputValidated`. The failures the SDK
 * catches itself (input validation, a disabled tool; in v1 also an unknown tool and a
 * protocol error a handler throws) take the same profile, unmasked: they are the SDK's words.
 * The options are checked here (`McpErrorsError`, `invalid_option`).
 *
 * ```ts
 * const server = withServerErrors(new McpServer({ name: 'weather', version: '1.0.0' }), { profile: 'tool-error-v1' });
 * ```
 */
export declare function withServerErrors<S extends object>(server: S, options?: ServerErrorsOptions): S;
/** The taxonomy: one row per canonical code. */
export declare function taxonomy(): CodeInfo[];
/** The JSON Schema of a profile's error object (as seed 001 exports its zod schema). */
export declare function schema(profile: Profile): Record<string, unknown>;

// ---- dist/browser.d.ts
export * from './api.js';
export * from './parse.js';
export * from './retry.js';
/** Resolves when the component is compiled and an instance is ready; rejects (with a typed
 * `McpErrorsError` of kind `not_ready`) if the `.wasm` file could not be fetched or compiled. */
export declare function ready(): Promise<void>;

// ---- dist/cli.d.ts
#!/usr/bin/env node
export {};

// ---- dist/contract.d.ts
/** Every canonical error code, in taxonomy order. */
export declare const ERROR_CODES: readonly ["CANCELLED", "TIMEOUT", "INVALID_ARGUMENT", "PAYLOAD_TOO_LARGE", "NOT_FOUND", "GONE", "ALREADY_EXISTS", "CONFLICT", "FAILED_PRECONDITION", "UNAUTHENTICATED", "PERMISSION_DENIED", "RATE_LIMITED", "QUOTA_EXHAUSTED", "UNIMPLEMENTED", "UNAVAILABLE", "NETWORK_ERROR", "UPSTREAM_ERROR", "INTERNAL", "UNKNOWN"];
/** A canonical error code (see the taxonomy in the README). */
export type ErrorCode = (typeof ERROR_CODES)[number];
/** Every category, in declaration order. */
export declare const CATEGORIES: readonly ["cancelled", "client", "auth", "limit", "transient", "server", "unknown"];
/** What kind of action can fix an error. */
export type Category = (typeof CATEGORIES)[number];
/** Every Profile name, in declaration order. */
export declare const PROFILES: readonly ["canonical", "tool-error-v1", "mcp-tool-error", "text", "error-object", "rpc-envelope"];
/** Which wire contract to produce. */
export type Profile = (typeof PROFILES)[number];
/** Every Format name, in declaration order. */
export declare const FORMATS: readonly ["markdown", "json", "both"];
/** Which content blocks a tool result carries. */
export type Format = (typeof FORMATS)[number];
/** Every SpecRevision name, in declaration order. */
export declare const SPEC_REVISIONS: readonly ["2025-06-18", "2025-11-25", "2026-07-28"];
/** The MCP revision whose schema the output satisfies. */
export type SpecRevision = (typeof SPEC_REVISIONS)[number];
/** Every Target name, in declaration order. */
export declare const TARGETS: readonly ["tool-result", "soft-result", "protocol-error", "needs-input", "log-record"];
/** What to render. */
export type Target = (typeof TARGETS)[number];
/** Each limit: its option name, its snake_case name in JSON options, its default and range. */
export declare const LIMITS: readonly [{
    readonly name: "maxMessageChars";
    readonly json: "max_message_chars";
    readonly default: 2000;
    readonly min: 16;
    readonly max: 100000;
}, {
    readonly name: "maxStringChars";
    readonly json: "max_string_chars";
    readonly default: 4000;
    readonly min: 16;
    readonly max: 1000000;
}, {
    readonly name: "maxDepth";
    readonly json: "max_depth";
    readonly default: 8;
    readonly min: 1;
    readonly max: 32;
}, {
    readonly name: "maxMembers";
    readonly json: "max_members";
    readonly default: 100;
    readonly min: 1;
    readonly max: 10000;
}, {
    readonly name: "maxRenderedBytes";
    readonly json: "max_rendered_bytes";
    readonly default: 65536;
    readonly min: 1024;
    readonly max: 16777216;
}];
/** The names of the limits, in the core's order. */
export declare const LIMIT_NAMES: readonly ["maxMessageChars", "maxStringChars", "maxDepth", "maxMembers", "maxRenderedBytes"];
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
export declare const HINT_FIELDS: readonly [readonly ["tool", "tool"], readonly ["appCode", "app_code"], readonly ["appType", "app_type"], readonly ["details", "details"], readonly ["suggestions", "suggestions"], readonly ["expected", "expected"], readonly ["retryable", "retryable"], readonly ["retryAfterMs", "retry_after_ms"], readonly ["inputValidated", "input_validated"]];
/** How deep the converter follows a thrown value's properties and causes. */
export declare const CONVERT_MAX_DEPTH = 16;
/** The most members or items the converter copies from one object or array. */
export declare const CONVERT_MAX_ITEMS = 100;
/** The longest string the converter copies, in UTF-16 units. */
export declare const CONVERT_MAX_STRING = 65536;
/** Properties the converter never copies: stacks are not shown, request configurations carry credentials. */
export declare const NEVER_COPIED: readonly ["stack", "traceback", "config", "request"];
/** Failures that may have had effects: called again only for a read-only or idempotent tool, when its annotations are known. */
export declare const MAY_HAVE_HAD_EFFECTS: readonly ["TIMEOUT", "NETWORK_ERROR", "UPSTREAM_ERROR", "UNAVAILABLE"];
/** HTTP statuses that refuse a request before any work: an UNAVAILABLE with one is retried for any tool. */
export declare const REFUSAL_STATUSES: readonly [429, 503];
/** How a text block starts when it reports a failure (quotes and white space aside): parsed even without isError. */
export declare const FAILURE_PREFIXES: readonly ["Error:", "Error ", "ERROR:", "Failed to ", "failed to ", "Request failed", "Operation failed", "Unable to ", "Cannot ", "Could not ", "Couldn't ", "Bad Request:", "Unauthorized:", "Forbidden:", "Not Found:", "Conflict:", "Too Many Requests", "Internal Server Error", "Bad Gateway", "Service Unavailable", "Gateway Timeout", "Permission Denied:", "Access Denied:", "Validation Error:", "An error occurred", "Ran into an error", "Search failed:", "❌"];
/** What, starting a line of a text block, marks it a failure: parsed even without isError. */
export declare const FAILURE_MARKS: readonly ["<error>"];
/** The proxy's usage text for the Streamable HTTP form the CLI serves; `{host}` is the CLI's name. */
export declare const PROXY_HTTP_USAGE = "\nThis CLI ({host}) also serves a remote server over Streamable HTTP:\n  mcp-errors proxy [options] --listen HOST:PORT --upstream URL\nClients connect to http://HOST:PORT with the upstream URL's path; every\nrequest and response passes as it came (Authorization included, never logged),\nand failed tools/call answers are rewritten as above, in JSON bodies and in\nserver-sent events alike.\n";

// ---- dist/convert.d.ts
import type { Hints } from './types.js';
/**
 * A deliberate error of a tool: its message is safe to show the model and is
 * never masked. Carry your own code, type, details and recovery suggestions.
 *
 * ```ts
 * throw new ToolError('No city named Atlantis', { appCode: 'CITY_NOT_FOUND', suggestions: ['Check the spelling'] });
 * ```
 */
export declare class ToolError extends Error {
    readonly appCode?: string;
    readonly appType?: string;
    readonly details?: Record<string, unknown> | string;
    readonly suggestions?: string[];
    readonly retryable?: boolean;
    /** How long to wait before retrying, in milliseconds, when the author knows it. */
    readonly retryAfterMs?: number;
    /** A canonical code (e.g. `NOT_FOUND`), when the author knows it. */
    readonly code?: string;
    constructor(message: string, options?: Omit<Hints, 'tool' | 'expected'> & {
        code?: string;
        cause?: unknown;
    });
}
/** Convert any thrown value into the raw-error input, with the author's hints on top. */
export declare function toRawError(err: unknown, hints?: Hints): Record<string, unknown> | unknown;

// ---- dist/engine.d.ts
/** The kind of an error of mcp-errors itself. `not_ready`: the browser build was called before
 * `await ready()` finished compiling the component. */
export type McpErrorsErrorKind = 'invalid_json' | 'invalid_input' | 'invalid_option' | 'trap' | 'not_ready';
/** An error of mcp-errors itself (not the error being classified). Typed, never a bare string. */
export declare class McpErrorsError extends Error {
    readonly kind: McpErrorsErrorKind;
    constructor(kind: McpErrorsErrorKind, message: string, options?: {
        cause?: unknown;
    });
}

// ---- dist/index.d.ts
export * from './api.js';
export * from './parse.js';
export * from './retry.js';
/** Resolves when the component can be called. Here that is at once: it loads synchronously at
 * the first call. (The browser build needs it; every build has it, so code can await it anywhere.) */
export declare function ready(): Promise<void>;

// ---- dist/node-source.d.ts
export {};

// ---- dist/parse.d.ts
import type { ClassifyOptions, NormalizedError } from './types.js';
/** The `_meta` key of the proposed machine-readable tool failure (SEP-3313). */
export declare const TOOL_FAILURE_META_KEY = "io.modelcontextprotocol/toolFailure";
/**
 * Whether a result is surely not an error, decided here without entering the component: a
 * `CallToolResult` (or a JSON-RPC response carrying one) without `isError: true` (on the result
 * or on a block), without a
 * `toolFailure`, without `structuredContent` and without a text block the core reads as a
 * possible failure (`mayBeAFailure`). The core answers `null` for every result this accepts.
 */
export declare function surelyNotAnError(value: unknown): boolean;
/**
 * Read a tool call's result back into the canonical error: `code`, `category`, `retryable`,
 * `retry_after_ms`, `message`, what the dialect carries (tool, details, suggestions, …), and
 * `evidence` naming the dialect and the signals. `null` when the result is not an error.
 *
 * Takes a `CallToolResult` (as the SDK's `client.callTool` returns it), a JSON-RPC response,
 * a bare JSON-RPC error object, or an SDK `McpError` / `ProtocolError` (its `code`, `message`
 * and `data`). Never throws: a result that cannot be read (not JSON-serializable, not a
 * result, the component trapped) is an `UNKNOWN`, non-retryable error whose evidence says why.
 */
export declare function parseResult(result: unknown, options?: ClassifyOptions): NormalizedError | null;

// ---- dist/retry.d.ts
import type { CallToolResult, ClassifyOptions, NormalizedError } from './types.js';
/** The `params` of a `tools/call` request: the tool's name, its arguments, and whatever else
 * the client's SDK accepts there (`_meta`, `task`, …), passed on unchanged. */
export interface CallToolParams {
    [key: string]: unknown;
    name: string;
    arguments?: Record<string, unknown>;
}
/**
 * What `callToolWithRetry` calls: an MCP SDK client. `@modelcontextprotocol/sdk` 1.x's `Client`
 * (`callTool(params, resultSchema?, options?)`) and `@modelcontextprotocol/client` 2.x's
 * (`callTool(params, options?)`) both fit; anything else with a `callTool` is called the 1.x way.
 */
export interface ToolCallingClient {
    callTool(params: CallToolParams, ...rest: any[]): Promise<unknown>;
}
/** What `policy.onRetry` is told before each wait. */
export interface RetryEvent {
    /** The number of the call that just failed: 1 for the first. */
    attempt: number;
    /** How long it will wait before the next call, in milliseconds. */
    delayMs: number;
    /** The failed call's canonical error (always `retryable`). */
    error: NormalizedError;
    /** Why calling again is safe: a refusal before any work, or a failure that may have had
     * effects of a tool whose annotations say it is read-only or idempotent (or unknown ones). */
    reason: string;
}
/** A tool's annotations as `tools/list` gives them (MCP `ToolAnnotations`): what makes calling
 * it again after a failure that may have had effects safe. */
export interface ToolAnnotations {
    readOnlyHint?: boolean;
    idempotentHint?: boolean;
    destructiveHint?: boolean;
    [key: string]: unknown;
}
/** When and how long `callToolWithRetry` waits and calls again. Every field is optional. */
export interface RetryPolicy {
    /** The most calls to make, the first included (an integer ≥ 1, or `Infinity`). Default 3. */
    maxAttempts?: number;
    /** No wait starts that would end more than this many milliseconds after the first call began
     * (`Infinity` for no limit). A call already under way is not cut short: use `signal` (e.g.
     * `AbortSignal.timeout(ms)`) for a hard deadline. Default 60 000. */
    maxElapsedMs?: number;
    /** The backoff's first ceiling, in milliseconds, for a failure without `retry_after_ms`: the
     * wait after call n is `random() * min(maxBackoffMs, baseDelayMs * 2 ** (n - 1))`. Default 500. */
    baseDelayMs?: number;
    /** The backoff's largest ceiling, in milliseconds. Default 10 000. */
    maxBackoffMs?: number;
    /** The longest wait taken from the server's `retry_after_ms` (e.g. `Retry-After`), in
     * milliseconds: a longer one is cut to this. Default 30 000. */
    maxDelayMs?: number;
    /** Cancels the call under way (passed to the SDK as the request's `signal`, which also sends
     * the server `notifications/cancelled`) and any wait: the promise then rejects with
     * `signal.reason`. */
    signal?: AbortSignal;
    /** Called before each wait. What it throws rejects the promise (no further call is made). */
    onRetry?: (event: RetryEvent) => void;
    /** For deterministic tests only: the jitter's random source, a number in [0, 1).
     * Default `Math.random`. */
    random?: () => number;
    /** How each failure is read (`parseResult`'s options): your own recognizer `rules` make a
     * server's own errors retryable or not, and `limits` bound what is kept. */
    parseOptions?: ClassifyOptions;
    /** The tool's annotations, from `tools/list` (`(await client.listTools()).tools[i].annotations`).
     * Given, a failure that may have had effects (a timeout, a network error, an upstream 5xx,
     * an unavailable without 429/503) is called again only when the tool is read-only or
     * idempotent; a refusal before any work (a rate limit, a 429/503) is called again for any
     * tool. Absent: every retryable failure is called again, as before. */
    annotations?: ToolAnnotations;
}
/** How `callToolWithRetry` ended. */
export interface RetryOutcome<R = CallToolResult> {
    /** The last call's result, as the client returned it; `undefined` when the last call threw
     * a protocol error (see `protocolError`). */
    result: R | undefined;
    /** The last call's canonical error (`parseResult`'s reading of it), or `null` on success. */
    error: NormalizedError | null;
    /** How many calls were made. */
    attempts: number;
    /** Why the calls stopped: `succeeded`, `not retryable`, `not safe to call again: …`,
     * `attempts exhausted`, or `time budget exhausted`. */
    reason: string;
    /** Present only when the last call threw a protocol error (a JSON-RPC error with a numeric
     * `code`: the SDK's `McpError` / `ProtocolError`): that error, which `error` reads. */
    protocolError?: Error;
    /** @deprecated The old name of `protocolError` (the same error). */
    thrown?: Error;
}
/**
 * Call a tool through an MCP SDK client, and call it again while its failure is retryable.
 *
 * Each call's outcome is read with `parseResult`: an `isError` result (or any result carrying
 * one of the error objects it reads), or a protocol error the client throws (an `Error` with a
 * numeric JSON-RPC `code`). It calls again only when that error is `retryable`, after waiting
 * `retry_after_ms` (cut to `maxDelayMs`) when the server gave one, otherwise a random wait
 * below `min(maxBackoffMs, baseDelayMs * 2 ** (attempt - 1))` (full jitter). It stops after
 * `maxAttempts` calls, or when the next wait would end after `maxElapsedMs`, and resolves with
 * the last call's outcome.
 *
 * It resolves, and does not throw, for every protocol error, retried or not: the last one is
 * `protocolError`, with `result` `undefined` and `error` its canonical reading, so one check of
 * `error` covers tool errors and protocol errors alike. It rejects with what the client threw
 * for anything else (a transport failure, an SDK error without a numeric code), with
 * `signal.reason` when `policy.signal` aborts, and with an `McpErrorsError` of kind
 * `invalid_option` for a policy out of range (before any call).
 *
 * @param client An MCP SDK `Client` (v1 `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/client`), connected.
 * @param params The `tools/call` params, as `client.callTool` takes them.
 * @param policy When to call again and how long to wait; every field has a default.
 */
export declare function callToolWithRetry<C extends ToolCallingClient>(client: C, params: CallToolParams, policy?: RetryPolicy): Promise<RetryOutcome<Awaited<ReturnType<C['callTool']>>>>;

// ---- dist/types.d.ts
import type { Category, ErrorCode, Format, Limits, Profile, SpecRevision, Target } from './contract.js';
export type { Category, ErrorCode, Format, Limits, Profile, SpecRevision, Target };
/** The canonical, normalized error: the same JSON in every language. */
export interface NormalizedError {
    code: ErrorCode;
    category: Category;
    retryable: boolean;
    retry_after_ms?: number;
    http_status?: number;
    message: string;
    tool?: string;
    app_code?: string;
    app_type?: string;
    /** True for a deliberate error whose message is safe to show. */
    expected?: boolean;
    details?: Record<string, unknown>;
    suggestions?: string[];
    /** The signals that decided the classification, e.g. `["http 429", "retry-after 30s"]`. */
    evidence: string[];
    /** The upstream response `{status, body}`, when there was one. */
    original?: unknown;
}
export interface RenderOptions {
    /** Default `canonical`. */
    profile?: Profile;
    /** Default `markdown`. */
    format?: Format;
    /** Default `2025-11-25`. */
    spec?: SpecRevision;
    /** Default `tool-result`. */
    target?: Target;
    /** The tool's name; falls back to the error's own `tool`. */
    toolName?: string;
    /** The time of the error. Default: now. `null` leaves it out. */
    now?: Date | string | null;
    /** An id to correlate the result with the server log. */
    errorId?: string;
    /** The tool's declared `outputSchema`: no `structuredContent` that breaks it is emitted. */
    outputSchema?: Record<string, unknown> | string;
    /** Fields added at the top level of the profile object (e.g. `{ metrics_available: false }`),
     * as an object or as JSON text (text keeps integers past 2^53 exact). */
    extraFields?: Record<string, unknown> | string;
    /** Mask unexpected errors: the model sees what kind of failure happened and the error id
     * ("The tool hit an internal error (error id 1a2b3c4d)."), no message, details or original. */
    mask?: boolean;
    /** The sentence a masked error shows instead of its code's own ("The weather service
     * failed"); the error id is added to it. */
    maskedMessage?: string;
    /**
     * Also write the proposed machine-readable failure (SEP-3313, open) on a tool result:
     * `_meta["io.modelcontextprotocol/toolFailure"]` (`class`, `code`, `retryable`,
     * `retryNotBefore`, `correlationId` = the error id). Off by default while it is a proposal.
     */
    toolFailure?: boolean;
    /** Bounds on the message, details, original and the whole output (absent = the defaults). */
    limits?: Limits;
    /** Your own recognizer rules (or their JSON text): they beat every built-in signal. */
    rules?: Rule[] | string;
}
/** One condition of a rule; every key given must hold. */
export interface RuleCondition {
    /** An HTTP status, a class such as `"5xx"`, or a list of them. */
    status?: number | string | (number | string)[];
    /** The error class: the whole name or its last segment. */
    name?: string | string[];
    /** The error's `code` equals one of these. */
    code?: string | number | (string | number)[];
    /** The message contains this phrase (any case, at a word start). */
    message?: string;
    /** A location: `body.fault.kind`, `body.errors[].code`, `headers.x-reason`, `cause.name`. */
    path?: string;
    equals?: string | number | boolean | (string | number | boolean)[];
    in?: (string | number | boolean)[];
    contains?: string;
    prefix?: string;
    exists?: boolean;
}
/** Where a retry delay is stated, and in which unit. */
export interface RuleDelay {
    path: string;
    /** Default `s`. */
    unit?: 's' | 'ms';
}
/** The verdict of a rule or of one row of a table. */
export interface RuleVerdict {
    code: string;
    retryable?: boolean;
    retry_after?: RuleDelay;
}
/**
 * A recognizer rule, in the JSON form the library's own tables use (`rules/*.json`): a
 * matcher (`when`) and a verdict, or a table (`at` + `rows`) of verdicts by value.
 */
export interface Rule extends Partial<RuleVerdict> {
    /** Named in the evidence as `rule ID`. */
    id: string;
    when?: RuleCondition | RuleCondition[];
    at?: string | string[];
    take?: 'exact' | 'name' | 'phrase' | 'first_word' | 'prefix2';
    rows?: Record<string, RuleVerdict>;
}
/** Options of `classify` / `classifyJson`. */
export interface ClassifyOptions {
    /** The current time, for HTTP-date `Retry-After` and epoch reset headers. */
    now?: Date | string | null;
    limits?: Limits;
    /** Your own recognizer rules (or their JSON text). */
    rules?: Rule[] | string;
}
/** Hints from the tool author, merged into the raw error. */
export interface Hints {
    tool?: string;
    appCode?: string;
    appType?: string;
    details?: Record<string, unknown> | string;
    suggestions?: string[];
    /** A deliberate error whose message is safe to show. */
    expected?: boolean;
    retryable?: boolean;
    retryAfterMs?: number;
    /** The framework validated the caller's arguments before the tool ran (set by
     * `withServerErrors` for tools with an input schema): a validation error the tool throws
     * (a `ZodError` checking an upstream payload) is then INTERNAL, not INVALID_ARGUMENT. */
    inputValidated?: boolean;
}
/** A text content block. */
export interface TextContent {
    type: 'text';
    text: string;
    mimeType?: string;
    [key: string]: unknown;
}
/** An MCP `CallToolResult`, as rendered (assignable to the SDK's type). */
export interface CallToolResult {
    [key: string]: unknown;
    resultType?: string;
    content: TextContent[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
}
/** One row of the taxonomy. */
export interface CodeInfo {
    code: ErrorCode;
    category: Category;
    httpStatus: number;
    grpcCode: number;
    jsonrpcCode: number;
    retryable: boolean;
    doc: string;
}

// ---- dist/workerd.d.ts
export * from './api.js';
export * from './parse.js';
export * from './retry.js';
/** Resolves when the component can be called: at once on Workers. */
export declare function ready(): Promise<void>;
