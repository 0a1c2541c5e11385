// One cold start, as a server's module file sees it: Node's ES-module loader
// and `node:fs` first (every server has both loaded before it imports this
// package), then the package's import, then the first call, which compiles
// and instantiates the component. Prints the three times in ms as JSON.
// Run by bench.mjs in fresh processes.
const t0 = performance.now();
await import('node:fs');
const t1 = performance.now();
const m = await import('../dist/index.js');
const t2 = performance.now();
m.renderJson('{"status":429}', { now: null });
const t3 = performance.now();
console.log(JSON.stringify({ node: t1 - t0, imp: t2 - t1, first: t3 - t2 }));
