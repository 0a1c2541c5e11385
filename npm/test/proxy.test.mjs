// `mcp-errors proxy` (the native CLI) in front of a real MCP server nobody here wrote
// (@modelcontextprotocol/server-filesystem), called by the real SDK client over stdio:
// failures come out canonical and parse back to the right code; successes and the tool
// list are the same as over a direct connection; the log has one record per failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseResult } from '../dist/index.js';
import { proxyHosts } from './helpers.mjs';

const hosts = proxyHosts();
const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));

async function connect(command, args) {
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return client;
}

// The usage is the core's in every host; the npm and Python CLIs add the Streamable HTTP
// form they serve (the contract's PROXY_HTTP_USAGE, naming the CLI), the native one does not.
for (const host of hosts) {
  test(`${host.name}: proxy --help is the core's usage, and the HTTP form where the host serves it`, () => {
    const native = spawnSync(hosts[0].command, ['proxy', '--help'], { encoding: 'utf8' });
    const out = spawnSync(host.command, [...host.pre, 'proxy', '--help'], { encoding: 'utf8' });
    assert.equal(out.status, 0);
    assert.ok(out.stdout.startsWith(native.stdout), "the core's usage first");
    const name = { native: undefined, node: 'npm', python: 'Python' }[host.name];
    if (name === undefined) {
      assert.equal(out.stdout, native.stdout);
      assert.doesNotMatch(out.stdout, /--listen/);
    } else {
      assert.match(out.stdout.slice(native.stdout.length), new RegExp(`^\\nThis CLI \\(${name}\\) also serves a remote server over Streamable HTTP:\\n  mcp-errors proxy \\[options\\] --listen HOST:PORT --upstream URL\\n`));
    }
  });
}

for (const host of hosts) {
  test(`${host.name}: the proxy in front of server-filesystem: failures canonical, everything else as direct`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-errors-proxy-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  const log = join(dir, 'proxy.log');
  const direct = await connect(process.execPath, [server, dir]);
  t.after(() => direct.close());
  const proxied = await connect(host.command, [...host.pre, 'proxy', '--profile', 'canonical', '--log', log, '--', process.execPath, server, dir]);
  t.after(() => proxied.close());

  // The tool list and a success: the same as over a direct connection.
  assert.deepEqual(await proxied.listTools(), await direct.listTools());
  const read = { name: 'read_text_file', arguments: { path: join(dir, 'notes.txt') } };
  assert.deepEqual(await proxied.callTool(read), await direct.callTool(read));

  // A failure: the server's own text, read and written again as the canonical error.
  const outside = { name: 'read_text_file', arguments: { path: '/etc/hostname' } };
  const raw = await direct.callTool(outside);
  assert.equal(raw.isError, true);
  assert.equal(raw.structuredContent, undefined, 'the server itself sends text only');
  const canonical = await proxied.callTool(outside);
  assert.equal(canonical.isError, true);
  // read_text_file declares an output schema (learned from tools/list) that the error
  // object does not fit: no structuredContent, the canonical JSON in a content block.
  const tool = (await direct.listTools()).tools.find((x) => x.name === 'read_text_file');
  assert.ok(tool.outputSchema, 'the server declares an output schema');
  assert.equal(canonical.structuredContent, undefined);
  const error = JSON.parse(canonical.content.map((c) => c.text).findLast((x) => x.startsWith('{')));
  assert.equal(error.code, 'PERMISSION_DENIED');
  assert.equal(error.tool, 'read_text_file');
  assert.match(error.message, /outside allowed directories/);
  assert.equal(parseResult(canonical).code, 'PERMISSION_DENIED');

  // A missing file: NOT_FOUND.
  const missing = await proxied.callTool({ name: 'read_text_file', arguments: { path: join(dir, 'nope.txt') } });
  assert.equal(parseResult(missing).code, 'NOT_FOUND');

  // The log: one JSON line per failure, the same error id as the result.
  const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(records.length, 2);
  assert.equal(records[0].code, 'PERMISSION_DENIED');
  assert.equal(records[0].error_id, error.error_id);
});
}

for (const host of hosts) {
  test(`${host.name}: the proxy refuses bad options before it starts the server`, async () => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(host.command, [...host.pre, 'proxy', '--profile', 'tool-eror-v1', '--', process.execPath, '-e', 'process.exit(0)'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown profile "tool-eror-v1"/);
  const none = spawnSync(host.command, [...host.pre, 'proxy', '--profile', 'canonical'], { encoding: 'utf8' });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no server command/);
});
}

for (const host of hosts) {
  test(`${host.name}: a server that dies mid-call: the client gets an error for the call in flight, and the exit status`, async () => {
  const { spawnSync } = await import('node:child_process');
  // A "server" that reads one request and exits with 3 without answering.
  const script = 'process.stdin.once("data", () => process.exit(3));';
  const call = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x' } });
  const r = spawnSync(host.command, [...host.pre, 'proxy', '--', process.execPath, '-e', script], { input: `${call}\n`, encoding: 'utf8' });
  assert.equal(r.status, 3);
  const answer = JSON.parse(r.stdout.trim());
  assert.equal(answer.id, 5);
  assert.equal(answer.error.code, -32603);
});
}

