"""Python exceptions → the raw-error input (JSON-ready dicts). Conversion only:
every decision about what an error means is made by the component."""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any

from ._contract import CONVERT_MAX_DEPTH as MAX_DEPTH
from ._contract import CONVERT_MAX_ITEMS as MAX_ITEMS
from ._contract import CONVERT_MAX_STRING as MAX_STRING
from ._contract import HINTS as _HINTS
from ._contract import NEVER_COPIED
from ._engine import McpErrorsError


class ToolError(Exception):
    """A deliberate error of a tool: its message is safe to show the model and is never masked.

    >>> raise ToolError("No city named Atlantis", code="NOT_FOUND", suggestions=["Check the spelling"])
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        app_code: str | None = None,
        app_type: str | None = None,
        details: dict[str, Any] | str | None = None,
        suggestions: list[str] | None = None,
        retryable: bool | None = None,
        retry_after_ms: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.app_code = app_code
        self.app_type = app_type
        self.details = details
        self.suggestions = suggestions
        self.retryable = retryable
        self.retry_after_ms = retry_after_ms


def _clip(s: str) -> str:
    return s if len(s) <= MAX_STRING else s[:MAX_STRING] + "…[truncated]"


def _plain(v: Any, depth: int, seen: set[int]) -> Any:
    """Any value → JSON-safe data, bounded in depth and size, cycles cut."""
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        # JSON cannot hold these: their names, as JavaScript spells them (every host alike).
        if v != v:
            return "NaN"
        if v in (float("inf"), float("-inf")):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, str):
        return _clip(v)
    if isinstance(v, (bytes, bytearray)):
        try:
            return _clip(bytes(v).decode("utf-8"))
        except UnicodeDecodeError:
            return f"[{len(v)} bytes]"
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.isoformat()
    if depth > MAX_DEPTH or id(v) in seen:
        return "[circular or too deep]"
    if isinstance(v, BaseException):
        return _raw(v, depth + 1, seen)
    seen.add(id(v))
    try:
        if isinstance(v, dict):
            out = {}
            for i, (k, val) in enumerate(v.items()):
                if i >= MAX_ITEMS:
                    break
                out[str(k)] = _plain(val, depth + 1, seen)
            return out
        if isinstance(v, (list, tuple, set, frozenset)):
            return [_plain(x, depth + 1, seen) for x in list(v)[:MAX_ITEMS]]
        items = getattr(v, "items", None)  # Mapping-like, e.g. httpx.Headers, CaseInsensitiveDict
        if callable(items):
            try:
                return [[str(k), str(val)] for k, val in list(items())[:MAX_ITEMS]]
            except Exception:
                pass
        return _clip(str(v))
    finally:
        seen.discard(id(v))


def _response(resp: Any, depth: int, seen: set[int]) -> dict[str, Any]:
    """requests / httpx / urllib3 responses: status, headers, body."""
    out: dict[str, Any] = {}
    status = getattr(resp, "status_code", None) or getattr(resp, "status", None)
    if isinstance(status, int):
        out["status"] = status
    headers = getattr(resp, "headers", None)
    if headers is not None:
        out["headers"] = _plain(headers, depth + 1, seen)
    body: Any = None
    try:
        body = getattr(resp, "text", None)
        if callable(body):
            body = None
    except Exception:  # httpx raises on an unread streaming body
        body = None
    if body is None:
        data = getattr(resp, "data", None)
        if isinstance(data, (bytes, str)):
            body = data
    if body is not None:
        out["body"] = _plain(body, depth + 1, seen)
    return out


_TOOL_ERROR_FIELDS = ("code", "app_code", "app_type", "details", "suggestions", "retryable", "retry_after_ms")

# MCP frameworks' own exceptions, by (module, class) anywhere in the exception's MRO.
# Deliberate: the framework's "the model may read this" error, read as `expected`.
_DELIBERATE = {
    ("fastmcp.exceptions", "ToolError"),  # FastMCP 2-4
    ("mcp.server.mcpserver.exceptions", "ToolError"),  # the mcp SDK's MCPServer
    ("mcp.server.fastmcp.exceptions", "ToolError"),  # the mcp SDK 1.x's FastMCP
}
# Wrappers a framework puts around a tool's own exception (its `__cause__`): the message
# they start with, and whether the framework calls that failure anticipated. The cause is
# what failed, and is read instead. The first class in the MRO that is listed decides.
_WRAPPERS = {
    ("fastmcp.exceptions", "ToolError"): ("Error calling tool ", False),
    # FastMCP's marker for pydantic's ValidationError raised by a tool's body (its message is
    # the cause's): the tool's own error, told apart from argument validation.
    ("fastmcp.tools.function_tool", "_ToolBodyError"): ("", False),
    ("mcp.server.mcpserver.exceptions", "UnexpectedToolError"): ("Error executing tool ", False),
    ("mcp.server.mcpserver.exceptions", "ToolError"): ("Error executing tool ", True),
}
# Framework bookkeeping on its exceptions, never copied into the raw error.
_FRAMEWORK_ATTRIBUTES = {"log_level"}


def _kinds(e: BaseException) -> set[tuple[str, str]]:
    return {(c.__module__, c.__qualname__) for c in type(e).__mro__}


def _unwrapped(e: BaseException) -> tuple[BaseException, bool]:
    """The tool's own exception inside a framework's wrappers (else `e`), and whether a
    wrapper called it anticipated."""
    anticipated = False
    while e.__cause__ is not None:
        wrapper = next((_WRAPPERS[k] for c in type(e).__mro__ if (k := (c.__module__, c.__qualname__)) in _WRAPPERS), None)
        if wrapper is None or not str(e).startswith(wrapper[0]):
            break
        anticipated = anticipated or wrapper[1]
        e = e.__cause__
    return e, anticipated


def _raw(e: Any, depth: int, seen: set[int]) -> Any:
    if not isinstance(e, BaseException):
        return _plain(e, depth, seen)
    e, anticipated = _unwrapped(e)
    if id(e) in seen or depth > MAX_DEPTH:
        return {"message": "[circular or too deep]"}
    seen.add(id(e))
    try:
        cls = type(e)
        module = cls.__module__
        # The library's own ToolError is `ToolError` in every host.
        plain_name = module in ("builtins", "__main__") or cls is ToolError
        name = cls.__qualname__ if plain_name else f"{module}.{cls.__qualname__}"
        out: dict[str, Any] = {"name": name}
        if isinstance(e, ToolError):
            out["message"] = _clip(e.message)
            out["expected"] = True
            for key in _TOOL_ERROR_FIELDS:
                value = getattr(e, key)
                if value is not None:
                    out[key] = _plain(value, depth + 1, seen)
        else:
            out["message"] = _clip(_message(e))
            if anticipated or _kinds(e) & _DELIBERATE:
                out["expected"] = True
        if isinstance(e, OSError):
            if e.errno is not None:
                out["errno"] = e.errno
            if e.filename is not None:
                out["path"] = _plain(e.filename, depth + 1, seen)
        # pydantic ValidationError: its errors as pydantic gives them (`errors()`,
        # a method, so read here); the core reads that shape itself.
        errors = getattr(e, "errors", None)
        if callable(errors) and module.startswith("pydantic"):
            try:
                out["errors"] = _plain(errors(include_url=False, include_input=False), depth + 1, seen)
            except Exception:
                pass
        # gRPC (grpc.RpcError): code() is a StatusCode enum.
        code = getattr(e, "code", None)
        if callable(code) and "grpc" in module:
            try:
                out["code"] = code().name
            except Exception:
                pass
        # requests / httpx: the response, when there is one.
        try:
            response = getattr(e, "response", None)
        except Exception:  # httpx raises when a request error has no response
            response = None
        if response is not None and not isinstance(response, (str, bytes, dict)):
            out["response"] = _response(response, depth + 1, seen)
        elif isinstance(response, dict):  # botocore ClientError.response
            out["response"] = _plain(response, depth + 1, seen)
        status = getattr(e, "status_code", None) or getattr(e, "status", None)
        if isinstance(status, int) and "status" not in out:
            out["status"] = status
        # Extra attributes an author attached (never private ones or the traceback).
        for key, value in list(getattr(e, "__dict__", {}).items())[:MAX_ITEMS]:
            if key.startswith("_") or key in out or key in NEVER_COPIED or key in ("args", "response", "message"):
                continue
            if key in _FRAMEWORK_ATTRIBUTES:
                continue
            if isinstance(e, ToolError) and key in _TOOL_ERROR_FIELDS:  # unset ones: not copied
                continue
            if callable(value):
                continue
            out[key] = _plain(value, depth + 1, seen)
        cause = e.__cause__ if e.__cause__ is not None else (None if e.__suppress_context__ else e.__context__)
        if cause is not None:
            out["cause"] = _raw(cause, depth + 1, seen)
        if isinstance(e, BaseExceptionGroup):
            out["errors"] = [_raw(x, depth + 1, seen) for x in e.exceptions[:MAX_ITEMS]]
        return out
    finally:
        seen.discard(id(e))


def _message(e: BaseException) -> str:
    try:
        text = str(e)
    except Exception:
        text = ""
    if not text and e.args:
        text = " ".join(str(a) for a in e.args)
    return text


def to_raw_error(exc: Any, **hints: Any) -> Any:
    """Convert any exception (or value) into the raw-error input, with the author's hints on top."""
    for key in hints:
        if key not in _HINTS:
            raise McpErrorsError(
                "invalid_option", f"unknown hint {json.dumps(key, ensure_ascii=False)}; expected one of: {', '.join(_HINTS)}"
            )
    try:
        value = _raw(exc, 0, set())
    except Exception:
        value = {"message": _safe_str(exc)}
    given = {k: _plain(v, 1, set()) for k, v in hints.items() if v is not None}
    if not given:
        return value
    base = value if isinstance(value, dict) else ({} if value is None else {"message": _safe_str(value)})
    return {**base, **given}


def _safe_str(v: Any) -> str:
    try:
        return str(v)
    except Exception:
        return "[unprintable]"
