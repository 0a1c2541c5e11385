// `mcp-errors proxy` for Node (`npx mcp-errors proxy -- COMMAND …`): starts the
// server, moves lines both ways through the core's relay (the component's `proxy`
// interface), relays stderr, appends the log, and exits with the server's status.
// Every decision (the arguments, the usage text, what each line becomes) is the
// relay's, so this behaves as the native `mcp-errors proxy` does.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { PROXY_HTTP_USAGE } from './contract.js';
import { callProxy } from './engine.js';
import { lines } from './lines.js';
import { httpFlags, report, runHttpProxy } from './proxy-http.js';

/** The Streamable HTTP form, which this host serves (proxy-http.ts). */
const HTTP_USAGE = PROXY_HTTP_USAGE.replace('{host}', 'npm');

/** How long a server has to exit after its input closes, and again after SIGTERM
 * (together under the 2 s an MCP client gives the proxy itself). */
const GRACE_MS = 1000;
const TERM_GRACE_MS = 500;

export function runProxy(allArgs: string[]): void {
  // Streamable HTTP (`--listen`, `--upstream`): this host's own transport.
  const { rest: args, listen, upstream } = httpFlags(allArgs);
  if (listen !== undefined || upstream !== undefined) {
    if (listen === undefined || upstream === undefined || args.includes('--')) {
      process.stderr.write('mcp-errors proxy: --listen HOST:PORT and --upstream URL go together, in place of -- COMMAND\n');
      process.exitCode = 2;
      return;
    }
    if (args.includes('--retry')) {
      // Calling again means sending a request again on an HTTP exchange the client is waiting
      // on; this host does it for a server on stdio only.
      process.stderr.write('mcp-errors proxy: --retry works with a server on stdio (-- COMMAND), not with --listen\n');
      process.exitCode = 2;
      return;
    }
    runHttpProxy(args, listen, upstream);
    return;
  }
  let plan;
  try {
    plan = callProxy((p) => p.start(args));
  } catch (e) {
    process.stderr.write(`mcp-errors proxy: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
    return;
  }
  if (plan.tag === 'finish') {
    process.stdout.write(plan.val.stdout);
    // This host's own transport, after the core's usage.
    if (plan.val.status === 0 && plan.val.stdout !== '') process.stdout.write(HTTP_USAGE);
    process.stderr.write(plan.val.stderr);
    process.exitCode = plan.val.status;
    return;
  }
  const { log, command } = plan.val;
  if (log !== undefined) {
    try {
      appendFileSync(log, '');
    } catch (e) {
      process.stderr.write(`mcp-errors proxy: --log ${log}: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
      return;
    }
  }
  let relay = plan.val.relay;
  /** A call into the relay; if the component fails (a trap drops its instance and the
   * relay with it), the line passes unchanged and a fresh relay takes over. */
  const through = <T>(f: (r: number) => T, unchanged: T): T => {
    try {
      return f(relay);
    } catch (e) {
      process.stderr.write(`mcp-errors proxy: ${e instanceof Error ? e.message : String(e)}; the line passed unchanged\n`);
      try {
        const again = callProxy((p) => p.start(args));
        if (again.tag === 'run') relay = again.val.relay;
      } catch { /* the next line tries again */ }
      return unchanged;
    }
  };
  const [program, ...programArgs] = command;
  const server = spawn(program, programArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
  let started = true;
  server.on('error', (e) => {
    started = false;
    process.stderr.write(`mcp-errors proxy: starting ${program}: ${e.message}\n`);
    process.exitCode = 127;
    process.stdin.destroy();
  });
  server.stdin.on('error', () => { /* the server went away: its exit is handled below */ });

  // Client → server.
  lines(process.stdin, (bytes) => {
    const out = isUtf8(bytes)
      ? Buffer.from(through((r) => callProxy((p) => p.fromClient(r, bytes.toString('utf8'))), bytes.toString('utf8')), 'utf8')
      : bytes;
    if (server.stdin.writable) server.stdin.write(Buffer.concat([out, Buffer.from('\n')]));
  }, () => {
    // The client is done: close the server's input, and stop a server that stays.
    server.stdin.end();
    const term = setTimeout(() => {
      process.stderr.write('mcp-errors proxy: the server did not exit when its input closed: stopping it\n');
      server.kill('SIGTERM');
      setTimeout(() => server.kill('SIGKILL'), TERM_GRACE_MS).unref();
    }, GRACE_MS);
    term.unref();
  });

  // Server → client.
  lines(server.stdout, (bytes) => {
    if (!isUtf8(bytes)) {
      process.stdout.write(Buffer.concat([bytes, Buffer.from('\n')]));
      return;
    }
    const text = bytes.toString('utf8');
    const forward = through(
      (r) => callProxy((p) => p.fromServer(r, text, new Date().toISOString(), randomBytes(4).toString('hex'))),
      { line: text, log: undefined, warning: undefined, retry: undefined },
    );
    report(forward, log);
    if (forward.line !== undefined) process.stdout.write(`${forward.line}\n`);
    if (forward.retry !== undefined) {
      // `--retry`: the call goes to the server again after the wait, unless the client
      // cancelled it or the server went meanwhile (then the relay gives nothing).
      const { id, delayMs } = forward.retry;
      setTimeout(() => {
        const again = through((r) => callProxy((p) => p.resend(r, id)), undefined);
        if (again !== undefined && server.stdin.writable) server.stdin.write(`${again}\n`);
      }, Number(delayMs)).unref();
    }
  }, () => { /* the exit below answers what is left */ });

  server.on('close', (code) => {
    if (!started) return;
    // The server is gone: every call in flight gets an answer.
    for (const line of through((r) => callProxy((p) => p.serverGone(r)), [] as string[])) {
      process.stdout.write(`${line}\n`);
    }
    through((r) => callProxy((p) => p.close(r)), undefined);
    process.exitCode = code ?? 1;
    process.stdin.destroy();
  });
  // Stopped from outside: stop the server too, then go.
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      server.kill('SIGTERM');
      setTimeout(() => server.kill('SIGKILL'), TERM_GRACE_MS).unref();
    });
  }
}
