"""`python -m mcp_errors proxy [options] -- COMMAND [ARGS…]`: starts the server, moves lines
both ways through the core's relay (the component's `proxy` interface), relays stderr, appends
the log, and exits with the server's status. Every decision (the arguments, the usage text, what
each line becomes) is the relay's, so this behaves as the native `mcp-errors proxy` and `npx
mcp-errors proxy` do.

The relay lives in one thread's component instance, so every call into it is made here, on the
calling thread: two reader threads only hand it the lines they read."""

from __future__ import annotations

import os
import queue
import secrets
import signal
import subprocess
import sys
import threading
from typing import Any

from ._engine import ENGINE, McpErrorsError
from ._proxy_http import HTTP_USAGE, _now, _plan, http_flags, run_http

# How long a server has to exit after its input closes, and again after SIGTERM (together
# under the 2 s an MCP client gives the proxy itself).
GRACE = 1.0
TERM_GRACE = 0.5


def _call(name: str, *args: Any) -> Any:
    return ENGINE.call_cli(f"proxy-{name}", *args)


def _read(fd: int, who: str, events: queue.Queue[tuple[str, bytes | None]]) -> None:
    """Hand each line of file descriptor `fd` (without its `\\n`) to the relay's thread; None at
    the end. Read with `os.read`, not a buffered file: a thread blocked in a buffered read holds
    its lock, and Python aborts at exit when one does."""
    pending: list[bytes] = []
    try:
        while chunk := os.read(fd, 1 << 16):
            start = 0
            while (nl := chunk.find(b"\n", start)) != -1:
                pending.append(chunk[start:nl])
                events.put((who, b"".join(pending)))
                pending = []
                start = nl + 1
            if start < len(chunk):
                pending.append(chunk[start:])
    except OSError:
        pass
    if pending:
        events.put((who, b"".join(pending)))
    events.put((who, None))


def _stop(server: subprocess.Popen[bytes]) -> None:
    """A server whose client is gone: wait for it, then SIGTERM, then SIGKILL."""
    try:
        server.wait(GRACE)
        return
    except subprocess.TimeoutExpired:
        pass
    sys.stderr.write("mcp-errors proxy: the server did not exit when its input closed: stopping it\n")
    sys.stderr.flush()
    server.terminate()
    try:
        server.wait(TERM_GRACE)
    except subprocess.TimeoutExpired:
        server.kill()


def run(all_args: list[str]) -> int:
    # Streamable HTTP (`--listen`, `--upstream`): this host's own transport.
    args, listen, upstream = http_flags(all_args)
    if listen is not None or upstream is not None:
        if listen is None or upstream is None or "--" in args:
            sys.stderr.write(
                "mcp-errors proxy: --listen HOST:PORT and --upstream URL go together, in place of -- COMMAND\n"
            )
            return 2
        if "--retry" in args:
            # Calling again means sending a request again on an HTTP exchange the client waits
            # on; this host does it for a server on stdio only.
            sys.stderr.write("mcp-errors proxy: --retry works with a server on stdio (-- COMMAND), not with --listen\n")
            return 2
        return run_http(args, listen, upstream)
    try:
        tag, plan = _plan(_call("start", args))
    except McpErrorsError as e:
        sys.stderr.write(f"mcp-errors proxy: {e.message}\n")
        return 1
    if tag == "finish":
        sys.stdout.write(plan.stdout)
        # This host's own transport, after the core's usage.
        if plan.status == 0 and plan.stdout:
            sys.stdout.write(HTTP_USAGE)
        sys.stdout.flush()
        sys.stderr.write(plan.stderr)
        return int(plan.status)
    relay: int = plan.relay
    command = list(plan.command)
    log = None
    if plan.log is not None:
        try:
            log = open(plan.log, "ab")  # noqa: SIM115 (open for the proxy's life)
        except OSError as e:
            sys.stderr.write(f"mcp-errors proxy: --log {plan.log}: {e}\n")
            return 2

    def through(name: str, unchanged: Any, *call_args: Any) -> Any:
        """A call into the relay; if the component fails (a trap drops its instance and the
        relay with it), the line passes unchanged and a fresh relay takes over."""
        nonlocal relay
        try:
            return _call(name, relay, *call_args)
        except McpErrorsError as e:
            sys.stderr.write(f"mcp-errors proxy: {e.message}; the line passed unchanged\n")
            try:
                again_tag, again = _plan(_call("start", args))
                if again_tag == "run":
                    relay = again.relay
            except McpErrorsError:
                pass
            return unchanged

    try:
        server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as e:
        sys.stderr.write(f"mcp-errors proxy: starting {command[0]}: {e}\n")
        return 127
    assert server.stdin is not None and server.stdout is not None

    # Stopped from outside: stop the server too; its end is read below, as any exit.
    def stop_server(_signum: int, _frame: Any) -> None:
        server.terminate()

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            signal.signal(sig, stop_server)
        except ValueError:  # not the main thread: the default stands
            pass
    events: queue.Queue[tuple[str, bytes | None]] = queue.Queue()
    for fd, who in ((sys.stdin.fileno(), "client"), (server.stdout.fileno(), "server")):
        threading.Thread(target=_read, args=(fd, who, events), daemon=True).start()
    out = sys.stdout.buffer
    while True:
        who, line = events.get()
        if who == "retry":
            # `--retry`: a wait is over; the relay gives the call to send again, or nothing
            # (the client cancelled it, the server is gone).
            again = through("resend", None, (line or b"").decode("utf-8"))
            if again is not None:
                try:
                    server.stdin.write(again.encode("utf-8") + b"\n")
                    server.stdin.flush()
                except (OSError, ValueError):
                    pass  # the server went away: its end is read below
            continue
        if who == "client":
            if line is None:
                # The client is done: close the server's input, and stop a server that stays.
                try:
                    server.stdin.close()
                except OSError:
                    pass
                threading.Thread(target=_stop, args=(server,), daemon=True).start()
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                forward = line
            else:
                forward = through("from-client", text, text).encode("utf-8")
            try:
                server.stdin.write(forward + b"\n")
                server.stdin.flush()
            except (OSError, ValueError):
                pass  # the server went away: its end is read below
            continue
        if line is None:
            break
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            out.write(line + b"\n")
            out.flush()
            continue
        f = through("from-server", None, text, _now(), secrets.token_hex(4))
        if f is None:
            out.write(line + b"\n")
        else:
            if f.warning is not None:
                sys.stderr.write(f"mcp-errors proxy: {f.warning}\n")
            if f.log is not None and log is not None:
                log.write(f.log.encode("utf-8") + b"\n")
                log.flush()
            if f.line is not None:
                out.write(f.line.encode("utf-8") + b"\n")
            if f.retry is not None:
                # wasmtime-py keeps the WIT field name `delay-ms`.
                delay = getattr(f.retry, "delay-ms") / 1000
                timer = threading.Timer(delay, events.put, args=(("retry", f.retry.id.encode("utf-8")),))
                timer.daemon = True
                timer.start()
        out.flush()
    # The server is gone: every call in flight gets an answer.
    for gone in through("server-gone", []):
        out.write(gone.encode("utf-8") + b"\n")
    out.flush()
    through("close", None)
    if log is not None:
        log.close()
    code = server.wait()
    return code if code >= 0 else 1
