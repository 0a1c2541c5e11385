"""call_tool_with_retry against real servers with the SDK's real client, in memory and over
Streamable HTTP (and FastMCP's client): what is retried, how long it waits, when it stops."""

import asyncio
import time
from collections import Counter

import anyio
import pytest
from conftest import served
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, REQUEST_TIMEOUT

from mcp_errors import ErrorCode, RetryEvent, RetryOutcome, RetryPolicy, call_tool_with_retry, with_server_errors
from mcp_errors.fastmcp import ErrorMiddleware


class Upstream(Exception):
    """What an HTTP client raises for an error response: its status and headers."""

    def __init__(self, status: int, headers: dict | None = None):
        super().__init__(f"upstream answered {status}")
        self.status = status
        self.headers = headers or {}


def _server(calls: Counter) -> MCPServer:
    """An MCPServer with `with_server_errors`: each tool counts its calls in `calls`."""
    server = MCPServer("upstream")

    @server.tool()
    def flaky(city: str) -> str:
        calls["flaky"] += 1
        if calls["flaky"] <= 2:
            raise Upstream(429, {"Retry-After": "2"})
        return f"sunny in {city}"

    @server.tool()
    def throttled() -> str:
        calls["throttled"] += 1
        raise Upstream(429, {"Retry-After": "2"})

    @server.tool()
    def missing() -> str:
        calls["missing"] += 1
        raise Upstream(404)

    @server.tool()
    def overloaded() -> str:
        calls["overloaded"] += 1
        raise Upstream(503)

    @server.tool()
    def timing_out() -> str:
        calls["timing_out"] += 1
        raise MCPError(REQUEST_TIMEOUT, "Request timed out")  # a protocol error: passed on as one

    @server.tool()
    def bad_params() -> str:
        calls["bad_params"] += 1
        raise MCPError(INVALID_PARAMS, "city must be a city")

    return with_server_errors(server, logger=False)



@pytest.fixture(scope="module")
def http_server():
    calls: Counter = Counter()
    with served(_server(calls).streamable_http_app()) as url:
        yield url, calls


@pytest.fixture(params=["memory", "streamable-http"])
def connect(request):
    """(a function giving a new connected `Client`, the server's call counter), per transport."""
    if request.param == "memory":
        calls: Counter = Counter()
        server = _server(calls)
        return (lambda: Client(server)), calls
    url, calls = request.getfixturevalue("http_server")
    calls.clear()
    return (lambda: Client(url)), calls


def _call(new_client, name, arguments=None, policy=None) -> tuple[RetryOutcome, float]:
    """One call with retries on a fresh client: the outcome and the seconds it took."""

    async def run():
        async with new_client() as client:
            started = time.monotonic()
            outcome = await call_tool_with_retry(client, name, arguments, policy)
            return outcome, time.monotonic() - started

    return asyncio.run(run())


def _recorder():
    """`on_retry` keeping each `RetryEvent` as (attempt, delay_ms, error)."""
    seen: list = []

    def on_retry(event: RetryEvent) -> None:
        assert isinstance(event, RetryEvent)
        seen.append((event.attempt, event.delay_ms, event.error))

    return seen, on_retry


def test_rate_limited_twice_then_success_waits_the_capped_retry_after(connect):
    new_client, calls = connect
    seen, on_retry = _recorder()
    outcome, took = _call(new_client, "flaky", {"city": "Paris"}, RetryPolicy(max_delay_ms=50, on_retry=on_retry))
    assert calls["flaky"] == 3
    assert outcome.error is None and outcome.protocol_error is None and outcome.attempts == 3
    assert not outcome.result.is_error and outcome.result.content[0].text == "sunny in Paris"
    # Retry-After: 2 is read as 2000 ms, and capped at max_delay_ms.
    assert [(a, d, e.code, e.retry_after_ms) for a, d, e in seen] == [
        (1, 50.0, ErrorCode.RATE_LIMITED, 2000),
        (2, 50.0, ErrorCode.RATE_LIMITED, 2000),
    ]
    assert 0.095 <= took < 1.5  # both waits were slept; not the 2 s the server asked for


