// Build the npm package: transpile the component with jco (no WASI shim: the
// component imports nothing), check that its glue has no per-call overhead,
// compile the TypeScript facade, and lay out dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, chmodSync } from 'node:fs';
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

execFileSync(bin('tsc'), ['-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });

mkdirSync(join(here, 'dist', 'generated'), { recursive: true });
cpSync(generated, join(here, 'dist', 'generated'), { recursive: true });
chmodSync(join(here, 'dist', 'cli.js'), 0o755);
console.error('build: npm/dist is ready');
