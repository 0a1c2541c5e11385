"""The proxy's relay on the recorded exchanges of tests/vectors/proxy.json, through the
component's `proxy` interface in Python: byte for byte what the Rust core forwards
(tests/proxy_vectors.rs), which `python -m mcp_errors proxy` and the native binary move."""

import json
from pathlib import Path

from wasmtime import component as wc

from mcp_errors._engine import ENGINE

CASES = json.loads((Path(__file__).parents[3] / "tests" / "vectors" / "proxy.json").read_text(encoding="utf-8"))["cases"]


def _call(name, *args):
    return ENGINE.call_cli(f"proxy-{name}", *args)


def _run(case: dict) -> dict:
    plan = _call("start", case["args"])
    tag, val = (plan.tag, plan.payload) if isinstance(plan, wc.Variant) else (("run" if hasattr(plan, "relay") else "finish"), plan)
    if tag == "finish":
        return {"finish": {"stdout": val.stdout, "stderr": val.stderr, "status": val.status}}
    events = []
    for e in case["events"]:
        if e["from"] == "timer":
            # A `retry`'s wait is over: what the relay sends the server again.
            events.append({"line": _call("resend", val.relay, e["id"])})
        elif e["from"] == "client":
            events.append({"line": _call("from-client", val.relay, e["line"])})
        else:
            f = _call("from-server", val.relay, e["line"], e.get("now"), e.get("error_id"))
            retry = None if f.retry is None else {"id": f.retry.id, "delay_ms": getattr(f.retry, "delay-ms")}
            events.append({"line": f.line, "log": f.log, "warning": f.warning, "retry": retry})
    gone = _call("server-gone", val.relay) if case.get("server_gone") is True else None
    _call("close", val.relay)
    return {"log": val.log, "command": list(val.command), "events": events, "gone": gone}


def test_the_relay_in_python_forwards_what_the_rust_core_forwards():
    assert len(CASES) >= 5
    for case in CASES:
        assert _run(case) == case["expected"], case["name"]


def test_a_handle_that_is_not_open_passes_every_line_unchanged():
    line = '{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}'
    assert _call("from-client", 999, line) == line
    assert _call("from-server", 0, line, None, None).line == line
    assert _call("resend", 3, "1") is None
    assert _call("server-gone", 12345) == []
