// `mcp-errors proxy` in front of @modelcontextprotocol/server-everything (the SDK's own test
// server), with the real SDK client: what is not a failure passes as over a direct connection,
// progress notifications included; a 1 MB message passes; a cancelled call leaves the session
// working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { proxyHosts } from './helpers.mjs';

const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const hosts = proxyHosts();

async function connect(command, args) {
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return client;
}

for (const host of hosts) test(`${host.name}: server-everything through the proxy: the same as direct, progress, 1 MB, cancellation`, { timeout: 60_000 }, async (t) => {
  const direct = await connect(process.execPath, [server, 'stdio']);
  t.after(() => direct.close());
  const proxied = await connect(host.command, [...host.pre, 'proxy', '--', process.execPath, server, 'stdio']);
  t.after(() => proxied.close());

  assert.deepEqual(await proxied.listTools(), await direct.listTools());
  const sum = { name: 'get-sum', arguments: { a: 2, b: 3 } };
  assert.deepEqual(await proxied.callTool(sum), await direct.callTool(sum));

  // A large message both ways (1 MB: the server's own stdio reader takes no 10 MB line; the
  // 10 MB line is in proxy.test.mjs, against a plain line echo).
  const big = 'x'.repeat(1024 * 1024);
  const echoed = await proxied.callTool({ name: 'echo', arguments: { message: big } });
  assert.equal(echoed.content[0].text, `Echo: ${big}`);

  // Progress notifications pass through.
  const progress = [];
  const done = await proxied.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
    undefined, { onprogress: (p) => progress.push(p.progress) });
  assert.notEqual(done.isError, true);
  // The server sends its last notification without waiting for it, so under load it may
  // arrive after the result (directly too): the ones before it, in order.
  assert.ok(progress.length >= 2, `progress ${progress}`);
  assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));

  // A call cancelled by the client: the SDK sends notifications/cancelled through the proxy,
  // and the session goes on.
  const controller = new AbortController();
  const slow = proxied.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } },
    undefined, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('cancelled by the test')), 100);
  await assert.rejects(slow, /cancelled by the test/);
  assert.deepEqual(await proxied.callTool(sum), await direct.callTool(sum));
});
