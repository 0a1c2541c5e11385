"""Every wrapper checks its options when it is built: a bad one raises
`McpErrorsError("invalid_option", …)` naming it at once, instead of each later failure
rendering "mcp-errors could not normalize the error"."""

import asyncio

import pytest
from fastmcp import FastMCP
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer

from mcp_errors import McpErrorsError, with_errors, with_server_errors
from mcp_errors.fastmcp import ErrorMiddleware

BAD = [
    # (options, words the message must contain)
    ({"profle": "text"}, ["unknown option 'profle'", "expected one of:", "profile", "limits"]),
    ({"profile": "tool-error-v2"}, ["'profile'", "unknown profile", "tool-error-v2"]),
    ({"format": "yaml"}, ["'format'", "unknown format"]),
    ({"spec": "2024-01-01"}, ["'spec'", "unknown spec revision"]),
    ({"target": "stderr"}, ["'target'", "unknown target"]),
    ({"limits": {"max_message_chars": -1}}, ["'limits'", "max_message_chars"]),
    ({"limits": {"max_mesage_chars": 10}}, ["'limits'", "unknown limit"]),
    ({"rules": [{"id": 1}]}, ["'rules'", "rule #0"]),
    ({"now": "yesterday"}, ["'now'", "RFC 3339"]),
    ({"mask": "yes"}, ["'mask'", "boolean"]),
    ({"extra_fields": [1]}, ["'extra_fields'", "JSON object"]),
    ({"extra_fields": {"when": object()}}, ["'extra_fields'", "not JSON serializable"]),
    ({"output_schema": "{"}, ["'output_schema'"]),
    ({"profile": "text", "formt": "json"}, ["unknown option 'formt'"]),
]


def _message(build) -> str:
    with pytest.raises(McpErrorsError) as info:
        build()
    assert info.value.kind == "invalid_option"
    return info.value.message


@pytest.mark.parametrize("options,words", BAD, ids=[repr(o) for o, _ in BAD])
def test_every_wrapper_refuses_a_bad_option_when_built(options, words):
    builds = {
        "with_errors": lambda: with_errors("t", **options),
        "with_server_errors(MCPServer)": lambda: with_server_errors(MCPServer("s"), **options),
        "with_server_errors(FastMCP)": lambda: with_server_errors(FastMCP("s"), **options),
        "ErrorMiddleware": lambda: ErrorMiddleware(**options),
    }
    for name, build in builds.items():
        message = _message(build)
        for word in words:
            assert word in message, (name, message)


def test_the_deprecated_names_check_their_options_too():
    from mcp_errors import install, tool_errors

    with pytest.warns(DeprecationWarning):
        assert "unknown option 'profle'" in _message(lambda: tool_errors("t", profle="text"))
    with pytest.warns(DeprecationWarning):
        assert "'format'" in _message(lambda: install(MCPServer("s"), format="yaml"))


def test_per_tool_options_hints_and_logger_are_checked_too():
    for build in (
        lambda: with_server_errors(MCPServer("s"), tools={"forecast": {"profle": "text"}}),
        lambda: ErrorMiddleware(tools={"forecast": {"profle": "text"}}),
    ):
        message = _message(build)
        assert message.startswith("tools['forecast']: unknown option 'profle'"), message
    for build in (
        lambda: with_server_errors(MCPServer("s"), profile="text", tools={"forecast": {"format": "yaml"}}),
        lambda: ErrorMiddleware(tools={"forecast": {"format": "yaml"}}),
    ):
        assert _message(build).startswith("tools['forecast']: option 'format': unknown format"), _message(build)
    assert "the options must be a mapping" in _message(lambda: ErrorMiddleware(tools={"forecast": "text"}))
    assert "unknown hint" in _message(lambda: with_errors(hints={"retriable": True}))
    assert "unknown hint" in _message(lambda: ErrorMiddleware(hints={"retriable": True}))
    assert "logger" in _message(lambda: with_server_errors(MCPServer("s"), logger="mcp_errors"))


def test_good_options_build_and_a_failure_renders_with_them():
    """A valid set of options is accepted, and a failing tool is rendered with them (not the
    fallback result a bad option used to give)."""
    server = MCPServer("s")

    @server.tool()
    def crash() -> None:
        raise KeyError("x")

    with_server_errors(
        server,
        profile="tool-error-v1",
        format="json",
        spec="2025-06-18",
        limits={"max_message_chars": 200},
        logger=False,
        tools={"crash": {"format": "both"}},
    )

    async def run():
        async with Client(server) as client:
            return await client.call_tool("crash", {})

    result = asyncio.run(run())
    assert result.is_error
    assert "could not normalize" not in result.content[0].text
    assert '"kind":"toolError:v1"' in result.content[-1].text.replace(" ", "")


def test_wrappers_without_options_do_not_load_the_component_before_a_failure():
    """Nothing to check, nothing loaded: a server's import stays as cheap as before."""
    import subprocess
    import sys

    code = (
        "import mcp_errors\n"
        "from mcp_errors._engine import ENGINE\n"
        "from mcp.server.mcpserver import MCPServer\n"
        "mcp_errors.with_server_errors(MCPServer('s'), logger=False)\n"
        "mcp_errors.with_errors(logger=False)(lambda: None)\n"
        "assert ENGINE._compiled is None\n"
        "mcp_errors.with_errors(profile='text')\n"
        "assert ENGINE._compiled is not None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
