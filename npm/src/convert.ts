// Native JavaScript errors → the raw-error input (JSON). Conversion only: every
// decision about what an error means is made by the component.
import type { Hints } from './types.js';
import { McpErrorsError } from './engine.js';
import {
  CONVERT_MAX_DEPTH as MAX_DEPTH, CONVERT_MAX_ITEMS as MAX_ITEMS, CONVERT_MAX_STRING as MAX_STRING, HINT_FIELDS,
  NEVER_COPIED,
} from './contract.js';

/**
 * A deliberate error of a tool: its message is safe to show the model and is
 * never masked. Carry your own code, type, details and recovery suggestions.
 *
 * ```ts
 * throw new ToolError('No city named Atlantis', { appCode: 'CITY_NOT_FOUND', suggestions: ['Check the spelling'] });
 * ```
 */
export class ToolError extends Error {
  readonly appCode?: string;
  readonly appType?: string;
  readonly details?: Record<string, unknown> | string;
  readonly suggestions?: string[];
  readonly retryable?: boolean;
  /** How long to wait before retrying, in milliseconds, when the author knows it. */
  readonly retryAfterMs?: number;
  /** A canonical code (e.g. `NOT_FOUND`), when the author knows it. */
  readonly code?: string;

  constructor(
    message: string,
    options: Omit<Hints, 'tool' | 'expected'> & { code?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.appCode = options.appCode;
    this.appType = options.appType;
    this.details = options.details;
    this.suggestions = options.suggestions;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
  }
}

/** Error classes MCP frameworks ask their users to throw for errors the model should read:
 * FastMCP for TypeScript's `UserError` (punkpeye/fastmcp, src/FastMCP.ts). */
const USER_ERROR_NAMES = new Set(['UserError']);

/** Properties not copied as they are: never (`NEVER_COPIED`), or converted on their own. */
const SKIP = new Set<string>([...NEVER_COPIED, 'toJSON', 'response', 'cause', 'errors']);

function clip(s: string): string {
  return s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}…[truncated]` : s;
}

function headersToPairs(h: unknown): [string, string][] | undefined {
  if (typeof Headers !== 'undefined' && h instanceof Headers) {
    return [...h.entries()];
  }
  return undefined;
}

/** Any value → JSON-safe data, bounded in depth and size, cycles cut. */
function plain(v: unknown, depth: number, seen: object[]): unknown {
  if (v === undefined) return undefined;
  if (v === null) return null;
  switch (typeof v) {
    case 'string':
      return clip(v);
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'boolean':
      return v;
    case 'bigint':
      return v.toString();
    case 'function':
    case 'symbol':
      return undefined;
  }
  const o = v as object;
  // An error inside a value: converted as an error (which keeps its own watch on cycles).
  if (o instanceof Error) return raw(o, depth + 1, seen);
  if (depth > MAX_DEPTH || seen.includes(o)) return '[circular or too deep]';
  seen.push(o);
  try {
    if (o instanceof Date) return Number.isNaN(o.getTime()) ? String(o) : o.toISOString();
    if (o instanceof URL) return o.href;
    const pairs = headersToPairs(o);
    if (pairs) return pairs;
    if (ArrayBuffer.isView(o) || o instanceof ArrayBuffer) return bytesText(o);
    if (o instanceof Map) return plain(Object.fromEntries(o), depth + 1, seen);
    if (Array.isArray(o)) {
      return o.slice(0, MAX_ITEMS).map((x) => plain(x, depth + 1, seen) ?? null);
    }
    const toJSON = (o as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      try {
        return plain(toJSON.call(o), depth + 1, []);
      } catch {
        return '[unserializable]';
      }
    }
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const key of Object.keys(o)) {
      if (n++ >= MAX_ITEMS) break;
      let value: unknown;
      try {
        value = (o as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      const p = plain(value, depth + 1, seen);
      if (p !== undefined) out[key] = p;
    }
    return out;
  } finally {
    seen.pop();
  }
}

/** A fetch `Response` (the body cannot be read synchronously; pass it as `body` if you have it). */
function responseRaw(r: Response): Record<string, unknown> {
  return { name: 'Response', status: r.status, message: r.statusText || `HTTP ${r.status}`, headers: [...r.headers.entries()] };
}

/** Bytes that are UTF-8 as their text (clipped); others as how many there were (every host alike). */
function bytesText(o: ArrayBufferView | ArrayBuffer): string {
  const bytes = o instanceof ArrayBuffer ? new Uint8Array(o) : new Uint8Array(o.buffer, o.byteOffset, o.byteLength);
  try {
    return clip(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return `[${o.byteLength} bytes]`;
  }
}

function raw(e: unknown, depth: number, seen: object[]): unknown {
  if (typeof Response !== 'undefined' && e instanceof Response) return responseRaw(e);
  if (typeof e !== 'object' || e === null) return plain(e, depth, seen);
  // An error met again (its own cause) or past the depth: cut, as every host does.
  if (seen.includes(e) || depth > MAX_DEPTH) return { message: '[circular or too deep]' };
  seen.push(e);
  try {
    return rawObject(e, depth, seen);
  } finally {
    seen.pop();
  }
}

function rawObject(e: object, depth: number, seen: object[]): Record<string, unknown> {
  const o = e as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (e instanceof Error || (typeof DOMException !== 'undefined' && e instanceof DOMException)) {
    out.name = (e as Error).name;
    out.message = clip((e as Error).message ?? '');
  }
  for (const key of Object.keys(o)) {
    if (SKIP.has(key) || key in out) continue;
    let value: unknown;
    try {
      value = o[key];
    } catch {
      continue;
    }
    const p = plain(value, depth + 1, seen);
    if (p !== undefined) out[key] = p;
  }
  // DOMException's code is a prototype getter, not an own property.
  if (!('code' in out) && typeof (e as { code?: unknown }).code === 'number' && (e as { code: number }).code !== 0) {
    out.code = (e as { code: number }).code;
  }
  // The "user error" classes of TypeScript MCP frameworks: errors meant for the model to read.
  if (USER_ERROR_NAMES.has((e as Error).name) && !('expected' in out)) out.expected = true;
  if (e instanceof ToolError) {
    delete out.appCode;
    delete out.appType;
    delete out.retryAfterMs;
    out.expected = true;
    if (e.appCode !== undefined) out.app_code = e.appCode;
    if (e.appType !== undefined) out.app_type = e.appType;
    if (e.retryAfterMs !== undefined) out.retry_after_ms = e.retryAfterMs;
  }
  // axios / got / ky: the upstream response.
  const response = o.response;
  if (response && typeof response === 'object') {
    if (typeof Response !== 'undefined' && response instanceof Response) {
      out.response = responseRaw(response);
    } else {
      const r = response as Record<string, unknown>;
      const converted: Record<string, unknown> = {};
      for (const key of ['status', 'statusCode', 'statusText', 'headers', 'data', 'body']) {
        if (key in r) converted[key] = plain(r[key], depth + 1, seen);
      }
      out.response = converted;
    }
  }
  if ('cause' in o && o.cause !== undefined && depth < MAX_DEPTH) {
    out.cause = raw(o.cause, depth + 1, seen);
  }
  if (Array.isArray(o.errors)) {
    out.errors = o.errors.slice(0, MAX_ITEMS).map((m) => raw(m, depth + 1, seen));
  }
  return out;
}

/** Convert any thrown value into the raw-error input, with the author's hints on top. */
export function toRawError(err: unknown, hints: Hints = {}): Record<string, unknown> | unknown {
  let value: unknown;
  try {
    value = raw(err, 0, []);
  } catch {
    value = { message: safeString(err) };
  }
  for (const key of Object.keys(hints ?? {})) {
    if (!HINT_FIELDS.some(([name]) => name === key)) {
      throw new McpErrorsError('invalid_option', `unknown hint ${JSON.stringify(key)}; expected one of: ${HINT_FIELDS.map(([name]) => name).join(', ')}`);
    }
  }
  let extra: Record<string, unknown> | undefined;
  for (const [from, to] of HINT_FIELDS) {
    const v = hints[from];
    if (v !== undefined) (extra ??= {})[to] = v;
  }
  if (extra === undefined) return value;
  const base = typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : value === null || value === undefined ? {} : { message: safeString(value) };
  return { ...base, ...extra };
}

function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return '[unprintable]';
  }
}
