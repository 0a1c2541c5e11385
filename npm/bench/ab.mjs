// `node bench/ab.mjs DIST_A DIST_B [ROUNDS]`: an interleaved A/B of two builds
// of this package (two copies of `npm/dist`, e.g. built from two commits with
// `MCP_ERRORS_WASM=… npm run build` and copied aside). Each round starts one
// process per build, alternating, so both see the same machine load; each
// process prints the median and the fastest of seven 50 000-call runs of
// `renderJson` tool-error-v1 on the bench's typical error.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);

async function measure(dist) {
  const { renderJson, toRawError } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  const typical = Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), {
      code: 'ECONNREFUSED', errno: -111, syscall: 'connect',
    }),
  });
  const raw = JSON.stringify(toRawError(typical));
  const options = { profile: 'tool-error-v1', now: null };
  let sink = 0;
  for (let i = 0; i < 30000; i += 1) sink += renderJson(raw, options).length; // warm up
  const runs = [];
  for (let r = 0; r < 7; r += 1) {
    const n = 50000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i += 1) sink += renderJson(raw, options).length;
    runs.push(Number(process.hrtime.bigint() - start) / n / 1000);
  }
  runs.sort((a, b) => a - b);
  if (sink === 0) throw new Error('no output');
  return { median: runs[3], fastest: runs[0] };
}

if (process.argv[2] === '--one') {
  const { median, fastest } = await measure(process.argv[3]);
  process.stdout.write(`${median.toFixed(2)} ${fastest.toFixed(2)}\n`);
} else {
  const [a, b, rounds = '5'] = process.argv.slice(2);
  if (!a || !b) {
    process.stderr.write('usage: node bench/ab.mjs DIST_A DIST_B [ROUNDS]\n');
    process.exit(2);
  }
  for (let r = 0; r < Number(rounds); r += 1) {
    for (const [name, dist] of [['A', a], ['B', b]]) {
      const [median, fastest] = execFileSync(process.execPath, [self, '--one', dist], { encoding: 'utf8' })
        .trim().split(' ');
      process.stdout.write(`${name} ${dist}: median ${median} µs, fastest ${fastest} µs\n`);
    }
  }
}
