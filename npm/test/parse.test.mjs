// parseResult in the host: what it takes besides plain results, and that it never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '@modelcontextprotocol/client';
import { parseResult, parseResultJson, surelyNotAnError, McpErrorsError } from '../dist/index.js';
import { parseResult as parseInTestBundle, injectTrap } from '../test-dist/testing.js';

test('a thrown SDK protocol error (v1 McpError, v2 ProtocolError) reads as its JSON-RPC error', () => {
  const v1 = parseResult(new McpError(ErrorCode.InvalidParams, 'Tool nope not found'));
  assert.equal(v1.code, 'INVALID_ARGUMENT');
  assert.equal(v1.evidence[0], 'dialect jsonrpc');
  const v2 = parseResult(new ProtocolError(-32603, 'Invalid API key. Documentation: https://docs.example.com'));
  assert.equal(v2.code, 'UNAUTHENTICATED', 'the catch-all −32603 lets the message decide');
});

test('never throws: what cannot be read is UNKNOWN, not retryable, and says why', () => {
  for (const [input, why] of [
    ['garbage', /^parse failed: invalid_input: expected a CallToolResult/],
    [{ content: 'boom', isError: true }, /^parse failed: invalid_input: /],
    [{ content: [{ type: 'text', text: 'x' }], isError: true, big: 10n }, /^parse failed: invalid_input: /],
    [undefined, /^parse failed: invalid_input: the result is not JSON/],
  ]) {
    const e = parseResult(input);
    assert.equal(e.code, 'UNKNOWN');
    assert.equal(e.retryable, false);
    assert.match(e.evidence[0], why);
  }
});

test('a trapping component: parseResult still answers, and the next call is read', () => {
  injectTrap();
  const trapped = parseInTestBundle({ content: [{ type: 'text', text: 'rate limit exceeded' }], isError: true });
  assert.equal(trapped.code, 'UNKNOWN');
  assert.match(trapped.evidence[0], /^parse failed: trap: /);
  const next = parseInTestBundle({ content: [{ type: 'text', text: 'rate limit exceeded' }], isError: true });
  assert.equal(next.code, 'RATE_LIMITED');
});

test('parseResultJson throws typed errors for input that is no result', () => {
  assert.throws(() => parseResultJson('[1]'), (e) => e instanceof McpErrorsError && e.kind === 'invalid_input');
  assert.throws(() => parseResultJson('{', {}), (e) => e instanceof McpErrorsError && e.kind === 'invalid_json');
  assert.throws(() => parseResultJson('{}', { now: 'yesterday' }), (e) => e instanceof McpErrorsError && e.kind === 'invalid_option');
});

test('the host answers only what the core would answer null', () => {
  const success = { content: [{ type: 'text', text: 'all good, no errors' }] };
  assert.equal(surelyNotAnError(success), true);
  assert.equal(parseResultJson(JSON.stringify(success)), null);
  // Anything that may be an error goes to the core.
  for (const maybe of [
    { ...success, isError: true },
    { ...success, structuredContent: { kind: 'toolError:v1' } },
    { content: [{ type: 'text', text: '{"error":{"type":"KubernetesError","message":"gone"}}' }] },
    { ...success, _meta: { 'io.modelcontextprotocol/toolFailure': { class: 'reliability' } } },
    { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } },
    { content: [{ type: 'text', text: 'Title: Error\n<error>Failed to retrieve web page content</error>' }] },
    { content: [{ type: 'text', text: 'quota exceeded', isError: true }] },
  ]) assert.equal(surelyNotAnError(maybe), false, JSON.stringify(maybe));
});
