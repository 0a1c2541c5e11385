// The one-liners never break a working server (issue 31): each tool's declared output schema,
// protocol errors left to the SDK, the failures the SDK catches itself, options checked at
// setup, a masked message that says what happened. Both SDK generations, each with its own
// real client (which checks structured content against the tool's output schema).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z as z3 } from 'zod';
// v2 depends on zod 4 (as its users do); zod 3.25's `zod/v4` cannot give v2 the JSON Schema of an output schema.
import { z as z4 } from 'zod4';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, ErrorCode, UrlElicitationRequiredError as UrlV1 } from '@modelcontextprotocol/sdk/types.js';
import {
  McpServer as McpServerV2, InMemoryTransport as InMemoryV2, ProtocolError, ProtocolErrorCode,
  UrlElicitationRequiredError as UrlV2,
} from '@modelcontextprotocol/server';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { classify, McpErrorsError, parseResult, withErrors, withServerErrors } from '../dist/index.js';

const json = (result) => JSON.parse(result.content.map((c) => c.text).findLast((t) => t.startsWith('{')));

const GENERATIONS = [
  { name: 'v1', McpServer: McpServerV1, Client: ClientV1, InMemory: InMemoryV1, z: z3,
    protocolError: (message) => new McpError(ErrorCode.InvalidParams, message), Url: UrlV1 },
  { name: 'v2', McpServer: McpServerV2, Client: ClientV2, InMemory: InMemoryV2, z: z4,
    protocolError: (message) => new ProtocolError(ProtocolErrorCode.InvalidParams, message), Url: UrlV2 },
];

async function connect(g, server) {
  const [a, b] = g.InMemory.createLinkedPair();
  const client = new g.Client({ name: 'test', version: '1.0.0' });
  await Promise.all([client.connect(a), server.connect(b)]);
  return client;
}

