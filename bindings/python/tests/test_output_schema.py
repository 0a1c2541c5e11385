"""Output schemas never broken: the server-wide forms look up the called tool's declared output
schema, so an error result carries `structuredContent` only when that schema accepts it (the
JSON then goes in a content block). Real servers, called through each framework's real client."""

import asyncio
import json
import warnings
from typing import TypedDict

import jsonschema
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

from mcp_errors import ErrorCode, parse_result, render_json, with_errors, with_server_errors
from mcp_errors.fastmcp import ErrorMiddleware


class Forecast(BaseModel):
    city: str
    temp_c: float


class Reading(TypedDict):
    station: str
    value: int


def _check(result, schema) -> dict:
    """A valid error result; its structuredContent, when present, satisfies `schema`; the
    error's JSON is readable (structuredContent, else a JSON text block)."""
    assert result.is_error is True
    texts = [c.text for c in result.content if c.type == "text"]
    assert texts and texts[0].startswith("Error: ")
    if result.structured_content is not None:
        if schema is not None:
            jsonschema.validate(result.structured_content, schema)
        return result.structured_content
    blocks = [json.loads(t) for t in texts if t.lstrip().startswith("{")]
    assert blocks, texts
    return blocks[-1]


def _fastmcp_server(how: str) -> FastMCP:
    mcp = FastMCP("weather")
    if how == "middleware":
        mcp.add_middleware(ErrorMiddleware(logger=False))
    else:
        with_server_errors(mcp, logger=False)

    @mcp.tool
    def forecast(city: str) -> Forecast:
        raise TimeoutError("the forecast service took too long")

    @mcp.tool(output_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    def count(city: str) -> dict:
        raise KeyError("internal")

    @mcp.tool
    def word(city: str) -> str:  # FastMCP wraps it: {"result": …}, required
        raise KeyError("internal")

    @mcp.tool(output_schema={"type": "object"})
    def anything(city: str) -> dict:  # accepts the error object
        raise KeyError("internal")

    @mcp.tool
    def plain(city: str):  # no output schema
        raise KeyError("internal")

    return mcp


@pytest.mark.parametrize("how", ["middleware", "with_server_errors"])
def test_fastmcp_error_results_respect_each_tools_output_schema(how):
    mcp = _fastmcp_server(how)

    async def run():
        schemas = {t.name: t.output_schema for t in await mcp.list_tools()}
        async with FastMCPClient(mcp) as client:
            names = ["forecast", "count", "word", "anything", "plain"]
            # Neither client API raises a validation error for these results.
            raw = {n: await client.call_tool_mcp(n, {"city": "Paris"}) for n in names}
            parsed = {n: await client.call_tool(n, {"city": "Paris"}, raise_on_error=False) for n in names}
            return schemas, raw, parsed

    schemas, raw, parsed = asyncio.run(run())
    for name in ("forecast", "count", "word"):
        assert schemas[name] is not None
        assert raw[name].structured_content is None, name
        assert parsed[name].structured_content is None and parsed[name].is_error
        body = _check(raw[name], schemas[name])
        assert body["tool"] == name
    assert _check(raw["forecast"], schemas["forecast"])["code"] == "TIMEOUT"
    # A schema that accepts the error object, and no schema: structuredContent as before.
    assert _check(raw["anything"], schemas["anything"])["code"] == "INTERNAL"
    assert raw["anything"].structured_content["code"] == "INTERNAL"
    assert schemas["plain"] is None and raw["plain"].structured_content["code"] == "INTERNAL"
    # The client side reads the error back either way.
    assert parse_result(raw["forecast"]).code is ErrorCode.TIMEOUT


def _mcpserver() -> MCPServer:
    server = MCPServer("weather")

    @server.tool()
    def forecast(city: str) -> Forecast:
        raise TimeoutError("the forecast service took too long")

    @server.tool()
    def reading(station: str) -> Reading:
        raise KeyError("internal")

    @server.tool()
    def word(city: str) -> str:  # the SDK wraps it: {"result": …}, required
        raise KeyError("internal")

    @server.tool()
    def plain(city: str):  # no output schema
        raise KeyError("internal")

    return server


@pytest.mark.parametrize("how", ["with_server_errors", "install"])
def test_mcpserver_error_results_respect_each_tools_output_schema(how):
    server = _mcpserver()
    if how == "install":
        with pytest.warns(DeprecationWarning):
            from mcp_errors import install

            install(server, logger=False)
    else:
        with_server_errors(server, logger=False)

    @server.tool()  # registered after: looked up when it fails
    def late(city: str) -> Forecast:
        raise KeyError("internal")

    async def run():
        async with Client(server) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            calls = [("forecast", {"city": "x"}), ("reading", {"station": "x"}), ("word", {"city": "x"}),
                     ("plain", {"city": "x"}), ("late", {"city": "x"})]
            return schemas, {n: await client.call_tool(n, a) for n, a in calls}

    schemas, results = asyncio.run(run())
    for name in ("forecast", "reading", "word", "late"):
        assert schemas[name] is not None
        assert results[name].structured_content is None, name
        assert _check(results[name], schemas[name])["tool"] == name
    assert _check(results["forecast"], schemas["forecast"])["code"] == "TIMEOUT"
    assert schemas["plain"] is None and results["plain"].structured_content["code"] == "INTERNAL"


def test_the_declared_schema_wins_over_an_output_schema_option():
    """A server-wide or per-tool `output_schema` never replaces what the tool declares."""
    server = MCPServer("weather")

    @server.tool()
    def forecast(city: str) -> Forecast:
        raise KeyError("internal")

    with_server_errors(server, logger=False, output_schema={"type": "object"},
                       tools={"forecast": {"output_schema": {"type": "object"}}})

    async def run():
        async with Client(server) as client:
            return await client.call_tool("forecast", {"city": "x"})

    assert asyncio.run(run()).structured_content is None


def test_the_decorator_keeps_its_explicit_output_schema_option():
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}

    @with_errors("forecast", logger=False, output_schema=schema)
    def forecast(city: str) -> dict:
        raise KeyError("internal")

    @with_errors("other", logger=False)
    def other(city: str) -> dict:
        raise KeyError("internal")

    assert forecast("x").structured_content is None
    assert other("x").structured_content["code"] == "INTERNAL"


def test_a_schema_that_cannot_be_read_accepts_nothing():
    from mcp_errors import _schema_option

    for unreadable in ("{\"type\":\"object\"}", ["type", "object"], {"type": object()}, {"const": float("nan")}):
        schema = _schema_option(unreadable)
        assert schema == {"not": {}}
        assert "structuredContent" not in json.loads(render_json('{"message":"x"}', output_schema=schema))
    assert _schema_option(None) is None
    assert _schema_option({"type": "object"}) == {"type": "object"}
