// The shared vectors (tests/vectors/*.json), through the npm package: the
// same bytes as the Rust core and the wasmtime harness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { classifyJson, renderJson, McpErrorsError } from '../dist/index.js';

const vectors = (file) =>
  JSON.parse(readFileSync(new URL(`../../tests/vectors/${file}`, import.meta.url), 'utf8')).cases;

const raw = (c) => (typeof c.raw === 'string' ? c.raw : JSON.stringify(c.input));

export function renderOptions(o = {}) {
  return {
    profile: o.profile,
    format: o.format,
    spec: o.spec,
    target: o.target,
    toolName: o.tool_name,
    now: o.now ?? null,
    errorId: o.error_id,
    outputSchema: o.output_schema,
    extraFields: o.extra_fields === undefined ? undefined : JSON.parse(o.extra_fields),
    mask: o.mask === true,
  };
}

test('classify vectors', () => {
  const cases = vectors('classify.json');
  assert.ok(cases.length >= 80);
  for (const c of cases) {
    assert.equal(classifyJson(raw(c), { now: c.options.now ?? null }), JSON.stringify(c.expected), c.name);
  }
});

test('render vectors', () => {
  const cases = vectors('render.json');
  assert.ok(cases.length >= 100);
  for (const c of cases) {
    assert.equal(renderJson(raw(c), renderOptions(c.options)), JSON.stringify(c.expected), c.name);
  }
});

test('error vectors: typed errors, never a crash', () => {
  for (const c of vectors('errors.json')) {
    const run = () => (c.api === 'classify'
      ? classifyJson(raw(c), { now: c.options.now ?? null })
      : renderJson(raw(c), renderOptions(c.options)));
    assert.throws(run, (e) => {
      assert.ok(e instanceof McpErrorsError, c.name);
      assert.equal(e.kind, c.expected_error.kind, c.name);
      assert.equal(e.message, c.expected_error.message, c.name);
      return true;
    });
  }
});