for (const g of GENERATIONS) {
  const { z } = g;

  test(`${g.name}: a tool's declared output schema is never broken, registered before or after`, async (t) => {
    const server = new g.McpServer({ name: 'weather', version: '1.0.0' });
    const outputSchema = { temp: z.number(), unit: z.string() };
    server.registerTool('before', { inputSchema: { city: z.string() }, outputSchema }, async () => {
      throw Object.assign(new Error('upstream 503'), { status: 503 });
    });
    withServerErrors(server, { profile: 'tool-error-v1', logger: false });
    server.registerTool('after', { inputSchema: { city: z.string() }, outputSchema }, async () => {
      throw Object.assign(new Error('upstream 429'), { status: 429, headers: { 'retry-after': '3' } });
    });
    server.registerTool('plain', { inputSchema: { city: z.string() } }, async () => {
      throw Object.assign(new Error('upstream 503'), { status: 503 });
    });
    const client = await connect(g, server);
    t.after(() => client.close());
    await client.listTools(); // the client learns each tool's output schema, and checks results by it
    for (const name of ['before', 'after']) {
      const r = await client.callTool({ name, arguments: { city: 'Paris' } });
      assert.equal(r.isError, true, name);
      assert.equal(r.structuredContent, undefined, `${name}: no structuredContent that breaks the schema`);
      assert.equal(json(r).kind, 'toolError:v1', `${name}: the structured error is in the content`);
    }
    const after = json(await client.callTool({ name: 'after', arguments: { city: 'Paris' } }));
    assert.equal(after.details.retryAfterMs, 3000, 'the delay travels in details');
    // A tool without an output schema keeps its structuredContent.
    const plain = await client.callTool({ name: 'plain', arguments: { city: 'Paris' } });
    assert.equal(plain.structuredContent.kind, 'toolError:v1');
  });

  test(`${g.name}: protocol errors are the SDK's: URL elicitation stays a JSON-RPC error`, async (t) => {
    const server = withServerErrors(new g.McpServer({ name: 'auth', version: '1.0.0' }), { logger: false });
    server.registerTool('connect_account', { inputSchema: {} }, async () => {
      throw new g.Url([{ mode: 'url', elicitationId: 'e1', url: 'https://example.com/connect', message: 'Connect your account' }]);
    });
    const client = await connect(g, server);
    t.after(() => client.close());
    // Rejected as a protocol error, as without the wrapper: never a tool result.
    await assert.rejects(client.callTool({ name: 'connect_account', arguments: {} }), (e) => typeof e.code === 'number');
  });

  test(`${g.name}: an author's protocol error keeps its code and message; the SDK's own failures take the profile`, async (t) => {
    const records = [];
    const server = withServerErrors(new g.McpServer({ name: 'weather', version: '1.0.0' }), {
      profile: 'mcp-tool-error', format: 'json', logger: (r) => records.push(r),
    });
    server.registerTool('europe_only', { inputSchema: { city: z.string() } }, async () => {
      throw g.protocolError('city must be in Europe');
    });
    server.registerTool('forecast', { inputSchema: { days: z.number() } }, async () => ({ content: [] }));
    const client = await connect(g, server);
    t.after(() => client.close());
    const deliberate = await client.callTool({ name: 'europe_only', arguments: { city: 'Lima' } });
    assert.equal(deliberate.isError, true);
    assert.equal(json(deliberate).code, 'BAD_REQUEST', 'the -32602 of the author\'s error');
    assert.match(json(deliberate).message, /city must be in Europe/, 'never masked');
    // Input validation, caught by the SDK before the tool runs: the same profile.
    const invalid = await client.callTool({ name: 'forecast', arguments: { days: 'three' } });
    assert.equal(invalid.isError, true);
    assert.equal(json(invalid).code, 'BAD_REQUEST');
    assert.match(json(invalid).message, /Input validation error/);
    assert.ok(records.length >= 2, 'logged like any failure');
  });

  test(`${g.name}: a validation error inside a tool whose input the SDK validated is INTERNAL, not the caller's`, async (t) => {
    const server = withServerErrors(new g.McpServer({ name: 'weather', version: '1.0.0' }), { format: 'json', logger: false });
    const Upstream = z.object({ temp: z.number() });
    server.registerTool('forecast', { inputSchema: { city: z.string() } }, async () => {
      Upstream.parse({ temp: 'warm' }); // the upstream's payload, not the caller's input
      return { content: [] };
    });
    const client = await connect(g, server);
    t.after(() => client.close());
    const r = await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } });
    assert.equal(json(r).code, 'INTERNAL');
  });

  test(`${g.name}: a masked failure says what happened and its error id, in the server's words per tool`, async (t) => {
    const server = withServerErrors(new g.McpServer({ name: 'weather', version: '1.0.0' }), {
      logger: false, newErrorId: () => '1a2b3c4d', tools: { branded: { maskedMessage: 'The weather service failed' } },
    });
    server.registerTool('crash', { inputSchema: {} }, async () => { throw new TypeError('x is undefined (token=abc)'); });
    server.registerTool('branded', { inputSchema: {} }, async () => { throw new TypeError('x is undefined'); });
    const client = await connect(g, server);
    t.after(() => client.close());
    const crash = await client.callTool({ name: 'crash', arguments: {} });
    assert.equal(crash.structuredContent.message, 'The tool hit an internal error (error id 1a2b3c4d).');
    const branded = await client.callTool({ name: 'branded', arguments: {} });
    assert.equal(branded.structuredContent.message, 'The weather service failed (error id 1a2b3c4d).');
  });
}

