// A failure's log record and result: classified once (classify-json, then render-json for
// each) against classified for each (classify-render twice, what `withErrors` does).
// Interleaved blocks, medians. `node bench/once.mjs` after `npm run build`.
import { classifyJson, renderJson, toRawError, _testing } from '../dist/index.js';

const err = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), {
    code: 'ECONNREFUSED', errno: -111, syscall: 'connect',
  }),
});
const now = '2025-10-27T14:32:15Z';
const opts = { toolName: 'fetch_page', errorId: 'e1', now };
const json = (target, mask) => JSON.stringify({ tool_name: 'fetch_page', error_id: 'e1', now, target, mask });
let sink;

function once() {
  const raw = JSON.stringify(toRawError(err, { tool: 'fetch_page' }));
  const normalized = classifyJson(raw, { now });
  sink = JSON.parse(_testing.call((api) => api.renderJson(normalized, json('log-record', false))));
  sink = JSON.parse(_testing.call((api) => api.renderJson(normalized, json('tool-result', true))));
}
function twice() {
  const raw = JSON.stringify(toRawError(err, { tool: 'fetch_page' }));
  sink = JSON.parse(renderJson(raw, { ...opts, target: 'log-record' }));
  sink = JSON.parse(renderJson(raw, { mask: true, ...opts }));
}
const N = 5000;
function block(f) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i += 1) f();
  return Number(process.hrtime.bigint() - t) / N / 1000;
}
for (let i = 0; i < 3; i += 1) { block(once); block(twice); }
const a = [];
const b = [];
for (let i = 0; i < 11; i += 1) { a.push(block(once)); b.push(block(twice)); }
const med = (x) => x.sort((p, q) => p - q)[x.length >> 1];
console.log(`record + result, classified once: ${med(a).toFixed(2)} µs; classified for each: ${med(b).toFixed(2)} µs (medians of 11 interleaved blocks of ${N})`);
void sink;
