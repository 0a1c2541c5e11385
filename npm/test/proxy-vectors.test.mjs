// The proxy's relay on the recorded exchanges of tests/vectors/proxy.json, through the
// component's `proxy` interface in Node: byte for byte what the Rust core forwards
// (tests/proxy_vectors.rs), which `npx mcp-errors proxy` and the native binary move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { callProxy } from '../test-dist/testing.js';

const { cases } = JSON.parse(readFileSync(new URL('../../tests/vectors/proxy.json', import.meta.url), 'utf8'));

/** What the component does with one case, in the vectors' shape. */
function run(c) {
  const plan = callProxy((p) => p.start(c.args));
  if (plan.tag === 'finish') return { finish: plan.val };
  const { relay, log, command } = plan.val;
  const events = c.events.map((e) => {
    // A `retry`'s wait is over: what the relay sends the server again.
    if (e.from === 'timer') return { line: callProxy((p) => p.resend(relay, e.id)) ?? null };
    if (e.from === 'client') return { line: callProxy((p) => p.fromClient(relay, e.line)) };
    const f = callProxy((p) => p.fromServer(relay, e.line, e.now, e.error_id));
    const retry = f.retry === undefined ? null : { id: f.retry.id, delay_ms: Number(f.retry.delayMs) };
    return { line: f.line ?? null, log: f.log ?? null, warning: f.warning ?? null, retry };
  });
  const gone = c.server_gone === true ? callProxy((p) => p.serverGone(relay)) : null;
  callProxy((p) => p.close(relay));
  return { log: log ?? null, command, events, gone };
}

test('the relay in Node forwards what the Rust core forwards, on every recorded exchange', () => {
  assert.ok(cases.length >= 5);
  for (const c of cases) {
    assert.deepEqual(run(c), c.expected, c.name);
  }
});

test('a handle that is not open passes every line unchanged', () => {
  const line = '{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}';
  assert.equal(callProxy((p) => p.fromClient(999, line)), line);
  const f = callProxy((p) => p.fromServer(0, line, undefined, undefined));
  assert.equal(f.line, line);
  assert.equal(callProxy((p) => p.resend(3, '1')), undefined);
  assert.deepEqual(callProxy((p) => p.serverGone(12345)), []);
});
