// The playground: the npm package's browser build, in the page. Every change re-renders.
import {
  classifyJson, renderJson, ready, FORMATS, PROFILES, SPEC_REVISIONS, TARGETS,
} from 'mcp-errors';
import examples from './examples.json';

const $ = (id) => document.getElementById(id);
const pretty = (text) => JSON.stringify(JSON.parse(text), null, 2);

for (const [i, e] of examples.entries()) $('example').add(new Option(e.label, String(i)));
for (const t of TARGETS) $('target').add(new Option(t, t));
for (const s of SPEC_REVISIONS) $('spec').add(new Option(s, s));
$('spec').value = '2025-11-25';
$('raw').value = JSON.stringify(examples[0].raw, null, 2);

function options() {
  const limits = $('limits').value.trim();
  const schema = $('schema').value.trim();
  return {
    toolName: $('tool').value || undefined,
    now: $('now').value || null,
    mask: $('mask').checked,
    spec: $('spec').value,
    limits: limits ? JSON.parse(limits) : undefined,
    outputSchema: schema || undefined,
    errorId: 'err_playground',
  };
}

function update() {
  const grid = $('grid');
  grid.replaceChildren();
  let opts;
  try {
    opts = options();
  } catch (e) {
    $('status').textContent = `Options: ${e.message}`;
    $('status').className = 'error';
    return;
  }
  const raw = $('raw').value;
  try {
    $('normalized').textContent = pretty(classifyJson(raw, { now: opts.now, limits: opts.limits }));
    $('status').textContent = `Target ${$('target').value}: every profile × format below (choose another target above).`;
    $('status').className = '';
  } catch (e) {
    $('normalized').textContent = '';
    $('status').textContent = `${e.kind ?? 'error'}: ${e.message}`;
    $('status').className = 'error';
    return;
  }
  const head = grid.insertRow();
  head.insertCell().outerHTML = '<th>profile</th>';
  for (const f of FORMATS) head.insertCell().outerHTML = `<th>${f}</th>`;
  for (const profile of PROFILES) {
    const row = grid.insertRow();
    row.insertCell().outerHTML = `<th>${profile}</th>`;
    for (const format of FORMATS) {
      const pre = document.createElement('pre');
      pre.dataset.profile = profile;
      pre.dataset.format = format;
      try {
        pre.textContent = pretty(renderJson(raw, { ...opts, profile, format, target: $('target').value }));
      } catch (e) {
        pre.textContent = `${e.kind ?? 'error'}: ${e.message}`;
        pre.className = 'error';
      }
      row.insertCell().append(pre);
    }
  }
}

$('example').addEventListener('change', () => {
  $('raw').value = JSON.stringify(examples[Number($('example').value)].raw, null, 2);
  update();
});
for (const id of ['raw', 'tool', 'now', 'target', 'spec', 'mask', 'limits', 'schema']) {
  $(id).addEventListener('input', update);
}
await ready();
update();
document.body.dataset.ready = 'true';
