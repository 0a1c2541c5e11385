"""A real `mcp` SDK client calls a real MCPServer whose tools fail; the client
receives normalized results."""

import asyncio
import json
import socket

import httpx
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer

from mcp_errors import ToolError, with_errors

NOW = "2025-10-27T14:32:15Z"


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def build_server(logs: list) -> MCPServer:
    server = MCPServer("failing-tools")
    port = _closed_port()

    @server.tool()
    @with_errors("fetch_page", logger=logs.append, now=NOW, error_id="err_0001")
    def fetch_page(url: str) -> str:
        socket.create_connection(("127.0.0.1", port), timeout=2)
        return "unreachable"

    @server.tool()
    @with_errors("search_patterns", profile="tool-error-v1", format="both", mask=False, logger=False)
    async def search_patterns(q: str) -> str:
        def handler(request):
            return httpx.Response(401, json={"message": "Bad credentials"})

        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            response = await client.get("https://patterns.example.com/search")
            response.raise_for_status()
        return "unreachable"

    @server.tool()
    @with_errors("gapfill_model", profile="rpc-envelope", format="json", now=NOW, error_id="err_0002", logger=False)
    async def gapfill_model(model_id: str) -> str:
        raise ToolError(
            "Gapfilling could not find solution to enable growth in specified media",
            app_type="infeasibility_error",
            app_code="GAPFILL_INFEASIBLE",
            details={"model_id": model_id},
        )

    @server.tool()
    @with_errors("parse_date", profile="text", logger=False)
    def parse_date(text: str) -> str:
        import datetime

        return datetime.date.fromisoformat(text).isoformat()

    return server


def test_a_real_client_sees_normalized_errors():
    logs: list = []

    async def main():
        async with Client(build_server(logs)) as client:
            return {
                name: await client.call_tool(name, args)
                for name, args in [
                    ("fetch_page", {"url": "x"}),
                    ("search_patterns", {"q": "retry"}),
                    ("gapfill_model", {"model_id": "model_xyz"}),
                    ("parse_date", {"text": "yesterday"}),
                ]
            }

    results = asyncio.run(main())

    network = results["fetch_page"]
    assert network.is_error is True
    assert network.structured_content["code"] == "NETWORK_ERROR"
    assert network.structured_content["retryable"] is True
    assert network.structured_content["error_id"] == "err_0001"
    assert "127.0.0.1" not in network.model_dump_json(), "the unexpected error is masked"
    assert logs and logs[0]["error_id"] == "err_0001" and "Connection refused" in logs[0]["message"]

    auth = results["search_patterns"]
    assert auth.is_error is True
    assert auth.structured_content["kind"] == "toolError:v1"
    assert auth.structured_content["code"] == "AUTHENTICATION_ERROR"
    assert auth.structured_content["details"]["statusCode"] == 401
    assert json.loads(auth.content[1].text) == auth.structured_content

    envelope = json.loads(results["gapfill_model"].content[0].text)
    assert envelope == {
        "success": False,
        "error_type": "infeasibility_error",
        "jsonrpc_error_code": -32002,
        "error_code": "GAPFILL_INFEASIBLE",
        "message": "Gapfilling could not find solution to enable growth in specified media",
        "details": {"model_id": "model_xyz", "error_id": "err_0002"},
        "tool_name": "gapfill_model",
        "timestamp": NOW,
    }

    parse = results["parse_date"]
    assert parse.is_error is True
    # Masked: what kind of failure, with the error id (the core's sentence).
    assert parse.content[0].text.startswith("Error: The tool's input was invalid (error id ")
    assert "\nCode: INVALID_ARGUMENT\n" in parse.content[0].text
    assert parse.content[0].text.endswith("Retryable: false")
