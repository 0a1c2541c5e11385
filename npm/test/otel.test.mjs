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
  }, { toolName: 'report', logger: (r) => records.push(r), now: '2025-10-27T14:32:15Z', newErrorId: () => 'e1' });
  const span = await tracer.startActiveSpan('tools/call report', async (s) => {
    const result = await handler({});
    assert.equal(result.isError, true);
    s.end();
    return s;
  });
  const [done] = exporter.getFinishedSpans();
  assert.equal(done.status.code, 2);
  // `error.type` as the MCP semantic conventions ask; the verdict under the package's own names.
  assert.equal(done.attributes['error.type'], 'tool_error');
  assert.equal(done.attributes['mcp_errors.code'], 'INTERNAL');
  assert.equal(done.attributes['mcp_errors.retryable'], false);
  assert.equal(done.attributes['mcp_errors.error_id'], 'e1');
  assert.equal(done.attributes['mcp_errors.retry_after_ms'], undefined);
  assert.equal(done.attributes['gen_ai.tool.name'], 'report');
  assert.equal(done.attributes['mcp.method.name'], 'tools/call');
  const event = done.events.find((e) => e.name === 'exception');
  assert.equal(event.attributes['exception.type'], 'TypeError');
  assert.doesNotMatch(event.attributes['exception.message'], /sk-live-0123456789/);
  assert.equal(records[0].trace_id, span.spanContext().traceId);
  assert.equal(records[0].span_id, span.spanContext().spanId);
  exporter.reset();
});

test('with logger: false, the span is still annotated; without a span nothing changes', async () => {
  const handler = withErrors(async () => {
    throw new ToolError('No city named Atlantis', { code: 'NOT_FOUND' });
  }, { toolName: 'weather', logger: false });
  await tracer.startActiveSpan('tools/call weather', async (s) => {
    await handler({});
    s.end();
  });
  assert.equal(exporter.getFinishedSpans()[0].attributes['mcp_errors.code'], 'NOT_FOUND');
  exporter.reset();
  const result = await handler({});
  assert.equal(result.isError, true);
  assert.equal(exporter.getFinishedSpans().length, 0);
});

test('a rate limit puts its delay on the span, and the exception event names the real class', async () => {
  class WeatherApiError extends Error {}
  const handler = withErrors(async () => {
    throw Object.assign(new WeatherApiError('Too Many Requests'), { status: 429, headers: { 'retry-after': '7' } });
  }, { toolName: 'weather', logger: false, profile: 'tool-error-v1' });
  await tracer.startActiveSpan('tools/call weather', async (s) => {
    await handler({});
    s.end();
  });
  const [done] = exporter.getFinishedSpans();
  assert.equal(done.attributes['mcp_errors.code'], 'RATE_LIMITED');
  assert.equal(done.attributes['mcp_errors.retryable'], true);
  assert.equal(done.attributes['mcp_errors.retry_after_ms'], 7000);
  assert.match(done.attributes['mcp_errors.error_id'], /^[0-9a-f]{8}$/);
  assert.equal(done.events.find((e) => e.name === 'exception').attributes['exception.type'], 'WeatherApiError');
  exporter.reset();
});

test('a span the tool opens and ends itself is over before the wrapper sees the failure (README: where spans must be)', async () => {
  const handler = withErrors(async () => tracer.startActiveSpan('inner', async (s) => {
    s.end();
    throw new Error('boom');
  }), { toolName: 'inner', logger: false });
  await handler({});
  const [inner] = exporter.getFinishedSpans();
  assert.equal(inner.name, 'inner');
  assert.equal(inner.attributes['mcp_errors.code'], undefined, 'the ended span is not annotated');
  exporter.reset();
});
