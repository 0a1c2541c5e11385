"""`mcp-errors proxy` (the native CLI) in front of real MCP servers from PyPI that nobody here wrote
(mcp-server-time, mcp-server-fetch, mcp-server-git, pinned in bindings/python/servers-requirements.txt
and installed by `cargo xtask test` in their own virtualenv), called by the `mcp` SDK's own client
over stdio, in both protocol eras (the 2025-11-25 `initialize` handshake, and 2026-07-28 reached by
`server/discover`, the client's default): the tool list and a success are the same as over a direct
connection; failures come out canonical and parse back to the right code; the log has one record
per failure, with the result's error id."""

import asyncio
import contextlib
import functools
import http.server
import json
import os
import re
import socket
import subprocess
import threading
from pathlib import Path

import pytest
from conftest import ROOT
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

from mcp_errors import ErrorCode, parse_result

CLI = os.environ.get("MCP_ERRORS_CLI", str(ROOT / "target" / "debug" / "mcp-errors"))
# The servers' interpreter (`cargo xtask test` sets it to target/py-servers-venv's).
SERVERS_PYTHON = os.environ.get(
    "MCP_ERRORS_SERVERS_PYTHON", str(ROOT / "target" / "py-servers-venv" / "bin" / "python")
)
PINS = dict(
    re.findall(
        r"^(mcp-server-\w+)==(\S+)$",
        (ROOT / "bindings" / "python" / "servers-requirements.txt").read_text(encoding="utf-8"),
        re.M,
    )
)

ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


@pytest.fixture(params=list(ERAS), ids=[f"{v}-{k}" for k, v in ERAS.items()])
def mode(request) -> str:
    assert Path(CLI).exists(), f"the Rust CLI {CLI} is missing: run `cargo xtask test`"
    assert Path(SERVERS_PYTHON).exists(), (
        f"the servers' Python {SERVERS_PYTHON} is missing: run `cargo xtask test`, which installs "
        "bindings/python/servers-requirements.txt in target/py-servers-venv (MCP_ERRORS_SERVERS_PYTHON)"
    )
    return request.param


@contextlib.asynccontextmanager
async def connected(mode: str, server: str, args: list[str], log: Path):
    """The same server twice, once directly and once through the proxy (canonical profile, --log)."""
    command = [SERVERS_PYTHON, "-m", server.replace("-", "_"), *args]
    async with contextlib.AsyncExitStack() as stack:
        direct = await stack.enter_async_context(
            Client(StdioServerParameters(command=command[0], args=command[1:]), mode=mode)
        )
        proxied = await stack.enter_async_context(
            Client(
                StdioServerParameters(
                    command=CLI, args=["proxy", "--profile", "canonical", "--log", str(log), "--", *command]
                ),
                mode=mode,
            )
        )
        for client in (direct, proxied):
            assert client.protocol_version == ERAS[mode]
            assert client.server_info is not None
            assert client.server_info.version == PINS[server], f"{server} is not the pinned one: rerun `cargo xtask test`"
        yield direct, proxied


def canonical(result) -> dict:
    """The canonical error of a rewritten result: its structuredContent, or, for a tool whose
    output schema the error does not fit, the JSON text block."""
    assert result.is_error is True
    if result.structured_content is not None:
        return result.structured_content
    texts = [c.text for c in result.content if c.type == "text" and c.text.startswith("{")]
    assert texts, result
    return json.loads(texts[-1])


async def check_failure(direct, proxied, name: str, arguments: dict, code: ErrorCode, says: str) -> dict:
    """A failing call: what the server itself sends (an isError result, text only), then the
    proxy's canonical error for it, read back with `parse_result`."""
    raw = await direct.call_tool(name, arguments)
    assert raw.is_error is True
    assert raw.structured_content is None, "the server itself sends text only"
    assert re.search(says, raw.content[0].text), raw.content[0].text
    result = await proxied.call_tool(name, arguments)
    error = canonical(result)
    assert error["code"] == code.value, (raw.content[0].text, error)
    assert error["tool"] == name
    assert isinstance(error["retryable"], bool) and isinstance(error["message"], str)
    assert re.match(r"^[0-9a-f]{8}$", error["error_id"])
    parsed = parse_result(result)
    assert parsed is not None and parsed.code is code
    assert parsed.retryable is error["retryable"]
    return error