def test_a_non_retryable_error_is_called_once(connect):
    new_client, calls = connect
    seen, on_retry = _recorder()
    outcome, _ = _call(new_client, "missing", policy=RetryPolicy(on_retry=on_retry))
    assert calls["missing"] == 1 and outcome.attempts == 1 and seen == []
    assert outcome.error.code is ErrorCode.NOT_FOUND and not outcome.error.retryable
    assert outcome.result.is_error and outcome.protocol_error is None


def test_an_unknown_tool_is_not_retried(connect):
    new_client, calls = connect
    seen, on_retry = _recorder()
    outcome, _ = _call(new_client, "no_such_tool", {}, RetryPolicy(on_retry=on_retry))
    assert outcome.attempts == 1 and seen == [] and sum(calls.values()) == 0
    assert outcome.error is not None and not outcome.error.retryable
    assert outcome.result.is_error and "no_such_tool" in outcome.result.content[0].text


def test_backoff_without_retry_after_is_bounded_by_jitter_and_stops_at_max_attempts():
    calls: Counter = Counter()
    server = _server(calls)
    bounds = [20, 30, 30]  # min(max_backoff_ms, base_delay_ms * 2**(n-1)) for n = 1, 2, 3

    seen, on_retry = _recorder()
    policy = RetryPolicy(max_attempts=4, base_delay_ms=20, max_backoff_ms=30, on_retry=on_retry)
    outcome, took = _call(lambda: Client(server), "overloaded", policy=policy)
    assert calls["overloaded"] == 4 and outcome.attempts == 4
    assert outcome.error.code is ErrorCode.UNAVAILABLE and outcome.error.retryable
    assert outcome.error.retry_after_ms is None and outcome.result.is_error
    assert [a for a, _, _ in seen] == [1, 2, 3]
    delays = [d for _, d, _ in seen]
    assert all(0 <= d <= bound for d, bound in zip(delays, bounds, strict=True)), delays
    assert took >= sum(delays) / 1000 - 0.005

    # The jitter is `random() * ceiling`: its top and its middle.
    for value, expected in [(1.0, [20.0, 30.0, 30.0]), (0.5, [10.0, 15.0, 15.0])]:
        seen, on_retry = _recorder()
        policy = RetryPolicy(max_attempts=4, base_delay_ms=20, max_backoff_ms=30, on_retry=on_retry, random=lambda: value)
        outcome, _ = _call(lambda: Client(server), "overloaded", policy=policy)
        assert outcome.attempts == 4 and [d for _, d, _ in seen] == expected
    assert calls["overloaded"] == 12


def test_parse_options_let_the_callers_own_rules_decide_what_is_retried():
    calls = Counter()

    class InternalSession:
        """A server whose own error text no built-in rule knows."""

        async def call_tool(self, name, arguments=None):
            calls[name] += 1
            if calls[name] < 3:
                return {"content": [{"type": "text", "text": "E_BUSY: index is rebuilding"}], "isError": True}
            return {"content": [{"type": "text", "text": "ok"}]}

    plain = asyncio.run(call_tool_with_retry(InternalSession(), "x", policy=RetryPolicy(base_delay_ms=1)))
    assert (plain.attempts, plain.error.code, plain.error.retryable) == (1, ErrorCode.UNKNOWN, False)
    calls.clear()
    rules = [{"id": "busy", "at": "message", "take": "phrase", "rows": {"E_BUSY": {"code": "UNAVAILABLE", "retryable": True}}}]
    policy = RetryPolicy(base_delay_ms=1, parse_options={"rules": rules})
    outcome = asyncio.run(call_tool_with_retry(InternalSession(), "x", policy=policy))
    assert (outcome.attempts, outcome.error) == (3, None)


def test_max_elapsed_stops_before_a_wait_that_would_pass_it():
    calls: Counter = Counter()
    server = _server(calls)
    # Each wait is 200 ms (Retry-After capped): after the 1st call the wait ends within 350 ms,
    # after the 2nd (≥ 200 ms in) it would not.
    seen, on_retry = _recorder()
    policy = RetryPolicy(max_attempts=10, max_elapsed_ms=350, max_delay_ms=200, on_retry=on_retry)
    outcome, took = _call(lambda: Client(server), "throttled", policy=policy)
    assert calls["throttled"] == 2 and outcome.attempts == 2 and [d for _, d, _ in seen] == [200.0]
    assert outcome.error.code is ErrorCode.RATE_LIMITED and outcome.error.retryable  # returned as it is
    assert 0.195 <= took < 1.0

    # A first wait longer than the whole budget: one call, no wait.
    outcome, took = _call(lambda: Client(server), "throttled", policy=RetryPolicy(max_elapsed_ms=100, max_delay_ms=200))
    assert calls["throttled"] == 3 and outcome.attempts == 1 and took < 0.2


