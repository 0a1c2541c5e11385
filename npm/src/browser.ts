/**
 * mcp-errors for browsers and bundlers (the `browser` and `default` export conditions). Browsers
 * refuse to compile or instantiate a module this size synchronously on the main thread, so the
 * component is fetched and compiled with streaming compilation when this module is imported
 * (top-level `await`): once the import resolves, every call is synchronous. `ready()` is the same
 * promise, for code that wants to say so. The `.wasm` file is found with
 * `new URL('./generated/mcp-errors.core.wasm', import.meta.url)`, which Vite and webpack follow;
 * with esbuild, copy `dist/generated/mcp-errors.core.wasm` beside the bundle's `generated/`.
 */
import { McpErrorsError, provideCoreModule, provideSpareInstance } from './engine.js';

export * from './api.js';
export * from './parse.js';
export * from './retry.js';

let loading: Promise<void> | undefined;

/** Resolves when the component is compiled and an instance is ready; rejects (with a typed
 * `McpErrorsError` of kind `not_ready`) if the `.wasm` file could not be fetched or compiled. */
export function ready(): Promise<void> {
  loading ??= load();
  return loading;
}

async function load(): Promise<void> {
  const url = new URL('./generated/mcp-errors.core.wasm', import.meta.url);
  let module: WebAssembly.Module;
  try {
    try {
      module = await WebAssembly.compileStreaming(fetch(url));
    } catch {
      // A server that does not send `application/wasm`: compile the bytes instead.
      module = await WebAssembly.compile(await (await fetch(url)).arrayBuffer());
    }
  } catch (e) {
    throw new McpErrorsError('not_ready', `mcp-errors could not load ${url.href}: ${String(e)}`, { cause: e });
  }
  provideCoreModule(() => module);
  await spare(module);
}

/** One instance made ahead, asynchronously; when it is used (the first call, or after a
 * trap), the next is made. */
async function spare(module: WebAssembly.Module): Promise<void> {
  const instance = await WebAssembly.instantiate(module, {});
  provideSpareInstance(module, instance, () => {
    void spare(module).catch(() => {});
  });
}

// Importing this module waits for the component. A failure is not thrown here: calls then
// give their typed `not_ready` error (and `toolResult` / `withErrors` their fallback result).
await ready().catch(() => {});
