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
  for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/workerd.js', 'dist/browser.js', 'dist/generated/mcp-errors.core.wasm']) {
    assert.ok(files.includes(needed), `${needed} is packed`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('test-dist/') || f.startsWith('node_modules/')), files.join(', '));
  // The component may be 160 KB gzipped (cargo xtask test checks it); the
  // JavaScript around it about 70 KB more (the CLI's bundle carries the proxy).
  assert.ok(pack.size < 240_000, `packed size ${pack.size} bytes`);
  // One module at run time per runtime (each file costs Node's loader about
  // 0.5 ms at import): Node's, Workers', browsers' and the CLI, nothing else.
  assert.deepEqual(files.filter((f) => f.endsWith('.js')).sort(), ['dist/browser.js', 'dist/cli.js', 'dist/index.js', 'dist/workerd.js']);
});

test('the library module imports only Node builtins; the test hooks are not in its types', () => {
  const index = readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8');
  // Static, side-effect and dynamic imports alike (the build's own check).
  const specifiers = [...index.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)]
    .map((m) => m[1] ?? m[2]);
  assert.deepEqual(specifiers, ['node:fs']);
  const types = readFileSync(new URL('../dist/api.d.ts', import.meta.url), 'utf8');
  assert.ok(!types.includes('_testing'), 'dist/api.d.ts declares no test hooks');
  for (const entry of ['index.js', 'workerd.js', 'browser.js']) {
    const bundle = readFileSync(new URL(`../dist/${entry}`, import.meta.url), 'utf8');
    for (const hook of ['_injectTrapForTests', '_useCoreModuleForTests', 'instantiationCount', '_testing']) {
      assert.ok(!bundle.includes(hook), `the published dist/${entry} has no ${hook}`);
    }
  }
  assert.ok(types.includes('export declare function toolResult'), 'dist/api.d.ts declares the API');
  for (const entry of ['index', 'workerd', 'browser']) {
    const d = readFileSync(new URL(`../dist/${entry}.d.ts`, import.meta.url), 'utf8');
    assert.ok(d.includes("export * from './api.js'") && d.includes('export declare function ready(): Promise<void>'), entry);
  }
});
