// A browser page (bundled by esbuild for the `browser` condition): the check's
// result goes into `window.result` and the page's title.
import classify from './vectors/classify.json';
import render from './vectors/render.json';
import parse from './vectors/parse.json';
import { check } from './check.mjs';

try {
  // Cold start: the package's import (the component fetched and compiled), `ready()` and a first call.
  const started = performance.now();
  const api = await import('mcp-errors');
  await api.ready();
  api.classifyJson('{"status":503}');
  const coldMs = performance.now() - started;
  window.result = { ...check(api, classify.cases, render.cases, parse.cases), coldMs };
} catch (e) {
  window.result = { cases: 0, failures: [String(e)], digest: '' };
}
document.title = 'done';
