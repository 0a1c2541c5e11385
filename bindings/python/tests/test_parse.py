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
