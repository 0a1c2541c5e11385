// `mcp-errors proxy [options] --listen HOST:PORT --upstream URL` in Node: the proxy for a
// remote MCP server over Streamable HTTP. Every HTTP request passes to the upstream as it
// came (method, path, query, headers, body; hop-by-hop headers aside; `Authorization` is
// passed and never logged), and every response comes back as it went, JSON bodies and
// server-sent events alike, except the answers to `tools/call` that are failures: each
// JSON-RPC message goes through the core's relay (the component's `proxy` interface), the
// same decisions as the stdio proxy's. One relay per MCP session (`Mcp-Session-Id`); requests
// without a session share one.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { callProxy } from './engine.js';

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

/** The `--listen` and `--upstream` flags taken out of the arguments (the rest are the core's). */
export function httpFlags(args: string[]): { rest: string[]; listen?: string; upstream?: string } {
  const rest: string[] = [];
  let listen: string | undefined;
  let upstream: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if ((args[i] === '--listen' || args[i] === '--upstream') && i + 1 < args.length) {
      if (args[i] === '--listen') listen = args[i + 1];
      else upstream = args[i + 1];
      i++;
      continue;
    }
    rest.push(args[i]);
  }
  return { rest, listen, upstream };
}

export function runHttpProxy(args: string[], listen: string, upstream: string): void {
  let target: URL;
  try {
    target = new URL(upstream);
  } catch {
    process.stderr.write(`mcp-errors proxy: --upstream ${JSON.stringify(upstream)} is not a URL\n`);
    process.exitCode = 2;
    return;
  }
  const at = listen.lastIndexOf(':');
  const host = at > 0 ? listen.slice(0, at) : '127.0.0.1';
  const port = Number(at >= 0 ? listen.slice(at + 1) : listen);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`mcp-errors proxy: --listen ${JSON.stringify(listen)}: expected HOST:PORT\n`);
    process.exitCode = 2;
    return;
  }
  // The core reads the other arguments (its usage and errors); the upstream stands where a
  // server's command would.
  const start = () => callProxy((p) => p.start([...args, '--', upstream]));
  const plan = start();
  if (plan.tag === 'finish') {
    process.stdout.write(plan.val.stdout);
    process.stderr.write(plan.val.stderr);
    process.exitCode = plan.val.status;
    return;
  }
  const log = plan.val.log;
  const relays = new Map<string, number>();
  const shared = plan.val.relay;
  const newRelay = (): number => {
    const p = start();
    return p.tag === 'run' ? p.val.relay : shared;
  };
  /** A relay call; a failure of the component passes the text unchanged. */
  const through = <T>(f: () => T, unchanged: T): T => {
    try {
      return f();
    } catch (e) {
      process.stderr.write(`mcp-errors proxy: ${e instanceof Error ? e.message : String(e)}; passed unchanged\n`);
      return unchanged;
    }
  };
  /** A message from the upstream, through the relay: the text to send on. */
  const fromServer = (relay: number, text: string): string => {
    const f = through(() => callProxy((p) => p.fromServer(relay, text, new Date().toISOString(), randomBytes(4).toString('hex'))),
      { line: text, log: undefined, warning: undefined, retry: undefined });
    report(f, log);
    // Without `--retry` (refused with --listen) every answer has its line.
    return f.line ?? text;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`mcp-errors proxy: ${e instanceof Error ? e.message : String(e)}\n`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const session = header(req, 'mcp-session-id');
    let relay = session !== undefined ? relays.get(session) : undefined;
    const text = body.toString('utf8');
    if (relay === undefined) {
      // A new session starts with `initialize`; other requests without one share a relay.
      relay = session !== undefined || /"initialize"/.test(text) ? newRelay() : shared;
      if (session !== undefined) relays.set(session, relay);
    }
    if (req.method === 'POST' && body.length > 0) {
      // Each message of the body (one, or a batch) is seen by the relay; the body goes as it came.
      let messages: unknown[] = [];
      try {
        const parsed: unknown = JSON.parse(text);
        messages = Array.isArray(parsed) ? parsed : [parsed];
      } catch { /* not JSON: the upstream answers it */ }
      for (const m of messages) {
        const r = relay;
        through(() => callProxy((p) => p.fromClient(r, JSON.stringify(m))), '');
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const url = new URL(req.url ?? '/', target);
    const upstreamRes = await fetch(url, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' || body.length === 0 ? undefined : body,
      redirect: 'manual',
    });
    const newSession = upstreamRes.headers.get('mcp-session-id');
    if (newSession !== null && !relays.has(newSession)) relays.set(newSession, relay);
    if (req.method === 'DELETE' && session !== undefined && upstreamRes.ok) {
      const r = relays.get(session);
      relays.delete(session);
      if (r !== undefined && r !== shared) through(() => callProxy((p) => p.close(r)), undefined);
    }
    const out: Record<string, string> = {};
    upstreamRes.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
    });
    const type = upstreamRes.headers.get('content-type') ?? '';
    if (upstreamRes.body === null) {
      res.writeHead(upstreamRes.status, out);
      res.end();
      return;
    }
    if (type.startsWith('application/json')) {
      const answer = fromServer(relay, await upstreamRes.text());
      res.writeHead(upstreamRes.status, out);
      res.end(answer);
      return;
    }
    res.writeHead(upstreamRes.status, out);
    if (type.startsWith('text/event-stream')) {
      // Each event's data (a JSON-RPC message) through the relay; ids, names and comments as they were.
      const r = relay;
      await events(upstreamRes.body, (event) => res.write(event), (data) => fromServer(r, data));
    } else {
      for await (const c of upstreamRes.body as unknown as AsyncIterable<Uint8Array>) res.write(c);
    }
    res.end();
  }

  server.on('error', (e) => {
    process.stderr.write(`mcp-errors proxy: --listen ${listen}: ${e.message}\n`);
    process.exitCode = 2;
  });
  server.listen(port, host, () => {
    const a = server.address();
    const where = typeof a === 'object' && a !== null ? `${a.address}:${a.port}` : listen;
    process.stderr.write(`mcp-errors proxy: listening on http://${where}, for ${target.href}\n`);
  });
  // Stopped: open event streams end with the process.
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      server.closeAllConnections();
      server.close();
      process.exit(0);
    });
  }
}