def check_log(log: Path, errors: list[dict]) -> None:
    """One JSON line per rewritten failure, in order, each with its result's error id."""
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(errors)
    for record, error in zip(records, errors):
        assert record["error_id"] == error["error_id"]
        assert record["code"] == error["code"]
        assert record["tool"] == error["tool"]


def test_mcp_server_time(mode, tmp_path):
    log = tmp_path / "proxy.log"

    async def run():
        async with connected(mode, "mcp-server-time", ["--local-timezone", "UTC"], log) as (direct, proxied):
            tools = await direct.list_tools()
            assert await proxied.list_tools() == tools
            convert = ("convert_time", {"source_timezone": "Europe/Paris", "time": "12:00", "target_timezone": "Asia/Tokyo"})
            ok = await direct.call_tool(*convert)
            assert ok.is_error is False and ok.structured_content["time_difference"] == "+8.0h"
            assert await proxied.call_tool(*convert) == ok
            # Both tools declare an output schema that the error object does not fit: no
            # structuredContent, the canonical JSON in a text block.
            assert all(t.output_schema for t in tools.tools)
            unknown = await check_failure(
                direct, proxied, "get_current_time", {"timezone": "Mars/Olympus"},
                ErrorCode.INVALID_ARGUMENT, r"^Error executing tool get_current_time: Invalid timezone: 'No time zone found with key Mars/Olympus'$",
            )
            assert unknown["retryable"] is False
            # The zone's name is no secret: the message is the server's, whole.
            assert unknown["message"] == "Error executing tool get_current_time: Invalid timezone: 'No time zone found with key Mars/Olympus'"
            time = await check_failure(
                direct, proxied, "convert_time", {"source_timezone": "UTC", "time": "25:99", "target_timezone": "Asia/Tokyo"},
                ErrorCode.INVALID_ARGUMENT, r"Invalid time format\. Expected HH:MM",
            )
            return [unknown, time]

    check_log(log, asyncio.run(run()))


