// The error path never throws: a trapping component is replaced by a fresh
// instance, and when even that fails a minimal valid error result says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// The package with its test hooks: a bundle of its own, never published.
import {
  toolResult, withErrors, classifyJson, McpErrorsError,
  injectTrap as _injectTrapForTests, useCoreModule as _useCoreModuleForTests, instantiationCount,
} from '../test-dist/testing.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';


test('a trap drops the instance; the next call runs on a fresh one', () => {
  classifyJson('{}');
  const before = instantiationCount();
  _injectTrapForTests();
  assert.throws(() => classifyJson('{}'), (e) => e instanceof McpErrorsError && e.kind === 'trap');
  assert.equal(JSON.parse(classifyJson('{"status":404}')).code, 'NOT_FOUND');
  assert.equal(instantiationCount(), before + 1);
});

test('toolResult retries a trap once and still returns the real result', () => {
  _injectTrapForTests();
  const r = toolResult(Object.assign(new Error('gone'), { status: 410 }), { now: null });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.code, 'GONE');
});

test('toolResult never throws: bad options give a minimal valid error result', () => {
  const r = toolResult(new Error('x'), { now: 'not a time' });
  assert.deepEqual(Object.keys(r), ['content', 'isError']);
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /could not normalize the error \(`now` is not an RFC 3339 time/);
  const r2 = toolResult(new Error('x'), { spec: '2026-07-28', outputSchema: '{not json' });
  assert.equal(r2.resultType, 'complete');
  assert.equal(r2.isError, true);
});

test('withErrors survives a throwing logger and hostile thrown values', async () => {
  const hostile = new Proxy({}, { get() { throw new Error('trap in a getter'); }, ownKeys() { throw new Error('no keys'); } });
  const handler = withErrors(() => { throw hostile; }, { log: () => { throw new Error('logger down'); } });
  const r = await handler();
  assert.equal(r.isError, true);
  assert.ok(r.content[0].text.length > 0);
});

test('a really trapping component: the error path still answers, and recovers', (t) => {
  const trapWasm = process.env.MCP_ERRORS_TRAP_WASM
    ?? fileURLToPath(new URL('../../target/mcp-errors-trap.wasm', import.meta.url));
  const out = mkdtempSync(join(tmpdir(), 'mcp-errors-trap-'));
  const jco = fileURLToPath(new URL('../node_modules/.bin/jco', import.meta.url));
  execFileSync(jco, ['transpile', trapWasm, '-o', out, '--name', 'mcp-errors', '--no-wasi-shim', '--instantiation', 'sync', '--quiet']);
  const normal = readFileSync(new URL('../dist/generated/mcp-errors.core.wasm', import.meta.url));
  _useCoreModuleForTests(readFileSync(join(out, 'mcp-errors.core.wasm')));
  t.after(() => _useCoreModuleForTests(normal));
  const before = instantiationCount();
  // The trap input traps on the first try and on the retry: the fallback answers.
  const r = toolResult('mcp-errors: trap now', { now: null });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /could not normalize the error \(the mcp-errors component trapped/);
  assert.ok(instantiationCount() >= before + 2, 'each trap cost its instance');
  // The next call runs on a fresh instance and works.
  const ok = toolResult(Object.assign(new Error('gone'), { status: 410 }), { now: null });
  assert.equal(ok.structuredContent.code, 'GONE');
});

test('withErrors: the log record and the result share one time and one error id', async () => {
  const err = Object.assign(new Error('upstream said slow down'), { status: 429, headers: { 'retry-after': '7' } });
  const records = [];
  const handler = withErrors(() => { throw err; }, { toolName: 'weather', profile: 'canonical', log: (r) => records.push(r) });
  const result = await handler();
  assert.equal(records.length, 1);
  const record = records[0];
  const error = result.structuredContent;
  assert.equal(error.code, 'RATE_LIMITED');
  assert.equal(record.error_id, error.error_id);
  assert.ok(typeof record.timestamp === 'string' && record.timestamp.length > 0);
  assert.equal(record.timestamp, error.timestamp);
});
