import contextlib
import json
import socket
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
VECTORS = ROOT / "tests" / "vectors"


def cases(name: str) -> list[dict]:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))["cases"]


def raw(case: dict) -> str:
    if isinstance(case.get("raw"), str):
        return case["raw"]
    return json.dumps(case["input"], ensure_ascii=False, separators=(",", ":"))


def expected(case: dict) -> str:
    return json.dumps(case["expected"], ensure_ascii=False, separators=(",", ":"))


def render_kwargs(options: dict) -> dict:
    kw = {k: v for k, v in options.items() if k != "extra_fields"}
    if "extra_fields" in options:
        kw["extra_fields"] = json.loads(options["extra_fields"])
    kw.setdefault("now", None)
    return kw


@pytest.fixture
def root() -> Path:
    return ROOT


def inject_trap() -> None:
    """Make the next call of this thread's instance fail the way a trapping component does.
    The package ships no hook for it: the test replaces the instance's functions."""
    import wasmtime

    from mcp_errors._engine import ENGINE

    inst = ENGINE._instance()
    real = inst.fns

    def trap(*_args):
        inst.fns = real
        raise wasmtime.WasmtimeError("wasm trap: unreachable (injected by a test)")

    inst.fns = {name: trap for name in real}


@contextlib.contextmanager
def served(app):
    """An ASGI app on a free loopback port (uvicorn in a thread); yields its /mcp URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
