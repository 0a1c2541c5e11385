// Node (20 and 22), Bun and Deno: the package as each resolves `mcp-errors`.
// Prints the check's result as one JSON line. Argument: the vectors' folder.
import { readFileSync } from 'node:fs';
import { check } from './check.mjs';

// Cold start: the package's import, `ready()` and a first call.
const started = performance.now();
const api = await import('mcp-errors');
await api.ready();
api.classifyJson('{"status":503}');
const coldMs = performance.now() - started;

const dir = globalThis.Deno?.args[0] ?? process.argv[2];
const cases = (file) => JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')).cases;
console.log(JSON.stringify({ ...check(api, cases('classify.json'), cases('render.json'), cases('parse.json')), coldMs }));
