// Strings crossing into the component: the build rewrites jco's string
// lowering to encode straight into wasm memory (scripts/build.mjs). Every
// kind of text must arrive as UTF-8 exactly as `TextEncoder.encode` gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { classifyJson, renderJson } from '../dist/index.js';

test('the glue encodes strings into wasm memory (the build rewrote it)', () => {
  // jco's glue, bundled into the package's one module.
  const glue = readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8');
  assert.ok(glue.includes('.encodeInto('));
  assert.ok(!/\.encode\(/.test(glue), 'no string is encoded into a fresh array first');
  assert.ok(/\.buffer\.byteLength(!==0)?\?/.test(glue), 'the DataView is checked without reading Memory.buffer');
  assert.ok(!/\.buffer===/.test(glue), 'no Memory.buffer read per access');
});

test('results are read right after the memory grew (a stale view would throw)', () => {
  // Each big input grows the memory during the call; the result is then read
  // through the glue's DataView.
  for (let size = 1 << 16; size <= 1 << 22; size *= 2) {
    const out = JSON.parse(classifyJson(JSON.stringify({ message: 'm', details: { blob: 'é'.repeat(size) } }), { now: null }));
    assert.equal(out.message, 'm');
    assert.equal(JSON.parse(classifyJson('{"status":503}', { now: null })).code, 'UNAVAILABLE');
  }
});

/** The message the component read, after a JSON round trip of the raw error. */
const messageOf = (text) => JSON.parse(classifyJson(JSON.stringify({ message: text }), { now: null })).message;

test('ASCII, two-, three- and four-byte characters arrive intact', () => {
  for (const text of ['plain ascii', 'héllo wörld', 'ошибка сети', '日本語のエラー', 'emoji 😀 and 𝄞', 'mixed a é 日 😀 z']) {
    assert.equal(messageOf(text), text);
  }
});

test('the raw text itself may be non-ASCII (not only escaped in JSON)', () => {
  const raw = '{"message":"Zeitüberschreitung nach 30 s 😀"}';
  assert.equal(JSON.parse(classifyJson(raw, { now: null })).message, 'Zeitüberschreitung nach 30 s 😀');
});

test('a lone surrogate becomes U+FFFD, as TextEncoder.encode makes it', () => {
  // JSON.stringify escapes lone surrogates; pass the raw text unescaped instead.
  const raw = `{"message":"before ${'\ud800'} after"}`;
  assert.equal(JSON.parse(classifyJson(raw, { now: null })).message, 'before \ufffd after');
});

test('large strings, ASCII and not, past the memory the instance starts with', () => {
  for (const unit of ['a', 'é', '日', '😀']) {
    const text = `${unit.repeat(700_000)}!`;
    const rendered = JSON.parse(renderJson(JSON.stringify({ message: 'x', details: { blob: text } }), { profile: 'canonical', format: 'json', now: null }));
    assert.ok(rendered.isError);
    const normalized = JSON.parse(classifyJson(JSON.stringify({ message: text }), { now: null, limits: { maxMessageChars: 100_000 } }));
    assert.ok(normalized.message.startsWith(unit.repeat(10)), unit);
  }
});

test('an empty string and option strings cross too', () => {
  assert.equal(JSON.parse(classifyJson('{"message":""}', { now: null })).code, 'UNKNOWN');
  const out = JSON.parse(renderJson('{"status":404}', { profile: 'canonical', toolName: 'tööl 😀', errorId: 'id-é', now: '2025-10-27T14:32:15Z' }));
  assert.equal(out.structuredContent.tool, 'tööl 😀');
  assert.equal(out.structuredContent.error_id, 'id-é');
});
