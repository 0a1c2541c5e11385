"""OpenTelemetry, when the application runs it: the failure lands on the current span, and the
log record carries the span's ids. The SDK's in-memory exporter, and the frameworks' own
instrumentation (the `mcp` SDK's server span, FastMCP's)."""

import asyncio

import pytest

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from mcp_errors import ToolError, with_errors, with_server_errors

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
tracer = provider.get_tracer("test")


def test_a_failure_sets_the_current_span_to_error_with_code_event_and_tool():
    exporter.clear()
    records: list = []

    @with_errors("report", logger=records.append)
    def report() -> str:
        raise KeyError("api_key=sk-live-0123456789abcdefghij")

    with tracer.start_as_current_span("tools/call report") as span:
        assert report().is_error
    (done,) = exporter.get_finished_spans()
    assert done.status.status_code is StatusCode.ERROR
    assert done.attributes["error.type"] == "tool_error"
    assert done.attributes["mcp_errors.code"] == "INTERNAL"
    assert done.attributes["mcp_errors.retryable"] is False
    assert "mcp_errors.retry_after_ms" not in done.attributes
    assert done.attributes["mcp_errors.error_id"] == records[0]["error_id"]
    assert done.attributes["gen_ai.tool.name"] == "report"
    assert done.attributes["mcp.method.name"] == "tools/call"
    (event,) = [e for e in done.events if e.name == "exception"]
    assert event.attributes["exception.type"] == "KeyError"
    assert "sk-live-0123456789" not in event.attributes["exception.message"]
    ctx = span.get_span_context()
    assert records[0]["trace_id"] == format(ctx.trace_id, "032x")
    assert records[0]["span_id"] == format(ctx.span_id, "016x")


def test_without_logging_the_span_is_still_annotated_and_without_a_span_nothing_changes():
    exporter.clear()

    @with_errors("weather", logger=False)
    def weather() -> str:
        raise ToolError("No city named Atlantis", code="NOT_FOUND")

    with tracer.start_as_current_span("tools/call weather"):
        weather()
    assert exporter.get_finished_spans()[0].attributes["mcp_errors.code"] == "NOT_FOUND"
    exporter.clear()
    assert weather().is_error
    assert exporter.get_finished_spans() == ()


class Upstream(Exception):
    """What an HTTP client raises for an error response: its status and headers."""

    def __init__(self, status: int, headers: dict | None = None):
        super().__init__(f"upstream answered {status}")
        self.status = status
        self.headers = headers or {}


@pytest.fixture
def instrumented(monkeypatch):
    """The frameworks' tracers routed to this module's provider, as `trace.set_tracer_provider`
    would route them, without making it the process's provider for the other tests."""
    import fastmcp.telemetry
    import mcp.shared._otel

    monkeypatch.setattr(mcp.shared._otel, "_tracer", provider.get_tracer("mcp-python-sdk"))
    monkeypatch.setattr(fastmcp.telemetry, "otel_get_tracer", lambda name, version=None: provider.get_tracer(name, version))
    exporter.clear()
    return exporter


def _tool_spans(name: str) -> list:
    from opentelemetry.trace import SpanKind

    return [s for s in exporter.get_finished_spans() if s.name == f"tools/call {name}" and s.kind is SpanKind.SERVER]


def _check_span(span, code: str, retryable: bool, delay: int | None, exception_type: str, records: list) -> None:
    assert span.status.status_code is StatusCode.ERROR
    assert span.attributes["error.type"] == "tool_error"
    assert span.attributes["mcp_errors.code"] == code
    assert span.attributes["mcp_errors.retryable"] is retryable
    assert span.attributes.get("mcp_errors.retry_after_ms") == delay
    assert span.attributes["mcp_errors.error_id"] == records[-1]["error_id"]
    ours = [e for e in span.events if e.name == "exception" and "exception.stacktrace" not in e.attributes]
    assert [e.attributes["exception.type"] for e in ours] == [exception_type]
    assert records[-1]["span_id"] == format(span.get_span_context().span_id, "016x")


def test_the_mcp_sdks_own_server_span_keeps_the_vendor_attributes(instrumented):
    """mcp 2.3's OpenTelemetryMiddleware sets `error.type` to `tool_error` on its tools/call
    span after the handler returned an error result; the vendor attributes survive it."""
    from mcp.client.client import Client
    from mcp.server.mcpserver import MCPServer

    records: list = []
    server = with_server_errors(MCPServer("upstream"), logger=records.append,
                                tools={"throttled": {"profile": "rpc-envelope"}})

    @server.tool()
    def throttled(city: str) -> str:
        raise Upstream(429, {"Retry-After": "3"})

    @server.tool()
    def crash(city: str) -> str:
        raise KeyError("api_key=sk-live-0123456789abcdefghij")

    async def run():
        async with Client(server) as client:
            await client.call_tool("throttled", {"city": "x"})
            await client.call_tool("crash", {"city": "x"})

    asyncio.run(run())
    (throttled,) = _tool_spans("throttled")
    # The rpc-envelope log record is seed 004's: the canonical facts come from the classification.
    assert "retryable" not in records[0]
    _check_span(throttled, "RATE_LIMITED", True, 3000, "test_otel.Upstream", records[:1])
    (crash,) = _tool_spans("crash")
    # The SDK's UnexpectedToolError ("Error executing tool crash: …") is looked through.
    _check_span(crash, "INTERNAL", False, None, "KeyError", records)
    assert "sk-live-0123456789" not in str(crash.events)


def test_fastmcps_own_server_span_gets_the_tools_exception_class(instrumented):
    from fastmcp import Client as FastMCPClient
    from fastmcp import FastMCP

    records: list = []
    mcp = with_server_errors(FastMCP("upstream"), logger=records.append)

    @mcp.tool
    def throttled(city: str) -> str:
        raise Upstream(429, {"Retry-After": "3"})

    async def run():
        async with FastMCPClient(mcp) as client:
            await client.call_tool_mcp("throttled", {"city": "x"})

    asyncio.run(run())
    (span,) = _tool_spans("throttled")
    # FastMCP's ToolError ("Error calling tool 'throttled': …") is looked through.
    _check_span(span, "RATE_LIMITED", True, 3000, "test_otel.Upstream", records)
