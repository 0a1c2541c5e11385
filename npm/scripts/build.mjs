// Build the npm package: transpile the component with jco (no WASI shim: the
// component imports nothing), check that its glue has no per-call overhead,
// compile the TypeScript facade, and lay out dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const component = process.env.MCP_ERRORS_WASM ?? join(here, '..', 'target', 'mcp-errors.wasm');
if (!existsSync(component)) {
  console.error(`build: ${component} is missing; run \`cargo xtask build\` first`);
  process.exit(1);
}
const generated = join(here, 'src', 'generated');
rmSync(generated, { recursive: true, force: true });
rmSync(join(here, 'dist'), { recursive: true, force: true });
const bin = (name) => join(here, 'node_modules', '.bin', name);

execFileSync(bin('jco'), [
  'transpile', component, '-o', generated, '--name', 'mcp-errors',
  '--no-wasi-shim', '--instantiation', 'sync', '--quiet',
  // Minified: less JS to parse at import (cold start).
  '--minify',
], { stdio: 'inherit' });

// jco is pinned to 1.10.2 on purpose (BENCHMARKS.md): from 1.17 on, its glue
// carries the component-model async machinery into every sync call (task
// bookkeeping, a `process.env.JCO_DEBUG` read per call), which made the
// glue 79 KB instead of 22 KB, instantiation 4 ms instead of 0.5 ms and
// each call about 1 µs slower. Refuse a build whose glue does that again.
const js = join(generated, 'mcp-errors.js');
const source = readFileSync(js, 'utf8');
for (const slow of ['process', 'JCO_DEBUG', '_debugLog']) {
  if (source.includes(slow)) {
    console.error(`build: the jco glue mentions ${slow}: per-call overhead is back; see scripts/build.mjs`);
    process.exit(1);
  }
}

// String parameters: jco 1.10.2's glue encodes each string into a new
// `Uint8Array` (`TextEncoder.encode`) and copies that into wasm memory: a
// tenth of a typical call in Node. Encode straight into the memory instead
// (`encodeInto`): room for one byte per UTF-16 unit first, which an ASCII
// string (read whole) fills exactly; otherwise room for three bytes per unit
// (the most UTF-8 needs), shrunk afterwards to what was written. Same bytes,
// same lone-surrogate replacement as `encode`. Refuse a glue that does not
// have the one function this rewrites.
const encodeCopy = /function (\w+)\((\w+),(\w+),(\w+)\)\{if\("string"!=typeof \2\)throw new TypeError\("expected a string"\);if\(0===\2\.length\)return (\w+)=0,1;let (\w+)=(\w+)\.encode\(\2\),(\w+)=\3\(0,0,1,\6\.length\);return new Uint8Array\(\4\.buffer\)\.set\(\6,\8\),\5=\6\.length,\8\}/g;
const matches = [...source.matchAll(encodeCopy)];
if (matches.length !== 1) {
  console.error(`build: expected jco's string-lowering function once in the glue, found it ${matches.length} times; see scripts/build.mjs`);
  process.exit(1);
}
const [, fn, str, realloc, memory, len, , encoder] = matches[0];
const encodeInto = `function ${fn}(${str},${realloc},${memory}){if("string"!=typeof ${str})throw new TypeError("expected a string");`
  + `if(0===${str}.length)return ${len}=0,1;`
  + `let $n=${str}.length,$p=${realloc}(0,0,1,$n),$r=${encoder}.encodeInto(${str},new Uint8Array(${memory}.buffer,$p,$n));`
  + `if($r.read===$n)return ${len}=$n,$p;`
  + `const $c=3*$n;$p=${realloc}($p,$n,1,$c);$r=${encoder}.encodeInto(${str},new Uint8Array(${memory}.buffer,$p,$c));`
  + `return $p=${realloc}($p,$c,1,$r.written),${len}=$r.written,$p}`;
// The glue reads memory through a cached `DataView`, checking on every read
// and write that it still views the memory's current buffer: a
// `WebAssembly.Memory.prototype.buffer` call each time, 5 % of a Node call.
// Growing the memory detaches the old buffer, whose length then reads 0: the
// same check, without the call.
const dataView = /const (\w+)=(\w+)=>(\w+)\.buffer===\2\.buffer\?\3:\3=new DataView\(\2\.buffer\);/g;
const views = [...source.matchAll(dataView)];
if (views.length !== 1) {
  console.error(`build: expected jco's DataView helper once in the glue, found it ${views.length} times; see scripts/build.mjs`);
  process.exit(1);
}
const [, helper, mem, view] = views[0];
writeFileSync(js, source
  .replace(encodeCopy, () => encodeInto)
  .replace(dataView, () => `const ${helper}=${mem}=>0!==${view}.buffer.byteLength?${view}:${view}=new DataView(${mem}.buffer);`));

