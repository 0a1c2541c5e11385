/**
 * mcp-errors for Node, Bun and Deno (the `node`, `bun` and `deno` export conditions): turn any
 * failure inside an MCP tool into one canonical error and render it as the exact result shape
 * an MCP client expects. The component is read and compiled synchronously at the first call.
 *
 * ```ts
 * server.registerTool('weather', { inputSchema: { city: z.string() } },
 *   withErrors(async ({ city }) => ({ content: [{ type: 'text', text: await forecast(city) }] }),
 *              { toolName: 'weather' }));
 * ```
 */
import { provideNodeSource } from './node-source.js';

provideNodeSource();

export * from './api.js';
export * from './parse.js';
export * from './retry.js';

/** Resolves when the component can be called. Here that is at once: it loads synchronously at
 * the first call. (The browser build needs it; every build has it, so code can await it anywhere.) */
export function ready(): Promise<void> {
  return Promise.resolve();
}
