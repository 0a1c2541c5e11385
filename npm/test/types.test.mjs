// The published type declarations, as a TypeScript user meets them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('dist/*.d.ts compile for a strict consumer; results fit the SDK type; no test hooks', () => {
  const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
  const consumer = fileURLToPath(new URL('./fixtures/consumer.ts', import.meta.url));
  let failure;
  try {
    execFileSync(tsc, ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--target', 'es2022', '--types', 'node', consumer], { encoding: 'utf8' });
  } catch (e) {
    failure = `${e.stdout ?? ''}${e.stderr ?? ''}` || String(e);
  }
  assert.equal(failure, undefined);
});
