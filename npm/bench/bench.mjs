// `npm run bench` (after `npm run build`): classify + render through the
// component, a hand-written TypeScript baseline producing the same
// tool-error-v1 result, cold start, size, and memory over 1 000 000 calls.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseResult, renderJson, toolResult, toRawError } from '../dist/index.js';

const NOW = '2025-10-27T14:32:15Z';
const typical = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' }),
});
const typicalRaw = JSON.stringify(toRawError(typical));

/** A straightforward hand-written mapping, as a server would write it (seed 000's contract). */
function handWritten(err) {
  const cause = err.cause ?? {};
  const status = err.status ?? err.statusCode;
  let code = 'UNKNOWN_ERROR';
  let retryable = false;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(cause.code ?? err.code) || err.name === 'AbortError' || err.name === 'TimeoutError') {
    code = 'NETWORK_ERROR'; retryable = true;
  } else if (status === 401 || status === 403) code = 'AUTHENTICATION_ERROR';
  else if (status === 404) code = 'NOT_FOUND';
  else if (status >= 500) { code = 'SERVER_ERROR'; retryable = true; }
  else if (status >= 400) code = 'CLIENT_ERROR';
  const message = err.message === 'fetch failed' && cause.message ? `${err.message}: ${cause.message}` : err.message;
  const structured = { kind: 'toolError:v1', code, message, retryable };
  if (status !== undefined) structured.details = { statusCode: status };
  return { content: [{ type: 'text', text: message, mimeType: 'text/markdown' }], structuredContent: structured, isError: true };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** ns per call: the median of `runs` runs of `n` calls. */
function measure(f, n = 20_000, runs = 9) {
  for (let i = 0; i < n; i++) f();
  const per = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    per.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return median(per);
}

const report = (name, ns) => console.log(`${name.padEnd(58)} ${(ns / 1000).toFixed(2).padStart(8)} µs/call ${Math.round(1e9 / ns).toLocaleString('en-US').padStart(12)} calls/s`);

const same = JSON.parse(renderJson(typicalRaw, { profile: 'tool-error-v1', now: null }));
const base = handWritten(typical);
if (JSON.stringify(same) !== JSON.stringify(base)) {
  console.error('the baseline must produce the same result', JSON.stringify(same), JSON.stringify(base));
  process.exit(1);
}

console.log(`node ${process.version}, ${process.arch}`);
const component = fileURLToPath(new URL('../dist/generated/mcp-errors.core.wasm', import.meta.url));
const bytes = readFileSync(component);
console.log(`core wasm (inside the component): ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} gzipped`);

// Cold start in fresh processes, from a module file (bench/cold.mjs), as a
// server imports the package; and from `node -e`, whose eval loader adds
// ~4 ms of its own (the figure this bench printed before).
const cold = [];
for (let i = 0; i < 9; i++) {
  cold.push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./cold.mjs', import.meta.url))], { encoding: 'utf8' })));
}
const phase = (k) => median(cold.map((c) => c[k])).toFixed(2);
const total = median(cold.map((c) => c.node + c.imp + c.first));
console.log(`cold start from a module file: ${total.toFixed(2)} ms = ESM loader + node:fs ${phase('node')} + import ${phase('imp')} + first call (compile, instantiate, run) ${phase('first')} (medians of 9 processes)`);
console.log(`  of which this package (import + first call): ${median(cold.map((c) => c.imp + c.first)).toFixed(2)} ms`);
const coldEval = [];
for (let i = 0; i < 7; i++) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
    m.renderJson('{"status":429}', { now: null });
    console.log(performance.now() - t0);`], { encoding: 'utf8' });
  coldEval.push(Number(out.trim()));
}
console.log(`cold start from node -e (import + instantiate + first call): ${median(coldEval).toFixed(2)} ms (median of 7 processes)`);

const tools = measure(() => renderJson(typicalRaw, { profile: 'tool-error-v1', now: null }));
const tsBase = measure(() => handWritten(typical));
// The component returns JSON text, ready for the wire; the same for the baseline.
const tsText = measure(() => JSON.stringify(handWritten(typical)));
const full = measure(() => toolResult(typical, { profile: 'tool-error-v1', now: null, mask: false }));
report('component: renderJson(raw, tool-error-v1) typical', tools);
report('component: toolResult(err) typical (conversion included)', full);
report('hand-written TypeScript mapping, same result', tsBase);
report('hand-written TypeScript mapping + JSON.stringify', tsText);
console.log(`ratio component / hand-written: ${(tools / tsBase).toFixed(1)}x (renderJson), ${(full / tsBase).toFixed(1)}x (toolResult); renderJson / hand-written + JSON.stringify: ${(tools / tsText).toFixed(1)}x`);
for (const profile of ['canonical', 'mcp-tool-error', 'text', 'error-object', 'rpc-envelope']) {
  report(`component: renderJson(raw, ${profile}) typical`, measure(() => renderJson(typicalRaw, { profile, now: NOW })));
}

// parse: a result read back. The rendered error, another server's text, and a success (answered
// without entering the component).
const own = JSON.parse(renderJson(typicalRaw, { profile: 'canonical', now: NOW }));
const foreign = { content: [{ type: 'text', text: 'search code: GitHub API rate limit exceeded. Retry after 30m0s.' }], isError: true };
const success = { content: [{ type: 'text', text: '3 results' }] };
report('parseResult(result) a rendered canonical error', measure(() => parseResult(own, { now: null })));
report('parseResult(result) another server\'s text error', measure(() => parseResult(foreign, { now: null })));
report('parseResult(result) a successful result', measure(() => parseResult(success, { now: null })));

globalThis.gc?.();
const before = process.memoryUsage();
for (let i = 0; i < 1_000_000; i++) renderJson(typicalRaw, { profile: 'tool-error-v1', now: null });
globalThis.gc?.();
const after = process.memoryUsage();
console.log(`memory over 1 000 000 calls: rss ${(before.rss / 1e6).toFixed(1)} → ${(after.rss / 1e6).toFixed(1)} MB, heap ${(before.heapUsed / 1e6).toFixed(1)} → ${(after.heapUsed / 1e6).toFixed(1)} MB, wasm memory flat: ${after.arrayBuffers === before.arrayBuffers ? 'yes' : `${(before.arrayBuffers / 1e6).toFixed(1)} → ${(after.arrayBuffers / 1e6).toFixed(1)} MB`}`);
