// A browser page (bundled by esbuild for the `browser` condition): the check's
// result goes into `window.result` and the page's title.
import * as api from 'mcp-errors';
import classify from './vectors/classify.json';
import render from './vectors/render.json';
import { check } from './check.mjs';

try {
  await api.ready();
  window.result = check(api, classify.cases, render.cases);
} catch (e) {
  window.result = { cases: 0, failures: [String(e)], digest: '' };
}
document.title = 'done';
