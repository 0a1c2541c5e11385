"""`python -m mcp_errors classify|render|taxonomy|schema`: JSON lines in, one JSON
line out per input line, byte for byte what the Rust and npm CLIs print;
`python -m mcp_errors proxy [options] -- COMMAND …` (`_proxy.py`).

Only I/O lives here: what the arguments mean, the usage text and what each
input line becomes are the core's (the component's `cli` interface). The one
change made here: run as the `mcp-errors-py` console script, the usage and
error messages name `mcp-errors-py` (`python -m mcp_errors` prints the core's
`mcp-errors`, byte for byte the Rust and npm CLIs)."""

from __future__ import annotations

import json
import os
import sys

from wasmtime import component as wc

from ._engine import ENGINE, McpErrorsError


def _failed_line(e: McpErrorsError, number: int) -> str:
    """A line the component could not answer (it trapped): an error line all the same."""
    return json.dumps(
        {"error": {"kind": e.kind, "message": e.message, "line": number}},
        ensure_ascii=False,
        separators=(",", ":"),
    )


_NAME = "mcp-errors"
_SCRIPT = "mcp-errors-py"  # the console script (pyproject.toml)


def _program() -> str:
    """The name to print: the console script's when run as it, else the core's."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    for suffix in (".exe", "-script.py"):
        name = name.removesuffix(suffix)
    return _SCRIPT if name == _SCRIPT else _NAME


def _named(text: str, program: str) -> str:
    """The core's usage and error text, naming `program`: the usage lines it starts, the
    continuation lines aligned under them, and the `mcp-errors: ` prefix of a message."""
    if program == _NAME:
        return text
    pad = " " * (len(program) - len(_NAME))
    lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith(f"{_NAME}: "):
            line = program + line[len(_NAME) :]
        elif line.startswith(f"  {_NAME} "):
            line = f"  {program}" + line[2 + len(_NAME) :]
        elif line.startswith(" " * (len(_NAME) + 3)) and line.lstrip().startswith("["):
            line = pad + line
        lines.append(line)
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["proxy"]:
        from ._proxy import run

        return run(args[1:])
    program = _program()
    try:
        plan = ENGINE.call_cli("start", args)
    except McpErrorsError as e:
        sys.stderr.write(f"{program}: {e.message}\n")
        return 1
    out = sys.stdout
    # The `plan` variant, as wasmtime-py lifts it: a variant whose cases carry
    # different Python types comes back as the bare payload.
    if isinstance(plan, wc.Variant):
        plan = plan.payload
    if not isinstance(plan, str):  # `finish`
        out.write(_named(plan.stdout, program))
        out.flush()
        sys.stderr.write(_named(plan.stderr, program))
        return int(plan.status)
    command = plan  # `lines`
    failed = False
    for number, raw_line in enumerate(sys.stdin.buffer, start=1):
        line_bytes = raw_line.removesuffix(b"\n")
        try:
            try:
                text = line_bytes.decode("utf-8")
            except UnicodeDecodeError as e:
                # The valid prefix is skipped and the rest cut four bytes past
                # the bad sequence's start (the WIT allows both): a long line
                # stays cheap to pass.
                line = ENGINE.call_cli("bad-line", e.start, line_bytes[e.start : e.start + 4], number)
            else:
                line = ENGINE.call_cli("line", command, text, number)
        except McpErrorsError as e:
            failed = True
            out.write(_failed_line(e, number) + "\n")
            continue
        if line is None:
            continue
        failed = failed or bool(line.failed)
        out.write(line.text + "\n")
    out.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
