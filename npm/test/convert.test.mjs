// Real native errors, converted and classified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closedPort } from './helpers.mjs';
import { createServer } from 'node:net';
import { z } from 'zod';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { classify, toRawError, ToolError } from '../dist/index.js';

test('fetch to a closed port: TypeError fetch failed, unwrapped through its cause', async () => {
  const port = await closedPort();
  const err = await fetch(`http://127.0.0.1:${port}/`).catch((e) => e);
  const n = classify(err);
  assert.equal(n.code, 'NETWORK_ERROR');
  assert.equal(n.retryable, true);
  assert.match(n.message, /ECONNREFUSED/);
  assert.ok(n.evidence.some((e) => e.startsWith('cause: code ECONNREFUSED')), n.evidence.join());
});

test('AbortSignal.timeout: TimeoutError DOMException', async (t) => {
  // A server that accepts connections and never answers.
  const server = createServer(() => {});
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const err = await fetch(`http://127.0.0.1:${server.address().port}/`, { signal: AbortSignal.timeout(50) }).catch((e) => e);
  assert.equal(err.name, 'TimeoutError');
  const n = classify(err);
  assert.equal(n.code, 'TIMEOUT', JSON.stringify(n));
  assert.equal(n.retryable, true);
});

test('AbortController.abort(): a user abort is CANCELLED, AbortSignal.timeout() is TIMEOUT', async () => {
  const c = new AbortController();
  c.abort();
  assert.equal(classify(c.signal.reason).code, 'CANCELLED');
  const signal = AbortSignal.timeout(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const n = classify(signal.reason);
  assert.equal(n.code, 'TIMEOUT');
  assert.equal(n.retryable, true);
});

test('a Node system error keeps its fields as details', async () => {
  const { readFile } = await import('node:fs/promises');
  const err = await readFile('/definitely/not/here.txt').catch((e) => e);
  const n = classify(err);
  assert.equal(n.code, 'NOT_FOUND');
  assert.equal(n.details.syscall, 'open');
  assert.equal(n.details.path, '/definitely/not/here.txt');
  assert.equal(JSON.stringify(toRawError(err)).includes('"stack"'), false, 'stacks are never copied');
});

test('AggregateError members are read', () => {
  const err = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:80'), { code: 'ECONNREFUSED' })], 'all failed');
  assert.equal(classify(err).code, 'NETWORK_ERROR');
});

test('a zod error is INVALID_ARGUMENT with its issues summarised', () => {
  const err = z.object({ city: z.string() }).safeParse({ city: 3 }).error;
  const n = classify(err);
  assert.equal(n.code, 'INVALID_ARGUMENT');
  assert.match(n.message, /^city: /);
});

test('an MCP SDK McpError keeps its JSON-RPC code', () => {
  const n = classify(new McpError(ErrorCode.RequestTimeout, 'Request timed out'));
  assert.equal(n.code, 'TIMEOUT');
  assert.ok(n.evidence.includes('jsonrpc -32001'), n.evidence.join());
});

test('an axios-shaped error reads response.status and data, never its config', () => {
  const err = Object.assign(new Error('Request failed with status code 429'), {
    name: 'AxiosError',
    code: 'ERR_BAD_REQUEST',
    config: { headers: { Authorization: 'Bearer sk-secret' } },
    response: { status: 429, headers: { 'retry-after': '7' }, data: { error: 'slow down' } },
  });
  const n = classify(err);
  assert.equal(n.code, 'RATE_LIMITED');
  assert.equal(n.retry_after_ms, 7000);
  assert.equal(JSON.stringify(toRawError(err)).includes('sk-secret'), false);
});

test('a fetch Response thrown as is', () => {
  const n = classify(new Response('nope', { status: 503, headers: { 'Retry-After': '2' } }));
  assert.equal(n.code, 'UNAVAILABLE');
  assert.equal(n.retry_after_ms, 2000);
});

test('a ToolError is expected and carries the author hints', () => {
  const n = classify(new ToolError('No city named Atlantis', { appCode: 'CITY_NOT_FOUND', code: 'NOT_FOUND', suggestions: ['Check the spelling'] }), { tool: 'weather' });
  assert.equal(n.code, 'NOT_FOUND');
  assert.equal(n.expected, true);
  assert.equal(n.app_code, 'CITY_NOT_FOUND');
  assert.equal(n.tool, 'weather');
  assert.deepEqual(n.suggestions, ['Check the spelling']);
});

test('thrown non-errors and cycles', () => {
  assert.equal(classify('boom').message, 'boom');
  assert.equal(classify(undefined).code, 'UNKNOWN');
  const a = new Error('outer');
  a.cause = a;
  const self = { message: 'self' };
  self.self = self;
  assert.equal(classify(a).message, 'outer');
  assert.equal(classify(self).message, 'self');
  const getter = Object.defineProperty(new Error('getter'), 'bad', { enumerable: true, get() { throw new Error('no'); } });
  assert.equal(classify(getter).message, 'getter');
});

test('toRawError: cycles cut, shared objects kept, each hint in its field and order', () => {
  const shared = { id: 1 };
  const data = { name: 'x', shared, again: shared };
  data.self = data;
  const e = Object.assign(new Error('m'), { data, tool: 'old' });
  const hints = {
    tool: 'weather', appCode: 'A', appType: 'T', details: { k: 1 }, suggestions: ['s'],
    expected: true, retryable: false, retryAfterMs: 5,
  };
  assert.equal(JSON.stringify(toRawError(e, hints)), JSON.stringify({
    name: 'Error', message: 'm',
    data: { name: 'x', shared: { id: 1 }, again: { id: 1 }, self: '[circular or too deep]' },
    tool: 'weather', app_code: 'A', app_type: 'T', details: { k: 1 }, suggestions: ['s'],
    expected: true, retryable: false, retry_after_ms: 5,
  }));
  // No hints: the converted error itself; a thrown string gets a message.
  assert.equal(JSON.stringify(toRawError(e)), JSON.stringify({
    name: 'Error', message: 'm',
    data: { name: 'x', shared: { id: 1 }, again: { id: 1 }, self: '[circular or too deep]' },
    tool: 'old',
  }));
  assert.deepEqual(toRawError('boom', { tool: 't' }), { message: 'boom', tool: 't' });
});