/** What a forwarded line says besides itself: its warning to stderr, its log record to the
 * `--log` file (a failure to write is said on stderr, never thrown). */
export function report(f: { log?: string; warning?: string }, log: string | undefined): void {
  if (f.warning !== undefined) process.stderr.write(`mcp-errors proxy: ${f.warning}\n`);
  if (f.log !== undefined && log !== undefined) {
    try {
      appendFileSync(log, `${f.log}\n`);
    } catch (e) {
      process.stderr.write(`mcp-errors proxy: --log ${log}: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Server-sent events from `body`, each written as it comes (`write`), its `data` (joined
 * lines) replaced by what `data` makes of it; a line ends with LF, CR LF or CR. */
async function events(body: ReadableStream<Uint8Array>, write: (event: string) => void, data: (text: string) => string): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  let lines: string[] = [];
  const flush = () => {
    const payload = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
    if (payload.length === 0) {
      write(`${lines.join('\n')}\n\n`);
    } else {
      const after = data(payload.join('\n'));
      const kept = lines.filter((l) => !l.startsWith('data:'));
      write(`${[...kept, ...after.split('\n').map((l) => `data: ${l}`)].join('\n')}\n\n`);
    }
    lines = [];
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(buffer[nl] === '\r' && buffer[nl + 1] === '\n' ? nl + 2 : nl + 1);
      if (line === '') {
        if (lines.length > 0) flush();
      } else {
        lines.push(line);
      }
    }
  }
  if (lines.length > 0) flush();
}
