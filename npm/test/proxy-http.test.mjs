// `npx mcp-errors proxy --listen … --upstream …` (the Node host's Streamable HTTP) in front of
// @modelcontextprotocol/server-everything over Streamable HTTP, with the SDK's HTTP client:
// what is not a failure passes as over a direct connection (the tool list, a success, progress
// over server-sent events), a failure comes out canonical and parses back, the log has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseResult } from '../dist/index.js';

const nodeCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Start a process and wait until its stderr says `ready`. */
function started(command, args, env, ready) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${err}`)), 15_000);
    child.stderr.on('data', (d) => {
      err += d;
      if (ready.test(err)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function connect(url) {
  const client = new Client({ name: 'proxy-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

test('node: the Streamable HTTP proxy in front of server-everything: the same as direct, progress, a failure canonical', { timeout: 60_000 }, async (t) => {
  const [upPort, proxyPort] = [await freePort(), await freePort()];
  const upstream = await started(process.execPath, [everything, 'streamableHttp'], { PORT: String(upPort) }, /listening on port/);
  t.after(() => upstream.kill());
  const log = join(mkdtempSync(join(tmpdir(), 'mcp-errors-http-')), 'proxy.log');
  const proxy = await started(process.execPath, [nodeCli, 'proxy', '--log', log, '--listen', `127.0.0.1:${proxyPort}`, '--upstream', `http://127.0.0.1:${upPort}/mcp`], {}, /listening on/);
  t.after(() => proxy.kill());

  const direct = await connect(`http://127.0.0.1:${upPort}/mcp`);
  t.after(() => direct.close());
  const proxied = await connect(`http://127.0.0.1:${proxyPort}/mcp`);
  t.after(() => proxied.close());

  // The tool list and a success: as over a direct connection.
  assert.deepEqual(await proxied.listTools(), await direct.listTools());
  const echo = { name: 'echo', arguments: { message: 'hello' } };
  assert.deepEqual(await proxied.callTool(echo), await direct.callTool(echo));

  // Progress notifications arrive through the proxy's event stream.
  const progress = [];
  const long = await proxied.callTool(
    { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
    undefined,
    { onprogress: (p) => progress.push(p.progress) },
  );
  assert.notEqual(long.isError, true);
  assert.ok(progress.length >= 2, `progress ${progress}`);

  // A failure: arguments the tool's schema refuses. The server answers with its own text;
  // through the proxy it is the canonical error, which parses back to INVALID_ARGUMENT.
  const bad = { name: 'get-sum', arguments: { a: 'one', b: 2 } };
  const raw = await direct.callTool(bad);
  assert.equal(raw.isError, true);
  const canonical = await proxied.callTool(bad);
  assert.equal(canonical.isError, true);
  const error = canonical.structuredContent ?? JSON.parse(canonical.content.map((c) => c.text).findLast((x) => x.startsWith('{')));
  assert.equal(error.code, 'INVALID_ARGUMENT', JSON.stringify(raw));
  assert.equal(error.tool, 'get-sum');
  assert.equal(parseResult(canonical).code, 'INVALID_ARGUMENT');

  // The log: one record, the result's error id.
  const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(records.length, 1);
  assert.equal(records[0].error_id, error.error_id);
});

test('node: --listen and --upstream go together, in place of a command', async () => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [nodeCli, 'proxy', '--listen', '127.0.0.1:0'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /go together/);
  const bad = spawnSync(process.execPath, [nodeCli, 'proxy', '--profile', 'nope', '--listen', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:9/mcp'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown profile "nope"/);
  // Calling again is for a server on stdio: refused over HTTP, before listening.
  const retry = spawnSync(process.execPath, [nodeCli, 'proxy', '--retry', '2', '--listen', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:9/mcp'], { encoding: 'utf8' });
  assert.equal(retry.status, 2);
  assert.match(retry.stderr, /--retry works with a server on stdio/);
});
