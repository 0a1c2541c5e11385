// Server-wide: withServerErrors on an McpServer of both SDK generations, each called by its own
// real client; framework errors honoured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHttp } from './helpers.mjs';
import { z as z3 } from 'zod';
import { z as z4 } from 'zod/v4';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { WebStandardStreamableHTTPServerTransport as HttpServerV1 } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpServer as McpServerV2, InMemoryTransport as InMemoryV2, ProtocolError, ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport as HttpServerV2,
} from '@modelcontextprotocol/server';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { toRawError, ToolError, withServerErrors } from '../dist/index.js';

const NOW = '2025-10-27T14:32:15Z';
const json = (result) => JSON.parse(result.content.map((c) => c.text).findLast((t) => t.startsWith('{')));

/** A server with a tool registered before `withServerErrors` and two after. */
function build(McpServer, z, records) {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('crash', { inputSchema: { city: z.string() } }, async ({ city }) => {
    throw new TypeError(`Cannot read properties of undefined (reading '${city}-secret')`);
  });
  withServerErrors(server, {
    profile: 'mcp-tool-error', format: 'json', now: NOW, logger: (r) => records.push(r),
    tools: { weather: { profile: 'tool-error-v1', format: 'both' } },
  });
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
    throw new ToolError(`No city named ${city}`, { code: 'NOT_FOUND' });
  });
  server.registerTool('user_error', { inputSchema: { city: z.string() } }, async () => {
    throw Object.assign(new Error('Please pass a city in Europe'), { name: 'UserError' });
  });
  return server;
}

async function callAll(server, Client, InMemory) {
  const [a, b] = InMemory.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([client.connect(a), server.connect(b)]);
  const out = {};
  for (const name of ['crash', 'weather', 'user_error']) {
    out[name] = await client.callTool({ name, arguments: { city: 'Atlantis' } });
  }
  await client.close();
  return out;
}

// v2 takes zod 4 schemas (zod 3.25 ships them as `zod/v4`); v1 takes zod 3's.
for (const [generation, McpServer, Client, InMemory, z] of [
  ['v1 (@modelcontextprotocol/sdk 1.32)', McpServerV1, ClientV1, InMemoryV1, z3],
  ['v2 (@modelcontextprotocol/server 2.4)', McpServerV2, ClientV2, InMemoryV2, z4],
]) {
  test(`withServerErrors, ${generation}: every tool, before and after, with per-tool options`, async () => {
    const records = [];
    const r = await callAll(build(McpServer, z, records), Client, InMemory);
    // Registered before: masked by default, the tool's name, the common profile.
    assert.equal(r.crash.isError, true);
    assert.equal(json(r.crash).code, 'INTERNAL_ERROR');
    assert.doesNotMatch(JSON.stringify(r.crash), /secret/);
    // Registered after, with its own profile and format.
    assert.equal(r.weather.isError, true);
    assert.equal(r.weather.content.length, 2);
    assert.equal(json(r.weather).kind, 'toolError:v1');
    assert.equal(json(r.weather).message, 'No city named Atlantis');
    // A framework's "user error" is shown as is.
    assert.equal(json(r.user_error).message, 'Please pass a city in Europe');
    // One log record per failure, named after its tool, never masked.
    assert.deepEqual(records.map((x) => x.tool), ['crash', 'weather', 'user_error']);
    assert.match(JSON.stringify(records[0]), /Atlantis-secret/);
  });
}


for (const [generation, McpServer, Client, HttpServer, HttpClient, z] of [
  ['v1', McpServerV1, ClientV1, HttpServerV1, HttpClientV1, z3],
  ['v2', McpServerV2, ClientV2, HttpServerV2, HttpClientV2, z4],
]) {
  test(`withServerErrors, ${generation}, over Streamable HTTP with the real client`, async (t) => {
    const records = [];
    const http = await serveHttp(() => build(McpServer, z, records), HttpServer);
    t.after(() => http.close());
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new HttpClient(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
    const weather = await client.callTool({ name: 'weather', arguments: { city: 'Atlantis' } });
    await client.close();
    assert.equal(weather.isError, true);
    assert.equal(json(weather).kind, 'toolError:v1');
    assert.deepEqual(records.map((x) => x.tool), ['weather']);
  });
}

test('withServerErrors refuses what is not an McpServer', () => {
  assert.throws(() => withServerErrors({}), (e) => e.kind === 'invalid_option');
});

test("v2's ProtocolError keeps its JSON-RPC code", () => {
  const raw = toRawError(new ProtocolError(ProtocolErrorCode.InvalidParams, 'city must be a string'));
  assert.equal(raw.code, -32602);
  assert.match(raw.message, /city must be a string/);
});
