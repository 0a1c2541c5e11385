"""One line per server: FastMCP's middleware and `with_server_errors` for the `mcp` SDK's MCPServer, each
with its own real client; the frameworks' own errors honoured; one name for the tool."""

import asyncio
import json
import warnings

import pytest
from conftest import served
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as FastMCPToolError
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError

from mcp_errors import install, to_raw_error, tool_errors, with_errors, with_server_errors
from mcp_errors.fastmcp import ErrorMiddleware

NOW = "2025-10-27T14:32:15Z"


def _json(result) -> dict:
    """The JSON block of a result (format json or both)."""
    texts = [c.text for c in result.content if c.text.startswith("{")]
    assert texts, result
    return json.loads(texts[-1])


def _fastmcp(mask_error_details: bool | None, logs: list) -> FastMCP:
    mcp = FastMCP("weather", mask_error_details=mask_error_details)
    mcp.add_middleware(
        ErrorMiddleware(
            profile="mcp-tool-error",
            format="json",
            now=NOW,
            logger=logs.append,
            tools={"forecast": {"profile": "tool-error-v1", "format": "both"}},
        )
    )

    @mcp.tool
    def crash(city: str) -> str:
        raise KeyError(f"secret-internal-{city}")

    @mcp.tool
    def forecast(city: str) -> str:
        raise FastMCPToolError(f"No city named {city}")

    return mcp


def _call_fastmcp(mcp: FastMCP, calls: list) -> list:
    async def run():
        async with FastMCPClient(mcp) as client:
            return [await client.call_tool(name, args, raise_on_error=False) for name, args in calls]

    return asyncio.run(run())


def test_fastmcp_middleware_covers_every_tool_with_per_tool_options():
    logs: list = []
    mcp = _fastmcp(True, logs)

    @mcp.tool  # registered after the middleware: covered too
    def late(n: int) -> str:
        raise TimeoutError("upstream took too long")

    crash, forecast, late_result = _call_fastmcp(
        mcp, [("crash", {"city": "x"}), ("forecast", {"city": "Atlantis"}), ("late", {"n": 1})]
    )
    # The server's own setting (mask_error_details=True) masks the unexpected error.
    assert crash.is_error
    body = _json(crash)
    assert body["code"] == "INTERNAL_ERROR" and "secret-internal" not in json.dumps(body)
    # FastMCP's ToolError is deliberate: shown, per-tool profile, no log_level in details.
    assert forecast.is_error
    v1 = _json(forecast)
    assert v1["kind"] == "toolError:v1" and v1["message"] == "No city named Atlantis"
    assert "log_level" not in json.dumps(v1)
    assert [c.type for c in forecast.content] == ["text", "text"]  # format both
    # A timeout, read through FastMCP's wrapper ("Error calling tool 'late': …").
    late_body = _json(late_result)
    assert late_body["code"] == "TIMEOUT" and late_body["retriable"] is True
    # One log record per failure, named after the tool called, never masked.
    assert [r["tool"] for r in logs] == ["crash", "forecast", "late"]
    assert "secret-internal-x" in json.dumps(logs[0])


def test_fastmcp_middleware_follows_mask_error_details_unless_told():
    logs: list = []
    (crash,) = _call_fastmcp(_fastmcp(False, logs), [("crash", {"city": "y"})])
    assert "secret-internal-y" in _json(crash)["message"]


def test_fastmcp_tool_error_is_read_as_expected_without_framework_attributes():
    raw = to_raw_error(FastMCPToolError("No city named Atlantis"))
    assert raw["expected"] is True and "log_level" not in raw
    try:
        try:
            raise ValueError("bad value")
        except ValueError as inner:
            raise FastMCPToolError("Error calling tool 'crash': bad value") from inner
    except FastMCPToolError as wrapper:
        assert to_raw_error(wrapper) == {"name": "ValueError", "message": "bad value"}


def _mcpserver(logs: list) -> MCPServer:
    server = MCPServer("weather")

    @server.tool()
    def crash(city: str) -> str:
        raise KeyError(f"secret-internal-{city}")

    with_server_errors(server, profile="rpc-envelope", format="json", now=NOW, logger=logs.append,
            tools={"forecast": {"profile": "text", "format": "markdown"}})

    @server.tool()  # registered after with_server_errors: covered too
    def forecast(city: str) -> str:
        raise SDKToolError(f"No city named {city}")

    return server


def test_with_server_errors_covers_an_mcpserver_with_its_real_client():
    logs: list = []

    async def run():
        async with Client(_mcpserver(logs)) as client:
            return [await client.call_tool(n, a) for n, a in [("crash", {"city": "z"}), ("forecast", {"city": "Atlantis"})]]

    crash, forecast = asyncio.run(run())
    # The SDK's UnexpectedToolError is looked through; masked by default.
    assert crash.is_error
    envelope = _json(crash)
    assert envelope["success"] is False and envelope["tool_name"] == "crash"
    assert "secret-internal" not in json.dumps(envelope)
    # The SDK's ToolError is deliberate: its message is shown.
    assert forecast.is_error
    text = forecast.content[0].text
    assert text.startswith("Error: No city named Atlantis"), text
    # Each log record in its tool's profile (rpc-envelope says tool_name), never masked.
    assert [r.get("tool", r.get("tool_name")) for r in logs] == ["crash", "forecast"]
    assert "secret-internal-z" in json.dumps(logs[0])