def test_cancelling_the_task_during_a_wait_stops_it_at_once():
    calls: Counter = Counter()
    server = _server(calls)

    async def with_asyncio():
        async with Client(server) as client:
            waiting = asyncio.Event()
            policy = RetryPolicy(max_attempts=5, max_delay_ms=10_000, on_retry=lambda *_: waiting.set())
            task = asyncio.create_task(call_tool_with_retry(client, "throttled", None, policy))
            await asyncio.wait_for(waiting.wait(), 5)  # set just before its 2 s wait
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return time.monotonic() - started

    assert asyncio.run(with_asyncio()) < 0.5
    assert calls["throttled"] == 1

    async def with_anyio():
        async with Client(server) as client:
            started = time.monotonic()
            with anyio.move_on_after(0.2) as scope:
                await call_tool_with_retry(client, "throttled", None, RetryPolicy(max_delay_ms=10_000))
            return scope.cancelled_caught, time.monotonic() - started

    cancelled, took = anyio.run(with_anyio)
    assert cancelled and took < 0.7
    assert calls["throttled"] == 2  # one more call, none after the cancel


def test_a_raised_protocol_error_is_read_retried_and_returned_not_raised():
    calls: Counter = Counter()
    server = _server(calls)
    # Retryable (the SDK's REQUEST_TIMEOUT): retried, and the last one is in `protocol_error`.
    outcome, _ = _call(lambda: Client(server), "timing_out", policy=RetryPolicy(base_delay_ms=5))
    assert calls["timing_out"] == 3 and outcome.attempts == 3
    assert isinstance(outcome.protocol_error, MCPError) and outcome.result is None
    assert outcome.error.code is ErrorCode.TIMEOUT and outcome.error.retryable

    # Not retryable (INVALID_PARAMS): one call, returned too.
    outcome, _ = _call(lambda: Client(server), "bad_params", policy=RetryPolicy(base_delay_ms=5))
    assert calls["bad_params"] == 1 and outcome.attempts == 1
    assert isinstance(outcome.protocol_error, MCPError) and outcome.protocol_error.message == "city must be a city"
    assert outcome.error.code is ErrorCode.INVALID_ARGUMENT and not outcome.error.retryable


def test_fastmcp_client_is_called_through_call_tool_mcp():
    calls: Counter = Counter()
    mcp = FastMCP("upstream")
    mcp.add_middleware(ErrorMiddleware(logger=False))

    @mcp.tool
    def flaky(city: str) -> str:
        calls["flaky"] += 1
        if calls["flaky"] <= 2:
            raise Upstream(429, {"Retry-After": "1"})
        return f"sunny in {city}"

    @mcp.tool
    def missing() -> str:
        calls["missing"] += 1
        raise Upstream(404)

    async def run():
        async with FastMCPClient(mcp) as client:
            ok = await call_tool_with_retry(client, "flaky", {"city": "Paris"}, RetryPolicy(max_delay_ms=10))
            gone = await call_tool_with_retry(client, "missing", None, RetryPolicy(max_delay_ms=10))
            return ok, gone

    ok, gone = asyncio.run(run())
    assert ok.error is None and ok.attempts == 3 and ok.result.content[0].text == "sunny in Paris"
    assert gone.attempts == 1 and gone.error.code is ErrorCode.NOT_FOUND and gone.result.is_error
    assert calls == Counter(flaky=3, missing=1)


def test_other_exceptions_propagate_and_the_policy_is_checked():
    class Broken:
        calls = 0

        async def call_tool(self, name, arguments):
            Broken.calls += 1
            raise ConnectionResetError("the transport went away")

    with pytest.raises(ConnectionResetError):
        asyncio.run(call_tool_with_retry(Broken(), "x"))
    assert Broken.calls == 1
    for bad in ({"max_attempts": 0}, {"max_attempts": 1.5}, {"base_delay_ms": -1}, {"max_elapsed_ms": float("nan")}):
        with pytest.raises(ValueError):
            RetryPolicy(**bad)