for (const host of hosts) {
  test(`${host.name}: a 10 MB line passes the proxy byte for byte, both ways`, async () => {
  const { spawnSync } = await import('node:child_process');
  // A "server" that answers each request with its params as the result (a success).
  const script = `const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (l) => { const m = JSON.parse(l); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: m.params.arguments.message }] } }) + '\\n'); });`;
  const message = 'y'.repeat(10 * 1024 * 1024);
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message } } });
  const direct = spawnSync(process.execPath, ['-e', script], { input: `${call}\n`, encoding: 'utf8', maxBuffer: 64 << 20 });
  const proxied = spawnSync(host.command, [...host.pre, 'proxy', '--', process.execPath, '-e', script], { input: `${call}\n`, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(proxied.status, 0, proxied.stderr);
  assert.ok(direct.stdout.length > 10 * 1024 * 1024);
  assert.equal(proxied.stdout, direct.stdout);
});
}

for (const host of hosts) {
  test(`${host.name}: a hung server: the call in flight is answered and the server stopped when the client goes`, async () => {
  const { spawn } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-errors-hung-'));
  const pidFile = join(dir, 'server.pid');
  // A "server" that never answers, ignores its input closing and SIGTERM, and keeps running.
  const script = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
process.on('SIGTERM', () => {}); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`;
  const proxy = spawn(host.command, [...host.pre, 'proxy', '--', process.execPath, '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proxy.stdout.on('data', (d) => { out += d; });
  proxy.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => proxy.on('exit', (code, signal) => resolve({ code, signal })));
  proxy.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hang', arguments: {} } })}\n`);
  // Wait for the server to start, then the client goes away.
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const closed = Date.now();
  proxy.stdin.end();
  const { code, signal } = await exited;
  const took = Date.now() - closed;
  // Stopped after the proxy's grace (1 s, then 0.5 s after SIGTERM), not left running;
  // SIGKILL ended it, so the status is a failure.
  assert.equal(signal, null);
  assert.equal(code, 1);
  assert.ok(took >= 1400 && took < 5000, `${took} ms`);
  assert.match(err, /did not exit when its input closed: stopping it/);
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the server is gone');
  // The call in flight got a well-formed error.
  const answer = JSON.parse(out.trim());
  assert.equal(answer.id, 9);
  assert.equal(answer.error.code, -32603);
});
}


// The Node and Python hosts stop their server when they are stopped (the native one catches no
// signal: README).
for (const host of hosts.filter((h) => h.name !== 'native')) {
  test(`${host.name}: stopped with SIGTERM, the proxy stops its server and exits`, async () => {
    const { spawn } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'mcp-errors-term-'));
    const pidFile = join(dir, 'server.pid');
    // A server that exits on SIGTERM (the default) but never on its input closing.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`;
    const proxy = spawn(host.command, [...host.pre, 'proxy', '--', process.execPath, '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => proxy.on('exit', (code, signal) => resolve({ code, signal })));
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    proxy.kill('SIGTERM');
    const { code, signal } = await exited;
    assert.equal(signal, null, 'the proxy exits by itself, after its server');
    assert.equal(code, 1, 'the server was ended by a signal');
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the server is gone');
  });
}

for (const host of hosts) {
  test(`${host.name}: --retry calls again what is safe to call again, and nothing else`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-errors-retry-'));
    const log = join(dir, 'proxy.log');
    const flaky = fileURLToPath(new URL('./fixtures/flaky-server.mjs', import.meta.url));
    const client = await connect(host.command, [...host.pre, 'proxy', '--retry', '2', '--log', log, '--', process.execPath, flaky]);
    t.after(() => client.close());
    await client.listTools(); // the proxy learns the annotations here
    const counts = async () => JSON.parse((await client.callTool({ name: 'calls', arguments: {} })).content[0].text);

    // A read-only tool's network errors: called again, and its third call answers.
    const found = await client.callTool({ name: 'lookup', arguments: {} });
    assert.equal(found.isError, undefined, JSON.stringify(found));
    assert.equal(found.content[0].text, 'found after 3 calls');

    // A tool neither read-only nor idempotent: a network error may have had effects, so it
    // is answered at once.
    const sent = await client.callTool({ name: 'send', arguments: {} });
    assert.equal(parseResult(sent).code, 'NETWORK_ERROR');

    // A rate limit refuses before any work: called again for any tool, up to --retry's 2.
    const busy = await client.callTool({ name: 'busy', arguments: {} });
    assert.equal(parseResult(busy).code, 'RATE_LIMITED');
    assert.deepEqual(await counts(), { lookup: 3, send: 1, busy: 3 });

    // The log says why, for each failure.
    const evidence = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).evidence.filter((e) => e.startsWith('proxy: ')));
    assert.deepEqual(evidence.map((e) => e[0].replace(/after \d+ ms/, 'after N ms')), [
      'proxy: call 1 failed; called again after N ms: a read-only or idempotent tool',
      'proxy: call 2 failed; called again after N ms: a read-only or idempotent tool',
      'proxy: not called again: it may have had effects; the tool is not read-only or idempotent',
      'proxy: call 1 failed; called again after N ms: refused before any work',
      'proxy: call 2 failed; called again after N ms: refused before any work',
      "proxy: not called again: --retry's calls are made",
    ]);
  });
}
