// The demo: a real MCP server whose tools fail, and a real client calling them.
// Run by `cargo xtask demo` (after building the package).
import { createServer } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { callToolWithRetry, parseResult, withErrors, ToolError } from 'mcp-errors';

const closed = createServer();
await new Promise((r) => closed.listen(0, '127.0.0.1', r));
const port = closed.address().port;
await new Promise((r) => closed.close(r));

const server = new McpServer({ name: 'demo', version: '1.0.0' });
server.registerTool('fetch_page', { inputSchema: { url: z.string() } },
  withErrors(async ({ url }) => ({ content: [{ type: 'text', text: await (await fetch(url)).text() }] }),
    { toolName: 'fetch_page', logger: (r) => console.log('  server log:', JSON.stringify(r)) }));
server.registerTool('weather', { inputSchema: { city: z.string() } },
  withErrors(async ({ city }) => {
    throw new ToolError(`No city named ${city}`, { code: 'NOT_FOUND', appCode: 'CITY_NOT_FOUND', suggestions: ['Check the spelling'] });
  }, { profile: 'tool-error-v1', format: 'both', logger: false }));
server.registerTool('gapfill_model', { inputSchema: { model_id: z.string() } },
  withErrors(async ({ model_id }) => {
    throw new ToolError('Gapfilling could not find solution to enable growth in specified media',
      { appType: 'infeasibility_error', appCode: 'GAPFILL_INFEASIBLE', details: { model_id } });
  }, { profile: 'rpc-envelope', format: 'json', toolName: 'gapfill_model', logger: false }));

// An upstream that asks to slow down twice, then answers.
let busy = 2;
server.registerTool('search', { inputSchema: { q: z.string() } },
  withErrors(async ({ q }) => {
    if (busy-- > 0) throw Object.assign(new Error('upstream says slow down'), { status: 429, headers: { 'retry-after': '1' } });
    return { content: [{ type: 'text', text: `3 results for ${q}` }] };
  }, { toolName: 'search', logger: false }));

const [a, b] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: 'demo-client', version: '1.0.0' });
await Promise.all([client.connect(a), server.connect(b)]);
for (const [name, args] of [
  ['fetch_page', { url: `http://127.0.0.1:${port}/` }],
  ['weather', { city: 'Atlantis' }],
  ['gapfill_model', { model_id: 'model_xyz' }],
]) {
  console.log(`client → ${name}(${JSON.stringify(args)})`);
  const result = await client.callTool({ name, arguments: args });
  console.log('  client received:', JSON.stringify(result));
  // The client reads the failure back: the same canonical error, with whether and when to retry.
  console.log('  client parsed:  ', JSON.stringify(parseResult(result)));
}
console.log('client → search({"q":"mcp"}) with callToolWithRetry (waits capped at 200 ms)');
const outcome = await callToolWithRetry(client, { name: 'search', arguments: { q: 'mcp' } }, {
  maxDelayMs: 200,
  onRetry: ({ attempt, delayMs, error }) => console.log(`  attempt ${attempt}: ${error.code}, retry_after_ms ${error.retry_after_ms}; waiting ${delayMs} ms`),
});
console.log(`  after ${outcome.attempts} calls:`, JSON.stringify(outcome.result));
await client.close();
