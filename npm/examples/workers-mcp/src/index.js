// A remote MCP server on Cloudflare Workers whose tools fail the ways the seed documents describe,
// each wrapped with `withErrors`. Stateless Streamable HTTP at /mcp (the SDK's web-standard
// transport), one server per request. `npx wrangler dev`, then point any MCP client at
// http://localhost:8787/mcp.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import { z } from 'zod';
import { ToolError, withErrors } from 'mcp-errors';

// The server's log records: Workers' console (`wrangler tail`).
const log = (record) => console.log(JSON.stringify(record));

function server() {
  // Workers allow no code generation from strings, so not the default (ajv) validator.
  const s = new McpServer({ name: 'mcp-errors-on-workers', version: '1.0.0' },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });

  // Seed 000 (toolError:v1): a deliberate error with the author's code and suggestions.
  s.registerTool('weather', { inputSchema: { city: z.string() } }, withErrors(async ({ city }) => {
    throw new ToolError(`No city named ${city}`, { code: 'NOT_FOUND', appCode: 'CITY_NOT_FOUND', suggestions: ['Check the spelling'] });
  }, { toolName: 'weather', profile: 'tool-error-v1', format: 'both', log }));

  // Seed 001 (McpToolError): an aborted upstream call is TIMEOUT, retriable.
  s.registerTool('slow_search', { inputSchema: { query: z.string() } }, withErrors(async () => {
    throw new DOMException('The operation was aborted.', 'AbortError');
  }, { toolName: 'slow_search', profile: 'mcp-tool-error', format: 'json', log }));

  // Seed 002 (the guide): an upstream 429 with Retry-After, as text for the model.
  s.registerTool('quote', { inputSchema: { symbol: z.string() } }, withErrors(async () => {
    throw Object.assign(new Error('Request failed with status code 429'), {
      response: { status: 429, headers: { 'retry-after': '30' }, data: { error: 'rate limited' } },
    });
  }, { toolName: 'quote', profile: 'text', log }));

  // Seed 003 (Kubernetes): a forbidden upstream, as the error object.
  s.registerTool('list_pods', { inputSchema: { namespace: z.string() } }, withErrors(async ({ namespace }) => {
    throw Object.assign(new Error(`pods is forbidden: cannot list resource "pods" in namespace "${namespace}"`), {
      status: 403, body: { kind: 'Status', reason: 'Forbidden', code: 403 },
    });
  }, { toolName: 'list_pods', profile: 'error-object', format: 'json', log }));

  // Seed 004 (Gem-Flux): an infeasible model, in the rpc envelope.
  s.registerTool('gapfill_model', { inputSchema: { model_id: z.string() } }, withErrors(async ({ model_id }) => {
    throw new ToolError('Gapfilling could not find solution to enable growth in specified media',
      { appType: 'infeasibility_error', appCode: 'GAPFILL_INFEASIBLE', details: { model_id } });
  }, { toolName: 'gapfill_model', profile: 'rpc-envelope', format: 'json', log }));

  // An unexpected bug: masked for the model (the log keeps the message).
  s.registerTool('report', { inputSchema: {} }, withErrors(async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'rows')");
  }, { toolName: 'report', log }));
  return s;
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/mcp') return new Response('MCP endpoint: /mcp\n', { status: 404 });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server().connect(transport);
    return transport.handleRequest(request);
  },
};
