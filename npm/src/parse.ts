/**
 * `parseResult`: a tool call's failure read back into the canonical error, and
 * `callToolWithRetry`'s verdict. Conversion only: the core decides.
 */
import { FAILURE_MARKS, FAILURE_PREFIXES } from './contract.js';
import { McpErrorsError } from './engine.js';
import { parseResultJson } from './api.js';
import type { ClassifyOptions, NormalizedError } from './types.js';

/** The `_meta` key of the proposed machine-readable tool failure (SEP-3313). */
export const TOOL_FAILURE_META_KEY = 'io.modelcontextprotocol/toolFailure';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text block the core reads even without `isError: true`: a JSON object (maybe one of
 * this project's error objects, or one that says it failed), a text that starts as an error
 * message does (`Error: …`, `Error executing …`, `ERROR: …`, quoted or not), or one with a
 * failure's mark anywhere (`<error>`: `FAILURE_MARKS`; the core reads one that starts a line). */
const mayBeAFailure = (text: string): boolean => {
  const t = text.trimStart();
  const unquoted = t.replace(/^"+/, '');
  return t.startsWith('{') || FAILURE_PREFIXES.some((p) => unquoted.startsWith(p))
    || FAILURE_MARKS.some((m) => text.includes(m));
};

/**
 * Whether a result is surely not an error, decided here without entering the component: a
 * `CallToolResult` (or a JSON-RPC response carrying one) without `isError: true` (on the result
 * or on a block), without a
 * `toolFailure`, without `structuredContent` and without a text block the core reads as a
 * possible failure (`mayBeAFailure`). The core answers `null` for every result this accepts.
 */
export function surelyNotAnError(value: unknown): boolean {
  if (!isObject(value) || 'error' in value) return false;
  const envelope = 'jsonrpc' in value || 'id' in value;
  const result = envelope ? value.result : value;
  if (!isObject(result) || result.isError === true || result.structuredContent !== undefined) return false;
  if (isObject(result._meta) && TOOL_FAILURE_META_KEY in result._meta) return false;
  const content = result.content;
  if (!Array.isArray(content) || content.length > 16) return false;
  return content.every((b) => !(isObject(b) && (b.isError === true
    || (b.type === 'text' && typeof b.text === 'string' && mayBeAFailure(b.text)))));
}

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
export function parseResult(result: unknown, options: ClassifyOptions = {}): NormalizedError | null {
  if (surelyNotAnError(result)) return null;
  try {
    const text = JSON.stringify(rpcErrorOf(result) ?? result);
    if (text === undefined) throw new McpErrorsError('invalid_input', 'the result is not JSON');
    const out = parseResultJson(text, options);
    return out === null ? null : JSON.parse(out) as NormalizedError;
  } catch (e) {
    return unreadable(e);
  }
}

/** An SDK's thrown protocol error (`McpError` in v1, `ProtocolError` in v2) as its JSON-RPC error. */
function rpcErrorOf(value: unknown): Obj | undefined {
  if (!(value instanceof Error)) return undefined;
  const { code, data } = value as Error & { code?: unknown; data?: unknown };
  if (typeof code !== 'number') return undefined;
  // v1 prefixes the message with `MCP error <code>: `; the core reads either.
  return data === undefined ? { code, message: value.message } : { code, message: value.message, data };
}

function unreadable(e: unknown): NormalizedError {
  // The component's own failures (a trap included) arrive typed; anything else is the
  // result's: not serializable as JSON (a BigInt, a cycle).
  const kind = e instanceof McpErrorsError ? e.kind : 'invalid_input';
  const why = e instanceof Error ? e.message : String(e);
  return {
    code: 'UNKNOWN',
    category: 'unknown',
    retryable: false,
    message: 'The tool result could not be read.',
    evidence: [`parse failed: ${kind}: ${why}`],
  };
}
