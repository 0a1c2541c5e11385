// `npm pack` ships what the package needs and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

test('npm pack: small, complete, no sources or tests', () => {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const files = pack.files.map((f) => f.path);
  for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/generated/mcp-errors.core.wasm']) {
    assert.ok(files.includes(needed), `${needed} is packed`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('test-dist/') || f.startsWith('node_modules/')), files.join(', '));
  assert.ok(pack.size < 200_000, `packed size ${pack.size} bytes`);
  // One module at run time (each file costs Node's loader about 0.5 ms at
  // import): the library and the CLI, nothing else.
  assert.deepEqual(files.filter((f) => f.endsWith('.js')).sort(), ['dist/cli.js', 'dist/index.js']);
});

test('the library module imports only Node builtins; the test hooks are not in its types', () => {
  const index = readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8');
  // Static, side-effect and dynamic imports alike (the build's own check).
  const specifiers = [...index.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)]
    .map((m) => m[1] ?? m[2]);
  assert.deepEqual(specifiers, ['node:fs']);
  const types = readFileSync(new URL('../dist/index.d.ts', import.meta.url), 'utf8');
  assert.ok(!types.includes('_testing'), 'dist/index.d.ts declares no test hooks');
  for (const hook of ['_injectTrapForTests', '_useCoreModuleForTests', 'instantiationCount', '_testing']) {
    assert.ok(!index.includes(hook), `the published dist/index.js has no ${hook}`);
  }
  assert.ok(types.includes('export declare function toolResult'), 'dist/index.d.ts declares the API');
});
