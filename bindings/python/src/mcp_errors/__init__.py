"""mcp-errors: turn any failure inside an MCP tool into one canonical error and
render it as the exact result shape an MCP client expects.

The decisions are made by a Rust core compiled to a WebAssembly component,
hosted here by wasmtime: the same component, and the same bytes, as every
other host.

    from mcp.server.mcpserver import MCPServer
    from mcp_errors import with_errors, ToolError

    server = MCPServer("weather")

    @server.tool()
    @with_errors("forecast")
    async def forecast(city: str) -> str:
        if city == "Atlantis":
            raise ToolError(f"No city named {city}", code="NOT_FOUND")
        ...
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import inspect
import json
import os
import sys
import typing
from types import SimpleNamespace
from typing import Any, Callable, Literal, Mapping, Sequence, TypeVar

from ._contract import FAILURE_MARKS as _FAILURE_MARKS
from ._contract import FAILURE_PREFIXES as _FAILURE_PREFIXES
from ._contract import LIMIT_NAMES as _LIMIT_NAMES
from ._contract import Category, ErrorCode, Format, Profile, SpecRevision, Target
from ._convert import ToolError, to_raw_error
from ._engine import ENGINE, McpErrorsError

if typing.TYPE_CHECKING:  # at run time, `__getattr__` imports them when first used
    from .retry import RetryEvent, RetryOutcome, RetryPolicy, call_tool_with_retry

__all__ = [
    "Category",
    "ErrorCode",
    "McpErrorsError",
    "TOOL_FAILURE_META_KEY",
    "NormalizedError",
    "RetryEvent",
    "RetryOutcome",
    "RetryPolicy",
    "ToolError",
    "call_tool_with_retry",
    "classify",
    "classify_json",
    "install",
    "parse_result",
    "parse_result_json",
    "render",
    "render_json",
    "schema",
    "taxonomy",
    "to_raw_error",
    "to_tool_result",
    "tool_errors",
    "with_errors",
    "with_server_errors",
]

def __getattr__(name: str) -> Any:
    # `mcp_errors.log`, the logger log records go to, without importing
    # `logging` at import time (part of the cold start).
    if name == "log":
        import logging

        return logging.getLogger("mcp_errors")
    # The client side's retry helpers: imported when first used (2-3 ms of a cold start).
    if name in ("RetryEvent", "RetryOutcome", "RetryPolicy", "call_tool_with_retry"):
        from . import retry

        return getattr(retry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclasses.dataclass(frozen=True)
class NormalizedError:
    """The canonical, normalized error (the same JSON in every language)."""

    code: ErrorCode
    category: Category
    retryable: bool
    message: str
    evidence: list[str]
    retry_after_ms: int | None = None
    http_status: int | None = None
    tool: str | None = None
    app_code: str | None = None
    app_type: str | None = None
    expected: bool = False
    details: dict[str, Any] | None = None
    suggestions: list[str] = dataclasses.field(default_factory=list)
    original: Any = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "NormalizedError":
        return cls(
            code=ErrorCode(d["code"]),
            category=Category(d["category"]),
            retryable=bool(d["retryable"]),
            message=d["message"],
            evidence=list(d.get("evidence", [])),
            retry_after_ms=d.get("retry_after_ms"),
            http_status=d.get("http_status"),
            tool=d.get("tool"),
            app_code=d.get("app_code"),
            app_type=d.get("app_type"),
            expected=bool(d.get("expected", False)),
            details=d.get("details"),
            suggestions=list(d.get("suggestions", [])),
            original=d.get("original"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON object (absent values left out, as the core prints it)."""
        d: dict[str, Any] = {"code": self.code.value, "category": self.category.value, "retryable": self.retryable}
        for key in ("retry_after_ms", "http_status"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        d["message"] = self.message
        for key in ("tool", "app_code", "app_type"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.expected:
            d["expected"] = True
        if self.details is not None:
            d["details"] = self.details
        if self.suggestions:
            d["suggestions"] = self.suggestions
        d["evidence"] = self.evidence
        if self.original is not None:
            d["original"] = self.original
        return d


def _time(now: _dt.datetime | str | None | bool) -> str | None:
    if now is None or now is False:
        return None
    if now is True:
        return _dt.datetime.now(_dt.timezone.utc).isoformat()
    if isinstance(now, _dt.datetime):
        if now.tzinfo is None:
            now = now.replace(tzinfo=_dt.timezone.utc)
        return now.isoformat()
    return now


def _options(
    profile: Profile | None = None,
    format: Format | None = None,
    spec: SpecRevision | None = None,
    target: Target | None = None,
    tool_name: str | None = None,
    now: _dt.datetime | str | None | bool = True,
    error_id: str | None = None,
    output_schema: Mapping[str, Any] | str | None = None,
    extra_fields: Mapping[str, Any] | None = None,
    mask: bool = False,
    masked_message: str | None = None,
    limits: Mapping[str, int] | None = None,
    rules: Sequence[Mapping[str, Any]] | str | None = None,
    tool_failure: bool = False,
) -> str:
    """Keyword options → the core's JSON options (conversion only; the core checks them)."""
    o: dict[str, Any] = {
        "profile": profile,
        "format": format,
        "spec": spec,
        "target": target,
        "tool_name": tool_name,
        "now": _time(now),
        "error_id": error_id,
        "output_schema": output_schema,
        "extra_fields": extra_fields,
        "mask": mask,
        "masked_message": masked_message,
        "limits": limits,
        "rules": rules,
        "tool_failure": tool_failure or None,
    }
    return json.dumps({k: v for k, v in o.items() if v is not None}, separators=(",", ":"))


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)




def _limits_record(limits: Mapping[str, int] | None) -> Any:
    """Limits (snake_case keys) → the component's `limits` record. The core checks every
    range; names and values that cannot cross the boundary are refused here, with the
    core's own messages."""
    if limits is None:
        return None  # the defaults; also the cheap case for wasmtime-py's per-call lowering
    if not isinstance(limits, Mapping):
        raise McpErrorsError("invalid_option", '"limits" must be a JSON object')
    fields: dict[str, int | None] = {name.replace("_", "-"): None for name in _LIMIT_NAMES}
    for key, value in limits.items():
        if key not in _LIMIT_NAMES:
            raise McpErrorsError(
                "invalid_option", f"unknown limit {json.dumps(key, ensure_ascii=False)}; expected one of: {', '.join(_LIMIT_NAMES)}"
            )
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise McpErrorsError("invalid_option", f"limit {json.dumps(key, ensure_ascii=False)} must be a non-negative integer")
        if value > 0xFFFFFFFF:
            raise McpErrorsError("invalid_option", f"limit {json.dumps(key, ensure_ascii=False)} is {value}; it must be below 4294967296")
        fields[key.replace("_", "-")] = value
    from wasmtime.component import Record  # what wasmtime-py lowers an `option<record>` from

    record = Record()
    for name, v in fields.items():
        setattr(record, name, v)
    return record


def _rules_text(rules: Sequence[Mapping[str, Any]] | str | None) -> str | None:
    """Rules as the JSON text the component takes (the core checks them)."""
    if rules is None or isinstance(rules, str):
        return rules
    return json.dumps(rules, separators=(",", ":"), ensure_ascii=False)


def _classify_options(
    now: str | None, limits: Mapping[str, int] | None, rules: Sequence[Mapping[str, Any]] | str | None = None
) -> SimpleNamespace:
    """The classify-options record of the component."""
    return SimpleNamespace(now=now, limits=_limits_record(limits), rules=_rules_text(rules))


def classify_json(
    raw: str,
    now: _dt.datetime | str | None = None,
    limits: Mapping[str, int] | None = None,
    rules: Sequence[Mapping[str, Any]] | str | None = None,
) -> str:
    """Classify raw-error JSON text; returns canonical JSON text (the bytes every host prints).
    `limits` bounds the message, details and original (snake_case keys, as in `render_json`);
    `rules` are your own recognizer rules (a list, or its JSON text), which beat the built-in ones."""
    return ENGINE.call("classify-json", raw, _classify_options(_time(now), limits, rules))


TOOL_FAILURE_META_KEY = "io.modelcontextprotocol/toolFailure"
"""The `_meta` key of the proposed machine-readable tool failure (SEP-3313)."""


def parse_result_json(
    result: str,
    now: _dt.datetime | str | None | bool = True,
    limits: Mapping[str, int] | None = None,
    rules: Sequence[Mapping[str, Any]] | str | None = None,
) -> str | None:
    """Read a tool call's result back (JSON text of a `CallToolResult`, a JSON-RPC response or a
    bare JSON-RPC error object): the canonical error as JSON text, or None when the result is not
    an error. Raises `McpErrorsError` for input that is none of those. `now` (default: the current
    time) turns a `toolFailure`'s `retryNotBefore` into a delay."""
    out = ENGINE.call("parse-json", result, _classify_options(_time(now), limits, rules))
    return None if out == "null" else out


def _may_be_a_failure(text: str) -> bool:
    """A text block the core reads even without `isError: true`: a JSON object, a text that
    starts as a failure does (`Error: …`, `Failed to …`: the contract's `FAILURE_PREFIXES`,
    quoted or not), or one with a failure's mark anywhere (`<error>`: `FAILURE_MARKS`; the core
    reads one that starts a line)."""
    t = text.lstrip()
    unquoted = t.lstrip('"')
    return (
        t.startswith("{")
        or unquoted.startswith(_FAILURE_PREFIXES)
        or any(m in text for m in _FAILURE_MARKS)
    )


def _surely_not_an_error(value: Any) -> bool:
    """A `CallToolResult` (or a JSON-RPC response carrying one) without `isError: true` (on the
    result or on a block), a `toolFailure`, `structuredContent` or a text block the core may read
    as a failure (`_may_be_a_failure`): the core answers None for every result this accepts, so it
    is answered here without entering the component."""
    if not isinstance(value, Mapping) or "error" in value:
        return False
    result = value.get("result") if ("jsonrpc" in value or "id" in value) else value
    if not isinstance(result, Mapping) or result.get("isError") is True or "structuredContent" in result:
        return False
    meta = result.get("_meta")
    if isinstance(meta, Mapping) and TOOL_FAILURE_META_KEY in meta:
        return False
    content = result.get("content")
    if not isinstance(content, list) or len(content) > 16:
        return False
    return not any(
        isinstance(b, Mapping)
        and (
            b.get("isError") is True
            or (
                b.get("type") == "text"
                and isinstance(b.get("text"), str)
                and _may_be_a_failure(b["text"])
            )
        )
        for b in content
    )


class _NotAResult:
    """What `_result_value` answers for an object that is no tool result: why, for the evidence."""

    def __init__(self, why: str) -> None:
        self.why = why


def _kind_name(value: Any) -> str:
    cls = type(value)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _model_json(value: Any) -> Any:
    """A pydantic model (the SDKs' content blocks and results) as its wire JSON."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(by_alias=True, exclude_none=True, mode="json")
    raise TypeError(f"Object of type {_kind_name(value)} is not JSON serializable")


def _result_value(result: Any) -> Any:
    """What a client holds after a tool call, as the JSON it is on the wire:
    - the `mcp` SDK's models (`CallToolResult`, `JSONRPCError`, …) and `MCPError` (its error);
    - FastMCP's `Client.call_tool` `CallToolResult` (a dataclass: `content`,
      `structured_content`, `meta`, `is_error`);
    - the `ToolError` FastMCP's `Client.call_tool` raises for an error result: its message is
      the result's first text block;
    - JSON values as they are. Anything else is a `_NotAResult`."""
    if isinstance(result, (Mapping, list, str, int, float, bool, type(None))):
        return result
    if callable(getattr(result, "model_dump", None)):
        return _model_json(result)
    if isinstance(result, BaseException):
        error = getattr(result, "error", None)
        if callable(getattr(error, "model_dump", None)):
            return _model_json(error)
        if ("fastmcp.exceptions", "ToolError") in {(c.__module__, c.__qualname__) for c in type(result).__mro__}:
            return {"content": [{"type": "text", "text": _message_of(result)}], "isError": True}
        return _NotAResult(f"not a tool result: a raised {_kind_name(result)}")
    if all(hasattr(result, field) for field in ("content", "structured_content", "is_error")):
        content = result.content
        value: dict[str, Any] = {
            "content": [block if isinstance(block, Mapping) else _model_json(block) for block in content]
            if isinstance(content, (list, tuple))
            else content
        }
        if result.structured_content is not None:
            value["structuredContent"] = result.structured_content
        meta = getattr(result, "meta", None)
        if meta:
            value["_meta"] = meta
        value["isError"] = result.is_error
        return value
    return _NotAResult(f"not a tool result: {_kind_name(result)}")


def _message_of(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:
        return ""


def parse_result(
    result: Any,
    *,
    now: _dt.datetime | str | None | bool = True,
    limits: Mapping[str, int] | None = None,
    rules: Sequence[Mapping[str, Any]] | str | None = None,
) -> NormalizedError | None:
    """Read a tool call's result back into the canonical error (code, category, retryable,
    retry_after_ms, message, what the dialect carries, and evidence naming the dialect), or None
    when it is not an error. Takes the `mcp` SDK's `CallToolResult` (or any of its models), an
    `MCPError`, FastMCP's client `CallToolResult` (`Client.call_tool(…, raise_on_error=False)`)
    or the `ToolError` its `Client.call_tool` raises, or a dict. Never raises for the result:
    one that cannot be read is an UNKNOWN, non-retryable error whose evidence says why."""
    try:
        value = _result_value(result)
    except Exception as e:  # a model or block that cannot be dumped
        return _unreadable(f"invalid_input: {e}")
    if isinstance(value, _NotAResult):
        return _unreadable(f"invalid_input: {value.why}")
    if _surely_not_an_error(value):
        return None
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_model_json)
    except (TypeError, ValueError) as e:  # not JSON-serializable
        return _unreadable(f"invalid_input: {e}")
    try:
        out = parse_result_json(text, now=now, limits=limits, rules=rules)
    except McpErrorsError as e:
        if e.kind == "invalid_option":
            raise
        return _unreadable(f"{e.kind}: {e.message}")
    return None if out is None else NormalizedError.from_dict(json.loads(out))


def _unreadable(why: str) -> NormalizedError:
    return NormalizedError(
        code=ErrorCode.UNKNOWN,
        category=Category.UNKNOWN,
        retryable=False,
        message="The tool result could not be read.",
        evidence=[f"parse failed: {why}"],
    )


def render_json(raw: str, **options: Any) -> str:
    """Classify raw-error JSON text and render it; returns the rendered JSON text."""
    return ENGINE.call("classify-render-json", raw, _options(**options))


def classify(
    exc: Any,
    *,
    now: _dt.datetime | str | None | bool = True,
    limits: Mapping[str, int] | None = None,
    rules: Sequence[Mapping[str, Any]] | str | None = None,
    **hints: Any,
) -> NormalizedError:
    """Classify any exception (or value), with optional hints (tool, app_code, app_type,
    details, suggestions, expected, retryable, retry_after_ms, input_validated) and your own
    `rules`. `now` defaults to the clock, as in `to_tool_result`, so an HTTP-date `Retry-After`
    becomes a delay; `now=None` leaves it out (the evidence then says the date was not read).
    `classify_json` stays clock-free: the bytes every host prints."""
    raw = _dumps(to_raw_error(exc, **hints))
    return NormalizedError.from_dict(json.loads(classify_json(raw, now=_time(now), limits=limits, rules=rules)))


def render(normalized: NormalizedError | Mapping[str, Any], **options: Any) -> dict[str, Any]:
    """Render a normalized error: profile, format, spec, target, tool_name, now, error_id,
    output_schema, extra_fields, mask, masked_message, limits, tool_failure. Returns the
    rendered JSON as a dict."""
    d = normalized.to_dict() if isinstance(normalized, NormalizedError) else dict(normalized)
    return json.loads(ENGINE.call("render-json", _dumps(d), _options(**options)))


def fallback_result(reason: Any, spec: str | None = None) -> dict[str, Any]:
    """The minimal valid error result used when the error itself could not be normalized."""
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": f"Error: the tool failed, and mcp-errors could not normalize the error ({reason})."}],
        "isError": True,
    }
    if spec == "2026-07-28":
        result = {"resultType": "complete", **result}
    return result


def _as_sdk_result(result: dict[str, Any], as_dict: bool) -> Any:
    if as_dict:
        return result
    try:
        from mcp_types import CallToolResult  # the official SDK (mcp 2.x)
    except ImportError:
        try:
            from mcp.types import CallToolResult  # type: ignore[no-redef]
        except ImportError:
            return result
    return CallToolResult.model_validate(result)


def to_tool_result(exc: Any, *, hints: Mapping[str, Any] | None = None, as_dict: bool = False, **options: Any) -> Any:
    """Any exception → a ready tool result: an `mcp` `CallToolResult` when the SDK is
    installed (a dict otherwise, or with `as_dict=True`). Never raises: if the error
    cannot be normalized (or the component traps), a minimal valid error result says so.
    Unexpected errors are masked by default (`mask=True`); `ToolError`s never are."""
    options.setdefault("mask", True)
    try:
        raw = _raw_text(exc, options.get("tool_name"), hints)
    except Exception as e:  # the error path never raises
        return _as_sdk_result(fallback_result(e, options.get("spec")), as_dict)
    return _result_from_raw(raw, as_dict, options)


def _raw_text(exc: Any, tool_name: str | None, hints: Mapping[str, Any] | None) -> str:
    """An exception as raw-error JSON text, with the tool name and the author's hints."""
    return _dumps(to_raw_error(exc, **{"tool": tool_name, **(hints or {})}))


