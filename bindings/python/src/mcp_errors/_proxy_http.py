"""`python -m mcp_errors proxy [options] --listen HOST:PORT --upstream URL`: the proxy in front of a
remote MCP server over Streamable HTTP, as `npx mcp-errors proxy` serves it. Every request and
response passes as it came (method, path, query, headers with `Authorization` and
`Mcp-Session-Id`, bodies; no header is logged), except failed `tools/call` answers, rewritten by
the core's relay in JSON bodies and in server-sent events alike; one relay per MCP session.

Requests are served on threads; every call into the relay goes through one thread, since the
relay lives in that thread's component instance."""

from __future__ import annotations

import codecs
import concurrent.futures
import datetime
import http.client
import http.server
import json
import secrets
import signal
import sys
import threading
import urllib.parse
from typing import Any, Callable

from wasmtime import component as wc

from ._contract import PROXY_HTTP_USAGE
from ._engine import ENGINE, McpErrorsError

# Headers of one hop, never passed on (RFC 9110 §7.6.1), and the length a rewritten body changes.
HOP_BY_HOP = frozenset(
    ("connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length")
)

HTTP_USAGE = PROXY_HTTP_USAGE.replace("{host}", "Python")


def http_flags(args: list[str]) -> tuple[list[str], str | None, str | None]:
    """`--listen` and `--upstream` (this host's transport), and the arguments the core reads."""
    rest: list[str] = []
    listen = upstream = None
    i = 0
    while i < len(args):
        if args[i] == "--":
            rest.extend(args[i:])
            break
        if args[i] in ("--listen", "--upstream") and i + 1 < len(args):
            if args[i] == "--listen":
                listen = args[i + 1]
            else:
                upstream = args[i + 1]
            i += 2
            continue
        rest.append(args[i])
        i += 1
    return rest, listen, upstream


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _plan(plan: Any) -> tuple[str, Any]:
    """The `plan` variant as wasmtime-py lifts it: a `Variant`, or the bare record."""
    if isinstance(plan, wc.Variant):
        return plan.tag, plan.payload
    return ("run" if hasattr(plan, "relay") else "finish"), plan


