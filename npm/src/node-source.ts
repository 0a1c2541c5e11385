// Node, Bun and Deno: the component's core module is read from the file beside
// the bundle and compiled synchronously at the first call.
import { readFileSync } from 'node:fs';
import { provideCoreModule } from './engine.js';

/** @internal Make the engine read the core module from the file (called by the Node entry and the CLI). */
export function provideNodeSource(): void {
  provideCoreModule(() => new WebAssembly.Module(
    readFileSync(new URL('./generated/mcp-errors.core.wasm', import.meta.url)),
  ));
}
