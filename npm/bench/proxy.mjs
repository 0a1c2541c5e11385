// The latency `mcp-errors proxy` adds per call, against a direct connection in the same run:
// the SDK client calling @modelcontextprotocol/server-filesystem over stdio, a success
// (read_text_file) and a failure (a path outside the allowed directories), p50 and p99, and
// calls per second, through each host: the native binary, `npx mcp-errors proxy` (Node) and,
// when MCP_ERRORS_PYTHON names the package's Python, `python -m mcp_errors proxy`.
// Run: cargo build --release && cargo xtask build && cd npm && npm run build &&
//      MCP_ERRORS_PYTHON=../target/py-venv/bin/python node bench/proxy.mjs [calls]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const calls = Number(process.argv[2] ?? 500);
const cli = process.env.MCP_ERRORS_CLI ?? fileURLToPath(new URL('../../target/release/mcp-errors', import.meta.url));
const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-errors-bench-'));
writeFileSync(join(dir, 'notes.txt'), 'hello');

async function connect(command, args) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  await client.listTools();
  return client;
}

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function measure(client, params) {
  for (let i = 0; i < 50; i++) await client.callTool(params); // warm-up
  const times = [];
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await client.callTool(params);
    times.push(performance.now() - t0);
  }
  return { p50: pct(times, 0.5), p99: pct(times, 0.99), perSecond: calls / ((performance.now() - started) / 1000) };
}

const hosts = [
  ['native', cli, []],
  ['node', process.execPath, [fileURLToPath(new URL('../dist/cli.js', import.meta.url))]],
  ...(process.env.MCP_ERRORS_PYTHON ? [['python', process.env.MCP_ERRORS_PYTHON, ['-m', 'mcp_errors']]] : []),
];
const direct = await connect(process.execPath, [server, dir]);
const cases = {
  success: { name: 'read_text_file', arguments: { path: join(dir, 'notes.txt') } },
  failure: { name: 'read_text_file', arguments: { path: '/etc/hostname' } },
};
console.log(`node ${process.version}; ${calls} calls each, after 50 warm-up calls; ms per call`);
for (const [host, command, pre] of hosts) {
  const proxied = await connect(command, [...pre, 'proxy', '--', process.execPath, server, dir]);
  for (const [label, params] of Object.entries(cases)) {
    const d = await measure(direct, params);
    const p = await measure(proxied, params);
    console.log(`${host.padEnd(6)} ${label.padEnd(8)} direct p50 ${d.p50.toFixed(3)} p99 ${d.p99.toFixed(3)} (${d.perSecond.toFixed(0)} calls/s) | `
      + `proxied p50 ${p.p50.toFixed(3)} p99 ${p.p99.toFixed(3)} (${p.perSecond.toFixed(0)} calls/s) | added p50 ${(p.p50 - d.p50).toFixed(3)}`);
  }
  await proxied.close();
}
await direct.close();