test('v1: an unknown tool is the SDK\'s own failure, in the profile; v2 answers it with a JSON-RPC error', async (t) => {
  const v1 = withServerErrors(new McpServerV1({ name: 'a', version: '1.0.0' }), { format: 'json', logger: false });
  v1.registerTool('known', { inputSchema: {} }, async () => ({ content: [] }));
  const c1 = await connect(GENERATIONS[0], v1);
  t.after(() => c1.close());
  const r = await c1.callTool({ name: 'nope', arguments: {} });
  assert.equal(r.isError, true);
  // A tool that does not exist, reported in a result: NOT_FOUND, as Python's servers say it.
  assert.equal(json(r).code, 'NOT_FOUND');
  assert.match(json(r).message, /Tool nope not found/);
  const v2 = withServerErrors(new McpServerV2({ name: 'b', version: '1.0.0' }), { format: 'json', logger: false });
  v2.registerTool('known', { inputSchema: {} }, async () => ({ content: [] }));
  const c2 = await connect(GENERATIONS[1], v2);
  t.after(() => c2.close());
  await assert.rejects(c2.callTool({ name: 'nope', arguments: {} }), (e) => e.code === -32602);
});

test('options are checked when a wrapper is built, naming the option', () => {
  const server = () => new McpServerV1({ name: 'a', version: '1.0.0' });
  const invalid = (f, pattern) => assert.throws(f, (e) => e instanceof McpErrorsError && e.kind === 'invalid_option' && pattern.test(e.message));
  invalid(() => withServerErrors(server(), { profle: 'tool-error-v1' }), /unknown option "profle"/);
  invalid(() => withServerErrors(server(), { profile: 'tool-eror-v1' }), /unknown profile "tool-eror-v1"/);
  invalid(() => withServerErrors(server(), { tools: { weather: { format: 'yaml' } } }), /tools\["weather"\].*unknown format "yaml"/);
  invalid(() => withErrors(async () => {}, { logger: 'stderr' }), /"logger" must be a function or false/);
  invalid(() => withErrors(async () => {}, { hints: { retryAfter: 5 } }), /unknown hint "retryAfter"/);
  invalid(() => withErrors(async () => {}, { limits: { max_message_chars: 1 } }), /max_message_chars/);
  // Good options build.
  assert.equal(typeof withErrors(async () => {}, { profile: 'text', maskedMessage: 'Failed' }), 'function');
});

test('the one SDK internal withServerErrors reads is where it expects, in both generations', () => {
  // `_registeredTools` (tools registered before the call) has no public equivalent: if an SDK
  // release moves it, this fails loudly instead of the wrapper silently skipping tools.
  for (const McpServer of [McpServerV1, McpServerV2]) {
    const s = new McpServer({ name: 'a', version: '1.0.0' });
    s.registerTool('t', { inputSchema: {} }, async () => ({ content: [] }));
    assert.equal(typeof s._registeredTools.t.update, 'function');
    assert.equal(typeof s._registeredTools.t.handler, 'function');
    assert.equal(typeof s.createToolError, 'function');
  }
});

test('the delay survives a profile without a delay field: tool-error-v1 carries it in details, parse reads it back', async (t) => {
  const server = withServerErrors(new McpServerV1({ name: 'w', version: '1.0.0' }), { profile: 'tool-error-v1', logger: false });
  server.registerTool('busy', { inputSchema: {} }, async () => {
    throw Object.assign(new Error('Too Many Requests'), { status: 429, headers: { 'retry-after': '1' } });
  });
  const client = await connect(GENERATIONS[0], server);
  t.after(() => client.close());
  const result = await client.callTool({ name: 'busy', arguments: {} });
  const read = parseResult(result);
  assert.equal(read.retryable, true);
  assert.equal(read.retry_after_ms, 1000, 'the server asked for 1 s; the retry helpers wait that');
  assert.ok(read.evidence.some((e) => /^error id [0-9a-f]{8}$/.test(e)), 'the error id is named');
});

test('classify() reads the clock, as toolResult does: an HTTP-date Retry-After is a delay', () => {
  const at = new Date(Date.now() + 120_000).toUTCString();
  const err = Object.assign(new Error('Too Many Requests'), { status: 429, headers: { 'retry-after': at } });
  const n = classify(err);
  assert.ok(n.retry_after_ms >= 100_000 && n.retry_after_ms <= 121_000, `${n.retry_after_ms}`);
  const without = classify(err, undefined, { now: null });
  assert.equal(without.retry_after_ms, undefined);
  assert.ok(without.evidence.some((e) => e.includes('no `now`')));
});
