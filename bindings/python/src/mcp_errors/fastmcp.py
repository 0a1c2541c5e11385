"""Server-wide error results for FastMCP 4 (`pip install fastmcp`): one line per server.

    from fastmcp import FastMCP
    from mcp_errors.fastmcp import ErrorMiddleware

    mcp = FastMCP("weather")
    mcp.add_middleware(ErrorMiddleware(profile="tool-error-v1"))
    # or, the same in the words every host uses: with_server_errors(mcp, profile="tool-error-v1")

Any tool's failure becomes the error result the options describe, named after the tool the
request called, with a log record as in `with_errors` (one classification, one error id).
`tools` maps a tool's name to its own options. FastMCP's own `ToolError` is a deliberate
error: its message is shown and its `log_level` never lands in `details`; the `ToolError`
FastMCP wraps around any other exception ("Error calling tool …") is looked through to the
tool's own exception. Unless `mask` is given, FastMCP's `mask_error_details` decides whether
unexpected errors are masked. A protocol error (`McpError`) stays one. A tool that declares
an output schema (FastMCP's `Tool.output_schema`) gets `structuredContent` only when the error
object satisfies it; otherwise the JSON goes in a content block. The options are checked when
the middleware is built: a bad one raises `McpErrorsError` with kind `invalid_option`.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Mapping

from fastmcp.server.middleware import Middleware, MiddlewareContext
from fastmcp.tools.base import ToolResult
from mcp_types import TextContent

from . import _ACCEPTS_NOTHING, _check_logger, _check_options, _check_tools, _error_result, _is_protocol_error
from . import _schema_option, _server_hints, _with_schema

__all__ = ["ErrorMiddleware"]


class ErrorMiddleware(Middleware):
    """FastMCP middleware: every tool's failure as a normalized error result."""

    def __init__(
        self,
        *,
        hints: Mapping[str, Any] | None = None,
        logger: Callable[[dict[str, Any]], None] | None | Literal[False] = None,
        tools: Mapping[str, Mapping[str, Any]] | None = None,
        **options: Any,
    ) -> None:
        _check_options(options, hints)
        _check_logger(logger)
        self.hints = hints
        self.logger = logger
        self.tools = _check_tools(tools, options)
        self.options = options

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: Any) -> Any:
        try:
            return await call_next(context)
        except Exception as exc:
            if _is_protocol_error(exc):
                raise
            name = context.message.name
            server = getattr(context.fastmcp_context, "fastmcp", None)
            options = _with_schema({**self.options, **self.tools.get(name, {})}, await _output_schema(server, context))
            if "mask" not in options:
                setting = getattr(server, "_mask_error_details", None)
                if isinstance(setting, bool):
                    options["mask"] = setting
            result = _error_result(exc, name, _server_hints(exc, self.hints), self.logger, options)
            return ToolResult(
                content=[TextContent.model_validate(block) for block in result["content"]],
                structured_content=result.get("structuredContent"),
                meta=result.get("_meta"),
                is_error=bool(result.get("isError", False)),
            )


async def _output_schema(server: Any, context: MiddlewareContext[Any]) -> Mapping[str, Any] | None:
    """The output schema the called tool declares (`Tool.output_schema`, looked up as the call
    did, version included), None when it declares none. Never raises."""
    if server is None:
        return None
    try:
        meta = getattr(context.message, "meta", None) or {}
        fastmcp_meta = meta.get("fastmcp") if isinstance(meta, Mapping) else None
        version = fastmcp_meta.get("version") if isinstance(fastmcp_meta, Mapping) else None
        tool = await server.get_tool(context.message.name, version) if version is not None else await server.get_tool(context.message.name)
    except Exception:
        return _ACCEPTS_NOTHING  # unknowable: no structuredContent rather than a broken one
    return None if tool is None else _schema_option(getattr(tool, "output_schema", None))
