/**
 * mcp-errors for Cloudflare Workers (the `workerd` export condition): the component's core
 * module is imported as a compiled WebAssembly module, which wrangler bundles by default.
 * Synchronous from the first call.
 */
import coreModule from './generated/mcp-errors.core.wasm';
import { provideCoreModule } from './engine.js';

provideCoreModule(() => coreModule);

export * from './api.js';
export * from './parse.js';
export * from './retry.js';

/** Resolves when the component can be called: at once on Workers. */
export function ready(): Promise<void> {
  return Promise.resolve();
}
