// Node (20 and 22), Bun and Deno: the package as each resolves `mcp-errors`.
// Prints the check's result as one JSON line. Argument: the vectors' folder.
import { readFileSync } from 'node:fs';
import * as api from 'mcp-errors';
import { check } from './check.mjs';

const dir = globalThis.Deno?.args[0] ?? process.argv[2];
const cases = (file) => JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')).cases;
await api.ready();
console.log(JSON.stringify(check(api, cases('classify.json'), cases('render.json'))));
