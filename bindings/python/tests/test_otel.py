"""OpenTelemetry, when the application runs it: the failure lands on the current span, and the
log record carries the span's ids. The SDK's in-memory exporter."""

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from mcp_errors import ToolError, with_errors

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
    assert done.attributes["error.type"] == "INTERNAL"
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
    assert exporter.get_finished_spans()[0].attributes["error.type"] == "NOT_FOUND"
    exporter.clear()
    assert weather().is_error
    assert exporter.get_finished_spans() == ()
