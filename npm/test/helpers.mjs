// Shared by the Node tests.
import { createServer } from 'node:net';

/** A port nothing listens on: bound, then released. */
export async function closedPort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}
