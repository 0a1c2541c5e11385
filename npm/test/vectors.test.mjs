// The shared vectors (tests/vectors/*.json), through the npm package: the
// same bytes as the Rust core and the wasmtime harness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { classifyJson, parseResult, parseResultJson, render, renderJson, McpErrorsError } from '../dist/index.js';
// The component's raw `render-json` export, through the tests' own bundle (never published).
import { call, McpErrorsError as TestBundleError } from '../test-dist/testing.js';
// The vectors' options as the facade takes them: the same helpers every runtime's check uses.
import { limits, renderOptions } from './runtimes/check.mjs';


const vectors = (file) =>
  JSON.parse(readFileSync(new URL(`../../tests/vectors/${file}`, import.meta.url), 'utf8')).cases;

const raw = (c) => (typeof c.raw === 'string' ? c.raw : JSON.stringify(c.input));

test('classify vectors', () => {
  const cases = vectors('classify.json');
  assert.ok(cases.length >= 80);
  for (const c of cases) {
    assert.equal(classifyJson(raw(c), { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules }), JSON.stringify(c.expected), c.name);
  }
});

test('parse vectors', () => {
  const cases = vectors('parse.json');
  assert.ok(cases.length >= 40);
  for (const c of cases) {
    const opts = { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules };
    assert.equal(parseResultJson(raw(c), opts) ?? 'null', JSON.stringify(c.expected), c.name);
    // The object form: the same error, and a non-error answered without the core.
    assert.deepEqual(parseResult(c.input, opts), c.expected, c.name);
  }
});

test('render vectors', () => {
  const cases = vectors('render.json');
  assert.ok(cases.length >= 100);
  for (const c of cases) {
    assert.equal(renderJson(raw(c), renderOptions(c.options)), JSON.stringify(c.expected), c.name);
  }
});

test('render of a normalized error: the render vectors, classified first', () => {
  for (const c of vectors('render.json')) {
    const normalized = JSON.parse(classifyJson(raw(c), { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules }));
    assert.deepEqual(render(normalized, renderOptions(c.options)), c.expected, c.name);
  }
});

test('render of a normalized error: a wrong field is the core\'s typed error', () => {
  const normalized = JSON.parse(classifyJson('{"status":404}', { now: null }));
  assert.throws(() => render({ ...normalized, retryable: 'no' }), (e) => {
    assert.ok(e instanceof McpErrorsError);
    assert.equal(e.kind, 'invalid_input');
    assert.equal(e.message, 'not a normalized error: `retryable` must be a boolean');
    return true;
  });
  const cyclic = { ...normalized };
  cyclic.details = { self: cyclic };
  assert.throws(() => render(cyclic), (e) => e instanceof McpErrorsError && e.kind === 'invalid_input');
});

test('error vectors: typed errors, never a crash', () => {
  for (const c of vectors('errors.json')) {
    const run = () => {
      if (c.api === 'classify') return classifyJson(raw(c), { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules });
      if (c.api === 'parse') return parseResultJson(raw(c), { now: c.options.now ?? null });
      // render-json's text as given (the facade's `render` takes an object).
      if (c.api === 'render-json') return call((api) => api.renderJson(raw(c), JSON.stringify(c.options)));
      return renderJson(raw(c), renderOptions(c.options));
    };
    assert.throws(run, (e) => {
      // render-json runs in the tests' own bundle, whose error class is its own.
      assert.ok(e instanceof (c.api === 'render-json' ? TestBundleError : McpErrorsError), c.name);
      assert.equal(e.kind, c.expected_error.kind, c.name);
      assert.equal(e.message, c.expected_error.message, c.name);
      return true;
    });
  }
});

test('limits: bad names and values are typed errors, in range they cut', () => {
  const typed = (fn, message) => assert.throws(fn, (e) => {
    assert.ok(e instanceof McpErrorsError);
    assert.equal(e.kind, 'invalid_option');
    assert.equal(e.message, message);
    return true;
  });
  typed(() => renderJson('{}', { limits: { maxDpeth: 3 } }),
    'unknown limit "maxDpeth"; expected one of: maxMessageChars, maxStringChars, maxDepth, maxMembers, maxRenderedBytes');
  typed(() => renderJson('{}', { limits: { maxDepth: 2.5 } }), 'limit "maxDepth" must be a non-negative integer');
  typed(() => renderJson('{}', { limits: { maxDepth: -1 } }), 'limit "maxDepth" must be a non-negative integer');
  typed(() => classifyJson('{}', { limits: { maxDepth: 2 ** 32 } }), 'limit "maxDepth" is 4294967296; it must be below 4294967296');
  typed(() => renderJson('{}', { limits: { maxDepth: 33 } }), 'limit "max_depth" is 33; it must be from 1 to 32');
  const long = 'm'.repeat(100);
  const out = JSON.parse(renderJson(JSON.stringify({ message: long }), { now: null, format: 'json', limits: { maxMessageChars: 20 } }));
  assert.equal(out.structuredContent.message, `${'m'.repeat(20)}…[truncated 80 chars]`);
});
