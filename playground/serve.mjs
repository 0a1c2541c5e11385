// A static file server on loopback, for the playground (`cargo xtask playground`) and the
// browser pages of the runtime test: a path outside `root` or a missing file is a 404.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** Serve `root` on 127.0.0.1:`port` (0: any free port); resolves to the listening server. */
export async function serveStatic(root, port = 0) {
  const server = createServer((req, res) => {
    const path = join(root, new URL(req.url, 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
