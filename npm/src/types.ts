import type {
  Category, ErrorCode, Format, HINT_FIELDS, Limits, Profile, SpecRevision, Target,
} from './contract.js';

// The enums and the limits are generated from the core (contract.ts).
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

/** The same names both ways: the hints here are the core's (contract.ts), or this fails to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type HintsAreTheCore = Same<keyof Hints, (typeof HINT_FIELDS)[number][0]> extends true ? true : never;
const hintsAreTheCore: HintsAreTheCore = true;
void hintsAreTheCore;

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
