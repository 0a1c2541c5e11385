// A failure's log record and result, the way `withErrors` makes them: from one
// classification (`classify-render-with-log`, one component call) against
// classified for each (`classify-render` twice, what `withErrors` did before).
// Interleaved blocks, medians. `node bench/once.mjs` after `npm run build`.
import { renderJson, toRawError, call } from '../test-dist/testing.js';

const err = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), {
    code: 'ECONNREFUSED', errno: -111, syscall: 'connect',
  }),
});
const now = '2025-10-27T14:32:15Z';
const opts = { toolName: 'fetch_page', errorId: 'e1', now };
const wit = {
  profile: 'canonical', format: 'markdown', spec: 'v20251125', target: 'tool-result', toolName: 'fetch_page',
  now, errorId: 'e1', mask: true,
};
let sink;

function once() {
  const raw = JSON.stringify(toRawError(err, { tool: 'fetch_page' }));
  const [log, result] = call((api) => api.classifyRenderWithLog(raw, wit));
  sink = JSON.parse(log);
  sink = JSON.parse(result);
}
function twice() {
  const raw = JSON.stringify(toRawError(err, { tool: 'fetch_page' }));
  sink = JSON.parse(renderJson(raw, { ...opts, target: 'log-record' }));
  sink = JSON.parse(renderJson(raw, { mask: true, ...opts }));
}
// The same bytes either way.
{
  const raw = JSON.stringify(toRawError(err, { tool: 'fetch_page' }));
  const [log, result] = call((api) => api.classifyRenderWithLog(raw, wit));
  if (log !== renderJson(raw, { ...opts, target: 'log-record' }) || result !== renderJson(raw, { mask: true, ...opts })) {
    throw new Error('classify-render-with-log differs from classify-render');
  }
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
