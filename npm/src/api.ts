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
import { call, McpErrorsError } from './engine.js';
import { toRawError, ToolError } from './convert.js';
import { FORMATS, LIMIT_NAMES, PROFILES, SPEC_REVISIONS, TARGETS } from './contract.js';
import type {
  CallToolResult, Category, ClassifyOptions, CodeInfo, ErrorCode, Hints, Limits, NormalizedError, Profile, RenderOptions, Rule, SpecRevision,
} from './types.js';
import type * as Types from './generated/interfaces/mcp-errors-core-types.js';

export { McpErrorsError, ToolError, toRawError };
export type { McpErrorsErrorKind } from './engine.js';
export type * from './types.js';

/** A revision's public name → the WIT enum's case (`2025-11-25` → `v20251125`). */
function witSpec(name: SpecRevision): Types.SpecRevision {
  return `v${name.replace(/-/g, '')}` as Types.SpecRevision;
}

function time(now: RenderOptions['now']): string | undefined {
  if (now === null) return undefined;
  if (now === undefined) return new Date().toISOString();
  return typeof now === 'string' ? now : now.toISOString();
}

const NAMES = {
  profile: PROFILES,
  format: FORMATS,
  'spec revision': SPEC_REVISIONS,
  target: TARGETS,
} as const;

/** Check an option's name; the same message as the core's for the same mistake. */
function checked<T extends string>(label: keyof typeof NAMES, value: string | undefined, fallback: T): T {
  if (value === undefined) return fallback;
  const names: readonly string[] = NAMES[label];
  if (!names.includes(value)) {
    throw new McpErrorsError('invalid_option', `unknown ${label} ${JSON.stringify(value)}; expected one of: ${names.join(', ')}`);
  }
  return value as T;
}

/** Public options → the component's record. Conversion only. */
function witOptions(o: RenderOptions = {}): Types.RenderOptions {
  const spec = witSpec(checked('spec revision', o.spec, '2025-11-25'));
  return {
    profile: checked('profile', o.profile, 'canonical'),
    format: checked('format', o.format, 'markdown'),
    spec,
    target: checked('target', o.target, 'tool-result'),
    toolName: o.toolName,
    now: time(o.now),
    errorId: o.errorId,
    outputSchema: o.outputSchema === undefined ? undefined
      : typeof o.outputSchema === 'string' ? o.outputSchema : JSON.stringify(o.outputSchema),
    extraFields: o.extraFields === undefined ? undefined
      : typeof o.extraFields === 'string' ? o.extraFields : JSON.stringify(o.extraFields),
    mask: o.mask ?? false,
    maskedMessage: o.maskedMessage,
    limits: witLimits(o.limits),
    rules: witRules(o.rules),
    toolFailure: o.toolFailure ?? false,
  };
}

/** Rules as the JSON text the component takes (the core checks them). */
function witRules(r: Rule[] | string | undefined): string | undefined {
  if (r === undefined || r === null) return undefined;
  return typeof r === 'string' ? r : JSON.stringify(r);
}

export { LIMIT_NAMES };
/** Every code, category, profile, format, revision and target, in the core's order. */
export { CATEGORIES, ERROR_CODES, FORMATS, PROFILES, SPEC_REVISIONS, TARGETS } from './contract.js';

/** Public limits → the component's record. The core checks every range; only values that
 * cannot cross the boundary (not an integer from 0 to 2^32 - 1) and unknown names stop here. */
function witLimits(l: Limits | undefined): Types.Limits | undefined {
  if (l === undefined || l === null) return undefined;
  const out: Types.Limits = {};
  if (typeof l !== 'object') throw new McpErrorsError('invalid_option', '"limits" must be an object');
  for (const [name, value] of Object.entries(l)) {
    if (!(LIMIT_NAMES as readonly string[]).includes(name)) {
      throw new McpErrorsError('invalid_option', `unknown limit ${JSON.stringify(name)}; expected one of: ${LIMIT_NAMES.join(', ')}`);
    }
    if (value === undefined || value === null) continue;
    if (!Number.isInteger(value) || value < 0) {
      throw new McpErrorsError('invalid_option', `limit ${JSON.stringify(name)} must be a non-negative integer`);
    }
    if (value > 0xffffffff) {
      throw new McpErrorsError('invalid_option', `limit ${JSON.stringify(name)} is ${value}; it must be below 4294967296`);
    }
    out[name as (typeof LIMIT_NAMES)[number]] = value;
  }
  return out;
}

