// The check every runtime runs: the shared vectors through the package as that
// runtime loads it (package.json's export conditions pick the build), and a
// thrown error through `toolResult`. Plain ECMAScript: no runtime APIs.

const raw = (c) => (typeof c.raw === 'string' ? c.raw : JSON.stringify(c.input));
const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** A vector's snake_case limits → the facade's camelCase ones. */
export function limits(o = {}) {
  if (o.limits === undefined) return undefined;
  return Object.fromEntries(Object.entries(o.limits).map(([k, v]) => [camel(k), v]));
}

/** A vector's options → the facade's render options. */
export function renderOptions(o = {}) {
  return {
    profile: o.profile,
    format: o.format,
    spec: o.spec,
    target: o.target,
    toolName: o.tool_name,
    now: o.now ?? null,
    errorId: o.error_id,
    outputSchema: o.output_schema,
    extraFields: o.extra_fields === undefined ? undefined : JSON.parse(o.extra_fields),
    mask: o.mask === true,
    maskedMessage: o.masked_message,
    toolFailure: o.tool_failure === true,
    limits: limits(o),
    rules: o.rules,
  };
}

/** Every output, compared with its vector and folded into one digest (FNV-1a) that must be the
 * same in every runtime. */
export function check(api, classifyCases, renderCases, parseCases) {
  const failures = [];
  let digest = 0x811c9dc5;
  const add = (s) => {
    for (let i = 0; i < s.length; i += 1) digest = Math.imul(digest ^ s.charCodeAt(i), 0x01000193) >>> 0;
  };
  for (const c of classifyCases) {
    const out = api.classifyJson(raw(c), { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules });
    add(out);
    if (out !== JSON.stringify(c.expected)) failures.push(`classify: ${c.name}`);
  }
  for (const c of renderCases) {
    const out = api.renderJson(raw(c), renderOptions(c.options));
    add(out);
    if (out !== JSON.stringify(c.expected)) failures.push(`render: ${c.name}`);
  }
  for (const c of parseCases) {
    const out = api.parseResultJson(raw(c), { now: c.options.now ?? null, limits: limits(c.options), rules: c.options.rules }) ?? 'null';
    add(out);
    if (out !== JSON.stringify(c.expected)) failures.push(`parse: ${c.name}`);
  }
  // The error path: a thrown error with a cause becomes a tool result.
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  const result = api.toolResult(new TypeError('fetch failed', { cause }), {
    toolName: 'fetch_page', now: '2025-10-27T14:32:15Z', errorId: 'e1', format: 'json', mask: false,
  });
  const text = JSON.stringify(result);
  add(text);
  if (result.isError !== true || !text.includes('NETWORK_ERROR')) failures.push(`toolResult: ${text}`);
  return { cases: classifyCases.length + renderCases.length + parseCases.length + 1, failures, digest: digest.toString(16) };
}
