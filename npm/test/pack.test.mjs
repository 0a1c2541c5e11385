// `npm pack` ships what the package needs and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('npm pack: small, complete, no sources or tests', () => {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const files = pack.files.map((f) => f.path);
  for (const needed of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/generated/mcp-errors.js', 'dist/generated/mcp-errors.core.wasm']) {
    assert.ok(files.includes(needed), `${needed} is packed`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('node_modules/')), files.join(', '));
  assert.ok(pack.size < 200_000, `packed size ${pack.size} bytes`);
});