/** Classify raw-error JSON text; returns the canonical JSON text (the bytes every host prints). */
export function classifyJson(raw: string, options: ClassifyOptions = {}): string {
  return call((api) => api.classifyJson(raw, witClassifyOptions(options, false)));
}

/** Public classify options → the WIT record. `now` defaults to the current time when `clock`. */
function witClassifyOptions(options: ClassifyOptions, clock: boolean): Types.ClassifyOptions {
  return {
    now: options.now == null && !clock ? undefined : time(options.now),
    limits: witLimits(options.limits),
    rules: witRules(options.rules),
  };
}

/**
 * Read a tool call's result back, as an MCP server sent it (JSON text of a `CallToolResult`,
 * a JSON-RPC response or a bare JSON-RPC error object): the canonical error as JSON text, or
 * `null` when the result is not an error. Throws `McpErrorsError` for input that is none of
 * those. `now` (default: the current time) turns a `toolFailure`'s `retryNotBefore` into a delay.
 */
export function parseResultJson(result: string, options: ClassifyOptions = {}): string | null {
  const out = call((api) => api.parseJson(result, witClassifyOptions(options, true)));
  return out === 'null' ? null : out;
}

/** Classify raw-error JSON text and render it; returns the rendered JSON text. */
export function renderJson(raw: string, options: RenderOptions = {}): string {
  return call((api) => api.classifyRender(raw, witOptions(options)));
}

/** Classify any thrown value (with optional hints) into the canonical normalized error.
 * `now` defaults to the current time (as in `toolResult`), so an HTTP-date `Retry-After`
 * becomes a delay; `now: null` leaves the clock out (the evidence then says a date was not read). */
export function classify(err: unknown, hints?: Hints, options: ClassifyOptions = {}): NormalizedError {
  const raw = JSON.stringify(toRawError(err, hints)) ?? 'null';
  return JSON.parse(call((api) => api.classifyJson(raw, witClassifyOptions(options, true)))) as NormalizedError;
}

