#!/usr/bin/env node
// The mcp-errors command line, over the same component as every other host:
// JSON lines in, one JSON line out per input line, byte for byte what the Rust
// and Python CLIs print.
import {
  classifyJson, LIMIT_NAMES, McpErrorsError, renderJson, schema, taxonomy,
} from './index.js';
import type { Format, Limits, Profile, RenderOptions, SpecRevision, Target } from './types.js';

const USAGE = `usage:
  mcp-errors classify [--now RFC3339] [--limits JSON] [--rules JSON]
  mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
                    [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
                    [--extra-fields JSON] [--limits JSON] [--rules JSON] [--mask]
  mcp-errors taxonomy
  mcp-errors schema PROFILE

classify and render read raw errors as JSON lines on stdin and write one JSON
line per input line to stdout. A bad line yields an {"error":…} line.
--limits takes a JSON object such as {"max_message_chars":500}.
--rules takes a JSON array of recognizer rules (see the README).

profiles: canonical, tool-error-v1, mcp-tool-error, text, error-object, rpc-envelope
formats:  markdown, json, both
specs:    2025-06-18, 2025-11-25, 2026-07-28
targets:  tool-result, soft-result, protocol-error, needs-input, log-record`;

function usage(message: string): never {
  process.stderr.write(`mcp-errors: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined) usage('missing command');
if (process.argv.includes('-h') || process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A flag's JSON value. Whether it is JSON is the core's parser's call (as in every
 * CLI): `JSON.parse` alone would take deeper nesting and lone surrogates. */
function jsonFlag(flag: string, value: string): unknown {
  try {
    classifyJson(value, { now: null });
    return JSON.parse(value);
  } catch {
    return usage(`${flag} must be JSON`);
  }
}

/** The core's own check of a value, as a usage error. */
function checkedByCore(check: () => unknown): void {
  try {
    check();
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
}

/** Any valid time: what checking a flag alone renders with. */
const CHECK_TIME = '2000-01-01T00:00:00Z';

/** `--limits` JSON (snake_case, as in every CLI) → the facade's limits; any mistake is a
 * usage error with the Rust CLI's words. */
function parseLimits(value: string): Limits {
  const parsed = jsonFlag('--limits', value);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) usage('"limits" must be a JSON object');
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(parsed as Record<string, unknown>)) {
    const name = LIMIT_NAMES.find((n) => snake(n) === key);
    if (name === undefined) {
      usage(`unknown limit ${JSON.stringify(key)}; expected one of: ${LIMIT_NAMES.map(snake).join(', ')}`);
    }
    if (v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) usage(`limit ${JSON.stringify(key)} must be a non-negative integer`);
    out[name] = v;
  }
  checkedByCore(() => classifyJson('{}', { limits: out as Limits })); // the core checks the ranges
  return out as Limits;
}

/** Render's flags, each checked as it is read (in the order given, as every CLI does):
 * a value the core would refuse for every line is a usage error, before any input. */
function parseRenderOptions(args: string[]): RenderOptions {
  const o: RenderOptions = { now: null };
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    if (flag === '--mask') {
      o.mask = true;
      continue;
    }
    // The value is taken only for a known flag: an unknown one is reported as
    // such, value or not (as the Rust and Python CLIs do).
    const value = (): string => {
      const v = args[i + 1];
      if (v === undefined) usage(`${flag} needs a value`);
      i += 1;
      return v;
    };
    let alone: RenderOptions;
    switch (flag) {
      case '--profile': alone = { profile: o.profile = value() as Profile }; break;
      case '--format': alone = { format: o.format = value() as Format }; break;
      case '--spec': alone = { spec: o.spec = value() as SpecRevision }; break;
      case '--target': alone = { target: o.target = value() as Target }; break;
      case '--now': alone = { now: o.now = value() }; break;
      case '--id': alone = { errorId: o.errorId = value() }; break;
      case '--tool': alone = { toolName: o.toolName = value() }; break;
      case '--output-schema': alone = { outputSchema: o.outputSchema = value() }; break;
      case '--limits': alone = { limits: o.limits = parseLimits(value()) }; break;
      case '--rules': alone = { rules: o.rules = parseRules(value()) }; break;
      case '--extra-fields': {
        // Passed on as text, as the other CLIs do: `JSON.parse` would round
        // integers past 2^53.
        const text = value();
        jsonFlag(flag, text);
        alone = { extraFields: o.extraFields = text };
        break;
      }
      default: usage(`unknown argument ${JSON.stringify(flag)}`);
    }
    // This flag alone, checked by rendering an empty error with it.
    checkedByCore(() => renderJson('{}', { now: CHECK_TIME, ...alone }));
  }
  return o;
}

/** `--rules` JSON text, passed on as text and checked by the core; any mistake is a usage error. */
function parseRules(value: string): string {
  jsonFlag('--rules', value);
  checkedByCore(() => classifyJson('{}', { rules: value }));
  return value;
}

function run(): void {
  if (command === 'taxonomy') {
    if (rest.length > 0) usage('taxonomy takes no arguments');
    for (const row of taxonomy()) {
      process.stdout.write(`${JSON.stringify({
        code: row.code, category: row.category, http_status: row.httpStatus, grpc_code: row.grpcCode,
        jsonrpc_code: row.jsonrpcCode, retryable: row.retryable, doc: row.doc,
      })}\n`);
    }
    return;
  }
  if (command === 'schema') {
    if (rest.length !== 1) usage('schema takes one profile name');
    try {
      process.stdout.write(`${JSON.stringify(schema(rest[0] as Profile))}\n`);
    } catch (e) {
      usage(e instanceof Error ? e.message : String(e));
    }
    return;
  }
  let handle: (line: string) => string;
  if (command === 'classify') {
    let now: string | undefined;
    let limits: Limits | undefined;
    let rules: string | undefined;
    // Each flag checked as it is read, as in the other CLIs.
    for (let i = 0; i < rest.length; i += 2) {
      const value = rest[i + 1];
      if (value === undefined) usage('classify takes only --now, --limits and --rules');
      if (rest[i] === '--now') {
        now = value;
        checkedByCore(() => classifyJson('{}', { now: value }));
      } else if (rest[i] === '--limits') limits = parseLimits(value);
      else if (rest[i] === '--rules') rules = parseRules(value);
      else usage('classify takes only --now, --limits and --rules');
    }
    handle = (line) => classifyJson(line, { now: now ?? null, limits, rules });
  } else if (command === 'render') {
    const options = parseRenderOptions(rest);
    // Together, in case the core refuses a combination (with a time, as above).
    checkedByCore(() => renderJson('{}', { ...options, now: options.now ?? CHECK_TIME }));
    handle = (line) => renderJson(line, options);
  } else {
    usage(`unknown command ${JSON.stringify(command)}`);
  }
  let lineNo = 0;
  let failed = false;
  const lines: string[] = [];
  const processLine = (bytes: Buffer): void => {
    lineNo += 1;
    let line = bytes;
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    let out: string;
    const bad = utf8Error(line);
    if (bad !== null) {
      failed = true;
      out = JSON.stringify({ error: { kind: 'invalid_input', message: `line is not UTF-8: ${bad}`, line: lineNo } });
    } else {
      // Blank: JSON whitespace only (what the parser itself skips), in every CLI;
      // a byte-order mark or a \x1c is not blank.
      if (line.every((b) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a)) return;
      const text = line.toString('utf8');
      try {
        out = handle(text);
      } catch (e) {
        failed = true;
        const kind = e instanceof McpErrorsError ? e.kind : 'invalid_input';
        const message = e instanceof Error ? e.message : String(e);
        out = JSON.stringify({ error: { kind, message, line: lineNo } });
      }
    }
    lines.push(`${out}\n`);
  };
  let pending: Buffer = Buffer.alloc(0);
  process.stdin.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let nl = pending.indexOf(0x0a, start); nl !== -1; nl = pending.indexOf(0x0a, start)) {
      processLine(pending.subarray(start, nl));
      start = nl + 1;
    }
    pending = pending.subarray(start);
    if (lines.length > 0) process.stdout.write(lines.splice(0).join(''));
  });
  process.stdin.on('end', () => {
    if (pending.length > 0) processLine(pending);
    process.stdout.write(lines.splice(0).join(''));
    process.exitCode = failed ? 1 : 0;
  });
}

/** Rust's `Utf8Error` text for invalid UTF-8, so every CLI says the same thing; null when valid. */
function utf8Error(b: Uint8Array): string | null {
  let i = 0;
  while (i < b.length) {
    const x = b[i];
    if (x < 0x80) {
      i += 1;
      continue;
    }
    const width = x >= 0xc2 && x <= 0xdf ? 2 : x >= 0xe0 && x <= 0xef ? 3 : x >= 0xf0 && x <= 0xf4 ? 4 : 0;
    if (width === 0) return `invalid utf-8 sequence of 1 bytes from index ${i}`;
    const lo = x === 0xe0 ? 0xa0 : x === 0xf0 ? 0x90 : 0x80;
    const hi = x === 0xed ? 0x9f : x === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < width; k += 1) {
      if (i + k >= b.length) return `incomplete utf-8 byte sequence from index ${i}`;
      const c = b[i + k];
      const ok = k === 1 ? c >= lo && c <= hi : (c & 0xc0) === 0x80;
      if (!ok) return `invalid utf-8 sequence of ${k} bytes from index ${i}`;
    }
    i += width;
  }
  return null;
}

run();
