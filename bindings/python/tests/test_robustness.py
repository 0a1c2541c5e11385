"""Thread safety, trap recovery, and an error path that never raises."""

import json
import os
import threading
from pathlib import Path

from mcp_errors import ErrorCode, McpErrorsError, classify_json, to_tool_result
import mcp_errors
from mcp_errors._engine import ENGINE, Engine

from conftest import cases, expected, inject_trap, raw


def test_concurrent_calls_from_many_threads():
    vectors = cases("classify.json")
    failures: list[str] = []

    def work(offset: int) -> None:
        for c in vectors[offset:] + vectors[:offset]:
            got = classify_json(raw(c), now=c["options"].get("now"), limits=c["options"].get("limits"), rules=c["options"].get("rules"))
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
    inject_trap()
    try:
        classify_json("{}")
        raise AssertionError("the injected trap should surface")
    except McpErrorsError as e:
        assert e.kind == "trap"
    assert json.loads(classify_json('{"status":404}'))["code"] == "NOT_FOUND"
    assert ENGINE.instantiations == before + 1


def test_to_tool_result_retries_a_trap():
    inject_trap()
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


def test_the_cached_lowering_agrees_with_wasmtime_py():
    """`_Fn` lowers the classify-options record with its types reflected once;
    wasmtime-py's own call re-reflects them. Same inputs, same results, on one
    instance (the result lifted by each side as it lifts it)."""
    from types import SimpleNamespace

    from wasmtime.component import Record

    inst = ENGINE._instance()
    fn = inst.fns["classify-json"]
    options = [SimpleNamespace(now=None, limits=None, rules=None), SimpleNamespace(now="2025-10-27T14:32:15Z", limits=None, rules=None), SimpleNamespace(now=None, limits=None, rules='[{"id":"r","when":{"status":500},"code":"UNAVAILABLE"}]')]
    for values in [(None,) * 5, (20, 16, 2, 3, 4096), (7, None, None, None, None)]:
        limits = Record()
        for name, v in zip(("max-message-chars", "max-string-chars", "max-depth", "max-members", "max-rendered-bytes"), values):
            setattr(limits, name, v)
        options.append(SimpleNamespace(now="2025-10-27T14:32:15Z", limits=limits, rules=None))
    raw_error = json.dumps({"message": "x" * 40, "status": 503, "headers": {"retry-after": "Mon, 27 Oct 2025 14:32:20 GMT"}, "details": {"a": {"b": {"c": [1, 2, 3, 4]}}}})
    results = set()
    for opts in options:
        ours = fn(inst.store, raw_error, opts)
        theirs = fn.func(inst.store, raw_error, opts)
        fn.func.post_return(inst.store)
        assert ours == theirs, opts
        results.add(repr(ours))
    # The options reached the component: the time (a Retry-After date needs
    # it), the limits, and a limit out of range (the core's typed error,
    # lifted alike) each change the result; all-`None` limits are the defaults.
    assert len(results) == 4


def test_a_value_that_cannot_be_lowered_fails_cleanly():
    """A wrong type halfway through the record: a TypeError, nothing half-built left
    behind, and the next call works."""
    from types import SimpleNamespace

    from wasmtime.component import Record

    inst = ENGINE._instance()
    limits = Record()
    for name, v in zip(("max-message-chars", "max-string-chars", "max-depth", "max-members", "max-rendered-bytes"), (1, "two", 3, 4, 5)):
        setattr(limits, name, v)
    try:
        inst.fns["classify-json"](inst.store, "{}", SimpleNamespace(now=None, limits=limits, rules=None))
        raise AssertionError("a string is not a u32")
    except TypeError:
        pass
    assert json.loads(classify_json('{"status":404}'))["code"] == "NOT_FOUND"


def test_calls_leak_no_native_memory():
    """wasmtime-py 50's own lifting of a `result` leaks its boxed payload (48 bytes a
    call, 96 on errors); the wrapper lifts results itself. glibc's allocator
    counters see the C library's allocations, which RSS would blur."""
    import ctypes
    import ctypes.util

    import pytest

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")
        ]

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "mallinfo2"):
        pytest.skip("needs glibc's mallinfo2")
    libc.mallinfo2.restype = MallInfo2
    raw_error = json.dumps({"message": "connect ECONNREFUSED 127.0.0.1:8080", "code": "ECONNREFUSED"})

    def failing() -> None:
        try:
            classify_json("{not json")
        except McpErrorsError:
            pass

    calls = {
        "classify-json": lambda: classify_json(raw_error),
        "classify-render-json": lambda: mcp_errors.render_json(raw_error, now=None),
        "render-json": lambda: mcp_errors.render(json.loads(classify_json(raw_error)), now=None),
        "an error result": failing,
    }
    for name, call in calls.items():
        for _ in range(1000):
            call()
        before = libc.mallinfo2().uordblks
        for _ in range(10_000):
            call()
        grown = (libc.mallinfo2().uordblks - before) / 10_000
        assert grown < 4, f"{name}: {grown} bytes per call"


def test_with_errors_record_and_result_share_one_time_and_error_id():
    """The log record and the result of one failure belong together: the same error id,
    code and time."""

    class Upstream(Exception):
        status = 429
        headers = {"retry-after": "7"}

    records: list[dict] = []

    @mcp_errors.with_errors("weather", logger=records.append, profile="canonical")
    def tool():
        raise Upstream("upstream said slow down")

    result = tool()
    assert len(records) == 1
    error = result.structured_content
    assert error["code"] == "RATE_LIMITED"
    assert records[0]["error_id"] == error["error_id"]
    assert records[0]["timestamp"] and records[0]["timestamp"] == error["timestamp"]
