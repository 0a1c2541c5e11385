/** A `.wasm` import as Cloudflare Workers (wrangler) gives it: the compiled module. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
