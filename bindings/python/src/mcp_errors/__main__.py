"""`python -m mcp_errors classify|render|taxonomy|schema`: JSON lines in, one JSON
line out per input line, byte for byte what the Rust and npm CLIs print."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, NoReturn

from . import McpErrorsError, classify_json, render_json, schema, taxonomy

USAGE = """usage:
  mcp-errors classify [--now RFC3339] [--limits JSON] [--rules JSON]
  mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
                    [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
                    [--extra-fields JSON] [--limits JSON] [--rules JSON] [--mask]
  mcp-errors taxonomy
  mcp-errors schema PROFILE

classify and render read raw errors as JSON lines on stdin and write one JSON
line per input line to stdout. A bad line yields an {"error":…} line.
--limits takes a JSON object such as {"max_message_chars":500}.
--rules takes a JSON array of recognizer rules (see the README).

profiles: canonical, tool-error-v1, mcp-tool-error, text, error-object, rpc-envelope
formats:  markdown, json, both
specs:    2025-06-18, 2025-11-25, 2026-07-28
targets:  tool-result, soft-result, protocol-error, needs-input, log-record"""

_FLAGS = {
    "--profile": "profile",
    "--format": "format",
    "--spec": "spec",
    "--target": "target",
    "--now": "now",
    "--id": "error_id",
    "--tool": "tool_name",
    "--output-schema": "output_schema",
    "--extra-fields": "extra_fields",
    "--limits": "limits",
    "--rules": "rules",
}


def _usage(message: str) -> NoReturn:
    sys.stderr.write(f"mcp-errors: {message}\n\n{USAGE}\n")
    raise SystemExit(2)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _utf8_error(line: bytes, e: UnicodeDecodeError) -> str:
    """Rust's `Utf8Error` text, so every CLI says the same thing."""
    if "unexpected end of data" in e.reason:
        return f"incomplete utf-8 byte sequence from index {e.start}"
    return f"invalid utf-8 sequence of {e.end - e.start} bytes from index {e.start}"


# Any valid time: what checking a flag alone renders with.
_CHECK_TIME = "2000-01-01T00:00:00Z"


def _json_flag(flag: str, text: str) -> Any:
    """A flag's JSON value. Whether it is JSON is the core's parser's call (as in every
    CLI): `json.loads` alone would take NaN, deeper nesting and lone surrogates."""
    try:
        classify_json(text)
    except McpErrorsError:
        _usage(f"{flag} must be JSON")
    return json.loads(text)


def _core_checks(call: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """The core's own check of a value (a call that must not fail), as a usage error."""
    try:
        call(*args, **kwargs)
    except McpErrorsError as e:
        _usage(e.message)


def _rules(text: str) -> str:
    """`--rules` JSON text, checked by the core; any mistake is a usage error."""
    _json_flag("--rules", text)
    _core_checks(classify_json, "{}", rules=text)
    return text


def _limits(text: str) -> Any:
    """`--limits` JSON, checked by the core; any mistake is a usage error."""
    limits = _json_flag("--limits", text)
    _core_checks(classify_json, "{}", limits=limits)
    return limits


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "-h" in args or "--help" in args:
        print(USAGE)
        return 0
    if not args:
        _usage("missing command")
    command, rest = args[0], args[1:]
    out = sys.stdout
    if command == "taxonomy":
        if rest:
            _usage("taxonomy takes no arguments")
        for row in taxonomy():
            out.write(_dump(row) + "\n")
        return 0
    if command == "schema":
        if len(rest) != 1:
            _usage("schema takes one profile name")
        try:
            out.write(_dump(schema(rest[0])) + "\n")  # type: ignore[arg-type]
        except McpErrorsError as e:
            _usage(e.message)
        return 0
    handle: Callable[[str], str]
    if command == "classify":
        now = None
        limits = None
        rules = None
        i = 0
        # Each flag checked as it is read, in the order given, as in the other CLIs.
        while i < len(rest):
            if rest[i] not in ("--now", "--limits", "--rules") or i + 1 >= len(rest):
                _usage("classify takes only --now, --limits and --rules")
            if rest[i] == "--now":
                now = rest[i + 1]
                _core_checks(classify_json, "{}", now=now)
            elif rest[i] == "--rules":
                rules = _rules(rest[i + 1])
            else:
                limits = _limits(rest[i + 1])
            i += 2
        handle = lambda line: classify_json(line, now=now, limits=limits, rules=rules)  # noqa: E731
    elif command == "render":
        options: dict[str, Any] = {"now": None}
        i = 0
        while i < len(rest):
            flag = rest[i]
            if flag == "--mask":
                options["mask"] = True
                i += 1
                continue
            if flag not in _FLAGS:
                _usage(f"unknown argument {json.dumps(flag, ensure_ascii=False)}")
            if i + 1 >= len(rest):
                _usage(f"{flag} needs a value")
            value: Any = rest[i + 1]
            if flag == "--limits":
                value = _limits(value)
            elif flag == "--rules":
                value = _rules(value)
            elif flag == "--extra-fields":
                value = _json_flag(flag, value)
            options[_FLAGS[flag]] = value
            # Each flag checked as it is read, in the order given, as in the other CLIs:
            # this one alone, by rendering an empty error with it.
            _core_checks(render_json, "{}", **{"now": _CHECK_TIME, _FLAGS[flag]: value})
            i += 2
        # Together, in case the core refuses a combination (with a time, as above).
        _core_checks(render_json, "{}", **{**options, "now": options["now"] or _CHECK_TIME})
        handle = lambda line: render_json(line, **options)  # noqa: E731
    else:
        _usage(f"unknown command {json.dumps(command, ensure_ascii=False)}")
    failed = False
    for number, raw_line in enumerate(sys.stdin.buffer, start=1):
        line_bytes = raw_line.removesuffix(b"\n").removesuffix(b"\r")
        try:
            line = line_bytes.decode("utf-8")
        except UnicodeDecodeError as e:
            failed = True
            message = f"line is not UTF-8: {_utf8_error(line_bytes, e)}"
            out.write(_dump({"error": {"kind": "invalid_input", "message": message, "line": number}}) + "\n")
            continue
        # Blank: JSON whitespace only (what the parser itself skips), in every CLI;
        # a byte-order mark or a \x1c is not blank.
        if not line_bytes.strip(b" \t\r\n"):
            continue
        try:
            result = handle(line)
        except McpErrorsError as e:
            failed = True
            result = _dump({"error": {"kind": e.kind, "message": e.message, "line": number}})
        out.write(result + "\n")
    out.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