def run_http(args: list[str], listen: str, upstream: str) -> int:
    target = urllib.parse.urlsplit(upstream)
    if target.scheme not in ("http", "https") or not target.hostname:
        sys.stderr.write(f"mcp-errors proxy: --upstream {json.dumps(upstream)} is not a URL\n")
        return 2
    host, _, port_text = listen.rpartition(":")
    if not port_text.isdigit() or int(port_text) > 65535:
        sys.stderr.write(f"mcp-errors proxy: --listen {json.dumps(listen)}: expected HOST:PORT\n")
        return 2
    host = host or "127.0.0.1"

    # Every relay call on one thread: its component instance holds the relays.
    worker = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def call(name: str, *call_args: Any) -> Any:
        return worker.submit(ENGINE.call_cli, f"proxy-{name}", *call_args).result()

    def start() -> Any:
        return _plan(call("start", [*args, "--", upstream]))

    try:
        tag, plan = start()
    except McpErrorsError as e:
        sys.stderr.write(f"mcp-errors proxy: {e.message}\n")
        return 1
    if tag == "finish":
        sys.stdout.write(plan.stdout)
        sys.stderr.write(plan.stderr)
        return int(plan.status)
    log = plan.log
    shared: int = plan.relay
    relays: dict[str, int] = {}
    lock = threading.Lock()

    def through(f: Callable[[], Any], unchanged: Any) -> Any:
        """A relay call; a failure of the component passes the text unchanged."""
        try:
            return f()
        except McpErrorsError as e:
            sys.stderr.write(f"mcp-errors proxy: {e.message}; passed unchanged\n")
            return unchanged

    def new_relay() -> int:
        try:
            t, p = start()
        except McpErrorsError:
            return shared
        return p.relay if t == "run" else shared

    def from_server(relay: int, text: str) -> str:
        f = through(lambda: call("from-server", relay, text, _now(), secrets.token_hex(4)), None)
        if f is None:
            return text
        if f.warning is not None:
            sys.stderr.write(f"mcp-errors proxy: {f.warning}\n")
        if f.log is not None and log is not None:
            try:
                with open(log, "a", encoding="utf-8") as out:
                    out.write(f.log + "\n")
            except OSError as e:
                sys.stderr.write(f"mcp-errors proxy: --log {log}: {e}\n")
        # Without `--retry` (refused with --listen) every answer has its line.
        return text if f.line is None else f.line

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *log_args: Any) -> None:  # noqa: A002 (the base's name)
            pass  # no request is logged: headers carry credentials

        def do_GET(self) -> None:  # noqa: N802 (http.server's names)
            self._relay()

        do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = do_GET  # noqa: N815

        def _body(self) -> bytes:
            if self.headers.get("transfer-encoding", "").lower() == "chunked":
                parts = []
                while (size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)) > 0:
                    parts.append(self.rfile.read(size))
                    self.rfile.readline()
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            return self.rfile.read(int(self.headers.get("content-length") or 0))

        def _relay(self) -> None:
            body = self._body()
            text = body.decode("utf-8", "replace")
            session = self.headers.get("mcp-session-id")
            with lock:
                relay = relays.get(session) if session is not None else None
            if relay is None:
                # A new session starts with `initialize`; other requests without one share a relay.
                relay = new_relay() if session is not None or '"initialize"' in text else shared
                if session is not None:
                    with lock:
                        relays[session] = relay
            if self.command == "POST" and body:
                # Each message of the body (one, or a batch) is seen by the relay; the body goes as it came.
                try:
                    parsed = json.loads(text)
                except ValueError:
                    parsed = []
                for m in parsed if isinstance(parsed, list) else [parsed]:
                    through(lambda m=m: call("from-client", relay, json.dumps(m)), "")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            # A body this host reads must come as it is written (it does not decompress).
            headers["Accept-Encoding"] = "identity"
            path = urllib.parse.urljoin(target.path or "/", self.path)
            connection_type = http.client.HTTPSConnection if target.scheme == "https" else http.client.HTTPConnection
            upstream_conn = connection_type(target.hostname, target.port, timeout=300)
            try:
                upstream_conn.request(self.command, path, body=body or None, headers=headers)
                res = upstream_conn.getresponse()
                self._answer(res, relay, session)
            except OSError as e:
                if not self.wfile.closed:
                    message = f"mcp-errors proxy: {e}\n".encode()
                    self.send_response(502)
                    self.send_header("content-type", "text/plain")
                    self.send_header("content-length", str(len(message)))
                    self.end_headers()
                    self.wfile.write(message)
            finally:
                upstream_conn.close()

        def _answer(self, res: http.client.HTTPResponse, relay: int, session: str | None) -> None:
            new_session = res.getheader("mcp-session-id")
            with lock:
                if new_session is not None and new_session not in relays:
                    relays[new_session] = relay
                if self.command == "DELETE" and session is not None and 200 <= res.status < 300:
                    closed = relays.pop(session, None)
                    if closed is not None and closed != shared:
                        through(lambda: call("close", closed), None)
            kind = (res.getheader("content-type") or "").lower()
            encoded = (res.getheader("content-encoding") or "identity").lower() != "identity"
            out = [(k, v) for k, v in res.getheaders() if k.lower() not in HOP_BY_HOP]
            self.send_response_only(res.status, res.reason)
            for k, v in out:
                self.send_header(k, v)
            if kind.startswith("application/json") and not encoded:
                answer = from_server(relay, res.read().decode("utf-8", "replace")).encode("utf-8")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                return
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            if kind.startswith("text/event-stream") and not encoded:
                self._events(res, relay)
            else:
                while chunk := res.read1(65536):
                    self._chunk(chunk)
            self._chunk(b"")

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        def _events(self, res: http.client.HTTPResponse, relay: int) -> None:
            """Each event's data (a JSON-RPC message) through the relay; ids, names and comments
            as they were. A line ends with LF, CR LF or CR."""
            lines: list[str] = []

            def flush() -> None:
                payload = [line[6:] if line.startswith("data: ") else line[5:] for line in lines if line.startswith("data:")]
                if not payload:
                    event = "\n".join(lines)
                else:
                    after = from_server(relay, "\n".join(payload))
                    kept = [line for line in lines if not line.startswith("data:")]
                    event = "\n".join([*kept, *(f"data: {line}" for line in after.split("\n"))])
                self._chunk((event + "\n\n").encode("utf-8"))
                lines.clear()

            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            pending = ""
            while chunk := res.read1(65536):
                pending += decoder.decode(chunk)
                # A CR that ends the chunk may be half of a CR LF: it waits for the next.
                cut = len(pending) - 1 if pending.endswith("\r") else len(pending)
                parts = pending[:cut].replace("\r\n", "\n").replace("\r", "\n").split("\n")
                pending = parts.pop() + pending[cut:]
                for line in parts:
                    if line == "":
                        if lines:
                            flush()
                    else:
                        lines.append(line)
            if pending.rstrip("\r"):
                lines.append(pending.rstrip("\r"))
            if lines:
                flush()

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

    try:
        server = Server((host, int(port_text)), Handler)
    except OSError as e:
        sys.stderr.write(f"mcp-errors proxy: --listen {listen}: {e}\n")
        return 2
    bound_host, bound_port = server.server_address[:2]
    sys.stderr.write(f"mcp-errors proxy: listening on http://{bound_host}:{bound_port}, for {upstream}\n")
    sys.stderr.flush()

    # Stopped: open event streams end with the process.
    def stop(_signum: int, _frame: Any) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            signal.signal(sig, stop)
        except ValueError:  # not the main thread: the default stands
            pass
    server.serve_forever()
    server.server_close()
    worker.shutdown(wait=False)
    return 0