class _Files(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass


@contextlib.contextmanager
def http_files(directory: Path):
    """A local HTTP server for `directory` (404 for anything missing); yields its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_mcp_server_fetch(mode, tmp_path):
    log = tmp_path / "proxy.log"
    (tmp_path / "www").mkdir()
    (tmp_path / "www" / "notes.txt").write_text("hello from a file\n", encoding="utf-8")
    # A port bound and never listened on: a connection to it is refused, and no one else takes it.
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))

    async def run(base: str):
        refused = f"http://127.0.0.1:{closed.getsockname()[1]}/"
        # Loopback only (no network here): the server must be told it may fetch it.
        args = ["--allow-private-ips", "--ignore-robots-txt"]
        async with connected(mode, "mcp-server-fetch", args, log) as (direct, proxied):
            tools = await direct.list_tools()
            assert await proxied.list_tools() == tools
            assert [t.output_schema for t in tools.tools] == [None]
            page = ("fetch", {"url": f"{base}/notes.txt"})
            ok = await direct.call_tool(*page)
            assert ok.is_error is False and "hello from a file" in ok.content[0].text
            assert await proxied.call_tool(*page) == ok
            missing = await check_failure(
                direct, proxied, "fetch", {"url": f"{base}/missing.txt"},
                ErrorCode.NOT_FOUND, r"Failed to fetch http://127\.0\.0\.1:\d+/missing\.txt - status code 404$",
            )
            assert missing["retryable"] is False
            down = await check_failure(
                direct, proxied, "fetch", {"url": refused},
                ErrorCode.NETWORK_ERROR, r"Failed to fetch http://127\.0\.0\.1:\d+/: ConnectError\('All connection attempts failed'\)$",
            )
            assert down["retryable"] is True
            return [missing, down]

    try:
        with http_files(tmp_path / "www") as base:
            errors = asyncio.run(run(base))
    finally:
        closed.close()
    check_log(log, errors)


def _repo(path: Path) -> None:
    path.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": "2025-01-02T03:04:05Z",
        "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_COMMITTER_DATE": "2025-01-02T03:04:05Z",
    }
    git = ["git", "-c", "init.defaultBranch=main", "-C", str(path)]
    subprocess.run([*git, "init", "-q"], check=True, env=env)
    (path / "a.txt").write_text("a\n", encoding="utf-8")
    subprocess.run([*git, "add", "a.txt"], check=True, env=env)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True, env=env)
    (path / "docs").mkdir()


def test_mcp_server_git(mode, tmp_path):
    log = tmp_path / "proxy.log"
    repo = tmp_path / "repo"
    _repo(repo)
    (tmp_path / "elsewhere").mkdir()

    async def run():
        async with connected(mode, "mcp-server-git", ["--repository", str(repo)], log) as (direct, proxied):
            tools = await direct.list_tools()
            assert await proxied.list_tools() == tools
            assert {t.output_schema for t in tools.tools} == {None}
            history = ("git_log", {"repo_path": str(repo), "max_count": 1})
            ok = await direct.call_tool(*history)
            assert ok.is_error is False and "Message: first" in ok.content[0].text
            assert await proxied.call_tool(*history) == ok
            revision = await check_failure(
                direct, proxied, "git_show", {"repo_path": str(repo), "revision": "no-such-rev"},
                ErrorCode.NOT_FOUND, r"^Error executing tool git_show: Ref 'no-such-rev' did not resolve to an object$",
            )
            branch = await check_failure(
                direct, proxied, "git_create_branch", {"repo_path": str(repo), "branch_name": "main"},
                ErrorCode.ALREADY_EXISTS, r"Cannot create branch 'main': refs/heads/main already exists$",
            )
            outside = await check_failure(
                direct, proxied, "git_status", {"repo_path": str(tmp_path / "elsewhere")},
                ErrorCode.PERMISSION_DENIED, r"Repository path '.*/elsewhere' is outside the allowed repository",
            )
            # Not a repository (a directory inside it that is not its root): the server sends
            # nothing but the path (GitPython's InvalidGitRepositoryError), which names no
            # failure, so UNKNOWN is the honest code; the path is redacted.
            bare = await check_failure(
                direct, proxied, "git_status", {"repo_path": str(repo / "docs")},
                ErrorCode.UNKNOWN, rf"^Error executing tool git_status: {re.escape(str(repo / 'docs'))}$",
            )
            assert bare["message"] == "Error executing tool git_status: [path]"
            return [revision, branch, outside, bare]

    check_log(log, asyncio.run(run()))


# More of what these servers send, read alone (parse_result on the server's own result): the
# text, and the honest code.
MORE_TEXTS = [
    # mcp-server-fetch without --allow-private-ips, --ignore-robots-txt (its default refusal of a
    # loopback page; with robots.txt checked the URL ends in robots.txt, and those words alone
    # give PERMISSION_DENIED).
    ("fetch", "Error executing tool fetch: Refused to fetch http://127.0.0.1:8080/notes.txt: 127.0.0.1 resolves to "
     "127.0.0.1, which is not a public address. Start the server with --allow-private-ips to allow private, loopback "
     "and link-local addresses.", ErrorCode.PERMISSION_DENIED),
    # mcp-server-git's flag-injection guard, git_diff with target "--output=/tmp/x".
    ("git_diff", "Error executing tool git_diff: Invalid target: '--output=/tmp/x' - cannot start with '-'", ErrorCode.INVALID_ARGUMENT),
    # git_branch with branch_type "weird".
    ("git_branch", "Error executing tool git_branch: Invalid branch type: weird", ErrorCode.INVALID_ARGUMENT),
    # git_commit with nothing staged.
    ("git_commit", "Error executing tool git_commit: No changes staged for commit. Use git_add to stage changes first; "
     "git_status shows what is currently staged.", ErrorCode.FAILED_PRECONDITION),
]


@pytest.mark.parametrize("tool,text,code", MORE_TEXTS, ids=[m[0] for m in MORE_TEXTS])
def test_more_of_these_servers_texts(tool, text, code):
    parsed = parse_result({"content": [{"type": "text", "text": text}], "isError": True})
    assert parsed is not None and parsed.code is code
    assert parsed.message == text
