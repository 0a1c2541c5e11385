// Build the npm package: transpile the component with jco (no WASI shim: the
// component imports nothing), make jco's per-call debug check a load-time
// constant, compile the TypeScript facade, and lay out dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
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
  '--no-wasi-shim', '--instantiation', 'sync', '--no-component-error-wrapping', '--quiet',
  // Minified: a third of the JS to parse at import (cold start).
  '--minify',
], { stdio: 'inherit' });

// jco 1.35 reads process.env.JCO_DEBUG on every call (about a third of the
// call time). Read it once, when the module loads.
const js = join(generated, 'mcp-errors.js');
const slow = 'globalThis?.process?.env?.JCO_DEBUG&&';
let source = readFileSync(js, 'utf8');
if (!source.includes(slow)) {
  console.error('build: the jco debug check was not found; update scripts/build.mjs for this jco version');
  process.exit(1);
}
source = source.split(slow).join('JCO_DEBUG&&');
source = source.replace(
  'export function instantiate(',
  'const JCO_DEBUG = Boolean(globalThis?.process?.env?.JCO_DEBUG);\nexport function instantiate(',
);
writeFileSync(js, source);

execFileSync(bin('tsc'), ['-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });

mkdirSync(join(here, 'dist', 'generated'), { recursive: true });
cpSync(generated, join(here, 'dist', 'generated'), { recursive: true });
chmodSync(join(here, 'dist', 'cli.js'), 0o755);
console.error('build: npm/dist is ready');
