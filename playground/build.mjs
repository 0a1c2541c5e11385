// Builds the playground into target/playground (the page, its bundle with the npm package's
// browser build, the component and the examples) and, with --serve, serves it on
// http://127.0.0.1:8000 (or $PORT). Run by `cargo xtask playground`, after the npm build.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const out = join(root, 'target', 'playground');
const browserBuild = join(root, 'npm', 'dist', 'browser.js');
if (!existsSync(browserBuild)) {
  console.error('playground: npm/dist/browser.js is missing; run `cargo xtask playground`');
  process.exit(1);
}
mkdirSync(join(out, 'generated'), { recursive: true });
// The examples the demo uses, one per line.
const examples = readFileSync(join(root, 'examples', 'raw-errors.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((line, i) => {
    const raw = JSON.parse(line);
    const what = [raw.name, raw.status && `HTTP ${raw.status}`, raw.code].filter(Boolean).join(' ');
    return { label: `${i + 1}. ${what || 'error'}`, raw };
  });
writeFileSync(join(out, 'examples.json'), JSON.stringify(examples));
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'app.js'), join(out, 'app.src.js'));
copyFileSync(join(root, 'npm', 'dist', 'generated', 'mcp-errors.core.wasm'), join(out, 'generated', 'mcp-errors.core.wasm'));
execFileSync(join(root, 'npm', 'node_modules', '.bin', 'esbuild'), [
  join(out, 'app.src.js'), '--bundle', '--format=esm', '--platform=browser', '--target=es2022',
  `--alias:mcp-errors=${browserBuild}`, `--outfile=${join(out, 'app.js')}`, '--log-level=warning',
], { stdio: 'inherit' });
console.error(`playground: built ${out}`);

if (process.argv.includes('--serve')) {
  const port = Number(process.env.PORT ?? 8000);
  await serveStatic(out, port);
  console.log(`playground: http://127.0.0.1:${port}/ (Ctrl-C stops it)`);
}
