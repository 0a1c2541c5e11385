// The component's lifecycle: compiled once, instantiated lazily, and
// re-instantiated after a trap so one bad call cannot break the next. Where the
// compiled core module comes from is the runtime entry's business (node.ts reads
// the file, workerd.ts imports it as a module, browser.ts compiles it
// asynchronously); everything else is the same in every runtime.
import { instantiate } from './generated/mcp-errors.js';
import type * as Api from './generated/interfaces/mcp-errors-core-api.js';
import type * as Cli from './generated/interfaces/mcp-errors-core-cli.js';
import type * as Proxy from './generated/interfaces/mcp-errors-core-proxy.js';

type ApiExports = typeof Api;
type CliExports = typeof Cli;
type ProxyExports = typeof Proxy;
/** The component's exported interfaces. */
interface Exports { api: ApiExports; cli: CliExports; proxy: ProxyExports }

/** The kind of an error of mcp-errors itself. `not_ready`: the browser build was called before
 * `await ready()` finished compiling the component. */
export type McpErrorsErrorKind = 'invalid_json' | 'invalid_input' | 'invalid_option' | 'trap' | 'not_ready';

/** An error of mcp-errors itself (not the error being classified). Typed, never a bare string. */
export class McpErrorsError extends Error {
  readonly kind: McpErrorsErrorKind;
  constructor(kind: McpErrorsErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpErrorsError';
    this.kind = kind;
  }
}

let coreModule: WebAssembly.Module | undefined;
let exportsCache: Exports | undefined;
let instantiations = 0;

/** How this runtime gets the compiled core module, synchronously (set by the entry). */
let moduleSource: () => WebAssembly.Module = () => {
  throw new McpErrorsError('not_ready', 'mcp-errors is not loaded yet: `await ready()` first');
};
/** An instance made ahead of time, for runtimes that may not instantiate synchronously. */
let spare: WebAssembly.Instance | undefined;
/** Called when the spare was taken, so the entry can make the next one. */
let onSpareTaken: (() => void) | undefined;

/** @internal For the runtime entries: where the compiled core module comes from. */
export function provideCoreModule(source: () => WebAssembly.Module): void {
  moduleSource = source;
}

/** @internal For the browser entry: an instance of `module` made asynchronously, used by the
 * next instantiation (browsers refuse to instantiate a module this size synchronously on the
 * main thread); `taken` runs when it is used. The core module imports nothing. */
export function provideSpareInstance(module: WebAssembly.Module, instance: WebAssembly.Instance, taken: () => void): void {
  coreModule = module;
  spare = instance;
  onSpareTaken = taken;
}

function load(): Exports {
  coreModule ??= moduleSource();
  const module = coreModule;
  const root = instantiate(() => module, {}, (m: WebAssembly.Module, imports: WebAssembly.Imports) => {
    const ready = m === coreModule ? spare : undefined;
    if (ready !== undefined) {
      spare = undefined;
      onSpareTaken?.();
      return ready;
    }
    return new WebAssembly.Instance(m, imports);
  }) as unknown as Exports;
  instantiations += 1;
  exportsCache = root;
  return root;
}

/** @internal How many times the component was instantiated (1 unless a trap forced a fresh one). */
export function instantiationCount(): number {
  return instantiations;
}

/** @internal For tests: run on another build's core module (e.g. the test-only trapping build). */
export function _useCoreModuleForTests(bytes: Uint8Array<ArrayBuffer>): void {
  coreModule = new WebAssembly.Module(bytes);
  exportsCache = undefined;
}

let injectTrap = false;
/** @internal For tests: make the next call fail the way a trapping component does. */
export function _injectTrapForTests(): void {
  injectTrap = true;
}

/** The component's own `error` variant, as jco's glue throws it: `{tag, val}` in a `ComponentError`'s `payload`. */
function witError(e: unknown): { tag: string; val: string } | undefined {
  const payload = typeof e === 'object' && e !== null && 'payload' in e
    ? (e as { payload: unknown }).payload
    : undefined;
  if (typeof payload === 'object' && payload !== null && 'tag' in payload && 'val' in payload
    && typeof (payload as { tag: unknown }).tag === 'string'
    && typeof (payload as { val: unknown }).val === 'string') {
    return payload as { tag: string; val: string };
  }
  return undefined;
}

/** @internal Call into the component's `api`; library errors become `McpErrorsError`, a trap drops the instance. */
export function call<T>(f: (api: ApiExports) => T): T {
  return callExports((e) => f(e.api));
}

/** @internal `call` for the component's `cli` interface (the CLI's logic). */
export function callCli<T>(f: (cli: CliExports) => T): T {
  return callExports((e) => f(e.cli));
}

/** @internal `call` for the component's `proxy` interface (the proxy's relay). */
export function callProxy<T>(f: (proxy: ProxyExports) => T): T {
  return callExports((e) => f(e.proxy));
}

function callExports<T>(f: (e: Exports) => T): T {
  const api = exportsCache ?? load();
  try {
    if (injectTrap) {
      injectTrap = false;
      throw new WebAssembly.RuntimeError('unreachable (injected by a test)');
    }
    return f(api);
  } catch (e) {
    // Raised by the facade's own checks while converting options: already typed.
    if (e instanceof McpErrorsError) throw e;
    const wit = witError(e);
    if (wit) {
      throw new McpErrorsError(wit.tag.replace(/-/g, '_') as McpErrorsErrorKind, wit.val);
    }
    if (e instanceof WebAssembly.RuntimeError) {
      // A trap leaves the instance in an unknown state: never use it again.
      exportsCache = undefined;
      throw new McpErrorsError('trap', `the mcp-errors component trapped: ${String(e)}`, { cause: e });
    }
    // A value the bindings could not lower (e.g. a number where text belongs).
    throw new McpErrorsError('invalid_input', e instanceof Error ? e.message : String(e), { cause: e });
  }
}
