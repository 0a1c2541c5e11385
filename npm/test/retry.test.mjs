// callToolWithRetry against real servers (both SDK generations, in memory and over Streamable
// HTTP), called by each generation's real client: what is retried, how long it waits, when it
// stops, cancellation, and protocol errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHttp } from './helpers.mjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z as z3 } from 'zod';
import { z as z4 } from 'zod/v4';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as LowLevelServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { WebStandardStreamableHTTPServerTransport as HttpServerV1 } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpServer as McpServerV2, InMemoryTransport as InMemoryV2, WebStandardStreamableHTTPServerTransport as HttpServerV2,
} from '@modelcontextprotocol/server';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { callToolWithRetry, ToolError, toolResult, withServerErrors } from '../dist/index.js';

const GENERATIONS = {
  v1: { McpServer: McpServerV1, Client: ClientV1, InMemory: InMemoryV1, HttpServer: HttpServerV1, HttpClient: HttpClientV1, z: z3 },
  v2: { McpServer: McpServerV2, Client: ClientV2, InMemory: InMemoryV2, HttpServer: HttpServerV2, HttpClient: HttpClientV2, z: z4 },
};

const rateLimited = (header, value) => Object.assign(new Error('slow down'), { status: 429, headers: { [header]: value } });

/** The tools, each counting its calls in `calls` (shared by every server instance). */
function build(generation, calls) {
  const { McpServer, z } = GENERATIONS[generation];
  const server = withServerErrors(new McpServer({ name: 'weather', version: '1.0.0' }), { logger: false });
  const tool = (name, body) => server.registerTool(name, { inputSchema: { city: z.string().optional() } }, async (args, extra) => {
    calls[name] = (calls[name] ?? 0) + 1;
    return body(calls[name], extra);
  });
  const sunny = { content: [{ type: 'text', text: 'sunny' }] };
  // 429 with `Retry-After: 2` (seconds) twice, then a success.
  tool('flaky', (n) => {
    if (n <= 2) throw rateLimited('retry-after', '2');
    return sunny;
  });
  // 429 with `retry-after-ms: 30` twice, then a success: a delay below the cap, honoured as is.
  tool('flaky_ms', (n) => {
    if (n <= 2) throw rateLimited('retry-after-ms', '30');
    return sunny;
  });
  tool('always_429', () => { throw rateLimited('retry-after', '2'); });
  tool('missing', () => { throw new ToolError('No city named Atlantis', { code: 'NOT_FOUND' }); });
  tool('down', () => { throw Object.assign(new Error('upstream unavailable'), { status: 503 }); });
  // Answers after 1 s, or when the request is cancelled (in memory the server hears it).
  tool('hang', async (_, extra) => {
    await sleep(1000, undefined, { signal: extra?.signal }).catch(() => {});
    return sunny;
  });
  return server;
}

/** A server whose `tools/call` throws the protocol error for an unknown tool (-32602): v2's
 * McpServer does; v1's McpServer turns it into an `isError` result, so v1's low-level Server. */
function buildThrowing(generation, calls) {
  if (generation === 'v2') return build(generation, calls);
  const server = new LowLevelServerV1({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls[request.params.name] = (calls[request.params.name] ?? 0) + 1;
    throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
  });
  return server;
}


