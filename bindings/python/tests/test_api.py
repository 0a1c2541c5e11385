"""The API report: the public surface of the package (every name in `__all__`, with its
signature, and each public class's members), checked in as `bindings/python/api-report.txt`.
A change of public API is deliberate: this test fails until the report is updated
(`MCP_ERRORS_UPDATE_API=1 pytest` rewrites it)."""

import enum
import inspect
import importlib
import os
from pathlib import Path

import mcp_errors

REPORT = Path(__file__).resolve().parents[1] / "api-report.txt"


def _describe(name: str, obj: object) -> list[str]:
    if inspect.isclass(obj):
        bases = ", ".join(b.__name__ for b in obj.__bases__)
        out = [f"class {name}({bases})"]
        if issubclass(obj, enum.Enum):
            out += [f"    {m.name} = {m.value!r}" for m in obj]
            return out
        for attr, value in sorted(vars(obj).items()):
            if attr.startswith("_") and attr != "__init__":
                continue
            if callable(value) or isinstance(value, (staticmethod, classmethod)):
                fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
                kind = "staticmethod " if isinstance(value, staticmethod) else "classmethod " if isinstance(value, classmethod) else ""
                out.append(f"    {kind}def {attr}{inspect.signature(fn)}")
            elif isinstance(value, property):
                out.append(f"    property {attr}")
        for field, annotation in getattr(obj, "__annotations__", {}).items():
            out.append(f"    {field}: {annotation}")
        return out
    if callable(obj):
        return [f"def {name}{inspect.signature(obj)}"]
    return [f"{name} = {obj!r}"]


def test_the_public_surface_is_the_checked_in_api_report():
    lines: list[str] = []
    for name in sorted(mcp_errors.__all__):
        lines += _describe(name, getattr(mcp_errors, name))
    # The FastMCP middleware's module (imported only by FastMCP users).
    fastmcp_module = importlib.import_module("mcp_errors.fastmcp")
    for name in sorted(fastmcp_module.__all__):
        lines += _describe(f"fastmcp.{name}", getattr(fastmcp_module, name))
    report = "\n".join(lines) + "\n"
    if os.environ.get("MCP_ERRORS_UPDATE_API") == "1":
        REPORT.write_text(report)
    assert report == REPORT.read_text(), (
        "the public API changed: review the diff, then run MCP_ERRORS_UPDATE_API=1 pytest"
    )
