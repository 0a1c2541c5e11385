/**
 * `callToolWithRetry`: call an MCP tool, read each failure with `parseResult`, and call again
 * while the canonical error says the failure is retryable, waiting as the server asked
 * (`retry_after_ms`) or with capped exponential backoff and full jitter. Never logs.
 *
 * ```ts
 * const { result, error, attempts } = await callToolWithRetry(client, { name: 'weather', arguments: { city: 'Paris' } },
 *   { maxAttempts: 4, signal: AbortSignal.timeout(30_000) });
 * if (error) console.error(`${error.code} after ${attempts} calls: ${error.message}`);
 * ```
 */
import { MAY_HAVE_HAD_EFFECTS, REFUSAL_STATUSES } from './contract.js';
import { McpErrorsError } from './engine.js';
import { parseResult } from './parse.js';
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
  // `any`: each SDK generation types the rest differently (a result schema, request options).
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

const DEFAULTS = {
  maxAttempts: 3,
  maxElapsedMs: 60_000,
  baseDelayMs: 500,
  maxBackoffMs: 10_000,
  maxDelayMs: 30_000,
} as const;

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
export async function callToolWithRetry<C extends ToolCallingClient>(
  client: C,
  params: CallToolParams,
  policy: RetryPolicy = {},
): Promise<RetryOutcome<Awaited<ReturnType<C['callTool']>>>> {
  type R = Awaited<ReturnType<C['callTool']>>;
  const p = checkedPolicy(policy);
  const { signal, onRetry } = policy;
  const random = policy.random ?? Math.random;
  if (signal?.aborted) throw signal.reason;
  const optionsSecond = takesOptionsSecond(client);
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    let result: R | undefined;
    let thrown: Error | undefined;
    try {
      result = await abortable(invoke(client, params, signal, optionsSecond), signal) as R;
    } catch (e) {
      // Aborted: the signal's reason, whatever the SDK made of it.
      if (signal?.aborted) throw signal.reason;
      if (!isProtocolError(e)) throw e;
      thrown = e;
    }
    const error = parseResult(thrown ?? result, policy.parseOptions);
    // Not expected (a JSON-RPC error always reads as an error); never swallow a throw.
    if (thrown !== undefined && error === null) throw thrown;
    const ended = (reason: string): RetryOutcome<R> => (thrown === undefined
      ? { result, error, attempts: attempt, reason }
      : { result: undefined, error, attempts: attempt, reason, protocolError: thrown, thrown });
    if (error === null) return ended('succeeded');
    if (!error.retryable) return ended('not retryable');
    const safety = retrySafety(error, policy.annotations);
    if (!safety.safe) return ended(`not safe to call again: ${safety.reason}`);
    if (attempt >= p.maxAttempts) return ended('attempts exhausted');
    const delayMs = delayFor(error, attempt, p, random);
    if (Date.now() - start + delayMs > p.maxElapsedMs) return ended('time budget exhausted');
    onRetry?.({ attempt, delayMs, error, reason: safety.reason });
    await wait(delayMs, signal);
  }
}

type Settled = { -readonly [K in keyof typeof DEFAULTS]: number };

/** The policy with its defaults, every number checked. */
function checkedPolicy(policy: RetryPolicy): Settled {
  if (typeof policy !== 'object' || policy === null) {
    throw new McpErrorsError('invalid_option', 'callToolWithRetry: the policy must be an object');
  }
  const out = { ...DEFAULTS } as Settled;
  for (const name of Object.keys(DEFAULTS) as (keyof Settled)[]) {
    const value = policy[name];
    if (value === undefined) continue;
    const unbounded = name === 'maxAttempts' || name === 'maxElapsedMs';
    const ok = typeof value === 'number' && value >= 0 && (Number.isFinite(value) || (unbounded && value === Infinity))
      && (name !== 'maxAttempts' || value >= 1 && (Number.isInteger(value) || value === Infinity));
    if (!ok) {
      const want = name === 'maxAttempts' ? 'an integer of at least 1, or Infinity'
        : unbounded ? 'a non-negative number, or Infinity' : 'a finite non-negative number';
      throw new McpErrorsError('invalid_option', `callToolWithRetry: ${name} must be ${want}, not ${String(value)}`);
    }
    out[name] = value;
  }
  for (const name of ['onRetry', 'random'] as const) {
    if (policy[name] !== undefined && typeof policy[name] !== 'function') {
      throw new McpErrorsError('invalid_option', `callToolWithRetry: ${name} must be a function`);
    }
  }
  return out;
}

