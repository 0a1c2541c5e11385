"""parse_result in the host: what it takes besides dicts, and that it never raises for the result."""

import os
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent

import mcp_errors
from mcp_errors import ErrorCode, McpErrorsError, parse_result, parse_result_json
from mcp_errors._engine import Engine


def test_the_sdk_models_and_a_raised_mcp_error():
    result = CallToolResult(content=[TextContent(type="text", text="Unknown tool: x")], isError=True)
    # An unknown tool is NOT_FOUND (the evaluation corpus's label for every SDK's wording).
    assert parse_result(result).code is ErrorCode.NOT_FOUND
    ok = CallToolResult(content=[TextContent(type="text", text="3 results, no errors")])
    assert parse_result(ok) is None
    raised = parse_result(MCPError(-32603, "Invalid API key"))
    assert raised.code is ErrorCode.UNAUTHENTICATED, "the catch-all -32603 lets the message decide"
    assert raised.evidence[0] == "dialect jsonrpc"


@pytest.mark.parametrize(
    "value",
    ["garbage", 42, [1, 2], {"content": "boom", "isError": True}, {"jsonrpc": "2.0", "id": 1, "method": "x"}],
)
def test_never_raises_for_the_result(value):
    e = parse_result(value)
    assert e.code is ErrorCode.UNKNOWN and e.retryable is False
    assert e.evidence[0].startswith("parse failed: invalid_input: ")


def test_bad_options_are_the_callers_error():
    with pytest.raises(McpErrorsError) as info:
        parse_result({"content": [], "isError": True}, now="yesterday")
    assert info.value.kind == "invalid_option"
    with pytest.raises(McpErrorsError) as info:
        parse_result_json("{")
    assert info.value.kind == "invalid_json"


def test_a_really_trapping_component(monkeypatch):
    from conftest import ROOT

    path = Path(os.environ.get("MCP_ERRORS_TRAP_WASM", ROOT / "target" / "mcp-errors-trap.wasm"))
    assert path.exists(), f"{path} is missing: run `cargo xtask test`"
    engine = Engine(path)
    monkeypatch.setattr(mcp_errors, "ENGINE", engine)
    e = parse_result("mcp-errors: trap now")
    assert e.code is ErrorCode.UNKNOWN
    assert e.evidence[0].startswith("parse failed: trap")
    after = parse_result({"content": [{"type": "text", "text": "rate limit exceeded"}], "isError": True})
    assert after.code is ErrorCode.RATE_LIMITED


class Upstream(Exception):
    """What an HTTP client raises for an error response: its status and headers."""

    def __init__(self, status: int, headers: dict | None = None):
        super().__init__(f"upstream answered {status}")
        self.status = status
        self.headers = headers or {}


def _failing_servers(**options):
    """A FastMCP server and an MCPServer whose tools fail with a 429 and Retry-After: 3, one
    declaring no output schema and one declaring a pydantic one (the JSON then in a block)."""
    from fastmcp import FastMCP
    from mcp.server.mcpserver import MCPServer
    from pydantic import BaseModel

    from mcp_errors import with_server_errors

    class Forecast(BaseModel):
        city: str

    fast = with_server_errors(FastMCP("upstream"), logger=False, **options)
    sdk = with_server_errors(MCPServer("upstream"), logger=False, **options)
    for server in (fast, sdk):

        @server.tool()
        def throttled(city: str):
            raise Upstream(429, {"Retry-After": "3"})

        @server.tool()
        def forecast(city: str) -> Forecast:
            raise Upstream(429, {"Retry-After": "3"})

    return fast, sdk


def _is_rate_limited_after_3s(error, tool: str | None) -> None:
    assert error is not None
    assert (error.code, error.retryable, error.retry_after_ms) == (ErrorCode.RATE_LIMITED, True, 3000), error
    assert error.tool == tool


@pytest.mark.parametrize("format", ["markdown", "json"])
def test_fastmcp_client_results_and_raised_tool_errors_are_read(format):
    import asyncio

    from fastmcp import Client as FastMCPClient
    from fastmcp.client.client import CallToolResult as FastMCPResult
    from fastmcp.exceptions import ToolError as FastMCPToolError

    fast, _ = _failing_servers(format=format)

    async def run():
        out = {}
        async with FastMCPClient(fast) as client:
            for tool in ("throttled", "forecast"):
                out[tool, "result"] = await client.call_tool(tool, {"city": "Paris"}, raise_on_error=False)
                out[tool, "mcp"] = await client.call_tool_mcp(tool, {"city": "Paris"})
                try:
                    await client.call_tool(tool, {"city": "Paris"})
                except FastMCPToolError as e:
                    out[tool, "raised"] = e
        return out

    out = asyncio.run(run())
    for tool in ("throttled", "forecast"):
        assert isinstance(out[tool, "result"], FastMCPResult)
        assert isinstance(out[tool, "raised"], FastMCPToolError)
        for how in ("result", "mcp"):
            _is_rate_limited_after_3s(parse_result(out[tool, how]), tool)
            assert parse_result(out[tool, how]).evidence[0] == "dialect canonical"
        raised = parse_result(out[tool, "raised"])
        # The ToolError carries the first block only: the JSON (format json), or the mirror text
        # ("Error: …\nCode: RATE_LIMITED\nTool: …\nRetryable: yes, after 3s"), read as stated.
        _is_rate_limited_after_3s(raised, tool)
        assert raised.evidence[0] == ("dialect canonical" if format == "json" else "dialect canonical text")
    # A success stays one.
    from mcp_types import TextContent

    ok = FastMCPResult(content=[TextContent(type="text", text="sunny")], structured_content=None, meta=None)
    assert parse_result(ok) is None


def test_the_sdk_client_results_are_read():
    import asyncio

    from mcp.client.client import Client

    _, sdk = _failing_servers()

    async def run():
        async with Client(sdk) as client:
            return [await client.call_tool(t, {"city": "Paris"}) for t in ("throttled", "forecast")]

    throttled, forecast = asyncio.run(run())
    _is_rate_limited_after_3s(parse_result(throttled), "throttled")
    _is_rate_limited_after_3s(parse_result(forecast), "forecast")  # from the JSON block
    assert parse_result(forecast).evidence[0] == "dialect canonical"


class _Opaque:
    pass


@pytest.mark.parametrize(
    "value,why",
    [
        (_Opaque(), "not a tool result: test_parse._Opaque"),
        (ValueError("boom"), "not a tool result: a raised ValueError"),
        ({"content": [_Opaque()], "isError": True}, "Object of type test_parse._Opaque is not JSON serializable"),
    ],
)
def test_an_object_that_is_no_result_says_so(value, why):
    e = parse_result(value)
    assert (e.code, e.retryable) == (ErrorCode.UNKNOWN, False)
    assert e.evidence == [f"parse failed: invalid_input: {why}"]
