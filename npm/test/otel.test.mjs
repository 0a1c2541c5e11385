// OpenTelemetry, when the application runs it: the failure lands on the active span, and the
// log record carries the span's ids. The SDK's in-memory exporter, a real context manager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ToolError, withErrors } from '../dist/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracer = provider.getTracer('test');

test('a failure sets the active span to ERROR with the code, an exception event and the tool', async () => {
  const records = [];
  const handler = withErrors(async () => {
    await new Promise((r) => setTimeout(r, 1));
    throw new TypeError('Cannot read properties of undefined (reading "api_key=sk-live-0123456789abcdefghij")');
  }, { toolName: 'report', log: (r) => records.push(r), now: '2025-10-27T14:32:15Z' });
  const span = await tracer.startActiveSpan('tools/call report', async (s) => {
    const result = await handler({});
    assert.equal(result.isError, true);
    s.end();
    return s;
  });
  const [done] = exporter.getFinishedSpans();
  assert.equal(done.status.code, 2);
  assert.equal(done.attributes['error.type'], 'INTERNAL');
  assert.equal(done.attributes['gen_ai.tool.name'], 'report');
  assert.equal(done.attributes['mcp.method.name'], 'tools/call');
  const event = done.events.find((e) => e.name === 'exception');
  assert.equal(event.attributes['exception.type'], 'TypeError');
  assert.doesNotMatch(event.attributes['exception.message'], /sk-live-0123456789/);
  assert.equal(records[0].trace_id, span.spanContext().traceId);
  assert.equal(records[0].span_id, span.spanContext().spanId);
  exporter.reset();
});

test('with log: false, the span is still annotated; without a span nothing changes', async () => {
  const handler = withErrors(async () => {
    throw new ToolError('No city named Atlantis', { code: 'NOT_FOUND' });
  }, { toolName: 'weather', log: false });
  await tracer.startActiveSpan('tools/call weather', async (s) => {
    await handler({});
    s.end();
  });
  assert.equal(exporter.getFinishedSpans()[0].attributes['error.type'], 'NOT_FOUND');
  exporter.reset();
  const result = await handler({});
  assert.equal(result.isError, true);
  assert.equal(exporter.getFinishedSpans().length, 0);
});