execFileSync(bin('tsc'), ['-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });

// One module file at run time. Node's ES-module loader costs about half a
// millisecond per file it loads (measured on Node 20, BENCHMARKS.md), and the
// facade was four files (index, engine, convert and jco's glue): bundle them
// into dist/index.js, which then imports only `node:fs`. Identifiers are kept
// (whitespace and syntax minified only) so stack traces stay readable. The
// per-module `.d.ts` files stay for the types; their `.js` twins go, so
// nothing can load a second copy of the engine's state.
const dist = join(here, 'dist');
mkdirSync(join(dist, 'generated'), { recursive: true });
cpSync(generated, join(dist, 'generated'), { recursive: true });
// The tests' bundle: the package plus its test hooks (src/testing.ts), in
// test-dist/, which is not published; the published bundle has no hooks.
const testDist = join(here, 'test-dist');
rmSync(testDist, { recursive: true, force: true });
mkdirSync(join(testDist, 'generated'), { recursive: true });
cpSync(join(generated, 'mcp-errors.core.wasm'), join(testDist, 'generated', 'mcp-errors.core.wasm'));
execFileSync(bin('esbuild'), [
  join(dist, 'testing.js'), '--bundle', '--format=esm', '--platform=node', '--target=node20',
  '--minify-whitespace', '--minify-syntax', '--legal-comments=none', '--log-level=warning',
  `--outfile=${join(testDist, 'testing.js')}`,
], { stdio: 'inherit' });
rmSync(join(dist, 'testing.js'));
rmSync(join(dist, 'testing.d.ts'));
execFileSync(bin('esbuild'), [
  join(dist, 'index.js'), '--bundle', '--format=esm', '--platform=node', '--target=node20',
  '--minify-whitespace', '--minify-syntax', '--legal-comments=none', '--log-level=warning',
  `--outfile=${join(dist, 'index.js')}`, '--allow-overwrite',
], { stdio: 'inherit' });
// The CLI is its own bundle: a process of its own, with its own instance.
execFileSync(bin('esbuild'), [
  join(dist, 'cli.js'), '--bundle', '--format=esm', '--platform=node', '--target=node20',
  '--minify-whitespace', '--minify-syntax', '--legal-comments=none', '--log-level=warning',
  `--outfile=${join(dist, 'cli.js')}`, '--allow-overwrite',
], { stdio: 'inherit' });
// One bundle per runtime, each the whole package (package.json's export conditions pick one):
// Workers import the core module as a module (kept as an import, which wrangler bundles),
// browsers fetch and compile it (`new URL(…, import.meta.url)` is kept for bundlers to follow).
for (const [entry, platform, extra] of [
  ['workerd.js', 'neutral', ['--external:*.wasm']],
  ['browser.js', 'browser', []],
]) {
  execFileSync(bin('esbuild'), [
    join(dist, entry), '--bundle', '--format=esm', `--platform=${platform}`, '--target=es2022',
    '--minify-whitespace', '--minify-syntax', '--legal-comments=none', '--log-level=warning',
    `--outfile=${join(dist, entry)}`, '--allow-overwrite', ...extra,
  ], { stdio: 'inherit' });
}
for (const inlined of ['engine.js', 'convert.js', 'types.js', 'contract.js', 'api.js', 'parse.js', 'retry.js', 'node-source.js', 'proxy.js', 'proxy.d.ts', 'proxy-http.js', 'proxy-http.d.ts', 'lines.js', 'lines.d.ts', join('generated', 'mcp-errors.js')]) {
  rmSync(join(dist, inlined));
}
for (const [entry, allowed] of [
  ['workerd.js', (spec) => spec === './generated/mcp-errors.core.wasm'],
  ['browser.js', () => false],
]) {
  const text = readFileSync(join(dist, entry), 'utf8');
  const specs = [...text.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]);
  if (specs.some((spec) => !allowed(spec)) || /node:/.test(text)) {
    console.error(`build: dist/${entry} must not import ${specs.join(', ')} (or any node: builtin)`);
    process.exit(1);
  }
}
const bundle = readFileSync(join(dist, 'index.js'), 'utf8');
const imports = [...bundle.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]);
if (imports.some((spec) => !spec.startsWith('node:'))) {
  console.error(`build: dist/index.js must import only node: builtins, but imports ${imports.join(', ')}`);
  process.exit(1);
}
chmodSync(join(dist, 'cli.js'), 0o755);
console.error('build: npm/dist is ready');
