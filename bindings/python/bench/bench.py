"""Python benchmark: classify + render through the component under wasmtime-py,
cold start (with and without the compile cache), and memory over 1 000 000
calls. Run: target/py-venv/bin/python bindings/python/bench/bench.py [calls]"""

import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import mcp_errors
from mcp_errors import parse_result, render_json, to_raw_error, to_tool_result

err = TypeError("fetch failed")
cause = ConnectionRefusedError(111, "Connection refused")
err.__cause__ = cause
RAW = json.dumps(to_raw_error(err))


def per_call(f, n=5_000, runs=7):
    for _ in range(n // 5):
        f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f()
        times.append((time.perf_counter_ns() - t0) / n)
    return statistics.median(times)


def report(name, ns):
    print(f"{name:<58} {ns / 1000:8.2f} µs/call {1e9 / ns:12,.0f} calls/s")


def cold(cached):
    """Median of 7 fresh processes; without `cached`, each gets an empty compile cache."""
    code = (
        "import time; t0 = time.perf_counter(); import mcp_errors; "
        "mcp_errors.render_json('{\"status\":429}', now=None); print((time.perf_counter() - t0) * 1000)"
    )
    times = []
    for _ in range(7):
        with tempfile.TemporaryDirectory() as empty:
            env = dict(os.environ) if cached else {**os.environ, "MCP_ERRORS_CACHE": empty}
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
            times.append(float(out.stdout))
    return statistics.median(times)


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    print(f"python {sys.version.split()[0]}, wasmtime-py {__import__('importlib.metadata').metadata.version('wasmtime')}")
    # A pip-installed package ships compiled bytecode; the editable install of
    # `cargo xtask test` (and PYTHONDONTWRITEBYTECODE, set on the build machine)
    # would otherwise compile the package's sources in every process.
    import compileall

    compileall.compile_dir(os.path.dirname(mcp_errors.__file__), quiet=1)
    print(f"cold start, no compile cache (import + compile + first call): {cold(cached=False):.1f} ms")
    render_json("{}", now=None)  # fills the default cache
    print(f"cold start, cached component (import + deserialize + first call): {cold(cached=True):.1f} ms")
    report("render_json(raw, tool-error-v1) typical", per_call(lambda: render_json(RAW, profile="tool-error-v1", now=None)))
    own = json.loads(render_json(RAW, profile="canonical", now="2025-10-27T14:32:15Z"))
    foreign = {"content": [{"type": "text", "text": "search code: GitHub API rate limit exceeded. Retry after 30m0s."}], "isError": True}
    success = {"content": [{"type": "text", "text": "3 results"}]}
    report("parse_result(result) a rendered canonical error", per_call(lambda: parse_result(own, now=None)))
    report("parse_result(result) another server's text error", per_call(lambda: parse_result(foreign, now=None)))
    report("parse_result(result) a successful result", per_call(lambda: parse_result(success, now=None)))
    report("to_tool_result(exc) typical (conversion + SDK model)", per_call(lambda: to_tool_result(err, profile="tool-error-v1", now=None, mask=False)))
    report("to_tool_result(exc, as_dict=True) typical", per_call(lambda: to_tool_result(err, profile="tool-error-v1", now=None, mask=False, as_dict=True)))
    report("classify(exc) typical", per_call(lambda: mcp_errors.classify(err)))
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    for _ in range(calls):
        render_json(RAW, profile="tool-error-v1", now=None)
    gc.collect()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"memory over {calls:,} calls ({time.perf_counter() - t0:.0f} s): max RSS {before / 1024:.1f} → {after / 1024:.1f} MB")


if __name__ == "__main__":
    main()
