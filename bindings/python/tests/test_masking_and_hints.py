"""The core's render option `masked_message` and hint `input_validated`, wired into every
wrapper: real servers and their real clients."""

import asyncio

import pytest
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

from mcp_errors import McpErrorsError, with_errors, with_server_errors
from mcp_errors.fastmcp import ErrorMiddleware


class Reading(BaseModel):
    value: int


def _upstream_payload() -> Reading:
    """A tool validating an upstream service's payload: pydantic raises, about the tool's data."""
    return Reading.model_validate({"value": "not a number"})


def _fastmcp(how: str, logs: list, **options) -> FastMCP:
    mcp = FastMCP("weather")
    if how == "middleware":
        mcp.add_middleware(ErrorMiddleware(logger=logs.append, **options))
    else:
        with_server_errors(mcp, logger=logs.append, **options)

    @mcp.tool
    def reading(station: int) -> str:
        return str(_upstream_payload().value)

    @mcp.tool
    def crash(station: int) -> str:
        raise KeyError("secret-internal")

    return mcp


def _fastmcp_calls(mcp: FastMCP, calls) -> list:
    async def run():
        async with FastMCPClient(mcp) as client:
            return [await client.call_tool_mcp(n, a) for n, a in calls]

    return asyncio.run(run())


def _mcpserver(logs: list, decorated: bool, **options) -> MCPServer:
    server = MCPServer("weather")
    if decorated:

        @server.tool()
        @with_errors(logger=logs.append, **options)
        def reading(station: int) -> str:
            return str(_upstream_payload().value)

        @server.tool()
        @with_errors(logger=logs.append, hints={"input_validated": False}, **options)
        def told_otherwise(station: int) -> str:
            return str(_upstream_payload().value)

        @server.tool()
        @with_errors(logger=logs.append, **options)
        def crash(station: int) -> str:
            raise KeyError("secret-internal")

        return server
    with_server_errors(server, logger=logs.append, **options)

    @server.tool()
    def reading(station: int) -> str:
        return str(_upstream_payload().value)

    @server.tool()
    def crash(station: int) -> str:
        raise KeyError("secret-internal")

    return server


def _sdk_calls(server: MCPServer, calls) -> list:
    async def run():
        async with Client(server) as client:
            return [await client.call_tool(n, a) for n, a in calls]

    return asyncio.run(run())


@pytest.mark.parametrize("how", ["middleware", "with_server_errors"])
def test_fastmcp_a_validation_error_inside_the_tool_is_internal_bad_arguments_stay_the_callers(how):
    logs: list = []
    _fastmcp_calls(_fastmcp(how, logs), [("reading", {"station": 1}), ("reading", {"station": "north"})])
    inside, arguments = logs
    assert inside["code"] == "INTERNAL", inside
    assert "input_validated: raised inside the tool, not about the caller's input" in inside["evidence"]
    # FastMCP's own argument validation (its ValidationError): the caller's INVALID_ARGUMENT.
    assert arguments["code"] == "INVALID_ARGUMENT", arguments
    assert not any(e.startswith("input_validated") for e in arguments["evidence"])


def test_mcpserver_a_validation_error_inside_the_tool_is_internal_bad_arguments_stay_the_callers():
    logs: list = []
    _sdk_calls(_mcpserver(logs, decorated=False), [("reading", {"station": 1}), ("reading", {"station": "north"})])
    inside, arguments = logs
    assert inside["code"] == "INTERNAL", inside
    assert arguments["code"] == "INVALID_ARGUMENT", arguments  # the SDK's ToolError around pydantic's


def test_the_decorator_says_input_validated_unless_told_otherwise():
    logs: list = []
    server = _mcpserver(logs, decorated=True)
    _sdk_calls(server, [("reading", {"station": 1}), ("told_otherwise", {"station": 1})])
    by_default, told = logs
    assert by_default["code"] == "INTERNAL" and told["code"] == "INVALID_ARGUMENT"


SENTENCE = "The weather service failed"


@pytest.mark.parametrize("how", ["middleware", "with_server_errors"])
def test_fastmcp_masked_message(how):
    logs: list = []
    (crash,) = _fastmcp_calls(_fastmcp(how, logs, mask=True, masked_message=SENTENCE), [("crash", {"station": 1})])
    error_id = logs[0]["error_id"]
    assert crash.content[0].text.startswith(f"Error: {SENTENCE} (error id {error_id}).")
    assert "secret-internal" not in crash.model_dump_json()
    assert "secret-internal" in logs[0]["message"]  # the log record is never masked


@pytest.mark.parametrize("decorated", [False, True])
def test_mcpserver_masked_message(decorated):
    logs: list = []
    (crash,) = _sdk_calls(_mcpserver(logs, decorated, masked_message=SENTENCE), [("crash", {"station": 1})])
    error_id = logs[0]["error_id"]
    assert crash.content[0].text.startswith(f"Error: {SENTENCE} (error id {error_id}).")
    assert "secret-internal" not in crash.model_dump_json()


def test_a_bad_masked_message_is_refused_when_built():
    for build in (
        lambda: with_errors(masked_message=5),
        lambda: with_server_errors(MCPServer("s"), masked_message=["x"]),
        lambda: ErrorMiddleware(masked_message=False),
    ):
        with pytest.raises(McpErrorsError) as info:
            build()
        assert info.value.kind == "invalid_option" and "'masked_message'" in info.value.message


def test_classify_reads_the_clock_by_default_for_an_http_date_retry_after():
    """As `to_tool_result` does: an HTTP-date `Retry-After` becomes a delay; with `now=None` the
    evidence says why there is none."""
    import datetime as dt
    from email.utils import format_datetime

    from mcp_errors import classify

    when = format_datetime(dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=120), usegmt=True)
    exc = type("HTTPError", (Exception,), {})("Too Many Requests")
    exc.status = 429
    exc.headers = {"retry-after": when}
    with_clock = classify(exc)
    assert with_clock.retry_after_ms is not None and 100_000 <= with_clock.retry_after_ms <= 121_000
    without = classify(exc, now=None)
    assert without.retry_after_ms is None
    assert any("no `now`" in e for e in without.evidence)
