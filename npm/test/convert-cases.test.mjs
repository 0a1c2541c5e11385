// The shared conversion cases (tests/vectors/convert.json), which the Python
// suite runs too: the same native error shapes give the same raw-error JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toRawError, ToolError } from '../dist/index.js';

const { cases } = JSON.parse(readFileSync(new URL('../../tests/vectors/convert.json', import.meta.url), 'utf8'));

const camel = (snake) => snake.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** A described value, built in JavaScript; `self` is the error being built. */
function value(v, self) {
  if (v === '$self') return self;
  if (v === '$nan') return NaN;
  if (v === '$inf') return Infinity;
  if (v === '$-inf') return -Infinity;
  if (Array.isArray(v)) return v.map((x) => value(x, self));
  if (v === null || typeof v !== 'object') return v;
  if ('$bytes' in v) return new Uint8Array(v.$bytes);
  if ('$repeat' in v) return v.$repeat[0].repeat(v.$repeat[1]);
  if ('$range' in v) return Array.from({ length: v.$range }, (_, i) => i);
  if ('$cycle' in v) {
    const o = value(v.$cycle, self);
    o[v.key] = o;
    return o;
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, self)]));
}

/** A described native error, built in JavaScript. */
function build(d) {
  if ('value' in d) return value(d.value, undefined);
  if ('tool_error' in d) {
    return new ToolError(d.tool_error, {
      code: d.code, appCode: d.app_code, appType: d.app_type, details: d.details,
      suggestions: d.suggestions, retryable: d.retryable, retryAfterMs: d.retry_after_ms,
    });
  }
  const Builtin = globalThis[d.error];
  const e = typeof Builtin === 'function' && Builtin.prototype instanceof Error
    ? new Builtin(value(d.message))
    : new Error(value(d.message));
  e.name = d.error;
  for (const [k, v] of Object.entries(d.props ?? {})) e[k] = value(v, e);
  if (d.cause !== undefined) e.cause = d.cause === '$self' ? e : build(d.cause);
  return e;
}

test('shared conversion cases', () => {
  assert.ok(cases.length >= 15);
  for (const c of cases) {
    const hints = c.hints && Object.fromEntries(Object.entries(c.hints).map(([k, v]) => [camel(k), v]));
    const got = JSON.parse(JSON.stringify(toRawError(build(c.error), hints)));
    assert.deepEqual(got, c.expected, c.name);
  }
});

test('an unknown hint is an invalid_option error naming it', () => {
  assert.throws(() => toRawError(new Error('x'), { toolName: 'oops' }), (e) => e.kind === 'invalid_option' && /unknown hint "toolName"/.test(e.message));
});