/** Whether calling a tool again after this retryable failure is safe, and why: a failure the
 * core lists as one that may have had effects (`MAY_HAVE_HAD_EFFECTS`, unless an UNAVAILABLE
 * with a refusal status) needs a read-only or idempotent tool, when its annotations are known. */
function retrySafety(error: NormalizedError, annotations: ToolAnnotations | undefined): { safe: boolean; reason: string } {
  const code = error.code;
  const refused = code === 'UNAVAILABLE' && (REFUSAL_STATUSES as readonly number[]).includes(error.http_status ?? 0);
  if (!(MAY_HAVE_HAD_EFFECTS as readonly string[]).includes(code) || refused) {
    return { safe: true, reason: `${code}: refused before any work` };
  }
  if (annotations === undefined || annotations === null) {
    return { safe: true, reason: `${code} may have had effects; the tool's annotations are unknown` };
  }
  if (annotations.readOnlyHint === true) return { safe: true, reason: `${code} may have had effects; the tool is read-only` };
  if (annotations.idempotentHint === true) return { safe: true, reason: `${code} may have had effects; the tool is idempotent` };
  return { safe: false, reason: `${code} may have had effects, and the tool is neither read-only nor idempotent` };
}

/** The wait after a retryable failure: the server's `retry_after_ms` (cut to `maxDelayMs`),
 * else full-jitter exponential backoff. Whole milliseconds. */
function delayFor(error: NormalizedError, attempt: number, p: Settled, random: () => number): number {
  const after = error.retry_after_ms;
  if (typeof after === 'number' && Number.isFinite(after) && after >= 0) return Math.min(Math.ceil(after), p.maxDelayMs);
  const ceiling = Math.min(p.maxBackoffMs, p.baseDelayMs * 2 ** (attempt - 1));
  const r = random();
  // A random source out of [0, 1) cannot push the wait out of [0, ceiling].
  return Math.floor((Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0) * ceiling);
}

/** An SDK's protocol error (`McpError` in v1, `ProtocolError` in v2): an `Error` with a numeric
 * JSON-RPC `code`, which `parseResult` reads. */
function isProtocolError(e: unknown): e is Error {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'number';
}

/** Whether the client takes its request options second (v2's `callTool(params, options)`)
 * rather than third (v1's `callTool(params, resultSchema?, options?)`): a v2 `Client` has
 * `getProtocolEra` (2.4), and its `callTool` declares two parameters where v1's declares one
 * (its result schema has a default). */
function takesOptionsSecond(client: ToolCallingClient): boolean {
  return typeof (client as { getProtocolEra?: unknown }).getProtocolEra === 'function' || client.callTool.length === 2;
}

/** One `tools/call`, the signal in the request options; a synchronous throw becomes a rejection. */
function invoke(client: ToolCallingClient, params: CallToolParams, signal: AbortSignal | undefined, optionsSecond: boolean): Promise<unknown> {
  const options = signal === undefined ? undefined : { signal };
  return new Promise((resolve) => {
    resolve(optionsSecond ? client.callTool(params, options) : client.callTool(params, undefined, options));
  });
}

/** `pending`, or a rejection with `signal.reason` as soon as the signal aborts. */
function abortable<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      // Still settle `pending` quietly: its rejection must not go unhandled.
      pending.catch(() => {});
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Wait `ms` milliseconds, or reject with `signal.reason` as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
