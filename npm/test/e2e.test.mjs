// A real MCP SDK client calls a real McpServer whose tools fail the ways the
// seed documents describe; the client receives normalized results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closedPort } from './helpers.mjs';
import { createServer } from 'node:http';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { withErrors, ToolError } from '../dist/index.js';

async function upstream(status, headers, body) {
  const s = createServer((req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return s;
}

async function connect(server) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([client.connect(clientTransport), server.connect(serverTransport)]);
  return client;
}

test('a real client sees normalized errors from a real server', async (t) => {
  const logs = [];
  const log = (r) => logs.push(r);
  const now = '2025-10-27T14:32:15Z';
  const port = await closedPort();
  const unauthorized = await upstream(401, { 'content-type': 'application/json' }, '{"message":"Bad credentials"}');
  t.after(() => unauthorized.close());
  const server = new McpServer({ name: 'failing-tools', version: '1.0.0' });

  // Seed 001/002: a network failure, masked (unexpected), with a log record sharing its id.
  server.registerTool('fetch_page', { inputSchema: { url: z.string() } },
    withErrors(async () => { await fetch(`http://127.0.0.1:${port}/`); return { content: [] }; },
      { toolName: 'fetch_page', logger: log, now, newErrorId: () => 'err_0001' }));

  // Seed 000: an upstream 401 as toolError:v1, format both.
  server.registerTool('search_patterns', { inputSchema: { q: z.string() } },
    withErrors(async () => {
      const res = await fetch(`http://127.0.0.1:${unauthorized.address().port}/`);
      if (!res.ok) throw Object.assign(new Error('Authentication required: Missing or invalid API key'), { status: res.status, body: await res.text() });
      return { content: [] };
    }, { profile: 'tool-error-v1', format: 'both', mask: false, logger: false }));

  // Seed 004: a deliberate domain error as the rpc envelope.
  server.registerTool('gapfill_model', { inputSchema: { model_id: z.string() } },
    withErrors(async ({ model_id }) => {
      throw new ToolError('Gapfilling could not find solution to enable growth in specified media', {
        appType: 'infeasibility_error', appCode: 'GAPFILL_INFEASIBLE', details: { model_id }, suggestions: ['Try increasing max_complexity parameter'],
      });
    }, { profile: 'rpc-envelope', format: 'json', toolName: 'gapfill_model', now, logger: false, newErrorId: () => 'err_0003' }));

  // Seed 003: the soft JSON result (isError false) with an extra field.
  server.registerTool('pods_top', { inputSchema: {} },
    withErrors(async () => {
      throw new ToolError('Metrics server is not available', { appType: 'MetricsUnavailable', details: 'The metrics.k8s.io API is not available.' });
    }, { profile: 'error-object', target: 'soft-result', extraFields: { metrics_available: false }, logger: false }));

  // A tool with an outputSchema: its error result must not break it.
  const outputSchema = { temp: z.number() };
  server.registerTool('get_forecast', { inputSchema: { city: z.string() }, outputSchema },
    withErrors(async () => { throw Object.assign(new Error('upstream 503'), { status: 503 }); },
      { outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] }, logger: false, now }));
  // The control: a hand-made error result whose structuredContent breaks the schema.
  server.registerTool('naive_forecast', { inputSchema: { city: z.string() }, outputSchema },
    async () => ({ content: [{ type: 'text', text: 'upstream 503' }], structuredContent: { error: 'upstream 503' }, isError: true }));

  const client = await connect(server);
  t.after(() => client.close());

  const network = await client.callTool({ name: 'fetch_page', arguments: { url: 'x' } });
  assert.equal(network.isError, true);
  assert.equal(network.structuredContent.code, 'NETWORK_ERROR');
  assert.equal(network.structuredContent.retryable, true);
  assert.equal(network.structuredContent.error_id, 'err_0001');
  assert.doesNotMatch(JSON.stringify(network), /127\.0\.0\.1/, 'the unexpected error is masked');
  assert.match(network.content[0].text, /^Error: .*\nCode: NETWORK_ERROR\nTool: fetch_page\nRetryable: yes\nError ID: err_0001$/s);
  assert.equal(logs.length, 1);
  assert.equal(logs[0].error_id, 'err_0001');
  assert.match(logs[0].message, /ECONNREFUSED 127\.0\.0\.1/, 'the log record keeps the real message');

  const auth = await client.callTool({ name: 'search_patterns', arguments: { q: 'retry' } });
  assert.equal(auth.isError, true);
  assert.deepEqual(JSON.parse(auth.content[1].text), auth.structuredContent);
  assert.equal(auth.structuredContent.kind, 'toolError:v1');
  assert.equal(auth.structuredContent.code, 'AUTHENTICATION_ERROR');
  assert.equal(auth.structuredContent.retryable, false);
  assert.equal(auth.structuredContent.details.statusCode, 401);
  // The SDK client drops `mimeType` (seed 000 warns it is best-effort); the text arrives.
  assert.equal(auth.content[0].text, 'Authentication required: Missing or invalid API key: Bad credentials');

  const gap = await client.callTool({ name: 'gapfill_model', arguments: { model_id: 'model_xyz' } });
  const envelope = JSON.parse(gap.content[0].text);
  assert.deepEqual(envelope, {
    success: false, error_type: 'infeasibility_error', jsonrpc_error_code: -32002, error_code: 'GAPFILL_INFEASIBLE',
    message: 'Gapfilling could not find solution to enable growth in specified media', details: { error_id: 'err_0003', model_id: 'model_xyz' },
    suggestions: ['Try increasing max_complexity parameter'], tool_name: 'gapfill_model', timestamp: now,
  });

  const pods = await client.callTool({ name: 'pods_top', arguments: {} });
  assert.equal(pods.isError, false);
  assert.deepEqual(JSON.parse(pods.content[0].text), {
    error: { type: 'MetricsUnavailable', message: 'Metrics server is not available', details: 'The metrics.k8s.io API is not available.' },
    metrics_available: false,
  });

  await client.listTools(); // the client learns the outputSchemas
  const forecast = await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' } });
  assert.equal(forecast.isError, true);
  assert.equal(forecast.structuredContent, undefined);
  assert.match(forecast.content.map((c) => c.text).join('\n'), /UNAVAILABLE/);
  await assert.rejects(client.callTool({ name: 'naive_forecast', arguments: { city: 'Oslo' } }),
    /output schema/i, 'a structuredContent that breaks the schema makes the SDK client throw');
});
