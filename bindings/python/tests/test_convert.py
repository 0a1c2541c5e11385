"""Real Python exceptions, converted and classified."""

import asyncio
import errno
import json
import socket

import httpx
import pydantic
import pytest

from mcp_errors import Category, ErrorCode, McpErrorsError, ToolError, classify, to_raw_error


def _refused() -> OSError:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2)
    except OSError as e:
        return e
    raise AssertionError("the connection should be refused")


def test_connection_refused():
    n = classify(_refused())
    assert n.code is ErrorCode.NETWORK_ERROR
    assert n.category is Category.TRANSIENT
    assert n.retryable
    assert "errno 111 ECONNREFUSED" in n.evidence


def test_file_not_found_keeps_the_path():
    with pytest.raises(OSError) as info:
        open("/definitely/not/here.txt")
    n = classify(info.value)
    assert n.code is ErrorCode.NOT_FOUND
    assert n.details["path"] == "/definitely/not/here.txt"
    assert "Traceback" not in json.dumps(to_raw_error(info.value))


def test_asyncio_timeout():
    async def slow():
        await asyncio.wait_for(asyncio.sleep(1), timeout=0.01)

    with pytest.raises(TimeoutError) as info:
        asyncio.run(slow())
    assert classify(info.value).code is ErrorCode.TIMEOUT


def test_cause_chain_is_followed():
    try:
        try:
            raise ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")
        except ConnectionResetError as inner:
            raise RuntimeError("tool failed") from inner
    except RuntimeError as e:
        n = classify(e)
    assert n.code is ErrorCode.NETWORK_ERROR
    assert any(ev.startswith("cause:") for ev in n.evidence)


def test_exception_group_members():
    group = ExceptionGroup("all attempts failed", [TimeoutError("attempt 1"), TimeoutError("attempt 2")])
    assert classify(group).code is ErrorCode.TIMEOUT


def test_httpx_status_error_with_its_response():
    def handler(request):
        return httpx.Response(429, headers={"Retry-After": "12"}, json={"error": {"message": "slow down"}})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    response = client.get("https://api.example.com/v1")
    with pytest.raises(httpx.HTTPStatusError) as info:
        response.raise_for_status()
    n = classify(info.value)
    assert n.code is ErrorCode.RATE_LIMITED
    assert n.retry_after_ms == 12000
    assert n.http_status == 429


def test_httpx_connect_error():
    def handler(request):
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    with pytest.raises(httpx.ConnectError) as info:
        client.get("https://api.example.com/v1")
    assert classify(info.value).code is ErrorCode.NETWORK_ERROR


def test_pydantic_validation_error():
    class Weather(pydantic.BaseModel):
        city: str

    with pytest.raises(pydantic.ValidationError) as info:
        Weather.model_validate({})
    n = classify(info.value)
    assert n.code is ErrorCode.INVALID_ARGUMENT
    assert n.message.startswith("city: ")
    # pydantic's own errors() list, read by the core as it is: no made-up upstream body.
    assert "pydantic errors" in n.evidence
    assert n.original is None
    assert to_raw_error(info.value)["errors"][0]["loc"] == ["city"]


def test_tool_error_is_expected_with_hints():
    n = classify(ToolError("No city named Atlantis", code="NOT_FOUND", app_code="CITY_NOT_FOUND"), tool="weather")
    assert n.code is ErrorCode.NOT_FOUND
    assert n.expected and n.app_code == "CITY_NOT_FOUND" and n.tool == "weather"


def test_hostile_values():
    class Bad(Exception):
        def __str__(self):
            raise RuntimeError("no str")

    assert classify(Bad()).code is ErrorCode.UNKNOWN
    e = ValueError("loop")
    e.__cause__ = e
    assert classify(e).code is ErrorCode.INVALID_ARGUMENT
    assert classify("just text").message == "just text"
    assert classify(None).code is ErrorCode.UNKNOWN
    with pytest.raises(McpErrorsError):
        to_raw_error(ValueError("x"), nonsense=1)