/** Render a normalized error as the chosen profile, format, revision and target. */
export function render(error: NormalizedError, options: RenderOptions = {}): unknown {
  // As canonical JSON text: the core reads and checks it (a wrong field is a typed error,
  // with the same words in every host), no second copy of its rules here.
  let text: string | undefined;
  try {
    text = JSON.stringify(error);
  } catch (e) {
    throw new McpErrorsError('invalid_input', `not a normalized error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (text === undefined) throw new McpErrorsError('invalid_input', 'not a normalized error: expected an object');
  const json = text;
  return JSON.parse(call((api) => api.renderJson(json, jsonOptions(options))));
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Public options → the core's JSON options (`RenderOptions::from_json`), after the same
 * checks as the typed path. Conversion only. */
function jsonOptions(o: RenderOptions): string {
  const w = witOptions(o);
  return JSON.stringify({
    profile: w.profile,
    format: w.format,
    spec: checked('spec revision', o.spec, '2025-11-25'),
    target: w.target,
    tool_name: w.toolName,
    now: w.now,
    error_id: w.errorId,
    output_schema: w.outputSchema,
    extra_fields: w.extraFields,
    mask: w.mask,
    masked_message: w.maskedMessage,
    limits: w.limits && Object.fromEntries(Object.entries(w.limits).map(([k, v]) => [snake(k), v])),
    rules: w.rules,
    tool_failure: w.toolFailure,
  });
}

/** The minimal valid error result used when the error itself could not be normalized. */
export function fallbackResult(reason: unknown, options: RenderOptions = {}): CallToolResult {
  const why = reason instanceof Error ? reason.message : String(reason);
  const result: CallToolResult = {
    content: [{
      type: 'text',
      text: `Error: the tool failed, and mcp-errors could not normalize the error (${why}).`,
    }],
    isError: true,
  };
  return options.spec === '2026-07-28' ? { resultType: 'complete', ...result } : result;
}

/**
 * Any thrown value → a ready `CallToolResult`. Never throws: if the error cannot be
 * normalized (or the component traps), a minimal valid error result says so.
 * Unexpected errors are masked by default (`mask: true`); `ToolError`s never are.
 */
export function toolResult(err: unknown, options: RenderOptions & { hints?: Hints } = {}): CallToolResult {
  const { hints, ...renderOptions } = options;
  const opts: RenderOptions = { mask: true, ...renderOptions };
  let raw: string;
  try {
    raw = rawText(err, opts.toolName, hints);
  } catch (e) {
    return fallbackResult(e, opts);
  }
  return resultFromRaw(raw, opts);
}

/** A thrown value as raw-error JSON text, with the tool name and the author's hints. */
function rawText(err: unknown, toolName: string | undefined, hints: Hints | undefined): string {
  return JSON.stringify(toRawError(err, { tool: toolName, ...hints })) ?? 'null';
}

/** Render raw-error text as a tool result; never throws. A trap drops the instance, and one
 * retry runs on a fresh one. */
function resultFromRaw(raw: string, opts: RenderOptions): CallToolResult {
  try {
    return JSON.parse(againAfterTrap(() => renderJson(raw, opts))) as CallToolResult;
  } catch (e) {
    return fallbackResult(e, opts);
  }
}

/** A call into the component, made once more if it trapped (the trap dropped the instance, so
 * the second runs on a fresh one); any other error, or a second trap, is thrown. */
function againAfterTrap<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof McpErrorsError && e.kind === 'trap') return f();
    throw e;
  }
}

export interface WithErrorsOptions extends RenderOptions {
  hints?: Hints;
  /** Where the log record of each failure goes. Default: one JSON line on stderr. `false`: nowhere. */
  logger?: ((record: Record<string, unknown>) => void) | false;
  /** @deprecated The old name of `logger`. */
  log?: ((record: Record<string, unknown>) => void) | false;
  /** Error ids for correlation. Default: 8 random hex characters. */
  newErrorId?: () => string;
}

/** Every option name of `withErrors` (and, with `tools`, of `withServerErrors`). */
const RENDER_OPTION_NAMES = [
  'profile', 'format', 'spec', 'target', 'toolName', 'now', 'errorId', 'outputSchema', 'extraFields', 'mask',
  'maskedMessage', 'toolFailure', 'limits', 'rules',
] as const satisfies readonly (keyof RenderOptions)[];
const WRAPPER_OPTION_NAMES: readonly string[] = [...RENDER_OPTION_NAMES, 'hints', 'logger', 'log', 'newErrorId'];

/** Check a wrapper's options when it is built, so a mistake stops the server at start-up
 * instead of reaching the client at its first failure: unknown names, callbacks of the wrong
 * kind, and every render option as the core reads it (one render of a tiny error). */
function checkWrapperOptions(where: string, options: unknown, names: readonly string[] = WRAPPER_OPTION_NAMES): void {
  const fail = (why: string) => { throw new McpErrorsError('invalid_option', `${where}: ${why}`); };
  if (options === null || typeof options !== 'object') fail('options must be an object');
  const o = options as Record<string, unknown>;
  for (const name of Object.keys(o)) {
    if (!names.includes(name)) fail(`unknown option ${JSON.stringify(name)}; expected one of: ${names.join(', ')}`);
  }
  for (const name of ['logger', 'log'] as const) {
    const v = o[name];
    if (v !== undefined && v !== false && typeof v !== 'function') fail(`"${name}" must be a function or false`);
  }
  if (o.newErrorId !== undefined && typeof o.newErrorId !== 'function') fail('"newErrorId" must be a function');
  if (o.hints !== undefined) {
    try {
      toRawError({}, o.hints as Hints);
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
  }
  const render: Record<string, unknown> = {};
  for (const name of RENDER_OPTION_NAMES) if (o[name] !== undefined) render[name] = o[name];
  // A time, so that a profile that needs one (rpc-envelope) is checked like the others.
  render.now ??= '2026-01-01T00:00:00Z';
  try {
    renderJson('{"message":"x"}', render as RenderOptions);
  } catch (e) {
    if (e instanceof McpErrorsError && e.kind === 'invalid_option') fail(e.message);
    throw e;
  }
}

let warnedLog = false;
/** `logger`, or the deprecated `log` (warned once). */
function loggerOf(o: WithErrorsOptions): WithErrorsOptions['logger'] {
  if (o.log !== undefined && o.logger === undefined) {
    if (!warnedLog) {
      warnedLog = true;
      const p = (globalThis as { process?: { emitWarning?: (m: string, t: string) => void } }).process;
      p?.emitWarning?.('mcp-errors: the "log" option is now "logger"', 'DeprecationWarning');
    }
    return o.log;
  }
  return o.logger;
}

/** An MCP SDK's protocol error (v1 `McpError` and its subclasses such as
 * `UrlElicitationRequiredError`, v2 `ProtocolError`): a JSON-RPC error the SDK itself handles,
 * never turned into a tool result here. Known by class name, so no SDK is imported. */
function isProtocolError(err: unknown): boolean {
  if (!(err instanceof Error) || typeof (err as { code?: unknown }).code !== 'number') return false;
  for (let p = Object.getPrototypeOf(err); p !== null && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
    const name = (p as { constructor?: { name?: string } }).constructor?.name;
    if (name === 'McpError' || name === 'ProtocolError') return true;
  }
  return false;
}

/**
 * Wrap a tool handler (e.g. for `McpServer.registerTool`) so anything it throws becomes a
 * normalized error result, with a log record (never masked) sharing the result's error id.
 * A protocol error (the SDKs' `McpError` / `ProtocolError`, URL elicitation included) is
 * thrown on, for the SDK to handle as it would without this wrapper. The options are checked
 * here: a mistake throws `McpErrorsError` (`invalid_option`) naming the option.
 */
export function withErrors<A extends unknown[], R>(
  handler: (...args: A) => R | Promise<R>,
  options: WithErrorsOptions = {},
): (...args: A) => Promise<R | CallToolResult> {
  checkWrapperOptions('withErrors', options);
  return wrapHandler(handler, options);
}

/** What decides a tool's declared output schema at the time of a failure (JSON text), when
 * the server-wide form knows the tool. */
type SchemaSource = () => Promise<string | undefined>;

function wrapHandler<A extends unknown[], R>(
  handler: (...args: A) => R | Promise<R>,
  options: WithErrorsOptions,
  schema?: SchemaSource,
): (...args: A) => Promise<R | CallToolResult> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (err) {
      if (isProtocolError(err)) throw err;
      let opts = options;
      if (schema !== undefined && options.outputSchema === undefined) {
        let declared: string | undefined;
        try {
          declared = await schema();
        } catch {
          declared = NO_OBJECT;
        }
        if (declared !== undefined) opts = { ...options, outputSchema: declared };
      }
      return errorResult(err, opts);
    }
  };
}

/** A failure → its error result, with the log record and the span annotated. Never throws. */
function errorResult(err: unknown, options: WithErrorsOptions): CallToolResult {
  const { newErrorId, log: _log, logger: _logger, ...render } = options;
  const log = loggerOf(options);
  let errorId: string;
  try {
    errorId = render.errorId ?? (newErrorId ?? (() => globalThis.crypto.randomUUID().slice(0, 8)))();
  } catch (e) {
    return fallbackResult(e, render);
  }
  const { hints, ...rest } = { ...render, errorId };
  // One time for the log record and the result, as one error id.
  const opts: RenderOptions = { ...rest, now: time(rest.now) ?? null };
  let raw: string;
  try {
    // Converted once, for both the log record and the result.
    raw = rawText(err, opts.toolName, hints);
  } catch (e) {
    return fallbackResult(e, opts);
  }
  const resultOpts: RenderOptions = { mask: true, ...opts };
  const span = activeSpan();
  if (log === false && span === undefined) return resultFromRaw(raw, resultOpts);
  // Classified once: the log record and the result come from one normalized error.
  let pair: [string, string];
  try {
    pair = againAfterTrap(() => call((api) => api.classifyRenderWithLog(raw, witOptions(resultOpts))));
  } catch (e) {
    return fallbackResult(e, resultOpts);
  }
  try {
    const record = JSON.parse(pair[0]) as Record<string, unknown>;
    if (span !== undefined) annotateSpan(span, record, err);
    if (log !== false) (log ?? defaultLog)(record);
  } catch {
    // Logging and tracing must never break the error path.
  }
  return JSON.parse(pair[1]) as CallToolResult;
}

/** A JSON Schema that accepts nothing: a tool's output schema that could not be read, so no
 * error object is ever put in its `structuredContent`. */
const NO_OBJECT = '{"not":{}}';

/** The part of an OpenTelemetry span this package uses. */
interface OtelSpan {
  isRecording(): boolean;
  spanContext(): { traceId: string; spanId: string };
  setStatus(status: { code: number; message?: string }): unknown;
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes: Record<string, string>): unknown;
}

/** The thrown value's class: its constructor's name (a subclass that keeps `name` "Error"
 * still names itself), else its `name`, else its type. */
function exceptionType(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof ctor === 'string' && ctor !== '' && ctor !== 'Error' ? ctor : err.name;
}

/** The active OpenTelemetry span, when the application runs OpenTelemetry: read through the
 * API's global registration (`@opentelemetry/api` 1.x keeps its context manager under
 * `Symbol.for('opentelemetry.js.api.1')`, the active span under the context key
 * `Symbol.for('OpenTelemetry Context Key SPAN')`), so this package needs no dependency on it and
 * every runtime's build stays free of it. */
function activeSpan(): OtelSpan | undefined {
  try {
    const api = (globalThis as Record<symbol, { context?: { active?: () => { getValue?: (k: symbol) => unknown } } } | undefined>)[
      Symbol.for('opentelemetry.js.api.1')];
    const span = api?.context?.active?.()?.getValue?.(Symbol.for('OpenTelemetry Context Key SPAN')) as OtelSpan | undefined;
    return span !== undefined && typeof span.setStatus === 'function' && span.isRecording() ? span : undefined;
  } catch {
    return undefined;
  }
}

/** The failure on the active span: status ERROR; `error.type` `tool_error`, as the MCP
 * semantic conventions ask for a tool call whose result is an error; the verdict under this
 * package's own names (`mcp_errors.code`, `.retryable`, `.retry_after_ms`, `.error_id`), which
 * no SDK's instrumentation overwrites; an `exception` event with the real class and the
 * redacted message; the MCP / GenAI tool attributes. The span's ids go on the log record. */
function annotateSpan(span: OtelSpan, record: Record<string, unknown>, err: unknown): void {
  const rendered = (record.rendered ?? {}) as Record<string, unknown>;
  const code = String(record.code ?? rendered.code ?? record.error_code ?? 'UNKNOWN');
  const message = typeof record.message === 'string' ? record.message : code;
  const tool = record.tool ?? record.tool_name;
  span.setStatus({ code: 2, message });
  span.setAttribute('error.type', 'tool_error');
  span.setAttribute('mcp_errors.code', code);
  if (typeof record.retryable === 'boolean') span.setAttribute('mcp_errors.retryable', record.retryable);
  if (typeof record.retry_after_ms === 'number') span.setAttribute('mcp_errors.retry_after_ms', record.retry_after_ms);
  if (typeof record.error_id === 'string') span.setAttribute('mcp_errors.error_id', record.error_id);
  if (typeof tool === 'string') span.setAttribute('gen_ai.tool.name', tool);
  span.setAttribute('gen_ai.operation.name', 'execute_tool');
  span.setAttribute('mcp.method.name', 'tools/call');
  span.addEvent('exception', {
    'exception.type': exceptionType(err),
    'exception.message': message,
  });
  const ids = span.spanContext();
  record.trace_id = ids.traceId;
  record.span_id = ids.spanId;
}

export interface ServerErrorsOptions extends WithErrorsOptions {
  /** Each tool's own options, by tool name, on top of the others. */
  tools?: Record<string, WithErrorsOptions>;
}

/** A tool as an `McpServer` keeps it (the v1 SDK's and the v2 server package's alike): its
 * callback, its public `update`, its schemas (v1: zod; v2: Standard Schema, with the JSON
 * Schema it lists as `outputSchemaJson`). */
interface RegisteredTool {
  handler?: unknown;
  update?: (u: { callback: unknown }) => void;
  inputSchema?: unknown;
  outputSchema?: unknown;
  outputSchemaJson?: unknown;
}

/** What `withServerErrors` reaches in an `McpServer`. Public: `registerTool`, `tool` (v1),
 * each registered tool's `update`, and `createToolError`, through which both generations
 * turn every failure they catch themselves (input validation, a disabled tool, and in v1 an
 * unknown tool) into a result. Not public: `_registeredTools`, read once for the tools
 * registered before the call (no public list exists); a test per SDK generation fails if it
 * moves. */
interface McpServerLike {
  _registeredTools?: Record<string, RegisteredTool>;
  registerTool?: (...args: unknown[]) => unknown;
  tool?: (...args: unknown[]) => unknown;
  createToolError?: (message: string) => unknown;
}

/** A v1 tool's zod output schema as the JSON Schema its `tools/list` shows, converted by the
 * SDK's own converter (imported when first needed: this package depends on no SDK). */
let v1Converter: Promise<((schema: unknown) => unknown) | undefined> | undefined;
function v1JsonSchema(schema: unknown): Promise<unknown> {
  v1Converter ??= (async () => {
    try {
      const base = '@modelcontextprotocol/sdk/server/';
      const [compat, json] = await Promise.all([
        import(/* @vite-ignore */ `${base}zod-compat.js`),
        import(/* @vite-ignore */ `${base}zod-json-schema-compat.js`),
      ]);
      return (s: unknown) => json.toJsonSchemaCompat(compat.normalizeObjectSchema(s), { strictUnions: true, pipeStrategy: 'output' });
    } catch {
      return undefined;
    }
  })();
  return v1Converter.then((convert) => (convert === undefined ? undefined : convert(schema)));
}

/** The output schema a tool declares now, as JSON text: v2's listed JSON Schema, v1's zod
 * schema converted as its listing does, `{"not":{}}` for one that cannot be read (so no error
 * object goes in its `structuredContent`), none when the tool declares none. */
function declaredOutputSchema(tool: RegisteredTool): SchemaSource {
  return async () => {
    if ('outputSchemaJson' in tool) {
      const json = tool.outputSchemaJson;
      return json === undefined || json === null ? undefined : JSON.stringify(json);
    }
    if (tool.outputSchema === undefined || tool.outputSchema === null) return undefined;
    const json = await v1JsonSchema(tool.outputSchema);
    return json === undefined || json === null ? NO_OBJECT : JSON.stringify(json);
  };
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
export function withServerErrors<S extends object>(server: S, options: ServerErrorsOptions = {}): S {
  checkWrapperOptions('withServerErrors', options, [...WRAPPER_OPTION_NAMES, 'tools']);
  const { tools = {}, ...common } = options;
  if (tools === null || typeof tools !== 'object') {
    throw new McpErrorsError('invalid_option', 'withServerErrors: "tools" must be an object of options by tool name');
  }
  for (const [name, own] of Object.entries(tools)) checkWrapperOptions(`withServerErrors: tools[${JSON.stringify(name)}]`, own);
  const s = server as S & McpServerLike;
  if (typeof s.registerTool !== 'function' || typeof s._registeredTools !== 'object' || typeof s.createToolError !== 'function') {
    throw new McpErrorsError('invalid_option', 'withServerErrors: not an McpServer of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x');
  }
  const optionsOf = (name: string, tool: RegisteredTool): WithErrorsOptions => {
    const own = tools[name] ?? {};
    const hints: Hints = { inputValidated: tool.inputSchema !== undefined, ...common.hints, ...own.hints };
    return { ...common, ...own, hints, toolName: own.toolName ?? common.toolName ?? name };
  };
  const wrap = (name: string, tool: RegisteredTool | undefined): void => {
    if (tool === undefined || typeof tool.handler !== 'function' || typeof tool.update !== 'function') return;
    const handler = tool.handler as (...args: unknown[]) => unknown;
    tool.update({ callback: wrapHandler(handler, optionsOf(name, tool), declaredOutputSchema(tool)) });
  };
  // Tools registered before: their callbacks swapped through the tools' own `update`.
  for (const [name, tool] of Object.entries(s._registeredTools)) wrap(name, tool);
  // Tools registered after, through either public method.
  for (const method of ['registerTool', 'tool'] as const) {
    const register = s[method];
    if (typeof register !== 'function') continue;
    const bound = register.bind(server);
    s[method] = (...args: unknown[]) => {
      const tool = bound(...args) as RegisteredTool | undefined;
      if (typeof args[0] === 'string') wrap(args[0], tool);
      return tool;
    };
  }
  // The failures the SDK catches itself: its own text, in the same profile, never masked.
  s.createToolError = (message: string) => errorResult(
    Object.assign(new Error(String(message)), { name: 'McpError' }),
    { ...common, hints: { ...common.hints, expected: true } },
  );
  return server;
}

/** The default log: one JSON line on stderr (Node, Bun, Deno), else `console.error`
 * (Workers, browsers). */
function defaultLog(record: Record<string, unknown>): void {
  const line = JSON.stringify(record);
  const stderr = (globalThis as { process?: { stderr?: { write?: (s: string) => unknown } } }).process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(`${line}\n`);
  else console.error(line);
}

/** The taxonomy: one row per canonical code. */
export function taxonomy(): CodeInfo[] {
  return call((api) => api.taxonomy()).map((row) => ({
    code: row.name as ErrorCode,
    category: row.category as Category,
    httpStatus: row.httpStatus,
    grpcCode: row.grpcCode,
    jsonrpcCode: row.jsonrpcCode,
    retryable: row.retryable,
    doc: row.doc,
  }));
}

/** The JSON Schema of a profile's error object (as seed 001 exports its zod schema). */
export function schema(profile: Profile): Record<string, unknown> {
  return JSON.parse(call((api) => api.schema(profile))) as Record<string, unknown>;
}