def test_the_old_three_parameter_on_retry_and_raised_still_work_with_a_warning():
    import dataclasses
    import warnings

    import mcp_errors.retry

    calls: Counter = Counter()
    server = _server(calls)
    seen: list = []
    with pytest.warns(DeprecationWarning, match="on_retry\\(attempt, delay_ms, error\\) is deprecated") as caught:
        policy = RetryPolicy(max_delay_ms=5, on_retry=lambda attempt, delay_ms, error: seen.append((attempt, delay_ms, error.code)))
    assert caught[0].filename == __file__
    outcome, _ = _call(lambda: Client(server), "flaky", {"city": "Paris"}, policy)
    assert outcome.error is None and seen == [(1, 5.0, ErrorCode.RATE_LIMITED), (2, 5.0, ErrorCode.RATE_LIMITED)]

    # One parameter, or a callable that takes anything: the RetryEvent, no warning.
    events: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RetryPolicy(on_retry=events.append)
        RetryPolicy(on_retry=lambda *args: events.append(args))
        RetryPolicy(on_retry=lambda event, extra=None: None)
    outcome, _ = _call(lambda: Client(server), "throttled", None, RetryPolicy(max_attempts=2, max_delay_ms=5, on_retry=events.append))
    (event,) = events
    assert (event.attempt, event.delay_ms, event.error.code, event.error.retry_after_ms) == (1, 5.0, ErrorCode.RATE_LIMITED, 2000)
    assert outcome.attempts == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.attempt = 2
    assert mcp_errors.retry.RetryEvent is RetryEvent and "RetryEvent" in mcp_errors.retry.__all__

    # `raised`, the old name of `protocol_error`: read-only, with a warning.
    outcome, _ = _call(lambda: Client(server), "bad_params", policy=RetryPolicy(base_delay_ms=5))
    with pytest.warns(DeprecationWarning, match="RetryOutcome.raised is deprecated: use protocol_error"):
        assert outcome.raised is outcome.protocol_error and isinstance(outcome.protocol_error, MCPError)
    with pytest.raises(AttributeError):
        outcome.raised = None


def test_retry_only_what_is_safe_by_the_tools_annotations():
    """A failure that may have had effects (a timeout) is retried only for a read-only or
    idempotent tool; a refusal before any work (429) for any tool; the reasons say why."""
    from mcp_types import ToolAnnotations

    calls: Counter = Counter()
    server = with_server_errors(MCPServer("orders"), logger=False)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=False, destructiveHint=True))
    def place_order() -> str:
        calls["place_order"] += 1
        raise TimeoutError("upstream timed out after 30000 ms")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def get_order() -> str:
        calls["get_order"] += 1
        raise TimeoutError("upstream timed out after 30000 ms")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=False))
    def place_order_429() -> str:
        calls["place_order_429"] += 1
        raise Upstream(429, {"retry-after-ms": "5"})

    async def run():
        async with Client(server) as client:
            tools = {t.name: t.annotations for t in (await client.list_tools()).tools}
            events: list[RetryEvent] = []

            def policy(name: str) -> RetryPolicy:
                return RetryPolicy(max_attempts=3, base_delay_ms=1, random=lambda: 0.0,
                                   annotations=tools[name], on_retry=events.append)

            placed = await call_tool_with_retry(client, "place_order", {}, policy("place_order"))
            got = await call_tool_with_retry(client, "get_order", {}, policy("get_order"))
            limited = await call_tool_with_retry(client, "place_order_429", {}, policy("place_order_429"))
            before = await call_tool_with_retry(client, "place_order", {}, RetryPolicy(max_attempts=2, base_delay_ms=1, random=lambda: 0.0))
            return placed, got, limited, before, events

    placed, got, limited, before, events = anyio.run(run)
    assert placed.error.code == ErrorCode.TIMEOUT and placed.attempts == 1
    assert placed.reason == "not safe to call again: TIMEOUT may have had effects, and the tool is neither read-only nor idempotent"
    assert got.attempts == 3 and got.reason == "attempts exhausted"
    assert limited.attempts == 3
    reasons = [e.reason for e in events]
    assert "TIMEOUT may have had effects; the tool is read-only" in reasons
    assert "RATE_LIMITED: refused before any work" in reasons
    # Without annotations: as before.
    assert before.attempts == 2
