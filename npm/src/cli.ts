#!/usr/bin/env node
// The mcp-errors command line. Only I/O lives here: what the arguments mean,
// the usage text and what each input line becomes are the core's (the
// component's `cli` interface), so this prints byte for byte what the Rust and
// Python CLIs print.
import { isUtf8 } from 'node:buffer';
import { callCli, McpErrorsError } from './engine.js';
import { provideNodeSource } from './node-source.js';
import { lines } from './lines.js';
import { runProxy } from './proxy.js';

provideNodeSource();

/** A line the component could not answer (it trapped): an error line all the same. */
function failedLine(e: unknown, number: number): string {
  const kind = e instanceof McpErrorsError ? e.kind : 'trap';
  const message = e instanceof Error ? e.message : String(e);
  return JSON.stringify({ error: { kind, message, line: number } });
}

function run(): void {
  if (process.argv[2] === 'proxy') {
    runProxy(process.argv.slice(3));
    return;
  }
  let plan;
  try {
    plan = callCli((cli) => cli.start(process.argv.slice(2)));
  } catch (e) {
    process.stderr.write(`mcp-errors: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
    return;
  }
  if (plan.tag === 'finish') {
    process.stdout.write(plan.val.stdout);
    process.stderr.write(plan.val.stderr);
    process.exitCode = plan.val.status;
    return;
  }
  const command = plan.val;
  let number = 0;
  let failed = false;
  const out: string[] = [];
  const processLine = (bytes: Buffer): void => {
    number += 1;
    const n = BigInt(number);
    try {
      const line = isUtf8(bytes)
        ? callCli((cli) => cli.line(command, bytes.toString('utf8'), n))
        : callCli((cli) => cli.badLine(0n, bytes, n));
      if (line === undefined) return;
      failed ||= line.failed;
      out.push(`${line.text}\n`);
    } catch (e) {
      failed = true;
      out.push(`${failedLine(e, number)}\n`);
    }
  };
  const flush = (): void => {
    if (out.length > 0) process.stdout.write(out.splice(0).join(''));
  };
  lines(process.stdin, processLine, () => {
    flush();
    process.exitCode = failed ? 1 : 0;
  }, flush);
}

run();
