"""Server-wide error results for FastMCP 4 (`pip install fastmcp`): one line per server.

    from fastmcp import FastMCP
    from mcp_errors.fastmcp import ErrorMiddleware

    mcp = FastMCP("weather")
    mcp.add_middleware(ErrorMiddleware(profile="tool-error-v1"))

Any tool's failure becomes the error result the options describe, named after the tool the
request called, with a log record as in `tool_errors` (one classification, one error id).
`tools` maps a tool's name to its own options. FastMCP's own `ToolError` is a deliberate
error: its message is shown and its `log_level` never lands in `details`; the `ToolError`
FastMCP wraps around any other exception ("Error calling tool …") is looked through to the
tool's own exception. Unless `mask` is given, FastMCP's `mask_error_details` decides whether
unexpected errors are masked. A protocol error (`McpError`) stays one.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Mapping

from fastmcp.server.middleware import Middleware, MiddlewareContext
from fastmcp.tools.base import ToolResult
from mcp_types import TextContent

from . import _error_result, _is_protocol_error

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
        self.hints = hints
        self.logger = logger
        self.tools = dict(tools or {})
        self.options = options

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: Any) -> Any:
        try:
            return await call_next(context)
        except Exception as exc:
            if _is_protocol_error(exc):
                raise
            name = context.message.name
            options = {**self.options, **self.tools.get(name, {})}
            if "mask" not in options:
                server = getattr(context.fastmcp_context, "fastmcp", None)
                setting = getattr(server, "_mask_error_details", None)
                if isinstance(setting, bool):
                    options["mask"] = setting
            result = _error_result(exc, name, self.hints, self.logger, options)
            return ToolResult(
                content=[TextContent.model_validate(block) for block in result["content"]],
                structured_content=result.get("structuredContent"),
                meta=result.get("_meta"),
                is_error=bool(result.get("isError", False)),
            )
