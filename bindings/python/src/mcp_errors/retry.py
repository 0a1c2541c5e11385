"""Client side: call a tool, read each failure with `parse_result`, and call it again only when
the error says a retry may succeed (waiting what the server asked for, else a jittered backoff).

    from mcp_errors import RetryPolicy, call_tool_with_retry

    outcome = await call_tool_with_retry(session, "forecast", {"city": "Paris"},
                                         RetryPolicy(max_attempts=4))
    if outcome.error is None:
        ...  # outcome.result is the tool's CallToolResult

The package imports this module only when one of its names is first used, and this module
imports `mcp`, `asyncio`, `anyio` and `random` only on the first call: the package's cold start
stays as it is.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Awaitable, Callable, Mapping

# Imported on first use (the package's `__getattr__`), when these names are defined.
from . import NormalizedError, _is_protocol_error, _unreadable, parse_result

__all__ = ["RetryEvent", "RetryOutcome", "RetryPolicy", "call_tool_with_retry"]


@dataclasses.dataclass(frozen=True)
class RetryEvent:
    """What `RetryPolicy.on_retry` receives before each wait.

    - `attempt`: the attempt that failed (1-based).
    - `delay_ms`: the wait about to start, in milliseconds.
    - `error`: that attempt's `NormalizedError`.
    - `reason`: why calling again is safe (a refusal before any work, or a failure that may
      have had effects of a tool whose annotations say it is read-only or idempotent).
    """

    attempt: int
    delay_ms: float
    error: NormalizedError
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before calling a tool again.

    - `max_attempts`: calls in all, the first one included (at least 1).
    - `max_elapsed_ms`: no wait starts that would end more than this long after the first call
      began; the last error is returned instead.
    - `base_delay_ms`, `max_backoff_ms`: without a stated delay, the wait after attempt `n` is
      `random() * min(max_backoff_ms, base_delay_ms * 2**(n-1))` (exponential backoff, full jitter).
    - `max_delay_ms`: cap on a delay the error states (`retry_after_ms`, e.g. from `Retry-After`).
    - `on_retry(event)`: called before each wait with a `RetryEvent` (the attempt that failed,
      1-based; the wait in milliseconds, a float; its `NormalizedError`). What it raises is not
      caught. A callable taking three positional parameters `(attempt, delay_ms, error)`, the
      old form, is still called that way, with a `DeprecationWarning` when the policy is built.
    - `random`: a `() -> float` in [0, 1) for the jitter (default `random.random`), for tests.
    - `annotations`: the tool's annotations from `tools/list` (the SDK's `ToolAnnotations` or a
      dict). Given, a failure that may have had effects (a timeout, a network error, an upstream
      5xx, an unavailable without 429/503) is retried only for a read-only or idempotent tool; a
      refusal before any work is retried for any tool. None: every retryable failure is retried.
    - `parse_options`: keyword options for `parse_result` (`rules`, `limits`): your own
      recognizer rules make a server's own errors retryable or not.
    """

    max_attempts: int = 3
    max_elapsed_ms: float = 60_000
    base_delay_ms: float = 500
    max_backoff_ms: float = 10_000
    max_delay_ms: float = 30_000
    on_retry: Callable[[RetryEvent], Any] | Callable[[int, float, NormalizedError], Any] | None = None
    random: Callable[[], float] | None = None
    parse_options: Mapping[str, Any] | None = None
    annotations: Any = None

    def __post_init__(self) -> None:
        if isinstance(self.max_attempts, bool) or not isinstance(self.max_attempts, int) or self.max_attempts < 1:
            raise ValueError(f"max_attempts must be an integer of at least 1, not {self.max_attempts!r}")
        for name in ("max_elapsed_ms", "base_delay_ms", "max_backoff_ms", "max_delay_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ValueError(f"{name} must be a non-negative number of milliseconds, not {value!r}")
        # Decided once: the old three-parameter form, or one `RetryEvent`.
        object.__setattr__(self, "_legacy_on_retry", self.on_retry is not None and _takes_three(self.on_retry))
        if self._legacy_on_retry:  # type: ignore[attr-defined]
            import warnings

            warnings.warn(
                "on_retry(attempt, delay_ms, error) is deprecated: take one RetryEvent (event.attempt, "
                "event.delay_ms, event.error)",
                DeprecationWarning,
                stacklevel=3,
            )

    def _notify(self, attempt: int, delay_ms: float, error: NormalizedError, reason: str = "") -> None:
        if self.on_retry is None:
            return
        if self._legacy_on_retry:  # type: ignore[attr-defined]
            self.on_retry(attempt, delay_ms, error)  # type: ignore[call-arg]
        else:
            self.on_retry(RetryEvent(attempt=attempt, delay_ms=delay_ms, error=error, reason=reason))  # type: ignore[call-arg]


def _takes_three(fn: Callable[..., Any]) -> bool:
    """Whether `fn` is the old `on_retry(attempt, delay_ms, error)`: it accepts three positional
    arguments and not one."""
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to read: the current form
        return False

    def accepts(n: int) -> bool:
        try:
            sig.bind(*range(n))
            return True
        except TypeError:
            return False

    return accepts(3) and not accepts(1)


@dataclasses.dataclass(frozen=True)
class RetryOutcome:
    """How a call with retries ended.

    - `result`: the last attempt's result (the SDK's `CallToolResult`), None when it raised.
    - `error`: the last attempt's `NormalizedError`, None when the tool succeeded.
    - `attempts`: the calls made.
    - `protocol_error`: the protocol error (`MCPError` / `McpError`) the last attempt raised,
      else None. (`raised` is its old, deprecated name.)
    - `reason`: why the calls stopped: `succeeded`, `not retryable`, `not safe to call again:
      …`, `attempts exhausted` or `time budget exhausted`.
    """

    result: Any
    error: NormalizedError | None
    attempts: int
    protocol_error: BaseException | None = None
    reason: str = ""

    @property
    def raised(self) -> BaseException | None:
        """Deprecated: the old name of `protocol_error`."""
        import warnings

        warnings.warn("RetryOutcome.raised is deprecated: use protocol_error", DeprecationWarning, stacklevel=2)
        return self.protocol_error


async def call_tool_with_retry(
    session: Any,
    name: str,
    arguments: dict[str, Any] | None = None,
    policy: RetryPolicy | None = None,
) -> RetryOutcome:
    """Call tool `name` through `session` until it succeeds, fails in a way a retry cannot fix,
    or the policy's attempts or time run out; returns a `RetryOutcome`. Never logs.

    `session` is the `mcp` SDK's `ClientSession` or `Client` (anything with
    `async call_tool(name, arguments)` that returns the `CallToolResult`), or a FastMCP
    `Client`, whose `call_tool_mcp` is used so that an error comes back as a result instead
    of FastMCP's `ToolError`.

    Each result (or raised protocol error) is read with `parse_result`; only a `retryable`
    error is retried. The wait is the error's `retry_after_ms` capped at `max_delay_ms`, else
    the jittered backoff (see `RetryPolicy`).

    A protocol error the call raises (the SDK's `MCPError`, `McpError` in older SDKs) is read
    like an error result and is never re-raised, even by the last attempt: the outcome has it
    in `protocol_error` (with `result` None and its reading in `error`), so every failure is
    looked at in one place; `raise outcome.protocol_error` re-raises it. Any other exception (a transport that
    failed, a `RuntimeError` of the SDK) is not retried and propagates unchanged, and so does
    cancellation: cancelling the calling task (asyncio or anyio) during a wait or a call stops
    it at once, with no further call.
    """
    policy = policy if policy is not None else RetryPolicy()
    call = _caller(session)
    sleep = _sleeper()
    jitter = policy.random or _default_random()
    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        result: Any = None
        raised: BaseException | None = None
        try:
            result = await call(name, arguments)
        except Exception as exc:
            if not _is_protocol_error(exc):
                raise
            raised = exc
            error = parse_result(exc, **(policy.parse_options or {}))
            if error is None:  # a protocol error is always an error
                error = _unreadable("a raised protocol error read as no error")
        else:
            error = parse_result(result, **(policy.parse_options or {}))
        if error is None:
            return RetryOutcome(result=result, error=None, attempts=attempt, reason="succeeded")

        def ended(reason: str) -> RetryOutcome:
            return RetryOutcome(result=result, error=error, attempts=attempt, protocol_error=raised, reason=reason)

        if not error.retryable:
            return ended("not retryable")
        safe, why = _retry_safety(error, policy.annotations)
        if not safe:
            return ended(f"not safe to call again: {why}")
        if attempt >= policy.max_attempts:
            return ended("attempts exhausted")
        delay_ms = _delay_ms(policy, attempt, error, jitter)
        if (time.monotonic() - started) * 1000 + delay_ms > policy.max_elapsed_ms:
            return ended("time budget exhausted")
        policy._notify(attempt, delay_ms, error, why)
        await sleep(delay_ms / 1000)


def _hint(annotations: Any, name: str, camel: str) -> Any:
    """An annotation by its name in the SDK's model (`read_only_hint`), else on the wire
    (`readOnlyHint`, a dict or an older model)."""
    if isinstance(annotations, Mapping):
        return annotations.get(camel, annotations.get(name))
    missing = object()
    value = getattr(annotations, name, missing)
    return getattr(annotations, camel, None) if value is missing else value


def _retry_safety(error: NormalizedError, annotations: Any) -> tuple[bool, str]:
    """Whether calling the tool again after this retryable failure is safe, and why: a failure
    the core lists as one that may have had effects (`MAY_HAVE_HAD_EFFECTS`, unless an
    UNAVAILABLE with a refusal status) needs a read-only or idempotent tool, when its
    annotations are known."""
    from ._contract import MAY_HAVE_HAD_EFFECTS, REFUSAL_STATUSES

    code = error.code.value
    refused = code == "UNAVAILABLE" and error.http_status in REFUSAL_STATUSES
    if code not in MAY_HAVE_HAD_EFFECTS or refused:
        return True, f"{code}: refused before any work"
    if annotations is None:
        return True, f"{code} may have had effects; the tool's annotations are unknown"
    if _hint(annotations, "read_only_hint", "readOnlyHint") is True:
        return True, f"{code} may have had effects; the tool is read-only"
    if _hint(annotations, "idempotent_hint", "idempotentHint") is True:
        return True, f"{code} may have had effects; the tool is idempotent"
    return False, f"{code} may have had effects, and the tool is neither read-only nor idempotent"


def _delay_ms(policy: RetryPolicy, attempt: int, error: NormalizedError, jitter: Callable[[], float]) -> float:
    """The wait after failed attempt `attempt` (1-based), in milliseconds."""
    if error.retry_after_ms is not None:
        return float(min(max(error.retry_after_ms, 0), policy.max_delay_ms))
    ceiling = min(policy.max_backoff_ms, policy.base_delay_ms * 2 ** min(attempt - 1, 60))
    return float(jitter() * ceiling)


def _caller(session: Any) -> Callable[[str, dict[str, Any] | None], Awaitable[Any]]:
    """How to call a tool on `session` and get the raw `CallToolResult` back."""
    call_tool_mcp = getattr(session, "call_tool_mcp", None)
    if callable(call_tool_mcp):  # FastMCP's Client: `call_tool` raises ToolError on isError

        def fastmcp_call(name: str, arguments: dict[str, Any] | None) -> Awaitable[Any]:
            return call_tool_mcp(name, arguments or {})  # type: ignore[no-any-return]

        return fastmcp_call

    def sdk_call(name: str, arguments: dict[str, Any] | None) -> Awaitable[Any]:
        return session.call_tool(name, arguments)  # type: ignore[no-any-return]

    return sdk_call


def _sleeper() -> Callable[[float], Awaitable[Any]]:
    """anyio's sleep when anyio is installed (the `mcp` SDK needs it; it works under asyncio
    and trio alike), else asyncio's. Both are cancelled with the task that awaits them."""
    try:
        import anyio
    except ImportError:
        import asyncio

        return asyncio.sleep
    return anyio.sleep


def _default_random() -> Callable[[], float]:
    import random

    return random.random