def test_the_deprecated_names_warn_and_behave_the_same():
    """`tool_errors` and `install` are the old names of `with_errors` and `with_server_errors`."""
    with pytest.warns(DeprecationWarning, match=r"tool_errors\(\) is deprecated: use with_errors\(\)"):

        @tool_errors("old", logger=False, profile="mcp-tool-error", format="json", now=NOW, error_id="e1")
        def old(q: str) -> str:
            raise ValueError("nope")

    @with_errors("old", logger=False, profile="mcp-tool-error", format="json", now=NOW, error_id="e1")
    def new(q: str) -> str:
        raise ValueError("nope")

    assert old("x").model_dump() == new("x").model_dump()
    assert old.__name__ == "old"

    old_logs: list = []
    new_logs: list = []
    with pytest.warns(DeprecationWarning, match=r"install\(\) is deprecated: use with_server_errors\(\)"):
        from_install = _mcpserver_with(install, old_logs)
    from_new = _mcpserver_with(with_server_errors, new_logs)

    async def run(server):
        async with Client(server) as client:
            return [await client.call_tool(n, a) for n, a in [("crash", {"city": "z"}), ("forecast", {"city": "Atlantis"})]]

    assert [r.model_dump() for r in asyncio.run(run(from_install))] == [r.model_dump() for r in asyncio.run(run(from_new))]
    assert old_logs == new_logs and len(new_logs) == 2

    # On a FastMCP server, install used to replace its call_tool (and break every call): it
    # adds the middleware now, as with_server_errors does.
    fast = FastMCP("weather")

    @fast.tool
    def crash(city: str) -> str:
        raise KeyError("x")

    with pytest.warns(DeprecationWarning):
        assert install(fast, logger=False, profile="mcp-tool-error", format="json") is fast
    (result,) = _call_fastmcp(fast, [("crash", {"city": "x"})])
    assert result.is_error and _json(result)["code"] == "INTERNAL_ERROR"


def _mcpserver_with(wrap, logs: list) -> MCPServer:
    server = MCPServer("weather")

    @server.tool()
    def crash(city: str) -> str:
        raise KeyError(f"secret-internal-{city}")

    @server.tool()
    def forecast(city: str) -> str:
        raise SDKToolError(f"No city named {city}")

    return wrap(server, profile="rpc-envelope", format="json", now=NOW, error_id="e2", logger=logs.append,
                tools={"forecast": {"profile": "text", "format": "markdown"}})


def test_with_server_errors_adds_the_middleware_to_a_fastmcp_server():
    logs: list = []
    mcp = FastMCP("weather", mask_error_details=True)

    @mcp.tool
    def crash(city: str) -> str:
        raise KeyError(f"secret-internal-{city}")

    assert with_server_errors(mcp, profile="mcp-tool-error", format="json", logger=logs.append) is mcp
    assert [type(m) for m in mcp.middleware if isinstance(m, ErrorMiddleware)] == [ErrorMiddleware]
    (crash,) = _call_fastmcp(mcp, [("crash", {"city": "x"})])
    assert crash.is_error and _json(crash)["code"] == "INTERNAL_ERROR"
    assert "secret-internal" not in json.dumps(_json(crash))
    assert [r["tool"] for r in logs] == ["crash"]


def test_one_name_for_the_tool_and_the_old_spelling_still_works():
    @with_errors(logger=False, profile="mcp-tool-error", format="json")
    def lookup(q: str) -> str:
        raise ValueError("nope")

    assert _json(lookup("x"))["code"] == "BAD_REQUEST"  # seed 001's name for INVALID_ARGUMENT
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @tool_errors(tool="legacy", logger=False)
        def legacy() -> str:
            raise ValueError("old")

    assert [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)] == [
        "tool_errors() is deprecated: use with_errors()",
        "tool_errors(tool=…) is deprecated: use tool_name=…",
    ]
    assert all(w.filename == __file__ for w in caught)
    assert legacy().is_error


@pytest.mark.parametrize("name", ["lookup"])
def test_the_decorator_names_the_tool_after_the_function(name):
    logs: list = []

    @with_errors(logger=logs.append)
    def lookup(q: str) -> str:
        raise ValueError("nope")

    lookup("x")
    assert logs[0]["tool"] == name



def test_fastmcp_middleware_over_streamable_http():
    logs: list = []
    with served(_fastmcp(True, logs).http_app()) as url:

        async def run():
            async with FastMCPClient(url) as client:
                return await client.call_tool("forecast", {"city": "Atlantis"}, raise_on_error=False)

        forecast = asyncio.run(run())
    assert forecast.is_error
    assert _json(forecast)["kind"] == "toolError:v1"
    assert [r["tool"] for r in logs] == ["forecast"]


def test_with_server_errors_over_streamable_http():
    logs: list = []
    with served(_mcpserver(logs).streamable_http_app()) as url:

        async def run():
            async with Client(url) as client:
                return await client.call_tool("crash", {"city": "q"})

        crash = asyncio.run(run())
    assert crash.is_error
    assert _json(crash)["tool_name"] == "crash"
    assert "secret-internal" not in json.dumps(_json(crash))


def test_fastmcp_public_exceptions_get_their_codes():
    from fastmcp import exceptions as fx

    from mcp_errors import ErrorCode, classify

    assert classify(fx.NotFoundError("Unknown tool: 'x'")).code is ErrorCode.NOT_FOUND
    assert classify(fx.AuthorizationError("Authorization failed for tool 'x': missing context")).code is ErrorCode.PERMISSION_DENIED
    assert classify(fx.DisabledError("Tool 'x' is disabled")).code is ErrorCode.FAILED_PRECONDITION
    assert classify(fx.ValidationError("bad return value")).code is ErrorCode.INVALID_ARGUMENT
    # log_level is FastMCP's bookkeeping, never a detail.
    assert "log_level" not in json.dumps(classify(fx.ValidationError("bad")).to_dict())