def _result_from_raw(raw: str, as_dict: bool, options: dict[str, Any]) -> Any:
    """Render raw-error text as a tool result; never raises. A trap drops the thread's
    instance, and one retry runs on a fresh one."""
    try:
        return _as_sdk_result(json.loads(_again_after_trap(lambda: render_json(raw, **options))), as_dict)
    except Exception as e:
        return _as_sdk_result(fallback_result(e, options.get("spec")), as_dict)


def _again_after_trap(call: Callable[[], Any]) -> Any:
    """A call into the component, made once more if it trapped (the trap dropped the thread's
    instance, so the second runs on a fresh one); any other error, or a second trap, is raised."""
    try:
        return call()
    except McpErrorsError as e:
        if e.kind != "trap":
            raise
        return call()


F = TypeVar("F", bound=Callable[..., Any])


def _error_result(
    exc: BaseException,
    tool_name: str | None,
    hints: Mapping[str, Any] | None,
    logger: Callable[[dict[str, Any]], None] | None | Literal[False],
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """A failure of tool `tool_name` → its error result (a dict), with the log record (never
    masked, same error id and time) sent to `logger`. Never raises: the wrappers' error path."""
    error_id = options.get("error_id") or os.urandom(4).hex()
    opts = {**options, "tool_name": tool_name or options.get("tool_name"), "error_id": error_id}
    # One time for the log record and the result, as one error id.
    opts["now"] = _time(opts.get("now", True))
    try:
        # Converted once, for both the log record and the result.
        raw = _raw_text(exc, opts["tool_name"], hints)
    except Exception as e:  # the error path never raises
        return fallback_result(e, opts.get("spec"))
    result_options = {"mask": True, **opts}
    span = _active_span()
    if logger is False and span is None:
        return _result_from_raw(raw, True, result_options)  # type: ignore[no-any-return]
    # Classified once: the log record and the result come from one normalized error.
    try:
        record_text, result_text = _again_after_trap(
            lambda: ENGINE.call("classify-render-with-log-json", raw, _options(**result_options))
        )
    except Exception as e:  # the error path never raises
        return fallback_result(e, opts.get("spec"))
    try:
        record = json.loads(record_text)
        if span is not None:
            _annotate_span(span, record, exc, lambda: _classified(raw, result_options))
        if logger is None:
            import logging

            logging.getLogger("mcp_errors").error(json.dumps(record, ensure_ascii=False))
        elif logger is not False:
            logger(record)
    except Exception:
        pass  # logging and tracing never break the error path
    return json.loads(result_text)  # type: ignore[no-any-return]


def _active_span() -> Any:
    """The current OpenTelemetry span when the application runs OpenTelemetry (optional: the
    API is imported only here, on the error path) and it is recording; else None."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    try:
        span = trace.get_current_span()
        return span if span.is_recording() else None
    except Exception:
        return None


def _classified(raw: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical object of `raw` classified as the render did (same time, limits, rules)."""
    return json.loads(  # type: ignore[no-any-return]
        classify_json(raw, now=options.get("now"), limits=options.get("limits"), rules=options.get("rules"))
    )


def _exception_type(exc: BaseException) -> str:
    """The class of what failed, fully qualified (builtins bare): the tool's own exception
    inside the frameworks' wrappers (FastMCP's "Error calling tool …" `ToolError`, the SDK's
    `UnexpectedToolError` / `ToolError`), as the raw error reads it."""
    from ._convert import _unwrapped

    return _kind_name(_unwrapped(exc)[0])


def _annotate_span(
    span: Any, record: dict[str, Any], exc: BaseException, classified: Callable[[], Mapping[str, Any]]
) -> None:
    """The failure on the span: status ERROR; `error.type` `tool_error`, as the MCP semantic
    conventions ask for a tool call whose result is an error; vendor attributes no SDK
    overwrites (`mcp_errors.code` the canonical code, `mcp_errors.retryable`,
    `mcp_errors.retry_after_ms`, `mcp_errors.error_id`); an `exception` event with the tool's
    own exception class and the redacted message; the MCP / GenAI tool attributes. The
    span's ids go on the log record. `classified` gives the canonical object when the log
    record does not carry it (the rpc-envelope profile's record is seed 004's)."""
    from opentelemetry.trace import Status, StatusCode

    facts: Mapping[str, Any] = record
    if not isinstance(record.get("code"), str) or not isinstance(record.get("retryable"), bool):
        facts = classified()
    code = str(facts.get("code") or "UNKNOWN")
    message = record.get("message") if isinstance(record.get("message"), str) else code
    tool = record.get("tool") or record.get("tool_name")
    span.set_status(Status(StatusCode.ERROR, message))
    span.set_attribute("error.type", "tool_error")
    span.set_attribute("mcp_errors.code", code)
    span.set_attribute("mcp_errors.retryable", bool(facts.get("retryable")))
    delay = facts.get("retry_after_ms")
    if isinstance(delay, int) and not isinstance(delay, bool):
        span.set_attribute("mcp_errors.retry_after_ms", delay)
    if isinstance(record.get("error_id"), str):
        span.set_attribute("mcp_errors.error_id", record["error_id"])
    if isinstance(tool, str):
        span.set_attribute("gen_ai.tool.name", tool)
    span.set_attribute("gen_ai.operation.name", "execute_tool")
    span.set_attribute("mcp.method.name", "tools/call")
    span.add_event("exception", {"exception.type": _exception_type(exc), "exception.message": message})
    ctx = span.get_span_context()
    record["trace_id"] = format(ctx.trace_id, "032x")
    record["span_id"] = format(ctx.span_id, "016x")


def _option_names() -> tuple[str, ...]:
    """The render options every wrapper takes (the keyword parameters of `_options`)."""
    return tuple(inspect.signature(_options).parameters)


def _unknown_option(key: Any, where: str = "") -> McpErrorsError:
    return McpErrorsError(
        "invalid_option", f"{where}unknown option {key!r}; expected one of: {', '.join(_option_names())}"
    )


def _check_options(options: Mapping[str, Any], hints: Mapping[str, Any] | None = None, where: str = "") -> None:
    """A wrapper's options checked when it is built, by the conversion `_options` makes and
    one render of a tiny raw error (with the hints) through the engine: a bad option raises
    `McpErrorsError("invalid_option", …)` naming it now, instead of every later failure
    rendering "mcp-errors could not normalize the error"."""
    if hints is not None and not isinstance(hints, Mapping):
        raise McpErrorsError("invalid_option", f"{where}hints must be a mapping of hint names to values")
    if not options and not hints:
        return  # nothing to check: the component is not loaded before the first failure
    raw = _dumps(to_raw_error({"message": "x"}, **(hints or {})))  # unknown hints raise here

    def attempt(opts: Mapping[str, Any]) -> None:
        try:
            render_json(raw, **opts)
        except TypeError as e:  # an unknown keyword, or a value JSON cannot hold
            unknown = [k for k in opts if k not in _option_names()]
            if unknown:
                raise _unknown_option(unknown[0], where) from None
            raise McpErrorsError("invalid_option", str(e)) from None

    try:
        attempt(options)
    except McpErrorsError as whole:
        if whole.kind != "invalid_option" or whole.message.startswith(f"{where}unknown option "):
            raise
        # Name the option: the first one that fails on its own.
        for key in options:
            try:
                attempt({key: options[key]})
            except McpErrorsError as e:
                raise McpErrorsError("invalid_option", f"{where}option {key!r}: {e.message}") from None
        raise McpErrorsError("invalid_option", f"{where}{whole.message}") from None


def _check_logger(logger: Any) -> None:
    if logger is not None and logger is not False and not callable(logger):
        raise McpErrorsError("invalid_option", "logger must be a callable taking the log record, None or False")


def _check_tools(tools: Any, options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per-tool options: each tool's, on top of the server-wide ones, checked as those are."""
    if tools is None:
        return {}
    if not isinstance(tools, Mapping):
        raise McpErrorsError("invalid_option", "tools must map a tool's name to its options")
    out: dict[str, dict[str, Any]] = {}
    for name, per_tool in tools.items():
        where = f"tools[{name!r}]: "
        if not isinstance(per_tool, Mapping):
            raise McpErrorsError("invalid_option", f"{where}the options must be a mapping")
        _check_options({**options, **per_tool}, where=where)
        out[name] = dict(per_tool)
    return out


_ACCEPTS_NOTHING: dict[str, Any] = {"not": {}}
"""The output schema passed for a tool whose declared schema cannot be read: it accepts
nothing, so the error object never lands in `structuredContent`."""


def _schema_option(schema: Any) -> Mapping[str, Any] | None:
    """A tool's declared output schema as the `output_schema` option: None when it declares
    none, the schema when it is a JSON object, else one that accepts nothing."""
    if schema is None:
        return None
    if isinstance(schema, Mapping):
        try:
            json.dumps(schema, allow_nan=False)
            return schema
        except (TypeError, ValueError):
            pass
    return _ACCEPTS_NOTHING


def _with_schema(options: Mapping[str, Any], schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """The tool's declared output schema wins over an `output_schema` option: the error
    result must satisfy the schema clients check it against."""
    return dict(options) if schema is None else {**options, "output_schema": schema}


async def _mcpserver_output_schema(server: Any, name: str) -> Mapping[str, Any] | None:
    """The output schema tool `name` of an `mcp` SDK MCPServer declares (its tool manager's
    `Tool.output_schema`, else what `list_tools()` says). Never raises."""
    try:
        manager = getattr(server, "_tool_manager", None)
        if manager is not None and callable(getattr(manager, "get_tool", None)):
            tool = manager.get_tool(name)
            return None if tool is None else _schema_option(tool.output_schema)
        list_tools = getattr(server, "list_tools", None)
        if not callable(list_tools):
            return None  # not a server that declares schemas
        for tool in await list_tools():
            if getattr(tool, "name", None) == name:
                return _schema_option(getattr(tool, "output_schema", None))
        return None
    except Exception:
        return _ACCEPTS_NOTHING  # unknowable: no structuredContent rather than a broken one


def with_errors(
    tool_name: str | None = None,
    *,
    hints: Mapping[str, Any] | None = None,
    logger: Callable[[dict[str, Any]], None] | None | Literal[False] = None,
    **options: Any,
) -> Callable[[F], F]:
    """Decorate a tool (sync or async) of the `mcp` SDK's servers: anything it raises becomes
    a normalized error result, and a log record (never masked) with the same error id goes to
    `logger` (default: the `mcp_errors` logging logger, at ERROR). The tool's name defaults to
    the function's. The signature is kept, so the server still derives the tool's input
    schema from it. The options are checked now: a bad one raises `McpErrorsError` with kind
    `invalid_option`. A tool that declares an output schema passes it as `output_schema=`.

    The function only runs with arguments the server validated, so the hint `input_validated`
    is True unless `hints` says otherwise: a validation error the tool raises (pydantic's, on
    an upstream payload) is the tool's INTERNAL failure, not the caller's INVALID_ARGUMENT."""
    _check_options(options, hints)
    _check_logger(logger)
    hints = {"input_validated": True, **(hints or {})}

    def decorate(fn: F) -> F:
        name = tool_name or options.get("tool_name") or getattr(fn, "__name__", None)

        def handle(exc: BaseException) -> Any:
            return _as_sdk_result(_error_result(exc, name, hints, logger, options), False)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except Exception as exc:
                    return handle(exc)

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                return handle(exc)

        return wrapper  # type: ignore[return-value]

    return decorate


def tool_errors(
    tool_name: str | None = None,
    *,
    hints: Mapping[str, Any] | None = None,
    logger: Callable[[dict[str, Any]], None] | None | Literal[False] = None,
    tool: str | None = None,
    **options: Any,
) -> Callable[[F], F]:
    """Deprecated: the old name of `with_errors` (same behaviour). `tool=` is the old
    spelling of `tool_name=`, deprecated too."""
    import warnings

    warnings.warn("tool_errors() is deprecated: use with_errors()", DeprecationWarning, stacklevel=2)
    if tool is not None:
        warnings.warn("tool_errors(tool=…) is deprecated: use tool_name=…", DeprecationWarning, stacklevel=2)
        tool_name = tool_name or tool
    return with_errors(tool_name, hints=hints, logger=logger, **options)


def _is_protocol_error(exc: BaseException) -> bool:
    """The SDKs' `MCPError` / `McpError`: a JSON-RPC error, passed on as one."""
    return any(c.__name__ in ("MCPError", "McpError") for c in type(exc).__mro__)


def _raised_by_the_tool(exc: BaseException) -> bool:
    """Whether `exc` is a framework's wrapper around what the tool function itself raised,
    after the framework validated its arguments: FastMCP's "Error calling tool …" `ToolError`
    and the SDK's `UnexpectedToolError`, each with the tool's exception as `__cause__`. Argument
    validation (FastMCP's `ValidationError`, the SDK's `ToolError` around pydantic's) is not."""
    if exc.__cause__ is None:
        return False
    kinds = {(c.__module__, c.__qualname__) for c in type(exc).__mro__}
    if ("mcp.server.mcpserver.exceptions", "UnexpectedToolError") in kinds:
        return True
    return ("fastmcp.exceptions", "ToolError") in kinds and _message_of(exc).startswith("Error calling tool ")


def _server_hints(exc: BaseException, hints: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The hints of a server-wide form: `input_validated` when the tool itself raised (the
    author's `hints` win)."""
    if not _raised_by_the_tool(exc):
        return hints
    return {"input_validated": True, **(hints or {})}


def _is_fastmcp(server: Any) -> bool:
    """A FastMCP server (without importing FastMCP)."""
    return any(c.__name__ == "FastMCP" and c.__module__.split(".")[0] == "fastmcp" for c in type(server).__mro__)


def with_server_errors(
    server: Any,
    *,
    hints: Mapping[str, Any] | None = None,
    logger: Callable[[dict[str, Any]], None] | None | Literal[False] = None,
    tools: Mapping[str, Mapping[str, Any]] | None = None,
    **options: Any,
) -> Any:
    """Server-wide: any tool's failure becomes the error result these options describe, named
    after the tool the request called, with a log record as in `with_errors`. `tools` maps a
    tool's name to its own options, on top of these. A protocol error (`MCPError`) stays one.
    A tool that declares an output schema gets `structuredContent` only when the error object
    satisfies it (else the JSON goes in a content block). The options are checked now.
    Returns `server`.

    - the `mcp` SDK's `MCPServer` (tools registered before or after): its `call_tool` is wrapped;
    - a FastMCP server: `ErrorMiddleware(**options)` is added to it (`add_middleware`).

        server = with_server_errors(MCPServer("weather"), profile="tool-error-v1")
    """
    if _is_fastmcp(server):
        from .fastmcp import ErrorMiddleware

        server.add_middleware(ErrorMiddleware(hints=hints, logger=logger, tools=tools, **options))
        return server
    _check_options(options, hints)
    _check_logger(logger)
    overrides = _check_tools(tools, options)
    call_tool = getattr(server, "call_tool", None)
    if not callable(call_tool):
        raise McpErrorsError(
            "invalid_option", f"with_server_errors takes an mcp MCPServer or a FastMCP server, not {type(server).__qualname__}"
        )

    async def call_tool_with_errors(name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await call_tool(name, arguments, context)
        except Exception as exc:
            if _is_protocol_error(exc):
                raise
            per_tool = _with_schema({**options, **overrides.get(name, {})}, await _mcpserver_output_schema(server, name))
            return _as_sdk_result(_error_result(exc, name, _server_hints(exc, hints), logger, per_tool), False)

    server.call_tool = call_tool_with_errors
    return server


def install(
    server: Any,
    *,
    hints: Mapping[str, Any] | None = None,
    logger: Callable[[dict[str, Any]], None] | None | Literal[False] = None,
    tools: Mapping[str, Mapping[str, Any]] | None = None,
    **options: Any,
) -> Any:
    """Deprecated: the old name of `with_server_errors` (same behaviour). Returns `server`."""
    import warnings

    warnings.warn("install() is deprecated: use with_server_errors()", DeprecationWarning, stacklevel=2)
    return with_server_errors(server, hints=hints, logger=logger, tools=tools, **options)


def taxonomy() -> list[dict[str, Any]]:
    """The taxonomy: one row per code (code, category, http_status, grpc_code, jsonrpc_code, retryable, doc)."""
    rows = ENGINE.call("taxonomy")
    return [
        {
            "code": getattr(r, "name"),
            "category": getattr(r, "category"),
            "http_status": getattr(r, "http-status"),
            "grpc_code": getattr(r, "grpc-code"),
            "jsonrpc_code": getattr(r, "jsonrpc-code"),
            "retryable": getattr(r, "retryable"),
            "doc": getattr(r, "doc"),
        }
        for r in rows
    ]


def schema(profile: Profile) -> dict[str, Any]:
    """The JSON Schema of a profile's error object."""
    names = typing.get_args(Profile)
    if profile not in names:
        raise McpErrorsError("invalid_option", f"unknown profile {json.dumps(profile, ensure_ascii=False)}; expected one of: {', '.join(names)}")
    return json.loads(ENGINE.call("schema", profile))

