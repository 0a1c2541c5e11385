// The API report: the declarations the package ships (dist/*.d.ts, the component's generated
// ones aside), checked in as npm/api-report.d.ts. A change of public API is deliberate: this
// test fails until the report is updated (`MCP_ERRORS_UPDATE_API=1 npm test` rewrites it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const reportFile = new URL('../api-report.d.ts', import.meta.url);

test('the shipped declarations are the checked-in API report', () => {
  const files = readdirSync(dist).filter((f) => f.endsWith('.d.ts')).sort();
  assert.ok(files.includes('index.d.ts') && files.includes('types.d.ts'), files.join(', '));
  const report = files
    .map((f) => `// ---- dist/${f}\n${readFileSync(new URL(f, dist), 'utf8').trimEnd()}\n`)
    .join('\n');
  if (process.env.MCP_ERRORS_UPDATE_API === '1') writeFileSync(reportFile, report);
  assert.equal(report, readFileSync(reportFile, 'utf8'),
    'the public declarations changed: review the diff, then run MCP_ERRORS_UPDATE_API=1 npm test');
});
