"""Thread safety, trap recovery, and an error path that never raises."""

import json
import os
import threading
from pathlib import Path

from mcp_errors import ErrorCode, McpErrorsError, classify_json, to_tool_result
import mcp_errors
from mcp_errors._engine import ENGINE, Engine

from conftest import cases, expected, raw


def test_concurrent_calls_from_many_threads():
    vectors = cases("classify.json")
    failures: list[str] = []

    def work(offset: int) -> None:
        for c in vectors[offset:] + vectors[:offset]:
            got = classify_json(raw(c), now=c["options"].get("now"), limits=c["options"].get("limits"))
            if got != expected(c):
                failures.append(c["name"])

    threads = [threading.Thread(target=work, args=(i * 7,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_a_trap_drops_the_instance_and_the_next_call_works():
    classify_json("{}")
    before = ENGINE.instantiations
    ENGINE.inject_trap_for_tests()
    try:
        classify_json("{}")
        raise AssertionError("the injected trap should surface")
    except McpErrorsError as e:
        assert e.kind == "trap"
    assert json.loads(classify_json('{"status":404}'))["code"] == "NOT_FOUND"
    assert ENGINE.instantiations == before + 1


def test_to_tool_result_retries_a_trap():
    ENGINE.inject_trap_for_tests()
    r = to_tool_result(ConnectionRefusedError(111, "Connection refused"), as_dict=True, now=None)
    assert r["isError"] is True
    assert r["structuredContent"]["code"] == ErrorCode.NETWORK_ERROR.value


def test_to_tool_result_never_raises():
    r = to_tool_result(ValueError("x"), as_dict=True, now="not a time")
    assert r["isError"] is True and list(r) == ["content", "isError"]
    assert "could not normalize the error" in r["content"][0]["text"]
    r = to_tool_result(ValueError("x"), as_dict=True, spec="2026-07-28", profile="nope")
    assert r["resultType"] == "complete"


def test_a_really_trapping_component(monkeypatch):
    """The test-only trapping build: the error path still answers, and recovers."""
    from conftest import ROOT

    path = Path(os.environ.get("MCP_ERRORS_TRAP_WASM", ROOT / "target" / "mcp-errors-trap.wasm"))
    assert path.exists(), f"{path} is missing: run `cargo xtask test`"
    engine = Engine(path)
    monkeypatch.setattr(mcp_errors, "ENGINE", engine)
    r = to_tool_result("mcp-errors: trap now", as_dict=True, now=None)
    assert r["isError"] is True
    assert "the mcp-errors component trapped" in r["content"][0]["text"]
    assert engine.instantiations == 2, "the trap and the retry each cost an instance"
    ok = to_tool_result(FileNotFoundError(2, "No such file or directory"), as_dict=True, now=None)
    assert ok["structuredContent"]["code"] == "NOT_FOUND"
