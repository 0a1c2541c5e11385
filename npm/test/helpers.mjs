// Shared by the Node tests.
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The hosts of the one proxy relay, each as a command and the arguments before `proxy`: the
 * native binary (built by `cargo xtask test` first), `npx mcp-errors` (Node, through the
 * component) and, when the package's virtualenv is given (`cargo xtask test` gives it),
 * `python -m mcp_errors` (wasmtime, through the component). */
export function proxyHosts() {
  const cli = process.env.MCP_ERRORS_CLI ?? fileURLToPath(new URL('../../target/debug/mcp-errors', import.meta.url));
  if (!existsSync(cli)) throw new Error(`the Rust CLI ${cli} is not built: run \`cargo build\` (cargo xtask test does)`);
  return [
    { name: 'native', command: cli, pre: [] },
    { name: 'node', command: process.execPath, pre: [fileURLToPath(new URL('../dist/cli.js', import.meta.url))] },
    ...(process.env.MCP_ERRORS_PYTHON ? [{ name: 'python', command: process.env.MCP_ERRORS_PYTHON, pre: ['-m', 'mcp_errors'] }] : []),
  ];
}

/** A port nothing listens on: bound, then released. */
export async function closedPort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** A stateless Streamable HTTP endpoint on loopback: per request, a fresh server from
 * `makeServer` on the SDK's web-standard `Transport`, bridged from Node's http. */
export async function serveHttp(makeServer, Transport) {
  const http = createHttpServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method, headers: req.headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await makeServer().connect(transport);
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return http;
}
