"""`python -m mcp_errors proxy --listen HOST:PORT --upstream URL` in front of an MCP server over
Streamable HTTP (the `mcp` SDK's own `MCPServer`, answering in server-sent events), called by the
SDK's own client: the tool list and a success are the same as over a direct connection; a failure
comes out canonical, parses back to its code, and is logged with the result's error id."""

import asyncio
import json
import re
import socket
import subprocess
import sys
import time

from mcp.client.client import Client

from mcp_errors import ErrorCode, parse_result

SERVER = """
import sys
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("files")


@server.tool()
def read_file(path: str) -> str:
    \"\"\"Read a file under /data.\"\"\"
    if not path.startswith("/data/"):
        raise ToolError(f"Access denied - path outside allowed directories: {path} not in /data")
    return f"contents of {path}"


server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, process: subprocess.Popen) -> None:
    until = time.monotonic() + 30
    while time.monotonic() < until:
        assert process.poll() is None, "the server exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def test_the_http_proxy_in_front_of_an_sdk_server(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(SERVER, encoding="utf-8")
    up = free_port()
    server = subprocess.Popen([sys.executable, str(script), str(up)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = tmp_path / "proxy.log"
    proxy = None
    try:
        wait_for(up, server)
        proxy = subprocess.Popen(
            [sys.executable, "-m", "mcp_errors", "proxy", "--profile", "canonical", "--log", str(log),
             "--listen", "127.0.0.1:0", "--upstream", f"http://127.0.0.1:{up}/mcp"],
            stderr=subprocess.PIPE, text=True,
        )
        line = proxy.stderr.readline()
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+), for http://127\.0\.0\.1:\d+/mcp", line)
        assert found, line
        port = int(found.group(1))

        async def run():
            async with Client(f"http://127.0.0.1:{up}/mcp") as direct, Client(f"http://127.0.0.1:{port}/mcp") as proxied:
                tools = await direct.list_tools()
                assert await proxied.list_tools() == tools
                ok = await direct.call_tool("read_file", {"path": "/data/notes.txt"})
                assert ok.is_error is False
                assert await proxied.call_tool("read_file", {"path": "/data/notes.txt"}) == ok
                raw = await direct.call_tool("read_file", {"path": "/etc/shadow"})
                assert raw.is_error is True and "outside allowed directories" in raw.content[0].text
                result = await proxied.call_tool("read_file", {"path": "/etc/shadow"})
                assert result.is_error is True
                texts = [c.text for c in result.content if c.type == "text" and c.text.startswith("{")]
                error = result.structured_content if result.structured_content is not None else json.loads(texts[-1])
                assert error["code"] == "PERMISSION_DENIED", error
                assert error["tool"] == "read_file"
                parsed = parse_result(result)
                assert parsed is not None and parsed.code is ErrorCode.PERMISSION_DENIED
                return error

        error = asyncio.run(run())
        records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert [r["error_id"] for r in records] == [error["error_id"]]
        assert records[0]["code"] == "PERMISSION_DENIED"
    finally:
        for process in (proxy, server):
            if process is not None:
                process.terminate()
                process.wait(10)


def test_the_http_proxy_refuses_retry_and_a_half_pair():
    for args, says in (
        (["--retry", "2", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:9/mcp"], "--retry works with a server on stdio"),
        (["--listen", "127.0.0.1:0"], "go together"),
        (["--listen", "127.0.0.1:0", "--upstream", "not a url"], "is not a URL"),
    ):
        r = subprocess.run([sys.executable, "-m", "mcp_errors", "proxy", *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r
        assert says in r.stderr, r.stderr
