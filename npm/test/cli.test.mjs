// The npm CLI prints exactly what the Rust CLI prints, line for line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const rustCli = process.env.MCP_ERRORS_CLI ?? fileURLToPath(new URL('../../target/debug/mcp-errors', import.meta.url));
const jsCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const vectors = (file) =>
  JSON.parse(readFileSync(new URL(`../../tests/vectors/${file}`, import.meta.url), 'utf8')).cases;

function both(args, input) {
  assert.ok(existsSync(rustCli), `the Rust CLI ${rustCli} is missing: run \`cargo xtask test\``);
  const rust = spawnSync(rustCli, args, { input, encoding: 'utf8' });
  const js = spawnSync(process.execPath, [jsCli, ...args], { input, encoding: 'utf8' });
  return { rust, js };
}

const FLAGS = {
  profile: '--profile', format: '--format', spec: '--spec', target: '--target', tool_name: '--tool',
  now: '--now', error_id: '--id', masked_message: '--masked-message', output_schema: '--output-schema', extra_fields: '--extra-fields',
  limits: '--limits',
};

test('classify: every vector plus bad lines, byte for byte and same exit status', () => {
  const lines = vectors('classify.json').filter((c) => !c.options.now && !c.options.limits).map((c) => JSON.stringify(c.input));
  lines.splice(3, 0, '{not json', '', '   ', '[1,2', '"just a string"', '{"message":"crlf"}\r');
  const invalid = Buffer.from([0x7b, 0xff, 0x7d, 0x0a, 0xe2, 0x82, 0x0a, 0xf0, 0x90, 0x28, 0x0a, 0xed, 0xa0, 0x80, 0x0a]);
  const { rust, js } = both(['classify'], Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), invalid]));
  assert.match(js.stdout, /line is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1/);
  assert.equal(js.stdout, rust.stdout);
  assert.equal(js.status, rust.status);
  assert.equal(js.status, 1);
});

test('classify --limits: the classify vectors with limits', () => {
  const cases = vectors('classify.json').filter((c) => c.options.limits);
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const { rust, js } = both(['classify', '--limits', JSON.stringify(c.options.limits)], `${JSON.stringify(c.input)}\n`);
    assert.equal(js.stdout, rust.stdout, c.name);
    assert.equal(js.stdout, `${JSON.stringify(c.expected)}\n`, c.name);
  }
});

test('render: every render vector with its flags', () => {
  for (const c of vectors('render.json')) {
    const args = ['render'];
    for (const [k, v] of Object.entries(c.options)) {
      if (k === 'mask') args.push('--mask');
      else if (k === 'tool_failure') args.push('--tool-failure');
      else args.push(FLAGS[k], typeof v === 'string' ? v : JSON.stringify(v));
    }
    const { rust, js } = both(args, `${JSON.stringify(c.input)}\n`);
    assert.equal(js.stdout, rust.stdout, c.name);
    assert.equal(js.stdout, `${JSON.stringify(c.expected)}\n`, c.name);
  }
});

test('taxonomy, schema and usage errors', () => {
  for (const args of [['taxonomy'], ['schema', 'mcp-tool-error'], ['schema', 'rpc-envelope']]) {
    const { rust, js } = both(args, '');
    assert.equal(js.stdout, rust.stdout, args.join(' '));
  }
  for (const args of [['render', '--format'], ['render', '--profile', 'nope'], ['render', '--profile', 'nöpe\t'], ['render', '--spec', '2024-01-01'], ['render', '--prøfile'], ['render', '--now', 'soon'], ['classify', '--now', 'söon'], ['frobnicate'], ['frøbnicate\u0001']]) {
    const bad = both(args, '');
    assert.equal(bad.js.status, 2, args.join(' '));
    assert.equal(bad.rust.status, 2, args.join(' '));
    assert.equal(bad.js.stderr.split('\n')[0], bad.rust.stderr.split('\n')[0], args.join(' '));
  }
  const line = both(['render', '--profile', 'rpc-envelope'], '{}\n');
  assert.equal(line.js.stdout, line.rust.stdout);
  assert.equal(line.js.status, 1);
});