/** A connected real client of `generation` over `transport`, and the servers' call counts. */
async function connect(t, generation, transport, make = build) {
  const { Client, InMemory, HttpServer, HttpClient } = GENERATIONS[generation];
  const calls = {};
  const client = new Client({ name: 'test', version: '1.0.0' });
  if (transport === 'in memory') {
    const [a, b] = InMemory.createLinkedPair();
    await Promise.all([client.connect(a), make(generation, calls).connect(b)]);
  } else {
    const http = await serveHttp(() => make(generation, calls), HttpServer);
    t.after(() => {
      http.closeAllConnections();
      http.close();
    });
    await client.connect(new HttpClient(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
  }
  t.after(() => client.close());
  return { client, calls };
}

const text = (result) => result.content.map((c) => c.text).join('\n');

for (const generation of ['v1', 'v2']) {
  for (const transport of ['in memory', 'Streamable HTTP']) {
    const name = `${generation}, ${transport}`;

    test(`${name}: 429 with Retry-After twice, then success; the waits are the capped delay`, async (t) => {
      const { client, calls } = await connect(t, generation, transport);
      const retries = [];
      const start = Date.now();
      const out = await callToolWithRetry(client, { name: 'flaky', arguments: { city: 'Paris' } },
        { maxDelayMs: 40, onRetry: (e) => retries.push(e) });
      const elapsed = Date.now() - start;
      assert.equal(calls.flaky, 3);
      assert.equal(out.attempts, 3);
      assert.equal(out.error, null);
      assert.equal(out.protocolError, undefined);
      assert.notEqual(out.result.isError, true);
      assert.equal(text(out.result), 'sunny');
      // Retry-After: 2 is 2000 ms, cut to maxDelayMs.
      assert.deepEqual(retries.map((r) => [r.attempt, r.delayMs, r.error.code, r.error.retry_after_ms]),
        [[1, 40, 'RATE_LIMITED', 2000], [2, 40, 'RATE_LIMITED', 2000]]);
      assert.ok(elapsed >= 75, `waited ${elapsed} ms`);
      assert.ok(elapsed < 1500, `waited ${elapsed} ms, not the uncapped 4 s`);

      // A retry_after_ms below the cap is waited as it is.
      const below = [];
      const again = await callToolWithRetry(client, { name: 'flaky_ms', arguments: {} },
        { maxDelayMs: 1000, onRetry: (e) => below.push(e.delayMs) });
      assert.deepEqual([calls.flaky_ms, again.attempts, again.error, below], [3, 3, null, [30, 30]]);
    });

    test(`${name}: a non-retryable error (NOT_FOUND) is called once and returned`, async (t) => {
      const { client, calls } = await connect(t, generation, transport);
      let retried = false;
      const out = await callToolWithRetry(client, { name: 'missing', arguments: { city: 'Atlantis' } },
        { maxAttempts: 5, baseDelayMs: 1, onRetry: () => { retried = true; } });
      assert.equal(calls.missing, 1);
      assert.equal(out.attempts, 1);
      assert.equal(retried, false);
      assert.equal(out.result.isError, true);
      assert.equal(out.error.code, 'NOT_FOUND');
      assert.equal(out.error.retryable, false);
      assert.equal(out.error.message, 'No city named Atlantis');
    });

    test(`${name}: 503 without Retry-After: full-jitter exponential backoff, stops at maxAttempts`, async (t) => {
      const { client, calls } = await connect(t, generation, transport);
      const policy = { maxAttempts: 4, baseDelayMs: 20, maxBackoffMs: 50 };
      // Ceilings after calls 1, 2, 3: min(50, 20 * 2 ** (n - 1)).
      const ceilings = [20, 40, 50];
      const delays = [];
      const out = await callToolWithRetry(client, { name: 'down', arguments: {} },
        { ...policy, onRetry: (e) => delays.push(e.delayMs) });
      assert.equal(calls.down, 4);
      assert.equal(out.attempts, 4);
      assert.equal(out.result.isError, true);
      assert.equal(out.error.code, 'UNAVAILABLE');
      assert.equal(out.error.retryable, true);
      assert.equal(out.error.retry_after_ms, undefined);
      assert.equal(delays.length, 3);
      delays.forEach((d, i) => assert.ok(Number.isInteger(d) && d >= 0 && d <= ceilings[i], `wait ${i + 1}: ${d} ms`));

      // The random source fixed: exactly half of each ceiling.
      const fixed = [];
      await callToolWithRetry(client, { name: 'down', arguments: {} },
        { ...policy, random: () => 0.5, onRetry: (e) => fixed.push(e.delayMs) });
      assert.deepEqual(fixed, [10, 20, 25]);
      assert.equal(calls.down, 8);
    });

    test(`${name}: maxElapsedMs stops before a wait that would pass it`, async (t) => {
      const { client, calls } = await connect(t, generation, transport);
      // The first wait (1000 ms) alone would pass 500 ms: one call, its error returned.
      let retried = 0;
      const start = Date.now();
      const first = await callToolWithRetry(client, { name: 'always_429', arguments: {} },
        { maxAttempts: 10, maxDelayMs: 1000, maxElapsedMs: 500, onRetry: () => { retried++; } });
      assert.ok(Date.now() - start < 900, 'no wait of 1000 ms');
      assert.deepEqual([calls.always_429, first.attempts, retried], [1, 1, 0]);
      assert.equal(first.error.code, 'RATE_LIMITED');
      assert.equal(first.error.retryable, true);
      // Waits of 300 ms within 550 ms: one wait, then the next would end after 600 ms at least.
      const delays = [];
      const second = await callToolWithRetry(client, { name: 'always_429', arguments: {} },
        { maxAttempts: 10, maxDelayMs: 300, maxElapsedMs: 550, onRetry: (e) => delays.push(e.delayMs) });
      assert.deepEqual([calls.always_429, second.attempts, delays], [3, 2, [300]]);
      assert.equal(second.error.code, 'RATE_LIMITED');
    });

    test(`${name}: an AbortSignal cancels a wait, a call under way, or everything before the first call`, async (t) => {
      const { client, calls } = await connect(t, generation, transport);
      // During a wait (of 2 s): rejects promptly with the signal's reason, no second call.
      const controller = new AbortController();
      const reason = new Error('the user went away');
      const start = Date.now();
      await assert.rejects(callToolWithRetry(client, { name: 'always_429', arguments: {} }, {
        maxDelayMs: 5000, signal: controller.signal,
        onRetry: (e) => {
          assert.equal(e.delayMs, 2000);
          setTimeout(() => controller.abort(reason), 20);
        },
      }), (e) => e === reason);
      assert.ok(Date.now() - start < 1000, `rejected after ${Date.now() - start} ms`);
      assert.equal(calls.always_429, 1);

      // During the call itself.
      const during = new AbortController();
      const began = Date.now();
      setTimeout(() => during.abort(reason), 50);
      await assert.rejects(callToolWithRetry(client, { name: 'hang', arguments: {} }, { signal: during.signal }),
        (e) => e === reason);
      assert.ok(Date.now() - began < 800, `rejected after ${Date.now() - began} ms`);
      assert.equal(calls.hang, 1);

      // Already aborted: no call at all; the default reason is an AbortError.
      await assert.rejects(callToolWithRetry(client, { name: 'missing', arguments: {} }, { signal: AbortSignal.abort() }),
        (e) => e.name === 'AbortError');
      assert.equal(calls.missing, undefined);
    });

    test(`${name}: a thrown protocol error (unknown tool, -32602) is not retried and is returned`, async (t) => {
      const { client, calls } = await connect(t, generation, transport, buildThrowing);
      let retried = false;
      const out = await callToolWithRetry(client, { name: 'nope', arguments: {} },
        { maxAttempts: 5, baseDelayMs: 1, onRetry: () => { retried = true; } });
      assert.equal(calls.nope ?? 0, generation === 'v1' ? 1 : 0); // v2's McpServer refuses before any tool runs
      assert.equal(out.attempts, 1);
      assert.equal(retried, false);
      assert.equal(out.result, undefined);
      assert.ok(out.protocolError instanceof Error);
      assert.equal(out.protocolError.code, -32602);
      assert.equal(out.thrown, out.protocolError, "the deprecated name still answers");
      assert.equal(out.error.code, 'INVALID_ARGUMENT');
      assert.equal(out.error.retryable, false);
    });
  }
}

test('v1 McpServer: an unknown tool is an isError result (-32602 in its text), read and not retried', async (t) => {
  const { client } = await connect(t, 'v1', 'in memory');
  const out = await callToolWithRetry(client, { name: 'nope', arguments: {} }, { maxAttempts: 5, baseDelayMs: 1 });
  assert.equal(out.attempts, 1);
  assert.equal(out.result.isError, true);
  assert.equal(out.protocolError, undefined);
  assert.equal(out.error.code, 'NOT_FOUND');
  assert.equal(out.error.retryable, false);
});

test('a thrown retryable protocol error (-32001, request timed out) is retried, and the last one returned', async () => {
  let calls = 0;
  const client = {
    async callTool() {
      calls++;
      throw Object.assign(new Error('MCP error -32001: Request timed out'), { code: -32001 });
    },
  };
  const delays = [];
  const out = await callToolWithRetry(client, { name: 'x' }, { baseDelayMs: 4, onRetry: (e) => delays.push(e.delayMs) });
  assert.deepEqual([calls, out.attempts, delays.length], [3, 3, 2]);
  assert.equal(out.result, undefined);
  assert.equal(out.protocolError.code, -32001);
  assert.equal(out.error.code, 'TIMEOUT');
  assert.equal(out.error.retryable, true);
});

test('parseOptions: the caller\'s own rules decide what is retried', async () => {
  let calls = 0;
  // An internal server's own error text, which no built-in rule knows.
  const client = {
    async callTool() {
      calls++;
      return calls < 3
        ? { content: [{ type: 'text', text: 'E_BUSY: index is rebuilding' }], isError: true }
        : { content: [{ type: 'text', text: 'ok' }] };
    },
  };
  const plain = await callToolWithRetry(client, { name: 'x' }, { baseDelayMs: 1 });
  assert.deepEqual([plain.attempts, plain.error.code, plain.error.retryable], [1, 'UNKNOWN', false]);
  calls = 0;
  const rules = [{ id: 'busy', at: 'message', take: 'phrase', rows: { 'E_BUSY': { code: 'UNAVAILABLE', retryable: true } } }];
  const out = await callToolWithRetry(client, { name: 'x' }, { baseDelayMs: 1, parseOptions: { rules } });
  assert.deepEqual([out.attempts, out.error], [3, null]);
});

test('what is not a protocol error propagates at once; so does what onRetry throws', async () => {
  let calls = 0;
  const boom = new TypeError('fetch failed');
  await assert.rejects(callToolWithRetry({ async callTool() { calls++; throw boom; } }, { name: 'x' }), (e) => e === boom);
  assert.equal(calls, 1);
  // A synchronous throw from callTool is the same.
  await assert.rejects(callToolWithRetry({ callTool() { throw boom; } }, { name: 'x' }), (e) => e === boom);
  // onRetry throws: no wait, no second call.
  calls = 0;
  const limited = toolResult(rateLimited('retry-after-ms', '5'));
  const stop = new Error('stop');
  await assert.rejects(callToolWithRetry({ async callTool() { calls++; return limited; } }, { name: 'x' },
    { onRetry: () => { throw stop; } }), (e) => e === stop);
  assert.equal(calls, 1);
});

test('the request options reach each SDK generation where it takes them', async () => {
  const signal = new AbortController().signal;
  const seen = [];
  // v1: callTool(params, resultSchema = …, options); v2: callTool(params, options).
  const v1 = { callTool(params, resultSchema = 'default', options) { seen.push(['v1', resultSchema, options]); return Promise.resolve({ content: [] }); } };
  const v2 = { callTool(params, options) { seen.push(['v2', options]); return Promise.resolve({ content: [] }); } };
  const v2era = { getProtocolEra() {}, callTool(...args) { seen.push(['era', args[1]]); return Promise.resolve({ content: [] }); } };
  for (const client of [v1, v2, v2era]) {
    const out = await callToolWithRetry(client, { name: 'x' }, { signal });
    assert.deepEqual([out.error, out.attempts], [null, 1]);
  }
  assert.deepEqual(seen, [['v1', 'default', { signal }], ['v2', { signal }], ['era', { signal }]]);
  // The real clients' shapes are what that tells apart.
  assert.equal(ClientV1.prototype.callTool.length, 1);
  assert.equal(ClientV2.prototype.callTool.length, 2);
});

test('a policy out of range is refused before any call', async () => {
  let calls = 0;
  const client = { async callTool() { calls++; return { content: [] }; } };
  for (const policy of [{ maxAttempts: 0 }, { maxAttempts: 1.5 }, { baseDelayMs: -1 }, { maxDelayMs: Infinity },
    { maxElapsedMs: Number.NaN }, { maxBackoffMs: '5' }, { onRetry: 1 }, { random: 'no' }]) {
    await assert.rejects(callToolWithRetry(client, { name: 'x' }, policy),
      (e) => e.name === 'McpErrorsError' && e.kind === 'invalid_option', JSON.stringify(policy));
  }
  assert.equal(calls, 0);
  // Infinity is a bound where it means "no bound".
  const out = await callToolWithRetry(client, { name: 'x' }, { maxAttempts: Infinity, maxElapsedMs: Infinity });
  assert.deepEqual([out.error, out.attempts, calls], [null, 1, 1]);
});

test('retry only what is safe: a failure that may have had effects needs a read-only or idempotent tool', async (t) => {
  const calls = {};
  const server = withServerErrors(new McpServerV1({ name: 'orders', version: '1.0.0' }), { logger: false });
  const timeout = () => Object.assign(new Error('upstream timed out after 30000 ms'), { name: 'TimeoutError' });
  const count = (name, body) => server.registerTool(name, { inputSchema: {}, annotations: body.annotations }, async () => {
    calls[name] = (calls[name] ?? 0) + 1;
    throw body.error();
  });
  count('place_order', { annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true }, error: timeout });
  count('get_order', { annotations: { readOnlyHint: true }, error: timeout });
  count('place_order_429', { annotations: { readOnlyHint: false, idempotentHint: false }, error: () => rateLimited('retry-after-ms', '5') });
  const [a, b] = InMemoryV1.createLinkedPair();
  const client = new ClientV1({ name: 'test', version: '1.0.0' });
  await Promise.all([client.connect(a), server.connect(b)]);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const annotations = (name) => tools.find((x) => x.name === name).annotations;
  const policy = (name, events) => ({ maxAttempts: 3, baseDelayMs: 1, random: () => 0, annotations: annotations(name), onRetry: (e) => events.push(e) });

  // A timeout of a tool that is neither read-only nor idempotent: not called again.
  const events = [];
  const placed = await callToolWithRetry(client, { name: 'place_order', arguments: {} }, policy('place_order', events));
  assert.equal(placed.error.code, 'TIMEOUT');
  assert.equal(placed.attempts, 1);
  assert.equal(calls.place_order, 1);
  assert.match(placed.reason, /^not safe to call again: TIMEOUT may have had effects, and the tool is neither read-only nor idempotent$/);
  assert.equal(events.length, 0);
  // The same failure of a read-only tool: called again, and the event says why.
  const got = await callToolWithRetry(client, { name: 'get_order', arguments: {} }, policy('get_order', events));
  assert.equal(got.attempts, 3);
  assert.equal(got.reason, 'attempts exhausted');
  assert.equal(events[0].reason, 'TIMEOUT may have had effects; the tool is read-only');
  // A refusal before any work (429) is called again for any tool.
  const refused = [];
  const limited = await callToolWithRetry(client, { name: 'place_order_429', arguments: {} }, policy('place_order_429', refused));
  assert.equal(limited.attempts, 3);
  assert.equal(refused[0].reason, 'RATE_LIMITED: refused before any work');
  // Without annotations: as before, every retryable failure is called again.
  const before = await callToolWithRetry(client, { name: 'place_order', arguments: {} }, { maxAttempts: 2, baseDelayMs: 1, random: () => 0 });
  assert.equal(before.attempts, 2);
});
